"""The policy of repeating the victim in one process (isolate.search.repeats): pure functions."""

from __future__ import annotations

import math
import random

import pytest

from isolate.search.repeats import (AHEAD_JOBS, ALIKE_RUNS, ALPHA, ALPHA_AGAIN, AUTO_AFTER, AUTO_K, AUTO_LATEST, AUTO_ROOM,
                                    CHECK_QUIET, CHECK_RUNS, HISTORY_MOST, HOLD, OFF, ON, Q_MAX, RELEASE_E, SINGLE, ahead, ahead_next,
                                    add_nothing, alike, automatic, check_next, choose, flaky, later_e, later_p, per_execution,
                                    stance, stored_flaky, together)


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


def test_the_likelihood_ratio_mixes_the_alternatives() -> None:
    assert later_e(["pppp", "rrrr", "p"]) == 1.0 and later_e([]) == 1.0
    # one run, t = 1 of 2, the first passed: theta / (1 + theta) is the first's chance under theta,
    # so the ratio is 2 / (1 + theta), averaged over (0, 1): 2 ln 2
    assert math.isclose(later_e(["pr"]), 2 * math.log(2), rel_tol=1e-3)
    # the first reproduced where the later ones mostly did not: evidence for exchangeability
    assert later_e(["rppp"] * 5) < 1
    # the order of the runs does not matter, nor does a run's pattern beyond (K, t, first)
    assert math.isclose(later_e(["prr", "rpp", "prrr"]), later_e(["prrr", "rpp", "prr"]))
    assert math.isclose(later_e(["rprr", "pprr"]), later_e(["rrrp", "prpr"]))
    assert later_e(["p" + "r" * 9] * 400) == math.inf  # past what a float holds: no overflow error


def test_a_self_polluting_victim_is_rejected_at_a_verdict() -> None:
    assert stance(["prrr"] * 10, ["prrr"] * 10, "fails-alone")[0] == OFF
    assert stance(["prrr"] * 2, ["prrr"] * 2, "polluter")[0] == ON  # two runs are not enough
    state, figure = stance(["prrr"] * 10, ["prrr"] * 10, "polluter")
    assert state == OFF and figure.startswith("likelihood ratio ") and figure.endswith(f">= {1 / ALPHA_AGAIN:g}")


def test_looks_at_every_verdict_do_not_add_up_false_alarms() -> None:
    """Hunts of a victim whose executions are exchangeable (1 in 8 each), looked at after every
    run: later_e ever reaches 1 / ALPHA_AGAIN in at most ALPHA_AGAIN of them (Ville), where
    later_p at ALPHA_AGAIN, looked at as often, rejects more often than its level. A run whose
    executions all reproduced or none did tells neither statistic anything (both leave it out, as
    their docstrings say), so the look after it would see the value of the look before: only the
    looks after a telling run are made (about 4 in 10 of them)."""
    rng = random.Random(11)
    hunts, looks = 300, 150
    by_e = by_p = 0
    for _ in range(hunts):
        runs: list[str] = []
        e_fired = p_fired = False
        for _ in range(looks):
            runs.append("".join("r" if rng.random() < 0.125 else "p" for _ in range(4)))
            if runs[-1].count("r") in (0, len(runs[-1])):
                continue
            e_fired = e_fired or later_e(runs) >= 1 / ALPHA_AGAIN
            p_fired = p_fired or later_p(runs) < ALPHA_AGAIN
        by_e += e_fired
        by_p += p_fired
    assert by_e / hunts <= ALPHA_AGAIN, by_e
    assert by_p / hunts > ALPHA_AGAIN and by_p > by_e, (by_p, by_e)


def test_choose_keeps_a_run_of_the_victim_alone_mostly_passing() -> None:
    assert choose(["p" * 10] * 20, 10) == 10  # never fails alone: nothing to double, keep K
    assert choose(["rprpr"] * 20, 5) == 1  # fails 60% of executions: one is all it can take
    k = choose(["p" * 9 + "r"] * 7 + ["p" * 10] * 13, 10)  # 7 of 200 executions
    rate = 8 / 202
    assert 1 < k < 10 and 1 - (1 - rate) ** k <= Q_MAX < 1 - (1 - rate) ** (k + 1)


