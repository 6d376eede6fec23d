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
from isolate.search.posterior import Answer, Tally, lattice, none_evidence, partition, polluter_evidence
from isolate.search.repeats import CHECK_RUNS
from isolate.search.scopes import IMPORT, class_of, imported, module_of, nearest_scope
from isolate.search.stop import (
    STORED_WHY,
    End,
    Executions,
    Found,
    beside,
    by_execution,
    chase,
    check_runs,
    executions_pay,
    floor_per_execution,
    hedging,
    k_fold_rate,
    no_cause_left_by_execution,
    no_failure_left,
    rest_runs,
    run_floor,
    sharpen,
)
from isolate.search.strategies import bayesian
from isolate.words import counted, fraction, probability, seconds

CONFIRM = 0.999  # the victim alone must fail within runs that show its rate this surely
MEMBER_SHARE = 0.5  # a pair's member alone is ruled out as a cause failing this share of the pair's rate
SCOPE_SHARE = 0.5  # prior share, in a later round, of the other tests of a cause's class
DETERMINISTIC = 0.9  # once every cause found fails the victim this often, further ones are
# a priori as likely to be deterministic as not (the rates prior of later rounds)
STORED_WAVE = 0.7  # a stored suspect failing the victim this often opens the hunt with prefixes (_stored_wave)
PROBE_RUNS = 8  # runs of a classmate alone after which an unclear probe is left to the search


@dataclass(frozen=True)
class _Whole:
    """A query already in the whole problem's indices (it runs a cause found, outside the round)."""

    query: Query


@dataclass(frozen=True)
class _Replay:
    found: tuple[Found, ...]
    action: Query | End | Verdict  # a Verdict only from the reproduce stage
    leaders: tuple[Answer, ...]  # the current round's, in original indices
    units: tuple[Found, ...] = ()  # `found` as the stop check weighed it in the last round (_units)
    view: tuple[Problem, tuple[Observation, ...], tuple[int, ...]] | None = None  # the last round's
    # problem, its observations and its indices' original ones (leading() ranks on all of them)


def decide(problem: Problem, observations: Sequence[Observation], settings: Settings, *,
           batch: int = 1) -> Query | Verdict:
    """The next query, or the verdict naming every cause found."""
    r = _replay(problem, observations, settings, max(1, batch))
    if isinstance(r.action, (Query, Verdict)):
        return r.action
    return _verdict(problem, tally(observations), r.found, r.action, settings, _per_execution_rates(r.units))


def leading(problem: Problem, observations: Sequence[Observation], settings: Settings) -> tuple[Answer, ...]:
    """Causes confirmed so far (probability: their confidence), then the current round's
    leading answers; empty before the first failure. After a cause, a round's empty answer means
    "no further cause", not "fails on its own", and is left out (QA read "leading: A 0.99, fails
    alone 0.97" as a contradiction)."""
    if not any(o.failed for o in observations):
        return ()
    r = _replay(problem, observations, settings, 1)
    done = tuple(Answer(f.tests, f.confidence, f.rate, 0.0) for f in r.found)
    rivals = tuple(a for a in _on_every_run(r, settings) if a.culprits or not done)
    return (done + rivals)[:3]


