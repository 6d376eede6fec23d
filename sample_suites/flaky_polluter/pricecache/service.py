"""Price lookups with an in-process cache in front of the primary."""

from pricecache import upstream
from pricecache.cache import LRUCache

_cache = LRUCache(maxsize=256)


def get_price(sku):
    """Return the price record ``{"sku", "name", "amount", "currency", ...}``."""
    cached = _cache.get(sku)
    if cached is not None:
        return cached
    if upstream.replica_has(sku):
        # Replica reads are cheap; no need to cache them.
        return upstream.read_replica(sku)
    # Slow path: the primary is expensive, so remember what it said.
    record = upstream.read_primary(sku)
    _cache.put(sku, record)
    return record


def get_amount(sku):
    return get_price(sku)["amount"]


def cached_skus():
    return _cache.keys()


def clear_cache():
    _cache.clear()
