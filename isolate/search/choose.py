"""Which list to run next: the most expected information per expected second.

While no answer leads, information is the mutual information between a run's outcome and the
hypothesis; once one leads, it is the KL divergence from the leader's predicted outcome to its
rivals' (Chernoff's rule).  Pure: the posterior in, a Query out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import accumulate
from typing import Sequence

from isolate.search.batch import picks, share
from isolate.search.information import h2, kl
from isolate.search.model import Problem, Query, Settings, round_batch, run_cost
from isolate.search.posterior import Answer, Cells, Posterior
from isolate.words import seconds


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
            opener = -1
            if best_key <= 1e-12 * max(1.0, mass):
                # No cell adds suspicion by itself, yet the mass may lie on pairs of two cells
                # outside.  The one in most of it (per second, or the smaller) goes in whole
                # first; its partners then add, and they are the ones split.
                def pairing(c2: int) -> float:
                    return sum(m for d, m, _, _ in cl.nb[c2] if not inside[d])

                opener = max((c2 for c2 in range(k) if not inside[c2]),
                             key=lambda c2: (pairing(c2) / (cell_dur[c2] + 1e-3) if per_second else pairing(c2),
                                             -len(cells.members[c2])))
                if pairing(opener) <= 1e-12 * max(1.0, mass):
                    opener = -1
            if opener >= 0:
                take(opener)
            elif best_key <= 1e-12 * max(1.0, mass):
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
        cands = _verification(problem, cells, cl, best, orders, sorted_members, cands, alone)
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
    if not alone and batch > 1 and o >= 0 and included:
        lists = batch // spread_runs(acts, settings, runs_so_far, 1)
        shortest = sum(len(cells.members[cell]) for cell in orders[o][:t]) + (kk if c >= 0 else 0)
        split = (_split(problem, cells, cl, orders[o], sorted_members, lists, batch, shortest)
                 if lists > 1 else None)
        if split is not None:
            return split
    runs = spread_runs(acts, settings, runs_so_far, batch)
    if alone:  # verifying: no more passes than would carry the leader to the target
        lead = best[0]
        active = bool(lead.culprits) and set(lead.culprits) <= set(included)
        enough = passes_to_target(acts, lead.probability, lead.p if active else lead.q,
                                   settings.confidence, runs)
        runs = round_batch(enough, batch)
    return Query(included, runs, _reason(problem, included, mass, cost, mi, bool(alone)))


def _split(problem: Problem, cells: Cells, cl: _Classes, order: list[int], sorted_members: list[list[int]],
           lists: int, batch: int, shortest: int) -> Query | None:
    """Up to `lists` prefixes of the suspects' ordering to run at once, instead of `batch` copies
    of one list: after the batch, the answer lies between two neighbours (batch.picks), the
    longest at least `shortest` (the prefix one worker would run).  The batch's runs are shared
    out evenly, the quickest lists first.  None when one list is best."""
    chain, weights = _chain(cells, cl, order, sorted_members)
    cost = [problem.startup + problem.victim_duration]
    for i in chain:
        cost.append(cost[-1] + problem.durations[i])
    chosen = picks(weights, max(0.0, 1.0 - sum(weights)), lists, cost, len(chain), shortest)
    if len(chosen) < 2:
        return None
    kept = [(k, r) for k, r in zip(chosen, share(batch, len(chosen))) if r > 0]  # a small batch: fewer lists
    chosen = [k for k, _ in kept]
    queries = [(tuple(sorted(chain[:k])), r) for k, r in kept]
    n = len(problem.predecessors)
    cdf = list(accumulate(weights, initial=0.0))
    together = f"{len(queries)} lists at once, " if len(queries) > 1 else ""  # not "1 lists at once"
    reason = (f"{together}{', '.join(str(k) for k in chosen)} of {n} predecessors holding "
              f"{', '.join(f'{cdf[k]:.0%}' for k in chosen)} of the suspicion (up to {seconds(cost[chosen[-1]])} per run)")
    (first, r0), rest = queries[0], tuple(queries[1:])
    return Query(first, r0, reason, until_failure=not rest, alongside=rest)


def _chain(cells: Cells, cl: _Classes, order: list[int], sorted_members: list[list[int]]
           ) -> tuple[list[int], list[float]]:
    """The predecessors along an ordering of the cells (each cell's quickest first), and the
    suspicion each adds to its prefix: its share of its cell's singles, of the pairs inside its
    cell, and of the pairs whose partner is in an earlier cell."""
    k = len(cells.members)
    inside = [False] * k
    chain: list[int] = []
    weights: list[float] = []
    for c in order:
        cross = sum(w for d, w, _, _ in cl.nb[c] if inside[d])
        inside[c] = True
        single, pairs = cl.s[c][0], cl.w[c][0]
        size = len(sorted_members[c])
        before = 0.0
        for kk, i in enumerate(sorted_members[c], start=1):
            upto = kk / size * (single + cross) + (kk * (kk - 1) / (size * (size - 1)) * pairs if size > 1 else 0.0)
            chain.append(i)
            weights.append(upto - before)
            before = upto
    return chain, weights


def _verification(
    problem: Problem,
    cells: Cells,
    cl: _Classes,
    best: Sequence[Answer],
    orders: list[list[int]],
    sorted_members: list[list[int]],
    cands: list[tuple[float, float, float, int, int, int, int, float]],
    alone: list[tuple[int, ...]],
) -> list[tuple[float, float, float, int, int, int, int, float]]:
    """Rescore the candidates by the KL divergence from the leader's (best[0]) predicted
    outcome to the rivals' mixture, and add each of `alone` (ordering id -1 - its index), with
    the suspicion it holds: the answers among `best` that it holds whole."""
    leader = best[0]
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
        held = sum(a.probability for a in best if a.culprits and set(a.culprits) <= set(culprits))
        out.append((score(f, active), cost, held, -1 - j, 0, -1, 0, f))
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


def passes_to_target(acts: list[tuple[float, float]], w: float, r: float, target: float,
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


def spread_runs(
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
    return round_batch(k, batch)


def _reason(problem: Problem, included: tuple[int, ...], mass: float, cost: float, mi: float,
            verifying: bool = False) -> str:
    """`mi`: the bits the run is expected to tell, or while `verifying` a leader (the candidates
    scored by _verification), the bits of evidence for it expected should it be right."""
    n = len(problem.predecessors)
    if not included:
        return f"victim alone: does it fail on its own? ({seconds(cost)} per run)"
    if len(included) == n:  # (the problem may be a narrowed one: a prefix's tests, not the hunt's list)
        if n == 1:
            return f"the one suspect, {problem.predecessors[0]}, before the victim ({seconds(cost)} per run)"
        return f"all {n} suspects together ({seconds(cost)} per run)"
    expected = "bits of evidence for the leader expected, should it be right" if verifying else "bits expected"
    if verifying and mass < 0.005:  # the leader left out: the list should pass (QA: "hold 0% of the suspicion")
        return (f"{len(included)} of {n} predecessors, without the leading suspect: the victim should pass after"
                f" them if the suspect is the cause ({seconds(cost)} per run, {mi:.3f} {expected})")
    return (f"{len(included)} of {n} predecessors {'holds' if len(included) == 1 else 'hold'} {mass:.0%} of the suspicion "
            f"({seconds(cost)} per run, {mi:.3f} {expected})")
