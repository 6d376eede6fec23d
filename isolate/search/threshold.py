"""The first cause along a chain: where, in a fixed order of the predecessors, the lists first
start to fail.

Whatever the number of causes, pollution is monotone: adding tests to a list can switch more
causes on, never fewer (cleaners aside).  So along a chain u_1, u_2, ... of the predecessors the
prefixes' failure rate stays at the background q until the prefix that completes the first
cause, then jumps to at least that cause's rate p.  Hypothesis j ("the first cause is completed
by u_j": u_j alone, or u_j with a partner before it) predicts: prefixes shorter than j fail at q,
longer ones at p >= min_ratio * q.  Hypothesis "beyond" says no prefix raises the rate.  Only
runs of exact prefixes are evidence here (any other list would need the unknown later causes);
each hypothesis is scored by posterior.polluter_evidence on its four counts, exactly as a single
culprit is, so the rate priors and the min_ratio constraint are the same.

This is adaptive group testing's binary splitting, Bayesian and noisy: finding d causes one
after another costs about the sum of log2(gap) queries, at most d*log2(N/d) + O(d).  Pure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import accumulate
from typing import Sequence

from isolate.search.batch import picks as batch_picks, quantiles, share
from isolate.search.information import h2, kl
from isolate.search.model import Problem, Query, Settings, round_batch
from isolate.search.choose import passes_to_target, spread_runs
from isolate.search.posterior import LOG_ZERO, Tally, lattice, none_evidence, polluter_evidence
from isolate.words import seconds


def cost_chain(problem: Problem) -> tuple[int, ...]:
    """The chain: cheapest predecessors first (ties in recorded order), so that the prefixes the
    search runs most, the short ones, cost least.  Any fixed order is valid; this one is stable
    for a hunt because the durations come from the recorded run."""
    d = problem.durations
    return tuple(sorted(range(len(d)), key=lambda i: (d[i], i)))


@dataclass(frozen=True)
class Threshold:
    """The posterior over where the chain's prefixes first fail.

    weights[j]: the prefix of length j + 1 is the first to fail (chain[j] completes a cause),
    with expected rates p[j] (from that prefix on) and q[j] (before it); `beyond`: no prefix
    fails above the background `beyond_q`.  fails[k], runs[k]: runs of the prefix of length k."""

    chain: tuple[int, ...]
    weights: tuple[float, ...]
    p: tuple[float, ...]
    q: tuple[float, ...]
    beyond: float
    beyond_q: float
    fails: tuple[int, ...]
    runs: tuple[int, ...]
    suspects: int = 0  # the chain's first tests are those stored runs single out (stored.py)

    def leader(self) -> tuple[int, float]:
        """(j, mass) of the most probable hypothesis; j = -1 for "beyond"."""
        best, mass = -1, self.beyond
        for j, w in enumerate(self.weights):
            if w > mass:
                best, mass = j, w
        return best, mass

    def ranked(self, limit: int) -> list[tuple[int, float]]:
        rows = [(-1, self.beyond)] + list(enumerate(self.weights))
        rows.sort(key=lambda r: (-r[1], r[0]))
        return rows[:limit]


def prefix_counts(chain: Sequence[int], t: Tally) -> tuple[list[int], list[int]]:
    """Failures and runs of every exact prefix of the chain (length 0..m); other lists are left
    out (they are not evidence about the first cause)."""
    m = len(chain)
    pos = {i: k for k, i in enumerate(chain)}
    fails = [0] * (m + 1)
    runs = [0] * (m + 1)
    for s, f, r in zip(t.sets, t.fails, t.runs):
        k = len(s)
        if k and not _is_prefix(s, k, pos, m):
            continue
        fails[k] += f
        runs[k] += r
    return fails, runs


def _is_prefix(s: frozenset[int], k: int, pos: dict[int, int], m: int) -> bool:
    """Whether the k tests of s are the chain's first k: no more than the chain holds, and none
    placed k or later (a test off the chain counts as placed at m), since k distinct positions
    below k are 0 .. k - 1.  Stops at the first test placed past the list's length, where most
    lists that are no prefix show it."""
    return k <= m and all(pos.get(i, m) < k for i in s)


def infer(chain: Sequence[int], t: Tally, settings: Settings, prior_beyond: float,
          weight: Sequence[float] | None = None, suspects: int = 0) -> Threshold:
    """The exact posterior; `weight[j]` (default 1) is the prior weight of chain[j] among the
    positions (a class whose test was a cause makes its other tests likelier, stored runs point
    at some); the chain's first `suspects` tests lead it because stored runs point at them."""
    lat = lattice(settings.rates)
    fails, runs = prefix_counts(chain, t)
    m = len(chain)
    total_f, total_r = sum(fails), sum(runs)
    total_p = total_r - total_f
    w = [1.0] * m if weight is None else list(weight)
    z_w = sum(w)
    logs: list[float] = []
    ps: list[float] = []
    qs: list[float] = []
    bf = bp = 0  # runs of prefixes shorter than j + 1 (inactive under hypothesis j)
    memo: dict[tuple[int, int], tuple[float, float, float]] = {}
    for j in range(m):
        bf += fails[j]
        bp += runs[j] - fails[j]
        key = (bf, bp)
        got = memo.get(key)
        if got is None:
            got = memo[key] = polluter_evidence(lat, total_f - bf, total_p - bp, bf, bp)
        lml, pm, qm = got
        prior = (1.0 - prior_beyond) * w[j] / z_w if z_w > 0 else 0.0
        logs.append(math.log(prior) + lml if prior > 0 and lml > LOG_ZERO else LOG_ZERO)
        ps.append(pm)
        qs.append(qm)
    none_ml, none_q = none_evidence(lat, total_f, total_p)
    log_beyond = math.log(prior_beyond) + none_ml if prior_beyond > 0 else LOG_ZERO
    top = max([log_beyond] + logs)
    ws = [math.exp(x - top) for x in logs]
    wb = math.exp(log_beyond - top)
    z = wb + sum(ws)
    return Threshold(tuple(chain), tuple(x / z for x in ws), tuple(ps), tuple(qs), wb / z, none_q,
                     tuple(fails), tuple(runs), suspects)


