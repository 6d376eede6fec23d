import unittest

from ledgerkit import summary


class SummaryHeaderTest(unittest.TestCase):
    def test_explicit_currency(self):
        self.assertEqual(summary.header("Q3", "GBP"), "Q3 (GBP)")

    def test_header_uses_default_currency(self):
        # The victim: fails when an earlier test changed the default currency and nothing reset it.
        self.assertEqual(summary.header("Q3"), "Q3 (USD)")

    def test_title_kept(self):
        self.assertTrue(summary.header("Annual report", "USD").startswith("Annual report"))


class FormatAmountTest(unittest.TestCase):
    def test_cents(self):
        self.assertEqual(summary.format_amount(123456), "1,234.56")

    def test_negative(self):
        self.assertEqual(summary.format_amount(-5050), "-50.50")

    def test_no_places(self):
        self.assertEqual(summary.format_amount(4200, places=0), "42")
