"""The one-by-one scan after a polluter verdict (`isolate bisect TEST --scan`): every other
predecessor alone before the victim, as iDFlakies' scan runs them.

Why it exists: the search's model is monotone (a cause in a list makes it fail, whatever else
runs), and a cleaner breaks that.  When a later test undoes what a cause leaves behind (cromulent:
`test_bad_autoid` sets a counter, `test_collapse_json` and `test_int_per_type` reset it), every
list that holds the cause and its cleaner passes, the whole rest of the list among them, so the
stop check ("the other predecessors passed k/k runs") cannot see that cause, and whether a
chain's prefix happened to hold the cause without the cleaner decides whether it is found: the
answer then depends on the order of the chain and on `--jobs`.  A test alone before the victim
has no cleaner after it, so the scan finds every such cause that fails the victim on its first
run alone, the same at any `--jobs`.

The problem's predecessors are the candidates (the hunt's predecessors less the causes found).
Each runs alone once (W at a time on W workers), unless it was the last test before the victim
in a list of the hunt that passed (nothing ran after it there to undo it).  A candidate that
made the victim fail is confirmed on its own one-test problem by the causes search (its runs
alone and the victim's alone, until its rate is shown or ruled out), so a scan cause has the
same evidence and confidence as any other.  A cause whose rate is below 1 is missed by its one run with
probability 1 - rate: the verdict says so.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from isolate.search.model import (
    FoundCause,
    Observation,
    Problem,
    Query,
    Settings,
    Verdict,
    budget_left,
    fits,
    tally,
)
from isolate.search.posterior import Tally
from isolate.search.strategies import causes

SCAN = "scan"


def decide(problem: Problem, observations: Sequence[Observation], settings: Settings, *,
           batch: int = 1) -> Query | Verdict:
    """The next candidates to run alone (or a confirmation's runs), or the verdict: "polluter"
    naming the causes the scan confirmed, else "undecided" when the budget ran out before every
    candidate ran alone or before a hit was confirmed, else "not-reproduced"."""
    alone = _alone(observations)
    t = tally(observations)
    budget = budget_left(settings, t)
    found: list[FoundCause] = []
    refuted = 0
    unsettled: list[tuple[int, str]] = []  # hits whose confirmation the budget (or doubt) cut short
    cut = False  # ...the budget
    for i in sorted(i for i, (f, _) in alone.items() if f):
        step = _confirm(problem, observations, i, settings, batch, budget)
        if isinstance(step, Query):
            return step
        if step.kind == "polluter" and step.causes:
            found.append(replace(step.causes[0], tests=(i,)))
        elif step.kind == "undecided":
            unsettled.append((i, step.stop or "undecided"))
            cut = cut or step.spent
        else:
            refuted += 1
    last = _last(observations, alone)
    untried = [i for i in range(len(problem.predecessors)) if i not in alone and i not in last]
    if untried:
        first = untried[:max(1, batch)]
        query = Query((first[0],), 1, _reason(problem, len(alone) + len(last), len(first)), until_failure=False,
                      alongside=tuple(((i,), 1) for i in first[1:]))
        while len(first) > 1 and not fits(problem, query, budget):
            first = first[:-1]
            query = replace(query, alongside=query.alongside[:len(first) - 1])
        if fits(problem, query, budget):
            return query
    return _verdict(problem, t, alone, len(last), tuple(found), refuted, unsettled, len(untried), cut)


def _last(observations: Sequence[Observation], alone: dict[int, tuple[int, int]]) -> set[int]:
    """The candidates not run alone that were the last test before the victim in a list that
    passed: nothing ran after them there to undo what they leave, so that pass tells what a run
    of them alone would (the hunt's own lists, given as the scan's seed evidence)."""
    return {max(o.included) for o in observations if len(o.included) > 1 and not o.failed} - alone.keys()


def _alone(observations: Sequence[Observation]) -> dict[int, tuple[int, int]]:
    """(failures, runs) of each candidate run alone before the victim."""
    out: dict[int, tuple[int, int]] = {}
    for o in observations:
        if len(o.included) == 1:
            (i,) = o.included
            f, r = out.get(i, (0, 0))
            out[i] = (f + (o.count if o.failed else 0), r + o.count)
    return out


def _confirm(problem: Problem, observations: Sequence[Observation], i: int, settings: Settings,
             batch: int, budget: tuple[float, float]) -> Query | Verdict:
    """The causes search on the one-test problem of candidate `i`: its runs alone and the
    victim's alone are the evidence, `budget` what the scan has left (runs, seconds); its query is
    read back into the scan's indices."""
    one = Problem((problem.predecessors[i],), problem.victim, (problem.durations[i],), problem.victim_duration,
                  problem.startup)
    mine = tuple(replace(o, included=frozenset({0}) if o.included else frozenset())
                 for o in observations if o.included in (frozenset({i}), frozenset()))
    # the scan's budget left, over the one-test problem's own runs
    runs, secs = budget
    own = tally(mine)
    step = causes.decide(one, mine, replace(
        settings, strategy="isolate", max_runs=None if settings.max_runs is None else int(runs) + own.total_runs,
        max_seconds=None if settings.max_seconds is None else secs + own.total_seconds), batch=batch)
    if isinstance(step, Query):
        name = problem.predecessors[i]
        f = sum(o.count for o in mine if o.included and o.failed)
        r = sum(o.count for o in mine if o.included)
        what = ("it alone again, for its rate" if step.included else
                "the victim alone, for its rate without it") if not step.alongside else step.reason
        return replace(step.mapped((i,)), reason=f"scan: {name} made it fail alone ({f}/{r}): {what}")
    return step


def _reason(problem: Problem, done: int, now: int) -> str:
    n = len(problem.predecessors)
    which = "the next test" if now == 1 else f"the next {now} tests"
    return (f"scan: {which} of the {n} other predecessors alone before the victim, once each ({done} done):"
            " a cause a later test undoes shows only there")


def _verdict(problem: Problem, t: Tally, alone: dict[int, tuple[int, int]], last: int,
             found: tuple[FoundCause, ...], refuted: int, unsettled: list[tuple[int, str]], untried: int,
             cut: bool) -> Verdict:
    n = len(problem.predecessors)
    ran = len(alone)
    besides = f" ({last} more {'was' if last == 1 else 'were'} the last test before it in a list that passed)" if last else ""
    if untried:
        stop = (f"scan: the budget ran out after {ran} of the {n} other predecessors ran alone before the"
                f" victim{besides}; more may remain")
    else:
        stop = (f"scan: {'each' if not last else ran} of the {n} other predecessors ran alone before the victim "
                f"({sum(r for _, r in alone.values())} runs){besides}")
    if found:
        names = ", ".join(problem.predecessors[c.tests[0]] for c in found)
        stop += (f"; {names} made it fail there, though no list of the rest did: a later test undoes"
                 f" {'it' if len(found) == 1 else 'them'} (--cleaners names which)")
    elif not refuted and not unsettled:
        stop += "; none made it fail there"
    for i, why in unsettled:
        f, r = alone[i]
        stop += f"; {problem.predecessors[i]} made it fail alone ({f}/{r}), not confirmed: {why}"
    if refuted:
        stop += f"; {refuted} made it fail once, but not more often than it fails alone"
    stop += "; a cause that fails it less than every time may be missed in its one run"
    culprits = tuple(sorted(c.tests[0] for c in found))
    kind = "polluter" if found else "undecided" if untried or unsettled else "not-reproduced"
    return Verdict(kind, culprits,
                   min((c.confidence for c in found), default=0.0), max((c.rate for c in found), default=0.0),
                   0.0, (stop,), t.total_runs, t.total_seconds, (), found, stop, bool(untried) or cut)
