"""Hunts that never stall and never lie: a predecessor that hangs, a time budget that every second
counts against, a failure message with temp paths, and locks that keep a refused command from
writing anything. Real stestr runs of small suites written here, real `isolate` processes."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from conftest import assert_user_error, copy_suite, env, isolate, run, stestr_run, tool
from isolate.hunt.store import hunt_name
from isolate.running.project import find_project
from isolate.running.runner import Runner

VICTIM = "app.tests.test_b.VictimTest.test_victim"
POLLUTER = "app.tests.test_a.SetupTest.test_3_pollutes"
HANGER = "app.tests.test_a.SetupTest.test_2_hangs_during_hunts"


def make_suite(root: Path, victim_body: str, polluter_body: str) -> Path:
    """A unittest suite in a stestr project: SetupTest (4 tests, the third pollutes, the second
    hangs when HANG=1) runs before VictimTest; `stestr run --serial` stores a failing run."""
    files = {
        ".stestr.conf": "[DEFAULT]\ntest_path=./app/tests\ntop_dir=./\n",
        "app/__init__.py": "",
        "app/state.py": "value = 'clean'\nhome = '/srv/app'\n",
        "app/tests/__init__.py": "",
        "app/tests/test_a.py": f"""
            import os, tempfile, time, unittest
            from app import state

            class SetupTest(unittest.TestCase):
                def test_1_fine(self):
                    pass

                def test_2_hangs_during_hunts(self):
                    if os.environ.get("HANG") == "1":
                        time.sleep(3600)

                def test_3_pollutes(self):
                    {polluter_body}

                def test_4_fine(self):
                    pass
        """,
        "app/tests/test_b.py": f"""
            import os, unittest
            from app import state

            class VictimTest(unittest.TestCase):
                def test_victim(self):
                    {victim_body}
        """,
    }
    suite = root / "proj"
    for name, text in files.items():
        path = suite / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    stestr_run(suite, "--serial")
    proc = isolate(suite, "extract", "--test", VICTIM)
    assert proc.returncode == 0 and "did not fail" not in proc.stderr, proc.stderr
    return suite


def global_suite(root: Path) -> Path:
    return make_suite(root, "self.assertEqual(state.value, 'clean')", "state.value = 'dirty'")


def test_a_predecessor_that_hangs_is_named_left_out_and_the_hunt_goes_on(tmp_path: Path) -> None:
    suite = global_suite(tmp_path)
    proc = isolate(suite, "bisect", VICTIM, "--timeout", "3", "--jobs", "2", "--json", HANG="1")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["culprits"] == [POLLUTER]
    assert f"left out: {HANGER} hung in 2 runs" in "\n".join(verdict["evidence"])
    assert f"left out: {HANGER}" in proc.stderr  # said while hunting, not only at the end
    journal = [json.loads(line) for line in
               (suite / ".isolate" / hunt_name(VICTIM) / "journal.jsonl").read_text().splitlines()]
    hangs = [e for e in journal if e["outcome"] == "timeout"]
    assert len(hangs) == 2 and all(e["hung"] == HANGER for e in hangs)
    assert verdict["ignored_outcomes"] == {"timeout": 2}
    # no run after its second hang ran a list that holds it
    after = journal[max(i for i, e in enumerate(journal) if e["outcome"] == "timeout") + 1:]
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    assert after and all(HANGER not in (hunt / f"step-{e['step']:03d}.txt").read_text() for e in after)
    assert f"note: left out: {HANGER} hung in 2 runs" in isolate(suite, "status", VICTIM).stdout


def test_a_predecessor_that_kills_the_process_is_named_left_out_and_the_hunt_goes_on(tmp_path: Path) -> None:
    """A predecessor that ends the test process (os._exit) in every run of the hunt: every list
    holding it crashes before the victim runs, so none of them can tell anything. It used to stay
    in every list (the hunt ran the whole list until 'not reproduced', naming no test)."""
    suite = global_suite(tmp_path)
    test_a = suite / "app" / "tests" / "test_a.py"
    test_a.write_text(test_a.read_text().replace('os.environ.get("HANG")', 'os.environ.get("CRASH")')
                      .replace("time.sleep(3600)", "os._exit(7)"))
    assert "os._exit(7)" in test_a.read_text()
    proc = isolate(suite, "bisect", VICTIM, "--jobs", "2", "--json", CRASH="1")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["culprits"] == [POLLUTER]
    note = f"left out: {HANGER} killed the test process in 2 runs and no run holding it finished"
    assert note in "\n".join(verdict["evidence"])
    assert note in proc.stderr  # said while hunting, not only at the end
    journal = [json.loads(line) for line in
               (suite / ".isolate" / hunt_name(VICTIM) / "journal.jsonl").read_text().splitlines()]
    crashes = [e for e in journal if e["outcome"] == "crash"]
    assert len(crashes) >= 2 and all(e["hung"] == HANGER for e in crashes)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    after = journal[[i for i, e in enumerate(journal) if e["outcome"] == "crash"][1] + 1:]
    assert after and all(HANGER not in (hunt / f"step-{e['step']:03d}.txt").read_text() for e in after)


def test_a_predecessor_after_which_the_process_ends_is_left_out_and_the_hunt_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A class whose tearDownClass ends the test process (as pytest.exit in a hook ends a session)
    between two tests: no test is running when it ends, so no test was blamed, and every list
    holding the class ended before the victim ran (QA: 100 runs that were no evidence, then
    'not reproduced'). The test after which it ended is left out once some run has finished."""
    suite = global_suite(tmp_path)
    (suite / "app" / "tests" / "test_0.py").write_text(textwrap.dedent("""
        import os, unittest

        class EndsTest(unittest.TestCase):
            @classmethod
            def tearDownClass(cls):
                if os.environ.get("END") == "1":
                    os._exit(0)

            def test_ends_the_process_after_it(self):
                pass
    """))
    ender = "app.tests.test_0.EndsTest.test_ends_the_process_after_it"
    stestr_run(suite, "--serial")
    assert isolate(suite, "extract", "--test", VICTIM, "--force").returncode == 0
    assert ender in (suite / ".isolate" / hunt_name(VICTIM) / "order.txt").read_text()
    proc = isolate(suite, "bisect", VICTIM, "--jobs", "2", "--json", END="1")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["culprits"] == [POLLUTER], verdict
    note = f"left out: the test process ended right after {ender} (before the next test started) in "
    assert note in "\n".join(verdict["evidence"]) and note in proc.stderr, verdict["evidence"]
    journal = [json.loads(line) for line in
               (suite / ".isolate" / hunt_name(VICTIM) / "journal.jsonl").read_text().splitlines()]
    ended = [i for i, e in enumerate(journal) if e["outcome"] == "crash"]
    assert len(ended) >= 2 and all(journal[i].get("after") == ender and "hung" not in journal[i] for i in ended)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    after = journal[ended[-1] + 1:]
    assert after and all(ender not in (hunt / f"step-{e['step']:03d}.txt").read_text() for e in after)
    # right before the victim, the victim's own set-up may have ended it: no test is blamed
    monkeypatch.setenv("END", "1")
    with Runner(find_project(suite), timeout=60) as runner:
        [between] = runner.run([ender, HANGER, VICTIM], VICTIM)
        [before] = runner.run([HANGER, ender, VICTIM], VICTIM)
    assert (between.kind, between.hung, between.after) == ("crash", None, ender), between
    assert (before.kind, before.hung, before.after) == ("crash", None, None), before


