"""The hunt loop: ask the search what to run, run it, journal every repetition, repeat.

This is the imperative shell around the pure search. All state lives in the hunt directory:
the journal is the evidence, and `decide` is a pure function of it, so a hunt stopped by
Ctrl-C, `kill -9` or a reboot resumes exactly where it was by reading the journal again.
"""

from __future__ import annotations

import functools
import math
import os
import re
import signal
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from isolate.errors import UserError
from isolate.hunt.forkcheck import AutoRunner, automatic, check_after, mode_text
from isolate.hunt.evidence import STARTUP_GUESS, Evidence, durations, evidence, notes, without_hangs
from isolate.hunt.history import gather, repository_of
from isolate.hunt.journal import read_journal
from isolate.hunt.lock import Lock, holder
from isolate.hunt.repeatcheck import (RepeatsOff, ahead_ends, auto_start, executing, held, hunt_findings,
                                      repeat_lines, repeating, start_check, watch)
from isolate.hunt.runs import run_journaled
from isolate.hunt.cleaners import cleaner_evidence, targets
from isolate.hunt.cleaners import hints as cleaner_hints
from isolate.hunt.scan import merged as merged_scan
from isolate.hunt.scan import scan_evidence
from isolate.hunt.setters import setter_evidence
from isolate.hunt.settings import changes, search_settings, settings_for, unchanged
from isolate.hunt.store import Hunt, executions_of, repeat_of, repeats_from, step_for
from isolate.hunt.verdict import PASSING, made_with, read_verdict, save_verdict, saved_verdict
from isolate.orders.stream import FAILING
from isolate.running.runner import Interrupted as RunnerInterrupted
from isolate.running.runner import Runner
from isolate.search.decide import decide, leading
from isolate.search.repeats import ALIKE_RUNS, AUTO_K
from isolate.search.model import Observation, Problem, Query, Settings, Verdict, chance_at_least, run_cost
from isolate.words import counted, noun


ALONE = {"setters": "passes alone", "cleaners": "no cleaner", "scan": "none alone"}  # a phase's empty answer, for progress


# A state-setter must at least double the victim's pass rate to be told from it (the rate prior's
# min_ratio, inverted): a victim that fails on its own less often than this is not searched for one.
# Beyond doubt (SURE), not by a point estimate: a victim failing alone 3 times in 10 reads 6/10 on
# its dozen runs alone one hunt in 20. While its runs alone leave it open the victim runs alone
# again, up to SETTLE_RUNS runs alone in all (a deterministic one: 2 or 3 more).
BRITTLE_FROM = 0.5
SURE = 0.95
SETTLE_RUNS = 30


class Interrupted(Exception):
    """Ctrl-C or SIGTERM: the runs that finished are in the journal; `runs` counts them."""

    def __init__(self, runs: int) -> None:
        super().__init__(f"interrupted after {counted(runs, 'run')}")
        self.runs = runs


@dataclass(frozen=True)
class Result:
    hunt: Hunt
    problem: Problem
    verdict: Verdict
    reproducer: Path | None
    data: dict[str, Any]  # what verdict.json holds


