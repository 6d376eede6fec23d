"""A polluter that raises the rate less than 10x: found, or missed as "fails on its own"?

    python benchmarks/weak_polluters.py [--trials 100] [--n 6] [--jobs 2] [--weights 0.1 1] [SCENARIO ...]

The rate prior holds a polluter within `far_ratio` (10x) of the background `near_weight` (0.1)
times as likely beforehand; `isolate bisect --weak-polluters` sets that weight to 1. For each
scenario and weight, the same suites and seeds: how many hunts were right, how many were wrong
at >= 0.99 (a confident wrong verdict: for a weak polluter, "fails-alone"), and the mean test
seconds and runs. Simulator, single runs, one worker (`isolate.search.simulate.trial`).

Standard library only (plus the isolate package).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics

from isolate.search.model import Settings
from isolate.search.posterior import RatePrior
from isolate.search.simulate import scenario, trial

SCENARIOS = ("single p=0.5 q=0.2", "single p=0.1 q=0.05")


def one(task: tuple[str, int, int, float]) -> tuple[bool, bool, float, int]:
    """(right, claimed at >= 0.99, test seconds, runs) of one hunt."""
    name, n, seed, weight = task
    suite = scenario(name, n, random.Random(f"{name}|{n}|{seed}"))
    settings = Settings(confidence=0.99, max_runs=50000, rates=RatePrior(near_weight=weight))
    t = trial(suite, settings, random.Random(f"run|{seed}"))
    return t.correct, t.confidence >= 0.99, t.seconds, t.runs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--weights", type=float, nargs="+", default=[0.1, 1.0])
    ap.add_argument("scenarios", nargs="*", default=list(SCENARIOS))
    args = ap.parse_args()
    if args.trials < 1 or args.n < 1 or args.jobs < 1 or not all(0 < w <= 1 for w in args.weights):
        ap.error("--trials, --n and --jobs take 1 or more, --weights values in (0, 1]")
    print(f"N={args.n}, {args.trials} trials a cell, confidence 0.99, one worker, single runs")
    print("| scenario | near_weight | right | wrong at >= 0.99 | mean seconds | mean runs |")
    print("|---|---|---|---|---|---|")
    with multiprocessing.Pool(args.jobs) as pool:
        for name in args.scenarios:
            for weight in args.weights:
                res = pool.map(one, [(name, args.n, seed, weight) for seed in range(args.trials)])
                wrong = sum(1 for r in res if not r[0] and r[1])
                print(f"| {name} | {weight:g} | {sum(r[0] for r in res)}/{len(res)} | {wrong} "
                      f"| {statistics.mean(r[2] for r in res):,.0f} | {statistics.mean(r[3] for r in res):,.0f} |",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
