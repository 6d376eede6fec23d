"""Stored runs as evidence: real stestr runs with --random (the polluter lands before the victim
in some runs and not in others), and the hunt's history file read back as observations."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import (assert_user_error, copy_suite, fails_alone_recording, isolate, load_runs, made_once, recording, run,
                      stestr_run, tool)
from isolate.hunt.evidence import evidence
from isolate.hunt.history import HISTORY
from isolate.hunt.store import Hunt, hunt_name
from isolate.search.model import Settings
from isolate.search.stored import prior
from isolate.search.threshold import cost_chain

VICTIM = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
POLLUTER = "reportgen.tests.core.test_config.ConfigDefaultsTest.test_set_default_currency"
# The hunts here are about the evidence they read, not how runs start: those that run more than a
# few runs fork from the start (--fork-server: half the CPU of fresh runs; kept for resumes).
FORK = "--fork-server"


def random_runs(tmp_path: Path, runs: int) -> Path:
    """At least `runs` stored runs with --random, the latest with the victim failing; extracted.
    Those before it are serial (one runner process less each: 1.2 CPU-s a run instead of 1.95):
    the victim's worker is then the whole suite, shuffled, the polluter before it about half the
    time; the hunt reads of them only its candidates (isolate.hunt.evidence)."""
    return recording("deterministic_polluter", tmp_path, VICTIM, "--random",
                     before=(("--random", "--serial"),) * (runs - 1))


def shared(key: str, dest: Path, make: Callable[[Path], None]) -> Path:
    """A copy in `dest` of the folder `make` fills, made once per test session
    (conftest.made_once); the test may then change its copy."""
    made = made_once(f"history-{key}", make)
    shutil.copytree(made, dest, ignore=shutil.ignore_patterns(".isolate", "__pycache__"), dirs_exist_ok=True)
    return dest


def plain_runs(tmp_path: Path, runs: int) -> Path:
    """A copy of the sample suite with `runs` plain stored stestr runs (the victim failed in each:
    its worker runs the polluter first), none extracted; the runs made once per session, serial
    (one worker, in id order, the polluter first all the same; one runner process less a run)."""
    def make(folder: Path) -> None:
        suite = copy_suite("deterministic_polluter", folder)
        for _ in range(runs):
            stestr_run(suite, "--serial")
    return shared(f"plain-{runs}", tmp_path, make) / "deterministic_polluter"


def test_stored_runs_are_evidence_and_no_history_switches_them_off(tmp_path: Path) -> None:
    suite = random_runs(tmp_path, 6)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    stored = len([p for p in (suite / ".stestr").iterdir() if p.name.isdigit()])
    proc = isolate(suite, "bisect", VICTIM, FORK)
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads((hunt / "verdict.json").read_text())
    assert verdict["culprits"] == [POLLUTER]
    lines = (hunt / HISTORY).read_text().splitlines()
    assert len(lines) == stored - 1  # every stored run but the one the hunt was extracted from
    assert verdict["history_runs"] == stored - 1
    assert f"{stored - 1} earlier runs of the victim are evidence" in proc.stderr
    assert any("earlier runs from stored history" in line for line in verdict["evidence"])
    assert f"counted {stored - 1} earlier runs from stored history" in proc.stdout
    journal = (hunt / "journal.jsonl").read_text().splitlines()
    assert verdict["runs"] == len(journal)  # new runs only

    # each kept run names the victim's status and what ran before it in its worker
    pasts = [json.loads(line) for line in lines]
    assert {p["status"] for p in pasts} <= {"success", "fail"}
    assert all(VICTIM not in p["predecessors"] for p in pasts)
    assert any(POLLUTER in p["predecessors"] and p["status"] == "fail" for p in pasts) or \
        all(p["status"] == "success" for p in pasts)

    # QA: told to limit them with --history-since, when it was given
    since = isolate(suite, "bisect", VICTIM, "--history-since", "0", FORK)
    assert since.returncode == 0, since.stderr
    assert f"{stored - 1} earlier runs of the victim are evidence (0 new); those from run 0 on (--history-since) are" \
        " assumed to test today's code; --no-history leaves them out" in since.stderr, since.stderr

    off = isolate(suite, "extract", "--test", VICTIM, "--force")
    assert off.returncode == 0
    proc = isolate(suite, "bisect", VICTIM, "--json", "--no-history", FORK)
    verdict = json.loads(proc.stdout)
    assert verdict["history_runs"] == 0 and verdict["culprits"] == [POLLUTER]
    assert "earlier runs" not in proc.stderr


def test_history_observations_are_restricted_to_the_candidates(tmp_path: Path) -> None:
    suite = random_runs(tmp_path, 1)
    path = suite / ".isolate" / hunt_name(VICTIM)
    hunt = Hunt(path, json.loads((path / "hunt.json").read_text()))
    order = (path / "order.txt").read_text().split()
    recorded = (path / "failure.txt").read_text()
    assert recorded.strip()
    first, second = order[0], order[1]
    from isolate.running.signature import signature_from_traceback

    signature = signature_from_traceback(recorded)
    rows = [
        {"source": "run 90", "status": "success", "signature": None, "predecessors": [first, "not.a.candidate"]},
        {"source": "run 91", "status": "fail", "signature": signature, "predecessors": [first, second]},
        {"source": "run 92", "status": "fail", "signature": "OtherError: no @ x.py:y", "predecessors": [first]},
        {"source": "run 93", "status": "skip", "signature": None, "predecessors": []},
    ]
    (path / HISTORY).write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"source": "cut\n')
    ev = evidence(hunt)
    assert ev.history == (2, 1)
    got = {(tuple(sorted(ev.problem.predecessors[i] for i in o.included)), o.failed) for o in ev.observations}
    assert got == {((first,), False), (tuple(sorted((first, second))), True)}
    assert all(o.seconds == 0.0 for o in ev.observations)


def test_bad_history_options_are_refused_before_anything_is_stored(tmp_path: Path) -> None:
    suite = random_runs(tmp_path, 1)
    settings = (suite / ".isolate" / hunt_name(VICTIM) / "hunt.json").read_bytes()
    assert_user_error(isolate(suite, "bisect", VICTIM, "--history-since", "99"), "run 99 does not exist")
    assert_user_error(isolate(suite, "bisect", VICTIM, "--history-since", "soon"), "is not a run id")
    assert_user_error(isolate(suite, "bisect", VICTIM, "--history", "missing.subunit"), "--history", "does not exist")
    assert (suite / ".isolate" / hunt_name(VICTIM) / "hunt.json").read_bytes() == settings


def _write_history(suite: Path, passing: Callable[[list[str]], list[list[str]]]) -> Hunt:
    """The extracted hunt of `suite`, with a history file of three stored runs that failed the
    victim with the polluter and another test before it, and one that passed after each list of
    predecessors `passing` makes of the order's other tests (the polluter left out)."""
    from isolate.running.signature import signature_from_traceback

    path = suite / ".isolate" / hunt_name(VICTIM)
    order = [t for t in (path / "order.txt").read_text().split() if t != VICTIM]
    assert POLLUTER in order
    others = [t for t in order if t != POLLUTER]
    signature = signature_from_traceback((path / "failure.txt").read_text())
    rows = [{"source": f"run {90 + i}", "status": "fail", "signature": signature,
             "predecessors": [others[i], POLLUTER]} for i in range(3)]
    rows += [{"source": f"run {95 + i}", "status": "success", "signature": None, "predecessors": before}
             for i, before in enumerate(passing(others))]
    (path / HISTORY).write_text("".join(json.dumps(r) + "\n" for r in rows))
    return Hunt(path, json.loads((path / "hunt.json").read_text()))