def _on_every_run(r: _Replay, settings: Settings) -> tuple[Answer, ...]:
    """The round's leading answers on every run of it, not only those of its chain's prefixes:
    while the search inside a prefix (`_which_cause`) runs subsets, the chain's posterior, which
    reads prefixes only, stood still (QA: "leading: A 0.59" for 230 runs, while the runs had
    cleared A and reproduced with B). For the display only: the search decides as before."""
    if r.view is None:
        return r.leaders
    sub, obs, index = r.view
    if not any(o.failed for o in obs):
        return r.leaders
    cells = partition(len(sub.predecessors), tally(obs).sets)  # tests no run told apart (memoised:
    ranked: list[Answer] = []  # bayesian.leading made it), each as likely as the one it names
    for a in bayesian.leading(sub, obs, settings):
        tied = cells.members[cells.cell_of[a.culprits[0]]] if len(a.culprits) == 1 else (None,)
        ranked += [replace(a, culprits=a.culprits if i is None else (i,)) for i in tied]
    ranked.sort(key=lambda a: -a.probability)  # (stable: the ties stay in the suite's order)
    return tuple(Answer(tuple(index[i] for i in a.culprits), a.probability, a.p, a.q) for a in ranked[:3])


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
    found: list[Found] = []
    index = list(range(len(problem.predecessors)))  # round problem index -> original index
    sub, obs = problem, tuple(observations)
    while True:
        units = _units(problem, observations, found, settings.executions)
        step = _round(sub, obs, settings, batch, t, [problem.predecessors[i] for f in found for i in f.tests],
                      min((f.rate for f in units), default=0.0), problem, units, index)
        leaders = tuple(Answer(tuple(index[i] for i in a.culprits), a.probability, a.p, a.q)
                        for a in step[1])
        action = step[0]
        view = (sub, obs, tuple(index))
        if isinstance(action, _Whole):
            return _Replay(tuple(found), action.query, leaders, view=view)
        if isinstance(action, Query):
            action = action.mapped(index)
            return _Replay(tuple(found), action, leaders, view=view)
        if isinstance(action, End):
            return _Replay(tuple(found), replace(action, leaders=leaders), leaders, units, view)
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
           found_ids: list[str], weakest: float, everything: Problem, found: tuple[Found, ...],
           index: Sequence[int]) -> tuple[Query | _Whole | End | tuple[tuple[int, ...], float, float],
                                          tuple[Answer, ...]]:
    """One round: a query, the end of the hunt, or a confirmed cause (tests, rate, confidence).
    `everything` is the whole hunt and `found` the causes found so far, in its indices; `index`
    maps this round's predecessors to them."""
    n = len(problem.predecessors)
    t = tally(obs)
    later = bool(found_ids)
    budget = budget_left(settings, whole)
    if later and settings.further <= 0:
        return End("stop", "stopped at the first cause (--further 0): others may remain"), ()
    base = settings  # the stop check reads the found causes' rates under the hunt's own prior
    if later and weakest >= DETERMINISTIC:  # every cause so far bit (nearly) every time
        settings = replace(settings, rates=replace(settings.rates,
                                                   deterministic=max(settings.rates.deterministic, 0.5)))
    chain = threshold.cost_chain(problem)
    # stored runs (other orders) are the chain's prior, new runs its likelihood (stored.py), and
    # only new runs show what a test alone does (a stored run ran the victim once, in another order)
    own = tally(o for o in obs if not o.stored) if any(o.stored for o in obs) else t
    # ...but a stored run that passed without a test is evidence of the victim's own rate, against
    # which that test's runs alone are weighed (`_background`), while the runs are single runs too
    past = tally(o for o in obs if o.stored) if own is not t and settings.executions == 1 else None
    if later:
        probe = _probe_classmates(problem, own, chain, found_ids, settings, batch, budget, past)
        if probe is not None:
            return probe, ()
    weight = _scope_weight(problem, chain, found_ids)
    pri = stored.prior(chain, weight, settings.prior_none, obs, settings)
    chain, weight = pri.chain, pri.weight
    if later and (n == 0 or own.total_fails == 0):  # stored failures are the prior's: only new runs count here
        done = sum(r for s, r in zip(own.sets, own.runs) if len(s) == n)  # passes of the rest (none failed)
        cap, why = 1.0, STORED_WHY
        if pri.suspects and pri.beyond < 0.5:
            # stored runs failed without the causes found, and point at a further one: the check
            # rules out the rate they give it too (stale ones give it their own, seldom lower)
            cap = k_fold_rate(pri.rate, settings.executions) / settings.further
        if by_execution(obs, found, base):
            floor = run_floor(found, base)
            if executions_pay(problem, obs, base, found, cap, floor):
                return no_cause_left_by_execution(problem, obs, base, batch, budget, everything, found, cap), ()
            if floor < cap:  # the per-run check promises as much
                each = floor_per_execution(found, base)
                cap, why = floor, (f"in runs of {base.executions} executions, as a cause failing {fraction(each, 2)} of"
                                   " the executions does")
        hedge = hedging(obs, base)
        if hedge and any(o.reproductions for o in rest_runs(problem, obs)):
            return chase(problem, obs, base, batch, budget), ()
        sharper = sharpen(everything, problem, found, base, batch, budget, max(1, done), cap)
        if sharper is not None and done:
            return _Whole(sharper), ()
        check = no_failure_left(problem, own, base, 1, budget, everything, found, cap, why)
        if hedge and isinstance(check, Query):
            check = replace(check, executions=base.hedge,
                            reason=f"{check.reason}, each executing the victim {base.hedge} times (judged on the"
                                   " first: a flaky cause beside the ones found shows in a later one)")
        if isinstance(check, Query) and batch > 1 and not done:
            wide = beside(everything, problem, found, base, batch, budget, cap, index)
            if wide is not None:
                return _Whole(wide), ()
        if sharper is not None:  # first one batch of the rest: while it fails, more causes remain
            check = replace(check, runs=min(check.runs, batch)) if isinstance(check, Query) else check
        if isinstance(check, Query) and batch > 1:
            # free places in the batch: the next round's first prefixes, in case the rest fails
            th = threshold.infer(chain, own, settings, pri.beyond, weight, pri.suspects)
            more = threshold.spread(th, batch - check.runs)
            both = replace(check, until_failure=False, alongside=more,
                           reason=f"{check.reason}; beside it, {counted(len(more), 'shorter list')} in case it does")
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
        if not own.total_runs and pri.suspects and pri.rate >= STORED_WAVE:
            wave = _stored_wave(problem, th, settings, batch, budget)
            if wave is not None:
                return wave, leaders
        again = _reproduce_whole(problem, th, settings, batch, budget, obs)
        if again is not None:
            return again, leaders
    if mass >= settings.confidence and lead < 0:
        if later:
            return End("stop", (f"no further cause raises the rate {settings.rates.min_ratio:g}x over the "
                                 f"background (confidence {probability(mass)})"), mass), leaders
        return _fails_alone(problem, th, settings, batch, budget, mass), leaders
    shown = _shown_alone(problem, own, settings, past)
    if shown is not None:
        return shown, leaders
    compare = _compare_alone(problem, own, batch, budget, past)
    if compare is not None:
        return compare, leaders
    pair = _shown_pair(problem, own, settings, batch, budget, past)
    if pair is not None:
        return pair, leaders
    # A leader the stored runs alone made (its prefix never failed in a new run) is tested by
    # the chain's own queries first: the search inside would open by reproducing the prefix,
    # runs doubling, for ever if the stored runs were stale.
    made = own is not t and lead >= 0 and not th.fails[lead + 1]
    if mass >= settings.verify_from and not made:
        # Once a prefix leads, the single/pair search inside it verifies more cheaply (the
        # suspect alone) than more runs of the long prefixes; should it find no cause there
        # (the leader was wrong), the chain search goes on.
        step = _which_cause(problem, obs, chain[:lead + 1], settings, batch, whole, budget)
        if mass >= settings.confidence or not (isinstance(step, End) and step.kind == "undecided"):
            return step, leaders
    query = threshold.choose(th, problem, settings, batch, own.total_runs)
    if query.alongside and not fits(problem, query, budget):  # then one list at a time
        query = threshold.choose(th, problem, settings, 1, own.total_runs)
    k = fit_runs(query.runs, run_cost(problem, query.included), budget)
    if k < 1:
        if not later and lead < 0 and th.fails[0]:
            # the victim failed alone, so no earlier test is needed: say so, not "undecided"
            return End("fails-alone", (f"the victim fails on its own ({th.fails[0]}/{th.runs[0]} alone); that no"
                                        f" earlier test raises its rate {settings.rates.min_ratio:g}x is not settled"
                                        f" (probability {probability(mass)}): the budget ran out"), mass, th.beyond_q,
                       spent=True), leaders
        return End("budget", "the budget ran out", leaders=leaders), leaders
    return replace(query, runs=min(k, query.runs)), leaders


