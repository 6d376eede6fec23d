import pytest

from mailq.bounces import Bounce, Suppression, classify


@pytest.mark.parametrize("line,code,hard,reason", [
    ("550 5.1.1 <x@example.com>: Recipient address rejected: User unknown", "5.1.1", True, "mailbox does not exist"),
    ("550 5.1.2 Host unknown", "5.1.2", True, "domain does not exist"),
    ("550 5.2.1 The email account that you tried to reach is disabled", "5.2.1", True, "mailbox disabled"),
    ("452 4.2.2 The email account that you tried to reach is over quota", "4.2.2", False, "mailbox full"),
    ("552 5.3.4 Message size exceeds fixed limit", "5.3.4", True, "message too big"),
    ("Status: 4.4.7 (delivery time expired)", "4.4.7", False, "delivery timed out"),
    ("550 5.7.1 Relaying denied", "5.7.1", True, "delivery not authorized"),
    ("421 4.7.0 Try again later, closing connection", "4.7.0", False, "other"),
    ("554 5.6.0 Mail message is malformed", "5.6.0", True, "other"),
])
def test_classify(line, code, hard, reason):
    assert classify(line) == Bounce(code, hard, reason)


@pytest.mark.parametrize("line", [
    "250 2.0.0 OK queued as 12345",
    "Status: 2.1.5 (destination address valid)",
    "Connection closed by foreign host",
    "",
    "version 5.10 released",
])
def test_not_a_bounce(line):
    assert classify(line) is None


def test_first_status_code_wins():
    assert classify("4.2.2 then 5.1.1").code == "4.2.2"


HARD = Bounce("5.1.1", True, "mailbox does not exist")
SOFT = Bounce("4.2.2", False, "mailbox full")


def test_not_suppressed_initially():
    assert not Suppression().suppressed("a@x.org")


def test_suppressed_after_limit():
    s = Suppression(limit=2)
    s.record("a@x.org", HARD)
    assert not s.suppressed("a@x.org")
    s.record("a@x.org", HARD)
    assert s.suppressed("a@x.org")


def test_soft_bounces_never_suppress():
    s = Suppression(limit=1)
    for _ in range(10):
        s.record("a@x.org", SOFT)
    assert not s.suppressed("a@x.org")


def test_suppression_ignores_case():
    s = Suppression(limit=1)
    s.record("A@X.org", HARD)
    assert s.suppressed("a@x.ORG")


def test_forgive():
    s = Suppression(limit=1)
    s.record("a@x.org", HARD)
    s.forgive("a@x.org")
    assert not s.suppressed("a@x.org")


def test_forgive_unknown_address():
    Suppression().forgive("nobody@x.org")


@pytest.mark.parametrize("limit,bounces,suppressed", [(1, 1, True), (3, 2, False), (3, 3, True), (5, 9, True)])
def test_limits(limit, bounces, suppressed):
    s = Suppression(limit=limit)
    for _ in range(bounces):
        s.record("a@x.org", HARD)
    assert s.suppressed("a@x.org") is suppressed
