"""The manual recipe and the peers' procedures, replayed through isolate.search.decide."""

from __future__ import annotations

import math
import random

from isolate.search.strategies import manual
from isolate.search.decide import decide
from isolate.search.model import Observation, Query, Settings, Verdict
from isolate.search.simulate import Cause, Suite, Truth, make_problem, simulate_query


def suite(n: int, culprits: set[int], rate: float = 1.0, background: float = 0.0) -> Suite:
    pb = make_problem(n, (1.0,) * n, 1.0, 1.0)
    causes = (Cause(frozenset(culprits), rate),) if culprits else ()
    return Suite(pb, Truth(causes, background, frozenset(culprits)))


def play(s: Suite, settings: Settings, seed: int = 0) -> tuple[Verdict, list[Query]]:
    rng = random.Random(seed)
    history: list[Observation] = []
    queries: list[Query] = []
    while True:
        step = decide(s.problem, history, settings)
        if isinstance(step, Verdict):
            return step, queries
        queries.append(step)
        history += simulate_query(s, step, rng)


def test_manual_recipe_reproduces_the_recipe_exactly() -> None:
    s = suite(8, {5})
    v, qs = play(s, Settings(strategy="manual", step_runs=3, reproduce_runs=10))
    sets = [(q.included, q.runs) for q in qs]
    assert sets == [
        (tuple(range(8)), 10),  # reproduce: until failure (deterministic: first run)
        ((), 3),  # victim alone, up to n runs
        ((0, 1, 2, 3), 3),  # first half passes 3 times -> switch to the other half
        ((4, 5), 3),  # fails -> keep
        ((4,), 3),  # passes -> switch
    ]
    assert v.kind == "polluter" and v.culprits == (5,)
    assert v.evidence[0].startswith("fails 2/2 with tests.test_mod00.TestC000.test_0005 before it, 0/9")


def test_runs_per_step_follow_the_confidence_formula() -> None:
    s = suite(16, {3}, rate=0.2)
    pb = s.problem
    n, c = manual.step_runs(pb, Settings(step_confidence=0.95), 0.2)
    assert n == 14 and c == 0.95  # ln(0.05)/ln(0.8) = 13.4
    n, c = manual.step_runs(pb, Settings(overall_confidence=0.95), 0.2)
    assert c > 0.97 and n > 14  # 4 steps: 1 - 2(1 - 0.95^(1/4))
    n, c = manual.step_runs(pb, Settings(overall_confidence=math.nextafter(1.0, 0.0)), 0.2)
    assert c < 1 and 150 < n < 200  # ln(1.1e-16)/ln(0.8) = 164: it rounded to 1 and divided log(0)


def test_manual_estimates_the_rate_from_three_reproductions() -> None:
    s = suite(8, {2}, rate=1.0)
    v, qs = play(s, Settings(strategy="manual", reproduce_runs=50))
    assert [q.included for q in qs[:3]] == [tuple(range(8))] * 3
    assert qs[3].included == () and qs[3].runs == 1  # p estimated 1 -> n = 1
    assert v.kind == "polluter" and v.culprits == (2,)


def test_manual_says_fails_alone_when_the_victim_fails_alone() -> None:
    v, _ = play(suite(8, set(), background=1.0), Settings(strategy="manual", step_runs=2))
    assert v.kind == "fails-alone" and v.culprits == ()


def test_single_run_halving_is_fooled_by_a_flaky_polluter() -> None:
    wrong = 0
    for seed in range(20):
        s = suite(64, {40}, rate=0.2)
        v, qs = play(s, Settings(strategy="halving"), seed)
        assert all(q.runs == 1 for q in qs)
        wrong += v.culprits != (40,)
    assert wrong >= 15


def test_ddmin_finds_a_pair() -> None:
    s = suite(16, {3, 11}, rate=1.0)
    v, _ = play(s, Settings(strategy="ddmin", step_runs=1, reproduce_runs=5))
    assert v.kind == "polluter" and v.culprits == (3, 11)
    v2, _ = manual.drive(s.problem, Settings(strategy="ddmin", step_runs=1, reproduce_runs=5),
                         lambda q: simulate_query(s, q, random.Random(0)))
    assert v2.culprits == (3, 11)


def test_replay_skips_runs_of_other_sets_and_resumes() -> None:
    s = suite(8, {5})
    st = Settings(strategy="manual", step_runs=3, reproduce_runs=10)
    full = frozenset(range(8))
    history = [Observation(full, True, 9.0), Observation(full, True, 9.0),  # 2nd: in flight
               Observation(frozenset(), False, 2.0, 2)]
    q = decide(s.problem, history, st)
    assert isinstance(q, Query) and q.included == () and q.runs == 1


def test_manual_budget_gives_undecided() -> None:
    s = suite(8, {5}, rate=0.5)
    full = frozenset(range(8))
    history = [Observation(full, True, 9.0), Observation(frozenset(), False, 6.0, 3)]
    v = decide(s.problem, history, Settings(strategy="manual", step_runs=3, max_runs=4))
    assert isinstance(v, Verdict) and v.kind == "undecided"
    assert "suspects left" in v.evidence[-1]
