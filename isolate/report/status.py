"""Looking at hunts: `status` (where each stands) and `log` (its steps, and why each was run).

All of it is read from the hunt directory, so it works while a hunt runs in another process. A
hunt in a phase that runs after the polluter search decided (state-setters, --scan, --cleaners)
is shown in that phase's terms: its name and its leader, over its evidence (`later_phase`).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from isolate.errors import UserError
from isolate.hunt.cleaners import cleaner_evidence, targets
from isolate.hunt.evidence import Evidence, evidence, notes, without_hangs
from isolate.hunt.forkcheck import mode_text
from isolate.hunt.history import failed_since
from isolate.hunt.journal import Entry, judged_for, read_journal
from isolate.hunt.lock import holder
from isolate.hunt.repeatcheck import hunt_findings, repeat_lines
from isolate.hunt.scan import merged as merged_scan
from isolate.hunt.scan import scan_evidence
from isolate.hunt.setters import setter_evidence
from isolate.hunt.settings import reading_settings
from isolate.hunt.store import FORK_CHECK_PHASE, Hunt, read_queries, read_steps, repeat_of
from isolate.hunt.verdict import lost_runs, read_verdict
from isolate.hunt.verify import latest
from isolate.report.verdict import describe
from isolate.report.verification import summary
from isolate.search.model import Observation, Problem, Settings, Verdict
from isolate.search.posterior import Answer
from isolate.search.decide import decide, leading
from isolate.words import counted, noun, on_test, probability, seconds as duration


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
    phase: str = ""  # the later phase under way ("state-setters", "scan", "cleaners of X"); "": the polluter search's


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
                 f" {on_test('isolate bisect', hunt.victim)}")
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
    done = state.startswith("done") or not entries
    later = None if done else later_phase(hunt, problem, observations, entries, seconds)
    if later is not None:  # the polluter search decided: the phase after it, in its own words
        leader, left = later.leader, later.left
    fails = sum(1 for e in entries if e.reproduced)
    said = stopped + notes(ev, dropped, bool(search.get("any_failure")), where=hunt.path)
    unread: list[str] = []
    verified = verified_text(hunt, unread)
    return Status(hunt, state, candidates, leader, len(entries), fails, seconds, left, said, hunt_findings(hunt, observations),
                  mode_text(hunt), ev.warnings + _lost(hunt, verdict) + tuple(unread), verified,
                  "" if later is None else later.name)


def _lost(hunt: Hunt, verdict: dict[str, Any] | None) -> tuple[str, ...]:
    """The warning of a verdict.json set aside because its runs are gone (hunt.verdict.lost_runs):
    looked for only when no verdict stands, so a finished hunt's file is read once."""
    return () if verdict is not None or not (why := lost_runs(hunt)) else (why,)


@dataclass(frozen=True)
class Phase:
    """A phase of the hunt after the polluter search decided, as `status` shows it."""

    name: str  # "state-setters", "scan", "cleaners of <cause>"
    leader: str
    left: str


# A later phase's query reasons begin with its name (isolate.search.strategies: setters, scan, cleaners)
_MARKS = (("state-setters: ", "setters"), ("scan: ", "scan"), ("cleaners: ", "cleaners"))


def _kind(query: dict[str, Any]) -> str | None:
    """The later phase a query line of queries.jsonl ran for; None: the polluter search's (or a check's)."""
    reason = str(query.get("reason", ""))
    return next((kind for prefix, kind in _MARKS if reason.startswith(prefix)), None)


PHASE_NAMES = {"setters": "the state-setter search", "scan": "the scan", "cleaners": "the cleaner search"}


def later_phases(hunt: Hunt) -> tuple[int, tuple[str, ...]] | None:
    """Where the phases after the polluter search began (journal entries before their first query)
    and their names, in the order they ran; None when the hunt ran none."""
    began: dict[str, int] = {}
    for q in read_queries(hunt):
        kind = _kind(q)
        if kind is not None and isinstance(q.get("from"), int):
            began.setdefault(kind, q["from"])
    if not began:
        return None
    return min(began.values()), tuple(PHASE_NAMES[k] for k in sorted(began, key=began.__getitem__))


# the checks' queries (isolate.hunt.forkcheck, repeatcheck) run in any phase and name none
_CHECKS = ("fork check:", "repeat check:", "repeats:")


