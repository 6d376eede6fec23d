"""Login throttling: a token bucket per key (user or address)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Bucket:
    tokens: float
    updated: float


class RateLimiter:
    def __init__(self, capacity: int, refill_per_second: float) -> None:
        if capacity <= 0 or refill_per_second < 0:
            raise ValueError("capacity must be positive and refill non-negative")
        self.capacity = capacity
        self.refill = refill_per_second
        self._buckets: dict[str, Bucket] = {}

    def _bucket(self, key: str, now: float) -> Bucket:
        bucket = self._buckets.setdefault(key, Bucket(float(self.capacity), now))
        elapsed = max(0.0, now - bucket.updated)
        bucket.tokens = min(float(self.capacity), bucket.tokens + elapsed * self.refill)
        bucket.updated = now
        return bucket

    def allow(self, key: str, now: float) -> bool:
        bucket = self._bucket(key, now)
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return True
        return False

    def retry_after(self, key: str, now: float) -> float:
        bucket = self._bucket(key, now)
        if bucket.tokens >= 1:
            return 0.0
        if self.refill == 0:
            return float("inf")
        return (1 - bucket.tokens) / self.refill

    def reset(self, key: str) -> None:
        self._buckets.pop(key, None)
