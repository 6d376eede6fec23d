"""`isolate bisect` on a brittle victim, end to end: real stestr runs of sample_suites/brittle_setter
(one serial run where the victim passed, one parallel run where its state-setter ran in the other
worker and it failed), real hunts, real replays.

The contract: verdict `brittle`, exit 6, the setter(s) in `causes` with `"role": "setter"`,
`reproducer` (the victim alone: fails) and `passing_list` (setters first: passes)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conftest import copy_suite, isolate, recording, stestr_run

SUITE = "brittle_setter"
VICTIM = "stockroom.tests.reports.test_levels.StockLevelReportTest.test_level_in_kilograms"
SETTER = "stockroom.tests.catalog.test_units.UnitRegistryTest.test_register_defaults_adds_metric_units"


def recorded(tmp_path: Path) -> Path:
    """The suite with two stored runs: run 0 serial (the setter ran first: the victim passed),
    run 1 on two workers (the setter's group ran on the other one: the victim failed); run 1
    extracted."""
    suite = recording(SUITE, tmp_path, VICTIM, "--concurrency", "2", before=(("--serial",),))
    assert sorted(run.name for run in (suite / ".stestr").iterdir() if run.name.isdigit()) == ["0", "1"]
    assert SETTER not in (suite / ".isolate").glob("*/order.txt").__next__().read_text()
    return suite


def bisect(suite: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = isolate(suite, "bisect", VICTIM, "--json", "--max-runs", "400", *args)
    assert proc.returncode in (3, 6), (proc.returncode, proc.stderr)
    return proc.returncode, json.loads(proc.stdout)


def test_brittle_victim_names_its_setter(tmp_path: Path) -> None:
    suite = recorded(tmp_path)
    code, verdict = bisect(suite)
    assert (code, verdict["verdict"]) == (6, "brittle"), verdict
    [cause] = verdict["causes"]
    assert cause["role"] == "setter" and cause["scope"] == "test", cause
    assert cause["name"] == SETTER and cause["tests"] == [SETTER], cause
    assert cause["confidence"] >= 0.99 and 0.5 < cause["rate"] <= 1, cause
    assert cause["evidence"][0].startswith("passes "), cause
    assert verdict["culprits"] == [SETTER]
    assert verdict["history_runs"] == 1
    assert Path(verdict["reproducer"]).read_text().split() == [VICTIM]
    assert Path(verdict["passing_list"]).read_text().split() == [SETTER, VICTIM]
    # `runs` is the hunt's: both phases' runs, each once (the victim alone belongs to both)
    journal = next((suite / ".isolate").glob("*/journal.jsonl")).read_text().splitlines()
    assert verdict["runs"] == len(journal), (verdict["runs"], len(journal))
    status = isolate(suite, "status")
    assert f"leading: setter {SETTER} (" in status.stdout, status.stdout
    # verify re-runs the reproducer (the victim alone, which fails) instead of refusing the verdict
    checked = isolate(suite, "verify", VICTIM, "--json")
    assert checked.returncode == 1, checked.stderr
    assert json.loads(checked.stdout)["verdict"] == "still-fails", checked.stdout
    # the two lists replay as the verdict says: the reproducer fails, the passing list passes
    fails = isolate(suite, "replay", verdict["reproducer"], "--times", "2", "--json")
    assert fails.returncode == 1 and json.loads(fails.stdout)["outcomes"]["fail"] == 2, fails.stdout
    passes = isolate(suite, "replay", verdict["passing_list"], "--times", "2", "--json")
    assert passes.returncode == 0 and json.loads(passes.stdout)["outcomes"]["pass"] == 2, passes.stdout


def test_the_setter_phase_waits_until_the_victim_fails_alone_more_often_than_not(tmp_path: Path) -> None:
    """2 failures in 2 runs alone leave 1 chance in 8 that it fails alone less than half the time
    (no setter could be told apart then): one job at a time it runs alone until 4/4 (0.97)."""
    suite = recorded(tmp_path)
    proc = isolate(suite, "bisect", VICTIM, "--max-runs", "400", "--jobs", "1", "--no-fork-server")
    assert proc.returncode == 6, proc.stderr
    before = proc.stderr[:proc.stderr.index("looking for a state-setter")]
    assert "does it fail on its own more often than not?" in before, before
    [alone] = {line.split("step ")[1].split(":")[0].removesuffix(" again") for line in before.splitlines() if "0 predecessors + victim" in line}
    journal = [json.loads(line) for line in next((suite / ".isolate").glob("*/journal.jsonl")).read_text().splitlines()]
    runs = [e["outcome"] for e in journal if e["step"] == int(alone) and "phase" not in e]
    assert runs == ["fail"] * 4, runs


def test_text_verdict_and_resume(tmp_path: Path) -> None:
    """The text names the setter's role and both lists; a second bisect runs nothing new and
    reaches the same verdict from the journal (the two phases' lists are told apart)."""
    suite = recorded(tmp_path)
    first = isolate(suite, "bisect", VICTIM, "--max-runs", "400", "--fork-server")  # (kept for the resume)
    assert first.returncode == 6, first.stderr
    assert "brittle" in first.stdout and f"{SETTER}  [setter, test;" in first.stdout, first.stdout
    assert "passing.txt" in first.stdout and "reproducer.txt" in first.stdout, first.stdout
    # the HTML page offers the same: the list that passes, and the fix
    page = isolate(suite, "report", VICTIM, "--html", "-").stdout
    assert "/passing.txt --times 20    # passes: the state-setter(s) first" in page, page
    assert "Fix: give the victim the setup the state-setter(s) do" in page
    assert "The reproducer, the victim alone, which fails without its state-setters:" in page
    journal = next((suite / ".isolate").glob("*/journal.jsonl"))
    lines = journal.read_text().count("\n")
    again = isolate(suite, "bisect", VICTIM, "--max-runs", "400")
    assert again.returncode == 6, again.stderr
    assert journal.read_text().count("\n") == lines
    assert "not match a step file" not in again.stderr, again.stderr
    page = isolate(suite, "report", VICTIM, "--html", "-")
    assert page.returncode == 0, page.stderr
    table = page.stdout[page.stdout.index('id="cause-table"'):]
    table = table[:table.index("</table>")]
    assert SETTER.rsplit(".", 1)[1] in table and "setter, test" in table, table
    # the setter is named what it is, as the text names it, never a "cause" of the failure
    assert "<th>state-setter</th>" in table and "<th>cause</th>" not in table, table
    header = page.stdout[page.stdout.index("<header>"):page.stdout.index("</header>")]
    assert "<p>state-setter: " in header and "cause" not in header, header
    # and the predecessors are counted as the text counts them: those the setter was sought among
    others = int(re.search(r"the (\d+) other predecessors", first.stdout).group(1))  # type: ignore[union-attr]
    counted = re.search(r"<li><b>(\d+)</b> predecessors tried as state-setters</li>", header)
    assert counted is not None and int(counted.group(1)) == others + 1, (others, header)


def test_from_one_failing_parallel_run_the_setter_is_found_in_the_other_worker(tmp_path: Path) -> None:
    """No stored run where the victim passed: the setter phase tries the rest of the failing run,
    every worker's tests in the order they started, sees the victim pass after them and finds the
    setter among them."""
    suite = copy_suite(SUITE, tmp_path)
    assert stestr_run(suite, "--concurrency", "2").returncode == 1
    assert isolate(suite, "extract", "--test", VICTIM).returncode == 0
    proc = isolate(suite, "bisect", VICTIM, "--max-runs", "400", "--fork-server")  # (the default mode's: test_brittle_victim...)
    assert proc.returncode == 6, proc.stderr
    assert "does it pass after the" in proc.stderr and "in the order the whole suite ran" in proc.stderr
    code, verdict = bisect(suite)
    assert (code, verdict["verdict"], verdict["culprits"]) == (6, "brittle", [SETTER]), verdict
    assert verdict["history_runs"] == 0


def test_without_any_run_to_take_setters_from_it_stays_fails_alone(tmp_path: Path) -> None:
    """--no-history and the stored runs gone: no test is known to have run with it passing, so
    no setter hunt: `fails-alone`, exit 3."""
    suite = recorded(tmp_path)
    for run in (suite / ".stestr").iterdir():
        if run.name.isdigit():
            run.unlink()
    code, verdict = bisect(suite, "--no-history")
    assert (code, verdict["verdict"]) == (3, "fails-alone"), verdict
    assert verdict["causes"] == []


def test_a_setter_phase_without_a_setter_counts_its_runs(tmp_path: Path) -> None:
    """The budget runs out in the setter phase: `fails-alone`, and `runs` counts every run of
    both phases (the victim alone belongs to both: once), which --max-runs caps together."""
    suite = recorded(tmp_path)
    code, verdict = bisect(suite, "--max-runs", "12")
    assert (code, verdict["verdict"]) == (3, "fails-alone"), verdict
    assert verdict["evidence"][-1] == ("no state-setter found: the budget ran out (--max-runs 12 reached: give a"
                                       " larger one to go on)"), verdict["evidence"]
    journal = next((suite / ".isolate").glob("*/journal.jsonl")).read_text().splitlines()
    evidence = [line for line in journal if json.loads(line)["outcome"] in ("pass", "fail")]
    assert verdict["runs"] == len(evidence) and len(journal) <= 12, (verdict["runs"], len(journal))


def test_progress_says_the_finding_once_and_passes_alone_in_the_setter_phase(tmp_path: Path) -> None:
    suite = recorded(tmp_path)
    # fresh processes throughout: the fork check's runs of the victim alone would be evidence too,
    # and the leaders the progress shows depend on the evidence (the verdict does not: 6 either way)
    proc = isolate(suite, "bisect", VICTIM, "--max-runs", "400", "--no-fork-server")
    assert proc.returncode == 6, proc.stderr
    assert proc.stderr.count("finding: fails on its own") == 1, proc.stderr
    polluter, setter = proc.stderr.split("looking for a state-setter")
    assert "leading: fails alone" in polluter and "passes alone" in setter, proc.stderr
    assert "fails alone" not in setter, setter
