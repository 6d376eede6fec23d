import unittest

from searchindex import storage


class DocumentStoreTest(unittest.TestCase):
    def test_warm_read(self):
        store = storage.DocumentStore(cold_rate=0.0)
        self.assertEqual(store.read_latency(), storage.WARM_READ_SECONDS)

    def test_cold_read(self):
        store = storage.DocumentStore(cold_rate=1.0)
        self.assertEqual(store.read_latency(), storage.COLD_READ_SECONDS)
        self.assertEqual(store.cold_reads, 1)

    def test_load_returns_pairs(self):
        store = storage.DocumentStore(cold_rate=0.0)
        self.assertEqual(store.load({"a": "x"}.items()), [("a", "x")])

    def test_load_counts_reads(self):
        store = storage.DocumentStore(cold_rate=0.0)
        store.load([])
        store.load([])
        self.assertEqual(store.reads, 2)

    def test_default_rate_from_environment(self):
        self.assertEqual(storage.DocumentStore().cold_rate, storage.DEFAULT_COLD_RATE)

    def test_rate_is_a_probability(self):
        self.assertTrue(0.0 <= storage.DEFAULT_COLD_RATE <= 1.0)

    def test_cold_slower_than_warm(self):
        self.assertGreater(storage.COLD_READ_SECONDS, storage.WARM_READ_SECONDS)