def _marked(hunt: Hunt) -> tuple[str, dict[str, Any]] | None:
    """The later phase of the hunt's latest query but the checks', and that query; None when that
    query was the polluter search's: a session with new settings (a lower --further, say) opened
    it again after a later phase (QA: status showed the phase it had paused in, and its leader)."""
    for q in reversed(read_queries(hunt)):
        if not str(q.get("reason", "")).startswith(_CHECKS):
            kind = _kind(q)
            return None if kind is None else (kind, q)
    return None


def later_phase(hunt: Hunt, problem: Problem, observations: tuple[Observation, ...], entries: list[Entry],
                wall: float) -> Phase | None:
    """The phase after the polluter search that the hunt is in (its latest queries say which), with
    its leader over that phase's evidence, read as isolate.hunt.loop builds it; None while the
    polluter search goes on. `problem`, `observations`: the polluter search's evidence."""
    marked = _marked(hunt)
    settings = _search_settings(hunt)
    verdict = None if marked is None else _decided(problem, observations, settings)
    if marked is None or verdict is None:
        return None
    kind, query = marked
    if kind == "setters":
        began = min(int(q["from"]) for q in read_queries(hunt) if _kind(q) == "setters")
        fits = verdict.kind == "fails-alone" and settings.strategy == "isolate"
        return _setters(hunt, problem, settings, entries[began:], wall) if fits else None
    if verdict.kind != "polluter" or settings.strategy not in ("isolate", "single"):
        return None
    scanned = _scanned(hunt, problem, observations, verdict, settings) \
        if kind == "scan" or hunt.settings.get("search", {}).get("scan") else None
    if kind == "scan":
        return None if scanned is None else _scan_phase(problem, *scanned)
    return _cleaners(hunt, problem, verdict if scanned is None else scanned[0], settings, query, entries, wall)


def _search_settings(hunt: Hunt) -> Settings:
    """The settings the hunt's searches decide with (stored by the hunt), without its budgets."""
    search = hunt.settings.get("search", {})
    base = reading_settings(hunt)
    return replace(base, strategy=str(search.get("strategy") or base.strategy),
                   further=float(search.get("further") or base.further))


def _decided(problem: Problem, observations: tuple[Observation, ...], settings: Settings) -> Verdict | None:
    """The polluter search's verdict, recomputed from its evidence (decide is a pure function of it):
    as it stands, or with no run left (the budget may have ended that search). None: it goes on."""
    for most in (settings.max_runs, sum(o.count for o in observations)):
        answer = decide(problem, observations, replace(settings, max_runs=most))
        if isinstance(answer, Verdict):
            return answer
    return None


def _read(hunt: Hunt, start: Evidence) -> tuple[Problem, tuple[Observation, ...]]:
    """A later phase's problem and observations: its seed evidence and its runs in the journal."""
    ev = evidence(hunt, start)
    try:
        problem, observations, _ = without_hangs(ev, hunt.settings.get("search", {}).get("timeout"))
    except UserError:  # the phase stopped for it; its leader is still shown
        return ev.problem, ev.observations
    return problem, observations


def _named(problem: Problem, top: tuple[Answer, ...], role: str, none: str) -> str:
    """The leading answer of a later phase in its words: `role` names its tests, `none` the empty answer."""
    if not top:
        return "—"
    what = f"{role}{'s' if len(top[0].culprits) > 1 else ''} {describe(problem, top[0])}" if top[0].culprits else none
    return f"{what} ({probability(top[0].probability)})"


def _setters(hunt: Hunt, polluter: Problem, settings: Settings, since: list[Entry], wall: float) -> Phase | None:
    """The state-setter phase (isolate.hunt.setters): its leading setter; `since`: the phase's runs."""
    seed = setter_evidence(hunt, polluter)
    if seed is None:
        return None
    problem, observations = _read(hunt, seed[0])
    top = leading(problem, observations, replace(settings, strategy="setters"))
    left = _time_left(hunt, since, top, settings.confidence, len(problem.predecessors), wall, "it passes",
                      "state-setters")
    return Phase("state-setters", _named(problem, top, "state-setter", "no state-setter"), left)


Scanned = tuple[Verdict, Problem, tuple[Observation, ...], frozenset[int]]  # what _scanned returns


