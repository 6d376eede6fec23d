"""Reading pytest-replay's record files: real pytest-replay output and its documented format."""

from __future__ import annotations

import datetime as dt
import importlib.util
import io
import textwrap
from pathlib import Path

import pytest

from isolate.orders.pytest_replay import (
    record_path,
    replay_files,
    replay_path,
    scan_replay,
    scan_replay_dir,
    worker_tag,
)
from isolate.orders.stream import Record
from test_pytest_plugin import OUTCOMES, collected, pytest_run, read

needs_replay = pytest.mark.skipif(
    importlib.util.find_spec("pytest_replay") is None,
    reason="pytest-replay is not installed (it belongs in the 'test' extra)",
)


def replay(text: str, worker: str = "gw1", **kwargs: float) -> tuple[list[Record], list[str]]:
    records: list[Record] = []
    warnings: list[str] = []
    fp = io.StringIO(textwrap.dedent(text).lstrip())
    fp.name = "rec/.pytest-replay-gw1.txt"  # type: ignore[misc]
    count = scan_replay(fp, worker, records.append, warnings.append, **kwargs)
    assert count == len(records)
    return records, warnings


def seconds(record: Record) -> float:
    assert record.start and record.stop
    return (dt.datetime.fromisoformat(record.stop) - dt.datetime.fromisoformat(record.start)).total_seconds()


# pytest-replay calls an xfail "skipped" and a strict xpass "failed"; everything else agrees.
REPLAY_VIEW = {"xfail": "skip", "uxsuccess": "success"}


@needs_replay
def test_real_replay_files_match_our_own_recording(tmp_path: Path) -> None:
    (tmp_path / "test_outcomes.py").write_text(textwrap.dedent(OUTCOMES))
    proc = pytest_run(tmp_path, "-q", "-n", "2", "--replay-record-dir", "rp", "--isolate-record", "rec")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    found = replay_files(tmp_path / "rp")
    assert [name for name, _ in found] == ["gw0", "gw1"]
    assert [path.name for _, path in found] == [".pytest-replay-gw0.txt", ".pytest-replay-gw1.txt"]
    for name, path in found:
        assert path == replay_path(tmp_path / "rp", name)
        theirs: list[Record] = []
        warnings: list[str] = []
        with path.open() as fp:
            scan_replay(fp, name, theirs.append, warnings.append)
        assert warnings == []
        ours, _ = read(record_path(tmp_path / "rec", name))
        assert [r.id for r in theirs] == [r.id for r in ours]
        assert {r.tags for r in theirs} == {frozenset({f"worker-{name}"})}
        strict = "test_outcomes.py::test_xpass_strict"
        assert [r.status for r in theirs] == [
            "fail" if r.id == strict else REPLAY_VIEW.get(r.status, r.status) for r in ours
        ]
        for a, b in zip(theirs, ours):  # both clocks time the same tests
            assert abs(seconds(a) - seconds(b)) < 0.5
    everything: list[Record] = []
    assert scan_replay_dir(tmp_path / "rp", everything.append, lambda message: None) == len(collected(tmp_path))


@needs_replay
def test_real_replay_file_of_a_crashed_run(tmp_path: Path) -> None:
    (tmp_path / "test_crash.py").write_text(textwrap.dedent('''
        import os

        def test_before():
            pass

        def test_dies():
            os._exit(134)

        def test_never_runs():
            pass
    '''))
    proc = pytest_run(tmp_path, "-q", "--replay-record-dir", "rp")
    assert proc.returncode == 134
    assert replay_files(tmp_path / "rp") == [("main", tmp_path / "rp" / ".pytest-replay.txt")]
    records: list[Record] = []
    warnings: list[str] = []
    assert scan_replay_dir(tmp_path / "rp", records.append, warnings.append) == 2
    assert [(r.id, r.status, r.worker) for r in records] == [
        ("test_crash.py::test_before", "success", "worker-main"),
        ("test_crash.py::test_dies", "fail", "worker-main"),
    ]
    assert records[1].details == "" and records[1].start == records[1].stop
    (warning,) = warnings
    assert "test_crash.py::test_dies" in warning and "never finished" in warning and ".pytest-replay.txt" in warning


def test_documented_format() -> None:
    records, warnings = replay('''
        {"nodeid": "test_foo.py::test[1]"}
        {"nodeid": "test_foo.py::test[1]", "finish": 1.0, "outcome": "passed"}
        {"nodeid": "test_foo.py::test[3]", "start": 1.0}
        {"nodeid": "test_foo.py::test[3]", "start": 1.0, "finish": 2.5, "outcome": "failed"}
        {"nodeid": "test_foo.py::test[5]", "start": 2.5}
        {"nodeid": "test_foo.py::test[5]", "start": 2.5, "finish": 3.0, "outcome": "skipped"}
    ''', worker="gw1", origin=1_700_000_000.0)
    assert warnings == []
    assert [(r.id, r.status) for r in records] == [
        ("test_foo.py::test[1]", "success"),  # a start of 0.0 is dropped by pytest-replay
        ("test_foo.py::test[3]", "fail"),
        ("test_foo.py::test[5]", "skip"),
    ]
    assert {r.worker for r in records} == {"worker-gw1"}
    assert [seconds(r) for r in records] == [1.0, 1.5, 0.5]
    assert records[0].start == "2023-11-14 22:13:20Z"
    assert records[1].stop == "2023-11-14 22:13:22.500000Z"


