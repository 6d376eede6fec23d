"""The victim repeated in one process (`isolate bisect --repeat-victim K`), checked on the hunt's
own runs (the policy is isolate.search.repeats).

Before the search's first run, the victim alone runs CHECK_RUNS times, K executions each: the
hunt's first evidence (once a run reproduced the failure, a first wave of CHECK_QUIET runs, or
`--jobs`, is all when every execution of it passed: isolate.search.repeats.check_next). From them
the check keeps K, or lowers it so that the victim alone fails at most a quarter of the runs, or
turns repeats off (1 execution) when the first executions reproduce the failure less often than
the later ones (the victim pollutes itself). Every run keeps what each
of its executions did (the journal's `executions`), and isolate.hunt.evidence judges a run on its
first `used` executions, so lowering K loses no run. A test of the same question made for
repeated looks (isolate.search.repeats.later_e) runs on all K-fold runs whenever the search reaches
a verdict; turned off then, the hunt starts over from its journal with
single runs (and the stored history, which repeats leave out). A "fails on its own" verdict is held
until a run of the victim alone reproduced the failure on its first execution and the K-fold runs
no longer lean towards a victim that pollutes itself (isolate.search.repeats.stance; the victim
alone runs meanwhile, a wave at a time, executed as often as asked on one worker; after HOLD_MOST
such runs, repeats stop). The decision is stored in `repeat-check.json`.

Without --repeat-victim, repeats start by themselves when isolate.search.repeats.automatic says
they pay (`auto_start`): `repeat-auto.json` records when, and the check above runs from there.
With two or more runs at once (isolate.search.repeats.ahead) the runs execute the victim K times
from the hunt's first run, counted by their first execution until the check starts
(isolate.search.repeats.ahead_next), so that no run is left out then; `repeat-auto.json` says
"ahead", and "checking" once the check started.

A query may ask more executions than K for its runs (`executing`: the several-causes search's
stop check runs the rest of the list with many executions of the victim after it); the journal
keeps every execution, and the search judges each run on its first K.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from isolate.files import write_atomic
from isolate.hunt.journal import read_journal
from isolate.hunt.evidence import Evidence, findings, fork_checked, phase_of
from isolate.hunt.runs import run_journaled
from isolate.hunt.store import (REPEAT_AUTO, REPEAT_CHECK, Hunt, ahead_waiting, read_queries, read_repeat_auto,
                                 read_repeat_check, read_steps, repeat_asked, repeat_of, step_for)
from isolate.search.model import Observation
from isolate.search.repeats import (AUTO_K, CHECK_RUNS, HOLD, HOLD_MOST, OFF, ON, Q_MAX, RELEASE_E, SINGLE,
                                    add_nothing, ahead, ahead_next, alike, automatic, check_next, choose, first_alone,
                                    later_e, rejects, stance, split, stored_flaky)
from isolate.words import counted


class RepeatsOff(Exception):
    """Repeats were turned off: the evidence must be read again from the start."""


def auto_start(hunt: Hunt, ev: Evidence, merged: dict[str, Any], runner: Any, display: Any, jobs: int,
               deadline: float | None, strategy: str) -> bool:
    """Without --repeat-victim, in the Bayesian polluter hunt (`strategy`: the search running now;
    not the manual recipe, nor the state-setter or cleaner phases, whose lists pass because of what
    they hold, which is not flakiness): start repeats when isolate.search.repeats.automatic says
    they pay, and run the check; True when they started (the evidence must then be read again: the
    single runs before are left out while K > 1). With `jobs` runs at once
    (isolate.search.repeats.ahead), before a fresh hunt's first run: the runs execute the victim K
    times from then on, counted by the first; later, isolate.search.repeats.ahead_next starts the
    check (True: every run is then read again on its K executions) or stops the extra executions."""
    if type(merged["repeat"]) is int or strategy not in ("isolate", "single") or ev.phase is not None or ev.prefix:
        return False
    new = ev.own
    runs = sum(o.count for o in new)
    room = None if merged["max_runs"] is None else int(merged["max_runs"]) - ev.entries
    reproduced = sum(o.count for o in new if o.failed)
    seen = f"{runs} runs passed" if not reproduced else f"{reproduced} of {runs} runs reproduced the failure"
    auto = read_repeat_auto(hunt)
    left = left_out(ev, strategy)
    if auto is None and ev.entries == 0 and ahead(jobs, left, room):
        why = (f"with {jobs} runs at once, each run executes the victim {AUTO_K} times in one process from the first"
               " one, counted by its first execution until repeats are worth checking (then no run is left out;"
               " --repeat-victim 1 turns this off)")
        _write_auto({"repeat": AUTO_K, "from": 0, "ahead": True, "why": why}, hunt)
        display.info(f"repeats: {why}")
        set_repeat(runner, AUTO_K)
        return False  # nothing to read again: the runs count by their first execution
    if auto is not None and "stopped" not in auto:
        if not ahead_waiting(hunt):
            return False
        k_fold_runs, alone = k_fold(hunt)
        every = listed(hunt)
        flaky = _flaky(ev)
        state = ahead_next(runs, reproduced, flaky, left, room, every, int(auto["repeat"]), failed_left(ev, strategy))
        if state == OFF:
            why = (_together(k_fold_runs, int(auto["repeat"])) if alike(every, int(auto["repeat"]))
                   else f"{seen}, and repeats can no longer start")
            _decide(hunt, runner, display, OFF, rejects(k_fold_runs, "watch")[1], k_fold_runs, alone, 1, why)
            return False  # the runs counted by their first execution, as before
        if state == SINGLE:  # a deterministic cause: as on one worker from now on (repeats may start later)
            why = (f"{_together(k_fold_runs, int(auto['repeat']))}, each holding a test that never passed (a deterministic cause, which"
                   f" fails every execution): from run {ev.entries + 1} on, the runs execute the victim once, and"
                   " repeats start by themselves if a flaky cause shows")
            _write_auto({**auto, "stopped": ev.entries, "why": why}, hunt)
            set_repeat(runner, 1)
            display.info(f"repeats: {why}")
            return False  # the runs counted by their first execution, as before
        if state == HOLD:
            return False
        if reproduced and not flaky and split(every, int(auto["repeat"])):  # what started it
            seen += ", and a run's executions both reproduced it and passed (a flaky cause)"
        checked = f"{auto['why']}; {seen}: the check runs from run {ev.entries + 1}"
        _write_auto({**auto, "checking": True, "why": checked}, hunt)
        display.info(f"repeats: {seen}: checking whether the runs' {auto['repeat']} executions are evidence")
        start_check(hunt, runner, display, jobs, deadline, merged["max_runs"])
        return True
    if not automatic(runs, reproduced, _flaky(ev), left, room, history_failed=failed_left(ev, strategy)):
        return False
    why = (f"{seen}: from run {ev.entries + 1} on, each run executes the victim {AUTO_K} times in one process"
           " (more evidence per start-up; --repeat-victim 1 turns this off)")
    _write_auto({"repeat": AUTO_K, "from": ev.entries, "why": why}, hunt)
    display.info(f"repeats: {why}")
    set_repeat(runner, AUTO_K)
    start_check(hunt, runner, display, jobs, deadline, merged["max_runs"])
    return True


def _flaky(ev: Evidence) -> bool:
    """isolate.search.repeats.flaky over the runs the hunt reads, its stored runs included once
    one of its own runs passed (isolate.search.repeats.stored_flaky)."""
    return stored_flaky([(o.included, o.failed) for o in ev.observations if o.stored],
                        [(o.included, o.failed) for o in ev.own])


def left_out(ev: Evidence, strategy: str) -> int:
    """The stored runs that K-fold runs would leave out of the evidence: none for the several-causes
    search, which keeps them as its chain's prior (isolate.hunt.evidence), all for the single-cause
    search."""
    return 0 if strategy == "isolate" else ev.history[0]


def failed_left(ev: Evidence, strategy: str) -> int:
    """Of the stored runs `left_out` counts, those that failed."""
    return ev.history[1] if left_out(ev, strategy) else 0


def _write_auto(data: dict[str, Any], hunt: Hunt) -> None:
    """repeat-auto.json, with the time it was written."""
    data = {**data, "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")}
    write_atomic(hunt.path / REPEAT_AUTO, json.dumps(data, indent=2) + "\n")


def ahead_ends(hunt: Hunt, runner: Any, display: Any) -> None:
    """At a verdict reached while the executions ran ahead of the check (the runs counted by
    their first execution): stop the extra executions, for the phases that may follow."""
    if ahead_waiting(hunt):
        runs, alone = k_fold(hunt)
        _decide(hunt, runner, display, OFF, rejects(runs, "watch")[1], runs, alone, 1,
                "the search reached its verdict on the runs' first executions before repeats were worth checking")


def repeating(hunt: Hunt) -> bool:
    """Whether the hunt's runs still repeat the victim."""
    return repeat_of(hunt) > 1


