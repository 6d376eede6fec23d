"""`isolate bisect --repeat-victim K` end to end: real stestr runs of sample suites, real hunts.

The contract: every run executes the victim K times at the end of its list (the journal keeps
what each execution did) after a check of CHECK_RUNS runs of the victim alone; a victim that
pollutes itself turns repeats off and every run then counts by its first execution, so the
verdict is the one single runs would give; a victim that fails alone often gets fewer
executions per run; the setting is fixed once the hunt has runs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import (FA_VICTIM, assert_user_error, copy_suite, fails_alone_recording, isolate, load_runs, record_failure,
                      recording, stestr_run)
from isolate.hunt.evidence import evidence
from isolate.hunt.journal import Entry, append_journal, read_journal
from isolate.hunt.repeatcheck import OFF, ON, _decide, _single_runs, _together, executing, held, left_out, repeat_text
from isolate.hunt.store import (FORK_CHECK_PHASE, Hunt, ahead_waiting, executions_of, read_repeat_auto, read_steps, repeat_of,
                                 step_for)
from isolate.report.html import _observations_after_each_entry
from isolate.running.project import find_project
from isolate.running.runner import Runner
from isolate.search.repeats import ALIKE_RUNS, AUTO_AFTER, AUTO_K, AUTO_ROOM, CHECK_RUNS, HISTORY_MOST, choose

SP_VICTIM = "tokenstore.tests.test_tokens.FirstTokenTest.test_first_token_is_number_one"
SP_POLLUTER = "tokenstore.tests.test_session.SessionTest.test_login_issues_token"
# Hunts whose subject is a setting, a resume or the words fork from the start (--fork-server: half
# the CPU of fresh runs; a hunt keeps its mode for resumes). Those that count the runs of a hunt
# in the default mode, the fork check's among them, keep it.
FORK = "--fork-server"


def self_polluter(tmp_path: Path) -> Path:
    return recording("self_polluter", tmp_path, SP_VICTIM)


def fails_alone(tmp_path: Path) -> Path:
    """sample_suites/fails_alone with a stored run in which the victim passed, then one in which
    it failed, extracted (conftest.fails_alone_recording)."""
    return fails_alone_recording(tmp_path)


def others(suite: Path) -> int:
    """The suite's stored runs but the one its hunt was extracted from: the hunt's history."""
    return sum(p.name.isdigit() for p in (suite / ".stestr").iterdir()) - 1


def hunt_dir(suite: Path) -> Path:
    return next((suite / ".isolate").glob("*/"))


def journal(suite: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (hunt_dir(suite) / "journal.jsonl").read_text().splitlines()]


def assert_single_but_the_check(suite: Path, start: int, culprit: str, victim: str) -> None:
    """From journal entry `start` on, every run executed the victim once, but the stop check's
    (its runs of the rest, the order without the culprit, and the shorter lists beside them on
    several workers), which executed it AUTO_K times. The fork check may come after the stop check
    (under load it did): it runs the lists the hunt ran, the rest among them, as runs are now."""
    h = Hunt(hunt_dir(suite), json.loads((hunt_dir(suite) / "hunt.json").read_text()))
    steps = read_steps(h)
    rest = [t for t in h.order() if t not in (culprit, victim)]
    later = journal(suite)[start:]
    again = [e for e in later if "executions" in e]
    assert all(len(e["executions"]) == AUTO_K for e in again), again
    assert any(list(steps[e["step"]][:-1]) == rest for e in again), again
    assert all(list(steps[e["step"]][:-1]) != rest for e in later
               if "executions" not in e and e.get("phase") != FORK_CHECK_PHASE), later


def test_a_victim_that_pollutes_itself_turns_repeats_off(tmp_path: Path) -> None:
    suite = self_polluter(tmp_path)
    proc = isolate(suite, "bisect", SP_VICTIM, "--repeat-victim", "4", "--json", "--max-runs", "300")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == [SP_POLLUTER], verdict
    check = json.loads((hunt_dir(suite) / "repeat-check.json").read_text())
    assert (check["state"], check["repeat"], check["used"]) == ("off", 4, 1), check
    entries = journal(suite)
    repeated = [e for e in entries if "executions" in e]
    # judged on all four executions, the victim alone failed every time: "fails on its own", the
    # answer repeats would have misled to; on its first execution it never failed
    assert len(repeated) == CHECK_RUNS and all(e["executions"] == "prrr" and e["reproduced"] for e in repeated)
    assert all("executions" not in e for e in entries[CHECK_RUNS:])  # single runs after the check
    assert any(line.startswith("repeats: off: later executions fail more often") for line in verdict["evidence"])
    assert any(line.startswith("fails 0/") and line.endswith("alone (no predecessors)") for line in verdict["evidence"])
    assert verdict["findings"] == []
    repeats = verdict["repeats"]
    assert (repeats["asked"], repeats["used"], repeats["state"]) == (4, 1, "off"), repeats
    assert repeats["summary"].startswith("off: later executions fail more often"), repeats
    assert "  repeats: off: later executions" in isolate(suite, "status", SP_VICTIM).stdout
    assert "repeats: off: later executions" in isolate(suite, "log", SP_VICTIM).stdout
    # status, log and the report count reproductions as the verdict does, by the first execution:
    # they said '15 reproduced' and 'victim alone, 10 runs, 10 reproduced' beside 'fails 5/22'
    [fails, runs] = next(re.fullmatch(r"fails (\d+)/(\d+) over all runs", line).groups()  # type: ignore[union-attr]
                         for line in verdict["evidence"] if line.endswith("over all runs"))
    assert f"{runs} runs, {fails} reproduced," in isolate(suite, "status", SP_VICTIM).stdout
    log = isolate(suite, "log", SP_VICTIM).stdout
    assert re.search(rf"0 predecessors \+ victim, +{CHECK_RUNS} runs, +0 reproduced", log), log
    out = suite / "report.html"
    assert isolate(suite, "report", SP_VICTIM, "--html", str(out)).returncode == 0
    assert f"<li><b>{fails}</b> reproduced the failure</li>" in out.read_text()


def test_a_rare_failure_alone_is_found_with_fewer_executions_than_asked(tmp_path: Path) -> None:
    """The victim fails 1 execution in 20 on its own: K = 24 would make a run of it alone fail
    more than half of the time, so the check lowers K (it keeps 24 only if the check's 240
    executions alone failed once or never: about 1 time in 10,000); the verdict's finding counts
    first executions only. On one worker, where a held verdict's runs of the victim alone execute
    it as often as asked (on several, `used` times: test_a_held_verdict_runs_the_victim_alone_as_often...)."""
    suite = fails_alone(tmp_path)
    proc = isolate(suite, "bisect", FA_VICTIM, "--repeat-victim", "24", "--json", "--confidence", "0.999",
                   "--jobs", "1", SAMPLE_RACE_RATE="0.05")
    assert proc.returncode == 3, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "fails-alone", verdict
    check = json.loads((hunt_dir(suite) / "repeat-check.json").read_text())
    entries = journal(suite)
    assert all(len(e["executions"]) == 24 for e in entries[:CHECK_RUNS])
    [finding] = verdict["findings"]
    if check["state"] == "off":
        # a false alarm of the exact test (at most 1 hunt in 20 before the search, 1 in 100 at
        # each verdict): single runs from then on, every run counted by its first execution
        assert check["used"] == 1 and "later executions fail more often" in check["summary"], check
        repeated = [i for i, e in enumerate(entries) if "executions" in e]
        assert repeated == list(range(len(repeated)))  # the K-fold runs first, single runs after
        assert f"{len(repeated)} runs of up to 24 executions" in check["summary"], check
        assert finding.startswith("fails on its own: ") and finding.endswith(" alone"), finding
        return
    assert 1 < check["used"] < 24, check
    # the counts say what they count: runs by their first execution, executions after it
    assert re.search(r"runs of up to 24 executions: \d+ reproduced on their first execution, and \d+ later"
                     r" executions reproduced it; alone: \d+/\d+ on the first", check["summary"]), check
    # the decision and what it was decided on, a line each where people read them (QA: 600 characters in one)
    assert check["summary"] == f"{check['decision']} (checked: {check['checked']})", check
    assert verdict["repeats"] == {"asked": 24, "auto": False, "ahead": False, "used": check["used"], "state": "on",
                                  "summary": check["decision"], "checked": check["checked"]}, verdict["repeats"]
    said = "\n".join(verdict["evidence"])
    assert f"\nrepeats: {check['decision']}\nrepeats checked on: {check['checked']}" in said, said
    # what a run's count means while it executes the victim several times (QA: "fails 3/10 alone" beside
    # "alone: 1/10 on the first")
    assert said.endswith(f"\nrepeats count: each 'fails N/M' counts runs, a run failing when any of its"
                         f" {check['used']} executions of the victim does"), said
    # the search's runs execute the victim `used` times; a held verdict's runs of it alone as asked
    # (isolate.search.repeats.stance: more of them tell the check), judged on their first `used`
    queries = [json.loads(line) for line in (hunt_dir(suite) / "queries.jsonl").read_text().splitlines()]
    held = {i for q in queries if q["reason"].startswith("repeats: the victim alone")
            for i in range(q["from"], q["from"] + q["runs"])}
    assert all(len(e.get("executions", "")) == (24 if i in held else check["used"])
               for i, e in enumerate(entries) if i >= CHECK_RUNS and e["outcome"] in ("pass", "fail"))
    assert " alone on a first execution (" in finding and f"runs of {check['used']} executions failed" in finding
    alone = [e for e in entries if e["outcome"] in ("pass", "fail")]
    first = sum(e["executions"][0] == "r" for e in alone if e["step"] == entries[0]["step"])
    assert finding.startswith(f"fails on its own: {first}/")
    # the stored runs stay the chain's prior beside the K-fold runs (isolate.hunt.evidence)
    assert verdict["history_runs"] == others(suite)
    # K is the most at which the victim alone would fail at most Q_MAX of the runs, by the check's
    # own runs' estimate (isolate.search.repeats.choose, tested there). A statistical bound on the
    # later runs alone (their failures no more than a binomial at Q_MAX gives with probability
    # 0.001) failed 1 CI run: a check whose 240 executions failed 3 times or fewer (1 hunt in 500
    # at 0.05) chooses K = 17 honestly, and its runs then fail about half the time
    assert check["used"] == choose([e["executions"] for e in entries[:CHECK_RUNS]], 24), check
    k_fold_alone = [e["executions"][:check["used"]] for e in alone if e["step"] == entries[0]["step"]]
    assert k_fold_alone and all(len(e) == check["used"] for e in k_fold_alone), k_fold_alone
    # QA: the verdict's rate is a K-fold run's; the text says so, and gives one execution's beside it
    text = isolate(suite, "bisect", FA_VICTIM).stdout  # the finished hunt's verdict again, as text
    assert f"a run of repeats ({check['used']} executions of the victim), " in text and " an execution (a run of" \
        " the suite), whatever ran before it" in text, text
    # verify runs as the hunt did, and says so (QA: its rate looked wrong for a run of one execution)
    checked = isolate(suite, "verify", FA_VICTIM, "--jobs", "1", SAMPLE_RACE_RATE="0.05")
    assert checked.returncode == 1 and checked.stdout.startswith("still fails: "), checked.stdout
    assert re.search(rf"\n  estimated failure rate before the fix: \S+ a run \({check['used']} executions of the victim"
                     r" each, as in the hunt\); ", checked.stdout), checked.stdout


def test_the_number_of_executions_is_fixed_once_the_hunt_has_runs(tmp_path: Path) -> None:
    suite = self_polluter(tmp_path)
    first = isolate(suite, "bisect", SP_VICTIM, "--repeat-victim", "4", "--max-runs", "5", "--json", FORK)
    # the budget ran out within the check; "fails on its own" by K-fold runs whose first
    # executions alone never failed cannot stand, so repeats are off, and on their first
    # executions the victim never failed
    assert first.returncode == 4 and json.loads(first.stdout)["verdict"] == "not-reproduced", first.stdout
    check = json.loads((hunt_dir(suite) / "repeat-check.json").read_text())
    assert len(journal(suite)) == 5 and check["used"] == 1, check
    assert "no run of the victim alone failed on its first execution in 5 runs, and the budget leaves no room" in \
        check["summary"], check
    assert_user_error(isolate(suite, "bisect", SP_VICTIM, "--repeat-victim", "3"), "--repeat-victim 3",
                      "made with its 4 executions per run")
    assert_user_error(isolate(suite, "bisect", SP_VICTIM, "--strategy", "manual"), "--strategy manual")
    resumed = isolate(suite, "bisect", SP_VICTIM, "--max-runs", "300", "--json")  # single runs from here
    assert resumed.returncode == 0, resumed.stderr
    assert sum("executions" in e for e in journal(suite)) == 5
    assert json.loads(resumed.stdout)["culprits"] == [SP_POLLUTER]


def test_an_interrupted_check_goes_on_where_it_stopped(tmp_path: Path) -> None:
    suite = fails_alone(tmp_path)
    first = isolate(suite, "bisect", FA_VICTIM, "--repeat-victim", "3", "--max-runs", "7", FORK, SAMPLE_RACE_RATE="0")
    assert first.returncode in (4, 5) and not (hunt_dir(suite) / "repeat-check.json").exists(), first.stderr
    resumed = isolate(suite, "bisect", FA_VICTIM, "--max-runs", "30", "--json", SAMPLE_RACE_RATE="0")
    assert resumed.returncode == 4, resumed.stderr  # never fails at rate 0
    entries = journal(suite)
    assert [len(e["executions"]) for e in entries[:CHECK_RUNS]] == [3] * CHECK_RUNS, entries
    check = json.loads((hunt_dir(suite) / "repeat-check.json").read_text())
    assert (check["state"], check["used"]) == ("on", 3)


def test_repeats_start_by_themselves_once_the_first_runs_passed(tmp_path: Path) -> None:
    """Without --repeat-victim, one run at a time: AUTO_AFTER single runs that all passed (the
    victim never fails in the first session), then the check and K-fold runs; while K > 1 the
    single runs are read as stored runs are (the chain's prior) and count in the verdict's runs
    once. The second session (the victim now
    fails 1 time in 20) goes on with K-fold runs to "fails on its own"; --repeat-victim 1 then
    counts every run by its first execution, the single ones again included."""
    suite = fails_alone(tmp_path)
    # forks from the start, kept for the resumes: no fork check, which would compare runs at the
    # two sessions' rates (the subject is when repeats start and how runs count, not the mode)
    first = isolate(suite, "bisect", FA_VICTIM, "--max-runs", "60", "--json", FORK, "--jobs", "1",
                    SAMPLE_RACE_RATE="0")
    assert first.returncode == 4 and json.loads(first.stdout)["verdict"] == "not-reproduced", first.stdout
    auto = json.loads((hunt_dir(suite) / "repeat-auto.json").read_text())
    single = auto["from"]  # the first query's runs, at least AUTO_AFTER
    assert auto["repeat"] == AUTO_K and AUTO_AFTER <= single < 20, auto
    assert f"{single} runs passed: from run {single + 1} on, each run executes the victim" in auto["why"]
    assert f"  repeats: started by themselves after {single} single runs passed; " in isolate(suite, "status", FA_VICTIM).stdout
    entries = journal(suite)
    assert len(entries) == 60 and all("executions" not in e for e in entries[:single])
    assert all(len(e["executions"]) == AUTO_K for e in entries[single:]), entries
    assert json.loads(first.stdout)["runs"] == 60
    resumed = isolate(suite, "bisect", FA_VICTIM, "--max-runs", "3000", "--json", "--jobs", "1", SAMPLE_RACE_RATE="0.05")
    assert resumed.returncode == 3, resumed.stderr
    verdict = json.loads(resumed.stdout)
    assert verdict["verdict"] == "fails-alone" and verdict["runs"] == len(journal(suite)), verdict
    assert verdict["repeats"]["auto"] is True and verdict["repeats"]["asked"] == AUTO_K, verdict["repeats"]
    assert verdict["repeats"]["ahead"] is False
    assert verdict["repeats"]["summary"].startswith(f"started by themselves after {single} single runs passed")
    assert verdict["history_runs"] == others(suite)
    # the HTML report's chart reads the evidence as the hunt does: the single runs read as stored ones
    hunt = Hunt(hunt_dir(suite), json.loads((hunt_dir(suite) / "hunt.json").read_text()))
    ev = evidence(hunt)
    counted = _observations_after_each_entry(hunt, ev, read_journal(hunt)[0])
    stored = verdict["history_runs"]  # first, and kept
    assert ev.early == single and sum(o.stored for o in ev.observations) == stored + single
    assert not any(o.stored for o in ev.observations[stored + single:])
    # the history's runs may be stale; the single runs were this hunt's, in its own order
    assert [o.here for o in ev.observations[:stored + single]] == [False] * stored + [True] * single
    assert counted[single] == stored + single and counted[-1] == len(ev.observations) == verdict["runs"] + stored, counted
    once = isolate(suite, "bisect", FA_VICTIM, "--repeat-victim", "1", "--json", SAMPLE_RACE_RATE="0.05")
    assert once.returncode == 3, once.stderr
    counted = json.loads(once.stdout)
    # every run counted again, by its first execution: the single runs before repeats included
    assert "repeats" not in counted and counted["runs"] == len(journal(suite)), counted
    # starting over sets the decision aside with the runs: the new hunt starts with single runs
    assert isolate(suite, "extract", "--test", FA_VICTIM, "--force").returncode == 0
    aside = max(hunt_dir(suite).glob("replaced-*"))  # the newest (fails_alone may have set others aside)
    assert (aside / "repeat-auto.json").exists() and not (hunt_dir(suite) / "repeat-auto.json").exists()


def test_repeats_run_ahead_from_the_first_run_on_two_workers(tmp_path: Path) -> None:
    """Without --repeat-victim, two runs at a time: every run executes the victim K times from the
    first one and counts by its first execution until the check, which starts once AUTO_AFTER runs
    passed; then every run counts K-fold, none left out (the HTML chart reads them so too). A
    deterministic polluter stops the extra executions after ALIKE_RUNS runs, before any check,
    and the hunt goes on as on one worker."""
    suite = fails_alone(tmp_path)
    # forks from the start, kept for the resume: no fork check to compare runs at the two sessions' rates
    first = isolate(suite, "bisect", FA_VICTIM, "--max-runs", "60", "--json", FORK, "--jobs", "2",
                    SAMPLE_RACE_RATE="0")
    assert first.returncode == 4 and json.loads(first.stdout)["verdict"] == "not-reproduced", first.stdout
    auto = json.loads((hunt_dir(suite) / "repeat-auto.json").read_text())
    assert (auto["repeat"], auto["from"], auto["ahead"], auto["checking"]) == (AUTO_K, 0, True, True), auto
    entries = journal(suite)
    assert len(entries) == 60 and all(len(e["executions"]) == AUTO_K for e in entries), entries
    check = json.loads((hunt_dir(suite) / "repeat-check.json").read_text())
    assert check["state"] == "on" and check["used"] > 1, check
    hunt = Hunt(hunt_dir(suite), json.loads((hunt_dir(suite) / "hunt.json").read_text()))
    ev = evidence(hunt)
    assert ev.history[0] == others(suite) and len(ev.observations) == ev.history[0] + 60  # no run left out
    assert _observations_after_each_entry(hunt, ev, read_journal(hunt)[0])[1] == ev.history[0] + 1
    resumed = isolate(suite, "bisect", FA_VICTIM, "--max-runs", "3000", "--json", "--jobs", "2", SAMPLE_RACE_RATE="0.05")
    assert resumed.returncode == 3, resumed.stderr
    verdict = json.loads(resumed.stdout)
    assert verdict["verdict"] == "fails-alone" and verdict["runs"] == len(journal(suite)), verdict
    assert (verdict["repeats"]["ahead"], verdict["repeats"]["state"]) == (True, "on"), verdict["repeats"]
    assert verdict["repeats"]["summary"].startswith("from the first run, each counted by its first execution until the"
                                                    f" check; then {AUTO_K} executions per run"), verdict
    assert verdict["repeats"]["checked"] == check["checked"], verdict["repeats"]
    assert re.match(rf"\d+ runs of up to {AUTO_K} executions: ", check["checked"]), check

    other = recording("deterministic_polluter", tmp_path / "other", DP_VICTIM)  # one stestr run, extracted
    proc = isolate(other, "bisect", DP_VICTIM, "--json", FORK, "--jobs", "2")
    assert proc.returncode == 0 and json.loads(proc.stdout)["culprits"] == [DP_CULPRIT], proc.stdout
    made = [len(e.get("executions") or "x") for e in journal(other)]
    k_fold = made.index(1) if 1 in made else len(made)  # the runs made before the decision
    assert ALIKE_RUNS <= k_fold < len(made) and set(made[:k_fold]) == {AUTO_K}, made
    repeats = json.loads(proc.stdout)["repeats"]
    assert (repeats["asked"], repeats["used"], repeats["ahead"], repeats["state"]) == (AUTO_K, 1, True, "off"), repeats
    said = json.loads(proc.stdout)["evidence"]
    checked = hunt_dir(other) / "repeat-check.json"
    if checked.exists():  # the first wave's prefixes missed the polluter and passed: the check started
        # (isolate.search.repeats.automatic), then the runs failing together, nothing flaky, stopped it
        check = json.loads(checked.read_text())
        assert (check["state"], check["used"]) == ("off", 1) and "on all its executions" in check["summary"], check
        assert f"repeats: {repeats['summary']}" in said and f"repeats checked on: {check['checked']}" in said, said
    else:  # every run that reproduced held the polluter, which never passed: the extra executions
        # stop (no check, nothing turned off: repeats would start by themselves if the hunt turned flaky)
        auto = json.loads((hunt_dir(other) / "repeat-auto.json").read_text())
        assert k_fold == auto["stopped"], (made, auto)
        assert "each holding a test that never passed" in auto["why"] and f"from run {k_fold + 1} on" in auto["why"]
        assert repeats["summary"].startswith(f"{AUTO_K} executions per run from the first one, counted by the first;"
                                             f" stopped after {k_fold} runs: every one of"), repeats
        # the reason on a line of its own where people read it (QA: lines of 600 characters)
        assert said[-2:] == [f"repeats: {AUTO_K} executions per run from the first one, counted by the first; stopped"
                             f" after {k_fold} runs", f"repeats stopped as: {auto['why']}"], said
    # single runs from there, but the stop check's runs of the rest: they execute the victim again
    # (judged on the first), a flaky cause beside the deterministic one would show in a later one
    assert_single_but_the_check(other, k_fold, DP_CULPRIT, DP_VICTIM)


def test_ahead_a_run_whose_executions_disagree_starts_the_check_after_the_first_wave(tmp_path: Path) -> None:
    """Two runs at a time, the victim failing 0.6 of its executions on its own: the first wave's
    two runs each execute it K times, and a run whose executions both reproduced the failure and
    passed shows a flaky cause whatever the first executions say, so the check starts with run 3.
    (Read by first executions alone, without stored runs, the wave starts it only when both passed,
    or the shorter list failed and the longer passed: 0.4 of such hunts. Both runs' executions all
    alike: 4e-5.) The hunt reads no stored runs: the stored run it is extracted from is the one the
    other tests here share, made at rate 1."""
    suite = fails_alone(tmp_path)
    proc = isolate(suite, "bisect", FA_VICTIM, "--max-runs", "60", "--json", FORK, "--jobs", "2",
                   "--no-history", SAMPLE_RACE_RATE="0.6")
    assert proc.returncode in (3, 5), proc.stderr  # fails-alone, or undecided within 60 runs
    auto = json.loads((hunt_dir(suite) / "repeat-auto.json").read_text())
    assert auto["ahead"] is True and auto["checking"] is True, auto
    assert auto["why"].endswith("the check runs from run 3"), auto["why"]
    first_wave = journal(suite)[:2]
    assert all(len(e["executions"]) == AUTO_K for e in first_wave), first_wave
    if all(e["executions"][0] == "r" for e in first_wave):
        # no list passed on its first execution, so those alone would not have started it: the log says what did
        assert "a run's executions both reproduced it and passed (a flaky cause)" in auto["why"], auto["why"]


SLOW_SETUP = """


def _slow(self: unittest.TestCase) -> None:
    time.sleep(0.3)


def _slow_down() -> None:  # (no class left in a module global: the loader would run its tests twice)
    for case in [c for c in list(globals().values()) if isinstance(c, type) and issubclass(c, unittest.TestCase)]:
        case.setUp = _slow


_slow_down()
"""


def test_ahead_the_first_wave_runs_the_victim_alone_in_its_idle_time(tmp_path: Path) -> None:
    """Four runs at a time, the tests of one module made slow in this copy, so that the first
    wave's prefixes differ in length: the victim alone runs beside them in the time the longest
    takes, each run executing it AUTO_K times as the wave's runs do (the check of the repeated
    executions counts such runs: isolate.search.strategies.causes._alone_beside)."""
    suite = copy_suite("fails_alone", tmp_path)
    slow = suite / "searchindex" / "tests" / "test_analysis.py"
    slow.write_text("import time\n" + slow.read_text() + SLOW_SETUP)
    # a serial run: every test before the victim in one worker; at rate 1 the victim fails in the
    # first (the hunt reads no stored runs: their rate does not matter)
    record_failure(suite, FA_VICTIM, "--serial", SAMPLE_RACE_RATE="1")
    # room for the check (executions run ahead only then), and a budget: the first waves are the question
    proc = isolate(suite, "bisect", FA_VICTIM, "--jobs", "4", "--max-runs", str(AUTO_AFTER + AUTO_ROOM), "--time-budget",
                   "15s", "--json", "--no-history", "--no-fork-server", SAMPLE_RACE_RATE="0.05")
    assert proc.returncode in (0, 3, 4, 5), proc.stderr  # whatever the verdict
    queries = [json.loads(line) for line in (hunt_dir(suite) / "queries.jsonl").read_text().splitlines()]
    first = [q for q in queries if q["reason"] == queries[0]["reason"]]
    assert "in the wave's idle time" in first[0]["reason"], first[0]["reason"]
    times = int(first[0]["reason"].split("beside them, the victim alone ")[1].split(" time")[0])
    steps = read_steps(Hunt(hunt_dir(suite), json.loads((hunt_dir(suite) / "hunt.json").read_text())))
    alone = [q["step"] for q in first if list(steps[q["step"]]) == [FA_VICTIM]]
    assert len(alone) == 1 and len(first) == 5, first  # four prefixes and the victim alone
    wave = {q["step"] for q in first}
    made = [e for e in journal(suite)[:4 + times] if e["step"] in wave]
    assert sum(e["step"] == alone[0] for e in made) == times, made
    assert all(len(e.get("executions") or "") == AUTO_K for e in made), [(e["step"], e.get("executions")) for e in made]


def test_a_hunt_resumed_while_its_executions_run_ahead_keeps_counting_by_the_first(tmp_path: Path) -> None:
    """What a resumed session reads from repeat-auto.json and repeat-check.json: while the runs
    execute ahead of the check they count by their first execution and the runner executes K;
    once the check started (interrupted before it decided) they count K-fold, as repeats started
    the earlier way do; once it decided, what it kept."""
    suite = fails_alone(tmp_path)
    hunt = Hunt(hunt_dir(suite), json.loads((hunt_dir(suite) / "hunt.json").read_text()))
    assert (repeat_of(hunt), executions_of(hunt), ahead_waiting(hunt)) == (1, 1, False)
    auto = {"repeat": AUTO_K, "from": 0, "ahead": True, "why": "with 2 runs at once, ..."}
    (hunt.path / "repeat-auto.json").write_text(json.dumps(auto))
    assert (repeat_of(hunt), executions_of(hunt), ahead_waiting(hunt)) == (1, AUTO_K, True)
    assert repeat_text(hunt) == f"{AUTO_K} executions per run, counted by the first until repeats are worth checking"
    (hunt.path / "repeat-auto.json").write_text(json.dumps({**auto, "checking": True}))
    assert (repeat_of(hunt), executions_of(hunt), ahead_waiting(hunt)) == (AUTO_K, AUTO_K, False)
    (hunt.path / "repeat-check.json").write_text(json.dumps(
        {"repeat": AUTO_K, "used": 4, "state": "on", "summary": "4 executions per run (checked: ...)"}))
    assert (repeat_of(hunt), executions_of(hunt)) == (4, 4)
    assert repeat_text(hunt) == ("from the first run, each counted by its first execution until the check; then 4"
                                 " executions per run (checked: ...)")
    (hunt.path / "repeat-auto.json").write_text(json.dumps({**auto, "ahead": "yes"}))  # not as written
    assert read_repeat_auto(hunt) is None and repeat_of(hunt) == 1


def test_the_single_runs_before_repeats_are_told_as_they_went() -> None:
    """Repeats start after runs that all passed (a rare failure) or after runs of which some
    reproduced it (a flaky cause); the summary must not call the latter passes."""
    assert _single_runs({"from": 2, "why": "2 runs passed: from run 3 on, ..."}) == "2 single runs passed"
    assert (_single_runs({"from": 53, "why": "6 of 53 runs reproduced the failure: from run 54 on, ..."})
            == "53 single runs, 6 of which reproduced the failure")


def test_repeats_do_not_start_by_themselves_when_told_or_without_room(tmp_path: Path) -> None:
    """--repeat-victim 1 keeps single runs; so does a --max-runs with less than AUTO_ROOM runs
    left once the first runs passed (the check would eat the budget)."""
    suite = fails_alone(tmp_path)
    room = str(AUTO_AFTER + AUTO_ROOM + 3)  # enough for repeats to start, were they not told off
    told = isolate(suite, "bisect", FA_VICTIM, "--repeat-victim", "1", "--max-runs", room, FORK, SAMPLE_RACE_RATE="0")
    assert told.returncode == 4, told.stderr
    assert not (hunt_dir(suite) / "repeat-auto.json").exists() and all("executions" not in e for e in journal(suite))
    other = fails_alone(tmp_path / "other")
    small = isolate(other, "bisect", FA_VICTIM, "--max-runs", str(AUTO_AFTER + AUTO_ROOM - 1), FORK, SAMPLE_RACE_RATE="0")
    assert small.returncode == 4, small.stderr
    assert not (hunt_dir(other) / "repeat-auto.json").exists() and all("executions" not in e for e in journal(other))
    assert AUTO_AFTER < len(journal(other)) <= AUTO_AFTER + AUTO_ROOM - 1


DP_VICTIM = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
DP_CULPRIT = "reportgen.tests.core.test_config.ConfigDefaultsTest.test_set_default_currency"


def test_repeats_stop_when_a_runs_executions_fail_together(tmp_path: Path) -> None:
    """A deterministic polluter fails every execution of a run: once ALIKE_RUNS runs reproduced
    the failure on all their executions, repeats stop (they add only seconds) and the hunt goes on
    with single runs, every run counted by its first execution."""
    suite = recording("deterministic_polluter", tmp_path, DP_VICTIM)
    proc = isolate(suite, "bisect", DP_VICTIM, "--repeat-victim", "4", "--json")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["culprits"] == [DP_CULPRIT], verdict
    check = json.loads((hunt_dir(suite) / "repeat-check.json").read_text())
    assert (check["state"], check["used"]) == ("off", 1), check
    entries = journal(suite)
    single = next(i for i, e in enumerate(entries) if "executions" not in e)
    repeated = entries[:single]  # the check's, the search's and the fork check's
    failing = [e["executions"] for e in repeated if e["reproduced"]]
    assert len(failing) >= ALIKE_RUNS and set(failing) == {"rrrr"}, failing
    assert check["summary"].startswith(f"off: every one of the {len(failing)} runs that reproduced the failure did"
                                       " so on all its executions"), check
    assert_single_but_the_check(suite, single, DP_CULPRIT, DP_VICTIM)  # single runs after
    assert verdict["repeats"]["state"] == "off" and verdict["runs"] == len(entries)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_a_full_disk_stops_the_check_with_one_line(tmp_path: Path) -> None:
    """The check's runs are journaled like the search's (isolate.hunt.runs): the query log is a
    link to /dev/full, so its first write meets the kernel's real ENOSPC and the hunt stops with
    the loop's one line, exit 2, before any run."""
    suite = self_polluter(tmp_path)
    (hunt_dir(suite) / "queries.jsonl").symlink_to("/dev/full")
    proc = isolate(suite, "bisect", SP_VICTIM, "--repeat-victim", "4", "--max-runs", "300")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    error = proc.stderr.splitlines()[-1]
    assert error.startswith("isolate: error: cannot write ") and "queries.jsonl" in error, error
    assert "No space left on device" in error and "free disk space" in error, error
    assert not (hunt_dir(suite) / "journal.jsonl").exists()