def test_stored_runs_that_point_at_a_test_lead_the_hunt_to_it(tmp_path: Path) -> None:
    """History read from disk is marked as stored, becomes the chain's prior, and the hunt asks
    about the test it points at first (the log says so: the stored runs saw it fail them 3/3, so
    the first wave is that test alone before the victim), then names it by new runs."""
    suite = random_runs(tmp_path, 1)
    hunt = _write_history(suite, lambda others: [others[i:i + 3] for i in range(6)])
    ev = evidence(hunt)
    assert ev.history == (9, 3) and all(o.stored for o in ev.observations)
    pri = prior(cost_chain(ev.problem), None, 0.4, ev.observations, Settings())
    assert pri.suspects >= 1 and ev.problem.predecessors[pri.chain[0]] == POLLUTER

    proc = isolate(suite, "bisect", VICTIM, "--json", FORK)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["culprits"] == [POLLUTER]
    log = isolate(suite, "log", VICTIM).stdout
    first = next(line for line in log.splitlines() if "step" in line)
    assert "1 predecessor + victim" in first and "the predecessor stored runs suspect most" in first, log


def test_stored_runs_do_not_use_up_max_runs(tmp_path: Path) -> None:
    """--max-runs caps this hunt's runs; the stored runs it reads as evidence are none of them.
    (Six stored runs: the ones test_stored_runs_are_evidence... has made; it needs three or more.)"""
    suite = random_runs(tmp_path, 6)
    proc = isolate(suite, "bisect", VICTIM, "--json", "--max-runs", "2", "--no-fork-server")
    verdict = json.loads(proc.stdout)
    assert verdict["history_runs"] >= 3, verdict
    journal = (suite / ".isolate" / hunt_name(VICTIM) / "journal.jsonl").read_text().splitlines()
    assert verdict["runs"] == len(journal) == 2, (verdict, proc.stderr)