def k_fold(hunt: Hunt) -> tuple[list[str], list[str]]:
    """The executions of every K-fold run of the hunt, and of those that ran the victim alone."""
    steps = read_steps(hunt)
    runs: list[str] = []
    alone: list[str] = []
    for entry in read_journal(hunt)[0]:
        if entry.executions:
            runs.append(entry.executions)
            if len(steps.get(entry.step, ())) == 1:
                alone.append(entry.executions)
    return runs, alone


def listed(hunt: Hunt) -> list[tuple[frozenset[str], str]]:
    """Every run of the hunt's own phase as isolate.search.repeats.alike reads it: its predecessors,
    and its executions (a single run's one "r" or "p")."""
    steps = read_steps(hunt)
    checked = fork_checked(hunt)
    return [(frozenset(steps.get(e.step, ())[:-1]), e.executions or ("r" if e.reproduced else "p"))
            for e in read_journal(hunt)[0] if phase_of(e, checked) is None]


def start_check(hunt: Hunt, runner: Any, display: Any, jobs: int, deadline: float | None,
                max_runs: int | None = None) -> None:
    """Before the search: the victim alone, K-fold runs as isolate.search.repeats.check_next asks
    for them (fewer when an interrupted session left some; when --max-runs has no room for them or
    the deadline comes first, the check waits), then the decision."""
    k = repeat_asked(hunt)
    if k < 2 or read_repeat_check(hunt) is not None or ahead_waiting(hunt):
        return
    runs, alone = k_fold(hunt)
    checked = fork_checked(hunt)  # the fork check's runs are the hunt's own once it agreed, as the search reads them
    # at any of its executions (runs ahead of the check execute K): the lists did fail
    reproduced = any(e.reproduced for e in read_journal(hunt)[0] if phase_of(e, checked) is None)
    told = False
    while left := check_next(alone, jobs, reproduced):
        if max_runs is not None:
            left = min(left, max_runs - len(read_journal(hunt)[0]))
        if left <= 0:
            return  # no room: the check waits
        if not told:
            more = f" (up to {CHECK_RUNS} times if an execution fails)" if len(alone) + left < CHECK_RUNS else ""
            display.info(f"repeat check: the victim alone {counted(left, 'time')}, {counted(k, 'execution')} each{more}, to see that its"
                         " later executions fail no more often than its first (a victim that pollutes itself would"
                         " mislead)")
            told = True
        _run_alone(hunt, runner, left, jobs, deadline, "repeat check: the victim alone, repeated")
        before = len(alone)
        runs, alone = k_fold(hunt)
        if len(alone) == before:
            return  # the deadline came first: the check goes on next session
    state, figure = stance(runs, alone)
    _decide(hunt, runner, display, state, figure, runs, alone, choose(alone, k) if state == ON else 1)


