"""Batches of runs chosen together, end to end: `isolate bisect --jobs 4` on a real stestr run
of the sample suite with three polluters runs several lists at once, journals each run under
its own list's step, and names the same causes as `--jobs 1`; and two runs at once of
workdir_file's victim, each in a folder of its own, do not see each other's state file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from conftest import copy_suite, isolate, stestr_run
from isolate.hunt.store import hunt_name

VICTIM = "tills.tests.sales.test_totals.TotalLineTest.test_total_line_default_format"


def hunt(tmp_path: Path, jobs: int) -> tuple[Path, dict[str, object]]:
    suite = copy_suite("several_polluters", tmp_path / f"jobs{jobs}")
    assert stestr_run(suite).returncode == 1
    assert isolate(suite, "extract", "--test", VICTIM).returncode == 0
    # forked from the start: the subject is how the search plans its lists (the default mode's
    # hunt of this suite is test_loop_causes' three_independent_polluters)
    proc = isolate(suite, "bisect", VICTIM, "--jobs", str(jobs), "--json", "--max-runs", "400", "--fork-server")
    assert proc.returncode == 0, proc.stderr
    return suite / ".isolate" / hunt_name(VICTIM), json.loads(proc.stdout)


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_several_lists_at_once_and_the_same_causes_as_one_job(tmp_path: Path) -> None:
    one_dir, one = hunt(tmp_path, 1)
    four_dir, four = hunt(tmp_path, 4)
    assert one["verdict"] == four["verdict"] == "polluter"
    assert [c["name"] for c in one["causes"]] == [c["name"] for c in four["causes"]]  # type: ignore[index]
    assert len(four["causes"]) == 3  # type: ignore[arg-type]
    # a batch: several steps planned from the same journal position, each its own list
    queries = lines(four_dir / "queries.jsonl")
    batches = Counter(q["from"] for q in queries)
    wide = [f for f, k in batches.items() if k > 1]
    assert wide, queries
    batch = [q for q in queries if q["from"] == wide[0]]
    steps = [int(q["step"]) for q in batch]  # type: ignore[call-overload]
    assert len(set(steps)) == len(steps) and sum(int(q["runs"]) for q in batch) <= 4  # type: ignore[call-overload]
    sizes = [len((four_dir / f"step-{s:03d}.txt").read_text().splitlines()) for s in steps]
    assert len(set(sizes)) == len(sizes)  # different lists, not copies of one
    # every run journaled once, under its own list's step
    journal = lines(four_dir / "journal.jsonl")
    assert len(journal) == four["runs"]
    ran = Counter(e["step"] for e in journal)
    assert all(ran[s] >= 1 for s in steps)
    # one job: one list a query (the fork check's first wave runs each of its lists once, at once)
    searched = [q for q in lines(one_dir / "queries.jsonl") if not str(q["reason"]).startswith("fork check")]
    assert max(Counter(q["from"] for q in searched).values()) == 1


FILE_VICTIM = "vouchers.tests.test_c_welcome.WelcomeTest.test_first_voucher_is_aaaaa"
FILE_POLLUTER = "vouchers.tests.test_b_issue.IssueTest.test_issue_next_code"


def test_two_runs_at_once_do_not_share_a_file_of_the_working_directory(tmp_path: Path) -> None:
    """workdir_file's victim fails when it finds a state file in the working directory: left by the
    polluter, or by another run of the victim at the same time in the same folder. At --jobs 2
    each run has a folder of its own, so only the polluter makes it fail."""
    suite = copy_suite("workdir_file", tmp_path)
    assert stestr_run(suite).returncode == 1
    assert isolate(suite, "extract", "--test", FILE_VICTIM).returncode == 0
    proc = isolate(suite, "bisect", FILE_VICTIM, "--jobs", "2", "--json", "--max-runs", "200")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == [FILE_POLLUTER], verdict
    journal = lines(suite / ".isolate" / hunt_name(FILE_VICTIM) / "journal.jsonl")
    steps = {s: (suite / ".isolate" / hunt_name(FILE_VICTIM) / f"step-{s:03d}.txt").read_text().split()
             for s in {e["step"] for e in journal}}
    without = [e for e in journal if FILE_POLLUTER not in steps[e["step"]]]
    assert without and not any(e["reproduced"] for e in without), without
    assert not (suite / "vouchers.json").exists()
