"""Stored runs as the chain search's prior.

A stored run (isolate.hunt.history) ran the victim after some subset of the candidates, in
another order: rarely an exact prefix of the chain, so the chain's likelihood (threshold.py)
cannot read it.  It still says a lot about where the first cause is: a test in every stored run
that failed, and in few that passed, is a likely cause.  So the stored runs are read here, with
the single-cause model (posterior.polluter_evidence per test, none_evidence for "no test
raises the rate"), into a prior for the chain search:

- the chain starts with the suspects (tests the stored runs make SUSPECT times likelier than an
  even share), most likely first, then the rest in the chain's own order: the first prefixes
  then ask about the suspects alone, so one or two short lists can confirm what the stored runs
  point at;
- the prior weight of every position, and of "beyond" (no prefix raises the rate), is the
  posterior from the stored runs, mixed with the prior without them at EVEN_SHARE: the stored
  runs may be stale (another version of the code), or hold a cause outside the hunt's candidates,
  or a pair the single-cause reading spreads over its two tests; the even share keeps every
  position open for the new runs to find.

New runs are evidence through the chain's likelihood only, and stored runs through this prior
only, so nothing is counted twice in the chain.  (Elsewhere, while a hunt's runs are single runs,
the stored runs that passed without a test are runs of the victim's own rate, against which that
test's runs alone are weighed: strategies/causes.py, `_background`.)  Pure, and a function of the
stored runs alone: a resumed hunt builds the same chain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from isolate.search.model import Observation, Problem, Settings, Verdict, reproduce_cap, tally
from isolate.search.posterior import LOG_ZERO, lattice, none_evidence, polluter_evidence
from isolate.words import probability

EVEN_SHARE = 0.2  # of the prior kept as it is without stored runs
SUSPECT = 1.5  # a test whose stored-run weight is this many times an even share leads the chain


@dataclass(frozen=True)
class Prior:
    """The chain to search and its prior: weight[j] of chain[j]; `beyond`: no prefix fails."""

    chain: tuple[int, ...]
    weight: tuple[float, ...] | None
    beyond: float
    suspects: int = 0  # how many tests at the chain's head the stored runs single out
    rate: float = 0.0  # the rate they give the first suspect (its posterior mean)


def prior(chain: Sequence[int], weight: Sequence[float] | None, beyond: float,
          observations: Sequence[Observation], settings: Settings) -> Prior:
    """The chain and prior with the stored runs among `observations` read in; unchanged when
    there are none."""
    stored = tally(o for o in observations if o.stored)
    m = len(chain)
    if not stored.total_runs or m == 0:
        return Prior(tuple(chain), None if weight is None else tuple(weight), beyond)
    base = [1.0] * m if weight is None else list(weight)
    z = sum(base)
    base = [w / z for w in base]
    lat = lattice(settings.rates)
    fails, runs = stored.total_fails, stored.total_runs
    pos = {i: j for j, i in enumerate(chain)}
    af = [0] * m
    ar = [0] * m
    for s, f, r in zip(stored.sets, stored.fails, stored.runs):
        for i in s:
            j = pos.get(i)
            if j is not None:
                af[j] += f
                ar[j] += r
    memo: dict[tuple[int, int], tuple[float, float, float]] = {}
    logs: list[float] = []
    for j in range(m):
        key = (af[j], ar[j])
        if key not in memo:
            a_f, a_p = af[j], ar[j] - af[j]
            memo[key] = polluter_evidence(lat, a_f, a_p, fails - a_f, runs - fails - a_p)
        lml = memo[key][0]
        w = (1.0 - beyond) * base[j]
        logs.append(math.log(w) + lml if w > 0 and lml > LOG_ZERO else LOG_ZERO)
    none_ml = none_evidence(lat, fails, runs - fails)[0]
    log_none = math.log(beyond) + none_ml if beyond > 0 else LOG_ZERO
    top = max([log_none] + logs)
    post = [math.exp(x - top) for x in logs]
    post_none = math.exp(log_none - top)
    total = post_none + sum(post)
    post = [x / total for x in post]
    post_none /= total
    mixed = [EVEN_SHARE * (1.0 - beyond) * b + (1.0 - EVEN_SHARE) * x for b, x in zip(base, post)]
    on_tests = sum(mixed)
    lead = {j for j in range(m) if mixed[j] >= SUSPECT * base[j] * on_tests}
    order = sorted(lead, key=lambda j: (-mixed[j], j)) + [j for j in range(m) if j not in lead]
    rate = memo[(af[order[0]], ar[order[0]])][1] if lead else 0.0
    return Prior(tuple(chain[j] for j in order), tuple(mixed[j] for j in order),
                 EVEN_SHARE * beyond + (1.0 - EVEN_SHARE) * post_none, len(lead), rate)


def own_runs(observations: Sequence[Observation]) -> list[Observation]:
    """The hunt's own runs: its new ones, and its single runs read as stored runs (`here`); not
    the stored runs of other orders, which may be stale."""
    return [o for o in observations if o.here or not o.stored]


def stale(problem: Problem, observations: Sequence[Observation], settings: Settings) -> Verdict | None:
    """"Not reproduced" for a hunt whose stored runs failed and whose own runs never did: once the
    full list has passed so many new runs that, had it failed at the stored runs' rate, one of
    them would have failed with the target confidence, or the reproduction cap's runs (a failure
    at the prior's rarest rate would have shown), whichever comes first. Without this, stored
    failures from before a fix keep the search going for ever (every list passes; the model then
    reads them as the victim failing alone at a tiny rate and waits for it to fail alone).

    The stored rate is taken as uncertain as the stored runs leave it: a uniform prior updated
    on their failures f of r, so "the new runs pass n times at that rate" has probability
    E[(1 - p)^n] for p ~ Beta(f + 1, r - f + 1), a product over n factors. It assumes the full
    list fails at least as often as the victim did in the stored runs: the list is the order of
    a run that failed, which holds the causes that made it fail; stored runs whose failures came
    from tests the list lacks make the assumption wrong, which the verdict says, with the way to
    hunt without them. None while any new run (or single run of this hunt) failed, or while no
    stored run failed (then the search's own reproduction applies)."""
    old = [o for o in observations if o.stored and not o.here]
    new = own_runs(observations)
    f = sum(o.count for o in old if o.failed)
    if not f or any(o.failed for o in new):
        return None
    n = len(problem.predecessors)
    r = sum(o.count for o in old)
    whole = sum(o.count for o in new if len(o.included) == n)
    log_pass = sum(math.log((r - f + 1 + i) / (r + 2 + i)) for i in range(whole))
    shown = 1.0 - math.exp(log_pass)  # one of them would have failed at the stored runs' rate
    cap = reproduce_cap(settings)
    if shown < settings.confidence and whole < cap:
        return None
    made = sum(o.count for o in new)
    t = tally(observations)  # a verdict's runs and seconds count the stored runs (the shell takes them out)
    floor = 1.0 - (1.0 - settings.rates.p_min) ** whole
    lines = (f"0/{made} new runs failed ({whole} of the full list of {n} predecessors"
             f"{'' if whole == made else ', the others of shorter lists'})",
             f"the stored runs failed {f}/{r}: at that rate one of the {whole} runs of the full list would have"
             f" failed with probability {probability(shown)}",
             "the stored failures are likely stale (before a fix, on another machine) or came with tests this"
             " order lacks: --history-since RUN or --no-history hunts without them")
    return Verdict("not-reproduced", (), max(shown, floor), 0.0, 0.0, lines, t.total_runs, t.total_seconds,
                   stop=f"the stored runs' failure did not reproduce in {whole} runs of the full list")
