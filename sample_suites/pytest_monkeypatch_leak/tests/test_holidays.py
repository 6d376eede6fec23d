import datetime

import pytest

from remind.holidays import easter, holidays, is_holiday

D = datetime.date


@pytest.mark.parametrize("year,day", [
    (1961, D(1961, 4, 2)), (2000, D(2000, 4, 23)), (2008, D(2008, 3, 23)), (2019, D(2019, 4, 21)),
    (2024, D(2024, 3, 31)), (2025, D(2025, 4, 20)), (2038, D(2038, 4, 25)), (2285, D(2285, 3, 22)),
])
def test_easter(year, day):
    assert easter(year) == day


def test_easter_is_always_a_sunday():
    assert {easter(y).weekday() for y in range(1900, 2100)} == {6}


@pytest.mark.parametrize("day", [D(2024, 1, 1), D(2024, 3, 29), D(2024, 4, 1), D(2024, 5, 9), D(2024, 10, 3), D(2024, 12, 26)])
def test_german_holidays(day):
    assert is_holiday(day, "DE")


@pytest.mark.parametrize("day", [D(2024, 7, 14), D(2024, 11, 11), D(2024, 5, 8)])
def test_french_holidays(day):
    assert is_holiday(day, "FR")


def test_bastille_day_is_not_german():
    assert not is_holiday(D(2024, 7, 14), "DE")


def test_good_friday_is_not_french():
    assert not is_holiday(D(2024, 3, 29), "FR")


def test_holidays_are_sorted():
    days = holidays(2025, "FR")
    assert days == sorted(days)


@pytest.mark.parametrize("country,count", [("DE", 9), ("FR", 11), ("GB", 5)])
def test_holiday_count(country, count):
    assert len(holidays(2024, country)) == count


def test_unknown_country():
    with pytest.raises(KeyError, match="'XX'"):
        holidays(2024, "XX")
