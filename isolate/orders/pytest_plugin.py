"""pytest plugin (registered through the pytest11 entry point); inactive unless asked for.

`pytest --isolate-record DIR` (or the ini option `isolate_record = DIR`) records, for every
process that runs tests, the executed order and outcomes as a subunit v2 stream: `DIR/main.subunit`
without xdist, `DIR/gw0.subunit`, `DIR/gw1.subunit`, ... from xdist's workers (the controller runs
no tests and records nothing). Each process's events carry the tag `worker-<name>`, the shape
`isolate extract` already reads from stestr, so a recording directory is a multi-worker stream.

Every test is written as `inprogress` when it starts and with its final status when its teardown
ends, flushed each time: a worker that dies mid-test leaves that test in progress, which readers
report as a run cut mid-test. The final status folds all three phases into one, because a polluted
fixture fails a victim just as surely in setup or teardown as in its body.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import pytest

from isolate.files import PYTEST_ARGS
from isolate.orders.pytest_replay import MAIN, RECORD_SUFFIX, record_path, worker_tag
from isolate.orders.stream_writer import StreamWriter

_DEST = "isolate_record"
_WORKERINPUT_KEY = "isolate_record_dir"
_OURS = re.compile(rf"^(?:{MAIN}|gw\d+){re.escape(RECORD_SUFFIX)}$")
_CHUNK = 65536  # attachment bytes per subunit packet; a packet may not exceed 4 MiB
_STRICT_XPASS = "[XPASS(strict)]"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("isolate", "isolate (find the tests that pollute a failing test)")
    group.addoption(
        "--isolate-record", dest=_DEST, metavar="DIR", default=None,
        help="record each process's executed order and outcomes as DIR/<main|gwN>.subunit"
             " for 'isolate extract --stream DIR'; replaces the recording already in DIR",
    )
    parser.addini(
        _DEST, default="",
        help="directory for --isolate-record, relative to the ini file (the option wins)",
    )


def record_dir(config: pytest.Config) -> Path | None:
    """The recording directory asked for, or None when the plugin should stay inactive.

    The option is relative to where pytest was invoked, the ini value to the ini file, as
    pytest resolves its other paths; an xdist worker takes the controller's resolved path.
    """
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None and _WORKERINPUT_KEY in workerinput:
        return Path(workerinput[_WORKERINPUT_KEY])
    option = config.getoption(_DEST)
    if option:
        return config.invocation_params.dir / option
    value = str(config.getini(_DEST)).strip()
    if value:
        base = config.inipath.parent if config.inipath is not None else config.rootpath
        return base / value
    return None


def pytest_configure(config: pytest.Config) -> None:
    """Decide who records: an xdist worker, or the one process of a run without xdist.

    xdist has settled `dist` by now (its `pytest_cmdline_main` runs first); a controller only
    clears the directory and hands it to the workers it is about to start.
    """
    directory = record_dir(config)
    if directory is None or config.getoption("collectonly"):
        return
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        name = str(workerinput["workerid"])
        config.pluginmanager.register(Recorder(record_path(directory, name), name), "isolate-recorder")
        return
    clear(directory)
    _write_args(directory, config)
    if getattr(config.option, "dist", "no") != "no":
        config.pluginmanager.register(_HandToWorkers(directory), "isolate-xdist")
    else:
        config.pluginmanager.register(Recorder(record_path(directory, MAIN), MAIN), "isolate-recorder")


def _write_args(directory: Path, config: pytest.Config) -> None:
    """The session's command line, beside the recording: a hunt runs pytest with the project's
    configuration only, and `isolate extract` names the options it would leave out (QA: a
    recording made with --count 2 or -W error, whose hunts could not run or reproduce)."""
    try:
        (directory / PYTEST_ARGS).write_text(json.dumps({"args": list(config.invocation_params.args),
                                                         "dir": str(config.invocation_params.dir)}) + "\n")
    except OSError:
        pass  # (the recording itself says what it cannot write)


def pytest_report_header(config: pytest.Config) -> str | None:
    directory = record_dir(config)
    if directory is None or config.getoption("collectonly"):
        return None
    return f"isolate: recording to {directory}"


def clear(directory: Path) -> None:
    """Create `directory`, or remove the recording an earlier session left in it.

    A session must not mix with an earlier one (gw files of an xdist run beside main.subunit of
    a later plain run would read as one run), so every file this plugin writes is removed at the
    start. Any other `*.subunit` there is refused rather than deleted: isolate reads the whole
    directory as one run, and the file is not ours to remove.
    """
    if directory.exists() and not directory.is_dir():
        raise pytest.UsageError(f"--isolate-record {directory} is a file; pass a directory for the recordings")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        old = sorted(directory.glob(f"*{RECORD_SUFFIX}"))
        for path in old:
            if not _OURS.match(path.name):
                raise pytest.UsageError(
                    f"--isolate-record {directory} holds {path.name}, which isolate did not write;"
                    " move it away or record into another directory"
                )
        for path in old:
            path.unlink()
        (directory / PYTEST_ARGS).unlink(missing_ok=True)
    except OSError as error:
        raise pytest.UsageError(
            f"--isolate-record {directory} cannot be prepared ({error.strerror or error});"
            " pass a writable directory"
        ) from None


class _HandToWorkers:
    """On the xdist controller: give each worker the resolved directory (its cwd may differ)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: object) -> None:
        node.workerinput[_WORKERINPUT_KEY] = str(self.directory)  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Phase:
    """What one phase (setup, call or teardown) of a test reported."""

    when: str
    outcome: str  # passed, failed or skipped; rerun: failed, and pytest-rerunfailures runs it again
    xfail: bool  # the report carries `wasxfail`: an xfail (skipped) or a non-strict xpass (passed)
    text: str  # the failure's longrepr text, or a skip's reason

    @classmethod
    def of(cls, report: pytest.TestReport) -> Phase:
        longrepr = report.longrepr
        if report.skipped and isinstance(longrepr, tuple) and len(longrepr) == 3:
            text = str(longrepr[2])
        else:
            text = report.longreprtext
        return cls(report.when or "", report.outcome, hasattr(report, "wasxfail"), text)


