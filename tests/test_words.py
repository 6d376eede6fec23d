"""Counts and durations as a person reads them."""

from __future__ import annotations

import pytest

from isolate.words import counted, fraction, megabytes, on_test, probability, quoted, seconds


def test_counted_says_one_and_many() -> None:
    assert (counted(1, "run"), counted(0, "run"), counted(2, "class", "classes")) == ("1 run", "0 runs", "2 classes")


@pytest.mark.parametrize(("x", "text"), [(0.0, "0 s"), (0.0004, "under 0.001 s"), (0.0094, "0.0094 s"),
                                         (0.034, "0.034 s"), (0.46, "0.5 s"), (12.34, "12.3 s")])
def test_a_short_duration_is_never_rounded_to_nothing(x: float, text: str) -> None:
    assert seconds(x) == text


@pytest.mark.parametrize(("x", "text"), [(59.94, "59.9 s"), (59.96, "1 min 0 s"), (185, "3 min 5 s"),
                                         (3599.6, "1 h 0 min"), (7800, "2 h 10 min"), (200_000, "2 d 8 h")])
def test_a_long_duration_is_in_minutes_hours_and_days(x: float, text: str) -> None:
    """The verdict, status and the HTML report had a formatter of their own ("45s", "3m05s"),
    plan a third ("119 s", "2.0 h"): words.seconds is now the only one, and reads a long hunt
    in minutes and hours, never "3600.0 s"."""
    assert seconds(x) == text


def test_a_very_long_wait_reads_in_days() -> None:
    """QA: `$ISOLATE_WORKER_WAIT=1e9` was said as "waiting up to 1e+09 s"."""
    assert seconds(1e9) == "11574 d 2 h"


@pytest.mark.parametrize(("n", "text"), [(0, "0 MB"), (1500, "under 1 MB"), (2**20, "1 MB"), (5 * 2**20 + 7, "5 MB")])
def test_a_size_is_never_rounded_to_nothing(n: int, text: str) -> None:
    """QA: a $TMPDIR with 1,500 bytes free was said to have "0 MB free"."""
    assert megabytes(n) == text


@pytest.mark.parametrize(("x", "rate", "each", "chance", "leading"), [
    (0.999988, "> 0.999", "> 0.99", "> 0.999", "> 0.99"),  # a class cause that failed 68/68
    (0.9995, "> 0.999", "> 0.99", "> 0.999", "> 0.99"),
    (0.955, "0.955", "0.95", "0.955", "0.95"),
    (0.0004, "0.0004", "0.0004", "< 0.001", "< 0.01"),
    (1.0, "1", "1", "1.000", "1.00"),
    (0.0, "0", "0", "0.000", "0.00"),
])
def test_a_rate_or_probability_is_never_rounded_onto_a_bound_it_is_not(
        x: float, rate: str, each: str, chance: str, leading: str) -> None:
    """A class cause whose rate was 0.99999 read "rate 1": a certainty it is not."""
    assert (fraction(x), fraction(x, 2), probability(x), probability(x, 2)) == (rate, each, chance, leading)


def test_a_command_holding_quoted_words_is_named_in_double_quotes() -> None:
    assert quoted("isolate bisect test_x") == "'isolate bisect test_x'"
    assert quoted("isolate bisect 'test_x(global)'") == "\"isolate bisect 'test_x(global)'\""
    assert on_test("isolate bisect", "test_x(global)", " --run ID") == "\"isolate bisect 'test_x(global)' --run ID\""
    assert on_test("isolate log", "pkg.T.test_x") == "'isolate log pkg.T.test_x'"
