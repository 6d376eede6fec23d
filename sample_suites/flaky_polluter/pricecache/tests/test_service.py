import unittest

from pricecache import catalog, pricing, service, upstream


class DiscountTest(unittest.TestCase):
    def test_discount_rejects_negative(self):
        with self.assertRaises(ValueError):
            pricing.apply_discount({"amount": 100}, -5)

    def test_discount_rejects_over_hundred(self):
        with self.assertRaises(ValueError):
            pricing.apply_discount({"amount": 100}, 101)

    def test_discount_records_percent(self):
        record = pricing.apply_discount({"amount": 1000}, 15)
        self.assertEqual(record["discount"], 15)

    def test_discount_rounds_down(self):
        self.assertEqual(pricing.apply_discount({"amount": 99}, 50)["amount"], 49)

    def test_full_promo_makes_item_free(self):
        # "Free apple with every order" promo.
        record = pricing.apply_discount(service.get_price("apple"), 100)
        self.assertEqual(record["amount"], 0)
        self.assertEqual(record["sku"], "apple")

    def test_zero_discount_keeps_price(self):
        self.assertEqual(pricing.apply_discount({"amount": 450}, 0)["amount"], 450)

    def test_bulk_price_below_threshold(self):
        self.assertEqual(pricing.bulk_price(200, 9), 200)

    def test_bulk_price_first_tier(self):
        self.assertEqual(pricing.bulk_price(200, 10), 190)

    def test_bulk_price_second_tier(self):
        self.assertEqual(pricing.bulk_price(200, 75), 180)

    def test_bundle_price(self):
        self.assertEqual(pricing.bundle_price([100, 200, 300]), 540)


class PriceLookupTest(unittest.TestCase):
    def test_apple_list_price(self):
        price = service.get_price("apple")["amount"]
        if price != 120:
            self.fail("cache returned stale price %d for 'apple'" % price)

    def test_banana_price(self):
        self.assertEqual(service.get_amount("banana"), 45)

    def test_record_has_sku(self):
        self.assertEqual(service.get_price("cherry")["sku"], "cherry")

    def test_record_has_name(self):
        self.assertEqual(service.get_price("coffee")["name"], "Coffee beans (500 g)")

    def test_record_currency(self):
        self.assertEqual(service.get_price("butter")["currency"], "USD")

    def test_unknown_sku_raises(self):
        with self.assertRaises(catalog.UnknownSku):
            service.get_price("durian")

    def test_lookup_does_not_change_catalog(self):
        service.get_price("bagel")
        self.assertEqual(catalog.product("bagel")["amount"], 150)

    def test_every_sku_resolves(self):
        for sku in ("banana", "bread", "milk", "rice"):
            self.assertEqual(service.get_amount(sku), catalog.product(sku)["amount"])


class ServiceCacheTest(unittest.TestCase):
    def setUp(self):
        service.clear_cache()
        self._rate = upstream.REPLICA_MISS_RATE

    def tearDown(self):
        upstream.REPLICA_MISS_RATE = self._rate
        service.clear_cache()

    def test_replica_reads_are_not_cached(self):
        upstream.REPLICA_MISS_RATE = 0.0
        service.get_price("milk")
        self.assertEqual(service.cached_skus(), [])

    def test_primary_reads_are_cached(self):
        upstream.REPLICA_MISS_RATE = 1.0
        service.get_price("milk")
        self.assertEqual(service.cached_skus(), ["milk"])

    def test_cached_record_is_reused(self):
        upstream.REPLICA_MISS_RATE = 1.0
        before = upstream.stats["primary"]
        service.get_price("rice")
        service.get_price("rice")
        self.assertEqual(upstream.stats["primary"] - before, 1)

    def test_clear_cache(self):
        upstream.REPLICA_MISS_RATE = 1.0
        service.get_price("bread")
        service.clear_cache()
        self.assertEqual(service.cached_skus(), [])

    def test_replica_read_counted(self):
        upstream.REPLICA_MISS_RATE = 0.0
        before = upstream.stats["replica"]
        service.get_price("bagel")
        self.assertEqual(upstream.stats["replica"] - before, 1)
