"""Summaries of stored runs, so a user can pick the run id and worker tag to investigate."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from isolate.errors import UserError
from isolate.orders.extract import NO_RECORDS, UNTAGGED, Source, file_source, stream_source
from isolate.orders.repository import Repository
from isolate.orders.stream import FAILING, Record


@dataclass(frozen=True)
class RunSummary:
    run_id: int | None  # None: a saved stream or recording, named by `stream`
    time: str
    tests: int
    failures: tuple[tuple[str, str], ...]  # (test id, worker tag)
    workers: tuple[str, ...]
    warnings: tuple[str, ...]
    stream: str | None = None


def summarize(repo: Repository, run_id: int) -> RunSummary:
    """A stored run of the repository."""
    path = repo.run_path(run_id)
    return summarize_source(file_source(path), str(path), _mtime(path), run_id)


def summarize_stream(stream: Path, stdin: Callable[[], BinaryIO]) -> RunSummary:
    """`isolate runs --stream`: a saved stream, a recording directory, or stdin."""
    source, label = stream_source(stream, stdin)
    summary = summarize_source(source, label, None if str(stream) == "-" else _mtime(stream))
    if not summary.tests:  # (a run among a repository's is listed with its warning; this is all there is)
        last = summary.warnings[-1]  # the source's own error already names its fix
        generic = last == f"{label} {NO_RECORDS}"
        raise UserError(f"{last}; pass a saved subunit stream or a recording directory" if generic else last)
    return summary


def summarize_source(source: Source, label: str, mtime: float | None, run_id: int | None = None) -> RunSummary:
    """What a stream holds (`label` names it in warnings): its tests, its failures with the
    worker each ran on, its workers; its time is its first test's start, else `mtime` (None:
    unknown, "-")."""
    first: list[str] = []
    failures: list[tuple[str, str]] = []
    workers: set[str] = set()
    warnings: list[str] = []

    def visit(record: Record) -> None:
        if not first and record.start:
            first.append(record.start)
        workers.add(record.worker or UNTAGGED)
        if record.status in FAILING:
            failures.append((record.id, record.worker or UNTAGGED))

    try:
        tests = source(visit, warnings.append)
    except UserError as exc:  # (unreadable: the one run's line says why, the others still show)
        tests = 0
        warnings.append(str(exc))
    else:
        if tests == 0:  # a stored run may be an empty one: 'testr run --load-list' of ids it did not find stores it
            warnings.append(f"{label} {NO_RECORDS}" if run_id is None else
                            f"run {run_id} ran no test (an empty run, or a damaged one: {label})")
    when = first[0][:19] if first else "-" if mtime is None else dt.datetime.fromtimestamp(mtime).isoformat(" ", "seconds")
    key = lambda tag: (len(tag), tag)  # noqa: E731  worker-2 before worker-10
    return RunSummary(run_id, when, tests, tuple(failures), tuple(sorted(workers, key=key)), tuple(warnings),
                      None if run_id is not None else label)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def format_summaries(summaries: list[RunSummary]) -> str:
    lines = [f"{'run':>5}  {'time':19}  {'tests':>6}  {'failed':>6}  workers"]
    for s in summaries:
        if s.stream is not None:
            lines.insert(0, f"stream {s.stream}")
        run = "-" if s.run_id is None else str(s.run_id)
        lines.append(f"{run:>5}  {s.time:19}  {s.tests:>6}  {len(s.failures):>6}  {len(s.workers)}")
        for test_id, tag in s.failures:
            lines.append(f"{'':>7}FAIL {test_id}  [{tag}]")
        for warning in s.warnings:
            lines.append(f"{'':>7}warning: {warning}")
    return "\n".join(lines)


def summaries_json(summaries: list[RunSummary]) -> str:
    """`isolate runs --json`: one object per run, newest last (`run` null for a stream, named by
    `stream`)."""
    return json.dumps([
        {"run": s.run_id, **({"stream": s.stream} if s.stream is not None else {}), "time": s.time, "tests": s.tests,
         "failures": [{"test": test_id, "worker": tag} for test_id, tag in s.failures],
         "workers": list(s.workers), "warnings": list(s.warnings)}
        for s in summaries
    ], indent=2)
