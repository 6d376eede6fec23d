"""The scan phase of a hunt (`isolate bisect TEST --scan`): after a polluter verdict, every other
predecessor alone before the victim (isolate.search.strategies.scan), and the causes it confirms
added to the verdict.

Its candidates are the hunt's predecessors less the causes found and the module imports; its
seed evidence is the hunt's runs of the victim alone (the background rate a scan cause must
beat), of any candidate alone before it, and its passing lists of candidates only (a candidate
the search already ran alone, or last before the victim in a list that passed, is not run
again).  Its journal entries carry `phase: "scan"`, so the polluter search never counts them and a
resumed hunt replays the phase exactly.
"""

from __future__ import annotations

from dataclasses import replace

from isolate.hunt.evidence import Evidence
from isolate.running.judge import IMPORT
from isolate.search.model import FoundCause, Observation, Problem, Verdict, label
from isolate.words import fraction, probability

PHASE = "scan"


def scan_evidence(problem: Problem, observations: tuple[Observation, ...], verdict: Verdict
                  ) -> tuple[Evidence, tuple[int, ...]] | None:
    """The scan's seed evidence (the hunt's runs of the victim alone, of a candidate alone, and
    its passing lists of candidates) and its candidates' indices in the hunt's problem; None when
    no predecessor is left to scan."""
    taken = set(verdict.culprits)
    index = tuple(i for i, t in enumerate(problem.predecessors) if i not in taken and not t.startswith(IMPORT))
    if not index:
        return None
    sub = Problem(tuple(problem.predecessors[i] for i in index), problem.victim,
                  tuple(problem.durations[i] for i in index), problem.victim_duration, problem.startup)
    back = {i: k for k, i in enumerate(index)}
    seed = tuple(replace(o, included=frozenset(back[i] for i in o.included)) for o in observations
                 if not o.stored and o.included <= back.keys() and (len(o.included) <= 1 or not o.failed))
    return Evidence(sub, seed, {}, (), 0, {}, phase=PHASE), index


def merged(problem: Problem, verdict: Verdict, scanned: Verdict, index: tuple[int, ...],
           seed: tuple[Observation, ...]) -> Verdict:
    """The polluter verdict with the scan's causes added (in the hunt's indices), its stop line
    among the evidence, and its new runs and seconds counted (not those of `seed`, the hunt's
    runs it started from)."""
    found = tuple(replace(c, tests=tuple(index[i] for i in c.tests), evidence=c.evidence[:-1] + (
        "found by the scan: the lists that held it and the rest showed no failure of it (a later test undoes it,"
        " or another hides it)",) + c.evidence[-1:])
        for c in scanned.causes)
    culprits = tuple(sorted(set(verdict.culprits) | {i for c in found for i in c.tests}))
    lines = tuple(c.evidence[0] for c in found) + (scanned.stop,)
    confidence = min([verdict.confidence] + [c.confidence for c in found])
    # once the scan found more, or the budget cut it short, the search's "no further cause" is no
    # longer the reason the hunt stopped
    return replace(verdict, culprits=culprits, causes=_own(problem, verdict) + found, confidence=confidence,
                   p=max(verdict.p, scanned.p), evidence=verdict.evidence + lines,
                   runs=verdict.runs + scanned.runs - sum(o.count for o in seed),
                   seconds=verdict.seconds + scanned.seconds - sum(o.seconds for o in seed),
                   stop=scanned.stop if found or scanned.kind == "undecided" else verdict.stop)


def _own(problem: Problem, verdict: Verdict) -> tuple[FoundCause, ...]:
    """The verdict's causes; a single-cause strategy's culprits as one test or pair cause."""
    if verdict.causes or not verdict.culprits:
        return verdict.causes
    scope = "test" if len(verdict.culprits) == 1 else "pair"
    return (FoundCause(scope, label(problem, verdict.culprits), verdict.culprits, verdict.p, verdict.confidence,
                       verdict.evidence[:1] + (f"rate {fraction(verdict.p)}, confidence"
                                               f" {probability(verdict.confidence)}",)),)