# a held verdict's runs of the victim alone, as queries.jsonl names them
HOLD_REASON = "repeats: the victim alone, until a first execution fails and the executions lean no way"


def held(hunt: Hunt, kind: str, runner: Any, display: Any, jobs: int, deadline: float | None,
         room: int | None, due: Callable[[], bool] = lambda: False) -> bool:
    """With repeats on, at a verdict of `kind`: raises RepeatsOff when the test now rejects them
    (or a held verdict waited HOLD_MOST runs, or has no room or time left to wait: a "fails on its
    own" that no first execution alone showed must not stand); True when the verdict is held and a
    wave of the victim alone ran (ask the search again); False when the verdict stands. `room`:
    runs left in --max-runs (None: no limit). `due`: what runs instead of a wave when it is due
    (the fork check: a hold can last dozens of runs, which fork mode makes cheaper); True if it ran."""
    runs, alone = k_fold(hunt)
    state, figure = stance(runs, alone, kind)
    spent = (room is not None and room <= 0) or (deadline is not None and deadline <= time.monotonic())
    first = first_alone(alone)
    if state == OFF or (state == HOLD and (len(alone) >= HOLD_MOST or spent)):
        why = None  # the test's
        if state == HOLD:
            held_for = (f"no run of the victim alone failed on its first execution in {len(alone)} runs" if not first
                        else f"its later executions still leaned towards failing more often than the first after"
                             f" {len(alone)} runs of it alone ({lean(runs, alone)})")
            why = held_for + ("" if len(alone) >= HOLD_MOST else ", and the budget leaves no room to wait")
        _decide(hunt, runner, display, OFF, figure, runs, alone, 1, why)
        raise RepeatsOff
    if state != HOLD:
        return False
    if due():
        return True  # its runs are evidence: ask the search again
    queries = read_queries(hunt)
    if not queries or queries[-1].get("reason") != HOLD_REASON:  # said once a hold, not at each of its waves
        if not first:
            display.info(f"repeats: the victim fails on its own in K-fold runs, yet no run of it alone has failed on"
                         f" its first execution ({len(alone)} runs): running it alone until one does")
        else:
            display.info(f"repeats: the victim fails on its own in K-fold runs, yet its later executions lean towards"
                         f" failing more often than the first ({lean(runs, alone)}): running it alone until they"
                         " do not")
    with executing(runner, repeat_asked(hunt) if jobs == 1 else 1):  # (1: the runner's own K, as lowered)
        _run_alone(hunt, runner, jobs if room is None else min(jobs, room), jobs, deadline, HOLD_REASON)
    return True


