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
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from operator import mul
from typing import Sequence

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


@dataclass(frozen=True)
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
    ap passes, inactive in runs with bf failures and bp passes."""
    # q part: rates allowed for some p, with prefix sums so the constraint is an index.
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
        sq = [near * a + (1.0 - near) * b for a, b in zip(sq, [0.0] * far + sq[:-far])]
        sq1 = [near * a + (1.0 - near) * b for a, b in zip(sq1, [0.0] * far + sq1[:-far])]
    cq = [base + wq * x for x in sq]
    cq1 = [wq * x for x in sq1]
    # p part on the continuous lattice plus the point mass at p = 1.
    lp = [af * a + ap * b for a, b in zip(lat.p_ln, lat.p_ln1m)]
    mp = max(lp)
    if ap == 0:
        mp = max(mp, 0.0)
    lpe = [exp(x - mp) for x in lp]
    s = lat.shift
    k = len(lpe)
    if s >= 0:
        cqs = cq[s:s + k]
        cq1s = cq1[s:s + k]
    else:  # lowest p values allow only q = 0
        cqs = [base] * (-s) + cq[: k + s]
        cq1s = [0.0] * (-s) + cq1[: k + s]
    z = lat.wp * sum(map(mul, lpe, cqs))
    zp = lat.wp * sum(map(mul, map(mul, lpe, lat.p_val), cqs))
    zq = lat.wp * sum(map(mul, lpe, cq1s))
    if ap == 0:
        one = lat.w1 * exp(-mp)
        z += one * cq[-1]
        zp += one * cq[-1]
        zq += one * cq1[-1]
    if z <= 0.0:
        return LOG_ZERO, 0.0, 0.0
    return math.log(z) + mp + mq - lat.log_norm, zp / z, zq / z


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
    counts_memo: dict[int, tuple[int, int]] = {}
    ml_memo: dict[tuple[int, int], tuple[float, float, float]] = {}

    def counts(mask: int) -> tuple[int, int]:
        got = counts_memo.get(mask)
        if got is None:
            f = r = 0
            m = mask
            while m:
                low = m & -m
                j = low.bit_length() - 1
                f += fails[j]
                r += runs[j]
                m ^= low
            got = (f, r)
            counts_memo[mask] = got
        return got

    def evidence(mask: int) -> tuple[float, float, float]:
        key = counts(mask)
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
        lml, pm, qm = evidence(masks[c])
        s_log.append(math.log(sizes[c]) + log_single + lml)
        s_p.append(pm)
        s_q.append(qm)
    pair_rows: list[tuple[int, int, float, float, float]] = []
    skipped = 0.0  # upper bound on the (relative) mass of pairs not scored exactly
    if use_pairs:
        log_sizes = [math.log(s) for s in sizes]
        known = max([log_none] + s_log)
        log = math.log

        def pair(c: int, d: int, mask: int, log_count: float) -> None:
            nonlocal skipped
            af, ar = counts(mask)
            # Cheap bound first: the marginal likelihood never exceeds the maximum
            # likelihood, so most pairs of a concentrated posterior need no integral.
            ap = ar - af
            bf, bp = total_f - af, total_p - ap
            bound = log_count + log_pair
            for x, y in ((af, ap), (bf, bp)):
                if x and y:
                    bound += x * log(x / (x + y)) + y * log(y / (x + y))
            if bound < known - 40.0:
                skipped += math.exp(bound - known)
                return
            lml, pm, qm = evidence(mask)
            pair_rows.append((c, d, log_count + log_pair + lml, pm, qm))

        for c in range(k):
            mc = masks[c]
            lc = log_sizes[c]
            sc = sizes[c]
            if sc >= 2:
                pair(c, c, mc, math.log(sc * (sc - 1) / 2))
            for d in range(c + 1, k):
                pair(c, d, mc & masks[d], lc + log_sizes[d])
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
    for c, members in enumerate(cells.members):
        rows.append((-post.single[c] / len(members), 1, (members[0],),
                     post.single_p[c], post.single_q[c]))
    for c, d, w, pm, qm in post.pairs:
        mc, md = cells.members[c], cells.members[d]
        if c == d:
            size = len(mc) * (len(mc) - 1) / 2
            culprits = (mc[0], mc[1])
        else:
            size = len(mc) * len(md)
            culprits = (mc[0], md[0]) if mc[0] < md[0] else (md[0], mc[0])
        rows.append((-w / size, 2, culprits, pm, qm))
    best = heapq.nsmallest(limit, rows)
    return tuple(Answer(r[2], -r[0], r[3], r[4]) for r in best)