def _reproduce_whole(problem: Problem, th: threshold.Threshold, settings: Settings, batch: int,
                     budget: tuple[float, float], obs: Sequence[Observation]) -> Query | None:
    """The whole list until it fails, when the failures so far are all of lists that are no
    prefix of the chain (stored runs of other orders, isolate.hunt.history): the chain then has
    no failing prefix to split, and its search would grope along prefixes expected to fail at the
    background rate. So the hunt first reproduces the failure in its own order, as one without
    stored runs does (runs doubling, up to reproduce_cap); None when that is done or spent.

    When this hunt's own single runs, made before repeats started (`Observation.here`), failed,
    the failure has reproduced here already, and the chain's prior leads with their tests: the
    shortest prefix of the chain that holds one of their failing lists is enough to reproduce it
    in runs that repeat the victim (a run of the whole list, of every test, costs more)."""
    n = len(problem.predecessors)
    position = {i: j for j, i in enumerate(th.chain)}
    length = min((max((position[i] for i in o.included), default=-1) + 1 for o in obs if o.here and o.failed),
                 default=n) or n  # the victim alone failed (length 0): its own rate, no prefix to start from
    done = th.runs[length]  # runs of that prefix (the whole list: the chain's longest)
    cap = reproduce_cap(settings)
    included = tuple(sorted(th.chain[:length]))
    k = fit_runs(round_batch(min(cap - done, max(1, done)), batch), run_cost(problem, included), budget)
    if n == 0 or done >= cap or k < 1:
        return None
    if length < n:
        return Query(included, k, f"the first {length} of {n} predecessors, the shortest that hold a list of this"
                                  f" hunt's single runs that failed: does it fail in runs that repeat the victim"
                                  f" too? ({counted(done, 'run')} of it)")
    if any(o.here and o.failed for o in obs):  # one of this hunt's single runs of the whole list failed
        return Query(included, k, f"full list: a single run of it failed in this hunt; does it fail in runs that"
                                  f" repeat the victim too? ({counted(done, 'run')} of it)")
    return Query(included, k, f"full list: stored runs failed, this order not yet ({counted(done, 'run')} of it)")


def _stored_wave(problem: Problem, th: threshold.Threshold, settings: Settings, batch: int,
                 budget: tuple[float, float]) -> Query | None:
    """The first wave of a hunt whose stored runs failed (in other orders) and single out a suspect
    that failed them often (STORED_WAVE): as `_open` does without stored runs, the prefixes that
    split the chain's suspicion, which here leads with the suspects, instead of the whole list.
    Should one fail, the failure is reproduced in this order and bracketed at once; should all
    pass (stale stored runs), the whole list runs next, as it would have first.  None when the
    suspicion leaves no shorter prefix."""
    prefixes = [included for included, _ in threshold.spread(th, batch)]
    if not prefixes:
        return None
    m = len(problem.predecessors)
    shown = ", ".join(str(len(p)) for p in prefixes)
    what = ("the predecessor stored runs suspect most, alone" if [len(p) for p in prefixes] == [1] else
            f"the first {shown} of {m} predecessors, the stored runs' suspects first, splitting the suspicion")
    reason = (f"{what}: does the failure reproduce in this order? (if {'it passes' if len(prefixes) == 1 else 'all pass'},"
              " the full list runs next)")
    query = _alone_beside(problem, _wave(prefixes, batch, reason), settings, batch)
    return query if fits(problem, query, budget) else None


