import unittest
from decimal import Decimal

from tills import tax


class TaxOnTest(unittest.TestCase):
    def test_standard(self):
        self.assertEqual(tax.tax_on("10.00"), Decimal("2.00"))

    def test_reduced(self):
        self.assertEqual(tax.tax_on("10.00", "reduced"), Decimal("0.50"))

    def test_zero_band(self):
        self.assertEqual(tax.tax_on("10.00", "zero"), Decimal("0.00"))

    def test_half_cent_rounds_up(self):
        self.assertEqual(tax.tax_on("0.25", "reduced"), Decimal("0.01"))

    def test_another_half_cent(self):
        self.assertEqual(tax.tax_on("0.125"), Decimal("0.03"))

    def test_unknown_band(self):
        with self.assertRaises(KeyError):
            tax.tax_on("1", "luxury")


class GrossTest(unittest.TestCase):
    def test_standard_gross(self):
        self.assertEqual(tax.gross("10.00"), Decimal("12.00"))

    def test_reduced_gross(self):
        self.assertEqual(tax.gross("19.99", "reduced"), Decimal("20.99"))

    def test_zero_gross(self):
        self.assertEqual(tax.gross("7.50", "zero"), Decimal("7.50"))


class NetFromGrossTest(unittest.TestCase):
    def test_standard(self):
        self.assertEqual(tax.net_from_gross("12.00"), Decimal("10.00"))

    def test_reduced(self):
        self.assertEqual(tax.net_from_gross("21.00", "reduced"), Decimal("20.00"))

    def test_rounds_to_cents(self):
        self.assertEqual(tax.net_from_gross("10.00"), Decimal("8.33"))

    def test_round_trip(self):
        self.assertEqual(tax.gross(tax.net_from_gross("24.00")), Decimal("24.00"))
