"""The default strategy ("isolate"): name every cause, one after another.

The model is noisy group testing with an unknown number of causes: a list S fails with
1 - (1 - q) * prod(1 - p_c) over the causes c that S switches on; a cause is a test, a pair (both
needed), or a class or module (any of its tests switches it on).  Searching that space directly
is exponential, so the hunt peels causes off in rounds, each round exact for its own question:

1. where along a chain of the remaining predecessors the lists first start to fail
   (threshold.py: valid however many causes there are, because pollution is monotone);
2. which cause completes there: the single/pair search (bayesian.py) on that prefix alone, where
   exactly one cause is complete, confirmed by intervention (its tests alone before the victim
   fail);
3. the cause's tests leave the list, the runs without them stay evidence, and the next round
   asks again, until the lists without every cause found fail no more than the background
   ("no further cause ...") or the budget runs out ("more may remain ...").

A class or module all of whose listed tests turn out to be causes is reported as one cause of
that scope.  decide() replays the rounds from the observations alone, so it stays a pure
function of the journal: a resumed hunt continues identically.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Sequence

from isolate.search import stored, threshold
from isolate.search.batch import makespan, share
from isolate.search.model import (
    FoundCause,
    Observation,
    Problem,
    Query,
    Settings,
    Verdict,
    budget_left,
    carry_over,
    counts,
    evidence_lines,
    fit_runs,
    fits,
    label,
    reproduce_cap,
    round_batch,
    run_cost,
    runs_for,
    tally,
    without,
)
from isolate.search.posterior import Answer, Tally, lattice, none_evidence, polluter_evidence
from isolate.search.repeats import per_execution
from isolate.search.scopes import class_of, module_of
from isolate.search.strategies import bayesian

IMPORT = "import:"  # a predecessor that only imports a module (isolate.running.child)
CONFIRM = 0.999  # the victim alone must fail within runs that show its rate this surely
SCOPE_SHARE = 0.5  # prior share, in a later round, of the other tests of a cause's class
DETERMINISTIC = 0.9  # once every cause found fails the victim this often, further ones are
# a priori as likely to be deterministic as not (the rates prior of later rounds)
PROBE_RUNS = 8  # runs of a classmate alone after which an unclear probe is left to the search
DISPERSED = 0.05  # a cause's K-fold runs read per execution unless this few would pass whole (_per_execution)
REACH = 0.2  # with K-fold runs, the stop check rules out causes this many times as strong per execution as
# the strongest found, or as the weakest, whichever is weaker (x --further): executions after the rest are
# cheap (_no_cause_left_by_execution, _reaches)...
REACH_MOST = 0.1  # ...and always causes failing one execution in ten (x --further)
SHARPEN_MAX = 256  # at most this many more runs of a cause alone to shorten the stop check


@dataclass(frozen=True)
class _Found:
    tests: tuple[int, ...]  # original predecessor indices (one test, or a pair)
    rate: float
    confidence: float
    fails: int = 0  # the runs that held it: failures...
    runs: int = 0  # ...of these
    name: str = ""  # how the stop check names it, when it is a whole class or module
    alone: _Executions | None = None  # its K-fold runs without the other causes found (_units)


@dataclass(frozen=True)
class _Executions:
    """The K-fold runs that held a cause and no other cause found, as the stop check reads its
    strength per execution from them (`_per_execution`)."""

    runs: int
    passed: int  # of them, passed on their first K executions
    executions: int  # every execution of the victim in them...
    reproduced: int  # ...and those that reproduced the failure


@dataclass(frozen=True)
class _End:
    """How the replay ended when it did not ask for a query."""

    kind: str  # "stop" (no further cause), "budget", "fails-alone", "undecided"
    text: str
    confidence: float = 0.0
    rate: float = 0.0
    leaders: tuple[Answer, ...] = ()


@dataclass(frozen=True)
class _Whole:
    """A query already in the whole problem's indices (it runs a cause found, outside the round)."""

    query: Query


@dataclass(frozen=True)
class _Replay:
    found: tuple[_Found, ...]
    action: Query | _End | Verdict  # a Verdict only from the reproduce stage
    leaders: tuple[Answer, ...]  # the current round's, in original indices


def decide(problem: Problem, observations: Sequence[Observation], settings: Settings, *,
           batch: int = 1) -> Query | Verdict:
    """The next query, or the verdict naming every cause found."""
    r = _replay(problem, observations, settings, max(1, batch))
    if isinstance(r.action, (Query, Verdict)):
        return r.action
    return _verdict(problem, tally(observations), r.found, r.action, settings)


def leading(problem: Problem, observations: Sequence[Observation], settings: Settings) -> tuple[Answer, ...]:
    """Causes confirmed so far (probability: their confidence), then the current round's
    leading answers; empty before the first failure."""
    if not any(o.failed for o in observations):
        return ()
    r = _replay(problem, observations, settings, 1)
    done = tuple(Answer(f.tests, f.confidence, f.rate, 0.0) for f in r.found)
    return (done + r.leaders)[:3]


def _replay(problem: Problem, observations: Sequence[Observation], settings: Settings, batch: int) -> _Replay:
    t = tally(observations)
    if t.total_fails == 0:  # reproduce first, exactly as the single-cause search does
        n = len(problem.predecessors)
        opened = sum(o.count for o in observations if not o.stored and len(o.included) != n)
        # the opening prefix's passes (_open) are no runs of the whole list: they do not count
        # towards the runs after which the failure is "not reproduced"
        cap = replace(settings, reproduce_runs=reproduce_cap(settings) + opened) if opened else settings
        first = bayesian.decide(problem, observations, cap, batch=batch)
        if isinstance(first, Query) and t.total_runs == 0:
            first = _open(problem, first, settings, batch, budget_left(settings, t))
        return _Replay((), first, ())
    found: list[_Found] = []
    index = list(range(len(problem.predecessors)))  # round problem index -> original index
    sub, obs = problem, tuple(observations)
    while True:
        units = _units(problem, observations, found, settings.executions)
        step = _round(sub, obs, settings, batch, t, [problem.predecessors[i] for f in found for i in f.tests],
                      min((f.rate for f in units), default=0.0), problem, units, index)
        leaders = tuple(Answer(tuple(index[i] for i in a.culprits), a.probability, a.p, a.q)
                        for a in step[1])
        action = step[0]
        if isinstance(action, _Whole):
            return _Replay(tuple(found), action.query, leaders)
        if isinstance(action, Query):
            action = action.mapped(index)
            return _Replay(tuple(found), action, leaders)
        if isinstance(action, _End):
            return _Replay(tuple(found), replace(action, leaders=leaders), leaders)
        tests, rate, confidence = action
        held = frozenset(tests)  # its rate; a stored run's one execution tells no K-fold rate
        same = settings.executions == 1
        f = sum(o.count for o in obs if o.failed and held <= o.included and (same or not o.stored))
        r = sum(o.count for o in obs if held <= o.included and (same or not o.stored))
        found.append(_held(tuple(sorted(index[i] for i in tests)), rate, confidence, f, r))
        obs = carry_over(sub, obs, tests)
        sub = without(sub, tests)
        index = [i for j, i in enumerate(index) if j not in set(tests)]


