"""The policy of repeating the victim in one process (isolate.search.repeats): pure functions."""

from __future__ import annotations

import math
import random

from isolate.search.repeats import (ALPHA, AUTO_AFTER, AUTO_LATEST, AUTO_ROOM, HISTORY_MOST, HOLD, OFF, ON, Q_MAX,
                                    alike, automatic, choose, flaky, later_p, per_execution, stance)


def test_runs_whose_executions_agree_say_nothing() -> None:
    assert later_p(["pppp", "rrrr", "pp"]) == 1.0
    assert later_p([]) == 1.0


def test_a_victim_that_fails_only_after_itself_is_rejected() -> None:
    # first execution passes, the three after it fail: under exchangeability the first fails
    # with probability 3/4 in each run, so none in ten has probability (1/4)^10
    assert math.isclose(later_p(["prrr"] * 10), 0.25 ** 10)
    assert stance(["prrr"] * 10, ["prrr"] * 10)[0] == OFF


def test_the_exact_p_value_sums_the_lower_tail() -> None:
    # two telling runs, t = 1 of 2 and t = 2 of 4: the first reproduced in neither
    assert math.isclose(later_p(["pr", "pprr"]), 0.5 * 0.5)
    # one of them on its first: P(X <= 1) = 1 - P(both) = 1 - 0.25
    assert math.isclose(later_p(["rp", "pprr"]), 0.75)


def test_independent_executions_are_rejected_at_about_alpha() -> None:
    """The test is exact: on exchangeable executions it rejects at most ALPHA of the time."""
    rng = random.Random(7)
    rejected = 0
    trials = 2000
    for _ in range(trials):
        runs = ["".join("r" if rng.random() < 0.2 else "p" for _ in range(5)) for _ in range(20)]
        rejected += later_p(runs) < ALPHA
    assert rejected / trials <= ALPHA + 0.01, rejected


def test_choose_keeps_a_run_of_the_victim_alone_mostly_passing() -> None:
    assert choose(["p" * 10] * 20, 10) == 10  # never fails alone: nothing to double, keep K
    assert choose(["rprpr"] * 20, 5) == 1  # fails 60% of executions: one is all it can take
    k = choose(["p" * 9 + "r"] * 7 + ["p" * 10] * 13, 10)  # 7 of 200 executions
    rate = 8 / 202
    assert 1 < k < 10 and 1 - (1 - rate) ** k <= Q_MAX < 1 - (1 - rate) ** (k + 1)


def test_per_execution_inverts_a_k_fold_rate() -> None:
    assert math.isclose(per_execution(1 - 0.9 ** 5, 5), 0.1)
    assert math.isclose(per_execution(0.3, 1), 0.3)


def test_a_fails_alone_verdict_waits_for_a_first_execution() -> None:
    later_only = ["pprp", "pppp", "ppppp"[:4]]
    assert stance(later_only, later_only, "fails-alone")[0] == HOLD
    assert stance(later_only, later_only, "polluter")[0] == ON
    with_first = ["rppp", "pprp", "pppp"]
    assert stance(with_first, with_first, "fails-alone")[0] == ON


def test_repeats_start_by_themselves_on_rare_or_flaky_failures_only() -> None:
    # quiet: the first runs all passed
    assert automatic(AUTO_AFTER, 0, False, 0, None)
    assert not automatic(AUTO_AFTER - 1, 0, False, 0, None)
    # a deterministic cause: its lists always fail, however many other lists passed
    assert not automatic(20, 2, False, 0, None)
    # a flaky one, however often its lists fail: K executions a run make it fail nearly every run
    assert automatic(10, 1, True, 0, None) and automatic(9, 8, True, 0, None)
    # what would be left out, or the budget, stops them
    assert not automatic(AUTO_LATEST + 1, 0, False, 0, None)
    assert not automatic(AUTO_AFTER, 0, False, HISTORY_MOST, None)
    assert not automatic(AUTO_AFTER, 0, False, 0, AUTO_ROOM - 1) and automatic(AUTO_AFTER, 0, False, 0, AUTO_ROOM)


def test_a_list_that_passes_while_holding_a_failing_one_shows_a_flaky_cause() -> None:
    a, ab, abc, c = frozenset({1}), frozenset({1, 2}), frozenset({1, 2, 3}), frozenset({3})
    assert flaky([(ab, True), (ab, False)])  # the same list both ways
    assert flaky([(ab, True), (abc, False)])  # a passing superset of a failing list
    # what a deterministic cause (test 2, or the pair 2 + 3) also gives: passing subsets, other lists
    assert not flaky([(abc, True), (ab, True), (a, False), (c, False)])
    assert not flaky([(abc, True), (ab, False), (a, False)])
    assert not flaky([(a, False), (ab, False)]) and not flaky([])


def test_executions_that_fail_together_stop_repeats() -> None:
    assert alike(["rrrr", "pppp", "rrrr", "rrrr"], 4)
    assert not alike(["rrrr", "rrrr"], 4)  # too few to tell
    assert not alike(["rrrr", "rrrp", "rrrr", "rrrr"], 4)  # one run whose executions differ
    assert not alike(["rrrr", "rrrr", "rrrr"], 1)  # single runs: nothing to stop
    assert alike(["rrrrpp", "rrrrrr", "rrrrpr"], 4)  # judged on the executions used
    # independent executions failing at 0.8 each, K = 10: a failing run fails on all of them
    # about 1 time in 9 (0.8^10), so three in a row about 1 in 800
    rng = random.Random(7)
    runs = ["".join("r" if rng.random() < 0.8 else "p" for _ in range(10)) for _ in range(3000)]
    alarms = sum(alike(runs[i:i + 3], 10) for i in range(0, 3000, 3))
    assert alarms <= 5, alarms