def test_stored_passes_with_a_test_make_its_failures_flaky_and_start_repeats(tmp_path: Path) -> None:
    """Repeats start by themselves once no deterministic cause explains the runs; a stored run
    that passed with the polluter before the victim says so as a new one would, once a new run
    passed. Here every new run that holds the polluter fails (the sample's polluter is
    deterministic) and the victim alone passes: with stored passes beside the stored failures
    repeats start after the hunt's first runs, without them they never do. Both hunts name the
    polluter."""
    suite = random_runs(tmp_path, 1)
    for passes, starts in ((0, False), (3, True)):
        hunt = _write_history(suite, lambda others: [[others[i + 3], POLLUTER] for i in range(passes)])
        proc = isolate(suite, "bisect", VICTIM, "--json", "--jobs", "1", "--no-fork-server")
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["culprits"] == [POLLUTER]
        auto = hunt.path / "repeat-auto.json"
        assert auto.exists() is starts, (passes, proc.stderr)
        if starts:  # although runs had reproduced the failure, which only a flaky cause allows
            assert "runs reproduced the failure: from run" in json.loads(auto.read_text())["why"]
        assert isolate(suite, "extract", "--test", VICTIM, "--force").returncode == 0


def test_a_history_stream_stored_earlier_is_not_read_again_nor_needed_on_resume(tmp_path: Path) -> None:
    suite = random_runs(tmp_path, 6)  # stored runs beside the stream (the ones other tests here made)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    stream = tmp_path / "ci.subunit"  # a run elsewhere (a copy of a stored run is that run: counted once)
    elsewhere = recording("deterministic_polluter", tmp_path / "ci", VICTIM)  # its one stestr run, made once a session
    stream.write_bytes((elsewhere / ".stestr" / "0").read_bytes())
    first = isolate(suite, "bisect", VICTIM, "--history", str(stream), "--max-runs", "2")
    assert "does not exist" not in first.stderr and "not a subunit" not in first.stderr, first.stderr
    assert str(stream.resolve()) in (hunt / HISTORY).read_text()  # its run of the victim was read
    runs = len((hunt / "journal.jsonl").read_text().splitlines())
    stream.unlink()  # a CI artifact cleaned up between sessions
    again = isolate(suite, "bisect", VICTIM, "--max-runs", "4")
    assert "does not exist" not in again.stderr, again.stderr
    assert len((hunt / "journal.jsonl").read_text().splitlines()) > runs
    assert str(stream.resolve()) in (hunt / HISTORY).read_text()  # nothing read from it is lost
    # given again, it is checked again
    assert_user_error(isolate(suite, "bisect", VICTIM, "--history", str(stream)), "--history", "does not exist")


