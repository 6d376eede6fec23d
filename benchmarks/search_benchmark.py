"""Benchmark of the search strategies on simulated suites with known ground truth.

The scenario grid of design.md §6 (simulate.SCENARIOS x N), every strategy through
isolate.search.decide (ddmin through manual.drive: same procedure, linear time), seeded.
Prints one table: exact-set accuracy, calibration (accuracy of verdicts claimed at >= c),
median and p95 runs and test-seconds, and costs as ratios to the lower bound.

    python benchmarks/search_benchmark.py                   # full grid, 2 jobs
    python benchmarks/search_benchmark.py --grid reduced --trials 20
    python benchmarks/search_benchmark.py --grid multi      # several causes (issue 16)
    python benchmarks/search_benchmark.py --grid cleaners   # a polluter's cleaners (issue 13)

For scenarios with several causes, runs/LB is against the noiseless adaptive group-testing
bound d*log2(N/d) for the trial's d causes, and "scan" is iDFlakies' one-by-one scan (each
predecessor alone before the victim, repeated to see the weakest true rate at 0.99: an oracle).

Standard library only (plus the isolate package).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass

from isolate.search.strategies import manual
from isolate.search.plan import fano_runs, none_runs
from isolate.search.posterior import RatePrior
from isolate.search.model import Observation, Query, Settings, runs_for
from isolate.search.simulate import (
    BRITTLE_SCENARIOS,
    CLEANER_SCENARIOS,
    MULTI_SCENARIOS,
    SCENARIOS,
    Suite,
    Trial,
    cleaner_suite,
    hunt_all,
    is_multi,
    judge,
    scenario,
    simulate_query,
    trial,
)

CONFIDENCE = 0.99
FULL_NS = (50, 300, 2000)
REDUCED = {
    50: ("single p=1", "single p=0.2", "single p=1/30", "pair p=0.5", "none q=0.05"),
    300: ("single p=0.5", "none q=0.05"),
}
MULTI_NS = (50, 300)
STRATEGIES = ("isolate", "manual-95/step", "manual-95", "manual-99", "halving", "ddmin")
MULTI_STRATEGIES = ("isolate", "isolate-further-0.2", "isolate-first", "single", "scan")
BRITTLE_STRATEGIES = ("setters",)  # the state-setter search of a brittle victim (strategies/setters.py)
CLEANER_STRATEGIES = ("cleaners",)  # a polluter's cleaners, the polluter fixed first (strategies/cleaners.py)
# What the runs gap to the Fano bound is made of (not in the default table; --strategies):
# isolate told there is no "none" hypothesis; and also no pairs, q = 0 and p >= 3/4 of its true value.
ABLATIONS = ("isolate-no-none", "isolate-known")
# isolate-further-0.2 / isolate-first: --further 0.2 / 0 (stop at the first cause); single: the single-cause search of
# strategies/bayesian.py (for several causes: round after round, as model.without describes)


def settings_for(strategy: str, suite: Suite) -> Settings:
    """Baselines get the true failure rate of the full list (an oracle: generous)."""
    full = frozenset(range(len(suite.problem.predecessors)))
    rate = suite.truth.fail_probability(full) or suite.truth.background or 1e-3
    budget = 50_000  # a hunt that reaches it shows in the table (undecided), not as a stall
    if strategy == "isolate":
        return Settings(confidence=CONFIDENCE, max_runs=budget)
    if strategy == "cleaners":
        return Settings(confidence=CONFIDENCE, max_runs=budget, strategy="cleaners")
    if strategy == "isolate-further-0.2":
        return Settings(confidence=CONFIDENCE, max_runs=budget, further=0.2)
    if strategy == "isolate-first":
        return Settings(confidence=CONFIDENCE, max_runs=budget, further=0.0)
    if strategy == "single":  # capped: with several causes its rounds can stall for good
        return Settings(confidence=CONFIDENCE, max_runs=5_000, strategy="single")
    if strategy == "scan":
        return Settings(confidence=CONFIDENCE, max_runs=budget)
    if strategy == "setters":
        return Settings(confidence=CONFIDENCE, max_runs=budget, strategy="setters")
    if strategy == "isolate-no-none":
        return Settings(confidence=CONFIDENCE, max_runs=budget, prior_none=1e-9)
    if strategy == "isolate-known":
        p = max(c.rate for c in suite.truth.causes)
        rates = RatePrior(p_min=min(0.75 * p, 0.5), no_background=1.0, deterministic=0.99 if p >= 1 else 0.0)
        return Settings(confidence=CONFIDENCE, max_runs=budget, prior_none=1e-9, prior_pair=1e-9, rates=rates)
    if strategy == "manual-95/step":
        return Settings(strategy="manual", step_confidence=0.95, rate_hint=rate, max_runs=budget)
    if strategy == "manual-95":
        return Settings(strategy="manual", overall_confidence=0.95, rate_hint=rate, max_runs=budget)
    if strategy == "manual-99":
        return Settings(strategy="manual", overall_confidence=0.99, rate_hint=rate, max_runs=budget)
    if strategy == "halving":
        return Settings(strategy="halving", max_runs=budget)
    if strategy == "ddmin":
        return Settings(strategy="ddmin", step_confidence=0.95, rate_hint=rate, max_runs=budget)
    raise ValueError(strategy)


def lower_bound(name: str, n: int) -> float:
    """Runs: Fano for culprit scenarios, the two-sample Wald bound for "none"."""
    kind, _, rest = name.partition(" ")
    params = dict(part.split("=") for part in rest.split() if "=" in part)

    def rate(t: str) -> float:
        a, _, b = t.partition("/")
        return float(a) / float(b) if b else float(a)

    if kind in ("single", "cleaner", "brittle"):  # a setter: the same search, outcome inverted
        return fano_runs(n, CONFIDENCE, rate(params["p"]), rate(params.get("q", "0")))
    if kind == "pair":
        return fano_runs(n * (n - 1) / 2, CONFIDENCE, rate(params["p"]))
    if kind == "two":
        pa, pb = (rate(x) for x in params["p"].split("+"))
        return fano_runs(n * (n - 1) / 2, CONFIDENCE, 1 - (1 - pa) * (1 - pb))
    if kind == "none":
        return none_runs(rate(params["q"]), CONFIDENCE)
    return math.nan


def trials_for(name: str, n: int, base: int, strategy: str) -> int:
    """Fewer trials where one of isolate's trials is long: slow rates, N=2000, and the
    cumulative leak (outside the model: at N=300 its 30 trials took 906 of the grid's
    1,376 s of CPU)."""
    t = base
    if strategy.startswith("isolate"):
        if n >= 2000 and ("1/100" in name or "none" in name or "cumulative" in name):
            t = max(4, base // 5)
        elif n >= 2000 or "1/100" in name or "q=0.003" in name or "cumulative" in name:
            t = max(6, base // 2)
    return t


@dataclass(frozen=True)
class Task:
    strategy: str
    name: str
    n: int
    seed: int


@dataclass(frozen=True)
class Result:
    task: Task
    trial: Trial
    fixed_cost: float  # start-up + victim of that suite (for the seconds bound)
    cpu: float  # seconds of CPU the trial took (simulation and search)
    bound: float  # the runs lower bound of this trial's suite


def scan(suite: Suite, rng: random.Random) -> Trial:
    """iDFlakies' one-by-one scan: each predecessor alone before the victim, as many times as
    shows the weakest true cause's rate at CONFIDENCE; every test whose runs failed is named."""
    rate = min((c.rate for c in suite.truth.causes), default=1.0)
    reps = runs_for(CONFIDENCE, rate)
    named: set[int] = set()
    runs = 0
    seconds = 0.0
    for i in range(len(suite.problem.predecessors)):
        obs: list[Observation] = simulate_query(suite, Query((i,), reps, "scan", until_failure=True), rng)
        runs += sum(o.count for o in obs)
        seconds += sum(o.seconds for o in obs)
        if any(o.failed for o in obs):
            named.add(i)
    kind = "polluter" if named else "fails-alone"
    cs = frozenset(named)
    return Trial(kind, cs, 0.0, judge(suite.truth, kind, cs), runs, seconds, 0)


