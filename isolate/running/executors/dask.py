"""The Dask executor: every repetition runs on a worker of a Dask cluster.

Workers are started (``dask worker tcp://HOST:8786``) from the project root of a checkout, with
isolate installed; the journal, the lock and the search stay on the machine that runs isolate.
Each repetition is one task (:func:`_task`), which runs it on the worker exactly as the fresh
executor runs it here (:func:`isolate.running.executors.remote.run_repetition`) and returns the
bytes of ``stream.subunit``, ``error.txt`` and ``output.txt``; they are written into the local
job directory, so the Runner judges them unchanged. A job's ``seconds`` are the worker's own
measure of the run, not the time it queued.

Before a worker runs a list, the fingerprint of the list's test modules (and git HEAD) on the
worker is compared with this checkout's; a worker that differs is refused, with one warning line,
for the rest of the session, and tasks are only ever sent to accepted workers. So is a worker
without isolate, one whose ``$PYTHON`` names no program, and one that could not start a run (that
run goes to another worker, not counted).

What is guaranteed on faults:

* a run counts once: only a task that returned is journaled, and a task's result is read once;
* a worker that dies loses its runs in flight: nothing of them is counted. The scheduler starts
  such a task again on another accepted worker (a fresh repetition, counted once when it
  returns); a task whose workers keep dying (``KilledWorker``) is dropped, not counted; a task
  whose workers all left goes to workers that joined since, once they pass the check;
* when no worker is connected, the session waits for one, saying so, WORKER_WAIT seconds
  (``$ISOLATE_WORKER_WAIT``): a cluster's workers may join after its scheduler, as
  dask-jobqueue's do once their batch jobs start, and a nanny restarts a dead one;
* with no accepted worker left (all died or were refused), or without the scheduler, the hunt
  stops with one line; the journal keeps every finished run, and the same command resumes;
* a cancelled task (Ctrl-C, a reproduction that ends the step, a client that went away: the
  scheduler releases a lost client's tasks) has its test process group killed by the worker
  within about 0.1 s of the worker hearing of it; a worker process that dies takes its test
  processes with it (a reaper watches them); a worker cut off from the scheduler still kills
  its runs at their timeout.
"""

from __future__ import annotations

import logging
import os
import queue
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from distributed import Client, Future, get_worker
from distributed.security import Security
from distributed.comm import parse_address
from distributed.comm.addressing import parse_host_port
from distributed.comm.registry import get_backend
from distributed.worker import thread_state

from isolate.errors import UserError
from isolate.files import remove_tree
from isolate.running.executors.base import Executor, Job
from isolate.running.executors.remote import (
    Request, fingerprint, mismatch, module_files, run_repetition, worker_fingerprint,
)
from isolate.running.project import Project
from isolate.words import seconds

CHECK_TIMEOUT = 60.0  # seconds a worker gets to answer the checkout check
POLL = 1.0  # seconds between health checks while waiting for runs
ACCEPT_TRIES = 5  # checks of newly joined workers before a list's runs give up on the cluster
WORKER_WAIT = 60.0  # seconds to wait for a worker when none is connected (ISOLATE_WORKER_WAIT)
WAIT_ENV = "ISOLATE_WORKER_WAIT"
_GONE = ("cancelled", "released", "forgotten")  # the task is no longer wanted
HAS_ISOLATE = "__import__('importlib.util').util.find_spec('isolate') is not None"  # eval'd on a worker
AGAIN = " (a hunt resumes where it stopped; a replay starts over)"  # the executor serves both


def _task(request: Request) -> dict[str, Any]:
    """Run on a worker: one repetition, killed if the task is cancelled or the worker closes."""
    worker = get_worker()
    key = thread_state.key

    def cancelled() -> bool:
        state = worker.state.tasks.get(key)
        return state is None or state.state in _GONE or worker.status.name in ("closing", "closed", "failed")

    try:
        result = run_repetition(request, cancelled)
    except Exception as exc:  # noqa: BLE001 - the worker cannot run it: the client refuses the worker
        return {"worker": worker.address, "failed": _first_line(exc).split("; fix:", 1)[0]}
    result["worker"] = worker.address
    return result


def _check(kind: str, files: list[str]) -> dict[str, Any]:
    """Run on a worker: its fingerprint of ``files``."""
    return worker_fingerprint(kind, files)


