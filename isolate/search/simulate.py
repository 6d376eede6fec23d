"""Simulated suites with known ground truth, for `isolate plan` and the benchmark.

Pure: no processes, no clock; randomness only from the random.Random the caller passes.
A suite is a Problem (what the engine sees) plus a Truth (what really makes the victim
fail).  The truth is a list of independent causes, each a set of tests that must all run
before the victim and then makes it fail with some probability, optionally undone by a
later "cleaner"; plus a background rate at which the victim fails whatever ran.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from isolate.search.batch import makespan
from isolate.search.decide import decide
from isolate.search.strategies.cleaners import cleaner_problem
from isolate.search.model import (
    Observation,
    Problem,
    Query,
    Settings,
    Verdict,
    carry_over,
    run_cost,
    without,
)


@dataclass(frozen=True)
class Cause:
    """Tests that together pollute the victim (fails with `rate` once all have run)."""

    members: frozenset[int]
    rate: float
    cleaner: int = -1  # a test after the members that undoes the pollution...
    clean_rate: float = 0.0  # ...with this probability
    per_run: bool = False  # the victim repeated in one process: `rate` is drawn once a run (the
    # members leave the state behind or not; every execution then fails alike), not per execution


@dataclass(frozen=True)
class Truth:
    """Ground truth.  `answer` is the right culprit set (empty = "fails alone");
    a verdict naming a non-empty subset of one of `acceptable` also counts as right
    (cumulative leaks: any of the leakers)."""

    causes: tuple[Cause, ...]
    background: float
    answer: frozenset[int]
    acceptable: tuple[frozenset[int], ...] = ()
    setters: tuple[Cause, ...] = ()  # a brittle victim's: once run, it passes with `rate`
    cleaning: bool = False  # the cleaner search's view (cleaner_suite): `answer` is the cleaners
    self_rate: float = 0.0  # a victim that pollutes itself: each execution after its first fails at this rate too

    def fail_probability(self, included: frozenset[int]) -> float:
        survive = 1.0 - self.background
        for cause in self.causes:
            if cause.members <= included:
                rate = cause.rate
                if cause.cleaner >= 0 and cause.cleaner in included:
                    rate *= 1.0 - cause.clean_rate
                survive *= 1.0 - rate
        fail = 1.0 - survive
        for setter in self.setters:
            if setter.members <= included:
                fail *= 1.0 - setter.rate
        return fail


@dataclass(frozen=True)
class Suite:
    problem: Problem
    truth: Truth


def lognormal_durations(rng: random.Random, n: int, median: float = 0.2, sigma: float = 1.0) -> tuple[float, ...]:
    """Test durations: log-normal with the given median; sigma=1 gives a heavy tail
    (mean = 1.65 x median, 1% of tests over 10 x median)."""
    mu = math.log(median)
    return tuple(math.exp(rng.gauss(mu, sigma)) for _ in range(n))


def make_problem(n: int, durations: tuple[float, ...], victim_duration: float, startup: float) -> Problem:
    """Predecessor ids shaped like a unittest suite's (`tests.test_mod02.TestC07.test_0042`):
    see class_layout for the classes and modules."""
    names = []
    for i, (m, c) in enumerate(class_layout(n)):
        names.append(f"tests.test_mod{m:02d}.TestC{c:03d}.test_{i:04d}")
    return Problem(
        predecessors=tuple(names),
        victim="tests.test_victim.TestVictim.test_victim",
        durations=durations,
        victim_duration=victim_duration,
        startup=startup,
    )


def class_layout(n: int) -> list[tuple[int, int]]:
    """(module, class) of each of n tests in recorded order: classes of 3 to 8 consecutive tests,
    three classes a module.  Drawn from its own generator seeded by n, so a scenario's other
    draws do not depend on it."""
    rng = random.Random(f"layout|{n}")
    out: list[tuple[int, int]] = []
    c = 0
    while len(out) < n:
        out.extend([(c // 3, c)] * rng.randint(3, 8))
        c += 1
    return out[:n]


# ---------------------------------------------------------------------------
# Running a query against the truth


def simulate_batch(suite: Suite, query: Query, rng: random.Random, batch: int = 1
                   ) -> tuple[list[Observation], float]:
    """Run every list of the query on `batch` workers at once; the observations and the wall
    time.  A list alone runs in waves of `batch` runs (until_failure: the wave of the first
    failure is the last; its other runs finish and are reported, as the Runner does for hunts:
    running.runner.run_lists's `in_flight`).  Several lists run as the Runner runs them: their
    runs start one of each list in turn, each on the first worker that is free; the wall time is
    when the last one ends."""
    if not query.alongside:
        obs = simulate_query(suite, query, rng)
        done = sum(o.count for o in obs)
        waves = math.ceil(done / max(1, batch))
        rest = min(query.runs, waves * batch) - done
        if query.until_failure and rest > 0 and obs[-1].failed:  # the rest of its wave
            obs += simulate_query(suite, Query(query.included, rest, query.reason, until_failure=False), rng)
        return obs, waves * run_cost(suite.problem, query.included)
    obs = []
    lists = query.lists()
    for included, runs in lists:
        obs += simulate_query(suite, Query(included, runs, query.reason, until_failure=False), rng)
    return obs, makespan([run_cost(suite.problem, s) for s, _ in lists], [r for _, r in lists], batch)


def simulate_query(suite: Suite, query: Query, rng: random.Random) -> list[Observation]:
    """Run the query: up to query.runs runs, stopping at the first failure when asked.
    Passing streaks are returned as one Observation with a count (same evidence)."""
    included = frozenset(query.included)
    f = suite.truth.fail_probability(included)
    cost = run_cost(suite.problem, query.included)
    k = query.runs
    if not query.until_failure:
        fails = sum(1 for _ in range(k) if rng.random() < f)
        out = []
        if k - fails:
            out.append(Observation(included, False, cost * (k - fails), k - fails))
        if fails:
            out.append(Observation(included, True, cost * fails, fails))
        return out
    if f >= 1.0:
        passes = 0
    elif f <= 0.0:
        passes = k
    else:
        u = 1.0 - rng.random()  # in (0, 1]
        passes = int(math.log(u) / math.log1p(-f))
    out = []
    if passes >= k:
        out.append(Observation(included, False, cost * k, k))
        return out
    if passes:
        out.append(Observation(included, False, cost * passes, passes))
    out.append(Observation(included, True, cost, 1))
    return out


@dataclass(frozen=True)
class Trial:
    """Outcome of one simulated hunt."""

    kind: str
    culprits: frozenset[int]
    confidence: float
    correct: bool
    runs: int
    seconds: float
    calls: int
    wall: float = 0.0  # seconds on `batch` workers at once (simulate_batch)


def judge(truth: Truth, kind: str, culprits: frozenset[int]) -> bool:
    """Exact-set accuracy: the verdict names exactly the right set (or fails-alone)."""
    if truth.setters:
        return kind == "brittle" and culprits == truth.answer
    if truth.cleaning:
        return kind == "cleaner" and culprits == truth.answer if truth.answer else kind != "cleaner"
    if not truth.answer:
        return kind == "fails-alone"
    if kind != "polluter":
        return False
    return culprits == truth.answer or any(culprits <= a for a in truth.acceptable)


def hunt(
    suite: Suite,
    settings: Settings,
    rng: random.Random,
    *,
    batch: int = 1,
    observations: tuple[Observation, ...] = (),
) -> tuple[Verdict, tuple[Observation, ...], int]:
    """Drive decide() against the truth until it returns a verdict."""
    verdict, obs, calls, _ = hunt_wall(suite, settings, rng, batch=batch, observations=observations)
    return verdict, obs, calls


def hunt_wall(
    suite: Suite,
    settings: Settings,
    rng: random.Random,
    *,
    batch: int = 1,
    observations: tuple[Observation, ...] = (),
) -> tuple[Verdict, tuple[Observation, ...], int, float]:
    """hunt(), and the wall time of its runs on `batch` workers at once."""
    obs = list(observations)
    calls = 0
    wall = 0.0
    while True:
        step = decide(suite.problem, obs, settings, batch=batch)
        calls += 1
        if isinstance(step, Verdict):
            return step, tuple(obs), calls, wall
        got, secs = simulate_batch(suite, step, rng, batch)
        obs.extend(got)
        wall += secs


def hunt_all(suite: Suite, settings: Settings, rng: random.Random, *, max_culprits: int = 2) -> Trial:
    """Report polluters one after another: after each polluter verdict, hunt again with
    it removed (model.without), carrying over the runs that did not include it.
    Stops at a non-polluter verdict or once `max_culprits` culprit sets are found (a
    further round would only confirm that no polluter is left; see docs/search.md)."""
    problem, truth = suite.problem, suite.truth
    index = list(range(len(problem.predecessors)))  # current index -> original index
    found: set[int] = set()
    obs: tuple[Observation, ...] = ()
    runs = 0
    seconds = 0.0
    calls = 0
    conf = 1.0
    kind = "undecided"
    rounds = 0
    while True:
        before_runs = sum(o.count for o in obs)
        before_secs = sum(o.seconds for o in obs)
        verdict, obs, c = hunt(Suite(problem, _remap(truth, index)), settings, rng, observations=obs)
        runs += sum(o.count for o in obs) - before_runs
        seconds += sum(o.seconds for o in obs) - before_secs
        calls += c
        rounds += 1
        conf = min(conf, verdict.confidence)
        kind = verdict.kind
        if verdict.kind != "polluter":
            if found and verdict.kind in ("not-reproduced", "fails-alone"):
                kind = "polluter"
            break
        found.update(index[i] for i in verdict.culprits)
        if rounds >= max_culprits:
            break
        drop = set(verdict.culprits)
        obs = carry_over(problem, obs, drop)
        problem = without(problem, drop)
        index = [i for j, i in enumerate(index) if j not in drop]
    culprits = frozenset(found)
    return Trial(kind, culprits, conf, judge(suite.truth, kind, culprits), runs, seconds, calls)


def trial(suite: Suite, settings: Settings, rng: random.Random, *, batch: int = 1,
          stored: tuple[Observation, ...] = ()) -> Trial:
    """One hunt for a single culprit set (or none); `stored` runs (stored_runs) are evidence
    from the start and are not counted in the Trial's runs."""
    verdict, obs, calls, wall = hunt_wall(suite, settings, rng, batch=batch, observations=stored)
    culprits = frozenset(verdict.culprits)
    return Trial(verdict.kind, culprits, verdict.confidence,
                 judge(suite.truth, verdict.kind, culprits),
                 verdict.runs - sum(o.count for o in stored), verdict.seconds, calls, wall)


def stored_runs(suite: Suite, count: int, share: float, rng: random.Random) -> tuple[Observation, ...]:
    """`count` stored runs of the whole suite in shuffled orders (isolate.hunt.history): each
    predecessor ran before the victim in the victim's process with probability `share` (with W
    workers and random partitions and orders, 1 / (2 W)); the victim failed as the truth says."""
    out = []
    for _ in range(count):
        included = frozenset(i for i in range(len(suite.problem.predecessors)) if rng.random() < share)
        failed = rng.random() < suite.truth.fail_probability(included)
        out.append(Observation(included, failed, 0.0, stored=True))
    return tuple(out)


def _remap(truth: Truth, index: list[int]) -> Truth:
    """The truth seen through a reduced problem (index: new position -> original)."""
    back = {orig: new for new, orig in enumerate(index)}
    causes = []
    for cause in truth.causes:
        if not cause.members <= back.keys():
            continue  # a removed culprit: its cause can no longer act
        causes.append(replace(
            cause,
            members=frozenset(back[i] for i in cause.members),
            cleaner=back.get(cause.cleaner, -1),
        ))
    return replace(truth, causes=tuple(causes))


def rest_suite(suite: Suite, culprits: frozenset[int]) -> Suite:
    """The scan's view after a verdict naming `culprits` (strategies/scan.py): the other
    predecessors; a cause with a culprit among its members no longer acts, the others are the
    answer."""
    problem = suite.problem
    index = [i for i in range(len(problem.predecessors)) if i not in culprits]
    truth = _remap(suite.truth, index)
    return Suite(without(problem, culprits),
                 replace(truth, answer=frozenset().union(*(c.members for c in truth.causes)), acceptable=()))


def cleaner_suite(suite: Suite, polluter: frozenset[int]) -> Suite:
    """The cleaner search's view of a suite whose `polluter` tests run first in every list: the
    other predecessors are the candidates, the polluter's seconds are start-up, and the truth's
    causes switched on by the polluter act in every run (their cleaners are the answer)."""
    problem = suite.problem
    index = [i for i in range(len(problem.predecessors)) if i not in polluter]
    back = {orig: new for new, orig in enumerate(index)}
    causes = tuple(replace(c, members=frozenset(back[i] for i in c.members - polluter),
                           cleaner=back.get(c.cleaner, -1)) for c in suite.truth.causes)
    answer = frozenset(c.cleaner for c in causes if not c.members and c.cleaner >= 0 and c.clean_rate > 0)
    sub = cleaner_problem(tuple(problem.predecessors[i] for i in index), tuple(problem.durations[i] for i in index),
                          problem.victim, problem.victim_duration, problem.startup,
                          sum(problem.durations[i] for i in polluter))
    return Suite(sub, replace(suite.truth, causes=causes, answer=answer, acceptable=(), cleaning=True))


# ---------------------------------------------------------------------------
# The victim repeated in one process (--repeat-victim; the policy is isolate.search.repeats)


def executions(truth: Truth, included: frozenset[int], k: int, rng: random.Random) -> str:
    """One run that executes the victim k times after `included`: each execution's r (failed) or
    p. A per-run cause acts on all of a run's executions or none; the others, the background and
    the self-pollution after the first execution are drawn per execution."""
    per_run = [c for c in truth.causes if c.per_run and c.members <= included]
    stuck = any(rng.random() < c.rate for c in per_run)
    f = truth.fail_probability(included) if not per_run else Truth(
        tuple(c for c in truth.causes if not c.per_run), truth.background, truth.answer).fail_probability(included)
    out = []
    for j in range(k):
        fail = stuck or rng.random() < f or (j > 0 and rng.random() < truth.self_rate)
        out.append("r" if fail else "p")
    return "".join(out)


@dataclass(frozen=True)
class RepeatTrial:
    """A simulated hunt with the victim repeated: the Trial, the executions per run it ended
    with, and whether the check turned repeats off."""

    trial: Trial
    used: int
    off: bool


def repeat_trial(suite: Suite, settings: Settings, rng: random.Random, asked: int, *,
                 check: bool = True, auto: bool = False, batch: int = 1, ahead: bool | None = None,
                 stored: tuple[Observation, ...] = (),
                 trace: list[tuple[str, float, int]] | None = None) -> RepeatTrial:
    """One hunt as isolate.hunt.repeatcheck runs it with --repeat-victim `asked`: the check's runs
    of the victim alone (check_next), K chosen (or repeats off), the search on K-fold runs judged on their
    first `used` executions, the test again at every verdict, a "fails on its own" verdict held
    until a first execution alone failed. `check=False` is the ablation: K-fold runs taken as
    they come, no check at all. `auto`: no --repeat-victim, single runs until
    isolate.search.repeats.automatic starts repeats (`asked` is then AUTO_K); the single runs are
    left out while K > 1, as isolate.hunt.evidence does. `batch` workers at once, as the hunt's
    loop runs them (the Trial's `wall`): decide() plans for them; one list runs in waves of `batch`
    (until_failure: the wave of the first failure is the last, and all of its runs are reported,
    as the Runner does for hunts); a query of several lists as simulate_batch schedules them;
    the check's runs of the victim alone in waves, and a held verdict's wave of the
    victim alone is `batch` runs.

    `ahead` (with `auto`; None: as the hunts choose, isolate.search.repeats.ahead for `batch`
    runs at once): every run executes the victim AUTO_K times from the first one, judged on its
    first execution until ahead_next() starts the check (then no run is left out, since each
    already holds its K executions) or stops the extra executions.

    A query's `executions` (more than K) are what its runs execute; each run is judged on its
    first `used` as before, and its observation counts every execution (`Observation.executions`).

    `stored` runs (stored_runs, single executions) are evidence from the start and stay evidence
    beside the K-fold runs, as the several-causes search keeps them (isolate.hunt.evidence: its
    chain's prior); they never keep repeats from starting, their passes count where `flaky` asks
    whether a deterministic cause explains the runs once a new run passed (`stored_flaky`, as
    isolate.hunt.repeatcheck reads them), and they are no runs. The single runs made before
    repeats started by themselves stay evidence the same way.

    `trace`, when given, gets (what asked, wall seconds, runs) for every batch the hunt ran: a
    query's reason, "check" for the check's runs of the victim alone, "hold" for a held verdict's."""
    from isolate.search.repeats import (AUTO_K, HOLD, HOLD_MOST, OFF, ON, SINGLE, add_nothing, ahead_next, automatic,
                                        check_next, choose, stance, stored_flaky)
    from isolate.search.repeats import ahead as runs_ahead

    problem, truth = suite.problem, suite.truth
    runs: list[tuple[frozenset[int], str]] = []  # every run: its predecessors, its executions
    wall = 0.0

    def cost(included: frozenset[int], k: int) -> float:
        return run_cost(problem, included) + (k - 1) * problem.victim_duration

    def note(what: str, seconds: float, made: int) -> None:
        if trace is not None:
            trace.append((what, seconds, made))

    def run(included: frozenset[int], k: int, times: int, until_failure: bool, what: str) -> None:
        """One list `times` times, in waves of `batch`, for `what` (the trace's name)."""
        nonlocal wall
        before = len(runs)
        done = 0
        for _ in range(times):
            runs.append((included, executions(truth, included, k, rng)))
            done += 1
            if until_failure and "r" in runs[-1][1]:
                break
        waves = math.ceil(done / batch)
        if until_failure:
            for _ in range(min(times, waves * batch) - done):  # the rest of the wave, in flight
                runs.append((included, executions(truth, included, k, rng)))
        seconds = waves * cost(included, k)
        wall += seconds
        note(what, seconds, len(runs) - before)

    def run_all(lists: Sequence[tuple[Sequence[int], int]], k: int, what: str) -> None:
        """Several lists at once, every run of each (simulate_batch's schedule)."""
        nonlocal wall
        for included, times in lists:
            runs.extend((frozenset(included), executions(truth, frozenset(included), k, rng)) for _ in range(times))
        seconds = makespan([cost(frozenset(s), k) for s, _ in lists], [r for _, r in lists], batch)
        wall += seconds
        note(what, seconds, sum(r for _, r in lists))

    alone = frozenset[int]()
    # the hunt's default per-run timeout, halved (isolate.hunt.loop: 10x a run of the whole list)
    limit = settings.run_seconds or max(60.0, 10 * run_cost(problem, tuple(range(len(problem.predecessors))))) / 2
    used = 1 if auto else asked
    off = False
    single = 0  # runs made before repeats started by themselves
    if ahead is None:
        ahead = runs_ahead(batch, 0, settings.max_runs)
    ahead = ahead and auto
    executing = AUTO_K if ahead else used  # executions per run, judged on the first `used`
    started = False

    def start(k: int) -> None:
        nonlocal used, off, executing, started

        def by_alone() -> list[str]:
            return [e for inc, e in runs[single:] if not inc and len(e) > 1]

        reproduced = any("r" in e for _, e in runs)  # at any execution (runs ahead execute K), as the hunt reads it
        while left := check_next(by_alone(), batch, reproduced):
            run(alone, k, left, False, "check")
        made = [e for _, e in runs[single:] if len(e) > 1]
        checked = by_alone()
        state, _ = stance(made, checked)
        used = choose(checked, k) if state != OFF else 1
        off = state == OFF
        executing = used
        started = True

    if asked > 1 and check and not auto:
        start(asked)
    while True:
        # a run's other executions as the hunt measures them: in its start-up (isolate.hunt.evidence)
        seen = replace(problem, startup=problem.startup + (used - 1) * problem.victim_duration)
        obs: list[Observation] = list(stored)  # consecutive alike runs as one observation with a count
        if used > 1 and settings.strategy == "isolate":
            # the single runs before repeats started, as stored runs are kept (isolate.hunt.evidence)
            obs += [Observation(inc, "r" in e[:1], 0.0, stored=True, here=True) for inc, e in runs[:single]]
        for inc, e in runs[single if used > 1 else 0:]:
            failed, secs = "r" in e[:used], cost(inc, min(used, len(e)))
            k, r = (len(e), e.count("r")) if len(e) > 1 else (0, 0)  # every execution
            if obs and obs[-1].included == inc and obs[-1].failed == failed and not obs[-1].stored:
                last = obs[-1]  # (never a stored run's: it stays stored)
                obs[-1] = Observation(inc, failed, last.seconds + secs, last.count + 1,
                                      executions=last.executions + k, reproductions=last.reproductions + r)
            else:
                obs.append(Observation(inc, failed, secs, executions=k, reproductions=r))
        if used > 1 and check and add_nothing(runs, used):
            used, off = 1, True  # the executions fail together: repeats add nothing
            executing = 1
            continue
        most = settings.max_runs  # for the whole hunt: what the search sees, plus what is left (as the loop does)
        room = None if most is None else sum(o.count for o in obs) + max(0, most - len(runs))
        step = decide(seen, obs, replace(settings, executions=used, max_runs=room, run_seconds=limit,
                                         hedge=AUTO_K if auto or asked > 1 else 1), batch=batch)
        if auto and not started and not off and isinstance(step, Query):
            shown = stored_flaky([(o.included, o.failed) for o in stored], [(inc, "r" in e[:1]) for inc, e in runs])
            first = (len(runs), sum("r" in e[:1] for _, e in runs), shown, 0, None if most is None else most - len(runs))
            if ahead:
                state = ahead_next(*first, runs, executing)
                if state == OFF:
                    executing, off = 1, True  # no extra executions from now on
                if state == SINGLE:
                    executing, ahead = 1, False  # as on one worker from now on
                if state == ON:
                    start(AUTO_K)
                if state != HOLD:
                    continue
            elif automatic(*first):
                single = len(runs)
                start(AUTO_K)
                continue
        if isinstance(step, Verdict):
            if used < 2 or not check:
                break
            k_fold = [e for _, e in runs if len(e) > 1]
            by_alone = [e for inc, e in runs if not inc and len(e) > 1]
            state, _ = stance(k_fold, by_alone, step.kind)
            if state == OFF or (state == HOLD and len(by_alone) >= HOLD_MOST):
                used, off, executing = 1, True, 1
                continue
            if state == HOLD:
                run(alone, max(used, asked) if batch == 1 else used, batch, False, "hold")  # isolate.search.repeats.stance
                continue
            break
        if step.alongside:
            run_all(step.lists(), max(used, executing, step.executions), step.reason)
        else:
            run(frozenset(step.included), max(used, executing, step.executions), step.runs, step.until_failure,
                step.reason)
    culprits = frozenset(step.culprits)
    seconds = sum(cost(inc, len(e)) for inc, e in runs)
    return RepeatTrial(Trial(step.kind, culprits, step.confidence, judge(truth, step.kind, culprits), len(runs),
                             seconds, 0, wall), used, off)


# ---------------------------------------------------------------------------
# The scenario grid of design.md §6

SCENARIOS: tuple[str, ...] = (
    "single p=1", "single p=0.5", "single p=0.2", "single p=1/30", "single p=1/100",
    "pair p=0.5", "two p=0.5+0.1",
    "none q=0.003", "none q=0.01", "none q=0.05",
    "single p=0.2 q=0.01", "cleaner p=0.5", "cumulative 8x",
)
# A brittle victim (issue 13): it fails alone (or passes alone at q), one state-setter makes it pass
# at p; searched by strategy "setters" (the benchmark's --grid brittle).
BRITTLE_SCENARIOS: tuple[str, ...] = ("brittle p=1", "brittle p=0.5", "brittle p=0.2", "brittle p=1 q=0.05")
# Several causes at once (issue 16): a class fixture (a class of 4 to 8 tests, any of which
# pollutes), a module (every test of a module of several classes: import-time state), and k
# independent polluters.
MULTI_SCENARIOS: tuple[str, ...] = (
    "class p=1", "class p=0.5", "module p=1",
    "multi k=2 p=1", "multi k=3 p=1", "multi k=7 p=1",
    "multi k=2 p=0.5+0.1", "multi k=3 p=1+0.5+0.1", "multi k=7 p=0.5",
)
# A polluter with a cleaner after it (issue 13), searched by strategy "cleaners" on cleaner_suite
# with the polluter first (the benchmark's --grid cleaners): p the polluter's rate, c how often
# the cleaner undoes it.  "cleaner p=0.5" of the main grid is the polluter search's scenario.
CLEANER_SCENARIOS: tuple[str, ...] = ("cleaner p=1 c=1", "cleaner p=1 c=0.5", "cleaner p=0.9 c=1",
                                      "cleaner p=0.5 c=1", "cleaner p=1 c=0", "cleaner p=0.8 c=0")


def _rate(text: str) -> float:
    if "/" in text:
        a, b = text.split("/")
        return float(a) / float(b)
    return float(text)


def make_suite(
    rng: random.Random,
    n: int,
    causes: Callable[[random.Random, int], tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]],
    background: float = 0.0,
    startup: float | None = None,
) -> Suite:
    durations = lognormal_durations(rng, n)
    victim = lognormal_durations(rng, 1)[0]
    start = rng.uniform(1.0, 3.0) if startup is None else startup
    cs, answer, acceptable = causes(rng, n)
    return Suite(make_problem(n, durations, victim, start), Truth(cs, background, answer, acceptable))