def test_extract_force_starts_the_stored_runs_over_with_the_hunt(tmp_path: Path) -> None:
    """After 'extract --run 0 --force' the new hunt counted run 0, the run it was extracted from,
    among its earlier runs: the history.jsonl of the hunt it replaced stayed (as did verify.jsonl)."""
    suite = plain_runs(tmp_path, 2)
    assert isolate(suite, "extract", "--run", "1").returncode == 0
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    assert isolate(suite, "bisect", VICTIM, "-q", FORK).returncode == 0
    assert isolate(suite, "verify", VICTIM).returncode == 1
    before = {name: (hunt / name).read_text() for name in (HISTORY, "verify.jsonl")}
    assert '"run 0"' in before[HISTORY]
    assert isolate(suite, "extract", "--run", "0", "--force").returncode == 0
    [aside] = hunt.glob("replaced-*")
    assert {name: (aside / name).read_text() for name in before} == before
    assert not (hunt / "verify.jsonl").exists()
    proc = isolate(suite, "bisect", VICTIM, "--json", FORK)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["history_runs"] == 1, proc.stderr
    assert [json.loads(line)["source"] for line in (hunt / HISTORY).read_text().splitlines()] == ["run 1"]


def test_the_stream_a_hunt_was_extracted_from_is_no_history(tmp_path: Path) -> None:
    """'--history S' with S the very stream the hunt was extracted from counted its failing run as
    evidence: a victim fixed since then was hunted for thousands of runs ('stored runs failed, this
    order not yet'), 'leading: fails on its own (0.981)' with none reproduced."""
    suite = recording("deterministic_polluter", tmp_path, VICTIM)  # one stestr run, made once a session
    stream = tmp_path / "ci.subunit"
    stream.write_bytes(run([tool("stestr"), "last", "--subunit"], suite).stdout)
    # the hunt made again from the run's stream (the copy's own, from the run itself, set aside)
    assert isolate(suite, "extract", "--stream", str(stream), "--force").returncode == 0
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    settings = (hunt / "hunt.json").read_bytes()
    proc = isolate(suite, "bisect", VICTIM, "--history", str(stream))
    assert_user_error(proc, f"--history {stream} is the stream this hunt was extracted from", "drop it")
    assert (hunt / "hunt.json").read_bytes() == settings and not (hunt / HISTORY).exists()
    # a hunt that stored it before: not read
    stored = json.loads(settings)
    (hunt / "hunt.json").write_text(json.dumps({**stored, "search": {"history_paths": [str(stream)]}}))
    proc = isolate(suite, "bisect", VICTIM, "--json", "--max-runs", "40", FORK)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["history_runs"] == 0 and not (hunt / HISTORY).exists()


def test_stored_failures_fixed_since_end_the_hunt_as_not_reproduced(tmp_path: Path) -> None:
    """Four stored runs failed; then the polluter was fixed. The hunt ends "not reproduced" in a
    few runs, saying the stored failures look stale and how to hunt without them (it took 12,874
    runs and ended "undecided")."""
    suite = plain_runs(tmp_path, 2)  # two stestr runs (made once a session) in which the victim failed...
    load_runs(suite, 1, 2)  # ...and two more stored, copies of the second by stestr's load
    config = suite / "reportgen" / "tests" / "core" / "test_config.py"
    config.write_text(config.read_text().replace('config.set_default("currency", "EUR")', "pass")
                      .replace('self.assertEqual(config.get("currency"), "EUR")', "pass"))
    assert isolate(suite, "extract", "--test", VICTIM, "--force").returncode == 0
    proc = isolate(suite, "bisect", VICTIM, "--json", FORK)
    assert proc.returncode == 4, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "not-reproduced" and verdict["history_runs"] == 3, verdict
    assert verdict["runs"] <= 40 and verdict["confidence"] >= 0.99, verdict
    assert any(line.startswith("the stored runs failed 3/3") for line in verdict["evidence"]), verdict
    assert any("--no-history hunts without them" in line for line in verdict["evidence"]), verdict
    assert "did not reproduce" in verdict["stop"]
    status = isolate(suite, "status", VICTIM)  # no leader made of the stale failures
    assert status.returncode == 0 and "  leading: —" in status.stdout, status.stdout
    # the single-cause search too: its repeats, which leave the stored runs out, started after two
    # passes, and the hunt then ran the full list to the reproduction cap (4,603 runs)
    assert isolate(suite, "extract", "--test", VICTIM, "--force").returncode == 0
    proc = isolate(suite, "bisect", VICTIM, "--json", "--strategy", "single", "--max-runs", "200", FORK)
    assert proc.returncode == 4, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "not-reproduced" and verdict["runs"] <= 40, verdict
    assert "did not reproduce" in verdict["stop"] and "repeats:" not in proc.stderr, (verdict, proc.stderr)


