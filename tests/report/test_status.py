"""`isolate status`'s estimate of the time left."""

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