def test_a_victim_that_hangs_stops_the_hunt_with_one_line(tmp_path: Path) -> None:
    suite = make_suite(tmp_path, "self.assertEqual(state.value, 'clean')\n"
                       "                    if os.environ.get('VICTIM_HANGS'): __import__('time').sleep(3600)",
                       "state.value = 'dirty'")
    proc = isolate(suite, "bisect", VICTIM, "-q", "--timeout", "2", "--jobs", "2", VICTIM_HANGS="1")
    assert_user_error(proc, "the victim hung in", "a hang is not counted as its failure", "raise --timeout",
                      "give its wait a timeout that fails the test")
    journal = [json.loads(line) for line in
               (suite / ".isolate" / hunt_name(VICTIM) / "journal.jsonl").read_text().splitlines()]
    # a batch stops at the victim's first hang (a run that ended with it is reported too), so the
    # second hang ends the hunt: 2 hangs, or 3 when a batch's two runs timed out together
    hangs = [e for e in journal if e["outcome"] == "timeout"]
    assert all(e["hung"] == VICTIM for e in hangs) and 2 <= len(hangs) <= 3, journal
    assert f"the victim hung in {len(hangs)} runs" in proc.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_every_second_counts_against_the_budget_and_another_failure_points_to_any_failure(
        tmp_path: Path, jobs: str) -> None:
    """The victim fails, but never the recorded way: no run is evidence, yet the budget ends it."""
    suite = make_suite(tmp_path, "self.fail(os.environ.get('HOW', 'the recorded way'))", "pass")
    budget, timeout = 4.0, 5.0
    proc = isolate(suite, "bisect", VICTIM, "--time-budget", f"{budget:g}s", "--timeout", f"{timeout:g}",
                   "--jobs", jobs, "--json", HOW="another way")
    assert proc.returncode == 4, proc.stderr  # not reproduced
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "not-reproduced"
    assert verdict["ignored_outcomes"]["fail"] >= 3  # it ran, and every run failed another way
    assert 0 < verdict["seconds"] <= budget + timeout
    assert verdict["test_seconds"] >= verdict["seconds"] * 0.5
    said = "\n".join(verdict["evidence"]) + proc.stderr
    assert "failed" in said and "another way" in said and "--any-failure" in said
    # said once on the way, not again at every step as its counts grow
    assert proc.stderr.count("times another way") == 1, proc.stderr
    # which lists showed it, and the command that shows it again (QA: the note named none)
    shown = re.search(r"\(lists that showed it: \d+, the first (step-\d{3}\.txt); see it with"
                      r" 'isolate replay (\S+) --times 3'\)", proc.stderr)
    assert shown and shown[2].endswith(shown[1]) and (suite / shown[2]).is_file(), proc.stderr
    # runs at once share what lies outside their folders (a fixed port): the way out is said too
    assert ("run with --jobs 1" in proc.stderr) == (jobs == "2"), proc.stderr
    status = isolate(suite, "status", VICTIM).stdout
    assert "note: the victim failed" in status and "--any-failure" in status
    again = isolate(suite, "bisect", VICTIM, "--any-failure", "--time-budget", "60s", "--json", HOW="another way")
    data = json.loads(again.stdout)
    assert data["verdict"] == "fails-alone", again.stderr
    # the runs made before --any-failure was given count as it counts them (QA: a finished hunt kept
    # 37 such runs out, and its verdict stood with no new run)
    assert not data.get("ignored_outcomes", {}).get("fail"), data



