"""Summaries of stored runs, so a user can pick the run id and worker tag to investigate."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

from isolate.orders.extract import UNTAGGED
from isolate.orders.repository import Repository
from isolate.orders.stream import FAILING, Record, scan


@dataclass(frozen=True)
class RunSummary:
    run_id: int
    time: str
    tests: int
    failures: tuple[tuple[str, str], ...]  # (test id, worker tag)
    workers: tuple[str, ...]
    warnings: tuple[str, ...]


def summarize(repo: Repository, run_id: int) -> RunSummary:
    path = repo.run_path(run_id)
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
        with path.open("rb") as fp:
            tests = scan(fp, visit, warnings.append)
    except OSError as exc:
        tests = 0
        warnings.append(f"cannot read {path} ({exc.strerror}); check its permissions")
    else:
        if tests == 0:
            warnings.append(f"{path} holds no subunit test records (empty, or not a subunit stream)")
    when = first[0][:19] if first else dt.datetime.fromtimestamp(_mtime(path)).isoformat(" ", "seconds")
    key = lambda tag: (len(tag), tag)  # noqa: E731  worker-2 before worker-10
    return RunSummary(run_id, when, tests, tuple(failures), tuple(sorted(workers, key=key)), tuple(warnings))


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def format_summaries(summaries: list[RunSummary]) -> str:
    lines = [f"{'run':>5}  {'time':19}  {'tests':>6}  {'failed':>6}  workers"]
    for s in summaries:
        lines.append(f"{s.run_id:>5}  {s.time:19}  {s.tests:>6}  {len(s.failures):>6}  {len(s.workers)}")
        for test_id, tag in s.failures:
            lines.append(f"{'':>7}FAIL {test_id}  [{tag}]")
        for warning in s.warnings:
            lines.append(f"{'':>7}warning: {warning}")
    return "\n".join(lines)


def summaries_json(summaries: list[RunSummary]) -> str:
    """`isolate runs --json`: one object per run, newest last."""
    return json.dumps([
        {"run": s.run_id, "time": s.time, "tests": s.tests,
         "failures": [{"test": test_id, "worker": tag} for test_id, tag in s.failures],
         "workers": list(s.workers), "warnings": list(s.warnings)}
        for s in summaries
    ], indent=2)
