"""`isolate backtrack`: keep the evidence up to a step, set the later runs aside (never deleted)."""

from __future__ import annotations

import datetime as dt
import json
import shlex
from collections.abc import Callable
from pathlib import Path

from isolate.errors import UserError
from isolate.files import write_atomic
from isolate.hunt.journal import read_journal, split_journal
from isolate.hunt.lock import Lock
from isolate.hunt.store import FORK_CHECK, REPEAT_AUTO, REPEAT_CHECK, Hunt, read_queries, read_steps
from isolate.words import counted

DECISIONS = (FORK_CHECK, REPEAT_CHECK, REPEAT_AUTO)  # made from the runs so far, each stamped "at"


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
    later = [name for name in DECISIONS
             if (hunt.path / name).exists() and cut < len(entries) and not _made_before(hunt.path / name, entries[cut].at)]
    for name in later + ["reproducer.txt"] * (hunt.path / "reproducer.txt").exists():
        stem, dot, suffix = name.rpartition(".")
        (hunt.path / name).rename(hunt.path / f"{stem}.backtracked-{stamp}{dot}{suffix}")
    redone = f" The hunt decides again, on the runs kept: {', '.join(later)} set aside." if later else ""
    return (f"kept {counted(cut, 'run')} up to step {step}; set {len(entries) - cut} aside in {aside.name}.{redone}"
            f" Resume with: isolate bisect {shlex.quote(hunt.victim)}")


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