def verdict(phases: Sequence[Phase]) -> tuple[str, str]:
    """The subunit status of a test and the text to attach, from its phases.

    An error in setup or teardown is a failure of the test (a polluted fixture is pollution);
    a strict xpass, which pytest reports as a failed call, is still an unexpected success.
    """
    failed = [p for p in phases if p.outcome in ("failed", "rerun") and not p.text.startswith(_STRICT_XPASS)]
    if failed:
        if len(failed) == 1:
            return "fail", failed[0].text
        return "fail", "\n\n".join(f"--- error in {p.when} ---\n{p.text}" for p in failed)
    for phase in phases:
        if phase.outcome == "failed":
            return "uxsuccess", phase.text
    for phase in phases:
        if phase.xfail:
            return ("xfail", phase.text) if phase.outcome == "skipped" else ("uxsuccess", "")
    for phase in phases:
        if phase.outcome == "skipped":
            return "skip", phase.text
    return "success", ""


class Recorder:
    """Writes one process's tests to its subunit v2 file as they start and finish.

    The writer (isolate.orders.stream_writer, the bytes subunit's own writer makes, without
    importing subunit and testtools in every replay) flushes after every packet, so what a crash
    leaves on disk ends with the `inprogress` event of the test that was running.

    A test run again in the same process (pytest-rerunfailures, flaky) is recorded once, as its
    first attempt ended: a failure that a rerun hid is the failure it was, and the recording keeps
    one id per test (QA: each attempt was a test of its own, the repeated id read as a second
    process, and the order before the failing test was lost). In a replay (`replay`), where the
    victim repeated is meant to run again, every execution is recorded.
    """

    def __init__(self, path: Path, name: str, replay: bool = False) -> None:
        self.path = path
        self.replay = replay
        self._done: set[str] = set()  # the tests recorded (a recording's later attempts are reruns)
        self._again: set[str] = set()  # a rerun under way: its reports are not recorded
        self.tags = frozenset({worker_tag(name)})
        try:
            self._fp: BinaryIO = path.open("wb")
        except OSError as error:
            raise pytest.UsageError(
                f"--isolate-record cannot write {path} ({error.strerror or error}); pass a writable directory"
            ) from None
        self._out = StreamWriter(self._fp)
        self._phases: dict[str, list[Phase]] = {}

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        if not self.replay and nodeid in self._done:
            self._again.add(nodeid)
            return
        self._phases[nodeid] = []
        self._out.status(test_id=nodeid, test_status="inprogress", test_tags=self.tags, timestamp=_now())

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.nodeid in self._again:
            return
        phases = self._phases.get(report.nodeid)
        if phases is not None:
            phases.append(Phase.of(report))

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        if nodeid in self._again:
            self._again.discard(nodeid)
            return
        self._done.add(nodeid)
        status, text = verdict(self._phases.pop(nodeid, []))
        if text:
            name = "traceback" if status in ("fail", "uxsuccess") else "reason"
            data = text.encode("utf-8", "replace")
            for at in range(0, len(data), _CHUNK):
                self._out.status(
                    test_id=nodeid, file_name=name, file_bytes=data[at : at + _CHUNK],
                    mime_type="text/plain;charset=utf8", eof=at + _CHUNK >= len(data),
                    test_tags=self.tags,
                )
        self._out.status(test_id=nodeid, test_status=status, test_tags=self.tags, timestamp=_now())

    def pytest_unconfigure(self) -> None:
        self.close()

    def close(self) -> None:
        self._fp.close()


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)
