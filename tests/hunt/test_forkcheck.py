"""The automatic fork mode end to end: real stestr runs, real hunts through the CLI, in both
directions (the check agrees and the hunt switches; the victim depends on the str hash seed the
fork server shares, the check disagrees and the hunt stays fresh), and resumed hunts."""

from __future__ import annotations

import json
import math
import os
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import isolate, stestr_run
from isolate.hunt.forkcheck import (ALPHA, CHECK_AFTER, CHECK_AFTER_VARIABLE, FORK_RUNS, MAX_LISTS, Tally,
                                    earlier_fork_runs, fresh_tallies, judge, settled, stratified_p)
from isolate.hunt.journal import Entry, parse_entry
from test_loop import DETERMINISTIC, recorded

HASH_VICTIM = "tokencache.tests.test_zcache.CacheTest.test_cached_bucket_survives_restart"

# A real bug class: a cache persisted across processes keyed by hash(str), which changes with
# every interpreter's hash seed. Every fresh process finds the bucket stale; fork children share
# the server's seed, so after the first child rewrote the cache, the others find it valid.
HASH_SUITE = {
    ".stestr.conf": "[DEFAULT]\ntest_path=./tokencache/tests\ntop_dir=./\n",
    "tokencache/__init__.py": "",
    "tokencache/cache.py": '''import json
import os
import random

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bucket-cache.json")


def bucket(term):
    return hash(term) & 0xFFFF


def load():
    try:
        with open(PATH) as fp:
            return json.load(fp)
    except FileNotFoundError:
        return {}


def save(terms):
    tmp = f"{PATH}.{os.getpid()}"
    with open(tmp, "w") as fp:
        json.dump({t: bucket(t) for t in terms}, fp)
    os.replace(tmp, PATH)
''',
    "bucket-cache.json": '{"alpha": 70000}\n',  # written "by the last release": never a bucket
    "tokencache/tests/__init__.py": "",
    "tokencache/tests/test_basics.py": '''import unittest

from tokencache import cache


class BasicsTest(unittest.TestCase):
''' + "".join(f'''
    def test_bucket_in_range_{i}(self):
        self.assertLess(cache.bucket("term{i}"), 65536)
''' for i in range(6)),
    "tokencache/tests/test_zcache.py": '''import unittest

from tokencache import cache


class CacheTest(unittest.TestCase):
    def test_cached_bucket_survives_restart(self):
        stored = cache.load()
        try:
            self.assertEqual(stored.get("alpha"), cache.bucket("alpha"), "cached bucket of 'alpha' is stale")
        finally:
            cache.save(["alpha"])
''',
}


@pytest.fixture(autouse=True)
def check_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """These hunts are short (a default hunt ends before CHECK_AFTER fresh runs and never checks):
    the check's mechanics are what is tested, after 4 runs (CHECK_AFTER until 2026-11-27)."""
    monkeypatch.setenv(CHECK_AFTER_VARIABLE, "4")


def hash_suite(tmp_path: Path) -> Path:
    """The suite, with a stored stestr run in which the victim failed (it always does there)."""
    suite = tmp_path / "tokencache_suite"
    for name, text in HASH_SUITE.items():
        (suite / name).parent.mkdir(parents=True, exist_ok=True)
        (suite / name).write_text(text)
    stestr_run(suite, "--serial")
    proc = isolate(suite, "extract", "--test", HASH_VICTIM, "--force")
    assert proc.returncode == 0, proc.stderr
    return suite


def journal(suite: Path, victim: str) -> list[Entry]:
    [path] = (suite / ".isolate").glob("*/journal.jsonl")
    entries = [parse_entry(line)[0] for line in path.read_bytes().splitlines()]
    assert all(e is not None for e in entries)
    return [e for e in entries if e is not None]


