"""The victim repeated in one process (`isolate bisect --repeat-victim K`): when its runs are
evidence.

A run then executes the victim K times after the list, and fails if any execution reproduced the
recorded failure. Each run is still one observation of its list: the search's model holds with the
rates of a K-fold run (a victim failing 1 time in 30 on its own fails about 1 run in 3.5 at
K = 10), so nothing in the search changes. The first k executions of a K-fold run are exactly a
k-fold run (the later ones ran after them), so K can be lowered at any time, to 1 included, and
every run made so far is judged again on its first k executions: nothing is lost.

Two things bound K. The search's "a polluter at least doubles the rate" is then about a K-fold
run's rate, and a run failing half of the time alone leaves nothing to double: K is lowered so
that the victim alone fails at most Q_MAX of K-fold runs, by an upper estimate of its rate per
execution from the check (`choose`). At that rate, doubling a run's rate means raising one
execution's rate 2 to 2.4 times. And the victim must not change its own odds: a victim that
pollutes itself (it leaves behind what makes its next execution fail) would fail "on its own" only
because it ran before itself, and mislead the hunt.

The test of that assumption, `later_p`, uses only what K-fold runs show: given how many of a run's
K executions reproduced the failure (t), under "the executions are exchangeable" the first one is
a reproduction with probability t/K. The first executions' reproductions summed over the runs
follow the convolution of those Bernoulli laws; p is the probability of as few as observed (the
executions after the first failing more than the first is what misleads; the reverse, a victim
that fails once and then resets what polluted it, only wastes the repeats). Runs whose executions
all agree say nothing and drop out, so it is exact and holds whatever ran before the victim and
however a run's executions depend on each other.

That p is valid for one look. The hunt looks again at every verdict (and, while a "fails on its
own" verdict is held, after every run of the victim alone: hundreds of looks), and p-values
looked at that often reject by chance far more often than their level. So the looks at a verdict
use `later_e` instead: the likelihood ratio of the first executions' outcomes under "they
reproduce with odds theta times the exchangeable odds" (theta mixed uniformly over (0, 1), the
alternatives that mislead) against theta = 1. Under exchangeability its expectation is 1 after any
number of runs, whatever decided which lists ran, so by Ville's inequality it ever reaches
1 / ALPHA_AGAIN with probability at most ALPHA_AGAIN, over all the looks of a hunt together.

Repeats also stop when a run's executions fail together (`alike`): once every K-fold run that
reproduced the failure did so on all its executions, and ALIKE_RUNS of them held only tests that
passed in some run, the cause is drawn once a run (a process-wide draw, such as the hash seed, or
a flaky polluter whose state is left behind or not) and the extra executions add no evidence, only
their seconds. (Independent executions at a rate r fail all K together, given that one failed,
with probability r^K / (1 - (1 - r)^K): below 0.11 even at r = 0.8, K = 10.) A run holding a test
that never passed is left out of the count: a deterministic cause fails every execution however
the executions are drawn, so such runs tell nothing of how they are, and beside flaky causes it
would turn off the repeats that find them (`multi k=3 p=1+0.5+0.1`: docs/search.md).

`stance` turns that into what the hunt does: keep repeating, stop (the evidence of K-fold runs is
dropped and the hunt goes on with single runs), or, before a "fails on its own" verdict whose
runs of the victim alone never reproduced the failure on a first execution, hold the verdict and
run the victim alone until one does or the test rejects. A held verdict is also not let go while
later_e, over all K-fold runs or over those of the victim alone, stands at RELEASE_E or more (odds
of 5 to 1 that the later executions fail more often): one lucky first execution among runs that
lean that way is no sign that the K-fold runs can be trusted. On one worker the hold's runs
execute the victim as often as asked (K before `choose` lowered it), though the search judges
them on their first `used`: the extra executions cost little beside a process's start-up and make
more runs telling for the test. On W workers a wave of the hold is W runs, and there the extra
executions of each cost the hunt's wall time more than they tell (measured), so they run `used`.
A victim that pollutes itself beside a polluter and a background rate (`single p=0.2 q=0.01
s=0.1`) makes the K-fold runs of it alone fail so often that the polluter no longer doubles their
rate; these two rules took that cell from 265 to 277 of 300 right, and cost the default `none`
cells about 1% (11-16% with --repeat-victim 10 given; docs/search.md, "A held verdict let go only
without a lean").

Without --repeat-victim, repeats start by themselves (`automatic`) where they pay: a rare or a
flaky failure (where a run's start-up and predecessors cost most per observation, and where K
executions turn a cause of rate p into one of rate 1 - (1 - p)^K per run), once the hunt's first
AUTO_AFTER or more runs either all passed, or no deterministic cause (a test, or a pair that
must both run) explains them: some list that reproduced the failure holds no test that never
passed and no two tests that never passed together (`flaky`: a deterministic cause makes every
list holding it fail, and repeats would only cost it the check; once one of the hunt's own runs
passed, the stored runs are read there too, `stored_flaky`). They start with AUTO_K executions per run and
the same check. The single runs made before are left out of the evidence while K > 1, and count
again if the check turns repeats off; so repeats do not start once more than AUTO_LATEST runs
would be left out, nor when --max-runs leaves less than AUTO_ROOM runs (the check's CHECK_RUNS
would eat the budget). Stored runs stay evidence in the several-causes search, which reads them
into its chain's prior only (isolate.hunt.evidence); the single-cause search would leave them
out too, so there repeats do not start when HISTORY_MOST of them are evidence (`history` below
counts the stored runs repeats would leave out).

With AHEAD_JOBS or more runs at once (`ahead`), nothing is left out: from the hunt's first run
every run executes the victim AUTO_K times, and counts by its first execution until `automatic`
(on first executions, and however late: AUTO_LATEST bounds runs left out) starts the check; each
run then already holds its K executions. A run whose executions disagree (some reproduced the
failure, some passed: `split`) shows a flaky cause (or a victim that pollutes itself, which is what
the check is for) as no deterministic one could, so it counts as `flaky` there. On W
workers the runs before repeats start are a whole wave, often of the whole list, and leaving them
out cost more than the extra executions (docs/search.md, "Under the default"). Before the check,
runs whose executions fail together stop the extra executions (`alike`, `together`): a deterministic
cause pays them for ALIKE_RUNS runs or so, and the hunt then goes on as on one worker (repeats may
start if it turns out flaky too).
On one worker the extra executions of a deterministic hunt's first runs cost more than what is
left out, so there repeats start as above.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import TypeVar

CHECK_RUNS = 10  # K-fold runs of the victim alone before the search starts...
CHECK_QUIET = 4  # ...or, once a run reproduced the failure, this many (a wave at least) if all their executions passed
Q_MAX = 0.25  # the most a K-fold run of the victim alone may fail, by `choose`'s estimate
HOLD_MOST = 1000  # runs of the victim alone a held "fails on its own" verdict may wait for (the test
# rejects long before when the first executions never fail and the later ones do)
ALPHA = 0.05  # repeats stop when the first executions reproduce less often than this allows...
ALPHA_AGAIN = 0.01  # ...and, looked at again at each verdict, when later_e reaches 1 / ALPHA_AGAIN
RELEASE_E = 5.0  # a held verdict is not let go while later_e stands at this or more
THETAS = tuple((j + 0.5) / 40 for j in range(40))  # later_e's alternatives, weighted alike

AUTO_AFTER = 2  # single runs before repeats may start by themselves...
AUTO_LATEST = 60  # ...and the most they may leave out
AUTO_K = 10  # the executions per run they start with (the check may lower it)
HISTORY_MOST = 20  # stored runs worth more than what repeats would bring, where repeats leave them out
AUTO_ROOM = 4 * CHECK_RUNS  # runs --max-runs must still allow
AHEAD_JOBS = 2  # runs at once from which the executions run ahead from the first run

ALIKE_RUNS = 3  # K-fold runs that reproduced the failure, each on every execution, that turn repeats off

ON, OFF, HOLD, SINGLE = "on", "off", "hold", "single"
T = TypeVar("T")  # a test, as the caller names it (an index, an id)


def counts(executions: str) -> tuple[int, int, int]:
    """(K, reproductions, whether the first execution reproduced) of one run's `executions`
    string (one letter per execution: r reproduced, f failed otherwise, p passed)."""
    return len(executions), executions.count("r"), int(executions[:1] == "r")


def later_p(runs: Iterable[str]) -> float:
    """One-sided exact p-value that the first executions reproduced the failure as often as the
    later ones (see the module docstring); 1.0 when no run tells."""
    law = [1.0]  # law[x]: probability that x first executions reproduced, over the telling runs
    observed = 0
    for executions in runs:
        k, t, first = counts(executions)
        if k < 2 or t in (0, k):
            continue
        chance = t / k
        law = [a * (1 - chance) + b * chance for a, b in zip(law + [0.0], [0.0] + law)]
        observed += first
    return min(1.0, sum(law[: observed + 1]))


def later_e(runs: Iterable[str]) -> float:
    """Evidence, as a likelihood ratio, that the first executions reproduce the failure less often
    than the later ones (see the module docstring): 1.0 when no run tells; at most ALPHA_AGAIN of
    hunts ever see it reach 1 / ALPHA_AGAIN while the executions are exchangeable."""
    tally: Counter[tuple[int, int, int]] = Counter()
    for executions in runs:
        k, t, first = counts(executions)
        if k >= 2 and 0 < t < k:
            tally[(t, k, first)] += 1
    logs = []
    for theta in THETAS:
        total = 0.0
        for (t, k, first), n in tally.items():
            h = t / k  # exchangeable: the first is one of the t reproductions with probability t / k
            odds = theta * h / (theta * h + 1 - h)
            total += n * math.log(odds / h if first else (1 - odds) / (1 - h))
        logs.append(total)
    top = max(logs)
    if top > 700:
        return math.inf
    return math.exp(top) * sum(math.exp(x - top) for x in logs) / len(logs)


def choose(alone: Sequence[str], asked: int) -> int:
    """The most executions per run, up to `asked`, at which the victim alone would fail at most
    Q_MAX of the runs, with its rate per execution estimated from the runs of it alone (`alone`:
    their executions) as (reproductions + 1) / (executions + 2), an estimate on the high side."""
    executions = sum(len(e) for e in alone)
    rate = (sum(e.count("r") for e in alone) + 1) / (executions + 2)
    k = 1
    while k < asked and 1 - (1 - rate) ** (k + 1) <= Q_MAX:
        k += 1
    return k


def check_next(alone: Sequence[str], jobs: int, reproduced: bool) -> int:
    """How many more K-fold runs of the victim alone the check before the search makes (0: it is
    done), given those made (`alone`: their executions), the runs made at once (`jobs`) and
    whether a run of the hunt's reproduced the failure before the check, at any of its
    executions (`reproduced`; runs ahead of the check on W workers execute the victim K times):
    CHECK_RUNS, or, once a list reproduced it, a first wave of at least CHECK_QUIET, and more only
    if an execution of it did not pass. Runs whose executions all agree tell the test nothing
    (`later_p`), so quiet runs beyond the first wave only refine `choose`'s estimate (which at
    CHECK_QUIET quiet runs of K = 10 executions keeps K = 10) and are evidence that the victim
    passes alone; the search asks for that itself when a list reproduced the failure. When none
    did, whether it fails on its own is the hunt's question, and the check's runs answer it."""
    quiet = reproduced and all(set(e) <= {"p"} for e in alone)
    goal = min(CHECK_RUNS, max(CHECK_QUIET, jobs)) if quiet else CHECK_RUNS
    return max(0, goal - len(alone))


def per_execution(rate: float, k: int) -> float:
    """The rate of one execution, from that of a k-fold run (executions alike and independent)."""
    return 1 - (1 - min(1.0, rate)) ** (1 / k)


def first_alone(alone: Sequence[str]) -> int:
    """Runs of the victim alone whose first execution reproduced the failure."""
    return sum(counts(e)[2] for e in alone)


def rejects(runs: Sequence[str], verdict: str | None) -> tuple[bool, str]:
    """Whether the first executions reproduced less often than the later ones: before the search
    (`verdict` None, one look) by later_p at ALPHA, at a verdict by later_e at 1 / ALPHA_AGAIN; and
    the figure, as the log says it."""
    if verdict is None:
        p = later_p(runs)
        return p < ALPHA, f"exact test p={p:.2g}" + (f" < {ALPHA:g}" if p < ALPHA else "")
    e = later_e(runs)
    return e >= 1 / ALPHA_AGAIN, f"likelihood ratio {e:.3g}" + (f" >= {1 / ALPHA_AGAIN:g}" if e >= 1 / ALPHA_AGAIN else "")


def stance(runs: Sequence[str], alone: Sequence[str], verdict: str | None = None) -> tuple[str, str]:
    """What the hunt does with repeats now, and the test's figure (`rejects`): OFF when the first
    executions reproduced less often than the later ones (`runs`: every K-fold run's executions;
    no verdict: the check before the search);
    HOLD when `verdict` is "fails-alone" or "brittle" (the victim fails on its own, by the K-fold
    runs) while no run of the victim alone (`alone`) reproduced it on its first execution, or
    later_e over `runs` or over `alone` stands at RELEASE_E or more; else ON."""
    rejected, figure = rejects(runs, verdict)
    if rejected:
        return OFF, figure
    if verdict in ("fails-alone", "brittle") and alone and (
            not first_alone(alone) or max(later_e(runs), later_e(alone)) >= RELEASE_E):
        return HOLD, figure
    return ON, figure


def flaky(runs: Iterable[tuple[AbstractSet[T], bool]]) -> bool:
    """Whether no deterministic cause explains the runs (`runs`: each run's predecessors and
    whether it reproduced): some list that reproduced the failure holds neither a test that never
    passed nor two tests that never passed together, so neither a test nor a pair that makes every
    run holding it fail is in it; the cause is flaky (or a test between it and the victim undoes
    it). A list passed that holds every test of a failing one is the plainest case."""
    failing: set[frozenset[T]] = set()
    passing: set[frozenset[T]] = set()
    for included, reproduced in runs:
        (failing if reproduced else passing).add(frozenset(included))
    if any(f <= p for f in failing for p in passing):
        return True
    held: dict[T, int] = {}  # a test -> the passing lists that held it, as bits
    for bit, included in enumerate(passing):
        for test in included:
            held[test] = held.get(test, 0) | 1 << bit
    for f in failing:
        masks = {held.get(test, 0) for test in f}
        if not f or 0 in masks:
            continue  # the victim alone (flaky above only if some list passed), or a test that never passed
        ordered = sorted(masks)
        if all(a & b for i, a in enumerate(ordered) for b in ordered[i + 1:]):
            return True  # every two of its tests passed together: no pair either
    return False


def stored_flaky(stored: Sequence[tuple[AbstractSet[T], bool]], own: Sequence[tuple[AbstractSet[T], bool]]) -> bool:
    """`flaky` over the hunt's own runs and, once one of them passed, its stored runs too: a
    stored run that passed with a test before the victim says that test is no deterministic
    cause as a new run would (the stored runs ran today's code, as everywhere). While every new
    run failed, a stored pass may be a state-setter's (a brittle victim fails alone and passes
    after the test that sets what it needs: isolate.search.strategies.setters), no flakiness."""
    return flaky(list(own) + (list(stored) if any(not failed for _, failed in own) else []))


def automatic(runs: int, reproduced: int, flaky: bool, history: int, room: int | None, *,
              left_out: bool = True, history_failed: int = 0) -> bool:
    """Whether repeats start by themselves now, in a hunt without --repeat-victim: `runs` single
    runs of the hunt so far (`left_out`: they would be left out, so at most AUTO_LATEST of them),
    `reproduced` of them reproduced the failure, `flaky` (see `flaky`); `history` stored runs are
    evidence that K-fold runs would leave out, `history_failed` of them failed, `room` runs are
    left in --max-runs (None: no limit). See the module docstring.

    Not while stored runs that repeats would leave out hold the hunt's only failures: they are
    what tells a failure that no longer happens (isolate.search.stored.stale ends that hunt as
    "not reproduced"); without them the hunt ran the full list to the reproduction cap."""
    return (AUTO_AFTER <= runs and (runs <= AUTO_LATEST or not left_out) and (not reproduced or flaky)
            and history < HISTORY_MOST and (room is None or room >= AUTO_ROOM)
            and (reproduced > 0 or not history_failed))


def ahead(jobs: int, history: int, room: int | None) -> bool:
    """Whether a hunt without --repeat-victim runs `jobs` runs at once executes the victim AUTO_K
    times from its first run (see the module docstring); `history`, `room` as in `automatic`."""
    return jobs >= AHEAD_JOBS and history < HISTORY_MOST and (room is None or room >= AUTO_AFTER + AUTO_ROOM)


def ahead_next(runs: int, reproduced: int, flaky: bool, history: int, room: int | None,
               listed: Sequence[tuple[AbstractSet[T], str]], k: int, history_failed: int = 0) -> str:
    """While the executions run ahead (`ahead`), before the check: ON to start the check now
    (`automatic` says so, on the runs' first executions: `runs`, `reproduced`, `flaky`, or a run
    of `listed` whose executions disagree, `split`; no run is left out, so however late), OFF to
    stop the extra executions (the runs' executions fail together, `listed` as `alike` reads them;
    or repeats can no longer start), SINGLE to stop them while repeats
    may still start as on one worker (the runs' executions fail together where a test that never
    passed explains it: a deterministic cause, whose runs would pay them for nothing), HOLD to go on
    as before."""
    if alike(listed, k):
        return OFF
    if together(listed, k):
        return SINGLE
    if automatic(runs, reproduced, flaky or split(listed, k), history, room, left_out=False,
                 history_failed=history_failed):
        return ON
    if history >= HISTORY_MOST or (room is not None and room < AUTO_ROOM):
        return OFF
    return HOLD


def split(runs: Sequence[tuple[AbstractSet[T], str]], used: int) -> bool:
    """Whether a K-fold run among `runs` (as `alike` reads them) reproduced the failure on some of
    its first `used` executions and passed others: a deterministic cause fails every execution, so
    the cause is flaky, or the victim pollutes itself (which the check tests)."""
    return any(len(e) > 1 and "r" in e[:used] and "p" in e[:used] for _, e in runs)


def together(runs: Sequence[tuple[AbstractSet[T], str]], used: int) -> bool:
    """Whether ALIKE_RUNS K-fold runs (`runs` as `alike` reads them) reproduced the failure, and
    every K-fold run that did, on all its executions: drawn once a run, or a deterministic cause."""
    failing = _reproduced(runs, used)
    return used > 1 and len(failing) >= ALIKE_RUNS and all(set(e[:used]) == {"r"} for _, e in failing)


def _reproduced(runs: Sequence[tuple[AbstractSet[T], str]], used: int) -> list[tuple[AbstractSet[T], str]]:
    """The K-fold runs among `runs` that reproduced the failure in their first `used` executions."""
    return [(s, e) for s, e in runs if "r" in e[:used] and len(e) > 1]


def add_nothing(runs: Sequence[tuple[AbstractSet[T], str]], used: int) -> bool:
    """Whether the extra executions of the runs add nothing, while repeats run: the runs' executions
    fail together (`alike`), or they do where a test that never passed explains it and nothing in
    the runs is flaky (`together`, `flaky`: a deterministic cause alone). Beside a flaky cause they
    stay."""
    return alike(runs, used) or (together(runs, used) and not flaky((s, "r" in e[:used]) for s, e in runs))


def alike(runs: Sequence[tuple[AbstractSet[T], str]], used: int) -> bool:
    """Whether the K-fold runs' executions, judged on their first `used`, fail together (`runs`:
    every run's predecessors and executions, a single run's one "r", "f" or "p"): every K-fold run
    that reproduced the failure did so on every execution, and at least ALIKE_RUNS of them held no
    test that never passed (see the module docstring)."""
    if not together(runs, used):  # (at least ALIKE_RUNS, each failing on every execution)
        return False
    passed: set[T] = set()
    for s, e in runs:
        if "r" not in e[:used]:
            passed.update(s)
    return sum(1 for s, _ in _reproduced(runs, used) if passed.issuperset(s)) >= ALIKE_RUNS