def test_the_check_stops_after_a_quiet_wave_only_once_a_list_reproduced_the_failure() -> None:
    quiet, loud = "p" * AUTO_K, "p" * (AUTO_K - 1) + "r"
    assert check_next([], 1, False) == CHECK_RUNS  # nothing reproduced: the runs alone are the question
    assert check_next([quiet] * CHECK_QUIET, 1, False) == CHECK_RUNS - CHECK_QUIET
    assert check_next([], 1, True) == CHECK_QUIET  # a first wave, at least CHECK_QUIET runs...
    assert check_next([], CHECK_QUIET + 2, True) == CHECK_QUIET + 2  # ...or a whole wave of them
    assert check_next([], 4 * CHECK_RUNS, True) == CHECK_RUNS
    assert check_next([quiet] * CHECK_QUIET, 1, True) == 0  # quiet: done
    assert check_next([quiet] * (CHECK_QUIET - 1), 1, True) == 1  # an interrupted first wave goes on
    assert check_next([quiet] * (CHECK_QUIET - 1) + [loud], 1, True) == CHECK_RUNS - CHECK_QUIET
    assert check_next(["f" + quiet[1:]] * CHECK_QUIET, 1, True) == CHECK_RUNS - CHECK_QUIET  # failed otherwise
    assert check_next([loud] * CHECK_RUNS, 1, True) == 0
    # a quiet first wave keeps K
    assert choose([quiet] * CHECK_QUIET, AUTO_K) == AUTO_K


def test_per_execution_inverts_a_k_fold_rate() -> None:
    assert math.isclose(per_execution(1 - 0.9 ** 5, 5), 0.1)
    assert math.isclose(per_execution(0.3, 1), 0.3)


def test_a_fails_alone_verdict_waits_for_a_first_execution() -> None:
    later_only = ["pprp", "pppp", "ppppp"[:4]]
    assert stance(later_only, later_only, "fails-alone")[0] == HOLD
    assert stance(later_only, later_only, "polluter")[0] == ON
    with_first = ["rppp", "pprp", "pppp"]
    assert stance(with_first, with_first, "fails-alone")[0] == ON


def test_a_held_verdict_is_not_let_go_while_the_executions_lean_towards_self_pollution() -> None:
    """One first execution reproduced the failure alone, but 60 runs reproduced it on a later one
    only: later_e near 14 (odds that the victim pollutes itself), below the 100 that turns repeats
    off, at or above RELEASE_E; the lean counts over all runs or over those alone."""
    first, later, quiet = "r" + "p" * 9, "p" * 5 + "r" + "p" * 4, "p" * 10
    leaning = [first] + [later] * 60
    assert RELEASE_E <= later_e(leaning) < 1 / ALPHA_AGAIN
    assert stance(leaning, leaning, "fails-alone")[0] == HOLD
    assert stance(leaning, [first] + [quiet] * 60, "fails-alone")[0] == HOLD  # over all runs
    assert stance([first] + [quiet] * 60, leaning, "fails-alone")[0] == HOLD  # over the runs alone
    assert stance(leaning, leaning, "polluter")[0] == ON  # only a verdict that the victim fails alone waits
    fewer = [first] + [later] * 10  # the same 1 in 11 on the first execution, on fewer runs: no lean yet
    assert later_e(fewer) < RELEASE_E and stance(fewer, fewer, "fails-alone")[0] == ON


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
    # stored runs left out that hold the hunt's only failures (they tell one that no longer happens)
    assert not automatic(AUTO_AFTER, 0, False, 3, None, history_failed=3)
    assert automatic(AUTO_AFTER, 0, False, 3, None) and automatic(10, 1, True, 3, None, history_failed=3)


