"""The hunt loop: ask the search what to run, run it, journal every repetition, repeat.

This is the imperative shell around the pure search. All state lives in the hunt directory:
the journal is the evidence, and `decide` is a pure function of it, so a hunt stopped by
Ctrl-C, `kill -9` or a reboot resumes exactly where it was by reading the journal again.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from isolate.errors import UserError
from isolate.hunt.evidence import STARTUP_GUESS, Evidence, durations, evidence
from isolate.hunt.journal import Entry, append_journal, read_journal
from isolate.hunt.lock import Lock
from isolate.hunt.settings import search_settings
from isolate.hunt.store import Hunt, step_for
from isolate.hunt.verdict import save_verdict
from isolate.running.runner import Interrupted as RunnerInterrupted
from isolate.running.runner import Runner
from isolate.search.decide import decide
from isolate.search.model import Problem, Query, Settings, Verdict, run_cost
from isolate.search.strategies.bayesian import leading


class Interrupted(Exception):
    """Ctrl-C or SIGTERM: the runs that finished are in the journal; `runs` counts them."""

    def __init__(self, runs: int) -> None:
        super().__init__(f"interrupted after {runs} runs")
        self.runs = runs


@dataclass(frozen=True)
class Result:
    hunt: Hunt
    problem: Problem
    verdict: Verdict
    reproducer: Path | None


def hunt_loop(
    hunt: Hunt,
    display: Any,
    make_runner: Callable[[Hunt], Any],
) -> Result:
    """Run the search to a verdict. `display` draws progress; `make_runner` builds the Runner."""
    merged = hunt.settings["search"]
    jobs = int(merged["jobs"] or os.cpu_count() or 1)
    settings = search_settings(merged, jobs)
    before = len(read_journal(hunt)[0])
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        with Lock(hunt, display.warn), make_runner(hunt) as runner:
            return _loop(hunt, display, runner, merged, jobs, settings)
    except (KeyboardInterrupt, RunnerInterrupted):  # finished runs are in the journal
        raise Interrupted(len(read_journal(hunt)[0]) - before) from None
    finally:
        signal.signal(signal.SIGTERM, previous)


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _loop(hunt: Hunt, display: Any, runner: Any, merged: dict[str, Any], jobs: int,
          settings: Settings) -> Result:
    ev = None
    while True:
        ev = evidence(hunt, ev)
        for warning in ev.warnings:
            display.warn(warning)
        if settings.strategy == "manual" and merged["step_budget"]:
            full = run_cost(ev.problem, tuple(range(len(ev.problem.predecessors))))
            settings = replace(settings, step_runs=max(1, math.floor(merged["step_budget"] / full)))
        answer = decide(ev.problem, ev.observations, settings, batch=jobs)
        if isinstance(answer, Verdict):
            reproducer = save_verdict(hunt, ev, answer)
            return Result(hunt, ev.problem, answer, reproducer)
        _run_query(hunt, ev, answer, runner, jobs, merged, display, settings)


def _run_query(hunt: Hunt, ev: Evidence, query: Query, runner: Any, jobs: int,
               merged: dict[str, Any], display: Any, settings: Settings) -> None:
    problem = ev.problem
    ids = tuple(problem.predecessors[i] for i in query.included) + (problem.victim,)
    step = step_for(hunt, ids, dict(ev.steps))
    runs = query.runs
    if merged["step_budget"] and merged["strategy"] == "isolate":
        runs = max(1, min(runs, math.floor(merged["step_budget"] / run_cost(problem, query.included))))
    display.step(step, len(query.included), runs, query.reason, ev,
                 leading(problem, ev.observations, settings))
    _append_line(hunt.path / "queries.jsonl",
                 {"step": step, "runs": runs, "reason": query.reason, "from": ev.entries})

    def record(outcome: Any) -> None:
        entry = Entry(step, outcome.kind, bool(outcome.reproduced), round(outcome.seconds, 4),
                      outcome.signature, dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"))
        try:
            append_journal(hunt, [entry])
        except OSError as exc:
            raise UserError(f"cannot write the journal in {hunt.path} ({exc.strerror}); free disk space,"
                            " then run the same command again to resume") from None
        display.outcome(outcome)

    outcomes = runner.run(ids, problem.victim, times=runs, jobs=jobs,
                          until_failure=query.until_failure, on_outcome=record)
    errors = [o for o in outcomes if o.kind == "error"]
    if errors:
        raise UserError(f"step {step} could not run: {errors[0].message}")


def _append_line(path: Path, data: dict[str, Any]) -> None:
    try:
        with open(path, "a", encoding="utf8") as fp:
            fp.write(json.dumps(data, sort_keys=True) + "\n")
    except OSError as exc:
        raise UserError(f"cannot write {path} ({exc.strerror}); free disk space, then run the same"
                        " command again to resume") from None


def make_runner(hunt: Hunt) -> Runner:
    """A Runner for the hunt's project, judging runs against the recorded failure."""
    from isolate.running.project import find_project, with_pytest_args
    from isolate.running.signature import signature_from_traceback

    merged = hunt.settings["search"]
    kind = hunt.settings.get("source", {}).get("kind")  # "pytest": a recording, config file or not
    project = with_pytest_args(find_project(hunt.path.parent.parent, kind), merged["pytest_args"])
    failure = hunt.failure()
    crashed = hunt.settings.get("source", {}).get("status") == "fail" and not failure.strip()
    timeout = merged["timeout"]
    if timeout is None:  # generous: a hung run costs this much, a killed slow one costs a rerun
        timeout = max(60.0, 10 * (sum(durations(hunt, hunt.order())) + STARTUP_GUESS))
    return Runner(
        project,
        mode=merged["mode"],
        timeout=float(timeout),
        expected_signature=signature_from_traceback(failure),
        any_failure=bool(merged["any_failure"]),
        count_crashes=crashed,
    )
