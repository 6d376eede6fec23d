"""`isolate bisect --cleaners` end to end: real stestr runs of sample_suites/cleaner_polluter, real
hunts, real replays.

The contract: the verdict stays `polluter` (exit 0); `cleaners` lists the tests that, run between
the polluter and the victim, make it pass, each with the polluter it cleans, a pass rate, a
confidence and its evidence; without --cleaners there is no `cleaners` key.  The cleaner phase's
journal entries carry their phase, so the polluter search never reads them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import isolate, journal_of as journal, serial_recording

SUITE = "cleaner_polluter"
VICTIM = "ledgerkit.tests.test_summary.SummaryHeaderTest.test_header_uses_default_currency"
POLLUTER = "ledgerkit.tests.test_options.SetOptionTest.test_set_default_currency"
CLEANERS = {"ledgerkit.tests.test_defaults.ResetTest.test_reset_restores_factory_defaults",
            "ledgerkit.tests.test_defaults.ResetTest.test_reset_keeps_the_dict"}


def recorded(tmp_path: Path) -> Path:
    """The suite with one serial stestr run (the cleaners ran before the polluter: the victim
    failed), extracted."""
    suite, order = serial_recording(SUITE, tmp_path, VICTIM)
    assert CLEANERS <= set(order) and order.index(POLLUTER) > max(order.index(c) for c in CLEANERS)
    return suite


def bisect(suite: Path, *args: str) -> dict[str, Any]:
    proc = isolate(suite, "bisect", VICTIM, "--json", "--max-runs", "300", *args)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_the_cleaners_are_named_as_hints_of_the_polluter_verdict(tmp_path: Path) -> None:
    suite = recorded(tmp_path)
    verdict = bisect(suite, "--cleaners")
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == [POLLUTER], verdict
    [hint] = verdict["cleaners"]
    assert hint["polluter"] == POLLUTER and set(hint["tests"]) == CLEANERS, hint
    assert hint["confidence"] >= 0.99 and 0.5 < hint["rate"] <= 1, hint
    assert hint["evidence"][0].startswith("passes ") and "between the polluter and it" in hint["evidence"][0], hint
    entries = journal(suite)
    phased = [e for e in entries if e.get("phase") not in (None, "fork-check")]  # not the fork check's runs
    assert phased and {e["phase"] for e in phased} == {f"cleaners:{POLLUTER}"}
    hunt = next((suite / ".isolate").glob("*/"))
    for step in {e["step"] for e in phased}:  # every list of the phase runs the polluter first
        assert (hunt / f"step-{step:03d}.txt").read_text().split()[0] == POLLUTER
    assert verdict["runs"] == len(entries)  # the cleaner phase's runs count too
    cleaned = tmp_path / "cleaned.txt"
    cleaned.write_text(f"{POLLUTER}\n{sorted(CLEANERS)[0]}\n{VICTIM}\n")
    passes = isolate(suite, "replay", str(cleaned), "--times", "2", "--json")
    assert passes.returncode == 0 and json.loads(passes.stdout)["outcomes"]["pass"] == 2, passes.stdout


def test_text_hint_html_and_resume(tmp_path: Path) -> None:
    """The text says what to look at; a second bisect runs nothing new and gives the same hints
    (the polluter search does not read the cleaner phase's runs); the HTML report lists them."""
    suite = recorded(tmp_path)
    first = isolate(suite, "bisect", VICTIM, "--cleaners", "--max-runs", "300", "--fork-server")  # (kept for the resume)
    assert first.returncode == 0, first.stderr
    assert f"run after {POLLUTER}, any test of ledgerkit.tests.test_defaults.ResetTest makes it pass" in first.stdout
    assert "look at what the class's tests (or its setUp) reset" in first.stdout, first.stdout
    before = journal(suite)
    again = bisect(suite)  # --cleaners is stored in the hunt, like --further
    assert journal(suite) == before
    assert again["verdict"] == "polluter" and set(again["cleaners"][0]["tests"]) == CLEANERS, again
    assert not any("not match a step file" in line for line in again["evidence"])
    page = isolate(suite, "report", VICTIM, "--html", "-")
    assert page.returncode == 0, page.stderr
    table = page.stdout[page.stdout.index('id="cleaners"'):]
    table = table[:table.index("</table>")]
    assert "test_reset_keeps_the_dict" in table and "test_set_default_currency" in table, table


def test_without_cleaners_asked_there_is_no_cleaner_phase(tmp_path: Path) -> None:
    suite = recorded(tmp_path)
    verdict = bisect(suite)
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == [POLLUTER], verdict
    assert "cleaners" not in verdict
    assert not any(e.get("phase") not in (None, "fork-check") for e in journal(suite))  # the fork check's runs only


def test_a_journal_entry_keeps_its_phase_and_a_bad_one_is_skipped() -> None:
    from isolate.hunt.journal import parse_entry

    line = b'{"step": 3, "outcome": "pass", "reproduced": false, "seconds": 0.2, "phase": "cleaners:t"}'
    entry, why = parse_entry(line)
    assert entry is not None and entry.phase == "cleaners:t" and why == ""
    assert parse_entry(line.replace(b'"phase": "cleaners:t"', b'"phase": 7')) == (
        None, "hung, executor, phase or after is not text")
    crash = b'{"step": 3, "outcome": "crash", "reproduced": false, "seconds": 0.2, "after": "a.T.test_x"}'
    assert parse_entry(crash)[0].after == "a.T.test_x"  # type: ignore[union-attr]
    assert parse_entry(crash.replace(b'"a.T.test_x"', b'["a.T.test_x"]'))[0] is None
    plain, _ = parse_entry(b'{"step": 3, "outcome": "pass", "reproduced": false, "seconds": 0.2}')
    assert plain is not None and plain.phase is None


def test_the_verdict_counts_the_cleaner_phase_in_its_time_and_says_whose_runs_it_tallies(tmp_path: Path) -> None:
    """The verdict said '28 runs in 1s, 2s of test time' and 'fails 5/14 over all runs': its test
    time and that line left the cleaner phase's 14 runs out (a later session said 4s)."""
    suite = recorded(tmp_path)
    verdict = bisect(suite, "--cleaners")
    entries = journal(suite)
    assert verdict["runs"] == len(entries)
    assert abs(verdict["test_seconds"] - sum(e["seconds"] for e in entries)) < 0.01, verdict["test_seconds"]
    own = [e for e in entries if e.get("phase") in (None, "fork-check")]
    line = f"fails {sum(e['reproduced'] for e in own)}/{len(own)} over the search's runs (then {len(entries) - len(own)}" \
           " runs of the cleaner search)"
    assert line in verdict["evidence"], verdict["evidence"]
    assert not any(e.endswith("over all runs") for e in verdict["evidence"])
    again = bisect(suite, "--max-runs", "301")  # read again from the journal: the same figures
    assert (again["test_seconds"], again["evidence"]) == (verdict["test_seconds"], verdict["evidence"])
