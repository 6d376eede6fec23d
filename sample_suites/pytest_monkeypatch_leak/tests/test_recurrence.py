import datetime

import pytest

from remind.recurrence import Rule, add_months, occurrences, parse

D = datetime.date


@pytest.mark.parametrize("text,rule", [
    ("daily", Rule("day", 1)), ("Weekly", Rule("week", 1)), ("monthly", Rule("month", 1)),
    ("yearly", Rule("year", 1)), ("every 3 days", Rule("day", 3)), ("every 2 weeks", Rule("week", 2)),
    ("every  6   months", Rule("month", 6)), ("every 1 year", Rule("year", 1)),
])
def test_parse(text, rule):
    assert parse(text) == rule


@pytest.mark.parametrize("text", ["hourly", "every 0 days", "every two weeks", "", "every 3 fortnights"])
def test_parse_rejects(text):
    with pytest.raises(ValueError, match="cannot understand"):
        parse(text)


@pytest.mark.parametrize("day,months,expected", [
    (D(2024, 1, 31), 1, D(2024, 2, 29)), (D(2023, 1, 31), 1, D(2023, 2, 28)), (D(2024, 3, 31), 1, D(2024, 4, 30)),
    (D(2024, 11, 15), 3, D(2025, 2, 15)), (D(2024, 5, 10), -6, D(2023, 11, 10)), (D(2024, 2, 29), 12, D(2025, 2, 28)),
])
def test_add_months_clamps(day, months, expected):
    assert add_months(day, months) == expected


def test_daily_occurrences(monday):
    assert occurrences(monday, Rule("day", 1), 3) == [monday, D(2024, 6, 4), D(2024, 6, 5)]


def test_fortnightly_occurrences(monday):
    assert occurrences(monday, Rule("week", 2), 3)[-1] == D(2024, 7, 1)


def test_monthly_occurrences_keep_day_of_month():
    assert occurrences(D(2024, 1, 31), Rule("month", 1), 4) == [D(2024, 1, 31), D(2024, 2, 29), D(2024, 3, 31), D(2024, 4, 30)]


def test_yearly_from_leap_day():
    assert occurrences(D(2024, 2, 29), Rule("year", 1), 2) == [D(2024, 2, 29), D(2025, 2, 28)]


def test_zero_occurrences(new_year):
    assert occurrences(new_year, Rule("day", 1), 0) == []
