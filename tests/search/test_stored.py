"""Stored runs as the chain search's prior (isolate.search.stored): the chain leads with what
they point at, new runs stay the likelihood, and stale stored runs do not decide the verdict."""

from __future__ import annotations

import random
import statistics
from dataclasses import replace

from isolate.search.decide import decide
from isolate.search.model import Observation, Query, Settings
from isolate.search.simulate import Cause, Suite, Truth, hunt, make_problem, scenario, stored_runs, trial
from isolate.search.stored import EVEN_SHARE, prior
from isolate.search.threshold import cost_chain


def stored(included: set[int], failed: bool) -> Observation:
    return Observation(frozenset(included), failed, 0.0, stored=True)


def suite(n: int, culprit: int, rate: float = 1.0) -> Suite:
    problem = make_problem(n, tuple(0.1 + 0.01 * i for i in range(n)), 0.1, 1.0)
    return Suite(problem, Truth((Cause(frozenset({culprit}), rate),), 0.0, frozenset({culprit})))


def test_without_stored_runs_the_prior_is_the_one_given() -> None:
    chain = (3, 0, 2, 1)
    runs = [Observation(frozenset({0, 3}), True, 1.0)]  # a new run: likelihood, not prior
    assert prior(chain, None, 0.4, runs, Settings()) == (prior(chain, None, 0.4, (), Settings()))
    got = prior(chain, [1.0, 2.0, 1.0, 1.0], 0.4, runs, Settings())
    assert got.chain == chain and got.weight == (1.0, 2.0, 1.0, 1.0) and got.beyond == 0.4


def test_a_test_in_every_failing_stored_run_leads_the_chain() -> None:
    # test 7 ran before the victim in the 3 failing runs and in none of the 9 that passed
    runs = [stored({7, 1, 2}, True), stored({7, 3, 4}, True), stored({7, 5, 1}, True)]
    runs += [stored({1, 2, 3}, False), stored({4, 5, 6}, False), stored({8, 9, 2}, False)] * 3
    chain = cost_chain(make_problem(10, tuple(0.1 + 0.01 * i for i in range(10)), 0.1, 1.0))
    got = prior(chain, None, 0.4, runs, Settings())
    assert got.chain[0] == 7 and sorted(got.chain) == list(range(10))
    assert got.weight is not None and got.weight[0] == max(got.weight)
    # most of the prior on 7, yet every position keeps at least its even share of EVEN_SHARE
    assert got.weight[0] / sum(got.weight) > 0.8
    assert min(got.weight) >= EVEN_SHARE * (1 - 0.4) / 10 * 0.999
    assert got.beyond < 0.4  # failures that follow one test: "fails on its own" less likely
    # the rest keep the chain's own order (cheapest first)
    assert got.chain[1:] == tuple(i for i in chain if i != 7)


def test_stored_runs_that_all_passed_suspect_no_one() -> None:
    runs = [stored(set(random.Random(i).sample(range(20), 5)), False) for i in range(30)]
    chain = tuple(range(20))
    got = prior(chain, None, 0.4, runs, Settings())
    assert got.chain == chain  # no test is singled out: the cheap-first chain stays


def test_stored_runs_save_new_runs_on_a_deterministic_polluter() -> None:
    with_runs, without = [], []
    for seed in range(12):
        s = scenario("single p=1", 50, random.Random(f"s{seed}"))
        past = stored_runs(s, 40, 0.25, random.Random(f"p{seed}"))
        a = trial(s, Settings(), random.Random(seed), stored=past)
        b = trial(s, Settings(), random.Random(seed))
        assert a.correct and b.correct
        with_runs.append(a.runs)
        without.append(b.runs)
    assert statistics.fmean(with_runs) < 0.8 * statistics.fmean(without)


