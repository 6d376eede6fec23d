import datetime

import pytest

from remind import formatting, schedule

D = datetime.date


class _LeapDay(datetime.date):
    """A `date` whose today() is 29 February 2024."""

    @classmethod
    def today(cls):
        return cls(2024, 2, 29)


@pytest.mark.parametrize("offset,text", [
    (0, "today"), (1, "tomorrow"), (-1, "yesterday"), (2, "on Wednesday"), (6, "on Sunday"),
    (7, "in 7 days"), (30, "in 30 days"), (-2, "2 days ago"), (-45, "45 days ago"),
])
def test_humanize(monday, offset, text):
    assert formatting.humanize(monday + datetime.timedelta(days=offset), now=monday) == text


def test_humanize_relative_to_frozen_leap_day():
    schedule.date = _LeapDay  # freeze "today" for the default `now`
    assert formatting.humanize(D(2024, 3, 1)) == "tomorrow"
    assert formatting.humanize(D(2024, 2, 28)) == "yesterday"


@pytest.mark.parametrize("day,text", [
    (D(2024, 2, 29), "29 Feb 2024"), (D(1999, 12, 31), "31 Dec 1999"), (D(2025, 7, 4), "4 Jul 2025"),
])
def test_short(day, text):
    assert formatting.short(day) == text


@pytest.mark.parametrize("day,week", [
    (D(2024, 1, 1), "2024-W01"), (D(2024, 12, 30), "2025-W01"), (D(2021, 1, 3), "2020-W53"), (D(2026, 6, 15), "2026-W25"),
])
def test_iso_week(day, week):
    assert formatting.iso_week(day) == week


def test_agenda_line_without_due_date():
    assert formatting.agenda_line("water plants", None) == "[ ] water plants"


def test_agenda_line_done(monday):
    assert formatting.agenda_line("pay rent", monday, now=monday, done=True) == "[x] pay rent (today)"


def test_agenda_line_future(monday):
    due = monday + datetime.timedelta(days=10)
    assert formatting.agenda_line("dentist", due, now=monday) == "[ ] dentist (in 10 days)"
