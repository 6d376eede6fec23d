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
