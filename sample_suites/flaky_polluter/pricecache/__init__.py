"""pricecache: a tiny price-lookup service with an in-process cache."""

__version__ = "1.3.0"
