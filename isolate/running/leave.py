"""How a test process ends once its list has run: fresh processes and fork children alike.

By then the run's outcome is on disk (the stream is closed), so nothing after it may cost time.
The process flushes its output, runs its ``atexit`` handlers (a test's cleanup, such as a
temporary database removed at exit, as a normal exit runs them) for at most ATEXIT_GRACE
seconds (multiprocessing's own handler joins every non-daemon child process a test started,
for as long as that runs) and leaves with ``os._exit``:

* without joining the threads its tests left running: a non-daemon thread (a server, an
  executor's worker, a ``threading.Timer``) would otherwise hold the process, and the hunt's
  run, until it ends or the run's timeout kills it;
* without the interpreter's teardown, and (pytest, isolate.running.pytest_child) without the
  session's report: it leaves at the end of ``pytest_sessionfinish``, before the terminal
  summary, where hypothesis's plugin, for one, imports all of hypothesis in every run (about a
  second).

Fixtures are torn down before: a pytest session's fixtures with the last item, a stestr class's
and module's by the runner of the list. Last, the processes its tests started outside its process
group are killed (isolate.running.strays); those inside die with the group once the run ends.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading

from isolate.running.strays import kill_strays

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~5 ms of every test process)
if TYPE_CHECKING:
    from typing import NoReturn

ATEXIT_GRACE = 5.0  # seconds the atexit handlers get


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # closed or broken by a test: nothing more to say there
            pass


def leave(code: int) -> NoReturn:
    """End this process now with status ``code``, after its ``atexit`` handlers (or
    ATEXIT_GRACE seconds of them)."""
    _flush()
    if threading.current_thread() is threading.main_thread():  # where signal handlers run

        def end(signum: int, frame: object) -> None:
            _end(code)

        signal.signal(signal.SIGALRM, end)
        signal.setitimer(signal.ITIMER_REAL, ATEXIT_GRACE)
    atexit._run_exitfuncs()
    _end(code)


def _end(code: int) -> NoReturn:
    _flush()
    kill_strays()
    os._exit(code)