def test_a_list_that_passes_while_holding_a_failing_one_shows_a_flaky_cause() -> None:
    a, ab, abc, c = frozenset({1}), frozenset({1, 2}), frozenset({1, 2, 3}), frozenset({3})
    assert flaky([(ab, True), (ab, False)])  # the same list both ways
    assert flaky([(ab, True), (abc, False)])  # a passing superset of a failing list
    # what a deterministic cause (test 2, or the pair 2 + 3) also gives: passing subsets, other lists
    assert not flaky([(abc, True), (ab, True), (a, False), (c, False)])
    assert not flaky([(abc, True), (ab, False), (a, False)])
    assert not flaky([(a, False), (ab, False)]) and not flaky([])
    # every test of a failing list passed, in different lists: only a pair that never passed
    # together can be a deterministic cause ((1, 3) here, (2, 3) too)...
    bc = frozenset({2, 3})
    assert not flaky([(abc, True), (ab, False), (c, False)])
    # ...and once every two of its tests passed together, none is left
    assert flaky([(abc, True), (ab, False), (bc, False), (frozenset({1, 3}), False)])
    assert not flaky([(abc, True), (ab, False), (bc, False)])  # the pair (1, 3) is left
    # the victim failing alone, every time: it fails on its own, nothing flaky about it
    alone = frozenset[int]()
    assert not flaky([(alone, True), (ab, True)]) and flaky([(alone, True), (c, False)])
    assert flaky([(a, True), (ab, False)]) and not flaky([(a, True), (c, False)])


def test_stored_passes_count_as_flakiness_once_a_new_run_passed() -> None:
    """A stored run that passed with test 1 before the victim shows test 1 no deterministic cause,
    as a new pass would; while every new run failed (a brittle victim, whose stored pass is its
    state-setter's), the hunt's own runs decide alone."""
    a, ab, c = frozenset({1}), frozenset({1, 2}), frozenset({3})
    stored = [(ab, False)]
    assert not flaky([(a, True), (c, False)])
    assert stored_flaky(stored, [(a, True), (c, False)])
    assert not stored_flaky(stored, [(a, True), (ab, True)])  # no new pass: the stored one may be a setter's
    assert not stored_flaky([(c, False)], [(a, True), (c, False)])  # a stored pass without test 1 says nothing of it
    assert stored_flaky([], [(ab, True), (ab, False)]) and not stored_flaky([], [])


def test_executions_that_fail_together_stop_repeats() -> None:
    a, b, ab = frozenset({1}), frozenset({2}), frozenset({1, 2})

    def runs(*executions: str) -> list[tuple[frozenset[int], str]]:  # lists whose tests all passed somewhere
        return [(ab, "p")] + [(a, e) for e in executions]

    assert alike(runs("rrrr", "pppp", "rrrr", "rrrr"), 4)
    assert not alike(runs("rrrr", "rrrr"), 4)  # too few to tell
    assert not alike(runs("rrrr", "rrrp", "rrrr", "rrrr"), 4)  # one run whose executions differ
    assert not alike(runs("r", "r", "r", "rrrr", "rrrr"), 4)  # single runs are no K-fold runs
    assert not alike(runs("rrrr", "rrrr", "rrrr"), 1)  # single runs: nothing to stop
    assert alike(runs("rrrrpp", "rrrrrr", "rrrrpr"), 4)  # judged on the executions used
    # a test that never passed (a deterministic cause) explains its runs' failing together: they
    # are not counted, whatever the other runs' executions do
    never = frozenset({3})
    assert not alike([(ab, "p")] + [(never | a, "rrrr")] * 5, 4)
    assert not alike([(ab, "p")] + [(never | a, "rrrr")] * 5 + [(b, "rprp")], 4)
    assert alike([(ab, "p")] + [(never | a, "rrrr")] * 5 + [(b, "rrrr")] * 3, 4)  # three it does not explain
    assert alike([(never, "pppp")] + [(never | a, "rrrr")] * 3 + [(ab, "p")], 4)  # once it passed, it is no cause
    # the victim alone failing together (a process-wide draw: the hash seed) holds no test at all
    assert alike([(frozenset[int](), "rrrr")] * 3, 4)
    # independent executions failing at 0.8 each, K = 10: a failing run fails on all of them
    # about 1 time in 9 (0.8^10), so three in a row about 1 in 800
    rng = random.Random(7)
    drawn = ["".join("r" if rng.random() < 0.8 else "p" for _ in range(10)) for _ in range(3000)]
    alarms = sum(alike(runs(*drawn[i:i + 3]), 10) for i in range(0, 3000, 3))
    assert alarms <= 5, alarms


