"""Exact posterior over "who makes the victim fail", given runs of subsets.

Model (design.md §5): a run of predecessor set S followed by the victim fails with
probability p when the culprit is active in S (a single test is in S; both tests of a
pair are in S) and with probability q otherwise.  Hypothesis "none" says every run fails
at q, whatever ran before.  p and q are unknown and integrated out, so each hypothesis is
scored by its marginal likelihood, which depends only on four counts: failures and passes
of the runs where it is active, and of the runs where it is not.

Why a lattice and not Beta conjugacy: "a polluter" must mean something that a finite
number of runs can refute.  A polluter hypothesis therefore requires p >= min_ratio * q
(default: the culprit at least doubles the failure rate); without that constraint a
"polluter" with p just above q is indistinguishable from "none" forever and "fails on its
own" could never be confirmed.  The constraint couples p and q, so the integral is done on
a log-spaced lattice whose step divides log(min_ratio) exactly; the constraint is then an
exact index shift and the double sum a prefix sum.  A Riemann sum on a log lattice is
accurate (relative error well below 1%) while the posterior of log p is wider than half a
lattice step, i.e. up to a few hundred failures.

Why cells: every hypothesis is scored only through which runs it was active in, so tests
that were always included or excluded together are exchangeable.  The predecessors are
partitioned into cells (the coarsest partition in which every queried set is a union of
cells); singles are scored per cell and pairs per pair of cells, which is exact for all
N(N-1)/2 pairs at a cost of K(K+1)/2 for K cells.
"""

from __future__ import annotations

import heapq
import math
from array import array
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from operator import mul
from typing import Callable, Sequence

LOG_ZERO = -1e300


@dataclass(frozen=True)
class RatePrior:
    """Priors on the failure rates; see the module docstring for why each exists."""

    p_min: float = 1e-3  # smallest failure rate with the culprit present that we consider
    q_min: float = 1e-4  # smallest background rate other than exactly 0
    min_ratio: float = 2.0  # a polluter multiplies the failure rate at least this much
    deterministic: float = 0.2  # prior P(p == 1): pollution that always bites is common
    no_background: float = 0.5  # prior P(q == 0) under a polluter (victim clean alone)
    always: float = 0.05  # prior P(q == 1) under "none" (victim simply broken)
    steps_per_ratio: int = 8  # lattice points per factor min_ratio
    far_ratio: float = 10.0  # backgrounds above p / far_ratio are a priori less likely...
    near_weight: float = 0.1  # ...by this factor (prior density between the two ratios)

    def weak_claim(self) -> str:
        """What a "no predecessor raises the rate" line leaves to the prior: a weak polluter,
        one within far_ratio of the background, counts near_weight as much beforehand, and may
        be missed (`isolate bisect --weak-polluters` weighs it evenly)."""
        if self.near_weight >= 1:
            return ""
        return (f" (a weaker one, below {self.far_ratio:g}x, was held {1 / self.near_weight:g} times less likely"
                f" beforehand: --weak-polluters weighs it evenly)")


WEAK_POLLUTERS = RatePrior(near_weight=1.0)  # isolate bisect --weak-polluters


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: a cache key
class Lattice:
    """Precomputed lattice of rates e^(l*h), l = lo..-1, and the prior weights on it."""

    h: float
    m: int  # log(min_ratio) = m*h: the constraint q <= p / min_ratio is l_q <= l_p - m
    p_lo: int
    q_lo: int
    p_ln: tuple[float, ...]  # ln p for l in [p_lo, -1]
    p_ln1m: tuple[float, ...]  # ln(1-p)
    p_val: tuple[float, ...]
    q_ln: tuple[float, ...]  # ln q for l in [q_lo, -m] (the q range any polluter allows)
    q_ln1m: tuple[float, ...]
    q_val: tuple[float, ...]
    shift: int  # index into the q arrays of the largest q allowed for the smallest p
    far: int  # lattice steps from min_ratio to far_ratio
    near: float  # prior weight of a background between p/far_ratio and p/min_ratio
    n_ln: tuple[float, ...]  # ln q for l in [q_lo, -1] ("none" may fail at any rate)
    n_ln1m: tuple[float, ...]
    n_val: tuple[float, ...]
    wp: float
    w1: float
    wq: float
    z0: float
    log_norm: float  # log of the prior mass the constraint leaves (renormalises)
    wn: float
    wn1: float


