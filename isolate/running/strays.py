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
  of the process's descendants, found through ``/proc`` before any of them dies.

A fresh process is not made a subreaper (ctypes would cost every run a few milliseconds), so a
daemon's double fork there, or a stray of a fresh process that crashed, is still left running.
Linux only, as the rest of the runner; without ``/proc/PID/task/*/children`` nothing is killed.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Collection

PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>


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
