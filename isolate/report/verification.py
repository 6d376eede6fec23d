"""The outcome of `isolate verify` as people and scripts read it (hunt/verify.py runs it)."""

from __future__ import annotations

import shlex
from typing import Any

from isolate.files import from_here
from isolate.hunt.verify import JOURNAL, NAMES, Verification
from isolate.words import counted, fraction

EXIT = {"fixed": 0, "still-fails": 1, "inconclusive": 1}


def as_text(v: Verification) -> str:
    """The conclusion first (`fixed: 0/n, rate < r at c` or `still fails: k/n`), then each list."""
    lines = []
    if v.verdict == "fixed":
        lines.append(f"fixed: 0/{v.needed}, rate < {v.bound:.3g} at {_confidence(v.confidence)}")
    elif v.verdict == "still-fails":
        fails = sum(c.fails for c in v.counts)
        runs = sum(c.runs for c in v.counts)
        lines.append(f"still fails: {fails}/{runs}")
    else:
        odd = next((c for c in v.counts if c.other), v.counts[0])
        lines.append(f"inconclusive: {counted(sum(odd.other.values()), 'run')} of {NAMES[odd.target.name]} ended otherwise"
                     f" (neither a pass nor the recorded failure); see how with:"
                     f" isolate replay {from_here(odd.target.path)} --json")
    for c in v.counts:
        if not c.runs:
            lines.append(f"  {NAMES[c.target.name]}: not run  ({from_here(c.target.path)})")
            continue
        other = "".join(f", {n} {kind}" for kind, n in sorted(c.other.items()))
        lines.append(f"  {NAMES[c.target.name]}: {c.fails}/{c.runs} failed the recorded way,"
                     f" {c.passes} passed{other}  ({from_here(c.target.path)})")
    per_run = f" a run ({v.executions} executions of the victim each, as in the hunt)" if v.executions > 1 else ""
    lines.append(f"  estimated failure rate before the fix: {fraction(v.rate)}{per_run}; {counted(v.needed, 'pass', 'passes')}"
                 f" of each list rule it out at {_confidence(v.confidence)} (n = ceil(ln(1-c)/ln(1-p)))")
    lines.append(f"  attempt {v.attempt}, {counted(v.session_runs, 'run')} this time; journal {from_here(v.hunt.path / JOURNAL)}")
    return "\n".join(lines)


def summary(v: Verification, at: str) -> str:
    """One line for `status`, `log` and the report: the latest attempt's conclusion, or how far
    it got, and when its last run ended."""
    if v.verdict == "unfinished":
        got = ", ".join(f"{NAMES[c.target.name]} {c.passes}/{v.needed} passes" for c in v.counts)
        head = f"unfinished: {got} (the same command goes on: isolate verify {shlex.quote(v.hunt.victim)})"
    else:
        head = as_text(v).splitlines()[0]
    when = f", last run {at[:16].replace('T', ' ')} UTC" if at else ""
    return f"{head} (attempt {v.attempt}{when})"


def as_data(v: Verification) -> dict[str, Any]:
    """What `isolate verify --json` prints."""
    return {
        "verdict": v.verdict,
        "victim": v.hunt.victim,
        "rate": v.rate,
        "confidence": v.confidence,
        "runs_needed": v.needed,
        "rate_below": round(v.bound, 6) if v.verdict == "fixed" else None,
        "lists": [{"name": c.target.name, "path": str(c.target.path), "runs": c.runs, "fails": c.fails,
                   "passes": c.passes, "other": c.other} for c in v.counts],
        "attempt": v.attempt,
        "session_runs": v.session_runs,
        "executions": v.executions,
        "journal": str(v.hunt.path / JOURNAL),
    }


def _confidence(c: float) -> str:
    """0.99 as 0.99, 0.99999999 as 0.99999999 (not "1", which :g makes of it)."""
    return f"{c:.12g}"
