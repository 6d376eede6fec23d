"""Fork-server mode: start the interpreter once, fork a fresh child per repetition.

Per-run start-up (interpreter, site, subunit/testtools imports) dominates the cost of short
lists, and a hunt runs thousands of them. The server is started exactly like a fresh run would be
(same interpreter, cwd, testr wrapper and environment), imports isolate's runner with subunit and
testtools (a pytest server: pytest), and forks one child per repetition. Each child starts a new
session (so a timeout can kill its whole process group), redirects its output to its own files,
points ``TMPDIR`` at its own directory, then imports the list's test modules *itself*, runs the
list with :func:`isolate.running.child.run_cases` and leaves as a fresh process does
(:mod:`isolate.running.leave`: ``atexit`` handlers, then ``os._exit``).

Test modules are imported in the child, not the server, on purpose: module-level state such as
``random.Random(os.urandom(16))`` or a cache filled at import must be fresh in every repetition,
or a flaky failure would happen in all children or in none (the sample suites flaky_polluter and
fails_alone do exactly this). What children still share is the interpreter's own start-up state:
the ``str`` hash seed (so set/dict order of strings is the same in every child) and whatever the
project's ``sitecustomize``/``.pth`` files or the testr wrapper did once. ``preload`` opts into
importing some test modules in the server (faster for heavy modules, but their import-time state
is then shared). CPython reseeds the global ``random`` in every child by itself.

A pytest project's server (``--pytest``) imports pytest once and nothing of the project: each
child runs ``pytest.main`` with the arguments a fresh run would get (``"pytest"`` in the request),
so conftest files, plugins' registration and collection happen per child, as in a fresh process.
Plugins are not imported up front either: pytest rewrites the asserts of plugin modules it
imports itself, and warns about one imported before it.

Protocol (JSON lines over a Unix socket, so testr wrappers that close inherited descriptors do
not break it): the server sends ``{"ready": pid}``; the parent sends ``{"job": k, "list": ..,
"stream": .., "error_file": .., "output": .., "tmpdir": .., "discover_all": bool[, "pytest": [args]][, "cwd": folder]}``; the server
answers ``{"job": k, "pid": pid}`` and later ``{"job": k, "exit": code}`` (negative: killed by
that signal; 3: the list could not run, see the error file). ``{"kill": k}`` kills job k's group.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import select
import signal
import socket
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from typing import Any

from isolate.running.child import (
    EXIT_LIST_ERROR,
    ListError,
    TestIndex,
    read_ids,
    run_cases,
    write_error,
)
from isolate.running.in_copy import follow
from isolate.running.leave import leave
from isolate.running.runner_args import parse_runner_args
from isolate.running.strays import adopt_orphans, children as own_children, kill_strays

EXIT_CHILD_BROKEN = 70


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    sock.sendall(json.dumps(message).encode() + b"\n")


def serve(sock: socket.socket, index: TestIndex | None) -> None:
    """Answer run requests until the parent closes the socket. The server is the reaper of its
    children's orphans (isolate.running.strays): whenever no run is going on, it kills every
    process of theirs still running, and on the way out. A report the parent is no longer there
    to read ends the server as the socket's end does: the parent may close it after asking for
    kills the server has not read yet (a Ctrl-C), so every job is killed either way."""
    # started by the server itself (a preloaded module's), not by a run; None: no orphans adopted
    mine = set(own_children()) if adopt_orphans() else None
    children: dict[int, int] = {}
    try:
        _serve(sock, index, children, mine)
    except (BrokenPipeError, ConnectionResetError):
        pass
    _leave_nothing(children, mine)


def _serve(sock: socket.socket, index: TestIndex | None, children: dict[int, int], mine: set[int] | None) -> None:
    """The loop of :func:`serve`, until the socket's end; ``children``: job of each running pid."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    os.set_blocking(wake_r, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    buffer = b""
    while True:
        readable, _, _ = select.select([sock.fileno(), wake_r], [], [])
        if wake_r in readable:
            try:
                os.read(wake_r, 4096)
            except BlockingIOError:
                pass
            _reap(sock, children)
        if sock.fileno() in readable:
            data = sock.recv(65536)
            if not data:  # the parent closed the socket, or died: leave nothing running
                return
            buffer += data
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                request = json.loads(line)
                if "kill" in request:
                    _kill(children, request["kill"])
                else:
                    pid = _start(sock, index, request, (wake_r, wake_w))
                    children[pid] = request["job"]
                    _send(sock, {"job": request["job"], "pid": pid})
            _reap(sock, children)
        if mine is not None and not children:
            kill_strays(mine)  # reaped by the next _reap, as any child


