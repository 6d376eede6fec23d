"""`verdict.json` and `reproducer.txt`: the verdict as data, saved next to the evidence.

The JSON is a contract: users' scripts read it, and `isolate bisect --json` prints the same.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from isolate.errors import UserError
from isolate.files import list_text, read_text, reject_non_finite, write_atomic
from isolate.hunt.evidence import Evidence
from isolate.hunt.forkcheck import mode_text, runs_by_mode
from isolate.hunt.repeatcheck import repeats_of
from isolate.hunt.journal import read_journal
from isolate.hunt.store import Hunt, repeats_from
from isolate.search.model import FoundCause, Problem, Verdict
from isolate.words import on_test


def verdict_data(problem: Problem, verdict: Verdict, hunt: Path, reproducer: Path | None,
                 seconds: float | None = None, test_seconds: float | None = None,
                 executors: dict[str, int] | None = None) -> dict[str, Any]:
    """The verdict as JSON-ready data. `seconds` is the hunt's wall time (across sessions),
    `test_seconds` the runs' durations added up (parallel runs each count); both default to the
    search's own count of its evidence runs. `executors`: journaled runs per executor."""
    data: dict[str, Any] = {
        "verdict": verdict.kind,
        "victim": problem.victim,
        "culprits": [problem.predecessors[i] for i in verdict.culprits],
        "confidence": kept(verdict.confidence),
        "rates": {"with_culprits": kept(verdict.p), "background": kept(verdict.q)},
        "runs": verdict.runs,
        "seconds": round(verdict.seconds if seconds is None else seconds, 3),
        "test_seconds": round(verdict.seconds if test_seconds is None else test_seconds, 3),
        "evidence": list(verdict.evidence),
        "causes": [
            {"scope": c.scope, "name": c.name, "tests": [problem.predecessors[i] for i in c.tests],
             "rate": kept(c.rate), "confidence": kept(c.confidence), "evidence": list(c.evidence),
             "role": c.role, "rate_per_execution": None if c.per_execution is None else kept(c.per_execution),
             "fails": c.fails, "runs": c.held}
            for c in verdict.causes
        ],
        "stop": verdict.stop,
        "alternatives": [
            {"culprits": [problem.predecessors[i] for i in c], "probability": kept(p)}
            for c, p in verdict.alternatives
        ],
        "hunt": str(hunt),
        "reproducer": str(reproducer) if reproducer else None,
    }
    if executors is not None:
        data["executors"] = executors
    return data


def kept(x: float) -> float:
    """A rate or probability to 6 places, but never rounded onto 0 or 1 when it is neither: the
    verdict's text is read back from this (saved_verdict), and 0.9999996 must not read as 1 there."""
    return min(max(round(x, 6), 1e-6), 1 - 1e-6) if 0 < x < 1 else round(x, 6)


def executor_runs(hunt: Hunt) -> dict[str, int]:
    """Runs in the journal per executor: a Dask worker's address, or "local" (this machine)."""
    counts = Counter(entry.executor or "local" for entry in read_journal(hunt)[0])
    return dict(sorted(counts.items()))


