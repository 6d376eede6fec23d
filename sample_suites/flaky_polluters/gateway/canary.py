"""Canary routing: a fraction of the requests goes to the canary release, marked `x-canary`."""

from __future__ import annotations

import random

_fraction = 0.0


def enable(fraction: float) -> None:
    """What `gateway --canary F` does: send F of the requests to the canary."""
    global _fraction
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"canary fraction {fraction} is not between 0 and 1")
    _fraction = fraction


def fraction() -> float:
    return _fraction


def route(headers: dict[str, str]) -> str:
    """Pick the release for one request; a canary request's response says so."""
    if random.random() < _fraction:
        headers["x-canary"] = "1"
        return "canary"
    return "stable"
