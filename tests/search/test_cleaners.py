"""The cleaner search of a confirmed polluter (strategies/cleaners.py): the state-setter search
with the polluter fixed in front of every list, on simulated suites with a known cleaner."""

from __future__ import annotations

import random

import pytest

from isolate.search.decide import decide
from isolate.search.model import Observation, Query, Settings
from isolate.search.simulate import (
    CLEANER_SCENARIOS,
    Cause,
    Suite,
    Truth,
    cleaner_suite,
    hunt,
    make_problem,
    scenario,
    trial,
)
from isolate.search.strategies.cleaners import cleaner_problem, say

CLEANERS = Settings(strategy="cleaners")


def polluted(n: int, polluter: int, rate: float, cleaner: int = -1, clean_rate: float = 1.0) -> Suite:
    """A suite whose `polluter` fails the victim at `rate`, undone by `cleaner` run after it."""
    cause = Cause(frozenset({polluter}), rate, cleaner=cleaner, clean_rate=clean_rate if cleaner >= 0 else 0.0)
    truth = Truth((cause,), 0.0, frozenset({polluter}))
    return Suite(make_problem(n, tuple(0.1 + 0.01 * i for i in range(n)), 0.1, 1.0), truth)


def test_the_cleaner_view_fixes_the_polluter_in_front() -> None:
    s = cleaner_suite(polluted(10, 2, 1.0, cleaner=6), frozenset({2}))
    assert s.problem.predecessors == tuple(n for i, n in enumerate(make_problem(
        10, (0.0,) * 10, 0.0, 0.0).predecessors) if i != 2)
    assert s.problem.startup == pytest.approx(1.0 + 0.12)  # the polluter's seconds are start-up
    assert s.truth.answer == frozenset({5})  # test 6 is candidate 5
    assert s.truth.fail_probability(frozenset()) == 1.0
    assert s.truth.fail_probability(frozenset({5})) == 0.0
    assert cleaner_problem(("a",), (0.5,), "v", 0.1, 1.0, 2.0).startup == 3.0


def test_a_deterministic_cleaner_is_named_with_role_cleaner_and_pass_counts() -> None:
    s = cleaner_suite(polluted(40, 3, 1.0, cleaner=30), frozenset({3}))
    v, history, _ = hunt(s, CLEANERS, random.Random(3))
    assert v.kind == "cleaner" and v.culprits == (29,)
    [cause] = v.causes
    assert cause.role == "cleaner" and cause.scope == "test" and cause.tests == (29,)
    assert cause.confidence >= 0.99
    first = cause.evidence[0]
    assert first.startswith("passes ") and s.problem.predecessors[29] in first and "between the polluter" in first
    assert v.p == 0.0 and v.q == 1.0  # failure rates after the polluter, with and without the cleaner
    assert "cleaner" in v.stop and "cause" not in v.stop
    assert decide(s.problem, list(history), CLEANERS) == v  # pure: the journal gives the verdict again


def test_no_cleaner_is_named_where_there_is_none() -> None:
    """A deterministic polluter and nothing that undoes it: the full list never passes, and the
    search ends after a bounded number of runs without naming anyone."""
    s = cleaner_suite(polluted(30, 0, 1.0), frozenset({0}))
    assert s.truth.answer == frozenset()
    v, history, _ = hunt(s, CLEANERS, random.Random(7))
    assert v.kind == "not-reproduced" and v.culprits == () and not v.causes
    assert sum(o.count for o in history) <= 30
    assert all(o.failed for o in history)


def test_a_flaky_polluter_without_cleaner_names_none() -> None:
    """The victim passes after the polluter a fifth of the time, whatever runs in between."""
    s = cleaner_suite(polluted(30, 4, 0.8), frozenset({4}))
    v, _, _ = hunt(s, CLEANERS, random.Random(11))
    assert v.kind != "cleaner" and v.culprits == ()


def test_queries_run_every_run_and_say_cleaners() -> None:
    s = cleaner_suite(polluted(20, 1, 1.0, cleaner=9), frozenset({1}))
    q = decide(s.problem, [], CLEANERS)
    assert isinstance(q, Query) and not q.until_failure and q.reason.startswith("cleaners: ")
    # QA: the first lists asked "does the failure reproduce?", then "no failure yet" after failing runs
    assert "does it pass?" in q.reason and "failure" not in q.reason, q.reason
    failed = [Observation(frozenset(q.included), True, 1.0)] * 2
    again = decide(s.problem, failed, CLEANERS)
    assert isinstance(again, Query), again
    assert "failure" not in again.reason, again.reason


@pytest.mark.parametrize("name", CLEANER_SCENARIOS[:3])
def test_simulated_scenarios_are_found_at_the_claimed_confidence(name: str) -> None:
    for seed in range(6):
        s = scenario(name, 50, random.Random(f"{name}|{seed}"))
        t = trial(cleaner_suite(s, s.truth.answer), CLEANERS, random.Random(f"run|{name}|{seed}"))
        assert t.correct and t.confidence >= 0.99, (seed, t)


def test_say_turns_the_inverted_words_back() -> None:
    assert say("fails 3/4 with X before it; no further cause raises the failure rate") == \
        "passes 3/4 with X before it; no further cleaner raises the pass rate"
    assert say("full list: no failure yet in 2 runs (after 21 without one, 'not reproduced': a failure at 0.2 a run"
               " or more would have shown)") == ("full list: no pass yet in 2 runs (after 21 without one, 'no cleaner':"
                                                 " a pass at 0.2 a run or more would have shown)")