def _wave(prefixes: Sequence[tuple[int, ...]], batch: int, reason: str) -> Query:
    """A first wave (`_open`, `_stored_wave`): each prefix at once, the batch's runs shared out
    (places beyond the distinct prefixes: the quickest again)."""
    runs = share(batch, len(prefixes))
    return Query(prefixes[0], runs[0], reason, until_failure=False, alongside=tuple(zip(prefixes[1:], runs[1:])))


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
    longest = run_cost(problem, prefixes[-1])
    if len(prefixes) == 1:
        k = len(prefixes[0])
        held = sum(th.weights[:k]) / sum(th.weights)
        reason = (f"the {k} quickest of {m} predecessors, holding {held:.0%} of the suspicion: does the failure"
                  f" reproduce? (if it passes, the full list runs next; {seconds(longest)} per run)")
    else:
        shown = ", ".join(str(len(p)) for p in prefixes)
        reason = (f"{len(prefixes)} lists at once, the {shown} quickest of {m} predecessors, splitting the suspicion"
                  f" evenly: does the failure reproduce? (if all pass, the full list runs next; up to"
                  f" {seconds(longest)} per run)")
    query = _alone_beside(problem, _wave(prefixes, batch, reason), settings, batch)
    return query if fits(problem, query, budget) else first


def _alone_beside(problem: Problem, wave: Query, settings: Settings, batch: int) -> Query:
    """A first wave on W workers (`_open`, `_stored_wave`) with the victim alone in its idle
    time: as many runs of it as end before the wave's longest list does (the Runner's schedule,
    `makespan`), up to CHECK_RUNS, when the runs execute the victim more than once (executions
    ahead of the check, or --repeat-victim: `executions`, `hedge`).  Such runs are read K-fold
    only after a check of runs of the victim alone (isolate.search.repeats.check_next), which
    counts these: the check then needs no wave of its own, or a shorter one.  Each run is also
    what any search asks of the victim alone: does it fail on its own?"""
    k = max(settings.executions, settings.hedge)
    if batch < 2 or k < 2:
        return wave
    extra = (k - settings.executions) * problem.victim_duration  # the judged executions are in the start-up
    lists = wave.lists()
    costs = [run_cost(problem, s) + extra for s, _ in lists]
    runs = [r for _, r in lists]
    base = makespan(costs, runs, batch)
    alone = run_cost(problem, ()) + extra
    r = 0
    while r < CHECK_RUNS and makespan(costs + [alone], runs + [r + 1], batch) <= base:
        r += 1
    if r == 0:
        return wave
    return replace(wave, alongside=wave.alongside + (((), r),),
                   reason=f"{wave.reason}; beside them, the victim alone {r} times, in the wave's idle time")


def _fails_alone(problem: Problem, th: threshold.Threshold, settings: Settings, batch: int,
                 budget: tuple[float, float], mass: float) -> Query | End:
    """No prefix raises the rate: the victim fails on its own, once it has failed alone."""
    fails, runs = th.fails[0], th.runs[0]
    rate = th.beyond_q
    if fails:
        return End("fails-alone", (f"no predecessor raises the failure rate {settings.rates.min_ratio:g}x or "
                                    f"more: probability {probability(mass)}{settings.rates.weak_claim()}"), mass, rate)
    need = runs_for(CONFIRM, min(1.0, max(rate, settings.rates.p_min)))
    if runs >= need:
        return End("undecided", (f"not confirmed: the victim alone passed {counted(runs, 'run')} in a row, expected to fail "
                                  f"at {fraction(rate)}; the failure may need several tests (a cumulative leak) or "
                                  "something the model does not cover"), mass, rate)
    k = fit_runs(round_batch(need - runs, batch), run_cost(problem, ()), budget)
    if k < 1:
        return End("budget", "budget spent before the victim failed alone", mass, rate)
    return Query((), k, f"confirm: the victim alone should fail (rate {fraction(rate)}); until it does, up to "
                        f"{counted(k, 'run')}")


def _which_cause(problem: Problem, obs: tuple[Observation, ...], prefix: Sequence[int], settings: Settings,
                 batch: int, whole: Tally, budget: tuple[float, float]
                 ) -> Query | End | tuple[tuple[int, ...], float, float]:
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
        check = _both_needed(sub, t, v, settings, batch, budget)
        if check is not None:
            return check.mapped(keep)
    if v.kind == "polluter":
        return tuple(keep[i] for i in v.culprits), v.p, v.confidence
    if v.kind == "undecided" and v.confidence < settings.confidence:
        return End("budget", "the budget ran out", v.confidence)
    return End("undecided", "; ".join(v.evidence[-1:]) or v.kind, v.confidence)


