"""`pytest --isolate-record DIR`: real pytest processes on copies of the sample suites."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import copy_suite, env, xdist_recorded
from isolate.files import PYTEST_ARGS
from isolate.orders.pytest_plugin import Phase, verdict
from isolate.orders.stream import Record, scan

_VERBOSE = re.compile(r"^(?P<id>\S.*?::.+?) (?P<word>PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b")


def pytest_run(cwd: Path, *args: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
    """A real pytest process, shielded from the environment of the pytest running this test.
    Python's bytecode cache is on, as by default (conftest.NO_BYTECODE): the module's fixture_state
    copy is run by ten pytest processes, each 0.2 CPU-s dearer when it compiles and rewrites the suite."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd, env=env(**extra_env), capture_output=True, text=True, timeout=300,
    )


def read(path: Path) -> tuple[list[Record], list[str]]:
    records: list[Record] = []
    warnings: list[str] = []
    with path.open("rb") as fp:
        count = scan(fp, records.append, warnings.append)
    assert count == len(records)
    return records, warnings


def collected(cwd: Path, *args: str) -> list[str]:
    proc = pytest_run(cwd, "--collect-only", "-q", *args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [line for line in proc.stdout.splitlines() if "::" in line]


def verbose_results(stdout: str) -> list[tuple[str, str]]:
    return [(m["id"], m["word"]) for m in map(_VERBOSE.match, stdout.splitlines()) if m]


def files(directory: Path) -> list[str]:
    """The recording's streams (beside them the session's command line, PYTEST_ARGS)."""
    return sorted(p.name for p in directory.iterdir() if p.name != PYTEST_ARGS)


@pytest.fixture(scope="module")
def fixture_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_suite("pytest_fixture_state", tmp_path_factory.mktemp("fixture_state"))


OUTCOMES = '''
    import os
    import pytest

    @pytest.fixture
    def broken_setup():
        raise RuntimeError("database did not start")

    @pytest.fixture
    def broken_teardown():
        yield
        raise AssertionError("temp dir still holds 3 files")

    def test_passes():
        pass

    def test_fails():
        assert 6 * 7 == 41, "arithmetic is broken"

    def test_setup_error(broken_setup):
        pass

    def test_teardown_error(broken_teardown):
        pass

    def test_call_and_teardown_fail(broken_teardown):
        assert False, "body failed too"

    @pytest.mark.skip(reason="needs a GPU")
    def test_skipped():
        pass

    def test_skips_itself():
        pytest.skip("no network here")

    @pytest.mark.xfail(reason="bug 123")
    def test_xfail():
        assert False

    @pytest.mark.xfail(reason="bug 124")
    def test_xpass():
        pass

    @pytest.mark.xfail(reason="bug 125", strict=True)
    def test_xpass_strict():
        pass

    @pytest.mark.xfail(reason="bug 126")
    def test_xfail_with_teardown_error(broken_teardown):
        assert False

    @pytest.mark.parametrize("value", ["a-1", "b 2", "c[3]"])
    def test_param(value):
        pass
'''


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    suite = tmp_path_factory.mktemp("outcomes")
    (suite / "test_outcomes.py").write_text(textwrap.dedent(OUTCOMES))
    return suite


def test_inactive_without_the_option(fixture_state: Path) -> None:
    help_text = pytest_run(fixture_state, "--help").stdout
    assert "--isolate-record=DIR" in help_text, "the plugin is not loaded through the pytest11 entry point"
    before = set(fixture_state.rglob("*"))
    proc = pytest_run(fixture_state, "-q", PYTHONDONTWRITEBYTECODE="1")  # no __pycache__ either: nothing may land
    assert proc.returncode == 1, proc.stdout  # the victim fails
    assert "isolate: recording" not in proc.stdout
    assert set(fixture_state.rglob("*")) == before


def test_main_process_records_every_test_in_order(fixture_state: Path, tmp_path: Path) -> None:
    proc = pytest_run(fixture_state, "-v", "--isolate-record", str(tmp_path / "rec"))
    assert proc.returncode == 1, proc.stdout
    assert f"isolate: recording to {tmp_path / 'rec'}" in proc.stdout
    assert files(tmp_path / "rec") == ["main.subunit"]
    records, warnings = read(tmp_path / "rec" / "main.subunit")
    assert warnings == []
    expected = verbose_results(proc.stdout)
    assert len(expected) == len(collected(fixture_state)) > 100
    assert [r.id for r in records] == [test_id for test_id, _ in expected]
    words = {"PASSED": "success", "FAILED": "fail"}
    assert [r.status for r in records] == [words[word] for _, word in expected]
    assert {r.tags for r in records} == {frozenset({"worker-main"})}
    assert {r.worker for r in records} == {"worker-main"}
    (victim,) = [r for r in records if r.status == "fail"]
    assert victim.id == "tests/test_invoices.py::test_german_invoice_total_includes_19_percent_vat"
    assert "DE invoice total 116.00 EUR, expected 119.00 EUR (19% VAT)" in victim.details
    for record in records:
        assert record.start and record.stop
        assert dt.datetime.fromisoformat(record.start) <= dt.datetime.fromisoformat(record.stop)
    starts = [dt.datetime.fromisoformat(r.start or "") for r in records]
    assert starts == sorted(starts)


def test_ini_option_is_relative_to_the_ini_file(fixture_state: Path, tmp_path: Path) -> None:
    suite = copy_suite("pytest_fixture_state", tmp_path)
    with (suite / "pytest.ini").open("a") as ini:
        ini.write("isolate_record = .isolate-rec\n")
    proc = pytest_run(suite / "tests", "-q", "test_money.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not (suite / "tests" / ".isolate-rec").exists()
    records, _ = read(suite / ".isolate-rec" / "main.subunit")
    assert [r.id for r in records] == collected(suite, "tests/test_money.py")
    override = pytest_run(suite, "-q", "tests/test_money.py", "--isolate-record", str(tmp_path / "cli"))
    assert override.returncode == 0
    assert files(tmp_path / "cli") == ["main.subunit"]


def test_xdist_workers_record_one_file_each(tmp_path: Path) -> None:
    """`pytest -n 2 --dist loadfile --isolate-record rec` at pollution rate 1 (conftest's
    XDIST_RUN, made once a session and shared: pytest-replay records beside it, in replay/)."""
    suite, stdout, returncode = xdist_recorded(tmp_path)
    assert returncode == 1, stdout.decode()[-2000:]
    assert files(suite / "rec") == ["gw0.subunit", "gw1.subunit"]  # the controller records nothing
    by_worker = {name: read(suite / "rec" / f"{name}.subunit")[0] for name in ("gw0", "gw1")}
    for name, records in by_worker.items():
        assert records, f"{name} ran nothing"
        assert {r.tags for r in records} == {frozenset({f"worker-{name}"})}
    ids = [r.id for records in by_worker.values() for r in records]
    assert sorted(ids) == sorted(collected(suite))
    assert len(ids) == len(set(ids)) > 100
    modules = {name: {r.id.split("::")[0] for r in records} for name, records in by_worker.items()}
    assert not modules["gw0"] & modules["gw1"], "--dist loadfile split a module across workers"
    polluter = "tests/test_store.py::test_rotate_keeps_user_and_data_on_default_store"
    victim = "tests/test_store.py::test_active_sessions_for_user_counts_logins"
    (same,) = [records for records in by_worker.values() if any(r.id == victim for r in records)]
    order = [r.id for r in same]
    assert order.index(polluter) < order.index(victim)
    failed = [r for records in by_worker.values() for r in records if r.status == "fail"]
    assert [r.id for r in failed] == [victim]
    assert "alice has 3 active sessions after 2 logins, expected 2" in failed[0].details


def test_phases_and_outcomes_fold_into_one_status(outcomes: Path) -> None:
    proc = pytest_run(outcomes, "-q", "--isolate-record", "rec")
    assert proc.returncode == 1, proc.stdout
    records, warnings = read(outcomes / "rec" / "main.subunit")
    assert warnings == []
    got = {r.id.removeprefix("test_outcomes.py::"): r for r in records}
    assert {name: r.status for name, r in got.items()} == {
        "test_passes": "success",
        "test_fails": "fail",
        "test_setup_error": "fail",
        "test_teardown_error": "fail",
        "test_call_and_teardown_fail": "fail",
        "test_skipped": "skip",
        "test_skips_itself": "skip",
        "test_xfail": "xfail",
        "test_xpass": "uxsuccess",
        "test_xpass_strict": "uxsuccess",
        "test_xfail_with_teardown_error": "xfail",  # pytest: "XFAIL at teardown" too
        "test_param[a-1]": "success",
        "test_param[b 2]": "success",
        "test_param[c[3]]": "success",
    }
    assert [r.id for r in records] == collected(outcomes)
    assert "arithmetic is broken" in got["test_fails"].details
    assert "RuntimeError: database did not start" in got["test_setup_error"].details
    assert "temp dir still holds 3 files" in got["test_teardown_error"].details
    both = got["test_call_and_teardown_fail"].details
    assert "body failed too" in both and "temp dir still holds 3 files" in both
    assert "[XPASS(strict)] bug 125" in got["test_xpass_strict"].details
    assert got["test_passes"].details == ""


def test_teardown_failure_suite_records_the_victim_as_failed(tmp_path: Path) -> None:
    suite = copy_suite("pytest_teardown_failure", tmp_path)
    proc = pytest_run(suite, "-q", "--isolate-record", "rec")
    assert proc.returncode == 1
    assert "1 error" in proc.stdout
    records, _ = read(suite / "rec" / "main.subunit")
    failed = [r for r in records if r.status != "success"]
    assert [r.id for r in failed] == ["tests/test_delivery.py::test_flush_sends_welcome_mail"]
    assert failed[0].status == "fail"
    assert "fake SMTP got 1 unexpected message(s)" in failed[0].details
    assert "audit@example.com" in failed[0].details


def test_a_new_session_replaces_the_old_recording(fixture_state: Path, tmp_path: Path) -> None:
    """A session without xdist recording where an xdist session recorded: the old gw0 and gw1
    files go, the others stay. The xdist session is conftest's XDIST_RUN, made once a session (its
    making of one file a worker is test_xdist_workers_record_one_file_each's)."""
    xdist, _, returncode = xdist_recorded(tmp_path)
    assert returncode == 1
    rec = xdist / "rec"
    assert files(rec) == ["gw0.subunit", "gw1.subunit"]
    (rec / "notes.txt").write_text("mine")
    second = pytest_run(fixture_state, "-q", "tests/test_money.py", "--isolate-record", str(rec))
    assert second.returncode == 0, second.stdout
    assert files(rec) == ["main.subunit", "notes.txt"]
    records, _ = read(rec / "main.subunit")
    assert [r.id for r in records] == collected(fixture_state, "tests/test_money.py")


def test_a_foreign_subunit_file_is_refused_not_deleted(fixture_state: Path, tmp_path: Path) -> None:
    (tmp_path / "main.subunit").write_bytes(b"old")
    (tmp_path / "stestr-run-7.subunit").write_bytes(b"not ours")
    proc = pytest_run(fixture_state, "-q", "tests/test_money.py", "--isolate-record", str(tmp_path))
    assert proc.returncode == 4  # pytest's usage error
    (line,) = [line for line in proc.stderr.splitlines() if line.strip()]
    assert "stestr-run-7.subunit" in line and "isolate did not write" in line and "another directory" in line
    assert (tmp_path / "stestr-run-7.subunit").read_bytes() == b"not ours"
    assert (tmp_path / "main.subunit").read_bytes() == b"old"


def test_a_file_as_directory_is_a_usage_error(fixture_state: Path, tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("")
    proc = pytest_run(fixture_state, "-q", "--isolate-record", str(tmp_path / "taken"))
    assert proc.returncode == 4
    (line,) = [line for line in proc.stderr.splitlines() if line.strip()]
    assert "is a file; pass a directory" in line


def test_collect_only_leaves_the_recording_alone(fixture_state: Path, tmp_path: Path) -> None:
    (tmp_path / "gw0.subunit").write_bytes(b"from the last real run")
    proc = pytest_run(fixture_state, "--collect-only", "-q", "--isolate-record", str(tmp_path))
    assert proc.returncode == 0
    assert files(tmp_path) == ["gw0.subunit"] and not (tmp_path / PYTEST_ARGS).exists()


CRASH = '''
    import os

    def test_before():
        pass

    def test_segfaults_the_worker():
        os._exit(139)

    def test_after():
        pass
'''


def test_a_crash_leaves_the_test_in_progress(tmp_path: Path) -> None:
    (tmp_path / "test_crash.py").write_text(textwrap.dedent(CRASH))
    proc = pytest_run(tmp_path, "-q", "--isolate-record", "rec")
    assert proc.returncode == 139
    raw = (tmp_path / "rec" / "main.subunit").read_bytes()
    records, warnings = read(tmp_path / "rec" / "main.subunit")
    assert [(r.id, r.status) for r in records] == [
        ("test_crash.py::test_before", "success"),
        ("test_crash.py::test_segfaults_the_worker", "fail"),
    ]
    assert raw.count(b"test_crash.py::test_segfaults_the_worker") == 1  # only its inprogress event
    assert any("test_segfaults_the_worker" in w and "cut short" in w for w in warnings)

    xdist = pytest_run(tmp_path, "-q", "-n", "1", "--isolate-record", "rec")
    assert xdist.returncode == 1, xdist.stdout
    assert files(tmp_path / "rec") == ["gw0.subunit", "gw1.subunit"]  # xdist replaced the dead gw0
    crashed, _ = read(tmp_path / "rec" / "gw0.subunit")
    assert [(r.id, r.status) for r in crashed][-1] == ("test_crash.py::test_segfaults_the_worker", "fail")
    replacement, _ = read(tmp_path / "rec" / "gw1.subunit")
    assert [(r.id, r.status, r.worker) for r in replacement] == [("test_crash.py::test_after", "success", "worker-gw1")]


def test_verdict_precedence() -> None:
    ok = Phase("setup", "passed", False, "")
    assert verdict([ok, Phase("call", "passed", False, ""), Phase("teardown", "passed", False, "")]) == ("success", "")
    assert verdict([ok, Phase("call", "failed", False, "[XPASS(strict)] r"), Phase("teardown", "failed", False, "E")]) \
        == ("fail", "E")
    assert verdict([Phase("setup", "skipped", True, "r")]) == ("xfail", "r")
    assert verdict([ok, Phase("call", "passed", True, "r")]) == ("uxsuccess", "")
    assert verdict([Phase("setup", "skipped", False, "why"), Phase("teardown", "passed", False, "")]) == ("skip", "why")
    assert verdict([]) == ("success", "")


RERUN_SUITE = '''
import pytest

STATE = {"leak": False, "tries": 0}


def test_a_polluter():
    STATE["leak"] = True


def test_b_bystander():
    pass


def test_c_network():  # fails its first try, passes its rerun
    STATE["tries"] += 1
    assert STATE["tries"] > 1


def test_d_victim():
    assert not STATE["leak"]
'''


def test_a_rerun_is_recorded_as_its_first_attempt_ended(tmp_path: Path) -> None:
    """QA (pytest-rerunfailures, `--reruns 2` in addopts): each attempt was recorded as a test of
    its own, a failure that a rerun hid as a pass, and the repeated id read as a second process,
    so extract said the victim ran first and lost its polluter. A rerun is the failure it was,
    recorded once; the order before the victim is whole."""
    pytest.importorskip("pytest_rerunfailures")
    (tmp_path / "test_r.py").write_text(textwrap.dedent(RERUN_SUITE))
    proc = pytest_run(tmp_path, "--reruns", "2", "--isolate-record", "rec")
    assert "1 failed, 3 passed, 3 rerun" in proc.stdout, proc.stdout[-2000:]  # the victim's two, the network's one
    records, warnings = read(tmp_path / "rec" / "main.subunit")
    assert [(r.id.split("::")[1], r.status) for r in records] == [
        ("test_a_polluter", "success"), ("test_b_bystander", "success"), ("test_c_network", "fail"),
        ("test_d_victim", "fail")], (records, warnings)
    out = subprocess.run([sys.executable, "-m", "isolate", "extract", "--stream", "rec", "--test", "test_d_victim",
                          "-o", "-"], cwd=tmp_path, env=env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [f"test_r.py::{name}" for name in ("test_a_polluter", "test_b_bystander",
                                                                   "test_c_network", "test_d_victim")]
    assert "process runs" not in out.stderr, out.stderr


def test_extract_names_the_recording_options_a_hunt_leaves_out(tmp_path: Path) -> None:
    """QA: recorded with `pytest --count 2`, `-W error::...` or a conftest's `--runslow`, the hunts
    could not run (unknown ids) or never reproduced, and nothing said the recording's command
    line had options a hunt's runs leave out. The recorder keeps the command line; extract names
    those options (not the paths, node ids, output or recording options) and the fix."""
    (tmp_path / "test_r.py").write_text(textwrap.dedent(RERUN_SUITE))
    proc = pytest_run(tmp_path, "-q", "-rA", "--isolate-record", "rec", "-W", "error::DeprecationWarning", "-o",
                      "xfail_strict=true", "test_r.py::test_a_polluter", "test_r.py::test_d_victim")
    assert proc.returncode == 1, proc.stdout[-2000:]
    out = subprocess.run([sys.executable, "-m", "isolate", "extract", "--stream", "rec"], cwd=tmp_path, env=env(),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    said = next(line for line in out.stderr.splitlines() if "the recording's pytest ran with" in line)
    assert "ran with -W error::DeprecationWarning -o xfail_strict=true, and a hunt's runs" in said, said
    assert "--pytest-arg=-W" in said and "test_r.py" not in said.split(", and")[0], said
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "test_r.py").write_text(textwrap.dedent(RERUN_SUITE))
    pytest_run(plain, "-q", "--isolate-record", "rec")  # nothing to leave out: nothing said
    out = subprocess.run([sys.executable, "-m", "isolate", "extract", "--stream", "rec", "--test", "test_d_victim"],
                         cwd=plain, env=env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "the recording's pytest ran with" not in out.stderr, out.stderr
