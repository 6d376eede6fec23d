"""Recurring due dates: `daily`, `every N days`, `weekly`, `every N weeks`, `monthly`, `yearly`."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

_EVERY = re.compile(r"^every (\d+) (day|week|month|year)s?$")
_SIMPLE = {"daily": ("day", 1), "weekly": ("week", 1), "monthly": ("month", 1), "yearly": ("year", 1)}


@dataclass(frozen=True)
class Rule:
    unit: str
    interval: int


def parse(text: str) -> Rule:
    text = " ".join(text.lower().split())
    if text in _SIMPLE:
        return Rule(*_SIMPLE[text])
    match = _EVERY.match(text)
    if not match or int(match[1]) == 0:
        raise ValueError(f"cannot understand recurrence {text!r}")
    return Rule(match[2], int(match[1]))


def add_months(day: date, months: int) -> date:
    """Same day of the month, clamped to the month's end (Jan 31 + 1 month = Feb 28/29)."""
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def occurrences(start: date, rule: Rule, count: int) -> list[date]:
    result = []
    for n in range(count):
        if rule.unit == "day":
            result.append(start + timedelta(days=n * rule.interval))
        elif rule.unit == "week":
            result.append(start + timedelta(weeks=n * rule.interval))
        elif rule.unit == "month":
            result.append(add_months(start, n * rule.interval))
        else:
            result.append(add_months(start, 12 * n * rule.interval))
    return result
