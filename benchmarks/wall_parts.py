"""Where a simulated hunt's wall time goes on W workers, by what each query asked (issue 14).

The same hunts as parallel_benchmark.py (its suites and run streams, seeds 0 .. trials - 1), at
W = 1 and at the W given; each batch's wall seconds go to the part of the search that asked for
it, read from the query's reason. Prints the mean per hunt of each part at both W and the part's
speed-up, so a missed speed-up target can be traced to the part that does not parallelise.
With --runs, runs instead of seconds (at W = 1: where a hunt's runs go). With --auto, the hunts
run as isolate runs them by default (parallel_benchmark.py --auto: repeats start by themselves),
and the check's runs of the victim alone and a held verdict's are parts of their own.

    python benchmarks/wall_parts.py --scenario "single p=0.5" --n 300 --w 8 --trials 12
    python benchmarks/wall_parts.py --scenario "multi k=7 p=1" --n 50 --w 1 --trials 20 --runs
    python benchmarks/wall_parts.py --scenario "single p=0.2" --n 50 --w 8 --trials 60 --auto

Standard library only (plus the isolate package).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict

from isolate.search.decide import decide
from isolate.search.model import Observation, Settings, Verdict
from isolate.search.repeats import AUTO_K
from isolate.search.simulate import repeat_trial, scenario, simulate_batch

PARTS = (  # (part, a phrase of the reasons it asks with), first match wins
    ("stop check", "without the causes found"),
    ("stop check", "how surely does"),
    ("whole list", "full list"),
    ("chain", "where do the lists start"),
    ("class probe", "do the other"),
    ("class probe", "a cause too"),
)
INSIDE = "inside the prefix"  # the single/pair search there, the victim alone and the rest
CHECK, HOLD = "repeat check", "held verdict"  # --auto only: the check's runs alone, a held verdict's


def part(reason: str) -> str:
    return next((name for name, phrase in PARTS if phrase in reason), INSIDE)


def hunt(name: str, n: int, seed: int, w: int, runs: bool = False, auto: bool = False) -> dict[str, float]:
    """Wall seconds (or runs) of one simulated hunt on w workers, by part."""
    suite = scenario(name, n, random.Random(f"{name}|{n}|{seed}"))
    run_rng = random.Random(f"run|{name}|{n}|{seed}|{w}")
    settings = Settings(confidence=0.99, max_runs=50000)
    if auto:  # the hunt of parallel_benchmark.py --auto, traced
        trace: list[tuple[str, float, int]] = []
        repeat_trial(suite, settings, run_rng, AUTO_K, auto=True, batch=w, trace=trace)
        out: dict[str, float] = defaultdict(float)
        for what, seconds, made in trace:
            out[{"check": CHECK, "hold": HOLD}.get(what) or part(what)] += made if runs else seconds
        return out
    observations: list[Observation] = []
    wall: dict[str, float] = defaultdict(float)
    while True:
        query = decide(suite.problem, observations, settings, batch=w)
        if isinstance(query, Verdict):
            return wall
        got, seconds = simulate_batch(suite, query, run_rng, w)
        observations += got
        wall[part(query.reason)] += sum(o.count for o in got) if runs else seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="single p=0.5")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--w", type=int, default=8)
    ap.add_argument("--trials", type=int, default=12)
    ap.add_argument("--runs", action="store_true", help="count runs, not wall seconds")
    ap.add_argument("--auto", action="store_true", help="hunt as isolate does by default (repeats by themselves)")
    args = ap.parse_args()
    totals: dict[int, dict[str, float]] = {w: defaultdict(float) for w in (1, args.w)}
    for seed in range(args.trials):
        for w in totals:
            for name, seconds in hunt(args.scenario, args.n, seed, w, args.runs, args.auto).items():
                totals[w][name] += seconds
    names = list(dict.fromkeys([name for name, _ in PARTS] + [INSIDE] + ([CHECK, HOLD] if args.auto else []))) + ["hunt"]
    for w in totals:
        totals[w]["hunt"] = sum(totals[w].values())
    what = "runs" if args.runs else "wall seconds"
    print(f"{args.scenario}, N = {args.n}, {args.trials} hunts; mean {what} per hunt, W = 1 -> W = {args.w}")
    for name in names:
        one, many = totals[1][name] / args.trials, totals[args.w][name] / args.trials
        ratio = f"{one / many:.1f}x" if many else "-"
        print(f"  {name:18} {one:9.1f} -> {many:8.1f}  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
