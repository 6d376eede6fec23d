"""Run an ordered list of test ids, once per repetition, in a fresh process, and judge the target.

This is what a hunt spends its time on, so it does only what stestr's ``run --load-list`` cannot:
it keeps the list's order (verified from the emitted stream), names unknown ids instead of
dropping them, never touches ``.stestr/`` or ``.testrepository/``, and starts as little as
possible per repetition. Each repetition runs in its own process group (``start_new_session``)
with its own temporary directory as ``TMPDIR`` and the project root as cwd; a per-run timeout
kills the whole group, and the group is killed again once its leader exits so that daemons a test
forked do not outlive the run. Should this process die without cleaning up (SIGKILL), a small
watchdog (:mod:`isolate.reaper`; the fork server itself in fork mode) kills the running groups.

Modes: ``fresh`` starts the project's interpreter (or testr command) per repetition;
``fork`` keeps one :mod:`isolate.forkserver` per Runner and forks per repetition (faster; the
interpreter's start-up state, e.g. the str hash seed, is shared; see that module).

Ctrl-C: :meth:`Runner.run` kills every running group and raises :class:`Interrupted`, which
carries the outcomes that finished.
"""

from __future__ import annotations

import os
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import isolate
from isolate.errors import UserError
from isolate.forkclient import ForkClient, kill_group
from isolate.project import Project, pytest_command, runner_command, substitute_placeholders
from isolate.reaper import Reaper
from isolate.verdict import CRASH, ERROR, FAIL, KINDS, PASS, TIMEOUT, Expectation, Outcome, judge

__all__ = ["CRASH", "ERROR", "FAIL", "KINDS", "PASS", "TIMEOUT", "Interrupted", "Outcome", "Runner"]
MODES = ("fresh", "fork")
KILL_GRACE = 5.0  # seconds a killed job gets to be reported dead before stronger measures


class Interrupted(Exception):
    """Ctrl-C during :meth:`Runner.run`: every job was killed; ``outcomes`` finished before."""

    def __init__(self, outcomes: list[Outcome]) -> None:
        super().__init__(f"interrupted after {len(outcomes)} finished runs")
        self.outcomes = outcomes


@dataclass(eq=False)
class _Job:
    """One repetition in flight (mutable bookkeeping, private to the run loop)."""

    key: int
    dir: Path
    started: float
    deadline: float | None
    process: subprocess.Popen[bytes] | None = None
    pidfd: int | None = None
    pid: int | None = None
    timed_out: bool = False
    returncode: int | None = None
    kills: int = 0
    ended: float = 0.0

    def path(self, name: str) -> Path:
        return self.dir / name