def _probe_classmates(problem: Problem, t: Tally, chain: Sequence[int], found_ids: list[str],
                      settings: Settings, batch: int, budget: tuple[float, float], past: Tally | None = None
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
    setUpModule: once the classes are done, its other tests are probed the same way. So is the
    file of a pytest function that is a cause, which has no class (QA: a module-scoped fixture's
    three tests were found one by one, as three causes)."""
    names = problem.predecessors
    classes = sorted({c for c in (class_of(i) for i in found_ids) if c is not None})
    left = {class_of(names[m]) for m in chain}
    whole = [c for c in classes if c not in left and sum(class_of(i) == c for i in found_ids) > 1]
    modules = sorted({m for m in (module_of(i) for i in found_ids if class_of(i) in whole) if m is not None}
                     # a pytest function's nearest scope is its file (a module-scoped fixture, import-time state)
                     | {m for m in (module_of(i) for i in found_ids if class_of(i) is None) if m is not None})
    lat = lattice(settings.rates)
    scopes = [("class", c, class_of) for c in classes] + [("module", m, module_of) for m in modules]
    together_probes: list[tuple[tuple[int, ...], str]] = []  # (the mates, the scope's name)
    for scope, key, of in scopes:
        mates = [m for m in chain if of(names[m]) == key]
        if not mates:
            continue
        causes = sum(of(i) == key for i in found_ids)
        alone = {m: counts(t, frozenset({m}).__eq__) for m in mates}  # (fails, runs) of each alone
        passed = sum(1 for f, r in alone.values() if r and not f)
        odds = (causes + 1) / (passed + 1)
        for m, (f, r) in alone.items():  # already shown a cause alone (each call replays the rounds
            if f and not together_probes:  # anew, and an earlier round may now name another of them first)
                conf, pm = _alone(lat, f, r, *_background(t, m, past), odds)
                if conf >= settings.confidence:
                    return (m,), pm, conf
        f, r = counts(t, frozenset(mates).__eq__)
        together = causes < 2 or passed > 0
        if len(mates) > 1 and not r and together:
            together_probes.append((tuple(sorted(mates)), key))
            if batch < 2:
                break
            continue
        if together_probes:
            continue  # beside a scope's first probe go only the other scopes' first probes
        if len(mates) > 1 and r and not f:
            continue  # the rest of the scope passed: the search decides
        for m, (f, r) in alone.items():
            if r and (not f or r >= PROBE_RUNS):
                continue  # passed alone, or still unclear after PROBE_RUNS: the search decides
            who = names[m]
            if f and _background(t, m, past)[1] < r:
                return _probe(problem, (), f"is {who} a cause too? the victim alone, to compare", batch, budget)
            return _probe(problem, (m,), f"is {who} a cause too, like another test of its {scope}? alone before the"
                                         " victim", batch, budget)
    return _probe_together(problem, together_probes, batch, budget) if together_probes else None


def _probe_together(problem: Problem, probes: Sequence[tuple[tuple[int, ...], str]], batch: int,
                    budget: tuple[float, float]) -> Query | None:
    """The other tests of each scope, together alone before the victim: on W workers the first
    probes of several scopes (a pair's two classes, several causes' classes) share one wave, as
    many runs of each as W holds, instead of a wave each; each answers its own question, whatever
    the others do. One scope, or one worker: that scope's probe alone, W runs of it."""
    what = [f"the other {len(mates)} tests of {key}" for mates, key in probes[:batch]]
    if len(what) > 1:
        runs = share(batch, len(what))
        query = Query(probes[0][0], runs[0], f"{len(what)} lists at once: do {', '.join(what[:-1])} or {what[-1]}"
                      " make it fail too? each alone before the victim",
                      alongside=tuple((mates, r) for (mates, _), r in zip(probes[1:], runs[1:])))
        if fits(problem, query, budget):
            return query
    return _probe(problem, probes[0][0], f"do {what[0]} make it fail too? they alone before the victim", batch, budget)


def _alone(lat: Any, f: int, r: int, f0: int, r0: int, odds: float = 1.0) -> tuple[float, float]:
    """How sure runs of one test alone before the victim (f/r failed) make it a cause, against
    the victim's own rate (f0/r0 failed, `_background`), at prior odds `odds` (even by default);
    and its expected rate."""
    lp, pm, _ = polluter_evidence(lat, f, r - f, f0, r0 - f0)
    ln, _ = none_evidence(lat, f + f0, r - f + r0 - f0)
    return 1.0 / (1.0 + math.exp(min(700.0, ln - lp)) / odds), pm


def _background(t: Tally, m: int, past: Tally | None = None) -> tuple[int, int]:
    """The victim's own rate, against which runs of test m alone before it are weighed: failures
    and runs of the victim alone, and the passes of every other test alone before it that never
    failed it; and with `past` (stored runs, as single runs as the new ones), the stored runs
    without m that passed. In a model where causes only add failures, a list without m that passed
    says of the victim's own rate what a pass alone says, whatever else ran in it; a stored run
    without m that failed may have failed for another cause, so it is left out (counted as the
    victim's own, it made every test of a class fixture wait for passes alone to outweigh its
    classmates' failures)."""
    f0, r0 = counts(t, frozenset().__eq__)
    r0 += sum(r for s, f, r in zip(t.sets, t.fails, t.runs) if len(s) == 1 and m not in s and not f)
    if past is not None:
        r0 += sum(r for s, f, r in zip(past.sets, past.fails, past.runs) if m not in s and not f)
    return f0, r0


def _shown_alone(problem: Problem, t: Tally, settings: Settings, past: Tally | None = None
                 ) -> tuple[tuple[int, ...], float, float] | None:
    """A test that, alone before the victim, has failed it often enough against the victim's own
    rate (`_background`) is a cause by intervention, whatever else the posterior believes.  This
    is what ends a round whose prefix holds two causes (the single-cause search there would weigh
    them against each other for ever)."""
    lat = lattice(settings.rates)
    for s, f, r in sorted(zip(t.sets, t.fails, t.runs), key=lambda x: sorted(x[0])):
        if len(s) == 1 and f:
            conf, pm = _alone(lat, f, r, *_background(t, next(iter(s)), past))
            if conf >= settings.confidence:
                return tuple(s), pm, conf
    return None


def _shown_pair(problem: Problem, t: Tally, settings: Settings, batch: int, budget: tuple[float, float],
                past: Tally | None = None) -> Query | tuple[tuple[int, ...], float, float] | None:
    """A test that needs a partner, and any of several will do (eppy: `test_IDF` after any of 89
    tests): every two-test list of it and one partner fails, so the pair hypotheses split, each
    failing list counts against the others, and the single-cause search weighs them against each
    other for ever (the run ended undecided after 96 runs). Once two two-test lists sharing one
    test have each failed it `confidence` surely against the victim's own rate (`_background`),
    and that test alone passed, the pair whose list failed most is named by intervention, as
    `_both_needed` names a pair: each member alone passes as many runs as would show the pair's
    rate at CONFIRM. A member alone that never ran, or has runs to go, runs first; one that failed
    alone leaves the round to the search (it may be a cause by itself)."""
    lat = lattice(settings.rates)
    strong: list[tuple[frozenset[int], int, int, float, float]] = []
    for s, f, r in zip(t.sets, t.fails, t.runs):
        if len(s) == 2 and f:
            conf, pm = _alone(lat, f, r, *_background(t, min(s), past))
            if conf >= settings.confidence:
                strong.append((s, f, r, pm, conf))
    shared = sorted({m for x in strong for y in strong if x[0] != y[0] for m in x[0] & y[0]})
    for m in shared:
        fails, runs = counts(t, frozenset({m}).__eq__)
        if fails:
            continue
        if not runs:
            return _probe(problem, (m,), f"{problem.predecessors[m]} alone: lists of it and one other test fail;"
                                         " does it need a partner?", batch, budget)
        s, f, r, pm, conf = max((x for x in strong if m in x[0]), key=lambda x: (x[1], -x[2], sorted(x[0])))
        need = _member_need(pm, f, r, settings)
        for member in sorted(s):
            fails, runs = counts(t, frozenset({member}).__eq__)
            if fails:
                return None
            if runs < need:
                return _member_alone(problem, member, need - runs, batch, budget)
        return tuple(sorted(s)), pm, conf
    return None


def _compare_alone(problem: Problem, t: Tally, batch: int, budget: tuple[float, float],
                   past: Tally | None = None) -> Query | None:
    """Two tests or more that failed every run alone before the victim (two deterministic causes
    in one prefix: the single-cause search there weighs them against each other, for ever) are
    causes by intervention only against the victim's own rate (`_shown_alone`): once one of them
    ran alone PROBE_RUNS times (a wave of W runs each gets there at once), while the victim's own
    runs are fewer than its, the victim alone runs to compare."""
    failed = [(next(iter(s)), r) for s, f, r in zip(t.sets, t.fails, t.runs) if len(s) == 1 and f == r]
    if len(failed) < 2:
        return None
    m, r = max(failed, key=lambda x: (x[1], -x[0]))
    if r < PROBE_RUNS or _background(t, m, past)[1] >= r:
        return None
    return _probe(problem, (), f"{len(failed)} tests each failed it alone: the victim alone, to compare", batch,
                  budget)


def _probe(problem: Problem, included: tuple[int, ...], reason: str, batch: int,
           budget: tuple[float, float]) -> Query | None:
    k = fit_runs(batch, run_cost(problem, included), budget)
    return Query(included, k, reason) if k >= 1 else None


def _both_needed(problem: Problem, t: Tally, v: Verdict, settings: Settings, batch: int,
                 budget: tuple[float, float]) -> Query | None:
    """A pair is named only once each of its tests alone has been seen not to be enough: alone
    before the victim, each passes as many runs as would show the pair's rate at CONFIRM
    (a failure goes into the posterior like any run, which then decides)."""
    f, r = counts(t, frozenset(v.culprits).issubset)
    need = _member_need(v.p, f, r, settings)
    left: list[tuple[int, int]] = []  # (member, the runs alone it still needs)
    for member in v.culprits:
        fails, runs = counts(t, frozenset({member}).__eq__)
        if fails == 0 and runs < need:
            left.append((member, need - runs))
    if not left:
        return None
    if len(left) == 2 and batch > 1:  # on W workers both members at once, their runs sharing the waves
        wanted = [k for _, k in left]
        total = round_batch(sum(wanted), batch)
        extra = share(total - sum(wanted), 2)
        lists = tuple(((m,), k + e) for (m, k), e in zip(left, extra))
        q = Query(lists[0][0], lists[0][1], f"both needed? {problem.predecessors[left[0][0]]} and "
                  f"{problem.predecessors[left[1][0]]}, each alone, should not be enough",
                  until_failure=False, alongside=lists[1:])
        if fits(problem, q, budget):
            return q
    member, k = left[0]
    return _member_alone(problem, member, k, batch, budget)


def _member_need(p: float, f: int, r: int, settings: Settings) -> int:
    """Runs of each member of a pair alone that rule out, at CONFIRM, that member alone failing
    half as often as the pair (`p` its rate, `f` of `r` the runs holding both, other causes'
    lists included), by the fewer of two reckonings:
    - at half the lowest of 0.5, `p` and f/r (a mean from a few runs is often far too high: 3/3
      failures read as 0.99; the cap keeps that from asking too few runs);
    - averaged over what the runs say of the pair's rate (`stop.check_runs`, as the stop check
      rules out a further cause): where the pair failed every one of many runs, its rate is
      surely high and the cap would ask 25 runs for what 11 show."""
    capped = runs_for(CONFIRM, min(0.5, p, f / r) * MEMBER_SHARE if f else 0.25)
    if not f:
        return capped
    return min(capped, check_runs(f, r, MEMBER_SHARE, CONFIRM, settings.rates.p_min, settings.rates.deterministic))


def _member_alone(problem: Problem, member: int, left: int, batch: int, budget: tuple[float, float]
                  ) -> Query | None:
    """Up to `left` more runs of a pair's member alone before the victim (None: no budget)."""
    k = fit_runs(round_batch(left, batch), run_cost(problem, (member,)), budget)
    if k < 1:
        return None
    # (the runs are the progress line's to say: a wave may run more beside this list)
    return Query((member,), k, f"both needed? {problem.predecessors[member]} alone should not be enough")


def _scope_weight(problem: Problem, chain: Sequence[int], found_ids: list[str]) -> Sequence[float] | None:
    """Prior weights along the chain: the other tests of a found cause's class (a pytest
    function's: its file) share SCOPE_SHARE of the prior (setUpClass, class attributes, a
    module-scoped fixture: one scope, several polluters)."""
    classes = {nearest_scope(i) for i in found_ids} - {None}
    if not classes:
        return None
    mates = [nearest_scope(problem.predecessors[i]) in classes for i in chain]
    c = sum(mates)
    if c == 0 or c == len(chain):
        return None
    boost = SCOPE_SHARE / c * (len(chain) - c) / (1.0 - SCOPE_SHARE)
    return [boost if mate else 1.0 for mate in mates]


# ---------------------------------------------------------------------------
# The verdict


def _per_execution_rates(units: Sequence[Found]) -> dict[tuple[int, ...], float]:
    """Each cause's rate per execution of the victim, by its tests, where its K-fold runs without
    the other causes show it (`_units`; a class or module under all its tests)."""
    return {tuple(sorted(f.tests)): f.alone.rate for f in units if f.alone is not None and f.alone.executions}


def _verdict(problem: Problem, t: Tally, found: Sequence[Found], end: End, settings: Settings,
             per_execution: dict[tuple[int, ...], float] | None = None) -> Verdict:
    alts = tuple((a.culprits, a.probability) for a in end.leaders[1:])
    spent = end.spent or end.kind == "budget"
    if not found:
        if end.kind == "fails-alone":
            lines = evidence_lines(problem, t, ()) + (end.text,)
            return Verdict("fails-alone", (), end.confidence, end.rate, end.rate, lines, t.total_runs,
                           t.total_seconds, alts, stop=end.text, spent=spent)
        lead = end.leaders[0] if end.leaders else Answer((), 0.0, 0.0, 0.0)
        lines = evidence_lines(problem, t, lead.culprits) + (end.text,)
        return Verdict("undecided", lead.culprits, lead.probability, lead.p, lead.q, lines, t.total_runs,
                       t.total_seconds, alts, stop=end.text, spent=spent)
    causes = _scopes(problem, t, found, per_execution, settings)
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
                   bf / br if br else 0.0, lines, t.total_runs, t.total_seconds, (), tuple(causes), stop, spent)