def lean(runs: Sequence[str], alone: Sequence[str]) -> str:
    """The held verdict's lean, as the log says it: later_e over all K-fold runs and over the
    victim's alone (isolate.search.repeats.stance)."""
    return f"likelihood ratio {later_e(runs):.3g} over all runs, {later_e(alone):.3g} alone; let go below {RELEASE_E:g}"


def watch(hunt: Hunt, runner: Any, display: Any) -> None:
    """While repeats run, between queries: raises RepeatsOff when the extra executions add no
    evidence (isolate.search.repeats.add_nothing): the runs' executions fail together, drawn once
    a run, or a deterministic cause alone fails them all."""
    runs, alone = k_fold(hunt)
    if add_nothing(listed(hunt), repeat_of(hunt)):
        _decide(hunt, runner, display, OFF, rejects(runs, "watch")[1], runs, alone, 1,
                f"{_together(runs, repeat_of(hunt))}: the cause is drawn once a run or always bites, and repeats add no evidence")
        raise RepeatsOff


def _together(runs: Sequence[str], used: int) -> str:
    """Why repeats stop when the runs' executions, judged on their first `used`, fail together
    (isolate.search.repeats.alike). QA: it counted a reproduction at any execution, and called 9
    runs "all its executions" of which 6 had reproduced on one of 10."""
    failing = sum("r" in e[:used] for e in runs if len(e) > 1)
    judged = f" (of the first {used}, which the runs are judged on)" if any(len(e) > used for e in runs) else ""
    return f"every one of the {failing} runs that reproduced the failure did so on all its executions{judged}"


