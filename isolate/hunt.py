"""The hunt directory `.isolate/<hunt>/`: everything a hunt knows, on disk, human-readable.

- `hunt.json`   settings: the victim, where its order came from, the search settings
- `order.txt`   the worker's recorded order up to and including the victim
- `failure.txt` the recorded failure text of the victim (its signature is derived from it)
- `step-NNN.txt` every candidate list ever run, each a valid `--load-list` file
- `journal.jsonl` one line per finished repetition, appended and fsynced

Every file except the journal is written whole: temp file, fsync, rename.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
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
    readable = _UNSAFE.sub("_", test_id)[-_TAIL:].lstrip(".-_") or "test"
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
    write_atomic(path / "hunt.json", json.dumps(settings, indent=2, sort_keys=True) + "\n")
    return Hunt(path, settings)


def _count_lines(path: Path) -> int:
    try:
        with path.open("rb") as fp:
            return sum(1 for _ in fp)
    except FileNotFoundError:
        return 0