def connect(address: str) -> Client:
    """A client of the scheduler at ``address``, or a one-line error. How long to try is Dask's
    ``distributed.comm.timeouts.connect`` (30 s; env DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT)."""
    fix = "fix: start it (dask scheduler) and give its address, e.g. --scheduler tcp://HOST:8786"
    try:  # before a Client exists: one that fails on a bad address hangs in its destructor
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location)  # a missing or bad port: the Client would fail, then hang 60 s
    except ValueError as exc:
        raise UserError(f"{address!r} is not a Dask scheduler address ({exc}); {fix}") from None
    if scheme in ("tls", "wss") and Security().get_connection_args("client").get("ssl_context") is None:
        # QA: the Client failed with a TypeError and a traceback, then hung 10-60 s in its destructor
        raise UserError(f"{address} needs Dask's TLS configuration (a CA file and a client certificate:"
                        " distributed.comm.tls in ~/.config/dask/, or DASK_DISTRIBUTED__COMM__TLS__CA_FILE and"
                        " its siblings), and there is none; fix: configure it, or give a tcp:// address")
    # isolate says what went wrong in one line of its own; the client's log would say it again
    logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
    try:
        return Client(address, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = _first_line(exc)
        raise UserError(f"cannot reach the Dask scheduler at {address} ({reason}); {fix}") from None


@dataclass(frozen=True)
class _Task:
    """A job in flight: its future, the workers it may run on, and what it runs."""

    job: Job
    future: Future
    workers: tuple[str, ...]
    request: Request


class DaskExecutor(Executor):
    """Repetitions as tasks on the accepted workers of one Dask cluster."""

    name = "dask"

    def __init__(self, address: str, project: Project, timeout: float | None,
                 discover_all: bool = False, warn: Callable[[str], None] | None = None) -> None:
        self.address = address
        self.project = project
        self.timeout = timeout
        self.discover_all = discover_all
        self.warn = warn or (lambda message: None)
        self.client = connect(address)
        self._token = uuid.uuid4().hex[:12]
        self._done: queue.Queue[Future] = queue.Queue()
        self._jobs: dict[str, _Task] = {}  # by task key
        self._refused: dict[str, str] = {}  # worker -> why
        self._verified: dict[str, set[str]] = {}  # worker -> files found to match
        self._seen_workers: dict[str, int] = {}  # address -> threads, as last asked
        self._asked = 0.0
        self._tries = 0
        self._waited = 0.0  # the seconds last waited for a worker to connect

    # -- the cluster ------------------------------------------------------------------------

    def workers(self, fresh: bool = False) -> dict[str, int]:
        """The scheduler's workers and their threads (asked again at most every POLL s)."""
        if fresh or time.monotonic() - self._asked >= POLL:
            try:  # not client.scheduler_info(): the client's periodic refresh (of no worker)
                # may overwrite the cache it returns between its fetch and its return
                info = self.client.sync(self.client.scheduler.identity, n_workers=-1)
            except (OSError, TimeoutError) as exc:
                raise self._lost(str(exc)) from None
            self._seen_workers = {a: int(w.get("nthreads", 1)) for a, w in info.get("workers", {}).items()}
            self._asked = time.monotonic()
        return self._seen_workers

    def capacity(self, ids: Sequence[str] = ()) -> int | None:
        """Threads of every worker not refused: the default number of runs at once. Given ``ids``,
        the workers' checkouts are checked for their modules first, so that a worker refused then
        is not counted (QA: a hunt on two workers, one of them refused, planned its runs for two)."""
        if ids:
            accepted = self._accept(list(ids))
            return sum(self._seen_workers.get(w, 1) for w in accepted) or 1
        workers = self._await_workers()
        if not workers:
            raise self._none_left()
        return sum(workers.values()) or 1

    def _usable(self, workers: dict[str, int]) -> dict[str, int]:
        return {a: n for a, n in workers.items() if a not in self._refused}

    def _await_workers(self) -> dict[str, int]:
        """The connected workers not refused; with none, waits for one to connect (see the
        module's doc): a refused worker still connected is no reason to stop (QA: the only
        matching worker restarted by its nanny while a mismatched one stayed, and the hunt ended)."""
        workers = self._usable(self.workers(fresh=True))
        if workers:
            return workers
        grace = worker_wait()
        what = (f"no Dask worker that can run these tests is connected to {self.address} ({len(self._refused)}"
                f" refused)" if self._refused else f"no Dask worker is connected to {self.address}")
        self.warn(f"{what}; waiting up to {seconds(grace)} for one to join (${WAIT_ENV} sets how long)")
        deadline = time.monotonic() + grace
        while not workers and time.monotonic() < deadline:
            time.sleep(min(POLL, max(0.0, deadline - time.monotonic())))
            workers = self._usable(self.workers(fresh=True))
        self._waited = 0.0 if workers else grace
        return workers

    def _lost(self, reason: str) -> UserError:
        return UserError(f"lost the Dask scheduler at {self.address} ({reason}); fix: restart it and "
                         f"its workers, then run the same command again{AGAIN}")

    def _none_left(self) -> UserError:
        if self._refused:
            worker, why = next(iter(self._refused.items()))
            cause = (f"no Dask worker of {self.address} can run these tests: {len(self._refused)} "
                     f"refused ({worker}: {why})")
        else:
            cause = f"no Dask worker is connected to {self.address}"
            if self._waited:
                cause += f" (waited {self._waited:g} s for one)"
        return UserError(f"{cause}; fix: start 'dask worker {self.address}' from the project root "
                         f"of a checkout matching this one, then run the same command again{AGAIN}")

    def _accept(self, ids: list[str]) -> tuple[str, ...]:
        """The workers whose checkout matches this one for ``ids``' modules; checks those not
        checked yet for some of these files (usually once per worker and hunt). With none, waits
        for a worker to join as `_await_workers` does, and checks it."""
        files = module_files(self.project, ids)
        for _ in range(ACCEPT_TRIES):
            alive = self._accepted(files)
            if alive:
                return alive
            if not self._await_workers():
                break
        raise self._none_left()

    def _accepted(self, files: list[str]) -> tuple[str, ...]:
        """`_accept` once: the matching workers among those connected now (none: empty)."""
        live = self._usable(self.workers()) or self._await_workers()
        unchecked = {w: [f for f in files if f not in self._verified.get(w, ())]
                     for w in live if w not in self._refused}
        unchecked = {w: missing for w, missing in unchecked.items() if missing or w not in self._verified}
        for worker in self._without_isolate([w for w in unchecked if w not in self._verified]):
            self._refuse(worker, "isolate is not installed in its environment",
                         "fix: pip install 'isolate[dask]' where it runs, or stop it")
            del unchecked[worker]
        if unchecked:
            needed = sorted({f for missing in unchecked.values() for f in missing})
            mine = fingerprint(self.project, needed)
            checks = {w: self.client.submit(_check, self.project.kind, needed, workers=[w],
                                            allow_other_workers=False, pure=False, priority=100,
                                            key=f"isolate-check-{self._token}-{self._tries}-{i}")
                      for i, w in enumerate(unchecked)}
            self._tries += 1
            for worker, why in self._answers(checks, mine).items():
                if why is None:
                    self._verified.setdefault(worker, set()).update(needed)
                elif why:
                    self._refuse(worker, why)
            live = self.workers(fresh=True)
        return tuple(w for w in live if w not in self._refused and all(f in self._verified.get(w, ()) for f in files))

    def _refuse(self, worker: str, why: str, fix: str = "") -> None:
        """Send ``worker`` nothing more this session, and say why in one line."""
        self._refused[worker] = why
        fix = fix or ("fix: start it with a working $PYTHON, or stop it" if "$PYTHON" in why
                      else "fix: give it the same checkout as this one, or stop it")
        self.warn(f"Dask worker {worker} refused: {why}; {fix}")

    def _without_isolate(self, workers: list[str]) -> list[str]:
        """Those of ``workers`` that cannot import isolate. Asked with a builtin, which any worker
        can unpickle: a task of isolate's own would fail to unpickle there, and Dask then closes
        the worker, so that it would only seem to have left."""
        if not workers:
            return []
        try:
            found = self.client.run(eval, HAS_ISOLATE, workers=workers, on_error="return")
        except (OSError, TimeoutError) as exc:
            raise self._lost(str(exc)) from None
        return [w for w, present in found.items() if present is False]

    def _answers(self, checks: dict[str, Future], mine: dict[str, Any]) -> dict[str, str | None]:
        """Each checked worker's mismatch (None: it matches; "": it left before answering)."""
        answers: dict[str, str | None] = {}
        deadline = time.monotonic() + CHECK_TIMEOUT
        while checks:
            for worker, future in list(checks.items()):
                if future.done():
                    try:
                        answers[worker] = mismatch(mine, future.result())
                    except Exception as exc:  # noqa: BLE001 - a failed check refuses the worker
                        answers[worker] = f"its checkout check failed ({_first_line(exc)})"
                elif worker not in self.workers():
                    answers[worker] = ""  # gone: neither accepted nor refused
                elif time.monotonic() > deadline:
                    answers[worker] = f"it did not answer the checkout check within {CHECK_TIMEOUT:.0f} s"
                else:
                    continue
                future.release()
                del checks[worker]
            time.sleep(0.02)
        return answers

    # -- the Executor interface ------------------------------------------------------------

    def launch(self, job: Job, list_file: Path, ids: list[str]) -> None:
        workers = self._accept(ids)
        request = Request(tuple(ids), self.project.kind, self.timeout, self.discover_all,
                          self.project.extra_args)
        self._submit(job, request, workers)

    def _submit(self, job: Job, request: Request, workers: tuple[str, ...]) -> None:
        self._tries += 1
        key = f"isolate-run-{self._token}-{job.key}-{self._tries}"
        future = self.client.submit(_task, request, key=key, workers=list(workers),
                                    allow_other_workers=False, pure=False)
        self._jobs[key] = _Task(job, future, workers, request)
        future.add_done_callback(self._done.put)

    @property
    def running(self) -> int:
        return len(self._jobs)

    def wait(self, until: float | None = None) -> list[Job]:
        finished: list[Job] = []
        limit = POLL if until is None else max(0.0, min(POLL, until - time.monotonic()))
        try:
            futures = [self._done.get(timeout=limit)]
        except queue.Empty:
            futures = []
        while True:
            try:
                futures.append(self._done.get_nowait())
            except queue.Empty:
                break
        for future in futures:
            entry = self._jobs.pop(str(future.key), None)
            if entry is None:
                continue  # killed earlier
            if self._could_not_run(entry, future):
                continue
            job = entry.job
            if self._finish(job, future):
                finished.append(job)
            else:
                remove_tree(job.dir)
        if not finished:
            self._check_health()
        return finished

    def _could_not_run(self, task: _Task, future: Future) -> bool:
        """Whether the task's worker could not run it at all (its $PYTHON does not start, its disk
        is full): that worker is refused and the run goes to the others, not counted; with none
        left the hunt stops with the reason."""
        if future.status != "finished":
            return False
        result = future.result()
        if not result.get("failed"):
            return False
        future.release()
        worker = str(result.get("worker"))
        self._refuse(worker, f"it could not start a run ({result['failed']})",
                     "fix: mend that worker's environment, or stop it")
        self._submit(task.job, task.request, self._accept(list(task.request.ids)))
        return True

    def _finish(self, job: Job, future: Future) -> bool:
        """Write what the task returned into the job's directory; False: lost, not counted."""
        if future.status == "cancelled":
            return False
        if future.status == "error":
            exc = future.exception()
            if type(exc).__name__ == "KilledWorker":
                self.warn(f"a run was lost with the Dask workers that ran it ({exc}); it is not counted")
                return False
            message = _first_line(exc)
            job.path("error.txt").write_text(f"the run failed on a Dask worker: {message}\n", encoding="utf-8")
            job.ended = time.monotonic()
            return True
        result = future.result()
        future.release()
        if result.get("cancelled"):
            return False
        for name, field in (("stream.subunit", "stream"), ("error.txt", "error"), ("output.txt", "output")):
            if result.get(field) is not None:
                job.path(name).write_bytes(result[field])
        job.returncode = result["returncode"]
        job.timed_out = bool(result["timed_out"])
        job.executor = str(result.get("worker") or self.address)
        job.folder = Path(result["folder"]) if result.get("folder") else None  # read as this project's root
        job.ended = job.started + float(result["seconds"])
        return True

    def _check_health(self) -> None:
        """Stop with one line when the scheduler is gone or no worker can run what waits."""
        if self.client.status not in ("running", "connecting"):
            raise self._lost(f"the client is {self.client.status}")
        live = self.workers()
        for key, task in list(self._jobs.items()):
            if not any(w in live for w in task.workers):  # all gone: try workers that came since
                workers = self._accept(list(task.request.ids))  # waits for one to (re)join
                del self._jobs[key]
                task.future.cancel()
                self._submit(task.job, task.request, workers)

    def kill_all(self, after: float | None = None) -> None:
        doomed = {key: task for key, task in self._jobs.items() if after is None or task.job.started > after}
        if doomed:
            try:
                self.client.cancel([task.future for task in doomed.values()], force=True)
            except Exception:  # noqa: BLE001 - a lost scheduler cancels them anyway
                pass
        for key, task in doomed.items():
            remove_tree(task.job.dir)
            del self._jobs[key]

    def close(self) -> None:
        self.kill_all()
        try:
            self.client.close(timeout=10)
        except Exception:  # noqa: BLE001 - closing a client of a dead scheduler may time out
            pass


def worker_wait() -> float:
    """Seconds to wait for a worker when none is connected: ``$ISOLATE_WORKER_WAIT``, or WORKER_WAIT."""
    text = os.environ.get(WAIT_ENV, "").strip()
    if not text:
        return WORKER_WAIT
    try:
        wait = float(text)
    except ValueError:
        wait = -1.0
    if not 0 <= wait < float("inf"):
        raise UserError(f"${WAIT_ENV} is {text!r}, not a number of seconds >= 0; fix: set it to e.g. "
                        f"600, or unset it for {WORKER_WAIT:.0f}")
    return wait


def _first_line(exc: BaseException | None) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
