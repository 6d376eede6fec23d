"""Processes a test started outside its process group, killed when its run ends.

A run's test process starts a session of its own, and killing its process group when the run
ends kills whatever its tests started and left running. A process that left the group on
purpose (``subprocess.Popen(..., start_new_session=True)``, ``os.setsid()``, a daemon's double
fork) is not in that group: it would outlive its run, hold a port or a lock file the same test
needs in the next run, and pile up over a night of runs. Two places kill such strays:

* the test process itself, as it leaves (isolate.running.leave): its own children outside its
  group, each with its own group (fresh processes and fork children alike);
* the fork server, which is the "child subreaper" of its children's descendants (Linux's
  ``PR_SET_CHILD_SUBREAPER``): a process orphaned by a fork child that ended, was killed, or by
  a daemon's double fork becomes the server's child instead of init's, and the server kills
  every such process whenever no run is going on (isolate.running.forkserver).

* isolate, when it kills a fresh process (its timeout, or the hunt's stop): every process group
  of the process's descendants, found through ``/proc`` before any of them dies;
* isolate, when a fresh process has ended: every process still carrying that run's mark, an
  environment variable (``RUN_ENV``) set for the run and inherited by whatever its tests start.
  This finds what the tree cannot: a daemon's double fork (init's child by then, a shell's
  ``setsid cmd &``) and the strays of a process that crashed. Only processes started since the
  run's own are read (pids are handed out in turn), so the sweep costs well under a millisecond.
  A process a test started with an environment of its own (``env={...}``) carries no mark.

A fresh process is not made a subreaper (ctypes would cost every run a few milliseconds): the
mark does that work from outside.
Linux only, as the rest of the runner; without ``/proc/PID/task/*/children`` nothing is killed.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Collection

PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>
RUN_ENV = "ISOLATE_RUN"  # a fresh run's mark, in the environment of every process it starts
SWEEPS = 20  # rounds of the marked sweep at most: each kills what the last one's strays forked
EXEC_TRIES = 10  # reads, a millisecond apart, of a process whose environment is empty (an exec)


def children(pid: int | str = "self") -> list[int]:
    """The ids of a process's children (of all its threads); this process's by default."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                found += [int(child) for child in f.read().split()]
        except (OSError, ValueError):
            continue
    return found


def kill_tree(pid: int) -> None:
    """SIGKILL the process groups of ``pid``'s descendants that are not its own (a process that
    left its group: a new session, a daemon); the caller kills ``pid``'s group. ``pid`` must be
    the caller's child, not reaped yet."""
    try:
        own = os.getpgid(pid)
    except ProcessLookupError:
        return
    groups: set[int] = set()
    todo, seen = children(pid), {pid}
    while todo:
        child = todo.pop()
        if child in seen:
            continue
        seen.add(child)
        try:
            groups.add(os.getpgid(child))
        except ProcessLookupError:
            continue
        todo += children(child)
    for group in groups - {own}:
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def kill_strays(keep: Collection[int] = ()) -> int:
    """SIGKILL this process's children outside its process group, each with its whole group (a
    child of this process is not reaped yet, so its group id is still its own), apart from
    ``keep``; children in this process's group are left to the group's own kill. How many."""
    own = os.getpgrp()
    killed = 0
    for pid in children():
        if pid in keep:
            continue
        try:
            group = os.getpgid(pid)
            if group != own:
                os.killpg(group, signal.SIGKILL)
                killed += 1
        except (ProcessLookupError, PermissionError):
            continue
    return killed


def adopt_orphans() -> bool:
    """Make this process the reaper of its descendants' orphans (so they become its children,
    for kill_strays); False where the kernel does not offer it."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def new_mark() -> str:
    """A mark for one run's processes, unique among the runs of every isolate on the machine.
    (os.urandom, not `secrets`: every test process imports this module, and `secrets` costs it
    about a tenth of its start-up.)"""
    return os.urandom(8).hex()


def _last_pid() -> int | None:
    try:
        with open("/proc/sys/kernel/ns_last_pid", encoding="ascii") as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def _born_after(pid: int, since: int, last: int | None) -> bool:
    """Whether ``pid`` was handed out after ``since`` and up to ``last`` (the newest pid), which
    wrap around at the kernel's pid_max; every pid is a candidate when ``last`` is unknown."""
    if last is None:
        return True
    return since < pid <= last if last >= since else pid > since or pid <= last


def marked(mark: str, since: int) -> list[int]:
    """The processes started after process ``since`` whose environment carries ``mark``. A
    process in the middle of an exec shows an empty environment for a moment (CI: a daemon that
    execs `sleep` as its run ends escaped): such a one is read again, a millisecond apart, until
    it shows one (zombies and kernel threads, whose environment stays empty, are not waited for)."""
    needle = f"\0{RUN_ENV}={mark}\0".encode()
    last = _last_pid()
    found: list[int] = []
    blank: list[int] = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or not _born_after(int(name), since, last):
            continue
        environ = _environ(int(name))
        if environ is None:
            continue
        if needle in b"\0" + environ:
            found.append(int(name))
        elif not environ and _may_exec(int(name)):
            blank.append(int(name))
    for _ in range(EXEC_TRIES):
        if not blank:
            break
        time.sleep(0.001)
        still = []
        for pid in blank:
            environ = _environ(pid)
            if environ and needle in b"\0" + environ:
                found.append(pid)
            elif environ == b"" and _may_exec(pid):
                still.append(pid)
        blank = still
    return found


def _environ(pid: int) -> bytes | None:
    """A process's environment block; None when it is gone or another user's."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f.read()
    except OSError:
        return None


def _may_exec(pid: int) -> bool:
    """Whether a process with an empty environment may be between two programs (an exec): not a
    zombie, not a kernel thread (a child of kthreadd, pid 2)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return False
    return fields[0] not in ("Z", "X") and fields[1] not in ("0", "2")


def kill_marked(mark: str, since: int) -> int:
    """SIGKILL every process carrying ``mark`` started after process ``since`` (the run's own,
    ended), again until none is left (a stray may fork while it is being killed). How many."""
    killed = 0
    for _ in range(SWEEPS):
        found = marked(mark, since)
        if not found:
            break
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                continue
    return killed