def test_a_test_started_but_never_finished_is_the_crash() -> None:
    records, warnings = replay('''
        {"nodeid": "t.py::test_a", "start": 0.5}
        {"nodeid": "t.py::test_a", "start": 0.5, "finish": 0.75, "outcome": "passed"}
        {"nodeid": "t.py::test_crash", "start": 0.75}
    ''')
    assert [(r.id, r.status, r.details) for r in records] == [("t.py::test_a", "success", ""), ("t.py::test_crash", "fail", "")]
    assert records[1].start == records[1].stop
    (warning,) = warnings
    assert "t.py::test_crash started at line 3 of rec/.pytest-replay-gw1.txt but never finished" in warning


def test_an_unfinished_test_in_the_middle_keeps_its_place() -> None:
    """Files kept with --replay-skip-cleanup hold several sessions; one of them may have died."""
    records, warnings = replay('''
        {"nodeid": "t.py::test_a", "start": 0.5}
        {"nodeid": "t.py::test_b", "start": 0.25}
        {"nodeid": "t.py::test_b", "start": 0.25, "finish": 0.5, "outcome": "passed"}
    ''')
    assert [(r.id, r.status) for r in records] == [("t.py::test_a", "fail"), ("t.py::test_b", "success")]
    assert len(warnings) == 1 and "t.py::test_a" in warnings[0]


def test_oddities_are_warned_about_and_survived() -> None:
    records, warnings = replay('''
        # a comment
        // another comment

        {"nodeid": "t.py::test_a", "start": 0.5, "finish": 0.75}
        {"nodeid": "t.py::test_b", "start": 1, "finish": 2, "outcome": "rerun"}
        {"nodeid": "t.py::test_c", "start": 2, "fin
        {"start": 3, "finish": 4}
        {"nodeid": "t.py::test_d", "start": 4, "finish": 5, "outcome": "passed", "metadata": {"k": 1}}
    ''')
    assert [(r.id, r.status) for r in records] == [
        ("t.py::test_a", "success"),  # finished without an outcome (older pytest-replay): passed
        ("t.py::test_b", "fail"),
        ("t.py::test_d", "success"),
    ]
    assert len(warnings) == 3
    assert sum("'rerun'" in w for w in warnings) == 1
    assert sum("line 6 of" in w or "line 7 of" in w for w in warnings) == 2


def test_the_old_format_of_bare_node_ids() -> None:
    records, warnings = replay('''
        test_foo.py::test[1]
        test_foo.py::test[3]
    ''', worker="worker-gw0")
    assert [(r.id, r.status, r.worker, r.start) for r in records] == [
        ("test_foo.py::test[1]", "success", "worker-gw0", None),
        ("test_foo.py::test[3]", "success", "worker-gw0", None),
    ]
    (warning,) = warnings
    assert "node ids only" in warning and "--test" in warning


def test_timestamps_are_anchored_at_the_file_time(tmp_path: Path) -> None:
    path = tmp_path / ".pytest-replay-gw0.txt"
    path.write_text('{"nodeid": "t.py::test_a", "start": 10.0, "finish": 12.0, "outcome": "passed"}\n')
    records: list[Record] = []
    with path.open() as fp:
        scan_replay(fp, "gw0", records.append, lambda message: None)
    stop = dt.datetime.fromisoformat(records[0].stop or "")
    assert abs(stop.timestamp() - path.stat().st_mtime) < 1e-3
    assert seconds(records[0]) == 2.0


def test_naming_rules(tmp_path: Path) -> None:
    assert worker_tag("gw1") == worker_tag("worker-gw1") == "worker-gw1"
    assert worker_tag("main") == "worker-main"
    assert record_path(tmp_path, "gw3") == record_path(tmp_path, "worker-gw3") == tmp_path / "gw3.subunit"
    assert replay_path(tmp_path, "worker-main") == tmp_path / ".pytest-replay.txt"
    for name in [".pytest-replay-gw10.txt", ".pytest-replay-gw2.txt", ".pytest-replay.txt", "other-gw1.txt",
                 ".pytest-replay-gw1.txt.bak", "gw1.subunit", "other.txt"]:
        (tmp_path / name).write_text("")
    assert [name for name, _ in replay_files(tmp_path)] == ["main", "gw2", "gw10"]
    assert replay_files(tmp_path, base="other") == [("main", tmp_path / "other.txt"), ("gw1", tmp_path / "other-gw1.txt")]
