"""The worker's side of a remote run (executors/remote.py), without Dask: real test processes
in a real sample suite, judged as the Runner judges them; the checkout fingerprint on real files
and real git checkouts; and that nothing but the Dask executor imports Dask."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import alive, assert_user_error, copy_suite, env, isolate
from isolate.errors import UserError
from isolate.running.executors.remote import (
    Request, fingerprint, git_head, mismatch, module_files, run_repetition, worker_fingerprint, worker_project,
)
from isolate.running.judge import Expectation, judge
from isolate.running.project import find_project

VICTIM = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
CULPRIT = "reportgen.tests.core.test_config.ConfigDefaultsTest.test_set_default_currency"
SLOW = "reportgen.tests.test_slow.SlowTest.test_slow"


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    suite = copy_suite("deterministic_polluter", tmp_path)
    (suite / "reportgen" / "tests" / "test_slow.py").write_text(
        "import os, time, unittest\n\n\nclass SlowTest(unittest.TestCase):\n"
        "    def test_slow(self):\n        open(f'started-{os.getpid()}', 'w').close()\n"
        "        time.sleep(30)\n")
    return suite


def judged(result: dict[str, object], ids: list[str], tmp_path: Path) -> object:
    """Write the returned files as the client does, and judge them as the Runner does."""
    job = tmp_path / "job"
    shutil.rmtree(job, ignore_errors=True)
    job.mkdir()
    for name, key in (("stream.subunit", "stream"), ("error.txt", "error"), ("output.txt", "output")):
        if result[key] is not None:
            (job / name).write_bytes(result[key])  # type: ignore[arg-type]
    return judge(ids=ids, target=ids[-1], stream=job / "stream.subunit", error_file=job / "error.txt",
                 output=job / "output.txt", returncode=result["returncode"],  # type: ignore[arg-type]
                 timed_out=bool(result["timed_out"]), seconds=float(result["seconds"]),  # type: ignore[arg-type]
                 expect=Expectation())


def test_a_repetition_runs_from_the_workers_directory_and_is_judged_unchanged(
        suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(suite / "reportgen")  # a worker started anywhere in the checkout
    monkeypatch.setenv("PYTHON", sys.executable)
    polluted = [CULPRIT, VICTIM]
    result = run_repetition(Request(tuple(polluted), "stestr", 60.0))
    assert result["error"] is None and not result["timed_out"] and not result["cancelled"]
    outcome = judged(result, polluted, tmp_path)
    assert outcome.kind == "fail" and outcome.reproduced and outcome.ran == tuple(polluted)  # type: ignore[attr-defined]
    alone = run_repetition(Request((VICTIM,), "stestr", 60.0))
    assert judged(alone, [VICTIM], tmp_path).kind == "pass"  # type: ignore[attr-defined]
    unknown = run_repetition(Request(("reportgen.tests.core.test_report.Nope.test_no", VICTIM), "stestr", 60.0))
    assert judged(unknown, ["x", VICTIM], tmp_path).kind == "error"  # type: ignore[attr-defined]


def test_a_cancelled_or_timed_out_repetition_has_its_process_killed(
        suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(suite)
    monkeypatch.setenv("PYTHON", sys.executable)
    stop = threading.Event()
    threading.Thread(target=lambda: (_wait_for_mark(suite, 1), stop.set()), daemon=True).start()
    cancelled = run_repetition(Request((SLOW,), "stestr", 120.0), stop.is_set)
    assert cancelled["cancelled"] and not cancelled["timed_out"]
    timed = run_repetition(Request((SLOW,), "stestr", 1.0))
    assert timed["timed_out"] and not timed["cancelled"]
    assert judged(timed, [SLOW], tmp_path).kind == "timeout"  # type: ignore[attr-defined]
    marks = list(suite.glob("started-*"))
    assert len(marks) in (1, 2)  # the timed-out one may not have reached its test within 1 s
    for mark in marks:
        assert not alive(int(mark.name.split("-")[1]))


def _wait_for_mark(suite: Path, count: int) -> None:
    while len(list(suite.glob("started-*"))) < count:
        time.sleep(0.02)


def test_the_fingerprint_covers_the_listed_modules_and_the_configuration(suite: Path) -> None:
    project = find_project(suite)
    ids = [CULPRIT, VICTIM, "reportgen.tests.output.test_formats.FormatTest.test_render(json)", "no.such.Test.test"]
    assert module_files(project, ids) == [
        ".stestr.conf", "reportgen/tests/core/test_config.py", "reportgen/tests/core/test_report.py",
        "reportgen/tests/output/test_formats.py"]
    pytest_suite = copy_suite("pytest_fixture_state", suite.parent)
    pytest_project = find_project(pytest_suite)
    assert module_files(pytest_project, ["tests/test_invoices.py::test_x", "tests/test_catalog.py::test_y"]) == [
        "pytest.ini", "tests/conftest.py", "tests/test_catalog.py", "tests/test_invoices.py"]


def test_a_differing_checkout_is_named(suite: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(suite, other)
    project = find_project(suite)
    files = module_files(project, [CULPRIT, VICTIM])
    mine = fingerprint(project, files)
    assert mismatch(mine, worker_fingerprint("stestr", files, other)) is None
    target = other / "reportgen" / "tests" / "core" / "test_report.py"
    target.write_text(target.read_text() + "# changed\n")
    assert mismatch(mine, worker_fingerprint("stestr", files, other)) == (
        f"reportgen/tests/core/test_report.py differs in its checkout {other}")
    target.unlink()
    assert "test_report.py is missing" in str(mismatch(mine, worker_fingerprint("stestr", files, other)))
    # (the sample has both configurations: a worker asked for a testr hunt takes .testr.conf, as the hunt's
    # own runs do, and the client's project here is stestr)
    assert "is a testr project, this one stestr" in str(mismatch(mine, worker_fingerprint("testr", files, other)))
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    with pytest.raises(UserError, match="no test configuration found"):
        worker_project("stestr", (), nowhere)
    assert "no test configuration found" in str(mismatch(mine, worker_fingerprint("stestr", files, nowhere)))


def test_git_head_is_compared_where_both_checkouts_have_one(suite: Path, tmp_path: Path) -> None:
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q"], cwd=suite, check=True)
    subprocess.run([*git, "add", "."], cwd=suite, check=True)
    subprocess.run([*git, "commit", "-qm", "one"], cwd=suite, check=True)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(suite), str(clone)], check=True)
    (suite / "reportgen" / "config.py").write_text((suite / "reportgen" / "config.py").read_text() + "\n")
    subprocess.run([*git, "commit", "-qam", "the code under test changed"], cwd=suite, check=True)
    project = find_project(suite)
    files = module_files(project, [VICTIM])
    mine = fingerprint(project, files)
    assert mine["head"] == git_head(suite) and len(mine["head"]) == 40
    why = mismatch(mine, worker_fingerprint("stestr", files, clone))
    assert why is not None and f"is at commit {git_head(clone)[:12]}" in why  # type: ignore[index]
    copy = tmp_path / "plain-copy"
    shutil.copytree(suite, copy, ignore=shutil.ignore_patterns(".git"))
    assert mismatch(mine, worker_fingerprint("stestr", files, copy)) is None  # no HEAD there


def test_nothing_but_the_dask_executor_imports_dask(tmp_path: Path) -> None:
    code = ("import importlib, pkgutil, sys, isolate, isolate.cli\n"
            "for m in pkgutil.walk_packages(isolate.__path__, 'isolate.'):\n"
            "    if m.name not in ('isolate.running.executors.dask', 'isolate.__main__'):\n"
            "        importlib.import_module(m.name)\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] in ('distributed', 'dask')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_without_dask_installed_a_scheduler_is_one_line(tmp_path: Path) -> None:
    suite = copy_suite("deterministic_polluter", tmp_path)
    (suite / "list.txt").write_text(VICTIM + "\n")
    code = ("import sys; sys.modules['distributed'] = None  # as if not installed\n"
            "from isolate.cli import main; main()\n")
    proc = subprocess.run([sys.executable, "-c", code, "replay", "list.txt", "--scheduler", "tcp://127.0.0.1:8786"],
                          cwd=suite, capture_output=True, text=True, env=env())
    assert_user_error(proc, "--scheduler tcp://127.0.0.1:8786 (or ISOLATE_SCHEDULER) needs Dask",
                      "pip install 'isolate[dask]'", "unset ISOLATE_SCHEDULER")
    local = isolate(suite, "replay", "list.txt", "--json")
    assert local.returncode == 0 and '"local": 1' in local.stdout
    # the variable set to junk is named as the cause; blank is unset
    assert_user_error(isolate(suite, "replay", "list.txt", ISOLATE_SCHEDULER="junk"),
                      "ISOLATE_SCHEDULER='junk' is no Dask scheduler address", "unset ISOLATE_SCHEDULER")
    blank = isolate(suite, "replay", "list.txt", "--json", ISOLATE_SCHEDULER="  ")
    assert blank.returncode == 0 and '"local": 1' in blank.stdout, blank.stderr
