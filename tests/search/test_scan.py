"""The one-by-one scan after a polluter verdict (strategies/scan.py), on simulated suites whose
cause is undone by a later test (a cleaner): every list of the rest passes, each test alone shows it."""

from __future__ import annotations

import random

import pytest

from isolate.search.model import Observation, Query, Settings, Verdict
from isolate.search.simulate import Cause, Suite, Truth, hunt, make_problem
from isolate.search.strategies.scan import decide

SCAN = Settings(strategy="scan")


def masked(n: int, cause: int, rate: float, cleaner: int, background: float = 0.0) -> Suite:
    """The rest of a list after the causes found: `cause` fails the victim at `rate`, unless
    `cleaner` ran too (always undone)."""
    causes = (Cause(frozenset({cause}), rate, cleaner=cleaner, clean_rate=1.0),) if cause >= 0 else ()
    truth = Truth(causes, background, frozenset({cause}) if cause >= 0 else frozenset())
    return Suite(make_problem(n, tuple(0.1 + 0.01 * i for i in range(n)), 0.1, 0.5), truth)


def test_the_whole_rest_passes_yet_the_scan_names_the_cause_the_cleaner_hides() -> None:
    s = masked(12, 3, 1.0, cleaner=7)
    assert s.truth.fail_probability(frozenset(range(12))) == 0.0  # what the search's stop check ran
    for batch in (1, 2, 5):  # the same answer however many runs go at once
        verdict, obs, _ = hunt(s, SCAN, random.Random(batch), batch=batch)
        assert verdict.kind == "polluter" and verdict.culprits == (3,), (batch, verdict)
        [cause] = verdict.causes
        assert cause.scope == "test" and cause.tests == (3,) and cause.confidence >= 0.99, cause
        assert cause.evidence[1].startswith("its tests alone before the victim: fails "), cause.evidence
        assert all(len(o.included) <= 1 for o in obs)  # each test alone, or the victim alone
        assert sum(o.count for o in obs if len(o.included) == 1 and o.included != {3}) == 11  # each other once
        assert f"{s.problem.predecessors[3]} made it fail there, though no list of the rest did" in verdict.stop


def test_nothing_fails_alone_one_run_each_and_the_verdict_says_what_may_be_missed() -> None:
    s = masked(9, -1, 0.0, cleaner=-1)
    for batch in (1, 4):
        verdict, obs, _ = hunt(s, SCAN, random.Random(0), batch=batch)
        assert verdict.kind == "not-reproduced" and not verdict.causes and verdict.runs == 9, verdict
        assert sorted(next(iter(o.included)) for o in obs) == list(range(9))
        assert "none made it fail there" in verdict.stop and "may be missed in its one run" in verdict.stop


def test_a_batch_runs_its_tests_side_by_side_once_each() -> None:
    s = masked(9, -1, 0.0, cleaner=-1)
    step = decide(s.problem, (), SCAN, batch=4)
    assert isinstance(step, Query) and step.lists() == (((0,), 1), ((1,), 1), ((2,), 1), ((3,), 1))


@pytest.mark.parametrize("seed", range(12))
def test_a_failure_alone_at_the_background_rate_is_not_named(seed: int) -> None:
    """The victim fails a third of the time on its own, after anything: a test alone that made it
    fail once is checked against the victim alone, and is no cause."""
    verdict, _, _ = hunt(masked(8, -1, 0.0, cleaner=-1, background=0.3), SCAN, random.Random(seed), batch=2)
    assert isinstance(verdict, Verdict) and verdict.culprits == () and verdict.kind == "not-reproduced", verdict


def test_a_budget_that_runs_out_stops_the_scan_and_says_more_may_remain() -> None:
    s = masked(10, 8, 1.0, cleaner=9)
    verdict, obs, _ = hunt(s, Settings(strategy="scan", max_runs=3), random.Random(0))
    assert verdict.kind == "undecided" and verdict.runs == 3, verdict
    assert "the budget ran out after 3 of the 10 other predecessors" in verdict.stop and "more may remain" in verdict.stop


def test_a_hit_the_budget_leaves_unconfirmed_is_named_as_such_not_as_refuted() -> None:
    """The cause failed the victim on its one run alone, and the budget ended before the victim
    alone ran to compare: the scan names it as not confirmed, never as 'not more often than it
    fails alone', which no run showed."""
    s = masked(6, 0, 1.0, cleaner=5)
    verdict, obs, _ = hunt(s, Settings(strategy="scan", max_runs=2), random.Random(0))
    assert [sorted(o.included) for o in obs] == [[0], []], obs  # the hit, then the victim alone
    assert verdict.kind == "undecided" and verdict.culprits == () and verdict.runs == 2, verdict
    name = s.problem.predecessors[0]
    assert f"{name} made it fail alone (1/1), not confirmed: " in verdict.stop, verdict.stop
    assert "not more often than it fails alone" not in verdict.stop, verdict.stop


def test_the_last_test_of_a_list_that_passed_is_not_run_alone_again() -> None:
    """Nothing ran after it there to undo what it leaves: that pass tells what a run of it alone
    would.  The other tests of that list are still run alone (a later one may be their cleaner)."""
    s = masked(9, 1, 1.0, cleaner=4)
    seed = (Observation(frozenset({1, 4, 6}), False, 1.0),)  # the masked cause, its cleaner, and 6 last
    verdict, obs, _ = hunt(s, SCAN, random.Random(0), batch=3, observations=seed)
    ran = {next(iter(o.included)) for o in obs[1:] if len(o.included) == 1}
    assert 6 not in ran and {1, 4} <= ran and ran | {6} == set(range(9)), ran
    assert verdict.culprits == (1,), verdict
    assert "8 of the 9 other predecessors ran alone" in verdict.stop, verdict.stop
    assert "(1 more was the last test before it in a list that passed)" in verdict.stop, verdict.stop
