"""The fresh executor: every repetition starts the project's interpreter (or testr command) anew.

The slowest way and the truest: nothing is shared between repetitions but the files on disk.
Should isolate die without cleaning up (SIGKILL), the Runner's reaper (reaper.py) kills the
running process groups.
"""

from __future__ import annotations

import os
import selectors
from pathlib import Path

from isolate.errors import UserError
from isolate.files import remove_tree
from isolate.running.executors.base import Job
from isolate.running.executors.folders import Folders
from isolate.running.executors.processes import Launcher, ProcessExecutor, _Process, kill_group, kill_run, own_args
from isolate.running.executors.reaper import Reaper
from isolate.running.strays import kill_tree, new_mark


def child_command(launcher: Launcher, list_file: Path, jobdir: Path,
                  ids: list[str]) -> tuple[list[str] | str, bool]:
    """The command running ``ids`` (also in ``list_file``) once, leaving stream.subunit and
    error.txt in ``jobdir``; shared with the Dask worker's side (remote.py)."""
    return launcher.command("isolate.running.child", own_args(launcher, list_file, jobdir), list_file, ids)


class LocalExecutor(ProcessExecutor):
    """One fresh process per repetition, watched through a pidfd."""

    def __init__(self, launcher: Launcher, timeout: float | None, reaper: Reaper,
                 folders: Folders | None = None) -> None:
        super().__init__(launcher, timeout, folders)
        self._reaper = reaper  # kills the groups if isolate dies without close()

    def launch(self, job: Job, list_file: Path, ids: list[str]) -> None:
        command, shell = child_command(self.launcher, list_file, job.dir, ids)
        proc = self._track(job)
        proc.mark = new_mark()
        try:
            process = self.launcher.popen(command, shell, job.path("tmp"), job.path("output.txt"), job.folder,
                                          proc.mark)
        except UserError:
            self._untrack(job.key)
            remove_tree(job.dir)
            raise
        proc.process, proc.pid = process, process.pid
        self._reaper.add(process.pid, proc.mark)
        proc.pidfd = os.pidfd_open(process.pid)
        self._selector.register(proc.pidfd, selectors.EVENT_READ, proc)

    def _ready(self, data: object) -> list[Job]:
        assert isinstance(data, _Process) and data.process is not None
        self._release(data)
        kill_run(data.pid, data.mark)  # leftovers; the leader is not reaped yet, so the ids are safe
        self._reaper.remove(data.process.pid)
        data.job.returncode = data.process.wait()
        return [data.job]

    def _kill(self, proc: _Process) -> None:
        """The process's group, and first the groups of its descendants that left it (strays.py):
        a killed process cannot kill them itself as it leaves."""
        if proc.pid is not None:
            kill_tree(proc.pid)
        kill_group(proc.pid)

    def _release(self, proc: _Process) -> None:
        if proc.pidfd is not None:
            try:
                self._selector.unregister(proc.pidfd)
            except KeyError:  # Ctrl-C came between pidfd_open and register (CI: a traceback, exit 1)
                pass
            os.close(proc.pidfd)
            proc.pidfd = None

    def _forget(self, proc: _Process) -> None:
        self._release(proc)
        if proc.process is not None:
            kill_run(proc.pid, proc.mark)  # what no tree holds any more: a double fork's daemon
            self._reaper.remove(proc.process.pid)
            proc.process.wait()
