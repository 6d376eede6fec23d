"""Reading pytest-replay's per-worker record files, and the names pytest recordings use.

Users of pytest-xdist may already run with pytest-replay (`--replay-record-dir DIR`), which
writes one file per process: `.pytest-replay-gw1.txt` for worker gw1, `.pytest-replay.txt` when
xdist is not used. Each line is a JSON object written as the test *starts* (`nodeid`, `start`)
and again when its teardown ends (`nodeid`, `start`, `finish`, `outcome`), so a worker that died
mid-test leaves that test started but never finished. pytest-replay writes seconds since the
session start rather than wall-clock times, and drops every falsy field (so a `start` of 0.0 is
simply absent): a line is a finish line exactly when it has `finish`. Versions before 1.0 wrote
bare node ids, one a line, with no outcomes.

This module imports no pytest: `isolate extract` reads these files without pytest installed.
The plugin shares the naming rules below, so a recording directory of either kind resolves the
same `gw1` / `main` worker names to the same `worker-gw1` / `worker-main` tags.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from isolate.orders.stream import Record

MAIN = "main"
"""The process name of a pytest run without xdist (xdist workers are `gw0`, `gw1`, ...)."""

RECORD_SUFFIX = ".subunit"
"""`pytest --isolate-record DIR` writes `DIR/<process name><RECORD_SUFFIX>`."""

REPLAY_BASE = ".pytest-replay"
"""pytest-replay's default `--replay-base-name`."""

_REPLAY_NAME = re.compile(r"^(?P<base>.+?)(?:-(?P<worker>gw\d+))?\.txt$")
_OUTCOMES = {"passed": "success", "failed": "fail", "skipped": "skip"}


def worker_tag(name: str) -> str:
    """The subunit tag for a pytest process: `gw1` -> `worker-gw1`, `main` -> `worker-main`.

    `Record.worker` recognises only tags starting with `worker-`, while users type xdist's own
    names; an already-prefixed tag is returned unchanged so either spelling can be passed.
    """
    return name if name.startswith("worker-") else f"worker-{name}"


def record_path(directory: Path, name: str) -> Path:
    """Where the plugin records process `name` (`gw1`, `main`, or the tag `worker-gw1`)."""
    return directory / f"{name.removeprefix('worker-')}{RECORD_SUFFIX}"


def replay_path(directory: Path, name: str, base: str = REPLAY_BASE) -> Path:
    """Where pytest-replay records process `name`: `.pytest-replay-gw1.txt` or `.pytest-replay.txt`."""
    bare = name.removeprefix("worker-")
    return directory / (f"{base}.txt" if bare == MAIN else f"{base}-{bare}.txt")


def replay_process(path: Path, base: str = REPLAY_BASE) -> str | None:
    """The process (`gw1`, `main`) whose pytest-replay file `path` is by its name, else None."""
    match = _REPLAY_NAME.match(path.name)
    if match is None or match["base"] != base:
        return None
    return match["worker"] or MAIN


def replay_files(directory: Path, base: str = REPLAY_BASE) -> list[tuple[str, Path]]:
    """Every pytest-replay file in `directory` as (process name, path), main first, then gw0, gw1, ...

    Numeric order (gw2 before gw10) so listings read the way xdist numbers its workers.
    """
    found: list[tuple[int, str, Path]] = []
    for path in directory.iterdir():
        process = replay_process(path, base)
        if process is None or not path.is_file():
            continue
        found.append((-1 if process == MAIN else int(process[2:]), process, path))
    return [(name, path) for _, name, path in sorted(found)]


@dataclass(frozen=True, slots=True)
class _Line:
    """One test's start or finish, as pytest-replay wrote it."""

    nodeid: str
    start: float | None
    finish: float | None
    outcome: str | None
    lineno: int