def _round(problem: Problem, obs: tuple[Observation, ...], settings: Settings, batch: int, whole: Tally,
           found_ids: list[str], weakest: float, everything: Problem, found: tuple[_Found, ...],
           index: Sequence[int]) -> tuple[Query | _Whole | _End | tuple[tuple[int, ...], float, float],
                                          tuple[Answer, ...]]:
    """One round: a query, the end of the hunt, or a confirmed cause (tests, rate, confidence).
    `everything` is the whole hunt and `found` the causes found so far, in its indices; `index`
    maps this round's predecessors to them."""
    n = len(problem.predecessors)
    t = tally(obs)
    later = bool(found_ids)
    budget = budget_left(settings, whole)
    if later and settings.further <= 0:
        return _End("stop", "stopped at the first cause (--further 0): others may remain"), ()
    base = settings  # the stop check reads the found causes' rates under the hunt's own prior
    if later and weakest >= DETERMINISTIC:  # every cause so far bit (nearly) every time
        settings = replace(settings, rates=replace(settings.rates,
                                                   deterministic=max(settings.rates.deterministic, 0.5)))
    chain = threshold.cost_chain(problem)
    # stored runs (other orders) are the chain's prior, new runs its likelihood (stored.py), and
    # only new runs show what a test alone does (a stored run ran the victim once, in another order)
    own = tally(o for o in obs if not o.stored) if any(o.stored for o in obs) else t
    if later:
        probe = _probe_classmates(problem, own, chain, found_ids, settings, batch, budget)
        if probe is not None:
            return probe, ()
    weight = _scope_weight(problem, chain, found_ids)
    pri = stored.prior(chain, weight, settings.prior_none, obs, settings)
    chain, weight = pri.chain, pri.weight
    if later and (n == 0 or own.total_fails == 0):  # stored failures are the prior's: only new runs count here
        done = sum(r for s, r in zip(own.sets, own.runs) if len(s) == n)  # passes of the rest (none failed)
        cap = 1.0
        if pri.suspects and pri.beyond < 0.5:
            # stored runs failed without the causes found, and point at a further one: the check
            # rules out the rate they give it too (stale ones give it their own, seldom lower)
            cap = k_fold_rate(pri.rate, settings.executions) / settings.further
        if _by_execution(obs, found, base) and _executions_pay(problem, obs, base, found, cap):
            return _no_cause_left_by_execution(problem, obs, base, batch, budget, everything, found, cap), ()
        hedge = _hedging(obs, base)
        if hedge and any(o.reproductions for o in obs if o.included == frozenset(range(n)) and not o.stored):
            return _chase(problem, obs, base, batch, budget), ()
        sharper = _sharpen(everything, problem, found, base, batch, budget, max(1, done), cap)
        if sharper is not None and done:
            return _Whole(sharper), ()
        check = _no_failure_left(problem, own, base, 1, budget, everything, found, cap)
        if hedge and isinstance(check, Query):
            check = replace(check, executions=base.hedge,
                            reason=f"{check.reason}, each executing the victim {base.hedge} times (judged on the"
                                   " first: a flaky cause beside the ones found shows in a later one)")
        if isinstance(check, Query) and batch > 1 and not done:
            wide = _beside(everything, problem, found, base, batch, budget, cap, index)
            if wide is not None:
                return _Whole(wide), ()
        if sharper is not None:  # first one batch of the rest: while it fails, more causes remain
            check = replace(check, runs=min(check.runs, batch)) if isinstance(check, Query) else check
        if isinstance(check, Query) and batch > 1:
            # free places in the batch: the next round's first prefixes, in case the rest fails
            th = threshold.infer(chain, own, settings, pri.beyond, weight, pri.suspects)
            more = threshold.spread(th, batch - check.runs)
            both = replace(check, until_failure=False, alongside=more,
                           reason=f"{check.reason}; beside it, {_n(len(more), 'shorter list')} in case it does")
            if more and fits(problem, both, budget):
                return both, ()
            # a whole batch of the rest (rounded up, as far as the budget holds)
            k = fit_runs(round_batch(check.runs, batch), run_cost(problem, check.included), budget)
            return replace(check, runs=max(check.runs, k)), ()
        return check, ()
    th = threshold.infer(chain, own, settings, pri.beyond, weight, pri.suspects)
    lead, mass = th.leader()
    leaders = tuple(Answer((chain[j],) if j >= 0 else (), w, th.p[j] if j >= 0 else th.beyond_q,
                           th.q[j] if j >= 0 else th.beyond_q) for j, w in th.ranked(3))
    if not later and t.total_fails and not any(th.fails):
        again = _reproduce_whole(problem, th, settings, batch, budget)
        if again is not None:
            return again, leaders
    if mass >= settings.confidence and lead < 0:
        if later:
            return _End("stop", (f"no further cause raises the rate {settings.rates.min_ratio:g}x over the "
                                 f"background (confidence {mass:.3f})"), mass), leaders
        return _fails_alone(problem, th, settings, batch, budget, mass), leaders
    shown = _shown_alone(problem, own, settings)
    if shown is not None:
        return shown, leaders
    # A leader the stored runs alone made (its prefix never failed in a new run) is tested by
    # the chain's own queries first: the search inside would open by reproducing the prefix,
    # runs doubling, for ever if the stored runs were stale.
    made = own is not t and lead >= 0 and not th.fails[lead + 1]
    if mass >= settings.verify_from and not made:
        # Once a prefix leads, the single/pair search inside it verifies more cheaply (the
        # suspect alone) than more runs of the long prefixes; should it find no cause there
        # (the leader was wrong), the chain search goes on.
        step = _which_cause(problem, obs, chain[:lead + 1], settings, batch, whole, budget)
        if mass >= settings.confidence or not (isinstance(step, _End) and step.kind == "undecided"):
            return step, leaders
    query = threshold.choose(th, problem, settings, batch, own.total_runs)
    if query.alongside and not fits(problem, query, budget):  # then one list at a time
        query = threshold.choose(th, problem, settings, 1, own.total_runs)
    k = fit_runs(query.runs, run_cost(problem, query.included), budget)
    if k < 1:
        if not later and lead < 0 and th.fails[0]:
            # the victim failed alone, so no earlier test is needed: say so, not "undecided"
            return _End("fails-alone", (f"the victim fails on its own ({th.fails[0]}/{th.runs[0]} alone); that no"
                                        f" earlier test raises its rate {settings.rates.min_ratio:g}x is not settled"
                                        f" (probability {mass:.3f}): the budget ran out"), mass, th.beyond_q), leaders
        return _End("budget", "the budget ran out", leaders=leaders), leaders
    return replace(query, runs=min(k, query.runs)), leaders


def _reproduce_whole(problem: Problem, th: threshold.Threshold, settings: Settings, batch: int,
                     budget: tuple[float, float]) -> Query | None:
    """The whole list until it fails, when the failures so far are all of lists that are no
    prefix of the chain (stored runs of other orders, isolate.hunt.history): the chain then has
    no failing prefix to split, and its search would grope along prefixes expected to fail at the
    background rate. So the hunt first reproduces the failure in its own order, as one without
    stored runs does (runs doubling, up to reproduce_cap); None when that is done or spent."""
    n = len(problem.predecessors)
    done = th.runs[n]  # runs of the whole list, the chain's longest prefix
    cap = reproduce_cap(settings)
    full = tuple(range(n))
    k = fit_runs(round_batch(min(cap - done, max(1, done)), batch), run_cost(problem, full), budget)
    if n == 0 or done >= cap or k < 1:
        return None
    return Query(full, k, f"full list: stored runs failed, this order not yet ({done} runs of it)")


