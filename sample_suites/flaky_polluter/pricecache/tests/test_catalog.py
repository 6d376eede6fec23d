import unittest

from pricecache import catalog


class CatalogLookupTest(unittest.TestCase):
    def test_known_skus_sorted(self):
        skus = catalog.known_skus()
        self.assertEqual(skus, sorted(skus))

    def test_known_skus_contains_staples(self):
        self.assertTrue({"bread", "milk", "rice"} <= set(catalog.known_skus()))

    def test_product_returns_record(self):
        self.assertEqual(catalog.product("milk")["name"], "Milk (1 l)")

    def test_product_unknown_raises(self):
        with self.assertRaises(catalog.UnknownSku):
            catalog.product("durian")

    def test_unknown_sku_is_key_error(self):
        self.assertTrue(issubclass(catalog.UnknownSku, KeyError))

    def test_all_amounts_positive(self):
        for sku in catalog.known_skus():
            self.assertGreater(catalog.product(sku)["amount"], 0, sku)

    def test_all_prices_in_usd(self):
        currencies = {catalog.product(s)["currency"] for s in catalog.known_skus()}
        self.assertEqual(currencies, {"USD"})

    def test_names_are_unique(self):
        names = [catalog.product(s)["name"] for s in catalog.known_skus()]
        self.assertEqual(len(names), len(set(names)))


class CatalogCategoryTest(unittest.TestCase):
    def test_categories(self):
        self.assertEqual(catalog.categories(), ["bakery", "dairy", "fruit", "pantry"])

    def test_by_category_fruit(self):
        self.assertEqual(catalog.by_category("fruit"), ["apple", "banana", "cherry"])

    def test_by_category_bakery(self):
        self.assertEqual(catalog.by_category("bakery"), ["bagel", "bread"])

    def test_by_category_unknown_is_empty(self):
        self.assertEqual(catalog.by_category("frozen"), [])

    def test_every_sku_has_a_category(self):
        listed = sum((catalog.by_category(c) for c in catalog.categories()), [])
        self.assertEqual(sorted(listed), catalog.known_skus())
