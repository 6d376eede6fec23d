"""The journal in the search's terms: the problem (predecessors, durations, start-up cost) and
one observation per repetition that is evidence either way (a reproduction or a pass)."""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass, replace

from isolate.errors import UserError
from isolate.files import read_text
from isolate.hunt.journal import Position, journal_since
from isolate.hunt.store import Hunt, read_steps
from isolate.search.model import Observation, Problem

STARTUP_GUESS = 0.5  # seconds per run before the journal has measured it


@dataclass(frozen=True)
class Evidence:
    """What the journal says, in the search's terms."""

    problem: Problem
    observations: tuple[Observation, ...]
    ignored: dict[str, int]  # outcomes that are no evidence either way, by kind
    warnings: tuple[str, ...]
    entries: int  # journal entries read, corrupt ones excluded
    steps: dict[int, tuple[str, ...]]  # the step files, by number
    position: Position = Position()  # how far the journal was read
    overheads: tuple[float, ...] = ()  # measured per-run start-up, one per observation


def evidence(hunt: Hunt, previous: Evidence | None = None) -> Evidence:
    """The journal in the search's terms.  With `previous` (read from the same hunt), only
    what was appended since is read; the warnings are then the new ones only."""
    if previous is None:
        order = hunt.order()
        if not order:
            raise UserError(f"{hunt.path / 'order.txt'} is empty; re-create the hunt with 'isolate extract --force'")
        seconds = durations(hunt, order)
        problem = Problem(order[:-1], order[-1], tuple(seconds[:-1]), seconds[-1], STARTUP_GUESS)
        previous = Evidence(problem, (), {}, (), 0, {})
    problem = previous.problem
    entries, warnings, position = journal_since(hunt, previous.position)
    steps = read_steps(hunt, previous.steps)
    index = {test_id: i for i, test_id in enumerate(problem.predecessors)}
    observations = list(previous.observations)
    overheads = list(previous.overheads)
    ignored = dict(previous.ignored)
    for entry in entries:
        ids = steps.get(entry.step)
        if ids is None or not ids or ids[-1] != problem.victim or any(i not in index for i in ids[:-1]):
            warnings.append(f"journal entry for step {entry.step} does not match a step file; skipped")
            continue
        included = frozenset(index[i] for i in ids[:-1])
        overheads.append(entry.seconds - sum(problem.durations[i] for i in included) - problem.victim_duration)
        if entry.reproduced or entry.outcome == "pass":
            observations.append(Observation(included, entry.reproduced, entry.seconds))
        else:
            ignored[entry.outcome] = ignored.get(entry.outcome, 0) + 1
    startup = max(0.05, statistics.median(overheads)) if overheads else STARTUP_GUESS
    return Evidence(replace(problem, startup=startup), tuple(observations), ignored, tuple(warnings),
                    previous.entries + len(entries), steps, position, tuple(overheads))


def durations(hunt: Hunt, order: tuple[str, ...]) -> list[float]:
    """Seconds per test of `order` as recorded; the median for tests without a record.
    A corrupt durations.json is a UserError naming it (deleting it falls back to the median)."""
    path = hunt.path / "durations.json"
    fix = "fix it, or delete it to weigh every test alike"
    text = read_text(path, "durations file", fix)
    try:
        known = json.loads(text, parse_constant=_not_finite) if text else {}
    except ValueError as exc:
        raise UserError(f"{path} is corrupt ({str(exc).splitlines()[0]}); {fix}") from None
    if not isinstance(known, dict):
        raise UserError(f"{path} is corrupt (not a JSON object of seconds per test); {fix}")
    for test_id, value in known.items():
        if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
            raise UserError(f"{path} is corrupt ({test_id}: {value!r} is not a finite number of"
                            f" seconds >= 0); {fix}")
    values = [float(v) for v in known.values()]
    default = statistics.median(values) if values else 0.01
    return [max(0.0005, float(known.get(test_id, default))) for test_id in order]


def _not_finite(name: str) -> float:
    raise ValueError(f"{name} is not a finite number")