def test_a_hunt_whose_runs_are_no_evidence_ends_by_itself_without_a_budget(tmp_path: Path) -> None:
    """Every run fails another way, so none is evidence and the search would ask the same
    question for ever (QA: 1,440 runs in 10 minutes). With no budget given, the hunt ends once
    NO_EVIDENCE_RUNS runs in a row told nothing, and says why and what to do. The runs are forked
    (--fork-server): the stop is the hunt loop's, whatever runs them, and 100 fork runs cost a
    fraction of 100 fresh ones (no run reproduces, so an automatic hunt never checks and forks)."""
    from isolate.hunt.loop import NO_EVIDENCE_RUNS
    suite = make_suite(tmp_path, "self.fail(os.environ.get('HOW', 'the recorded way'))", "pass")
    proc = isolate(suite, "bisect", VICTIM, "--jobs", "2", "--fork-server", "--json", HOW="another way")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] in ("not-reproduced", "undecided"), verdict
    assert NO_EVIDENCE_RUNS <= verdict["ignored_outcomes"]["fail"] <= NO_EVIDENCE_RUNS + 2, verdict["ignored_outcomes"]
    [stop] = [line for line in verdict["evidence"] if line.startswith("the last ")]
    assert stop.startswith(f"the last {NO_EVIDENCE_RUNS} runs were no evidence") and "--any-failure" in stop
    again = isolate(suite, "bisect", VICTIM, HOW="another way")  # finished: its saved verdict, no new run
    assert stop in again.stdout and again.returncode == proc.returncode, again.stdout + again.stderr
    assert "budget" not in again.stdout.splitlines()[1], again.stdout  # no budget ended it (QA)
    # the runs made are counted, and said to be no evidence: the verdict read "0 runs in 7s"
    made = sum(verdict["runs_by_mode"].values())
    assert verdict["runs"] + sum(verdict["ignored_outcomes"].values()) == made, verdict
    assert verdict["runs_by_mode"] == {"fresh": 0, "fork": made}, verdict
    assert f"\n  {made} runs (none of them evidence: {made} failed another way) in " in again.stdout, again.stdout

