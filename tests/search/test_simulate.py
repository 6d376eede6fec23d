"""The simulator: ground truth, query outcomes, scenarios, multi-round hunts."""

from __future__ import annotations

import random

import pytest

from isolate.search.model import Query, Settings
from isolate.search.simulate import (
    SCENARIOS,
    Cause,
    Suite,
    Truth,
    hunt_all,
    judge,
    make_problem,
    scenario,
    simulate_query,
)


def test_fail_probability_combines_causes_cleaners_and_background() -> None:
    t = Truth((Cause(frozenset({1}), 0.5, cleaner=3, clean_rate=0.5),
               Cause(frozenset({2, 4}), 0.2)), 0.1, frozenset({1}))
    assert t.fail_probability(frozenset()) == pytest.approx(0.1)
    assert t.fail_probability(frozenset({1})) == pytest.approx(1 - 0.9 * 0.5)
    assert t.fail_probability(frozenset({1, 3})) == pytest.approx(1 - 0.9 * 0.75)
    assert t.fail_probability(frozenset({2})) == pytest.approx(0.1)
    assert t.fail_probability(frozenset({1, 2, 4})) == pytest.approx(1 - 0.9 * 0.5 * 0.8)


def test_simulate_query_stops_at_the_first_failure_and_compresses_passes() -> None:
    pb = make_problem(3, (1.0, 2.0, 3.0), 0.5, 1.5)
    s = Suite(pb, Truth((Cause(frozenset({0}), 1.0),), 0.0, frozenset({0})))
    out = simulate_query(s, Query((1, 2), 7, "x"), random.Random(0))
    assert [(o.failed, o.count) for o in out] == [(False, 7)]
    assert out[0].seconds == pytest.approx(7 * (1.5 + 0.5 + 5.0))
    out = simulate_query(s, Query((0,), 7, "x"), random.Random(0))
    assert [(o.failed, o.count) for o in out] == [(True, 1)]
    s2 = Suite(pb, Truth((Cause(frozenset({0}), 0.1),), 0.0, frozenset({0})))
    rng = random.Random(1)
    lengths = []
    for _ in range(2000):
        out = simulate_query(s2, Query((0,), 1000, "x"), rng)
        lengths.append(sum(o.count for o in out))
    assert sum(lengths) / len(lengths) == pytest.approx(10, rel=0.1)  # geometric, mean 1/p
    out = simulate_query(s2, Query((0,), 50, "x", until_failure=False), random.Random(2))
    assert sum(o.count for o in out) == 50


def test_every_scenario_builds_with_its_answer() -> None:
    for name in SCENARIOS:
        s = scenario(name, 50, random.Random(0))
        assert len(s.problem.predecessors) == 50
        full = frozenset(range(50))
        assert s.truth.fail_probability(full) > 0
        if name.startswith("none"):
            assert s.truth.answer == frozenset()
        if name.startswith("cleaner"):
            (cause,) = s.truth.causes
            assert min(cause.members) < cause.cleaner
    assert 1.0 <= scenario("single p=1", 10, random.Random(1)).problem.startup <= 3.0


def test_judge_is_exact_set_except_for_cumulative_leaks() -> None:
    t = Truth((), 0.0, frozenset({1, 2}))
    assert judge(t, "polluter", frozenset({1, 2}))
    assert not judge(t, "polluter", frozenset({1}))
    assert judge(Truth((), 0.1, frozenset()), "fails-alone", frozenset())
    leaky = scenario("cumulative 8x", 50, random.Random(0)).truth
    one = next(iter(leaky.answer))
    assert judge(leaky, "polluter", frozenset({one}))
    assert not judge(leaky, "polluter", frozenset({one, max(set(range(50)) - leaky.answer)}))


def test_hunt_all_reports_two_independent_polluters() -> None:
    s = scenario("two p=0.5+0.1", 30, random.Random(11))
    t = hunt_all(s, Settings(), random.Random(12))
    assert t.kind == "polluter" and t.culprits == s.truth.answer and t.correct
