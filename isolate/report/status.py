"""Looking at hunts: `status` (where each stands) and `log` (its steps, and why each was run).

All of it is read from the hunt directory, so it works while a hunt runs in another process.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from isolate.errors import UserError
from isolate.hunt.evidence import evidence, notes, without_hangs
from isolate.hunt.forkcheck import mode_text
from isolate.hunt.journal import Entry, judged_for, read_journal
from isolate.hunt.lock import holder
from isolate.hunt.repeatcheck import hunt_findings, repeat_text, repeats_of
from isolate.hunt.settings import reading_settings
from isolate.hunt.store import FORK_CHECK_PHASE, Hunt, read_queries, read_steps, repeat_of
from isolate.hunt.verdict import read_verdict
from isolate.hunt.verify import latest
from isolate.report.verdict import describe
from isolate.report.verification import summary
from isolate.search.posterior import Answer
from isolate.search.decide import leading
from isolate.words import counted, noun, probability, seconds as duration


@dataclass(frozen=True)
class Status:
    hunt: Hunt
    state: str
    candidates: int | None
    leader: str
    runs: int
    failures: int
    seconds: float  # wall time across sessions
    left: str
    notes: tuple[str, ...] = ()  # tests left out for hanging, failures of another kind
    findings: tuple[str, ...] = ()  # what is already proven (the victim fails on its own)
    mode: str = ""  # which mode runs the hunt (fresh, fork) and why
    warnings: tuple[str, ...] = ()  # journal lines that could not be read, and so were not counted
    verified: str = ""  # what the latest `isolate verify` found (report.verification.summary)


def judged_journal(hunt: Hunt) -> tuple[list[Entry], list[str]]:
    """The journal's entries as the evidence reads them: runs whose later executions the repeat
    check no longer counts (repeats lowered or off) judged on the executions used, so that a
    count of reproductions says what the verdict's do; and the journal's warnings."""
    entries, warnings = read_journal(hunt)
    used = repeat_of(hunt)
    return [judged_for(e, used) for e in entries], warnings


def status(hunt: Hunt) -> Status:
    ev = evidence(hunt)
    entries, _ = judged_journal(hunt)
    candidates = len(ev.problem.predecessors)  # the hunt's, not the last list's (0 after the victim alone)
    search = hunt.settings.get("search", {})
    settings = reading_settings(hunt)
    try:
        problem, observations, dropped = without_hangs(ev, search.get("timeout"))
        stopped: tuple[str, ...] = ()
    except UserError as why:  # the hunt stopped for it; status still shows the rest
        problem, observations, dropped, stopped = ev.problem, ev.observations, (), (str(why),)
    top = leading(problem, observations, settings)
    leader = f"{describe(problem, top[0])} ({probability(top[0].probability)})" if top else "—"
    seconds = ev.wall_seconds
    verdict = read_verdict(hunt)
    found = holder(hunt.path)
    if found is not None and found.alive:
        state = f"running (pid {found.pid}{'' if found.here else ' on ' + found.host})"
    elif found is not None:
        state = (f"stopped: pid {found.pid or '?'} died mid-hunt; resume with"
                 f" 'isolate bisect {shlex.quote(hunt.victim)}'")
    elif verdict is not None:
        state = f"done: {verdict['verdict']}"
    elif entries:
        state = "paused"
    else:
        state = "not started"
    if state.startswith("done") and verdict is not None and verdict.get("causes"):
        # the verdict's own answer: a later phase (setters) searched other lists than `problem`
        leader = "; ".join(f"{c.get('role', 'polluter')} {c['name']} ({probability(float(c['confidence']))})"
                           for c in verdict["causes"])
    elif state.startswith("done") and verdict is not None and verdict["verdict"] in ("polluter", "fails-alone",
                                                                                    "undecided"):
        # the verdict's own answer and confidence (QA: an undecided verdict's 0.477 was shown as 0.386, the
        # posterior recomputed here by another search than the one that decided)
        what = " + ".join(str(c) for c in verdict.get("culprits") or ()) or "fails on its own"
        proven = " (not proven)" if verdict["verdict"] == "undecided" else ""
        leader = f"{what} ({probability(float(verdict['confidence']))}){proven}"
    left = "—" if state.startswith("done") else _time_left(hunt, entries, top, settings.confidence,
                                                          len(ev.problem.predecessors), seconds)
    fails = sum(1 for e in entries if e.reproduced)
    said = stopped + notes(ev, dropped, bool(search.get("any_failure")))
    return Status(hunt, state, candidates, leader, len(entries), fails, seconds, left, said, hunt_findings(hunt, observations),
                  mode_text(hunt), ev.warnings, verified_text(hunt))


def verified_text(hunt: Hunt) -> str:
    """The latest `isolate verify` of the hunt in one line; "" when it was never verified."""
    found = latest(hunt)
    return summary(*found) if found is not None else ""


def _time_left(hunt: Hunt, entries: list[Entry], top: tuple[Answer, ...], confidence: float, n: int,
               wall: float) -> str:
    """Extrapolates the rate at which the leader's log-odds have grown from their prior (~1/n);
    with --time-budget, how much of it the `wall` seconds spent so far leave."""
    budget = hunt.settings.get("search", {}).get("time_budget")
    if not entries or not top:
        return "unknown until the failure reproduces"
    odds_now = top[0].probability / max(1e-12, 1 - top[0].probability)
    odds_goal = confidence / (1 - confidence)
    if odds_now >= odds_goal:  # the hunt goes on: confirming the leader, ruling out more causes
        return "the leader is at the target confidence; confirming it and checking for further causes"
    gained = math.log(max(odds_now, 1e-12)) - math.log(1 / max(1, n))
    per_second = gained / max(1e-9, sum(e.seconds for e in entries))
    if per_second <= 0:
        return "unknown (no progress yet)"
    estimate = (math.log(odds_goal) - math.log(odds_now)) / per_second
    text = f"~{duration(estimate)} of test time"
    if budget:  # wall time for the whole hunt, spent or not: what is left of it is what counts
        text += f" (--time-budget {float(budget):g}s: {duration(max(0.0, float(budget) - wall))} of it left)"
    return text


def format_status(items: list[Status]) -> str:
    if not items:
        return "no hunts here; start one with 'isolate extract'"
    out = []
    for s in items:
        out.append(s.hunt.victim)
        out.append(f"  {s.state} · {counted(s.candidates or 0, 'candidate')} · {counted(s.runs, 'run')}, {s.failures} reproduced,"
                   f" {duration(s.seconds)} of wall time")
        out.extend(f"  finding: {finding}" for finding in s.findings)
        out.append(f"  leading: {s.leader}")
        if s.verified:
            out.append(f"  verified: {s.verified}")
        if s.mode:
            out.append(f"  mode: {s.mode}")
        if repeats_of(s.hunt) is not None:
            out.append(f"  repeats: {repeat_text(s.hunt)}")
        out.extend(f"  note: {note}" for note in s.notes)
        out.extend(f"  warning: {warning}" for warning in s.warnings)
        out.append(f"  time left: {s.left}")
        out.append(f"  {s.hunt.path}")
    return "\n".join(out)


@dataclass(frozen=True)
class StepRun:
    """One list a query ran: its step, its runs, why it was chosen."""

    begin: int  # where its share of the query's journal entries begins (a batch's lists share them in list order)
    end: int  # one past its share
    step: int
    size: int  # predecessors in the list
    fails: int  # runs that reproduced the failure
    other: tuple[str, ...]  # outcomes that were neither (timeout, crash, another failure)
    reason: str
    at: str  # when the first run finished

    @property
    def runs(self) -> int:
        return self.end - self.begin


def step_runs(hunt: Hunt, entries: list[Entry], warnings: list[str] | None = None) -> list[StepRun]:
    """The journal grouped by query (the query log says where each began, which lists it ran and
    why): a row per list, in the order the query listed them, each with all its runs. A batch
    runs several lists at once, so their runs finish interleaved; they are counted per list, not
    per stretch of the journal (which listed a list again for each stretch, out of order). A row's
    `begin`..`end` is its share of the query's stretch, in that order. Runs no query line covers
    are grouped by consecutive step. Query log lines that cannot be read are skipped with a
    warning into `warnings`."""
    steps = read_steps(hunt)
    listed: dict[int, list[dict[str, Any]]] = {}  # the query lines by the journal entry they began at
    for query in read_queries(hunt, warnings):
        listed.setdefault(int(query["from"]), []).append(query)
    inside = {i for i in listed if 0 < i < len(entries) and _checks(entries, i - 1) and _checks(entries, i)}
    starts = sorted(({0, *listed} - inside) | _check_changes(entries))  # the fork check's waves: one group
    out = []
    for begin, end in zip(starts, [*starts[1:], len(entries)]):
        group = entries[begin:end]
        if not group:
            continue
        position = begin
        for step, runs, reason in _lists(group, listed.get(begin, [])):
            out.append(StepRun(position, position + len(runs), step, len(steps.get(step, ())) - 1,
                               sum(1 for e in runs if e.reproduced),
                               tuple(sorted({e.outcome for e in runs if not e.reproduced and e.outcome != "pass"})),
                               reason, runs[0].at))
            position += len(runs)
    return out


def _lists(group: list[Entry], queries: list[dict[str, Any]]) -> list[tuple[int, list[Entry], str]]:
    """One query's runs as (step, its runs, why: said where it differs from the row before), in
    the order `queries` (its lines) listed the steps; without them, each stretch of one step. The
    fork check's runs (its waves of its lists) are one row."""
    if group[0].phase == FORK_CHECK_PHASE:
        return [(group[0].step, group, "")]
    if not queries:
        stretches: list[tuple[int, list[Entry], str]] = []
        for entry in group:
            if stretches and stretches[-1][0] == entry.step:
                stretches[-1][1].append(entry)
            else:
                stretches.append((entry.step, [entry], ""))
        return stretches
    why = {int(q["step"]): str(q.get("reason", "")) for q in queries}
    order = list(dict.fromkeys([int(q["step"]) for q in queries] + [e.step for e in group]))
    out: list[tuple[int, list[Entry], str]] = []
    said = None
    for step in order:
        runs = [e for e in group if e.step == step]
        if runs:
            reason = why.get(step, "")
            out.append((step, runs, "" if reason == said else reason))
            said = reason
    return out


