"""Stored runs as evidence (issue 12), in the simulator: new runs with and without them.

    python benchmarks/stored_benchmark.py [--trials 50] [--n 50] [--stored 40] [--share 0.25] [--jobs 2] [--stale]

Per scenario, the same suites and seeds side by side: the default search with --stored stored
runs of the whole suite in shuffled orders (simulate.stored_runs: each predecessor before the
victim with probability --share, 1/4 for random partitions over 2 workers), and the same hunt
without them (--no-history). Printed: exact-set accuracy, mean confidence (calibration: it should
not exceed the accuracy), mean new runs and test seconds, their ratios, and the ratio of the
median runs (the "none" cells' run counts are heavy-tailed: a few hunts of 5,000+ runs move the
mean). The stored runs cost no test time and are not counted as runs. `--stale`: the stored runs
come from another suite of the same scenario (other culprits: history from before a code
change), to see what misleading stored runs cost and whether they make verdicts wrong.
`--auto`: both hunts as isolate runs them by default (repeats start by themselves,
simulate.repeat_trial), the stored runs kept as the chain's prior beside the K-fold runs; without
it, single runs throughout (`--repeat-victim 1`), as hunts with 20 or more stored runs ran before
2026-11-25 (repeats did not start, since they left the stored runs out).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time

from isolate.search.model import Settings
from isolate.search.repeats import AUTO_K
from isolate.search.simulate import repeat_trial, scenario, stored_runs, trial

CELLS = (
    "single p=1", "single p=0.5", "single p=0.2", "single p=1/30", "single p=0.2 q=0.01",
    "pair p=0.5", "none q=0.01", "none q=0.05",
    "class p=1", "multi k=2 p=1", "multi k=2 p=0.5+0.1",
)
CONFIGS = ("stored", "none")


def run_cell(task: tuple[str, int, int, float, int, bool, bool]) -> tuple[str, dict[str, tuple[bool, float, int, float]]]:
    """One suite of a cell, hunted with and without stored runs: (right, confidence, runs, seconds)."""
    name, n, count, share, seed, stale, auto = task
    out: dict[str, tuple[bool, float, int, float]] = {}
    for config in CONFIGS:
        suite = scenario(name, n, random.Random(f"{name}|{n}|{seed}"))
        source = scenario(name, n, random.Random(f"stale|{name}|{n}|{seed}")) if stale else suite
        past = stored_runs(source, count, share, random.Random(f"stored|{seed}")) if config == "stored" else ()
        settings = Settings(confidence=0.99, max_runs=50_000)
        if auto:
            t = repeat_trial(suite, settings, random.Random(f"run|{seed}"), AUTO_K, auto=True, stored=past).trial
        else:
            t = trial(suite, settings, random.Random(f"run|{seed}"), stored=past)
        out[config] = (t.correct, t.confidence, t.runs, t.seconds)
    return name, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--stored", type=int, default=40)
    ap.add_argument("--share", type=float, default=0.25)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cells", nargs="+", default=list(CELLS))
    ap.add_argument("--stale", action="store_true", help="stored runs of another suite (see above)")
    ap.add_argument("--auto", action="store_true", help="repeats by themselves, stored runs kept (see above)")
    args = ap.parse_args()
    tasks = [(name, args.n, args.stored, args.share, seed, args.stale, args.auto)
             for name in args.cells for seed in range(args.trials)]
    start = time.monotonic()
    by_cell: dict[str, list[dict[str, tuple[bool, float, int, float]]]] = {}
    with multiprocessing.Pool(args.jobs) as pool:
        for name, out in pool.imap_unordered(run_cell, tasks):
            by_cell.setdefault(name, []).append(out)
    print(f"N={args.n}, {args.stored}{' stale' if args.stale else ''} stored runs (share {args.share:g}),"
          f"{' repeats by themselves,' if args.auto else ''}"
          f" {args.trials} trials a cell,"
          f" confidence 0.99; {time.monotonic() - start:.0f} s wall, {args.jobs} jobs")
    print("| scenario | right stored / none | mean confidence stored / none | mean runs stored / none"
          " | mean seconds stored / none | runs ratio | seconds ratio | median runs ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.cells:
        # per configuration, the columns of its trials: right, confidence, runs, seconds
        a, b = (list(zip(*(r[c] for r in by_cell[name]))) for c in CONFIGS)
        fm, md = statistics.fmean, statistics.median
        print(f"| {name} | {sum(a[0])} / {sum(b[0])} of {len(a[0])} | {fm(a[1]):.3f} / {fm(b[1]):.3f} |"
              f" {fm(a[2]):.0f} / {fm(b[2]):.0f} | {fm(a[3]):.0f} / {fm(b[3]):.0f} |"
              f" {fm(a[2]) / fm(b[2]):.2f} | {fm(a[3]) / fm(b[3]):.2f} | {md(a[2]) / md(b[2]):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
