"""The single-cause Bayesian strategy ("single", and the second step of each round of
"isolate"): reproduce, then query for the most information per second until one answer (one
test, a pair, or none) reaches the target confidence, and confirm it by intervention.

posterior.py holds the statistics, choose.py the choice of the next list; this module is the
stopping rule: when the evidence is a verdict, and which verdict.
"""

from __future__ import annotations

from typing import Sequence

from isolate.search.choose import choose
from isolate.search.model import (
    Observation,
    Problem,
    Query,
    Settings,
    Verdict,
    budget_left,
    evidence_lines,
    fit_runs,
    fits,
    label,
    reproduce_cap,
    round_batch,
    run_cost,
    runs_for,
    tally,
)
from isolate.search import stored
from isolate.search.posterior import Answer, Tally, answers, infer, partition
from isolate.words import counted, fraction, probability


def _not_reproduced(problem: Problem, t: Tally, settings: Settings, spent: bool = False) -> Verdict:
    """No failure: after the reproduction cap, or (`spent`) when the budget ran out first."""
    n = len(problem.predecessors)
    lines: tuple[str, ...] = (f"0/{counted(t.total_runs, 'run')} failed (full list of {counted(n, 'predecessor')}"
             f"{'' if all(len(s) == n for s in t.sets) else ', and subsets'})",)
    whole = sum(r for s, r in zip(t.sets, t.runs) if len(s) == n)  # a subset's passes say less
    if whole:
        conf = 1.0 - (1.0 - settings.rates.p_min) ** whole
        lines += (f"a failure rate of {settings.rates.p_min:g} or more would have shown "
                  f"with probability {probability(conf)}",)
    else:
        conf = 0.0
    stop = f"the budget ran out after {counted(t.total_runs, 'run')}, none failed" if spent else ""
    return Verdict("not-reproduced", (), conf, 0.0, 0.0, lines + ((stop,) if stop else ()), t.total_runs,
                   t.total_seconds, stop=stop, spent=spent)


def decide(
    problem: Problem, observations: Sequence[Observation], settings: Settings, *, batch: int = 1
) -> Query | Verdict:
    """The next query, or the verdict: a pure function of the observations."""
    batch = max(1, batch)
    n = len(problem.predecessors)
    t = tally(observations)
    budget = budget_left(settings, t)
    full = tuple(range(n))
    new = stored.own_runs(observations)
    stale = t.total_fails > 0 and not any(o.failed for o in new)
    if stale:
        # only stored runs failed (other orders, maybe from before a fix): reproduce the failure
        # on the full list first, as without them; isolate.search.stored.stale ends the hunt once
        # its passes show the stored failures do not happen any more
        t = tally(new)
    if t.total_fails == 0:
        cap = reproduce_cap(settings)
        # doubling the runs of the full list (1, 1, 2, 4, ...), not of every list: inside a prefix
        # the chain search led to (strategies/causes.py), the runs of shorter prefixes that passed
        # are here too, and a prefix that never held the cause would run that many times at once
        whole = sum(r for s, r in zip(t.sets, t.runs) if len(s) == n)
        want = min(cap - t.total_runs, max(1, whole))
        k = fit_runs(round_batch(want, batch), run_cost(problem, full), budget)
        if t.total_runs >= cap or k < 1:
            return _not_reproduced(problem, t, settings, spent=t.total_runs < cap)
        others = t.total_runs - whole  # of other lists (a prefix, the victim alone) and stored runs of other orders
        runs = " and ".join([f"{counted(whole, 'run')} of it"] * bool(whole)
                            + [f"{counted(others, 'run')} of other lists"] * bool(others))
        reason = ("full list: does the failure reproduce?" if t.total_runs == 0 else
                  f"full list: no failure yet in {runs} (after {cap:,} without one, 'not reproduced': a failure at"
                  f" {settings.rates.p_min:g} a run or more would have shown)")
        if stale:
            reason = f"full list: stored runs failed, this order not yet ({counted(whole, 'run')} of it)"
        if n == 0:  # no predecessors (a sub-problem of none): the full list is the victim alone
            reason = "the victim alone: does it fail on its own?"
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
        k = fit_runs(check.runs, run_cost(problem, check.included), budget)
        if k < 1:
            return _verdict(problem, t, best, settings,
                            unconfirmed="budget spent before the answer was confirmed alone", spent=True)
        return Query(check.included, k, check.reason)
    choice = choose(problem, cells, post, settings, batch, t.total_runs, best)
    if choice.alongside and not fits(problem, choice, budget):  # then one list at a time
        choice = choose(problem, cells, post, settings, 1, t.total_runs, best)
    k = fit_runs(choice.runs, run_cost(problem, choice.included), budget)
    if k < 1:
        return _verdict(problem, t, best, settings, spent=True)
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
    who = label(problem, answer.culprits) if answer.culprits else "the victim"
    if fails:
        return None
    if runs >= need:
        return (f"not confirmed: {who} alone{' before the victim' if answer.culprits else ''} "
                f"passed {counted(runs, 'run')} in a row, expected to fail at {fraction(rate)}; the failure may "
                "need several tests (a cumulative leak) or something the model does not cover")
    k = round_batch(need - runs, batch)
    reason = (f"confirm: {who} alone{' before the victim' if answer.culprits else ''} "
              f"should fail (rate {fraction(rate)}); until it does, up to {counted(k, 'run')}")
    return Query(tuple(sorted(want)), k, reason)


CONFIRM = 0.999


def _verdict(
    problem: Problem, t: Tally, best: Sequence[Answer], settings: Settings, unconfirmed: str = "",
    spent: bool = False
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
                  f"more: probability {probability(a.probability)}{settings.rates.weak_claim()}",)
    alts = tuple((b.culprits, b.probability) for b in best[1:])
    return Verdict(kind, a.culprits, a.probability, a.p, a.q, lines,
                   t.total_runs, t.total_seconds, alts, spent=spent)



def leading(problem: Problem, observations: Sequence[Observation], settings: Settings) -> tuple[Answer, ...]:
    """The most probable answers now (empty before the first failure: nothing to rank yet)."""
    t = tally(observations)
    if t.total_fails == 0:
        return ()
    n = len(problem.predecessors)
    cells = partition(n, t.sets)
    post = infer(n, t, cells, settings.rates, settings.prior_none, settings.prior_pair)
    return answers(post, cells, limit=3)