def test_a_hunt_switches_to_fork_mode_says_so_and_a_resume_does_not_check_again(tmp_path: Path) -> None:
    name, victim, culprits = DETERMINISTIC
    suite = recorded(tmp_path, name, victim)
    # 90 runs usually stop the hunt after the check (3-4 lists x FORK_RUNS runs) and before the verdict;
    # when the lists' recorded durations make it shorter, it ends within them: exit 0
    first = isolate(suite, "bisect", victim, "--max-runs", "90")
    assert first.returncode in (0, 5), first.stderr  # the verdict, or undecided within the budget
    said = [line for line in first.stderr.splitlines() if "mode: fork (checked:" in line]
    assert len(said) == 1, first.stderr  # the progress says it once
    assert "    mode: fork (checked: reproduced " in first.stdout  # and the verdict's evidence
    checks = [e for e in journal(suite, victim) if e.phase == "fork-check"]
    assert checks and all(e.mode == "fork" for e in checks)
    # every list fails always or never, forked as fresh: the check stops once its runs left cannot
    # fail it, well before FORK_RUNS per list
    decision = json.loads(next((suite / ".isolate").glob("*/fork-check.json")).read_text())
    planned = FORK_RUNS * len(decision["lists"])
    assert len(checks) == sum(entry["fork"][0] for entry in decision["lists"]) < planned, decision
    assert f"{planned - len(checks)} of {planned} fork runs not made: no outcome of theirs could fail the check" \
        in decision["summary"], decision
    assert decision["p_reproduced"] >= ALPHA / 2 and decision["p_other"] >= ALPHA / 2
    fresh = [e for e in journal(suite, victim) if e.mode is None]
    assert len(fresh) >= int(os.environ[CHECK_AFTER_VARIABLE]) and all(e.phase is None for e in fresh)

    resumed = isolate(suite, "bisect", victim, "--max-runs", "1000")
    assert resumed.returncode == 0, resumed.stderr
    assert "fork check" not in resumed.stderr
    if first.returncode == 5:  # it had runs left to make: forked, as decided before
        assert "runs in fork mode, as decided earlier" in resumed.stderr
    resumed = isolate(suite, "bisect", victim, "--json")  # the verdict again, no new runs
    assert resumed.returncode == 0, resumed.stderr
    verdict = json.loads(resumed.stdout)
    assert verdict["verdict"] == "polluter" and verdict["culprits"] == culprits
    entries = journal(suite, victim)
    assert [e for e in entries if e.phase == "fork-check"] == checks  # not checked again
    assert all(e.mode == "fork" for e in entries[len(fresh) + len(checks):])  # the rest ran forked
    assert verdict["runs_by_mode"] == {"fresh": len(fresh), "fork": len(entries) - len(fresh)}
    assert verdict["runs"] == len(entries)  # the check's fork runs are evidence once it agreed
    assert f"mode: {verdict['mode']}" in verdict["evidence"]
    status = isolate(suite, "status").stdout
    assert "  mode: fork (checked: " in status
    assert any(line.startswith("mode: fork (checked: ") for line in isolate(suite, "log", victim).stdout.splitlines())
    # the report's timeline draws the check as one bar named as such, as the log and the table do
    # (QA: its bar was labelled with its first list's step number, "1")
    html = isolate(suite, "report", victim, "--html", "-").stdout
    timeline = html[html.index('<svg id="timeline"'):]
    timeline = timeline[:timeline.index("</svg>")]
    [bar] = re.findall(r'<rect class="step check"[^>]* width="([\d.]+)"[^>]*><title>fork check: steps ', timeline)
    assert ("fork check</text>" in timeline) == (float(bar) > 59), timeline


