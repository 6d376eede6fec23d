"""The state-setter phase of a hunt: its candidates and its evidence.

When the polluter hunt finds that the victim fails on its own, but it passed in stored runs
(`history.jsonl`), the victim may be brittle: it passes only when a state-setter ran before it,
and in the failing worker the setter was simply missing.  The candidates are the tests that ran
before the victim in the stored runs where it passed, in the order of those runs (the first
passing run's order, then tests only later ones ran).  The failing worker's predecessors are left
out: the victim failed after every one of them, so none of them sets it up alone.  Without a
stored passing run there is no candidate (the whole suite in discovery order would be the other
source; isolate does not discover suites, see docs/search.md).

The phase's evidence is the stored runs over these candidates plus the journal's lists made of
them only (and the victim alone), so the two phases share one journal unambiguously.
"""

from __future__ import annotations

from isolate.hunt.evidence import Evidence, durations, seed
from isolate.hunt.history import read_history
from isolate.hunt.store import Hunt
from isolate.running.judge import IMPORT
from isolate.search.model import Problem


def candidates(hunt: Hunt, failing: tuple[str, ...]) -> tuple[str, ...]:
    """Tests before the victim in its passing stored runs, first seen first, minus `failing`."""
    skip = set(failing) | {hunt.victim}
    order: list[str] = []
    for past in read_history(hunt):
        if past.status != "success":
            continue
        for test_id in past.predecessors:
            if test_id not in skip and not test_id.startswith(IMPORT):
                skip.add(test_id)
                order.append(test_id)
    return tuple(order)


def setter_evidence(hunt: Hunt, polluter: Problem) -> Evidence | None:
    """The seed evidence of the setter phase, or None when no stored run where the victim passed
    (and that the hunt counts as evidence: see --no-history) ran any candidate before it."""
    names = candidates(hunt, polluter.predecessors)
    if not names:
        return None
    seconds = durations(hunt, names + (polluter.victim,))
    problem = Problem(names, polluter.victim, tuple(seconds[:-1]), seconds[-1], polluter.startup)
    start = seed(hunt, problem)
    if not any(not o.failed and o.included for o in start.observations):
        return None
    return start
