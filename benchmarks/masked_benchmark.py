"""A cause that a later test undoes: how often does the search name it, at W workers, and with `--scan`?

Usage::

    python benchmarks/masked_benchmark.py [--trials 200] [--n 50] [--workers 1 2 8] [--masked-rate 1]

Simulated (isolate.search.simulate), no processes. Per trial: N predecessors with lognormal
durations; a visible polluter (rate 1) and a *masked* one (rate `--masked-rate`) at distinct
random places, and a cleaner at a random place after the masked one that always undoes it (run
after the masked polluter, the victim passes). The victim never fails on its own. Per W:

- `search`: the default search (strategies/causes.py) on W workers, as `isolate bisect` runs it
  without `--scan`;
- `+ scan`: then the scan of every other predecessor alone (strategies/scan.py), as `--scan` adds,
  seeded with the search's runs as isolate.hunt.scan seeds it (a test already run alone, or last
  before the victim in a list that passed, is not run again).

A hunt is right when it names both polluters and nothing else. Printed per W: how many of each
were right, the trials whose answer (the set named) differs from W = 1's, the median runs of the
search and of the scan, and the median wall seconds of both (runs of a wave side by side).
Fixed seeds: the same suites at every W.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from isolate.search.model import Settings, carry_over  # noqa: E402
from isolate.search.simulate import (  # noqa: E402
    Cause,
    Suite,
    Truth,
    hunt_wall,
    lognormal_durations,
    make_problem,
    rest_suite,
)


def masked_suite(rng: random.Random, n: int, rate: float) -> tuple[Suite, int, int]:
    """The suite, its visible polluter and its masked one."""
    visible, masked, cleaner = rng.sample(range(n), 3)
    masked, cleaner = min(masked, cleaner), max(masked, cleaner)  # the cleaner runs after it
    causes = (Cause(frozenset({visible}), 1.0), Cause(frozenset({masked}), rate, cleaner=cleaner, clean_rate=1.0))
    truth = Truth(causes, 0.0, frozenset({visible, masked}))
    return Suite(make_problem(n, lognormal_durations(rng, n), 0.2, 0.5), truth), visible, masked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 8])
    parser.add_argument("--masked-rate", type=float, default=1.0)
    opts = parser.parse_args(argv)
    settings = Settings()
    answers: dict[int, list[frozenset[int]]] = {}
    print(f"N = {opts.n}, masked polluter's rate {opts.masked_rate:g}, {opts.trials} trials")
    print("| W | search right | + scan right | answers differing from W = 1 (search / + scan) |"
          " runs: search / scan (median) | wall s: search / + scan (median) |")
    print("|---|---|---|---|---|---|")
    for w in opts.workers:
        right = [0, 0]
        runs: list[list[int]] = [[], []]
        walls: list[list[float]] = [[], []]
        named: list[frozenset[int]] = []
        scanned: list[frozenset[int]] = []
        for t in range(opts.trials):
            suite, visible, masked = masked_suite(random.Random(t), opts.n, opts.masked_rate)
            rng = random.Random(10_000 + t)
            verdict, seen, _, wall = hunt_wall(suite, settings, rng, batch=w)
            found = frozenset(verdict.culprits) if verdict.kind == "polluter" else frozenset()
            runs[0].append(verdict.runs)
            walls[0].append(wall)
            more = found
            if verdict.kind == "polluter":
                rest = rest_suite(suite, found)
                index = [i for i in range(opts.n) if i not in found]
                # seeded as isolate.hunt.scan seeds it: the hunt's runs alone and its passing lists
                seed = tuple(o for o in carry_over(suite.problem, seen, found)
                             if len(o.included) <= 1 or not o.failed)
                scan, _, _, scan_wall = hunt_wall(rest, Settings(strategy="scan"), rng, batch=w, observations=seed)
                more = found | {index[i] for i in scan.culprits}
                runs[1].append(scan.runs - sum(o.count for o in seed))
                walls[1].append(wall + scan_wall)
            right[0] += found == {visible, masked}
            right[1] += more == {visible, masked}
            named.append(found)
            scanned.append(more)
        answers[w] = named + scanned
        base = answers[opts.workers[0]]
        half = opts.trials
        differ = (sum(a != b for a, b in zip(named, base[:half])), sum(a != b for a, b in zip(scanned, base[half:])))
        print(f"| {w} | {right[0]}/{opts.trials} | {right[1]}/{opts.trials} | {differ[0]} / {differ[1]} |"
              f" {statistics.median(runs[0]):g} / {statistics.median(runs[1]) if runs[1] else 0:g} |"
              f" {statistics.median(walls[0]):.1f} / {statistics.median(walls[1]) if walls[1] else 0:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