def hunt_loop(
    hunt: Hunt,
    options: dict[str, Any],
    display: Any,
    make_runner: Callable[[Hunt], Any],
) -> Result:
    """Run the search to a verdict. `options` are the settings given now (stored in the hunt once
    its lock is held); `display` draws progress; `make_runner` builds the Runner. Without --jobs,
    runs at once are what the runner can hold (a cluster's threads) or the CPUs. A finished hunt
    asked nothing new shows its saved verdict and writes nothing (`finished`)."""
    done = finished(hunt, options)
    if done is not None:
        return done
    before = len(read_journal(hunt)[0])
    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        with Lock(hunt.path, display.warn):
            _keeps_its_verdict(hunt, options)
            _has_a_failure(hunt, options)
            changed = changes(hunt, options)
            hunt = settings_for(hunt, options)
            merged = hunt.settings["search"]
            _gather_history(hunt, merged, display)
            with make_runner(hunt) as fresh, _automatic(hunt, merged, fresh, make_runner, display) as runner:
                # a cluster is reached (or refused with one line) before anything is asked of it
                known = runner.capacity(hunt.order()) if fresh.scheduler or not merged["jobs"] else None
                if fresh.scheduler and merged["jobs"] and options.get("jobs") is None and known \
                        and known != merged["jobs"]:  # --jobs stored by a session on one machine
                    display.info(f"--jobs {merged['jobs']} (stored) caps the runs at once on the cluster's"
                                 f" {counted(known, 'worker thread')}; give --jobs {known} to use them all")
                jobs = int(merged["jobs"] or known or os.cpu_count() or 1)
                if merged["jobs"]:  # asked for: a default of the machine's CPUs stays as it is
                    jobs = _within_budget(jobs, merged["max_runs"], display)
                start_check(hunt, runner, display, jobs, _deadline(hunt, merged), merged["max_runs"])
                if changed:  # (once the runner stands: an error before it is the session's one line)
                    display.info(f"this session changes the hunt's settings, for later sessions too: {'; '.join(changed)}")
                while True:
                    try:
                        return _as_saved(_loop(hunt, display, runner, merged, jobs, search_settings(merged, jobs)))
                    except RepeatsOff:
                        display.info("starting over from the journal with single runs: every run counts by its first execution")
    except (KeyboardInterrupt, RunnerInterrupted):  # finished runs are in the journal
        raise Interrupted(len(read_journal(hunt)[0]) - before) from None
    finally:
        signal.signal(signal.SIGTERM, previous)


def finished(hunt: Hunt, options: dict[str, Any]) -> Result | None:
    """The saved verdict of a hunt that has one (its journal unchanged since) and that the options
    given now ask nothing new of, as it is: resuming it would run nothing and write the same
    verdict again, and its directory may be read-only (an archived hunt). None when the hunt
    must run: no verdict, new settings, or a lock (another process holds it, or one that died
    left it: taking it over clears it)."""
    merged = unchanged(hunt, options)
    if merged is None or holder(hunt.path) is not None:
        return None
    try:
        data = read_verdict(hunt, made_under=merged)  # (a session that changed them may have ended before a verdict)
        if data is None:
            return None
        problem, _, _ = without_hangs(evidence(hunt), hunt.settings.get("search", {}).get("timeout"))
        problem, verdict = saved_verdict(problem, data)
    except (UserError, KeyError, TypeError, ValueError):  # not as save_verdict wrote it: the hunt writes it again
        return None
    reproducer = hunt.path / "reproducer.txt" if data.get("reproducer") else None
    if (reproducer is not None and not reproducer.exists()) or ("passing_list" in data and not (hunt.path / PASSING).exists()):
        return None  # a verdict's list was lost: the hunt writes them again (from the journal: no new runs)
    data = {**data, "hunt": str(hunt.path), "reproducer": None if reproducer is None else str(reproducer)}
    if "passing_list" in data:  # where the hunt is now (it may have been copied since)
        data["passing_list"] = str(hunt.path / PASSING)
    return Result(hunt, problem, verdict, reproducer, data)


def _keeps_its_verdict(hunt: Hunt, options: dict[str, Any]) -> None:
    """A finished hunt's verdict is not overwritten by another strategy's: --strategy would run
    another search over the same journal and replace verdict.json with its answer (the hand
    recipe's culprit for every cause found, say), as if the first had never been reached. The
    settings that take a hunt further (a budget, --confidence, --scan, --cleaners) keep going from
    its verdict; a strategy is compared on a hunt of its own. Checked before any setting is stored."""
    given = options.get("strategy")
    try:
        made = made_with(hunt) if given is not None else None
    except UserError:  # a corrupt verdict.json: nothing to keep, the hunt writes it again
        return
    if made is not None and made[1] != given:
        kind, strategy = made
        raise UserError(f"the hunt for {hunt.victim} ended '{kind}' with --strategy {strategy}, and --strategy {given}"
                        f" would overwrite that verdict; fix: drop --strategy (the verdict stays), or start a hunt of"
                        f" its own with 'isolate extract --force' (this one, verdict included, is kept in"
                        f" replaced-<time>/)")


