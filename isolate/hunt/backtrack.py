"""`isolate backtrack`: keep the evidence up to a step, set the later runs aside (never deleted)."""

from __future__ import annotations

import datetime as dt
import json
import shlex
from collections.abc import Callable

from isolate.errors import UserError
from isolate.files import write_atomic
from isolate.hunt.journal import read_journal, split_journal
from isolate.hunt.lock import Lock
from isolate.hunt.store import Hunt, read_queries, read_steps


def backtrack(hunt: Hunt, step: int, warn: Callable[[str], None]) -> str:
    """Keep the evidence gathered up to `step`; set the rest aside (never deleted)."""
    with Lock(hunt.path, warn):
        return _backtrack(hunt, step)


def _backtrack(hunt: Hunt, step: int) -> str:
    entries, _ = read_journal(hunt)
    steps = read_steps(hunt)
    if step not in steps:
        raise UserError(f"step {step} does not exist in {hunt.path}; see 'isolate log {shlex.quote(hunt.victim)}'")
    cut = next((i for i, e in enumerate(entries) if e.step > step), len(entries))
    journal = hunt.path / "journal.jsonl"
    kept, dropped = split_journal(hunt, cut)
    queries = [q for q in read_queries(hunt) if q["from"] < cut]  # read all before writing any
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    aside = hunt.path / f"journal.backtracked-{stamp}.jsonl"
    write_atomic(aside, dropped)
    write_atomic(journal, kept)
    write_atomic(hunt.path / "queries.jsonl", "".join(json.dumps(q, sort_keys=True) + "\n" for q in queries))
    (hunt.path / "verdict.json").unlink(missing_ok=True)
    return (f"kept {cut} runs up to step {step}; set {len(entries) - cut} aside in {aside.name}."
            f" Resume with: isolate bisect {shlex.quote(hunt.victim)}")