def _run_alone(hunt: Hunt, runner: Any, runs: int, jobs: int, deadline: float | None,
               reason: str) -> None:
    """The victim alone, `runs` K-fold runs, journaled as the hunt's (one query of one list)."""
    ids = (hunt.victim,)
    step = step_for(hunt, ids, read_steps(hunt))
    run_journaled(hunt, runner, [(step, ids, runs)], reason, len(read_journal(hunt)[0]), None, jobs,
                  deadline)


def _decide(hunt: Hunt, runner: Any, display: Any, state: str, figure: str, runs: Sequence[str],
            alone: Sequence[str], used: int, why: str | None = None) -> None:
    """Store the decision (a resumed hunt reads it), say it once, and set the runners' repeats.
    `figure`: the test's (isolate.search.repeats.rejects); `why`: the reason repeats stop, when
    it is not the test's."""
    k = repeat_asked(hunt)
    first = first_alone(alone)
    tallied = (f"{len(runs)} runs of up to {k} executions: {sum(e[0] == 'r' for e in runs)} reproduced on their"
               f" first execution, and {sum(e[1:].count('r') for e in runs)} later executions reproduced it;"
               f" alone: {first}/{len(alone)} on the first")
    if state == OFF and why is None:
        why = f"later executions fail more often than the first ({figure}): the victim changes its own odds"
    # the decision, and what it was checked on: one line each where people read them (QA: 600
    # characters in one line), whole in `summary` for scripts
    if state == OFF:
        decision, checked = f"off: {why}; every run counts by its first execution", tallied
        summary = f"{decision} ({checked})"
    else:
        decision = f"{k} executions per run" if used == k else (
            f"{used} execution{'s' if used > 1 else ''} per run, not {k}: the victim alone would fail more than"
            f" {Q_MAX:g} of {k}-fold runs, leaving a polluter no room to double the rate")
        checked = f"{tallied}; {figure}"
        summary = f"{decision} (checked: {checked})"
    earlier = read_repeat_check(hunt)  # a decision that replaces one said before (QA: "on" then "off", unexplained)
    data = {"repeat": k, "used": used, "state": state, "summary": summary, "decision": decision,
            "checked": checked, "test": figure,
            "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")}
    write_atomic(hunt.path / REPEAT_CHECK, json.dumps(data, indent=2) + "\n")
    display.info(f"repeats: {'now ' if earlier is not None else ''}{decision}")
    display.info(f"repeats checked on: {checked}")
    set_repeat(runner, used)


def hunt_findings(hunt: Hunt, observations: tuple[Observation, ...]) -> tuple[str, ...]:
    """isolate.hunt.evidence.findings for this hunt's runs (K-fold or not)."""
    repeat = repeat_of(hunt)
    if repeat < 2:
        return findings(observations)
    alone = k_fold(hunt)[1]
    return findings(observations, repeat, (first_alone(alone), len(alone)))


def _runners(runner: Any) -> list[Any]:
    """Every runner the hunt's runner holds that repeats the victim (the automatic mode holds a
    fresh and a fork one)."""
    return [one for one in (runner, getattr(runner, "fresh", None), getattr(runner, "fork", None))
            if one is not None and hasattr(one, "repeat")]


def set_repeat(runner: Any, k: int) -> None:
    """Every runner the hunt's runner holds executes the victim `k` times a run."""
    for one in _runners(runner):
        one.repeat = k


@contextlib.contextmanager
def executing(runner: Any, k: int) -> Iterator[None]:
    """The runs started inside execute the victim `k` times, when that is more than the runner's
    (a query's `executions`: the several-causes search's stop check); as before after them."""
    before = next((one.repeat for one in _runners(runner)), 1)
    if k <= before:
        yield
        return
    set_repeat(runner, k)
    try:
        yield
    finally:
        set_repeat(runner, before)


