"""A batch of runs chosen together for W workers: several prefixes at once, the wall time they
save in the simulator, the same answers as one worker, and a pure replay."""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import replace

from isolate.search.decide import decide
from isolate.search.model import Observation, Query, Settings, Verdict, round_batch, run_cost, tally
from isolate.search.simulate import (
    Cause,
    Suite,
    Truth,
    hunt,
    judge,
    make_problem,
    scenario,
    simulate_batch,
    trial,
)
from isolate.search.strategies.causes import _both_needed
from isolate.search.threshold import _split, cost_chain, infer


def suite(n: int, culprit: int, rate: float = 1.0) -> Suite:
    pb = make_problem(n, tuple(0.1 + 0.001 * i for i in range(n)), 0.1, 1.0)
    return Suite(pb, Truth((Cause(frozenset({culprit}), rate),), 0.0, frozenset({culprit})))


def reproduced(s: Suite) -> list[Observation]:
    return [Observation(frozenset(range(len(s.problem.predecessors))), True, 1.0)]


def test_a_deterministic_hunt_splits_the_batch_over_prefixes_of_the_chain() -> None:
    s = suite(200, 150)
    q = decide(s.problem, reproduced(s), Settings(), batch=8)
    assert isinstance(q, Query)
    lists = q.lists()
    assert len(lists) >= 4 and sum(r for _, r in lists) == 8
    chain = cost_chain(s.problem)
    sizes = [len(inc) for inc, _ in lists]
    assert sizes == sorted(set(sizes))  # distinct prefixes, shortest first
    for inc, _ in lists:
        assert inc == tuple(sorted(chain[:len(inc)]))  # each an exact prefix of the chain
    assert not q.until_failure  # every run of a batch is evidence: none is cut short
    assert "lists at once" in q.reason
    # one worker: one list, as before
    single = decide(s.problem, reproduced(s), Settings(), batch=1)
    assert isinstance(single, Query) and single.alongside == () and single.until_failure


def test_a_flaky_hunt_keeps_repeats_per_list_and_a_small_batch_stays_one_list() -> None:
    s = suite(200, 150, rate=0.2)
    observations = reproduced(s) + [Observation(frozenset(range(200)), False, 5.0, 5)]
    wide = decide(s.problem, observations, Settings(), batch=32)
    assert isinstance(wide, Query)
    runs = [r for _, r in wide.lists()]
    assert sum(runs) == 32 and min(runs) >= 2 and len(runs) <= 16  # repeats of each: a pass says little
    narrow = decide(s.problem, observations, Settings(), batch=2)
    assert isinstance(narrow, Query) and narrow.alongside == () and narrow.runs % 2 == 0


def test_batches_save_wall_time_and_keep_the_answers() -> None:
    walls: dict[int, list[float]] = {1: [], 8: []}
    for seed in range(6):
        for w in walls:
            s = scenario("single p=1", 300, random.Random(f"p|{seed}"))
            t = trial(s, Settings(), random.Random(f"run|{seed}|{w}"), batch=w)
            assert t.correct, (seed, w, t)
            walls[w].append(t.wall)
    # 0.67 on these suites (0.60 while one worker's hunt opened with the whole list, 2026-11-26)
    assert statistics.mean(walls[8]) < 0.7 * statistics.mean(walls[1])


