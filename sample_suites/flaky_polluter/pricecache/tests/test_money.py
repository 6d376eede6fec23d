import unittest

from pricecache import money


class FormatCentsTest(unittest.TestCase):
    def test_dollars(self):
        self.assertEqual(money.format_cents(120), "$1.20")

    def test_zero(self):
        self.assertEqual(money.format_cents(0), "$0.00")

    def test_sub_dollar(self):
        self.assertEqual(money.format_cents(5), "$0.05")

    def test_large(self):
        self.assertEqual(money.format_cents(1234567), "$12345.67")

    def test_negative(self):
        self.assertEqual(money.format_cents(-250), "-$2.50")

    def test_euro_symbol(self):
        self.assertEqual(money.format_cents(199, "EUR"), "\u20ac1.99")

    def test_pound_symbol(self):
        self.assertEqual(money.format_cents(100, "GBP"), "\u00a31.00")

    def test_unknown_currency_uses_code(self):
        self.assertEqual(money.format_cents(1050, "CHF"), "10.50 CHF")


class ParsePriceTest(unittest.TestCase):
    def test_with_symbol(self):
        self.assertEqual(money.parse_price("$1.20"), 120)

    def test_without_symbol(self):
        self.assertEqual(money.parse_price("3.05"), 305)

    def test_whole_units(self):
        self.assertEqual(money.parse_price("7"), 700)

    def test_negative(self):
        self.assertEqual(money.parse_price("-$0.99"), -99)

    def test_whitespace(self):
        self.assertEqual(money.parse_price("  $2.00 "), 200)

    def test_rejects_one_decimal(self):
        with self.assertRaises(ValueError):
            money.parse_price("1.5")

    def test_rejects_letters(self):
        with self.assertRaises(ValueError):
            money.parse_price("abc")

    def test_roundtrip(self):
        self.assertEqual(money.parse_price(money.format_cents(98765)), 98765)


class ArithmeticTest(unittest.TestCase):
    def test_multiply_rounds_half_up(self):
        self.assertEqual(money.multiply(5, 0.5), 3)

    def test_multiply_rounds_down(self):
        self.assertEqual(money.multiply(10, 0.33), 3)

    def test_multiply_negative(self):
        self.assertEqual(money.multiply(-5, 0.5), -3)

    def test_split_evenly_exact(self):
        self.assertEqual(money.split_evenly(300, 3), [100, 100, 100])

    def test_split_evenly_remainder_goes_first(self):
        self.assertEqual(money.split_evenly(100, 3), [34, 33, 33])

    def test_split_evenly_preserves_total(self):
        self.assertEqual(sum(money.split_evenly(1001, 7)), 1001)

    def test_split_evenly_rejects_zero_parts(self):
        with self.assertRaises(ValueError):
            money.split_evenly(100, 0)
