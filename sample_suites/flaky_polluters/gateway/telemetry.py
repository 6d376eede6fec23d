"""Request tracing: a sampled request gets a W3C `traceparent` header on its response."""

from __future__ import annotations

import random

_sample_rate = 0.0  # tracing is off unless the deployment turns it on


def configure(sample_rate: float) -> None:
    """What `gateway --trace-sample-rate R` does at start-up: trace R of the requests."""
    global _sample_rate
    if not 0.0 <= sample_rate <= 1.0:
        raise ValueError(f"sample rate {sample_rate} is not between 0 and 1")
    _sample_rate = sample_rate


def sample_rate() -> float:
    return _sample_rate


def maybe_trace(headers: dict[str, str]) -> bool:
    """Add a trace header to a sampled request's response; each request is drawn on its own."""
    if random.random() >= _sample_rate:
        return False
    trace = f"{random.getrandbits(128):032x}"
    span = f"{random.getrandbits(64):016x}"
    headers["traceparent"] = f"00-{trace}-{span}-01"
    return True
