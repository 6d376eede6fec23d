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
import statistics
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from isolate import runner as runner_module
from isolate.errors import UserError
from isolate.hunt import (
    Entry,
    Hunt,
    Lock,
    Position,
    append_journal,
    find_hunt,
    hunts_root,
    journal_since,
    list_text,
    read_journal,
    read_steps,
    save_settings,
    step_for,
    write_atomic,
)
from isolate.search import Observation, Problem, Query, Settings, Verdict, decide, run_cost

DEFAULTS: dict[str, Any] = {
    "confidence": 0.99,
    "step_budget": None,
    "time_budget": None,
    "max_runs": None,
    "jobs": None,
    "timeout": None,
    "strategy": "isolate",
    "mode": "fresh",
    "any_failure": False,
    "pytest_args": [],
}
STARTUP_GUESS = 0.5  # seconds per run before the journal has measured it


class Interrupted(Exception):
    """Ctrl-C or SIGTERM: the runs that finished are in the journal; `runs` counts them."""

    def __init__(self, runs: int) -> None:
        super().__init__(f"interrupted after {runs} runs")
        self.runs = runs


@dataclass(frozen=True)
class Evidence:
    """What the journal says, in the search's terms."""

    problem: Problem
    observations: tuple[Observation, ...]
    ignored: dict[str, int]  # outcomes that are no evidence either way, by kind
    warnings: tuple[str, ...]
    entries: int  # journal entries read, corrupt ones excluded
    steps: dict[int, tuple[str, ...]]  # the step files, by number
    position: Position = Position()  # how far the journal was read
    overheads: tuple[float, ...] = ()  # measured per-run start-up, one per observation


@dataclass(frozen=True)
class Result:
    hunt: Hunt
    problem: Problem
    verdict: Verdict
    reproducer: Path | None


def open_hunt(test: str, run_spec: str | None, worker: str | None, repo: Path | None) -> Hunt:
    """The hunt for TEST, extracting it first when --run/--worker say where from."""
    from isolate.extract import extract_to_hunt

    root = hunts_root(repo)
    hunt = find_hunt(root, test)
    if hunt is not None and (run_spec is None and worker is None):
        return hunt
    if run_spec is None and worker is None:
        raise UserError(
            f"no hunt for {test!r}; start one with 'isolate extract --test {test}' or pass --run ID [--worker TAG]"
        )
    if hunt is not None:
        raise UserError(f"a hunt for {hunt.victim} already exists in {hunt.path}; drop --run/--worker to"
                        " continue it, or re-extract with 'isolate extract --force'")
    extract_to_hunt(run_spec, worker, test, repo, None, False, _no_stdin)
    found = find_hunt(hunts_root(repo), test)
    assert found is not None
    return found


def _no_stdin() -> Any:
    raise UserError("bisect cannot read a stream from stdin; run 'isolate extract --stream -' first")


def settings_for(hunt: Hunt, options: dict[str, Any]) -> Hunt:
    """Options given now override those stored by earlier sessions; the result is stored."""
    stored = dict(hunt.settings.get("search", {}))
    for key, value in options.items():
        if value is not None:
            stored[key] = value
    merged = {**DEFAULTS, **stored}
    if merged["strategy"] not in ("isolate", "manual"):
        raise UserError(f"--strategy {merged['strategy']!r} is unknown; use isolate or manual")
    if merged["pytest_args"] and (kind := project_kind(hunt)) != "pytest":
        raise UserError(f"--pytest-arg given but the hunt for {hunt.victim} runs a {kind} "
                        "project; fix: drop --pytest-arg")
    if not 0.5 <= float(merged["confidence"]) < 1:
        raise UserError(f"--confidence {merged['confidence']} is out of range; give a value in [0.5, 1), e.g. 0.99")
    if stored != hunt.settings.get("search"):
        hunt = save_settings(hunt, {**hunt.settings, "search": stored})
    return replace(hunt, settings={**hunt.settings, "search": merged})


def evidence(hunt: Hunt, previous: Evidence | None = None) -> Evidence:
    """The journal in the search's terms.  With `previous` (read from the same hunt), only
    what was appended since is read; the warnings are then the new ones only."""
    if previous is None:
        order = hunt.order()
        if not order:
            raise UserError(f"{hunt.path / 'order.txt'} is empty; re-create the hunt with 'isolate extract --force'")
        durations = _durations(hunt, order)
        problem = Problem(order[:-1], order[-1], tuple(durations[:-1]), durations[-1], STARTUP_GUESS)
        previous = Evidence(problem, (), {}, (), 0, {})
    problem = previous.problem
    entries, warnings, position = journal_since(hunt, previous.position)
    steps = read_steps(hunt, previous.steps)
    index = {test_id: i for i, test_id in enumerate(problem.predecessors)}
    observations = list(previous.observations)
    overheads = list(previous.overheads)
    ignored = dict(previous.ignored)
    for entry in entries:
        ids = steps.get(entry.step)
        if ids is None or not ids or ids[-1] != problem.victim or any(i not in index for i in ids[:-1]):
            warnings.append(f"journal entry for step {entry.step} does not match a step file; skipped")
            continue
        included = frozenset(index[i] for i in ids[:-1])
        overheads.append(entry.seconds - sum(problem.durations[i] for i in included) - problem.victim_duration)
        if entry.reproduced or entry.outcome == "pass":
            observations.append(Observation(included, entry.reproduced, entry.seconds))
        else:
            ignored[entry.outcome] = ignored.get(entry.outcome, 0) + 1
    startup = max(0.05, statistics.median(overheads)) if overheads else STARTUP_GUESS
    return Evidence(replace(problem, startup=startup), tuple(observations), ignored, tuple(warnings),
                    previous.entries + len(entries), steps, position, tuple(overheads))