def test_repeats_stop_for_a_deterministic_cause_alone_and_stay_beside_a_flaky_one() -> None:
    a, b, ab, never = frozenset({1}), frozenset({2}), frozenset({1, 2}), frozenset({3})
    deterministic = [(ab, "p")] + [(never | a, "rrrr")] * ALIKE_RUNS
    assert together(deterministic, 4) and not alike(deterministic, 4) and add_nothing(deterministic, 4)
    # beside it a flaky cause: a list of tests that all passed somewhere failed a run (on a later
    # execution): the repeats that find it stay
    beside = deterministic + [(b, "pprp"), (b, "pppp")]
    assert not flaky((s, "r" in e[:1]) for s, e in beside)  # (on first executions, nothing flaky yet)
    assert not together(beside, 4) and not add_nothing(beside, 4)
    beside = deterministic + [(b, "rrrr")]  # test 2, which passed a run, failed one whole: flaky
    assert together(beside, 4) and not alike(beside, 4) and not add_nothing(beside, 4)
    assert add_nothing(beside + [(b, "rrrr")] * (ALIKE_RUNS - 1), 4)  # ALIKE_RUNS such runs: drawn once a run
    assert not add_nothing(deterministic, 1)  # single runs: nothing to stop


def test_executions_run_ahead_from_two_runs_at_once_with_room_for_the_check() -> None:
    assert not ahead(1, 0, None) and ahead(AHEAD_JOBS, 0, None) and ahead(8, HISTORY_MOST - 1, None)
    assert not ahead(8, HISTORY_MOST, None)  # the stored runs are worth more than the repeats
    assert ahead(8, 0, AUTO_AFTER + AUTO_ROOM) and not ahead(8, 0, AUTO_AFTER + AUTO_ROOM - 1)


def test_while_ahead_the_check_starts_by_the_first_executions_and_alike_runs_stop_it() -> None:
    k = AUTO_K
    passed = "p" * k
    a, ab = frozenset({1}), frozenset({1, 2})
    # two runs passed on their first execution (one failed on a later one): the check starts
    assert ahead_next(2, 0, False, 0, None, [(ab, passed), (a, "p" * (k - 1) + "r")], k) == ON
    assert ahead_next(1, 0, False, 0, None, [(ab, passed)], k) == HOLD  # fewer than AUTO_AFTER runs
    # a deterministic cause: every run reproduced on every execution, ALIKE_RUNS of them, each
    # holding a test that never passed: the extra executions stop, repeats may start later
    assert ahead_next(ALIKE_RUNS, ALIKE_RUNS, False, 0, None, [(ab, "r" * k)] * ALIKE_RUNS, k) == SINGLE
    # runs of a test that passed once, or of the victim alone: drawn once a run, repeats are off
    assert ahead_next(ALIKE_RUNS, ALIKE_RUNS, False, 0, None, [(a, passed)] + [(a, "r" * k)] * ALIKE_RUNS, k) == OFF
    assert ahead_next(ALIKE_RUNS, ALIKE_RUNS, False, 0, None, [(frozenset[int](), "r" * k)] * ALIKE_RUNS, k) == OFF
    # reproduced on every execution, no flaky pattern, but fewer than ALIKE_RUNS such runs yet:
    # wait, until repeats can no longer start
    so_far = [(ab, "r" * k)] * (ALIKE_RUNS - 1)
    assert ahead_next(5, 5, False, 0, None, so_far, k) == HOLD
    assert ahead_next(5, 5, False, 0, AUTO_ROOM - 1, so_far, k) == OFF  # no room left for the check
    # no run is left out when the check starts, so it may start after AUTO_LATEST runs, as
    # repeats started the earlier way may not
    assert ahead_next(AUTO_LATEST + 1, 5, False, 0, None, so_far, k) == HOLD
    assert ahead_next(AUTO_LATEST + 1, 5, True, 0, None, so_far, k) == ON
    # a run whose executions disagree (it reproduced, then passed once) shows a flaky cause as no
    # deterministic one could, whatever the first executions say: the check starts
    disagree = so_far + [(ab, "r" * (k - 1) + "p")]
    assert ahead_next(5, 5, False, 0, None, disagree, k) == ON
    assert ahead_next(5, 5, False, 0, AUTO_ROOM - 1, disagree, k) == OFF  # still no room for the check
    assert ahead_next(5, 5, False, 0, None, so_far + [(ab, "r" * (k - 1) + "f")], k) == HOLD  # failed otherwise: no pass
    assert not automatic(AUTO_LATEST + 1, 5, True, 0, None)


