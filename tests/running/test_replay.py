"""``isolate replay`` as a user runs it: real command, real sample suites, real processes."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from conftest import assert_user_error, copy_suite, env, isolate, stestr_run, tool
from isolate.running.judge import read_stream

DP = "reportgen.tests.core."
POLLUTER = DP + "test_config.ConfigDefaultsTest.test_set_default_currency"
VICTIM = DP + "test_report.ReportHeaderTest.test_header_uses_default_currency"
OTHER = DP + "test_money.FormatAmountTest.test_usd"
SIGNATURE = ("AssertionError: report header uses currency 'EUR', expected default 'USD' "
             "@ test_report.py:test_header_uses_default_currency")


def write_list(path: Path, *ids: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(i + "\n" for i in ids))
    return path


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in (root / ".stestr").rglob("*") if p.is_file()}


def test_replay_in_a_hunt_directory_uses_the_recorded_failure_and_leaves_the_repository(tmp_path: Path) -> None:
    suite = copy_suite("deterministic_polluter", tmp_path)
    stestr_run(suite, "--serial")
    stored = subprocess.run([tool("stestr"), "last", "--subunit"], cwd=suite, env=env(), capture_output=True,
                            check=True).stdout
    (tmp_path / "last.subunit").write_bytes(stored)
    [victim] = [o for o in read_stream(tmp_path / "last.subunit") if o.test_id == VICTIM]
    hunt = suite / ".isolate" / "victim-hunt"
    (hunt.mkdir(parents=True))
    (hunt / "failure.txt").write_text(victim.text("traceback"))
    step = write_list(hunt / "step-001.txt", POLLUTER, OTHER, VICTIM)
    before = snapshot(suite)
    assert before

    proc = isolate(suite, "replay", str(step), "--times", "3", "--jobs", "2", "--json")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert report["runs"] == 3 and report["reproduced"] == 3
    assert report["outcomes"] == {"fail": 3, "pass": 0, "timeout": 0, "crash": 0, "error": 0, "skip": 0}
    assert report["recorded_signature"] == SIGNATURE and report["recorded_from"] == str(hunt / "failure.txt")
    assert report["target"] == VICTIM and report["tests"] == 3 and report["jobs"] == 2

    text = isolate(suite, "replay", str(write_list(hunt / "step-002.txt", OTHER, VICTIM)), "--times", "2")
    assert text.returncode == 0, text.stderr
    assert "reproduced 0/2" in text.stdout and "pass         2" in text.stdout
    assert snapshot(suite) == before  # byte for byte, `failing` included
    assert sorted(p.name for p in (suite / ".isolate" / "victim-hunt").iterdir()) == [
        "failure.txt", "step-001.txt", "step-002.txt"]


def test_signature_from_target_and_any_failure(tmp_path: Path) -> None:
    suite = copy_suite("deterministic_polluter", tmp_path)
    other_failure = tmp_path / "other.txt"
    other_failure.write_text('Traceback (most recent call last):\n  File "x.py", line 1, in test_header_uses_default_currency\n'
                             "KeyError: 'currency'\n")
    listed = write_list(tmp_path / "list.txt", POLLUTER, VICTIM, OTHER)
    proc = isolate(suite, "replay", str(listed), "--target", VICTIM, "--signature-from", str(other_failure), "--json")
    report = json.loads(proc.stdout)
    assert proc.returncode == 0 and report["outcomes"]["fail"] == 1 and report["reproduced"] == 0
    assert report["signatures"] == {SIGNATURE: 1}
    proc = isolate(suite, "replay", str(listed), "--target", VICTIM, "--signature-from", str(other_failure),
                   "--any-failure", "--fork-server")
    assert proc.returncode == 1 and "reproduced 1/1" in proc.stdout and "fork server" in proc.stdout
    assert "first failure of the target:" in proc.stdout and "Traceback" in proc.stdout
    proc = isolate(suite, "replay", str(listed), "--json")  # target defaults to the last id: passes
    assert proc.returncode == 0 and json.loads(proc.stdout)["target"] == OTHER


def test_a_list_of_an_any_failure_hunt_counts_any_failure_as_its_hunt_and_verify_do(tmp_path: Path) -> None:
    suite = copy_suite("deterministic_polluter", tmp_path)
    hunt = suite / ".isolate" / "victim-hunt"
    hunt.mkdir(parents=True)
    other_failure = ('Traceback (most recent call last):\n  File "x.py", line 1, in test_header_uses_default_currency\n'
                     "KeyError: 'currency'\n")
    (hunt / "failure.txt").write_text(other_failure)
    (hunt / "hunt.json").write_text(json.dumps({"victim": VICTIM, "search": {"any_failure": True}}))
    reproducer = write_list(hunt / "reproducer.txt", POLLUTER, VICTIM)
    proc = isolate(suite, "replay", str(reproducer))
    assert proc.returncode == 1 and "reproduced 1/1" in proc.stdout, proc.stdout + proc.stderr
    assert "any failure of the target counts, as in the list's hunt (bisect --any-failure)" in proc.stdout
    (tmp_path / "recorded.txt").write_text(other_failure)
    proc = isolate(suite, "replay", str(reproducer), "--signature-from", str(tmp_path / "recorded.txt"), "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["reproduced"] == 0, proc.stdout  # the recorded way only


def test_recorded_crash_counts_crashes(tmp_path: Path) -> None:
    suite = copy_suite("crashing_worker", tmp_path)
    hunt = suite / ".isolate" / "h"
    hunt.mkdir(parents=True)
    (hunt / "failure.txt").write_text("")  # what extract writes for a worker that died
    step = write_list(hunt / "order.txt",
                      "bufpool.tests.test_pool.HandleLifecycleTest.test_hand_off_transfers_ownership",
                      "bufpool.tests.test_pool.PoolAuditTest.test_audit_checksums_live_buffers")
    proc = isolate(suite, "replay", str(step), "--times", "2", "--json", "--timeout", "60")
    report = json.loads(proc.stdout)
    assert proc.returncode == 1, proc.stderr
    assert report["outcomes"]["crash"] == 2 and report["reproduced"] == 2
    assert "SIGSEGV" in report["messages"][0]


def test_until_failure_stops_every_job_at_the_first_reproduction(tmp_path: Path) -> None:
    suite = copy_suite("flaky_polluter", tmp_path)
    listed = write_list(tmp_path / "list.txt",
                        "pricecache.tests.test_service.DiscountTest.test_full_promo_makes_item_free",
                        "pricecache.tests.test_service.PriceLookupTest.test_apple_list_price")
    proc = isolate(suite, "replay", str(listed), "--until-failure", "--times", "300", "--jobs", "2",
                   "--json", SAMPLE_POLLUTION_RATE="0.3")
    report = json.loads(proc.stdout)
    assert proc.returncode == 1, proc.stderr
    # the other job's run is killed unless it had ended too (in the same instant, under load)
    assert report["reproduced"] in (1, 2) and report["outcomes"]["fail"] == report["reproduced"], report
    assert report["runs"] < 100 and report["outcomes"]["pass"] == report["runs"] - report["reproduced"]


HANG = '''
import os
import subprocess
import time
import unittest


class H(unittest.TestCase):
    def test_quick(self):
        pass

    def test_hang(self):
        child = subprocess.Popen(["sleep", "300"])
        with open(os.path.join(os.environ["HANG_DIR"], "tmpdir-%d" % os.getpid()), "w") as f:
            f.write(os.environ["TMPDIR"])
        with open(os.path.join(os.environ["HANG_DIR"], "pids-%d" % os.getpid()), "w") as f:
            f.write("%d %d" % (os.getpid(), child.pid))
        time.sleep(300)
'''


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):  # (gone between open and read: ESRCH)
        return False


@pytest.fixture
def hanging(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "hang").mkdir(parents=True)
    (root / "hang" / "__init__.py").write_text("")
    (root / "hang" / "test_hang.py").write_text(textwrap.dedent(HANG))
    (root / ".stestr.conf").write_text("[DEFAULT]\ntest_path=./hang\n")
    (tmp_path / "pids").mkdir()
    return root


def test_timeout_is_reported_and_kills_the_group(hanging: Path, tmp_path: Path) -> None:
    listed = write_list(tmp_path / "list.txt", "hang.test_hang.H.test_hang", "hang.test_hang.H.test_quick")
    proc = isolate(hanging, "replay", str(listed), "--timeout", "1", "--times", "2", "--jobs", "2", "--json",
                   HANG_DIR=str(tmp_path / "pids"))
    report = json.loads(proc.stdout)
    assert proc.returncode == 0 and report["outcomes"]["timeout"] == 2
    assert "while running 'hang.test_hang.H.test_hang'" in report["messages"][0]
    pids = [int(p) for f in (tmp_path / "pids").glob("pids-*") for p in f.read_text().split()]
    assert len(pids) == 4 and not any(alive(p) for p in pids)



def test_a_short_timeout_is_said_as_given_not_rounded_to_zero(hanging: Path, tmp_path: Path) -> None:
    listed = write_list(tmp_path / "list.txt", "hang.test_hang.H.test_hang", "hang.test_hang.H.test_quick")
    proc = isolate(hanging, "replay", str(listed), "--timeout", "0.05", "--times", "1", "--json",
                   HANG_DIR=str(tmp_path / "pids"))
    report = json.loads(proc.stdout)
    assert proc.returncode == 0 and report["outcomes"]["timeout"] == 1, proc.stderr
    said = re.search(r"timed out after (\S+) s", report["messages"][0])
    assert said and float(said.group(1)) >= 0.05, report["messages"]

@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_all_jobs_and_reports_what_finished(hanging: Path, tmp_path: Path, signum: int) -> None:
    listed = write_list(tmp_path / "list.txt", "hang.test_hang.H.test_hang", "hang.test_hang.H.test_quick")
    proc = subprocess.Popen([tool("isolate"), "replay", str(listed), "--times", "4", "--jobs", "2"], cwd=hanging,
                            env=env(HANG_DIR=str(tmp_path / "pids")), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while len(list((tmp_path / "pids").glob("pids-*"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        [state] = {Path(p.read_text()).parent.parent for p in (tmp_path / "pids").glob("tmpdir-*")}
        assert state.name.startswith("isolate-run-") and state.is_dir()
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()  # whatever failed above, leave no isolate behind
    assert not state.exists()  # its temporary state is gone too
    assert proc.returncode == 130, err
    assert "interrupted after 0 runs" in out and "Traceback" not in err
    time.sleep(0.2)
    pids = [int(p) for f in (tmp_path / "pids").glob("pids-*") for p in f.read_text().split()]
    assert len(pids) == 4 and not any(alive(p) for p in pids)


def test_user_errors_are_one_line_with_status_2(tmp_path: Path) -> None:
    suite = copy_suite("deterministic_polluter", tmp_path)
    unknown = write_list(tmp_path / "unknown.txt", POLLUTER, DP + "test_config.ConfigDefaultsTest.test_nope", VICTIM)
    assert_user_error(isolate(suite, "replay", str(unknown)), "unknown test id", "test_nope", "fix:")
    assert_user_error(isolate(suite, "replay", str(write_list(tmp_path / "empty.txt"))), "holds no test ids")
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert_user_error(isolate(suite, "replay", str(binary)), "not a text file")
    assert_user_error(isolate(suite, "replay", str(tmp_path / "missing.txt")), "does not exist")
    listed = write_list(tmp_path / "list.txt", VICTIM)
    assert_user_error(isolate(suite, "replay", str(listed), "--target", POLLUTER), "--target", "not in")
    assert_user_error(isolate(suite, "replay", str(listed), "--times", "0"), "--times")
    (tmp_path / "nowhere").mkdir()
    assert_user_error(isolate(tmp_path / "nowhere", "replay", str(listed)), "no test configuration found")
    assert_user_error(isolate(suite, "replay", str(listed), "--signature-from", str(tmp_path / "nope.txt")),
                      "recorded failure")
    (suite / ".stestr.conf").unlink()
    (suite / ".testr.conf").write_text("[DEFAULT]\ntest_command=no-such-wrapper python -m subunit.run "
                                       "discover -t ./ ./reportgen/tests $LISTOPT $IDOPTION\n"
                                       "test_id_option=--load-list $IDFILE\n")
    assert_user_error(isolate(suite, "replay", str(listed)), "test command exited with status 127",
                      "no-such-wrapper")
    assert_user_error(isolate(suite, "replay", str(listed), "--fork-server"), "fork server did not start")


def test_a_directory_for_the_list_says_so_not_permissions(tmp_path: Path) -> None:
    """`isolate replay .isolate/<hunt>` (the hunt directory, not its list): the cause is the
    directory, not the permissions the generic read error blamed."""
    suite = copy_suite("deterministic_polluter", tmp_path)
    result = isolate(suite, "replay", str(tmp_path))
    assert_user_error(result, "is a directory", "fix: pass a list file")
    assert "permissions" not in result.stderr


DEPENDS = '''
import unittest

STATE = {"ready": False, "legacy": False}


class Setup(unittest.TestCase):
    def test_a_setup_ok(self):
        STATE["ready"] = True

    def test_c_legacy(self):
        STATE["legacy"] = True


class Victim(unittest.TestCase):
    def test_victim(self):
        if not STATE["ready"]:
            self.skipTest("depends on test_a_setup_ok")
        self.assertFalse(STATE["legacy"], "legacy mode leaked")
'''


def test_a_skipped_target_is_no_pass(tmp_path: Path) -> None:
    """QA: a victim that pytest-dependency skipped in lists without the test it depends on was
    judged a pass, so the innocent dependency and the polluter were named as a pair (45/45). A
    skip ran none of the test: it is its own outcome, no evidence either way."""
    root = tmp_path / "proj"
    (root / "dep").mkdir(parents=True)
    (root / "dep" / "__init__.py").write_text("")
    (root / "dep" / "test_dep.py").write_text(textwrap.dedent(DEPENDS))
    (root / ".stestr.conf").write_text("[DEFAULT]\ntest_path=./dep\n")
    skipped = write_list(tmp_path / "skipped.txt", "dep.test_dep.Setup.test_c_legacy", "dep.test_dep.Victim.test_victim")
    proc = isolate(root, "replay", str(skipped), "--times", "2", "--json")
    report = json.loads(proc.stdout)
    assert report["outcomes"]["skip"] == 2 and report["outcomes"]["pass"] == 0 and report["reproduced"] == 0, report
    assert "target was skipped: depends on test_a_setup_ok" in report["messages"], report
    text = isolate(root, "replay", str(skipped), "--times", "1").stdout
    assert "target was skipped: depends on test_a_setup_ok" in text, text
    both = write_list(tmp_path / "both.txt", "dep.test_dep.Setup.test_a_setup_ok", "dep.test_dep.Setup.test_c_legacy",
                      "dep.test_dep.Victim.test_victim")
    report = json.loads(isolate(root, "replay", str(both), "--times", "1", "--json").stdout)
    assert report["outcomes"]["fail"] == 1 and report["outcomes"]["skip"] == 0, report