def choose(th: Threshold, problem: Problem, settings: Settings, batch: int, runs_so_far: int) -> Query:
    """The prefix with the most expected information per expected second (among those within
    `run_efficiency` of the best information per run).  Information is the mutual information
    between outcome and hypothesis; once a hypothesis leads (`verify_from`), the KL divergence
    from its predicted outcome to the rest's (Chernoff's rule, as in choose.py)."""
    m = len(th.chain)
    w, p, q = th.weights, th.p, th.q
    # prefix k switches on the hypotheses j < k
    on1 = [0.0] + list(accumulate(wj * pj for wj, pj in zip(w, p)))
    on2 = [0.0] + list(accumulate(wj * h2(pj) for wj, pj in zip(w, p)))
    off1 = list(accumulate((wj * qj for wj, qj in zip(reversed(w), reversed(q))), initial=0.0))[::-1]
    off2 = list(accumulate((wj * h2(qj) for wj, qj in zip(reversed(w), reversed(q))), initial=0.0))[::-1]
    b1, b2 = th.beyond * th.beyond_q, th.beyond * h2(th.beyond_q)
    durs = problem.durations
    cost = [problem.startup + problem.victim_duration]
    for i in th.chain:
        cost.append(cost[-1] + durs[i])
    lead, lead_w = th.leader()
    verifying = settings.verify_from <= lead_w < 1.0
    scores: list[float] = []
    fail_p: list[float] = []
    for k in range(m + 1):
        f = min(1.0, max(0.0, on1[k] + off1[k] + b1))
        fail_p.append(f)
        if verifying:
            mine = _predicted(th, lead, k)
            rest = (f - lead_w * mine) / (1.0 - lead_w)
            scores.append(kl(mine, min(1.0, max(0.0, rest))))
        else:
            scores.append(max(0.0, h2(f) - (on2[k] + off2[k] + b2)))
    top = max(scores)
    floor = settings.run_efficiency * top
    k = max((k for k in range(m + 1) if scores[k] >= floor - 1e-15),
            key=lambda k: (scores[k] / cost[k], -cost[k]))
    acts = [(wj, pj if j < k else qj) for j, (wj, pj, qj) in enumerate(zip(w, p, q))]
    acts.append((th.beyond, th.beyond_q))
    if not verifying and batch > 1 and k > 0:
        lists = batch // spread_runs(acts, settings, runs_so_far, 1)
        if lists > 1:
            return _split(th, lists, batch, cost, fail_p, k)
    runs = spread_runs(acts, settings, runs_so_far, batch)
    if verifying:
        runs = round_batch(passes_to_target(acts, lead_w, _predicted(th, lead, k), settings.confidence, runs),
                           batch)
    included = tuple(sorted(th.chain[:k]))
    return Query(included, runs, _reason(k, m, cost[k], scores[k], fail_p[k], th.suspects))


