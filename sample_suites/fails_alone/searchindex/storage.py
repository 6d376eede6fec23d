"""Document store used by the background indexer.

Loading a batch is usually a warm-cache read (about a millisecond).  Now and
then the store has to go to cold storage, which takes COLD_READ_SECONDS.  The
probability of a cold read per batch is SAMPLE_RACE_RATE (default 0.05).
"""

import os
import random
import time

COLD_READ_SECONDS = 0.3
WARM_READ_SECONDS = 0.001
DEFAULT_COLD_RATE = float(os.environ.get("SAMPLE_RACE_RATE", "0.05"))

_rng = random.Random(os.urandom(16))


class DocumentStore:
    def __init__(self, cold_rate=None):
        self.cold_rate = DEFAULT_COLD_RATE if cold_rate is None else cold_rate
        self.reads = 0
        self.cold_reads = 0

    def read_latency(self):
        if _rng.random() < self.cold_rate:
            self.cold_reads += 1
            return COLD_READ_SECONDS
        return WARM_READ_SECONDS

    def load(self, documents):
        """Return ``documents`` as a list of (doc_id, text), after the I/O delay."""
        self.reads += 1
        time.sleep(self.read_latency())
        return [(doc_id, text) for doc_id, text in documents]
