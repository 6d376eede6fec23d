"""The command line itself: one-line usage errors, --version, help, and `isolate plan`."""

from __future__ import annotations

import json
import shutil
import os
import re
import stat
import subprocess
from pathlib import Path

import pytest

from conftest import assert_user_error, copy_suite, env, isolate, load_runs, recording, stestr_run, tool
from isolate import __version__


def test_usage_errors_are_one_line(tmp_path: Path) -> None:
    assert_user_error(isolate(tmp_path, "extract", "--bogus"), "No such option", "--bogus", "isolate extract --help")
    assert_user_error(isolate(tmp_path, "nosuch"), "No such command 'nosuch'")
    assert_user_error(isolate(tmp_path, "bisect"), "Missing argument 'TEST'")
    assert_user_error(isolate(tmp_path, "bisect", "x", "--time-budget", "soon"), "not a duration", "8h")
    assert_user_error(isolate(tmp_path, "plan", "--tests", "0", "--rate", "0.1"), "--tests")
    assert_user_error(isolate(tmp_path, "plan", "--tests", "10", "--rate", "1.5"), "--rate")
    assert_user_error(isolate(tmp_path, "runs", "--limit", "-1"), "--limit")  # listed every run, as 0 does
    # QA: "'abc' is not a valid integer range"
    assert_user_error(isolate(tmp_path, "backtrack", "x", "abc"), "STEP 'abc' is not a step number", "isolate log")


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


def test_plan_of_quick_runs_gives_their_time_not_0_s(tmp_path: Path) -> None:
    """A run of 0.26 s was shown as 'full-list time 0 s' in the confirmation table."""
    proc = isolate(tmp_path, "plan", "--tests", "5", "--rate", "1", "--duration", "0.01", "--startup", "0.2")
    assert proc.returncode == 0, proc.stderr
    assert not re.search(r"(?<![.\d])0 s\b", proc.stdout), proc.stdout
    assert "0.3 s" in proc.stdout, proc.stdout


def test_plan_of_a_hunt_takes_its_size_durations_and_measured_start_up(tmp_path: Path) -> None:
    victim = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
    suite = recording("deterministic_polluter", tmp_path, victim)
    hunt = next((suite / ".isolate").iterdir())
    order = (hunt / "order.txt").read_text().split()
    recorded = json.loads((hunt / "durations.json").read_text())
    mean = sum(max(0.0005, recorded[t]) for t in order[:-1]) / (len(order) - 1)  # (as the search weighs them)
    fresh = isolate(suite, "plan", "test_header_uses_default_currency", "--rate", "1", "--json")
    assert fresh.returncode == 0, fresh.stderr
    data = json.loads(fresh.stdout)
    assert data["tests"] == len(order) - 1 == 55
    assert data["duration"] == pytest.approx(mean, rel=0.05)
    assert "start-up 0.5 s a run is a guess until the hunt has run; give --startup" in fresh.stderr
    given = json.loads(isolate(suite, "plan", "test_header", "--rate", "1", "--startup", "3", "--tests", "9",
                               "--json").stdout)
    assert (given["tests"], given["startup"]) == (9, 3)  # the options given win
    assert isolate(suite, "bisect", victim, "-q").returncode == 0
    measured = isolate(suite, "plan", "test_header", "--rate", "1", "--json")
    assert measured.returncode == 0 and "guess" not in measured.stderr, measured.stderr
    assert json.loads(measured.stdout)["startup"] != 0.5  # the journal's runs measured it
    assert_user_error(isolate(suite, "plan", "--rate", "1"), "isolate plan TEST", "--tests N --rate R")
    assert_user_error(isolate(suite, "plan", "nosuch", "--rate", "1"), "no hunt for 'nosuch'")


