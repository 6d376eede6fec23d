"""`isolate status`: its estimate of the time left, and the leader it shows."""

from __future__ import annotations

from pathlib import Path

from isolate.hunt.journal import Entry
from isolate.hunt.store import Hunt
from isolate.report.status import _time_left
from isolate.search.posterior import Answer


def test_a_leader_past_the_target_is_not_called_done_while_the_hunt_goes_on(tmp_path: Path) -> None:
    """A running hunt whose leader had reached the confidence showed "time left: done" while it
    went on confirming the leader and checking for further causes."""
    hunt = Hunt(tmp_path, {"victim": "v", "search": {}})
    entries = [Entry(0, "fail", True, 1.0), Entry(1, "pass", False, 1.0)]
    left = _time_left(hunt, entries, (Answer((3,), 0.995, 1.0, 0.0),), 0.99, 50, 2.0)
    assert left == "the leader is at the target confidence; confirming it and checking for further causes"
    assert _time_left(hunt, entries, (Answer((3,), 0.6, 1.0, 0.0),), 0.99, 50, 2.0).endswith("of test time")


def test_the_time_budget_is_shown_with_what_is_left_of_it(tmp_path: Path) -> None:
    """'time left: ~22s of test time (budget 20s)' 11 s into a 20 s hunt: the whole budget, as if
    none of it were spent, beside an estimate above it."""
    hunt = Hunt(tmp_path, {"victim": "v", "search": {"time_budget": 20.0}})
    entries = [Entry(0, "fail", True, 1.0), Entry(1, "pass", False, 1.0)]
    left = _time_left(hunt, entries, (Answer((3,), 0.6, 1.0, 0.0),), 0.99, 50, 11.2)
    assert left.endswith(" of test time (--time-budget 20s: 8.8 s of it left)"), left
    spent = _time_left(hunt, entries, (Answer((3,), 0.6, 1.0, 0.0),), 0.99, 50, 25.0)
    assert spent.endswith("(--time-budget 20s: 0 s of it left)"), spent


def test_a_finished_hunt_shows_the_verdicts_own_leader_and_confidence(tmp_path: Path) -> None:
    """QA: an undecided verdict of confidence 0.477 was shown by `status` as 'fails on its own
    (0.386)': status recomputed the posterior by another search than the one that decided."""
    import json

    from conftest import isolate, recording
    from isolate.words import probability

    victim = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
    suite = recording("deterministic_polluter", tmp_path, victim)
    proc = isolate(suite, "bisect", victim, "--max-runs", "3", "--jobs", "1", "--json")
    verdict = json.loads(proc.stdout)
    assert proc.returncode == 5 and verdict["verdict"] == "undecided", proc.stderr
    what = " + ".join(verdict["culprits"]) or "fails on its own"
    [leading] = [line for line in isolate(suite, "status").stdout.splitlines() if line.startswith("  leading: ")]
    assert leading == f"  leading: {what} ({probability(verdict['confidence'])}) (not proven)", (leading, verdict)
    assert isolate(suite, "bisect", victim, "--max-runs", "100", "--jobs", "1").returncode == 0
    verdict = json.loads((next((suite / ".isolate").glob("*/")) / "verdict.json").read_text())
    [leading] = [line for line in isolate(suite, "status").stdout.splitlines() if line.startswith("  leading: ")]
    [cause] = verdict["causes"]  # a verdict with causes: each named with its own confidence
    assert verdict["verdict"] == "polluter" and leading == \
        f"  leading: polluter {cause['name']} ({probability(cause['confidence'])})", (leading, verdict)
