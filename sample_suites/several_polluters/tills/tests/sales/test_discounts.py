import unittest
from decimal import Decimal

from tills import discounts


class PercentOffTest(unittest.TestCase):
    def test_ten_percent(self):
        self.assertEqual(discounts.percent_off(Decimal("50"), 10), Decimal("45"))

    def test_zero_percent(self):
        self.assertEqual(discounts.percent_off(Decimal("50"), 0), Decimal("50"))

    def test_hundred_percent(self):
        self.assertEqual(discounts.percent_off(Decimal("50"), 100), Decimal("0"))

    def test_fractional_percent(self):
        self.assertEqual(discounts.percent_off(Decimal("200"), Decimal("12.5")), Decimal("175"))

    def test_over_hundred_rejected(self):
        with self.assertRaises(ValueError):
            discounts.percent_off(Decimal("50"), 101)

    def test_negative_rejected(self):
        with self.assertRaises(ValueError):
            discounts.percent_off(Decimal("50"), -5)


class AmountOffTest(unittest.TestCase):
    def test_amount(self):
        self.assertEqual(discounts.amount_off(Decimal("20.00"), "5.50"), Decimal("14.50"))

    def test_never_below_zero(self):
        self.assertEqual(discounts.amount_off(Decimal("3"), "5"), Decimal("0"))

    def test_exactly_zero(self):
        self.assertEqual(discounts.amount_off(Decimal("5"), "5"), Decimal("0"))


class FreeItemsTest(unittest.TestCase):
    def test_buy_two_get_one(self):
        self.assertEqual(discounts.free_items(3, 2), 1)

    def test_not_enough(self):
        self.assertEqual(discounts.free_items(2, 2), 0)

    def test_several_free(self):
        self.assertEqual(discounts.free_items(7, 2), 2)

    def test_buy_one_get_one(self):
        self.assertEqual(discounts.free_items(4, 1), 2)

    def test_buy_zero_rejected(self):
        with self.assertRaises(ValueError):
            discounts.free_items(4, 0)
