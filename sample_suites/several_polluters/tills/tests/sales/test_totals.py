import unittest
from decimal import Decimal

from tills import money, receipt


class ExplicitLocaleTest(unittest.TestCase):
    def test_euro_german(self):
        self.assertEqual(money.format_amount(Decimal("1234.50"), "EUR", "de_DE"), "1.234,50\u00a0\u20ac")

    def test_pound_british(self):
        self.assertEqual(money.format_amount(Decimal("9.99"), "GBP", "en_GB"), "\u00a39.99")

    def test_yen_no_decimals(self):
        self.assertEqual(money.format_amount(Decimal("1500"), "JPY", "en_US"), "\u00a51,500")

    def test_dinar_three_places(self):
        self.assertEqual(money.format_amount(Decimal("2.5"), "KWD", "en_US"), "KD2.500")

    def test_unknown_currency(self):
        with self.assertRaises(KeyError):
            money.format_amount(Decimal("1"), "XYZ", "en_US")


class TotalLineTest(unittest.TestCase):
    def test_total_line_default_format(self):
        line = receipt.total_line(Decimal("1234.565"), "USD")
        expected = "Total: $1,234.56"  # US symbol, US separators, banker's rounding
        if line != expected:
            self.fail("total line is not in the shop's default format\n  got:      %r\n  expected: %r"
                      % (line, expected))


class TotalsLayoutTest(unittest.TestCase):
    def test_total_line_prefix(self):
        self.assertTrue(receipt.total_line(Decimal("1"), "GBP").startswith("Total: "))

    def test_rule_width(self):
        self.assertEqual(receipt.rule(10), "----------")

    def test_item_line_pads(self):
        self.assertEqual(receipt.item_line("Tea", "2.00", width=12), "Tea     2.00")
