"""The state-setter phase of a hunt: its candidates and its evidence.

When the polluter hunt finds that the victim fails on its own (at least half of the time), the
victim may be brittle: it passes only when a state-setter ran before it, and in the failing worker
the setter was simply missing.  The candidates are the tests that ran before the victim in the
stored runs where it passed, in the order of those runs (the first passing run's order, then tests
only later ones ran); without such a run, the rest of the run the hunt was extracted from, every
worker's tests in the order they started (the setter ran in another worker, or later).  The
failing worker's predecessors are left out: the victim failed after every one of them, so none of
them sets it up alone.

The phase's evidence is the stored runs over these candidates plus the journal's lists made of
them only (and the victim alone), so the two phases share one journal unambiguously.
"""

from __future__ import annotations

from isolate.hunt.evidence import Evidence, durations, seed
from isolate.errors import UserError
from isolate.hunt.history import repository_of, stored_predecessors
from isolate.orders.extract import file_source, suite_order
from isolate.hunt.store import Hunt
from isolate.running.judge import IMPORT
from isolate.search.model import Problem


def candidates(hunt: Hunt, failing: tuple[str, ...]) -> tuple[str, ...]:
    """Tests before the victim in its passing stored runs, first seen first, minus `failing`."""
    return tuple(stored_predecessors(hunt, set(failing) | {hunt.victim}, passed_only=True))


def whole_run(hunt: Hunt, failing: tuple[str, ...]) -> tuple[str, ...]:
    """The other tests of the run the hunt was extracted from, every worker's, in the order they
    started, minus `failing`: where a setter is when it ran in another worker (or later in the
    victim's).  Empty when the run cannot be read any more."""
    repository = repository_of(hunt)
    run = hunt.settings.get("source", {}).get("run")
    if repository is None or not isinstance(run, int):
        return ()
    try:
        order = suite_order(file_source(repository.run_path(run)), f"run {run}")
    except (UserError, OSError):
        return ()
    skip = set(failing) | {hunt.victim}
    return tuple(t for t in order if t not in skip and not t.startswith(IMPORT))


def setter_evidence(hunt: Hunt, polluter: Problem) -> tuple[Evidence, bool] | None:
    """The seed evidence of the setter phase, and whether it comes from stored passes.  The
    candidates are the tests before the victim in its passing stored runs (those runs, counted
    as evidence unless --no-history, show it passing after them).  Without such a run, they are
    the rest of the extracted run, in the order the whole suite ran (the setter phase must then
    first see the victim pass after all of them).  None when neither gives a candidate."""
    names = candidates(hunt, polluter.predecessors)
    passed = bool(names)
    if names:
        start = _start(hunt, polluter, names)
        passed = any(not o.failed and o.included for o in start.observations)
    if not passed:
        names = whole_run(hunt, polluter.predecessors)
        if not names:
            return None
        start = _start(hunt, polluter, names)
    return start, passed


def _start(hunt: Hunt, polluter: Problem, names: tuple[str, ...]) -> Evidence:
    seconds = durations(hunt, names + (polluter.victim,))
    problem = Problem(names, polluter.victim, tuple(seconds[:-1]), seconds[-1], polluter.startup)
    return seed(hunt, problem)