def repeat_checked(hunt: Hunt) -> str:
    """What the repeat check decided on (its runs' tally and the test's figure), or "" before it
    ran: the line under `repeat_text`'s."""
    decision = read_repeat_check(hunt)
    return str(decision.get("checked", "")) if decision is not None else ""


def repeat_lines(hunt: Hunt, indent: str = "") -> tuple[str, ...]:
    """`repeats: …` and, once checked, `repeats checked on: …`, as the verdict, status and log show
    them (none when the runs execute the victim once)."""
    if repeats_of(hunt) is None:
        return ()
    auto = read_repeat_auto(hunt)
    if auto is not None and "stopped" in auto:  # the same words as repeat_text's, the reason on a line of its own
        return (f"{indent}repeats: {auto['repeat']} executions per run from the first one, counted by the first;"
                f" stopped after {auto['stopped']} runs",
                f"{indent}repeats stopped as: {auto['why']}")
    checked = repeat_checked(hunt)
    lines = (f"{indent}repeats: {repeat_text(hunt)}",) + ((f"{indent}repeats checked on: {checked}",) if checked else ())
    used = repeat_of(hunt)
    if used > 1:  # QA: "fails 3/10 alone" beside "alone: 1/10 on the first" read as two counts of one thing
        lines += (f"{indent}repeats count: each 'fails N/M' counts runs, a run failing when any of its {used}"
                  " executions of the victim does",)
    return lines


def repeats_of(hunt: Hunt) -> dict[str, Any] | None:
    """The verdict JSON's `repeats` (None when the runs executed the victim once): executions
    asked and used per run, whether they started by themselves (`auto`) and from the first run
    (`ahead`), whether the check turned them off, its summary and what it checked (None before it ran)."""
    k = repeat_asked(hunt)
    auto = read_repeat_auto(hunt)
    if auto is not None and "stopped" in auto:
        return {"asked": auto["repeat"], "auto": True, "ahead": True, "used": 1, "state": "off",
                "summary": repeat_text(hunt), "checked": repeat_checked(hunt) or None}
    if k < 2:
        return None
    decision = read_repeat_check(hunt)
    return {"asked": k, "auto": auto is not None, "ahead": auto is not None and bool(auto.get("ahead")),
            "used": repeat_of(hunt), "state": None if decision is None else decision["state"],
            "summary": repeat_text(hunt), "checked": repeat_checked(hunt) or None}


def _single_runs(auto: dict[str, Any]) -> str:
    """The single runs before repeats started, as repeat-auto.json's `why` tells them: "5 single
    runs passed", or "53 single runs, 6 of which reproduced the failure" (a flaky cause)."""
    found = re.match(r"(\d+) of \d+ runs reproduced", str(auto.get("why", "")))
    if found:
        return f"{auto['from']} single runs, {found.group(1)} of which reproduced the failure"
    return f"{auto['from']} single runs passed"


def repeat_text(hunt: Hunt) -> str:
    """How the hunt's runs executed the victim, in one line (verdict, status)."""
    decision = read_repeat_check(hunt)
    k = repeat_asked(hunt)
    auto = read_repeat_auto(hunt)
    if auto is not None and "stopped" in auto:
        return (f"{auto['repeat']} executions per run from the first one, counted by the first; stopped after"
                f" {auto['stopped']} runs: {auto['why']}")
    if auto is not None and auto.get("ahead"):
        since = (f"{auto['repeat']} executions per run from the first one, counted by the first until the check; "
                 if decision is None else "from the first run, each counted by its first execution until the check; then ")
    else:
        since = "" if auto is None else f"started by themselves after {_single_runs(auto)}; "
    if decision is not None:  # (a file of before `decision` was kept has the summary only)
        return since + str(decision.get("decision", decision["summary"]))
    if ahead_waiting(hunt):
        return f"{k} executions per run, counted by the first until repeats are worth checking"
    return f"{k} executions per run ({since or '--repeat-victim; '}the check has not run yet)"
