"""Dates relative to today. `today()` is the one place the clock is read."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

from remind.holidays import is_holiday

MONDAY, FRIDAY, SATURDAY, SUNDAY = 0, 4, 5, 6


def today() -> date:
    return date.today()


def days_until(due: date, now: date | None = None) -> int:
    return (due - (now or today())).days


def is_overdue(due: date, now: date | None = None) -> bool:
    return days_until(due, now) < 0


def is_business_day(day: date, country: str = "DE") -> bool:
    return day.weekday() < SATURDAY and not is_holiday(day, country)


def add_business_days(start: date, days: int, country: str = "DE") -> date:
    step = 1 if days >= 0 else -1
    current = start
    remaining = abs(days)
    while remaining:
        current += timedelta(days=step)
        if is_business_day(current, country):
            remaining -= 1
    return current


def next_weekday(start: date, weekday: int) -> date:
    """The next given weekday strictly after `start`."""
    ahead = (weekday - start.weekday() - 1) % 7 + 1
    return start + timedelta(days=ahead)


@dataclass
class Reminder:
    text: str
    created: date
    due: date | None = None
    done: bool = False
    tags: set[str] = field(default_factory=set)

    @classmethod
    def create(cls, text: str, due: date | None = None, tags: set[str] | None = None) -> Reminder:
        if not text.strip():
            raise ValueError("a reminder needs some text")
        created = today()
        if due is not None and due < created:
            raise ValueError(f"due date {due} is before today ({created})")
        return cls(text.strip(), created, due, tags=set(tags or ()))

    def snooze(self, days: int) -> None:
        if self.due is None:
            raise ValueError("cannot snooze a reminder without a due date")
        self.due += timedelta(days=days)

    def complete(self) -> None:
        self.done = True
