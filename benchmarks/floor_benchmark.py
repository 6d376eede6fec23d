"""How low can a hunt's seconds go? A floor for deterministic single polluters, beside manual-99.

    python benchmarks/floor_benchmark.py [--trials 200] [--ns 50,300,2000] [--jobs 2]

Issue 12 asks for isolate's seconds at <= 0.5x the manual recipe's (manual-99: halving, each
step's list repeated until it fails, up to the runs that show the true rate at 99%) on every
single-polluter cell. For `single p=1` this prints, on the same simulated suites as
search_benchmark.py, a lower bound on the test seconds of *any* search whose verdict says what
issue 16 asks a `polluter` verdict to say, and the ratio of that bound to manual-99's seconds:

- the cause confirmed by intervention: at least one run of it alone before the victim;
- "no further cause": at least one run of all the other predecessors without it (a further cause
  failing the victim every time would fail that run; a rate known exactly needs no more);
- the cause singled out among N: a deterministic run tells at most one bit, so at least
  ceil(log2 N) runs in all, the two above included, each costing at least a start-up and the
  victim.

floor = run(rest) + run(cause alone) + (ceil(log2 N) - 2) x (start-up + victim). The bound
leaves out reproducing the failure, the victim alone, pairs and a background rate, so a real
search needs more. Where floor / manual-99 is above 0.5, no search that checks for further
causes can meet the target on that cell: the target then asks for less than the verdict promises.

Standard library only (plus the isolate package).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics

from search_benchmark import settings_for

from isolate.search.model import run_cost
from isolate.search.simulate import scenario, trial

SCENARIO = "single p=1"


def one(task: tuple[int, int]) -> tuple[float, float, float]:
    """(floor, manual-99's seconds, isolate's seconds) on one suite."""
    n, seed = task
    suite = scenario(SCENARIO, n, random.Random(f"{SCENARIO}|{n}|{seed}"))
    problem = suite.problem
    (cause,) = suite.truth.causes
    rest = tuple(i for i in range(n) if i not in cause.members)
    floor = (run_cost(problem, rest) + run_cost(problem, tuple(cause.members))
             + max(0, math.ceil(math.log2(n)) - 2) * (problem.startup + problem.victim_duration))
    manual = trial(suite, settings_for("manual-99", suite), random.Random(f"run|{seed}")).seconds
    isolate = trial(suite, settings_for("isolate", suite), random.Random(f"run|{seed}")).seconds
    return floor, manual, isolate


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--ns", default="50,300,2000")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    ns = [int(x) for x in args.ns.split(",") if x]
    if args.trials < 1 or args.jobs < 1 or not ns or min(ns) < 4:
        ap.error("--trials and --jobs take 1 or more, --ns sizes of 4 or more")
    print(f"{SCENARIO}, {args.trials} suites a size, seconds per hunt (medians), confidence 0.99")
    print("| N | floor | manual-99 | isolate | floor / manual-99 | isolate / manual-99 | suites with floor > 0.5 x manual-99 |")
    print("|---|---|---|---|---|---|---|")
    with multiprocessing.Pool(args.jobs) as pool:
        for n in ns:
            res = pool.map(one, [(n, seed) for seed in range(args.trials)])
            floor, manual, isolate = (statistics.median(r[i] for r in res) for i in range(3))
            over = sum(1 for f, m, _ in res if f > 0.5 * m)
            print(f"| {n} | {floor:,.0f} | {manual:,.0f} | {isolate:,.0f} | {floor / manual:.2f} | {isolate / manual:.2f}"
                  f" | {over}/{len(res)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