def save_verdict(hunt: Hunt, problem: Problem, ev: Evidence, verdict: Verdict, findings: tuple[str, ...] = (),
                 cleaners: list[dict[str, Any]] | None = None) -> tuple[Path | None, dict[str, Any]]:
    """Write `verdict.json` and, for an answer with a list, `reproducer.txt`; return both.
    `problem` is the one the verdict's indices refer to (tests that hung may be left out);
    `cleaners`: the cleaner phase's hints (isolate.hunt.cleaners), None when not asked."""
    reproducer: Path | None = None
    setup: Path | None = None
    if verdict.kind in ("polluter", "fails-alone"):
        ids = [problem.predecessors[i] for i in sorted(verdict.culprits)] + [problem.victim]
        reproducer = hunt.path / "reproducer.txt"
        write_atomic(reproducer, list_text(ids))
    elif verdict.kind == "brittle":  # fails alone; passes with its setters first
        reproducer, setup = hunt.path / "reproducer.txt", hunt.path / PASSING
        write_atomic(reproducer, list_text([problem.victim]))
        write_atomic(setup, list_text([problem.predecessors[i] for i in sorted(verdict.culprits)] + [problem.victim]))
    data = verdict_data(problem, verdict, hunt.path, reproducer, ev.wall_seconds, ev.test_seconds,
                        executor_runs(hunt))
    if setup is not None:
        data["passing_list"] = str(setup)
    # new runs only: those the search counted, and the single runs before repeats started by themselves
    # (some of which it counted: ev.early)
    data["runs"] = verdict.runs - ev.history[0] - ev.early + repeats_from(hunt)
    data["history_runs"] = ev.history[0]
    data["findings"] = list(findings)
    data["ignored_outcomes"] = ev.ignored
    data["mode"] = mode_text(hunt)  # "fork (checked: ...)", "fresh (fork check failed: ...)", ...
    data["runs_by_mode"] = runs_by_mode(hunt)
    repeats = repeats_of(hunt)
    if repeats is not None:
        data["repeats"] = repeats
    if cleaners is not None:
        data["cleaners"] = cleaners
    saved = {**data, JOURNAL_BYTES: _journal_bytes(hunt.path),  # what it was read from (read_verdict)
             SETTINGS: hunt.settings.get("search", {})}  # ...and under which settings (merged: hunt_loop's)
    write_atomic(hunt.path / "verdict.json", json.dumps(saved, indent=2) + "\n")
    return reproducer, data


JOURNAL_BYTES = "journal_bytes"  # verdict.json: the journal's size when the verdict was written
SETTINGS = "search_settings"  # ...and the settings the hunt ran under (read_verdict's `made_under`)


def _journal_bytes(path: Path) -> int:
    try:
        return (path / "journal.jsonl").stat().st_size
    except OSError:
        return 0


KINDS = ("polluter", "brittle", "fails-alone", "not-reproduced", "undecided")
PASSING = "passing.txt"  # a brittle victim's setters, then the victim: the list that passes


