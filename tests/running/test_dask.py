"""Hunts and replays on a real Dask cluster: a `dask scheduler` and `dask worker` processes on
loopback, each worker started from its own copy of a sample suite, as on separate machines."""

from __future__ import annotations

import json
from collections import Counter
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import alive, assert_user_error, copy_suite, env, isolate, recording, tool
from isolate.hunt.store import hunt_name

distributed = pytest.importorskip("distributed")
import dask  # noqa: E402 - after the skip: dask comes with distributed

from isolate.running.executors.dask import DaskExecutor  # noqa: E402
from isolate.running.project import find_project  # noqa: E402
from isolate.running.runner import Runner  # noqa: E402

VICTIM = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
CULPRIT = "reportgen.tests.core.test_config.ConfigDefaultsTest.test_set_default_currency"
SLOW_TEST = """\
import os, time, unittest


class SlowTest(unittest.TestCase):
    def test_slow(self):
        open(f"started-{os.getpid()}", "w").close()  # in the checkout the worker runs from
        time.sleep(3)
"""
SLOW_ID = "reportgen.tests.test_slow.SlowTest.test_slow"
FILES_TEST = """\
import os, time, unittest


class FilesTest(unittest.TestCase):
    def test_claim(self):  # two runs at once in one folder collide on the file
        fd = os.open("claim.lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        time.sleep(0.5)
        os.close(fd)
        os.remove("claim.lock")

    def test_where(self):
        self.fail("no file at " + os.path.abspath("data/missing.txt"))
"""
CLAIM, WHERE = "reportgen.tests.test_files.FilesTest.test_claim", "reportgen.tests.test_files.FilesTest.test_where"


# Dask's own diagnostics, which nothing of isolate reads, kept from sampling many times a second:
# the worker's statistical profiler (every 10 ms), the event-loop health tick (20 ms), the system
# and memory monitors (500 ms, 100 ms). They made an idle scheduler and worker burn 0.07 CPU-s a
# second (0.01 without), the most of these tests' CPU on a loaded machine. Heartbeats, timeouts and
# everything a client or isolate sees are Dask's defaults.
QUIET_CLUSTER = {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
                 "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
                 "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "5s",
                 "DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL": "2s"}


@dataclass
class Cluster:
    """A scheduler and named workers; `workers[name]` is (process, address, checkout)."""

    directory: Path
    address: str = ""
    scheduler: subprocess.Popen[bytes] | None = None
    workers: dict[str, tuple[subprocess.Popen[bytes], str, Path]] = field(default_factory=dict)

    def start(self) -> None:
        info = self.directory / "scheduler.json"
        self.scheduler = subprocess.Popen(
            [tool("dask"), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(info)], cwd=self.directory, env=env(**QUIET_CLUSTER), stdout=subprocess.DEVNULL,
            stderr=(self.directory / "scheduler.log").open("wb"), start_new_session=True)
        _wait_for(lambda: info.exists() and info.stat().st_size > 0, "the scheduler")
        self.address = json.loads(info.read_text())["address"]

    def add(self, checkouts: dict[str, Path], threads: int = 1, program: list[str] | None = None,
            **extra: str) -> None:
        """Start a worker per checkout, from its directory (``program`` instead of `dask worker`,
        ``extra`` in its environment), and wait until all are registered."""
        for name, checkout in checkouts.items():
            worker = subprocess.Popen(
                [*(program or [tool("dask"), "worker"]), self.address, "--nthreads", str(threads), "--no-nanny",
                 "--no-dashboard", "--host", "127.0.0.1", "--name", name,
                 "--local-directory", str(self.directory / f"scratch-{name}")],
                cwd=checkout, env=env(**QUIET_CLUSTER, **extra), stdout=subprocess.DEVNULL,
                stderr=(self.directory / f"worker-{name}.log").open("wb"), start_new_session=True)
            self.workers[name] = (worker, "", checkout)
        names = set(checkouts)
        with distributed.Client(self.address, set_as_default=False, timeout=60) as client:
            def registered() -> dict[str, str]:
                workers = client.scheduler_info(n_workers=-1)["workers"]
                return {info["name"]: address for address, info in workers.items() if info["name"] in names}

            _wait_for(lambda: set(registered()) == names, "the workers")
            for name, address in registered().items():
                process, _, checkout = self.workers[name]
                self.workers[name] = (process, address, checkout)

    def kill(self, name: str) -> None:
        process = self.workers[name][0]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def processes(self) -> list[subprocess.Popen[bytes]]:
        return [w[0] for w in self.workers.values()] + ([self.scheduler] if self.scheduler else [])


