import time
import unittest

from searchindex.async_indexer import AsyncIndexer
from searchindex.storage import DocumentStore

DOCS = [
    ("faq-1", "How do I reset my password"),
    ("faq-2", "Changing the billing address on an invoice"),
    ("faq-3", "Exporting search results to a spreadsheet"),
]


def warm_indexer():
    return AsyncIndexer(store=DocumentStore(cold_rate=0.0))


class AsyncIndexerTest(unittest.TestCase):
    def test_documents_visible_after_submit(self):
        indexer = AsyncIndexer()
        indexer.submit(DOCS)
        deadline = time.monotonic() + 0.15  # indexing three documents takes about a millisecond
        while indexer.snapshot().doc_count != 3 and time.monotonic() < deadline:
            time.sleep(0.001)
        found = indexer.snapshot().doc_count
        if found != 3:
            self.fail("index not ready after 150 ms: expected 3 documents, found %d" % found)

    def test_flush_waits_for_batch(self):
        indexer = warm_indexer()
        indexer.submit(DOCS)
        self.assertEqual(indexer.flush().doc_count, 3)

    def test_flush_when_idle(self):
        self.assertEqual(warm_indexer().flush().doc_count, 0)

    def test_flush_timeout(self):
        indexer = AsyncIndexer(store=DocumentStore(cold_rate=1.0))
        indexer.submit(DOCS[:1])
        with self.assertRaises(TimeoutError):
            indexer.flush(timeout=0.01)

    def test_batches_accumulate(self):
        indexer = warm_indexer()
        indexer.submit(DOCS[:2])
        indexer.flush()
        indexer.submit(DOCS[2:])
        self.assertEqual(indexer.flush().doc_count, 3)
        self.assertEqual(indexer.batches, 2)

    def test_snapshot_is_searchable(self):
        indexer = warm_indexer()
        indexer.submit(DOCS)
        self.assertEqual(indexer.flush().search_all("password"), {"faq-1"})

    def test_old_snapshot_unchanged(self):
        indexer = warm_indexer()
        before = indexer.snapshot()
        indexer.submit(DOCS)
        indexer.flush()
        self.assertEqual(before.doc_count, 0)

    def test_resubmit_replaces_document(self):
        indexer = warm_indexer()
        indexer.submit(DOCS)
        indexer.flush()
        indexer.submit([("faq-1", "Two factor authentication")])
        snap = indexer.flush()
        self.assertEqual(snap.search_all("password"), set())
        self.assertEqual(snap.doc_count, 3)

    def test_concurrent_batches_all_visible(self):
        indexer = warm_indexer()
        for doc in DOCS:
            indexer.submit([doc])
        self.assertEqual(indexer.flush().doc_count, 3)

    def test_submit_returns_thread(self):
        thread = warm_indexer().submit(DOCS)
        thread.join(1.0)
        self.assertFalse(thread.is_alive())
