"""`isolate backtrack` on a real hunt: runs set aside are never lost, and a backtrack that would
set nothing aside is refused."""

from __future__ import annotations

import json
import time
from pathlib import Path

from conftest import assert_user_error, copy_suite, isolate, stestr_run
from isolate.hunt.backtrack import backtrack
from isolate.hunt.store import find_hunt, hunt_name

NAME = "deterministic_polluter"
VICTIM = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"


def _hunt(tmp_path: Path) -> tuple[Path, Path, list[int]]:
    """A hunt of a few single runs, one list at a time: the suite, the hunt, its steps in the
    order they first ran."""
    suite = copy_suite(NAME, tmp_path)
    stestr_run(suite)
    assert isolate(suite, "extract").returncode == 0
    proc = isolate(suite, "bisect", VICTIM, "--jobs", "1", "--max-runs", "8", "--no-fork-server", "-q")
    assert proc.returncode in (0, 5), proc.stderr
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    steps: list[int] = []
    for line in (hunt / "journal.jsonl").read_text().splitlines():
        step = json.loads(line)["step"]
        if step not in steps:
            steps.append(step)
    assert len(steps) >= 3, steps
    return suite, hunt, steps


def _runs(path: Path) -> int:
    return len(path.read_text().splitlines())


def test_two_backtracks_in_one_second_keep_every_run(tmp_path: Path) -> None:
    """The runs set aside went to journal.backtracked-<second>.jsonl: a second backtrack within
    the same second wrote its own runs over the first one's, which were lost."""
    suite, hunt, steps = _hunt(tmp_path)
    total = _runs(hunt / "journal.jsonl")
    found = find_hunt(suite, VICTIM)
    assert found is not None
    time.sleep(1 - time.time() % 1 + 0.01)  # both within one second, as a script's two calls are
    first = backtrack(found, steps[2], print)
    second = backtrack(found, steps[0], print)
    assert "set 0 aside" not in first + second, (first, second)
    aside = sorted(hunt.glob("journal.backtracked-*.jsonl"))
    assert len(aside) == 2, sorted(p.name for p in hunt.iterdir())
    assert _runs(hunt / "journal.jsonl") + sum(_runs(p) for p in aside) == total
    assert len(list(hunt.glob("reproducer.backtracked-*.txt"))) <= 1


def test_extract_force_sets_aside_everything_a_backtrack_set_aside(tmp_path: Path) -> None:
    """QA: after a backtrack, `extract --force` moved journal.backtracked-* into replaced-<time>/
    but left reproducer.backtracked-* (and a decision set aside) beside the new hunt, for good."""
    suite = copy_suite(NAME, tmp_path)
    stestr_run(suite)
    assert isolate(suite, "extract").returncode == 0
    done = isolate(suite, "bisect", VICTIM, "--fork-server", "-q")
    assert done.returncode == 0, done.stderr  # a verdict, and its reproducer
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    first = json.loads((hunt / "journal.jsonl").read_text().splitlines()[0])["step"]
    assert isolate(suite, "backtrack", VICTIM, str(first)).returncode == 0
    aside = sorted(p.name for p in hunt.glob("*.backtracked-*"))
    assert "reproducer" in " ".join(aside), aside
    assert isolate(suite, "extract", "--test", VICTIM, "--force").returncode == 0
    assert not list(hunt.glob("*.backtracked-*")), sorted(p.name for p in hunt.iterdir())
    [replaced] = hunt.glob("replaced-*")
    assert sorted(p.name for p in replaced.glob("*.backtracked-*")) == aside


def test_backtrack_to_the_last_step_is_refused_and_keeps_the_verdict(tmp_path: Path) -> None:
    """It said 'kept N runs up to step S; set 0 aside', wrote an empty file of runs set aside and
    removed the verdict; so did a step whose runs an earlier backtrack had set aside."""
    suite, hunt, steps = _hunt(tmp_path)
    last = max(steps)  # (a step may run again later, after others: backtracking to it keeps those)
    before = {p.name: p.read_bytes() for p in hunt.iterdir() if p.is_file()}
    assert_user_error(isolate(suite, "backtrack", VICTIM, str(last)), f"comes after step {last}",
                      f"isolate log {VICTIM}")
    assert {p.name: p.read_bytes() for p in hunt.iterdir() if p.is_file()} == before
    assert isolate(suite, "backtrack", VICTIM, str(steps[0])).returncode == 0
    assert_user_error(isolate(suite, "backtrack", VICTIM, str(steps[2])), f"comes after step {steps[2]}")
    assert len(list(hunt.glob("journal.backtracked-*.jsonl"))) == 1
