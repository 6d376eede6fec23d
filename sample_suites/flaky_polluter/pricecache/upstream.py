"""Access to the price database: a fast read replica and the primary.

The replica lags behind the primary; when it does not have a SKU yet, the
service falls back to the (slow) primary.  How often that happens is
controlled by SAMPLE_POLLUTION_RATE (probability of a replica miss per
lookup, default 0.05).
"""

import os
import random

from pricecache import catalog

REPLICA_MISS_RATE = float(os.environ.get("SAMPLE_POLLUTION_RATE", "0.05"))

# Replication lag is not reproducible from run to run.
_rng = random.Random(os.urandom(16))

stats = {"replica": 0, "primary": 0}


def replica_has(sku):
    catalog.product(sku)  # unknown SKUs raise on both paths
    return _rng.random() >= REPLICA_MISS_RATE


def read_replica(sku):
    stats["replica"] += 1
    return dict(catalog.product(sku), sku=sku)


def read_primary(sku):
    stats["primary"] += 1
    return dict(catalog.product(sku), sku=sku)
