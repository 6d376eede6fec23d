"""The search's vocabulary: the hunt as a problem, the runs as observations, what the user
asks for, what a strategy answers (a query to run, or a verdict), and the counts every
strategy shares.  Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Iterable, Protocol, Sequence

from isolate.search.posterior import RatePrior, Tally


@dataclass(frozen=True)
class Problem:
    """The hunt: predecessors in recorded execution order (victim excluded)."""

    predecessors: tuple[str, ...]
    victim: str
    durations: tuple[float, ...]  # expected seconds per predecessor
    victim_duration: float
    startup: float  # seconds of per-run overhead

    def __post_init__(self) -> None:
        if len(self.durations) != len(self.predecessors):
            raise ValueError("durations must match predecessors")


@dataclass(frozen=True)
class Observation:
    """One run (or `count` identical runs) of a predecessor subset followed by the victim.

    `count` lets a journal or the simulator store a streak of identical outcomes compactly;
    `seconds` is then the total of the streak.
    """

    included: frozenset[int]
    failed: bool
    seconds: float
    count: int = 1
    stored: bool = False  # from a stored run in another order (isolate.hunt.history): the chain
    # search reads it into its prior (isolate.search.stored), the other searches like any run
    executions: int = 0  # K-fold runs (--repeat-victim): every execution of the victim in these runs
    reproductions: int = 0  # (a run is judged on its first K; a list may ask more) and how many
    # reproduced the failure; 0: not recorded (single runs, stored runs)
    here: bool = False  # a stored run made by this hunt, in its own order, before repeats started
    # (read as stored runs are, its one execution being no K-fold run): no stale history

    def __post_init__(self) -> None:
        if not isinstance(self.included, frozenset):
            object.__setattr__(self, "included", frozenset(self.included))
        if self.count < 1:
            raise ValueError("count must be >= 1")


@dataclass(frozen=True)
class Settings:
    """What the user asks for.  Defaults are what the benchmark in docs/search.md measures."""

    confidence: float = 0.99
    max_runs: int | None = None
    max_seconds: float | None = None
    strategy: str = "isolate"  # "isolate" | "single" | "manual" | "halving" | "ddmin"
    # manual recipe (also used by ddmin for its reruns)
    step_confidence: float = 0.95  # per step: runs n = ln(1-c)/ln(1-p)
    step_runs: int | None = None  # explicit n, overrides step_confidence
    overall_confidence: float | None = None  # tune the per-step confidence to this overall
    rate_hint: float | None = None  # p for n; else estimated from the reproduction runs
    manual_alone: bool = True  # the recipe checks the victim alone before halving
    # statistics
    rates: RatePrior = field(default_factory=RatePrior)
    prior_none: float = 0.4  # the victim fails on its own, whatever ran first
    prior_pair: float = 0.1  # two tests are needed together (rest: single polluter)
    # query choice
    run_efficiency: float = 0.9  # keep queries within this share of the best bits/run
    verify_from: float = 0.5  # leader's probability from which queries test it (Chernoff)
    replan: float = 0.25  # runs per query: until the posterior would move this much
    reproduce_runs: int | None = None  # no-failure cap; default from rates.p_min
    # several causes: after each cause, rule out further causes down to this fraction of the
    # weakest rate found before stopping; 0 stops at the first cause
    further: float = 1.0
    # executions of the victim a new run is judged on (--repeat-victim; isolate.hunt.evidence):
    # above 1, a stored run (one execution) is on another scale than a new run's K-fold rate
    executions: int = 1
    # the longest a run may take (the hunt's per-run timeout, halved): the several-causes search's
    # stop check spreads its executions of the victim over runs that stay under it (None: any)
    run_seconds: float | None = None
    # executions of the victim in each run of the several-causes search's per-run stop check while
    # the runs are single (1: none, --repeat-victim 1): a flaky cause beside a deterministic one
    # shows in a later execution (isolate.search.stop, `hedging`)
    hedge: int = 1


@dataclass(frozen=True)
class Query:
    """Run predecessors `included` (ascending = recorded order) then the victim, `runs` times.

    until_failure: stop at the first failure and ask again (a failure moves the posterior
    far; the remaining runs would be chosen on stale information).  Runs already in flight
    in parallel jobs should still be recorded.
    """

    included: tuple[int, ...]
    runs: int
    reason: str
    until_failure: bool = True
    # Other lists to run at the same time, each (included, runs): a batch of parallel runs
    # chosen jointly (several prefixes at once).  With any, every list runs all its runs
    # (until_failure does not apply), and all the runs together fit in one batch.
    alongside: tuple[tuple[tuple[int, ...], int], ...] = ()
    # K-fold runs: the victim's executions per run of every list of the query, when more than the
    # hunt's K (0: K).  The search still judges each run on its first K; the stop check of the
    # several-causes search reads all (strategies/causes.py, _by_execution).
    executions: int = 0

    def lists(self) -> tuple[tuple[tuple[int, ...], int], ...]:
        """Every list of the query with its runs, this one first."""
        return ((self.included, self.runs),) + self.alongside

    def mapped(self, index: Sequence[int]) -> Query:
        """The same query with its predecessor indices read through `index` (a sub-problem's
        position -> the enclosing problem's)."""
        return replace(self, included=tuple(index[i] for i in self.included),
                       alongside=tuple((tuple(index[i] for i in s), r) for s, r in self.alongside))


@dataclass(frozen=True)
class FoundCause:
    """One cause the hunt named and confirmed.  scope: "test" | "pair" | "class" | "module";
    `tests` are predecessor indices: the test, the pair, or every listed member of the scope
    (any one of which switches it on).  role: "polluter" (run first, it makes the victim fail;
    `rate` is how often) or "setter" (run first, it makes a brittle victim pass; `rate` is how
    often it passes then).  With the victim repeated in each run (K executions), `rate` is a
    run's, and `per_execution` one execution's, as the cause's runs without the other causes
    show it: what one run of the suite sees (None without such runs).  `fails` of `held`: the
    runs `rate` is estimated from, and how many of them failed (a test's or a pair's: the runs
    that held it when it was found; a class's or module's: those holding one of its tests and no
    other cause), so that 2/2 reads as 0.833 with its basis shown; held 0 when unknown."""

    scope: str
    name: str
    tests: tuple[int, ...]
    rate: float
    confidence: float
    evidence: tuple[str, ...]
    role: str = "polluter"
    per_execution: float | None = None
    fails: int = 0
    held: int = 0


@dataclass(frozen=True)
class Verdict:
    """The answer.  kind: "polluter" | "brittle" | "fails-alone" | "not-reproduced" | "undecided".

    `culprits` is the union of the tests of all `causes` (a single-cause strategy names one
    cause and leaves `causes` empty); `stop` says why the search stopped looking for more, and
    `spent` whether the budget (--max-runs, --time-budget) stopped it: more runs could settle more."""

    kind: str
    culprits: tuple[int, ...]
    confidence: float
    p: float
    q: float
    evidence: tuple[str, ...]
    runs: int
    seconds: float
    alternatives: tuple[tuple[tuple[int, ...], float], ...] = ()
    causes: tuple[FoundCause, ...] = ()
    stop: str = ""
    spent: bool = False


# ---------------------------------------------------------------------------
# Shared helpers


def tally(observations: Iterable[Observation]) -> Tally:
    """Group observations by the exact set that ran, in order of first appearance."""
    index: dict[frozenset[int], int] = {}
    sets: list[frozenset[int]] = []
    fails: list[int] = []
    runs: list[int] = []
    secs: list[float] = []
    for o in observations:
        j = index.get(o.included)
        if j is None:
            j = index[o.included] = len(sets)
            sets.append(o.included)
            fails.append(0)
            runs.append(0)
            secs.append(0.0)
        runs[j] += o.count
        if o.failed:
            fails[j] += o.count
        secs[j] += o.seconds
    return Tally(tuple(sets), tuple(fails), tuple(runs), tuple(secs),
                 sum(fails), sum(runs), sum(secs))


def run_cost(problem: Problem, included: Iterable[int]) -> float:
    """Expected wall seconds of one run: start-up, the included predecessors, the victim."""
    d = problem.durations
    return problem.startup + problem.victim_duration + sum(d[i] for i in included)


def reproduce_cap(settings: Settings) -> int:
    """Runs without any failure after which we say "not reproduced": a failure at the
    smallest rate the prior considers would have shown up with the target confidence."""
    if settings.reproduce_runs is not None:
        return max(1, settings.reproduce_runs)
    return runs_for(settings.confidence, settings.rates.p_min)


def chance_at_least(fails: int, runs: int, rate: float) -> float:
    """The probability that a failure rate is `rate` or more after `fails` failures in `runs`
    runs, from a uniform prior: the Beta(fails + 1, passes + 1) tail, which for whole counts is
    P(Binomial(runs + 1, rate) <= fails)."""
    if rate <= 0:
        return 1.0
    if rate >= 1:
        return 0.0
    n = runs + 1
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
            + i * math.log(rate) + (n - i) * math.log1p(-rate) for i in range(fails + 1)]
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(x - top) for x in logs))


