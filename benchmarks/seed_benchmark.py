"""The seed scenario of issue #12, on real processes: `isolate bisect` against the manual recipe.

Usage::

    python benchmarks/seed_benchmark.py [--trials 3] [--predecessors 513] [--rate 0.0333] [--jobs 2] [--configs ...]

The seed: a victim that fails on its own about 1 time in 30, after 513 quick predecessors in one
worker, and no polluter. This script generates such a stestr suite in a temporary directory
(27 modules of 19 one-line tests, then the victim's module; nothing is written to the
repository), stores one failing run with a real `stestr run --serial` (SEED_RATE=1 for that one
run only, so the stored run fails at once and is the only one: no stored history, no
state-setter phase), and extracts the victim's order. Then, per trial, each configuration starts
from a fresh `isolate extract --force` and hunts to a verdict:

- `isolate` — `isolate bisect VICTIM` as a user runs it (no mode given: fresh processes until
  the fork check on its first lists, then the fork server if they agree; no --repeat-victim:
  once the first runs all passed, repeats start by themselves);
- `isolate --repeat-victim 1` — as `isolate`, single runs throughout (the default before repeats
  started by themselves);
- `isolate --no-fork-server` — the same search, fresh processes throughout;
- `isolate --repeat-victim 10` — as `isolate`, every run executing the victim up to 10 times
  (the check may lower it; each execution draws anew, as a real race would);
- `manual` — `isolate bisect VICTIM --strategy manual` (the halving recipe, fresh processes).

The victim draws from `random.Random(f"{trial}:{n}")`, n counting its runs in the trial (a
counter file under a lock), so a trial's failures are the same sequence for every configuration
when runs are serial (with --jobs 2 the order of two concurrent runs may swap). Printed: one row
per configuration and trial (verdict, runs, seconds of hunt wall time from the verdict's JSON, the
command's own wall time, the span of its fresh runs from the journal, runs per mode, the mode
line), then medians and the ratio isolate / manual of seconds, per trial too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
PACKAGE = "seedsuite"
VICTIM = f"{PACKAGE}.tests.test_zz_flush.FlushTest.test_flush_keeps_every_record"
CONFIGS = {"isolate": [], "isolate --repeat-victim 1": ["--repeat-victim", "1"],
           "isolate --no-fork-server": ["--no-fork-server"],
           "isolate --repeat-victim 10": ["--repeat-victim", "10"], "manual": ["--strategy", "manual"]}

VICTIM_MODULE = '''import fcntl
import os
import random
import unittest

COUNTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "runs-counter")


def next_draw():
    """The trial's next number: the n-th run of the victim in this trial draws Random("trial:n")."""
    with open(COUNTER, "a+") as fp:
        fcntl.flock(fp, fcntl.LOCK_EX)
        fp.seek(0)
        n = int(fp.read() or 0) + 1
        fp.seek(0)
        fp.truncate()
        fp.write(str(n))
    return random.Random(f"{os.environ.get('SEED_TRIAL', '0')}:{n}").random()


class FlushTest(unittest.TestCase):
    def test_flush_keeps_every_record(self):
        rate = float(os.environ.get("SEED_RATE", "0.0333"))
        if next_draw() < rate:  # the writer thread lost the race: a record is missing
            raise AssertionError("flush lost a record: 99 of 100 records on disk")
