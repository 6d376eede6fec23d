"""`isolate runs --stream`: what a saved stream or a pytest recording holds, from real runs."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import assert_user_error, isolate, xdist_recorded

VICTIM = "tests/test_store.py::test_active_sessions_for_user_counts_logins"


def test_runs_lists_a_recording_a_saved_stream_and_stdin(tmp_path: Path) -> None:
    suite, stdout, returncode = xdist_recorded(tmp_path)  # pytest -n 2 --dist loadfile --isolate-record rec
    assert returncode == 1, stdout

    listed = isolate(suite, "runs", "--stream", "rec")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == "stream rec"
    fails = [line.split() for line in lines if line.strip().startswith("FAIL ")]
    assert len(fails) == 1 and fails[0][1] == VICTIM
    worker = fails[0][2].strip("[]")
    row = lines[2].split()
    assert row[0] == "-" and row[3:] == ["102", "1", "2"]  # tests, failed, workers

    (data,) = json.loads(isolate(suite, "runs", "--stream", "rec", "--json").stdout)
    assert data["run"] is None and data["stream"] == "rec" and data["tests"] == 102
    assert data["failures"] == [{"test": VICTIM, "worker": worker}]
    assert sorted(data["workers"]) == ["worker-gw0", "worker-gw1"] and data["warnings"] == []

    own = suite / "rec" / f"{worker.removeprefix('worker-')}.subunit"
    (one,) = json.loads(isolate(suite, "runs", "--stream", str(own), "--json").stdout)
    piped = isolate(suite, "runs", "--stream", "-", "--json", input=own.read_bytes())
    (fed,) = json.loads(piped.stdout)
    assert one["failures"] == fed["failures"] == data["failures"]
    assert one["tests"] == fed["tests"] < 102 and fed["stream"] == "stdin"
    # and the worker it names is what extract takes
    assert isolate(suite, "extract", "--stream", "rec", "--worker", worker).returncode == 0


def test_runs_refuses_a_stream_it_cannot_list(tmp_path: Path) -> None:
    (tmp_path / "junk.subunit").write_bytes(b"\x00not a stream\n")
    (tmp_path / "empty").mkdir()
    assert_user_error(isolate(tmp_path, "runs", "--stream", "junk.subunit"), "junk.subunit",
                      "no subunit test records (empty, or not a subunit stream); pass a saved subunit stream or a"
                      " recording directory")
    assert_user_error(isolate(tmp_path, "runs", "--stream", "missing.subunit"), "does not exist")
    assert_user_error(isolate(tmp_path, "runs", "--stream", "empty"), "no *.subunit recordings")
    assert_user_error(isolate(tmp_path, "runs", "--stream", "junk.subunit", "--repo", "."), "--repo and --stream")


def test_a_recording_file_that_is_no_stream_is_named(tmp_path: Path) -> None:
    """A recording directory read as one run left out a worker's file that held no records (here
    overwritten with junk) without a word: one worker fewer, its tests gone."""
    suite, stdout, returncode = xdist_recorded(tmp_path)
    assert returncode == 1, stdout
    (data,) = json.loads(isolate(suite, "runs", "--stream", "rec", "--json").stdout)
    other = next(f"{w.removeprefix('worker-')}.subunit" for w in data["workers"] if w != data["failures"][0]["worker"])
    (suite / "rec" / other).write_bytes(b"junk\n")
    (fewer,) = json.loads(isolate(suite, "runs", "--stream", "rec", "--json").stdout)
    assert len(fewer["workers"]) == 1 and fewer["tests"] < data["tests"]
    assert any(f"{other} holds no subunit test records" in w for w in fewer["warnings"]), fewer["warnings"]
    extracted = isolate(suite, "extract", "--stream", "rec")
    assert extracted.returncode == 0 and f"{other} holds no subunit test records" in extracted.stderr, extracted.stderr
