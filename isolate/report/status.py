"""Looking at hunts: `status` (where each stands) and `log` (its steps, and why each was run).

All of it is read from the hunt directory, so it works while a hunt runs in another process.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from isolate.hunt.evidence import evidence
from isolate.hunt.journal import Entry, read_journal
from isolate.hunt.store import Hunt, read_queries, read_steps
from isolate.hunt.verdict import read_verdict
from isolate.report.verdict import describe, duration
from isolate.search.model import Settings
from isolate.search.posterior import Answer
from isolate.search.strategies.bayesian import leading


@dataclass(frozen=True)
class Status:
    hunt: Hunt
    state: str
    candidates: int | None
    leader: str
    runs: int
    failures: int
    seconds: float
    left: str


def status(hunt: Hunt) -> Status:
    ev = evidence(hunt)
    entries, _ = read_journal(hunt)
    last = ev.steps.get(entries[-1].step) if entries else None
    candidates = len(last) - 1 if last else len(ev.problem.predecessors)
    settings = Settings(confidence=float(hunt.settings.get("search", {}).get("confidence", 0.99)))
    top = leading(ev.problem, ev.observations, settings)
    leader = f"{describe(ev.problem, top[0])} ({top[0].probability:.3f})" if top else "—"
    seconds = sum(e.seconds for e in entries)
    verdict = read_verdict(hunt)
    lock = hunt.path / "lock"
    if lock.exists():
        state = f"running (pid {_lock_pid(lock)})"
    elif verdict is not None:
        state = f"done: {verdict['verdict']}"
    elif entries:
        state = "paused"
    else:
        state = "not started"
    left = "—" if state.startswith("done") else _time_left(hunt, entries, top, settings.confidence,
                                                          len(ev.problem.predecessors))
    fails = sum(1 for e in entries if e.reproduced)
    return Status(hunt, state, candidates, leader, len(entries), fails, seconds, left)


def _lock_pid(lock: Path) -> str:
    """The pid in a lock file; "?" when it is empty, garbled or unreadable (a crash mid-write)."""
    try:
        words = lock.read_bytes().split()
    except OSError:
        return "?"
    return words[0].decode() if words and words[0].isdigit() else "?"


def _time_left(hunt: Hunt, entries: list[Entry], top: tuple[Answer, ...], confidence: float, n: int) -> str:
    """Extrapolates the rate at which the leader's log-odds have grown from their prior (~1/n)."""
    budget = hunt.settings.get("search", {}).get("time_budget")
    if not entries or not top:
        return "unknown until the failure reproduces"
    odds_now = top[0].probability / max(1e-12, 1 - top[0].probability)
    odds_goal = confidence / (1 - confidence)
    if odds_now >= odds_goal:
        return "done"
    gained = math.log(max(odds_now, 1e-12)) - math.log(1 / max(1, n))
    per_second = gained / max(1e-9, sum(e.seconds for e in entries))
    if per_second <= 0:
        return "unknown (no progress yet)"
    estimate = (math.log(odds_goal) - math.log(odds_now)) / per_second
    text = f"~{duration(estimate)} of test time"
    if budget:
        text += f" (budget {duration(float(budget))})"
    return text


def format_status(items: list[Status]) -> str:
    if not items:
        return "no hunts here; start one with 'isolate extract'"
    out = []
    for s in items:
        out.append(s.hunt.victim)
        out.append(f"  {s.state} · {s.candidates} candidates · {s.runs} runs, {s.failures} reproduced,"
                   f" {duration(s.seconds)} of test time")
        out.append(f"  leading: {s.leader}")
        out.append(f"  time left: {s.left}")
        out.append(f"  {s.hunt.path}")
    return "\n".join(out)


def log_lines(hunt: Hunt) -> list[str]:
    """The journal grouped by query (a step's list, its runs, why it was chosen)."""
    entries, warnings = read_journal(hunt)
    steps = read_steps(hunt)
    queries = read_queries(hunt, warnings)
    starts = sorted({0, *(int(q["from"]) for q in queries)} | _step_changes(entries))
    reasons = {int(q["from"]): str(q.get("reason", "")) for q in queries}
    lines = [f"hunt for {hunt.victim} in {hunt.path}"]
    lines.extend(f"warning: {w}" for w in warnings)
    for begin, end in zip(starts, [*starts[1:], len(entries)]):
        group = entries[begin:end]
        if not group:
            continue
        step = group[0].step
        size = len(steps.get(step, ())) - 1
        fails = sum(1 for e in group if e.reproduced)
        other = sorted({e.outcome for e in group if not e.reproduced and e.outcome != "pass"})
        note = f" ({', '.join(other)} too)" if other else ""
        lines.append(f"{group[0].at[:19]:19}  step {step:>3}: {size:>5} predecessors + victim,"
                     f" {len(group):>3} runs, {fails:>3} reproduced{note}  {reasons.get(begin, '')}".rstrip())
    verdict = read_verdict(hunt)
    if verdict:
        culprits = ", ".join(verdict.get("culprits", [])) or "-"  # type: ignore[arg-type]
        lines.append(f"verdict: {verdict['verdict']} {culprits} (confidence {verdict['confidence']})")
    return lines


def _step_changes(entries: list[Entry]) -> set[int]:
    return {i for i in range(1, len(entries)) if entries[i].step != entries[i - 1].step}
