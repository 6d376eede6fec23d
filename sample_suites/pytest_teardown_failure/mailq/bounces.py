"""Bounce handling: classify DSN status codes and suppress addresses that keep hard-bouncing."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_STATUS = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")
_REASONS = {
    (1, 1): "mailbox does not exist",
    (1, 2): "domain does not exist",
    (2, 1): "mailbox disabled",
    (2, 2): "mailbox full",
    (3, 4): "message too big",
    (4, 7): "delivery timed out",
    (7, 1): "delivery not authorized",
}


@dataclass(frozen=True)
class Bounce:
    code: str
    hard: bool
    reason: str


def classify(text: str) -> Bounce | None:
    """The first enhanced status code in a DSN line; 2.x.x is a delivery, not a bounce."""
    match = _STATUS.search(text)
    if match is None or match[1] == "2":
        return None
    klass, subject, detail = int(match[1]), int(match[2]), int(match[3])
    reason = _REASONS.get((subject, detail), "other")
    return Bounce(match[0], klass == 5, reason)


class Suppression:
    """Addresses are suppressed after `limit` hard bounces; soft bounces never count."""

    def __init__(self, limit: int = 2) -> None:
        self.limit = limit
        self._hard: Counter[str] = Counter()

    def record(self, address: str, bounce: Bounce) -> None:
        if bounce.hard:
            self._hard[address.lower()] += 1

    def suppressed(self, address: str) -> bool:
        return self._hard[address.lower()] >= self.limit

    def forgive(self, address: str) -> None:
        self._hard.pop(address.lower(), None)