def scenario(name: str, n: int, rng: random.Random) -> Suite:
    """A random suite of the named scenario (positions, durations and start-up drawn). Two
    modifiers matter only with the victim repeated in one process: `s=RATE`, a victim that
    pollutes itself (each execution after its first also fails at RATE), and the word `per-run`,
    causes whose pollution is drawn once a run rather than per execution of the victim."""
    words = name.split()
    suite = _scenario(" ".join(w for w in words if w != "per-run" and not w.startswith("s=")), n, rng)
    self_rate = next((_rate(w[2:]) for w in words if w.startswith("s=")), 0.0)
    causes = tuple(replace(c, per_run=True) for c in suite.truth.causes) if "per-run" in words else suite.truth.causes
    return replace(suite, truth=replace(suite.truth, causes=causes, self_rate=self_rate))


def _scenario(name: str, n: int, rng: random.Random) -> Suite:
    kind, _, rest = name.partition(" ")
    params = dict(part.split("=") for part in rest.split() if "=" in part)
    if kind == "single":
        p = _rate(params["p"])

        def one(r: random.Random, n: int) -> tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]:
            i = r.randrange(n)
            return (Cause(frozenset({i}), p),), frozenset({i}), ()

        return make_suite(rng, n, one, background=_rate(params.get("q", "0")))
    if kind == "pair":
        p = _rate(params["p"])

        def pair(r: random.Random, n: int) -> tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]:
            s = frozenset(r.sample(range(n), 2))
            return (Cause(s, p),), s, ()

        return make_suite(rng, n, pair)
    if kind == "two":
        pa, pb = (_rate(x) for x in params["p"].split("+"))

        def two(r: random.Random, n: int) -> tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]:
            a, b = r.sample(range(n), 2)
            return (Cause(frozenset({a}), pa), Cause(frozenset({b}), pb)), frozenset({a, b}), ()

        return make_suite(rng, n, two)
    if kind == "none":
        def nothing(r: random.Random, n: int) -> tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]:
            return (), frozenset(), ()

        return make_suite(rng, n, nothing, background=_rate(params["q"]))
    if kind == "cleaner":
        p, clean = _rate(params["p"]), _rate(params.get("c", "0.5"))

        def cleaner(r: random.Random, n: int) -> tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]:
            a, c = sorted(r.sample(range(n), 2))
            return (Cause(frozenset({a}), p, cleaner=c, clean_rate=clean),), frozenset({a}), ()

        return make_suite(rng, n, cleaner)
    if kind == "brittle":  # q: how often it passes alone
        p = _rate(params["p"])

        def setter(r: random.Random, n: int) -> tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]:
            return (), frozenset({r.randrange(n)}), ()

        suite = make_suite(rng, n, setter, background=1.0 - _rate(params.get("q", "0")))
        truth = suite.truth
        return replace(suite, truth=replace(truth, setters=(Cause(truth.answer, p),)))
    if kind == "cumulative":
        k = int(rest.rstrip("x"))
        # each leaker adds a little; together they make the full list fail 30% of runs
        eps = 1.0 - 0.7 ** (1.0 / k)

        def leak(r: random.Random, n: int) -> tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]:
            members = r.sample(range(n), min(k, n))
            causes = tuple(Cause(frozenset({i}), eps) for i in members)
            return causes, frozenset(members), (frozenset(members),)

        return make_suite(rng, n, leak)
    if kind in ("class", "module"):
        p = _rate(params["p"])
        layout = class_layout(n)
        level = 1 if kind == "class" else 0
        groups: dict[int, list[int]] = {}
        for i, key in enumerate(layout):
            groups.setdefault(key[level], []).append(i)
        fits = sorted(g for g, members in groups.items()
                      if (4 <= len(members) <= 8 if kind == "class"
                          else len({layout[i][1] for i in members}) >= 2))

        def scope(r: random.Random, n: int) -> tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]:
            members = groups[r.choice(fits)]
            return tuple(Cause(frozenset({i}), p) for i in members), frozenset(members), ()

        return make_suite(rng, n, scope)
    if kind == "multi":
        k = int(params["k"])
        rates = [_rate(x) for x in params["p"].split("+")]
        rates = (rates * k)[:k] if len(rates) < k else rates

        def several(r: random.Random, n: int) -> tuple[tuple[Cause, ...], frozenset[int], tuple[frozenset[int], ...]]:
            members = r.sample(range(n), min(k, n))
            return tuple(Cause(frozenset({i}), p) for i, p in zip(members, rates)), frozenset(members), ()

        return make_suite(rng, n, several)
    raise ValueError(f"unknown scenario {name!r}")


def is_multi(name: str) -> bool:
    """Scenarios whose answer has several causes (a single-cause search needs several rounds)."""
    return name.startswith(("two", "class", "module", "multi"))
