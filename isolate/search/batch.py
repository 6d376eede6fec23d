"""Several lists at once along a chain: which prefixes a batch of W workers runs together.

Shared by the chain search (threshold.py, where the chain is a fixed order of the predecessors)
and the single/pair search inside the first failing prefix (choose.py, where it is a greedy
ordering of the suspects).  In both, hypothesis j says "the prefix of length j + 1 is the first to
fail": after one batch of runs of several prefixes, the answer lies between two neighbours
(bisection with several probes at once, as in probabilistic bisection with parallel queries).
Pure.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left
from itertools import accumulate
from typing import Sequence


def picks(weights: Sequence[float], beyond: float, lists: int, cost: Sequence[float], longest: int,
          shortest: int = 1) -> list[int]:
    """Up to `lists` prefix lengths (at most `longest`) to run at once.  `weights[j]` is the mass
    of "the prefix of length j + 1 is the first to fail", `beyond` the mass of "none does", and
    `cost[k]` the seconds of one run of the prefix of length k.  A batch lasts as long as its
    longest prefix, so for each candidate longest prefix K the others split the mass below K at
    its quantiles, and the K whose split tells most (the entropy of where the answer falls among
    the segments, as if outcomes were certain) per second of its run wins.  The longest prefix is
    at least `shortest`: the list one worker would run, so that the batch's other lists add to
    it (a cheap batch of short lists holding little mass can tell almost nothing on flaky runs,
    batch after batch)."""
    cdf = list(accumulate(weights, initial=0.0))  # cdf[k]: mass of "prefix k fails"
    total = cdf[-1] + beyond
    best: tuple[float, list[int]] = (-1.0, [longest])
    if total <= 0.0:
        return best[1]
    for top in range(max(1, min(shortest, longest)), longest + 1):
        if top < longest and cdf[top] <= cdf[top - 1] and top > 1:
            continue  # a longer prefix with no more mass below it only costs more
        chosen = quantiles(cdf, top, lists)
        edges = [0.0] + [cdf[k] for k in chosen] + [total]
        bits = -sum(x * math.log2(x / total) for x in (b - a for a, b in zip(edges, edges[1:])) if x > 0) / total
        score = bits / cost[top]
        if score > best[0] + 1e-12:
            best = (score, chosen)
    return best[1]


def quantiles(cdf: Sequence[float], top: int, lists: int) -> list[int]:
    """Up to `lists` prefix lengths, the last `top`, splitting the mass of the prefixes up to
    `top` evenly."""
    chosen: list[int] = []
    for i in range(1, lists):
        target = cdf[top] * i / lists
        k = bisect_left(cdf, target - 1e-15, 1, top)
        if k < top and (not chosen or k > chosen[-1]):
            chosen.append(k)
    return chosen + [top]


def share(batch: int, lists: int) -> list[int]:
    """The batch's runs shared out evenly over `lists` lists, the first (quickest) ones first."""
    per, extra = divmod(batch, lists)
    return [per + (1 if i < extra else 0) for i in range(lists)]


def makespan(costs: Sequence[float], runs: Sequence[int], workers: int) -> float:
    """When the last run of a batch ends: list i runs `runs[i]` times, each run `costs[i]`
    seconds, started as the Runner starts them (one run of each list in turn, each on the first
    of `workers` that is free)."""
    left = list(runs)
    free = [0.0] * max(1, workers)
    end = 0.0
    while any(left):
        for i, n in enumerate(left):
            if n:
                left[i] -= 1
                start = heapq.heappop(free)
                heapq.heappush(free, start + costs[i])
                end = max(end, start + costs[i])
    return end