def test_stale_stored_runs_do_not_decide_the_verdict() -> None:
    # the stored runs blame test 5 (it was the polluter before a change); today test 30 is
    s = suite(40, 30)
    past = tuple(stored({5, i, i + 1}, True) for i in range(8, 20)) + tuple(
        stored({i, i + 2}, False) for i in range(6, 26))
    assert prior(cost_chain(s.problem), None, 0.4, past, Settings()).chain[0] == 5
    v, obs, _ = hunt(s, Settings(), random.Random(3), observations=past)
    assert v.kind == "polluter" and v.culprits == (30,) and v.confidence >= 0.99
    assert any(o.included == frozenset({5}) and not o.failed for o in obs)  # the suspect was tried alone
    # and they cost little: the stored failures without test 30 do not send the round after it
    # looking for a further cause among tests no new run failed with (that took thousands of runs)
    _, fresh, _ = hunt(s, Settings(), random.Random(3))
    assert sum(o.count for o in obs) - len(past) <= 2 * sum(o.count for o in fresh)


def test_with_k_fold_runs_a_cause_rate_comes_from_new_runs_not_stored_single_executions() -> None:
    """A run of 10 executions fails at 1 - 0.8^10 where a stored run (one execution) failed at
    0.2.  Read on one scale, the stored runs that held the cause would make it look weak, and the
    check for a further cause would run the rest many more times; `Settings.executions` keeps
    them to the chain's prior."""
    n, culprit = 12, 5
    k_fold = suite(n, culprit, rate=1 - 0.8 ** 10)
    past = stored_runs(suite(n, culprit, rate=0.2), 40, 0.5, random.Random(1))
    rest = frozenset(range(n)) - {culprit}

    def runs_of_the_rest(executions: int) -> int:
        verdict, obs, _ = hunt(k_fold, Settings(executions=executions), random.Random(2), observations=past)
        assert verdict.kind == "polluter" and verdict.culprits == (culprit,), verdict
        return sum(o.count for o in obs if o.included == rest and not o.stored)

    assert runs_of_the_rest(10) < runs_of_the_rest(1)


def test_a_suspect_the_stored_runs_saw_fail_often_opens_the_hunt_with_prefixes() -> None:
    """With stored failures and no new run yet, the hunt reproduces the failure in its own order
    first. Where the stored runs single out a test that failed them often (3/3 here), the first
    wave is the prefix that holds half the suspicion, the suspect first, not the whole list;
    should it pass (stale runs), the whole list runs next. A suspect seen failing them seldom
    (2 of 6) leaves the whole list first: a prefix holding it would often pass, a run more."""
    pb = make_problem(10, tuple(0.1 + 0.01 * i for i in range(10)), 0.1, 1.0)
    sure = [stored({7, 1, 2}, True), stored({7, 3, 4}, True), stored({7, 5, 1}, True)]
    sure += [stored({1, 2, 3}, False), stored({4, 5, 6}, False), stored({8, 9, 2}, False)] * 3
    step = decide(pb, sure, Settings())
    assert isinstance(step, Query) and 7 in step.included and len(step.included) < 10, step
    assert step.reason.startswith("the predecessor stored runs suspect most, alone: does the failure reproduce in"
                                  " this order?") and not step.until_failure
    passed = decide(pb, sure + [Observation(frozenset(step.included), False, 1.0)], Settings())
    assert isinstance(passed, Query) and passed.included == tuple(range(10)), passed
    assert passed.reason.startswith("full list: stored runs failed")
    seldom = sure + [stored({7, 2, 3}, False), stored({7, 4, 8}, False), stored({7, 6, 9}, False),
                     stored({7, 1, 5}, False)] * 2
    step = decide(pb, seldom, Settings())
    assert isinstance(step, Query) and step.included == tuple(range(10)), step
    assert step.reason.startswith("full list: stored runs failed")


