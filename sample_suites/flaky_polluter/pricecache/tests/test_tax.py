import unittest

from pricecache import tax


class TaxRateTest(unittest.TestCase):
    def test_known_region(self):
        self.assertEqual(tax.rate_bp("CA"), 725)

    def test_region_case_insensitive(self):
        self.assertEqual(tax.rate_bp("ny"), 400)

    def test_zero_rate_region(self):
        self.assertEqual(tax.rate_bp("OR"), 0)

    def test_unknown_region(self):
        with self.assertRaises(tax.UnknownRegion):
            tax.rate_bp("ZZ")


class TaxComputationTest(unittest.TestCase):
    def test_tax_rounds_half_up(self):
        self.assertEqual(tax.tax_for(1000, "CA"), 73)

    def test_tax_exact(self):
        self.assertEqual(tax.tax_for(10000, "NY"), 400)

    def test_tax_small_amount_rounds_to_zero(self):
        self.assertEqual(tax.tax_for(1, "TX"), 0)

    def test_exempt_category(self):
        self.assertEqual(tax.tax_for(1000, "CA", "fruit"), 0)

    def test_non_exempt_category(self):
        self.assertEqual(tax.tax_for(1000, "WA", "pantry"), 65)

    def test_gross_adds_tax(self):
        self.assertEqual(tax.gross(2000, "TX"), 2125)

    def test_gross_exempt(self):
        self.assertEqual(tax.gross(2000, "TX", "dairy"), 2000)

    def test_gross_zero_rate(self):
        self.assertEqual(tax.gross(999, "OR"), 999)