def _open(problem: Problem, first: Query, settings: Settings, batch: int,
          budget: tuple[float, float]) -> Query:
    """The hunt's first wave: prefixes of the chain instead of the whole list (`first`).  On one
    worker, the quickest prefix that holds half the suspicion (with nothing known, the quickest
    half of the predecessors); on W places, W prefixes that split the suspicion evenly (at 1/(W+1),
    2/(W+1), ... of it), a run each.  Each is shorter than the whole list, so the wave ends sooner.
    Should one fail, the failure is reproduced and the chain's search starts between the longest
    prefix that passed and the shortest that failed; the whole list need not run.  Should all
    pass, the whole list runs next (1, 1, 2, 4, ... runs, as it would have first), and those
    passes are what the chain's search would have asked about first.  Only the hunt's very
    first wave: while the failure does not reproduce, later ones run the whole list."""
    m = len(problem.predecessors)
    if m < 2:
        return first
    th = threshold.infer(threshold.cost_chain(problem), tally(()), settings, settings.prior_none)
    prefixes = [included for included, _ in threshold.spread(th, batch)]
    if not prefixes:
        return first
    runs = share(batch, len(prefixes))  # places beyond the distinct prefixes: the quickest again
    longest = run_cost(problem, prefixes[-1])
    if len(prefixes) == 1:
        k = len(prefixes[0])
        held = sum(th.weights[:k]) / sum(th.weights)
        reason = (f"the {k} quickest of {m} predecessors, holding {held:.0%} of the suspicion: does the failure"
                  f" reproduce? (should it pass, the full list runs next; {longest:.1f} s per run)")
    else:
        shown = ", ".join(str(len(p)) for p in prefixes)
        reason = (f"{len(prefixes)} lists at once, the {shown} quickest of {m} predecessors, splitting the suspicion"
                  f" evenly: does the failure reproduce? (should all pass, the full list runs next; up to"
                  f" {longest:.1f} s per run)")
    query = Query(prefixes[0], runs[0], reason, until_failure=False,
                  alongside=tuple(zip(prefixes[1:], runs[1:])))
    return query if fits(problem, query, budget) else first


def _sharpen(everything: Problem, problem: Problem, found: Sequence[_Found], settings: Settings,
             batch: int, budget: tuple[float, float], done: int, cap: float = 1.0) -> Query | None:
    """Runs of the weakest cause alone before the victim, when they make the stop check cheaper.

    The stop check runs the rest of the list until a further cause at `further` x the weakest
    cause's rate would have shown, that rate drawn from what its runs say of it (`missed`): a
    cause seen failing 2/2 leaves rates near 0.5 open, so the rest must pass 6 runs.  More runs
    of the cause alone (often one quick test) narrow it: after 10/10, 2 runs of the rest do.  So
    this picks the number of such runs m that minimises m x (a run of the cause alone) + (the
    rest's runs still needed, had m more runs failed at the cause's estimated rate) x (a run of
    the rest), and asks for them if that saves at least half a run of the rest.  Only once the
    rest has passed a run (`done`: its passes so far): while it fails, more causes remain and the
    next round comes first.  `cap`: as in `_beside`."""
    trade = _trade(everything, problem, found, settings, cap)
    if trade is None:
        return None
    weakest, others, rest, alone = trade

    def cost(m: int) -> float:
        return m * alone + max(0, max(others, _need(weakest, settings, m)) - done) * rest

    step = max(batch, 4)
    best = min(range(0, SHARPEN_MAX + 1, step), key=lambda m: (cost(m), m))
    if best == 0 or cost(best) > cost(0) - rest / 2:
        return None
    k = fit_runs(round_batch(best, batch), run_cost(everything, weakest.tests), budget)
    if k < 1:
        return None
    who = weakest.name or label(everything, weakest.tests)
    return Query(weakest.tests, k, f"how surely does {who} fail it? {k} runs of it alone before the victim make the"
                                   " check for further causes shorter", until_failure=False)


def _beside(everything: Problem, problem: Problem, found: Sequence[_Found], settings: Settings, batch: int,
            budget: tuple[float, float], cap: float, index: Sequence[int]) -> Query | None:
    """The stop check's first wave on W > 1 workers, with runs of the weakest cause alone beside it.

    What `_sharpen` weighs for one worker, in wall time: the rest of the list fills the wave, and
    runs of the cause alone (often one quick test) take the places left and follow on the workers
    the rest's runs free, so they cost little wall time, where each wave of the rest costs a whole
    run of it.  Enough of them can leave one wave of the rest to run instead of two (a cause seen
    17/36 needs 9 passes of the rest, one more than 8 workers run at once; after 8 more runs
    alone, 8 do).  So this picks the number of runs alone m (a multiple of W, up to SHARPEN_MAX)
    with the shortest estimated wall time: the batch's makespan, as the Runner starts its runs,
    plus the waves of the rest still needed after it; fewest test seconds on a tie.  None unless
    that saves at least half a run of the rest.  Should the rest fail, the runs alone were cheap;
    they still tell the cause's rate.  `cap` is a rate the check must rule out whatever the
    causes' (stored runs' suspects, see _round); the query is in `everything`'s indices."""
    trade = _trade(everything, problem, found, settings, cap)
    if trade is None:
        return None
    weakest, others, rest, alone = trade
    n = len(problem.predecessors)

    def wall(m: int) -> tuple[float, float]:
        k = max(others, _need(weakest, settings, m))
        now = min(k, batch)
        after = math.ceil(max(0, k - now) / batch) * rest
        return makespan([rest, alone], [now, m], batch) + after, now * rest + m * alone

    best = min(range(0, SHARPEN_MAX + 1, batch), key=wall)
    if best == 0 or wall(best)[0] > wall(0)[0] - rest / 2:
        return None
    runs = min(max(others, _need(weakest, settings, best)), batch)
    everyone = tuple(index[i] for i in range(n))
    who = weakest.name or label(everything, weakest.tests)
    query = Query(everyone, runs, f"without the causes found: do the other {n} predecessors still make it fail?"
                                  f" ({runs} runs); beside them, {best} runs of {who} alone before the victim, to"
                                  " make the check shorter", until_failure=False, alongside=((weakest.tests, best),))
    return query if fits(everything, query, budget) else None


def missed(fails: float, runs: float, k: int, further: float, p_min: float, deterministic: float = 0.0) -> float:
    """The chance that a further cause failing the victim `further` x as often as a cause seen
    failing fails/runs passes k runs in a row: (1 - further x p)^k averaged over what those runs
    say of the cause's rate p, and at most (1 - p_min)^k.

    The prior on p is the hunt's own (`RatePrior.deterministic`): p = 1 with probability
    `deterministic` (pollution that always bites), else Jeffreys' Beta(1/2, 1/2).  A run that
    passed rules p = 1 out, so then the posterior is Beta(fails + 1/2, runs - fails + 1/2); while
    every run failed, it puts P1 = w / (w + (1 - w) B(fails + 1/2, 1/2) / B(1/2, 1/2)) on p = 1
    (`always`), where a further cause at `further` x 1 passes k runs with chance (1 - further)^k.
    The Beta part is exact: with f = further, (1 - f p)^k = sum over j of C(k, j) (1 - f)^(k-j)
    f^j (1 - p)^j, and E[(1 - p)^j] = prod over i < j of (b + i) / (a + b + i)."""
    f = min(1.0, max(0.0, further))
    ceiling = (1.0 - p_min) ** k
    if f <= 0.0:
        return ceiling
    w = always(fails, runs, deterministic)
    chance = w * (1.0 - f) ** k + (1.0 - w) * _beta_missed(fails + 0.5, runs - fails + 0.5, k, f)
    return min(chance, ceiling)


