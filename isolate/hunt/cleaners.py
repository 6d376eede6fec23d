"""The cleaner phase of a hunt (`isolate bisect TEST --cleaners`): its candidates, its evidence,
and its findings as the verdict's hints.

After a polluter verdict, for each cause, the phase looks for cleaners: tests that, run between
the cause and the victim, make the victim pass again (isolate.search.strategies.cleaners).  Every
list it runs is the cause's tests (in recorded order), then a subset of the candidates (in their
order), then the victim.  The candidates are the hunt's other predecessors (not a cause, not a
module import), then the tests that only stored runs ran before the victim (first seen first).

Its journal entries carry `phase: "cleaners:<cause>"`, and each phase reads only its own entries,
so the polluter search never counts a run with a cleaner in it, and a resumed hunt replays every
phase exactly.  No stored run is evidence here: none ran the cause first.
"""

from __future__ import annotations

from typing import Any

from isolate.hunt.evidence import Evidence, durations
from isolate.hunt.history import stored_predecessors
from isolate.hunt.store import Hunt
from isolate.hunt.verdict import kept
from isolate.running.judge import IMPORT
from isolate.search.model import FoundCause, Problem, Verdict, label
from isolate.search.strategies.cleaners import cleaner_problem

PHASE = "cleaners:"


def targets(problem: Problem, verdict: Verdict) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The polluter verdict's causes as (name, predecessor indices), strongest first; a
    single-cause strategy's culprits as one."""
    if verdict.causes:
        ranked = sorted(verdict.causes, key=lambda c: -c.rate)
        return tuple((c.name, c.tests) for c in ranked)
    return ((label(problem, verdict.culprits), verdict.culprits),) if verdict.culprits else ()


def candidates(hunt: Hunt, problem: Problem, causes: frozenset[int]) -> tuple[str, ...]:
    """The other predecessors in recorded order, then tests only stored runs ran before the victim."""
    order = [t for i, t in enumerate(problem.predecessors) if i not in causes and not t.startswith(IMPORT)]
    if hunt.settings.get("search", {}).get("history", True):
        order += stored_predecessors(hunt, set(problem.predecessors) | {problem.victim})
    return tuple(order)


def cleaner_evidence(hunt: Hunt, problem: Problem, name: str, tests: tuple[int, ...],
                     causes: frozenset[int]) -> Evidence | None:
    """The seed evidence of the cleaner phase for the cause `name` (its `tests`), or None when
    there is no candidate."""
    names = candidates(hunt, problem, causes)
    if not names:
        return None
    prefix = tuple(problem.predecessors[i] for i in sorted(tests))
    seconds = durations(hunt, names + prefix + (problem.victim,))
    sub = cleaner_problem(names, tuple(seconds[:len(names)]), problem.victim, seconds[-1], problem.startup,
                          sum(seconds[len(names):-1]))
    return Evidence(sub, (), {}, (), 0, {}, phase=PHASE + name, prefix=prefix)


def hints(problem: Problem, name: str, verdict: Verdict) -> list[dict[str, Any]]:
    """The cleaner verdict's causes as the polluter verdict's `cleaners` entries."""
    return [_hint(problem, name, c) for c in verdict.causes] if verdict.kind == "cleaner" else []


def _hint(problem: Problem, name: str, cause: FoundCause) -> dict[str, Any]:
    return {"polluter": name, "tests": [problem.predecessors[i] for i in cause.tests], "rate": kept(cause.rate),
            "confidence": kept(cause.confidence), "evidence": list(cause.evidence),
            "scope": cause.scope, "name": cause.name}

