"""Plain-text files every stage shares: lists of test ids, writes that survive a crash, and the
removal of a run's folder that Ctrl-C can still interrupt.

A list file holds one test id per line (blank lines and `#` comments ignored): what
`stestr run --load-list` accepts, and what every step of a hunt is saved as.
"""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

from isolate.errors import UserError

HUNTS = ".isolate"
"""The directory, next to the project, that holds one directory per hunt."""
PYTEST_ARGS = "pytest-args.json"
"""A pytest recording's command line, beside its streams (isolate.orders.pytest_plugin writes it)."""


def remove_tree(path: Path | str) -> None:
    """`shutil.rmtree(path, ignore_errors=True)` that lets Ctrl-C (and SIGTERM, which a hunt turns
    into one) through. CPython's rmtree (3.11) closes a directory, notes that it did, and closes it
    again in a `finally` if it did not: a signal landing between the two makes the second close
    fail with EBADF, and that OSError replaced the KeyboardInterrupt (CI: a hunt stopped by Ctrl-C
    exited 1 with a traceback)."""
    import shutil  # here: most commands never remove a tree

    try:
        shutil.rmtree(path, ignore_errors=True)
    except OSError as exc:  # only that close escapes ignore_errors
        if isinstance(exc.__context__, KeyboardInterrupt):
            raise exc.__context__ from None


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace `path` whole or not at all, even across a crash or a full disk.

    The temp file is `.<name>.<pid>.<random>` next to `path`; one left by a process that was
    killed mid-write (`kill -9`) is removed by the next write of the same file."""
    import tempfile  # here: commands that only read (status, log) never need it (~7 ms)

    check_target(path)
    _remove_stale_temps(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", dir=path.parent)
    except OSError as exc:  # the folder takes no file of ours: its fix, not the file's
        raise UserError(f"cannot write {path} ({exc.strerror}); {_folder_fix(exc)}") from None
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # as open() would make it, not mkstemp's private 0600
        with os.fdopen(fd, "wb") as fp:
            fp.write(text.encode("utf8") if isinstance(text, str) else text)
            fp.flush()
            os.fsync(fp.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise UserError(f"cannot write {path} ({exc.strerror}); {write_fix(exc)}, then run the same"
                            " command again") from None
        raise


def write_fix(exc: OSError) -> str:
    """What to do about a write that failed with `exc`, in a few words for a one-line error."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "free disk space"
    if exc.errno == errno.EROFS:
        return "the file system is read-only: remount it read-write"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "make it writable for this user"
    return "check the disk and the folder's permissions"


def _umask() -> int:
    """The process's umask (reading it means setting it: set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _folder_fix(exc: OSError) -> str:
    """What to do when a folder refuses a new file with `exc` (QA: /proc said "No such file or
    directory; check the folder's permissions")."""
    if exc.errno == errno.ENOENT:  # the folder exists (check_target): /proc, /sys and their like
        return "that folder takes no new files; give a path in another folder"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "make the folder writable for this user, or give a path in another folder"
    return write_fix(exc)


def check_target(path: Path) -> None:
    """A UserError unless `path` can be written by write_atomic (checked before any work)."""
    if path.is_dir():
        raise UserError(f"{path} is a directory; give a file name")
    if path.exists() and not path.is_file():  # a device or a pipe: replacing it would destroy it
        raise UserError(f"{path} is not a regular file (a device or a pipe); give a file name, or '-' and redirect")
    if not path.parent.is_dir():
        raise UserError(f"cannot write {path}: {path.parent} is not a directory; create it first or"
                        " give another path")


def _remove_stale_temps(path: Path) -> None:
    """Temp files of `write_atomic` for `path` whose writer is gone (killed mid-write)."""
    prefix = f".{path.name}."
    try:
        names = [name for name in os.listdir(path.parent) if name.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid_text = name[len(prefix):].split(".", 1)[0]
        # this process writes one temp at a time, so an older one of its own is stale too
        if pid_text.isdigit() and int(pid_text) != os.getpid() and process_exists(int(pid_text)):
            continue
        if not pid_text.isdigit():  # an older temp without a pid: gone after an hour
            try:
                if time.time() - os.stat(path.parent / name).st_mtime < 3600:
                    continue
            except OSError:
                continue
        try:
            os.unlink(path.parent / name)
        except OSError:
            pass


def process_exists(pid: int) -> bool:
    """Whether a process with this id exists (one we may not signal exists too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def reject_non_finite(name: str) -> float:
    """`json.loads(..., parse_constant=reject_non_finite)`: NaN and Infinity are no numbers here."""
    raise ValueError(f"{name} is not a finite number")


def read_text(path: Path, what: str, fix: str) -> str:
    """A UTF-8 text file; a missing file is "", an unreadable or non-UTF-8 one a UserError.
    `what` names the file in the message, `fix` says what to do about it."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise UserError(f"cannot read {what} {path} ({exc.strerror}); {fix}") from None
    try:
        return data.decode("utf8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{what} {path} is not UTF-8 text (byte {exc.start}); {fix}") from None


def list_text(ids: tuple[str, ...] | list[str]) -> str:
    return "".join(f"{test_id}\n" for test_id in ids)


def read_list(path: Path) -> tuple[str, ...]:
    """Test ids from a list file: one per line, blank lines and `#` comments ignored."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"list file {path} does not exist; check the path") from None
    except IsADirectoryError:
        raise UserError(f"list file {path} is a directory; fix: pass a list file, e.g. .isolate/<hunt>/reproducer.txt,"
                        " with one test id per line") from None
    except OSError as exc:
        raise UserError(f"cannot read list file {path} ({exc.strerror}); check its permissions") from None
    if b"\0" in data:
        raise UserError(f"{path} is not a text file (it holds NUL bytes); pass a file with one test id per line")
    try:
        text = data.decode("utf8")
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text; pass a file with one test id per line") from None
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def from_here(path: Path) -> str:
    """`path` as messages show it: relative to the working directory when it lies below it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
