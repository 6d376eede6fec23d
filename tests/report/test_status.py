"""`isolate status`: its estimate of the time left, and the leader it shows."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import env, isolate, tool
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
    # a later phase's search checks for further state-setters or cleaners, not causes
    assert _time_left(hunt, entries, (Answer((3,), 0.995, 1.0, 0.0),), 0.99, 50, 2.0, "it passes", "cleaners") == \
        "the leader is at the target confidence; confirming it and checking for further cleaners"
    assert _time_left(hunt, [], (), 0.99, 50, 2.0, "it passes", "cleaners") == "unknown until it passes"


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

    from conftest import recording
    from isolate.words import probability

    victim = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
    suite = recording("deterministic_polluter", tmp_path, victim)
    proc = isolate(suite, "bisect", victim, "--max-runs", "3", "--jobs", "1", "--json", "--fork-server")  # (kept for the resume)
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


# A hunt interrupted (Ctrl-C) in a phase that runs after the polluter search decided: `status` names
# the phase and its own leader, not the polluter search's (QA: it showed "fails on its own" while the
# hunt looked for a state-setter, and the first cause only while the scan had confirmed a second).

BRITTLE = "stockroom.tests.reports.test_levels.StockLevelReportTest.test_level_in_kilograms"
CLEANED = "ledgerkit.tests.test_summary.SummaryHeaderTest.test_header_uses_default_currency"
CURRENCY = "ledgerkit.tests.test_options.SetOptionTest.test_set_default_currency"
MASKED_VICTIM = "unitsfmt.tests.test_d_report.ReportTest.test_distance_line"
PLAIN = "unitsfmt.tests.test_b_locale.LocaleTest.test_french_decimal_comma"
MASKED = "unitsfmt.tests.test_a_units.UnitsTest.test_imperial_units"


def _queries(hunt: Path) -> list[dict[str, Any]]:
    path = hunt / "queries.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _runs(hunt: Path) -> list[dict[str, Any]]:
    path = hunt / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _interrupted(suite: Path, tmp_path: Path, victim: str, args: tuple[str, ...],
                 inside: Callable[[Path], bool]) -> str:
    """`isolate bisect VICTIM ARGS` stopped by Ctrl-C (SIGINT) as soon as `inside(hunt directory)`
    holds, then `isolate status`: its output."""
    [hunt] = (suite / ".isolate").glob("*/")
    with open(tmp_path / "bisect.err", "wb") as err:
        proc = subprocess.Popen([tool("isolate"), "bisect", victim, *args], cwd=suite, env=env(),
                                stdout=subprocess.DEVNULL, stderr=err)
        try:
            deadline = time.monotonic() + 60
            while not inside(hunt):
                assert proc.poll() is None, (tmp_path / "bisect.err").read_text()  # ended before the phase
                assert time.monotonic() < deadline, (tmp_path / "bisect.err").read_text()
                time.sleep(0.01)
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=60) == 130, (tmp_path / "bisect.err").read_text()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    status = isolate(suite, "status")
    assert status.returncode == 0, status.stderr
    assert "\n  paused · " in status.stdout, status.stdout
    return status.stdout


def _line(status: str, key: str) -> str:
    """The status line `  KEY: ...` without its key; "" when there is none."""
    return next((line[len(key) + 4:] for line in status.splitlines() if line.startswith(f"  {key}: ")), "")


def test_status_of_a_hunt_paused_in_the_state_setter_phase_shows_the_leading_setter(tmp_path: Path) -> None:
    from conftest import recording

    suite = recording("brittle_setter", tmp_path, BRITTLE, "--concurrency", "2", before=(("--serial",),))

    def setters(hunt: Path) -> bool:  # two runs of the setter phase journaled
        began = [q["from"] for q in _queries(hunt) if q["reason"].startswith("state-setters: ")]
        return bool(began) and len(_runs(hunt)) >= began[0] + 2

    status = _interrupted(suite, tmp_path, BRITTLE, ("--jobs", "2"), setters)
    assert _line(status, "phase") == "state-setters", status
    leader = _line(status, "leading")
    assert leader.startswith(("state-setter ", "no state-setter (")), status
    assert "fails on its own" not in leader, status


def test_status_of_a_hunt_paused_in_the_cleaner_phase_names_the_cause_and_its_leading_cleaner(
        tmp_path: Path) -> None:
    from conftest import recording

    suite = recording("cleaner_polluter", tmp_path, CLEANED, "--serial")

    def cleaners(hunt: Path) -> bool:
        return sum(str(e.get("phase", "")).startswith("cleaners:") for e in _runs(hunt)) >= 2

    status = _interrupted(suite, tmp_path, CLEANED, ("--cleaners", "--jobs", "2"), cleaners)
    assert _line(status, "phase") == f"cleaners of {CURRENCY}", status
    leader = _line(status, "leading")
    assert leader == "—" or leader.startswith(("cleaner ", "no cleaner (")), status
    assert CURRENCY not in leader, status

    # resumed asking for weaker further causes, the polluter search opens again: once it ran a list, status
    # shows it, not the phase it paused in (QA: that phase and leader, the queries after it unread)
    def searching(hunt: Path) -> bool:
        queries = _queries(hunt)
        last = max(i for i, q in enumerate(queries) if q["reason"].startswith("cleaners: "))
        new = [q for q in queries[last + 1:] if not q["reason"].startswith(CHECKS)]
        return bool(new) and len(_runs(hunt)) > new[0]["from"]

    status = _interrupted(suite, tmp_path, CLEANED, ("--cleaners", "--jobs", "2", "--further", "0.2"),
                          searching)
    assert _line(status, "phase") == "", status
    assert _line(status, "leading").startswith(f"{CURRENCY} ("), status


def test_status_of_a_hunt_paused_in_the_scan_shows_the_causes_it_confirmed(tmp_path: Path) -> None:
    from conftest import serial_recording

    suite, _ = serial_recording("masked_polluter", tmp_path, MASKED_VICTIM)

    def confirmed(hunt: Path) -> bool:  # the scan went on to the next tests after confirming the masked one
        reasons = [q["reason"] for q in _queries(hunt) if q["reason"].startswith("scan: ")]
        hit = next((i for i, r in enumerate(reasons) if r.startswith(f"scan: {MASKED} made it fail alone")), None)
        return hit is not None and any(r.startswith("scan: the next") for r in reasons[hit:])

    status = _interrupted(suite, tmp_path, MASKED_VICTIM, ("--scan", "--jobs", "1"), confirmed)
    assert _line(status, "phase") == "scan", status
    leader = _line(status, "leading")
    assert leader.startswith(f"polluter {PLAIN} (") and f"; polluter {MASKED} (" in leader, status
    # the HTML report's headline likewise
    page = tmp_path / "hunt.html"
    assert isolate(suite, "report", MASKED_VICTIM, "--html", str(page)).returncode == 0
    assert f"no verdict yet (paused)</b> — phase: scan — leading: <code class=\"id\">polluter {PLAIN} (" \
        in page.read_text(), page.read_text()[:3000]


CHECKS = ("fork check:", "repeat check:", "repeats:")  # queries of the checks, which run in any phase


def test_log_of_a_hunt_whose_step_file_is_gone_says_so_not_minus_one_predecessors(tmp_path: Path) -> None:
    """QA: with step-003.txt deleted by hand, `isolate log` showed "step 3: -1 predecessors +
    victim" and no word of the runs skipped, which `status` warned of."""
    from conftest import journal_of, recording

    victim = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
    suite = recording("deterministic_polluter", tmp_path, victim)
    assert isolate(suite, "bisect", victim, "--jobs", "1", "-q").returncode == 0
    hunt = next((suite / ".isolate").glob("*/"))
    step = journal_of(suite)[0]["step"]  # the first list the hunt ran
    (hunt / f"step-{step:03d}.txt").unlink()
    warning = f"step {step} does not match a step file (step-{step:03d}.txt missing or changed); skipped"
    assert warning in isolate(suite, "status", victim).stdout
    log = isolate(suite, "log", victim)
    assert log.returncode == 0, log.stderr
    assert "-1 predecessor" not in log.stdout, log.stdout
    assert warning in log.stdout, log.stdout
    [row] = [line for line in log.stdout.splitlines() if f"  step {step:>3}: " in line]
    assert f"  step {step:>3}: step-{step:03d}.txt missing, " in row, row
    # the journal deleted by hand: the verdict is not the hunt's any more, and status says why
    # (QA: "not started · 0 runs", its verdict.json unmentioned)
    (hunt / "journal.jsonl").unlink()
    status = isolate(suite, "status", victim)
    assert status.returncode == 0 and "not started" in status.stdout, status.stdout + status.stderr
    assert "verdict.json was written over " in status.stdout and "the runs behind it are gone" in status.stdout, \
        status.stdout
