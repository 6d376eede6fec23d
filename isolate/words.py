"""Counts as a person reads them: "1 run", "2 runs", "1 predecessor + victim"."""

from __future__ import annotations


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """`singular` for one, else `plural` (default: `singular` + "s")."""
    return singular if n == 1 else (plural if plural is not None else f"{singular}s")


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """`n` and its noun: "1 run", "0 runs", "3 runs"."""
    return f"{n} {noun(n, singular, plural)}"


def seconds(x: float) -> str:
    """A duration as a person reads it, never rounded to nothing: "12.3 s", "0.4 s", "0.034 s"
    (two significant digits below a tenth), "under 0.001 s"."""
    if x >= 0.1:
        return f"{x:.1f} s"
    if x >= 0.001:
        return f"{x:.2g} s"
    return "under 0.001 s" if x > 0 else "0 s"