def always(fails: float, runs: float, deterministic: float) -> float:
    """The posterior probability that a cause seen failing fails/runs fails every time, under a
    prior putting `deterministic` on that and Jeffreys' Beta(1/2, 1/2) on the other rates."""
    if deterministic <= 0.0 or fails < runs:
        return 0.0
    ratio = math.exp(math.lgamma(fails + 0.5) - math.lgamma(fails + 1.0) - math.lgamma(0.5))  # B(a, 1/2) / B(1/2, 1/2)
    return deterministic / (deterministic + (1.0 - deterministic) * ratio)


def _beta_missed(a: float, b: float, k: int, f: float) -> float:
    """E[(1 - f p)^k] for p ~ Beta(a, b), exactly (see `missed`)."""
    if f >= 1.0:
        moment = 1.0
        for i in range(k):
            moment *= (b + i) / (a + b + i)
        return moment
    total, log_moment = 0.0, 0.0
    log_term = k * math.log1p(-f)  # ln of C(k, j) (1 - f)^(k - j) f^j at j = 0
    odds = math.log(f) - math.log1p(-f)
    for j in range(k + 1):
        total += math.exp(log_term + log_moment)
        log_term += math.log(k - j) - math.log(j + 1) + odds if j < k else 0.0
        log_moment += math.log((b + j) / (a + b + j))
    return total


@lru_cache(maxsize=4096)
def check_runs(fails: float, runs: float, further: float, confidence: float, p_min: float,
               deterministic: float = 0.0) -> int:
    """The fewest passes of the rest after which `missed` is at most 1 - confidence (it falls
    with every pass: doubling, then halving the last step)."""
    top = runs_for(confidence, p_min)
    hi = 1
    while hi < top and missed(fails, runs, hi, further, p_min, deterministic) > 1.0 - confidence:
        hi *= 2
    hi = min(hi, top)
    lo = hi // 2 + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if missed(fails, runs, mid, further, p_min, deterministic) <= 1.0 - confidence:
            hi = mid
        else:
            lo = mid + 1
    return hi


def _trade(everything: Problem, problem: Problem, found: Sequence[_Found], settings: Settings, cap: float
           ) -> tuple[_Found, int, float, float] | None:
    """What `_sharpen` and `_beside` weigh: the weakest cause, the passes of the rest every other
    demand needs, and the seconds of a run of the rest and of one of the cause alone; None when
    there is no check to shorten."""
    n = len(problem.predecessors)
    if settings.further <= 0 or not found or n == 0:
        return None
    weakest, others = _weakest(found, settings, cap)
    return weakest, others, run_cost(problem, tuple(range(n))), run_cost(everything, weakest.tests)


def _weakest(found: Sequence[_Found], settings: Settings, cap: float) -> tuple[_Found, int]:
    """The cause whose check needs the most passes of the rest, and the passes every other
    demand needs (the other causes', and the rate `cap`'s)."""
    weakest = max(found, key=lambda f: _need(f, settings))
    others = max([_need(f, settings) for f in found if f is not weakest] + [_cap_need(cap, settings)])
    return weakest, others


def _need(f: _Found, settings: Settings, more: int = 0) -> int:
    """Passes of the rest that rule out a further cause as strong as f (x `further`), had f run
    `more` more times alone failing at its estimated rate (failing every time, while it has)."""
    if f.runs + more <= 0:
        return runs_for(settings.confidence, _floor(f.rate, settings))
    fails = f.fails + (more if f.fails >= f.runs else f.rate * more)
    return check_runs(fails, f.runs + more, settings.further, settings.confidence, settings.rates.p_min,
                      settings.rates.deterministic)


def _miss(f: _Found, settings: Settings, k: int) -> float:
    """The chance a further cause as strong as f (x `further`) passes k runs of the rest (as
    `_need` reads f)."""
    if f.runs <= 0:
        return (1.0 - _floor(f.rate, settings)) ** k
    return missed(f.fails, f.runs, k, settings.further, settings.rates.p_min, settings.rates.deterministic)


def _per_execution(f: _Found, k: int) -> bool:
    """Whether f's K-fold runs without the other causes found (`k` executions each) show its
    strength per execution of the victim: one of their executions reproduced the failure, and
    they agree with independent executions: as many of them passed their first k executions as
    f's rate per execution allows (a binomial tail of at least DISPERSED).  A cause that bites in
    some processes and not at all in others (a run's executions then fail or pass with its
    process) makes too many runs pass whole, and is read per run."""
    e = f.alone
    if e is None or not e.reproduced:
        return False
    whole = (1.0 - (e.reproduced + 0.5) / (e.executions + 1)) ** k  # a run passing its first k executions
    return _at_least(e.passed, e.runs, whole) >= DISPERSED


def _hedging(obs: Sequence[Observation], settings: Settings) -> bool:
    """Whether the per-run stop check's runs execute the victim `settings.hedge` times, judged on
    the first as single runs are (`_no_failure_left`): while the runs are single, and no run of the
    victim alone reproduced the failure in any execution.  A cause found deterministic says
    nothing of how strong a further one is, and two runs of the rest rule out only another as
    strong; a flaky cause beside it (`multi k=3 p=1+0.5+0.1`) passes them one time in four.  Its
    later executions show it for the price of the victim's, and a reproduction there is chased
    as the check in executions chases one (`_chase`: the victim alone as many times first, then
    the rest until a run fails).  The promise stays the per-run check's; the executions only
    find more."""
    if settings.executions != 1 or settings.hedge < 2:
        return False
    return not any(o.failed or o.reproductions for o in obs if not o.included and not o.stored)


def _by_execution(obs: Sequence[Observation], found: Sequence[_Found], settings: Settings) -> bool:
    """Whether the stop check counts executions of the victim after the rest rather than runs of
    the rest (`_no_cause_left_by_execution`): the runs are K-fold, every cause found shows its
    strength per execution (`_per_execution`), and the victim alone ran K-fold and never
    reproduced the failure in any execution (a reproduction after the rest then means a further
    cause, not the background)."""
    k = settings.executions
    alone = [o for o in obs if not o.included and not o.stored]
    return (k > 1 and bool(found) and bool(alone) and all(o.executions >= k * o.count for o in alone)
            and not any(o.failed or o.reproductions for o in alone)
            and all(_per_execution(f, k) for f in found))