def test_many_stored_runs_do_not_keep_repeats_from_starting_and_stay_evidence(tmp_path: Path) -> None:
    """HISTORY_MOST stored runs or more used to keep repeats from starting (K-fold runs left them
    out), so a flaky victim with a long history was hunted with single runs only.  The default
    search reads stored runs into its chain's prior alone, so it keeps them beside K-fold runs:
    repeats start as they would without them, and the verdict still counts them.  The
    single-cause search would read a stored run as a K-fold run: for it they still count as left
    out, and hold repeats back."""
    suite = copy_suite("fails_alone", tmp_path)
    # two serial stestr runs (one process less each; these need no partitions), the victim passing
    # in one and failing in the other (rates 0 and 1), then copies of each stored by stestr's load
    # up to HISTORY_MOST: stored runs, a known mix of passes and failures, without 18 more stestr runs
    stestr_run(suite, "--serial", SAMPLE_RACE_RATE="0")
    stestr_run(suite, "--serial", SAMPLE_RACE_RATE="1")
    load_runs(suite, 0, HISTORY_MOST // 2 - 1)
    load_runs(suite, 1, HISTORY_MOST - HISTORY_MOST // 2 - 1)
    # the run the hunt is extracted from: at rate 1 the victim fails in the first (alone: the sample's
    # other tests pass at any rate), where at 0.5 a parallel run failed it about 1 time in 4
    record_failure(suite, FA_VICTIM, SAMPLE_RACE_RATE="1")
    proc = isolate(suite, "bisect", FA_VICTIM, "--max-runs", str(AUTO_AFTER + AUTO_ROOM + 3), "--json",
                   FORK, "--jobs", "2", SAMPLE_RACE_RATE="0")
    assert proc.returncode in (4, 5), proc.stderr  # never reproduced now: not-reproduced, or undecided
    verdict = json.loads(proc.stdout)
    assert verdict["history_runs"] == others(suite) >= HISTORY_MOST, verdict
    auto = json.loads((hunt_dir(suite) / "repeat-auto.json").read_text())  # two at once: ahead from the first run
    assert (auto["repeat"], auto["from"], auto["ahead"], auto["checking"]) == (AUTO_K, 0, True, True), auto
    assert all(len(e["executions"]) == AUTO_K for e in journal(suite)), journal(suite)
    hunt = Hunt(hunt_dir(suite), json.loads((hunt_dir(suite) / "hunt.json").read_text()))
    ev = evidence(hunt)  # K-fold now, the stored runs first and kept
    assert ev.history[0] == verdict["history_runs"] and all(o.stored for o in ev.observations[:ev.history[0]])
    assert left_out(ev, "isolate") == 0 and left_out(ev, "single") == ev.history[0]


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_a_query_s_executions_run_the_victim_more_times_for_its_runs_only(tmp_path: Path, mode: str) -> None:
    """A query that asks more executions than the hunt's K (the stop check of the several-causes
    search) gets them for its runs, and the runner goes back to K after them; fewer than K change
    nothing. The sample victim fails from its second execution on, so every execution shows."""
    suite = copy_suite("self_polluter", tmp_path)
    with Runner(find_project(suite), mode=mode, timeout=60, repeat=4) as runner:
        with executing(runner, 7):
            [more] = runner.run([SP_VICTIM], SP_VICTIM)
        [after] = runner.run([SP_VICTIM], SP_VICTIM)
        with executing(runner, 2):
            [fewer] = runner.run([SP_VICTIM], SP_VICTIM)
        assert runner.repeat == 4
    assert (more.executions, after.executions, fewer.executions) == ("prrrrrr", "prrr", "prrr")


class _Said:
    """What the hunt would print (held() says why it waits)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def info(self, line: str) -> None:
        self.lines.append(line)


def test_a_held_verdict_runs_the_victim_alone_as_often_as_asked_while_its_runs_lean(tmp_path: Path) -> None:
    """A "fails on its own" verdict with repeats at 2 executions of the 6 asked: one run alone
    reproduced the failure on its first execution, but 30 did so on a later one only (odds near 8
    that the victim pollutes itself, below the 100 that would turn repeats off). The verdict is
    held, and on one worker the victim alone runs with all 6 executions (the sample victim fails
    from its second on), judged by the search on its first 2; the runner goes back to 2 after it.
    On two workers the hold's runs execute it 2 times."""
    suite = self_polluter(tmp_path)
    started = isolate(suite, "bisect", SP_VICTIM, "--repeat-victim", "6", "--max-runs", "1", "--no-history",
                      "--no-fork-server")
    assert started.returncode in (0, 1, 2, 3, 4, 5), started.stderr
    path = hunt_dir(suite)
    for name in ("journal.jsonl", "repeat-check.json", "queries.jsonl"):
        (path / name).unlink(missing_ok=True)
    hunt = Hunt(path, json.loads((path / "hunt.json").read_text()))
    step = step_for(hunt, (SP_VICTIM,), read_steps(hunt))
    first, later = "rppppp", "ppprpp"
    append_journal(hunt, [Entry(step, "fail", True, 0.1, executions=e) for e in [first] + [later] * 30])
    (path / "repeat-check.json").write_text(json.dumps({"repeat": 6, "used": 2, "state": "on", "summary": "s"}))
    said = _Said()
    with Runner(find_project(suite), timeout=60, repeat=2) as runner:
        assert held(hunt, "fails-alone", runner, said, 1, None, None) is True
        assert runner.repeat == 2
        assert held(hunt, "fails-alone", runner, said, 1, None, None) is True  # the hold's next wave
        # on 2 workers a wave is 2 runs, and they execute the victim the `used` 2 times (docs/search.md)
        assert held(hunt, "fails-alone", runner, said, 2, None, None) is True
        assert runner.repeat == 2
    entries = journal(suite)
    assert len(entries) == 35 and [e["executions"] for e in entries[31:]] == ["prrrrr", "prrrrr", "pr", "pr"], entries
    [line] = said.lines  # said once a hold, not at each wave
    assert "lean towards failing more often than the first" in line and "let go below 5" in line, line
    observed = evidence(hunt).observations  # "prrrrr" judged on "pr", its first 2; all 6 executions counted
    assert [(o.failed, o.executions, o.reproductions) for o in observed if o.reproductions >= 5] == [(True, 6, 5)] * 2


def test_fails_alone_says_what_it_left_to_the_prior_and_weak_polluters_runs_for_it(tmp_path: Path) -> None:
    """The claim of a fails-alone verdict names what the default prior discounts; given
    --weak-polluters later, the finished hunt is judged again under the even prior (stored for
    resumes; it runs on when its runs do not yet prove the claim there), and its claim no longer
    needs the proviso."""
    suite = fails_alone(tmp_path)
    first = isolate(suite, "bisect", FA_VICTIM, "--json", "--no-history", FORK, SAMPLE_RACE_RATE="0.5")
    assert first.returncode == 3, first.stderr
    before = json.loads(first.stdout)
    assert "--weak-polluters weighs it evenly" in before["stop"], before["stop"]
    again = isolate(suite, "bisect", FA_VICTIM, "--json", "--weak-polluters", SAMPLE_RACE_RATE="0.5")
    assert again.returncode == 3, again.stderr
    after = json.loads(again.stdout)
    assert after["verdict"] == "fails-alone" and "--weak-polluters" not in after["stop"], after
    assert json.loads((hunt_dir(suite) / "hunt.json").read_text())["search"]["weak_polluters"] is True


def test_a_held_verdict_runs_the_fork_check_when_it_is_due_before_its_next_wave(tmp_path: Path) -> None:
    """A hunt in the automatic mode whose "fails on its own" verdict is held (K-fold runs of the
    whole list and of the victim alone fail at one rate, but no run alone failed on its first
    execution) after more fresh runs than the fork check waits for: the check runs before the
    hold's next wave, so the hold's runs are forks, not fresh processes (a hold can last dozens of
    runs; before, it ran fresh until the search asked a question again)."""
    suite = fails_alone(tmp_path)
    started = isolate(suite, "bisect", FA_VICTIM, "--repeat-victim", "6", "--max-runs", "1", "--no-history",
                      SAMPLE_RACE_RATE="0")
    assert started.returncode in (0, 1, 2, 3, 4, 5), started.stderr
    path = hunt_dir(suite)
    for name in ("journal.jsonl", "repeat-check.json", "queries.jsonl"):
        (path / name).unlink(missing_ok=True)
    hunt = Hunt(path, json.loads((path / "hunt.json").read_text()))
    steps = read_steps(hunt)
    alone = step_for(hunt, (FA_VICTIM,), steps)
    passed, failed = "pppppp", "ppprpp"
    append_journal(hunt, [Entry(0, "pass", False, 0.1, executions=passed)] * 20
                   + [Entry(0, "fail", True, 0.1, executions=failed)] * 10
                   + [Entry(alone, "pass", False, 0.1, executions=passed)] * 20
                   + [Entry(alone, "fail", True, 0.1, executions=failed)] * 10)
    (path / "repeat-check.json").write_text(json.dumps({"repeat": 6, "used": 6, "state": "on", "summary": "s"}))
    resumed = isolate(suite, "bisect", FA_VICTIM, "--max-runs", "140", SAMPLE_RACE_RATE="0.3")
    assert resumed.returncode in (0, 1, 2, 3, 4, 5), resumed.stderr
    new = journal(suite)[60:]
    assert new and new[0].get("phase") == FORK_CHECK_PHASE, [(e.get("phase"), e.get("mode"), e["step"]) for e in new[:5]]
    assert "fork check: running the hunt's first 2 lists" in resumed.stderr, resumed.stderr


def test_why_repeats_stop_counts_the_executions_the_runs_are_judged_on() -> None:
    """QA: "every one of the 9 runs that reproduced the failure did so on all its executions", of
    9 runs 6 of which had reproduced on one of 10: they were judged on their first 3, and the
    count took a reproduction at any execution."""
    runs = ["rrrpppprpp"] * 3 + ["ppppppprpp"] * 6 + ["pppppppppp"] * 4
    assert _together(runs, 3) == ("every one of the 3 runs that reproduced the failure did so on all its executions"
                                  " (of the first 3, which the runs are judged on)")
    assert _together(["rrr", "ppp", "rrr"], 3) == ("every one of the 2 runs that reproduced the failure did so on all"
                                                   " its executions")


def test_a_repeat_decision_that_replaces_an_earlier_one_says_so(tmp_path: Path) -> None:
    """QA: the progress said "repeats: 10 executions per run (checked: ...)" and then "repeats:
    off: ...", read as two answers to one question; the second replaces the first, and says so."""
    hunt = Hunt(tmp_path, {"victim": "v", "search": {"repeat": 10}})
    said: list[str] = []

    class Display:
        def info(self, line: str) -> None:
            said.append(line)

    runs = ["pppppppppp"] * 6 + ["rrrrrrrrrr"] * 3
    _decide(hunt, None, Display(), ON, "exact test p=1", runs[:6], ["pppppppppp"] * 4, 10)
    _decide(hunt, None, Display(), OFF, "likelihood ratio 1", runs, ["pppppppppp"] * 4, 1,
            "every one of the 3 runs that reproduced the failure did so on all its executions")
    assert said[0] == "repeats: 10 executions per run" and said[1].startswith("repeats checked on: 6 runs"), said
    assert said[2].startswith("repeats: now off: every one of the 3 runs"), said
    assert json.loads((tmp_path / "repeat-check.json").read_text())["state"] == OFF
