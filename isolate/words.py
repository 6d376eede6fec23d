"""Counts as a person reads them: "1 run", "2 runs", "1 predecessor + victim"."""

from __future__ import annotations


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """`singular` for one, else `plural` (default: `singular` + "s")."""
    return singular if n == 1 else (plural if plural is not None else f"{singular}s")


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """`n` and its noun: "1 run", "0 runs", "3 runs"."""
    return f"{n} {noun(n, singular, plural)}"
