"""The worker's side of running a repetition on another machine: plain functions, no Dask.

A remote worker (see dask.py) is started from the project root of a checkout. There,
:func:`run_repetition` runs one repetition exactly as the fresh executor (local.py) does here:
the same command (:func:`isolate.running.executors.local.child_command`), a fresh process in its
own session with the project root as cwd (a copy of it for a run beside others: folders.py) and
a fresh temporary directory as ``TMPDIR``, the
per-run timeout killing the whole process group, and the group killed again once its leader
exits. It returns what the repetition left behind, as bytes, for the client to write into its
own job directory and judge unchanged.

A checkout that differs from the client's would answer a different question, so before a
worker runs anything its :func:`fingerprint` of the listed tests' module files (and git HEAD)
is compared with the client's (:func:`mismatch`).

Should the worker process die without cleaning up (SIGKILL, OOM), a :class:`Reaper` started on
its first run kills the running process groups and removes the worker's scratch directory.
"""

from __future__ import annotations

import hashlib
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isolate.errors import UserError
from isolate.files import remove_tree
from isolate.running.executors.folders import Folders
from isolate.running.executors.local import child_command
from isolate.running.executors.processes import KILL_GRACE, Launcher, kill_group, kill_run
from isolate.running.executors.reaper import Reaper
from isolate.running.project import Project, find_project, with_pytest_args
from isolate.running.strays import new_mark

POLL = 0.1  # seconds between checks whether a running repetition was cancelled


@dataclass(frozen=True)
class Request:
    """One repetition, as a worker needs it (sent pickled): the ids in order, and how to run."""

    ids: tuple[str, ...]
    kind: str  # the client's project kind; the worker's must be the same
    timeout: float | None
    discover_all: bool = False
    pytest_args: tuple[str, ...] = ()


def worker_project(kind: str, pytest_args: tuple[str, ...] = (), start: Path | None = None) -> Project:
    """The project the worker was started in (its cwd), checked to be of the client's kind."""
    project = find_project(start or Path.cwd(), kind if kind in ("pytest", "stestr", "testr") else None)
    if project.kind != kind:
        raise UserError(f"the worker's project in {project.root} is a {project.kind} project, the "
                        f"hunt's is {kind}; fix: start the worker from the same project's root")
    return with_pytest_args(project, pytest_args)


_scratch: tuple[Path, Reaper] | None = None
_folders: dict[Path, Folders] = {}  # per project root: its working folders
_lock = threading.Lock()  # worker threads share the scratch directory, its reaper and the folders


def _scratch_dir() -> tuple[Path, Reaper]:
    global _scratch
    with _lock:
        if _scratch is None:
            directory = Path(tempfile.mkdtemp(prefix="isolate-worker-"))
            _scratch = directory, Reaper(directory)
        return _scratch


def _take_folder(root: Path, base: Path) -> Path:
    """A working folder for one run (folders.py): the worker's threads run at once, so it gets
    one per thread, all made on its first run in ``root``, before any of them starts."""
    with _lock:
        folders = _folders.get(root)
        if folders is None:
            folders = _folders[root] = Folders(root, Path(tempfile.mkdtemp(dir=base, prefix="folders-")),
                                                lambda message: print(f"isolate: warning: {message}",
                                                                      file=sys.stderr, flush=True))
            folders.ready(_threads())
        return folders.take()


def _give_folder(root: Path, folder: Path) -> None:
    with _lock:
        _folders[root].give(folder)


def _threads() -> int:
    """The runs this process holds at once: its Dask worker's threads (1 outside a worker)."""
    try:
        from distributed import get_worker

        return max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        return 1


def _reaper_call(method: Callable[..., None], *args: Any) -> None:
    with _lock:
        method(*args)


def run_repetition(request: Request, cancelled: Callable[[], bool] = lambda: False,
                   start: Path | None = None) -> dict[str, Any]:
    """Run ``request.ids`` once in the worker's project; what it left behind, as data.

    The result holds ``stream``, ``error`` (None when the file was not written: the judge tells
    a missing stream from an empty one) and ``output`` as bytes, ``returncode``, ``timed_out``,
    ``seconds``, ``cancelled`` (the run was killed because ``cancelled()`` said so; its
    files mean nothing) and ``folder``, the working folder it ran in (the worker's project root,
    or a copy of it for a run beside others on the worker's threads).
    """
    project = worker_project(request.kind, request.pytest_args, start)
    base, reaper = _scratch_dir()
    jobdir = Path(tempfile.mkdtemp(dir=base, prefix="job-"))
    try:
        (jobdir / "tmp").mkdir()
        list_file = jobdir / "list.txt"
        list_file.write_text("".join(i + "\n" for i in request.ids), encoding="utf-8")
        launcher = Launcher(project, jobdir, request.discover_all)
        command, shell = child_command(launcher, list_file, jobdir, list(request.ids))
        folder = _take_folder(project.root, base)
        try:
            started = time.monotonic()
            mark = new_mark()
            process = launcher.popen(command, shell, jobdir / "tmp", jobdir / "output.txt", folder, mark)
            _reaper_call(reaper.add, process.pid, mark)
            try:
                timed_out, stopped = _watch(process, request.timeout, started, cancelled)
            except BaseException:
                kill_run(process.pid, mark)
                raise
            seconds = time.monotonic() - started
            kill_run(process.pid, mark)  # leftovers; the leader is not reaped yet, so the ids are safe
            _reaper_call(reaper.remove, process.pid)
            returncode = process.wait()
        finally:
            _give_folder(project.root, folder)

        def read(name: str) -> bytes | None:
            path = jobdir / name
            return path.read_bytes() if path.exists() else None

        return {"stream": read("stream.subunit"), "error": read("error.txt"),
                "output": read("output.txt") or b"", "returncode": returncode,
                "timed_out": timed_out, "seconds": seconds, "cancelled": stopped, "folder": str(folder)}
    finally:
        remove_tree(jobdir)


