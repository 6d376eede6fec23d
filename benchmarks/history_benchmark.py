"""New runs a hunt needs with stored runs as evidence, against the same hunt with --no-history.

Usage::

    python benchmarks/history_benchmark.py [--stored 40] [--trials 5] [--sets 1] [--rate 0.2] [--jobs 2] [--ungrouped]

In a temporary copy of sample_suites/flaky_polluter (its polluter fails the victim at
SAMPLE_POLLUTION_RATE when it runs first in the same process), `stestr run --random` stores
--stored runs (random partitions of the modules over the workers), then more until the newest has
the victim failing: the run the hunt is extracted from. Each trial extracts it afresh and hunts
three times, in alternation: with the stored runs (the default), with --no-history (where repeats
of the victim may start by themselves: a run is then K executions), and with --no-history
--repeat-victim 1 (single runs: the history lever alone); the table gives the median new runs and
seconds of each, the ratios, and how many verdicts named the polluter.

As shipped, the suite's .stestr.conf keeps each test module in one worker, in one order
(group_regex): the victim's module, the polluter's too, then always runs the polluter's class
before the victim, so a stored run can only tell whether the other modules' tests matter (about
1.3 of the 4.6 bits that name the polluter among 25). `--ungrouped` drops group_regex in the
temporary copy: stestr then spreads single tests over the workers and shuffles each worker's
order, and the victim's predecessors vary from run to run, as in a suite without groups.
All the trials of a set hunt the same order (the newest stored run's), and the polluter's rate
depends on that order, so one set's ratio is one sample of it: `--sets S` makes S fresh copies,
each with its own stored runs and failing order, pools their trials and prints each set's ratio.
Runs are counted from the verdicts' JSON (`runs` counts new runs only; `history_runs` the stored
ones used), so the ratio does not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SUITE = "flaky_polluter"
VICTIM = "pricecache.tests.test_service.PriceLookupTest.test_apple_list_price"
POLLUTER = "pricecache.tests.test_service.DiscountTest.test_full_promo_makes_item_free"
BIN = Path(sys.executable).parent


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=3600)


PURPOSES = (  # what a step's reason asks, by the words isolate's search uses
    ("fork check", ("fork check:",)),
    ("reproduce", ("full list",)),
    ("victim alone", ("victim alone",)),
    ("stop check", ("without the causes found", "how surely", "make it fail too", "a cause too")),
    ("chain", ("where do the lists start to fail", "remaining predecessors")),
    ("which test", ("of the suspicion", "confirm:", "alone before the victim")),
)


def purposes(log: str) -> dict[str, int]:
    """New runs by what they asked, from `isolate log` (a line without a reason is one of the
    lists run beside the line before it)."""
    out: dict[str, int] = {}
    last = "other"
    for line in log.splitlines():
        found = re.search(r"(\d+) runs,", line)
        if not found:
            continue
        last = next((name for name, words in PURPOSES if any(w in line for w in words)),
                    last if line.rstrip().endswith("reproduced") else "other")
        out[last] = out.get(last, 0) + int(found.group(1))
    return out


def check_runs(verdict: dict[str, object]) -> int:
    """The fork check's runs, from the verdict's mode ("... vs 4/40 fork ..."); 0 without a check."""
    found = re.search(r" vs \d+/(\d+) fork", str(verdict.get("mode", "")))
    return int(found.group(1)) if found else 0


def median_runs(verdicts: list[dict[str, object]]) -> float:
    """The median of the verdicts' new runs."""
    return statistics.median(float(v["runs"]) for v in verdicts)  # type: ignore[arg-type]