def scan_replay(
    fp: TextIO,
    worker: str,
    visit: Callable[[Record], None],
    warn: Callable[[str], None],
    *,
    origin: float | None = None,
) -> int:
    """Push one Record per test of a pytest-replay file to `visit`, in execution order.

    `worker` is the process name (`gw1`, `main`) or its tag (`worker-gw1`); every record is
    tagged `worker_tag(worker)`. Status comes from `outcome` (passed, failed, skipped; an xfail
    is recorded by pytest-replay as skipped, a strict xpass as failed); a finished test without
    one counts as passed. A test that started and never finished was running when the worker
    died: it becomes a `fail` with no details, start == stop, and a warning.

    Times are relative in the file; they are anchored at `origin` (epoch seconds of the session
    start) or, by default, so that the last event falls on the file's modification time (when it
    was last written), or the Unix epoch for a file-like object without one. Durations are exact
    either way. Returns the number of records.
    """
    label = getattr(fp, "name", "the pytest-replay file")
    tags = frozenset({worker_tag(worker)})
    lines, bare = _parse(fp, label, warn)
    if bare and not lines:
        warn(f"{label} lists node ids only (pytest-replay before 1.0): no outcomes, so every test"
             " is counted as passed; pass --test ID to name the failing test")
        for nodeid in bare:
            visit(Record(nodeid, "success", tags, None, None, ""))
        return len(bare)
    if bare:
        warn(f"{label} mixes bare node ids with JSON lines; ignored the {len(bare)} bare ones")
    anchor = _anchor(fp, lines) if origin is None else origin
    count = 0
    running: _Line | None = None
    for line in lines:
        if line.finish is None:
            if running is not None and running.nodeid != line.nodeid:
                _died(running, label, tags, anchor, visit, warn)
                count += 1
            running = line
            continue
        if running is not None and running.nodeid != line.nodeid:
            _died(running, label, tags, anchor, visit, warn)
            count += 1
        running = None
        status = _status(line, label, warn)
        start = line.start if line.start is not None else 0.0
        visit(Record(line.nodeid, status, tags, _iso(anchor, start), _iso(anchor, line.finish), ""))
        count += 1
    if running is not None:
        _died(running, label, tags, anchor, visit, warn)
        count += 1
    return count


def _parse(fp: TextIO, label: str, warn: Callable[[str], None]) -> tuple[list[_Line], list[str]]:
    """JSON lines (kept) and bare node-id lines (the old format); comments and blanks skipped."""
    lines: list[_Line] = []
    bare: list[str] = []
    for lineno, raw in enumerate(fp, 1):
        text = raw.strip()
        if not text or text.startswith(("#", "//")):
            continue
        if not text.startswith("{"):
            bare.append(text)
            continue
        try:
            data = json.loads(text)
            nodeid = data["nodeid"]
            if not isinstance(nodeid, str):
                raise TypeError(nodeid)
            lines.append(_Line(nodeid, _number(data.get("start")), _number(data.get("finish")),
                               data.get("outcome"), lineno))
        except (ValueError, KeyError, TypeError):
            warn(f"line {lineno} of {label} is not a pytest-replay record (JSON with a nodeid);"
                 " skipped it")
    return lines, bare


def _number(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(value)
    return float(value)


def _status(line: _Line, label: str, warn: Callable[[str], None]) -> str:
    if line.outcome is None:
        return "success"
    status = _OUTCOMES.get(line.outcome)
    if status is None:
        warn(f"{line.nodeid} has outcome {line.outcome!r} at line {line.lineno} of {label};"
             " counted it as failed")
        return "fail"
    return status


def _died(line: _Line, label: str, tags: frozenset[str], anchor: float,
          visit: Callable[[Record], None], warn: Callable[[str], None]) -> None:
    warn(f"{line.nodeid} started at line {line.lineno} of {label} but never finished: the worker"
         " died (or was interrupted) while running it; counted it as failed")
    stamp = _iso(anchor, line.start if line.start is not None else 0.0)
    visit(Record(line.nodeid, "fail", tags, stamp, stamp, "", cut=True))


def _anchor(fp: TextIO, lines: list[_Line]) -> float:
    try:
        mtime = os.fstat(fp.fileno()).st_mtime
    except (OSError, AttributeError, ValueError):
        return 0.0
    last = max((t for line in lines for t in (line.start, line.finish) if t is not None), default=0.0)
    return mtime - last


def _iso(anchor: float, seconds: float) -> str:
    """The timestamp format `isolate.orders.stream` gives v2 records: `YYYY-MM-DD HH:MM:SS.ffffffZ`."""
    stamp = dt.datetime.fromtimestamp(anchor + seconds, dt.timezone.utc)
    return stamp.isoformat(sep=" ").replace("+00:00", "Z")


def scan_replay_dir(
    directory: Path,
    visit: Callable[[Record], None],
    warn: Callable[[str], None],
    base: str = REPLAY_BASE,
) -> int:
    """Every pytest-replay file of `directory`, each tagged with its process's worker tag.

    For `isolate extract --stream DIR`: the files together play the part of one multi-worker
    stream. Returns the number of records (0 when there are no such files).
    """
    return sum(scan_replay_file(path, name, visit, warn) for name, path in replay_files(directory, base))


def scan_replay_file(path: Path, name: str, visit: Callable[[Record], None], warn: Callable[[str], None]) -> int:
    """One pytest-replay file of process `name`, as scan_replay reads it."""
    with path.open(encoding="utf-8", errors="replace") as fp:
        return scan_replay(fp, name, visit, warn)
