"""The runner, with real processes on real suites: order, outcomes, timeouts, crashes, jobs,
fork-server parity, and a repository left byte-for-byte untouched."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import copy_suite, stestr_project
from isolate.errors import UserError
from isolate.running.executors.fork import ForkClient
from isolate.running.executors.processes import kill_group
from isolate.running.leave import ATEXIT_GRACE
from isolate.running.project import Project, find_project
from isolate.running.runner import Outcome, Runner
from isolate.running.signature import signature_from_traceback

SAMPLES = Path(__file__).resolve().parents[2] / "sample_suites"
BIN = Path(sys.executable).parent

TOY_ORDER = '''
import os
import unittest


def log(test):
    with open(os.environ["TOY_LOG"], "a") as f:
        f.write(test.id() + "\\n")


class A(unittest.TestCase):
    def test_1(self):
        log(self)

    def test_2(self):
        log(self)

    def test_3(self):
        log(self)


class S(unittest.TestCase):
    param = None

    def id(self):
        return "%s(%s)" % (super().id(), self.param)

    def test_x(self):
        log(self)


def load_tests(loader, tests, pattern):
    suite = unittest.TestSuite(tests)
    for param in ("one", "two.2"):
        case = S("test_x")
        case.param = param
        suite.addTest(case)
    return suite
'''

TOY_STATE = '''
import os
import time
import unittest

from toy import state


class Polluter(unittest.TestCase):
    def test_pollute(self):
        state.CACHE["currency"] = "EUR"


class Victim(unittest.TestCase):
    def test_victim(self):
        self.assertEqual(state.CACHE.get("currency", "USD"), "USD")

    def test_counter(self):
        # Fails on the Nth run: a victim that is flaky across processes.
        path = os.environ["TOY_COUNTER"]
        count = int(open(path).read() or 0) + 1 if os.path.exists(path) else 1
        with open(path, "w") as f:
            f.write(str(count))
        self.assertLess(count, int(os.environ.get("TOY_FAIL_AT", "3")))

    def test_other_failure(self):
        raise KeyError("not the recorded failure")

    def test_race(self):
        # The run that claims the first slot fails (after TOY_RACE_FIRST_SLEEP s); the others pass
        # after TOY_RACE_SLEEP s.
        n = 1
        while True:
            try:
                os.close(os.open(os.path.join(os.environ["TOY_DIR"], "race-%d" % n), os.O_CREAT | os.O_EXCL))
                break
            except FileExistsError:
                n += 1
        if n == 1:
            time.sleep(float(os.environ.get("TOY_RACE_FIRST_SLEEP", "0")))
        self.assertGreater(n, 1)
        time.sleep(float(os.environ.get("TOY_RACE_SLEEP", "0.5")))
'''

TOY_PROCESS = '''
import atexit
import os
import signal
import subprocess
import sys
import threading
import time
import unittest


def remember(name, pid):
    with open(os.path.join(os.environ["TOY_DIR"], name), "w") as f:
        f.write(str(pid))


class P(unittest.TestCase):
    def test_hang(self):
        child = subprocess.Popen(["sleep", "300"])
        remember("tmpdir-%d" % os.getpid(), os.environ["TMPDIR"])
        remember("hang-%d" % os.getpid(), "%d %d" % (os.getpid(), child.pid))
        time.sleep(300)

    def test_daemon(self):
        child = subprocess.Popen(["sleep", "300"])
        remember("daemon", child.pid)

    def test_session(self):  # a process of its own session: not in the run's process group
        child = subprocess.Popen(["sleep", "300"], start_new_session=True)
        remember("session", child.pid)

    def test_session_hang(self):
        child = subprocess.Popen(["sleep", "300"], start_new_session=True)
        remember("session-hang", child.pid)
        time.sleep(300)

    def test_double_fork(self):  # a daemon: orphaned at once, in a session of its own
        middle = os.fork()
        if middle == 0:
            os.setsid()
            daemon = os.fork()
            if daemon == 0:
                os.execvp("sleep", ["sleep", "300"])
            remember("double-fork", daemon)
            os._exit(0)
        os.waitpid(middle, 0)

    def test_exit(self):
        os._exit(0)

    def test_kill(self):
        os.kill(os.getpid(), signal.SIGKILL)

    def test_slow(self):
        with open(os.path.join(os.environ["TOY_DIR"], "slow-%d" % os.getpid()), "w") as f:
            f.write("%f " % time.time())
            time.sleep(0.6)
            f.write("%f %s" % (time.time(), os.environ.get("TMPDIR")))

    def test_thread(self):
        threading.Thread(target=time.sleep, args=(120,)).start()  # not a daemon: it holds a normal exit

    def test_atexit(self):
        atexit.register(remember, "atexit-%d" % os.getpid(), os.getpid())

    def test_child_process(self):
        import multiprocessing  # its atexit handler joins the child: it holds a normal exit
        multiprocessing.Process(target=time.sleep, args=(120,)).start()

    def test_noise(self):
        os.write(1, bytes(range(256)) * 4)
        os.write(2, b"\\xb3\\x29\\x01 not subunit")
        print("hello from the test")
'''

TOY_IMPORT_ERROR = '''
import missing_dependency_xyz  # noqa
'''

TOY_OUT_OF_ORDER = '''
import os
import unittest

open(os.path.join(os.environ["TOY_DIR"], "imported-sneaky-%d" % os.getpid()), "w").close()


class Other(unittest.TestCase):
    def test_z(self):
        pass


class Sneaky(unittest.TestCase):
    def run(self, result=None):
        Other("test_z").run(result)  # runs a test the list did not ask for, first
        return super().run(result)

    def test_sneaky(self):
        pass
'''


def make_toy(root: Path, testr: str | None = None) -> Path:
    """A small real project: stestr config (or a testr one), a package, four test modules."""
    (root / "toy" / "tests").mkdir(parents=True)
    (root / "toy" / "__init__.py").write_text("")
    (root / "toy" / "state.py").write_text("CACHE = {}\n")
    (root / "toy" / "tests" / "__init__.py").write_text("")
    for name, text in [("test_order", TOY_ORDER), ("test_state", TOY_STATE),
                       ("test_process", TOY_PROCESS), ("test_broken", TOY_IMPORT_ERROR),
                       ("test_sneaky", TOY_OUT_OF_ORDER)]:
        (root / "toy" / "tests" / f"{name}.py").write_text(textwrap.dedent(text))
    if testr is None:
        (root / ".stestr.conf").write_text("[DEFAULT]\ntest_path=./toy/tests\ntop_dir=./\n")
    else:
        (root / ".testr.conf").write_text(
            f"[DEFAULT]\ntest_command={testr}\ntest_id_option=--load-list $IDFILE\n"
            "test_list_option=--list\n")
    return root


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_toy(tmp_path / "proj")
    (tmp_path / "state").mkdir()
    monkeypatch.setenv("TOY_LOG", str(tmp_path / "state" / "order.log"))
    monkeypatch.setenv("TOY_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("TOY_COUNTER", str(tmp_path / "state" / "counter"))
    monkeypatch.delenv("PYTHON", raising=False)
    return root


def logged(root: Path) -> list[str]:
    path = Path(os.environ["TOY_LOG"])
    lines = path.read_text().splitlines() if path.exists() else []
    path.unlink(missing_ok=True)
    return lines


def alive(pid: int) -> bool:
    """Running (zombies count as gone: nothing may be left *running*)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):  # (gone between open and read: ESRCH)
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def pid_of(name: str) -> int:
    return int((Path(os.environ["TOY_DIR"]) / name).read_text())