def _scanned(hunt: Hunt, problem: Problem, observations: tuple[Observation, ...], verdict: Verdict,
             settings: Settings) -> Scanned | None:
    """The scan so far (isolate.hunt.scan): the polluter verdict with the causes the scan confirmed
    (its verdict with no run left), the scan's problem and observations, and the candidates it
    confirmed (their indices there). None when it has no candidate."""
    start = scan_evidence(problem, observations, verdict)
    if start is None:
        return None
    seed, index = start
    sub, seen = _read(hunt, seed)
    scanned = decide(sub, seen, replace(settings, strategy="scan", max_runs=sum(o.count for o in seen)))
    if not isinstance(scanned, Verdict):  # (every strategy answers once no run is left)
        return None
    return merged_scan(problem, verdict, scanned, index, seed.observations), sub, seen, frozenset(scanned.culprits)


def _scan_phase(polluter: Problem, verdict: Verdict, problem: Problem, observations: tuple[Observation, ...],
                confirmed: frozenset[int]) -> Phase:
    """The scan's leader: the causes confirmed so far, the polluter search's and the scan's, and
    the candidates that made the victim fail alone, not confirmed yet."""
    causes = [f"{c.role} {c.name} ({probability(c.confidence)})" for c in verdict.causes]
    if not causes:  # (a single-cause strategy's verdict names no causes)
        causes = [f"polluter {describe(polluter, Answer(verdict.culprits, verdict.confidence, verdict.p, verdict.q))}"
                  f" ({probability(verdict.confidence)})"]
    alone = {i for o in observations if len(o.included) == 1 for i in o.included}
    hits = sorted({i for o in observations if len(o.included) == 1 and o.failed for i in o.included} - confirmed)
    causes += [f"{problem.predecessors[i]} made it fail alone, not confirmed yet" for i in hits]
    last = {max(o.included) for o in observations if len(o.included) > 1 and not o.failed} - alone
    n = len(problem.predecessors)
    left = (f"{n - len(alone | last)} of the {n} other predecessors still to run alone before the victim, once each"
            + (", then confirming what made it fail" if hits else ""))
    return Phase("scan", "; ".join(causes), left)


def _cleaners(hunt: Hunt, problem: Problem, verdict: Verdict, settings: Settings, query: dict[str, Any],
              entries: list[Entry], wall: float) -> Phase | None:
    """The cleaner phase (isolate.hunt.cleaners) of the cause whose lists `query` ran: its leading cleaner."""
    aims = targets(problem, verdict)
    ids = read_steps(hunt).get(int(query["step"]), ())
    # every list of a cause's cleaner search begins with its tests (the longest such cause first)
    name, tests = next((aim for aim in sorted(aims, key=lambda a: -len(a[1]))
                        if ids[:len(aim[1])] == tuple(problem.predecessors[i] for i in sorted(aim[1]))),
                       aims[0] if aims else ("", ()))
    start = cleaner_evidence(hunt, problem, name, tests, frozenset(verdict.culprits)) if aims else None
    if start is None:
        return None
    sub, observations = _read(hunt, start)
    top = leading(sub, observations, replace(settings, strategy="cleaners"))
    since = [e for e in entries if e.phase == start.phase]
    left = _time_left(hunt, since, top, settings.confidence, len(sub.predecessors), wall, "it passes", "cleaners")
    return Phase(f"cleaners of {name}", _named(sub, top, "cleaner", "no cleaner"), left)


def verified_text(hunt: Hunt, warnings: list[str] | None = None) -> str:
    """The latest `isolate verify` of the hunt in one line; "" when it was never verified. A
    `warnings` list is told of verify.jsonl's lines that cannot be read (QA: only verify said so)."""
    found = latest(hunt, (lambda line: None) if warnings is None else warnings.append)
    if found is None:
        return ""
    verification, at = found
    text = summary(verification, at)
    if verification.verdict == "fixed" and at:  # QA: "fixed" stayed after stored runs failed again
        since = failed_since(hunt, dt.datetime.fromisoformat(at).timestamp())
        if since:
            shown = ", ".join(since[:3]) + (f" and {len(since) - 3} more" if len(since) > 3 else "")
            text += (f"; but the victim failed the recorded way since, in stored {shown}: the fix does not hold"
                     f" there (check again: {on_test('isolate verify', hunt.victim)})")
    return text


