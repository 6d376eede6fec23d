"""A watchdog that kills the test process groups isolate leaves behind when it dies abruptly.

Every repetition runs in its own session, so a terminal's Ctrl-C does not reach it and isolate
kills it itself. That breaks down when isolate is killed without a chance to clean up (SIGKILL,
the OOM killer, a SIGTERM to a program that does not handle it): the test processes would run
on, forever if a test hangs. The reaper is a tiny process in its own session that reads
``+PGID MARK`` / ``-PGID`` lines on a pipe from isolate; when the pipe reaches end-of-file, which
the kernel guarantees however isolate ends, it SIGKILLs every group still registered, then every
process carrying one of their runs' marks (``ISOLATE_RUN``, strays.py: what a test started in a
session of its own, a double fork's daemon), and removes the Runner's temporary directory.

Groups are unregistered before their leader is reaped, so the reaper can never hit a recycled id.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SWEEPS = 20  # of /proc at most, a millisecond apart, while a marked process or one between two programs is seen
_SCRIPT = """
import os, shutil, signal, sys, time
groups = {}
for line in sys.stdin:
    pid, _, mark = line[1:].strip().partition(" ")
    if line[0] == "+":
        groups[int(pid)] = mark
    else:
        groups.pop(int(pid), None)
for pid in groups:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
marks = {("ISOLATE_RUN=" + m).encode() + b"\\0" for m in groups.values() if m}
for _ in range(int(sys.argv[2]) if marks else 0):  # what left the groups, by its run's mark; what it forked
    found = blank = 0                               # meanwhile; what was between two programs (strays.marked)
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                with open("/proc/" + entry + "/environ", "rb") as f:
                    env = b"\\0" + f.read()
                if env == b"\\0":
                    with open("/proc/" + entry + "/stat") as f:
                        state, parent = f.read().rsplit(")", 1)[1].split()[:2]
                    blank += state not in ("Z", "X") and parent not in ("0", "2")
            except (OSError, ValueError):
                continue
            if any(b"\\0" + m in env for m in marks):
                found += 1
                try:
                    os.kill(int(entry), signal.SIGKILL)
                except OSError:
                    pass
    if not found and not blank:
        break
    time.sleep(0.001)
shutil.rmtree(sys.argv[1], ignore_errors=True)
"""


class Reaper:
    """Watches one Runner's process groups and removes its temporary ``directory`` at the end.

    ``close()`` ends it (with nothing left to kill) once the Runner has cleaned up itself.
    """

    def __init__(self, directory: Path) -> None:
        self._process: subprocess.Popen[str] | None = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _SCRIPT, str(directory), str(SWEEPS)], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
            start_new_session=True,
        )

    def _write(self, line: str) -> None:
        if self._process is None:
            return
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except OSError:
            pass  # the reaper is gone: nothing to protect any more, and nothing to report

    def add(self, pgid: int, mark: str | None = None) -> None:
        """Kill this group, and the processes carrying the run's ``mark`` (strays.py), if isolate
        dies before :meth:`remove`."""
        self._write(f"+{pgid} {mark or ''}")

    def remove(self, pgid: int) -> None:
        """The group is being reaped by isolate itself."""
        self._write(f"-{pgid}")

    def close(self) -> None:
        if self._process is not None:
            assert self._process.stdin is not None
            try:
                self._process.stdin.close()
            except OSError:
                pass
            self._process.wait()
            self._process = None
