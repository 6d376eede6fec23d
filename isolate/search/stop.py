"""When the several-causes search stops looking for more causes (strategies/causes.py): the stop
check.

Once a round has named a cause, the rest of the list (every predecessor but the causes found)
must fail the victim no more than the background, or a further cause is left in it. The check
runs the rest until it has passed often enough that a further cause as strong as the weakest
found (x `--further`) would have shown, with the target confidence, that rate taken as uncertain
as the cause's own runs leave it (`missed`, `check_runs`; `no_failure_left`). A few quick runs of
the cause alone may sharpen that bound first (`sharpen`), and on several workers the rest and the
cause alone run side by side (`beside`).

When the runs repeat the victim and the causes' K-fold runs show their rates per execution
(`by_execution`), and that costs less (`executions_pay`), the rest runs instead with many
executions of the victim after it (`no_cause_left_by_execution`, `reaches`); while the runs are
single, the check's runs still execute the victim `Settings.hedge` times (`hedging`). A later
execution that reproduces the failure is chased (`chase`): the victim alone as many times, then
the rest until a run fails, and the next round looks for that cause.

Everything here is pure: the observations in, a query or the end of the hunt (`End`) out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from isolate.search.batch import makespan
from isolate.search.model import (
    Observation,
    Problem,
    Query,
    Settings,
    fit_runs,
    fits,
    label,
    round_batch,
    run_cost,
    runs_for,
)
from isolate.search.posterior import Answer, Tally
from isolate.search.repeats import per_execution
from isolate.search.scopes import imported
from isolate.words import counted, fraction, probability

DISPERSED = 0.05  # a cause's K-fold runs read per execution unless this few would pass whole (_per_execution)
REACH = 0.2  # with K-fold runs, the stop check rules out causes this many times as strong per execution as
# the strongest found, or as the weakest, whichever is weaker (x --further): executions after the rest are
# cheap (no_cause_left_by_execution, reaches)...
REACH_MOST = 0.1  # ...and always causes failing one execution in ten (x --further)
SHARPEN_MAX = 256  # at most this many more runs of a cause alone to shorten the stop check
STORED_WHY = "as the stored runs suggest"  # why the per-run check rules out `cap` (no_failure_left)


@dataclass(frozen=True)
class Found:
    """A cause found, as the stop check weighs it (strategies/causes.py builds them)."""

    tests: tuple[int, ...]  # original predecessor indices (one test, or a pair)
    rate: float
    confidence: float
    fails: int = 0  # the runs that held it: failures...
    runs: int = 0  # ...of these
    name: str = ""  # how the stop check names it, when it is a whole class or module
    alone: Executions | None = None  # its K-fold runs without the other causes found (causes._units)


def _who(cause: Found, problem: Problem) -> str:
    """How a stop line names a cause: a class's or module's own words, "importing M" for a
    module's import (QA: the line said "as often as import:tabular.tests.m", the candidate's id),
    else its tests' ids."""
    if cause.name:
        return cause.name
    module = imported(problem.predecessors[cause.tests[0]])
    if len(cause.tests) == 1 and module is not None:
        return f"importing {module}"
    return label(problem, cause.tests)


@dataclass(frozen=True)
class Executions:
    """The K-fold runs that held a cause and no other cause found, as the stop check reads its
    strength per execution from them (`_per_execution`)."""

    runs: int
    passed: int  # of them, passed on their first K executions
    executions: int  # every execution of the victim in them...
    reproduced: int  # ...and those that reproduced the failure

    @property
    def rate(self) -> float:
        """The cause's rate per execution of the victim: Jeffreys' mean of reproduced/executions."""
        return (self.reproduced + 0.5) / (self.executions + 1)


@dataclass(frozen=True)
class End:
    """How a round of strategies/causes.py ended when it did not ask for a query."""

    kind: str  # "stop" (no further cause), "budget", "fails-alone", "undecided"
    text: str
    confidence: float = 0.0
    rate: float = 0.0
    leaders: tuple[Answer, ...] = ()
    spent: bool = False  # the budget ended it (always so for kind "budget")


