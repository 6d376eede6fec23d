"""Shared helpers: real sample suites copied to temp dirs, real stestr/testr/isolate processes."""

from __future__ import annotations

import datetime
import fcntl
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

BIN = Path(sys.executable).parent
SAMPLES = Path(__file__).resolve().parent.parent / "sample_suites"


def tool(name: str) -> str:
    """A console script of the environment running the tests (stestr, testr, isolate, ...)."""
    path = BIN / name
    assert path.exists(), f"{name} is not installed next to {sys.executable}"
    return str(path)


def env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: this venv first on PATH, nothing of the pytest (or
    pytest-xdist worker) running these tests, which would confuse a pytest started inside, and
    Python's bytecode cache on, as it is by default (see NO_BYTECODE)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "SAMPLE_")) and k not in NO_BYTECODE}
    return {**clean, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "PYTHON": sys.executable,
            "PYTEST_ADDOPTS": SAMPLE_PYTEST_ADDOPTS, **extra}


# The sample suites' pytest runs in this venv, which has hypothesis for isolate's own tests. Its
# pytest plugin imports the whole of hypothesis at every terminal summary (1.2 s of a 1.7 s pytest
# start on this project's CI machine), which the sample suites, that never use it, would not pay
# in their own environment: blocked, as their users would not have it.
SAMPLE_PYTEST_ADDOPTS = "-p no:hypothesispytest"

# Container images often set PYTHONDONTWRITEBYTECODE (this project's CI machine does): every fresh
# test process of a hunt then compiles the sample suite's modules again, a third of a short run's
# CPU, and this suite is CPU-bound on CI's two cores. Off for the processes the tests start (they
# write their caches in the tests' temporary copies); a test that needs it says so.
NO_BYTECODE = ("PYTHONDONTWRITEBYTECODE",)