'''


def generate(root: Path, predecessors: int) -> None:
    """The suite: `predecessors` one-line tests in modules of 19, then the victim's module."""
    tests = root / PACKAGE / "tests"
    tests.mkdir(parents=True)
    (root / PACKAGE / "__init__.py").write_text("")
    (tests / "__init__.py").write_text("")
    (root / ".stestr.conf").write_text(f"[DEFAULT]\ntest_path=./{PACKAGE}/tests\ntop_dir=./\n")
    for m in range((predecessors + 18) // 19):
        count = min(19, predecessors - 19 * m)
        body = "".join(f"\n    def test_value_{t:02d}(self):\n        self.assertEqual({t} + {m}, {t + m})\n"
                       for t in range(count))
        (tests / f"test_m{m:02d}.py").write_text(f"import unittest\n\n\nclass Module{m:02d}Test(unittest.TestCase):{body}")
    (tests / "test_zz_flush.py").write_text(VICTIM_MODULE)


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=7200)


def record(suite: Path, env: dict[str, str]) -> None:
    """One stored stestr run in which the victim failed, and the hunt extracted from it."""
    run([str(BIN / "stestr"), "init"], suite, env)
    stored = run([str(BIN / "stestr"), "run", "--serial"], suite, {**env, "SEED_RATE": "1"})
    if "test_flush_keeps_every_record" not in stored.stdout + stored.stderr:
        raise SystemExit(f"stestr run did not run the victim:\n{stored.stdout[-2000:]}{stored.stderr[-2000:]}")
    (suite / "runs-counter").unlink(missing_ok=True)


def hunt(suite: Path, env: dict[str, str], flags: list[str], jobs: int) -> dict[str, Any]:
    extract = run([str(BIN / "isolate"), "extract", "--test", VICTIM, "--force"], suite, env)
    if extract.returncode != 0:
        raise SystemExit(f"isolate extract failed: {extract.stderr}")
    (suite / "runs-counter").unlink(missing_ok=True)
    start = time.monotonic()
    proc = run([str(BIN / "isolate"), "bisect", VICTIM, "--json", "--jobs", str(jobs), *flags], suite, env)
    data: dict[str, Any] = json.loads(proc.stdout)
    data["wall"] = time.monotonic() - start  # the command's own wall time, start-up included
    data["fresh_span"] = fresh_span(Path(data["hunt"]) / "journal.jsonl")
    return data


def fresh_span(journal: Path) -> float:
    """Seconds from the first run's start to the last fresh run's end (for the automatic mode:
    the fresh runs before and while the fork check ran)."""
    spans = []
    for line in journal.read_text().splitlines():
        entry = json.loads(line)
        end = datetime.fromisoformat(entry["at"]).timestamp()
        spans.append((end - entry["seconds"], end, entry.get("mode")))
    fresh = [end for _, end, mode in spans if mode is None]
    return max(fresh) - min(start for start, _, _ in spans) if fresh else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--predecessors", type=int, default=513)
    ap.add_argument("--rate", type=float, default=0.0333, help="the victim's failure rate on its own")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--configs", nargs="+", choices=list(CONFIGS), default=list(CONFIGS),
                    help="which configurations to run (manual is always run: the ratios are to it)")
    args = ap.parse_args()
    chosen = {name: CONFIGS[name] for name in CONFIGS if name in args.configs or name == "manual"}
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "SEED_RATE": str(args.rate)}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in chosen}
    with tempfile.TemporaryDirectory(prefix="isolate-seed-bench-") as tmp:
        suite = Path(tmp) / "seed"
        generate(suite, args.predecessors)
        record(suite, env)
        for trial in range(1, args.trials + 1):
            for name, flags in chosen.items():
                data = hunt(suite, {**env, "SEED_TRIAL": str(trial)}, flags, args.jobs)
                results[name].append(data)
                modes = data.get("runs_by_mode", {})
                print(f"trial {trial} {name:26} {data['verdict']:14} {data['runs']:>5} runs {data['seconds']:>7.1f} s"
                      f" (command {data['wall']:.1f} s, fresh runs span {data['fresh_span']:.1f} s)  fresh/fork runs {modes.get('fresh', '?')}/{modes.get('fork', '?')}"
                      f"  mode: {data.get('mode', '?')}", flush=True)
                repeats = [line for line in data.get("evidence", []) if line.startswith("repeats: ")]
                if repeats:
                    print(f"    {repeats[0][:300]}", flush=True)
    print()
    print(f"seed: {args.predecessors} predecessors, victim fails alone at {args.rate}, no polluter;"
          f" {args.trials} trials, --jobs {args.jobs}")
    print("| configuration | fails-alone | runs (median) | seconds (median) | seconds / manual's (median of trials) |")
    print("|---|---|---|---|---|")
    manual = [float(d["seconds"]) for d in results["manual"]]
    for name, runs in results.items():
        right = sum(d["verdict"] == "fails-alone" for d in runs)
        ratios = [float(d["seconds"]) / m for d, m in zip(runs, manual) if m > 0]
        print(f"| {name} | {right}/{len(runs)} | {statistics.median(d['runs'] for d in runs):.0f} |"
              f" {statistics.median(float(d['seconds']) for d in runs):.1f} | {statistics.median(ratios):.2f}x |")
    for name, runs in results.items():
        ratios = [float(d["seconds"]) / m for d, m in zip(runs, manual) if m > 0]
        print(f"{name}: seconds / manual's per trial: {', '.join(f'{r:.2f}' for r in ratios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