T = "toy.tests."
ORDER = [T + "test_order.A.test_1", T + "test_order.A.test_2", T + "test_order.A.test_3",
         T + "test_order.S.test_x(one)", T + "test_order.S.test_x(two.2)"]
POLLUTER, VICTIM = T + "test_state.Polluter.test_pollute", T + "test_state.Victim.test_victim"


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_reversed_discovery_order_runs_reversed(toy: Path, mode: str) -> None:
    reverse = ORDER[::-1]
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        [outcome] = runner.run(reverse, reverse[-1])
        assert logged(toy) == reverse
        assert outcome.kind == "pass" and outcome.ran == tuple(reverse)
        shuffled = [ORDER[3], ORDER[0], ORDER[4], ORDER[2]]
        [outcome] = runner.run(shuffled, ORDER[0])
        assert logged(toy) == shuffled


def test_testr_command_with_wrapper_and_variables_keeps_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wrapper = tmp_path / "lockutils-wrapper"
    wrapper.write_text('#!/bin/sh\nexport WRAPPED=1\nexec "$@"\n')
    wrapper.chmod(0o755)
    command = (f"OS_TEST_PATH=./toy/tests {wrapper} ${{PYTHON:-python}} -m subunit.run discover "
               "-t ./ ${OS_TEST_PATH:-./nowhere} $LISTOPT $IDOPTION")
    root = make_toy(tmp_path / "proj", testr=command)
    monkeypatch.setenv("TOY_LOG", str(tmp_path / "order.log"))
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("PYTHON", raising=False)
    project = find_project(root)
    assert project.kind == "testr"
    with Runner(project, mode="fresh", timeout=30) as runner:
        # one job at a time: two processes appending to one order log would interleave their lines
        outcomes = runner.run([POLLUTER, *ORDER[::-1], VICTIM], VICTIM, times=2, jobs=1)
    assert [o.kind for o in outcomes] == ["fail", "fail"], outcomes
    assert logged(root) == ORDER[::-1] * 2


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_polluter_reproduces_only_before_the_victim(toy: Path, mode: str) -> None:
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        assert [o.kind for o in runner.run([VICTIM], VICTIM, times=2, jobs=2)] == ["pass", "pass"]
        [before] = runner.run([POLLUTER, VICTIM], VICTIM)
        [after] = runner.run([VICTIM, POLLUTER], VICTIM)
    assert before.kind == "fail" and before.reproduced
    assert before.signature == "AssertionError: 'EUR' != 'USD' @ test_state.py:test_victim"
    assert "Traceback" in before.details
    assert after.kind == "pass" and not after.reproduced


def test_signature_must_match_the_recorded_one(toy: Path) -> None:
    project = find_project(toy)
    recorded = "AssertionError: 'EUR' != 'USD' @ test_state.py:test_victim"
    other = T + "test_state.Victim.test_other_failure"
    with Runner(project, expected_signature=recorded, timeout=30) as runner:
        [same] = runner.run([POLLUTER, VICTIM], VICTIM)
        [different] = runner.run([other], other)
    assert same.reproduced
    assert different.kind == "fail" and not different.reproduced
    assert different.signature == "KeyError: 'not the recorded failure' @ test_state.py:test_other_failure"
    with Runner(project, expected_signature=recorded, any_failure=True, timeout=30) as runner:
        [relaxed] = runner.run([other], other)
    assert relaxed.reproduced