def _has_a_failure(hunt: Hunt, options: dict[str, Any]) -> None:
    """A victim that did not fail in the run it was extracted from (skipped, passed) has no
    recorded failure to reproduce: every run would pass until the budget ran out (QA: 40 runs to
    'not reproduced', 4,604 planned). Refused before anything is stored, unless any failure counts."""
    source = hunt.settings.get("source", {})
    status = source.get("status")
    given = options.get("any_failure")
    if status is None or status in FAILING or (given if given is not None else
                                               hunt.settings.get("search", {}).get("any_failure")):
        return
    where = f"run {source['run']}" if "run" in source else "the stream it was extracted from"
    raise UserError(f"{hunt.victim} did not fail in {where} ({status}), so the hunt has no recorded failure to"
                    " reproduce; fix: extract it from a run where it failed ('isolate runs' lists them), or pass"
                    " --any-failure to count any failure of it")


def _as_saved(result: Result) -> Result:
    """The verdict as verdict.json holds it (saved_verdict), so that a hunt's verdict reads the
    same when it was just reached and when `finished` shows it again: its runs and test time as
    the JSON counts them."""
    problem, verdict = saved_verdict(result.problem, result.data)
    return replace(result, problem=problem, verdict=verdict)


def _deadline(hunt: Hunt, merged: dict[str, Any], ev: Evidence | None = None) -> float | None:
    """When --time-budget runs out (time.monotonic()), counting the earlier sessions' runs (read
    from the journal, unless `ev` is the evidence read up to now)."""
    budget = merged["time_budget"]
    if not budget:
        return None
    return time.monotonic() + max(0.0, float(budget) - (evidence(hunt) if ev is None else ev).wall_seconds)


def _automatic(hunt: Hunt, merged: dict[str, Any], runner: Any, make_runner: Callable[[Hunt], Any],
               display: Any) -> Any:
    """Neither --fork-server nor --no-fork-server: fresh runs until the fork check decides
    (isolate.hunt.forkcheck); never on a Dask cluster."""
    if not automatic(merged) or runner.scheduler:
        return nullcontext(runner)
    check_after(runner.project.kind)  # a bad $ISOLATE_FORK_CHECK_AFTER is said before any run
    forked = replace(hunt, settings={**hunt.settings, "search": {**merged, "mode": "fork"}})
    return AutoRunner(hunt, runner, lambda: make_runner(forked), display)


def _gather_history(hunt: Hunt, merged: dict[str, Any], display: Any) -> None:
    """Read the stored runs not read yet into the hunt's history (see isolate.hunt.history)."""
    if not merged["history"] or merged["strategy"] == "manual":
        return
    repository = repository_of(hunt)
    added, kept, copies = gather(hunt, repository, list(merged["history_paths"]), merged["history_since"],
                                 display.info)
    if kept:
        left = f"; {counted(copies, 'copy', 'copies')} of runs counted already left out" if copies else ""
        since = merged["history_since"]  # QA: told to limit them with --history-since when it was given
        if since is not None:
            limit = (f"those from run {since} on (--history-since) are assumed to test today's code; --no-history"
                     " leaves them out")
        elif repository is not None:
            limit = "they are assumed to test today's code: limit them with --history-since RUN, or --no-history"
        else:  # QA: --history streams alone, no repository: --history-since was then refused
            limit = "they are assumed to test today's code; --no-history leaves them out"
        display.info(f"{counted(kept, 'earlier run')} of the victim {noun(kept, 'is', 'are')} evidence ({added} new{left});"
                     f" {limit}")
    elif copies:
        display.info(f"--history: {counted(copies, 'run')} left out as copies of runs counted already, or of the run the"
                     " hunt was extracted from")


def terminate(signum: int, frame: Any) -> None:
    """SIGTERM handler: stop like Ctrl-C, so the finished runs are kept and the lock released."""
    raise KeyboardInterrupt


_SETTER_ENDS = {"not-reproduced": "the victim passed after none of the lists of its predecessors tried",
                "undecided": "the search stopped short of the target confidence"}
"""The setter phase's verdict without a stop line, in words (QA read "not-reproduced" as a name)."""
_CLEANER_ENDS = {"not-reproduced": "the victim passed after none of the lists tried, the polluter first in each",
                 "undecided": "the search stopped short of the target confidence"}
"""The cleaner phase's, likewise."""