def _no_cause_left_by_execution(problem: Problem, obs: Sequence[Observation], settings: Settings, batch: int,
                                budget: tuple[float, float], everything: Problem, found: Sequence[_Found],
                                cap: float) -> Query | _End:
    """The stop check in executions (`_by_execution`): the rest of the list runs with as many
    executions of the victim after it as rule out, at the target confidence, a further cause
    failing one execution as often as the weakest cause found does, and one failing it REACH x as
    often as the strongest, whichever is weaker (x `further`; `_reaches`), each rate as uncertain
    as the cause's executions leave it (`missed`, per execution: K executions turn a rate r into
    1 - (1 - r)^K per run, as `k_fold_rate` reads a stored run's rate), and one at `cap`'s rate
    per execution x REACH (stored runs' suspects).  Executions after the rest cost a victim each,
    runs of it a start-up and the whole rest, so the check reaches five times weaker causes than
    the per-run check (`_no_failure_left`) in fewer seconds: one run of 44 executions rules out a
    cause failing 0.1 of them, where runs of 10 would take 5.  Each run is still judged on its
    first K executions by the search.  Should a later execution after the rest reproduce the
    failure, a further cause may be there, or the victim's own rate, too low for the runs of it
    alone so far to show: the victim alone first runs as many executions (a reproduction there
    ends this check: `_by_execution`); if none reproduced, the rest runs K-fold until a run fails
    (the next round then looks for the cause), up to as many runs as its rate per execution shows
    in the target confidence."""
    n = len(problem.predecessors)
    k = settings.executions
    full = frozenset(range(n))
    rest = [o for o in obs if o.included == full and not o.stored]
    rates = settings.rates
    every = tuple(range(n))
    each = problem.victim_duration  # one execution (a run's other K - 1 are in the start-up, as measured)
    seen, ran = sum(o.reproductions for o in rest), sum(o.executions for o in rest)
    if seen:  # (in the runs of more than K executions: one of K that reproduced failed, and ends the check)
        return _chase(problem, obs, settings, batch, budget)
    reach = _reaches(found, settings.further)

    def need_of(f: _Found) -> int:
        return _executions_needed([f], settings, 1.0, reach)

    need = _executions_needed(found, settings, cap, reach)
    weakest = max(found, key=need_of)
    e = weakest.alone or _Executions(0, 0, 0, 0)
    who = weakest.name or label(everything, weakest.tests)
    what = (f"a cause failing an execution {reach[weakest]:.2g}x as often as {who} ({e.reproduced}/{e.executions} of"
            " the executions after it)")
    if ran >= need:
        misses = [missed(f.alone.reproduced, f.alone.executions, ran, reach[f], rates.p_min, rates.deterministic)
                  for f in found if f.alone is not None]
        if cap < 1.0:
            misses.append((1.0 - _cap_floor(cap, settings)) ** ran)
        conf = 1.0 - max(misses)
        runs = sum(o.count for o in rest)
        return _End("stop", (f"no further cause: {ran} executions of the victim after the {n} other predecessors"
                             f" ({_n(runs, 'run')}) all passed, so {what} would have shown (confidence {conf:.3f})"),
                    conf)
    left = need - ran
    # W runs at once, each a share of the executions, none longer than settings.run_seconds (the
    # hunt's timeout, halved), at least K more executions than a K-fold run
    room = left if settings.run_seconds is None or each <= 0 else \
        int((settings.run_seconds - run_cost(problem, every)) / each)
    most = k + max(k, room)
    runs = max(min(batch, math.ceil(left / k)), math.ceil(left / most))
    per = max(k, math.ceil(left / runs))
    runs = fit_runs(runs, run_cost(problem, every) + (per - k) * each, budget)
    if runs < 1:
        return _End("budget", f"more may remain: the budget ran out after {ran} executions of the victim after the"
                              f" {n} other predecessors ({need} would rule out {what})")
    return Query(every, runs, (f"without the causes found: do the other {n} predecessors still make it fail? {per}"
                               f" executions of the victim after them{' a run' if runs > 1 else ''}, to rule out"
                               f" {what}"), until_failure=False, executions=per)


def _chase(problem: Problem, obs: Sequence[Observation], settings: Settings, batch: int,
           budget: tuple[float, float]) -> Query | _End:
    """Executions of the victim after the rest (of runs of more than K, `settings.executions`)
    reproduced the failure, though no run did in its first K: a further cause may be there, or
    the victim's own rate, too low for the runs of it alone so far to show.  The victim alone first
    runs as many executions (a reproduction there ends the check in executions, `_by_execution`,
    and the hedge, `_hedging`); if none reproduced, the rest runs K-fold until a run fails (the
    next round then looks for the cause), up to as many runs as its rate per execution shows in
    the target confidence."""
    n = len(problem.predecessors)
    k = settings.executions
    full = frozenset(range(n))
    rest = [o for o in obs if o.included == full and not o.stored]
    every = tuple(range(n))
    seen, ran = sum(o.reproductions for o in rest), sum(o.executions for o in rest)
    wide = sum(o.executions for o in rest if o.executions > k * o.count)
    alone = sum(o.executions for o in obs if not o.included and not o.stored)
    if alone < wide:  # first the victim alone as many times: its own rate may be what showed
        return Query((), 1, (f"without the causes found: {seen} of {ran} executions of the victim after the"
                             f" other {n} predecessors reproduced the failure; the victim alone {wide} times, to"
                             " tell a further cause from its own rate"), until_failure=False, executions=wide)
    runs = sum(o.count for o in rest if o.executions <= k * o.count)  # K-fold runs since (all passed)
    most = runs_for(settings.confidence, k_fold_rate((seen + 0.5) / (wide + 1), k))
    more = fit_runs(round_batch(max(1, most - runs), batch), run_cost(problem, every), budget)
    first = "first execution" if k == 1 else f"first {k} executions"
    if runs >= most or more < 1:
        return _End("budget", (f"more may remain: executions of the victim after the {n} other predecessors"
                               f" reproduced the failure ({seen}/{ran}), yet none of their {_n(runs, 'run')} did in"
                               f" its {first}"))
    return Query(every, more, (f"without the causes found: {seen} of {ran} executions of the victim after the"
                               f" other {n} predecessors reproduced the failure, none in a run's {first}:"
                               f" until a run does"))


def _executions_needed(found: Sequence[_Found], settings: Settings, cap: float, reach: dict[_Found, float]) -> int:
    """Executions of the victim after the rest, all passing, that rule out what the stop check in
    executions rules out (`_no_cause_left_by_execution`)."""
    rates = settings.rates
    need = max(check_runs(f.alone.reproduced if f.alone else 0, f.alone.executions if f.alone else 0, reach[f],
                          settings.confidence, rates.p_min, rates.deterministic) for f in found)
    if cap < 1.0:
        need = max(need, runs_for(settings.confidence, _cap_floor(cap, settings)))
    return need


def _cap_floor(cap: float, settings: Settings) -> float:
    """The rate per execution the stop check in executions rules out for the stored runs'
    suspects: `cap` (a K-fold rate / `further`) per execution, x REACH, p_min or more."""
    return max(settings.rates.p_min, per_execution(min(1.0, cap * settings.further), settings.executions) * REACH)


def _executions_pay(problem: Problem, obs: Sequence[Observation], settings: Settings, found: Sequence[_Found],
                    cap: float) -> bool:
    """Whether the stop check runs in executions (`_by_execution` allowing it): once it has begun,
    or when its executions cost no more seconds than the runs of the rest the per-run check still
    needs (`_no_failure_left`).  A cause confirmed on a few runs (a false one, drawn from a
    background the runs of the victim alone have not shown yet) leaves weak causes open, and
    ruling them out per execution takes hundreds; the per-run check then is the cheaper."""
    n, k = len(problem.predecessors), settings.executions
    full = frozenset(range(n))
    rest = [o for o in obs if o.included == full and not o.stored]
    if any(o.executions > k * o.count for o in rest):
        return True
    # (weighed at the reach relative to the causes found, as the per-run check's is: REACH_MOST
    # would make the check in executions lose to a per-run check that rules out far less)
    reach = _reaches(found, settings.further, most=1.0)
    left = _executions_needed(found, settings, cap, reach) - sum(o.executions for o in rest)
    runs = max([_need(f, settings) for f in found] + [_cap_need(cap, settings), 1]) - sum(o.count for o in rest)
    one = run_cost(problem, tuple(range(n)))
    return one + max(0, left - k) * problem.victim_duration <= max(1, runs) * one  # a run of them, against runs