def _active(cause: FoundCause, s: frozenset[int]) -> bool:
    if cause.scope == "pair":
        return set(cause.tests) <= s
    return bool(s.intersection(cause.tests))


def _scope_groups(names: Sequence[str], found: Sequence[Found]) -> list[tuple[str, str, tuple[int, ...]]]:
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
            classes = {class_of(names[i]) for i in tests}
            if scope == "module" and len(classes) < 2 and None not in classes:
                continue  # one class: reported as the class (a pytest file's functions have none)
            groups.append((scope, key, tuple(tests)))
            taken.update(tests)
    return groups


def _units(problem: Problem, observations: Sequence[Observation], found: Sequence[Found], k: int
           ) -> tuple[Found, ...]:
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


def _executions(runs: Sequence[Observation], k: int) -> Executions | None:
    """The K-fold `runs` (judged on their first `k` executions; stored runs left out, as a
    stored run's one execution tells no K-fold rate) as `Executions`; None when one of them
    recorded no executions (a single run)."""
    runs = [o for o in runs if not o.stored]
    if not runs or any(o.executions < k * o.count for o in runs):
        return None
    return Executions(sum(o.count for o in runs), sum(o.count for o in runs if not o.failed),
                       sum(o.executions for o in runs), sum(o.reproductions for o in runs))


