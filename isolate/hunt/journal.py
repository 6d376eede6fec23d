"""`journal.jsonl`: one line per finished repetition of a step's list, appended and fsynced.

The journal is the hunt's evidence: the search is a pure function of it, so a hunt stopped by
Ctrl-C, `kill -9`, a reboot or a full disk resumes from it, losing at most the runs in flight.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isolate.hunt.store import Hunt


@dataclass(frozen=True)
class Entry:
    """One finished repetition of a step's list, as the journal records it."""

    step: int
    outcome: str  # fail | pass | timeout | crash | error
    reproduced: bool
    seconds: float
    signature: str | None = None
    at: str = ""  # when it finished, UTC ISO 8601
    hung: str | None = None  # a timeout: the test that was running when the run was killed
    executor: str | None = None  # a Dask worker's address; None: this machine ("local")


def append_journal(hunt: Hunt, entries: list[Entry]) -> None:
    """Append and fsync, so a crash or kill loses at most the repetitions still running."""
    append_lines(hunt.path / "journal.jsonl", [{k: v for k, v in vars(e).items() if v is not None} for e in entries])


def append_lines(path: Path, items: list[dict[str, Any]]) -> None:
    """Append one JSON line per item to `path` and fsync (every journal of a hunt is written so).
    A last line cut by an earlier crash is ended first, so it cannot swallow new entries."""
    lines = "".join(json.dumps(item, sort_keys=True) + "\n" for item in items)
    with open(path, "a+b") as fp:
        size = fp.seek(0, os.SEEK_END)
        if size:
            fp.seek(size - 1)
            if fp.read(1) != b"\n":
                lines = "\n" + lines
        fp.write(lines.encode("utf8"))
        fp.flush()
        os.fsync(fp.fileno())


@dataclass(frozen=True)
class Position:
    """How far a journal has been read: bytes, and lines (for warnings)."""

    offset: int = 0
    lines: int = 0
    cut: bool = False  # the last line read had no newline (a crash cut it)


def read_journal(hunt: Hunt) -> tuple[list[Entry], list[str]]:
    """Every intact entry, and a warning for each line that is not (e.g. cut by a full disk)."""
    entries, warnings, _ = journal_since(hunt, Position())
    return entries, warnings


def journal_since(hunt: Hunt, start: Position) -> tuple[list[Entry], list[str], Position]:
    """The entries appended after `start`, warnings for corrupt lines, and the new position.
    A long hunt reads each line once instead of the whole journal at every step."""
    entries: list[Entry] = []

    def parse(item: Any) -> None:
        entries.append(Entry(
            step=int(item["step"]), outcome=str(item["outcome"]), reproduced=bool(item["reproduced"]),
            seconds=float(item["seconds"]), signature=item.get("signature"), at=str(item.get("at", "")),
            hung=item["hung"] if isinstance(item.get("hung"), str) else None,
            executor=item["executor"] if isinstance(item.get("executor"), str) else None,
        ))

    warnings, position = lines_since(hunt.path / "journal.jsonl", start, parse)
    return entries, warnings, position


def lines_since(path: Path, start: Position, parse: Callable[[Any], None]) -> tuple[list[str], Position]:
    """Hand each JSON line appended to `path` after `start` to `parse`; a line that is not JSON,
    or that `parse` rejects (ValueError, KeyError, TypeError), becomes a warning instead."""
    warnings: list[str] = []
    if not path.exists():
        return warnings, start
    number = start.lines
    with path.open("rb") as fp:
        fp.seek(start.offset)
        data = fp.read()
    lines = data.split(b"\n")
    if not lines[-1]:
        lines.pop()  # the newline ending the last line ends no further line
    for k, raw in enumerate(lines):
        if k == 0 and start.cut and not raw.strip():
            continue  # the newline that ended the cut line, already counted
        number += 1
        try:
            parse(json.loads(raw))
        except (ValueError, KeyError, TypeError):
            warnings.append(f"skipped corrupt line {number} of {path}; the other entries are kept")
    cut = bool(data) and not data.endswith(b"\n") or (not data and start.cut)
    return warnings, Position(start.offset + len(data), number, cut)