def test_a_victim_that_depends_on_the_hash_seed_keeps_the_hunt_fresh(tmp_path: Path) -> None:
    suite = hash_suite(tmp_path)
    # The check comes after 4 fresh runs that are evidence; a hunt that decides within them never
    # checks. At 0.999 it needed 5 fresh runs here and once in CI decided within the 4 (a failure);
    # at 0.99999 it needs 11, well out of reach of 4 runs. With repeats the first wave also runs the
    # victim alone in its idle time (each run executing it 10 times), enough to decide within it:
    # single runs here, the fork check is the question.
    proc = isolate(suite, "bisect", HASH_VICTIM, "--jobs", "2", "--confidence", "0.99999", "--repeat-victim", "1")
    assert proc.returncode == 3, proc.stderr  # fails-alone, found in fresh processes
    verdict = json.loads(isolate(suite, "bisect", HASH_VICTIM, "--json").stdout)
    assert verdict["verdict"] == "fails-alone"
    assert verdict["mode"].startswith("fresh (fork check failed: reproduced "), verdict["mode"]
    assert "the reproductions differ" in verdict["mode"] and "hash seed" in verdict["mode"]
    assert "mode: fresh (fork check failed:" in proc.stderr
    check = json.loads(next((suite / ".isolate").glob("*/fork-check.json")).read_text())
    assert check["mode"] == "fresh" and check["p_reproduced"] < check["alpha"] / 2
    entries = journal(suite, HASH_VICTIM)
    forked = [e for e in entries if e.mode == "fork"]
    assert forked and all(e.phase == "fork-check" for e in forked)  # only the check ran forked
    assert sum(e.reproduced for e in forked) < len(forked) / 2  # forked children mostly pass
    assert all(e.reproduced for e in entries if e.mode is None)  # fresh processes always fail
    assert verdict["runs"] == len(entries) - len(forked)  # the check's runs are no evidence
    assert "mode: fresh (fork check failed:" in isolate(suite, "status").stdout
    log = isolate(suite, "log", HASH_VICTIM).stdout.splitlines()
    checked = [line.split("fork server, ")[1] for line in log if "again in the fork server" in line]
    assert [int(c.split(" runs")[0]) for c in checked] == [len(forked)]  # one line for the check's waves
    assert "mode: fresh (fork check failed:" in "\n".join(log)

    again = isolate(suite, "bisect", HASH_VICTIM)
    assert again.returncode == 3 and "fork check" not in again.stderr
    assert [e for e in journal(suite, HASH_VICTIM) if e.mode == "fork"] == forked


def test_by_default_a_short_hunt_ends_before_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CHECK_AFTER_VARIABLE)
    name, victim, _ = DETERMINISTIC
    suite = recorded(tmp_path, name, victim)
    proc = isolate(suite, "bisect", victim, "--json")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["runs"] < CHECK_AFTER and "fork check" not in proc.stderr
    assert verdict["mode"] == f"fresh (automatic: the fork check comes after {CHECK_AFTER} runs that are evidence)"
    assert all(e.mode is None for e in journal(suite, victim))
    for most, bad in (("500", "0"), ("501", "many")):  # a new budget each time: the hunt must run (a finished
        # one asked nothing new only shows its verdict, whatever the variable says)
        proc = isolate(suite, "bisect", victim, "--max-runs", most, ISOLATE_FORK_CHECK_AFTER=bad)
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert f"ISOLATE_FORK_CHECK_AFTER='{bad}' is not a number of runs; fix:" in proc.stderr


def test_no_fork_server_and_manual_stay_fresh(tmp_path: Path) -> None:
    name, victim, _ = DETERMINISTIC
    suite = recorded(tmp_path, name, victim)
    proc = isolate(suite, "bisect", victim, "--json", "--no-fork-server")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["mode"] == "fresh (--no-fork-server)"
    assert all(e.mode is None for e in journal(suite, victim))
    manual = recorded(tmp_path / "manual", name, victim)
    proc = isolate(manual, "bisect", victim, "--json", "--strategy", "manual")
    assert json.loads(proc.stdout)["mode"].startswith("fresh (--strategy manual")
    assert all(e.mode is None for e in journal(manual, victim))


def test_the_exact_test_on_known_tables() -> None:
    # one list: Fisher's exact test; fresh 2/2 against fork 0/10 is C(2,2)/C(12,2) = 1/66, two-sided
    assert math.isclose(stratified_p([(2, 2, 0, 10)]), 1 / 66)
    assert stratified_p([(1, 2, 5, 10)]) == 1.0  # the same rate
    # two such lists: the sum of fork events 0 has probability (1/66)^2, the only sum as unlikely
    assert math.isclose(stratified_p([(2, 2, 0, 10), (2, 2, 0, 10)]), (1 / 66) ** 2)
    assert stratified_p([]) == 1.0