def test_the_parallel_hunt_names_every_cause_and_replays_purely() -> None:
    s = scenario("multi k=3 p=1", 120, random.Random("k3"))
    v, history, _ = hunt(s, Settings(), random.Random(2), batch=8)
    assert v.kind == "polluter" and frozenset(v.culprits) == s.truth.answer
    assert decide(s.problem, list(history), Settings(), batch=8) == v
    cut = list(history[: len(history) // 2])
    assert decide(s.problem, cut, Settings(), batch=8) == decide(s.problem, cut, Settings(), batch=8)


def test_a_batch_of_several_lists_lasts_as_long_as_its_slowest_list() -> None:
    s = suite(50, 40)
    q = Query((0, 1), 3, "test", until_failure=False, alongside=(((0, 1, 2, 3, 4), 2),))
    obs, wall = simulate_batch(s, q, random.Random(0), batch=8)
    assert sum(o.count for o in obs) == 5 and not any(o.failed for o in obs)
    cost = s.problem.startup + s.problem.victim_duration + sum(s.problem.durations[:5])
    assert abs(wall - cost) < 1e-9
    # one list on 4 workers: waves of 4 runs, the wave of the first failure the last, and every
    # run of that wave reported (they ran beside the failing one: Runner.run_lists's in_flight)
    alone = Query(tuple(range(41)), 8, "test")
    obs, wall = simulate_batch(s, alone, random.Random(0), batch=4)
    one = s.problem.startup + s.problem.victim_duration + sum(s.problem.durations[:41])
    assert sum(o.count for o in obs) == 4 and all(o.failed for o in obs) and abs(wall - one) < 1e-9


def test_a_batch_of_more_runs_than_workers_starts_each_run_on_the_first_free_worker() -> None:
    """As the Runner does (one run of each list in turn, each on the first free worker): 2 runs
    of a long list and 6 of a short one on 2 workers take the long run's time plus what the short
    ones fill beside it, not 4 waves as long as the long list."""
    s = suite(50, 40)
    long, short = tuple(range(40)), (0,)
    q = Query(long, 2, "test", until_failure=False, alongside=((short, 6),))
    obs, wall = simulate_batch(s, q, random.Random(0), batch=2)
    assert sum(o.count for o in obs) == 8
    a, b = run_cost(s.problem, long), run_cost(s.problem, short)
    # turns: long, short, long, short, short, short, short, short. Worker 1: long (0..a); worker
    # 2: short (0..b), long (b..a+b); then short on worker 1 (a..a+b), and the last four two by
    # two: a + 3b in all, where 4 waves as long as the long list would be 4a
    assert b < a / 3
    assert abs(wall - (a + 3 * b)) < 1e-9


# ---------------------------------------------------------------------------
# Batches beyond the chain search: the single/pair search inside a prefix, the reproduction wave


def copies_wall(s: Suite, settings: Settings, rng: random.Random, w: int) -> tuple[bool, float]:
    """The ablation: each query as one worker would choose it, repeated in waves of W."""
    obs: list[Observation] = []
    wall = 0.0
    while True:
        step = decide(s.problem, obs, settings, batch=1)
        if isinstance(step, Verdict):
            return judge(s.truth, step.kind, frozenset(step.culprits)), wall
        got, secs = simulate_batch(s, replace(step, runs=round_batch(step.runs, w)), rng, w)
        obs += got
        wall += secs


def test_the_search_inside_a_prefix_runs_nested_lists_of_suspects_at_once() -> None:
    s = suite(40, 30, rate=0.5)
    q = decide(s.problem, reproduced(s), Settings(strategy="single"), batch=8)
    assert isinstance(q, Query)
    lists = q.lists()
    assert len(lists) >= 2 and sum(r for _, r in lists) == 8 and not q.until_failure
    sets = [set(inc) for inc, _ in lists]
    assert all(a < b for a, b in zip(sets, sets[1:]))  # prefixes of one ordering of the suspects
    assert "suspicion" in q.reason
    one = decide(s.problem, reproduced(s), Settings(strategy="single"), batch=1)
    assert isinstance(one, Query) and one.alongside == () and one.until_failure


def test_batches_inside_a_prefix_beat_copies_of_one_list_with_the_same_answers() -> None:
    settings = Settings(strategy="single")  # no chain search: only the search inside a prefix
    for name, factor in (("pair p=0.5", 0.9), ("single p=1", 0.9)):
        batched: list[float] = []
        copied: list[float] = []
        for seed in range(8):
            s = scenario(name, 50, random.Random(f"s|{seed}"))
            t = trial(s, settings, random.Random(f"r|{seed}"), batch=8)
            right, wall = copies_wall(s, settings, random.Random(f"r|{seed}"), 8)
            assert t.correct and right, (name, seed)
            batched.append(t.wall)
            copied.append(wall)
        assert statistics.mean(batched) < factor * statistics.mean(copied), (name, batched, copied)


def test_the_first_wave_runs_prefixes_that_split_the_chain_instead_of_the_whole_list() -> None:
    s = suite(200, 150)
    n = len(s.problem.predecessors)
    chain = cost_chain(s.problem)
    q = decide(s.problem, [], Settings(), batch=8)
    assert isinstance(q, Query) and not q.until_failure
    lists = q.lists()
    sizes = [len(inc) for inc, _ in lists]
    assert sizes == [math.ceil(n * i / 9) for i in range(1, 9)]  # the chain's prior mass split evenly
    assert all(inc == tuple(sorted(chain[:len(inc)])) and r == 1 for inc, r in lists)
    assert "8 lists at once" in q.reason and "if all pass, the full list runs next" in q.reason
    # the wave lasts as long as its longest prefix, not the whole list
    obs, wall = simulate_batch(s, q, random.Random(0), batch=8)
    assert abs(wall - run_cost(s.problem, lists[-1][0])) < 1e-9 and wall < run_cost(s.problem, tuple(range(n)))
    # the next round searches below the shortest prefix that failed, mostly above the one that
    # passed (one pass is no proof: a flaky cause is not ruled out)
    position = chain.index(150) + 1
    passed = max(k for k in sizes if k < position)
    failed = min(k for k in sizes if k >= position)
    nxt = decide(s.problem, obs, Settings(), batch=8)
    assert isinstance(nxt, Query)
    lengths = [len(inc) for inc, _ in nxt.lists()]
    assert all(k <= failed for k in lengths) and sum(k > passed for k in lengths) >= 6, (passed, failed, lengths)
    # two places: a third and two thirds; one: half
    two = decide(s.problem, [], Settings(), batch=2)
    assert isinstance(two, Query) and [len(inc) for inc, _ in two.lists()] == [67, 134]
    one = decide(s.problem, [], Settings(), batch=1)
    assert isinstance(one, Query) and one.alongside == () and len(one.included) == 100
    # should every prefix pass, the whole list runs next, a wave of it
    passes = [Observation(frozenset(inc), False, 1.0) for inc, _ in lists]
    again = decide(s.problem, passes, Settings(), batch=8)
    assert isinstance(again, Query) and again.included == tuple(range(n)) and again.runs == 8


def test_the_first_wave_runs_the_victim_alone_in_its_idle_time_when_runs_execute_it_again() -> None:
    """With runs that execute the victim K times (executions ahead of the check: `hedge`), the
    first wave's shorter prefixes leave workers idle until its longest ends; runs of the victim
    alone fill that time, as many as end before it (up to CHECK_RUNS), for the check of the
    repeated executions to count.  Single runs, one worker, or no idle time: no such runs."""
    from isolate.search.batch import makespan
    from isolate.search.repeats import AUTO_K, CHECK_RUNS
    s = suite(200, 150)
    pb = s.problem
    plain = decide(pb, [], Settings(), batch=8)
    ahead = decide(pb, [], Settings(hedge=AUTO_K), batch=8)
    assert isinstance(plain, Query) and isinstance(ahead, Query)
    assert all(inc for inc, _ in plain.lists())  # single runs: the prefixes only, as before
    alone = [r for inc, r in ahead.lists() if not inc]
    assert ahead.lists()[:-1] == plain.lists() and len(alone) == 1 and 1 <= alone[0] <= CHECK_RUNS
    assert f"the victim alone {alone[0]} times, in the wave's idle time" in ahead.reason
    extra = (AUTO_K - 1) * pb.victim_duration
    costs = [run_cost(pb, inc) + extra for inc, _ in ahead.lists()]
    runs = [r for _, r in ahead.lists()]
    longest = makespan(costs[:-1], runs[:-1], 8)
    assert makespan(costs, runs, 8) <= longest  # the wave ends no later for them...
    if alone[0] < CHECK_RUNS:  # ...and one more would have made it longer
        assert makespan(costs, runs[:-1] + [alone[0] + 1], 8) > longest
    assert decide(pb, [], Settings(hedge=AUTO_K), batch=1).alongside == ()  # one worker: one prefix
    # a victim so slow that one run of it alone outlasts the wave's idle time: none
    slow = replace(pb, victim_duration=5.0)
    wave = decide(slow, [], Settings(hedge=AUTO_K), batch=8)
    assert isinstance(wave, Query) and all(inc for inc, _ in wave.lists())


def test_a_batch_of_prefixes_is_never_shorter_than_the_list_one_worker_would_run() -> None:
    # A victim failing at its own 5% rate, with two failures that point late in the chain
    # (prefix counts of a hunt that once ran to its budget this way): one worker runs the 46
    # quickest; two workers ran the 31 and 39 quickest, which hold almost none of the mass and
    # said nothing new, batch after batch.
    s = scenario("none q=0.05", 50, random.Random("none q=0.05|50|13"))
    chain = cost_chain(s.problem)
    seen = {10: (0, 1), 17: (0, 1), 18: (0, 1), 19: (0, 1), 25: (0, 1), 27: (0, 1), 28: (0, 1), 29: (0, 1),
            31: (0, 1), 32: (0, 8), 33: (0, 3), 34: (0, 3), 35: (0, 3), 36: (0, 2), 37: (0, 1), 38: (0, 2),
            39: (1, 17), 40: (0, 1), 50: (1, 1)}
    obs: list[Observation] = []
    for k, (fails, runs) in seen.items():
        prefix = frozenset(chain[:k])
        if fails:
            obs.append(Observation(prefix, True, 1.0, fails))
        if runs > fails:
            obs.append(Observation(prefix, False, 1.0, runs - fails))
    one = decide(s.problem, obs, Settings(), batch=1)
    two = decide(s.problem, obs, Settings(), batch=2)
    assert isinstance(one, Query) and isinstance(two, Query)
    assert max(len(inc) for inc, _ in two.lists()) >= len(one.included), (len(one.included), two.lists())


def test_the_stop_check_runs_prefixes_that_split_the_rest_of_the_chain_beside_it() -> None:
    # a cause early in the chain: what the next round would search is spread over the rest
    s = suite(200, 10)
    obs: list[Observation] = []
    rng = random.Random(3)
    for _ in range(40):
        q = decide(s.problem, obs, Settings(), batch=8)
        assert isinstance(q, Query)
        if q.reason.startswith("without the causes found") and q.alongside:
            break
        obs += simulate_batch(s, q, rng, batch=8)[0]
    else:
        raise AssertionError("no stop check with prefixes beside it")
    rest = tuple(i for i in range(200) if i != 10)
    assert q.included == rest
    sizes = [len(inc) for inc, _ in q.alongside]
    assert sizes == sorted(set(sizes)) and len(sizes) >= 2, sizes
    # beside the rest's run a long prefix costs no more wall time than a short one: the free
    # places split where the mass is (all of the rest), not only its cheap start
    assert max(sizes) > len(rest) / 2, sizes
    _, wall = simulate_batch(s, q, random.Random(0), batch=8)
    assert abs(wall - run_cost(s.problem, q.included)) < 1e-9


def test_runs_of_the_cause_alone_beside_the_rest_save_a_wave_of_the_stop_check() -> None:
    """On 8 workers a flaky cause found from few runs leaves more passes of the rest to ask for
    than a wave; runs of the cause alone (one quick test) beside the rest's 8 narrow its rate
    enough that the one wave suffices, at little wall time beyond the rest's run."""
    s = scenario("single p=0.5", 300, random.Random("single p=0.5|300|13"))
    (culprit,) = s.truth.answer
    rest = tuple(i for i in range(300) if i != culprit)
    obs: list[Observation] = []
    rng = random.Random("run|single p=0.5|300|13|8")
    batches = []
    while True:
        q = decide(s.problem, obs, Settings(confidence=0.99, max_runs=50_000), batch=8)
        if isinstance(q, Verdict):
            break
        batches.append(q)
        got, _ = simulate_batch(s, q, rng, batch=8)
        obs += got
    assert q.kind == "polluter" and q.culprits == (culprit,)
    checks = [b for b in batches if b.included == rest]
    assert len(checks) == 1, [b.reason for b in batches]  # one wave of the rest, not two
    (check,) = checks
    assert check.runs == 8 and check.alongside == (((culprit,), 8),)
    _, wall = simulate_batch(s, check, random.Random(0), batch=8)
    rest_run = run_cost(s.problem, rest)
    assert rest_run < wall < 1.1 * rest_run


def test_a_batch_of_one_list_is_not_called_1_lists_at_once() -> None:
    """The chain search's batch could hold a single prefix and said '1 lists at once, the 6
    quickest of 6 predecessors: where do the lists start to fail?'."""
    pb = make_problem(6, tuple(0.01 * (i + 1) for i in range(6)), 0.1, 0.5)
    chain = cost_chain(pb)
    t = tally([Observation(frozenset(range(6)), True, 1.0), Observation(frozenset(chain[:5]), False, 1.0)])
    th = infer(chain, t, Settings(), 0.1)
    cost = [0.5 + sum(pb.durations[i] for i in chain[:k]) for k in range(7)]
    q = _split(th, 2, 2, cost, [0.5] * 7, 6)
    assert not q.alongside and q.reason.startswith("the 6 quickest of 6 predecessors:"), q.reason


def test_a_pairs_both_needed_checks_share_one_batch_on_several_workers() -> None:
    """Each member of a named pair must be seen not to be enough alone; on W workers the two
    members' runs go side by side in one batch (their runs share the waves) instead of one
    member's waves after the other's; on one worker, one member at a time as before."""
    problem = make_problem(10, tuple(0.1 for _ in range(10)), 0.1, 1.0)
    t = tally([Observation(frozenset(range(10)), True, 1.0, 6), Observation(frozenset({2, 5}), True, 1.0, 6)])
    v = Verdict("polluter", (2, 5), 0.995, 0.99, 0.0, (), t.total_runs, t.total_seconds)
    q = _both_needed(problem, t, v, Settings(), 8, (math.inf, math.inf))
    assert isinstance(q, Query) and not q.until_failure
    lists = q.lists()
    assert sorted(inc for inc, _ in lists) == [(2,), (5,)]
    assert sum(r for _, r in lists) % 8 == 0 and abs(lists[0][1] - lists[1][1]) <= 1
    one = _both_needed(problem, t, v, Settings(), 1, (math.inf, math.inf))
    assert isinstance(one, Query) and one.alongside == () and one.included in ((2,), (5,))
