"""The victim repeated in one process (`--repeat-victim K`, issue 12), in the simulator.

    python benchmarks/repeat_benchmark.py [--trials 50] [--n 50] [--k 10] [--jobs 2]

Per scenario, the same suites and seeds side by side: isolate with single runs (K = 1), isolate
as it runs by default (auto: single runs until the first ones all passed, then K = 10 and the
check, simulate.repeat_trial(auto=True)), isolate with `--repeat-victim K` (the check of isolate.hunt.repeatcheck: simulate.repeat_trial), the same
without any check (the ablation: K-fold runs taken as they come, at most 2,000), and the hand recipe at 99%
(manual-99 of search_benchmark.py, single runs). Printed: exact-set accuracy, mean runs and mean
test seconds, the ratios of seconds, how often the check turned repeats off, and the median
executions per run it kept. `--ahead`: the auto column with K executions from the first run
(judged on the first until the check; nothing left out), as isolate runs with two or more runs at
once; on one worker, this benchmark's, isolate does not.

The simulator's victim fails independently at each execution (its background rate, a cause's
rate), unless the scenario says otherwise: `per-run` causes are drawn once a run (every
execution of that run then fails alike: repeats cannot help), `s=RATE` is a victim that pollutes
itself (each execution after its first also fails at RATE: repeats must not mislead).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time

from search_benchmark import settings_for

from isolate.search.model import Settings
from isolate.search.simulate import repeat_trial, scenario, trial

CELLS = (
    "single p=1", "single p=0.5", "single p=0.2", "single p=1/30", "single p=0.2 q=0.01",
    "none q=1/30", "none q=0.01", "none q=0.05",
    "single p=0.2 per-run", "single p=1 s=1", "single p=0.5 s=0.3", "none q=0.01 s=0.1",
)
CONFIGS = ("K=1", "auto", "K", "K no check", "manual-99")


def run_cell(task: tuple[str, int, int, int, bool]) -> tuple[str, int, dict[str, tuple[bool, int, float, int, bool]]]:
    """One suite of a cell, hunted by every configuration: (right, runs, seconds, used, off)."""
    name, n, k, seed, ahead = task
    out: dict[str, tuple[bool, int, float, int, bool]] = {}
    for config in CONFIGS:
        suite = scenario(name, n, random.Random(f"{name}|{n}|{seed}"))
        rng = random.Random(f"run|{seed}")
        if config == "manual-99":
            t = trial(suite, settings_for("manual-99", suite), rng)
            out[config] = (t.correct, t.runs, t.seconds, 1, False)
            continue
        asked = 1 if config == "K=1" else k
        # the ablation's misled hunts can run on and on: its budget ends them (as undecided)
        most = 2_000 if config == "K no check" else 50_000
        r = repeat_trial(suite, Settings(confidence=0.99, max_runs=most), rng, asked, check=config != "K no check",
                         auto=config == "auto", ahead=True if ahead and config == "auto" else None)
        out[config] = (r.trial.correct, r.trial.runs, r.trial.seconds, r.used, r.off)
    return name, seed, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cells", nargs="+", default=list(CELLS))
    ap.add_argument("--ahead", action="store_true",
                    help="the auto column with K executions from the first run (simulate.repeat_trial's ahead)")
    args = ap.parse_args()
    tasks = [(name, args.n, args.k, seed, args.ahead) for name in args.cells for seed in range(args.trials)]
    start = time.monotonic()
    done = []
    with multiprocessing.Pool(args.jobs) as pool:
        for i, result in enumerate(pool.imap_unordered(run_cell, tasks)):
            done.append(result)
            if (i + 1) % 50 == 0:
                print(f"  {i + 1}/{len(tasks)} suites, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    by_cell: dict[str, list[dict[str, tuple[bool, int, float, int, bool]]]] = {}
    for name, _, out in done:
        by_cell.setdefault(name, []).append(out)
    print(f"N={args.n}, K={args.k}, {args.trials} trials a cell, confidence 0.99;"
          f" {time.monotonic() - start:.0f} s wall, {args.jobs} jobs"
          + ("; auto = K executions ahead from the first run (as isolate runs on W >= 2)" if args.ahead else ""))
    print("| scenario | right K=1 / auto / K / K no check / manual-99 | runs K=1 / auto / K"
          " | seconds K=1 / auto / K / manual-99 | auto / K=1 | auto / manual-99 | K / K=1 | K / manual-99"
          " | K=1 / manual-99 | check: off, median K kept (K; auto) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in args.cells:
        rows = by_cell[name]

        def mean(config: str, i: int) -> float:
            return statistics.fmean(float(r[config][i]) for r in rows)

        def ratio(a: str, b: str) -> str:
            return f"{mean(a, 2) / mean(b, 2):.2f}"

        right = " / ".join(f"{sum(r[c][0] for r in rows)}" for c in CONFIGS)
        off = sum(r["K"][4] for r in rows)
        kept = statistics.median(r["K"][3] for r in rows)
        auto_kept = statistics.median(r["auto"][3] for r in rows)
        print(f"| {name} | {right} of {len(rows)} | {mean('K=1', 1):.0f} / {mean('auto', 1):.0f} / {mean('K', 1):.0f} |"
              f" {mean('K=1', 2):.0f} / {mean('auto', 2):.0f} / {mean('K', 2):.0f} / {mean('manual-99', 2):.0f} |"
              f" {ratio('auto', 'K=1')} | {ratio('auto', 'manual-99')} | {ratio('K', 'K=1')} |"
              f" {ratio('K', 'manual-99')} | {ratio('K=1', 'manual-99')} | {off}, {kept:g}; {auto_kept:g} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
