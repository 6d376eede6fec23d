import unittest

from pricecache import catalog
from pricecache.cart import Cart


class CartContentsTest(unittest.TestCase):
    def setUp(self):
        self.cart = Cart()

    def test_new_cart_is_empty(self):
        self.assertEqual(self.cart.item_count(), 0)

    def test_add_counts_items(self):
        self.cart.add("milk", 2)
        self.cart.add("bread")
        self.assertEqual(self.cart.item_count(), 3)

    def test_add_same_sku_accumulates(self):
        self.cart.add("bagel", 2)
        self.cart.add("bagel", 3)
        self.assertEqual(self.cart.lines, {"bagel": 5})

    def test_add_rejects_zero_quantity(self):
        with self.assertRaises(ValueError):
            self.cart.add("milk", 0)

    def test_add_rejects_unknown_sku(self):
        with self.assertRaises(catalog.UnknownSku):
            self.cart.add("durian")

    def test_remove_whole_line(self):
        self.cart.add("rice", 2)
        self.cart.remove("rice")
        self.assertEqual(self.cart.lines, {})

    def test_remove_partial(self):
        self.cart.add("rice", 3)
        self.cart.remove("rice", 1)
        self.assertEqual(self.cart.lines, {"rice": 2})

    def test_remove_missing_raises(self):
        with self.assertRaises(KeyError):
            self.cart.remove("coffee")

    def test_clear(self):
        self.cart.add("milk")
        self.cart.clear()
        self.assertEqual(self.cart.item_count(), 0)


class CartTotalsTest(unittest.TestCase):
    def test_empty_cart_totals_zero(self):
        self.assertEqual(Cart().total(), 0)

    def test_subtotal(self):
        cart = Cart()
        cart.add("milk", 2)
        cart.add("banana", 4)
        self.assertEqual(cart.subtotal(), 2 * 189 + 4 * 45)

    def test_tax_free_region(self):
        cart = Cart(region="OR")
        cart.add("coffee")
        self.assertEqual(cart.tax(), 0)

    def test_taxable_item(self):
        cart = Cart(region="CA")
        cart.add("coffee")
        self.assertEqual(cart.tax(), 94)

    def test_exempt_items_not_taxed(self):
        cart = Cart(region="CA")
        cart.add("bread", 2)
        self.assertEqual(cart.total(), 1100)

    def test_mixed_total(self):
        cart = Cart(region="TX")
        cart.add("rice", 2)
        cart.add("butter")
        self.assertEqual(cart.total(), 620 + 39 + 425)