def log_lines(hunt: Hunt) -> list[str]:
    """The journal grouped by query (a step's list, its runs, why it was chosen)."""
    entries, warnings = judged_journal(hunt)
    groups = step_runs(hunt, entries, warnings)
    lines = [f"hunt for {hunt.victim} in {hunt.path}"]
    lines.extend(f"warning: {w}" for w in warnings)
    for g in groups:
        note = f" ({', '.join(g.other)} too)" if g.other else ""
        steps = checked_steps(entries, g)
        if steps is not None:  # one line for the check's interleaved lists
            lines.append(f"{g.at[:19]:19}  fork check: steps {steps} again in the fork server, {counted(g.runs, 'run')},"
                         f" {g.fails} reproduced{note}")
            continue
        lines.append(f"{g.at[:19]:19}  step {g.step:>3}: {g.size:>5} {noun(g.size, 'predecessor')} + victim,"
                     f" {g.runs:>3} {noun(g.runs, 'run')}, {g.fails:>3} reproduced{note}  {g.reason}".rstrip())
    said = hunt_findings(hunt, evidence(hunt).observations) if entries else ()
    lines.append(f"mode: {mode_text(hunt)}")
    if repeats_of(hunt) is not None:
        lines.append(f"repeats: {repeat_text(hunt)}")
    lines.extend(f"finding: {f}" for f in said)
    verdict = read_verdict(hunt)
    if verdict:
        culprits = ", ".join(verdict.get("culprits", [])) or "-"  # type: ignore[arg-type]
        lines.append(f"verdict: {verdict['verdict']} {culprits} (confidence {verdict['confidence']})")
    verified = verified_text(hunt)
    if verified:
        lines.append(f"verified: {verified}")
    return lines


def checked_steps(entries: Sequence[Entry], g: StepRun) -> str | None:
    """The steps a group of the fork check's runs ran again ("0, 1, 3"); None for any other group."""
    if entries[g.begin].phase != FORK_CHECK_PHASE:
        return None
    return ", ".join(str(n) for n in sorted({e.step for e in entries[g.begin:g.end]}))


def _checks(entries: Sequence[Entry], i: int) -> bool:
    """Whether journal entry `i` is a run of the fork check."""
    return entries[i].phase == FORK_CHECK_PHASE


def _check_changes(entries: list[Entry]) -> set[int]:
    """Where the fork check's runs begin or end (its runs are a group of their own)."""
    return {i for i in range(1, len(entries)) if _checks(entries, i) != _checks(entries, i - 1)}