def _time_left(hunt: Hunt, entries: list[Entry], top: tuple[Answer, ...], confidence: float, n: int,
               wall: float, event: str = "the failure reproduces", role: str = "causes") -> str:
    """Extrapolates the rate at which the leader's log-odds have grown from their prior (~1/n);
    with --time-budget, how much of it the `wall` seconds spent so far leave. `event`: what the
    search waits for before it has a leader (a later phase's: "it passes"); `role`: what it names."""
    budget = hunt.settings.get("search", {}).get("time_budget")
    if not entries or not top:
        return f"unknown until {event}"
    odds_now = top[0].probability / max(1e-12, 1 - top[0].probability)
    odds_goal = confidence / (1 - confidence)
    if odds_now >= odds_goal:  # the hunt goes on: confirming the leader, ruling out more causes
        return f"the leader is at the target confidence; confirming it and checking for further {role}"
    gained = math.log(max(odds_now, 1e-12)) - math.log(1 / max(1, n))
    per_second = gained / max(1e-9, sum(e.seconds for e in entries))
    if per_second <= 0:
        return "unknown (no progress yet)"
    estimate = (math.log(odds_goal) - math.log(odds_now)) / per_second
    text = f"~{duration(estimate)} of test time"
    if budget:  # wall time for the whole hunt, spent or not: what is left of it is what counts
        text += f" (--time-budget {float(budget):g}s: {duration(max(0.0, float(budget) - wall))} of it left)"
    return text


def statuses(hunts: list[Hunt], alone: bool = False) -> tuple[list[Status], list[str]]:
    """Each hunt's status, and a warning for each hunt whose files cannot be read, beside the
    others' (QA: one corrupt verdict.json ended every hunt's status). Its UserError stands when
    the hunt was asked for by name (`alone`) or no other hunt can be shown."""
    shown: list[Status] = []
    unreadable: list[UserError] = []
    for hunt in hunts:
        try:
            shown.append(status(hunt))
        except UserError as error:
            if alone:
                raise
            unreadable.append(error)
    if unreadable and not shown:
        raise unreadable[0]
    return shown, [str(error) for error in unreadable]


def format_status(items: list[Status]) -> str:
    if not items:
        return "no hunts here; start one with 'isolate extract'"
    out = []
    for s in items:
        out.append(s.hunt.victim)
        out.append(f"  {s.state} · {counted(s.candidates or 0, 'candidate')} · {counted(s.runs, 'run')}, {s.failures} reproduced,"
                   f" {duration(s.seconds)} of wall time")
        out.extend(f"  finding: {finding}" for finding in s.findings)
        if s.phase:
            out.append(f"  phase: {s.phase}")
        out.append(f"  leading: {s.leader}")
        if s.verified:
            out.append(f"  verified: {s.verified}")
        if s.mode:
            out.append(f"  mode: {s.mode}")
        out.extend(repeat_lines(s.hunt, "  "))
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
    ev = evidence(hunt)
    warnings.extend(w for w in ev.warnings if w not in warnings)  # runs whose step file is gone, as status says
    groups = step_runs(hunt, entries, warnings)
    verified = verified_text(hunt, warnings)
    lines = [f"hunt for {hunt.victim} in {hunt.path}"]
    lines.extend(f"warning: {w}" for w in warnings)
    for g in groups:
        note = f" ({', '.join(g.other)} too)" if g.other else ""
        steps = checked_steps(entries, g)
        if steps is not None:  # one line for the check's interleaved lists
            lines.append(f"{g.at[:19]:19}  fork check: steps {steps} again in the fork server, {counted(g.runs, 'run')},"
                         f" {g.fails} reproduced{note}")
            continue
        size = f"{g.size:>5} {noun(g.size, 'predecessor')} + victim" if g.size >= 0 else f"step-{g.step:03d}.txt missing"
        lines.append(f"{g.at[:19]:19}  step {g.step:>3}: {size},"
                     f" {g.runs:>3} {noun(g.runs, 'run')}, {g.fails:>3} reproduced{note}  {g.reason}".rstrip())
    said = hunt_findings(hunt, ev.observations) if entries else ()
    lines.append(f"mode: {mode_text(hunt)}")
    lines.extend(repeat_lines(hunt))
    lines.extend(f"finding: {f}" for f in said)
    verdict = read_verdict(hunt)
    if verdict:
        culprits = ", ".join(verdict.get("culprits", [])) or "-"  # type: ignore[arg-type]
        lines.append(f"verdict: {verdict['verdict']} {culprits} (confidence {verdict['confidence']})")
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