def test_a_run_of_the_hunts_own_repository_is_no_extra_history(tmp_path: Path) -> None:
    """'--history .stestr/1' counted run 1 twice (as "run 1" and as the stream), and
    '--history .stestr/0', the run the hunt was extracted from, was taken as evidence, though
    the stream it was extracted from is refused."""
    suite = plain_runs(tmp_path, 2)
    assert isolate(suite, "extract", "--run", "0").returncode == 0
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    settings = (hunt / "hunt.json").read_bytes()
    proc = isolate(suite, "bisect", VICTIM, "--history", ".stestr/0")
    assert_user_error(proc, "/.stestr/0 is run 0, the run this hunt was extracted from", "drop it")
    proc = isolate(suite, "bisect", VICTIM, "--history", str(suite / ".stestr" / "1"))
    assert_user_error(proc, "is run 1 of the hunt's own repository", "drop it")
    assert (hunt / "hunt.json").read_bytes() == settings and not (hunt / HISTORY).exists()
    # a hunt that stored it before: read once, as the repository's run
    stored = json.loads(settings)
    (hunt / "hunt.json").write_text(json.dumps({**stored, "search": {"history_paths": [str(suite / ".stestr" / "1")]}}))
    proc = isolate(suite, "bisect", VICTIM, "--json", FORK)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["history_runs"] == 1
    assert [json.loads(line)["source"] for line in (hunt / HISTORY).read_text().splitlines()] == ["run 1"]


def test_a_file_of_the_recording_a_hunt_was_extracted_from_is_no_history(tmp_path: Path) -> None:
    """'--history rec' was refused for a hunt extracted from the recording directory rec, but
    '--history rec/main.subunit', the same failing run, was counted as an earlier stored run."""
    suite = copy_suite("pytest_fixture_state", tmp_path)
    assert run([tool("pytest"), "-q", "-p", "no:cacheprovider", "--isolate-record=rec"], suite).returncode == 1
    assert isolate(suite, "extract", "--stream", "rec").returncode == 0
    [hunt] = (suite / ".isolate").iterdir()
    victim = json.loads((hunt / "hunt.json").read_text())["victim"]
    settings = (hunt / "hunt.json").read_bytes()
    for given in ("rec", "rec/main.subunit"):
        proc = isolate(suite, "bisect", victim, "--history", given)
        assert_user_error(proc, "is the stream this hunt was extracted from", "drop it")
    assert (hunt / "hunt.json").read_bytes() == settings and not (hunt / HISTORY).exists()


def test_a_pipe_as_history_or_stream_is_refused_not_said_to_be_missing(tmp_path: Path) -> None:
    """'--history <(cat run.subunit)' said '--history /proc/…/fd/pipe:[…] does not exist' (the path
    resolved through its link), and a FIFO hung the bisect, opened with no writer; extract
    --stream of one said it does not exist."""
    import os

    suite = recording("deterministic_polluter", tmp_path, VICTIM)  # one stestr run (made once a session), extracted
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    settings = (hunt / "hunt.json").read_bytes()
    piped = run(["bash", "-c", f"{tool('isolate')} bisect {VICTIM} --history <(cat .stestr/0)"], suite)
    assert_user_error(subprocess.CompletedProcess(piped.args, piped.returncode, piped.stdout.decode(),
                                                  piped.stderr.decode()), "is a pipe or device")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_user_error(isolate(suite, "extract", "--stream", str(fifo), "--force"), "is a pipe or device",
                      "pass '-'")
    # QA: `runs --stream` of one said "which extract reads twice", a command the user never ran
    assert_user_error(isolate(suite, "runs", "--stream", str(fifo)), "is a pipe or device, which isolate reads twice")
    assert_user_error(isolate(suite, "bisect", VICTIM, "--history", str(fifo)),  # (it hung here)
                      f"--history {fifo} is a pipe or device", "save the stream to a file")
    assert (hunt / "hunt.json").read_bytes() == settings


