"""`isolate verify`: after a fix, re-run the hunt's reproducer and its original failing list
until the recorded failure shows, or enough passes rule out the estimated failure rate.

How many passes: n = ceil(ln(1 - c) / ln(1 - p)) runs of each list, p the verdict's estimated
rate (with the culprits; the background rate for "fails on its own"), c the confidence. If the
failure still happened at rate p, n passes in a row would happen with probability at most 1 - c.

Every finished repetition is appended to `verify.jsonl` in the hunt directory and fsynced, like
the hunt's own journal, so Ctrl-C or a kill loses only the runs in flight and the same command
continues the count.  Entries carry an attempt number: an attempt that reached a conclusion
(a failure, or every list's passes) stays in the file as history, and the next `verify` starts a
new attempt, since it is then checking new code.
"""

from __future__ import annotations

import ast
import datetime as dt
import math
import os
import re
import shlex
import signal
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from isolate.errors import UserError
from isolate.files import read_list
from isolate.hunt.journal import OUTCOMES, Position, append_lines, json_object, lines_since
from isolate.hunt.lock import Lock, holder
from isolate.hunt.settings import DEFAULTS
from isolate.hunt.store import Hunt, executions_of
from isolate.hunt.verdict import read_verdict
from isolate.search.model import runs_for
from isolate.words import counted, on_test

JOURNAL = "verify.jsonl"
NAMES = {"reproducer": "the reproducer", "original": "the original list (step-000)"}
"""How progress lines and the report name each list."""


@dataclass(frozen=True)
class Target:
    """One list verify runs: the reproducer, or the original failing list."""

    name: str  # reproducer | original
    path: Path
    ids: tuple[str, ...]


@dataclass(frozen=True)
class Count:
    """One list's repetitions in the current attempt."""

    target: Target
    runs: int = 0
    fails: int = 0  # the recorded failure
    passes: int = 0
    other: dict[str, int] = field(default_factory=dict)  # neither: timeout, crash, another failure


@dataclass(frozen=True)
class Verification:
    hunt: Hunt
    verdict: str  # fixed | still-fails | inconclusive (| unfinished: an attempt cut short, see `latest`)
    rate: float  # the estimated failure rate to rule out
    confidence: float
    needed: int  # passes of each list that rule it out
    counts: tuple[Count, ...]
    attempt: int
    session_runs: int  # repetitions run by this command (the others came from the journal)
    executions: int = 1  # times each run executes the victim, as the hunt's runs did (the rate is per run)

    @property
    def bound(self) -> float:
        """The failure rate the passes rule out at `confidence`: below it, n passes in a row
        happen with probability more than 1 - confidence."""
        return 1.0 - (1.0 - self.confidence) ** (1.0 / self.needed)