class Runner:
    """Runs lists for one project; a context manager because it owns temp state and a server.

    ``expected_signature`` is the recorded failure's signature (see :mod:`isolate.signature`);
    a ``fail`` only counts as ``reproduced`` when it matches, unless ``any_failure``.
    ``count_crashes`` makes a crash count as reproduction (the recorded failure was a crash).
    ``discover_all`` imports the whole test tree first, as stestr does, for failures that need
    some other module's import-time side effects. ``preload`` (fork mode only) names ids whose
    modules the server imports once, sharing their import-time state (see isolate.forkserver).
    """

    def __init__(
        self,
        project: Project,
        *,
        mode: str = "fresh",
        timeout: float | None = None,
        expected_signature: str | None = None,
        any_failure: bool = False,
        count_crashes: bool = False,
        discover_all: bool = False,
        preload: Sequence[str] = (),
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        if timeout is not None and timeout <= 0:
            raise ValueError("timeout must be positive")
        if mode == "fork" and project.kind == "pytest":
            raise UserError("the fork server cannot run pytest projects; fix: drop --fork-server")
        self.project = project
        self.mode = mode
        self.timeout = timeout
        self.expect = Expectation(expected_signature, any_failure, count_crashes)
        self.discover_all = discover_all
        self.preload = tuple(preload)
        self._tmp: Path | None = None
        self._server: ForkClient | None = None
        self._reaper: Reaper | None = None  # cleans up if this process dies without close()
        self._seq = 0

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the fork server and delete the temporary state."""
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._reaper is not None:
            self._reaper.close()
            self._reaper = None
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def run(
        self,
        ids: Sequence[str],
        target: str,
        *,
        times: int | None = 1,
        jobs: int = 1,
        until_failure: bool = False,
        on_outcome: Callable[[Outcome], None] | None = None,
    ) -> list[Outcome]:
        """Run ``ids`` in order ``times`` times, ``jobs`` at once; one Outcome per finished run.

        ``times=None`` (only with ``until_failure``) repeats until a reproduction. A run stops
        early at the first ``error`` (the list cannot run; repeating would not change that) and,
        with ``until_failure``, at the first reproduction; runs still in flight then are killed
        and not reported.
        """
        ids = list(ids)
        if not ids:
            raise UserError("the test list is empty; fix: give at least the target test id")
        if target not in ids:
            raise UserError(f"target {target!r} is not in the list; fix: add it or pick another")
        if times is None and not until_failure:
            raise ValueError("times=None needs until_failure")
        if (times is not None and times < 1) or jobs < 1:
            raise ValueError("times and jobs must be at least 1")
        list_file = self._workdir() / f"list-{self._next()}.txt"
        list_file.write_text("".join(i + "\n" for i in ids), encoding="utf-8")
        selector = selectors.DefaultSelector()
        if self.mode == "fork":
            selector.register(self._fork_server(), selectors.EVENT_READ, None)
        running: dict[int, _Job] = {}
        outcomes: list[Outcome] = []
        started, stop = 0, False
        finished: list[_Job] = []  # judged after their replacements started, off the critical path
        trash: list[Path] = []  # their directories, deleted while the next jobs run
        try:
            while True:
                while not stop and len(running) < jobs and (times is None or started < times):
                    job = self._launch(list_file, ids, selector)
                    running[job.key] = job
                    started += 1
                while finished:
                    job = finished.pop(0)
                    trash.append(job.dir)
                    outcome = self._judge(job, ids, target)
                    outcomes.append(outcome)
                    if on_outcome is not None:
                        on_outcome(outcome)
                    if outcome.kind == ERROR or (until_failure and outcome.reproduced):
                        stop = True  # the jobs started meanwhile are killed, not reported
                if stop and running:
                    self._kill_all(running, selector)
                _remove(trash)
                if not running:
                    break
                for job in self._wait(running, selector):
                    del running[job.key]
                    job.ended = time.monotonic()
                    finished.append(job)
        except KeyboardInterrupt:
            self._kill_all(running, selector)
            raise Interrupted(outcomes) from None
        finally:
            self._kill_all(running, selector)
            selector.close()
            list_file.unlink(missing_ok=True)
            _remove(trash)
        return outcomes

    # -- launching -------------------------------------------------------------------------

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def _workdir(self) -> Path:
        if self._tmp is None:
            self._tmp = Path(tempfile.mkdtemp(prefix="isolate-run-"))
            self._reaper = Reaper(self._tmp)
        return self._tmp

    def _env(self, tmpdir: Path) -> dict[str, str]:
        """The project's environment, with this job's TMPDIR and isolate importable."""
        env = dict(os.environ)
        env["TMPDIR"] = str(tmpdir)
        if self.project.kind == "testr" or self.project.python_argv() != [sys.executable]:
            # Another interpreter may not have isolate installed: expose just this package.
            shim = self._workdir() / "shim"
            if not shim.exists():
                shim.mkdir()
                (shim / "isolate").symlink_to(Path(isolate.__file__).resolve().parent)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(shim), env.get("PYTHONPATH")]))
        return env

    def _command(self, module: str, own: list[str], list_file: Path,
                 ids: list[str]) -> tuple[list[str] | str, bool]:
        if self.project.kind == "pytest":
            return pytest_command(self.project, own, ids, self.discover_all), False
        command, shell = runner_command(self.project, module, own)
        if shell:
            assert isinstance(command, str)
            command = substitute_placeholders(command, list_file, ids, self.project.test_id_option)
        return command, shell

    def _launch(self, list_file: Path, ids: list[str], selector: selectors.BaseSelector) -> _Job:
        key = self._next()
        jobdir = self._workdir() / f"job-{key}"
        (jobdir / "tmp").mkdir(parents=True)
        now = time.monotonic()
        job = _Job(key, jobdir, now, None if self.timeout is None else now + self.timeout)
        if self.mode == "fork":
            assert self._server is not None
            self._server.submit(key, list_file, jobdir, self.discover_all)
            return job
        files = {"list": list_file, "stream": job.path("stream.subunit"), "error-file": job.path("error.txt")}
        if self.project.kind == "pytest":  # one word each, or pytest takes the paths for rootdir hints
            own = [f"--isolate-{name}={path}" for name, path in files.items()]
        else:
            own = [word for name, path in files.items() for word in (f"--{name}", str(path))]
        if self.discover_all and self.project.kind != "pytest":
            own.append("--discover-all")
        command, shell = self._command("isolate.child", own, list_file, ids)
        try:
            job.process = self._popen(command, shell, jobdir / "tmp", job.path("output.txt"))
        except UserError:
            shutil.rmtree(jobdir, ignore_errors=True)
            raise
        job.pid = job.process.pid
        assert self._reaper is not None
        self._reaper.add(job.pid)
        job.pidfd = os.pidfd_open(job.pid)
        selector.register(job.pidfd, selectors.EVENT_READ, job)
        return job

    def _popen(self, command: list[str] | str, shell: bool, tmpdir: Path,
               output: Path) -> subprocess.Popen[bytes]:
        """Start a test process as its own session leader, output to a file."""
        with open(output, "wb") as out:
            try:
                return subprocess.Popen(
                    command, shell=shell, cwd=self.project.root, env=self._env(tmpdir),
                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            except OSError as exc:
                raise UserError(
                    f"cannot start the test interpreter {self.project.python!r}: {exc.strerror}; "
                    "fix: set $PYTHON to a working Python or unset it"
                ) from None

    def _fork_server(self) -> socket.socket:
        if self._server is None or not self._server.alive:
            if self._server is not None:
                self._server.close()
            workdir = self._workdir()
            own = ["--socket", str(workdir / f"fork-{self._next()}.sock")]
            if self.preload:
                preload = workdir / "preload.txt"
                preload.write_text("".join(i + "\n" for i in self.preload), encoding="utf-8")
                own += ["--preload", str(preload)]
            empty = workdir / "empty-list.txt"
            empty.write_text("")
            command, shell = self._command("isolate.forkserver", own, empty, [])
            (workdir / "server-tmp").mkdir(exist_ok=True)
            self._server = ForkClient(
                Path(own[1]),
                lambda: self._popen(command, shell, workdir / "server-tmp",
                                    workdir / "server-output.txt"),
                workdir / "server-output.txt",
                None if self.timeout is None else max(60.0, self.timeout),
            )
        return self._server.sock

    # -- waiting and judging ---------------------------------------------------------------

    def _wait(self, running: dict[int, _Job], selector: selectors.BaseSelector) -> list[_Job]:
        """Block until some jobs finish (or time out); return the finished ones."""
        deadlines = [j.deadline for j in running.values() if j.deadline is not None]
        delay = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
        finished: list[_Job] = []
        for key, _ in selector.select(delay):
            if key.data is None:
                finished += self._server_events(running, selector)
            else:
                job = key.data
                selector.unregister(job.pidfd)
                os.close(job.pidfd)
                job.pidfd = None
                kill_group(job.pid)  # leftovers; the leader is not reaped yet, so the id is safe
                assert self._reaper is not None and job.process is not None
                self._reaper.remove(job.pid)
                job.returncode = job.process.wait()
                finished.append(job)
        now = time.monotonic()
        for job in running.values():
            if job.deadline is not None and now >= job.deadline and job not in finished:
                # Kill; if the job still has not ended after a grace period, kill its group
                # directly; a fork-mode job that survives even that is abandoned as a timeout.
                job.timed_out = True
                job.kills += 1
                job.deadline = now + KILL_GRACE
                if job.kills == 1:
                    self._kill(job)
                elif job.kills == 2 or job.process is not None:
                    kill_group(job.pid)
                else:
                    finished.append(job)
        return finished

    def _server_events(self, running: dict[int, _Job], selector: selectors.BaseSelector) -> list[_Job]:
        assert self._server is not None
        messages = self._server.read()
        finished: list[_Job] = []
        if messages is None:  # the server died: what it was running is lost
            selector.unregister(self._server.sock)
            detail = self._server.close()
            self._server = None
            for job in list(running.values()):
                kill_group(job.pid)
                job.returncode = None
                job.path("error.txt").write_text(
                    f"the fork server died{detail}; fix: run without the fork server\n")
                finished.append(job)
            return finished
        for message in messages:
            found = running.get(message.get("job", -1))
            if found is None:
                continue  # a job killed by an earlier stop
            job = found
            if message.get("pid"):
                job.pid = message["pid"]
            if "exit" in message:
                job.returncode = message["exit"]
                finished.append(job)
        return finished

    def _judge(self, job: _Job, ids: list[str], target: str) -> Outcome:
        return judge(
            ids=ids, target=target, stream=job.path("stream.subunit"),
            error_file=job.path("error.txt"), output=job.path("output.txt"),
            returncode=job.returncode, timed_out=job.timed_out,
            seconds=job.ended - job.started, expect=self.expect,
        )

    def _kill_all(self, running: dict[int, _Job], selector: selectors.BaseSelector) -> None:
        """Kill and reap every running job (their outcomes are discarded)."""
        for job in running.values():
            self._kill(job)
            if job.pidfd is not None:
                selector.unregister(job.pidfd)
                os.close(job.pidfd)
                job.pidfd = None
            if job.process is not None:
                if self._reaper is not None:
                    self._reaper.remove(job.process.pid)
                job.process.wait()
            shutil.rmtree(job.dir, ignore_errors=True)
        running.clear()


    def _kill(self, job: _Job) -> None:
        """Kill a job's whole process group.

        A fork-mode job is killed by the server, which knows the child even before its pid
        reached us and, not having reaped it yet, cannot hit a recycled pid.
        """
        if job.process is None and self._server is not None and self._server.alive:
            self._server.kill(job.key)
        else:
            kill_group(job.pid)


def _remove(directories: list[Path]) -> None:
    for directory in directories:
        shutil.rmtree(directory, ignore_errors=True)
    directories.clear()


