"""The manual recipe and the peers' procedures, replayed from the journal.

Each procedure is a generator that yields probes ("run this list until it fails, at most
n times") and receives outcomes; it returns a verdict.  decide() replays the
generator over the observations so far and returns the next probe (or the verdict): the
same pure, resumable interface as the Bayesian search, so the hunt, `isolate plan` and
the benchmark all run the baselines through isolate.search.decide.

- "manual": reproduce with the full list, check the victim alone, then halve: run the
  first half until failure up to n = ln(1-c)/ln(1-p) times; keep it if it failed,
  otherwise switch to the other half (assumed guilty, never run).
- "halving": the same with one run per probe (stestr --analyze-isolation,
  detect-test-pollution).
- "ddmin": Zeller's delta debugging, each subset tested until failure up to n times.
  Replaying costs O(probes) per call, so its long runs are quadratic; the benchmark
  drives the generator directly (drive()).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Generator, Sequence

from isolate.search.model import (
    Observation,
    Problem,
    Query,
    Settings,
    Verdict,
    evidence_lines,
    reproduce_cap,
    runs_for,
    tally,
)


@dataclass(frozen=True)
class Probe:
    """Run `included` then the victim until it fails, at most `runs` times."""

    included: tuple[int, ...]
    runs: int
    reason: str
    candidates: int  # how many suspects the procedure still holds


@dataclass(frozen=True)
class Outcome:
    failed: bool
    runs: int


@dataclass(frozen=True)
class Claim:
    """What a procedure concludes; decide adds the counts."""

    kind: str
    culprits: tuple[int, ...]
    confidence: float


Procedure = Generator[Probe, Outcome, Claim]


def step_runs(problem: Problem, settings: Settings, rate: float) -> tuple[int, float]:
    """Runs per step n and the per-step confidence they give, for failure rate `rate`."""
    if settings.step_runs is not None:
        n = max(1, settings.step_runs)
        return n, 1.0 - (1.0 - min(rate, 1.0)) ** n
    c = settings.step_confidence
    if settings.overall_confidence is not None:
        steps = max(1, math.ceil(math.log2(max(2, len(problem.predecessors)))))
        c = 1.0 - 2.0 * (1.0 - settings.overall_confidence ** (1.0 / steps))
        # at most the largest float below 1: an overall 0.9999999999999999 rounded it to 1, and the
        # runs for it to log(0) (QA: a traceback from `isolate plan --confidence 0.9999999999999999`)
        c = min(c, math.nextafter(1.0, 0.0))
    return runs_for(c, min(rate, 1.0)), c


def _reproduce(problem: Problem, settings: Settings, needed: int) -> Generator[Probe, Outcome, tuple[int, int]]:
    """Run the full list until `needed` failures (or the cap); returns (failures, runs)."""
    full = tuple(range(len(problem.predecessors)))
    cap = reproduce_cap(settings)
    fails = runs = 0
    while fails < needed and runs < cap:
        out = yield Probe(full, cap - runs, "reproduce: full list until it fails", len(full))
        runs += out.runs
        fails += out.failed
    return fails, runs


def _calibrate(problem: Problem, settings: Settings) -> Generator[Probe, Outcome, Claim | tuple[int, float]]:
    """Reproduce with the full list, then size the steps (runs n, per-step confidence) from the
    observed rate, or the hinted one; a failure that never shows ends the procedure."""
    needed = 1 if (settings.rate_hint or settings.step_runs) else 3
    fails, runs = yield from _reproduce(problem, settings, needed)
    if fails == 0:
        return Claim("not-reproduced", (), 1.0 - (1.0 - settings.rates.p_min) ** runs)
    rate = settings.rate_hint if settings.rate_hint else fails / runs
    return step_runs(problem, settings, rate)


def manual_recipe(problem: Problem, settings: Settings) -> Procedure:
    """Halve, run until failure up to n runs, keep or switch (see module docstring)."""
    n_tests = len(problem.predecessors)
    full = tuple(range(n_tests))
    single_run = settings.strategy == "halving"
    if single_run:
        out = yield Probe((), 1, "victim alone, once", n_tests)
        if out.failed:
            return Claim("fails-alone", (), 0.0)
        out = yield Probe(full, 1, "full list, once", n_tests)
        if not out.failed:
            return Claim("not-reproduced", (), 0.0)
        n, conf = 1, 0.0
    else:
        sized = yield from _calibrate(problem, settings)
        if isinstance(sized, Claim):
            return sized
        n, conf = sized
        if settings.manual_alone:
            out = yield Probe((), n, f"victim alone, until it fails, up to {n} runs", n_tests)
            if out.failed:
                return Claim("fails-alone", (), conf)
    cands = full
    claimed = 1.0
    while len(cands) > 1:
        half = cands[: len(cands) // 2]
        out = yield Probe(half, n, f"halving: first {len(half)} of {len(cands)} suspects, "
                          f"until it fails, up to {n} runs", len(cands))
        if out.failed:
            cands = half
        else:
            cands = cands[len(half):]
            claimed *= conf
    return Claim("polluter", cands, claimed)


def ddmin(problem: Problem, settings: Settings) -> Procedure:
    """Delta debugging (Zeller & Hildebrandt 2002) with until-failure reruns per test."""
    sized = yield from _calibrate(problem, settings)
    if isinstance(sized, Claim):
        return sized
    n, conf = sized
    cands = tuple(range(len(problem.predecessors)))
    gran = 2
    while len(cands) >= 2:
        size = len(cands)
        chunks = [cands[size * i // gran: size * (i + 1) // gran] for i in range(gran)]
        reduced = False
        for ch in chunks:
            out = yield Probe(ch, n, f"ddmin: subset of {len(ch)}", size)
            if out.failed:
                cands, gran, reduced = ch, 2, True
                break
        if not reduced and gran > 2:
            for ch in chunks:
                drop = set(ch)
                comp = tuple(i for i in cands if i not in drop)
                out = yield Probe(comp, n, f"ddmin: complement of {len(ch)}", size)
                if out.failed:
                    cands, gran, reduced = comp, max(gran - 1, 2), True
                    break
        if not reduced:
            if gran >= size:
                break
            gran = min(size, 2 * gran)
    return Claim("polluter", cands, conf)


PROCEDURES: dict[str, Callable[[Problem, Settings], Procedure]] = {
    "manual": manual_recipe,
    "halving": manual_recipe,
    "ddmin": ddmin,
}


def _finish(problem: Problem, observations: Sequence[Observation], claim: Claim) -> Verdict:
    t = tally(observations)
    cs = frozenset(claim.culprits)
    af = ar = 0
    for s, f, r in zip(t.sets, t.fails, t.runs):
        if cs <= s:
            af += f
            ar += r
    p = af / ar if ar else 0.0
    rest = t.total_runs - ar
    q = (t.total_fails - af) / rest if rest else 0.0
    if not claim.culprits:
        p = q = t.total_fails / t.total_runs if t.total_runs else 0.0
    return Verdict(claim.kind, claim.culprits, claim.confidence, p, q,
                   evidence_lines(problem, t, claim.culprits), t.total_runs, t.total_seconds)


def decide(
    problem: Problem, observations: Sequence[Observation], settings: Settings, *, batch: int = 1
) -> Query | Verdict:
    """Replay the procedure over the journal; the next probe as a Query, or its verdict.

    Observations of a different set than the current probe are skipped (e.g. parallel
    runs that were still in flight after the failure that ended a probe)."""
    gen = PROCEDURES[settings.strategy](problem, settings)
    pos = 0  # index into observations
    left = observations[0].count if observations else 0  # unconsumed runs of observations[pos]
    try:
        probe = next(gen)
        while True:
            want = frozenset(probe.included)
            used = 0
            failed = False
            while used < probe.runs and pos < len(observations):
                o = observations[pos]
                if o.included != want:
                    pos += 1
                    left = observations[pos].count if pos < len(observations) else 0
                    continue
                take = 1 if o.failed else min(left, probe.runs - used)
                used += take
                left -= take
                if left == 0:
                    pos += 1
                    left = observations[pos].count if pos < len(observations) else 0
                if o.failed:
                    failed = True
                    break
            if failed or used >= probe.runs:
                probe = gen.send(Outcome(failed, used))
                continue
            remaining = probe.runs - used
            t = tally(observations)  # every run counts against the budget, the replayed ones or not
            budget = math.inf if settings.max_runs is None else settings.max_runs - t.total_runs
            if budget < 1 or (settings.max_seconds is not None and t.total_seconds >= settings.max_seconds):
                return Verdict("undecided", (), 0.0, 0.0, 0.0,
                               evidence_lines(problem, t, ()) +
                               (f"budget spent with {probe.candidates} suspects left",),
                               t.total_runs, t.total_seconds, spent=True)
            k = int(min(remaining, budget))
            return Query(probe.included, k, probe.reason)
    except StopIteration as stop:
        return _finish(problem, observations, stop.value)


def drive(
    problem: Problem,
    settings: Settings,
    run: Callable[[Query], list[Observation]],
) -> tuple[Verdict, list[Observation]]:
    """Run a procedure directly (no replay): linear time, for long ddmin simulations."""
    gen = PROCEDURES[settings.strategy](problem, settings)
    obs: list[Observation] = []
    try:
        probe = next(gen)
        while True:
            new = run(Query(probe.included, probe.runs, probe.reason))
            obs.extend(new)
            used = sum(o.count for o in new)
            failed = any(o.failed for o in new)
            probe = gen.send(Outcome(failed, used))
    except StopIteration as stop:
        return _finish(problem, obs, stop.value), obs