def _loop(hunt: Hunt, display: Any, runner: Any, merged: dict[str, Any], jobs: int,
          settings: Settings, ev: Evidence | None = None, told: set[str] | None = None, earlier: int = 0) -> Result:
    """Until a verdict, saved.  `ev`: the seed evidence of the state-setter phase (isolate.hunt.setters);
    None for the polluter hunt, which continues into that phase when it finds the victim failing
    on its own at least BRITTLE_FROM of the time, and into the cleaner phase after a polluter
    verdict when asked (--cleaners).  `told`: what the display was already told this session;
    `earlier`: runs of an earlier phase that the verdict counts too (its `runs` is the hunt's)."""
    told = set() if told is None else told
    searched = _search(hunt, display, runner, merged, jobs, settings, ev, told)
    seed = None  # the state-setter phase's, once the victim is shown to fail on its own often enough
    if settings.strategy == "isolate":
        searched, seed = _brittle(hunt, display, runner, merged, jobs, settings, told, searched)
    problem, observations, ev, said, answer = searched
    history = ((f"counted {counted(ev.history[0], 'earlier run')} from stored history ({ev.history[1]} failed the"
                " recorded way); --no-history leaves them out"),) if ev.history[0] else ()
    answer = replace(answer, evidence=answer.evidence + history + said + (f"mode: {mode_text(hunt)}",)
                     + repeat_lines(hunt))
    if seed is not None:
        # the setter phase's verdict counts this phase's runs too, but the victim alone's once
        shared = sum(o.count for o in ev.own if not o.included)
        # this phase's new runs (stored ones are not runs; the single runs before repeats started
        # by themselves, read like them, the setter phase's verdict counts: repeats_from)
        mine = answer.runs - ev.history[0] - ev.early - shared
        setter = _setter_phase(hunt, display, runner, merged, jobs, settings, seed, told, mine)
        if setter.verdict.kind == "brittle":
            return setter
        # both phases' new runs, as the setter's saved verdict counted them (its single runs before
        # repeats included), in the terms save_verdict reads `runs` in
        runs = int(setter.data["runs"]) + ev.history[0] + ev.early - repeats_from(hunt)
        answer = replace(answer, runs=runs, evidence=answer.evidence + (
            f"no state-setter found: {setter.verdict.stop or _SETTER_ENDS.get(setter.verdict.kind, setter.verdict.kind)}",))
        ev = evidence(hunt, ev)  # its runs' time too (QA: "62 runs in 1.0 s" of a hunt that took 19 s)
    searched_runs, later = answer.runs, []
    if answer.kind == "polluter" and settings.strategy in ("isolate", "single") and merged.get("scan"):
        answer = _scan_phase(hunt, display, runner, merged, jobs, settings, problem, observations, answer, told)
        later.append("the scan")
    hints = None
    if answer.kind == "polluter" and settings.strategy in ("isolate", "single") and merged.get("cleaners"):
        hints, runs, lines = _cleaner_phases(hunt, display, runner, merged, jobs, settings, problem, answer, told)
        answer = replace(answer, runs=answer.runs + runs, evidence=answer.evidence + lines)
        later.append("the cleaner search")
    if answer.runs > searched_runs:
        answer = replace(answer, evidence=_search_runs_only(answer.evidence, answer.runs - searched_runs, later))
        ev = evidence(hunt, ev)  # their runs' time: the verdict's wall and test seconds count them too
    answer = replace(answer, runs=answer.runs + earlier)
    reproducer, data = save_verdict(hunt, problem, ev, answer, hunt_findings(hunt, observations), hints)
    return Result(hunt, problem, answer, reproducer, data)


