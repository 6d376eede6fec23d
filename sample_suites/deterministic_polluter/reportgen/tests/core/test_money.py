import unittest

from reportgen import money


class FormatAmountTest(unittest.TestCase):
    def test_usd(self):
        self.assertEqual(money.format_amount(123456, "USD"), "$1,234.56")

    def test_eur(self):
        self.assertEqual(money.format_amount(995, "EUR"), "\u20ac9.95")

    def test_jpy_has_no_decimals(self):
        self.assertEqual(money.format_amount(1500, "JPY"), "\u00a51,500")

    def test_unknown_currency_suffix(self):
        self.assertEqual(money.format_amount(1000, "SEK"), "10.00 SEK")

    def test_negative(self):
        self.assertEqual(money.format_amount(-5050, "USD"), "-$50.50")

    def test_no_grouping(self):
        self.assertEqual(money.format_amount(123456789, "USD", grouping=False), "$1234567.89")

    def test_three_places(self):
        self.assertEqual(money.format_amount(1234, "USD", places=3), "$1.234")

    def test_zero_places(self):
        self.assertEqual(money.format_amount(42, "USD", places=0), "$42")

    def test_small_fraction_padded(self):
        self.assertEqual(money.format_amount(7, "GBP"), "\u00a30.07")


class ParseAmountTest(unittest.TestCase):
    def test_grouped(self):
        self.assertEqual(money.parse_amount("$1,234.56"), 123456)

    def test_negative(self):
        self.assertEqual(money.parse_amount("-\u20ac2.50"), -250)

    def test_short_fraction(self):
        self.assertEqual(money.parse_amount("3.5"), 350)

    def test_no_fraction(self):
        self.assertEqual(money.parse_amount("12"), 1200)

    def test_roundtrip(self):
        self.assertEqual(money.parse_amount(money.format_amount(-98765, "USD")), -98765)


class PercentTest(unittest.TestCase):
    def test_simple(self):
        self.assertEqual(money.percent(1, 4), "25.0%")

    def test_places(self):
        self.assertEqual(money.percent(1, 3, places=2), "33.33%")

    def test_zero_whole(self):
        self.assertEqual(money.percent(5, 0), "n/a")