def read_verdict(hunt: Hunt, made_under: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The saved verdict, unless the journal has changed since it was written (a resumed hunt):
    its size then differs from the one the verdict recorded (copies, backups and `touch` keep the
    verdict; a verdict.json written before the size was kept goes by modification times).
    With `made_under`, also None unless it was written under those stored settings (a session
    that raised the budget and stopped before a verdict leaves the earlier one, which the new
    budget may take further). A corrupt verdict.json is a UserError naming it: the next
    `isolate bisect` rewrites it."""
    current = _current(hunt)
    if current is None:
        return None
    data, settings = current
    if made_under is not None and settings != json.loads(json.dumps(made_under)):  # (as JSON holds them)
        return None
    return data


def made_with(hunt: Hunt) -> tuple[str, str] | None:
    """The kind of the hunt's verdict and the strategy that reached it, while that verdict holds
    (the journal unchanged since); None without one. A corrupt verdict.json is a UserError."""
    current = _current(hunt)
    if current is None:
        return None
    data, settings = current
    strategy = settings.get("strategy") if isinstance(settings, dict) else None
    return str(data["verdict"]), str(strategy or "isolate")  # (not stored: the default's)


def _current(hunt: Hunt) -> tuple[dict[str, Any], Any] | None:
    """verdict.json, checked, and the settings it was written under, unless the journal has
    changed since (read_verdict)."""
    path = hunt.path / "verdict.json"
    journal = hunt.path / "journal.jsonl"
    fix = f"delete it; {on_test('isolate bisect', hunt.victim)} writes it again"
    try:
        if not path.exists():
            return None
        newer = journal.exists() and journal.stat().st_mtime > path.stat().st_mtime
    except OSError:
        return None
    text = read_text(path, "the verdict", fix)
    try:
        data = json.loads(text, parse_constant=reject_non_finite)
    except ValueError as exc:
        raise UserError(f"{path} is corrupt ({str(exc).splitlines()[0]}); {fix}") from None
    problem = _verdict_problem(data)
    if problem:
        raise UserError(f"{path} is corrupt ({problem}); {fix}")
    size = data.pop(JOURNAL_BYTES, None)
    settings = data.pop(SETTINGS, None)
    if (size != _journal_bytes(hunt.path)) if isinstance(size, int) else newer:
        return None
    return data, settings


def lost_runs(hunt: Hunt) -> str:
    """Why the hunt's verdict.json is not its verdict when its journal is now shorter than the
    verdict recorded (deleted or cut by hand: `isolate backtrack` deletes the verdict as it cuts),
    in words; "" otherwise (no verdict, or a journal grown by a resumed hunt). QA: a finished hunt
    whose journal was deleted read "not started", its verdict.json unmentioned."""
    try:
        data = json.loads((hunt.path / "verdict.json").read_text(encoding="utf8"), parse_constant=reject_non_finite)
    except (OSError, ValueError):
        return ""
    size = data.get(JOURNAL_BYTES) if isinstance(data, dict) else None
    now = _journal_bytes(hunt.path)
    if type(size) is not int or now >= size:
        return ""
    return (f"verdict.json was written over {size:,} bytes of journal.jsonl, which now holds {now:,}: the runs"
            f" behind it are gone, so it is not shown; restore the journal from a backup, or run"
            f" {on_test('isolate bisect', hunt.victim)} to hunt again")


def _verdict_problem(data: Any) -> str:
    if not isinstance(data, dict):
        return "not a JSON object"
    kind = data.get("verdict")
    if not isinstance(kind, str) or not kind:  # a kind a newer isolate added is shown as it is
        return f"verdict {kind!r} is not a verdict such as {', '.join(KINDS)}"
    confidence = data.get("confidence")
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 <= confidence <= 1:
        return f"confidence {confidence!r} is not a number in [0, 1]"
    culprits = data.get("culprits")
    if not isinstance(culprits, list) or not all(isinstance(c, str) for c in culprits):
        return "culprits is not a list of test ids"
    return ""


def saved_verdict(problem: Problem, data: dict[str, Any]) -> tuple[Problem, Verdict]:
    """The verdict `data` (verdict.json, as read_verdict gives it) holds, over `problem`: the
    hunt's predecessors, which its names index; names the problem has not (a brittle victim's
    setters, from its setter phase) are added after them. `runs` counts the stored runs too,
    as the search's verdict does; `seconds` is the runs' test time. KeyError, TypeError or
    ValueError when `data` is not what save_verdict wrote."""
    names = [*data["culprits"], *(t for c in data["causes"] for t in c["tests"]),
             *(t for a in data["alternatives"] for t in a["culprits"])]
    extra = tuple(dict.fromkeys(str(n) for n in names if n not in problem.predecessors))
    if extra:
        problem = Problem(problem.predecessors + extra, problem.victim, problem.durations + (0.0,) * len(extra),
                          problem.victim_duration, problem.startup)
    index = {test_id: i for i, test_id in enumerate(problem.predecessors)}

    def at(tests: list[str]) -> tuple[int, ...]:
        return tuple(index[t] for t in tests)

    causes = tuple(FoundCause(str(c["scope"]), str(c["name"]), at(c["tests"]), float(c["rate"]), float(c["confidence"]),
                              tuple(str(line) for line in c["evidence"]), str(c.get("role", "polluter")),
                              None if c.get("rate_per_execution") is None else float(c["rate_per_execution"]),
                              int(c.get("fails", 0)), int(c.get("runs", 0)))
                   for c in data["causes"])
    rates = data["rates"]
    verdict = Verdict(str(data["verdict"]), at(data["culprits"]), float(data["confidence"]),
                      float(rates["with_culprits"]), float(rates["background"]),
                      tuple(str(line) for line in data["evidence"]), int(data["runs"]) + int(data["history_runs"]),
                      float(data["test_seconds"]),
                      tuple((at(a["culprits"]), float(a["probability"])) for a in data["alternatives"]),
                      causes, str(data["stop"]))
    return problem, verdict
