"""``isolate replay``: run a list by hand, N times, and say how often the target failed the same way.

The library function behind the command: it reads the list, finds the project and the recorded
failure signature, runs the list through :class:`isolate.running.runner.Runner` and formats the tally.
It is for users who want to reproduce a failure themselves (a hunt's ``step-NNN.txt`` or
``order.txt``, or any list they wrote), so input problems are :class:`UserError` with a fix,
and an ``error`` outcome (the list cannot run) is one too: repeating it would not help.

Exit status (see :func:`exit_status`): 0 no run reproduced the failure, 1 at least one did,
2 user error, 130 interrupted by Ctrl-C or SIGTERM (the runs that finished are still reported).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from isolate.errors import UserError
from isolate.files import HUNTS, read_list
from isolate.running.project import find_project, with_pytest_args
from isolate.running.runner import ERROR, FAIL, KINDS, Interrupted, Outcome, Runner
from isolate.running.signature import signature_from_traceback
from isolate.words import seconds as duration

FAILURE_FILE = "failure.txt"
EXIT_NOT_REPRODUCED, EXIT_REPRODUCED, EXIT_STOPPED, EXIT_INTERRUPTED = 0, 1, 2, 130
_MARKS = {"pass": ".", "timeout": "T", "crash": "C", "error": "E", "skip": "s"}


@dataclass(frozen=True)
class Recorded:
    """The failure a run must reproduce: its signature, and where that came from.

    ``crash`` means the recorded text was empty (the worker died mid-test): then a crash
    reproduces it, and so does any failure. ``hunt_any_failure``: the list lies in a hunt
    directory whose hunt was told ``--any-failure``, so any failure counts here as it did there.
    """

    signature: str | None = None
    source: str | None = None
    crash: bool = False
    hunt_any_failure: bool = False


@dataclass(frozen=True)
class ReplayResult:
    """Everything ``isolate replay`` reports."""

    list_path: Path
    target: str
    tests: int
    mode: str
    jobs: int
    recorded: Recorded
    any_failure: bool
    outcomes: tuple[Outcome, ...]
    interrupted: bool
    seconds: float
    stopped: str = ""  # why the runs stopped short after some finished (all Dask workers lost)

    @property
    def reproduced(self) -> int:
        return sum(o.reproduced for o in self.outcomes)

    def counts(self) -> dict[str, int]:
        return {kind: sum(o.kind == kind for o in self.outcomes) for kind in KINDS}


def recorded_failure(list_path: Path, signature_from: Path | None) -> Recorded:
    """The recorded failure: ``--signature-from`` or the hunt directory's ``failure.txt``."""
    path = signature_from
    hunt_dir = list_path.resolve().parent
    in_hunt = hunt_dir.parent.name == HUNTS
    hunt_any = signature_from is None and in_hunt and _hunt_counts_any_failure(hunt_dir)
    if path is None and in_hunt and (hunt_dir / FAILURE_FILE).is_file():
        path = hunt_dir / FAILURE_FILE
    if path is None:
        return Recorded(hunt_any_failure=hunt_any)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read the recorded failure {path} ({exc.strerror}); fix: pass "
                        "an existing file holding the recorded traceback") from None
    if b"\0" in data:
        raise UserError(f"{path} is not a text file; fix: pass the recorded traceback text")
    text = data.decode("utf-8", "replace")
    signature = signature_from_traceback(text)
    return Recorded(signature, str(path), crash=not text.strip(), hunt_any_failure=hunt_any)


def _hunt_counts_any_failure(hunt_dir: Path) -> bool:
    """Whether the hunt in `hunt_dir` counts any failure of its victim (`bisect --any-failure`):
    its reproducer and steps failed that way, so `verify` counts them so, and replay must agree.
    An unreadable hunt.json reads as no (the commands that own it name the damage)."""
    try:
        settings = json.loads((hunt_dir / "hunt.json").read_text(encoding="utf8"))
        return settings.get("search", {}).get("any_failure") is True
    except (OSError, ValueError, AttributeError):
        return False


