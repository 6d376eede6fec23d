"""The command line itself: one-line usage errors, --version, help, and `isolate plan`."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import assert_user_error, isolate
from isolate import __version__


def test_usage_errors_are_one_line(tmp_path: Path) -> None:
    assert_user_error(isolate(tmp_path, "extract", "--bogus"), "No such option '--bogus'", "isolate extract --help")
    assert_user_error(isolate(tmp_path, "nosuch"), "No such command 'nosuch'")
    assert_user_error(isolate(tmp_path, "bisect"), "Missing argument 'TEST'")
    assert_user_error(isolate(tmp_path, "bisect", "x", "--time-budget", "soon"), "not a duration", "8h")
    assert_user_error(isolate(tmp_path, "plan", "--tests", "0", "--rate", "0.1"), "--tests")
    assert_user_error(isolate(tmp_path, "plan", "--tests", "10", "--rate", "1.5"), "--rate")


def test_version_and_help(tmp_path: Path) -> None:
    proc = isolate(tmp_path, "--version")
    assert proc.returncode == 0 and __version__ in proc.stdout
    bare = isolate(tmp_path)
    assert bare.returncode == 0 and "bisect" in bare.stdout and "extract" in bare.stdout


def test_plan_json(tmp_path: Path) -> None:
    proc = isolate(tmp_path, "plan", "--tests", "50", "--rate", "0.2", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["lower_bound_runs"] > 1
    for name in ("isolate", "manual"):
        s = data["strategies"][name]
        assert 0 < s["runs_median"] <= s["runs_p95"] and s["seconds_median"] > 0
    text = isolate(tmp_path, "plan", "--tests", "50", "--rate", "0.2")
    assert "Lower bound (Fano)" in text.stdout and "Pass-only confirmation" in text.stdout
