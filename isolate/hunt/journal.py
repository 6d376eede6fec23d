"""`journal.jsonl`: one line per finished repetition of a step's list, appended and fsynced.

The journal is the hunt's evidence: the search is a pure function of it, so a hunt stopped by
Ctrl-C, `kill -9`, a reboot or a full disk resumes from it, losing at most the runs in flight.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from isolate.errors import UserError
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
    hung: str | None = None  # a timeout or crash: the test that was running when the run was killed or died
    executor: str | None = None  # a Dask worker's address; None: this machine ("local")
    phase: str | None = None  # a later phase's lists ("cleaners:<polluter>"); None: the hunt's own
    mode: str | None = None  # "fork": run by the fork server; None: a fresh process (older entries too)
    executions: str | None = None  # the victim repeated in the run (--repeat-victim): each one's r/f/p
    after: str | None = None  # a crash between tests: the last test that finished before the process ended
    past: bool | None = None  # True: a fail of another way past the recorded failure's line (running.judge): a pass of it

    @property
    def telling(self) -> bool:
        """Whether the run is evidence either way of the recorded failure: it reproduced it, or it
        passed, or it failed another way past it (`past`)."""
        return self.reproduced or self.outcome == "pass" or bool(self.past)


def entry_of(step: int, outcome: Any, phase: str | None, mode: str) -> Entry:
    """The journal entry of a run of `step`'s list that just ended with `outcome` (a
    running.judge.Outcome), run in `mode` ("fresh" or "fork") for `phase` (None: the hunt's own)."""
    return Entry(step, outcome.kind, bool(outcome.reproduced), round(outcome.seconds, 4), outcome.signature,
                 dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds"), outcome.hung,
                 None if outcome.executor == "local" else outcome.executor, phase,
                 "fork" if mode == "fork" else None, outcome.executions or None, _ended_after(outcome),
                 True if outcome.past and not outcome.reproduced else None)


def _ended_after(outcome: Any) -> str | None:
    """The test after which the process ended between two predecessors (running.judge.Outcome's
    `after`: a session ended by a hook, a class's or module's teardown), unless it counts as a
    reproduction (a recorded crash)."""
    return None if outcome.reproduced or not outcome.after else str(outcome.after)


def judged_for(entry: Entry, used: int) -> Entry:
    """A run that executed the victim more than `used` times, judged on its first `used`
    executions only: exactly a run of `used` executions, since the later ones ran after them
    (repeats lowered or turned off by isolate.hunt.repeatcheck). Other entries as they are."""
    if not entry.executions or len(entry.executions) <= used:
        return entry
    cut = entry.executions[:used]
    failed = "r" in cut or "f" in cut
    # the signature is the reproduction's when one ran, else the failure's of another way (the
    # note that suggests --any-failure names it): kept when the cut holds an execution it is of
    mine = "r" in cut or ("f" in cut and "r" not in entry.executions)
    return replace(entry, outcome="fail" if failed else "pass", reproduced="r" in cut,
                   signature=entry.signature if mine else None, executions=cut if used > 1 else None)


def judged_any(entry: Entry) -> Entry:
    """A run judged as --any-failure judges it (running.judge.Expectation): the victim failing
    another way reproduces too. For the runs made before --any-failure was given to the hunt: they
    were judged on the recorded failure's signature, and count as they would have counted with it."""
    if entry.outcome != "fail" or (entry.reproduced and "f" not in (entry.executions or "")):
        return entry
    return replace(entry, reproduced=True, executions=entry.executions.replace("f", "r") if entry.executions else None)


def append_journal(hunt: Hunt, entries: list[Entry]) -> None:
    """Append and fsync, so a crash or kill loses at most the repetitions still running."""
    append_lines(hunt.path / "journal.jsonl", [{k: v for k, v in vars(e).items() if v is not None} for e in entries])


def append_lines(path: Path, items: list[dict[str, Any]]) -> None:
    """Append one JSON line per item to `path` and fsync (every journal of a hunt is written so).
    A last line cut by an earlier crash is ended first, so it cannot swallow new entries; lines a
    full disk let through in part are cut off again before the error is raised."""
    data = "".join(json.dumps(item, sort_keys=True) + "\n" for item in items).encode("utf8")
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        size = os.lseek(fd, 0, os.SEEK_END)
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        try:
            written = 0
            while written < len(data):  # unbuffered: a full disk may take part of a write
                written += os.write(fd, data[written:])
            os.fsync(fd)
        except OSError:  # a full disk took part of the lines: cut them off, or every reader warns of them
            try:
                os.ftruncate(fd, size)
            except OSError:
                pass
            raise
    finally:
        os.close(fd)


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
    A long hunt reads each line once instead of the whole journal at every step. In a hunt given
    --any-failure every entry is read as it judges runs (judged_any), so the runs made before it
    was given count alike for the search, the fork check and repeats."""
    entries: list[Entry] = []
    any_failure = bool(hunt.settings.get("search", {}).get("any_failure"))

    def parse(raw: bytes) -> str:
        entry, why = parse_entry(raw)
        if entry is not None:
            entries.append(judged_any(entry) if any_failure else entry)
        return why

    warnings, position = lines_since(hunt.path / "journal.jsonl", start, parse)
    return entries, warnings, position


def lines_since(path: Path, start: Position, parse: Callable[[bytes], str]) -> tuple[list[str], Position]:
    """Hand each line appended to `path` after `start` to `parse`, which returns "" when it took
    the line, or why not: such a line becomes a warning (the other lines are kept)."""
    warnings: list[str] = []
    if not path.exists():
        return warnings, start
    number = start.lines
    try:
        with path.open("rb") as fp:
            fp.seek(start.offset)
            data = fp.read()
    except OSError as exc:
        raise UserError(f"cannot read {path} ({exc.strerror}); check its permissions, or start over with"
                        " 'isolate extract --force'") from None
    lines = data.split(b"\n")
    if not lines[-1]:
        lines.pop()  # the newline ending the last line ends no further line
    for k, raw in enumerate(lines):
        if k == 0 and start.cut and not raw.strip():
            continue  # the newline that ended the cut line, already counted
        number += 1
        why = parse(raw)
        if why:
            warnings.append(f"skipped corrupt line {number} of {path} ({why}); the other entries are kept (a run cut"
                            " short by a crash leaves such a line: delete it to silence this)")
    cut = bool(data) and not data.endswith(b"\n") or (not data and start.cut)
    return warnings, Position(start.offset + len(data), number, cut)


def json_object(raw: bytes) -> tuple[dict[str, Any] | None, str]:
    """One line as a JSON object, or None and why not."""
    try:
        item = json.loads(raw.decode("utf8"))
    except UnicodeDecodeError:
        return None, "not UTF-8"
    except ValueError:
        return None, "not JSON"
    if not isinstance(item, dict):
        return None, "not a JSON object"
    return item, ""


OUTCOMES = frozenset({"fail", "pass", "timeout", "crash", "error", "skip"})
"""The outcomes a repetition can have (running/judge.py); any other is not understood."""


def parse_entry(raw: bytes) -> tuple[Entry | None, str]:
    """One journal line as an Entry, or None and why not. Every field must have its exact type,
    so a line edited by hand (`"reproduced": "false"`, `"step": true`) is skipped, never misread."""
    item, why = json_object(raw)
    if item is None:
        return None, why
    step, outcome, reproduced = item.get("step"), item.get("outcome"), item.get("reproduced")
    seconds, signature, at = item.get("seconds"), item.get("signature"), item.get("at", "")
    if type(step) is not int or step < 0:
        return None, f"step {step!r} is not a step number"
    if outcome not in OUTCOMES:
        return None, f"outcome {outcome!r} is not one of {', '.join(sorted(OUTCOMES))}"
    if type(reproduced) is not bool or (reproduced and outcome in ("pass", "skip")):
        return None, f"reproduced {reproduced!r} is not true or false (or contradicts outcome {outcome})"
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds < 0:
        return None, f"seconds {seconds!r} is not a finite number >= 0"
    if not isinstance(signature, (str, type(None))) or not isinstance(at, str):
        return None, "signature or at is not text"
    hung, executor, phase, mode = item.get("hung"), item.get("executor"), item.get("phase"), item.get("mode")
    after = item.get("after")
    if not all(isinstance(v, (str, type(None))) for v in (hung, executor, phase, after)):
        return None, "hung, executor, phase or after is not text"
    if not isinstance(mode, (str, type(None))):
        return None, f"mode {mode!r} is not text"
    executions = item.get("executions")
    if executions is not None and (not isinstance(executions, str) or len(executions) < 2
                                   or set(executions) - set("rfp") or reproduced != ("r" in executions)):
        return None, f"executions {executions!r} is not a string of r, f and p that agrees with reproduced"
    past = item.get("past")
    if past not in (None, True) or (past and (outcome != "fail" or reproduced)):
        return None, f"past {past!r} is not true, or not of a failure of another way"
    return Entry(step, outcome, reproduced, float(seconds), signature, at, hung, executor, phase, mode,
                 executions, after, past), ""


def split_journal(hunt: Hunt, keep: int) -> tuple[bytes, bytes]:
    """The journal's bytes cut after its `keep`-th intact entry (corrupt lines after it go with
    the rest), for `backtrack`: entries are counted exactly as the reader counts them."""
    path = hunt.path / "journal.jsonl"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return b"", b""
    except OSError as exc:
        raise UserError(f"cannot read the journal {path} ({exc.strerror}); check its permissions") from None
    seen = offset = 0
    for line in data.splitlines(keepends=True):
        if parse_entry(line.rstrip(b"\n"))[0] is not None:
            if seen == keep:
                return data[:offset], data[offset:]
            seen += 1
        offset += len(line)
    return data, b""
