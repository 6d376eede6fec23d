"""Seconds per repetition of one list: stestr's until-failure loop, a bare runner process,
isolate's fresh-process mode and its fork server; and --jobs 1 vs --jobs 2 throughput.

Usage::

    /tmp/dev/bin/python benchmarks/replay_benchmark.py [--suite deterministic_polluter]
        [--runs 20] [--fork-runs 200] [--rounds 3] [--bulk-modules 200] [--json]

Everything runs in a temporary copy of the sample suite (stestr's loop stores every iteration
in ``.stestr/``, which must never appear in the repository). The copy gets one extra test,
``reportgen.tests.core.test_zz_bench.CounterTest.test_counter``, which counts its invocations in
a file and fails on the K-th one (``BENCH_FAIL_AT``). That is how stestr's loop is timed:
``stestr run --serial --load-list X --until-failure`` runs until the K-th iteration fails, and
its wall time divided by K is the cost of one iteration, including its share of the one-time
CLI start-up. For every other column the counter never fails.

Lists: ``one test`` is just the counter test; ``core prefix`` is every ``reportgen.tests.core``
test in discovery order except the polluter, the counter test last (so every test passes): the
shape of a real hunt step. The third row runs the one-test list in a second copy whose tree has
``--bulk-modules`` (200) extra modules of 10 trivial tests: what discovering a larger tree costs
the runners that discover it (stestr, the bare runner) and not isolate, which imports only the
modules the list needs.

Columns (seconds per repetition, wall clock):
- ``stestr loop``: ``stestr run --serial --load-list X --until-failure`` with the counter set to
  fail on iteration K = --runs: total wall time / K (the CLI's one-time start-up is spread over
  the K iterations; one plain ``stestr run`` of an id that matches nothing is timed too, to show
  that start-up alone);
- ``bare runner``: ``python -m stestr.subunit_runner.run discover -t ./ ./reportgen/tests
  --load-list X``, one process per repetition: what stestr starts per worker;
- ``fresh``: ``Runner(mode="fresh").run(list, target)`` (one repetition per call), timed in
  alternation with the bare runner so that both see the same load;
- ``fork``: the same with ``mode="fork"``; the server's start-up is in the untimed first run,
  reported as "fork server first run";
- ``fork x``: stestr loop / fork;
- ``j2/j1``: repetitions per second with ``jobs=2`` divided by those with ``jobs=1``.
Timings are wall clock on a possibly shared machine: the 1-min load average before and after
is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from isolate.running.project import find_project  # noqa: E402
from isolate.running.runner import Runner  # noqa: E402

COUNTER_TEST = '''
import os
import unittest


class CounterTest(unittest.TestCase):
    def test_counter(self):
        # One byte appended per invocation: the size is the count (safe with parallel jobs).
        fd = os.open(os.environ["BENCH_COUNTER"], os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        os.write(fd, b"x")
        count = os.fstat(fd).st_size
        os.close(fd)
        self.assertLess(count, int(os.environ.get("BENCH_FAIL_AT", "1000000000")))
'''
COUNTER_ID = "reportgen.tests.core.test_zz_bench.CounterTest.test_counter"
POLLUTER = "reportgen.tests.core.test_config.ConfigDefaultsTest.test_set_default_currency"
BIN = Path(sys.executable).parent


BULK_TEST = '''
import unittest


class Bulk{n}Test(unittest.TestCase):
''' + "".join(f"    def test_{i}(self):\n        self.assertTrue({i} >= 0)\n\n" for i in range(10))


def prepare(suite: str, work: Path, bulk_modules: int = 0, name: str = "") -> Path:
    """A copy of the sample suite plus the counter test, and ``bulk_modules`` modules of 10
    trivial tests each (a larger tree, for the cost of discovering it)."""
    root = work / (name or suite)
    shutil.copytree(REPO / "sample_suites" / suite, root,
                    ignore=shutil.ignore_patterns(".stestr", ".testrepository", ".isolate", "__pycache__"))
    (root / "reportgen" / "tests" / "core" / "test_zz_bench.py").write_text(COUNTER_TEST)
    if bulk_modules:
        bulk = root / "reportgen" / "tests" / "bulk"
        bulk.mkdir()
        (bulk / "__init__.py").write_text("")
        for n in range(bulk_modules):
            (bulk / f"test_bulk_{n:03d}.py").write_text(BULK_TEST.format(n=n))
    return root


def env(work: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "PYTHON": sys.executable,
            "BENCH_COUNTER": str(work / "counter"), **extra}


def core_prefix(root: Path, work: Path) -> list[str]:
    """Every core test in discovery order (what one stestr worker would run) but the polluter,
    so every test passes, with the counter last."""
    out = subprocess.run([sys.executable, "-m", "stestr.subunit_runner.run", "discover", "-t", "./",
                          "./reportgen/tests", "--list"], cwd=root, env=env(work), capture_output=True,
                         check=True).stdout
    (work / "listing.subunit").write_bytes(out)
    ids = []
    import subunit
    import testtools

    class Ids(testtools.StreamResult):
        def status(self, test_id=None, test_status=None, **kw):  # type: ignore[no-untyped-def]
            if (test_status == "exists" and test_id.startswith("reportgen.tests.core.")
                    and test_id not in (COUNTER_ID, POLLUTER)):
                ids.append(test_id)

    with open(work / "listing.subunit", "rb") as f:
        subunit.ByteStreamToStreamResult(f).run(Ids())
    return ids + [COUNTER_ID]


def stestr_until_failure(root: Path, work: Path, list_file: Path, k: int) -> dict[str, float]:
    (work / "counter").unlink(missing_ok=True)
    subprocess.run([str(BIN / "stestr"), "init"], cwd=root, env=env(work), capture_output=True, check=True)
    start = time.perf_counter()
    proc = subprocess.run([str(BIN / "stestr"), "run", "--serial", "--load-list", str(list_file), "--until-failure"],
                          cwd=root, env=env(work, BENCH_FAIL_AT=str(k)), capture_output=True)
    total = time.perf_counter() - start
    iterations = (work / "counter").stat().st_size
    assert iterations == k and proc.returncode != 0, (iterations, proc.returncode)
    stored = len([p for p in (root / ".stestr").iterdir() if p.name.isdigit()])
    # The CLI's own start-up, once: a run of an empty list (nothing matches) costs it plus one process.
    empty = work / "empty.txt"
    empty.write_text("no.such.test\n")
    start = time.perf_counter()
    subprocess.run([str(BIN / "stestr"), "run", "--serial", "--load-list", str(empty)], cwd=root,
                   env=env(work), capture_output=True)
    once = time.perf_counter() - start
    shutil.rmtree(root / ".stestr")
    return {"per_iteration": total / k, "total": total, "iterations": k, "stored_runs": stored,
            "one_empty_invocation": once}


def bare_vs_fresh(root: Path, work: Path, ids: list[str], list_file: Path, runs: int) -> tuple[float, float]:
    """Seconds per repetition of the bare runner and of isolate's fresh mode, measured in
    alternation (one of each, ``runs`` times) so that both see the same machine load."""
    command = [sys.executable, "-m", "stestr.subunit_runner.run", "discover", "-t", "./", "./reportgen/tests",
               "--load-list", str(list_file)]
    os.environ.update(env(work))
    subprocess.run(command, cwd=root, capture_output=True, check=True)  # warm the page cache
    bare = fresh = 0.0
    with Runner(find_project(root), mode="fresh", timeout=120) as runner:
        runner.run(ids, ids[-1])
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(command, cwd=root, stdout=subprocess.DEVNULL, check=True)
            bare += time.perf_counter() - start
            start = time.perf_counter()
            [outcome] = runner.run(ids, ids[-1])
            fresh += time.perf_counter() - start
            assert outcome.kind == "pass", outcome
    return bare / runs, fresh / runs


def isolate_mode(root: Path, work: Path, ids: list[str], mode: str, runs: int, jobs: int) -> dict[str, float]:
    os.environ.update(env(work))
    project = find_project(root)
    with Runner(project, mode=mode, timeout=120) as runner:
        start = time.perf_counter()
        [first] = runner.run(ids, ids[-1])
        startup = time.perf_counter() - start
        assert first.kind == "pass", first
        start = time.perf_counter()
        outcomes = runner.run(ids, ids[-1], times=runs, jobs=jobs)
        total = time.perf_counter() - start
    assert [o.kind for o in outcomes] == ["pass"] * runs, {o.message for o in outcomes}
    return {"per_run": total / runs, "runs_per_second": runs / total, "first_run": startup}


def measure_round(root: Path, work: Path, ids: list[str], list_file: Path, runs: int, fork_runs: int) -> dict[str, float]:
    """One round of every column for one list, as flat numbers."""
    loop = stestr_until_failure(root, work, list_file, runs)
    bare, fresh = bare_vs_fresh(root, work, ids, list_file, runs)
    fresh1 = isolate_mode(root, work, ids, "fresh", runs, 1)
    fresh2 = isolate_mode(root, work, ids, "fresh", runs, 2)
    fork1 = isolate_mode(root, work, ids, "fork", fork_runs, 1)
    fork2 = isolate_mode(root, work, ids, "fork", fork_runs, 2)
    return {
        "stestr_loop": loop["per_iteration"],
        "stestr_invocation": loop["one_empty_invocation"],
        "stestr_stored_runs": loop["stored_runs"],
        "bare_runner": bare,
        "fresh": fresh,
        "fork": fork1["per_run"],
        "fork_first_run": fork1["first_run"],
        "fresh_rps_j1": fresh1["runs_per_second"],
        "fresh_rps_j2": fresh2["runs_per_second"],
        "fork_rps_j1": fork1["runs_per_second"],
        "fork_rps_j2": fork2["runs_per_second"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default="deterministic_polluter")
    parser.add_argument("--runs", type=int, default=20, help="repetitions for stestr/bare/fresh columns (K)")
    parser.add_argument("--fork-runs", type=int, default=200, help="repetitions for the fork-server columns")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per list; medians are reported")
    parser.add_argument("--bulk-modules", type=int, default=200,
                        help="modules of 10 tests added to the tree for the third row")
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    load_before = os.getloadavg()[0]
    work = Path(tempfile.mkdtemp(prefix="isolate-bench-"))
    rounds: dict[str, list[dict[str, float]]] = {}
    try:
        root = prepare(opts.suite, work)
        large = prepare(opts.suite, work, opts.bulk_modules, "large")
        big = f"one test, +{opts.bulk_modules * 10} tests in tree"
        lists = {"one test": [COUNTER_ID], "core prefix": core_prefix(root, work), big: [COUNTER_ID]}
        roots = {"one test": root, "core prefix": root, big: large}
        for name, ids in lists.items():
            list_file = work / f"{name.replace(' ', '-').replace(',', '')}.txt"
            list_file.write_text("".join(i + "\n" for i in ids))
            rounds[name] = [measure_round(roots[name], work, ids, list_file, opts.runs, opts.fork_runs)
                            for _ in range(opts.rounds)]
        assert not (REPO / "sample_suites" / opts.suite / ".stestr").exists()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    medians = {name: {key: statistics.median(r[key] for r in rs) for key in rs[0]} for name, rs in rounds.items()}
    for name, m in medians.items():
        m["tests"] = len(lists[name])
        m["fork_speedup_vs_stestr_loop"] = m["stestr_loop"] / m["fork"]
        m["fresh_j2_over_j1"] = statistics.median(r["fresh_rps_j2"] / r["fresh_rps_j1"] for r in rounds[name])
        m["fork_j2_over_j1"] = statistics.median(r["fork_rps_j2"] / r["fork_rps_j1"] for r in rounds[name])
    meta = {"python": platform.python_version(), "cpus": len(os.sched_getaffinity(0)),
            "load_1min_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            "rounds": opts.rounds, "runs": opts.runs, "fork_runs": opts.fork_runs,
            "command": " ".join([Path(sys.executable).name, *sys.argv])}
    if opts.json:
        print(json.dumps({"meta": meta, "medians": medians, "rounds": rounds}, indent=2))
        return
    print(f"# {meta['command']}  (Python {meta['python']}, {meta['cpus']} CPUs, medians of {opts.rounds} "
          f"rounds, 1-min load average before/after {meta['load_1min_before_after']})")
    header = ("list", "tests", "stestr loop s/rep", "bare runner s/rep", "fresh s/rep", "fork s/rep",
              "fork vs stestr loop", "fresh jobs2/jobs1", "fork jobs2/jobs1")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, m in medians.items():
        cells = [name, f"{m['tests']:.0f}", f"{m['stestr_loop']:.3f}", f"{m['bare_runner']:.3f}",
                 f"{m['fresh']:.3f}", f"{m['fork']:.4f}", f"{m['fork_speedup_vs_stestr_loop']:.1f}x",
                 f"{m['fresh_j2_over_j1']:.2f}x", f"{m['fork_j2_over_j1']:.2f}x"]
        print("| " + " | ".join(cells) + " |")
    print()
    for name, m in medians.items():
        print(f"{name}: one `stestr run` invocation alone {m['stestr_invocation']:.2f}s; stestr stored "
              f"{m['stestr_stored_runs']:.0f} runs per loop (in the temp copy); fork server first run "
              f"{m['fork_first_run']:.2f}s; repetitions/s fresh {m['fresh_rps_j1']:.1f} (jobs 1) -> "
              f"{m['fresh_rps_j2']:.1f} (jobs 2), fork {m['fork_rps_j1']:.0f} -> {m['fork_rps_j2']:.0f}")


if __name__ == "__main__":
    main()