def _wait_for(condition: Callable[[], bool], what: str, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Callable[[dict[str, Path]], Cluster]]:
    """Start a cluster whose workers run from the given checkouts; everything is killed after."""
    started: list[Cluster] = []

    def start(checkouts: dict[str, Path], threads: int = 1) -> Cluster:
        made = Cluster(tmp_path)
        started.append(made)
        made.start()
        made.add(checkouts, threads)
        return made

    yield start
    for made in started:
        for process in made.processes():
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()


def recorded_suite(tmp_path: Path, *workers: str) -> tuple[Path, dict[str, Path]]:
    """The client's checkout with a stored failing run and an extracted hunt, and one copy of
    it (with its stestr repository) per worker."""
    suite = recording("deterministic_polluter", tmp_path / "client", VICTIM)
    (suite / "reportgen" / "tests" / "test_slow.py").write_text(SLOW_TEST)  # not in stored runs
    checkouts = {}
    for name in workers:
        checkouts[name] = tmp_path / name
        shutil.copytree(suite, checkouts[name], ignore=shutil.ignore_patterns(".isolate"))
    proc = isolate(suite, "extract", "--test", VICTIM, "--force")
    assert proc.returncode == 0, proc.stderr
    return suite, checkouts


def journal(suite: Path) -> list[dict[str, object]]:
    path = suite / ".isolate" / hunt_name(VICTIM) / "journal.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_a_hunt_and_a_replay_run_on_both_workers(tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    suite, checkouts = recorded_suite(tmp_path, "a", "b")
    made = cluster(checkouts)
    addresses = {made.workers[name][1] for name in ("a", "b")}
    # Ctrl-C after the first runs, then resume: as locally
    hunt = subprocess.Popen([tool("isolate"), "bisect", VICTIM, "--scheduler", made.address],
                            cwd=suite, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for(lambda: len(journal(suite)) >= 2 or hunt.poll() is not None, "the first runs")
    hunt.send_signal(signal.SIGINT)
    _, err = hunt.communicate(timeout=60)
    assert hunt.returncode == 130 and b"Traceback" not in err
    # on the same cluster: without the address, the hint would resume here (QA)
    assert f"Resume with: isolate bisect {VICTIM} --scheduler {made.address}".encode() in err, err
    assert not (suite / ".isolate" / hunt_name(VICTIM) / "lock").exists()
    kept = len(journal(suite))
    proc = isolate(suite, "resume", VICTIM, "--scheduler", made.address, "--json")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["runs"] > kept
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == [CULPRIT]
    assert set(verdict["executors"]) == addresses and all(verdict["executors"].values())
    # no fork check on a cluster: the mode says so, not that a check is still to come
    assert "Dask workers" in verdict["mode"] and "comes after" not in verdict["mode"], verdict["mode"]
    entries = journal(suite)
    assert sum(verdict["executors"].values()) == len(entries) == verdict["runs"]
    assert {e["executor"] for e in entries} == addresses
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    assert json.loads((hunt / "verdict.json").read_text())["executors"] == verdict["executors"]
    assert made.address not in (hunt / "hunt.json").read_text()  # per session, not stored
    # two worker threads: the search chose batches of two different lists to run together
    planned = [json.loads(line) for line in (hunt / "queries.jsonl").read_text().splitlines()]
    together = Counter(q["from"] for q in planned)
    assert any(k == 2 for k in together.values()), planned
    # the address from the environment; --jobs defaults to the cluster's threads (2)
    replay = isolate(suite, "replay", verdict["reproducer"], "--times", "4", "--json",
                     ISOLATE_SCHEDULER=made.address)
    assert replay.returncode == 1, replay.stderr
    result = json.loads(replay.stdout)
    assert result["jobs"] == 2 and result["reproduced"] == 4
    assert set(result["executors"]) <= addresses and sum(result["executors"].values()) == 4
    # resuming the finished hunt locally: the old runs keep their workers, nothing is re-run
    local = isolate(suite, "resume", VICTIM, "--json")
    assert local.returncode == 0, local.stderr
    assert json.loads(local.stdout)["executors"] == verdict["executors"]


def test_runs_at_once_on_one_worker_work_in_folders_of_their_own(tmp_path: Path,
                                                                 cluster: Callable[..., Cluster]) -> None:
    """A worker of two threads runs two at once, each in a folder of its own; and a failure naming
    the worker's checkout (elsewhere than the client's) signs as it does in the client's."""
    suite = copy_suite("deterministic_polluter", tmp_path / "client")
    (suite / "reportgen" / "tests" / "test_files.py").write_text(FILES_TEST)
    checkout = tmp_path / "w1"
    shutil.copytree(suite, checkout)
    made = cluster({"w1": checkout}, threads=2)
    project = find_project(suite)
    with Runner(project, timeout=60) as runner:
        [recorded] = runner.run([WHERE], WHERE)
    with Runner(project, timeout=60, scheduler=made.address, expected_signature=recorded.signature) as runner:
        claims = runner.run([CLAIM], CLAIM, times=4, jobs=2)
        wheres = runner.run([WHERE], WHERE, times=2, jobs=2)
    assert [o.kind for o in claims] == ["pass"] * 4, [o.message for o in claims]
    assert [o.reproduced for o in wheres] == [True, True], [o.signature for o in wheres]
    assert all(str(suite / "data" / "missing.txt") in o.details for o in wheres)
    assert not (checkout / "claim.lock").exists()


def test_workers_killed_mid_replay_and_mid_hunt(tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    suite, checkouts = recorded_suite(tmp_path, "a", "b", "c")
    made = cluster({name: checkouts[name] for name in ("a", "b")})
    survivor = made.workers["a"][1]
    # A replay of a 3-second test: kill b while both workers run one; b's run is not counted,
    # its test process dies with it, and the scheduler runs that repetition again on a.
    slow = tmp_path / "slow.txt"
    slow.write_text(SLOW_ID + "\n")
    replay = subprocess.Popen([tool("isolate"), "replay", str(slow), "--times", "2", "--json",
                               "--scheduler", made.address], cwd=suite, env=env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for(lambda: all(list(checkouts[name].glob("started-*")) for name in ("a", "b")), "both slow runs")
    [mark] = checkouts["b"].glob("started-*")
    made.kill("b")
    out, err = replay.communicate(timeout=60)
    assert replay.returncode == 0, err
    result = json.loads(out)
    assert result["runs"] == 2 and result["executors"] == {survivor: 2}
    assert len(list(checkouts["a"].glob("started-*"))) == 2
    orphan = int(mark.name.split("-")[1])
    _wait_for(lambda: not alive(orphan), "the dead worker's test process to be killed", 10)
    # A hunt on a and a new worker c, c killed after the first runs: the hunt ends right.
    made.add({"c": checkouts["c"]})
    hunt = subprocess.Popen([tool("isolate"), "bisect", VICTIM, "--json", "--scheduler", made.address],
                            cwd=suite, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for(lambda: len(journal(suite)) >= 2 or hunt.poll() is not None, "the first runs")
    made.kill("c")
    killed_after = len(journal(suite))
    out, err = hunt.communicate(timeout=120)
    assert hunt.returncode == 0, err
    verdict = json.loads(out)
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == [CULPRIT]
    entries = journal(suite)
    assert len(entries) == verdict["runs"] == sum(verdict["executors"].values())
    assert len(entries) > killed_after + 1  # it went on after the kill, on a (bar one in flight)
    assert all(e["executor"] == survivor for e in entries[killed_after + 1:])


def test_a_worker_with_another_checkout_is_refused_with_one_line(
        tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    suite, checkouts = recorded_suite(tmp_path, "good", "edited")
    module = checkouts["edited"] / "reportgen" / "tests" / "core" / "test_report.py"
    module.write_text(module.read_text() + "# edited on this machine only\n")
    made = cluster(checkouts)
    good, edited = made.workers["good"][1], made.workers["edited"][1]
    proc = isolate(suite, "bisect", VICTIM, "--scheduler", made.address, "--json")
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"isolate: warning: Dask worker {edited} refused: ")
    assert "reportgen/tests/core/test_report.py differs" in line and "fix:" in line
    verdict = json.loads(proc.stdout)
    assert verdict["culprits"] == [CULPRIT] and verdict["executors"] == {good: verdict["runs"]}
    # the refused worker's thread is not counted (QA: the runs were planned two at a time, the
    # victim executed 10 times a run "with 2 runs at once", on the one worker left)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    planned = [json.loads(line) for line in (hunt / "queries.jsonl").read_text().splitlines()]
    assert set(Counter(q["from"] for q in planned).values()) == {1}, planned
    assert "runs at once" not in isolate(suite, "log", VICTIM).stdout
    once = isolate(suite, "replay", verdict["reproducer"], "--times", "2", "--json", "--scheduler", made.address)
    assert once.returncode == 1 and json.loads(once.stdout)["jobs"] == 1, once.stdout + once.stderr
    # none left that matches: one line, after the wait for a worker that might join (1 s here), and
    # the finished runs are kept for a resume
    made.kill("good")
    replay = isolate(suite, "replay", verdict["reproducer"], "--scheduler", made.address, ISOLATE_WORKER_WAIT="1")
    assert_user_error(replay, "no Dask worker of", "1 refused", "test_report.py differs", "fix:")


# `dask worker` in an environment without isolate: what a worker sees of it, an import that fails
WITHOUT_ISOLATE = ["python", "-c", "import sys; sys.modules['isolate'] = None  # as if not installed\n"
                   "from distributed.cli.dask_worker import main; main(sys.argv[1:])"]


def test_a_worker_that_cannot_run_the_tests_is_refused_and_the_hunt_goes_on(
        tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    """QA: one worker whose $PYTHON did not start stopped the whole hunt ("step 1 could not
    run", the worker unnamed, the fix read as the local $PYTHON's); one without isolate was
    closed by Dask on the first task, the hunt then said no worker was connected."""
    suite, checkouts = recorded_suite(tmp_path, "good", "missing", "noexec", "without")
    made = cluster({"good": checkouts["good"]})
    noexec = tmp_path / "not-a-program"
    noexec.write_text("")  # executable, but no program: exec fails (ENOEXEC) as the run starts
    noexec.chmod(0o755)
    made.add({"missing": checkouts["missing"]}, PYTHON="/nonexistent/python")
    made.add({"noexec": checkouts["noexec"]}, PYTHON=str(noexec))
    made.add({"without": checkouts["without"]}, program=WITHOUT_ISOLATE)
    address = {name: made.workers[name][1] for name in made.workers}
    proc = isolate(suite, "bisect", VICTIM, "--scheduler", made.address, "--json")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["culprits"] == [CULPRIT] and set(verdict["executors"]) == {address["good"]}, verdict
    said = {line for line in proc.stderr.splitlines() if " refused: " in line}
    assert len(said) == 3 and all(line.startswith("isolate: warning: Dask worker ") and "fix:" in line
                                  for line in said), proc.stderr
    assert any(address["missing"] in line and "'/nonexistent/python' does not exist" in line
               and "the worker's $PYTHON" in line for line in said), said
    assert any(address["noexec"] in line and "could not start a run" in line for line in said), said
    assert any(address["without"] in line and "isolate is not installed" in line
               and "pip install 'isolate[dask]'" in line for line in said), said
    assert made.workers["without"][0].poll() is None  # still up: asked with nothing it cannot unpickle
    assert "distributed." not in proc.stderr  # Dask's own log lines are not the user's
    # none left that can run: one line naming the refusals
    made.kill("good")
    replay = isolate(suite, "replay", verdict["reproducer"], "--scheduler", made.address, ISOLATE_WORKER_WAIT="1")
    assert_user_error(replay, "no Dask worker of", "3 refused", "fix:")


def test_a_scheduler_lost_mid_replay_is_one_line(tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    """QA: Dask's client logged its own "Failed to reconnect" line before isolate's."""
    suite, checkouts = recorded_suite(tmp_path, "a")
    made = cluster(checkouts)
    slow = tmp_path / "slow.txt"
    slow.write_text(SLOW_ID + "\n")
    replay = subprocess.Popen([tool("isolate"), "replay", str(slow), "--times", "3", "--scheduler", made.address],
                              cwd=suite, env=env(DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="2s"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(lambda: any(checkouts["a"].glob("started-*")), "the first slow run")
    assert made.scheduler is not None
    os.killpg(made.scheduler.pid, signal.SIGKILL)
    out, err = replay.communicate(timeout=120)
    assert replay.returncode == 2 and "Traceback" not in err, err
    assert err.splitlines() == [line for line in err.splitlines() if line.startswith("isolate: ")], err
    assert f"isolate: error: lost the Dask scheduler at {made.address}" in err and "fix:" in err, err


def test_a_replay_that_loses_every_worker_reports_the_runs_it_finished(
        tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    """QA: the one error line was all a replay said; the runs that had finished were lost."""
    suite, checkouts = recorded_suite(tmp_path, "a")
    made = cluster(checkouts)
    slow = tmp_path / "slow.txt"
    slow.write_text(SLOW_ID + "\n")
    replay = subprocess.Popen([tool("isolate"), "replay", str(slow), "--times", "5", "--jobs", "1", "--json",
                               "--scheduler", made.address], cwd=suite, env=env(ISOLATE_WORKER_WAIT="1"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(lambda: len(list(checkouts["a"].glob("started-*"))) >= 2, "the second slow run", 120)
    made.kill("a")
    out, err = replay.communicate(timeout=120)
    assert replay.returncode == 2 and "Traceback" not in err, err
    errors = [line for line in err.splitlines() if line.startswith("isolate: error: ")]
    assert len(errors) == 1 and f"no Dask worker is connected to {made.address} (waited 1 s" in errors[0], err
    result = json.loads(out)
    assert result["runs"] == 1 and result["outcomes"]["pass"] == 1, result
    assert result["stopped"] == errors[0].removeprefix("isolate: error: ")


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    suite = copy_suite("deterministic_polluter", tmp_path)
    (suite / "list.txt").write_text(VICTIM + "\n")
    bad = isolate(suite, "replay", "list.txt", "--scheduler", "nonsense://here")
    assert_user_error(bad, "'nonsense://here' is not a Dask scheduler address", "fix:")
    closed = isolate(suite, "replay", "list.txt", "--scheduler", "tcp://127.0.0.1:9",
                     DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="1s")
    assert_user_error(closed, "cannot reach the Dask scheduler at tcp://127.0.0.1:9", "fix:")
    # QA: a traceback, then a 10-60 s hang in the client's destructor
    tls = isolate(suite, "replay", "list.txt", "--scheduler", "tls://127.0.0.1:9")
    assert_user_error(tls, "tls://127.0.0.1:9 needs Dask's TLS configuration", "fix:")


def test_a_hunt_with_jobs_reaches_its_scheduler_before_it_asks_anything(tmp_path: Path) -> None:
    suite, _ = recorded_suite(tmp_path)
    queries = suite / ".isolate" / hunt_name(VICTIM) / "queries.jsonl"
    before = queries.read_text() if queries.exists() else ""
    proc = isolate(suite, "bisect", VICTIM, "--jobs", "2", "--scheduler", "tcp://127.0.0.1:9",
                   DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="1s")
    assert_user_error(proc, "cannot reach the Dask scheduler at tcp://127.0.0.1:9", "fix:")
    assert "step 0" not in proc.stderr + proc.stdout  # refused before the first query is shown...
    assert (queries.read_text() if queries.exists() else "") == before  # ...or recorded
    assert journal(suite) == []


def test_a_replay_on_a_scheduler_without_workers_is_not_told_to_resume(
        tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    """A replay has nothing to resume (it starts over), and no hunt: the line says what each does."""
    made = cluster({})
    suite = copy_suite("deterministic_polluter", tmp_path / "client")
    (suite / "list.txt").write_text(VICTIM + "\n")
    replay = isolate(suite, "replay", "list.txt", "--scheduler", made.address, ISOLATE_WORKER_WAIT="1")
    assert_user_error(replay, f"no Dask worker is connected to {made.address} (waited 1 s for one)",
                      "fix:", "a replay starts over")
    assert "waiting up to 1.0 s for one to join" in replay.stderr
    bad = isolate(suite, "replay", "list.txt", "--scheduler", made.address, ISOLATE_WORKER_WAIT="soon")
    assert_user_error(bad, "$ISOLATE_WORKER_WAIT is 'soon', not a number of seconds", "fix:")


def _waiting_hunt(tmp_path: Path, suite: Path, address: str, line: bytes) -> tuple[subprocess.Popen[bytes], Path]:
    """`isolate bisect --scheduler ADDRESS --json` started in `suite`, once its stderr (the file
    returned) says `line` and it still runs."""
    said = tmp_path / "hunt.err"
    with said.open("wb") as stderr:
        hunt = subprocess.Popen([tool("isolate"), "bisect", VICTIM, "--scheduler", address, "--json"],
                                cwd=suite, env=env(), stdout=subprocess.PIPE, stderr=stderr)
    _wait_for(lambda: line in said.read_bytes() or hunt.poll() is not None, "the hunt to wait")
    assert hunt.poll() is None, said.read_bytes()
    return hunt, said


def test_a_hunt_waits_for_a_worker_that_joins_after_it_started(
        tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    """A cluster's workers may join after its scheduler (dask-jobqueue's start with their batch
    jobs): a hunt started before any joined waits for one, says so, and runs on it (QA)."""
    suite, checkouts = recorded_suite(tmp_path, "late")
    made = cluster({})
    # the hunt is waiting, no worker yet (a fixed 3 s sleep was too short on a loaded machine)
    hunt, said = _waiting_hunt(tmp_path, suite, made.address, b"waiting up to")
    made.add(checkouts)
    out, _ = hunt.communicate(timeout=240)
    err = said.read_bytes()
    assert hunt.returncode == 0, err
    assert b"no Dask worker is connected to" in err and b"waiting up to 1 min 0 s" in err
    verdict = json.loads(out)
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == [CULPRIT]
    assert set(verdict["executors"]) == {made.workers["late"][1]}


def test_settings_stored_by_a_session_on_one_machine_do_not_hold_back_a_dask_session(
        tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    """QA: a hunt begun on a laptop with --fork-server could not resume on a cluster ("drop
    --fork-server", which this session had not given), and its stored --jobs 1 capped the
    cluster's runs at once without a word."""
    suite, checkouts = recorded_suite(tmp_path, "a")
    made = cluster(checkouts, threads=2)
    local = isolate(suite, "bisect", VICTIM, "--fork-server", "--jobs", "1", "--max-runs", "1")
    assert local.returncode == 5, local.stderr
    proc = isolate(suite, "bisect", VICTIM, "--scheduler", made.address, "--max-runs", "3")
    assert "stored --fork-server does not act on Dask workers: this session runs fresh processes" in proc.stderr
    assert "--jobs 1 (stored) caps the runs at once on the cluster's 2 worker threads; give --jobs 2" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.returncode == 5, proc.stderr
    dask_runs = journal(suite)[1:]
    assert dask_runs and {e["executor"] for e in dask_runs} == {made.workers["a"][1]}, dask_runs
    assert journal(suite)[0].get("mode") == "fork" and all(e.get("mode") in (None, "fresh") for e in dask_runs)
    # the verdict's mode says the Dask runs were fresh (QA: it read "fork (--fork-server)" alone)
    verdict = json.loads(isolate(suite, "bisect", VICTIM, "--json", "--max-runs", "3").stdout)
    assert verdict["runs_by_mode"] == {"fork": 1, "fresh": len(dask_runs)}, verdict
    assert verdict["mode"] == f"fork (--fork-server) ({len(dask_runs)} runs on Dask workers ran fresh processes:" \
        " they run no fork server)", verdict["mode"]
    given = isolate(suite, "bisect", VICTIM, "--scheduler", made.address, "--fork-server")
    assert_user_error(given, "the fork server cannot run on Dask workers", "fix: drop --fork-server or --scheduler")


def test_a_refused_worker_still_connected_does_not_stop_the_hunt_from_waiting(
        tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    """QA: with a mismatched worker connected, the hunt stopped at once ("no Dask worker ... can
    run these tests: 1 refused") instead of waiting for a matching one, as it waits when none is
    connected: a matching worker restarted by its nanny, or a batch job still queued, was never
    waited for."""
    suite, checkouts = recorded_suite(tmp_path, "edited", "late")
    module = checkouts["edited"] / "reportgen" / "tests" / "core" / "test_report.py"
    module.write_text(module.read_text() + "# edited on this machine only\n")
    made = cluster({"edited": checkouts["edited"]})
    # the hunt has checked the edited worker's checkout and refused it: it waits (not a fixed sleep)
    hunt, said = _waiting_hunt(tmp_path, suite, made.address, b"refused); waiting up to")
    made.add({"late": checkouts["late"]})
    out, _ = hunt.communicate(timeout=240)
    err = said.read_bytes()
    assert hunt.returncode == 0, err
    assert b"refused: " in err and b"(1 refused); waiting up to 1 min 0 s for one to join" in err, err
    verdict = json.loads(out)
    assert verdict["culprits"] == [CULPRIT] and set(verdict["executors"]) == {made.workers["late"][1]}


def test_the_workers_are_never_read_from_the_clients_stale_cache(
        tmp_path: Path, cluster: Callable[..., Cluster]) -> None:
    """The client refreshes its cached scheduler info (without workers) in the background; read
    at the wrong moment, the cache made a hunt stop with "no Dask worker is connected" while two
    were. Refreshing every 2 ms makes that moment common: no read may see zero workers."""
    suite, checkouts = recorded_suite(tmp_path, "a", "b")
    made = cluster(checkouts)
    with dask.config.set({"distributed.client.scheduler-info-interval": "2ms"}):
        executor = DaskExecutor(made.address, find_project(suite), timeout=None)
        try:
            seen = [len(executor.workers(fresh=True)) for _ in range(300)]
        finally:
            executor.close()
    assert seen == [2] * 300, Counter(seen)