def _held(tests: tuple[int, ...], rate: float, confidence: float, fails: int, runs: int, name: str = "") -> Found:
    """A cause with its rate read from the runs that held it (what the evidence lines count):
    Jeffreys' mean, so 8/8 reads 0.94, not a certainty that no pass can follow (`rate` only when
    no run held it), with those counts (the stop check reads them, `missed`)."""
    if runs:
        rate = (fails + 0.5) / (runs + 1)
    return Found(tests, rate, confidence, fails, runs, name)


def _scopes(problem: Problem, t: Tally, found: Sequence[Found], per_execution: dict[tuple[int, ...], float] | None,
            settings: Settings) -> list[FoundCause]:
    """Group single causes that make up a whole class (or module) of the list into one cause;
    each with its rate per execution where `per_execution` has it (by its tests). A class or
    module's rate is that of the runs holding any of its tests and no other cause, against the
    runs holding no cause (as a test's is read: `posterior.polluter_evidence`), not the lowest
    of its members' rates, which rest on their few runs alone each."""
    names = problem.predecessors
    singles = {f.tests[0]: f for f in found if len(f.tests) == 1}
    groups = _scope_groups(names, found)
    taken = {i for _, _, tests in groups for i in tests}
    draft: list[FoundCause] = []
    for scope, key, group in groups:
        fs = [singles[i] for i in group]
        least = min(fs, key=lambda f: f.rate)
        draft.append(FoundCause(scope, key, group, least.rate, min(f.confidence for f in fs), (), fails=least.fails,
                                held=least.runs))
    for f in found:
        if len(f.tests) == 1 and f.tests[0] in taken:
            continue
        scope = "test" if len(f.tests) == 1 else "pair"
        name = " + ".join(names[i] for i in f.tests)
        if scope == "test" and (module := imported(name)) is not None:  # hunted for a victim run first
            scope, name = "module", module
        draft.append(FoundCause(scope, name, f.tests, f.rate, f.confidence, (), fails=f.fails, held=f.runs))
    draft = sorted((replace(c, per_execution=(per_execution or {}).get(tuple(sorted(c.tests)))) for c in draft),
                   key=lambda c: min(c.tests))
    if groups:
        lat = lattice(settings.rates)
        bf, br = counts(t, lambda s: not any(_active(c, s) for c in draft))
        pooled = []
        grouped = {tuple(group) for _, _, group in groups}
        for c in draft:
            if c.tests in grouped:
                af, ar = _held_by(t, c, draft)
                if ar:
                    c = replace(c, rate=polluter_evidence(lat, af, ar - af, bf, br - bf)[1], fails=af, held=ar)
            pooled.append(c)
        draft = pooled
    return [replace(c, evidence=_cause_lines(problem, t, c, draft)) for c in draft]


