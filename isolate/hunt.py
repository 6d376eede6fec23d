"""The hunt directory `.isolate/<hunt>/`: everything a hunt knows, on disk, human-readable.

- `hunt.json`   settings: the victim, where its order came from, the search settings
- `order.txt`   the worker's recorded order up to and including the victim
- `failure.txt` the recorded failure text of the victim (its signature is derived from it)
- `durations.json` seconds each test took in the recorded run (the search weighs cost by them)
- `step-NNN.txt` every candidate list ever run, each a valid `--load-list` file
- `journal.jsonl` one line per finished repetition, appended and fsynced

Every file except the journal is written whole: temp file, fsync, rename.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isolate.errors import UserError

HUNTS = ".isolate"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_TAIL = 60


def hunt_name(test_id: str) -> str:
    """A directory name for a test id, safe on every file system and collision-free.

    The readable part keeps the tail of the id (the test's own name) with anything but
    letters, digits, `.`, `_` and `-` replaced, no leading dot, at most 60 characters; a hash
    of the whole id keeps different ids apart, case-insensitive file systems included.
    """
    safe = _UNSAFE.sub("_", test_id.replace("::", "."))  # pytest's node id separator is a boundary too
    readable = safe[-_TAIL:]
    if len(safe) > _TAIL and "." in readable:  # start at a component boundary: `Class.test_x`
        readable = readable.split(".", 1)[1] or readable
    readable = readable.lstrip(".-_") or "test"
    digest = hashlib.sha256(test_id.encode("utf8")).hexdigest()[:10]
    return f"{readable}-{digest}"


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` whole or not at all, even across a crash or a full disk."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf8", newline="\n") as fp:
            fp.write(text)
            fp.flush()
            os.fsync(fp.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def list_text(ids: tuple[str, ...] | list[str]) -> str:
    return "".join(f"{test_id}\n" for test_id in ids)


@dataclass(frozen=True)
class Hunt:
    """A hunt directory and what it was created from."""

    path: Path
    settings: dict[str, Any]

    @property
    def victim(self) -> str:
        return str(self.settings["victim"])

    def order(self) -> tuple[str, ...]:
        return read_list(self.path / "order.txt")

    def failure(self) -> str:
        path = self.path / "failure.txt"
        return path.read_text(encoding="utf8") if path.exists() else ""

    def step_path(self, step: int) -> Path:
        return self.path / f"step-{step:03d}.txt"


def read_list(path: Path) -> tuple[str, ...]:
    """Test ids from a list file: one per line, blank lines and `#` comments ignored."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"list file {path} does not exist; check the path") from None
    except OSError as exc:
        raise UserError(f"cannot read list file {path} ({exc.strerror}); check its permissions") from None
    if b"\0" in data:
        raise UserError(f"{path} is not a text file (it holds NUL bytes); pass a file with one test id per line")
    try:
        text = data.decode("utf8")
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text; pass a file with one test id per line") from None
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def create_hunt(
    root: Path,
    victim: str,
    order: tuple[str, ...],
    failure: str,
    source: dict[str, Any],
    force: bool,
    durations: tuple[float | None, ...] = (),
) -> Hunt:
    """Make `.isolate/<hunt>/` holding the order as its first candidate list (step 0)."""
    hunts = root / HUNTS
    path = hunts / hunt_name(victim)
    if path.resolve().parent != hunts.resolve():
        raise UserError(f"test id {victim!r} would escape {hunts}; rename the test")
    if (path / "hunt.json").exists() and not force:
        journal = path / "journal.jsonl"
        runs = _count_lines(journal)
        if runs:
            raise UserError(
                f"a hunt for {victim} with {runs} runs already exists in {path};"
                f" continue it with 'isolate bisect {victim}', or pass --force to start over"
            )
    path.mkdir(parents=True, exist_ok=True)
    if force:
        for old in [*path.glob("step-*.txt"), path / "journal.jsonl"]:
            old.unlink(missing_ok=True)
    settings = {"victim": victim, "source": source}
    write_atomic(path / "order.txt", list_text(order))
    write_atomic(path / "failure.txt", failure)
    write_atomic(path / "step-000.txt", list_text(order))
    known = {test_id: round(sec, 6) for test_id, sec in zip(order, durations) if sec is not None}
    write_atomic(path / "durations.json", json.dumps(known, indent=0, sort_keys=True) + "\n")
    write_atomic(path / "hunt.json", json.dumps(settings, indent=2, sort_keys=True) + "\n")
    return Hunt(path, settings)


def _count_lines(path: Path) -> int:
    try:
        with path.open("rb") as fp:
            return sum(1 for _ in fp)
    except FileNotFoundError:
        return 0


# -- finding hunts -------------------------------------------------------------------------


def hunts_root(start: Path | None = None) -> Path | None:
    """The nearest directory at or above `start` holding `.isolate/`."""
    origin = (start or Path.cwd()).resolve()
    for directory in (origin, *origin.parents):
        if (directory / HUNTS).is_dir():
            return directory
    return None


def all_hunts(root: Path) -> list[Hunt]:
    hunts = []
    for settings_file in sorted((root / HUNTS).glob("*/hunt.json")):
        try:
            settings = json.loads(settings_file.read_text(encoding="utf8"))
        except (OSError, ValueError):
            continue
        if isinstance(settings, dict) and "victim" in settings:
            hunts.append(Hunt(settings_file.parent, settings))
    return hunts


def find_hunt(root: Path | None, test: str) -> Hunt | None:
    """The hunt whose victim is `test`, or whose victim contains it unambiguously."""
    if root is None:
        return None
    hunts = all_hunts(root)
    exact = [h for h in hunts if h.victim == test]
    if exact:
        return exact[0]
    partial = [h for h in hunts if test in h.victim]
    if len({h.victim for h in partial}) > 1:
        names = ", ".join(h.victim for h in partial[:8])
        raise UserError(f"{test!r} matches {len(partial)} hunts ({names}); give more of the test id")
    return partial[0] if partial else None


# -- the journal ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One finished repetition of a step's list, as the journal records it."""

    step: int
    outcome: str  # fail | pass | timeout | crash | error
    reproduced: bool
    seconds: float
    signature: str | None = None
    at: str = ""


def append_journal(hunt: Hunt, entries: list[Entry]) -> None:
    """Append and fsync, so a crash or kill loses at most the repetitions still running.
    A last line cut by an earlier crash is ended first, so it cannot swallow new entries."""
    lines = "".join(
        json.dumps({k: v for k, v in vars(e).items() if v is not None}, sort_keys=True) + "\n" for e in entries
    )
    with open(hunt.path / "journal.jsonl", "a+b") as fp:
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
    warnings: list[str] = []
    path = hunt.path / "journal.jsonl"
    if not path.exists():
        return entries, warnings, start
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
            item = json.loads(raw)
            entries.append(Entry(
                step=int(item["step"]), outcome=str(item["outcome"]), reproduced=bool(item["reproduced"]),
                seconds=float(item["seconds"]), signature=item.get("signature"), at=str(item.get("at", "")),
            ))
        except (ValueError, KeyError, TypeError):
            warnings.append(f"skipped corrupt line {number} of {path}; the other entries are kept")
    cut = bool(data) and not data.endswith(b"\n") or (not data and start.cut)
    return entries, warnings, Position(start.offset + len(data), number, cut)


def read_steps(hunt: Hunt, known: dict[int, tuple[str, ...]] | None = None) -> dict[int, tuple[str, ...]]:
    """The step files by number; those in `known` are not read again (step files never change)."""
    steps = dict(known or {})
    for path in hunt.path.glob("step-*.txt"):
        number = path.stem[len("step-"):]
        if number.isdigit() and int(number) not in steps:
            steps[int(number)] = read_list(path)
    return steps


def step_for(hunt: Hunt, ids: tuple[str, ...], steps: dict[int, tuple[str, ...]]) -> int:
    """The step already holding exactly this list, or a new step file for it."""
    for number, listed in steps.items():
        if listed == ids:
            return number
    number = max(steps, default=-1) + 1
    write_atomic(hunt.step_path(number), list_text(ids))
    steps[number] = ids
    return number


def save_settings(hunt: Hunt, settings: dict[str, Any]) -> Hunt:
    write_atomic(hunt.path / "hunt.json", json.dumps(settings, indent=2, sort_keys=True) + "\n")
    return Hunt(hunt.path, settings)


# -- the lock ------------------------------------------------------------------------------


class Lock:
    """`lock` holds the pid, host and boot of the process running the hunt.

    A lock whose process is gone (killed, or the machine rebooted, which the boot id tells
    even when the pid was reused) is stale and taken over with a warning.
    """

    def __init__(self, hunt: Hunt, warn: Callable[[str], None]) -> None:
        self.path = hunt.path / "lock"
        self.warn = warn

    def __enter__(self) -> Lock:
        me = f"{os.getpid()} {socket.gethostname()} {_boot_id()}\n"
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                self._break_if_stale()
                continue
            with os.fdopen(fd, "w") as fp:
                fp.write(me)
            return self
        raise UserError(f"cannot take the lock {self.path}; remove it if no hunt is running")

    def _break_if_stale(self) -> None:
        try:
            pid_text, host, boot = (self.path.read_text().split() + ["", ""])[:3]
            pid = int(pid_text)
        except (OSError, ValueError):
            pid, host, boot = 0, "", ""
        if pid and host == socket.gethostname() and boot == _boot_id() and _alive(pid):
            raise UserError(
                f"this hunt is already running (pid {pid}); wait for it, follow it with 'isolate status',"
                f" or stop it with 'kill {pid}'"
            )
        if pid and host and host != socket.gethostname():
            raise UserError(f"this hunt is locked by pid {pid} on {host}; if that hunt is gone, delete {self.path}")
        self.warn(f"took over a stale lock from pid {pid or '?'}, which is no longer running")
        self.path.unlink(missing_ok=True)

    def __exit__(self, *exc: object) -> None:
        self.path.unlink(missing_ok=True)


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return "-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
