"""Counts and durations as a person reads them."""

from __future__ import annotations

import pytest

from isolate.words import counted, seconds


def test_counted_says_one_and_many() -> None:
    assert (counted(1, "run"), counted(0, "run"), counted(2, "class", "classes")) == ("1 run", "0 runs", "2 classes")


@pytest.mark.parametrize(("x", "text"), [(0.0, "0 s"), (0.0004, "under 0.001 s"), (0.0094, "0.0094 s"),
                                         (0.034, "0.034 s"), (0.46, "0.5 s"), (12.34, "12.3 s")])
def test_a_short_duration_is_never_rounded_to_nothing(x: float, text: str) -> None:
    assert seconds(x) == text