def run(args: list[str], cwd: Path, input: bytes | None = None, **extra: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(args, cwd=cwd, input=input, capture_output=True, env=env(**extra), timeout=600)


def isolate(cwd: Path, *args: str, input: bytes | None = None, **extra: str) -> subprocess.CompletedProcess[str]:
    """The real `isolate` command, as a user runs it."""
    proc = run([tool("isolate"), *args], cwd, input=input, **extra)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def copy_suite(name: str, dest: Path) -> Path:
    target = dest / name
    shutil.copytree(SAMPLES / name, target, ignore=shutil.ignore_patterns(".stestr", ".testrepository", ".isolate", "__pycache__"))
    return target


def stestr_project(root: Path, files: dict[str, str], test_path: str) -> Path:
    """A small real stestr project at ``root``: each file (a path under ``root`` -> its source,
    dedented), and a .stestr.conf discovering ``test_path`` from the top directory ``./``."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    (root / ".stestr.conf").write_text(f"[DEFAULT]\ntest_path={test_path}\ntop_dir=./\n")
    return root


def stestr_run(suite: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[bytes]:
    """`stestr run ARGS` in `suite` (which makes its repository the first time, as `stestr init`
    would: a process less); `extra`: the run's environment."""
    return run([tool("stestr"), "run", *args], suite, **extra)


def load_runs(suite: Path, run: int, count: int) -> None:
    """`count` more stored runs in `suite`'s stestr repository, each a copy of its stored run
    `run` (a real `stestr run`'s), stored by stestr's own `load` (its Python API, in this process:
    no stestr or runner processes, a small part of a `stestr run`'s CPU). Each copy's timestamps
    are moved back by whole hours, a different number for each: a hunt takes runs whose victim
    started at the same instant for one run given twice (isolate.hunt.history.unread), so the
    copies must read as runs made at other times, as `stestr run`s one after the other are."""
    from stestr.commands.load import load  # type: ignore[import-untyped]
    from stestr.repository.util import get_repo_open  # type: ignore[import-untyped]

    stream = get_repo_open(repo_url=str(suite)).get_test_run(run).get_subunit_stream().read()  # v2, as `stestr last --subunit`
    for copy in range(count):
        moved = _moved_back(stream, datetime.timedelta(hours=count - copy))
        out = io.StringIO()
        with warnings.catch_warnings():  # stestr's own, on its output stream: not this test's concern
            warnings.simplefilter("ignore", DeprecationWarning)
            assert load(in_streams=[("subunit", moved)], repo_url=str(suite), stdout=out) in (0, 1), out.getvalue()


def _moved_back(stream: bytes, by: datetime.timedelta) -> bytes:
    """Subunit v2 `stream` written again with each timestamp `by` earlier."""
    import subunit
    import testtools

    moved = io.BytesIO()
    into = subunit.StreamResultToBytes(moved)

    class Moved(testtools.StreamResult):  # type: ignore[misc]
        def status(self, **event: Any) -> None:  # type: ignore[override]
            if event.get("timestamp") is not None:
                event["timestamp"] -= by
            into.status(**event)

    subunit.ByteStreamToStreamResult(io.BytesIO(stream), non_subunit_name="stdout").run(Moved())
    return moved.getvalue()


def record_failure(suite: Path, victim: str, *args: str, **extra: str) -> Path:
    """`suite` once its latest stored stestr run has the flaky victim failing (`stestr run ARGS`
    until it does, at most 30 times), extracted; `extra`: the environment of those runs."""
    for _ in range(30):
        stestr_run(suite, *args, **extra)
        proc = isolate(suite, "extract", "--test", victim, "--force")
        if proc.returncode == 0 and "did not fail" not in proc.stderr:
            return suite
    raise AssertionError(f"{victim} never failed in 30 stestr runs")


def recording(name: str, dest: Path, victim: str, *args: str, before: tuple[tuple[str, ...], ...] = (),
              **extra: str) -> Path:
    """A copy of the sample suite `name` in `dest` whose stored stestr runs are one `stestr run`
    for each ARGS of `before`, then record_failure's with ARGS and `extra`: the last one failed
    `victim`. Extracted.

    The stestr runs are made once per test session for each (suite, victim, ARGS, `extra`), in a
    folder the pytest-xdist workers share, and copied: they are most of such a test's set-up, and
    a hunt reads its stored runs, never writes them. So is the extract: hunt.json names the
    repository relative to the project, so the copy's hunt reads the copy's runs."""
    key = hashlib.sha256(json.dumps([name, victim, args, before, sorted(extra.items())]).encode()).hexdigest()[:16]

    def make(folder: Path) -> None:
        suite = copy_suite(name, folder)
        for earlier in before:
            stestr_run(suite, *earlier, **extra)
        record_failure(suite, victim, *args, **extra)

    return made_copy(key, name, dest, make)[0]


FA_VICTIM = "searchindex.tests.test_async.AsyncIndexerTest.test_documents_visible_after_submit"


def fails_alone_recording(dest: Path) -> Path:
    """A copy in `dest` of sample_suites/fails_alone with two stored stestr runs, extracted for FA_VICTIM: a
    serial one (a runner process less) in which the victim passed (SAMPLE_RACE_RATE=0), then one
    in which it failed (rate 1, so in the first: the sample's other tests pass at any rate) on
    the workers of a plain `stestr run`, whose worker is the hunts' order. Made once a session
    (made_once) for the tests of test_loop, test_loop_repeats and test_history that share it. A
    recording at rate 0.3–0.5 (stestr runs until one failed) cost 2.2 CPU-s a try and took 1 to 11:
    now two runs, and always a stored run beside the one extracted."""
    def make(folder: Path) -> None:
        suite = copy_suite("fails_alone", folder)
        stestr_run(suite, "--serial", SAMPLE_RACE_RATE="0")
        record_failure(suite, FA_VICTIM, SAMPLE_RACE_RATE="1")

    return made_copy("fails-alone-0-serial-then-1", "fails_alone", dest, make)[0]


def made_once(key: str, make: Callable[[Path], None]) -> Path:
    """The folder that `make` fills, made once per test session for `key` (in the folder the
    pytest-xdist workers share, under a lock: the first test to ask makes it, the others wait).
    What tests only read (stored runs, recordings, a finished hunt) is made so and copied into
    each test's own folder; a test changes its copy, never this folder."""
    made = _RECORDINGS[0] / key
    made.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{made}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not Path(f"{made}.done").exists():
            shutil.rmtree(made, ignore_errors=True)
            made.mkdir()
            make(made)
            Path(f"{made}.done").touch()
    return made


def made_copy(key: str, name: str, dest: Path, make: Callable[[Path], None]) -> tuple[Path, Path]:
    """`dest / name`, a copy of the folder `name` that `make` fills in made_once(`key`)'s folder
    (bytecode caches left out, links kept as links), and that folder (for what `make` wrote beside
    `name`: a run's output, its exit status)."""
    made = made_once(key, make)
    suite = dest / name
    shutil.copytree(made / name, suite, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    return suite, made


_RECORDINGS: list[Path] = []  # where made_once() keeps what it makes: set for the session below


@pytest.fixture(scope="session", autouse=True)
def _recordings(tmp_path_factory: pytest.TempPathFactory) -> None:
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # pytest-N/, beside popen-gwK/
    _RECORDINGS[:] = [shared / "recordings"]


def serial_recording(name: str, dest: Path, victim: str) -> tuple[Path, list[str]]:
    """A copy of the sample suite `name` with a serial stestr run in which `victim` failed,
    extracted: the copy and the hunt's order."""
    suite = recording(name, dest, victim, "--serial")
    return suite, next((suite / ".isolate").glob("*/order.txt")).read_text().split()


# One pytest-xdist run of pytest_flaky_xdist, recorded by isolate's plugin and by pytest-replay.
XDIST_RUN = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-n", "2", "--dist", "loadfile",
             "--isolate-record", "rec", "-p", "replay", "--replay-record-dir", "replay"]


def xdist_recorded(dest: Path) -> tuple[Path, bytes, int]:
    """A copy in `dest` of pytest_flaky_xdist after one real `pytest XDIST_RUN` at pollution rate 1
    (the victim fails): both recordings of it, isolate's in rec/ and pytest-replay's in replay/; and
    that pytest's output and exit status. The run is made once per session, in the folder where
    recording() keeps its stestr runs, and copied: the tests (of extract, of the recording plugin,
    and a hunt of its victim) only read the recordings. It costs 3 CPU-s (three pytest processes)."""
    key = "xdist-" + hashlib.sha256(json.dumps(XDIST_RUN).encode()).hexdigest()[:16]

    def make(folder: Path) -> None:
        proc = run([sys.executable, "-m", "pytest", *XDIST_RUN], copy_suite("pytest_flaky_xdist", folder),
                   SAMPLE_POLLUTION_RATE="1")
        (folder / "stdout").write_bytes(proc.stdout)
        (folder / "returncode").write_text(str(proc.returncode))

    suite, made = made_copy(key, "pytest_flaky_xdist", dest, make)
    return suite, (made / "stdout").read_bytes(), int((made / "returncode").read_text())


def journal_of(suite: Path) -> list[dict[str, Any]]:
    """The journal of the suite's one hunt, an entry per line."""
    path = next((suite / ".isolate").glob("*/journal.jsonl"))
    return [json.loads(line) for line in path.read_text().splitlines()]


def assert_user_error(proc: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """A user error: exit 2, one line on stderr naming the cause, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = [line for line in proc.stderr.splitlines() if not line.startswith("isolate: warning:")]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("isolate: error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def wait_for_lines(path: Path, count: int, proc: subprocess.Popen[bytes], limit: float = 60) -> None:
    """Until `path` has `count` lines, while `proc` (writing it) still runs."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_bytes().splitlines()) >= count:
            return
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.02)
    raise AssertionError(f"{path} never reached {count} lines")


def alive(pid: int) -> bool:
    """Whether a process with this id exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(scope="session")
def samples() -> Path:
    return SAMPLES


@pytest.fixture(autouse=True)
def _sample_pytest_addopts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for the processes a test's own Runner starts (they inherit os.environ)."""
    monkeypatch.setenv("PYTEST_ADDOPTS", SAMPLE_PYTEST_ADDOPTS)
    for name in NO_BYTECODE:
        monkeypatch.delenv(name, raising=False)
