import pytest

from mailq import outbox
from mailq.message import Message
from mailq.outbox import Outbox
from mailq.templates import WELCOME, render


class FlakyAfter:
    def __init__(self, ok):
        self.ok = ok
        self.sent = []

    def send(self, message):
        if len(self.sent) >= self.ok:
            raise ConnectionError("connection reset")
        self.sent.append(message)


def _messages(n):
    return [Message(f"user{i}@example.com", f"Message {i}", "...") for i in range(n)]


def test_private_outbox_starts_empty():
    assert len(Outbox()) == 0


def test_enqueue_and_pending_keep_order():
    box = Outbox()
    for m in _messages(3):
        box.enqueue(m)
    assert [m.subject for m in box.pending()] == ["Message 0", "Message 1", "Message 2"]


def test_outbox_limit():
    box = Outbox(limit=2)
    box.enqueue(_messages(1)[0])
    box.enqueue(_messages(1)[0])
    with pytest.raises(OverflowError, match="outbox full"):
        box.enqueue(_messages(1)[0])


def test_flush_private_outbox(smtp):
    box = Outbox()
    messages = _messages(4)
    smtp.expect(*(m.to for m in messages))
    for m in messages:
        box.enqueue(m)
    assert box.flush(smtp) == 4
    assert len(box) == 0


def test_flush_empty_outbox_sends_nothing(smtp):
    assert Outbox().flush(smtp) == 0
    assert smtp.sent == []


def test_failed_send_keeps_rest_queued():
    box = Outbox()
    for m in _messages(5):
        box.enqueue(m)
    transport = FlakyAfter(2)
    with pytest.raises(ConnectionError):
        box.flush(transport)
    assert [m.subject for m in box.pending()] == ["Message 2", "Message 3", "Message 4"]


def test_flush_resumes_after_failure():
    box = Outbox()
    for m in _messages(3):
        box.enqueue(m)
    with pytest.raises(ConnectionError):
        box.flush(FlakyAfter(1))
    assert box.flush(FlakyAfter(10)) == 2


def test_flush_sends_welcome_mail(smtp):
    smtp.expect("new.user@example.com")
    body = render(WELCOME, {"name": "New User", "product": "Mailq", "login": "new.user"})
    outbox.enqueue(Message("new.user@example.com", "Welcome to Mailq", body))
    outbox.flush(smtp)
    assert [m.to for m in smtp.sent if m.subject == "Welcome to Mailq"] == ["new.user@example.com"]


def test_smtp_fixture_records_in_order(smtp):
    smtp.expect("a@x.org", "b@y.org")
    smtp.send(Message("a@x.org", "1", "..."))
    smtp.send(Message("b@y.org", "2", "..."))
    assert [m.subject for m in smtp.sent] == ["1", "2"]


@pytest.mark.parametrize("count", [1, 10, 100])
def test_flush_counts(smtp, count):
    box = Outbox()
    messages = _messages(count)
    smtp.expect(*(m.to for m in messages))
    for m in messages:
        box.enqueue(m)
    assert box.flush(smtp) == count
