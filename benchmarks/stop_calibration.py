"""Is the stop check's claim calibrated? Two causes of the same rate, in the simulator.

    python benchmarks/stop_calibration.py [--trials 200] [--n 50] [--jobs 2] [SCENARIO ...]

The verdict's `stop` line says that a further cause as strong as the weakest one found would have
shown, at the verdict's confidence. With two causes of equal rate (`two p=R+R`), a verdict that
names only one at >= 0.99 breaks exactly that promise, so at most 1% of the confident verdicts may
name one. Scenarios whose second cause is weaker (`two p=1+0.8`) are outside the promise
(`--further 1` does not look for a weaker one); they are printed for what they show. Each scenario
runs the same seeds as search_benchmark.py's trials of it (single runs, one worker).

Standard library only (plus the isolate package).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics

from isolate.search.model import Settings
from isolate.search.simulate import scenario, trial

SCENARIOS = ("two p=1+1", "two p=0.9+0.9", "two p=0.8+0.8", "two p=0.7+0.7", "two p=1+0.8")


def one(task: tuple[str, int, int]) -> tuple[bool, bool, int, float]:
    """(right, claimed at >= 0.99, causes named, test seconds) of one hunt."""
    name, n, seed = task
    suite = scenario(name, n, random.Random(f"{name}|{n}|{seed}"))
    t = trial(suite, Settings(confidence=0.99, max_runs=50000), random.Random(f"run|{seed}"))
    return t.correct, t.confidence >= 0.99, len(t.culprits), t.seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("scenarios", nargs="*", default=list(SCENARIOS))
    args = ap.parse_args()
    if args.trials < 1 or args.n < 2 or args.jobs < 1:
        ap.error("--trials and --jobs take 1 or more, --n 2 or more")
    print(f"N={args.n}, {args.trials} trials a scenario, confidence 0.99, one worker, single runs")
    print("| scenario | right | claimed >= 0.99 | of those, naming one cause | median seconds |")
    print("|---|---|---|---|---|")
    with multiprocessing.Pool(args.jobs) as pool:
        for name in args.scenarios:
            res = pool.map(one, [(name, args.n, seed) for seed in range(args.trials)])
            claimed = [r for r in res if r[1]]
            print(f"| {name} | {sum(r[0] for r in res)}/{len(res)} | {len(claimed)} "
                  f"| {sum(1 for r in claimed if r[2] == 1)} | {statistics.median(r[3] for r in res):,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