def bound_for(name: str, suite: Suite) -> float:
    """Fano / Wald for the single-cause grid; the group-testing bound d*log2(N/d) for several."""
    n = len(suite.problem.predecessors)
    if name in CLEANER_SCENARIOS:  # the inverted search: passes at 1 - p alone, 1 - p(1 - c) with the cleaner
        p, c = (float(suite.truth.causes[0].rate), float(suite.truth.causes[0].clean_rate))
        return fano_runs(n, CONFIDENCE, 1 - p * (1 - c), 1 - p) if c > 0 else math.nan
    if name in MULTI_SCENARIOS:
        d = len(suite.truth.causes)
        return d * math.log2(n / d)
    return lower_bound(name, n)


def run_task(task: Task) -> Result:
    start = time.process_time()
    rng = random.Random(f"{task.name}|{task.n}|{task.seed}")
    suite = scenario(task.name, task.n, rng)
    if task.strategy == "cleaners":  # the polluter first in every list; its cleaner is the answer
        suite = cleaner_suite(suite, suite.truth.answer)
    st = settings_for(task.strategy, suite)
    fixed = suite.problem.startup + suite.problem.victim_duration
    run_rng = random.Random(f"run|{task.strategy}|{task.name}|{task.n}|{task.seed}")
    if task.strategy == "ddmin":
        verdict, _ = manual.drive(suite.problem, st, lambda q: simulate_query(suite, q, run_rng))
        cs = frozenset(verdict.culprits)
        t = Trial(verdict.kind, cs, verdict.confidence, judge(suite.truth, verdict.kind, cs),
                  verdict.runs, verdict.seconds, 0)
    elif task.strategy == "scan":
        t = scan(suite, run_rng)
    elif is_multi(task.name) and not task.strategy.startswith("isolate"):
        t = hunt_all(suite, st, run_rng, max_culprits=2 if task.name.startswith("two") else 50)
    else:
        t = trial(suite, st, run_rng)
    return Result(task, t, fixed, time.process_time() - start, bound_for(task.name, suite))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return math.nan
    k = min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))
    return xs[k]


