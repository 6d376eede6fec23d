"""A victim that ran first in its worker, broken by a test module's import, end to end: real stestr
runs of the import_polluter suite, `isolate extract` turning the run's test modules into
`import:MODULE` candidates, a real hunt naming the module, and the reproducer replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import copy_suite, isolate, run, stestr_run, tool
from isolate.hunt.store import hunt_name

SUITE = "import_polluter"
VICTIM = "tabular.tests.test_api.DumpsDefaultsTest.test_dumps_uses_comma_delimiter"
POLLUTER = "tabular.tests.test_semicolon_export"
OTHER_MODULES = ["tabular.tests.test_dialect", "tabular.tests.test_reader", "tabular.tests.test_render",
                 "tabular.tests.test_schema", POLLUTER, "tabular.tests.test_writer"]


def recorded(tmp_path: Path, runs: int = 1) -> Path:
    """A copy of the suite with `runs` stored stestr runs, each failing the victim alone."""
    suite = copy_suite(SUITE, tmp_path)
    for _ in range(runs):
        proc = stestr_run(suite)
        assert proc.returncode == 1, proc.stdout.decode()[-2000:]
        failing = run([tool("stestr"), "failing", "--list"], suite).stdout.decode().split()
        assert failing == [VICTIM], failing
    return suite


def bisected(suite: Path) -> dict[str, Any]:
    proc = isolate(suite, "bisect", VICTIM, "--json", "--max-runs", "300")
    assert proc.returncode == 0, proc.stderr  # a polluter verdict
    return dict(json.loads(proc.stdout))


def check_verdict(verdict: dict[str, Any]) -> None:
    assert verdict["verdict"] == "polluter", verdict
    [cause] = verdict["causes"]
    assert cause["scope"] == "module" and cause["name"] == POLLUTER, cause
    assert cause["tests"] == [f"import:{POLLUTER}"], cause
    assert verdict["culprits"] == [f"import:{POLLUTER}"]


def test_the_victim_passes_alone_under_unittest(tmp_path: Path) -> None:
    """What the hunt must explain: stestr fails it (see recorded), plain unittest does not."""
    suite = copy_suite(SUITE, tmp_path)
    proc = run([tool("python"), "-m", "unittest", VICTIM], suite)
    assert proc.returncode == 0, proc.stderr.decode()


def test_extract_lists_the_other_modules_imports_then_the_victim(tmp_path: Path) -> None:
    suite = recorded(tmp_path)
    proc = isolate(suite, "extract", "--test", VICTIM)
    assert proc.returncode == 0, proc.stderr
    [warning] = [line for line in proc.stderr.splitlines() if line.startswith("isolate: warning:")]
    assert f"{VICTIM} ran first in its process" in warning, warning
    assert "imports of the run's 6 other test modules" in warning and "import:MODULE" in warning, warning
    assert "ran 0 tests before" in proc.stderr
    step = (suite / ".isolate" / hunt_name(VICTIM) / "step-000.txt").read_text().split()
    assert step == [*(f"import:{m}" for m in OTHER_MODULES), VICTIM]


def test_bisect_names_the_module_whose_import_breaks_it(tmp_path: Path) -> None:
    suite = recorded(tmp_path)
    assert isolate(suite, "extract", "--test", VICTIM).returncode == 0
    verdict = bisected(suite)
    check_verdict(verdict)
    # the text calls it the module's import, and no step asked about 'tests of import:tabular.tests'
    # (the imports of sibling modules were read as the tests of a class), nor ran '1 lists at once'
    text = isolate(suite, "bisect", VICTIM)
    assert f"{POLLUTER}  [module: its import;" in text.stdout, text.stdout
    # QA: the stop line named it by its candidate id, "as often as import:tabular.tests.…"
    assert f"as often as importing {POLLUTER} (" in text.stdout and "as often as import:" not in text.stdout, text.stdout
    log = isolate(suite, "log", VICTIM).stdout
    assert "tests of import:" not in log and "1 lists at once" not in log, log
    reproducer = Path(verdict["reproducer"])
    assert reproducer.read_text().split() == [f"import:{POLLUTER}", VICTIM]
    proc = isolate(suite, "replay", str(reproducer), "--times", "3", "--until-failure", "--json")
    assert proc.returncode == 1, proc.stderr  # the target failed the recorded way
    assert json.loads(proc.stdout)["outcomes"]["fail"] > 0


def test_earlier_stored_runs_count_as_having_imported_every_module(tmp_path: Path) -> None:
    """An earlier stored run where the victim failed first in its worker is no proof that it
    fails alone: its worker had imported every test module."""
    suite = recorded(tmp_path, runs=3)
    assert isolate(suite, "extract", "--test", VICTIM).returncode == 0
    verdict = bisected(suite)
    check_verdict(verdict)
    assert "counted 2 earlier runs from stored history" in "\n".join(verdict["causes"][0]["evidence"]
                                                                   + verdict.get("evidence", [])), verdict


IMPORTED_ELSEWHERE = {
    ".stestr.conf": "[DEFAULT]\ntest_path=./pkg/tests\ntop_dir=./\ngroup_regex=([^\\.]+\\.[^\\.]+\\.[^\\.]+)\\.\n",
    "pkg/__init__.py": "",
    "pkg/state.py": "STATE = {}\n",
    "pkg/tests/__init__.py": "",
    "pkg/tests/test_a.py": "import unittest\nfrom pkg import state\nstate.STATE['x'] = 1  # at import\n\n\n"
                           "class A(unittest.TestCase):\n    def test_a(self):\n        pass\n",
    "pkg/tests/test_b.py": "import unittest\nfrom pkg import state\n\n\nclass B(unittest.TestCase):\n"
                           "    def test_b1(self):\n        pass\n\n    def test_victim(self):\n"
                           "        self.assertNotIn('x', state.STATE)\n",
}


def test_a_list_that_never_fails_points_to_the_modules_discovery_imported(tmp_path: Path) -> None:
    """QA: under pytest-xdist --dist loadfile a worker collected (imported) a file whose tests ran
    on the other worker, and its import broke the victim; a run imports only its list's modules,
    so 2,188 runs passed with no word of why. stestr's workers import every module too."""
    for name, text in IMPORTED_ELSEWHERE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    stestr_run(tmp_path, "--concurrency", "2")  # one module a worker: the victim's imported test_a too
    assert isolate(tmp_path, "extract").returncode == 0
    step = f".isolate/{hunt_name('pkg.tests.test_b.B.test_victim')}/step-000.txt"
    assert (tmp_path / step).read_text().split() == ["pkg.tests.test_b.B.test_b1", "pkg.tests.test_b.B.test_victim"]
    proc = isolate(tmp_path, "bisect", "test_victim", "--fork-server", "--max-runs", "80", "--jobs", "1", "--json")
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "not-reproduced", verdict
    hint = (f"if importing another module sets the state, this shows it: 'isolate replay {step} --discover-all"
            " --times 5'")
    assert any(line.startswith("the full list has not failed in ") and line.endswith(hint)
               for line in verdict["evidence"]), verdict["evidence"]
    shown = isolate(tmp_path, "replay", step, "--discover-all", "--times", "5")
    assert shown.returncode == 1 and "reproduced 5/5" in shown.stdout, shown.stdout  # as the hint says