def _watch(process: subprocess.Popen[bytes], timeout: float | None, started: float,
           cancelled: Callable[[], bool]) -> tuple[bool, bool]:
    """Wait, without reaping, until the leader exits, is killed for time, or is cancelled;
    whether it timed out, and whether it was cancelled."""
    pidfd = os.pidfd_open(process.pid)
    deadline = None if timeout is None else started + timeout
    timed_out = stopped = False
    try:
        while not select.select([pidfd], [], [], POLL)[0]:
            now = time.monotonic()
            if not stopped and cancelled():
                stopped = True
                kill_group(process.pid)
            if deadline is not None and now >= deadline:
                if timed_out:  # killed once and still there: give it up as a timeout
                    break
                timed_out = True
                deadline = now + KILL_GRACE
                kill_group(process.pid)
    finally:
        os.close(pidfd)
    return timed_out, stopped


def module_files(project: Project, ids: list[str] | tuple[str, ...]) -> list[str]:
    """The files (relative to the project root) holding the listed tests' modules (for pytest,
    with the conftest.py files above them), and the project's test configuration: what must be
    the same on a worker for its runs to count."""
    root = project.root
    found: dict[str, None] = {}
    if project.config_file is not None and project.config_file.is_relative_to(root):
        found[str(project.config_file.relative_to(root))] = None
    for test_id in ids:
        if project.kind == "pytest":  # the module and the conftest.py files above it
            module = os.path.normpath(test_id.split("::", 1)[0])
            parents = Path(module).parents
            candidates = [module]
            for directory in parents:
                if (root / directory / "conftest.py").is_file():
                    found[os.path.normpath(directory / "conftest.py")] = None
        else:
            parts = test_id.split("(", 1)[0].split(".")
            candidates = [os.path.join(top, *parts[:n]) + ".py"
                          for n in range(len(parts) - 1, 0, -1)
                          for top in dict.fromkeys([project.top_dir or ".", "."])]
        for candidate in candidates:
            relative = os.path.normpath(candidate)
            if relative in found:
                break
            if (root / relative).is_file():
                found[relative] = None
                break
    return sorted(found)


def fingerprint(project: Project, files: list[str]) -> dict[str, Any]:
    """The SHA-256 of each of ``files`` (None: missing) and the checkout's git HEAD (None:
    not a git checkout), as compared between the client and a worker."""
    hashes: dict[str, str | None] = {}
    for name in files:
        try:
            hashes[name] = hashlib.sha256((project.root / name).read_bytes()).hexdigest()
        except OSError:
            hashes[name] = None
    return {"kind": project.kind, "root": str(project.root), "files": hashes, "head": git_head(project.root)}


def interpreter_problem(project: Project) -> str | None:
    """Why the project's test interpreter (``$PYTHON``) cannot be started here, or None. A testr
    project's command is the shell's to run, and not looked at."""
    if project.kind == "testr":
        return None
    program = project.python_argv()[0]
    found = shutil.which(program)
    if found is None:
        state = "does not exist" if not os.path.exists(program) else "is not an executable file"
        return f"its test interpreter {program!r} {state} (the worker's $PYTHON)"
    return None


def worker_fingerprint(kind: str, files: list[str], start: Path | None = None) -> dict[str, Any]:
    """The worker's fingerprint of ``files`` and whether its test interpreter starts (``python``),
    or ``{"error": ...}`` when it has no such project."""
    try:
        project = worker_project(kind, (), start)
    except UserError as exc:
        return {"error": str(exc).split("; fix:", 1)[0]}
    return {**fingerprint(project, files), "python": interpreter_problem(project)}


def mismatch(mine: dict[str, Any], theirs: dict[str, Any]) -> str | None:
    """Why a worker's fingerprint ``theirs`` differs from the client's ``mine``, or None.
    git HEAD is compared only when both checkouts have one."""
    if "error" in theirs:
        return str(theirs["error"])
    if theirs.get("python"):
        return str(theirs["python"])
    if theirs["kind"] != mine["kind"]:
        return f"its project in {theirs['root']} is a {theirs['kind']} project, this one {mine['kind']}"
    for name, digest in mine["files"].items():
        other = theirs["files"].get(name)
        if other != digest:
            state = "is missing" if other is None else "differs"
            return f"{name} {state} in its checkout {theirs['root']}"
    if mine["head"] and theirs["head"] and mine["head"] != theirs["head"]:
        return f"its checkout {theirs['root']} is at commit {theirs['head'][:12]}, this one at {mine['head'][:12]}"
    return None


def git_head(root: Path) -> str | None:
    """The commit checked out at ``root``, or None (not a git checkout, or no git)."""
    try:
        proc = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() or None if proc.returncode == 0 else None
