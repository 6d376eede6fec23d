import datetime

import pytest

from remind import schedule

D = datetime.date


def test_today_is_a_date():
    assert isinstance(schedule.today(), datetime.date)


@pytest.mark.parametrize("due,days", [(D(2024, 6, 3), 0), (D(2024, 6, 10), 7), (D(2024, 5, 27), -7), (D(2025, 6, 3), 365)])
def test_days_until(monday, due, days):
    assert schedule.days_until(due, now=monday) == days


@pytest.mark.parametrize("due,overdue", [(D(2024, 6, 2), True), (D(2024, 6, 3), False), (D(2024, 6, 4), False)])
def test_is_overdue(monday, due, overdue):
    assert schedule.is_overdue(due, now=monday) is overdue


@pytest.mark.parametrize("day,business", [
    (D(2024, 6, 3), True), (D(2024, 6, 8), False), (D(2024, 6, 9), False),
    (D(2024, 10, 3), False), (D(2024, 12, 24), True), (D(2024, 12, 25), False),
])
def test_is_business_day(day, business):
    assert schedule.is_business_day(day) is business


@pytest.mark.parametrize("start,days,expected", [
    (D(2024, 6, 3), 1, D(2024, 6, 4)), (D(2024, 6, 7), 1, D(2024, 6, 10)), (D(2024, 6, 3), 5, D(2024, 6, 10)),
    (D(2024, 12, 23), 2, D(2024, 12, 27)), (D(2024, 6, 10), -1, D(2024, 6, 7)), (D(2024, 6, 3), 0, D(2024, 6, 3)),
])
def test_add_business_days(start, days, expected):
    assert schedule.add_business_days(start, days) == expected


def test_add_business_days_skips_easter():
    assert schedule.add_business_days(D(2024, 3, 28), 1) == D(2024, 4, 2)


@pytest.mark.parametrize("weekday,expected", [
    (schedule.MONDAY, D(2024, 6, 10)), (schedule.FRIDAY, D(2024, 6, 7)), (schedule.SUNDAY, D(2024, 6, 9)),
])
def test_next_weekday_is_strictly_after(monday, weekday, expected):
    assert schedule.next_weekday(monday, weekday) == expected
