"""`lock`: one process runs a hunt at a time; a lock left by a dead process is taken over."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path

from isolate.errors import UserError
from isolate.hunt.store import Hunt



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
