"""`isolate backtrack`: keep the evidence up to a step, set the later runs aside (never deleted)."""

from __future__ import annotations

import datetime as dt
import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from isolate.errors import UserError
from isolate.files import write_atomic
from isolate.hunt.journal import Entry, read_journal, split_journal
from isolate.hunt.lock import Lock
from isolate.hunt.store import FORK_CHECK, REPEAT_AUTO, REPEAT_CHECK, Hunt, read_queries, read_steps
from isolate.words import counted, on_test

DECISIONS = (FORK_CHECK, REPEAT_CHECK, REPEAT_AUTO)  # made from the runs so far, each stamped "at"


def backtrack(hunt: Hunt, step: int, warn: Callable[[str], None]) -> str:
    """Keep the evidence gathered up to `step`; set the rest aside (never deleted)."""
    with Lock(hunt.path, warn):
        return _backtrack(hunt, step)


def _backtrack(hunt: Hunt, step: int) -> str:
    entries, _ = read_journal(hunt)
    steps = read_steps(hunt)
    if step not in steps:
        raise UserError(f"step {step} does not exist in {hunt.path}; see {on_test('isolate log', hunt.victim)}")
    if not entries:  # it would write an empty journal and an empty file set aside, and say so
        raise UserError(f"the hunt for {hunt.victim} has no runs yet, so there is nothing to backtrack; start it"
                        f" with {on_test('isolate bisect', hunt.victim)}")
    queries = read_queries(hunt)  # read all before writing any
    cut = _cut(entries, queries, step)
    if cut == len(entries):  # it removed the verdict and wrote an empty file of runs set aside
        raise UserError(f"no run of the hunt for {hunt.victim} comes after step {step}, so there is nothing to set"
                        f" aside; fix: pick an earlier step from {on_test('isolate log', hunt.victim)}")
    journal = hunt.path / "journal.jsonl"
    kept, dropped = split_journal(hunt, cut)
    queries = [q for q in queries if q["from"] < cut]
    stamp = _stamp(hunt.path)
    aside = hunt.path / f"journal.backtracked-{stamp}.jsonl"
    write_atomic(aside, dropped)
    write_atomic(journal, kept)
    write_atomic(hunt.path / "queries.jsonl", "".join(json.dumps(q, sort_keys=True) + "\n" for q in queries))
    (hunt.path / "verdict.json").unlink(missing_ok=True)
    later = [name for name in DECISIONS
             if (hunt.path / name).exists() and cut < len(entries) and not _made_before(hunt.path / name, entries[cut].at)]
    for name in later + ["reproducer.txt"] * (hunt.path / "reproducer.txt").exists():
        stem, dot, suffix = name.rpartition(".")
        (hunt.path / name).rename(hunt.path / f"{stem}.backtracked-{stamp}{dot}{suffix}")
    redone = f" The hunt decides again, on the runs kept: {', '.join(later)} set aside." if later else ""
    return (f"kept {counted(cut, 'run')} up to step {step}; set {len(entries) - cut} aside in {aside.name}.{redone}"
            f" Resume with: isolate bisect {shlex.quote(hunt.victim)}")


def _stamp(path: Path) -> str:
    """The time that names this backtrack's files; a second backtrack within the same second
    overwrote the first one's runs set aside with its own, so a taken name gets a suffix."""
    base = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    stamp, n = base, 1
    while any(path.glob(f"*.backtracked-{stamp}.*")):
        n += 1
        stamp = f"{base}-{n}"
    return stamp


def _cut(entries: list[Entry], queries: list[dict[str, Any]], step: int) -> int:
    """Where the journal is cut to keep the evidence up to `step`, as `isolate log` lists it:
    whole queries (a batch runs its lists at once, their runs interleaved in the journal, so one
    is kept or set aside whole), up to the one that first ran `step` and then up to the first that
    runs a later step; the rest is set aside. Without a query log, at the first run of a later step."""
    starts = sorted({0, *(int(q["from"]) for q in queries if int(q["from"]) < len(entries))})
    stretches = [(a, b) for a, b in zip(starts, [*starts[1:], len(entries)]) if a < b]
    first = next((k for k, (a, b) in enumerate(stretches) if any(e.step == step for e in entries[a:b])), None)
    if first is None or not queries:
        return next((i for i, e in enumerate(entries) if e.step > step), len(entries))
    return next((a for a, b in stretches[first + 1:] if any(e.step > step for e in entries[a:b])), len(entries))


def _made_before(path: Path, first_dropped: str) -> bool:
    """Whether the decision in `path` (the fork check's, the repeat check's, repeats starting by
    themselves) was made before the first run set aside ended: then it rests on kept runs only.
    A stamp in whole seconds could be up to a second late, so it must lead by that much; an
    unreadable one is taken as later (the hunt then decides again, which costs a few runs)."""
    try:
        made = dt.datetime.fromisoformat(json.loads(path.read_text(encoding="utf8"))["at"])
        ended = dt.datetime.fromisoformat(first_dropped)
    except (OSError, ValueError, TypeError, KeyError):
        return False
    slack = dt.timedelta(seconds=0 if made.microsecond else 1)
    return made + slack <= ended