def test_a_temp_path_in_the_message_still_matches_the_recorded_failure(tmp_path: Path) -> None:
    """Recorded: '/tmp/tmpXXXX/fakeapp' != '/srv/app'; every replay has its own TMPDIR."""
    suite = make_suite(tmp_path, "self.assertEqual(state.home, '/srv/app')",
                       "state.home = os.path.join(tempfile.mkdtemp(), 'fakeapp')")
    proc = isolate(suite, "bisect", VICTIM, "--json")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["culprits"] == [POLLUTER]
    assert "fail" not in verdict["ignored_outcomes"]


def _wait_for(path: Path, proc: subprocess.Popen[bytes], limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while not path.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)


def _snapshot(hunt: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in hunt.iterdir() if p.is_file() and p.name != "lock"}


def _settled(hunt: Path, proc: subprocess.Popen[bytes], quiet: float = 1.0, limit: float = 60) -> dict[str, bytes]:
    """The hunt directory once nothing in it changed for `quiet` seconds: the hunt is waiting on
    a run that hangs (the lists without the hanging test, the fork check, may come first)."""
    deadline = time.monotonic() + limit
    last, since = _snapshot(hunt), time.monotonic()
    while time.monotonic() - since < quiet:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
        now = _snapshot(hunt)
        if now != last:
            last, since = now, time.monotonic()
    return last