def _reaches(found: Sequence[_Found], further: float, most: float = REACH_MOST) -> dict[_Found, float]:
    """How strong a further cause the stop check in executions rules out, as a multiple of each
    cause's rate per execution: as strong as the weakest cause found, or REACH x as strong as the
    strongest, or failing `most` of the executions, whichever is weakest, x `further`.  One
    cause (rate r <= 0.5): REACH x r.  Causes at 0.5 and 0.1: 0.1 (the weak one as it is, REACH x
    0.5 for the strong one), not 0.02, which would take five times the executions to rule out.
    Causes at 1 and 0.5: 0.1, not REACH x 1, which a third cause at 0.1 passes one time in ten."""
    rate = {f: (f.alone.reproduced + 0.5) / (f.alone.executions + 1) if f.alone else 1.0 for f in found}
    target = min(min(rate.values()), REACH * max(rate.values()), most)
    return {f: further * min(1.0, target / rate[f]) for f in found}


def _at_least(x: int, n: int, chance: float) -> float:
    """P(X >= x) for X binomial(n, chance)."""
    return sum(math.comb(n, j) * chance ** j * (1.0 - chance) ** (n - j) for j in range(x, n + 1))


def _cap_need(cap: float, settings: Settings) -> int:
    """Passes of the rest that rule out a cause at rate cap x `further` (none when cap is 1)."""
    if cap >= 1.0:
        return 0
    return runs_for(settings.confidence, _floor(cap, settings))


def _floor(rate: float, settings: Settings) -> float:
    """The rate a further cause `further` x as strong as `rate` fails the victim at (p_min or more)."""
    return max(settings.rates.p_min, min(1.0, rate * settings.further))


def _no_failure_left(problem: Problem, t: Tally, settings: Settings, batch: int, budget: tuple[float, float],
                     everything: Problem, found: Sequence[_Found], cap: float) -> Query | _End:
    """After a cause: no run without the causes found has failed.  Run the rest until a further
    cause `settings.further` as strong as each cause found would have shown with the target
    confidence, each cause's rate as its runs tell it (`missed`: a rate read from a handful of
    runs, 3/3 failures, leaves low rates open, so it must not make the check short), and one at
    `cap` x `further` too (stored runs' suspects)."""
    n = len(problem.predecessors)
    if n == 0:
        return _End("stop", "no predecessors are left once the causes found are taken out", 1.0)
    need = max([_need(f, settings) for f in found] + [_cap_need(cap, settings), 1])
    full = frozenset(range(n))
    done = sum(r for s, r in zip(t.sets, t.runs) if s == full)
    if found:
        weakest, _ = _weakest(found, settings, cap)
        who = weakest.name or label(everything, weakest.tests)
        strong = "as often as" if settings.further >= 1 else f"{settings.further:g}x as often as"
        what = f"a cause failing the victim {strong} {who} ({weakest.fails}/{weakest.runs} with it)"
    else:
        what = "a cause"
    if cap < 1.0 and _cap_need(cap, settings) >= need:
        what = (f"a cause failing the victim {_floor(cap, settings):.3g} of the time or more"
                " (as the stored runs suggest)")
    if done >= need:
        misses = [_miss(f, settings, done) for f in found]
        if cap < 1.0:
            misses.append((1.0 - _floor(cap, settings)) ** done)
        conf = 1.0 - max(misses + [0.0])
        return _End("stop", (f"no further cause: the {n} other predecessors passed {done}/{done} runs, so "
                             f"{what} would have shown (confidence {conf:.3f})"), conf)
    k = fit_runs(round_batch(need - done, batch), run_cost(problem, tuple(range(n))), budget)
    if k < 1:
        return _End("budget", f"more may remain: the budget ran out after the {n} other predecessors passed "
                              f"{done} runs ({need} would rule out {what})")
    return Query(tuple(range(n)), k, f"without the causes found: do the other {n} predecessors still make it fail?"
                                     f" (up to {_n(need - done, 'run')})")


def k_fold_rate(rate: float, k: int) -> float:
    """A stored run's rate (one execution of the victim) as a rate of runs of k executions, each
    failing independently (what the repeat check of isolate.hunt.repeatcheck stands for)."""
    return 1.0 - (1.0 - rate) ** k


def _n(count: int, noun: str) -> str:
    """'1 run', '3 runs'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _fails_alone(problem: Problem, th: threshold.Threshold, settings: Settings, batch: int,
                 budget: tuple[float, float], mass: float) -> Query | _End:
    """No prefix raises the rate: the victim fails on its own, once it has failed alone."""
    fails, runs = th.fails[0], th.runs[0]
    rate = th.beyond_q
    if fails:
        return _End("fails-alone", (f"no predecessor raises the failure rate {settings.rates.min_ratio:g}x or "
                                    f"more: probability {mass:.3f}"), mass, rate)
    need = runs_for(CONFIRM, min(1.0, max(rate, settings.rates.p_min)))
    if runs >= need:
        return _End("undecided", (f"not confirmed: the victim alone passed {runs} runs in a row, expected to fail "
                                  f"at {rate:.3g}; the failure may need several tests (a cumulative leak) or "
                                  "something the model does not cover"), mass, rate)
    k = fit_runs(round_batch(need - runs, batch), run_cost(problem, ()), budget)
    if k < 1:
        return _End("budget", "budget spent before the victim failed alone", mass, rate)
    return Query((), k, f"confirm: the victim alone should fail (rate {rate:.3g}); until it does, up to "
                        f"{need - runs} runs")


def _which_cause(problem: Problem, obs: tuple[Observation, ...], prefix: Sequence[int], settings: Settings,
                 batch: int, whole: Tally, budget: tuple[float, float]
                 ) -> Query | _End | tuple[tuple[int, ...], float, float]:
    """Within the first failing prefix exactly one cause is complete: the single/pair search
    names and confirms it, on the new runs of that prefix's subsets (stored runs, in other
    orders, were the chain's prior: read again here, a stale one would outvote new runs)."""
    keep = sorted(prefix)
    kept = set(keep)
    drop = [i for i in range(len(problem.predecessors)) if i not in kept]
    inner = carry_over(problem, tuple(o for o in obs if not o.stored), drop)
    sub = without(problem, drop)
    t = tally(inner)
    runs_left, secs_left = budget
    inner_settings = replace(
        settings,
        max_runs=None if runs_left == math.inf else t.total_runs + int(runs_left),
        max_seconds=None if secs_left == math.inf else t.total_seconds + secs_left,
    )
    v = bayesian.decide(sub, inner, inner_settings, batch=batch)
    if isinstance(v, Query):
        return v.mapped(keep)
    if v.kind == "polluter" and len(v.culprits) == 2:
        check = _both_needed(sub, t, v, batch, budget)
        if check is not None:
            return check.mapped(keep)
    if v.kind == "polluter":
        return tuple(keep[i] for i in v.culprits), v.p, v.confidence
    if v.kind == "undecided" and v.confidence < settings.confidence:
        return _End("budget", "the budget ran out", v.confidence)
    return _End("undecided", "; ".join(v.evidence[-1:]) or v.kind, v.confidence)


