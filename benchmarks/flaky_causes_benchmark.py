"""Two flaky causes on real processes: does the hunt name both, and what do repeats save?

Usage::

    python benchmarks/flaky_causes_benchmark.py [--trials 10] [--jobs 2] [--configs ...]

sample_suites/flaky_polluters has two polluters that each leave a setting on which the victim
then draws at every execution: tracing at 0.5 and canary routing at 0.1 (a cause 5 times weaker
than the other, the mix of issue 16 that single runs get wrong most often). Per trial, a fresh
copy of the suite (in a temporary directory; nothing is written to the repository) gets one
stored `stestr run` in which the victim failed (the run is repeated until it does), and each
configuration hunts from a fresh `isolate extract --force`:

- `isolate` — `isolate bisect VICTIM` as a user runs it (repeats start by themselves once the
  runs show a flaky cause);
- `isolate --repeat-victim 1` — single runs throughout.

A hunt is right when its causes are exactly the two polluters. Printed: a row per configuration
and trial (right, verdict, causes, runs, seconds of test time from the verdict's JSON, the
command's wall time, when repeats started), then per configuration how many were right and the
medians, and the ratio of the medians, isolate / --repeat-victim 1.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
VICTIM = "gateway.tests.http.test_wire.PlainResponseTest.test_plain_response_headers"
POLLUTERS = sorted(["gateway.tests.http.test_telemetry.SamplingTest.test_half_of_requests_are_traced",
                    "gateway.tests.http.test_canary.CanaryTest.test_canary_takes_a_tenth"])
CONFIGS = {"isolate": [], "isolate --repeat-victim 1": ["--repeat-victim", "1"]}


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=3600)


def record(suite: Path) -> None:
    """Stored stestr runs until the victim failed in one (the newest)."""
    run([str(BIN / "stestr"), "init"], suite)
    for _ in range(30):
        run([str(BIN / "stestr"), "run"], suite)
        extract = run([str(BIN / "isolate"), "extract", "--test", VICTIM, "--force"], suite)
        if extract.returncode == 0 and "did not fail" not in extract.stderr:
            return
    raise SystemExit(f"{VICTIM} never failed in 30 stestr runs")


def hunt(suite: Path, flags: list[str], jobs: int) -> dict[str, Any]:
    extract = run([str(BIN / "isolate"), "extract", "--test", VICTIM, "--force"], suite)
    if extract.returncode != 0:
        raise SystemExit(f"isolate extract failed: {extract.stderr}")
    start = time.monotonic()
    proc = run([str(BIN / "isolate"), "bisect", VICTIM, "--json", "--jobs", str(jobs), *flags], suite)
    if not proc.stdout.strip():
        raise SystemExit(f"isolate bisect printed no verdict: {proc.stderr[-2000:]}")
    data: dict[str, Any] = json.loads(proc.stdout)
    data["wall"] = time.monotonic() - start
    auto = Path(data["hunt"]) / "repeat-auto.json"
    data["repeats_from"] = json.loads(auto.read_text())["from"] if auto.exists() else None
    return data


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--configs", nargs="+", choices=list(CONFIGS), default=list(CONFIGS))
    args = ap.parse_args()
    rows: dict[str, list[dict[str, Any]]] = {c: [] for c in args.configs}
    print("| config | trial | right | verdict | causes (rate) | runs | seconds | wall | repeats from run |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="isolate-flaky-causes-") as tmp:
        for trial in range(args.trials):
            suite = Path(tmp) / f"t{trial}"
            shutil.copytree(REPO / "sample_suites" / "flaky_polluters", suite)
            record(suite)
            for config in args.configs:
                got = hunt(suite, CONFIGS[config], args.jobs)
                causes = got.get("causes") or []
                got["right"] = sorted(t for c in causes for t in c["tests"]) == POLLUTERS and len(causes) == 2
                rows[config].append(got)
                named = ", ".join(f"{c['name'].rsplit('.', 1)[-1]} ({c['rate']:.2f})" for c in causes) or "-"
                print(f"| {config} | {trial} | {'yes' if got['right'] else 'NO'} | {got['verdict']} | {named} |"
                      f" {got['runs']} | {got['seconds']:.1f} | {got['wall']:.1f} | {got['repeats_from'] or '-'} |",
                      flush=True)
    for config, got in rows.items():  # why a wrong hunt stopped (its directory is gone with the run)
        for trial, g in enumerate(got):
            if not g["right"]:
                print(f"\n{config}, trial {trial}, stopped: {g.get('stop', '-')}")
    print()
    print("| config | right | median runs | median seconds | median wall |")
    print("|---|---|---|---|---|")
    med: dict[str, tuple[float, float]] = {}
    for config, got in rows.items():
        runs = statistics.median(g["runs"] for g in got)
        secs = statistics.median(g["seconds"] for g in got)
        med[config] = (runs, secs)
        print(f"| {config} | {sum(g['right'] for g in got)}/{len(got)} | {runs:g} | {secs:.1f} |"
              f" {statistics.median(g['wall'] for g in got):.1f} |")
    if len(med) == 2:
        (r0, s0), (r1, s1) = med.values()
        print(f"\nisolate / --repeat-victim 1: runs {r0 / r1:.2f}, seconds {s0 / s1:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
