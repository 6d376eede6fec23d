import pytest

from mailq import outbox
from mailq.message import MAX_SUBJECT, Message, fan_out
from mailq.templates import WELCOME, render


def test_message_normalizes_recipient():
    assert Message("  Alice@Example.COM", "Hi", "...").to == "Alice@example.com"


def test_default_sender():
    assert Message("a@x.org", "Hi", "...").sender == "noreply@example.com"


@pytest.mark.parametrize("subject", ["", "   ", "two\nlines", "x" * (MAX_SUBJECT + 1)])
def test_bad_subjects(subject):
    with pytest.raises(ValueError):
        Message("a@x.org", subject, "...")


def test_subject_at_limit_is_fine():
    assert len(Message("a@x.org", "x" * MAX_SUBJECT, "...").subject) == MAX_SUBJECT


def test_summary(message):
    assert message.summary() == "to=someone@example.com subject='Your invoice'"


def test_header_lookup_is_case_insensitive():
    msg = Message("a@x.org", "Hi", "...", headers=(("Reply-To", "support@x.org"), ("X-Campaign", "spring")))
    assert msg.header("reply-to") == "support@x.org"
    assert msg.header("X-CAMPAIGN") == "spring"
    assert msg.header("Cc") is None


def test_fan_out_one_message_per_recipient():
    messages = fan_out(["a@x.org", "b@y.org", "c@z.org"], "Newsletter", "News")
    assert [m.to for m in messages] == ["a@x.org", "b@y.org", "c@z.org"]


def test_fan_out_nobody():
    assert fan_out([], "Newsletter", "News") == []


def test_compose_welcome_mail():
    body = render(WELCOME, {"name": "Ada", "product": "Mailq", "login": "ada"})
    msg = Message("ada@example.com", "Welcome to Mailq", body)
    assert "Hello Ada," in msg.body


def test_enqueue_adds_message_to_outbox():
    draft = Message("audit@example.com", "Quarterly report draft", "see attachment")
    outbox.enqueue(draft)
    assert draft in outbox.OUTBOX.pending()


def test_messages_are_immutable(message):
    with pytest.raises(AttributeError):
        message.subject = "changed"