def _split(th: Threshold, lists: int, batch: int, cost: Sequence[float], fail_p: Sequence[float],
           shortest: int) -> Query:
    """Up to `lists` prefixes to run at once (see _picks), the longest at least `shortest` (the
    prefix one worker would run); the batch's runs are shared out evenly, the quickest lists
    first."""
    m = len(th.chain)
    picks = _picks(th, lists, cost, m, shortest)
    runs = share(batch, len(picks))
    kept = [(k, r) for k, r in zip(picks, runs) if r > 0]  # a batch smaller than the picks runs fewer lists
    picks = [k for k, _ in kept]
    queries = [(tuple(sorted(th.chain[:k])), r) for k, r in kept]
    shown = ", ".join(str(k) for k in picks)
    together = f"{len(queries)} lists at once, " if len(queries) > 1 else ""  # not "1 lists at once"
    reason = (f"{together}the {shown} {_first(th)} of {m} predecessors: where do the lists start to"
              f" fail? (expected to fail {', '.join(f'{fail_p[k]:.0%}' for k in picks)}; up to {seconds(cost[picks[-1]])}"
              " per run)")
    (first, r0), rest = queries[0], tuple(queries[1:])
    return Query(first, r0, reason, until_failure=not rest, alongside=rest)


def spread(th: Threshold, slots: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Up to `slots` prefixes shorter than the whole chain, one run each, that split the chain's
    mass evenly.  Two uses: the hunt's first wave, in place of the whole list (causes._open: a
    failing prefix reproduces the failure and brackets the first cause), and the free places of
    a batch that runs the whole chain anyway (the stop check: should the chain fail, the next
    round starts from their runs instead of from nothing; should it pass, they cost no wall time,
    since beside the whole chain a long prefix costs no more wall time than a short one).  Their
    lengths follow the mass alone, not its share per second as in a batch of prefixes only."""
    m = len(th.chain)
    if slots < 1 or m < 2:
        return ()
    cdf = list(accumulate(th.weights, initial=0.0))
    chosen = [k for k in quantiles(cdf, m, slots + 1) if 0 < k < m]
    return tuple((tuple(sorted(th.chain[:k])), 1) for k in chosen)


def _picks(th: Threshold, lists: int, cost: Sequence[float], longest: int, shortest: int = 1) -> list[int]:
    """Up to `lists` prefix lengths (at most `longest`) to run at once (batch.picks on the
    chain's posterior)."""
    return batch_picks(th.weights, th.beyond, lists, cost, longest, shortest)


def _predicted(th: Threshold, j: int, k: int) -> float:
    """The failure rate hypothesis j predicts for the prefix of length k."""
    if j < 0:
        return th.beyond_q
    return th.p[j] if j < k else th.q[j]


def _first(th: Threshold) -> str:
    """How the chain's prefixes are named: its first tests are the quickest, or, with stored
    runs that point at some, those first."""
    return "first (stored runs' suspects, then the quickest)" if th.suspects else "quickest"


def _reason(k: int, m: int, cost: float, bits: float, f: float, suspects: int = 0) -> str:
    if k == 0:
        return f"victim alone: does it fail on its own? ({seconds(cost)} per run)"
    if k == m:
        return f"all {m} remaining predecessors ({seconds(cost)} per run)"
    first = (f"the {k} quickest of {m} predecessors" if not suspects else
             f"the predecessor stored runs suspect most, of {m}" if k == 1 else
             f"the {k} predecessors stored runs suspect most, of {m}" if k <= suspects else
             f"the {suspects} predecessors stored runs suspect and the {k - suspects} quickest others, of {m}")
    return (f"{first}: where do the lists start to fail? "
            f"(expected to fail {f:.0%}; {seconds(cost)} per run, {bits:.3f} bits expected)")
