"""Replaying pytest lists: real pytest processes on copies of the pytest sample suites."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from conftest import assert_user_error, copy_suite, isolate, made_copy, run, tool, xdist_recorded

from isolate.running.project import find_project
from isolate.running.runner import ERROR, FAIL, PASS, Runner
from isolate.running.signature import signature_from_traceback
from isolate.hunt.forkcheck import CHECK_AFTER_PYTEST
from isolate.search.repeats import AUTO_K
from isolate.running.judge import read_stream

FIXTURE_POLLUTER = "tests/test_catalog.py::test_shelf_price_during_2020_vat_cut"
FIXTURE_VICTIM = "tests/test_invoices.py::test_german_invoice_total_includes_19_percent_vat"
TEARDOWN_POLLUTER = "tests/test_compose.py::test_enqueue_adds_message_to_outbox"
TEARDOWN_VICTIM = "tests/test_delivery.py::test_flush_sends_welcome_mail"
MONKEY_POLLUTER = "tests/test_formatting.py::test_humanize_relative_to_frozen_leap_day"
MONKEY_VICTIM = "tests/test_reminders.py::test_new_reminder_is_stamped_today"
XDIST_POLLUTER = "tests/test_store.py::test_rotate_keeps_user_and_data_on_default_store"
XDIST_VICTIM = "tests/test_store.py::test_active_sessions_for_user_counts_logins"


def record(suite: Path, *args: str, **extra: str) -> dict[str, tuple[list[str], dict[str, str]]]:
    """Run the suite with ``--isolate-record rec``: per file, the ids in order and failure texts."""
    proc = run([tool("pytest"), "-q", "--isolate-record", "rec", *args], suite, **extra)
    assert proc.returncode in (0, 1), proc.stdout.decode()[-2000:]
    return recorded_in(suite)


def recorded_in(suite: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    """What ``suite/rec`` holds: per file, the ids in order and failure texts."""
    found = {}
    for path in sorted((suite / "rec").glob("*.subunit")):
        occurrences = read_stream(path)
        found[path.stem] = ([o.test_id for o in occurrences],
                            {o.test_id: o.text("traceback") for o in occurrences if o.status == "fail"})
    return found


def pytest_recording(name: str, dest: Path) -> tuple[Path, int]:
    """A copy in `dest` of the pytest sample suite `name` with ``rec/`` from one real
    ``pytest -q --isolate-record rec`` of it, and that pytest's exit status.

    The pytest run is made once per test session for each suite, in the folder where
    conftest.recording() keeps its stestr runs (the pytest-xdist workers share it), and copied:
    these tests and their hunts read the recording, never write it. (Bytecode caches are left out
    of the copy, as recording() leaves them out.)"""
    key = "pytest-" + hashlib.sha256(json.dumps([name, "-q", "--isolate-record", "rec"]).encode()).hexdigest()[:16]

    def make(folder: Path) -> None:
        proc = run([tool("pytest"), "-q", "--isolate-record", "rec"], copy_suite(name, folder))
        (folder / "returncode").write_text(str(proc.returncode))

    suite, made = made_copy(key, name, dest, make)
    return suite, int((made / "returncode").read_text())


@pytest.fixture(scope="module")
def fixture_state(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], dict[str, str]]:
    suite, returncode = pytest_recording("pytest_fixture_state", tmp_path_factory.mktemp("fs"))
    assert returncode in (0, 1), returncode
    order, failures = recorded_in(suite)["main"]
    return suite, order, failures


def test_detects_pytest_configuration(tmp_path: Path) -> None:
    for name, text in [("pytest.ini", ""), ("pyproject.toml", "[tool.pytest.ini_options]\n"),
                       ("setup.cfg", "[tool:pytest]\n"), ("tox.ini", "[pytest]\n")]:
        root = tmp_path / name
        (root / "sub").mkdir(parents=True)
        (root / name).write_text(text)
        project = find_project(root / "sub")
        assert (project.kind, project.root, project.config_file) == ("pytest", root, root / name)
    (tmp_path / "tox.ini" / ".stestr.conf").write_text("[DEFAULT]\ntest_path=./tests\n")
    (tmp_path / "tox.ini" / "tests").mkdir()
    assert find_project(tmp_path / "tox.ini").kind == "stestr"  # stestr/testr config wins
    assert find_project(tmp_path / "tox.ini", kind="pytest").kind == "pytest"  # the override
    with pytest.raises(ValueError, match="preload needs a stestr/testr project"):
        Runner(find_project(tmp_path / "pytest.ini"), mode="fork", preload=["test_a.py::test_x"])


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_reverse_collection_order_runs_reversed(fixture_state: tuple[Path, list[str], dict[str, str]],
                                                mode: str) -> None:
    suite, order, _ = fixture_state
    # across three modules, so pytest's own per-file order would differ
    ids = [i for i in order if i.startswith(("tests/test_money.py", "tests/test_vat.py", "tests/test_catalog.py"))]
    ids = ids[:8] + ids[-8:]
    ids.reverse()
    with Runner(find_project(suite), mode=mode) as runner:
        (outcome,) = runner.run(ids, ids[-1])
    assert outcome.kind == PASS, outcome
    assert list(outcome.ran) == ids


def test_polluter_first_reproduces_recorded_signature(fixture_state: tuple[Path, list[str], dict[str, str]]) -> None:
    """A replay's failure text gives the recording's signature, and the runner judges the victim by
    it. Forked: fresh runs doing the same are test_end_to_end[fixture_state]'s default hunt, whose
    verdict needs runs that reproduced the recorded signature (a victim failing another way is no
    evidence: not-reproduced) and runs of the victim alone that passed (else fails-alone)."""
    suite, _, failures = fixture_state
    expected = signature_from_traceback(failures[FIXTURE_VICTIM])
    assert expected == ("AssertionError: DE invoice total N EUR, expected N EUR (N% VAT) @ "
                        "test_invoices.py:test_german_invoice_total_includes_19_percent_vat")
    with Runner(find_project(suite), mode="fork", expected_signature=expected, timeout=60) as runner:
        polluted = runner.run([FIXTURE_POLLUTER, FIXTURE_VICTIM], FIXTURE_VICTIM, times=2, jobs=2)
        alone = runner.run([FIXTURE_VICTIM], FIXTURE_VICTIM)
    assert [(o.kind, o.reproduced, o.signature) for o in polluted] == [(FAIL, True, expected)] * 2
    assert "116.00 EUR" in polluted[0].details
    assert [o.kind for o in alone] == [PASS]


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_monkeypatch_leak_and_unknown_id(tmp_path: Path, mode: str) -> None:
    suite = copy_suite("pytest_monkeypatch_leak", tmp_path)
    with Runner(find_project(suite), mode=mode) as runner:
        (polluted,) = runner.run([MONKEY_POLLUTER, MONKEY_VICTIM], MONKEY_VICTIM)
        (unknown,) = runner.run([MONKEY_POLLUTER, "tests/test_reminders.py::test_nope", MONKEY_VICTIM], MONKEY_VICTIM)
        (nofile,) = runner.run(["tests/test_gone.py::test_x", MONKEY_VICTIM], MONKEY_VICTIM)
        runner.repeat = 3  # the victim repeated is one missing id (QA: "and 9 more" of one test renamed)
        (repeated,) = runner.run([MONKEY_POLLUTER, "tests/test_reminders.py::test_nope"], "tests/test_reminders.py::test_nope")
    assert repeated.kind == ERROR and "'tests/test_reminders.py::test_nope'" in repeated.message, repeated
    assert "more)" not in repeated.message, repeated.message
    assert polluted.kind == FAIL and "stamped 2024-02-29" in polluted.details, polluted
    assert unknown.kind == ERROR and "'tests/test_reminders.py::test_nope'" in unknown.message, unknown
    assert unknown.ran == ()  # nothing ran before the error
    assert nofile.kind == ERROR and "'tests/test_gone.py::test_x'" in nofile.message, nofile


def test_teardown_failure_counts_as_the_targets(tmp_path: Path) -> None:
    """A fixture's teardown error is the failure of the test it tore down, with the recording's
    signature. Forked: in fresh runs, test_end_to_end[teardown_failure]'s default hunt shows it (its
    polluter verdict needs the recorded signature reproduced: with another one in failure.txt the
    same hunt says not-reproduced, 'failed 4 times another way')."""
    suite, returncode = pytest_recording("pytest_teardown_failure", tmp_path)
    assert returncode in (0, 1), returncode
    _, failures = recorded_in(suite)["main"]
    expected = signature_from_traceback(failures[TEARDOWN_VICTIM])
    assert expected and expected.startswith("AssertionError: fake SMTP got N unexpected message(s)")
    with Runner(find_project(suite), mode="fork", expected_signature=expected) as runner:
        (polluted,) = runner.run([TEARDOWN_POLLUTER, TEARDOWN_VICTIM], TEARDOWN_VICTIM)
        (alone,) = runner.run([TEARDOWN_VICTIM], TEARDOWN_VICTIM)
    assert (polluted.kind, polluted.reproduced, polluted.signature) == (FAIL, True, expected), polluted
    assert alone.kind == PASS, alone


def test_xdist_randomly_recording_and_cache_are_off(tmp_path: Path) -> None:
    """xdist (installed) and a plugin named `randomly` are not loaded; nothing lands in the project,
    though the ini asks for recording and addopts for xdist."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pytest.ini").write_text("[pytest]\nisolate_record = rec\naddopts = -n 2 --dist loadfile\n")
    (root / "randomly.py").write_text("def pytest_runtest_setup(item):\n    raise RuntimeError('randomly is on')\n")
    (root / "conftest.py").write_text("pytest_plugins = ['randomly']\n")
    (root / "test_a.py").write_text(
        "def test_no_xdist(request):\n"
        "    assert not request.config.pluginmanager.has_plugin('xdist')\n"
        "def test_b():\n    pass\n"
    )
    # the setup is real: `randomly` loads and the ini records. In one process (-n 0), as a replay
    # runs: addopts' two xdist workers would do the same twice over, for 1.3 CPU-s more
    plain = run([tool("pytest"), "-q", "-p", "no:cacheprovider", "-n", "0"], root)
    assert plain.returncode == 1 and b"randomly is on" in plain.stdout
    shutil.rmtree(root / "rec")  # what that plain run recorded
    before = sorted(p.relative_to(root) for p in root.rglob("*") if "__pycache__" not in p.parts)
    ids = ["test_a.py::test_b", "test_a.py::test_no_xdist"]
    with Runner(find_project(root)) as runner:
        (outcome,) = runner.run(ids, ids[-1])
    assert outcome.kind == PASS and list(outcome.ran) == ids, outcome
    after = sorted(p.relative_to(root) for p in root.rglob("*") if "__pycache__" not in p.parts)
    assert after == before  # no .pytest_cache, no rec/
    (tmp_path / "list.txt").write_text("test_a.py::test_b\n")
    proc = isolate(root, "replay", str(tmp_path / "list.txt"), "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["outcomes"]["pass"] == 1, proc.stderr
    proc = isolate(root, "replay", str(tmp_path / "list.txt"), "--pytest-arg=-k", "--pytest-arg=nomatch")
    assert proc.returncode == 2 and "did not collect" in proc.stderr, proc.stderr
    (tmp_path / "imports.txt").write_text("import:test_a\ntest_a.py::test_b\n")  # stestr's module imports
    proc = isolate(root, "replay", str(tmp_path / "imports.txt"))
    assert proc.returncode == 2 and "'import:test_a' is a module import" in proc.stderr, proc.stderr
    assert "fix: remove the import: lines" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("addopts", ["-x", "--maxfail=1", "--sw", "--lf --ff --lfnf=none --cache-clear"])
def test_a_replay_runs_past_a_failing_predecessor_whatever_addopts_say(tmp_path: Path, addopts: str) -> None:
    """QA: with -x in addopts pytest ended each run at a failing predecessor, before the victim:
    100 runs that were no evidence, and 'not-reproduced' of a victim that failed every time; and
    --sw in addopts stopped every run with "unrecognized arguments" (the cache plugin is off)."""
    (tmp_path / "pytest.ini").write_text(f"[pytest]\naddopts = -q {addopts}\n")
    (tmp_path / "test_s.py").write_text("STATE = []\ndef test_broken():\n    assert False\n"
                                        "def test_polluter():\n    STATE.append(1)\n"
                                        "def test_victim():\n    assert not STATE\n")
    plain = run([tool("pytest"), "-p", "no:randomly", "test_s.py"], tmp_path)
    assert b"3 passed" not in plain.stdout and b"2 failed" not in plain.stdout  # real: pytest alone stops or skips
    ids = ["test_s.py::test_broken", "test_s.py::test_polluter", "test_s.py::test_victim"]
    with Runner(find_project(tmp_path)) as runner:
        (outcome,) = runner.run(ids, ids[-1])
    assert outcome.kind == FAIL and list(outcome.ran) == ids, outcome


PLUGIN_OPTIONS = ("--randomly-seed=3 --randomly-dont-reorganize --reruns 2 --reruns-delay 0 --only-rerun Assertion"
                  " --force-flaky --max-runs 3 --min-passes 1 --no-flaky-report --cov --cov=pkg --cov-report=term"
                  " --cov-fail-under 90 --no-cov-on-fail -n 2 --dist loadfile")


def test_the_options_of_plugins_a_replay_blocks_still_parse(tmp_path: Path) -> None:
    """QA: a replay blocks pytest-randomly, and with --randomly-seed in addopts every run ended as
    "unrecognized arguments"; pytest-rerunfailures' reruns broke the list's order (the hunt
    stopped: "order mismatch") or hid the failure, and pytest-cov rewrote the project's
    .coverage. A replay blocks them all, and their options (and rerunfailures' marker, under
    --strict-markers) parse as no-ops, whether the plugins are installed or not."""
    (tmp_path / "pytest.ini").write_text(f"[pytest]\naddopts = -q --strict-markers {PLUGIN_OPTIONS}\nreruns = 2\n")
    (tmp_path / "test_s.py").write_text("import pytest\nSTATE = []\n"
                                        "def test_polluter():\n    STATE.append(1)\n"
                                        "@pytest.mark.flaky(reruns=3)\ndef test_victim():\n    assert not STATE\n")
    ids = ["test_s.py::test_polluter", "test_s.py::test_victim"]
    with Runner(find_project(tmp_path)) as runner:
        (outcome,) = runner.run(ids, ids[-1])
    assert outcome.kind == FAIL and list(outcome.ran) == ids, outcome
    assert not (tmp_path / ".coverage").exists()


def _bisect_json(suite: Path, victim: str, *args: str, **extra: str) -> dict[str, object]:
    extract = isolate(suite, "extract", "--stream", "rec", "--test", victim, **extra)
    assert extract.returncode == 0, extract.stderr
    proc = isolate(suite, "bisect", victim, "--json", *args, **extra)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("name, polluter, victim, mode", [
    ("pytest_fixture_state", FIXTURE_POLLUTER, FIXTURE_VICTIM, "--fork-server"),
    ("pytest_monkeypatch_leak", MONKEY_POLLUTER, MONKEY_VICTIM, None),
    ("pytest_teardown_failure", TEARDOWN_POLLUTER, TEARDOWN_VICTIM, "--fork-server"),
], ids=["fixture_state", "monkeypatch_leak", "teardown_failure"])
def test_end_to_end(tmp_path: Path, name: str, polluter: str, victim: str, mode: str | None) -> None:
    """Each kind of pytest pollution named; the default mode on one suite, forks (a fifth of the
    CPU) on the others: what differs between them is the pollution, not the mode."""
    suite, returncode = pytest_recording(name, tmp_path)  # pytest -q --isolate-record rec
    assert returncode == 1
    verdict = _bisect_json(suite, victim, *([mode] if mode else []))
    assert verdict["verdict"] == "polluter", verdict
    assert verdict["culprits"] == [polluter], verdict
    assert verdict["confidence"] >= 0.99, verdict
    by_mode = verdict["runs_by_mode"]
    if mode:
        assert by_mode == {"fresh": 0, "fork": verdict["runs"]}, verdict
        return
    # a pytest hunt checks the fork server only after CHECK_AFTER_PYTEST fresh runs: these end before
    if by_mode["fork"]:
        assert by_mode["fresh"] >= CHECK_AFTER_PYTEST and verdict["mode"].startswith("fork (checked: "), verdict
    else:
        assert verdict["mode"] == (f"fresh (automatic: the fork check comes after {CHECK_AFTER_PYTEST} runs"
                                   " that are evidence)"), verdict["mode"]


def test_end_to_end_with_the_victim_repeated(tmp_path: Path) -> None:
    suite, returncode = pytest_recording("pytest_monkeypatch_leak", tmp_path)  # pytest -q --isolate-record rec
    assert returncode == 1
    verdict = _bisect_json(suite, MONKEY_VICTIM, "--repeat-victim", "3", "--fork-server")
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == [MONKEY_POLLUTER], verdict
    assert verdict["runs_by_mode"] == {"fresh": 0, "fork": verdict["runs"]}, verdict  # every run a fork
    hunt = next((suite / ".isolate").glob("*/"))
    entries = [json.loads(line) for line in (hunt / "journal.jsonl").read_text().splitlines()]
    codes = [e.get("executions", "") for e in entries]
    stopped = next((i for i, c in enumerate(codes) if len(c) != 3), len(codes))
    # the 10 runs of the check alone, then K-fold runs until the deterministic polluter had failed
    # 3 of them on every execution: repeats then stop (they add nothing), single runs follow, but
    # the stop check's, which execute the victim AUTO_K times (judged on the first). A full run on a
    # loaded machine once had no single run at all (what came instead was not kept): the runs after
    # the repeats are not required to include one, and a failure prints every run's executions.
    assert stopped > 10 and set(codes[:stopped]) == {"ppp", "rrr"}, codes
    again = [c for c in codes[stopped:] if c]
    assert again and all(len(c) == AUTO_K for c in again), codes
    assert verdict["repeats"]["used"] == 1 and verdict["repeats"]["state"] == "off", verdict["repeats"]
    assert "did so on all its executions" in verdict["repeats"]["summary"], verdict["repeats"]


def test_end_to_end_flaky_xdist(tmp_path: Path) -> None:
    """A pytest-xdist recording whose victim failed, and a hunt of the pollution as a flaky one."""
    # the recorded run must contain the failure: at rate 1 its one xdist run does (at 0.5, as the
    # hunt below, it took 2 runs on average); what it records is the same either way. That run
    # (pytest -n 2 --dist loadfile --isolate-record rec) is made once a session and shared
    suite, stdout, returncode = xdist_recorded(tmp_path)
    assert returncode == 1, stdout.decode()[-1000:]
    # forks from the first run: what is tested here is the xdist worker's order, not the mode; the
    # victim passes a fifth of the runs the polluter is in (at 0.5 the hunt took about twice the runs)
    verdict = _bisect_json(suite, XDIST_VICTIM, "--fork-server", SAMPLE_POLLUTION_RATE="0.8")
    assert verdict["verdict"] == "polluter", verdict
    assert verdict["culprits"] == [XDIST_POLLUTER], verdict
    assert verdict["confidence"] >= 0.99, verdict
    assert verdict["runs_by_mode"]["fresh"] == 0, verdict


def test_signature_same_for_every_traceback_style(tmp_path: Path) -> None:
    """pytest's long, short and native texts of one failure give one signature."""
    (tmp_path / "pytest.ini").write_text("")
    (tmp_path / "helper.py").write_text("def check(x):\n    assert x == 2, f'x is {x}'\n")
    (tmp_path / "test_a.py").write_text(
        "import pytest, helper\n"
        "@pytest.fixture\ndef fx():\n    yield 1\n    assert False, 'teardown broke 3'\n"
        "def test_bare():\n    x = 1\n    assert x == 2\n"
        "def test_helper():\n    helper.check(1)\n"
        "def test_td(fx):\n    pass\n"
    )
    seen = []
    for style in ("long", "short", "native"):
        _, failures = record(tmp_path, f"--tb={style}", "-p", "no:cacheprovider")["main"]
        seen.append({i: signature_from_traceback(text) for i, text in failures.items()})
    assert seen[0] == seen[1] == seen[2] == {
        "test_a.py::test_bare": "AssertionError: assert N == N @ test_a.py:test_bare",
        "test_a.py::test_helper": "AssertionError: x is N @ helper.py:check",
        "test_a.py::test_td": "AssertionError: teardown broke N @ test_a.py:fx",
    }


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_a_run_ends_once_the_session_did(tmp_path: Path, mode: str) -> None:
    """A non-daemon thread a test started would hold the pytest process (here for 120 s, so until
    the run's timeout). The run ends once the session has: conftest's pytest_sessionfinish and
    atexit handlers run; the session's report (hypothesis's plugin imports all of hypothesis
    there) does not."""
    (tmp_path / "pytest.ini").write_text("")
    (tmp_path / "conftest.py").write_text(
        "import os\n"
        "def pytest_sessionfinish(session):\n    open(f'sessionfinish-{os.getpid()}', 'w').close()\n"
        "def pytest_terminal_summary(terminalreporter):\n    open(f'summary-{os.getpid()}', 'w').close()\n")
    (tmp_path / "test_t.py").write_text(
        "import atexit, os, threading, time\n"
        "def test_thread():\n    threading.Thread(target=time.sleep, args=(120,)).start()\n"
        "def test_atexit():\n    atexit.register(lambda: open(f'atexit-{os.getpid()}', 'w').close())\n"
        "def test_victim():\n    pass\n")
    ids = ["test_t.py::test_thread", "test_t.py::test_atexit", "test_t.py::test_victim"]
    with Runner(find_project(tmp_path), mode=mode, timeout=60) as runner:
        outcomes = runner.run(ids, ids[-1], times=2)
    assert [o.kind for o in outcomes] == [PASS, PASS], outcomes
    assert all(o.seconds < 30 for o in outcomes), [o.seconds for o in outcomes]  # the timeout is 60
    assert len(list(tmp_path.glob("sessionfinish-*"))) == len(list(tmp_path.glob("atexit-*"))) == 2
    assert not list(tmp_path.glob("summary-*"))


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_timeout_kills_the_pytest_process(tmp_path: Path, mode: str) -> None:
    (tmp_path / "pytest.ini").write_text("")
    (tmp_path / "test_s.py").write_text("import time\ndef test_fast():\n    pass\ndef test_sleep():\n    time.sleep(60)\n")
    ids = ["test_s.py::test_fast", "test_s.py::test_sleep"]
    with Runner(find_project(tmp_path), mode=mode, timeout=3) as runner:
        (outcome,) = runner.run(ids, ids[-1])
    assert outcome.kind == "timeout" and "while running 'test_s.py::test_sleep'" in outcome.message, outcome
    assert outcome.seconds < 10 and list(outcome.ran) == ids


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_collection_error_is_named_and_discover_all_collects_everything(tmp_path: Path, mode: str) -> None:
    (tmp_path / "pytest.ini").write_text("")
    (tmp_path / "test_ok.py").write_text("def test_ok():\n    pass\n")
    (tmp_path / "test_bad.py").write_text("import nosuchmod\ndef test_x():\n    pass\n")
    with Runner(find_project(tmp_path), mode=mode) as runner:
        (broken,) = runner.run(["test_ok.py::test_ok", "test_bad.py::test_x"], "test_ok.py::test_ok")
    assert broken.kind == ERROR and broken.message.startswith("cannot collect 'test_bad.py'"), broken
    assert "nosuchmod" in broken.message and "; fix: " in broken.message
    with Runner(find_project(tmp_path), mode=mode, discover_all=True) as runner:
        (fine,) = runner.run(["test_ok.py::test_ok"], "test_ok.py::test_ok")
    assert fine.kind == PASS, fine  # the broken file was collected, and does not stop the run


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_a_conftest_that_raises_is_named_with_what_it_raised(tmp_path: Path, mode: str) -> None:
    """pytest wraps it as 'ImportError while loading conftest ...', and that was all the error
    said: not the RuntimeError the conftest raised, nor its message."""
    (tmp_path / "pytest.ini").write_text("")
    (tmp_path / "conftest.py").write_text("raise RuntimeError('no database configured')\n")
    (tmp_path / "test_ok.py").write_text("def test_ok():\n    pass\n")
    with Runner(find_project(tmp_path), mode=mode) as runner:
        (broken,) = runner.run(["test_ok.py::test_ok"], "test_ok.py::test_ok")
    assert broken.kind == ERROR, broken
    assert "while loading conftest" in broken.message and "RuntimeError: no database configured" in broken.message, \
        broken.message


def test_no_pytest_in_the_test_interpreter_is_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    suite = copy_suite("pytest_fixture_state", tmp_path)
    (suite / "list.txt").write_text(FIXTURE_POLLUTER + "\n" + FIXTURE_VICTIM + "\n")
    proc = isolate(suite, "replay", "list.txt", PYTHON=str(bare / "bin" / "python"))
    assert proc.returncode == 2, proc.stderr
    [line] = proc.stderr.splitlines()
    assert line.startswith("isolate: error: ") and "No module named pytest" in line and "fix:" in line


def test_bisect_passes_pytest_args_and_keeps_them_for_resume(tmp_path: Path) -> None:
    """The polluter only pollutes under a project option: a hunt that dropped the option
    (or forgot it on resume) could never name it."""
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (tmp_path / "conftest.py").write_text(
        "def pytest_addoption(parser):\n    parser.addoption('--pollute', action='store_true')\n")
    (tmp_path / "state.py").write_text("dirty = False\n")
    body = "import state\n\ndef test_polluter(request):\n    state.dirty = request.config.getoption('--pollute')\n"
    body += "".join(f"\ndef test_bystander_{i}():\n    pass\n" for i in range(6))
    body += "\ndef test_victim():\n    assert not state.dirty\n"
    (tmp_path / "test_s.py").write_text(body)
    assert run([tool("pytest"), "-q", "--pollute", "--isolate-record", "rec"], tmp_path).returncode == 1
    victim = "test_s.py::test_victim"
    assert isolate(tmp_path, "extract", "--stream", "rec", "--test", victim).returncode == 0
    # --repeat-victim 1 (kept for resumes, as the argument is): no repeat check of 10 runs of the
    # victim alone, which says nothing of the argument; every run still passes it to pytest.
    # --fork-server (kept too): what is tested is the argument, not the mode, and the 12 runs of the
    # two calls cost 0.6 CPU-s each fresh (a fresh bisect run's passing and keeping of a stored
    # argument is test_a_bad_pytest_arg_is_named_with_pytest_s_error_and_how_to_clear_it's)
    first = isolate(tmp_path, "bisect", victim, "--max-runs", "2", "--repeat-victim", "1", "--pytest-arg=--pollute",
                    "--fork-server", "--json")
    # the budget was spent: undecided, or not reproduced yet (the first wave's two prefixes may
    # both leave the polluter out)
    assert first.returncode in (4, 5), first.stderr
    assert "the budget ran out" in json.loads(first.stdout)["stop"]
    assert "(--max-runs 2 reached: give a larger one to go on)" in json.loads(first.stdout)["stop"]
    hunt = next((tmp_path / ".isolate").glob("*/hunt.json"))
    assert json.loads(hunt.read_text())["search"]["pytest_args"] == ["--pollute"]
    proc = isolate(tmp_path, "bisect", victim, "--max-runs", "200", "--json")  # no --pytest-arg
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == ["test_s.py::test_polluter"], verdict
    assert verdict["runs_by_mode"]["fresh"] == 0, verdict  # every run a fork


def test_a_bad_pytest_arg_is_named_with_pytest_s_error_and_how_to_clear_it(tmp_path: Path) -> None:
    """pytest's "unrecognized arguments" went unshown (the message quoted its rootdir line), and
    the stored argument failed every later run with nothing saying it was there."""
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (tmp_path / "test_s.py").write_text("def test_a():\n    pass\n\ndef test_victim():\n    assert False\n")
    assert run([tool("pytest"), "-q", "--isolate-record", "rec"], tmp_path).returncode == 1
    victim = "test_s.py::test_victim"
    assert isolate(tmp_path, "extract", "--stream", "rec", "--test", victim).returncode == 0
    bad = isolate(tmp_path, "bisect", victim, "-q", "--pytest-arg=--no-such-option")
    assert_user_error(bad, "unrecognized arguments: --no-such-option")
    again = isolate(tmp_path, "bisect", victim, "-q")  # the argument is kept in hunt.json
    assert_user_error(again, "unrecognized arguments", "--pytest-arg=--no-such-option", "--pytest-arg= to clear")
    # forked: what is tested is the clearing (the stored argument would make every run an error),
    # not the mode; `bad` and `again` ran pytest fresh
    cleared = isolate(tmp_path, "bisect", victim, "--pytest-arg=", "--fork-server", "--json")
    assert json.loads(cleared.stdout)["verdict"] == "fails-alone", cleared.stderr


def test_an_option_the_project_requires_is_pointed_to_pytest_arg(tmp_path: Path) -> None:
    """QA: a conftest requiring --env stopped every run with "the following arguments are required:
    --env", and the fix said to run the project's test command by hand."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(
        "def pytest_addoption(parser):\n    parser.addoption('--env', required=True)\n")
    (tmp_path / "test_s.py").write_text("def test_a():\n    pass\n\ndef test_victim():\n    assert False\n")
    assert run([tool("pytest"), "-q", "--env=ci", "--isolate-record", "rec"], tmp_path).returncode == 1
    victim = "test_s.py::test_victim"
    assert isolate(tmp_path, "extract", "--stream", "rec", "--test", victim).returncode == 0
    assert_user_error(isolate(tmp_path, "bisect", victim, "-q"), "arguments are required: --env",
                      "fix: pass the options the project's tests need (pytest: --pytest-arg=OPTION")


def test_a_pytest_arg_under_which_no_test_runs_is_refused(tmp_path: Path) -> None:
    """--pytest-arg=--setup-plan passed every replay (pytest plans the fixtures and runs no
    test, so the victim's 'pass' was false evidence); --co crashed each one."""
    (tmp_path / "pytest.ini").write_text("")
    (tmp_path / "test_s.py").write_text("STATE = []\ndef test_a():\n    STATE.append(1)\n\n"
                                        "def test_victim():\n    assert not STATE\n")
    assert run([tool("pytest"), "-q", "--isolate-record=rec"], tmp_path).returncode == 1
    victim = "test_s.py::test_victim"
    assert isolate(tmp_path, "extract", "--stream", "rec").returncode == 0
    [hunt] = (tmp_path / ".isolate").iterdir()
    settings = (hunt / "hunt.json").read_bytes()
    for arg in ("--setup-plan", "--co"):
        assert_user_error(isolate(tmp_path, "replay", str(hunt / "step-000.txt"), f"--pytest-arg={arg}"),
                          f"--pytest-arg {arg} makes pytest run no test", f"drop --pytest-arg={arg}")
        assert_user_error(isolate(tmp_path, "bisect", victim, f"--pytest-arg={arg}"), f"--pytest-arg {arg}")
    assert (hunt / "hunt.json").read_bytes() == settings and not (hunt / "journal.jsonl").exists()


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_the_victim_repeated_gets_fresh_fixtures_each_time(tmp_path: Path, mode: str) -> None:
    """--repeat-victim under pytest: the listed item runs K times in one process, its function
    fixtures set up anew each time (as pytest-rerunfailures reruns an item), its module state
    kept; here it pollutes itself through a module-level list."""
    (tmp_path / "pytest.ini").write_text("")
    (tmp_path / "test_v.py").write_text(
        "import pytest\nSEEN = []\n"
        "@pytest.fixture\ndef fresh():\n    return []\n"
        "def test_other():\n    pass\n"
        "def test_victim(fresh):\n    fresh.append(1)\n    assert fresh == [1], 'a fixture from an earlier execution'\n"
        "    SEEN.append(1)\n    assert len(SEEN) == 1, f'ran {len(SEEN)} times'\n"
    )
    ids = ["test_v.py::test_other", "test_v.py::test_victim"]
    with Runner(find_project(tmp_path), mode=mode, timeout=60, repeat=3) as runner:
        (outcome,) = runner.run(ids, ids[-1])
    assert (outcome.kind, outcome.executions) == (FAIL, "prr"), outcome
    assert outcome.signature == "AssertionError: ran N times @ test_v.py:test_victim", outcome
    assert list(outcome.ran) == [ids[0]] + [ids[1]] * 3


def test_fork_children_import_the_project_each_time_and_pytest_warns_of_nothing(tmp_path: Path) -> None:
    """The pytest fork server imports pytest and nothing of the project: conftest.py and the test
    modules are imported in every child, so their import-time state is fresh. And pytest, which
    marks isolate's package for assert rewriting (it has a pytest plugin) when isolate is
    installed as a wheel, has nothing to warn about it having been imported first: under
    ``filterwarnings = error`` that warning would break every fork run."""
    (tmp_path / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n")
    log = "with open('imports.log', 'a') as f:\n    f.write(f'{__name__} {os.getpid()}\\n')\n"
    (tmp_path / "conftest.py").write_text("import os\n" + log)
    (tmp_path / "test_s.py").write_text(
        "import os\nSTATE = []\n" + log + "def test_state():\n    STATE.append(1)\n    assert STATE == [1]\n")
    ids = ["test_s.py::test_state"]
    with Runner(find_project(tmp_path), mode="fork", timeout=60) as runner:
        outcomes = runner.run(ids, ids[0], times=3, jobs=1)
    assert [o.kind for o in outcomes] == [PASS] * 3, [(o.kind, o.message) for o in outcomes]
    lines = [line.split() for line in (tmp_path / "imports.log").read_text().splitlines()]
    assert sorted(name for name, _ in lines) == ["conftest"] * 3 + ["test_s"] * 3, lines
    assert len({pid for _, pid in lines}) == 3, lines  # each child imported both itself


def test_a_flaky_pollution_stays_flaky_in_fork_children(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample's sweeper draws from the global ``random``, which CPython reseeds in every
    forked child: at rate 0.5 the victim fails about half the fork runs, never all or none."""
    suite = copy_suite("pytest_flaky_xdist", tmp_path)
    monkeypatch.setenv("SAMPLE_POLLUTION_RATE", "0.5")
    with Runner(find_project(suite), mode="fork", any_failure=True, timeout=60) as runner:
        polluted = runner.run([XDIST_POLLUTER, XDIST_VICTIM], XDIST_VICTIM, times=24, jobs=2)
        alone = runner.run([XDIST_VICTIM], XDIST_VICTIM, times=4, jobs=2)
    failed = sum(o.kind == FAIL for o in polluted)
    assert 4 <= failed <= 20 and failed + sum(o.kind == PASS for o in polluted) == 24, polluted
    assert [o.kind for o in alone] == [PASS] * 4, alone


TWO_STATES = """\
import pytest


class Conf:
    debug = False


def test_first():
    pass


class TestSetup:
    @classmethod
    def setup_class(cls):
        Conf.debug = True

    def test_one(self):
        assert Conf.debug

    def test_two(self):
        assert Conf.debug


@pytest.fixture(scope="module")
def leaky():
    Conf.level = 3
    yield


def test_m1(leaky):
    pass


def test_m2(leaky):
    pass


def test_mid():
    pass


def test_victim():
    assert not Conf.debug
    assert getattr(Conf, "level", 0) == 0
"""


def test_a_failure_of_another_way_past_the_recorded_one_is_a_pass_of_it(tmp_path: Path) -> None:
    """QA: the victim fails its first assert after TestSetup (recorded) and its second after the
    module fixture. Runs of the fixture's tests failed "another way" and were no evidence, so the
    search asked the same list 160 times, and the hunt ended undecided after 230 runs naming an
    innocent test. The second assert runs after the first passed: such a run is a pass of the
    recorded failure."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_c.py").write_text(TWO_STATES)
    assert run([tool("pytest"), "-q", "-p", "no:cacheprovider", "--isolate-record", "rec"], tmp_path).returncode == 1
    assert isolate(tmp_path, "extract", "--stream", "rec").returncode == 0
    proc = isolate(tmp_path, "bisect", "test_victim", "--json", "--max-runs", "60")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    [cause] = verdict["causes"]
    assert (cause["scope"], cause["name"]) == ("class", "test_c.py::TestSetup"), verdict
    assert not verdict.get("ignored_outcomes"), verdict  # every run evidence
    [hunt] = (tmp_path / ".isolate").glob("*/")
    entries = [json.loads(line) for line in (hunt / "journal.jsonl").read_text().splitlines()]
    past = [e for e in entries if e.get("past")]
    assert past and all(e["outcome"] == "fail" and not e["reproduced"] for e in past), entries
    assert any(line.startswith("the victim failed another way at a later line than the recorded failure's, past the"
                               f" point where that one fails, in {len(past)} of the runs: counted as passes of it")
               for line in verdict["evidence"]), verdict["evidence"]
