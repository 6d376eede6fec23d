"""Fresh pytest processes against forks of the pytest fork server, side by side.

Works on a temporary copy of sample_suites/pytest_flaky_xdist (nothing is written to the
repository). For each list, the two modes run in alternation, ``--reps`` repetitions each per
round (``jobs`` at once), so both see the same load; the table gives the median seconds per
repetition over the rounds and their ratio. Lists: the victim alone, and the other tests of its
module (the polluter among them) before it. A last line compares how often the victim
failed in each mode at SAMPLE_POLLUTION_RATE=0.5 on the second list (forks must stay as flaky as
fresh processes).

    python benchmarks/pytest_fork_benchmark.py                 # ~1-2 min on 2 cores
    PYTEST_ADDOPTS="-p no:hypothesispytest" python benchmarks/pytest_fork_benchmark.py

The environment's pytest plugins are what every repetition loads: in isolate's test venv that
includes hypothesis's, whose terminal summary imports all of hypothesis (~1 s); the second command
blocks it, as an environment without hypothesis would be.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from isolate.running.project import find_project
from isolate.running.runner import FAIL, Runner

ROOT = Path(__file__).resolve().parent.parent
VICTIM = "tests/test_store.py::test_active_sessions_for_user_counts_logins"


def seconds_per_rep(runner: Runner, ids: list[str], reps: int, jobs: int) -> float:
    start = time.monotonic()
    runner.run(ids, VICTIM, times=reps, jobs=jobs)
    return (time.monotonic() - start) / reps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=10, help="repetitions per mode per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--flaky-runs", type=int, default=40, help="runs per mode at rate 0.5")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        suite = Path(shutil.copytree(ROOT / "sample_suites" / "pytest_flaky_xdist", Path(tmp) / "suite"))
        project = find_project(suite)
        collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                                    "tests/test_store.py"], cwd=suite, capture_output=True, text=True, check=True)
        store = [line for line in collected.stdout.splitlines() if "::" in line and line != VICTIM]
        lists = {"victim alone": [VICTIM], "test_store.py, then the victim": [*store, VICTIM]}
        print(f"PYTEST_ADDOPTS={os.environ.get('PYTEST_ADDOPTS', '')!r}, jobs {opts.jobs}, "
              f"{opts.reps} reps x {opts.rounds} rounds per mode")
        print("| list | tests | fresh s/rep | fork s/rep | fresh / fork |")
        print("|---|---|---|---|---|")
        os.environ["SAMPLE_POLLUTION_RATE"] = "0"
        with Runner(project) as fresh, Runner(project, mode="fork") as fork:
            fork.run([VICTIM], VICTIM)  # the server's start, not counted
            for name, ids in lists.items():
                times: dict[str, list[float]] = {"fresh": [], "fork": []}
                for _ in range(opts.rounds):
                    times["fresh"].append(seconds_per_rep(fresh, ids, opts.reps, opts.jobs))
                    times["fork"].append(seconds_per_rep(fork, ids, opts.reps, opts.jobs))
                assert all(o.kind != "error" for o in fresh.run(ids, VICTIM)), "the list cannot run"
                a, b = statistics.median(times["fresh"]), statistics.median(times["fork"])
                print(f"| {name} | {len(ids)} | {a:.3f} | {b:.3f} | {a / b:.2f}x |")
        os.environ["SAMPLE_POLLUTION_RATE"] = "0.5"  # before the fork server starts: its children inherit its environment
        ids = lists["test_store.py, then the victim"]
        with Runner(project) as fresh, Runner(project, mode="fork") as fork:
            failed = {m: sum(o.kind == FAIL for o in r.run(ids, VICTIM, times=opts.flaky_runs, jobs=2))
                      for m, r in (("fresh", fresh), ("fork", fork))}
        print(f"at SAMPLE_POLLUTION_RATE=0.5: victim failed {failed['fresh']}/{opts.flaky_runs} fresh, "
              f"{failed['fork']}/{opts.flaky_runs} fork")
    return 0


if __name__ == "__main__":
    sys.exit(main())
