"""The search engine: given the evidence so far, what to run next, or the verdict.

`decide` is a pure function (no I/O, no clock, no randomness): the hunt calls it after
every batch of runs with the full journal of observations, so a killed hunt that is
resumed from its journal continues identically.  Strategy "isolate" is the Bayesian
search (posterior.py holds the statistics); "manual", "halving" and "ddmin" replay the
human recipe and the peers' procedures from the same journal (manual.py), so users and
the benchmark compare strategies through one code path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from isolate.posterior import (
    Answer,
    Cells,
    Posterior,
    RatePrior,
    Tally,
    answers,
    infer,
    partition,
)

STRATEGIES = ("isolate", "manual", "halving", "ddmin")


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
    strategy: str = "isolate"  # "isolate" | "manual" | "halving" | "ddmin"
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


@dataclass(frozen=True)
class Verdict:
    """The answer.  kind: "polluter" | "fails-alone" | "not-reproduced" | "undecided"."""

    kind: str
    culprits: tuple[int, ...]
    confidence: float
    p: float
    q: float
    evidence: tuple[str, ...]
    runs: int
    seconds: float
    alternatives: tuple[tuple[tuple[int, ...], float], ...] = ()


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


def runs_for(confidence: float, rate: float) -> int:
    """Pass-only runs to see a failure of probability `rate` with `confidence`."""
    if rate >= 1:
        return 1
    if rate <= 0:
        raise ValueError("rate must be positive")
    return max(1, math.ceil(math.log(1 - confidence) / math.log1p(-rate)))


def _label(problem: Problem, culprits: Sequence[int]) -> str:
    names = [problem.predecessors[i] for i in culprits]
    if len(names) == 1:
        return names[0]
    return "both " + " and ".join(names)


def _counts(t: Tally, pred: object) -> tuple[int, int]:
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
        af, ar = _counts(t, lambda s: cs <= s)
        lines.append(
            f"fails {af}/{ar} with {_label(problem, culprits)} before it, "
            f"{t.total_fails - af}/{t.total_runs - ar} without"
        )
    af, ar = _counts(t, lambda s: not s)
    if ar:
        lines.append(f"fails {af}/{ar} alone (no predecessors)")
    af, ar = _counts(t, lambda s: len(s) == n and n > 0)
    if ar:
        lines.append(f"fails {af}/{ar} after all {n} predecessors")
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
            s = remap[o.included] = frozenset(new_index[i] for i in o.included)
        out.append(Observation(s, o.failed, o.seconds, o.count))
    return tuple(out)


def _budget_left(settings: Settings, t: Tally) -> tuple[float, float]:
    runs = math.inf if settings.max_runs is None else settings.max_runs - t.total_runs
    secs = math.inf if settings.max_seconds is None else settings.max_seconds - t.total_seconds
    return runs, secs


def _fit(runs: int, cost: float, budget: tuple[float, float]) -> int:
    left_runs, left_secs = budget
    k = min(runs, left_runs)
    if cost > 0 and left_secs != math.inf:
        k = min(k, math.floor(left_secs / cost + 1e-9))
    return int(max(0, k))


def _round_batch(k: int, batch: int) -> int:
    return max(batch, math.ceil(k / batch) * batch) if batch > 1 else max(1, k)


# ---------------------------------------------------------------------------
# decide


def decide(
    problem: Problem,
    observations: Sequence[Observation],
    settings: Settings = Settings(),
    *,
    batch: int = 1,
) -> Query | Verdict:
    """The next query to run, or the verdict.  Pure and deterministic."""
    if settings.strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {settings.strategy!r}")
    if settings.strategy != "isolate":
        from isolate import manual

        return manual.decide_manual(problem, observations, settings, batch=batch)
    return _decide_isolate(problem, observations, settings, max(1, batch))


def _not_reproduced(problem: Problem, t: Tally, settings: Settings) -> Verdict:
    n = len(problem.predecessors)
    lines: tuple[str, ...] = (f"0/{t.total_runs} runs failed (full list of {n} predecessors"
             f"{'' if all(len(s) == n for s in t.sets) else ', and subsets'})",)
    if t.total_runs:
        conf = 1.0 - (1.0 - settings.rates.p_min) ** t.total_runs
        lines += (f"a failure rate of {settings.rates.p_min:g} or more would have shown "
                  f"with probability {conf:.3f}",)
    else:
        conf = 0.0
    return Verdict("not-reproduced", (), conf, 0.0, 0.0, lines, t.total_runs, t.total_seconds)


def _decide_isolate(
    problem: Problem, observations: Sequence[Observation], settings: Settings, batch: int
) -> Query | Verdict:
    n = len(problem.predecessors)
    t = tally(observations)
    budget = _budget_left(settings, t)
    full = tuple(range(n))
    if t.total_fails == 0:
        cap = reproduce_cap(settings)
        want = min(cap - t.total_runs, max(1, t.total_runs))  # doubling: 1, 1, 2, 4, ...
        k = _fit(_round_batch(want, batch), run_cost(problem, full), budget)
        if t.total_runs >= cap or k < 1:
            return _not_reproduced(problem, t, settings)
        reason = ("full list: does the failure reproduce?" if t.total_runs == 0 else
                  f"full list: no failure in {t.total_runs} runs yet")
        return Query(full, k, reason)
    cells = partition(n, t.sets)
    post = infer(n, t, cells, settings.rates, settings.prior_none, settings.prior_pair)
    best = answers(post, cells)
    if best[0].probability >= settings.confidence:
        check = _confirmation(problem, t, best[0], batch)
        if check is None:
            return _verdict(problem, t, best, settings)
        if isinstance(check, str):
            return _verdict(problem, t, best, settings, unconfirmed=check)
        k = _fit(check.runs, run_cost(problem, check.included), budget)
        if k < 1:
            return _verdict(problem, t, best, settings,
                            unconfirmed="budget spent before the answer was confirmed alone")
        return Query(check.included, k, check.reason)
    choice = choose(problem, cells, post, settings, batch, t.total_runs, best)
    k = _fit(choice.runs, run_cost(problem, choice.included), budget)
    if k < 1:
        return _verdict(problem, t, best, settings)
    if k < choice.runs:
        choice = Query(choice.included, k, choice.reason, choice.until_failure)
    return choice


def _confirmation(problem: Problem, t: Tally, answer: Answer, batch: int) -> Query | str | None:
    """A model check before a confident verdict: None when passed, a Query to run, or
    the reason it failed.

    The posterior can be confidently wrong when no hypothesis of the model is true (a
    cumulative leak makes a bystander that always ran with leakers look guilty).  So the
    answer must show itself directly: the culprits alone before the victim must fail
    (for "fails alone": the victim alone must fail).  The check runs until a failure, up
    to the runs that show one with probability 0.999 at the estimated rate (so a true
    answer fails the check 1 time in 1000); the posterior takes those runs into account
    like any others.  A check that runs its course without a failure makes the verdict
    "undecided"."""
    want = frozenset(answer.culprits)
    rate = answer.p if answer.culprits else answer.q
    if rate <= 0.0:
        return None
    fails = runs = 0
    for s, f, r in zip(t.sets, t.fails, t.runs):
        if s == want:
            fails, runs = f, r
    need = runs_for(CONFIRM, min(1.0, rate))
    who = _label(problem, answer.culprits) if answer.culprits else "the victim"
    if fails:
        return None
    if runs >= need:
        return (f"not confirmed: {who} alone{' before the victim' if answer.culprits else ''} "
                f"passed {runs} runs in a row, expected to fail at {rate:.3g}; the failure may "
                "need several tests (a cumulative leak) or something the model does not cover")
    reason = (f"confirm: {who} alone{' before the victim' if answer.culprits else ''} "
              f"should fail (rate {rate:.3g}); until it does, up to {need - runs} runs")
    return Query(tuple(sorted(want)), _round_batch(need - runs, batch), reason)


CONFIRM = 0.999


def _verdict(
    problem: Problem, t: Tally, best: Sequence[Answer], settings: Settings, unconfirmed: str = ""
) -> Verdict:
    a = best[0]
    if a.probability >= settings.confidence and not unconfirmed:
        kind = "polluter" if a.culprits else "fails-alone"
    else:
        kind = "undecided"
    lines = evidence_lines(problem, t, a.culprits)
    if unconfirmed:
        lines += (unconfirmed,)
    if not a.culprits:
        lines += (f"no predecessor raises the failure rate {settings.rates.min_ratio:g}x or "
                  f"more: probability {a.probability:.3f}",)
    alts = tuple((b.culprits, b.probability) for b in best[1:])
    return Verdict(kind, a.culprits, a.probability, a.p, a.q, lines,
                   t.total_runs, t.total_seconds, alts)


# ---------------------------------------------------------------------------
# Query choice


def h2(x: float) -> float:
    """Binary entropy in bits."""
    if x <= 0.0 or x >= 1.0:
        return 0.0
    return -(x * math.log2(x) + (1.0 - x) * math.log2(1.0 - x))


@dataclass(frozen=True)
class _Classes:
    """Per-cell activation deltas: activating a class moves P(fail) by d1 and the
    expected conditional entropy by d2 (both weighted by the class's mass)."""

    base1: float
    base2: float
    s: list[tuple[float, float, float]]  # singles per cell: (mass, d1, d2)
    w: list[tuple[float, float, float]]  # pairs inside a cell
    nb: list[list[tuple[int, float, float, float]]]  # cross pairs: (other, mass, d1, d2)
    rates: list[tuple[float, float, float, int, int, int]]  # (mass, r1, r0, kind, c, d)


def _classes(post: Posterior, k: int) -> _Classes:
    base1 = post.none * post.none_q
    base2 = post.none * h2(post.none_q)
    s: list[tuple[float, float, float]] = []
    rates: list[tuple[float, float, float, int, int, int]] = [
        (post.none, 0.0, post.none_q, 0, -1, -1)
    ]
    for c in range(k):
        w, pm, qm = post.single[c], post.single_p[c], post.single_q[c]
        base1 += w * qm
        base2 += w * h2(qm)
        s.append((w, w * (pm - qm), w * (h2(pm) - h2(qm))))
        rates.append((w, pm, qm, 1, c, c))
    within = [(0.0, 0.0, 0.0)] * k
    nb: list[list[tuple[int, float, float, float]]] = [[] for _ in range(k)]
    ent: dict[float, float] = {}  # pairs share rates (they share counts): h2 once per rate
    for c, d, w, pm, qm in post.pairs:
        base1 += w * qm
        hq = ent.get(qm)
        if hq is None:
            hq = ent[qm] = h2(qm)
        hp = ent.get(pm)
        if hp is None:
            hp = ent[pm] = h2(pm)
        base2 += w * hq
        d1, d2 = w * (pm - qm), w * (hp - hq)
        if c == d:
            within[c] = (w, d1, d2)
        else:
            nb[c].append((d, w, d1, d2))
            nb[d].append((c, w, d1, d2))
        rates.append((w, pm, qm, 2, c, d))
    return _Classes(base1, base2, s, within, nb, rates)


_FRACTIONS = (0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875)


def choose(
    problem: Problem,
    cells: Cells,
    post: Posterior,
    settings: Settings,
    batch: int,
    runs_so_far: int,
    best: Sequence[Answer] = (),
) -> Query:
    """Most expected information per expected second, among queries that keep at least
    `run_efficiency` of the best information per run.

    While no answer leads, "information" is the mutual information between the outcome
    and the hypothesis.  Once one leads (probability >= `verify_from`), it is the
    expected drop in the log-odds against the leader if the leader is true: the
    Kullback-Leibler divergence from the leader's predicted outcome to the rest's
    (Chernoff's rule for sequential testing; mutual information would keep weighing the
    outcomes by the rivals, e.g. running the victim alone where the leader alone says more).
    The culprits of the leader and of its closest rivals, alone, are then candidates too.

    Candidates: prefixes of two greedy orderings of the cells (by suspicion per second
    and by suspicion alone; "suspicion" of a cell counts pairs whose partner is already
    in), each prefix optionally with the cheapest part of the next cell; the empty
    prefix is the victim alone and the complete one the full list.
    """
    k = len(cells.members)
    cl = _classes(post, k)
    durs = problem.durations
    sorted_members = [sorted(m, key=lambda i: (durs[i], i)) for m in cells.members]
    cheap = [list(_accumulate([durs[i] for i in m])) for m in sorted_members]
    cell_dur = [c[-1] if c else 0.0 for c in cheap]
    fixed = problem.startup + problem.victim_duration
    b1, b2 = cl.base1, cl.base2
    # candidate: (bits, cost, mass, ordering id, prefix length, boundary cell, k cheapest,
    # P(fail))
    cands: list[tuple[float, float, float, int, int, int, int, float]] = []
    orders: list[list[int]] = []
    own = [s[0] + w[0] for s, w in zip(cl.s, cl.w)]  # mass of a cell's singles and inner pairs

    def add(a1: float, a2: float, cost: float, mass: float, o: int, t: int, c: int, kk: int) -> None:
        f = min(1.0, max(0.0, b1 + a1))
        mi = h2(f) - (b2 + a2)
        cands.append((max(0.0, mi), cost, mass, o, t, c, kk, f))

    for o, per_second in enumerate((True, False)):
        order: list[int] = []
        orders.append(order)
        inside = [False] * k
        cx = [[0.0, 0.0, 0.0] for _ in range(k)]  # cross (mass, d1, d2) with the prefix
        acc = [0.0, 0.0, 0.0, fixed]  # the prefix's a1, a2, mass, cost

        def take(c: int) -> None:
            """Put cell c into the prefix (and its pairs with cells already in)."""
            inside[c] = True
            order.append(c)
            (sm, s1, s2), (wm, w1, w2), (xm, x1, x2) = cl.s[c], cl.w[c], cx[c]
            acc[0] += s1 + w1 + x1
            acc[1] += s2 + w2 + x2
            acc[2] += sm + wm + xm
            acc[3] += cell_dur[c]
            for d, pm_, d1, d2 in cl.nb[c]:
                if inside[d]:  # only cells still outside are read later
                    continue
                cx[d][0] += pm_
                cx[d][1] += d1
                cx[d][2] += d2

        add(0.0, 0.0, fixed, 0.0, o, 0, -1, 0)
        while len(order) < k:
            best_c, best_key = -1, -1.0
            for c in range(k):
                if inside[c]:
                    continue
                m = own[c] + cx[c][0]
                key = m / (cell_dur[c] + 1e-3) if per_second else m
                if key > best_key:
                    best_c, best_key = c, key
            c = best_c
            a1, a2, mass, cost = acc
            size = len(cells.members[c])
            if best_key > 0 and size >= 2:
                (sm, s1, s2), (wm, w1, w2), (xm, x1, x2) = cl.s[c], cl.w[c], cx[c]
                seen: set[int] = set()
                for fr in _FRACTIONS:
                    kk = min(size - 1, max(1, round(fr * size)))
                    if kk in seen:
                        continue
                    seen.add(kk)
                    x = kk / size
                    xw = kk * (kk - 1) / (size * (size - 1))
                    add(a1 + x * (s1 + x1) + xw * w1, a2 + x * (s2 + x2) + xw * w2,
                        cost + cheap[c][kk - 1], mass + x * (sm + xm) + xw * wm,
                        o, len(order), c, kk)
            if best_key <= 1e-12 * max(1.0, mass):
                # nothing left worth ordering: the rest goes in at once (-> full list)
                for c2 in range(k):
                    if not inside[c2]:
                        take(c2)
            else:
                take(c)
            add(acc[0], acc[1], acc[3], acc[2], o, len(order), -1, 0)
    alone: list[tuple[int, ...]] = []
    if best and settings.verify_from <= best[0].probability < 1.0:
        alone = [a.culprits for a in best if a.culprits]
        cands = _verification(problem, cells, cl, best[0], orders, sorted_members, cands, alone)
    top = max(c[0] for c in cands)
    floor = settings.run_efficiency * top
    pick = max(
        (c for c in cands if c[0] >= floor - 1e-15),
        key=lambda c: (c[0] / c[1], -c[1]),
    )
    mi, cost, mass, o, t, c, kk, _ = pick
    if o < 0:  # culprits of an answer, alone
        included = tuple(sorted(alone[-1 - o]))
    else:
        chosen: list[int] = []
        for cell in orders[o][:t]:
            chosen.extend(cells.members[cell])
        if c >= 0:
            chosen.extend(sorted_members[c][:kk])
        included = tuple(sorted(chosen))
    acts = _activations(cl, _cells_in(cells, included))
    runs = _spread_runs(acts, settings, runs_so_far, batch)
    if alone:  # verifying: no more passes than would carry the leader to the target
        lead = best[0]
        active = bool(lead.culprits) and set(lead.culprits) <= set(included)
        enough = _passes_to_target(acts, lead.probability, lead.p if active else lead.q,
                                   settings.confidence, runs)
        runs = _round_batch(enough, batch)
    return Query(included, runs, _reason(problem, included, mass, cost, mi))


def kl(a: float, b: float) -> float:
    """KL divergence in bits from Bernoulli(a) to Bernoulli(b)."""
    b = min(1.0 - 1e-12, max(1e-12, b))
    out = 0.0
    if a > 0.0:
        out += a * math.log2(a / b)
    if a < 1.0:
        out += (1.0 - a) * math.log2((1.0 - a) / (1.0 - b))
    return out


def _verification(
    problem: Problem,
    cells: Cells,
    cl: _Classes,
    leader: Answer,
    orders: list[list[int]],
    sorted_members: list[list[int]],
    cands: list[tuple[float, float, float, int, int, int, int, float]],
    alone: list[tuple[int, ...]],
) -> list[tuple[float, float, float, int, int, int, int, float]]:
    """Rescore the candidates by the KL divergence from the leader's predicted outcome
    to the rivals' mixture, and add each of `alone` (ordering id -1 - its index)."""
    w = leader.probability
    lead = [(cells.cell_of[i], sorted_members[cells.cell_of[i]].index(i)) for i in leader.culprits]
    pos = [{cell: j for j, cell in enumerate(order)} for order in orders]

    def score(f: float, active: bool) -> float:
        mine = leader.p if active else leader.q
        rest = (f - w * mine) / (1.0 - w)
        return kl(mine, rest)

    out = []
    for cand in cands:
        _, cost, mass, o, t, c, kk, f = cand
        active = bool(lead) and all(
            pos[o].get(cell, t) < t or (cell == c and rank < kk) for cell, rank in lead
        )
        out.append((score(f, active),) + cand[1:])
    for j, culprits in enumerate(alone):
        included = tuple(sorted(culprits))
        f = _predict(cl, _cells_in(cells, included))
        cost = run_cost(problem, included)
        active = bool(lead) and set(leader.culprits) <= set(culprits)
        out.append((score(f, active), cost, 0.0, -1 - j, 0, -1, 0, f))
    return out


def _predict(cl: _Classes, frac: dict[int, float]) -> float:
    """P(fail) of a query including these fractions of the cells."""
    return sum(m * r for m, r in _activations(cl, frac))


def _activations(cl: _Classes, frac: dict[int, float]) -> list[tuple[float, float]]:
    """(mass, predicted rate) per (part of a) hypothesis class for this query."""
    acts: list[tuple[float, float]] = []
    for mass, r1, r0, kind, c, d in cl.rates:
        if kind == 0:
            a = 0.0
        elif kind == 1:
            a = frac.get(c, 0.0)
        else:
            a = frac.get(c, 0.0) * frac.get(d, 0.0)
        if a > 0.0:
            acts.append((mass * a, r1))
        if a < 1.0:
            acts.append((mass * (1.0 - a), r0))
    return acts


def _passes_to_target(acts: list[tuple[float, float]], w: float, r: float, target: float,
                      cap: int) -> int:
    """The fewest passes (at most `cap`) after which the leader (mass w, predicted rate r)
    would hold `target` of the posterior; `cap` if it would not get there.  Rates are the
    posterior means, so this is approximate: a short streak is simply asked for again."""
    def share(k: int) -> float:
        total = sum(m * (1.0 - x) ** k for m, x in acts)
        return w * (1.0 - r) ** k / total if total > 0.0 else 1.0

    if cap <= 1 or share(cap) < target:
        return cap
    lo, hi = 0, cap  # share(hi) >= target
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if share(mid) >= target:
            hi = mid
        else:
            lo = mid
    return max(1, hi)


def _accumulate(xs: list[float]) -> list[float]:
    out: list[float] = []
    s = 0.0
    for x in xs:
        s += x
        out.append(s)
    return out


def _cells_in(cells: Cells, included: tuple[int, ...]) -> dict[int, float]:
    """Fraction of each cell that the query includes."""
    frac: dict[int, float] = {}
    for i in included:
        c = cells.cell_of[i]
        frac[c] = frac.get(c, 0.0) + 1.0 / len(cells.members[c])
    return frac


def _spread_runs(
    acts: list[tuple[float, float]], settings: Settings, runs_so_far: int, batch: int
) -> int:
    """Repeat the query until passes alone would move the posterior by about `replan` in
    total variation (k * sum_h w_h |r_h - f| ~ replan); a failure ends it sooner.  Capped
    at a quarter of the runs so far, so a long streak never overshoots the target much."""
    f = sum(m * r for m, r in acts)
    spread = sum(m * abs(r - f) for m, r in acts)
    want = settings.replan / spread if spread > 0 else math.inf
    cap = max(2, runs_so_far // 4)
    k = int(min(cap, max(1.0, want)))
    return _round_batch(k, batch)


def _reason(problem: Problem, included: tuple[int, ...], mass: float, cost: float, mi: float) -> str:
    n = len(problem.predecessors)
    if not included:
        return f"victim alone: does it fail on its own? ({cost:.1f} s per run)"
    if len(included) == n:
        return f"full list: all {n} predecessors ({cost:.1f} s per run)"
    return (f"{len(included)} of {n} predecessors hold {mass:.0%} of the suspicion "
            f"({cost:.1f} s per run, {mi:.3f} bits expected)")
