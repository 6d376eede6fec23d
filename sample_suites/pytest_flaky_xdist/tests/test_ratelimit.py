import math

import pytest

from sessionstore.ratelimit import RateLimiter


@pytest.fixture
def limiter():
    return RateLimiter(capacity=3, refill_per_second=0.5)


def test_allows_up_to_capacity(limiter):
    assert [limiter.allow("alice", now=0.0) for _ in range(4)] == [True, True, True, False]


def test_keys_are_independent(limiter):
    for _ in range(3):
        limiter.allow("alice", now=0.0)
    assert limiter.allow("bob", now=0.0)


def test_refills_over_time(limiter):
    for _ in range(3):
        limiter.allow("alice", now=0.0)
    assert not limiter.allow("alice", now=1.0)
    assert limiter.allow("alice", now=2.0)


def test_refill_caps_at_capacity(limiter):
    limiter.allow("alice", now=0.0)
    assert [limiter.allow("alice", now=1000.0) for _ in range(4)] == [True, True, True, False]


@pytest.mark.parametrize("spent,elapsed,wait", [(3, 0.0, 2.0), (3, 1.0, 1.0), (2, 0.0, 0.0), (3, 2.0, 0.0)])
def test_retry_after(limiter, spent, elapsed, wait):
    for _ in range(spent):
        limiter.allow("alice", now=0.0)
    assert limiter.retry_after("alice", now=elapsed) == pytest.approx(wait)


def test_retry_after_without_refill():
    limiter = RateLimiter(capacity=1, refill_per_second=0)
    limiter.allow("alice", now=0.0)
    assert math.isinf(limiter.retry_after("alice", now=10.0))


def test_reset(limiter):
    for _ in range(3):
        limiter.allow("alice", now=0.0)
    limiter.reset("alice")
    assert limiter.allow("alice", now=0.0)


def test_reset_unknown_key_is_fine(limiter):
    limiter.reset("nobody")


def test_clock_going_backwards_does_not_refill(limiter):
    for _ in range(3):
        limiter.allow("alice", now=10.0)
    assert not limiter.allow("alice", now=5.0)


@pytest.mark.parametrize("capacity,refill", [(0, 1.0), (-1, 1.0), (1, -0.1)])
def test_bad_configuration(capacity, refill):
    with pytest.raises(ValueError):
        RateLimiter(capacity, refill)