def test_a_check_cut_short_keeps_its_fork_runs_when_the_hunt_resumes(tmp_path: Path) -> None:
    """QA: a hunt killed during the fork check ran the check from the start on resume: the
    journal held 51 check runs, fork-check.json counted 39 (a full disk, resumed 4 times: 267 for
    34). Here the state a kill after the check's first 3 runs leaves: its journal cut there, no
    decision stored yet."""
    name, victim, culprits = DETERMINISTIC
    suite = recorded(tmp_path, name, victim)
    assert isolate(suite, "bisect", victim, "--max-runs", "90").returncode in (0, 5)
    [hunt] = (suite / ".isolate").glob("*/")
    lines = (hunt / "journal.jsonl").read_text().splitlines(keepends=True)
    checks = [i for i, line in enumerate(lines) if json.loads(line).get("phase") == "fork-check"]
    assert len(checks) > 3
    (hunt / "journal.jsonl").write_text("".join(lines[:checks[2] + 1]))
    (hunt / "fork-check.json").unlink()
    for stale in ("verdict.json", "reproducer.txt"):
        (hunt / stale).unlink(missing_ok=True)
    # QA: status said "the fork check comes after 24 runs" of a check half done
    assert "mode: fresh (automatic: the fork check has made 3 runs in the fork server and not decided yet)" \
        in isolate(suite, "status").stdout
    resumed = isolate(suite, "bisect", victim)
    assert resumed.returncode == 0, resumed.stderr
    assert "fork check: running the hunt's first" in resumed.stderr and "(3 fork runs of an earlier session kept)" \
        in resumed.stderr, resumed.stderr
    assert json.loads((hunt / "verdict.json").read_text())["culprits"] == culprits
    decision = json.loads((hunt / "fork-check.json").read_text())
    made = [e for e in journal(suite, victim) if e.phase == "fork-check"]
    assert sum(entry["fork"][0] for entry in decision["lists"]) == len(made)  # each counted once
    # QA: the verdict left out the earlier session's check runs (read as another phase's while the
    # check was undecided): "runs": 62 of 66, against status and a re-read of the same journal
    verdict = json.loads((hunt / "verdict.json").read_text())
    assert verdict["runs"] == len(journal(suite, victim)) == sum(verdict["runs_by_mode"].values()), verdict


SLOW_IN_FORKS = """\
        import os, time
        if "ISOLATE_RUN" not in os.environ and os.path.exists(os.environ.get("SLOW_MARK", "/nonexistent")):
            time.sleep(1.0)  # a fork run (fresh runs carry the mark): the check takes longer than the budget
"""


def test_a_check_the_time_budget_cuts_short_decides_nothing_and_a_resumed_hunt_finishes_it(tmp_path: Path) -> None:
    """QA: a --time-budget that ended the check after 1 fork run against 12 fresh ones decided "fork"
    for good (no outcome can fail a check on so few runs) and every later session ran forked."""
    name, victim, culprits = DETERMINISTIC
    suite = recorded(tmp_path, name, victim)
    test = suite / "reportgen" / "tests" / "core" / "test_report.py"
    head = "    def test_header_uses_default_currency(self):\n"
    assert test.read_text().count(head) == 1
    test.write_text(test.read_text().replace(head, head + SLOW_IN_FORKS))
    mark = tmp_path / "slow"
    mark.touch()
    first = isolate(suite, "bisect", victim, "--time-budget", "5s", "--jobs", "1", SLOW_MARK=str(mark))
    [hunt] = (suite / ".isolate").glob("*/")
    checks = [e for e in journal(suite, victim) if e.phase == "fork-check"]
    assert checks and "fork check: cut short by the time budget after" in first.stderr, first.stderr
    assert not (hunt / "fork-check.json").exists() and "mode: fork" not in first.stderr, first.stderr
    assert "the fork check has made" in isolate(suite, "status").stdout  # not decided yet
    mark.unlink()
    resumed = isolate(suite, "bisect", victim, "--time-budget", "10m")  # (the budget is stored, and spent)
    assert resumed.returncode == 0, resumed.stderr
    assert f"({len(checks)} fork run{'s' * (len(checks) > 1)} of an earlier session kept)" in resumed.stderr, \
        resumed.stderr
    decision = json.loads((hunt / "fork-check.json").read_text())
    made = [e for e in journal(suite, victim) if e.phase == "fork-check"]
    assert sum(entry["fork"][0] for entry in decision["lists"]) == len(made) > len(checks), decision
    assert json.loads((hunt / "verdict.json").read_text())["culprits"] == culprits