def _held_by(t: Tally, cause: FoundCause, causes: Sequence[FoundCause]) -> tuple[int, int]:
    """The runs holding `cause` and none of the other `causes`: how many failed, of how many."""
    return counts(t, lambda s: _active(cause, s) and not any(_active(c, s) for c in causes if c is not cause))


def _cause_lines(problem: Problem, t: Tally, cause: FoundCause, causes: Sequence[FoundCause]) -> tuple[str, ...]:
    others = [c for c in causes if c is not cause]
    def clean(s: frozenset[int]) -> bool:
        return not any(_active(c, s) for c in others)

    af, ar = _held_by(t, cause, causes)
    bf, br = counts(t, lambda s: clean(s) and not _active(cause, s))
    alone_f, alone_r = counts(t, lambda s: bool(s) and s <= set(cause.tests) and _active(cause, s))
    # beside other causes the counts are of runs without them (QA read "0/11 without" of a cause whose
    # 4 runs all failed, one of them beside another cause, as its runs without it)
    only, without = (" and no other cause", f"{bf}/{br} with no cause") if others else ("", f"{bf}/{br} without")
    if all(problem.predecessors[i].startswith(IMPORT) for i in cause.tests):
        head = f"importing {cause.name} before it{only}: fails {af}/{ar}, {without}"
    elif cause.scope in ("class", "module"):
        pytest = "::" in problem.predecessors[cause.tests[0]]  # its fixtures of that scope, not setUpClass's
        how = (f"a {cause.scope}-scoped fixture, setup_{cause.scope}" + (", its import" if cause.scope == "module" else "")
               if pytest else f"set{'UpClass' if cause.scope == 'class' else 'UpModule'}")
        head = (f"any test of {cause.name} before it ({len(cause.tests)} tests; {how} or shared state of the"
                f" {cause.scope}): fails {af}/{ar} with one of them{only}, {without}")
    else:
        head = f"fails {af}/{ar} with {label(problem, cause.tests)} before it{only}, {without}"
    lines = [head]
    if alone_r:
        lines.append(f"its tests alone before the victim: fails {alone_f}/{alone_r}")
    if cause.scope == "test" and (owner := class_of(problem.predecessors[cause.tests[0]])) is not None \
            and sum(class_of(name) == owner for name in problem.predecessors) == 1:
        # QA: a setup_class polluter whose class had one test on the worker was named as that test
        lines.append(f"the only test of {owner} in the list: its class's set-up or shared state acts alike,"
                     " and no other test of the class ran to tell them apart")
    each = "" if cause.per_execution is None else f" ({fraction(cause.per_execution, 2)} per execution)"
    lines.append(f"rate {fraction(cause.rate)}{each}, confidence {probability(cause.confidence)}")  # (last: see report)
    return tuple(lines)
