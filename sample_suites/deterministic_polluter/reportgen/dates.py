"""Date helpers for reporting periods."""

import datetime


def parse_date(text):
    return datetime.datetime.strptime(text.strip(), "%Y-%m-%d").date()


def quarter_of(day):
    return (day.month - 1) // 3 + 1


def quarter_label(day):
    return "%dQ%d" % (day.year, quarter_of(day))


def month_range(year, month):
    first = datetime.date(year, month, 1)
    if month == 12:
        nxt = datetime.date(year + 1, 1, 1)
    else:
        nxt = datetime.date(year, month + 1, 1)
    return first, nxt - datetime.timedelta(days=1)


def business_days_between(start, end):
    """Weekdays in [start, end)."""
    if end < start:
        raise ValueError("end before start")
    days = 0
    day = start
    while day < end:
        if day.weekday() < 5:
            days += 1
        day += datetime.timedelta(days=1)
    return days


def fiscal_year(day, start_month=7):
    return day.year + 1 if day.month >= start_month else day.year