@lru_cache(maxsize=16)
def lattice(prior: RatePrior) -> Lattice:
    """Build (once per prior) the lattice and its normalised weights."""
    m = max(1, int(prior.steps_per_ratio))
    h = math.log(prior.min_ratio) / m if prior.min_ratio > 1 else 0.1
    if prior.min_ratio <= 1:
        m = 0
    p_lo = min(-1, math.floor(math.log(prior.p_min) / h))
    q_lo = min(p_lo - m, math.floor(math.log(prior.q_min) / h))

    def arrays(lo: int, hi: int) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
        ls = range(lo, hi + 1)
        return (
            tuple(l * h for l in ls),
            tuple(math.log1p(-math.exp(l * h)) for l in ls),
            tuple(math.exp(l * h) for l in ls),
        )

    p_ln, p_ln1m, p_val = arrays(p_lo, -1)
    q_ln, q_ln1m, q_val = arrays(q_lo, -m if m > 0 else -1)
    n_ln, n_ln1m, n_val = arrays(q_lo, -1)
    gp = len(p_ln)
    gq = len(n_ln)
    w1 = prior.deterministic
    wp = (1.0 - w1) / gp
    z0 = prior.no_background
    wq = (1.0 - z0) / gq
    far = max(0, round(math.log(max(prior.far_ratio, prior.min_ratio) / prior.min_ratio) / h))
    near = prior.near_weight if far > 0 else 1.0

    def allowed(lp: int) -> float:  # prior mass of the backgrounds a rate e^(lp h) allows
        close = max(0, lp - m - q_lo + 1)
        distant = max(0, lp - m - far - q_lo + 1)
        return near * (close - distant) + distant

    # Prior mass left by the constraint l_q <= l_p - m (and the near-tier discount).
    mass = 0.0
    for lp in range(p_lo, 0):
        mass += wp * (z0 + wq * allowed(lp))
    mass += w1 * (z0 + wq * allowed(0))
    return Lattice(
        h=h, m=m, p_lo=p_lo, q_lo=q_lo,
        p_ln=p_ln, p_ln1m=p_ln1m, p_val=p_val,
        q_ln=q_ln, q_ln1m=q_ln1m, q_val=q_val,
        shift=p_lo - m - q_lo,
        far=far,
        near=near,
        n_ln=n_ln, n_ln1m=n_ln1m, n_val=n_val,
        wp=wp, w1=w1, wq=wq, z0=z0, log_norm=math.log(mass),
        wn=(1.0 - prior.always) / gq, wn1=prior.always,
    )


def polluter_evidence(lat: Lattice, af: int, ap: int, bf: int, bp: int) -> tuple[float, float, float]:
    """log marginal likelihood, E[p], E[q] of a culprit active in runs with af failures and
    ap passes, inactive in runs with bf failures and bp passes.

    The integrand factorises into a part of the active runs (p) and one of the inactive
    runs (q), each cached: a new batch of runs changes only one of the two for any
    culprit, so a hunt's next posterior mostly recombines parts it has already computed.
    """
    lpe, lpe_p, mp, one = _p_part(lat, af, ap)
    cqs, cq1s, last, last1, mq = _q_part(lat, bf, bp)
    wp = lat.wp
    z = wp * sum(map(mul, lpe, cqs))
    zp = wp * sum(map(mul, lpe_p, cqs))
    zq = wp * sum(map(mul, lpe, cq1s))
    if one:  # the point mass at p = 1 (no passes while active)
        z += one * last
        zp += one * last
        zq += one * last1
    if z <= 0.0:
        return LOG_ZERO, 0.0, 0.0
    return math.log(z) + mp + mq - lat.log_norm, zp / z, zq / z


# Cache sizes: enough for the distinct counts of several consecutive steps of a diffuse
# posterior (~1,000 a step at N = 300); about 5 MB of p parts and 6 MB of q parts.
_P_CACHE = 1024
_Q_CACHE = 4096


@lru_cache(maxsize=_P_CACHE)
def _p_part(lat: Lattice, af: int, ap: int) -> tuple[tuple[float, ...], tuple[float, ...], float, float]:
    """Likelihood of the active runs on the p lattice (scaled by e^-mp), also times p,
    the scale mp, and the scaled weight of the point mass p = 1 (0 if a run passed)."""
    lp = [af * a + ap * b for a, b in zip(lat.p_ln, lat.p_ln1m)]
    mp = max(lp)
    if ap == 0:
        mp = max(mp, 0.0)
    exp = math.exp
    lpe = [exp(x - mp) for x in lp]
    one = lat.w1 * exp(-mp) if ap == 0 else 0.0
    return tuple(lpe), tuple(map(mul, lpe, lat.p_val)), mp, one