def _search(hunt: Hunt, display: Any, runner: Any, merged: dict[str, Any], jobs: int, settings: Settings,
            ev: Evidence | None, told: set[str]
            ) -> tuple[Problem, tuple[Observation, ...], Evidence, tuple[str, ...], Verdict]:
    """Ask, run, journal, until the search answers with a verdict (not saved): the problem and
    observations it refers to, the evidence, and the notes said about the runs."""
    budget = merged["time_budget"]
    most = settings.max_runs  # --max-runs counts every run, a failed fork check's too
    watched = 0  # failures the repeats were last watched at (watch reads the whole journal)
    moved: tuple[int | None, int] = (None, 0)  # the evidence last seen (runs the search sees), and the journal's runs then
    while True:
        ev = evidence(hunt, ev)
        for warning in ev.warnings:  # said once a session (QA: a corrupt line's, four times)
            if warning not in told:
                told.add(warning)
                display.warn(warning)
        problem, observations, dropped = without_hangs(ev, merged.get("timeout"))
        said = notes(ev, dropped, bool(merged["any_failure"]), jobs, hunt.path)
        for note in said:
            shape = re.sub(r"\d+", "#", note)  # said once: not again each time its counts grow
            if shape not in told:
                told.add(shape)
                display.warn(note)
        failed = sum(o.count for o in observations if o.failed)
        if repeating(hunt) and failed >= ALIKE_RUNS and failed != watched:
            watched = failed
            watch(hunt, runner, display)  # raises RepeatsOff when the executions fail together
        # said once, the first time it is true (with repeats it reads the journal: not once said);
        # after a prefix, "alone" is not alone
        found = hunt_findings(hunt, observations) if not ev.prefix and "finding" not in told else ()
        if found:
            told.add("finding")
            display.info(f"finding: {found[0]}")
        deadline = None
        if budget:  # every second counts, whatever the runs showed: the search gets what is left
            left = max(0.0, float(budget) - ev.wall_seconds)
            settings = replace(settings, max_seconds=sum(o.seconds for o in observations) + left * jobs)
            deadline = time.monotonic() + left
        if settings.strategy == "manual" and merged["step_budget"]:
            full = run_cost(problem, tuple(range(len(problem.predecessors))))
            settings = replace(settings, step_runs=max(1, math.floor(merged["step_budget"] / full)))
        if most is not None:
            # --max-runs is for the whole hunt: every journaled run counts, the ones the search does not
            # see too (a failed fork check's, single runs among K-fold ones, timeouts, an earlier phase's);
            # the search gets what is left on top of the observations it sees (stored runs are no runs)
            seen = sum(o.count for o in observations)
            settings = replace(settings, max_runs=seen + max(0, most - ev.entries))
        # the executions each run is judged on: stored runs (one each) are read on their own scale
        settings = replace(settings, executions=repeat_of(hunt), run_seconds=_run_seconds(runner),
                           hedge=1 if merged["repeat"] == 1 else AUTO_K)  # --repeat-victim 1: single runs only
        seen_now = sum(o.count for o in observations)
        if seen_now != moved[0]:
            moved = (seen_now, ev.entries)
        elif ev.entries - moved[1] >= max(NO_EVIDENCE_RUNS, 4 * jobs):
            last = _no_evidence(problem, observations, replace(settings, max_runs=seen_now), jobs, ev,
                                ev.entries - moved[1], bool(merged["any_failure"]))  # no run left: its answer now
            return problem, observations, ev, said, last
        answer = decide(problem, observations, settings, batch=jobs)
        if isinstance(answer, Verdict):
            room = None if most is None else most - ev.entries
            # a hold's waves run once the fork check is due and done: fork runs make a long hold cheaper
            due = (functools.partial(runner.check, ev, jobs, deadline, merged["max_runs"])
                   if isinstance(runner, AutoRunner) else (lambda: False))
            if repeating(hunt) and held(hunt, answer.kind, runner, display, jobs, deadline, room, due):
                continue  # the victim alone ran: a first execution may have failed now
            ahead_ends(hunt, runner, display)
            return problem, observations, ev, said, _which_budget(answer, most, ev, budget)
        if auto_start(hunt, ev, merged, runner, display, jobs, deadline, settings.strategy):
            ev = None  # the single runs made so far are left out while the victim is repeated
            continue
        # only while runs are still wanted: a finished hunt resumed in another mode runs nothing
        if isinstance(runner, AutoRunner) and runner.check(ev, jobs, deadline, merged["max_runs"]):
            continue  # the check's runs may be evidence now
        ran = _run_query(hunt, problem, observations, ev, answer, runner, jobs, merged, display, settings, deadline)
        if not ran and deadline is not None and time.monotonic() >= deadline:
            # the time left ran out while the search chose (its runs are timed, its thinking is not):
            # no run could start, and asking again would spin for good (QA: 778 times in 10 min)
            spent = decide(problem, observations, replace(settings, max_runs=seen_now), batch=jobs)
            if isinstance(spent, Verdict):
                return problem, observations, ev, said, _which_budget(replace(spent, spent=True), most, ev, budget)