def test_plan_of_a_hunt_estimates_the_rate_from_its_stored_runs(tmp_path: Path) -> None:
    """`plan TEST` asked for --rate although the repository's runs say how often the victim
    fails (QA). The run extracted from counts as a failure; runs of the victim alone pass here.
    The project moved elsewhere reads the same runs."""
    victim = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
    suite = recording("deterministic_polluter", tmp_path, victim)
    assert stestr_run(suite, victim).returncode == 0  # alone: it passes
    load_runs(suite, 1, 2)  # and twice more (stored copies of that run)
    assert_user_error(isolate(suite, "plan", "test_header"), "ran 4 times", "5 needed", "--rate R")
    assert stestr_run(suite, victim).returncode == 0
    proc = isolate(suite, "plan", "test_header", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["rate"] == pytest.approx(0.2)
    assert "failed 1 of the 5 times it ran" in proc.stderr, proc.stderr
    given = isolate(suite, "plan", "test_header", "--rate", "0.5", "--json")
    assert json.loads(given.stdout)["rate"] == 0.5 and "failed in" not in given.stderr  # --rate wins
    assert not (next((suite / ".isolate").iterdir()) / "history.jsonl").exists()  # plan reads, writes nothing
    # hunt.json named the repository by absolute path: a project moved (or copied) with its .isolate
    # read the original's stored runs, or none once the original was gone
    hunt = next((suite / ".isolate").iterdir())
    assert json.loads((hunt / "hunt.json").read_text())["source"]["repository"] == ".stestr"
    moved = shutil.move(suite, tmp_path / "moved")
    proc = isolate(Path(moved), "plan", "test_header", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["rate"] == pytest.approx(0.2), proc.stderr
    assert "failed 1 of the 5 times it ran" in proc.stderr, proc.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_output_that_cannot_be_written_is_an_error_not_a_quiet_exit(tmp_path: Path) -> None:
    """stdout on a full disk (/dev/full) exited 0 with the output lost, or with a traceback; a
    reader that goes away early (`| head -1`) is no error."""
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([tool("isolate"), "plan", "--tests", "50", "--rate", "0.5"], cwd=tmp_path, stdout=full,
                              stderr=subprocess.PIPE, env=env(), timeout=120)
    assert_user_error(subprocess.CompletedProcess(proc.args, proc.returncode, "", proc.stderr.decode()),
                      "cannot write the output (No space left on device)")
    head = subprocess.run(f"'{tool('isolate')}' plan --tests 50 --rate 0.5 | head -c 1", shell=True, cwd=tmp_path,
                          capture_output=True, env=env(), timeout=120)
    assert head.returncode == 0 and head.stderr == b"", head.stderr


def test_a_device_or_pipe_as_the_html_file_is_refused_not_replaced(tmp_path: Path) -> None:
    """write_atomic replaces its target by rename: given /dev/full (as root) it replaced the
    device with a regular file. A pipe stands for it here."""
    suite = copy_suite("deterministic_polluter", tmp_path)
    stestr_run(suite)
    assert isolate(suite, "extract").returncode == 0
    fifo = tmp_path / "page.html"
    os.mkfifo(fifo)
    assert_user_error(isolate(suite, "report", "test_header_uses_default_currency", "--html", str(fifo)),
                      "is not a regular file")
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.parametrize("pair", [("--fork-server", "--no-fork-server"), ("--scan", "--no-scan"),
                                  ("--cleaners", "--no-cleaners")])
def test_both_spellings_of_a_flag_are_refused_not_the_last_taken(tmp_path: Path, pair: tuple[str, str]) -> None:
    """click keeps the last of `--x --no-x`, so `--fork-server --no-fork-server` silently meant
    the second (and was stored for every resume)."""
    for args in (pair, pair[::-1]):
        assert_user_error(isolate(tmp_path, "bisect", "test_x", *args),
                          f"{pair[0]} and {pair[1]} contradict each other", "give one of them")
    assert "no hunt for 'test_x'" in isolate(tmp_path, "bisect", "test_x", pair[1], pair[1]).stderr  # once is fine


def test_status_of_every_hunt_shows_the_sound_ones_when_one_cannot_be_read(tmp_path: Path) -> None:
    """QA: with two hunts, one whose verdict.json was corrupt or whose order.txt was gone made
    `isolate status` exit 2 showing neither (a corrupt hunt.json was already a warning beside
    the other hunts); `status TEST` of the broken one stays the error, and so does `status` once
    the broken hunt is the only one (tests/test_bad_inputs.py)."""
    victim = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
    other = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_with_settings_currency"
    suite = recording("deterministic_polluter", tmp_path, victim)
    assert isolate(suite, "extract", "--test", other).returncode == 0
    broken = next(h for h in (suite / ".isolate").iterdir() if "uses_default" in h.name)
    for damage in ("verdict.json", "order.txt"):
        if damage == "verdict.json":
            (broken / "verdict.json").write_text('{"verdict": ')
        else:
            (broken / "verdict.json").unlink()
            (broken / "order.txt").unlink()
        proc = isolate(suite, "status")
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stdout.startswith(other + "\n  not started · 56 candidates"), proc.stdout
        assert victim not in proc.stdout, proc.stdout
        [warning] = proc.stderr.splitlines()
        assert warning.startswith("isolate: warning: ") and str(broken / damage) in warning, proc.stderr
        assert_user_error(isolate(suite, "status", "test_header_uses"), str(broken / damage))
    shutil.rmtree(next(h for h in (suite / ".isolate").iterdir() if "with_settings" in h.name))
    assert_user_error(isolate(suite, "status"), str(broken / "order.txt"))
