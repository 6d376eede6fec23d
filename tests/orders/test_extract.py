"""`isolate extract` and `isolate runs` on repositories made by really running the sample suites."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
import subunit
import testtools

from conftest import assert_user_error, copy_suite, isolate, recording, run, stestr_run, tool, xdist_recorded
from isolate.hunt.store import hunt_name

VICTIM = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"


def stored(dest: Path, *args: str, before: tuple[tuple[str, ...], ...] = ()) -> Path:
    """A copy in `dest` of deterministic_polluter whose stored stestr runs are one `stestr run`
    for each ARGS of `before`, then `stestr run ARGS`, in which the victim failed: conftest's
    recording(), whose runs are made once per session; without the hunt it extracts."""
    suite = recording("deterministic_polluter", dest, VICTIM, *args, before=before)
    shutil.rmtree(suite / ".isolate")
    return suite


@pytest.fixture(scope="module")
def polluted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """deterministic_polluter run in parallel by stestr: one failure (the victim's), several workers."""
    return stored(tmp_path_factory.mktemp("stestr"))


def fresh(suite: Path, tmp_path: Path) -> Path:
    """A private copy of a prepared suite (with its repository), for tests that write."""
    target = tmp_path / suite.name
    shutil.copytree(suite, target)
    return target


def failing_ids(suite: Path) -> list[str]:
    proc = run([tool("stestr"), "failing", "--list"], suite)
    return [line for line in proc.stdout.decode().splitlines() if line.strip()]


def pipeline(suite: Path, worker: str, victim: str, command: str = "stestr") -> list[str]:
    """What users run today: last --subunit | subunit-filter | subunit-ls, cut after the victim."""
    stream = run([tool(command), "last", "--subunit"], suite).stdout
    filtered = run([tool("subunit-filter"), "-s", "--xfail", f"--with-tag={worker}", "--no-passthrough"],
                   suite, input=stream).stdout
    ids = run([tool("subunit-ls")], suite, input=filtered).stdout.decode().split()
    return ids[: ids.index(victim) + 1]


def worker_of(suite: Path, victim: str) -> str:
    proc = isolate(suite, "runs")
    line = next(line for line in proc.stdout.splitlines() if victim in line)
    return line.rsplit("[", 1)[1].rstrip("]")


def test_extract_equals_the_shell_pipeline(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    worker = worker_of(suite, victim)
    proc = isolate(suite, "extract", "--run", "last", "--worker", worker, "-o", "-")
    assert proc.returncode == 0, proc.stderr
    expected = pipeline(suite, worker, victim)
    assert proc.stdout.split() == expected
    assert len(expected) > 10  # worth bisecting: the polluter is among many predecessors
    step = suite / ".isolate" / hunt_name(victim) / "step-000.txt"
    assert step.read_text().split() == expected
    assert f"ran {len(expected) - 1} tests before {victim}" in proc.stderr
    assert f"isolate bisect {victim}" in proc.stderr


def test_worker_and_test_found_from_the_only_failure(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    proc = isolate(suite, "extract", "-o", "-")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-1] == victim
    hunt = suite / ".isolate" / hunt_name(victim)
    settings = json.loads((hunt / "hunt.json").read_text())
    assert settings["victim"] == victim
    assert settings["source"]["worker"] == worker_of(suite, victim)
    assert "AssertionError" in (hunt / "failure.txt").read_text()
    durations = json.loads((hunt / "durations.json").read_text())
    assert set(durations) == set(proc.stdout.split())


def test_runs_lists_failures_with_workers(polluted: Path) -> None:
    proc = isolate(polluted, "runs")
    assert proc.returncode == 0, proc.stderr
    [victim] = failing_ids(polluted)
    assert f"FAIL {victim}  [worker-" in proc.stdout
    row = proc.stdout.splitlines()[1].split()
    assert row[0] == "0" and int(row[3]) >= 100 and row[4] == "1"


def test_run_ids_last_and_negative(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    assert_user_error(isolate(suite, "extract", "--run", "-2"), "only 1 run is stored (0); give -1, or an id")
    stestr_run(suite, "--serial")  # run 1: a single worker-0
    # QA: runs showed the newest 20 of 37 and did not say so (the failing run among those hidden)
    newest = isolate(suite, "runs", "--limit", "1")
    assert [line.split()[0] for line in newest.stdout.splitlines()[1:] if line[:5].strip().isdigit()] == ["1"]
    assert "isolate: note: the newest 1 of 2 runs; --limit 0 lists all" in newest.stderr, newest.stderr
    assert "note" not in isolate(suite, "runs", "--limit", "0").stderr
    last = isolate(suite, "extract", "--run", "last", "-o", "-", "--force")
    minus_one = isolate(suite, "extract", "--run", "-1", "-o", "-", "--force")
    one = isolate(suite, "extract", "--run", "1", "-o", "-", "--force")
    assert last.stdout == minus_one.stdout == one.stdout != ""
    assert "worker-0 of run 1" in one.stderr
    minus_two = isolate(suite, "extract", "--run", "-2", "-o", "-", "--force")
    assert "of run 0" in minus_two.stderr
    assert_user_error(isolate(suite, "extract", "--run", "7"), "run 7 does not exist", "stored runs: 0-1")
    assert_user_error(isolate(suite, "extract", "--run", "-3"), "only 2 runs are stored", "give -1 to -2")
    assert_user_error(isolate(suite, "extract", "--run", "latest"), "not a run id")
    # an empty id extracted the newest run, and -0 the oldest (int('-0') is run 0)
    assert_user_error(isolate(suite, "extract", "--run", "", "--force"), "--run '' is not a run id")
    assert_user_error(isolate(suite, "extract", "--run", "-0", "--force"), "--run '-0' is not a run id", "-1 = newest")


def test_testr_parallel_run(tmp_path: Path) -> None:
    suite = copy_suite("deterministic_polluter", tmp_path)
    run([tool("testr"), "init"], suite)
    proc = run([tool("testr"), "run", "--parallel"], suite)
    assert proc.returncode != 0, proc.stdout  # the victim fails under testr too
    assert (suite / ".testrepository" / "0").exists()
    failing = run([tool("testr"), "failing", "--list"], suite).stdout.decode().split()
    [victim] = failing
    out = isolate(suite, "extract", "-o", "-")
    assert out.returncode == 0, out.stderr
    worker = out.stderr.split(" of run")[0].rsplit(" ", 1)[-1]
    assert out.stdout.split() == pipeline(suite, worker, victim, command="testr")


def test_a_project_with_both_repositories_says_so_and_reads_either(tmp_path: Path) -> None:
    """QA: a project moving from testr to stestr has both; `runs` showed the stestr one without a
    word, 'extract --run 1' of a testr run said the run did not exist, and '--repo .testrepository'
    was refused."""
    suite = stored(tmp_path)  # stestr run 0
    run([tool("testr"), "init"], suite)
    run([tool("testr"), "run"], suite)
    run([tool("testr"), "run"], suite)  # testr runs 0 and 1
    listed = isolate(suite, "runs")
    assert listed.returncode == 0, listed.stderr
    assert f"this project also has .testrepository (--repo {suite / '.testrepository'} lists its runs)" in listed.stderr
    testr = isolate(suite, "runs", "--repo", ".testrepository", "--json")
    assert testr.returncode == 0, testr.stderr
    assert [r["run"] for r in json.loads(testr.stdout)] == [0, 1]
    extracted = isolate(suite, "extract", "--repo", ".testrepository", "--run", "1")
    assert extracted.returncode == 0 and "worker-0 of run 1" in extracted.stderr, extracted.stderr
    assert "also has .stestr" in extracted.stderr


def test_crashed_worker_keeps_the_crashing_test(tmp_path: Path) -> None:
    suite = copy_suite("crashing_worker", tmp_path)
    stestr_run(suite, "--serial")
    proc = isolate(suite, "extract", "-o", "-")
    assert proc.returncode == 0, proc.stderr
    ids = proc.stdout.split()
    [victim] = failing_ids(suite)
    assert ids[-1] == victim
    stored = run([tool("stestr"), "last", "--subunit"], suite).stdout
    listed = run([tool("subunit-ls")], suite, input=stored).stdout.decode().split()
    assert ids == listed[: listed.index(victim) + 1]
    assert (suite / ".isolate" / hunt_name(victim) / "failure.txt").read_text() == ""


def test_cut_stored_run_extracts_what_is_there(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    run_file = suite / ".stestr" / "0"
    data = run_file.read_bytes()
    [victim] = failing_ids(suite)
    worker = worker_of(suite, victim)
    full = isolate(suite, "extract", "--worker", worker, "-o", "-", "--force").stdout.split()
    # cut inside the chunked details of the victim's failure
    cut_at = data.index(b"Traceback", data.index(f"failure: {victim}".encode()))
    run_file.write_bytes(data[:cut_at])
    proc = isolate(suite, "extract", "--worker", worker, "-o", "-", "--force")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == full
    assert "isolate: warning: stream ends at line" in proc.stderr and victim in proc.stderr


def test_a_v2_stream_cut_mid_record_says_so_in_one_line(polluted: Path, tmp_path: Path) -> None:
    """A saved stream whose copy stopped in the middle of a record was called "corrupt", and the
    test it cut in two was a second warning; without --test that test was one more failing test
    (an error that said nothing of the cut). The order before the cut is whole, and usable."""
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    worker = worker_of(suite, victim)
    full = isolate(suite, "extract", "--worker", worker, "-o", "-", "--force").stdout.split()
    data = run([tool("stestr"), "last", "--subunit"], suite).stdout
    ids: list[str] = []  # the tests in the order their runs end
    ends = testtools.StreamToDict(lambda test: ids.append(test["id"]))
    ends.startTestRun()
    subunit.ByteStreamToStreamResult(io.BytesIO(data)).run(ends)
    ends.stopTestRun()
    last = ids[-1]
    assert last != victim, ids  # the victim ended before the cut
    stream = tmp_path / "cut.subunit"
    stream.write_bytes(data[:data.rindex(last.encode()) + 3])  # inside the packet that ends the last test
    proc = isolate(suite, "extract", "--stream", str(stream), "--worker", worker, "--test", victim, "-o", "-",
                   "--force")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == full
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("isolate: warning:")]
    assert len(warnings) == 1, proc.stderr
    assert "the stream is cut short in the middle of a record after its" in warnings[0], warnings
    assert "its order is usable up to the cut" in warnings[0] and f"{last} had started" in warnings[0], warnings
    assert_user_error(isolate(suite, "extract", "--stream", str(stream), "--force"),
                      f"{last} (untagged; the stream ends while it ran: counted as failed)", "pass --test ID")
    # cut before the victim ended, the test it cut is the only failing one; stestr's --subunit
    # tags a test only in the packet that ends it, so the cut one has no worker: it was extracted
    # as 'ran 0 tests before' it, its candidates the imports, though its worker ran tests before it
    early = ids[ids.index(victim) - 1]
    before = tmp_path / "early.subunit"
    before.write_bytes(data[:data.rindex(early.encode()) + 3])
    alone = isolate(before.parent, "extract", "--stream", str(before), "-o", "-")
    assert_user_error(alone, f"is cut in the middle of {early}, whose record carries no worker tag",
                      "isolate extract --run ID")
    assert not (before.parent / ".isolate").exists()


def test_compressed_streams_read_as_they_are(polluted: Path, tmp_path: Path) -> None:
    """CI keeps subunit artifacts compressed (Zuul's `testrepository.subunit.gz`): extract and
    runs said "holds no subunit test records (empty, or not a subunit stream)" of them. A cut
    download gives what came before the cut, with a warning; a zip archive is named as one."""
    import bz2
    import gzip
    import lzma
    import zipfile

    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    worker = worker_of(suite, victim)
    full = isolate(suite, "extract", "--worker", worker, "-o", "-", "--force").stdout.split()
    data = run([tool("stestr"), "last", "--subunit"], suite).stdout
    joined = gzip.compress(data[:99]) + gzip.compress(data[99:])  # two members, as `cat a.gz b.gz` makes
    for name, packed in (("a.subunit.gz", gzip.compress(data)), ("a.subunit.bz2", bz2.compress(data)),
                         ("a.subunit.xz", lzma.compress(data)), ("joined.gz", joined)):
        stream = tmp_path / name
        stream.write_bytes(packed)
        proc = isolate(suite, "extract", "--stream", str(stream), "-o", "-", "--force")
        assert proc.returncode == 0 and proc.stdout.split() == full, (name, proc.stderr)
        assert "warning" not in proc.stderr, proc.stderr
    proc = isolate(suite, "extract", "--stream", "-", "-o", "-", "--force", input=gzip.compress(data))
    assert proc.returncode == 0 and proc.stdout.split() == full, proc.stderr
    # a recording directory's compressed files
    folder = tmp_path / "rec"
    folder.mkdir()
    (folder / "ci.subunit.gz").write_bytes(gzip.compress(data))
    assert victim in isolate(suite, "runs", "--stream", str(folder)).stdout
    # cut short: what came before the cut, said so
    packed = gzip.compress(data, compresslevel=1)
    cut = tmp_path / "cut.subunit.gz"
    cut.write_bytes(packed[: len(packed) * 9 // 10])
    proc = isolate(suite, "runs", "--stream", str(cut))
    assert proc.returncode == 0, proc.stderr
    assert "cut.subunit.gz: its gzip data is cut short; read the " in proc.stdout, proc.stdout
    assert "FAIL " in proc.stdout
    archive = tmp_path / "artifacts.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("testrepository.subunit", data)
    assert_user_error(isolate(suite, "extract", "--stream", str(archive), "--force"),
                      "artifacts.zip is a zip archive", "unzip it and pass the subunit file inside")


def test_combined_runs_use_the_process_with_the_failure(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    proc = stestr_run(suite, "--serial", "--combine")
    assert (suite / ".stestr" / "0").exists() and not (suite / ".stestr" / "1").exists(), proc.stderr
    out = isolate(suite, "extract", "--worker", "worker-0", "-o", "-")
    if out.returncode == 2:  # both processes failed the victim: name it
        out = isolate(suite, "extract", "--worker", "worker-0", "--test", failing_ids(suite)[0], "-o", "-")
    assert out.returncode == 0, out.stderr
    ids = out.stdout.split()
    assert "holds 2 process runs" in out.stderr
    # the serial process ran the whole suite in discovery order: exactly its prefix, nothing from the first run
    listed = run([tool("stestr"), "list"], suite).stdout.decode().split()
    assert ids == listed[: listed.index(ids[-1]) + 1]


def test_combined_runs_name_a_failure_once_and_the_worker_it_failed_on(polluted: Path, tmp_path: Path) -> None:
    """QA (stestr run --combine): the victim failing in two processes of one worker was "2 failing
    tests: X (worker-0), X (worker-0); pass --test ID", and then --test X said it "ran on several
    workers" where it had failed on one. A failure is named once a worker, --test takes the worker
    it failed on, and the process used is said."""
    data = v2_records([("a", "success", "worker-0"), ("v", "success", "worker-0"),  # a process it passed in
                       ("b", "success", "worker-1"), ("v", "fail", "worker-1")])
    out = isolate(tmp_path, "extract", "--stream", "-", "--test", "v", "-o", "-", input=data)
    assert out.returncode == 0 and out.stdout.split() == ["b", "v"], out.stderr
    assert_user_error(isolate(tmp_path, "extract", "--stream", "-", "--test", "v", "--force", input=data + v2_records(
        [("c", "success", "worker-0"), ("v", "fail", "worker-0")])), "ran on several workers")  # failed on both
    [victim] = failing_ids(polluted)
    twice = fresh(polluted, tmp_path / "twice")
    for _ in range(2):
        stestr_run(twice, "--serial", "--combine")  # worker-0 fails it in two more processes
    out = isolate(twice, "extract", "--worker", "worker-0", "-o", "-")
    assert out.returncode == 0, out.stderr
    assert "used the last of the " in out.stderr and " in which it failed" in out.stderr, out.stderr
    assert out.stdout.split()[-1] == victim


def test_runs_joined_newest_first_keep_the_failing_process_whole(polluted: Path, tmp_path: Path) -> None:
    """QA: two runs' streams joined newer first (`cat passed.subunit failed.subunit`): the widest
    forward pause then lay inside the failing run, whose first half was cut off with the
    polluter. Time running backwards between two tests is where the second process begins."""
    suite = fresh(polluted, tmp_path)
    assert stestr_run(suite, "--serial").returncode == 1  # one worker: the two runs share its tag
    [victim] = failing_ids(suite)
    failed = run([tool("stestr"), "last", "--subunit"], suite).stdout
    polluter = "reportgen.tests.core.test_config.ConfigDefaultsTest.test_set_default_currency"
    assert stestr_run(suite, "--serial", "--exclude-regex", "test_set_default_currency").returncode == 0
    passed = run([tool("stestr"), "last", "--subunit"], suite).stdout
    joined = tmp_path / "joined.subunit"
    joined.write_bytes(passed + failed)
    out = isolate(tmp_path, "extract", "--stream", str(joined), "--test", victim, "-o", "-")
    assert out.returncode == 0, out.stderr
    assert "holds 2 process runs" in out.stderr, out.stderr
    alone = tmp_path / "apart" / "failed.subunit"
    alone.parent.mkdir()
    alone.write_bytes(failed)
    expected = isolate(alone.parent, "extract", "--stream", str(alone), "--test", victim, "-o", "-")
    assert expected.returncode == 0, expected.stderr
    assert out.stdout.split() == expected.stdout.split() and polluter in out.stdout.split(), out.stderr


def test_v2_stream_with_noise_from_stdin(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    worker = worker_of(suite, victim)
    v2 = run([tool("stestr"), "last", "--subunit"], suite).stdout
    assert v2[0] == 0xB3
    noisy = b"Collecting tests...\nDONE\n" + v2
    proc = isolate(tmp_path, "extract", "--stream", "-", "--worker", worker, "-o", "-", input=noisy)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == pipeline(suite, worker, victim)
    saved = tmp_path / "ci.subunit"
    saved.write_bytes(noisy)
    again = isolate(tmp_path, "extract", "--stream", str(saved), "-o", "-", "--force")
    assert again.stdout == proc.stdout


def v2_records(records: list[tuple[str, str, str]]) -> bytes:
    out = io.BytesIO()
    stream = subunit.StreamResultToBytes(out)
    for test_id, status, worker in records:
        tags = {worker}
        stream.status(test_id=test_id, test_status="inprogress", test_tags=tags)
        stream.status(test_id=test_id, test_status=status, test_tags=tags)
    return out.getvalue()


def test_other_workers_uxsuccess_does_not_leak(tmp_path: Path) -> None:
    data = v2_records([
        ("a", "success", "worker-0"), ("x", "uxsuccess", "worker-1"), ("b", "skip", "worker-0"),
        ("c", "xfail", "worker-0"), ("y", "success", "worker-1"), ("v", "fail", "worker-0"),
        ("d", "success", "worker-0"),
    ])
    proc = isolate(tmp_path, "extract", "--stream", "-", "--worker", "worker-0", "--test", "v", "-o", "-",
                   input=data)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["a", "b", "c", "v"]


def test_hunt_name_is_safe_and_collision_free(tmp_path: Path) -> None:
    evil = "../../../escape/" + "x" * 300
    data = v2_records([("a", "success", "worker-0"), (evil, "fail", "worker-0")])
    proc = isolate(tmp_path, "extract", "--stream", "-", input=data)
    assert proc.returncode == 0, proc.stderr
    [hunt] = list((tmp_path / ".isolate").iterdir())
    assert len(hunt.name) <= 71 and "/" not in hunt.name and not hunt.name.startswith(".")
    assert not (tmp_path.parent / "escape").exists()
    names = {hunt_name(i) for i in ["a.B.test", "a_B.test", "a/B.test", "A.B.test", "a.B.test "]}
    assert len(names) == 5


def test_test_id_with_line_break_is_refused(tmp_path: Path) -> None:
    data = v2_records([("a", "success", "worker-0"), ("bad\nid", "fail", "worker-0")])
    proc = isolate(tmp_path, "extract", "--stream", "-", input=data)
    assert_user_error(proc, "line break", "cannot go in a list file")
    assert not (tmp_path / ".isolate").exists()


def test_existing_hunt_with_runs_is_kept(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    assert isolate(suite, "extract").returncode == 0
    journal = suite / ".isolate" / hunt_name(victim) / "journal.jsonl"
    journal.write_text('{"step": 0, "outcome": "fail", "reproduced": true, "seconds": 1.0}\n')
    assert_user_error(isolate(suite, "extract"), "already exists", "--force")
    assert journal.exists()
    assert isolate(suite, "extract", "--force").returncode == 0
    assert not journal.exists()


def test_existing_hunt_is_not_replaced_by_another_run_without_force(polluted: Path, tmp_path: Path) -> None:
    """A hunt without runs used to be overwritten by any extract: the order and the recorded
    failure of another run (one where the victim passed) replaced them, and the traceback was lost."""
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    assert run([tool("stestr"), "run", "--serial", victim.rsplit(".", 2)[0]], suite).returncode == 0
    assert isolate(suite, "extract", "--run", "0").returncode == 0
    hunt = suite / ".isolate" / hunt_name(victim)
    before = {n: (hunt / n).read_text() for n in ("order.txt", "failure.txt", "hunt.json", "step-000.txt")}
    assert before["failure.txt"].strip()
    assert isolate(suite, "extract", "--run", "0").returncode == 0  # the same run again changes nothing
    assert {n: (hunt / n).read_text() for n in before} == before
    assert_user_error(isolate(suite, "extract", "--run", "1", "--test", victim), "already exists", "--force")
    assert {n: (hunt / n).read_text() for n in before} == before
    assert isolate(suite, "extract", "--run", "1", "--test", victim, "--force").returncode == 0
    [aside] = hunt.glob("replaced-*")
    assert {n: (aside / n).read_text() for n in before} == before


def test_part_of_a_test_id_names_it(polluted: Path, tmp_path: Path) -> None:
    """bisect takes an unambiguous part of the id and, with no hunt yet, suggests
    'isolate extract --test PART', which used to say the test was not in the run."""
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    short = victim.rsplit(".", 1)[1]
    proc = isolate(suite, "bisect", short)
    assert_user_error(proc, f"isolate extract --test {short}")
    assert isolate(suite, "extract", "--test", short).returncode == 0
    assert (suite / ".isolate" / hunt_name(victim) / "step-000.txt").read_text().splitlines()[-1] == victim
    assert_user_error(isolate(suite, "extract", "--test", "test_", "--force"), "'test_' matches", "give more of")


def test_a_complete_id_never_opens_the_hunt_of_a_longer_one(polluted: Path, tmp_path: Path) -> None:
    """QA: `isolate bisect m.T.test_x`, a test with no hunt yet, ran the hunt of m.T.test_x_names
    (the id was a part of that one's), and `verify` verified that test's reproducer. A part of an
    id names a hunt only when it ends on whole words; the error names both ways on."""
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    assert isolate(suite, "extract").returncode == 0
    shorter = victim.removesuffix("_currency")  # (as a complete id of another test would be)
    for command in ("bisect", "log", "verify", "report"):
        proc = isolate(suite, command, shorter, *(["--html", "-"] if command == "report" else []))
        assert_user_error(proc, f"no hunt for {shorter!r}; did you mean {victim}?",
                          f"isolate bisect {victim}" if command == "bisect" else "pass that id",
                          f"isolate extract --test {shorter}")
    assert isolate(suite, "log", victim.rsplit(".", 2)[1] + "." + victim.rsplit(".", 1)[1]).returncode == 0
    assert isolate(suite, "log", "test_report.").returncode == 0  # a module's name, ending on whole words
    assert isolate(suite, "log", "header_uses").returncode == 0  # a bare fragment: anywhere, as before


def test_a_hunt_whose_hunt_json_is_gone_is_named_and_its_runs_kept(polluted: Path, tmp_path: Path) -> None:
    """With hunt.json deleted, status said "no hunts here" and extract (no --force) wrote a new
    hunt.json beside the old journal, whose runs then counted for the new hunt."""
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    assert isolate(suite, "extract").returncode == 0
    hunt = suite / ".isolate" / hunt_name(victim)
    journal = hunt / "journal.jsonl"
    journal.write_text('{"step": 0, "outcome": "fail", "reproduced": true, "seconds": 1.0}\n')
    (hunt / "hunt.json").unlink()
    status = isolate(suite, "status")
    assert "holds runs but no hunt.json" in status.stderr, status.stderr
    assert_user_error(isolate(suite, "extract"), "holds runs but no hunt.json", "--force")
    assert journal.exists() and not (hunt / "hunt.json").exists()
    assert isolate(suite, "extract", "--force").returncode == 0
    [aside] = hunt.glob("replaced-*")
    assert (aside / "journal.jsonl").exists() and not journal.exists()


# -- bad input: one line, exit 2, no traceback -----------------------------------------------


def test_a_repository_directory_as_the_stream(polluted: Path, tmp_path: Path) -> None:
    """`--stream .stestr` said to record pytest into it: 'record with pytest --isolate-record=.stestr'."""
    suite = fresh(polluted, tmp_path)
    for args in (("runs", "--stream", ".stestr"), ("extract", "--stream", ".stestr")):
        proc = isolate(suite, *args)
        assert_user_error(proc, ".stestr is a stestr or testr repository, not a recording", ".stestr/0", "--repo")
        assert "isolate-record" not in proc.stderr


def test_no_repository(tmp_path: Path) -> None:
    assert_user_error(isolate(tmp_path, "extract", "--repo", str(tmp_path)), "no .stestr or .testrepository")
    assert_user_error(isolate(tmp_path, "runs", "--repo", str(tmp_path)), "no .stestr or .testrepository",
                      "pytest --isolate-record=DIR', then 'isolate extract --stream DIR")


def test_unknown_repository_format(tmp_path: Path) -> None:
    (tmp_path / ".stestr").mkdir()
    assert_user_error(isolate(tmp_path, "extract"), "no 'format' file")
    (tmp_path / ".stestr" / "format").write_text("2\n")
    assert_user_error(isolate(tmp_path, "runs"), "format '2'")


def test_unknown_worker_lists_the_tags(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    assert_user_error(isolate(suite, "extract", "--worker", "worker-9"), "worker-9", "worker-0, worker-1")


def test_test_not_in_that_worker(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    other = "worker-1" if worker_of(suite, victim) == "worker-0" else "worker-0"
    assert_user_error(isolate(suite, "extract", "--worker", other, "--test", victim), "did not run on")
    assert_user_error(isolate(suite, "extract", "--test", "no.such.test"), "is not in run 0", "fix: check the id")
    # QA: a typo got "did not run on worker-0; pass its worker", and no hint of the id it meant
    typo = victim.rsplit(".", 1)[-1].replace("currency", "curency")
    for worker in ((), ("--worker", other)):
        assert_user_error(isolate(suite, "extract", *worker, "--test", typo),
                          f"test {typo} is not in run 0; did you mean {victim}? fix: pass that id")


def test_worker_without_failure(polluted: Path, tmp_path: Path) -> None:
    suite = fresh(polluted, tmp_path)
    [victim] = failing_ids(suite)
    other = "worker-1" if worker_of(suite, victim) == "worker-0" else "worker-0"
    assert_user_error(isolate(suite, "extract", "--worker", other), "no failing test", "--test")


def test_several_failures_listed(tmp_path: Path) -> None:
    data = v2_records([("a", "fail", "worker-0"), ("b", "fail", "worker-1"), ("c", "fail", "worker-0")])
    assert_user_error(isolate(tmp_path, "extract", "--stream", "-", input=data),
                      "3 failing tests", "a (worker-0)", "b (worker-1)", "--test")
    assert_user_error(isolate(tmp_path, "extract", "--stream", "-", "--worker", "worker-0", input=data),
                      "2 failing tests", "a, c")


def test_empty_and_non_subunit_streams(tmp_path: Path) -> None:
    assert_user_error(isolate(tmp_path, "extract", "--stream", "-", input=b""), "no subunit test records")
    junk = tmp_path / "junk.txt"
    junk.write_text("just some\ntext\n")
    assert_user_error(isolate(tmp_path, "extract", "--stream", str(junk)), "no subunit test records")
    assert_user_error(isolate(tmp_path, "extract", "--stream", str(tmp_path / "missing")), "does not exist")
    assert not (tmp_path / ".isolate").exists()



def test_a_stored_run_without_records_names_another_run_as_the_fix(polluted: Path, tmp_path: Path) -> None:
    """A stored run that is empty or damaged said 'pass a stored run, or a file made by stestr
    last --subunit': it was one."""
    suite = fresh(polluted, tmp_path)
    (suite / ".stestr" / "0").write_bytes(b"")
    proc = isolate(suite, "extract", "--run", "0")
    assert_user_error(proc, "run 0 holds no subunit test records", "pass another run with --run ID", "isolate runs")
    assert "pass a stored run" not in proc.stderr
    # runs lists it as a run that ran no test (QA: testr stores an empty run for a --load-list of
    # ids it did not find, and it was called "not a subunit stream")
    assert "warning: run 0 ran no test (an empty run, or a damaged one: " in isolate(suite, "runs").stdout


def test_testr_crashed_worker_ignores_process_returncode(tmp_path: Path) -> None:
    """testr stores a crashed worker's exit status as a failing pseudo-test; it is no test."""
    suite = copy_suite("crashing_worker", tmp_path)
    run([tool("testr"), "init"], suite)
    run([tool("testr"), "run"], suite)
    failing = run([tool("testr"), "failing", "--list"], suite).stdout.decode().split()
    assert "process-returncode" in failing, failing
    proc = isolate(suite, "extract", "-o", "-")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-1] == "bufpool.tests.test_pool.PoolAuditTest.test_audit_checksums_live_buffers"
    assert "process-returncode" not in proc.stdout


def test_pytest_recording_directory_with_xdist_worker_alias(tmp_path: Path) -> None:
    suite, stdout, returncode = xdist_recorded(tmp_path)
    victim = "tests/test_store.py::test_active_sessions_for_user_counts_logins"
    assert returncode == 1, stdout.decode()[-2000:]
    worker = next(tag for tag in ("gw0", "gw1") if victim.encode() in (suite / "rec" / f"{tag}.subunit").read_bytes())
    out = isolate(suite, "extract", "--stream", "rec", "--worker", worker, "-o", "-")
    assert out.returncode == 0, out.stderr
    ids = out.stdout.split()
    assert ids[-1] == victim and "tests/test_store.py::test_rotate_keeps_user_and_data_on_default_store" in ids
    listed = run([tool("subunit-ls")], suite, input=(suite / "rec" / f"{worker}.subunit").read_bytes())
    recorded_order = listed.stdout.decode().split()
    assert ids == recorded_order[: recorded_order.index(victim) + 1]
    replayed = isolate(suite, "extract", "--stream", "replay", "--worker", worker, "-o", "-", "--force")
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.split() == ids
    assert_user_error(isolate(suite, "extract", "--stream", str(tmp_path)), "no *.subunit recordings")


def test_one_pytest_replay_file_as_the_stream(tmp_path: Path) -> None:
    """`--stream .pytest-replay-gw1.txt` (one worker's file, not its directory) said it 'holds no
    subunit test records; pass a stored run, or a file made by stestr last --subunit'.
    (The xdist run also recorded into rec/, which this test does not read.)"""
    suite, stdout, returncode = xdist_recorded(tmp_path)
    victim = "tests/test_store.py::test_active_sessions_for_user_counts_logins"
    assert returncode == 1, stdout.decode()[-2000:]
    worker = next(tag for tag in ("gw0", "gw1") if victim.encode() in (suite / "replay" / f".pytest-replay-{tag}.txt").read_bytes())
    whole = isolate(suite, "extract", "--stream", "replay", "--worker", worker, "-o", "-")
    assert whole.returncode == 0, whole.stderr
    one = f"replay/.pytest-replay-{worker}.txt"
    listed = isolate(suite, "runs", "--stream", one, "--json")
    assert listed.returncode == 0, listed.stderr
    [summary] = json.loads(listed.stdout)
    assert summary["workers"] == [f"worker-{worker}"] and summary["failures"] == [{"test": victim, "worker": f"worker-{worker}"}]
    alone = isolate(suite, "extract", "--stream", one, "-o", "-", "--force")
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.split() == whole.stdout.split() and alone.stdout.split()[-1] == victim


def test_a_recording_of_a_session_that_ran_no_test(tmp_path: Path) -> None:
    """pytest -k nomatch (exit status 5) leaves an empty main.subunit: extract said to 'pass a stored
    run, or a file made by stestr last --subunit', runs to pass 'a recording directory' (it was one)."""
    suite = copy_suite("pytest_fixture_state", tmp_path)
    proc = run([tool("pytest"), "-q", "-p", "no:cacheprovider", "--isolate-record=rec", "-k", "nomatch"], suite)
    assert proc.returncode == 5, proc.stdout.decode()[-1000:]
    for args in (("extract", "--stream", "rec"), ("runs", "--stream", "rec")):
        got = isolate(suite, *args)
        assert_user_error(got, "the recording in rec holds no test", "exit status 5", "record a session that ran")
        assert "stestr" not in got.stderr and "pass a saved" not in got.stderr
    assert not (suite / ".isolate").exists()


def test_pytest_recording_without_failure(tmp_path: Path) -> None:
    suite = copy_suite("pytest_fixture_state", tmp_path)
    victim = "tests/test_invoices.py::test_german_invoice_total_includes_19_percent_vat"
    proc = run([tool("pytest"), "-q", "-p", "no:cacheprovider", "--isolate-record", "rec", "--deselect", victim], suite)
    assert proc.returncode == 0, proc.stdout.decode()[-1000:]
    assert_user_error(isolate(suite, "extract", "--stream", "rec"), "has no failing test", "--test")
    assert not (suite / ".isolate").exists()


def test_pytest_recording_is_hunted_without_a_pytest_config_file(tmp_path: Path) -> None:
    """The recording says it is pytest (worker-main, `::` ids): no pytest.ini is needed, and the
    error must never send a pytest user to `.stestr.conf`."""
    suite = copy_suite("pytest_fixture_state", tmp_path)
    victim = "tests/test_invoices.py::test_german_invoice_total_includes_19_percent_vat"
    proc = run([tool("pytest"), "-q", "-p", "no:cacheprovider", "--isolate-record", "rec"], suite)
    assert proc.returncode == 1, proc.stdout.decode()[-1000:]
    (suite / "pytest.ini").unlink()
    assert isolate(suite, "extract", "--stream", "rec").returncode == 0
    hunt = json.loads((suite / ".isolate" / hunt_name(victim) / "hunt.json").read_text())
    assert hunt["source"]["kind"] == "pytest"
    bisect = isolate(suite, "bisect", victim, "--max-runs", "1", "--json")
    assert ".stestr.conf" not in bisect.stderr and bisect.returncode in (4, 5), bisect.stderr
    assert json.loads(bisect.stdout)["runs"] == 1


def test_untagged_stream_is_named_as_such(tmp_path: Path) -> None:
    stream = tmp_path / "shuffle2.subunit"
    stream.write_bytes(b"test: a\nsuccess: a\ntest: v\nfailure: v\n")
    proc = isolate(tmp_path, "extract", "--stream", str(stream))
    assert proc.returncode == 0, proc.stderr
    assert "untagged of" not in proc.stderr
    assert f"{stream} (no worker tags) ran 1 test before v;" in proc.stderr


def test_a_victim_that_ran_first_is_called_out(tmp_path: Path) -> None:
    data = v2_records([("v", "fail", "worker-0"), ("a", "success", "worker-0"), ("b", "success", "worker-1")])
    proc = isolate(tmp_path, "extract", "--stream", "-", input=data)
    assert proc.returncode == 0, proc.stderr
    [warning] = [line for line in proc.stderr.splitlines() if line.startswith("isolate: warning:")]
    assert "v ran first in its process" in warning and "whether it fails alone" in warning
    assert "ran 0 tests before v" in proc.stderr
    second = v2_records([("a", "success", "worker-0"), ("v", "fail", "worker-0")])
    proc = isolate(tmp_path, "extract", "--stream", "-", "--force", input=second)
    assert "ran first" not in proc.stderr, proc.stderr


def test_a_run_without_a_failure_points_to_the_runs_that_have_one(tmp_path: Path) -> None:
    """QA: 'run 1 has no failing test; pass --test ID' did not say where a failure could be found."""
    suite = stored(tmp_path)  # run 0: the victim fails
    passing = run([tool("stestr"), "run", "reportgen.tests.core.test_money"], suite)
    assert passing.returncode == 0, passing.stdout
    assert_user_error(isolate(suite, "extract"), "run 1 has no failing test; pick a run with one with --run ID",
                      "'isolate runs' lists each run's failures", "or pass --test ID")


def test_a_pytest_recording_extracted_above_the_folder_pytest_ran_in_names_that_folder(tmp_path: Path) -> None:
    """QA: a monorepo's backend/ ran pytest (its rootdir, where node ids begin) and the recording
    was extracted from the repository's top: extract succeeded, and the first run failed with
    "the hunt's order holds tests this project does not have" and a fix to record it again."""
    backend = tmp_path / "mono" / "backend"
    (backend / "tests").mkdir(parents=True)
    (backend / "pytest.ini").write_text("[pytest]\ntestpaths = tests\naddopts = -q\n")
    (backend / "tests" / "test_a.py").write_text("import os\ndef test_1():\n    os.environ['MODE'] = 'x'\n")
    (backend / "tests" / "test_b.py").write_text("import os\ndef test_mode():\n    assert 'MODE' not in os.environ\n")
    proc = run([tool("pytest"), "-p", "no:randomly", "-p", "no:cacheprovider", "backend", "--isolate-record=rec"],
               tmp_path / "mono")
    assert proc.returncode == 1, proc.stdout  # the victim failed, recorded with ids relative to backend/
    refused = isolate(tmp_path / "mono", "extract", "--stream", "rec")
    assert_user_error(refused, "the victim's file tests/test_b.py is not under", f"run isolate from {backend}",
                      f"cd {backend} && isolate extract --stream {tmp_path / 'mono' / 'rec'}")
    assert not (tmp_path / "mono" / ".isolate").exists() or not any((tmp_path / "mono" / ".isolate").iterdir())
    assert isolate(backend, "extract", "--stream", str(tmp_path / "mono" / "rec")).returncode == 0  # as told
    hunt = isolate(backend, "bisect", "tests/test_b.py::test_mode", "--jobs", "1", "--json")
    assert hunt.returncode == 0 and json.loads(hunt.stdout)["culprits"] == ["tests/test_a.py::test_1"], hunt.stderr


def test_a_pytest_recording_extracted_below_its_rootdir_makes_the_hunt_at_the_rootdir(tmp_path: Path) -> None:
    """QA: pytest run from tests/ (its ids relative to the rootdir above, where pytest.ini is),
    extracted from tests/: refused, with a fix to do what the user had done."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "tests" / "test_a.py").write_text("import os\ndef test_1():\n    os.environ['MODE'] = 'x'\n")
    (tmp_path / "tests" / "test_b.py").write_text("import os\ndef test_mode():\n    assert 'MODE' not in os.environ\n")
    below = tmp_path / "tests"
    proc = run([tool("pytest"), "-p", "no:randomly", "-p", "no:cacheprovider", "--isolate-record=rec"], below)
    assert proc.returncode == 1, proc.stdout
    extracted = isolate(below, "extract", "--stream", "rec")
    assert extracted.returncode == 0, extracted.stderr
    assert f"pytest's node ids are relative to its rootdir {tmp_path}, above this folder: the hunt is made there" \
        in extracted.stderr, extracted.stderr
    assert len(list((tmp_path / ".isolate").iterdir())) == 1 and not (below / ".isolate").exists()
    hunt = isolate(below, "bisect", "tests/test_b.py::test_mode", "--jobs", "1", "--json")  # found from below
    assert hunt.returncode == 0 and json.loads(hunt.stdout)["culprits"] == ["tests/test_a.py::test_1"], hunt.stderr
