"""Friendly wording for due dates."""

from __future__ import annotations

from datetime import date

from remind import schedule

_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def humanize(due: date, now: date | None = None) -> str:
    days = schedule.days_until(due, now)
    if days == 0:
        return "today"
    if days == 1:
        return "tomorrow"
    if days == -1:
        return "yesterday"
    if 1 < days < 7:
        return f"on {_WEEKDAYS[due.weekday()]}"
    if days < 0:
        return f"{-days} days ago"
    return f"in {days} days"


def short(day: date) -> str:
    return f"{day.day} {day.strftime('%b')} {day.year}"


def iso_week(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def agenda_line(text: str, due: date | None, now: date | None = None, done: bool = False) -> str:
    box = "[x]" if done else "[ ]"
    when = "" if due is None else f" ({humanize(due, now)})"
    return f"{box} {text}{when}"
