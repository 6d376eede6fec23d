"""Run an ordered list of test ids, once per repetition, in a fresh process, and judge the target.

This is what a hunt spends its time on, so it does only what stestr's ``run --load-list`` cannot:
it keeps the list's order (verified from the emitted stream), names unknown ids instead of
dropping them, never touches ``.stestr/`` or ``.testrepository/``, and starts as little as
possible per repetition. Each repetition runs in its own process group (``start_new_session``)
with its own temporary directory as ``TMPDIR`` and the project root as cwd (runs at once: each
in a folder of its own, the project's or a copy of it; executors/folders.py); a per-run timeout
kills the whole group, and the group is killed again once its leader exits so that daemons a test
forked do not outlive the run. Should this process die without cleaning up (SIGKILL), a small
watchdog (:mod:`isolate.running.executors.reaper`; the fork server itself in fork mode) kills the running groups.

The Runner schedules repetitions and judges each (judge.py); where and how one repetition runs is
an executor's business (executors/): ``fresh`` starts the project's interpreter (or testr
command) per repetition; ``fork`` keeps one :mod:`isolate.running.forkserver` per Runner and forks
per repetition (faster; the interpreter's start-up state, e.g. the str hash seed, is shared);
with a ``scheduler`` address, every repetition is a task on a Dask worker (executors/dask.py,
imported only then: Dask is an optional extra; executors/fork.py too is imported only when used).

Ctrl-C: :meth:`Runner.run` kills every running group and raises :class:`Interrupted`, which
carries the outcomes that finished.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from isolate.errors import UserError
from isolate.files import remove_tree
from isolate.running.executors.base import Executor, Job
from isolate.running.executors.folders import Folders
from isolate.running.executors.local import LocalExecutor
from isolate.running.executors.processes import Launcher
from isolate.running.executors.reaper import Reaper
from isolate.running.judge import CRASH, ERROR, FAIL, KINDS, PASS, TIMEOUT, Expectation, Outcome, judge
from isolate.running.project import Project

__all__ = ["CRASH", "ERROR", "FAIL", "KINDS", "PASS", "TIMEOUT", "Interrupted", "Outcome", "Runner"]
MODES = ("fresh", "fork")
IN_FLIGHT_GRACE = 2.0  # seconds at least that runs in flight may take to finish after a reproduction


class Interrupted(Exception):
    """Ctrl-C during :meth:`Runner.run`: every job was killed; ``outcomes`` finished before."""

    def __init__(self, outcomes: list[Outcome]) -> None:
        super().__init__(f"interrupted after {len(outcomes)} finished runs")
        self.outcomes = outcomes


class Runner:
    """Runs lists for one project; a context manager because it owns temp state and an executor.

    ``expected_signature`` is the recorded failure's signature (see :mod:`isolate.running.signature`);
    a ``fail`` only counts as ``reproduced`` when it matches, unless ``any_failure``; one of another way
    at a later line of the test's function than ``expected_point`` (the recorded failure's file and line)
    went past it (``past``).
    ``count_crashes`` makes a crash count as reproduction (the recorded failure was a crash).
    ``discover_all`` imports the whole test tree first, as stestr does, for failures that need
    some other module's import-time side effects. ``preload`` (fork mode only) names ids whose
    modules the server imports once, sharing their import-time state (see isolate.running.forkserver).
    ``scheduler`` (a Dask scheduler's address) runs every repetition on that cluster's workers;
    ``warn`` receives their one-line warnings (a refused worker), by default on stderr.
    ``repeat`` > 1 runs the target that many times at the end of every list, in the same process
    (a fresh copy of its test case, or a new pytest item, each time): the outcome is a reproduction if any execution reproduced the failure,
    and says what each execution did (``Outcome.executions``). It may be changed between runs.
    """

    def __init__(
        self,
        project: Project,
        *,
        mode: str = "fresh",
        timeout: float | None = None,
        expected_signature: str | None = None,
        expected_point: tuple[str, int] | None = None,
        any_failure: bool = False,
        count_crashes: bool = False,
        discover_all: bool = False,
        preload: Sequence[str] = (),
        scheduler: str | None = None,
        warn: Callable[[str], None] | None = None,
        repeat: int = 1,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        if timeout is not None and timeout <= 0:
            raise ValueError("timeout must be positive")
        if repeat < 1:
            raise ValueError("repeat must be at least 1")
        if preload and project.kind == "pytest":
            raise ValueError("preload needs a stestr/testr project")
        if mode == "fork" and scheduler:
            raise UserError("the fork server cannot run on Dask workers; fix: drop --fork-server "
                            "or --scheduler")
        self.project = project
        self.mode = mode
        self.timeout = timeout
        self.expect = Expectation(expected_signature, any_failure, count_crashes, expected_point)
        self.discover_all = discover_all
        self.preload = tuple(preload)
        self.scheduler = scheduler
        self.warn = warn or _warn
        self.repeat = repeat
        self._tmp: Path | None = None
        self._reaper: Reaper | None = None  # cleans up if this process dies without close()
        self._executor: Executor | None = None
        self._folders: Folders | None = None  # the working folders of local runs at once
        self._seq = 0

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the executor and delete the temporary state."""
        if self._executor is not None:
            self._executor.close()
            self._executor = None
        if self._reaper is not None:
            self._reaper.close()
            self._reaper = None
        if self._tmp is not None:
            remove_tree(self._tmp)
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
        deadline: float | None = None,
    ) -> list[Outcome]:
        """Run ``ids`` in order ``times`` times, ``jobs`` at once; one Outcome per finished run.

        ``times=None`` (only with ``until_failure``) repeats until a reproduction. A run stops
        early at the first ``error`` (the list cannot run; repeating would not change that) and,
        with ``until_failure``, at the first reproduction; runs still in flight then are killed
        and not reported. No repetition starts after ``deadline`` (``time.monotonic()``); those
        in flight then finish (or time out) and are reported.
        """
        if times is None and not until_failure:
            raise ValueError("times=None needs until_failure")
        report = None if on_outcome is None else (lambda _, outcome: on_outcome(outcome))
        return [o for _, o in self.run_lists([(ids, times)], target, jobs=jobs, until_failure=until_failure,
                                             on_outcome=report, deadline=deadline)]

    def run_lists(
        self,
        lists: Sequence[tuple[Sequence[str], int | None]],
        target: str,
        *,
        jobs: int = 1,
        until_failure: bool = False,
        on_outcome: Callable[[int, Outcome], None] | None = None,
        deadline: float | None = None,
        stop_on_hang: bool = False,
        in_flight: bool = False,
    ) -> list[tuple[int, Outcome]]:
        """Run several lists, each ``(ids, times)``, ``jobs`` runs at once in all: a batch of
        runs chosen together.  Repetitions start in turn across the lists (the first list's
        first run, the second's, ...), so each list is under way as soon as there is room.
        Outcomes come with the index of their list; otherwise as :meth:`run` (``until_failure``
        stops every list at the first reproduction). ``stop_on_hang`` stops them too at the first
        timeout while the target itself ran: every further run would likely wait out the timeout
        as well, and the caller (a hunt) decides whether to go on. ``in_flight`` (with
        ``until_failure``): at the first reproduction the runs of its wave (started before the first
        quarter of the reproducing run's time was over) finish and are reported: they cost little
        wall time more, and each is evidence. They get as long again as the reproducing run took
        (IN_FLIGHT_GRACE at least: a run that hangs is not waited for); later ones are killed."""
        if not lists:
            raise ValueError("no lists to run")
        if jobs < 1 or any(t is not None and t < 1 for _, t in lists):
            raise ValueError("times and jobs must be at least 1")
        if any(t is None for _, t in lists) and (not until_failure or len(lists) > 1):
            raise ValueError("times=None needs until_failure and one list")
        specs: list[tuple[list[str], Path]] = []
        for ids in (list(i) for i, _ in lists):
            if not ids:
                raise UserError("the test list is empty; fix: give at least the target test id")
            if target not in ids:
                raise UserError(f"target {target!r} is not in the list; fix: add it or pick another")
            if ids[-1] == target:
                ids += [target] * (self.repeat - 1)
            path = self._workdir() / f"list-{self._next()}.txt"
            path.write_text("".join(i + "\n" for i in ids), encoding="utf-8")
            specs.append((ids, path))
        executor = self._executor_for_mode()
        executor.prepare(min(jobs, sum(jobs if t is None else t for _, t in lists)))
        left = [t for _, t in lists]  # runs still to start per list (None: until a reproduction)
        order = _turns(left)
        owner: dict[int, int] = {}  # job key -> list index
        outcomes: list[tuple[int, Outcome]] = []
        stop = kill = False  # no more runs to start; those running to be killed too
        cutoff: float | None = None  # in_flight: the runs started by then (its wave) finish...
        grace: float | None = None  # ...until then at most
        finished: list[Job] = []  # judged after their replacements started, off the critical path
        trash: list[Path] = []  # their directories, deleted while the next jobs run
        try:
            while True:
                while (not stop and executor.running < jobs and (deadline is None or time.monotonic() < deadline)):
                    i = next(order, None)
                    if i is None:
                        break
                    job = self._new_job()
                    owner[job.key] = i
                    executor.launch(job, specs[i][1], specs[i][0])
                while finished:
                    job = finished.pop(0)
                    trash.append(job.dir)
                    i = owner.pop(job.key)
                    outcome = self._judge(job, specs[i][0], target)
                    outcomes.append((i, outcome))
                    if on_outcome is not None:
                        on_outcome(i, outcome)
                    if outcome.kind == ERROR or (stop_on_hang and outcome.kind == TIMEOUT and outcome.hung == target):
                        stop = kill = True  # the jobs started meanwhile are killed, not reported
                    elif until_failure and outcome.reproduced and not stop:
                        stop = True
                        if in_flight:
                            took = job.ended - job.started  # its wave: the runs started in its first quarter
                            cutoff, grace = job.started + took / 4, time.monotonic() + max(IN_FLIGHT_GRACE, took)
                        else:
                            kill = True
                if stop and executor.running:
                    over = kill or grace is None or time.monotonic() >= grace
                    executor.kill_all(None if over else cutoff)
                _remove(trash)
                if not executor.running:
                    break
                finished += executor.wait(grace if stop and not kill else None)
        except KeyboardInterrupt:
            executor.kill_all()
            raise Interrupted([o for _, o in outcomes]) from None
        finally:
            executor.kill_all()
            for _, path in specs:
                path.unlink(missing_ok=True)
            _remove(trash)
        return outcomes

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def _workdir(self) -> Path:
        if self._tmp is None:
            self._tmp = Path(tempfile.mkdtemp(prefix="isolate-run-"))
            self._reaper = Reaper(self._tmp)
        return self._tmp

    def capacity(self, ids: Sequence[str] = ()) -> int | None:
        """Runs the executor can hold at once, where it knows (a cluster's worker threads; those of
        the workers that can run ``ids``, when given)."""
        return self._executor_for_mode().capacity(ids)

    def _executor_for_mode(self) -> Executor:
        if self._executor is None:
            launcher = Launcher(self.project, self._workdir(), self.discover_all)
            if self.scheduler:
                try:
                    from isolate.running.executors.dask import DaskExecutor
                except ImportError as exc:
                    raise UserError(f"--scheduler {self.scheduler} (or ISOLATE_SCHEDULER) needs Dask, and"
                                    f" {exc.name or 'distributed'} cannot be imported; fix: pip install"
                                    " 'isolate[dask]', or drop --scheduler and unset ISOLATE_SCHEDULER") from None
                self._executor = DaskExecutor(self.scheduler, self.project, self.timeout,
                                              self.discover_all, self.warn)
            else:
                folders = self._folders = Folders(self.project.root, self._workdir(), self.warn)
                if self.mode == "fork":
                    from isolate.running.executors.fork import ForkExecutor  # with socket: fresh runs never need them

                    self._executor = ForkExecutor(launcher, self.timeout, self.preload, folders)
                else:
                    assert self._reaper is not None
                    self._executor = LocalExecutor(launcher, self.timeout, self._reaper, folders)
        return self._executor

    def _new_job(self) -> Job:
        key = self._next()
        jobdir = self._workdir() / f"job-{key}"
        (jobdir / "tmp").mkdir(parents=True)
        return Job(key, jobdir, time.monotonic())

    def _rewrite(self, folder: Path | None) -> tuple[str, str] | None:
        """The paths a run in ``folder`` names in place of the project's (folders.py)."""
        if folder is None or folder == self.project.root:
            return None
        if self._folders is not None:
            return self._folders.rewrite(folder)
        return (str(folder), str(self.project.root))  # a Dask worker's checkout, or its copy

    def _judge(self, job: Job, ids: list[str], target: str) -> Outcome:
        outcome = judge(
            ids=ids, target=target, stream=job.path("stream.subunit"),
            error_file=job.path("error.txt"), output=job.path("output.txt"),
            returncode=job.returncode, timed_out=job.timed_out,
            seconds=job.ended - job.started, expect=self.expect,
            folder=self._rewrite(job.folder),
        )
        return replace(outcome, executor=job.executor)


def _turns(left: list[int | None]) -> Iterator[int]:
    """Which list each next repetition runs: one of each in turn while they have runs to start
    (a list with None has no end)."""
    while True:
        live = [i for i, t in enumerate(left) if t is None or t > 0]
        if not live:
            return
        for i in live:
            t = left[i]
            if t is not None:
                left[i] = t - 1
            yield i


def _warn(message: str) -> None:
    print(f"isolate: warning: {message}", file=sys.stderr, flush=True)


def _remove(directories: list[Path]) -> None:
    for directory in directories:
        remove_tree(directory)
    directories.clear()