def test_earlier_fork_runs_count_once_and_at_most_fork_runs_a_list() -> None:
    entries = [Entry(0, "fail", True, 0.1, phase="fork-check", mode="fork"),
               Entry(0, "crash", False, 0.1, phase="fork-check", mode="fork"),
               Entry(1, "pass", False, 0.1, phase="fork-check", mode="fork"),
               Entry(1, "error", False, 0.1, phase="fork-check", mode="fork"),  # did not run
               Entry(0, "fail", True, 0.1, mode="fork"),  # the hunt's own, forked after the check
               *[Entry(2, "pass", False, 0.1, phase="fork-check", mode="fork")] * (FORK_RUNS + 3)]
    tallies = [Tally(0, (4, 2, 0)), Tally(1, (3, 0, 0)), Tally(2, (2, 0, 0)), Tally(5, (2, 1, 0))]
    assert earlier_fork_runs(tallies, entries) == [
        Tally(0, (4, 2, 0), (2, 1, 1)), Tally(1, (3, 0, 0), (1, 0, 0)), Tally(2, (2, 0, 0), (FORK_RUNS, 0, 0)),
        Tally(5, (2, 1, 0), (0, 0, 0))]


def test_judge_and_tallies() -> None:
    entries = [Entry(0, "fail", True, 0.1), Entry(0, "pass", False, 0.1), Entry(1, "crash", False, 0.1),
               Entry(2, "fail", True, 0.1, phase="cleaners:x"), Entry(3, "fail", True, 0.1, mode="fork")]
    assert fresh_tallies(entries, {0: ("a", "v"), 1: ("v",), 2: ("v",), 3: ("v",)}) == [
        Tally(0, (2, 1, 0)), Tally(1, (1, 0, 1))]
    # a list holding a test that hung is not run again in the forks (it would time out there too)
    assert fresh_tallies(entries, {0: ("a", "v"), 1: ("v",)}, {"a"}) == [Tally(1, (1, 0, 1))]
    agree, summary, _ = judge([Tally(0, (4, 2, 0), (12, 5, 0))])
    assert agree and summary.startswith("fork (checked: reproduced 2/4 fresh vs 5/12 fork")
    assert "exact test p=1, the check fails below 0.001)" in summary, summary  # its threshold said beside it
    # any 4 fresh runs (the fewest the compared lists hold: CHECK_AFTER runs, at worst MAX_LISTS
    # lists of one) all failing against FORK_RUNS forks per list all passing is a mismatch,
    # however spread; and the reverse
    for spread in ([4], [3, 1], [2, 2], [2, 1, 1], [1, 1, 1, 1]):
        assert sum(spread) == MAX_LISTS <= CHECK_AFTER
        assert not judge([Tally(i, (n, n, 0), (FORK_RUNS, 0, 0)) for i, n in enumerate(spread)])[0], spread
        assert not judge([Tally(i, (n, 0, 0), (FORK_RUNS, FORK_RUNS, 0)) for i, n in enumerate(spread)])[0], spread
    agree, summary, ps = judge([Tally(0, (4, 4, 0), (12, 0, 0)), Tally(1, (2, 2, 0), (10, 1, 0))])
    assert not agree and ps["p_reproduced"] < 0.001 and "reproductions differ" in summary


def test_a_check_settled_early_decides_as_all_its_runs_would() -> None:
    """The fork runs stop once the fork runs left cannot change the decision; on any outcome of
    theirs, the whole check decides the same."""
    rng = random.Random(7)
    stopped = 0
    for _ in range(300):
        lists = [(rng.randint(1, 12), rng.random(), rng.random() * 0.3) for _ in range(rng.randint(1, MAX_LISTS))]
        fresh = []
        for n, rate, other in lists:
            outcomes = [rng.random() for _ in range(n)]
            fresh.append((n, sum(u < rate for u in outcomes), sum(rate <= u < rate + other for u in outcomes)))
        fork_rate = rng.choice([None, 0.0, 1.0])  # as fresh, or a fork server that always passes or fails
        tallies = [Tally(i, f) for i, f in enumerate(fresh)]
        draws = []
        for (n, rate, other), t in zip(lists, tallies):
            r = rate if fork_rate is None else fork_rate
            draws.append([1 if (u := rng.random()) < r else 2 if u < r + (0 if fork_rate is not None else other) else 0
                          for _ in range(FORK_RUNS)])
        early = None
        for i in range(len(tallies)):
            for j in range(FORK_RUNS):
                made = draws[i][:j + 1]
                tallies[i] = replace(tallies[i], fork=(j + 1, made.count(1), made.count(2)))
                early = settled(tallies)
                if early is not None:
                    break
            if early is not None:
                break
        if early is None:
            continue
        stopped += sum(FORK_RUNS - t.fork[0] for t in tallies) > 0
        for _ in range(5):  # the runs not made, drawn any way at all: the whole check agrees
            whole = []
            for t in tallies:
                rest = [rng.choice((0, 1, 2)) for _ in range(FORK_RUNS - t.fork[0])]
                whole.append(replace(t, fork=(FORK_RUNS, t.fork[1] + rest.count(1), t.fork[2] + rest.count(2))))
            assert judge(whole)[0] == early[0], (tallies, whole)
        agree, summary, ps = judge(tallies)
        assert agree == early[0] and ps == early[1]
        if sum(FORK_RUNS - t.fork[0] for t in tallies):
            assert " fork runs not made: no outcome of theirs could" in summary, summary
    assert stopped > 100  # it does stop early, often


