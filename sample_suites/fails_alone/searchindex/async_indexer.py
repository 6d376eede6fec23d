"""Background indexing: submit() returns at once, a thread builds the index and
publishes a new immutable snapshot when the batch is done."""

import threading

from searchindex.index import InvertedIndex
from searchindex.storage import DocumentStore


class AsyncIndexer:
    def __init__(self, store=None):
        self.store = store or DocumentStore()
        self._snapshot = InvertedIndex()
        self._inflight = 0
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self.batches = 0

    def snapshot(self):
        return self._snapshot

    def submit(self, documents):
        documents = list(documents)
        with self._lock:
            self._inflight += 1
            self._idle.clear()
        thread = threading.Thread(target=self._index_batch, args=(documents,), daemon=True)
        thread.start()
        return thread

    def _index_batch(self, documents):
        loaded = self.store.load(documents)
        with self._lock:
            fresh = InvertedIndex()
            old = self._snapshot
            for doc_id in sorted(old._docs):
                fresh._docs[doc_id] = old._docs[doc_id]
            for term, posting in old._postings.items():
                fresh._postings[term] = dict(posting)
            for doc_id, text in loaded:
                fresh.add(doc_id, text)
            self._snapshot = fresh  # atomic publish
            self.batches += 1
            self._inflight -= 1
            if not self._inflight:
                self._idle.set()

    def flush(self, timeout=5.0):
        """Block until every submitted batch is visible."""
        if not self._idle.wait(timeout):
            raise TimeoutError("indexer did not finish within %.1fs" % timeout)
        return self._snapshot