def _others(n: int) -> str:
    """The rest of the list, as the stop check names it: "the 2 other predecessors"."""
    return "the other predecessor" if n == 1 else f"the {n} other predecessors"


def _ask(n: int) -> str:
    return "does the other predecessor" if n == 1 else f"do the other {n} predecessors"


def sharpen(everything: Problem, problem: Problem, found: Sequence[Found], settings: Settings,
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
    next round comes first.  `cap`: as in `beside`."""
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
    who = _who(weakest, everything)
    return Query(weakest.tests, k, f"how surely does {who} fail it? {k} runs of it alone before the victim make the"
                                   " check for further causes shorter", until_failure=False)


def beside(everything: Problem, problem: Problem, found: Sequence[Found], settings: Settings, batch: int,
            budget: tuple[float, float], cap: float, index: Sequence[int]) -> Query | None:
    """The stop check's first wave on W > 1 workers, with runs of the weakest cause alone beside it.

    What `sharpen` weighs for one worker, in wall time: the rest of the list fills the wave, and
    runs of the cause alone (often one quick test) take the places left and follow on the workers
    the rest's runs free, so they cost little wall time, where each wave of the rest costs a whole
    run of it.  Enough of them can leave one wave of the rest to run instead of two (a cause seen
    17/36 needs 9 passes of the rest, one more than 8 workers run at once; after 8 more runs
    alone, 8 do).  So this picks the number of runs alone m (a multiple of W, up to SHARPEN_MAX)
    with the shortest estimated wall time: the batch's makespan, as the Runner starts its runs,
    plus the waves of the rest still needed after it; fewest test seconds on a tie.  None unless
    that saves at least half a run of the rest.  Should the rest fail, the runs alone were cheap;
    they still tell the cause's rate.  `cap` is a rate the check must rule out whatever the
    causes' (stored runs' suspects, see causes._round); the query is in `everything`'s indices."""
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
    who = _who(weakest, everything)
    query = Query(everyone, runs, f"without the causes found: {_ask(n)} still make it fail?"
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


def _trade(everything: Problem, problem: Problem, found: Sequence[Found], settings: Settings, cap: float
           ) -> tuple[Found, int, float, float] | None:
    """What `sharpen` and `beside` weigh: the weakest cause, the passes of the rest every other
    demand needs, and the seconds of a run of the rest and of one of the cause alone; None when
    there is no check to shorten."""
    n = len(problem.predecessors)
    if settings.further <= 0 or not found or n == 0:
        return None
    weakest, others = _weakest(found, settings, cap)
    return weakest, others, run_cost(problem, tuple(range(n))), run_cost(everything, weakest.tests)


def _weakest(found: Sequence[Found], settings: Settings, cap: float) -> tuple[Found, int]:
    """The cause whose check needs the most passes of the rest, and the passes every other
    demand needs (the other causes', and the rate `cap`'s)."""
    weakest = max(found, key=lambda f: _need(f, settings))
    others = max([_need(f, settings) for f in found if f is not weakest] + [_cap_need(cap, settings)])
    return weakest, others


def _need(f: Found, settings: Settings, more: int = 0) -> int:
    """Passes of the rest that rule out a further cause as strong as f (x `further`), had f run
    `more` more times alone failing at its estimated rate (failing every time, while it has)."""
    if f.runs + more <= 0:
        return runs_for(settings.confidence, _floor(f.rate, settings))
    fails = f.fails + (more if f.fails >= f.runs else f.rate * more)
    return check_runs(fails, f.runs + more, settings.further, settings.confidence, settings.rates.p_min,
                      settings.rates.deterministic)


def _miss(f: Found, settings: Settings, k: int) -> float:
    """The chance a further cause as strong as f (x `further`) passes k runs of the rest (as
    `_need` reads f)."""
    if f.runs <= 0:
        return (1.0 - _floor(f.rate, settings)) ** k
    return missed(f.fails, f.runs, k, settings.further, settings.rates.p_min, settings.rates.deterministic)


def _per_execution(f: Found, k: int) -> bool:
    """Whether f's K-fold runs without the other causes found (`k` executions each) show its
    strength per execution of the victim: one of their executions reproduced the failure, and
    they agree with independent executions: as many of them passed their first k executions as
    f's rate per execution allows (a binomial tail of at least DISPERSED).  A cause that bites in
    some processes and not at all in others (a run's executions then fail or pass with its
    process) makes too many runs pass whole, and is read per run."""
    e = f.alone
    if e is None or not e.reproduced:
        return False
    whole = (1.0 - e.rate) ** k  # a run passing its first k executions
    return _at_least(e.passed, e.runs, whole) >= DISPERSED


def hedging(obs: Sequence[Observation], settings: Settings) -> bool:
    """Whether the per-run stop check's runs execute the victim `settings.hedge` times, judged on
    the first as single runs are (`no_failure_left`): while the runs are single, and no run of the
    victim alone reproduced the failure in any execution.  A cause found deterministic says
    nothing of how strong a further one is, and two runs of the rest rule out only another as
    strong; a flaky cause beside it (`multi k=3 p=1+0.5+0.1`) passes them one time in four.  Its
    later executions show it for the price of the victim's, and a reproduction there is chased
    as the check in executions chases one (`chase`: the victim alone as many times first, then
    the rest until a run fails).  The promise stays the per-run check's; the executions only
    find more."""
    if settings.executions != 1 or settings.hedge < 2:
        return False
    return not any(o.failed or o.reproductions for o in obs if not o.included and not o.stored)


def by_execution(obs: Sequence[Observation], found: Sequence[Found], settings: Settings) -> bool:
    """Whether the stop check counts executions of the victim after the rest rather than runs of
    the rest (`no_cause_left_by_execution`): the runs are K-fold, every cause found shows its
    strength per execution (`_per_execution`), and the victim alone ran K-fold and never
    reproduced the failure in any execution (a reproduction after the rest then means a further
    cause, not the background)."""
    k = settings.executions
    alone = [o for o in obs if not o.included and not o.stored]
    return (k > 1 and bool(found) and bool(alone) and all(o.executions >= k * o.count for o in alone)
            and not any(o.failed or o.reproductions for o in alone)
            and all(_per_execution(f, k) for f in found))


def no_cause_left_by_execution(problem: Problem, obs: Sequence[Observation], settings: Settings, batch: int,
                                budget: tuple[float, float], everything: Problem, found: Sequence[Found],
                                cap: float) -> Query | End:
    """The stop check in executions (`by_execution`): the rest of the list runs with as many
    executions of the victim after it as rule out, at the target confidence, a further cause
    failing one execution as often as the weakest cause found does, and one failing it REACH x as
    often as the strongest, whichever is weaker (x `further`; `reaches`), each rate as uncertain
    as the cause's executions leave it (`missed`, per execution: K executions turn a rate r into
    1 - (1 - r)^K per run, as `k_fold_rate` reads a stored run's rate), and one at `cap`'s rate
    per execution x REACH (stored runs' suspects).  Executions after the rest cost a victim each,
    runs of it a start-up and the whole rest, so the check reaches five times weaker causes than
    the per-run check (`no_failure_left`) in fewer seconds: one run of 44 executions rules out a
    cause failing 0.1 of them, where runs of 10 would take 5.  Each run is still judged on its
    first K executions by the search.  Should a later execution after the rest reproduce the
    failure, a further cause may be there, or the victim's own rate, too low for the runs of it
    alone so far to show: the victim alone first runs as many executions (a reproduction there
    ends this check: `by_execution`); if none reproduced, the rest runs K-fold until a run fails
    (the next round then looks for the cause), up to as many runs as its rate per execution shows
    in the target confidence."""
    n = len(problem.predecessors)
    k = settings.executions
    rest = rest_runs(problem, obs)
    rates = settings.rates
    every = tuple(range(n))
    each = problem.victim_duration  # one execution (a run's other K - 1 are in the start-up, as measured)
    seen, ran = sum(o.reproductions for o in rest), sum(o.executions for o in rest)
    if seen:  # (in the runs of more than K executions: one of K that reproduced failed, and ends the check)
        return chase(problem, obs, settings, batch, budget)
    reach = reaches(found, settings.further)

    def need_of(f: Found) -> int:
        return _executions_needed([f], settings, 1.0, reach)

    need = _executions_needed(found, settings, cap, reach)
    weakest = max(found, key=need_of)
    e = weakest.alone or Executions(0, 0, 0, 0)
    who = _who(weakest, everything)
    what = (f"a cause failing an execution {reach[weakest]:.2g}x as often as {who} ({e.reproduced}/{e.executions} of"
            " the executions after it)")
    if ran >= need:
        misses = [missed(f.alone.reproduced, f.alone.executions, ran, reach[f], rates.p_min, rates.deterministic)
                  for f in found if f.alone is not None]
        if cap < 1.0:
            misses.append((1.0 - _cap_floor(cap, settings)) ** ran)
        conf = 1.0 - max(misses)
        runs = sum(o.count for o in rest)
        return End("stop", (f"no further cause: {ran} executions of the victim after {_others(n)}"
                             f" ({counted(runs, 'run')}) all passed, so {what} would have shown (confidence {probability(conf)})"),
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
        return End("budget", f"more may remain: the budget ran out after {ran} executions of the victim after"
                              f" {_others(n)} ({need} would rule out {what})")
    return Query(every, runs, (f"without the causes found: {_ask(n)} still make it fail? {per}"
                               f" executions of the victim after them{' a run' if runs > 1 else ''}, to rule out"
                               f" {what}"), until_failure=False, executions=per)


def chase(problem: Problem, obs: Sequence[Observation], settings: Settings, batch: int,
           budget: tuple[float, float]) -> Query | End:
    """Executions of the victim after the rest (of runs of more than K, `settings.executions`)
    reproduced the failure, though no run did in its first K: a further cause may be there, or
    the victim's own rate, too low for the runs of it alone so far to show.  The victim alone first
    runs as many executions (a reproduction there ends the check in executions, `by_execution`,
    and the hedge, `hedging`); if none reproduced, the rest runs K-fold until a run fails (the
    next round then looks for the cause), up to as many runs as its rate per execution shows in
    the target confidence."""
    n = len(problem.predecessors)
    k = settings.executions
    rest = rest_runs(problem, obs)
    every = tuple(range(n))
    seen, ran = sum(o.reproductions for o in rest), sum(o.executions for o in rest)
    wide = sum(o.executions for o in rest if o.executions > k * o.count)
    alone = sum(o.executions for o in obs if not o.included and not o.stored)
    if alone < wide:  # first the victim alone as many times: its own rate may be what showed
        return Query((), 1, (f"without the causes found: {seen} of {ran} executions of the victim after"
                             f" {_others(n)} reproduced the failure; the victim alone {wide} times, to"
                             " tell a further cause from its own rate"), until_failure=False, executions=wide)
    runs = sum(o.count for o in rest if o.executions <= k * o.count)  # K-fold runs since (all passed)
    most = _chase_runs(seen, wide, k, settings.confidence)
    more = fit_runs(round_batch(max(1, most - runs), batch), run_cost(problem, every), budget)
    first = "first execution" if k == 1 else f"first {k} executions"
    if runs >= most or more < 1:
        return End("budget", (f"more may remain: executions of the victim after {_others(n)}"
                               f" reproduced the failure ({seen}/{ran}), yet none of their {counted(runs, 'run')} did in"
                               f" its {first}"))
    return Query(every, more, (f"without the causes found: {seen} of {ran} executions of the victim after"
                               f" {_others(n)} reproduced the failure, none in a run's {first}:"
                               f" until a run does"))


def _chase_runs(seen: int, wide: int, k: int, confidence: float) -> int:
    """Runs of K executions that fail at least once with `confidence`, for a rate per execution
    read from `seen` of `wide` executions: averaged over what they say of it (Jeffreys' Beta),
    not at its estimate, which a lucky stretch of executions makes too high (12/46 of a cause
    at 0.1 read as 0.26 asks for 2 runs of 10, which pass together one time in eight).  The
    chance that n runs pass is `_beta_missed` at f = 1 and k x n executions, here in closed form
    (Beta functions), so that a low rate's thousands of runs cost no product over each."""
    a, b = seen + 0.5, wide - seen + 0.5
    base = math.lgamma(a + b) - math.lgamma(b)
    n = 1
    while n < 10_000 and math.exp(base + math.lgamma(b + k * n) - math.lgamma(a + b + k * n)) > 1.0 - confidence:
        n += 1
    return n


def _executions_needed(found: Sequence[Found], settings: Settings, cap: float, reach: dict[Found, float]) -> int:
    """Executions of the victim after the rest, all passing, that rule out what the stop check in
    executions rules out (`no_cause_left_by_execution`)."""
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


def executions_pay(problem: Problem, obs: Sequence[Observation], settings: Settings, found: Sequence[Found],
                    cap: float, floor: float = 1.0) -> bool:
    """Whether the stop check runs in executions (`by_execution` allowing it): once it has begun,
    or when its executions cost no more seconds than the runs of the rest the per-run check still
    needs (`no_failure_left`).  A cause confirmed on a few runs (a false one, drawn from a
    background the runs of the victim alone have not shown yet) leaves weak causes open, and
    ruling them out per execution takes hundreds; the per-run check then is the cheaper."""
    n, k = len(problem.predecessors), settings.executions
    rest = rest_runs(problem, obs)
    if any(o.executions > k * o.count for o in rest):
        return True
    # (weighed at about the same promise: the per-run check's runs rule out `floor` too, what the
    # check in executions always rules out; a per-run check promising far less won where it should not)
    left = _executions_needed(found, settings, cap, reaches(found, settings.further)) - sum(o.executions for o in rest)
    runs = max([_need(f, settings) for f in found] + [_cap_need(min(cap, floor), settings), 1]) \
        - sum(o.count for o in rest)
    one = run_cost(problem, tuple(range(n)))
    return one + max(0, left - k) * problem.victim_duration <= max(1, runs) * one  # a run of them, against runs


def run_floor(found: Sequence[Found], settings: Settings) -> float:
    """What the per-run stop check of K-fold runs rules out when the check in executions could
    have run instead (`by_execution`) but cost more (`executions_pay`): the rate per execution
    the latter always rules out: as strong per execution as the weakest cause found, or failing
    REACH_MOST of the executions, whichever is weaker, as a rate of runs of K executions, over
    `further` (the unit of `cap`).  Without it the per-run check promised a cause as strong per
    run as the weakest found, which a cause at 0.5 per execution (0.999 per run of 10) makes two
    runs: a further cause at 0.1 per execution (0.65 per run) passes both one time in eight."""
    return k_fold_rate(floor_per_execution(found, settings), settings.executions) / max(settings.further, 1e-9)


def floor_per_execution(found: Sequence[Found], settings: Settings) -> float:
    """`run_floor`'s rate per execution: the weakest cause's, or REACH_MOST, x `further` (at most 1)."""
    return min(1.0, min(min(_rates(found).values()), REACH_MOST) * settings.further)


def _rates(found: Sequence[Found]) -> dict[Found, float]:
    """Each cause's rate per execution, as its executions alone before the victim show it."""
    return {f: f.alone.rate if f.alone else 1.0 for f in found}


def reaches(found: Sequence[Found], further: float) -> dict[Found, float]:
    """How strong a further cause the stop check in executions rules out, as a multiple of each
    cause's rate per execution: as strong as the weakest cause found, or REACH x as strong as the
    strongest, or failing REACH_MOST of the executions, whichever is weakest, x `further`.  One
    cause (rate r <= 0.5): REACH x r.  Causes at 0.5 and 0.1: 0.1 (the weak one as it is, REACH x
    0.5 for the strong one), not 0.02, which would take five times the executions to rule out.
    Causes at 1 and 0.5: 0.1, not REACH x 1, which a third cause at 0.1 passes one time in ten."""
    rate = _rates(found)
    target = min(min(rate.values()), REACH * max(rate.values()), REACH_MOST)
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


def no_failure_left(problem: Problem, t: Tally, settings: Settings, batch: int, budget: tuple[float, float],
                     everything: Problem, found: Sequence[Found], cap: float,
                     why: str = STORED_WHY) -> Query | End:
    """After a cause: no run without the causes found has failed.  Run the rest until a further
    cause `settings.further` as strong as each cause found would have shown with the target
    confidence, each cause's rate as its runs tell it (`missed`: a rate read from a handful of
    runs, 3/3 failures, leaves low rates open, so it must not make the check short), and one at
    `cap` x `further` too (stored runs' suspects)."""
    n = len(problem.predecessors)
    if n == 0:
        return End("stop", "no predecessors are left once the causes found are taken out", 1.0)
    need = max([_need(f, settings) for f in found] + [_cap_need(cap, settings), 1])
    full = frozenset(range(n))
    done = sum(r for s, r in zip(t.sets, t.runs) if s == full)
    if found:
        weakest, _ = _weakest(found, settings, cap)
        who = _who(weakest, everything)
        strong = "as often as" if settings.further >= 1 else f"{settings.further:g}x as often as"
        # beside other causes its runs here hold them too, unlike its cause line's (QA: "4/4 ... and no other
        # cause" there, "13/13 with it" here, read as a contradiction)
        also = ", other causes or not" if len(found) > 1 else ""
        what = f"a cause failing the victim {strong} {who} ({weakest.fails}/{weakest.runs} with it{also})"
    else:
        what = "a cause"
    if cap < 1.0 and _cap_need(cap, settings) >= need:
        what = (f"a cause failing the victim {fraction(_floor(cap, settings))} of the time or more"
                f" ({why})")
    if done >= need:
        misses = [_miss(f, settings, done) for f in found]
        if cap < 1.0:
            misses.append((1.0 - _floor(cap, settings)) ** done)
        conf = 1.0 - max(misses + [0.0])
        return End("stop", (f"no further cause: {_others(n)} passed {done}/{done} runs, so "
                             f"{what} would have shown (confidence {probability(conf)})"), conf)
    k = fit_runs(round_batch(need - done, batch), run_cost(problem, tuple(range(n))), budget)
    if k < 1:
        return End("budget", f"more may remain: the budget ran out after {_others(n)} passed "
                              f"{done} runs ({need} would rule out {what})")
    return Query(tuple(range(n)), k, f"without the causes found: {_ask(n)} still make it fail?")


def rest_runs(problem: Problem, obs: Sequence[Observation]) -> list[Observation]:
    """The new runs (no stored ones) of the whole rest: every predecessor of the round's problem."""
    full = frozenset(range(len(problem.predecessors)))
    return [o for o in obs if o.included == full and not o.stored]


def k_fold_rate(rate: float, k: int) -> float:
    """A stored run's rate (one execution of the victim) as a rate of runs of k executions, each
    failing independently (what the repeat check of isolate.hunt.repeatcheck stands for)."""
    return 1.0 - (1.0 - rate) ** k