@lru_cache(maxsize=_Q_CACHE)
def _q_part(lat: Lattice, bf: int, bp: int) -> tuple[array[float], array[float], float, float, float]:
    """For each p on the lattice, the (scaled) prior-weighted likelihood of the inactive
    runs summed over the backgrounds that p allows, and the same times q; then the sums
    for p = 1, and the scale mq."""
    # Rates allowed for some p, with prefix sums so the constraint is an index.
    lq = [bf * a + bp * b for a, b in zip(lat.q_ln, lat.q_ln1m)]
    if bf == 0:
        mq = 0.0  # q = 0 has likelihood 1 and dominates
        base = lat.z0
    else:
        mq = max(lq)
        base = 0.0
    exp = math.exp
    wq = lat.wq
    lqe = [exp(x - mq) for x in lq]
    sq = list(accumulate(lqe))
    sq1 = list(accumulate(map(mul, lqe, lat.q_val)))
    near, far = lat.near, lat.far
    if far:  # two tiers: near backgrounds (p/far_ratio < q <= p/min_ratio) discounted
        nf = 1.0 - near
        cq = [base + wq * (near * a + nf * b) for a, b in zip(sq, [0.0] * far + sq[:-far])]
        cq1 = [wq * (near * a + nf * b) for a, b in zip(sq1, [0.0] * far + sq1[:-far])]
    else:
        cq = [base + wq * x for x in sq]
        cq1 = [wq * x for x in sq1]
    s = lat.shift
    k = len(lat.p_ln)
    if s >= 0:
        cqs = cq[s:s + k]
        cq1s = cq1[s:s + k]
    else:  # lowest p values allow only q = 0
        cqs = [base] * (-s) + cq[: k + s]
        cq1s = [0.0] * (-s) + cq1[: k + s]
    return array("d", cqs), array("d", cq1s), cq[-1], cq1[-1], mq  # compact: kept by the thousand


def none_evidence(lat: Lattice, failures: int, passes: int) -> tuple[float, float]:
    """log marginal likelihood and E[q] under "none": every run fails at the same rate q."""
    ln = [failures * a + passes * b for a, b in zip(lat.n_ln, lat.n_ln1m)]
    mx = max(ln)
    if passes == 0:
        mx = max(mx, 0.0)
    e = [math.exp(x - mx) for x in ln]
    z = lat.wn * sum(e)
    zq = lat.wn * sum(map(mul, e, lat.n_val))
    if passes == 0:
        one = lat.wn1 * math.exp(-mx)
        z += one
        zq += one
    return math.log(z) + mx, zq / z


# ---------------------------------------------------------------------------
# Evidence: distinct queried sets and the cell partition they induce.


@dataclass(frozen=True)
class Tally:
    """Observations grouped by the exact set that ran (first-appearance order)."""

    sets: tuple[frozenset[int], ...]
    fails: tuple[int, ...]
    runs: tuple[int, ...]
    seconds: tuple[float, ...]
    total_fails: int
    total_runs: int
    total_seconds: float


@dataclass(frozen=True)
class Cells:
    """Partition of the predecessors into cells of exchangeable tests.

    members[c] is ascending; masks[c] has bit j set iff tally set j contains cell c.
    """

    members: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]
    cell_of: tuple[int, ...]


_PARTITIONS: OrderedDict[tuple[int, tuple[frozenset[int], ...]], Cells] = OrderedDict()
_PARTITION_CACHE_SIZE = 256


def _refine(n: int, cells: Cells, new: frozenset[int], bit: int) -> Cells:
    """Split every cell the new set cuts; children inherit the parent's mask."""
    hits: dict[int, list[int]] = {}
    cell_of = cells.cell_of
    for i in new:
        hits.setdefault(cell_of[i], []).append(i)
    members = list(cells.members)
    masks = list(cells.masks)
    flag = 1 << bit
    new_cell_of: list[int] | None = None
    for c, inside in hits.items():
        if len(inside) == len(members[c]):
            masks[c] |= flag
            continue
        inside_set = set(inside)
        outside = tuple(i for i in members[c] if i not in inside_set)
        members[c] = outside
        members.append(tuple(sorted(inside)))
        masks.append(masks[c] | flag)
        if new_cell_of is None:
            new_cell_of = list(cell_of)
        for i in inside:
            new_cell_of[i] = len(members) - 1
    return Cells(tuple(members), tuple(masks), tuple(new_cell_of) if new_cell_of else cell_of)


