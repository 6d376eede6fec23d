import pytest

from mailq.message import Message


class RecordingSMTP:
    """A transport that records what it is given, and which recipients the test expects."""

    def __init__(self):
        self.sent = []
        self.expected = set()

    def expect(self, *addresses):
        self.expected.update(addresses)

    def send(self, message):
        self.sent.append(message)


@pytest.fixture
def smtp():
    """Fails the test at teardown if anything was sent to a recipient the test did not expect."""
    fake = RecordingSMTP()
    yield fake
    unexpected = [m.summary() for m in fake.sent if m.to not in fake.expected]
    assert not unexpected, f"fake SMTP got {len(unexpected)} unexpected message(s): {unexpected}"


@pytest.fixture
def message():
    return Message("someone@example.com", "Your invoice", "Please find attached ...")
