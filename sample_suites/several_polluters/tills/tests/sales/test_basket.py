import unittest
from decimal import Decimal

from tills.basket import Basket


class AddTest(unittest.TestCase):
    def setUp(self):
        self.basket = Basket()

    def test_empty_basket(self):
        self.assertEqual(self.basket.lines(), [])

    def test_add_one_line(self):
        self.basket.add("apple", 3, "0.40")
        self.assertEqual(self.basket.item_count(), 3)

    def test_same_sku_same_price_merges(self):
        self.basket.add("apple", 1, "0.40")
        self.basket.add("apple", 2, "0.40")
        self.assertEqual(len(self.basket.lines()), 1)

    def test_same_sku_other_price_separate(self):
        self.basket.add("apple", 1, "0.40")
        self.basket.add("apple", 1, "0.35")
        self.assertEqual(len(self.basket.lines()), 2)

    def test_zero_quantity_rejected(self):
        with self.assertRaises(ValueError):
            self.basket.add("apple", 0, "0.40")

    def test_negative_price_rejected(self):
        with self.assertRaises(ValueError):
            self.basket.add("apple", 1, "-1")

    def test_price_stored_as_decimal(self):
        self.basket.add("pear", 1, "0.55")
        self.assertIsInstance(self.basket.lines()[0].unit_price, Decimal)

    def test_lines_is_a_copy(self):
        self.basket.add("pear", 1, "0.55")
        self.basket.lines().clear()
        self.assertEqual(len(self.basket.lines()), 1)


class RemoveTest(unittest.TestCase):
    def test_remove_line(self):
        basket = Basket()
        basket.add("apple", 1, "0.40")
        basket.remove("apple")
        self.assertEqual(basket.item_count(), 0)

    def test_remove_missing(self):
        with self.assertRaises(KeyError):
            Basket().remove("apple")

    def test_remove_all_prices_of_sku(self):
        basket = Basket()
        basket.add("apple", 1, "0.40")
        basket.add("apple", 1, "0.35")
        basket.remove("apple")
        self.assertEqual(basket.lines(), [])


class SubtotalTest(unittest.TestCase):
    def test_empty_is_zero(self):
        self.assertEqual(Basket().subtotal(), Decimal(0))

    def test_quantity_times_price(self):
        basket = Basket()
        basket.add("apple", 3, "0.40")
        self.assertEqual(basket.subtotal(), Decimal("1.20"))

    def test_several_lines(self):
        basket = Basket()
        basket.add("apple", 3, "0.40")
        basket.add("bread", 1, "2.15")
        self.assertEqual(basket.subtotal(), Decimal("3.35"))

    def test_exact_decimal_sum(self):
        basket = Basket()
        basket.add("a", 1, "0.10")
        basket.add("b", 1, "0.20")
        self.assertEqual(basket.subtotal(), Decimal("0.30"))

    def test_item_count_sums_quantities(self):
        basket = Basket()
        basket.add("a", 2, "1")
        basket.add("b", 5, "1")
        self.assertEqual(basket.item_count(), 7)
