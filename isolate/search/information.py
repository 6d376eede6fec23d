"""Information measures in bits, shared by the query choice and the planner."""

from __future__ import annotations

import math


def h2(x: float) -> float:
    """Binary entropy in bits."""
    if x <= 0.0 or x >= 1.0:
        return 0.0
    return -(x * math.log2(x) + (1.0 - x) * math.log2(1.0 - x))


def kl(a: float, b: float) -> float:
    """KL divergence in bits from Bernoulli(a) to Bernoulli(b)."""
    b = min(1.0 - 1e-12, max(1e-12, b))
    out = 0.0
    if a > 0.0:
        out += a * math.log2(a / b)
    if a < 1.0:
        out += (1.0 - a) * math.log2((1.0 - a) / (1.0 - b))
    return out
