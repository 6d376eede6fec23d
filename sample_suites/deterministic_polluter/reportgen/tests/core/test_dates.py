import datetime
import unittest

from reportgen import dates

D = datetime.date


class ParseDateTest(unittest.TestCase):
    def test_iso(self):
        self.assertEqual(dates.parse_date("2024-02-29"), D(2024, 2, 29))

    def test_strips_whitespace(self):
        self.assertEqual(dates.parse_date(" 2023-01-05\n"), D(2023, 1, 5))

    def test_rejects_invalid_day(self):
        with self.assertRaises(ValueError):
            dates.parse_date("2023-02-29")

    def test_rejects_other_format(self):
        with self.assertRaises(ValueError):
            dates.parse_date("05/01/2023")


class QuarterTest(unittest.TestCase):
    def test_q1(self):
        self.assertEqual(dates.quarter_of(D(2024, 3, 31)), 1)

    def test_q2(self):
        self.assertEqual(dates.quarter_of(D(2024, 4, 1)), 2)

    def test_q4(self):
        self.assertEqual(dates.quarter_of(D(2024, 12, 31)), 4)

    def test_label(self):
        self.assertEqual(dates.quarter_label(D(2023, 8, 15)), "2023Q3")


class MonthRangeTest(unittest.TestCase):
    def test_january(self):
        self.assertEqual(dates.month_range(2024, 1), (D(2024, 1, 1), D(2024, 1, 31)))

    def test_leap_february(self):
        self.assertEqual(dates.month_range(2024, 2)[1], D(2024, 2, 29))

    def test_common_february(self):
        self.assertEqual(dates.month_range(2023, 2)[1], D(2023, 2, 28))

    def test_december_rolls_year(self):
        self.assertEqual(dates.month_range(2023, 12)[1], D(2023, 12, 31))


class BusinessDaysTest(unittest.TestCase):
    def test_full_week(self):
        self.assertEqual(dates.business_days_between(D(2024, 1, 1), D(2024, 1, 8)), 5)

    def test_weekend_only(self):
        self.assertEqual(dates.business_days_between(D(2024, 1, 6), D(2024, 1, 8)), 0)

    def test_empty_range(self):
        self.assertEqual(dates.business_days_between(D(2024, 1, 3), D(2024, 1, 3)), 0)

    def test_reversed_range(self):
        with self.assertRaises(ValueError):
            dates.business_days_between(D(2024, 1, 3), D(2024, 1, 1))

    def test_fiscal_year_before_july(self):
        self.assertEqual(dates.fiscal_year(D(2024, 6, 30)), 2024)

    def test_fiscal_year_from_july(self):
        self.assertEqual(dates.fiscal_year(D(2024, 7, 1)), 2025)

    def test_fiscal_year_custom_start(self):
        self.assertEqual(dates.fiscal_year(D(2024, 4, 1), start_month=4), 2025)
