"""Extraction speed and memory against the shell pipeline users run today, side by side.

    python benchmarks/extract_benchmark.py [--sizes 10000 100000] [--repeat 3]

For each size it builds a real stestr repository in a temp dir: a v2 stream of N tests spread
over 8 workers (one failure in worker-0, placed in the middle of that worker's tests) is stored
with `stestr load`, which writes the v1 run file exactly as `stestr run` does. Then it times
(best of --repeat, wall clock):

  pipeline: stestr last --subunit | subunit-filter -s --xfail --with-tag=worker-0
            --no-passthrough | subunit-ls | sed '/^VICTIM$/q'
  isolate:  isolate extract --worker worker-0 --test VICTIM -o -

and checks that both print the same ids. Memory: peak traced allocation (tracemalloc) of the
in-process extraction for a file whose worker-0 has the same number of tests while the other
workers' tests grow 10x; "grows with other workers" would show as a ratio near 10.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

BIN = Path(sys.executable).parent


def make_v2(path: Path, n: int, workers: int, worker0: int | None = None) -> str:
    """A v2 stream of n tests; returns the failing test's id (worker-0, mid-way)."""
    import subunit

    worker0 = worker0 if worker0 is not None else n // workers
    victim_at = worker0 // 2
    victim = ""
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    with path.open("wb") as fp:
        out = subunit.StreamResultToBytes(fp)
        out.startTestRun()
        k0 = 0
        for i in range(n):
            w = 0 if k0 < worker0 and (i % workers == 0 or n - i <= worker0 - k0) else 1 + i % (workers - 1)
            test_id = f"project.tests.test_mod{i % 97}.TestCase{i % 13}.test_{i:06d}"
            status = "success"
            if w == 0:
                if k0 == victim_at:
                    status, victim = "fail", test_id
                k0 += 1
            tags = {f"worker-{w}"}
            stamp = t0 + dt.timedelta(milliseconds=i)
            out.status(test_id=test_id, test_status="inprogress", test_tags=tags, timestamp=stamp)
            if status == "fail":
                out.status(test_id=test_id, file_name="traceback", mime_type="text/x-traceback;charset=utf8",
                           file_bytes=b"Traceback (most recent call last):\nAssertionError: boom\n",
                           test_tags=tags, timestamp=stamp)
            out.status(test_id=test_id, test_status=status, test_tags=tags, timestamp=stamp)
        out.stopTestRun()
    return victim


def make_repo(where: Path, n: int, workers: int, worker0: int | None = None) -> str:
    where.mkdir(parents=True)
    v2 = where / "run.v2"
    victim = make_v2(v2, n, workers, worker0)
    subprocess.run([BIN / "stestr", "init"], cwd=where, check=True, capture_output=True)
    with v2.open("rb") as fp:
        subprocess.run([BIN / "stestr", "load"], cwd=where, stdin=fp, capture_output=True)
    v2.unlink()
    return victim


def best(command: str, cwd: Path, repeat: int) -> tuple[float, bytes]:
    times, out = [], b""
    for _ in range(repeat):
        start = time.perf_counter()
        out = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, check=True,
                             env={**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}"}).stdout
        times.append(time.perf_counter() - start)
    return min(times), out


def peak_memory(repo: Path, victim: str) -> int:
    from isolate.orders.extract import extract, file_source

    path = repo / ".stestr" / "0"
    tracemalloc.start()
    extract(file_source(path), "run 0", "worker-0", victim)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="isolate-bench-"))
    try:
        print(f"{'tests':>8} {'file MB':>8} {'pipeline s':>11} {'isolate s':>10} {'speed-up':>9}  same ids")
        for n in args.sizes:
            repo = tmp / f"n{n}"
            victim = make_repo(repo, n, 8)
            size = (repo / ".stestr" / "0").stat().st_size / 1e6
            pipe = (f"stestr last --subunit | subunit-filter -s --xfail --with-tag=worker-0 --no-passthrough"
                    f" | subunit-ls | sed '/^{victim}$/q'")
            mine = f"isolate extract --worker worker-0 --test {victim} --force -o -"
            t_pipe, out_pipe = best(pipe, repo, args.repeat)
            t_mine, out_mine = best(mine, repo, args.repeat)
            print(f"{n:>8} {size:>8.1f} {t_pipe:>11.2f} {t_mine:>10.2f} {t_pipe / t_mine:>8.1f}x  {out_pipe == out_mine}")
        small, large = tmp / "mem-small", tmp / "mem-large"
        k = 1_000
        v_small = make_repo(small, 10_000, 8, worker0=k)
        v_large = make_repo(large, 100_000, 8, worker0=k)
        m_small, m_large = peak_memory(small, v_small), peak_memory(large, v_large)
        print(f"peak traced memory, worker-0 = {k} tests: {m_small / 1e6:.2f} MB with 9,000 other tests,"
              f" {m_large / 1e6:.2f} MB with 99,000 (ratio {m_large / m_small:.2f} for 11x the other tests)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
