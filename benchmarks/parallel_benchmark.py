"""Wall-time speed-up of a hunt on W workers at once (issue 14), on simulated suites.

Each trial is one hunt by the default search with batch = W: decide() proposes a batch of runs
(several prefixes at once, or W repetitions of one list), the simulator runs them on W workers
(simulate.simulate_batch: the runs of a batch of several lists start one of each list in turn,
each on the first free worker, as the Runner starts them; one list runs in waves of W, the wave
of its first failure being the last) and the hunt's wall time is the sum of the batches' times.  The same seeds run at every W, side by side in one run; the speed-up is
mean wall(W = 1) / mean wall(W), printed with the accuracy at each W (equal accuracy is part of
the claim), the "bound" (mean wall(1) over the cost of one run of the whole list and one of the
list without the causes: Amdahl's law for a hunt that must run both, one after the other; since
the first wave runs prefixes, a hunt whose prefix fails never runs the whole list, so it is a
guide now, no strict bound), and the runs ratio (how much more test time the parallel hunt spends).

    python benchmarks/parallel_benchmark.py --trials 20 --jobs 2
    python benchmarks/parallel_benchmark.py --ws 1,8 --scenarios "single p=1" --ns 300
    python benchmarks/parallel_benchmark.py --copies     # also W copies of one worker's query
    python benchmarks/parallel_benchmark.py --auto       # the default hunt: repeats start by themselves
    python benchmarks/parallel_benchmark.py --auto --no-ahead   # the default before runs went ahead

Without `--auto` every run executes the victim once (`--repeat-victim 1`); with it the hunts run as
isolate runs them by default (simulate.repeat_trial with auto=True on W workers: single runs until
isolate.search.repeats.automatic starts repeats, then K-fold runs after the check; with W >= 2
the K executions run ahead from the first run: isolate.search.repeats.ahead). `--no-ahead` (or
`--ahead`) forces the one-worker way (or the ahead way) at every W.

Standard library only (plus the isolate package).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass, replace

from isolate.search.decide import decide
from isolate.search.model import Observation, Settings, Verdict, round_batch, run_cost
from isolate.search.repeats import AUTO_K
from isolate.search.simulate import Suite, Trial, judge, repeat_trial, scenario, simulate_batch, trial

CONFIDENCE = 0.99
WS = (1, 2, 4, 8, 16, 32)
CELLS = (
    ("single p=1", 300), ("single p=0.5", 300), ("single p=0.2", 50), ("single p=1/30", 50),
    ("pair p=0.5", 50), ("none q=0.05", 50), ("multi k=3 p=1", 300), ("class p=1", 300),
)
BUDGET = 50_000


@dataclass(frozen=True)
class Task:
    name: str
    n: int
    w: int
    seed: int
    copies: bool = False
    auto: bool = False
    ahead: bool | None = None  # None: as the hunts choose for W


def copies(suite: Suite, settings: Settings, rng: random.Random, w: int) -> Trial:
    """The ablation: what W workers buy without batches chosen together.  Each query is the one
    a single worker would run (decide with batch=1), repeated in waves of W (rounded up to a
    multiple of W, stopping after the wave of its first failure)."""
    obs: list[Observation] = []
    wall = 0.0
    calls = 0
    while True:
        step = decide(suite.problem, obs, settings, batch=1)
        calls += 1
        if isinstance(step, Verdict):
            culprits = frozenset(step.culprits)
            return Trial(step.kind, culprits, step.confidence, judge(suite.truth, step.kind, culprits),
                         step.runs, step.seconds, calls, wall)
        got, secs = simulate_batch(suite, replace(step, runs=round_batch(step.runs, w)), rng, w)
        obs += got
        wall += secs


def run_task(task: Task) -> tuple[Task, Trial, float]:
    """The trial, and its floor: the wall time no number of workers can beat, one run of the
    whole list (the failure must show at all), then one of the list without the causes (nothing
    else makes it fail; it can only start once the causes are known).  With no cause, one run of
    the whole list (the victim alone can run beside it)."""
    rng = random.Random(f"{task.name}|{task.n}|{task.seed}")
    suite = scenario(task.name, task.n, rng)
    run_rng = random.Random(f"run|{task.name}|{task.n}|{task.seed}|{task.w}")
    settings = Settings(confidence=CONFIDENCE, max_runs=BUDGET)
    if task.copies:
        return task, copies(suite, settings, run_rng, task.w), 0.0
    everything = tuple(range(len(suite.problem.predecessors)))
    rest = tuple(i for i in everything if i not in suite.truth.answer)
    floor = run_cost(suite.problem, everything) + (run_cost(suite.problem, rest) if suite.truth.answer else 0.0)
    if task.auto:
        return task, repeat_trial(suite, settings, run_rng, AUTO_K, auto=True, batch=task.w, ahead=task.ahead).trial, floor
    return task, trial(suite, settings, run_rng, batch=task.w), floor


def table(results: list[tuple[Task, Trial, float]], ws: list[int]) -> str:
    cells: dict[tuple[str, int], dict[int, list[Trial]]] = {}
    floors: dict[tuple[str, int], list[float]] = {}
    for task, t, floor in results:
        if task.copies:
            cells.setdefault((task.name + " (copies)", task.n), {}).setdefault(task.w, []).append(t)
            continue
        cells.setdefault((task.name, task.n), {}).setdefault(task.w, []).append(t)
        floors.setdefault((task.name, task.n), []).append(floor)
    head = (["scenario", "N"] + [f"W={w} acc" for w in ws] + [f"W={w} speed-up" for w in ws[1:]]
            + ["bound"] + [f"W={w} runs×" for w in ws[1:]])  # against the first of ws
    rows = [head]
    for (name, n), by_w in cells.items():
        base = by_w.get(ws[0], [])
        wall0 = statistics.mean(t.wall for t in base) if base else float("nan")
        runs0 = statistics.mean(t.runs for t in base) if base else float("nan")
        row = [name, str(n)]
        row += [f"{sum(t.correct for t in by_w[w])}/{len(by_w[w])}" for w in ws]
        for w in ws[1:]:
            wall = statistics.mean(t.wall for t in by_w[w])
            row.append(f"{wall0 / wall:.2f} ({wall0 / wall / w:.2f}·W)" if wall > 0 else "-")
        row.append(f"{wall0 / statistics.mean(floors[(name, n)]):.1f}" if (name, n) in floors else "")
        for w in ws[1:]:
            row.append(f"{statistics.mean(t.runs for t in by_w[w]) / runs0:.2f}")
        rows.append(row)
    return markdown(rows)


def walls(results: list[tuple[Task, Trial, float]], ws: list[int]) -> str:
    """Mean simulated wall seconds per cell and W: the speed-ups' numerators and denominators,
    so that a change which shortens the one-worker hunt too can be seen at every W."""
    cells: dict[tuple[str, int], dict[int, list[float]]] = {}
    for task, t, _ in results:
        name = task.name + (" (copies)" if task.copies else "")
        cells.setdefault((name, task.n), {}).setdefault(task.w, []).append(t.wall)
    rows = [["scenario", "N"] + [f"wall W={w} (s)" for w in ws]]
    for (name, n), by_w in cells.items():
        rows.append([name, str(n)] + [f"{statistics.mean(by_w[w]):,.0f}" if w in by_w else "-" for w in ws])
    return markdown(rows)


def markdown(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(c.ljust(wd) for c, wd in zip(r, widths)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (wd + 2) for wd in widths) + "|")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ws", default=",".join(map(str, WS)), help="worker counts; the first is the baseline")
    ap.add_argument("--scenarios", default="", help="comma-separated scenario names (the table's, or any other)")
    ap.add_argument("--ns", default="", help="comma-separated subset of N")
    ap.add_argument("--copies", action="store_true", help="also the ablation: W copies of one worker's query")
    ap.add_argument("--auto", action="store_true",
                    help="hunt as isolate does by default (repeats start by themselves), not with single runs")
    ap.add_argument("--ahead", action=argparse.BooleanOptionalAction, default=None,
                    help="with --auto: K executions from the first run at every W (--no-ahead: never; default: as"
                         " isolate chooses, from W = 2)")
    args = ap.parse_args(argv)
    if args.ahead is not None and not args.auto:
        ap.error("--ahead/--no-ahead are variants of --auto: give both")
    if args.copies and args.auto:
        ap.error("--copies is the single-run ablation: run it without --auto")
    ws = [int(x) for x in args.ws.split(",")]
    cells = list(CELLS)
    if args.scenarios:  # any scenario of simulate.scenario; one not in CELLS at the --ns given (50 if none)
        names = args.scenarios.split(",")
        cells = [c for c in cells if c[0] in names] + [
            (name, int(n)) for name in names if name not in {c[0] for c in CELLS}
            for n in (args.ns.split(",") if args.ns else ["50"])]
    if args.ns:
        cells = [c for c in cells if c[1] in {int(x) for x in args.ns.split(",")}]
    tasks = [Task(name, n, w, args.seed + i, auto=args.auto, ahead=args.ahead)
             for name, n in cells for w in ws for i in range(args.trials)]
    if args.copies:
        tasks += [Task(name, n, w, args.seed + i, True) for name, n in cells for w in ws if w > ws[0]
                  for i in range(args.trials)]
        tasks += [Task(name, n, ws[0], args.seed + i, True) for name, n in cells for i in range(args.trials)]
    tasks.sort(key=lambda t: t.w)  # W = 1 hunts are the longest to simulate: first
    start = time.time()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(run_task, tasks, chunksize=1)
    else:
        results = [run_task(t) for t in tasks]
    mode = ("single runs" if not args.auto else "repeats by themselves (the default)" if args.ahead is None
            else "repeats by themselves, K executions ahead at every W" if args.ahead
            else "repeats by themselves, never ahead (the default before 2026-11-25)")
    print(table(results, ws))
    print()
    print(walls(results, ws))
    print(f"\n{len(tasks)} trials, {time.time() - start:.0f} s wall, {args.jobs} jobs, confidence {CONFIDENCE},"
          f" seed {args.seed}, {mode}; speed-up = mean wall at W={ws[0]} / mean wall at W (same seeds);"
          " bound = mean wall at the baseline / the floor no W can beat (one run of the whole list, then one"
          " without the causes); runs× = mean runs at W / at the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