def _probe_classmates(problem: Problem, t: Tally, chain: Sequence[int], found_ids: list[str],
                      settings: Settings, batch: int, budget: tuple[float, float]
                      ) -> Query | tuple[tuple[int, ...], float, float] | None:
    """A class whose test is a cause often pollutes through all of its tests (setUpClass, class
    attributes).  So the class's other tests are tried together alone before the victim, and if
    that fails, one by one.  A test that fails alone is a cause once the runs make it
    `confidence` likely against "the victim fails at its own rate" (`_background`); a
    group or test that passes its first run is left to the search, which treats it like any
    other.  None when there is nothing (left) to probe.

    What the class has shown so far is the prior of its next test (Laplace's rule of succession
    over its tests: (causes + 1) / (causes + passed alone + 2)), and once two of its tests are
    causes and none has passed alone, the rest of the class is not tried together again after
    each new cause (that run would only fail again): one by one it goes on.

    A module with a whole class of causes (and other classes) may pollute through its import or
    setUpModule: once the classes are done, its other tests are probed the same way."""
    names = problem.predecessors
    classes = sorted({c for c in (class_of(i) for i in found_ids) if c is not None})
    left = {class_of(names[m]) for m in chain}
    whole = [c for c in classes if c not in left and sum(class_of(i) == c for i in found_ids) > 1]
    modules = sorted({m for m in (module_of(i) for i in found_ids if class_of(i) in whole) if m is not None})
    lat = lattice(settings.rates)
    scopes = [("class", c, class_of) for c in classes] + [("module", m, module_of) for m in modules]
    for scope, key, of in scopes:
        mates = [m for m in chain if of(names[m]) == key]
        if not mates:
            continue
        causes = sum(of(i) == key for i in found_ids)
        alone = {m: counts(t, frozenset({m}).__eq__) for m in mates}  # (fails, runs) of each alone
        passed = sum(1 for f, r in alone.values() if r and not f)
        odds = (causes + 1) / (passed + 1)
        for m, (f, r) in alone.items():  # already shown a cause alone (each call replays the rounds
            if f:  # anew, and an earlier round may now name another of them first)
                conf, pm = _alone(lat, f, r, *_background(t, m), odds)
                if conf >= settings.confidence:
                    return (m,), pm, conf
        f, r = counts(t, frozenset(mates).__eq__)
        together = causes < 2 or passed > 0
        if len(mates) > 1 and not r and together:
            return _probe(problem, tuple(sorted(mates)), f"do the other {len(mates)} tests of {key} make it fail"
                          " too? they alone before the victim", batch, budget)
        if len(mates) > 1 and r and not f:
            continue  # the rest of the scope passed: the search decides
        for m, (f, r) in alone.items():
            if r and (not f or r >= PROBE_RUNS):
                continue  # passed alone, or still unclear after PROBE_RUNS: the search decides
            who = names[m]
            if f and _background(t, m)[1] < r:
                return _probe(problem, (), f"is {who} a cause too? the victim alone, to compare", batch, budget)
            return _probe(problem, (m,), f"is {who} a cause too, like the rest of its {scope}? alone before the"
                                         " victim", batch, budget)
    return None


def _alone(lat: Any, f: int, r: int, f0: int, r0: int, odds: float = 1.0) -> tuple[float, float]:
    """How sure runs of one test alone before the victim (f/r failed) make it a cause, against
    the victim's own rate (f0/r0 failed, `_background`), at prior odds `odds` (even by default);
    and its expected rate."""
    lp, pm, _ = polluter_evidence(lat, f, r - f, f0, r0 - f0)
    ln, _ = none_evidence(lat, f + f0, r - f + r0 - f0)
    return 1.0 / (1.0 + math.exp(min(700.0, ln - lp)) / odds), pm


def _background(t: Tally, m: int) -> tuple[int, int]:
    """The victim's own rate, against which runs of test m alone before it are weighed: failures
    and runs of the victim alone, and the passes of every other test alone before it that never
    failed it."""
    f0, r0 = counts(t, frozenset().__eq__)
    return f0, r0 + sum(r for s, f, r in zip(t.sets, t.fails, t.runs) if len(s) == 1 and m not in s and not f)


def _shown_alone(problem: Problem, t: Tally, settings: Settings) -> tuple[tuple[int, ...], float, float] | None:
    """A test that, alone before the victim, has failed it often enough against the victim's own
    rate (`_background`) is a cause by intervention, whatever else the posterior believes.  This
    is what ends a round whose prefix holds two causes (the single-cause search there would weigh
    them against each other for ever)."""
    lat = lattice(settings.rates)
    for s, f, r in sorted(zip(t.sets, t.fails, t.runs), key=lambda x: sorted(x[0])):
        if len(s) == 1 and f:
            conf, pm = _alone(lat, f, r, *_background(t, next(iter(s))))
            if conf >= settings.confidence:
                return tuple(s), pm, conf
    return None


def _probe(problem: Problem, included: tuple[int, ...], reason: str, batch: int,
           budget: tuple[float, float]) -> Query | None:
    k = fit_runs(batch, run_cost(problem, included), budget)
    return Query(included, k, reason) if k >= 1 else None


def _both_needed(problem: Problem, t: Tally, v: Verdict, batch: int, budget: tuple[float, float]) -> Query | None:
    """A pair is named only once each of its tests alone has been seen not to be enough: alone
    before the victim, each passes as many runs as would show the pair's rate at CONFIRM
    (a failure goes into the posterior like any run, which then decides)."""
    # The rate to rule out: half the lowest of 0.5, the posterior mean and the failure rate of
    # the runs that held both (a mean from a few runs is often far too high: 3/3 failures reads
    # as 0.99), so that a member failing at the pair's real rate cannot pass by luck.
    f, r = counts(t, frozenset(v.culprits).issubset)
    need = runs_for(CONFIRM, min(0.5, v.p, f / r) / 2 if f else 0.25)
    for member in v.culprits:
        fails, runs = counts(t, frozenset({member}).__eq__)
        if fails == 0 and runs < need:
            k = fit_runs(round_batch(need - runs, batch), run_cost(problem, (member,)), budget)
            if k < 1:
                return None
            return Query((member,), k, f"both needed? {problem.predecessors[member]} alone should not be enough "
                                       f"(up to {need - runs} runs)")
    return None


def _scope_weight(problem: Problem, chain: Sequence[int], found_ids: list[str]) -> Sequence[float] | None:
    """Prior weights along the chain: the other tests of a found cause's class share
    SCOPE_SHARE of the prior (setUpClass, class attributes: one class, several polluters)."""
    classes = {class_of(i) for i in found_ids} - {None}
    if not classes:
        return None
    mates = [class_of(problem.predecessors[i]) in classes for i in chain]
    c = sum(mates)
    if c == 0 or c == len(chain):
        return None
    boost = SCOPE_SHARE / c * (len(chain) - c) / (1.0 - SCOPE_SHARE)
    return [boost if mate else 1.0 for mate in mates]


# ---------------------------------------------------------------------------
# The verdict