def test_old_journal_entries_are_fresh() -> None:
    entry, why = parse_entry(b'{"step": 0, "outcome": "pass", "reproduced": false, "seconds": 0.2}')
    assert why == "" and entry is not None and entry.mode is None
    entry, why = parse_entry(b'{"step": 0, "outcome": "pass", "reproduced": false, "seconds": 0.2, "mode": 1}')
    assert entry is None and "mode" in why


def test_a_failed_check_counts_against_max_runs(tmp_path: Path) -> None:
    """The check's runs are no evidence when it fails, but --max-runs caps every run the hunt
    makes: the search gets what the check left."""
    suite = hash_suite(tmp_path)
    # unbounded (at 0.99999: at 0.999 it may decide within the 4 runs before the check, as a CI run
    # did), this hunt makes 4 fresh runs (its first wave two prefixes), FORK_RUNS check runs for each
    # of the 3 or 4 lists they ran (how many depends on their outcomes) and 7 more fresh runs after
    # the failed check (47 or 59 in all); 52 lets the check run (it waits for a budget that holds it)
    # and caps the search. Single runs: with repeats the first wave also runs the victim alone in its
    # idle time, and the hunt decides before the check.
    proc = isolate(suite, "bisect", HASH_VICTIM, "--jobs", "2", "--max-runs", "52", "--confidence", "0.99999",
                   "--repeat-victim", "1")
    assert proc.returncode in (3, 5), proc.stderr
    assert "mode: fresh (fork check failed:" in proc.stderr
    checked = re.search(r"running the hunt's first (\d+) lists", proc.stderr)
    assert checked is not None, proc.stderr
    entries = journal(suite, HASH_VICTIM)
    # the check stops once no outcome of its fork runs left could pass it (every fork child passes here)
    made, planned = sum(e.phase == "fork-check" for e in entries), FORK_RUNS * int(checked.group(1))
    assert 2 * FORK_RUNS < made <= planned, made
    if made < planned:
        said = f"{planned - made} of {planned} fork runs not made: no outcome of theirs could pass the check"
        assert said in proc.stderr, proc.stderr
    assert len(entries) <= 52, len(entries)


def test_a_check_not_made_after_its_runs_says_why(tmp_path: Path) -> None:
    """A hunt of 30 runs said 'the fork check comes after 24 runs that are evidence': the check's
    runs would not fit in --max-runs, or none of the runs reproduced the failure."""
    name, victim, _ = DETERMINISTIC
    suite = recorded(tmp_path, name, victim)
    proc = isolate(suite, "bisect", victim, "--max-runs", "20", "--json")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["runs"] > 4 and all(e.mode is None for e in journal(suite, victim))
    assert "fork check, due after 4 runs that are evidence, was put off: its" in verdict["mode"], verdict["mode"]
    assert "would not fit in --max-runs 20" in verdict["mode"] and "comes after" not in verdict["mode"]
    assert verdict["mode"] in isolate(suite, "status").stdout
    passing = "reportgen.tests.core.test_money.FormatAmountTest.test_usd"
    assert isolate(suite, "extract", "--test", passing).returncode == 0
    proc = isolate(suite, "bisect", passing, "--max-runs", "6", "--json", "--any-failure")
    assert proc.returncode == 4, proc.stderr
    mode = json.loads(proc.stdout)["mode"]
    assert mode.endswith("runs that are evidence, one of them a reproduction; none has reproduced the failure)"), mode