def one_set(args: argparse.Namespace, env: dict[str, str], modes: dict[str, list[str]]
            ) -> tuple[int, dict[str, list[dict[str, object]]]] | None:
    """A fresh copy of the suite, its stored runs, and `args.trials` hunts in each mode on the
    newest (failing) run's order; None when the victim never failed."""
    with tempfile.TemporaryDirectory(prefix="isolate-history-bench-") as tmp:
        suite = Path(tmp) / SUITE
        shutil.copytree(REPO / "sample_suites" / SUITE, suite,
                        ignore=shutil.ignore_patterns(".stestr", ".isolate", "__pycache__"))
        if args.ungrouped:
            conf = suite / ".stestr.conf"
            conf.write_text("".join(line for line in conf.read_text().splitlines(keepends=True)
                                    if not line.startswith("group_regex")))
        run([str(BIN / "stestr"), "init"], suite, env)
        for _ in range(args.stored):
            run([str(BIN / "stestr"), "run", "--random"], suite, env)
        for extra in range(200):
            run([str(BIN / "stestr"), "run", "--random"], suite, env)
            probe = run([str(BIN / "isolate"), "extract", "--test", VICTIM, "--force"], suite, env)
            if probe.returncode == 0 and "did not fail" not in probe.stderr:
                break
        else:
            return None
        stored = len([p for p in (suite / ".stestr").iterdir() if p.name.isdigit()])
        results: dict[str, list[dict[str, object]]] = {mode: [] for mode in modes}
        for _ in range(args.trials):
            for mode, flags in modes.items():
                run([str(BIN / "isolate"), "extract", "--test", VICTIM, "--force"], suite, env)
                proc = run([str(BIN / "isolate"), "bisect", VICTIM, "--json", "--jobs", str(args.jobs), *flags],
                           suite, env)
                verdict = json.loads(proc.stdout)
                verdict["purposes"] = purposes(run([str(BIN / "isolate"), "log", VICTIM], suite, env).stdout)
                results[mode].append(verdict)
    return stored, results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stored", type=int, default=40)
    ap.add_argument("--trials", type=int, default=5, help="hunts in each mode, per set of stored runs")
    ap.add_argument("--sets", type=int, default=1,
                    help="fresh sets of stored runs, each with its own failing order (pooled)")
    ap.add_argument("--rate", type=float, default=0.2, help="SAMPLE_POLLUTION_RATE")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ungrouped", action="store_true", help="drop the suite's group_regex (see above)")
    args = ap.parse_args()
    if args.sets < 1 or args.trials < 1:
        ap.error("--sets and --trials must be 1 or more")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
           "SAMPLE_POLLUTION_RATE": str(args.rate)}
    modes = {"history": [], "no-history": ["--no-history"],
             "no-history single": ["--no-history", "--repeat-victim", "1"]}
    results: dict[str, list[dict[str, object]]] = {mode: [] for mode in modes}
    sets: list[tuple[int, dict[str, list[dict[str, object]]]]] = []
    for _ in range(args.sets):
        got = one_set(args, env, modes)
        if got is None:
            print("the victim never failed; raise --rate", file=sys.stderr)
            return 1
        sets.append(got)
        for mode in modes:
            results[mode] += got[1][mode]
    stored = ", ".join(str(n) for n, _ in sets)
    print(f"flaky_polluter{' (ungrouped)' if args.ungrouped else ''}, SAMPLE_POLLUTION_RATE={args.rate}, "
          f"{args.sets} set(s) of stored runs ({stored} runs; the hunt's own run is never counted), "
          f"{args.trials} trials a set, --jobs {args.jobs}")
    print(f"{'mode':18} {'right':>6} {'runs (median)':>14} {'seconds (median)':>17} {'history runs':>13}"
          f" {'repeated':>9}")
    medians, seconds = {}, {}
    for mode, verdicts in results.items():
        right = sum(v["culprits"] == [POLLUTER] for v in verdicts)
        runs = median_runs(verdicts)
        secs = statistics.median(float(v["seconds"]) for v in verdicts)  # type: ignore[arg-type]
        used = statistics.median(float(v.get("history_runs", 0)) for v in verdicts)  # type: ignore[arg-type]
        medians[mode], seconds[mode] = runs, secs
        # hunts whose runs came to repeat the victim (by themselves, or asked), whatever the check made of it
        repeated = sum(int(v.get("repeats", {}).get("asked", 1)) > 1 for v in verdicts)  # type: ignore[attr-defined]
        print(f"{mode:18} {right:>3}/{len(verdicts):<2} {runs:>14.0f} {secs:>17.1f} {used:>13.0f}"
              f" {repeated:>5}/{len(verdicts):<3}")
    for other in ("no-history", "no-history single"):
        print(f"history / {other}: new runs {medians['history'] / medians[other]:.2f} (target <= 0.6),"
              f" seconds {seconds['history'] / seconds[other]:.2f}")
    # the fork check (isolate.hunt.forkcheck) replays up to 4 of a hunt's first lists 20 times each,
    # in every mode alike: its runs are the mode's, not the search's
    searched = {mode: statistics.median(float(v["runs"]) - check_runs(v) for v in verdicts)  # type: ignore[arg-type]
                for mode, verdicts in results.items()}
    for other in ("no-history", "no-history single"):
        print(f"history / {other}, new runs without the fork check's: {searched['history'] / searched[other]:.2f}"
              f" ({searched['history']:.0f} / {searched[other]:.0f})")
    print("new runs by purpose (median per hunt):")
    names = [name for name, _ in PURPOSES] + ["other"]
    print(f"{'mode':18} " + " ".join(f"{n:>13}" for n in names))
    for mode, verdicts in results.items():
        row = [statistics.median(float(v["purposes"].get(n, 0)) for v in verdicts)  # type: ignore[attr-defined]
               for n in names]
        print(f"{mode:18} " + " ".join(f"{x:>13.0f}" for x in row))
    print("per trial (runs with, without, without single):",
          [(a["runs"], b["runs"], c["runs"]) for a, b, c in zip(*results.values())])
    if len(sets) > 1:  # each set is one extracted order: the spread between sets is the order's
        print("history / no-history single, per set of stored runs:",
              ", ".join(f"{median_runs(r['history']) / median_runs(r['no-history single']):.2f}" for _, r in sets))
    return 0


if __name__ == "__main__":
    sys.exit(main())