def fmt(x: float, nd: int = 0) -> str:
    if x != x:
        return "-"
    if nd == 0:
        return f"{x:,.0f}"
    return f"{x:.{nd}f}"


def table(results: list[Result]) -> str:
    groups: dict[tuple[str, int, str], list[Result]] = {}
    for r in results:
        groups.setdefault((r.task.name, r.task.n, r.task.strategy), []).append(r)
    manual99: dict[tuple[str, int], float] = {}
    scans: dict[tuple[str, int], float] = {}
    for (name, n, strat), rs in groups.items():
        if strat == "manual-99":
            manual99[(name, n)] = statistics.median(x.trial.seconds for x in rs)
        if strat == "scan":
            scans[(name, n)] = statistics.median(float(x.trial.runs) for x in rs)
    head = ("| scenario | N | strategy | trials | accuracy | claimed>=0.99: right | runs med | "
            "runs p95 | runs/LB | seconds med | seconds p95 | s/LB | s/manual-99 | runs/scan |")
    lines = [head, "|" + "---|" * 14]
    order = {s: i for i, s in enumerate(SCENARIOS + MULTI_SCENARIOS + BRITTLE_SCENARIOS + CLEANER_SCENARIOS)}
    sorder = {s: i for i, s in enumerate(STRATEGIES + MULTI_STRATEGIES + ABLATIONS)}
    for key in sorted(groups, key=lambda k: (k[1], order.get(k[0], 99), sorder.get(k[2], 99))):
        name, n, strat = key
        rs = groups[key]
        ts = [r.trial for r in rs]
        acc = sum(t.correct for t in ts) / len(ts)
        claimed = [t for t in ts if t.confidence >= CONFIDENCE and t.kind != "undecided"]
        cal = (f"{sum(t.correct for t in claimed)}/{len(claimed)}" if claimed else "-")
        runs = [float(t.runs) for t in ts]
        secs = [t.seconds for t in ts]
        lb = statistics.mean(r.bound for r in rs)
        lb_secs = lb * statistics.mean(r.fixed_cost for r in rs)
        rmed = statistics.median(runs)
        smed = statistics.median(secs)
        m99 = manual99.get((name, n), math.nan)
        sc = scans.get((name, n), math.nan)
        lines.append(
            f"| {name} | {n} | {strat} | {len(ts)} | {acc:.0%} | {cal} | {fmt(rmed)} | "
            f"{fmt(pct(runs, 0.95))} | {fmt(rmed / lb, 2) if lb == lb and lb > 0 else '-'} | "
            f"{fmt(smed)} | {fmt(pct(secs, 0.95))} | "
            f"{fmt(smed / lb_secs, 1) if lb == lb and lb > 0 else '-'} | "
            f"{fmt(smed / m99, 2) if m99 == m99 and m99 > 0 else '-'} | "
            f"{fmt(rmed / sc, 2) if sc == sc and sc > 0 else '-'} |"
        )
    return "\n".join(lines)