# Runs in a row that are no evidence (the victim failed another way, crashed, or a test hung)
# end a hunt that has no budget, which would otherwise ask the same question for ever: the
# fork check's runs (48 at most, evidence only once it agreed) stay well below it.
NO_EVIDENCE_RUNS = 100
NO_EVIDENCE = "were no evidence, and more would only ask the same again"  # the stop line's words (verify reads them)


def _no_evidence(problem: Problem, observations: tuple[Observation, ...], settings: Settings, jobs: int,
                 ev: Evidence, runs: int, any_failure: bool) -> Verdict:
    """The verdict of a hunt whose last `runs` runs were no evidence: the search's answer on the
    evidence so far (`settings` leave it no run), its stop line saying why and what to do."""
    answer = decide(problem, observations, settings, batch=jobs)
    if not isinstance(answer, Verdict):  # (every strategy answers once no run is left; never seen)
        raise UserError("the hunt's last runs were no evidence and the search still asks for more; "
                        "fix: give --max-runs or --time-budget")
    why = f"the last {counted(runs, 'run')} {NO_EVIDENCE}"
    if sum(ev.other_failures.values()) and not any_failure:
        why += ": the victim failed another way (the note above); if it is the same failure, run again with --any-failure"
    else:
        why += ": 'isolate log' shows what they did"
    evidence = tuple(line for line in answer.evidence if line != answer.stop) + (why,)
    return replace(answer, stop=why, evidence=evidence)


BUDGET_SHARE = 4  # runs at once: at most a quarter of --max-runs