def test_a_run_given_again_under_another_name_counts_once(tmp_path: Path) -> None:
    """QA: a stream saved from a stored run (`stestr last --subunit`), the same file given twice,
    and a saved copy of the run the hunt was extracted from were each counted as one more run
    (fails 13/13 became 14/14). They are told by when the victim started in them."""
    suite = plain_runs(tmp_path, 2)
    saved = {number: tmp_path / f"run{number}.subunit" for number in ("0", "1")}
    for number, path in saved.items():
        path.write_bytes(run_stream(suite, number))
    twice = tmp_path / "again.subunit"
    twice.write_bytes(saved["1"].read_bytes())
    assert isolate(suite, "extract", "--run", "0").returncode == 0
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    proc = isolate(suite, "bisect", VICTIM, "--json", "--history", str(saved["0"]), "--history", str(saved["1"]),
                   "--history", str(twice), FORK)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["history_runs"] == 1  # run 1 once; run 0 is the one extracted from
    assert kept_sources(hunt) == ["run 1"]
    again = isolate(suite, "bisect", VICTIM, "--max-runs", "1000")  # a new session: the files did not change
    assert again.returncode == 0, again.stderr
    assert "1 earlier run of the victim is evidence (0 new)" in again.stderr
    assert kept_sources(hunt) == ["run 1"]


def kept_sources(hunt: Path) -> list[str]:
    """Where each run kept in the hunt's history came from (its lines marking a path read left out)."""
    return [item["source"] for item in map(json.loads, (hunt / HISTORY).read_text().splitlines()) if "source" in item]


def other_runs(tmp_path: Path) -> tuple[Path, Path]:
    """Two streams of runs elsewhere: one where the victim failed, one without the polluter (it
    passed). The two stestr runs are made once per session, serial (one runner process less each:
    1.2 CPU-s instead of 1.95; the polluter runs before the victim in one worker either way); each
    test gets its own copy of the streams."""
    def make(folder: Path) -> None:
        elsewhere = copy_suite("deterministic_polluter", folder / "elsewhere")
        stestr_run(elsewhere, "--serial")
        stestr_run(elsewhere, "--serial", "--exclude-regex", "test_set_default_currency")
        (folder / "failed.subunit").write_bytes(run_stream(elsewhere, "0"))
        (folder / "passed.subunit").write_bytes(run_stream(elsewhere, "1"))
        shutil.rmtree(folder / "elsewhere")
    shared("other-runs", tmp_path, make)
    return tmp_path / "failed.subunit", tmp_path / "passed.subunit"


def test_every_run_of_the_victim_in_a_history_stream_or_folder_counts(tmp_path: Path) -> None:
    """QA: a --history folder (or a joined stream) holding a passing and a failing run of the
    victim's worker counted only the failing run, silently: the stored rate read high."""
    suite = recording("deterministic_polluter", tmp_path / "suite", VICTIM)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    failed, passed = other_runs(tmp_path)
    folder = tmp_path / "ci"
    folder.mkdir()
    for stream in (failed, passed):
        (folder / stream.name).write_bytes(stream.read_bytes())
    proc = isolate(suite, "bisect", VICTIM, "--history", str(folder), "--max-runs", "1")
    assert "2 earlier runs of the victim are evidence" in proc.stderr, proc.stderr
    pasts = [json.loads(line) for line in (hunt / HISTORY).read_text().splitlines() if '"source"' in line]
    assert sorted(p["status"] for p in pasts) == ["fail", "success"]
    assert all(POLLUTER not in p["predecessors"] for p in pasts if p["status"] == "success")
    # the same two runs joined in one stream, newest first: still two, and counted once
    joined = tmp_path / "joined.subunit"
    joined.write_bytes(passed.read_bytes() + failed.read_bytes())
    proc = isolate(suite, "bisect", VICTIM, "--history", str(joined), "--max-runs", "2")
    assert "2 earlier runs of the victim are evidence (0 new; 2 copies" in proc.stderr, proc.stderr