def runs_for(confidence: float, rate: float) -> int:
    """Pass-only runs to see a failure of probability `rate` with `confidence`: the fewest n with
    (1 - rate)^n <= 1 - confidence.  The ratio of logarithms is rounded up past a few ulps of
    noise, so that a boundary case (rate 0.99 at 0.99: exactly 1 run) is not read as 1.0000000000000002."""
    if rate >= 1:
        return 1
    if rate <= 0:
        raise ValueError("rate must be positive")
    return max(1, math.ceil(math.log(1 - confidence) / math.log1p(-rate) * (1 - 1e-12)))


def label(problem: Problem, culprits: Sequence[int]) -> str:
    names = [problem.predecessors[i] for i in culprits]
    if len(names) == 1:
        return names[0]
    return "both " + " and ".join(names)


def counts(t: Tally, pred: object) -> tuple[int, int]:
    """Failures and runs of the tally's sets for which pred(set) holds."""
    f = r = 0
    for s, fs, rs in zip(t.sets, t.fails, t.runs):
        if pred(s):  # type: ignore[operator]
            f += fs
            r += rs
    return f, r


def evidence_lines(problem: Problem, t: Tally, culprits: Sequence[int]) -> tuple[str, ...]:
    """Plain counts a user can check: with / without the culprits, alone, full list."""
    n = len(problem.predecessors)
    lines: list[str] = []
    if culprits:
        cs = frozenset(culprits)
        af, ar = counts(t, lambda s: cs <= s)
        lines.append(
            f"fails {af}/{ar} with {label(problem, culprits)} before it, "
            f"{t.total_fails - af}/{t.total_runs - ar} without"
        )
    af, ar = counts(t, lambda s: not s)
    if ar:
        lines.append(f"fails {af}/{ar} alone (no predecessors)")
    af, ar = counts(t, lambda s: len(s) == n and n > 0)
    if ar:
        lines.append(f"fails {af}/{ar} after {'its 1 predecessor' if n == 1 else f'all {n} predecessors'}")
    lines.append(f"fails {t.total_fails}/{t.total_runs} over all runs")
    return tuple(lines)