def partition(n: int, sets: Sequence[frozenset[int]]) -> Cells:
    """Coarsest partition of range(n) refining every set; memoised on the set sequence so
    the usual call (one more set than last time) costs only the new set's size."""
    key = (n, tuple(sets))
    hit = _PARTITIONS.get(key)
    if hit is not None:
        _PARTITIONS.move_to_end(key)
        return hit
    start = len(sets)
    cells: Cells | None = None
    while start > 0:
        cells = _PARTITIONS.get((n, tuple(sets[:start])))
        if cells is not None:
            break
        start -= 1
    if cells is None:
        cells = Cells((tuple(range(n)),) if n else (), (0,) if n else (), (0,) * n)
    for j in range(start, len(sets)):
        cells = _refine(n, cells, sets[j], j)
    _PARTITIONS[key] = cells
    if len(_PARTITIONS) > _PARTITION_CACHE_SIZE:
        _PARTITIONS.popitem(last=False)
    return cells


# Failures and runs of the sets in a mask (bit j: tally set j), remembered from one call
# to the next: a hunt's next tally differs from the last in a set or two, so most masks
# need only those sets' increments.  A published memo only gains entries, each right for
# the tally published with it, so a concurrent call reads nothing wrong.
_LAST_COUNTS: tuple[tuple[int, ...], tuple[int, ...], dict[int, tuple[int, int]]] = ((), (), {})
_MAX_CHANGED = 8  # beyond this many changed sets, counting afresh is as cheap


def _counter(fails: tuple[int, ...], runs: tuple[int, ...]) -> Callable[[int], tuple[int, int]]:
    """counts(mask) -> (failures, runs) of the tally sets in mask.  Creating it makes its
    (initially empty) memo the one the next tally starts from."""
    global _LAST_COUNTS
    old_f, old_r, old = _LAST_COUNTS
    changed: list[tuple[int, int, int]] = []
    if len(old_f) <= len(fails):
        for j, (f0, r0) in enumerate(zip(old_f, old_r)):
            if r0 != runs[j] or f0 != fails[j]:
                changed.append((j, fails[j] - f0, runs[j] - r0))
                if len(changed) > _MAX_CHANGED:
                    break
    if len(old_f) > len(fails) or len(changed) > _MAX_CHANGED:
        old, changed = {}, []
    changed_bits = sum(1 << j for j, _, _ in changed)
    memo: dict[int, tuple[int, int]] = {}
    _LAST_COUNTS = (fails, runs, memo)

    def counts(mask: int) -> tuple[int, int]:
        got = memo.get(mask)
        if got is not None:
            return got
        was = old.get(mask)
        if was is not None:
            f, r = was
            if mask & changed_bits:
                for j, df, dr in changed:
                    if mask >> j & 1:
                        f += df
                        r += dr
        else:
            f = r = 0
            m = mask
            while m:
                low = m & -m
                j = low.bit_length() - 1
                f += fails[j]
                r += runs[j]
                m ^= low
        got = memo[mask] = (f, r)
        return got

    return counts


# ---------------------------------------------------------------------------
# The posterior over hypothesis classes.


@dataclass(frozen=True)
class Posterior:
    """Posterior mass per hypothesis class, with the class's expected rates.

    single[c] is the total mass of the singles in cell c (each member has single[c] / size);
    pairs holds (c, d, mass, p, q) for cell pairs c <= d whose mass is not negligible
    (the pruned remainder is below `pruned` in total).
    """

    none: float
    none_q: float
    single: tuple[float, ...]
    single_p: tuple[float, ...]
    single_q: tuple[float, ...]
    pairs: tuple[tuple[int, int, float, float, float], ...]
    pruned: float