def test_live_signature_matches_the_one_stestr_stored(toy: Path) -> None:
    """The recorded traceback comes from a stored stestr run; the same failure must match it."""
    work = toy.parent / "copy"
    shutil.copytree(toy, work)
    env = {**os.environ, "PYTHON": sys.executable}
    subprocess.run([str(BIN / "stestr"), "init"], cwd=work, env=env, check=True, capture_output=True)
    ids = work / "ids.txt"
    ids.write_text(f"{POLLUTER}\n{VICTIM}\n")
    subprocess.run([str(BIN / "stestr"), "run", "--serial", "--load-list", str(ids)], cwd=work,
                   env=env, capture_output=True)
    stored = subprocess.run([str(BIN / "stestr"), "last", "--subunit"], cwd=work, env=env,
                            capture_output=True, check=True).stdout
    (work / "stored.subunit").write_bytes(stored)
    from isolate.running.judge import read_stream

    [victim] = [o for o in read_stream(work / "stored.subunit") if o.test_id == VICTIM]
    recorded = signature_from_traceback(victim.text("traceback"))
    assert recorded is not None
    with Runner(find_project(toy), expected_signature=recorded, timeout=30) as runner:
        [outcome] = runner.run([POLLUTER, VICTIM], VICTIM)
    assert outcome.reproduced and outcome.signature == recorded


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_timeout_kills_the_whole_group(toy: Path, mode: str) -> None:
    hang = T + "test_process.P.test_hang"
    start = time.monotonic()
    with Runner(find_project(toy), mode=mode, timeout=1.5) as runner:
        [outcome] = runner.run([hang, VICTIM], VICTIM)
    assert outcome.kind == "timeout", outcome
    assert "test_hang" in outcome.message
    assert time.monotonic() - start < 20
    assert all_gone(hang_pids(2)), "a test process or its child survived the timeout"


def test_a_hunt_s_batch_stops_at_the_first_run_in_which_the_target_itself_hung(toy: Path) -> None:
    """Every further run would wait out the timeout too (a hunt asks for that stop, a replay of N
    runs does not); a predecessor that hangs stops nothing."""
    hang = T + "test_process.P.test_hang"
    with Runner(find_project(toy), timeout=1.0) as runner:
        itself = runner.run_lists([([hang], 4), ([POLLUTER, hang], 2)], hang, jobs=1, stop_on_hang=True)
        before = runner.run_lists([([hang, VICTIM], 2)], VICTIM, stop_on_hang=True)
        asked = runner.run([hang], hang, times=2)
    assert [(i, o.kind, o.hung) for i, o in itself] == [(0, "timeout", hang)]
    assert [(o.kind, o.hung) for _, o in before] == [("timeout", hang)] * 2
    assert [(o.kind, o.hung) for o in asked] == [("timeout", hang)] * 2


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_crash_before_the_target_finishes(toy: Path, mode: str) -> None:
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        [exited] = runner.run([T + "test_process.P.test_exit", VICTIM], VICTIM)
        [killed] = runner.run([ORDER[0], T + "test_process.P.test_kill", VICTIM], VICTIM)
        [itself] = runner.run([T + "test_process.P.test_kill"], T + "test_process.P.test_kill")
        [after] = runner.run([VICTIM, T + "test_process.P.test_kill"], VICTIM)
    assert exited.kind == "crash" and "exited with status 0" in exited.message, exited
    assert killed.kind == "crash" and "SIGKILL" in killed.message and "test_kill" in killed.message
    assert killed.ran == (ORDER[0], T + "test_process.P.test_kill")
    assert itself.kind == "crash"
    assert after.kind == "pass"  # the target finished before the process died
    assert not exited.reproduced
    with Runner(find_project(toy), mode=mode, count_crashes=True, timeout=30) as runner:
        [counted] = runner.run([T + "test_process.P.test_exit", VICTIM], VICTIM)
    assert counted.kind == "crash" and counted.reproduced


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_processes_a_test_leaves_behind_are_killed(toy: Path, mode: str) -> None:
    daemon = T + "test_process.P.test_daemon"
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        [outcome] = runner.run([daemon, VICTIM], VICTIM)
    assert outcome.kind == "pass"
    pid = pid_of("daemon")
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)