def without(problem: Problem, culprits: Iterable[int]) -> Problem:
    """The same hunt with the found culprits removed, to look for another polluter.

    Several independent polluters are reported one after another: decide() models one
    culprit (or one pair) plus background; once it names one, call decide() again on
    without(problem, culprits) with carry_over(...) of the old journal.  Runs that did
    not include the culprits stay valid evidence in the reduced problem.
    """
    drop = set(culprits)
    keep = [i for i in range(len(problem.predecessors)) if i not in drop]
    return Problem(
        predecessors=tuple(problem.predecessors[i] for i in keep),
        victim=problem.victim,
        durations=tuple(problem.durations[i] for i in keep),
        victim_duration=problem.victim_duration,
        startup=problem.startup,
    )


def carry_over(
    problem: Problem, observations: Iterable[Observation], culprits: Iterable[int]
) -> tuple[Observation, ...]:
    """Observations without any of the culprits, re-indexed for without(problem, culprits)."""
    drop = set(culprits)
    new_index: dict[int, int] = {}
    for i in range(len(problem.predecessors)):
        if i not in drop:
            new_index[i] = len(new_index)
    out: list[Observation] = []
    remap: dict[frozenset[int], frozenset[int]] = {}
    for o in observations:
        if drop & o.included:
            continue
        s = remap.get(o.included)
        if s is None:
            s = remap[o.included] = frozenset(map(new_index.__getitem__, o.included))
        out.append(Observation(s, o.failed, o.seconds, o.count, o.stored, o.executions, o.reproductions))
    return tuple(out)


def budget_left(settings: Settings, t: Tally) -> tuple[float, float]:
    runs = math.inf if settings.max_runs is None else settings.max_runs - t.total_runs
    secs = math.inf if settings.max_seconds is None else settings.max_seconds - t.total_seconds
    return runs, secs


def fit_runs(runs: int, cost: float, budget: tuple[float, float]) -> int:
    left_runs, left_secs = budget
    k = min(runs, left_runs)
    if cost > 0 and left_secs != math.inf:
        k = min(k, math.floor(left_secs / cost + 1e-9))
    return int(max(0, k))


def fits(problem: Problem, query: Query, budget: tuple[float, float]) -> bool:
    """Whether every run of every list of the query fits the budget left."""
    runs_left, secs_left = budget
    lists = query.lists()
    return (sum(r for _, r in lists) <= runs_left
            and sum(r * run_cost(problem, s) for s, r in lists) <= secs_left + 1e-9)


def round_batch(k: int, batch: int) -> int:
    return max(batch, math.ceil(k / batch) * batch) if batch > 1 else max(1, k)


class Strategy(Protocol):
    """A search strategy: the next query to run, or the verdict.  Pure and deterministic."""

    def __call__(self, problem: Problem, observations: Sequence[Observation], settings: Settings, *,
                 batch: int = 1) -> Query | Verdict: ...
