import pytest

from mailq.message import Message
from mailq.transport import DomainThrottle, Retrying, TemporaryFailure


class Greylisting:
    """Refuses each recipient's first `refusals` attempts, like a greylisting server."""

    def __init__(self, refusals):
        self.refusals = refusals
        self.attempts = {}
        self.delivered = []

    def send(self, message):
        seen = self.attempts.get(message.to, 0)
        self.attempts[message.to] = seen + 1
        if seen < self.refusals:
            raise TemporaryFailure("451 greylisted")
        self.delivered.append(message)


def _msg(to="a@x.org"):
    return Message(to, "Hi", "...")


@pytest.mark.parametrize("refusals,attempts,retries", [(0, 3, 0), (1, 3, 1), (2, 3, 2), (4, 5, 4)])
def test_retrying_delivers_after_temporary_failures(refusals, attempts, retries):
    server = Greylisting(refusals)
    transport = Retrying(server, attempts)
    transport.send(_msg())
    assert len(server.delivered) == 1
    assert transport.retries == retries


@pytest.mark.parametrize("refusals,attempts", [(3, 3), (1, 1), (9, 5)])
def test_retrying_gives_up(refusals, attempts):
    with pytest.raises(TemporaryFailure):
        Retrying(Greylisting(refusals), attempts).send(_msg())


def test_retrying_needs_an_attempt():
    with pytest.raises(ValueError):
        Retrying(Greylisting(0), attempts=0)


def test_permanent_errors_are_not_retried():
    class Broken:
        calls = 0

        def send(self, message):
            Broken.calls += 1
            raise ConnectionRefusedError("550")

    with pytest.raises(ConnectionRefusedError):
        Retrying(Broken(), attempts=5).send(_msg())
    assert Broken.calls == 1


def test_throttle_per_domain():
    server = Greylisting(0)
    throttle = DomainThrottle(server, per_domain=2)
    throttle.send(_msg("a@x.org"))
    throttle.send(_msg("b@x.org"))
    with pytest.raises(TemporaryFailure, match="throttled: x.org"):
        throttle.send(_msg("c@x.org"))
    throttle.send(_msg("d@y.org"))
    assert [m.to for m in server.delivered] == ["a@x.org", "b@x.org", "d@y.org"]


def test_throttle_new_batch_resets():
    throttle = DomainThrottle(Greylisting(0), per_domain=1)
    throttle.send(_msg())
    throttle.new_batch()
    throttle.send(_msg())
    assert throttle.counts["x.org"] == 1


def test_throttle_counts_only_delivered():
    throttle = DomainThrottle(Greylisting(5), per_domain=1)
    with pytest.raises(TemporaryFailure):
        throttle.send(_msg())
    assert throttle.counts["x.org"] == 0