def _durations(hunt: Hunt, order: tuple[str, ...]) -> list[float]:
    try:
        known = json.loads((hunt.path / "durations.json").read_text())
    except (OSError, ValueError):
        known = {}
    values = [float(v) for v in known.values() if isinstance(v, (int, float))]
    default = statistics.median(values) if values else 0.01
    return [max(0.0005, float(known.get(test_id, default))) for test_id in order]


def search_settings(merged: dict[str, Any], jobs: int) -> Settings:
    time_budget = merged["time_budget"]
    return Settings(
        confidence=float(merged["confidence"]),
        max_runs=merged["max_runs"],
        # runs in parallel jobs overlap, so a wall-clock budget buys `jobs` times its test seconds
        max_seconds=None if time_budget is None else float(time_budget) * jobs,
        strategy=merged["strategy"],
    )


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
    except (KeyboardInterrupt, runner_module.Interrupted):  # finished runs are in the journal
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
            return finish(hunt, ev, answer)
        _run_query(hunt, ev, answer, runner, jobs, merged, display, settings)


def _suspects(ev: Evidence, settings: Settings) -> str:
    from isolate.history import describe, leading

    top = leading(ev.problem, ev.observations, settings)
    short = [(describe(ev.problem, a).rsplit(".", 1)[-1] if a.culprits else "fails alone", a.probability)
             for a in top]
    return ", ".join(f"{name} {p:.2f}" for name, p in short)


def _run_query(hunt: Hunt, ev: Evidence, query: Query, runner: Any, jobs: int,
               merged: dict[str, Any], display: Any, settings: Settings) -> None:
    problem = ev.problem
    ids = tuple(problem.predecessors[i] for i in query.included) + (problem.victim,)
    step = step_for(hunt, ids, dict(ev.steps))
    runs = query.runs
    if merged["step_budget"] and merged["strategy"] == "isolate":
        runs = max(1, min(runs, math.floor(merged["step_budget"] / run_cost(problem, query.included))))
    display.step(step, len(query.included), runs, query.reason, ev, _suspects(ev, settings))
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


def finish(hunt: Hunt, ev: Evidence, verdict: Verdict) -> Result:
    """Save the verdict and a minimal reproducer list next to the evidence."""
    problem = ev.problem
    reproducer: Path | None = None
    if verdict.kind in ("polluter", "fails-alone"):
        ids = [problem.predecessors[i] for i in sorted(verdict.culprits)] + [problem.victim]
        reproducer = hunt.path / "reproducer.txt"
        write_atomic(reproducer, list_text(ids))
    from isolate.report import as_json

    data = as_json(problem, verdict, hunt.path, reproducer)
    data["ignored_outcomes"] = ev.ignored
    write_atomic(hunt.path / "verdict.json", json.dumps(data, indent=2) + "\n")
    return Result(hunt, problem, verdict, reproducer)


def make_runner(hunt: Hunt) -> runner_module.Runner:
    """A Runner for the hunt's project, judging runs against the recorded failure."""
    from isolate.project import find_project, with_pytest_args
    from isolate.signature import signature_from_traceback

    merged = hunt.settings["search"]
    project = with_pytest_args(find_project(hunt.path.parent.parent), merged["pytest_args"])
    failure = hunt.failure()
    crashed = hunt.settings.get("source", {}).get("status") == "fail" and not failure.strip()
    timeout = merged["timeout"]
    if timeout is None:  # generous: a hung run costs this much, a killed slow one costs a rerun
        durations = _durations(hunt, hunt.order())
        timeout = max(60.0, 10 * (sum(durations) + STARTUP_GUESS))
    return runner_module.Runner(
        project,
        mode=merged["mode"],
        timeout=float(timeout),
        expected_signature=signature_from_traceback(failure),
        any_failure=bool(merged["any_failure"]),
        count_crashes=crashed,
    )


def project_kind(hunt: Hunt) -> str:
    """stestr/testr from the hunt's source repository; for a stream, the project's own kind."""
    kind = hunt.settings.get("source", {}).get("kind")
    if kind is None:
        from isolate.project import find_project

        try:
            kind = find_project(hunt.path.parent.parent).kind
        except UserError:
            kind = "stestr"
    return str(kind)
