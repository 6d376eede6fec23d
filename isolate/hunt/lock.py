"""`lock`: one process writes a hunt at a time; a lock left by a dead process is taken over.

Every command that writes a hunt (bisect, extract --force, backtrack) holds the lock while it
writes, and takes it before writing anything, so a command refused because the hunt is running
has changed nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from isolate.errors import UserError
from isolate.files import process_exists, write_fix

LOCK = "lock"


@dataclass(frozen=True)
class Holder:
    """Who holds a lock: pid, host, boot id and the process's start time (clock ticks after boot,
    "" in a lock written before it was kept), and whether that process still runs."""

    pid: int
    host: str
    boot: str
    start: str = ""

    @property
    def here(self) -> bool:
        return self.host == _host()

    @property
    def alive(self) -> bool:
        """Running now (on another host: assumed running, since it cannot be checked from here).
        A pid reused by another process after the holder died (kill -9) is told by its start
        time or, in a lock without one, by its command line not naming isolate."""
        if not self.here:
            return bool(self.pid)
        if not (self.pid and self.boot == _boot_id() and process_exists(self.pid)):
            return False
        started = _start_time(self.pid)
        if self.start not in ("", "-") and started:
            return self.start == started
        command = _command_line(self.pid)
        return command is None or "isolate" in command


def _host() -> str:
    """socket.gethostname(), which is uname(2)'s node name, without importing socket (~5 ms of
    every command that reads a lock, isolate status included)."""
    return os.uname().nodename


def stale_because(found: Holder) -> str:
    """Why a lock held by nobody alive is stale, in words: 'pid 812, which is no longer running'."""
    if not found.pid:
        return "an unreadable lock (no pid in it)"
    if found.boot != _boot_id():
        return f"pid {found.pid} of an earlier boot (the machine restarted since)"
    if process_exists(found.pid):
        return f"pid {found.pid}, a number that now belongs to another process"
    return f"pid {found.pid}, which is no longer running"


def holder(directory: Path) -> Holder | None:
    """The holder of the hunt's lock; None when there is no lock. An unreadable or empty lock
    reads as held by nobody alive (pid 0)."""
    try:
        words = (directory / LOCK).read_text(encoding="utf8", errors="replace").split()
    except FileNotFoundError:
        return None
    except OSError:
        words = []
    try:
        pid = int(words[0]) if words else 0
    except ValueError:
        pid = 0
    return Holder(pid, *(words[1:4] + ["", "", ""])[:3])


class Lock:
    """Holds `<directory>/lock` (pid, host and boot of this process) for a `with` block.

    A lock whose process is gone (killed, or the machine rebooted, which the boot id tells even
    when the pid was reused) is stale and taken over with a warning. The lock file appears whole
    (written aside, then hard-linked into place), so nobody ever reads a half-written lock.
    """

    def __init__(self, directory: Path, warn: Callable[[str], None]) -> None:
        self.directory = directory
        self.path = directory / LOCK
        self.warn = warn

    def __enter__(self) -> Lock:
        import tempfile  # here, as in isolate.files.write_atomic: only a command that writes takes the lock

        me = f"{os.getpid()} {_host()} {_boot_id()} {_start_time(os.getpid()) or '-'}\n"
        for _ in range(2):
            try:
                fd, tmp = tempfile.mkstemp(prefix=".lock.", dir=self.directory)
            except OSError as exc:
                raise UserError(f"cannot write in {self.directory} ({exc.strerror}); {write_fix(exc)}") from None
            try:
                with os.fdopen(fd, "w") as fp:
                    fp.write(me)
                os.link(tmp, self.path)
                return self
            except FileExistsError:
                self._break_if_stale()
            except OSError as exc:
                raise UserError(f"cannot write the lock {self.path} ({exc.strerror}); {write_fix(exc)},"
                                " then run the same command again") from None
            finally:
                os.unlink(tmp)
        raise UserError(f"cannot take the lock {self.path}; remove it if no hunt is running")

    def _break_if_stale(self) -> None:
        found = holder(self.directory)
        if found is None:
            return
        if found.here and found.alive:
            raise UserError(
                f"this hunt is already running (pid {found.pid}); wait for it, follow it with 'isolate status',"
                f" or stop it with 'kill {found.pid}'"
            )
        if found.pid and found.host and not found.here:
            raise UserError(f"this hunt is locked by pid {found.pid} on {found.host}; if that hunt is gone,"
                            f" delete {self.path}")
        if self.path.is_dir():  # QA: a traceback (IsADirectoryError) from the unlink below
            raise UserError(f"{self.path} is a directory, not a lock; remove it (rm -r {self.path}) if no hunt is"
                            " running, then run the same command again")
        self.warn(f"took over a stale lock: {stale_because(found)}")
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            raise UserError(f"cannot remove the stale lock {self.path} ({exc.strerror}); {write_fix(exc)},"
                            " then run the same command again") from None

    def __exit__(self, *exc: object) -> None:
        try:
            self.path.unlink(missing_ok=True)
        except OSError as error:  # the folder turned read-only: the next session takes the lock over
            self.warn(f"could not remove the lock {self.path} ({error.strerror}); the next run of isolate"
                      " takes it over")


def _start_time(pid: int) -> str:
    """When the process started, in clock ticks after boot (/proc/PID/stat, field 22); "" where
    that cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf8", errors="replace")
    except OSError:
        return ""
    fields = stat.rsplit(")", 1)[-1].split()  # after the command name, which may hold spaces
    return fields[19] if len(fields) > 19 else ""


def _command_line(pid: int) -> str | None:
    """The process's command line, or None where it cannot be read."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf8", "replace")
    except OSError:
        return None


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return "-"
