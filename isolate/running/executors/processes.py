"""Starting and killing local test processes, shared by the fresh and fork-server executors.

Each test process runs in its own session (``start_new_session``), with a working folder of its
own as cwd (the project root, or a copy of it for runs at once: folders.py) and its job's own
directory as ``TMPDIR``; killing means killing its whole process group, so daemons a test forked
die with it.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import isolate
from isolate.errors import UserError
from isolate.files import remove_tree
from isolate.running.executors.base import Executor, Job
from isolate.running.executors.folders import Folders
from isolate.running.in_copy import ROOT_ENV
from isolate.running.project import Project, pytest_command, runner_command, substitute_placeholders
from isolate.running.strays import RUN_ENV, kill_marked


def kill_group(pid: int | None) -> None:
    """SIGKILL a whole process group; a group already gone is fine."""
    if pid is None:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_run(pid: int | None, mark: str | None) -> None:
    """What an ended or killed fresh run left: its process group, and every process started since
    that carries its mark (strays.py: a double-forked daemon, a crashed test process's strays).
    Call it before the leader is reaped, so that neither id can have been recycled."""
    kill_group(pid)
    if pid is not None and mark is not None:
        kill_marked(mark, pid)


@dataclass(frozen=True)
class Launcher:
    """How to start a module of isolate's (the child, the fork server) as the project's tests run:
    its interpreter, its testr wrapper, its configuration."""

    project: Project
    workdir: Path  # the Runner's temporary directory
    discover_all: bool = False

    def env(self, tmpdir: Path, cwd: Path, mark: str | None = None) -> dict[str, str]:
        """The project's environment, with this job's TMPDIR and working folder (PWD), its run's
        mark (strays.py), and isolate importable."""
        env = dict(os.environ)
        env["TMPDIR"] = str(tmpdir)
        env["PWD"] = str(cwd)
        env.pop(RUN_ENV, None)  # isolate run by a test of a hunt: its runs are not that run's
        if mark is not None:
            env[RUN_ENV] = mark
        if cwd != self.project.root:  # a copy: the test process imports the project from it
            env[ROOT_ENV] = str(self.project.root)
        if self.project.kind == "testr" or self.project.python_argv() != [sys.executable]:
            # Another interpreter may not have isolate installed: expose just this package.
            shim = self.workdir / "shim"
            if not shim.exists():
                shim.mkdir()
                (shim / "isolate").symlink_to(Path(isolate.__file__).resolve().parent)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(shim), env.get("PYTHONPATH")]))
        return env

    def command(self, module: str, own: list[str], list_file: Path,
                ids: list[str]) -> tuple[list[str] | str, bool]:
        """The argv (or shell line, for testr) running ``module`` with isolate's ``own`` arguments."""
        if self.project.kind == "pytest":
            return pytest_command(self.project, own, ids, self.discover_all), False
        command, shell = runner_command(self.project, module, own)
        if shell:
            assert isinstance(command, str)
            command = substitute_placeholders(command, list_file, ids, self.project.test_id_option)
        return command, shell

    def popen(self, command: list[str] | str, shell: bool, tmpdir: Path,
              output: Path, cwd: Path | None = None, mark: str | None = None) -> subprocess.Popen[bytes]:
        """Start a test process as its own session leader in ``cwd`` (the project root by
        default), output to a file; ``mark`` marks every process of the run (strays.py)."""
        cwd = cwd or self.project.root
        with open(output, "wb") as out:
            try:
                return subprocess.Popen(
                    command, shell=shell, cwd=cwd, env=self.env(tmpdir, cwd, mark),
                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            except OSError as exc:
                raise UserError(
                    f"cannot start the test interpreter {self.project.python!r}: {exc.strerror}; "
                    "fix: set $PYTHON to a working Python or unset it"
                ) from None


def own_args(launcher: Launcher, list_file: Path, jobdir: Path) -> list[str]:
    """isolate's own arguments of a run of ``list_file`` (the child's, or pytest_child's) that
    leaves stream.subunit and error.txt in ``jobdir``."""
    files = {"list": list_file, "stream": jobdir / "stream.subunit", "error-file": jobdir / "error.txt"}
    if launcher.project.kind == "pytest":  # one word each, or pytest takes the paths for rootdir hints
        return [f"--isolate-{name}={path}" for name, path in files.items()]
    own = [word for name, path in files.items() for word in (f"--{name}", str(path))]
    return [*own, "--discover-all"] if launcher.discover_all else own


KILL_GRACE = 5.0  # seconds a killed job gets to be reported dead before stronger measures


@dataclass(eq=False)
class _Process:
    """A job's local process (mutable bookkeeping of the executor's wait loop)."""

    job: Job
    deadline: float | None
    process: subprocess.Popen[bytes] | None = None
    pidfd: int | None = None
    pid: int | None = None
    kills: int = 0
    mark: str | None = None  # the mark of its run's processes (fresh processes; strays.py)


class ProcessExecutor(Executor):
    """Local test processes with a per-repetition timeout: what the fresh and the fork-server
    executors share. A process past its deadline is killed; one that has still not ended after
    a grace period has its group killed directly; one that survives even that (a fork child whose
    server is wedged) is given up as a timeout."""

    def __init__(self, launcher: Launcher, timeout: float | None, folders: Folders | None = None) -> None:
        self.launcher = launcher
        self.timeout = timeout
        self.folders = folders  # None: every run in the project's folder
        self._selector = selectors.DefaultSelector()
        self._procs: dict[int, _Process] = {}

    @property
    def running(self) -> int:
        return len(self._procs)

    def _track(self, job: Job) -> _Process:
        """Book a launched job, with a working folder of its own (``job.folder``)."""
        deadline = None if self.timeout is None else job.started + self.timeout
        proc = self._procs[job.key] = _Process(job, deadline)
        job.folder = None if self.folders is None else self.folders.take()
        return proc

    def _untrack(self, key: int) -> None:
        proc = self._procs.pop(key)
        if self.folders is not None and proc.job.folder is not None:
            self.folders.give(proc.job.folder)

    def prepare(self, runs: int) -> None:
        if self.folders is not None and not self._procs:
            self.folders.ready(runs)

    def _ready(self, data: object) -> list[Job]:
        """A registered descriptor became readable (``data`` as registered); the jobs that ended."""
        raise NotImplementedError

    def _kill(self, proc: _Process) -> None:
        kill_group(proc.pid)

    def wait(self, until: float | None = None) -> list[Job]:
        deadlines = [p.deadline for p in self._procs.values() if p.deadline is not None]
        deadlines += [] if until is None else [until]
        delay = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
        finished: list[Job] = []
        for key, _ in self._selector.select(delay):
            finished += self._ready(key.data)
        now = time.monotonic()
        for proc in self._procs.values():
            if proc.deadline is not None and now >= proc.deadline and proc.job not in finished:
                proc.job.timed_out = True
                proc.kills += 1
                proc.deadline = now + KILL_GRACE
                if proc.kills == 1:
                    self._kill(proc)
                elif proc.kills == 2 or proc.process is not None:
                    kill_group(proc.pid)
                else:
                    finished.append(proc.job)
        for job in finished:
            self._untrack(job.key)
            job.ended = time.monotonic()
        return finished

    def kill_all(self, after: float | None = None) -> None:
        for key, proc in list(self._procs.items()):
            if after is not None and proc.job.started <= after:
                continue
            self._kill(proc)
            self._forget(proc)
            remove_tree(proc.job.dir)
            self._untrack(key)

    def _forget(self, proc: _Process) -> None:
        """Release a killed process's descriptors and reap it."""

    def close(self) -> None:
        self.kill_all()
        self._selector.close()