def verify(
    hunt: Hunt,
    *,
    confidence: float = 0.99,
    jobs: int | None = None,
    timeout: float | None = None,
    say: Callable[[str], None] = lambda line: None,
    warn: Callable[[str], None] = lambda line: None,
    make_runner: Callable[[Hunt], Any] | None = None,
) -> Verification:
    """Run the hunt's lists until the failure shows or the passes rule out its rate (with
    `make_runner`, by default the hunt's: isolate.hunt.loop.make_runner)."""
    # the hunt's runner stack only here: status and the report read the rest of this module
    from isolate.hunt.loop import Interrupted, make_runner as hunt_runner, terminate
    from isolate.running.runner import Interrupted as RunnerInterrupted

    if not 0 < confidence < 1:
        raise UserError(f"--confidence {confidence} is out of range; give a value in (0, 1), e.g. 0.99")
    running = holder(hunt.path)
    if running is not None and running.alive:  # its verdict, if any, is about to change: nothing to verify yet
        where = "" if running.here else f" on {running.host}"
        raise UserError(f"the hunt for {hunt.victim} is already running (pid {running.pid}{where}); wait for its"
                        " verdict (follow it with 'isolate status'), then verify")
    rate, targets = _plan(hunt)
    needed = runs_for(confidence, rate)
    stored = hunt.settings.get("search", {})
    merged = {**DEFAULTS, **stored}
    if timeout is not None:
        merged["timeout"] = timeout
    jobs = int(jobs or merged["jobs"] or os.cpu_count() or 1)
    runnable = replace(hunt, settings={**hunt.settings, "search": merged})
    before = _attempts(hunt, targets, warn)
    attempt = before[0] if before[1] is None or not _concluded(before[1], needed) else before[0] + 1
    session = 0
    kept = len(_read(hunt, lambda _: None))
    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        with Lock(hunt.path, warn), (make_runner or hunt_runner)(runnable) as runner:
            for target in targets:
                while True:
                    counts = _counts(hunt, targets, attempt)
                    if _concluded(counts, needed):
                        break
                    mine = next(c for c in counts if c.target == target)
                    if mine.passes >= needed:
                        break
                    times = min(needed - mine.passes, patience(needed) - sum(mine.other.values()))
                    say(f"{NAMES[target.name]}: {counted(len(target.ids) - 1, 'predecessor')} + victim,"
                        f" {mine.passes}/{needed} passes so far, up to {counted(times, 'more run')}")

                    def record(outcome: Any, target: Target = target) -> None:
                        nonlocal session
                        if outcome.kind == "error":  # the list could not run: no run, said below
                            return
                        item = {"attempt": attempt, "list": target.name, "outcome": outcome.kind,
                                "reproduced": bool(outcome.reproduced), "seconds": round(outcome.seconds, 4),
                                "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                                "confidence": confidence}
                        if outcome.signature:
                            item["signature"] = outcome.signature
                        try:
                            append_lines(hunt.path / JOURNAL, [item])
                        except OSError as exc:
                            raise UserError(f"cannot write {hunt.path / JOURNAL} ({exc.strerror}); free disk"
                                            " space, then run the same command again to resume") from None
                        session += 1
                        if outcome.reproduced:
                            say(f"  {NAMES[target.name]} failed the recorded way: {outcome.message}")

                    outcomes = runner.run(target.ids, hunt.victim, times=times, jobs=jobs,
                                          until_failure=True, on_outcome=record)
                    errors = [o for o in outcomes if o.kind == "error"]
                    if errors:
                        raise UserError(f"{target.path} could not run: {_why(hunt, errors[0].message)}")
    except (KeyboardInterrupt, RunnerInterrupted):  # finished runs are in the journal
        # counted from the journal: Ctrl-C in a record()'s fsync leaves its line written, uncounted
        raise Interrupted(max(session, len(_read(hunt, lambda _: None)) - kept)) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    counts = _counts(hunt, targets, attempt)
    return Verification(hunt, _conclusion(counts, needed), rate, confidence, needed, counts, attempt, session,
                        executions_of(hunt))


def _plan(hunt: Hunt) -> tuple[float, tuple[Target, ...]]:
    """The rate to rule out and the lists to run, from the hunt's verdict."""
    from isolate.hunt.loop import NO_EVIDENCE  # (see verify)

    verdict = read_verdict(hunt)
    if verdict is None:
        raise UserError(f"the hunt for {hunt.victim} has no verdict yet; finish it with"
                        f" {on_test('isolate bisect', hunt.victim)}, then verify")
    kind = verdict.get("verdict")
    reproducer = hunt.path / "reproducer.txt"
    if kind in ("polluter", "fails-alone", "brittle") and not reproducer.exists():
        raise UserError(f"the hunt for {hunt.victim} ended '{kind}' but its {reproducer} is missing; fix: run"
                        f" {on_test('isolate bisect', hunt.victim)}, which writes it again from the journal"
                        " (no new runs), then verify")
    if kind not in ("polluter", "fails-alone", "brittle") and NO_EVIDENCE in str(verdict.get("stop", "")):
        raise UserError(f"the hunt for {hunt.victim} ended '{kind}' with no reproducer to verify, because its last runs"
                        " were no evidence (the victim crashed, hung or failed another way); fix: see what they did"
                        f" with {on_test('isolate log', hunt.victim)}, mend that, then run"
                        f" {on_test('isolate bisect', hunt.victim)} again")
    if kind not in ("polluter", "fails-alone", "brittle"):
        stored = hunt.settings.get("search", {}).get("max_runs")  # a whole number >= 1, or None
        more = f" --max-runs {max(1000, 4 * stored)}" if stored is not None else ""  # the stored cap holds
        raise UserError(f"the hunt for {hunt.victim} ended '{kind}' with no reproducer to verify;"
                        f" continue it with {on_test('isolate bisect', hunt.victim, ' --time-budget 8h' + more)}"
                        " until it names a cause")
    rates = verdict.get("rates", {})
    # a brittle victim's reproducer is the victim alone, which fails at its own rate (the background)
    rate = float(rates.get("with_culprits" if kind == "polluter" else "background", 0.0))
    if not rate > 0:
        raise UserError(f"the verdict in {hunt.path / 'verdict.json'} estimates no failure rate;"
                        f" re-run the hunt with {on_test('isolate bisect', hunt.victim)}")
    targets = [Target("reproducer", reproducer, read_list(reproducer))]
    original = hunt.step_path(0)
    if original.exists() and read_list(original) != targets[0].ids:
        targets.append(Target("original", original, read_list(original)))
    for target in targets:
        if not target.ids or target.ids[-1] != hunt.victim:
            fix = (f"delete it and run {on_test('isolate bisect', hunt.victim)}, which writes it again from the"
                   " journal (no new runs)" if target.name == "reproducer" else
                   f"copy the hunt's order back over it: cp {shlex.quote(str(hunt.path / 'order.txt'))}"
                   f" {shlex.quote(str(target.path))}")
            raise UserError(f"{target.path} does not end with {hunt.victim}; fix: {fix}, then verify")
    return min(1.0, rate), tuple(targets)


def _read(hunt: Hunt, warn: Callable[[str], None]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []

    def parse(raw: bytes) -> str:
        item, why = json_object(raw)
        if item is None:
            return why
        attempt, name, outcome = item.get("attempt"), item.get("list"), item.get("outcome")
        reproduced, seconds = item.get("reproduced"), item.get("seconds")
        if (type(attempt) is not int or not isinstance(name, str) or outcome not in OUTCOMES
                or type(reproduced) is not bool or isinstance(seconds, bool)
                or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds < 0):
            return "a field is missing or of the wrong type"
        confidence, at = item.get("confidence"), item.get("at")
        items.append({"attempt": attempt, "list": name, "outcome": outcome, "reproduced": reproduced,
                      "seconds": float(seconds), "at": at if isinstance(at, str) else "",
                      "confidence": confidence if type(confidence) is float and 0 < confidence < 1 else None})
        return ""

    warnings, _ = lines_since(hunt.path / JOURNAL, Position(), parse)
    for warning in warnings:
        warn(warning)
    return items


def _tally(items: list[dict[str, Any]], targets: tuple[Target, ...], attempt: int) -> tuple[Count, ...]:
    counts = []
    for target in targets:
        runs = fails = passes = 0
        other: dict[str, int] = {}
        for item in items:
            if item["attempt"] != attempt or item["list"] != target.name:
                continue
            if item["outcome"] == "error":  # a list that could not run (journaled before 2026-11-29): no run
                continue
            runs += 1
            if item["reproduced"]:
                fails += 1
            elif item["outcome"] == "pass":
                passes += 1
            else:
                other[item["outcome"]] = other.get(item["outcome"], 0) + 1
        counts.append(Count(target, runs, fails, passes, other))
    return tuple(counts)


def _attempts(hunt: Hunt, targets: tuple[Target, ...], warn: Callable[[str], None]) -> tuple[int, tuple[Count, ...] | None]:
    """The latest attempt's number and counts (1 and None when there is none yet)."""
    items = _read(hunt, warn)
    if not items:
        return 1, None
    last = max(item["attempt"] for item in items)
    return last, _tally(items, targets, last)


def _counts(hunt: Hunt, targets: tuple[Target, ...], attempt: int) -> tuple[Count, ...]:
    return _tally(_read(hunt, lambda line: None), targets, attempt)


def _why(hunt: Hunt, message: str) -> str:
    """A list that could not run, in verify's terms: a test of the hunt's lists gone since the
    hunt (renamed or deleted, by the fix perhaps) is no id to "correct or remove from the list"."""
    found = re.match(r"unknown test id ('[^']*'|\"[^\"]*\")", message)
    if found is None:
        return message
    test_id = ast.literal_eval(found.group(1))
    if test_id == hunt.victim:
        return (f"the victim {test_id} is not in the project now (renamed or deleted since the hunt?); fix: hunt it"
                " under its new name (run the suite, then 'isolate extract'), or restore its name to verify")
    return (f"{test_id}, of the hunt's lists, is not in the project now (renamed or deleted since the hunt, by the"
            " fix perhaps?); fix: restore its name to verify, or run the suite to check the fix without it")


def latest(hunt: Hunt, warn: Callable[[str], None] = lambda line: None) -> tuple[Verification, str] | None:
    """The latest attempt of `isolate verify`, as the journal has it, and when its last run ended
    (None: never verified, or the hunt's verdict no longer gives lists to verify). Its verdict is
    "unfinished" while it has neither failed nor shown enough passes (Ctrl-C, or going on now).
    Attempts journaled before their confidence was are read at 0.99, verify's default. `warn`
    hears of the journal's lines that cannot be read."""
    items = _read(hunt, warn)
    if not items:
        return None
    try:
        rate, targets = _plan(hunt)
    except UserError:
        return None
    attempt = max(item["attempt"] for item in items)
    mine = [item for item in items if item["attempt"] == attempt]
    confidence = next((i["confidence"] for i in reversed(mine) if i["confidence"] is not None), 0.99)
    needed = runs_for(confidence, rate)
    counts = _tally(items, targets, attempt)
    kind = _conclusion(counts, needed) if _concluded(counts, needed) else "unfinished"
    return Verification(hunt, kind, rate, confidence, needed, counts, attempt, 0), mine[-1]["at"]


def _conclusion(counts: tuple[Count, ...], needed: int) -> str:
    if any(c.fails for c in counts):
        return "still-fails"
    if all(c.passes >= needed for c in counts):
        return "fixed"
    return "inconclusive"


def _concluded(counts: tuple[Count, ...], needed: int) -> bool:
    """A failure, every list's passes, or as many runs that were neither as passes needed
    (the victim now fails another way, or times out: more runs would not settle it)."""
    return (_conclusion(counts, needed) != "inconclusive"
            or any(sum(c.other.values()) >= patience(needed) for c in counts))


def patience(needed: int) -> int:
    """Runs of one list that may end otherwise (another failure, a timeout) before verify
    stops as inconclusive."""
    return max(3, needed)