def test_a_failure_of_this_hunts_own_single_runs_is_not_reproduced_again_once_repeats_start() -> None:
    """Once repeats start, the hunt's single runs before them are read as stored runs are (their
    one execution is no K-fold run). A stored run of another order may be stale, so the whole
    list runs first; a run this hunt made in its own order (`here`) is not: the shortest of its
    failing lists is enough to reproduce the failure in K-fold runs, and cheaper."""
    pb = make_problem(10, tuple(0.1 + 0.01 * i for i in range(10)), 0.1, 1.0)
    single = [Observation(frozenset(range(10)), True, 2.0, stored=True, here=True),
              Observation(frozenset(range(5)), False, 1.5, stored=True, here=True),
              Observation(frozenset(range(8)), True, 1.8, stored=True, here=True),
              Observation(frozenset(range(10)), False, 2.0, stored=True, here=True),
              Observation(frozenset(range(8)), False, 1.8, stored=True, here=True)]
    step = decide(pb, single, Settings(executions=10))
    assert isinstance(step, Query) and step.included == tuple(range(8)) and step.until_failure, step
    assert step.reason.startswith("the first 8 of 10 predecessors, the shortest that hold a list of this hunt's")
    history = [replace(o, here=False) for o in single]
    step = decide(pb, history, Settings(executions=10))
    assert isinstance(step, Query) and step.included == tuple(range(10)), step
    assert step.reason.startswith("full list: stored runs failed")
    # QA: when the single run that failed was of the whole list, the whole list is the shortest;
    # the reason said "stored runs failed, this order not yet" of a hunt whose own run had failed
    whole = [single[0], single[1], single[3]]
    step = decide(pb, whole, Settings(executions=10))
    assert isinstance(step, Query) and step.included == tuple(range(10)), step
    assert step.reason.startswith("full list: a single run of it failed in this hunt; does it fail in runs that"
                                  " repeat the victim too?"), step.reason


def test_stored_failures_that_no_longer_happen_end_as_not_reproduced_soon() -> None:
    """Fixed since the stored runs: the victim never fails now, though 3 of 4 stored runs failed.
    The hunt ends "not reproduced" once the full list has passed as many runs as would have shown
    a failure at the stored runs' rate (that took 12,874 runs and ended "undecided", waiting for
    the victim to fail alone at a rate the stale failures made up)."""
    n = 30
    fixed = Suite(make_problem(n, tuple(0.1 + 0.01 * i for i in range(n)), 0.1, 1.0), Truth((), 0.0, frozenset()))
    everything = set(range(n))
    past = (stored(everything, True),) * 3 + (stored(everything, False),)
    verdict, obs, _ = hunt(fixed, Settings(), random.Random(1), observations=past)
    new = [o for o in obs if not o.stored]
    assert verdict.kind == "not-reproduced" and verdict.confidence >= 0.99, verdict
    assert sum(o.count for o in new) <= 40, len(new)  # not the reproduction cap's 4,603 runs
    assert any(line.startswith("the stored runs failed 3/4: at that rate") for line in verdict.evidence), verdict
    assert any("--no-history" in line for line in verdict.evidence), verdict
    single, _, _ = hunt(fixed, Settings(strategy="single"), random.Random(1), observations=past)
    assert single.kind == "not-reproduced" and single.runs - len(past) <= 40, single
    # the stored runs' rate sets how many passes that takes: 1 failure in 30 stored runs needs more
    rare = (stored(everything, True),) + (stored(everything, False),) * 29
    verdict_rare, obs_rare, _ = hunt(fixed, Settings(), random.Random(1), observations=rare)
    assert verdict_rare.kind == "not-reproduced", verdict_rare
    assert sum(o.count for o in obs_rare if not o.stored) > 3 * sum(o.count for o in new)
    # a failure that still happens at the stored runs' rate is not called stale (1 in 30 here,
    # where the rule misfires with probability at most 1 - confidence: 0/20 hunts)
    today = Suite(fixed.problem, Truth((Cause(frozenset({4}), 1 / 30),), 0.0, frozenset({4})))
    kinds = [hunt(today, Settings(), random.Random(seed), observations=rare)[0].kind for seed in range(20)]
    assert "not-reproduced" not in kinds, kinds
