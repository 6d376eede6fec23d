"""Public holidays (a few countries), with Easter computed by the anonymous Gregorian algorithm."""

from __future__ import annotations

from datetime import date, timedelta

_FIXED = {
    "DE": [(1, 1), (5, 1), (10, 3), (12, 25), (12, 26)],
    "FR": [(1, 1), (5, 1), (5, 8), (7, 14), (8, 15), (11, 1), (11, 11), (12, 25)],
    "GB": [(1, 1), (12, 25), (12, 26)],
}
_EASTER_OFFSETS = {"DE": [-2, 1, 39, 50], "FR": [1, 39, 50], "GB": [-2, 1]}


def easter(year: int) -> date:
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7  # noqa: E741
    m = (a + 11 * h + 22 * l) // 451
    month, day = divmod(h + l - 7 * m + 114, 31)
    return date(year, month, day + 1)


def holidays(year: int, country: str) -> list[date]:
    if country not in _FIXED:
        raise KeyError(f"no holiday calendar for {country!r}")
    days = [date(year, m, d) for m, d in _FIXED[country]]
    base = easter(year)
    days += [base + timedelta(days=offset) for offset in _EASTER_OFFSETS[country]]
    return sorted(days)


def is_holiday(day: date, country: str) -> bool:
    return day in holidays(day.year, country)
