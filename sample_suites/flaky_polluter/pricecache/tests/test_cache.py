import unittest

from pricecache.cache import LRUCache


class LRUCacheTest(unittest.TestCase):
    def setUp(self):
        self.cache = LRUCache(maxsize=3)

    def test_get_missing_returns_default(self):
        self.assertIsNone(self.cache.get("nope"))

    def test_get_missing_custom_default(self):
        self.assertEqual(self.cache.get("nope", 7), 7)

    def test_put_then_get(self):
        self.cache.put("a", 1)
        self.assertEqual(self.cache.get("a"), 1)

    def test_put_overwrites(self):
        self.cache.put("a", 1)
        self.cache.put("a", 2)
        self.assertEqual(self.cache.get("a"), 2)
        self.assertEqual(len(self.cache), 1)

    def test_len_counts_entries(self):
        self.cache.put("a", 1)
        self.cache.put("b", 2)
        self.assertEqual(len(self.cache), 2)

    def test_evicts_least_recently_used(self):
        for key in "abcd":
            self.cache.put(key, key.upper())
        self.assertNotIn("a", self.cache)
        self.assertEqual(self.cache.keys(), ["b", "c", "d"])

    def test_get_refreshes_recency(self):
        for key in "abc":
            self.cache.put(key, key)
        self.cache.get("a")
        self.cache.put("d", "d")
        self.assertIn("a", self.cache)
        self.assertNotIn("b", self.cache)

    def test_put_refreshes_recency(self):
        for key in "abc":
            self.cache.put(key, key)
        self.cache.put("a", "again")
        self.cache.put("d", "d")
        self.assertEqual(self.cache.keys(), ["c", "a", "d"])

    def test_hits_and_misses_are_counted(self):
        self.cache.put("a", 1)
        self.cache.get("a")
        self.cache.get("b")
        self.cache.get("a")
        self.assertEqual((self.cache.hits, self.cache.misses), (2, 1))

    def test_invalidate_present_key(self):
        self.cache.put("a", 1)
        self.assertTrue(self.cache.invalidate("a"))
        self.assertNotIn("a", self.cache)

    def test_invalidate_missing_key(self):
        self.assertFalse(self.cache.invalidate("zzz"))

    def test_clear_resets_everything(self):
        self.cache.put("a", 1)
        self.cache.get("a")
        self.cache.clear()
        self.assertEqual(len(self.cache), 0)
        self.assertEqual((self.cache.hits, self.cache.misses), (0, 0))

    def test_rejects_zero_maxsize(self):
        with self.assertRaises(ValueError):
            LRUCache(maxsize=0)

    def test_maxsize_one_keeps_latest(self):
        cache = LRUCache(maxsize=1)
        cache.put("x", 1)
        cache.put("y", 2)
        self.assertEqual(cache.keys(), ["y"])

    def test_falsy_values_are_cached(self):
        self.cache.put("zero", 0)
        self.assertEqual(self.cache.get("zero", "default"), 0)

    def test_keys_returns_a_copy(self):
        self.cache.put("a", 1)
        keys = self.cache.keys()
        keys.append("b")
        self.assertEqual(self.cache.keys(), ["a"])