def _verdict(problem: Problem, t: Tally, found: Sequence[_Found], end: _End, settings: Settings) -> Verdict:
    alts = tuple((a.culprits, a.probability) for a in end.leaders[1:])
    if not found:
        if end.kind == "fails-alone":
            lines = evidence_lines(problem, t, ()) + (end.text,)
            return Verdict("fails-alone", (), end.confidence, end.rate, end.rate, lines, t.total_runs,
                           t.total_seconds, alts, stop=end.text)
        lead = end.leaders[0] if end.leaders else Answer((), 0.0, 0.0, 0.0)
        lines = evidence_lines(problem, t, lead.culprits) + (end.text,)
        return Verdict("undecided", lead.culprits, lead.probability, lead.p, lead.q, lines, t.total_runs,
                       t.total_seconds, alts, stop=end.text)
    causes = _scopes(problem, t, found)
    stop = end.text if end.kind == "stop" else (
        end.text if end.text.startswith("more may remain") else f"more may remain: {end.text}")
    culprits = tuple(sorted({i for c in causes for i in c.tests}))
    bf, br = counts(t, lambda s: not any(_active(c, s) for c in causes))
    lines = tuple(c.evidence[0] for c in causes)
    if len(causes) > 1:
        lines += (f"fails {bf}/{br} with none of them before it",)
    if any(not s for s in t.sets):
        af, ar = counts(t, lambda s: not s)
        lines += (f"fails {af}/{ar} alone (no predecessors)",)
    lines += (stop, f"fails {t.total_fails}/{t.total_runs} over all runs")
    return Verdict("polluter", culprits, min(c.confidence for c in causes), max(c.rate for c in causes),
                   bf / br if br else 0.0, lines, t.total_runs, t.total_seconds, (), tuple(causes), stop)


def _active(cause: FoundCause, s: frozenset[int]) -> bool:
    if cause.scope == "pair":
        return set(cause.tests) <= s
    return bool(s.intersection(cause.tests))


def _scope_groups(names: Sequence[str], found: Sequence[_Found]) -> list[tuple[str, str, tuple[int, ...]]]:
    """(scope, name, tests) of every module, else class, of the list all of whose tests are
    single causes found (a module only if it spans several classes)."""
    singles = {f.tests[0] for f in found if len(f.tests) == 1}
    groups: list[tuple[str, str, tuple[int, ...]]] = []
    taken: set[int] = set()
    for scope, of in (("module", module_of), ("class", class_of)):
        members: dict[str, list[int]] = {}
        for i, name in enumerate(names):
            key = of(name)
            if key is not None:
                members.setdefault(key, []).append(i)
        for key, tests in members.items():
            if len(tests) < 2 or not all(i in singles for i in tests) or taken.intersection(tests):
                continue
            if scope == "module" and len({class_of(names[i]) for i in tests}) < 2:
                continue  # one class: reported as the class
            groups.append((scope, key, tuple(tests)))
            taken.update(tests)
    return groups


def _units(problem: Problem, observations: Sequence[Observation], found: Sequence[_Found], k: int
           ) -> tuple[_Found, ...]:
    """The causes found as the stop check weighs them: a class or module all of whose listed
    tests are causes is one cause (its tests leave the same state behind: setUpClass, a class
    attribute), its rate read from the runs that held any of its tests and no other cause, as its
    evidence line counts them; the other causes as found.  Read one by one, a class confirmed
    with a run or two per test would have a weak lower bound, and the stop check would run the
    rest of the list for it many times over.  With K-fold runs (`k` executions), each with the
    executions of its runs without the other causes (`_executions`)."""
    groups = _scope_groups(problem.predecessors, found)
    grouped = {i for _, _, tests in groups for i in tests}
    every = {i for f in found for i in f.tests}
    units = [f for f in found if not grouped.intersection(f.tests)]
    if k > 1:  # a test, or a pair: the runs that held all of it and no other cause
        units = [replace(f, alone=_executions([o for o in observations if set(f.tests) <= o.included
                                               and not o.included & (every - set(f.tests))], k)) for f in units]
    for scope, key, tests in groups:  # a class or module: the runs that held any of its tests and no other cause
        members, others = frozenset(tests), every - set(tests)
        held = [o for o in observations if o.included & members and not o.included & others]
        confidence = min(f.confidence for f in found if f.tests[0] in members)
        unit = _held(tuple(sorted(tests)), 0.0, confidence, sum(o.count for o in held if o.failed),
                     sum(o.count for o in held), f"any test of {scope} {key}")
        units.append(replace(unit, alone=_executions(held, k)) if k > 1 else unit)
    return tuple(units)


def _executions(runs: Sequence[Observation], k: int) -> _Executions | None:
    """The K-fold `runs` (judged on their first `k` executions; stored runs left out, as a
    stored run's one execution tells no K-fold rate) as `_Executions`; None when one of them
    recorded no executions (a single run)."""
    runs = [o for o in runs if not o.stored]
    if not runs or any(o.executions < k * o.count for o in runs):
        return None
    return _Executions(sum(o.count for o in runs), sum(o.count for o in runs if not o.failed),
                       sum(o.executions for o in runs), sum(o.reproductions for o in runs))


def _held(tests: tuple[int, ...], rate: float, confidence: float, fails: int, runs: int, name: str = "") -> _Found:
    """A cause with its rate read from the runs that held it (what the evidence lines count):
    Jeffreys' mean, so 8/8 reads 0.94, not a certainty that no pass can follow (`rate` only when
    no run held it), with those counts (the stop check reads them, `missed`)."""
    if runs:
        rate = (fails + 0.5) / (runs + 1)
    return _Found(tests, rate, confidence, fails, runs, name)


def _scopes(problem: Problem, t: Tally, found: Sequence[_Found]) -> list[FoundCause]:
    """Group single causes that make up a whole class (or module) of the list into one cause."""
    names = problem.predecessors
    singles = {f.tests[0]: f for f in found if len(f.tests) == 1}
    groups = _scope_groups(names, found)
    taken = {i for _, _, tests in groups for i in tests}
    draft: list[FoundCause] = []
    for scope, key, group in groups:
        fs = [singles[i] for i in group]
        draft.append(FoundCause(scope, key, group, min(f.rate for f in fs), min(f.confidence for f in fs), ()))
    for f in found:
        if len(f.tests) == 1 and f.tests[0] in taken:
            continue
        scope = "test" if len(f.tests) == 1 else "pair"
        name = " + ".join(names[i] for i in f.tests)
        if scope == "test" and name.startswith(IMPORT):  # a module's import, hunted for a victim run first
            scope, name = "module", name[len(IMPORT):]
        draft.append(FoundCause(scope, name, f.tests, f.rate, f.confidence, ()))
    draft.sort(key=lambda c: min(c.tests))
    return [replace(c, evidence=_cause_lines(problem, t, c, draft)) for c in draft]


def _cause_lines(problem: Problem, t: Tally, cause: FoundCause, causes: Sequence[FoundCause]) -> tuple[str, ...]:
    others = [c for c in causes if c is not cause]
    def clean(s: frozenset[int]) -> bool:
        return not any(_active(c, s) for c in others)

    af, ar = counts(t, lambda s: clean(s) and _active(cause, s))
    bf, br = counts(t, lambda s: clean(s) and not _active(cause, s))
    alone_f, alone_r = counts(t, lambda s: bool(s) and s <= set(cause.tests) and _active(cause, s))
    if all(problem.predecessors[i].startswith(IMPORT) for i in cause.tests):
        head = f"importing {cause.name} before it: fails {af}/{ar}, {bf}/{br} without"
    elif cause.scope in ("class", "module"):
        head = (f"any test of {cause.name} before it ({len(cause.tests)} tests; set{'UpClass' if cause.scope == 'class' else 'UpModule'}"
                f" or shared state of the {cause.scope}): fails {af}/{ar} with one of them, {bf}/{br} without")
    else:
        head = f"fails {af}/{ar} with {label(problem, cause.tests)} before it, {bf}/{br} without"
    lines = [head]
    if alone_r:
        lines.append(f"its tests alone before the victim: fails {alone_f}/{alone_r}")
    lines.append(f"rate {cause.rate:.3g}, confidence {cause.confidence:.3f}")
    return tuple(lines)
