"""The reaper: what it kills when isolate ends without cleaning up, on real processes."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest

from isolate.running import strays
from isolate.running.executors import reaper
from isolate.running.executors.reaper import Reaper
from isolate.running.strays import RUN_ENV, new_mark


def test_a_marked_process_caught_between_two_programs_is_killed_when_it_shows_its_mark(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reaper's sweep stopped at the first pass that found no marked process, so one that was
    exec'ing just then (it shows an empty environment) outlived a killed isolate. A shell started
    with no environment waits on its input while the reaper sweeps, then execs a program that
    carries the run's mark. (Sweeps are given seconds here, not SWEEPS milliseconds, so a loaded
    machine's slow exec does not fail the test; the old sweep ended at once whatever the machine.)"""
    monkeypatch.setattr(reaper, "SWEEPS", 3000)
    mark = new_mark()
    group = subprocess.Popen(["sleep", "30"], start_new_session=True)  # the run's own process group
    late = subprocess.Popen(["/bin/sh", "-c", f"read line; export {RUN_ENV}={mark}; exec sleep 30"], env={},
                            stdin=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while strays._environ(late.pid) != b"" and time.monotonic() < deadline:  # the shell, reading
            time.sleep(0.005)
        watch = Reaper(tmp_path / "runner-tmp")
        watch.add(group.pid, mark)
        closing = threading.Thread(target=watch.close)  # as if isolate died: end of file on the pipe
        closing.start()
        group.wait(timeout=30)  # its group killed: the reaper is sweeping now
        time.sleep(0.05)
        assert late.stdin is not None
        late.stdin.write(b"go\n")
        late.stdin.flush()
        closing.join(timeout=60)
        assert late.wait(timeout=30) == -9  # killed once it showed the mark, not left running
    finally:
        for process in (group, late):
            process.kill()
            process.wait()
