"""Plain-text files every stage shares: lists of test ids, and writes that survive a crash.

A list file holds one test id per line (blank lines and `#` comments ignored): what
`stestr run --load-list` accepts, and what every step of a hunt is saved as.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from isolate.errors import UserError

HUNTS = ".isolate"
"""The directory, next to the project, that holds one directory per hunt."""


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