def test_a_simulated_hunt_on_two_workers_executes_ahead_from_its_first_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulator runs ahead as the hunts do: on two workers a flaky hunt's every run executed
    the victim AUTO_K times (or more) from the first one; on one worker its first runs were single."""
    from isolate.search import simulate
    from isolate.search.model import Settings

    made: list[int] = []
    real = simulate.executions

    def counted(truth: simulate.Truth, included: frozenset[int], k: int, rng: random.Random) -> str:
        made.append(k)
        return real(truth, included, k, rng)

    monkeypatch.setattr(simulate, "executions", counted)
    for batch in (1, 2):
        made.clear()
        suite = simulate.scenario("single p=0.2", 50, random.Random("ahead|0"))
        trial = simulate.repeat_trial(suite, Settings(confidence=0.99), random.Random("run|0"), AUTO_K, auto=True,
                                      batch=batch)
        assert trial.trial.correct and trial.used == AUTO_K, trial
        # (the stop check's runs of the rest execute it more times: isolate.search.stop.by_execution)
        if batch == 1:
            assert made[:AUTO_AFTER] == [1] * AUTO_AFTER and made[-1] >= AUTO_K, made
        else:
            assert min(made) == AUTO_K, made


def test_ahead_a_list_that_reproduced_at_a_later_execution_lets_the_check_stop_after_a_quiet_wave(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On 4 workers the first wave executes the victim AUTO_K times a run; when its failures came
    at later executions only, the lists still reproduced the failure, so the check's runs of the
    victim alone stop after one quiet wave of 4 (CHECK_QUIET) instead of making all CHECK_RUNS."""
    from isolate.search import simulate
    from isolate.search.model import Settings

    made: list[tuple[int, str]] = []
    real = simulate.executions

    def logged(truth: simulate.Truth, included: frozenset[int], k: int, rng: random.Random) -> str:
        out = real(truth, included, k, rng)
        made.append((len(included), out))
        return out

    monkeypatch.setattr(simulate, "executions", logged)
    suite = simulate.scenario("single p=0.2", 50, random.Random("single p=0.2|50|4"))
    trial = simulate.repeat_trial(suite, Settings(confidence=0.99, max_runs=5000), random.Random("run|4"), AUTO_K,
                                  auto=True, batch=4)
    assert trial.trial.correct
    first, after = made[:4], made[4:]
    assert any("r" in e for _, e in first) and not any(e[0] == "r" for _, e in first), first
    alone = next(i for i, (n, _) in enumerate(after) if n)  # the check's runs of the victim alone
    assert alone == 4 and all(set(e) == {"p"} for _, e in after[:alone]), after[:alone + 1]