def _within_budget(jobs: int, most: int | None, display: Any) -> int:
    """Runs at once, at most a quarter of --max-runs: a batch plans W runs together, and W far
    above the budget would spend it on one wave (--jobs 1000 --max-runs 30 ran 21 copies of the
    whole list and ended undecided, where --jobs 8 named the polluter)."""
    capped = jobs if most is None else max(1, most // BUDGET_SHARE)
    if jobs <= capped:
        return jobs
    display.warn(f"{jobs} runs at once would spend --max-runs {most} in a wave or two; running {capped} at once"
                 f" (a quarter of it)")
    return capped


def _which_budget(answer: Verdict, most: int | None, ev: Evidence, budget: float | None) -> Verdict:
    """A verdict the budget ended (`Verdict.spent`) says which one, so that the user raises that
    one: a stored --max-runs holds on resume, and a longer --time-budget alone adds no run. The
    stop line is said twice, as `stop` and among the evidence (the search writes both): both
    name the budget."""
    if not answer.spent:
        return answer
    spent = []
    if most is not None and ev.entries >= most:
        spent.append(f"--max-runs {most}")
    # the search stops once its next run would not fit in the time left, before all of it is
    # spent: then, --max-runs not reached, the time budget ended it all the same
    if budget and (float(budget) - ev.wall_seconds <= 0 or not spent):
        spent.append(f"--time-budget {float(budget):g}s")
    if not spent:
        return answer
    which = f"{' and '.join(spent)} reached: give a larger one to go on"
    stop = f"{answer.stop} ({which})" if answer.stop else f"the budget ran out ({which})"
    evidence = tuple(stop if answer.stop and line == answer.stop else line for line in answer.evidence)
    return replace(answer, stop=stop, evidence=evidence)


Searched = tuple[Problem, tuple[Observation, ...], Evidence, tuple[str, ...], Verdict]  # what _search returns


def _brittle(hunt: Hunt, display: Any, runner: Any, merged: dict[str, Any], jobs: int, settings: Settings,
             told: set[str], searched: Searched) -> tuple[Searched, tuple[Evidence, bool] | None]:
    """After a fails-alone verdict with tests to hunt a state-setter among (isolate.hunt.setters):
    the search's answer, and the setter phase's seed (setter_evidence) when the victim alone fails
    at least BRITTLE_FROM of the time with probability SURE (None if it fails less often, or the
    runs alone or the budget run out first). While its runs alone leave that open, the victim runs
    alone again, `jobs` runs at a time."""
    line = 1 - (1 - BRITTLE_FROM) ** repeat_of(hunt)  # a K-fold run's rate, its executions failing at BRITTLE_FROM
    most = settings.max_runs
    problem, _, ev, _, answer = searched
    seed = None if answer.kind != "fails-alone" or ev.prefix else setter_evidence(hunt, problem)
    while seed is not None:
        problem, observations, ev, _, answer = searched
        if answer.kind != "fails-alone":
            break
        alone = [o for o in observations if not o.included and not o.stored]  # new runs, on the K-fold scale
        runs = sum(o.count for o in alone)
        chance = chance_at_least(sum(o.count for o in alone if o.failed), runs, line)
        if chance >= SURE:
            return searched, seed
        deadline = _deadline(hunt, merged, ev)
        room = jobs if most is None else min(jobs, most - ev.entries)
        if chance <= 1 - SURE or runs >= SETTLE_RUNS or room < 1 or (deadline is not None and deadline <= time.monotonic()):
            break
        query = Query((), room, "does it fail on its own more often than not? (then a state-setter may be missing)",
                      until_failure=False)
        if not _run_query(hunt, problem, observations, ev, query, runner, room, merged, display, settings, deadline):
            break  # the time left ran out before a run could start
        searched = _search(hunt, display, runner, merged, jobs, settings, None, told)
    return searched, None


def _setter_phase(hunt: Hunt, display: Any, runner: Any, merged: dict[str, Any], jobs: int,
                  settings: Settings, seed: tuple[Evidence, bool], told: set[str], earlier: int) -> Result:
    """The victim fails on its own: hunt the state-setters among the tests that ran before it
    where it passed in stored runs, or else among the rest of the failing run (`seed`: the
    phase's evidence from setter_evidence, and whether it comes from stored runs)."""
    start, stored = seed
    n = len(start.problem.predecessors)
    if stored:
        passed = sum(not o.failed for o in start.observations)
        display.info(f"it fails on its own, yet passed in {counted(passed, 'stored run')}: looking for a state-setter"
                     f" among the {counted(n, 'test')} that ran before it there")
    else:
        display.info(f"it fails on its own: does it pass after the {counted(n, 'other test')} of the run, in the order the"
                     " whole suite ran? if so, one of them is a state-setter")
    return _loop(hunt, display, runner, merged, jobs, replace(settings, strategy="setters"), start, told, earlier)


def _search_runs_only(evidence: tuple[str, ...], more: int, phases: list[str]) -> tuple[str, ...]:
    """The search's 'fails a/b over all runs' once later phases ran `more` runs that it does not
    count: said to be the search's, beside the verdict's total."""
    tail = " over all runs"
    return tuple(f"{line[:-len(tail)]} over the search's runs (then {counted(more, 'run')} of {' and '.join(phases)})"
                 if line.startswith("fails ") and line.endswith(tail) else line for line in evidence)


def _cleaner_phases(hunt: Hunt, display: Any, runner: Any, merged: dict[str, Any], jobs: int, settings: Settings,
                    problem: Problem, verdict: Verdict, told: set[str]
                    ) -> tuple[list[dict[str, Any]], int, tuple[str, ...]]:
    """For each cause of the polluter verdict, strongest first, the cleaner search: the hints
    found, the runs it took, and a line per cause without a cleaner."""
    hints: list[dict[str, Any]] = []
    runs = 0
    lines: tuple[str, ...] = ()
    causes = frozenset(verdict.culprits)
    for name, tests in targets(problem, verdict):
        start = cleaner_evidence(hunt, problem, name, tests, causes)
        if start is None:
            lines += (f"no cleaner for {name}: no other test to try between it and the victim",)
            continue
        display.info(f"looking for cleaners of {name} among {counted(len(start.problem.predecessors), 'test')}:"
                     " every list runs it first, the victim last")
        sub, _, _, _, found = _search(hunt, display, runner, merged, jobs,
                                      replace(settings, strategy="cleaners"), start, told)
        runs += found.runs
        hints += cleaner_hints(sub, name, found)
        if found.kind != "cleaner":
            lines += (f"no cleaner found for {name}: {found.stop or _CLEANER_ENDS.get(found.kind, found.kind)}",)
    return hints, runs, lines


def _scan_phase(hunt: Hunt, display: Any, runner: Any, merged: dict[str, Any], jobs: int, settings: Settings,
                problem: Problem, observations: tuple[Observation, ...], verdict: Verdict, told: set[str]) -> Verdict:
    """Every other predecessor alone before the victim (isolate.hunt.scan): the polluter verdict
    with the causes the scan confirmed added, and its runs."""
    start = scan_evidence(problem, observations, verdict)
    if start is None:
        return replace(verdict, evidence=verdict.evidence + ("scan: no other predecessor to run alone",))
    seed, index = start
    display.info(f"scan: each of the {counted(len(index), 'other predecessor')} alone before the victim, once:"
                 " a cause a later test undoes shows only there")
    _, _, _, _, scanned = _search(hunt, display, runner, merged, jobs, replace(settings, strategy="scan"), seed, told)
    return merged_scan(problem, verdict, scanned, index, seed.observations)


def _run_query(hunt: Hunt, problem: Problem, observations: tuple[Observation, ...], ev: Evidence, query: Query,
               runner: Any, jobs: int, merged: dict[str, Any], display: Any, settings: Settings,
               deadline: float | None) -> int:
    """Run the query's lists (one, or a batch of several chosen together), journaling every
    repetition under its list's step as soon as it ends; how many ran."""
    known = dict(ev.steps)
    lists: list[tuple[int, tuple[str, ...], int]] = []  # step, ids, runs
    for included, runs in query.lists():
        ids = ev.prefix + tuple(problem.predecessors[i] for i in included) + (problem.victim,)
        if merged["step_budget"] and merged["strategy"] != "manual":
            runs = max(1, min(runs, math.floor(merged["step_budget"] / run_cost(problem, included))))
        lists.append((step_for(hunt, ids, known), ids, runs))
    step, ids, _ = lists[0]
    display.step(step, len(ids) - 1, sum(r for _, _, r in lists), query.reason, problem, observations,
                 leading(problem, observations, settings), lists=len(lists),
                 alone=ALONE.get(settings.strategy, "fails alone"))
    with executing(runner, query.executions):
        return len(run_journaled(hunt, runner, lists, query.reason, ev.entries, ev.phase, jobs, deadline,
                                 until_failure=query.until_failure, in_flight=settings.strategy != "manual",
                                 on_outcome=display.outcome))


def _run_seconds(runner: Any) -> float | None:
    """Half the runner's per-run timeout: what a run the search plans may take (None: no timeout)."""
    timeout = getattr(runner, "timeout", None)
    return None if timeout is None else timeout / 2


def make_runner(hunt: Hunt, scheduler: str | None = None,
                warn: Callable[[str], None] | None = None) -> Runner:
    """A Runner for the hunt's project, judging runs against the recorded failure; with a Dask
    `scheduler` address, its runs go to that cluster (the address is per session, not stored)."""
    from isolate.running.project import find_project, with_pytest_args
    from isolate.running.signature import failure_point, function_of, signature_from_traceback

    merged = hunt.settings["search"]
    kind = hunt.settings.get("source", {}).get("kind")  # "pytest": a recording, config file or not
    project = with_pytest_args(find_project(hunt.root, kind), merged["pytest_args"])
    failure = hunt.failure()
    crashed = hunt.settings.get("source", {}).get("status") == "fail" and not failure.strip()
    timeout = merged["timeout"]
    if timeout is None:  # generous: a hung run costs this much, a killed slow one costs a rerun
        timeout = max(60.0, 10 * (sum(durations(hunt, hunt.order())) + STARTUP_GUESS))
    fork = merged["mode"] == "fork"
    if fork and scheduler:  # stored by an earlier session on this machine (the CLI refuses it given now)
        fork = False
        if warn is not None:
            warn("this hunt's stored --fork-server does not act on Dask workers: this session runs fresh processes"
                 " there (a session without --scheduler forks again)")
    return Runner(
        project,
        mode="fork" if fork else "fresh",  # "auto": fresh until loop.py's check
        timeout=float(timeout),
        expected_signature=signature_from_traceback(failure),
        expected_point=failure_point(failure, function_of(hunt.victim)),
        any_failure=bool(merged["any_failure"]),
        count_crashes=crashed,
        scheduler=scheduler,
        warn=warn,
        repeat=executions_of(hunt),
    )
