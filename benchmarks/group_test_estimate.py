"""How few runs could a search that confirms every cause need on `multi k=7 p=1`? (issue 16)

    python benchmarks/group_test_estimate.py [--scenario "multi k=7 p=1"] [--n 50] [--trials 60]

Issue 16 asks for fewer runs than the one-by-one scan (N runs) on deterministic multi-cause
suites; at N = 50 with 7 causes isolate's search needs more (docs/search.md). This prints what an
idealised search for *deterministic* causes would need on the same simulated suites (the search
benchmark's seeds), to tell how much of the gap a dedicated mode could close:

- the first cause as isolate's search finds and confirms it (its runs up to its first classmates'
  probe or check of the rest, measured here on each suite: reproduction, the chain, the search
  inside the prefix, the victim alone);
- then adaptive group testing with each class of the rest as a group (the classmates' probe is
  then the group's own run): a group runs alone before the victim; a failing one is halved, the
  first half run and the second inferred when the first passes (no noise), down to one test, which
  runs alone if its failure was inferred (its confirmation); the group less the causes found runs
  again until it passes;
- `--confirm` more runs alone per cause (isolate's verdict at 0.99 against "the victim fails on
  its own" asks about two runs alone for one cause in three: 0.66), and one final run of the rest.

It knows the causes are deterministic and never meets a pair, a flaky cause or a cleaner, so it
is optimistic. Printed: its median and mean runs at each --confirm, beside the scan's N and the
median runs of isolate's whole hunt (simulate.trial) on the same suites.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from isolate.search.decide import decide  # noqa: E402
from isolate.search.model import Observation, Query, Settings  # noqa: E402
from isolate.search.scopes import class_of  # noqa: E402
from isolate.search.simulate import Suite, scenario, simulate_batch, trial  # noqa: E402

SETTINGS = Settings(confidence=0.99, max_runs=50_000)


def first_cause(suite: Suite, rng: random.Random) -> int:
    """Runs isolate's search makes before its first classmates' probe or check of the rest, that
    is, to find and confirm its first cause."""
    obs: list[Observation] = []
    while True:
        q = decide(suite.problem, obs, SETTINGS)
        if not isinstance(q, Query) or q.reason.startswith("without") or "tests of" in q.reason:
            return sum(o.count for o in obs)
        got, _ = simulate_batch(suite, q, rng, 1)
        obs += got


def group(members: list[int], causes: set[int], confirm: float) -> float:
    """Runs to clear one group of deterministic causes by halving."""
    runs = 0.0
    live = list(members)
    while live:
        runs += 1  # the group (less the causes found) alone before the victim
        if not set(live) & causes:
            return runs
        s, inferred = live, True
        while len(s) > 1:
            half = s[:len(s) // 2]
            runs += 1
            if set(half) & causes:
                s, inferred = half, False
            else:
                s, inferred = s[len(s) // 2:], True
        runs += (1 if inferred else 0) + confirm
        live = [x for x in live if x != s[0]]
    return runs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default="multi k=7 p=1")
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--trials", type=int, default=60)
    args = ap.parse_args(argv)
    name, n = args.scenario, args.n
    firsts: list[int] = []
    whole: list[int] = []
    ideal: dict[float, list[float]] = {c: [] for c in (0.0, 0.66, 1.0)}
    for seed in range(args.trials):
        suite = scenario(name, n, random.Random(f"{name}|{n}|{seed}"))
        causes = {i for c in suite.truth.causes for i in c.members}
        first_runs = first_cause(suite, random.Random(f"run|isolate|{name}|{n}|{seed}"))
        firsts.append(first_runs)
        whole.append(trial(suite, SETTINGS, random.Random(f"run|isolate|{name}|{n}|{seed}")).runs)
        first = min(causes)  # which one the search found first does not change the count much
        classes: dict[str | None, list[int]] = {}
        for i in range(n):
            if i != first:
                classes.setdefault(class_of(suite.problem.predecessors[i]), []).append(i)
        for confirm in ideal:
            rest = sum(group(m, causes - {first}, confirm) for m in classes.values())
            ideal[confirm].append(first_runs + rest + 1)
    print(f"{name}, N = {n}, {args.trials} suites (the search benchmark's seeds)")
    print(f"  the one-by-one scan: {n} runs")
    print(f"  isolate's whole hunt: median {statistics.median(whole):g} runs, mean {statistics.mean(whole):.1f}")
    print(f"  isolate's first cause: median {statistics.median(firsts):g} runs, mean {statistics.mean(firsts):.1f}")
    for confirm, runs in ideal.items():
        alone = f"{1 + confirm:g} run{'' if confirm == 0 else 's'}"
        print(f"  idealised group test by class, {alone} alone a cause: "
              f"median {statistics.median(runs):g} runs, mean {statistics.mean(runs):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