def _leave_nothing(children: dict[int, int], mine: set[int] | None) -> None:
    """Kill every job and, when the server adopts orphans (``mine``: the processes it started
    itself), what the jobs left: their orphans become the server's children as the jobs die.
    Waits for that up to a second."""
    for job in list(children.values()):
        _kill(children, job)
    if mine is None:
        return
    deadline = time.monotonic() + 1.0
    while True:
        kill_strays(mine)
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return
        if not set(own_children()) - mine or time.monotonic() > deadline:
            return
        time.sleep(0.01)


def _kill(children: dict[int, int], job: int) -> None:
    """Kill a job's process group; the child is not reaped yet, so its pid is still its own."""
    for pid, key in children.items():
        if key == job:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:  # not in its own session yet: no descendants either
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def _reap(sock: socket.socket, children: dict[int, int]) -> None:
    """Report every finished child, after killing what it left in its process group (an orphan
    the server adopted is reaped as any child, and not reported)."""
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if info is None:
            return
        try:
            os.killpg(info.si_pid, signal.SIGKILL)  # leftovers; the group id is still reserved
        except (ProcessLookupError, PermissionError):
            pass
        _, status = os.waitpid(info.si_pid, 0)
        job = children.pop(info.si_pid, None)
        if job is not None:
            _send(sock, {"job": job, "exit": os.waitstatus_to_exitcode(status)})


def _start(sock: socket.socket, index: TestIndex | None, request: dict[str, Any],
           wake: tuple[int, int]) -> int:
    """Fork the child that resolves (imports) and runs the list; its pid, reported once booked."""
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()  # the child's collections leave the server's objects alone: fewer pages copied
    pid = os.fork()
    if pid == 0:
        code = EXIT_CHILD_BROKEN
        try:
            code = _child(request, index, sock, wake)
        except BaseException:
            traceback.print_exc()
        finally:
            leave(code)
    return pid


def _child(request: dict[str, Any], index: TestIndex | None, sock: socket.socket,
           wake: tuple[int, int]) -> int:
    """Become a fresh-looking test process: own session, output, TMPDIR, and test imports."""
    os.setsid()
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sock.close()
    for fd in wake:
        os.close(fd)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    out = os.open(request["output"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(out)
    os.environ["TMPDIR"] = request["tmpdir"]
    tempfile.tempdir = None
    if request.get("cwd"):
        _move(request["cwd"])
    if index is None:
        return _pytest_main(request["pytest"])
    try:
        if request.get("discover_all"):
            index.discover_all()
        cases = index.resolve(read_ids(request["list"]))
        with open(request["stream"], "wb", buffering=0) as stream:
            run_cases(cases, stream)  # an import: entry's module may fail to import here
    except ListError as error:
        write_error(request["error_file"], error)
        return EXIT_LIST_ERROR
    return 0


def _move(folder: str) -> None:
    """Work in ``folder``, a copy of the server's working folder (executors/folders.py), as a
    fresh process started there would: its cwd, ``PWD``, and the import path (the ``-m`` entry, the
    test tree's top directory, an editable install's ``src/``) in the copy (in_copy.py)."""
    here = os.getcwd()
    os.chdir(folder)
    os.environ["PWD"] = folder
    follow(here, folder)


def _pytest_main(args: list[str]) -> int:
    """What ``python -m pytest ARGS`` does, in this child: its exit status (3: the list could not
    run, the reason in the error file, as isolate.running.pytest_child writes it). A list that
    ran leaves from inside pytest, once its last test is done (isolate.running.pytest_child)."""
    import pytest

    sys.argv = [os.path.join(os.path.dirname(pytest.__file__), "__main__.py"), *args]
    return int(pytest.main(args))


def main(argv: Sequence[str] | None = None) -> int:
    """Connect to the parent, preload what it asked for, then serve."""
    parser = argparse.ArgumentParser(prog="python -m isolate.running.forkserver")
    parser.add_argument("--socket", required=True)
    parser.add_argument("--preload", help="file of ids whose modules to import up front")
    parser.add_argument("--pytest", action="store_true", help="children run pytest.main")
    parser.add_argument("runner_args", nargs=argparse.REMAINDER)
    opts = parser.parse_args(argv)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(opts.socket)
    index = None
    if opts.pytest:
        import pytest  # noqa: F401 - the start-up every child would pay
    else:
        # Imported once here, not in every child whose list holds a testtools TestCase, which
        # reports through them (child.run_cases; the other lists through isolate's own writer).
        import subunit.test_results  # noqa: F401
        import testtools  # noqa: F401
        # testtools reads the content type of a failure's traceback with email's default policy,
        # which it imports then: 7 ms of each child whose list has a failure.
        import email.policy  # noqa: F401

        index = TestIndex(parse_runner_args(opts.runner_args))
    if index is not None and opts.preload:
        for test_id in read_ids(opts.preload):
            try:
                index.resolve([test_id])
            except ListError:
                pass  # reported by the child of a list holding it
    _send(sock, {"ready": os.getpid()})
    serve(sock, index)
    return 0


if __name__ == "__main__":
    sys.exit(main())