def test_history_streams_without_a_repository_are_not_limited_by_history_since(tmp_path: Path) -> None:
    """QA: a hunt extracted from a stream, with --history streams and no repository, was told to
    limit them "with --history-since RUN", which it then refused (it needs a repository)."""
    suite = recording("deterministic_polluter", tmp_path / "suite", VICTIM)
    own = tmp_path / "own.subunit"
    own.write_bytes(run([tool("stestr"), "last", "--subunit"], suite).stdout)
    assert isolate(suite, "extract", "--stream", str(own), "--force").returncode == 0
    failed, _ = other_runs(tmp_path)
    proc = isolate(suite, "bisect", VICTIM, "--history", str(failed), "--max-runs", "1")
    line = next(line for line in proc.stderr.splitlines() if "earlier run of the victim is evidence" in line)
    assert "--history-since" not in line and line.endswith("--no-history leaves them out"), line


def test_stored_runs_with_nothing_to_keep_are_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stored runs in which the victim did not run (partial runs) were parsed again at every
    session: a repository of 1,615 runs took 10 s before each session's first run. A run that
    never names the victim is not parsed at all, and a run that gave nothing to keep is marked
    with its size and mtime and not read again until stestr appends to it (`--combine`)."""
    import isolate.hunt.history as history

    suite = recording("deterministic_polluter", tmp_path / "suite", VICTIM)
    stestr_run(suite, "--serial", "--exclude-regex", "test_header_uses_default_currency")  # run 1: no victim
    path = suite / ".isolate" / hunt_name(VICTIM)
    hunt = Hunt(path, json.loads((path / "hunt.json").read_text()))
    repository = history.repository_of(hunt)
    parsed: list[str] = []
    looked: list[str] = []
    real_parse, real_look = history.victim_runs_in, history._mentions
    monkeypatch.setattr(history, "victim_runs_in", lambda p, v: parsed.append(p.name) or real_parse(p, v))
    monkeypatch.setattr(history, "_mentions", lambda p, v: looked.append(p.name) or real_look(p, v))
    assert history.gather(hunt, repository, [], None) == (0, 0, 0)
    assert (looked, parsed) == (["1"], [])  # (run 0, extracted from, is never read)
    marks = [json.loads(line) for line in (path / HISTORY).read_text().splitlines()]
    assert [m.get("passed_over") for m in marks] == ["run 1"], marks
    looked.clear()
    assert history.gather(hunt, repository, [], None) == (0, 0, 0)
    assert looked == [] and history.stored_rate(hunt) == (1, 1)  # plan and status read it as gather does
    stestr_run(suite, "--serial", "--combine")  # appended to run 1: the victim ran there now
    added, kept, _ = history.gather(hunt, repository, [], None)
    assert (added, kept, looked, parsed) == (1, 1, ["1"], ["1"])


def test_compressed_ci_artifacts_are_history(tmp_path: Path) -> None:
    """CI keeps its subunit streams compressed (Zuul's `testrepository.subunit.gz`); given as
    --history, a .gz file and a folder of .gz and .xz files were "no subunit test records"."""
    import gzip
    import lzma

    suite = recording("deterministic_polluter", tmp_path / "suite", VICTIM)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    failed, passed = other_runs(tmp_path)
    artifact = tmp_path / "testrepository.subunit.gz"
    artifact.write_bytes(gzip.compress(failed.read_bytes()))
    proc = isolate(suite, "bisect", VICTIM, "--history", str(artifact), "--max-runs", "1")
    assert "1 earlier run of the victim is evidence" in proc.stderr, proc.stderr
    folder = tmp_path / "ci"
    folder.mkdir()
    (folder / "a.subunit.gz").write_bytes(artifact.read_bytes())
    (folder / "b.subunit.xz").write_bytes(lzma.compress(passed.read_bytes()))
    proc = isolate(suite, "bisect", VICTIM, "--history", str(folder), "--max-runs", "2")
    assert "2 earlier runs of the victim are evidence (1 new; 1 copy" in proc.stderr, proc.stderr
    pasts = [json.loads(line) for line in (hunt / HISTORY).read_text().splitlines() if '"source"' in line]
    assert sorted(p["status"] for p in pasts) == ["fail", "success"]


def test_a_history_stream_without_a_usable_run_of_the_victim_is_refused(tmp_path: Path) -> None:
    """QA: a stream of another project, or one cut before or in the middle of the victim, was
    accepted without a word and counted as no run."""
    suite = recording("deterministic_polluter", tmp_path / "suite", VICTIM)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    failed, passed = other_runs(tmp_path)
    data = failed.read_bytes()
    before = tmp_path / "before.subunit"  # up to the victim's first record: it never started there
    before.write_bytes(data[: data.index(VICTIM.encode()) - 40])
    assert VICTIM.encode() not in before.read_bytes()
    middle = tmp_path / "middle.subunit"  # it started, and the stream ends before it did
    middle.write_bytes(data[: data.index(VICTIM.encode()) + len(VICTIM) + 10])
    other = tmp_path / "other.subunit"
    # another project's run: no such test (the stestr runs test_loop_repeats' hunts share, made once a session)
    elsewhere = fails_alone_recording(tmp_path / "other")
    other.write_bytes(run_stream(elsewhere, "last"))
    for stream, words in ((before, "holds no run of"), (other, "holds no run of"), (middle, "ends while")):
        proc = isolate(suite, "bisect", VICTIM, "--history", str(stream))
        assert_user_error(proc, f"--history {stream}", words, "drop it")
    assert not (hunt / HISTORY).exists() and not (hunt / "journal.jsonl").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert_user_error(isolate(suite, "bisect", VICTIM, "--history", str(empty)), f"--history {empty}", "drop it")
    assert_user_error(isolate(suite, "bisect", VICTIM, "--history", str(suite / ".stestr")),
                      "the hunt's own repository", "drop it")


def test_a_history_file_written_again_is_read_again(tmp_path: Path) -> None:
    """QA: CI overwrote the --history file `last.subunit` between sessions, and the hunt never read
    it again: a path read once was skipped for good."""
    suite = recording("deterministic_polluter", tmp_path / "suite", VICTIM)
    hunt = suite / ".isolate" / hunt_name(VICTIM)
    failed, passed = other_runs(tmp_path)
    last = tmp_path / "last.subunit"
    last.write_bytes(passed.read_bytes())
    assert "1 earlier run" in isolate(suite, "bisect", VICTIM, "--history", str(last), "--max-runs", "1").stderr
    last.write_bytes(failed.read_bytes())
    proc = isolate(suite, "bisect", VICTIM, "--max-runs", "2")  # the path is stored: no need to give it again
    assert "2 earlier runs of the victim are evidence (1 new)" in proc.stderr, proc.stderr
    last.write_bytes(passed.read_bytes() + failed.read_bytes())  # both again, joined: nothing new
    proc = isolate(suite, "bisect", VICTIM, "--max-runs", "3")
    assert "2 earlier runs of the victim are evidence (0 new)" in proc.stderr, proc.stderr
    lines = (hunt / HISTORY).read_text()
    last.write_bytes(passed.read_bytes() + failed.read_bytes())  # written again, the same: not read again
    assert "(0 new)" in isolate(suite, "bisect", VICTIM, "--max-runs", "4").stderr
    assert (hunt / HISTORY).read_text() == lines
    assert sorted(p["status"] for p in map(json.loads, (hunt / HISTORY).read_text().splitlines())
                  if "status" in p) == ["fail", "success"]


def run_stream(suite: Path, run: str) -> bytes:
    proc = subprocess.run([tool("stestr"), "last", "--subunit"] if run == "last" else
                          [tool("stestr"), "history", "show", run, "--subunit"], cwd=suite, capture_output=True)
    assert proc.stdout, proc.stderr
    return proc.stdout
