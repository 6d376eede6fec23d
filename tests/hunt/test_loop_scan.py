"""`isolate bisect --scan` end to end: real stestr runs of sample_suites/masked_polluter, real hunts.

The suite has a polluter in plain sight and one that the next test undoes (a cleaner): every list
of the rest passes, so the search's stop check cannot see it, and only a test alone before the
victim shows it.  The contract: with --scan the verdict's `causes` holds both, the masked one's
evidence says the scan found it, the answer is the same at --jobs 1 and 2, the scan's journal
entries carry their phase and run one predecessor at most, and its runs count in `runs`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import isolate, journal_of as journal, serial_recording

SUITE = "masked_polluter"
VICTIM = "unitsfmt.tests.test_d_report.ReportTest.test_distance_line"
PLAIN = "unitsfmt.tests.test_b_locale.LocaleTest.test_french_decimal_comma"
MASKED = "unitsfmt.tests.test_a_units.UnitsTest.test_imperial_units"
CLEANER = "unitsfmt.tests.test_a_units.UnitsTest.test_metric_after_reset"


def recorded(tmp_path: Path) -> Path:
    suite, order = serial_recording(SUITE, tmp_path, VICTIM)
    assert order.index(MASKED) + 1 == order.index(CLEANER) < order.index(PLAIN) < order.index(VICTIM)
    return suite


def bisect(suite: Path, *args: str) -> dict[str, Any]:
    proc = isolate(suite, "bisect", VICTIM, "--json", "--max-runs", "400", *args)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_without_the_scan_the_masked_polluter_is_missed_and_resuming_with_it_adds_it(tmp_path: Path) -> None:
    suite = recorded(tmp_path)
    first = bisect(suite, "--jobs", "2")
    assert first["verdict"] == "polluter" and first["culprits"] == [PLAIN], first
    assert first["stop"].startswith("no further cause"), first["stop"]
    before = len(journal(suite))
    scanned = bisect(suite, "--scan")  # the finished hunt goes on into the scan phase
    assert {c["name"] for c in scanned["causes"]} == {PLAIN, MASKED}, scanned["causes"]
    assert scanned["culprits"] == sorted([PLAIN, MASKED])
    [masked] = [c for c in scanned["causes"] if c["name"] == MASKED]
    assert masked["scope"] == "test" and masked["tests"] == [MASKED] and masked["confidence"] >= 0.99, masked
    assert any(line.startswith("found by the scan") for line in masked["evidence"]), masked["evidence"]
    # an earlier test hiding its failure shows the same way as a later one undoing it (QA): both said
    assert "found by the scan: the lists that held it and the rest showed no failure of it (a later test undoes" \
        " it, or another hides it)" in masked["evidence"], masked["evidence"]
    assert f"{MASKED} made it fail there, though no list of the rest did" in scanned["stop"], scanned["stop"]
    entries = journal(suite)
    phased = [e for e in entries[before:] if e.get("phase") != "fork-check"]
    assert phased and {e["phase"] for e in phased} == {"scan"}
    hunt = next((suite / ".isolate").glob("*/"))
    for step in {e["step"] for e in phased}:  # each test alone, or the victim alone
        assert len((hunt / f"step-{step:03d}.txt").read_text().split()) <= 2
    assert scanned["runs"] == len(entries)  # the scan's runs count too
    again = bisect(suite)  # --scan is kept for resumes; nothing runs again
    assert len(journal(suite)) == len(entries) and again["causes"] == scanned["causes"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_with_the_scan_both_polluters_and_the_cleaner_are_named_at_any_jobs(tmp_path: Path, jobs: str) -> None:
    suite = recorded(tmp_path)
    # forked from the start: the subject is the scan's answer (the default mode's hunts of this
    # suite: test_without_the_scan... and test_max_runs_caps..., whose run counts include the fork check's)
    verdict = bisect(suite, "--scan", "--cleaners", "--jobs", jobs, "--fork-server")
    assert {c["name"] for c in verdict["causes"]} == {PLAIN, MASKED}, verdict
    hints = {h["polluter"]: set(h["tests"]) for h in verdict["cleaners"]}
    assert hints.get(MASKED) == {CLEANER}, verdict["cleaners"]
    text = isolate(suite, "bisect", VICTIM)
    assert text.returncode == 0 and "found by the scan" in text.stdout, text.stdout


def test_max_runs_caps_the_whole_hunt_with_its_scan_and_cleaner_phases(tmp_path: Path) -> None:
    """--max-runs is for the whole hunt: the phases after the polluter verdict get what is left
    (each phase used to get the whole cap again: 111 runs under --max-runs 70). Uncapped, this
    hunt makes 60 runs (14 before the scan)."""
    suite = recorded(tmp_path)
    verdict = bisect(suite, "--scan", "--cleaners", "--max-runs", "45")
    entries = journal(suite)
    assert len(entries) <= 45 and verdict["runs"] == len(entries), (len(entries), verdict["runs"])
    assert verdict["verdict"] == "polluter" and PLAIN in verdict["culprits"], verdict
    spent = [line for line in verdict["evidence"] if line.startswith("no cleaner found for")]
    assert "budget ran out" in verdict["stop"] or any("the budget ran out after" in line for line in spent), verdict


def test_a_scan_cut_short_by_the_budget_goes_on_where_it_stopped(tmp_path: Path) -> None:
    suite = recorded(tmp_path)
    first = bisect(suite, "--jobs", "1", "--fork-server")  # (kept for the resumes: the subject is the budget)
    cap = str(len(journal(suite)) + 3)  # room for 3 runs of the scan
    cut = bisect(suite, "--scan", "--max-runs", cap)
    assert "the budget ran out after" in cut["stop"] and "more may remain" in cut["stop"], cut["stop"]
    assert set(first["culprits"]) <= set(cut["culprits"]) and cut["runs"] == len(journal(suite)) == int(cap)
    done = bisect(suite, "--max-runs", "400")  # --scan is kept; the scan goes on from its journal
    assert {c["name"] for c in done["causes"]} == {PLAIN, MASKED}, done
    hunt = next((suite / ".isolate").glob("*/"))
    alone = [(hunt / f"step-{e['step']:03d}.txt").read_text().split() for e in journal(suite) if e.get("phase") == "scan"]
    scanned = [ids[0] for ids in alone if len(ids) == 2 and ids[0] != MASKED]
    assert len(scanned) == len(set(scanned)), scanned  # none of the others ran alone twice
