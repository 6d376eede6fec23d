"""Transports with retries and a simple per-domain throttle."""

from __future__ import annotations

from collections import Counter

from mailq.message import Message
from mailq.outbox import Transport


class TemporaryFailure(Exception):
    """The server asked to try again later (4xx)."""


class Retrying:
    """Retries temporary failures up to `attempts` times in total."""

    def __init__(self, inner: Transport, attempts: int = 3) -> None:
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.inner = inner
        self.attempts = attempts
        self.retries = 0

    def send(self, message: Message) -> None:
        for attempt in range(1, self.attempts + 1):
            try:
                self.inner.send(message)
                return
            except TemporaryFailure:
                if attempt == self.attempts:
                    raise
                self.retries += 1


class DomainThrottle:
    """Refuses (temporarily) more than `per_domain` messages to one domain per batch."""

    def __init__(self, inner: Transport, per_domain: int) -> None:
        self.inner = inner
        self.per_domain = per_domain
        self.counts: Counter[str] = Counter()

    def send(self, message: Message) -> None:
        domain = message.to.rpartition("@")[2]
        if self.counts[domain] >= self.per_domain:
            raise TemporaryFailure(f"throttled: {domain}")
        self.inner.send(message)
        self.counts[domain] += 1

    def new_batch(self) -> None:
        self.counts.clear()