def test_commands_refused_while_a_hunt_runs_write_nothing_and_a_dead_hunt_is_not_running(tmp_path: Path) -> None:
    suite = global_suite(tmp_path)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    proc = subprocess.Popen([tool("isolate"), "bisect", VICTIM, "--timeout", "120"], cwd=suite,
                            env=env(HANG="1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for(hunt / "lock", proc)
        before = _settled(hunt, proc)  # 0.5 s was not always enough: the hunt went on meanwhile
        assert_user_error(isolate(suite, "extract", "--test", VICTIM, "--force"), "already running")
        assert_user_error(isolate(suite, "bisect", VICTIM, "--confidence", "0.6"), "already running")
        assert_user_error(isolate(suite, "backtrack", VICTIM, "0"), "already running")
        # a running hunt has no verdict yet: verify said to run 'isolate bisect', which is running
        verify = isolate(suite, "verify", VICTIM)
        assert_user_error(verify, "already running", f"pid {proc.pid}", "wait for its verdict", "isolate status")
        assert "isolate bisect" not in verify.stderr
        assert _snapshot(hunt) == before
        assert f"running (pid {proc.pid})" in isolate(suite, "status").stdout
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    status = isolate(suite, "status", VICTIM)
    assert f"stopped: pid {proc.pid} died mid-hunt" in status.stdout, status.stdout
    assert "running (pid" not in status.stdout


def test_extract_force_sets_the_old_hunt_aside(tmp_path: Path) -> None:
    suite = global_suite(tmp_path)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    assert isolate(suite, "bisect", VICTIM, "-q", "--fork-server").returncode == 0  # (forked: the subject is the extract)
    journal = (hunt / "journal.jsonl").read_bytes()
    assert isolate(suite, "extract", "--test", VICTIM, "--force").returncode == 0
    [aside] = hunt.glob("replaced-*")
    assert (aside / "journal.jsonl").read_bytes() == journal and (aside / "verdict.json").exists()
    assert not (hunt / "journal.jsonl").exists() and (hunt / "step-000.txt").exists()


def test_an_extract_force_cut_short_leaves_no_hunt_to_resume_and_the_next_extract_finishes_it(
        tmp_path: Path) -> None:
    """QA: `kill -9` during `extract --force` left hunt.json, the journal and half the step files
    in place, the other half set aside; `bisect` resumed that mix, skipped 82 runs whose step files
    had moved, and wrote a verdict counting runs of both hunts. Now hunt.json is set aside first
    and the folder is `replacing-<time>/` until the last file is in it: here, the state a kill
    after two files leaves (a kill cannot be timed into a 10 ms window)."""
    suite = global_suite(tmp_path)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    assert isolate(suite, "bisect", VICTIM, "-q", "--fork-server").returncode == 0  # (forked: the subject is the extract)
    old = {f.name: f.read_bytes() for f in hunt.iterdir() if f.is_file()}
    cut = hunt / "replacing-20261128T120000.000000Z"
    cut.mkdir()
    for name in ("hunt.json", "journal.jsonl"):
        (hunt / name).rename(cut / name)
    assert_user_error(isolate(suite, "bisect", VICTIM, "-q"), "stopped while it set the old hunt aside",
                      "run the extract again to finish")
    status = isolate(suite, "status")
    assert "stopped while it set the old hunt aside" in status.stdout + status.stderr, status
    assert "holds runs but no hunt.json" not in status.stdout + status.stderr
    proc = isolate(suite, "extract", "--test", VICTIM)  # no --force: the cut-short one is finished
    assert proc.returncode == 0, proc.stderr
    [aside] = hunt.glob("replace*")
    assert aside.name == "replaced-20261128T120000.000000Z"
    assert {f.name: f.read_bytes() for f in aside.iterdir()} == old  # every old file, once, unchanged
    assert not (hunt / "journal.jsonl").exists() and (hunt / "hunt.json").exists()
    assert sorted(f.name for f in hunt.glob("step-*")) == ["step-000.txt"]


def test_a_timeout_given_too_short_once_does_not_stop_the_sessions_that_raise_it(tmp_path: Path) -> None:
    """QA: after one session with `--timeout 0.01`, every later one stopped at once with "4 runs
    timed out before any test started (killed after 60s)", whatever --timeout it was given: the
    journal's timeouts at 0.01 s were counted against 60 s."""
    suite = global_suite(tmp_path)
    short = isolate(suite, "bisect", VICTIM, "--timeout", "0.01", "-q")
    assert_user_error(short, "timed out before any test started (killed after 0.01s)", "raise --timeout")
    proc = isolate(suite, "bisect", VICTIM, "--timeout", "60", "--json")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == [POLLUTER], verdict
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    settings = json.loads((hunt / "hunt.json").read_text())["search"]
    timeouts = [json.loads(line)["outcome"] for line in (hunt / "journal.jsonl").read_text().splitlines()]
    assert settings["timeout"] == 60 and settings["timeouts_from"] >= 3
    assert set(timeouts[:settings["timeouts_from"]]) == {"timeout"} and "timeout" not in timeouts[settings["timeouts_from"]:]


def test_json_on_interrupt(tmp_path: Path) -> None:
    suite = global_suite(tmp_path)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    proc = subprocess.Popen([tool("isolate"), "bisect", VICTIM, "--timeout", "120", "--json"], cwd=suite,
                            env=env(HANG="1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for(hunt / "lock", proc)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    data = json.loads(out)
    assert data["verdict"] == "interrupted" and data["resume"] == f"isolate bisect {VICTIM}"
    assert not (hunt / "lock").exists()


def test_an_order_recorded_by_another_project_stops_the_hunt_at_its_first_run(tmp_path: Path) -> None:
    """`extract --stream` of another project's recording makes a hunt none of whose lists can run
    here. Each run that errored was journaled, so every resume spent --max-runs on one until the
    hunt ended 'not-reproduced: the budget ran out'; the error told to edit the list. The hunt
    stops at its first such run, naming the cause and the fix, and journals nothing."""
    other = copy_suite("deterministic_polluter", tmp_path)
    assert stestr_run(other).returncode == 1
    stream = tmp_path / "other.subunit"
    stream.write_bytes(run([tool("stestr"), "last", "--subunit"], other).stdout)
    here = copy_suite("flaky_polluter", tmp_path / "here")
    assert isolate(here, "extract", "--stream", str(stream)).returncode == 0
    victim = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
    for _ in range(3):  # --max-runs 2: the third resume ended in a verdict
        proc = isolate(here, "bisect", victim, "--max-runs", "2", "-q")
        assert_user_error(proc, "could not run: the hunt's order holds tests this project does not have: unknown test id",
                          f"; fix: run isolate from the project that recorded {stream.resolve()}", "check that --stream")
    hunt = next((here / ".isolate").glob("*/"))
    assert not (hunt / "journal.jsonl").exists() or not (hunt / "journal.jsonl").read_text(), "errors are no runs"
    assert not (hunt / "verdict.json").exists()
    assert " 0 runs" in isolate(here, "status").stdout