def replay(
    list_path: Path,
    *,
    times: int | None = 1,
    until_failure: bool = False,
    jobs: int | None = None,
    timeout: float | None = None,
    target: str | None = None,
    any_failure: bool = False,
    signature_from: Path | None = None,
    mode: str = "fresh",
    discover_all: bool = False,
    project_dir: Path | None = None,
    progress: TextIO | None = None,
    pytest_args: tuple[str, ...] = (),
    scheduler: str | None = None,
) -> ReplayResult:
    """Run the list ``times`` times (None: until a reproduction), ``jobs`` at once.

    ``jobs`` defaults to the number of usable CPUs, or with a Dask ``scheduler`` its cluster's
    worker threads (capped at ``times``). Raises UserError for bad input and for a list that
    cannot run; Ctrl-C ends with a result marked ``interrupted``.
    """
    if times is None and not until_failure:
        times = 1
    if times is not None and times < 1:
        raise UserError(f"--times must be at least 1, not {times}; fix: pass --times 1 or more")
    if jobs is not None and jobs < 1:
        raise UserError(f"--jobs must be at least 1, not {jobs}; fix: pass --jobs 1 or more")
    if timeout is not None and not (math.isfinite(timeout) and timeout > 0):
        raise UserError(f"--timeout must be a finite number of seconds > 0, not {timeout}; fix: pass"
                        " seconds, e.g. 60")
    ids = list(read_list(list_path))
    if not ids:
        raise UserError(f"{list_path} holds no test ids; fix: put one test id per line, the "
                        "failing test last")
    if target is None:
        target = ids[-1]
    elif target not in ids:
        raise UserError(f"--target {target!r} is not in {list_path}; fix: name a test id of the "
                        "list, or drop --target to use its last line")
    recorded = recorded_failure(list_path, signature_from)
    any_failure = any_failure or recorded.hunt_any_failure  # as the list's hunt counts them
    project = find_project(project_dir or Path.cwd())
    project = with_pytest_args(project, pytest_args)
    finished: list[Outcome] = []

    def note(outcome: Outcome) -> None:
        finished.append(outcome)
        if progress is not None:
            mark = ("F" if outcome.reproduced else "f") if outcome.kind == FAIL else _MARKS[outcome.kind]
            progress.write(mark)
            progress.flush()

    start = time.monotonic()
    interrupted = False
    stopped = ""
    with _sigterm_interrupts(), Runner(
        project, mode=mode, timeout=timeout, expected_signature=recorded.signature,
        any_failure=any_failure, count_crashes=recorded.crash, discover_all=discover_all,
        scheduler=scheduler,
    ) as runner:
        jobs = jobs or runner.capacity((*ids, target)) or len(os.sched_getaffinity(0))
        if times is not None:
            jobs = min(jobs, times)
        try:
            runner.run(ids, target, times=times, jobs=jobs, until_failure=until_failure,
                       on_outcome=note)
        except Interrupted:
            interrupted = True
        except UserError as exc:  # e.g. every Dask worker lost: report the runs that finished
            if not finished:
                raise
            stopped = str(exc)
    if progress is not None and finished:
        progress.write("\n")
    errors = [o for o in finished if o.kind == ERROR]
    if errors:
        raise UserError(errors[0].message)
    return ReplayResult(list_path, target, len(ids), mode, jobs, recorded, any_failure,
                        tuple(finished), interrupted, time.monotonic() - start, stopped)


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """Treat SIGTERM like Ctrl-C while replaying, so that ``kill`` also kills every job's
    process group and removes the temporary state instead of leaving them behind."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def exit_status(result: ReplayResult) -> int:
    """130 if interrupted, 2 if stopped short by an error, else 1 if any run reproduced the
    failure, else 0."""
    if result.interrupted:
        return EXIT_INTERRUPTED
    if result.stopped:
        return EXIT_STOPPED
    return EXIT_REPRODUCED if result.reproduced else EXIT_NOT_REPRODUCED


def _signatures(result: ReplayResult) -> dict[str, int]:
    seen: dict[str, int] = {}
    for outcome in result.outcomes:
        if outcome.kind == FAIL:
            key = outcome.signature or "(no traceback)"
            seen[key] = seen.get(key, 0) + 1
    return dict(sorted(seen.items(), key=lambda kv: -kv[1]))


def _messages(result: ReplayResult) -> list[str]:
    """Distinct reasons for timeouts, crashes and skips of the target, in the order first seen."""
    return list(dict.fromkeys(o.message for o in result.outcomes if o.kind in ("timeout", "crash", "skip")))


def to_json(result: ReplayResult) -> dict[str, object]:
    """The ``--json`` document (stable keys; ``outcomes`` always has all six kinds)."""
    runs = len(result.outcomes)
    return {
        "runs": runs,
        "outcomes": result.counts(),
        "reproduced": result.reproduced,
        "target": result.target,
        "list": str(result.list_path),
        "tests": result.tests,
        "mode": result.mode,
        "jobs": result.jobs,
        "recorded_signature": result.recorded.signature,
        "recorded_from": result.recorded.source,
        "any_failure": result.any_failure,
        "signatures": _signatures(result),
        "messages": _messages(result),
        "seconds": round(result.seconds, 3),
        "seconds_per_run": round(sum(o.seconds for o in result.outcomes) / runs, 4) if runs else None,
        "interrupted": result.interrupted,
        "stopped": result.stopped or None,
        "executors": dict(sorted(Counter(o.executor for o in result.outcomes).items())),
    }


def format_json(result: ReplayResult) -> str:
    return json.dumps(to_json(result), indent=2)


def format_text(result: ReplayResult) -> str:
    """A short human summary, then the traceback of the first failure of the target."""
    runs = len(result.outcomes)
    mode = "fork server" if result.mode == "fork" else "fresh processes"
    per_run = sum(o.seconds for o in result.outcomes) / runs if runs else 0.0
    lines = [
        f"{'interrupted after' if result.interrupted else 'stopped after' if result.stopped else 'ran'} "
        f"{runs} run{'s' * (runs != 1)} of "
        f"{result.tests} test{'s' * (result.tests != 1)}, target {result.target}",
        f"  {mode}, {result.jobs} job{'s' * (result.jobs != 1)}, {per_run:.3f} s per run, "
        f"{duration(result.seconds)} in all",
    ]
    for kind, count in result.counts().items():
        lines.append(f"  {kind:<8}{count:>6}")
    if result.recorded.source:
        shown = result.recorded.signature or (
            "(empty: no traceback was recorded, as when the worker crashed or the test did not fail there;"
            " crashes and any failure count)"
            if result.recorded.crash else "(no exception line in it: any failure counts)")
        lines.append(f"recorded failure: {shown}  [{result.recorded.source}]")
    elif not result.any_failure:
        lines.append("recorded failure: none given, so any failure of the target counts")
    if result.recorded.hunt_any_failure:
        lines.append("any failure of the target counts, as in the list's hunt (bisect --any-failure); to count"
                     " only the recorded one, pass --signature-from FILE")
    for signature, count in _signatures(result).items():
        lines.append(f"  {count:>6} x {signature}")
    lines.extend(f"  {message}" for message in _messages(result)[:5])
    rate = f" ({100 * result.reproduced / runs:.0f}%)" if runs else ""
    lines.append(f"reproduced {result.reproduced}/{runs}{rate}")
    first = next((o for o in result.outcomes if o.kind == FAIL and o.details), None)
    if first is not None:
        lines.append("first failure of the target:")
        lines.extend("  " + line for line in first.details.rstrip().splitlines())
    return "\n".join(lines)