def infer(
    n: int,
    tally: Tally,
    cells: Cells,
    prior: RatePrior,
    prior_none: float,
    prior_pair: float,
) -> Posterior:
    """Exact posterior over none / every single / every pair, grouped by cell."""
    lat = lattice(prior)
    total_f, total_r = tally.total_fails, tally.total_runs
    total_p = total_r - total_f
    fails, runs = tally.fails, tally.runs
    counts = _counter(fails, runs)
    ml_memo: dict[tuple[int, int], tuple[float, float, float]] = {}

    def evidence(key: tuple[int, int]) -> tuple[float, float, float]:
        got = ml_memo.get(key)
        if got is None:
            af, ar = key
            ap = ar - af
            got = polluter_evidence(lat, af, ap, total_f - af, total_p - ap)
            ml_memo[key] = got
        return got

    use_pairs = prior_pair > 0 and n >= 2
    prior_single = 1.0 - prior_none - (prior_pair if use_pairs else 0.0)
    log_single = math.log(prior_single / n) if n else LOG_ZERO
    log_pair = math.log(prior_pair / (n * (n - 1) / 2)) if use_pairs else LOG_ZERO
    none_ml, none_q = none_evidence(lat, total_f, total_p)
    log_none = math.log(prior_none) + none_ml if prior_none > 0 else LOG_ZERO

    k = len(cells.members)
    sizes = [len(m) for m in cells.members]
    masks = cells.masks
    s_log: list[float] = []
    s_p: list[float] = []
    s_q: list[float] = []
    for c in range(k):
        lml, pm, qm = evidence(counts(masks[c]))
        s_log.append(math.log(sizes[c]) + log_single + lml)
        s_p.append(pm)
        s_q.append(qm)
    pair_rows: list[tuple[int, int, float, float, float]] = []
    skipped = 0.0  # upper bound on the (relative) mass of pairs not scored exactly
    if use_pairs:
        log_sizes = [math.log(s) for s in sizes]
        known = max([log_none] + s_log)
        # Cheap bound first: the marginal likelihood never exceeds the maximum
        # likelihood, so most pairs of a concentrated posterior need no integral.
        fit: dict[tuple[int, int], float] = {}  # (af, ar) -> maximum log-likelihood
        cutoff = known - 40.0 - log_pair
        log, exp = math.log, math.exp
        for c in range(k):
            mc = masks[c]
            lc = log_sizes[c]
            sc = sizes[c]
            for d in range(c if sc >= 2 else c + 1, k):
                if d == c:
                    mask, log_count = mc, log(sc * (sc - 1) / 2)
                else:
                    mask, log_count = mc & masks[d], lc + log_sizes[d]
                key = counts(mask)
                best = fit.get(key)
                if best is None:
                    af, ar = key
                    best = 0.0
                    for x, y in ((af, ar - af), (total_f - af, total_p - ar + af)):
                        if x and y:
                            best += x * log(x / (x + y)) + y * log(y / (x + y))
                    fit[key] = best
                if log_count + best < cutoff:
                    skipped += exp(log_count + best + log_pair - known)
                    continue
                lml, pm, qm = evidence(key)
                pair_rows.append((c, d, log_count + log_pair + lml, pm, qm))
    top = max([log_none] + s_log + [r[2] for r in pair_rows])
    exp = math.exp
    none_w = exp(log_none - top)
    single_w = [exp(x - top) for x in s_log]
    pair_w = [exp(r[2] - top) for r in pair_rows]
    z = none_w + sum(single_w) + sum(pair_w)
    keep: list[tuple[int, int, float, float, float]] = []
    pruned = skipped * math.exp(known - top) / z if use_pairs else 0.0
    floor = 1e-12 * z
    for row, w in zip(pair_rows, pair_w):
        if w > floor:
            keep.append((row[0], row[1], w / z, row[3], row[4]))
        else:
            pruned += w / z
    return Posterior(
        none=none_w / z,
        none_q=none_q,
        single=tuple(w / z for w in single_w),
        single_p=tuple(s_p),
        single_q=tuple(s_q),
        pairs=tuple(keep),
        pruned=pruned,
    )


@dataclass(frozen=True)
class Answer:
    """One candidate answer: culprit indices (empty = none), its probability and rates."""

    culprits: tuple[int, ...]
    probability: float
    p: float
    q: float


def answers(post: Posterior, cells: Cells, limit: int = 5) -> tuple[Answer, ...]:
    """The most probable exact answers, best first (deterministic tie-break by indices)."""
    rows: list[tuple[float, int, tuple[int, ...], float, float]] = [
        (-post.none, 0, (), post.none_q, post.none_q)
    ]
    members = cells.members
    for c, cell in enumerate(members):
        rows.append((-post.single[c] / len(cell), 1, (cell[0],),
                     post.single_p[c], post.single_q[c]))
    scores = [-w / (len(members[c]) * (len(members[c]) - 1) / 2 if c == d
                    else len(members[c]) * len(members[d]))
              for c, d, w, _, _ in post.pairs]
    if len(scores) > limit:  # only pairs that can make the list (ties kept) get a row
        worst = heapq.nsmallest(limit, [r[0] for r in rows] + scores)[-1]
    else:
        worst = math.inf
    for (c, d, _, pm, qm), score in zip(post.pairs, scores):
        if score > worst:
            continue
        mc, md = members[c], members[d]
        if c == d:
            culprits = (mc[0], mc[1])
        else:
            culprits = (mc[0], md[0]) if mc[0] < md[0] else (md[0], mc[0])
        rows.append((score, 2, culprits, pm, qm))
    best = heapq.nsmallest(limit, rows)
    return tuple(Answer(r[2], -r[0], r[3], r[4]) for r in best)