def gone(pid: int, within: float = 5.0) -> bool:
    """Whether the process is gone (or a zombie) within a few seconds."""
    deadline = time.monotonic() + within
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_a_process_a_test_started_in_a_session_of_its_own_dies_with_the_run(toy: Path, mode: str) -> None:
    """Outside the run's process group, so the group's kill misses it: the test process kills it
    as it leaves (isolate.running.strays)."""
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        [outcome] = runner.run([T + "test_process.P.test_session", VICTIM], VICTIM)
        assert outcome.kind == "pass"
        assert gone(pid_of("session"))


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_a_daemon_a_test_left_dies_with_its_run(toy: Path, mode: str) -> None:
    """A double fork orphans the daemon at once (init's child, or the fork server's, its child
    subreaper): the fork server kills it when its runs are over; a fresh run's daemon carries
    the run's mark, and dies once the run has ended, while the Runner is still open."""
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        [outcome] = runner.run([T + "test_process.P.test_double_fork", VICTIM], VICTIM)
        assert outcome.kind == "pass"
        assert gone(pid_of("double-fork"))


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_what_a_crashed_run_left_outside_its_group_dies_too(toy: Path, mode: str) -> None:
    """A test process that crashes cannot kill its strays as it leaves: a fresh run's carry its
    mark, a fork child's are adopted by the fork server."""
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        [outcome] = runner.run([T + "test_process.P.test_session", T + "test_process.P.test_kill", VICTIM], VICTIM)
        assert outcome.kind == "crash"
        assert gone(pid_of("session"))


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_what_a_test_killed_for_time_left_outside_its_group_dies_too(toy: Path, mode: str) -> None:
    """Killed, the test process cannot kill its strays: isolate kills its descendants' groups
    (fresh), or the fork server, their reaper, kills them once no run is going on."""
    with Runner(find_project(toy), mode=mode, timeout=2) as runner:
        [outcome] = runner.run([T + "test_process.P.test_session_hang", VICTIM], VICTIM)
        assert outcome.kind == "timeout"
        assert gone(pid_of("session-hang"))


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_a_run_ends_with_its_list_not_with_threads_its_tests_left_running(toy: Path, mode: str) -> None:
    """A non-daemon thread a test started would hold a normal interpreter exit (here for 120 s,
    so until the run's timeout); the run ends once its list has run, atexit handlers run."""
    thread, registers = T + "test_process.P.test_thread", T + "test_process.P.test_atexit"
    with Runner(find_project(toy), mode=mode, timeout=60) as runner:
        outcomes = runner.run([thread, registers, VICTIM], VICTIM, times=2)
    assert [o.kind for o in outcomes] == ["pass", "pass"], outcomes
    assert all(o.seconds < 30 for o in outcomes), [o.seconds for o in outcomes]  # the timeout is 60
    assert len(list((toy.parent / "state").glob("atexit-*"))) == 2


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_atexit_handlers_that_hang_get_a_few_seconds(toy: Path, mode: str) -> None:
    """multiprocessing's atexit handler joins a non-daemon child a test started (here one that
    sleeps 120 s); the handlers registered after it ran first, and the run ends ATEXIT_GRACE
    seconds later, long before its timeout."""
    child, registers = T + "test_process.P.test_child_process", T + "test_process.P.test_atexit"
    with Runner(find_project(toy), mode=mode, timeout=60) as runner:
        [outcome] = runner.run([child, registers, VICTIM], VICTIM)
    assert outcome.kind == "pass" and ATEXIT_GRACE <= outcome.seconds < 30, outcome
    assert len(list((toy.parent / "state").glob("atexit-*"))) == 1


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_jobs_run_at_once_each_with_its_own_tmpdir(toy: Path, mode: str) -> None:
    slow = T + "test_process.P.test_slow"
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        outcomes = runner.run([slow], slow, times=2, jobs=2)
    assert [o.kind for o in outcomes] == ["pass", "pass"]
    records = [p.read_text().split() for p in Path(os.environ["TOY_DIR"]).glob("slow-*")]
    assert len(records) == 2
    (s1, e1, tmp1), (s2, e2, tmp2) = records
    assert float(s1) < float(e2) and float(s2) < float(e1), "the two repetitions did not overlap"
    assert tmp1 != tmp2 and not Path(tmp1).exists() and not Path(tmp2).exists()


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_until_failure_stops_at_the_first_reproduction(toy: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    counter = T + "test_state.Victim.test_counter"
    monkeypatch.setenv("TOY_FAIL_AT", "4")
    seen: list[Outcome] = []
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        outcomes = runner.run([counter], counter, times=40, jobs=1, until_failure=True, on_outcome=seen.append)
    assert [o.kind for o in outcomes] == ["pass", "pass", "pass", "fail"]
    assert seen == outcomes


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_runs_in_flight_at_a_reproduction_finish_and_count_when_asked(toy: Path, mode: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    race = T + "test_state.Victim.test_race"
    # The partner counts when it started in the failing run's first quarter: the failing run takes
    # 0.3 s more, so a partner whose start a loaded machine delays by tens of ms still does.
    monkeypatch.setenv("TOY_RACE_FIRST_SLEEP", "0.3")
    kinds = {}
    for in_flight in (False, True):
        for mark in Path(os.environ["TOY_DIR"]).glob("race-*"):
            mark.unlink()
        with Runner(find_project(toy), mode=mode, timeout=30) as runner:
            runner.run([T + "test_state.Victim.test_victim"], T + "test_state.Victim.test_victim")  # a warm server
            got = runner.run_lists([([race], 6)], race, jobs=2, until_failure=True, in_flight=in_flight)
        kinds[in_flight] = sorted(o.kind for _, o in got)
    # the partner started beside the failing run: killed unreported, or finished and reported
    assert kinds == {False: ["fail"], True: ["fail", "pass"]}


def test_a_run_in_flight_that_hangs_is_not_waited_for(toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    race = T + "test_state.Victim.test_race"
    monkeypatch.setenv("TOY_RACE_SLEEP", "300")
    with Runner(find_project(toy), timeout=30) as runner:
        got = runner.run_lists([([race], 6)], race, jobs=2, until_failure=True, in_flight=True)
    # killed once the grace after the reproduction ran out, not reported as a timeout 30 s later
    assert [o.kind for _, o in got] == ["fail"]


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_list_errors_name_the_cause(toy: Path, mode: str) -> None:
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        [unknown] = runner.run([ORDER[0], T + "test_order.A.test_nope", ORDER[1]], ORDER[1], times=5)
        [broken] = runner.run([T + "test_broken.X.test_y", ORDER[1]], ORDER[1])
        [sneaky] = runner.run([T + "test_sneaky.Sneaky.test_sneaky"], T + "test_sneaky.Sneaky.test_sneaky")
    assert unknown.kind == "error" and "'toy.tests.test_order.A.test_nope'" in unknown.message
    assert broken.kind == "error" and "toy.tests.test_broken" in broken.message
    assert "missing_dependency_xyz" in broken.message
    assert sneaky.kind == "error" and "order mismatch" in sneaky.message
    assert logged(toy) == []  # nothing ran for the unknown id: no partial run either


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_only_the_lists_modules_are_imported_unless_discover_all(toy: Path, mode: str) -> None:
    marks = Path(os.environ["TOY_DIR"])
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        assert runner.run([ORDER[0]], ORDER[0], times=2)[0].kind == "pass"
    assert not list(marks.glob("imported-sneaky-*"))
    with Runner(find_project(toy), mode=mode, timeout=30, discover_all=True) as runner:
        assert [o.kind for o in runner.run([ORDER[0]], ORDER[0], times=2)] == ["pass", "pass"]
    assert len(list(marks.glob("imported-sneaky-*"))) == 2  # once per repetition, in its process


def test_test_output_cannot_corrupt_the_stream(toy: Path) -> None:
    noise = T + "test_process.P.test_noise"
    with Runner(find_project(toy), timeout=30) as runner:
        [outcome] = runner.run([noise, POLLUTER, VICTIM], VICTIM)
    assert outcome.kind == "fail" and outcome.ran == (noise, POLLUTER, VICTIM)


def test_bad_interpreter_and_bad_command(toy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHON", str(tmp_path / "no-such-python"))
    with Runner(find_project(toy)) as runner, pytest.raises(UserError, match="PYTHON"):
        runner.run([VICTIM], VICTIM)
    monkeypatch.delenv("PYTHON")
    broken = make_toy(tmp_path / "testr", testr="no-such-wrapper python -m subunit.run discover . $IDOPTION")
    with Runner(find_project(broken), timeout=30) as runner:
        [outcome] = runner.run([VICTIM], VICTIM)
    assert outcome.kind == "error" and "127" in outcome.message and "no-such-wrapper" in outcome.message
    with Runner(find_project(broken), mode="fork", timeout=30) as runner:
        with pytest.raises(UserError, match="fork server did not start"):
            runner.run([VICTIM], VICTIM)
    with pytest.raises(UserError, match="empty"):
        Runner(find_project(toy)).run([], VICTIM)
    with pytest.raises(UserError, match="not in the list"):
        Runner(find_project(toy)).run([POLLUTER], VICTIM)


@pytest.mark.parametrize("mode", ["fresh", "fork"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGKILL])
def test_interrupted_or_killed_isolate_leaves_no_test_process(toy: Path, mode: str, signum: int) -> None:
    """SIGINT to a process running a Runner: Interrupted carries the finished outcomes and every
    job is killed. SIGKILL (no cleanup possible): the reaper / fork server kill them instead."""
    script = toy / "drive.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from isolate.running.project import find_project
        from isolate.running.runner import Interrupted, Runner
        runner = Runner(find_project(Path({str(toy)!r})), mode={mode!r})
        lists = [["{VICTIM}"], ["{T}test_process.P.test_hang", "{VICTIM}"]]
        done = runner.run(lists[0], lists[0][0])
        print("ready", flush=True)
        try:
            runner.run(lists[1], "{VICTIM}", times=4, jobs=2)
        except Interrupted as exc:
            print("interrupted", len(done) + len(exc.outcomes), flush=True)
        runner.close()
    """))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        pids = hang_pids(4)  # two jobs, each a test process and its child
        [state] = {Path(tmpdir_of(pid)).parent.parent for pid in pids[::2]}  # the Runner's directory
        assert state.name.startswith("isolate-run-")
        proc.send_signal(signum)
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()  # whatever failed above, leave no driver (its reaper cleans up after it)
    assert out.strip() == ("interrupted 1" if signum == signal.SIGINT else "")
    assert all_gone(pids), f"a test process outlived isolate: {running(pids)}"
    deadline = time.monotonic() + 5
    while state.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not state.exists(), "the temporary state outlived isolate"


def test_a_fork_server_that_finds_its_parent_gone_as_it_reports_kills_every_job(toy: Path) -> None:
    """Found by the suite under load: a Ctrl-C'd isolate asked the fork server to kill its jobs
    and closed the socket; the server, reporting a job's end before it had read the rest,
    died of the broken pipe and left the other job running. Here the report that finds the
    parent gone is a new job's pid: the server is stopped while the request and the socket's
    end are queued, so it reads the request first."""
    jobs = toy.parent / "jobs"

    def submit(client: ForkClient, key: int, ids: list[str]) -> None:  # as ForkExecutor.launch does
        (jobs / str(key) / "tmp").mkdir(parents=True)
        (jobs / str(key) / "list.txt").write_text("".join(i + "\n" for i in ids))
        client.submit(key, jobs / str(key) / "list.txt", jobs / str(key), False)

    client = ForkClient(toy.parent / "fork.sock", lambda: subprocess.Popen(
        [sys.executable, "-m", "isolate.running.forkserver", "--socket", str(toy.parent / "fork.sock"),
         "discover", "-t", "./", "./toy/tests"], cwd=toy, start_new_session=True), toy.parent / "output.txt", 30)
    server = client.process
    try:
        submit(client, 1, [T + "test_process.P.test_hang"])
        assert [m["job"] for m in client.read() or []] == [1]  # its pid
        pids = hang_pids(2)
        os.kill(server.pid, signal.SIGSTOP)
        try:
            submit(client, 2, [VICTIM])
            client.sock.close()
        finally:
            os.kill(server.pid, signal.SIGCONT)
        server.wait(timeout=20)
        gone = all_gone(pids)
    finally:
        kill_group(server.pid)
        server.kill()
        for pid in hang_pids(2):
            kill_group(pid)  # what the old server left, so that a failure leaves nothing running
    assert gone, "a job outlived the fork server"


def test_a_killed_isolate_leaves_no_process_a_test_started_in_a_session_of_its_own(toy: Path) -> None:
    """QA: `kill -9` of a fresh hunt (or its terminal closed) left a test's `Popen(...,
    start_new_session=True)` running: the reaper killed the run's process group only. It now
    kills what carries the run's mark too."""
    script = toy / "drive.py"
    script.write_text(textwrap.dedent(f"""
        from pathlib import Path
        from isolate.running.project import find_project
        from isolate.running.runner import Runner
        runner = Runner(find_project(Path({str(toy)!r})), mode="fresh")
        runner.run(["{T}test_process.P.test_session_hang", "{VICTIM}"], "{VICTIM}")
    """))
    proc = subprocess.Popen([sys.executable, str(script)])
    try:
        record = Path(os.environ["TOY_DIR"]) / "session-hang"
        deadline = time.monotonic() + 20
        while not (record.exists() and record.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        session = int(record.read_text())
        assert alive(session)
        proc.kill()
        proc.wait(timeout=20)
    finally:
        proc.kill()
    assert all_gone([session]), "the test's own session outlived a killed isolate"


def tmpdir_of(pid: int) -> str:
    return (Path(os.environ["TOY_DIR"]) / f"tmpdir-{pid}").read_text()


def hang_pids(count: int) -> list[int]:
    """The pids test_hang recorded (test process, its child), once ``count`` are known."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        pids = [int(p) for f in Path(os.environ["TOY_DIR"]).glob("hang-*") for p in f.read_text().split()]
        if len(pids) >= count:
            return pids
        time.sleep(0.05)
    raise AssertionError(f"only {pids} of {count} test processes started")


def all_gone(pids: list[int], within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(alive(p) for p in pids)


def running(pids: list[int]) -> list[str]:
    """Which of ``pids`` still run, each with its state and command line: what a failure shows."""
    found = []
    for pid in pids:
        if alive(pid):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[:2]
            except OSError:
                continue
            found.append(f"{pid} (state {state[0]}, parent {state[1]}): {command.strip()[:200]}")
    return found


def test_repository_is_never_written(toy: Path) -> None:
    """stestr's and testr's repositories keep every byte, whatever the runner does."""
    env = {**os.environ, "PYTHON": sys.executable, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run([str(BIN / "stestr"), "init"], cwd=toy, env=env, check=True, capture_output=True)
    subprocess.run([str(BIN / "stestr"), "run", "--serial", ORDER[0]], cwd=toy, env=env, capture_output=True)
    subprocess.run([str(BIN / "testr"), "init"], cwd=toy, env=env, check=True, capture_output=True)

    def snapshot() -> dict[str, bytes]:
        return {str(p.relative_to(toy)): p.read_bytes()
                for d in (".stestr", ".testrepository") for p in (toy / d).rglob("*") if p.is_file()}

    before = snapshot()
    assert any(k.startswith(".stestr/") for k in before)
    with Runner(find_project(toy), timeout=30) as runner:
        runner.run([POLLUTER, VICTIM], VICTIM, times=2, jobs=2)
    with Runner(find_project(toy), mode="fork", timeout=30) as runner:
        runner.run([POLLUTER, VICTIM], VICTIM, times=2, jobs=2)
    assert snapshot() == before
    assert sorted(p.name for p in toy.iterdir()) == sorted(
        [".stestr", ".stestr.conf", ".testrepository", "toy"])


# -- the sample suites -----------------------------------------------------------------------

DP = "reportgen.tests."
DP_POLLUTER = DP + "core.test_config.ConfigDefaultsTest.test_set_default_currency"
DP_VICTIM = DP + "core.test_report.ReportHeaderTest.test_header_uses_default_currency"
DP_SIGNATURE = ("AssertionError: report header uses currency 'EUR', expected default 'USD' "
                "@ test_report.py:test_header_uses_default_currency")


def sample(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, testr: bool = False) -> Project:
    """A fresh copy of a sample suite (as stestr or as testr project) and its Project."""
    root = copy_suite(name, tmp_path)
    monkeypatch.delenv("PYTHON", raising=False)
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")
    if testr:
        (root / ".stestr.conf").unlink()
    project = find_project(root)
    assert project.kind == ("testr" if testr else "stestr")
    return project


@pytest.mark.parametrize(("mode", "testr"), [("fresh", False), ("fork", False), ("fresh", True), ("fork", True)])
def test_deterministic_polluter_reproduces_only_when_it_comes_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, testr: bool) -> None:
    project = sample("deterministic_polluter", tmp_path, monkeypatch, testr)
    scenarios = [DP + f"output.test_formats.FormatTest.test_render({f})" for f in ("markdown", "csv", "json")]
    with Runner(project, mode=mode, timeout=60, expected_signature=DP_SIGNATURE) as runner:
        first = runner.run([DP_POLLUTER, *scenarios, DP_VICTIM], DP_VICTIM, times=2, jobs=2)
        alone = runner.run([DP_VICTIM], DP_VICTIM)
        later = runner.run([DP_VICTIM, DP_POLLUTER], DP_VICTIM)
    assert [(o.kind, o.reproduced, o.signature) for o in first] == [("fail", True, DP_SIGNATURE)] * 2
    assert first[0].ran == (DP_POLLUTER, *scenarios, DP_VICTIM)  # scenarios reversed from discovery
    assert [o.kind for o in alone + later] == ["pass", "pass"]


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_crashing_worker_is_a_crash_with_no_leftovers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    project = sample("crashing_worker", tmp_path, monkeypatch)
    source = "bufpool.tests.test_pool.HandleLifecycleTest.test_hand_off_transfers_ownership"
    victim = "bufpool.tests.test_pool.PoolAuditTest.test_audit_checksums_live_buffers"
    with Runner(project, mode=mode, timeout=60, count_crashes=True) as runner:
        [crash] = runner.run([source, victim], victim)
        [alone] = runner.run([victim], victim)
    assert crash.kind == "crash" and crash.reproduced and "SIGSEGV" in crash.message, crash
    assert crash.ran == (source, victim)
    assert alone.kind == "pass"


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_disk_and_pair_pollution_stay_inside_one_repetition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    project = sample("disk_pollution", tmp_path, monkeypatch)
    polluter = "stockdb.tests.test_reservations.DefaultStoreReservationTest.test_reserve_creates_pending_reservation"
    victim = "stockdb.tests.test_reservations.PendingReportTest.test_no_pending_reservations_on_fresh_store"
    with Runner(project, mode=mode, timeout=60) as runner:
        polluted = runner.run([polluter, victim], victim, times=2, jobs=2)
        clean = runner.run([victim], victim, times=2, jobs=2)
    assert [o.kind for o in polluted] == ["fail", "fail"] and [o.kind for o in clean] == ["pass", "pass"]
    assert "found N rows" in (polluted[0].signature or "")
    pair = sample("polluter_pair", tmp_path / "pair", monkeypatch)
    a = "textpipe.tests.pipeline.test_plugins.PluginRegistryTest.test_register_shout_plugin"
    b = "textpipe.tests.pipeline.test_modes.ModeSwitchTest.test_enable_extended_mode"
    v = "textpipe.tests.pipeline.test_render.DefaultRenderTest.test_render_normalises_case"
    with Runner(pair, mode=mode, timeout=60) as runner:
        kinds = [runner.run(ids, v)[0].kind for ids in ([a, b, v], [b, a, v], [a, v], [b, v], [v, a, b])]
    assert kinds == ["fail", "fail", "pass", "pass", "pass"]


def test_a_fork_child_pays_for_nothing_its_server_could_do_once(tmp_path: Path) -> None:
    """A failure's report imported email's default policy in every child of a testtools suite
    (testtools reads the traceback's content type with it: 7 ms of a child), and a child's
    collections went through the server's objects, copying their pages. The second test sees
    what the first one's failure imported, and whether the server's objects were frozen before
    the fork."""
    root = stestr_project(tmp_path / "proj", {
        "pkg/__init__.py": "",
        "pkg/tests/__init__.py": "",
        "pkg/tests/test_seen.py": '''
            import gc
            import os
            import sys

            import testtools

            SEEN = os.path.join(os.path.dirname(__file__), "seen")


            class Seen(testtools.TestCase):
                def test_fails(self):
                    open(SEEN, "w").write(" ".join(sys.modules))
                    self.fail("reported with a traceback")

                def test_looks(self):
                    before = set(open(SEEN).read().split())
                    new = sorted(m for m in sys.modules if m not in before and m.startswith("email"))
                    open(SEEN, "w").write(f"{new} {gc.get_freeze_count() > 0}")
        ''',
    }, "./pkg/tests")
    first, second = "pkg.tests.test_seen.Seen.test_fails", "pkg.tests.test_seen.Seen.test_looks"
    with Runner(find_project(root), mode="fork", timeout=60) as runner:
        [outcome] = runner.run([first, second], second)
    assert outcome.kind == "pass", outcome
    assert (root / "pkg" / "tests" / "seen").read_text() == "[] True"


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_only_a_list_of_testtools_tests_reports_through_testtools(tmp_path: Path, mode: str) -> None:
    """isolate's own writer costs two thirds of testtools' result per test and writes the same
    events (test_stream_result.py); a fork child took testtools' for every list, as its server
    imports testtools. Each test names the result it runs under (TestCase.run's argument)."""
    root = stestr_project(tmp_path / "proj", {
        "pkg/__init__.py": "",
        "pkg/tests/__init__.py": "",
        "pkg/tests/test_result.py": '''
            import os
            import sys
            import unittest

            import testtools


            def named(kind):
                frame = sys._getframe(1)
                while "result" not in frame.f_locals or frame.f_code.co_name != "run":
                    frame = frame.f_back
                result = type(frame.f_locals["result"])
                with open(os.path.join(os.path.dirname(__file__), kind), "w") as f:
                    f.write(result.__module__ + "." + result.__name__)


            class Plain(unittest.TestCase):
                def test_names(self):
                    named("plain")


            class WithDetails(testtools.TestCase):
                def test_names(self):
                    named("testtools")
        ''',
    }, "./pkg/tests")
    plain, extended = "pkg.tests.test_result.Plain.test_names", "pkg.tests.test_result.WithDetails.test_names"
    with Runner(find_project(root), mode=mode, timeout=60) as runner:
        assert [o.kind for o in runner.run([plain], plain)] == ["pass"]
        assert [o.kind for o in runner.run([plain, extended], extended)] == ["pass"]
        assert [o.kind for o in runner.run([plain], plain)] == ["pass"]
    here = root / "pkg" / "tests"
    assert (here / "plain").read_text() == "isolate.running.stream_result.StreamResult"
    assert (here / "testtools").read_text() != "isolate.running.stream_result.StreamResult"


def test_fork_server_keeps_per_process_randomness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """flaky_polluter seeds a module-level RNG from os.urandom at import: every repetition must
    draw its own, in fork mode as in fresh processes (neither all-fail nor all-pass)."""
    project = sample("flaky_polluter", tmp_path, monkeypatch)
    monkeypatch.setenv("SAMPLE_POLLUTION_RATE", "0.5")
    polluter = "pricecache.tests.test_service.DiscountTest.test_full_promo_makes_item_free"
    victim = "pricecache.tests.test_service.PriceLookupTest.test_apple_list_price"
    rates = {}
    for mode, times in (("fresh", 24), ("fork", 60)):
        with Runner(project, mode=mode, timeout=60) as runner:
            outcomes = runner.run([polluter, victim], victim, times=times, jobs=2)
            assert {o.kind for o in runner.run([victim], victim, times=6, jobs=2)} == {"pass"}
        assert {o.kind for o in outcomes} <= {"pass", "fail"}
        rates[mode] = sum(o.kind == "fail" for o in outcomes) / times
    # p = 0.5: outside [0.15, 0.85] has probability < 1e-3 for either sample size
    assert 0.15 <= rates["fresh"] <= 0.85 and 0.15 <= rates["fork"] <= 0.85, rates


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_several_lists_run_together_and_each_outcome_names_its_list(toy: Path, mode: str) -> None:
    seen: list[tuple[int, Outcome]] = []
    with Runner(find_project(toy), mode=mode, timeout=30) as runner:
        outcomes = runner.run_lists([([POLLUTER, VICTIM], 3), ([VICTIM], 2)], VICTIM, jobs=2,
                                    on_outcome=lambda i, o: seen.append((i, o)))
        assert seen == outcomes
        by_list = {i: sorted(o.kind for j, o in outcomes if j == i) for i in (0, 1)}
        assert by_list == {0: ["fail"] * 3, 1: ["pass"] * 2}
        assert all(o.ran[-1] == VICTIM for _, o in outcomes)
        with pytest.raises(UserError, match="not in the list"):
            runner.run_lists([([VICTIM], 1), ([POLLUTER], 1)], VICTIM)
        with pytest.raises(ValueError):
            runner.run_lists([([VICTIM], None), ([POLLUTER, VICTIM], 1)], VICTIM, until_failure=True)


SP = "tokenstore.tests."
SP_VICTIM = SP + "test_tokens.FirstTokenTest.test_first_token_is_number_one"
SP_POLLUTER = SP + "test_session.SessionTest.test_login_issues_token"


@pytest.mark.parametrize(("mode", "testr"), [("fresh", False), ("fork", False), ("fresh", True)])
def test_the_victim_repeated_in_one_process_runs_each_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, testr: bool) -> None:
    """--repeat-victim: the target runs K times at the end of the list, each time as a fresh copy
    of its case, and the outcome keeps what each execution did. The sample victim issues a token
    it never revokes, so it fails from its second execution on (it pollutes itself)."""
    project = sample("self_polluter", tmp_path, monkeypatch, testr)
    with Runner(project, mode=mode, timeout=60, repeat=4) as runner:
        [alone] = runner.run([SP_VICTIM], SP_VICTIM)
        [polluted] = runner.run([SP_POLLUTER, SP_VICTIM], SP_VICTIM)
        runner.repeat = 1
        [once] = runner.run([SP_VICTIM], SP_VICTIM)
    assert (alone.kind, alone.reproduced, alone.executions) == ("fail", True, "prrr"), alone
    assert alone.ran == (SP_VICTIM,) * 4
    assert polluted.executions == "rrrr" and polluted.ran == (SP_POLLUTER, *(SP_VICTIM,) * 4)
    assert (once.kind, once.executions) == ("pass", "")


def test_a_process_interrupted_before_its_pidfd_was_watched_is_released_without_a_traceback() -> None:
    """CI: Ctrl-C between `pidfd_open` and the selector's `register` left a pidfd the selector
    never held, and closing the executor ended in KeyError ('5 is not registered'), exit 1, not 130."""
    import selectors

    from isolate.running.executors.local import LocalExecutor
    from isolate.running.executors.processes import _Process

    child = subprocess.Popen(["sleep", "5"])
    try:
        executor = object.__new__(LocalExecutor)  # only its selector is used by _release
        executor._selector = selectors.DefaultSelector()
        fd = os.pidfd_open(child.pid)
        proc = _Process(job=None, deadline=None, pidfd=fd)  # type: ignore[arg-type]
        executor._release(proc)
        assert proc.pidfd is None
        with pytest.raises(OSError):
            os.fstat(fd)  # closed
    finally:
        child.kill()
        child.wait()
