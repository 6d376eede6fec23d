"""The state-setter search of a brittle victim (strategies/setters.py): the polluter search with
the outcome inverted, on simulated suites with a known setter, and its words turned back."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from isolate.search.decide import decide
from isolate.search.model import Observation, Settings
from isolate.search.simulate import BRITTLE_SCENARIOS, Cause, Suite, Truth, hunt, judge, make_problem, scenario, trial
from isolate.search.strategies.setters import flipped, swap

SETTERS = Settings(strategy="setters")


def brittle(n: int, setters: list[tuple[set[int], float]], passes_alone: float = 0.0) -> Suite:
    """A victim that fails alone (or passes alone at `passes_alone`) and passes once a setter ran."""
    answer = frozenset(i for s, _ in setters for i in s)
    truth = Truth((), 1.0 - passes_alone, answer, setters=tuple(Cause(frozenset(s), p) for s, p in setters))
    return Suite(make_problem(n, tuple(0.1 + 0.01 * i for i in range(n)), 0.1, 1.0), truth)


def test_truth_of_a_setter_is_a_pass() -> None:
    s = brittle(10, [({3}, 0.5)])
    assert s.truth.fail_probability(frozenset()) == 1.0
    assert s.truth.fail_probability(frozenset({3, 4})) == 0.5
    assert s.truth.fail_probability(frozenset({4})) == 1.0


def test_a_deterministic_setter_is_named_with_role_setter_and_pass_counts() -> None:
    s = brittle(40, [({17}, 1.0)])
    v, history, _ = hunt(s, SETTERS, random.Random(3))
    assert v.kind == "brittle" and v.culprits == (17,)
    [cause] = v.causes
    assert cause.role == "setter" and cause.scope == "test" and cause.tests == (17,)
    assert cause.confidence >= 0.99
    assert cause.evidence[0].startswith("passes ") and s.problem.predecessors[17] in cause.evidence[0]
    assert "alone before the victim: passes" in cause.evidence[1]
    # failure rates with and without the setter, as estimated: never the raw 0/n with it
    assert 0.0 < v.p == 1.0 - cause.rate < 0.1 and v.q > 0.9, (v.p, v.q)
    assert v.stop.startswith("no further setter") and "failed" in v.stop
    assert decide(s.problem, list(history), SETTERS) == v  # pure: the journal gives the verdict again


def test_two_setters_are_both_named() -> None:
    s = brittle(60, [({8}, 1.0), ({45}, 1.0)])
    v, _, _ = hunt(s, SETTERS, random.Random(5))
    assert v.kind == "brittle" and v.culprits == (8, 45)
    assert [c.role for c in v.causes] == ["setter", "setter"]


@pytest.mark.parametrize("name", BRITTLE_SCENARIOS)
def test_simulated_scenarios_are_found_at_the_claimed_confidence(name: str) -> None:
    right = 0
    for seed in range(8):
        s = scenario(name, 50, random.Random(f"{name}|{seed}"))
        t = trial(s, SETTERS, random.Random(f"run|{name}|{seed}"))
        assert t.confidence >= 0.99 or t.kind != "brittle", t
        right += t.correct
    assert right == 8


def test_no_setter_when_it_passes_alone_as_often_as_with_anything() -> None:
    """A victim that passes alone half of the time, whatever ran before: no setter to name
    (the inverted search's own end, in real words)."""
    s = brittle(30, [], passes_alone=0.5)
    start = [Observation(frozenset(range(30)), False, 0.0)]  # a stored passing run: the hunt's trigger
    v, _, _ = hunt(s, replace(SETTERS, max_runs=400), random.Random(7), observations=tuple(start))
    assert v.kind != "brittle" and v.culprits == ()
    assert "pass rate" in v.stop, v.stop
    assert not judge(Truth((), 0.5, frozenset({1}), setters=(Cause(frozenset({1}), 1.0),)), v.kind, frozenset())


def test_flipped_and_swap() -> None:
    o = Observation(frozenset({1}), True, 2.0, 3)
    assert flipped([o]) == (Observation(frozenset({1}), False, 2.0, 3),)
    assert swap("fails 3/4 with X before it; the other causes passed 2/2") == \
        "passes 3/4 with X before it; the other setters failed 2/2"
    assert swap("no predecessor raises the failure rate") == "no predecessor raises the pass rate"
    assert swap("failures, passing") == "failures, failing"  # whole words only

