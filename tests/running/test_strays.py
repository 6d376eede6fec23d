"""Finding a run's processes by its mark, on real processes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from isolate.running import strays
from isolate.running.strays import RUN_ENV, marked, new_mark


def test_a_process_caught_between_two_programs_is_read_again_until_it_shows_its_mark(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """CI: a daemon that exec'd `sleep` just as its run ended escaped the sweep: in the middle of
    an exec a process shows an empty environment. Here a shell started with none waits on its
    input, is read while it shows none, and then execs a program that carries the mark. (The
    reads are given a second here, not EXEC_TRIES milliseconds, so a loaded machine's slow exec
    does not fail the test; one read, as before, misses it whatever the machine.)"""
    monkeypatch.setattr(strays, "EXEC_TRIES", 1000)
    mark = new_mark()
    late = subprocess.Popen(["/bin/sh", "-c", f"read line; export {RUN_ENV}={mark}; exec sleep 30"], env={},
                            stdin=subprocess.PIPE)
    plain = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], env={})  # no mark, ever
    try:
        deadline = time.monotonic() + 10
        while strays._environ(late.pid) != b"" and time.monotonic() < deadline:  # the shell, reading
            time.sleep(0.005)
        found: list[int] = []
        reader = threading.Thread(target=lambda: found.extend(marked(mark, os.getpid())))
        reader.start()
        time.sleep(0.01)  # the first reads see the shell with no environment
        assert late.stdin is not None
        late.stdin.write(b"go\n")
        late.stdin.flush()
        reader.join(timeout=30)
        assert found == [late.pid], found
    finally:
        for process in (late, plain):
            process.kill()
            process.wait()