def dearest(results: list[Result], most: int = 5) -> str:
    """Where the CPU went: the total and the dearest cells."""
    cpu: dict[tuple[str, int, str], float] = {}
    for r in results:
        key = (r.task.name, r.task.n, r.task.strategy)
        cpu[key] = cpu.get(key, 0.0) + r.cpu
    top = sorted(cpu.items(), key=lambda kv: -kv[1])[:most]
    cells = "; ".join(f"{name} N={n} {strat} {s:,.0f} s" for (name, n, strat), s in top)
    return f"{sum(cpu.values()):,.0f} s of CPU in trials; dearest cells: {cells}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--grid", choices=("full", "reduced", "multi", "brittle", "cleaners"), default="full")
    ap.add_argument("--trials", type=int, default=40, help="trials per cell (fewer for slow cells)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strategies", default="", help="default: the grid's (multi: "
                    + ",".join(MULTI_STRATEGIES) + "; else " + ",".join(STRATEGIES) + ")")
    ap.add_argument("--scenarios", default="", help="comma-separated subset of scenario names")
    ap.add_argument("--ns", default="", help="comma-separated subset of N")
    args = ap.parse_args(argv)
    default = {"multi": MULTI_STRATEGIES, "brittle": BRITTLE_STRATEGIES,
               "cleaners": CLEANER_STRATEGIES}.get(args.grid, STRATEGIES)
    strategies = [s for s in (args.strategies or ",".join(default)).split(",") if s]
    known = STRATEGIES + MULTI_STRATEGIES + BRITTLE_STRATEGIES + CLEANER_STRATEGIES + ABLATIONS
    unknown = set(strategies) - set(known)
    if unknown:
        ap.error(f"unknown strategies {sorted(unknown)}; choose from {', '.join(dict.fromkeys(known))}")
    if args.grid == "full":
        cells = [(name, n) for n in FULL_NS for name in SCENARIOS]
    elif args.grid == "multi":
        cells = [(name, n) for n in MULTI_NS for name in MULTI_SCENARIOS]
    elif args.grid == "brittle":
        cells = [(name, n) for n in MULTI_NS for name in BRITTLE_SCENARIOS]
    elif args.grid == "cleaners":
        cells = [(name, n) for n in MULTI_NS for name in CLEANER_SCENARIOS]
    else:
        cells = [(name, n) for n, names in REDUCED.items() for name in names]
    if args.scenarios:
        keep = set(args.scenarios.split(","))
        cells = [c for c in cells if c[0] in keep]
    if args.ns:
        ns = {int(x) for x in args.ns.split(",")}
        cells = [c for c in cells if c[1] in ns]
    if set(strategies) & set(ABLATIONS) and any(not c[0].startswith("single") for c in cells):
        ap.error("the isolate-* ablations need single-polluter scenarios only; pass --scenarios")
    tasks = [
        Task(s, name, n, args.seed + i)
        for name, n in cells
        for s in strategies
        for i in range(trials_for(name, n, args.trials, s))
    ]
    # longest first, so the workers finish together: isolate's cumulative-leak hunts are the
    # longest and the most variable at every N, then slow rates and large N
    tasks.sort(key=lambda t: (t.strategy.startswith("isolate") and "cumulative" in t.name, t.n,
                              any(k in t.name for k in ("1/100", "none", "cumulative"))), reverse=True)
    start = time.time()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(run_task, tasks, chunksize=1)
    else:
        results = [run_task(t) for t in tasks]
    print(table(results))
    print(f"\n{len(tasks)} trials, {time.time() - start:.0f} s wall, {args.jobs} jobs, "
          f"confidence {CONFIDENCE}, seed {args.seed}", file=sys.stdout)
    print(dearest(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
