"""``python -m isolate.running.child``, run as a real process: exact order, scenario ids, minimal imports,
fallbacks for package-level ``load_tests``, and list errors with their cause."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from isolate.running.child import Options, parse_options
from isolate.running.runner_args import RunnerArgs, parse_runner_args
from isolate.running.judge import read_stream

MOD_A = '''
import os
import unittest

open(os.path.join(os.environ["MARKS"], "imported-a"), "w").close()


class First(unittest.TestCase):
    def test_a(self):
        pass

    def test_b(self):
        self.fail("b fails")


class Scenario(unittest.TestCase):
    name = None

    def id(self):
        return "%s(%s)" % (super().id(), self.name)

    def test_s(self):
        pass


def load_tests(loader, tests, pattern):
    suite = unittest.TestSuite(tests)
    for name in ("x.1", "y"):
        case = Scenario("test_s")
        case.name = name
        suite.addTest(case)
    return suite
'''

MOD_B = '''
import os
import unittest

open(os.path.join(os.environ["MARKS"], "imported-b"), "w").close()


class Second(unittest.TestCase):
    def test_c(self):
        pass
'''

# A package whose load_tests applies scenarios to its submodules' tests (testscenarios used at
# package level): loading test_deep.py alone yields no such ids.
PKG_INIT = '''
import os
import unittest


def load_tests(loader, tests, pattern):
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    found = loader.discover(start_dir=here, pattern=pattern, top_level_dir=top)
    suite = unittest.TestSuite()

    def cases(s):
        for item in s:
            if isinstance(item, unittest.TestSuite):
                yield from cases(item)
            else:
                yield item

    for case in cases(found):
        for flavour in ("red", "blue"):
            clone = type(case)(case._testMethodName)
            clone.flavour = flavour
            suite.addTest(clone)
    return suite
'''

DEEP = '''
import unittest


class D(unittest.TestCase):
    flavour = None

    def id(self):
        return "%s(%s)" % (super().id(), self.flavour)

    def test_d(self):
        self.assertIsNotNone(self.flavour)
'''


@pytest.fixture
def suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    (root / "gen" / "tests" / "deep").mkdir(parents=True)
    (root / "gen" / "__init__.py").write_text("")
    (root / "gen" / "tests" / "__init__.py").write_text("")
    (root / "gen" / "tests" / "test_a.py").write_text(textwrap.dedent(MOD_A))
    (root / "gen" / "tests" / "test_b.py").write_text(textwrap.dedent(MOD_B))
    (root / "gen" / "tests" / "deep" / "__init__.py").write_text(textwrap.dedent(PKG_INIT))
    (root / "gen" / "tests" / "deep" / "test_deep.py").write_text(textwrap.dedent(DEEP))
    (tmp_path / "marks").mkdir()
    monkeypatch.setenv("MARKS", str(tmp_path / "marks"))
    return root


def run_child(root: Path, ids: list[str], *extra: str,
              runner_args: tuple[str, ...] = ("discover", "-t", "./", "./gen/tests")) -> tuple[int, list[tuple[str, str]], str]:
    """Run the child like the runner does; return exit status, (id, status) pairs, error text."""
    work = root.parent / "work"
    work.mkdir(exist_ok=True)
    (work / "list.txt").write_text("".join(i + "\n" for i in ids))
    stream, error = work / "stream.subunit", work / "error.txt"
    stream.unlink(missing_ok=True)
    error.unlink(missing_ok=True)
    proc = subprocess.run(
        [sys.executable, "-m", "isolate.running.child", "--list", str(work / "list.txt"), "--stream", str(stream),
         "--error-file", str(error), *extra, *runner_args],
        cwd=root, capture_output=True, timeout=60,
    )
    pairs = [(o.test_id, o.status) for o in read_stream(stream)] if stream.exists() else []
    return proc.returncode, pairs, error.read_text() if error.exists() else ""


A = "gen.tests.test_a."


def test_runs_exactly_the_listed_order_with_scenario_ids(suite: Path) -> None:
    ids = [A + "Scenario.test_s(y)", A + "First.test_b", A + "Scenario.test_s(x.1)", A + "First.test_a",
           A + "First.test_b"]
    code, pairs, error = run_child(suite, ids)
    assert (code, error) == (0, "")
    assert pairs == [(ids[0], "success"), (ids[1], "fail"), (ids[2], "success"), (ids[3], "success"),
                     (ids[4], "fail")]


WITH_SCENARIOS = '''
import unittest

import testscenarios


class W(testscenarios.WithScenarios, unittest.TestCase):
    scenarios = [("one", {"value": 1}), ("two (b)", {"value": 2})]

    def test_w(self):
        self.assertEqual(self.value, 1)
'''


def test_a_scenario_of_a_with_scenarios_case_runs_alone_under_its_id(suite: Path) -> None:
    """testscenarios' WithScenarios expands a case into its scenarios when it runs, so discovery
    finds `W.test_w` and a run reports `W.test_w(one)`: the id a stored run holds (QA on oslo.i18n:
    every hunt of such a suite stopped at step 0 with "unknown test id")."""
    (suite / "gen" / "tests" / "test_w.py").write_text(WITH_SCENARIOS)
    w = "gen.tests.test_w.W.test_w"
    ids = [f"{w}(two (b))", A + "First.test_a", f"{w}(one)"]
    code, pairs, error = run_child(suite, ids)
    assert (code, error) == (0, "")
    assert pairs == [(ids[0], "fail"), (ids[1], "success"), (ids[2], "success")]  # each alone, its own values
    code, pairs, error = run_child(suite, [f"{w}(three)"])
    assert code != 0 and pairs == [] and error.startswith(f"unknown test id '{w}(three)'"), error


def test_imports_only_the_modules_the_list_needs(suite: Path) -> None:
    marks = Path(os.environ["MARKS"])
    code, pairs, _ = run_child(suite, [A + "First.test_a"])
    assert code == 0 and pairs == [(A + "First.test_a", "success")]
    assert sorted(p.name for p in marks.iterdir()) == ["imported-a"]
    code, _, _ = run_child(suite, [A + "First.test_a"], "--discover-all")
    assert code == 0 and sorted(p.name for p in marks.iterdir()) == ["imported-a", "imported-b"]


def test_the_child_starts_without_an_argument_parser(suite: Path) -> None:
    """argparse's parser looked for gettext translations and imported shutil and locale: about 13
    ms of each fresh run's start-up. A test sees what its process imported before it ran."""
    (suite / "gen" / "tests" / "test_startup.py").write_text(textwrap.dedent('''
        import os
        import sys
        import unittest


        class Startup(unittest.TestCase):
            def test_modules(self):
                seen = [m for m in ("shutil", "locale") if m in sys.modules]
                open(os.path.join(os.environ["MARKS"], "seen"), "w").write(" ".join(seen))
    '''))
    code, pairs, _ = run_child(suite, ["gen.tests.test_startup.Startup.test_modules"])
    assert code == 0 and pairs == [("gen.tests.test_startup.Startup.test_modules", "success")]
    assert (Path(os.environ["MARKS"]) / "seen").read_text() == ""


def test_the_child_s_own_options_come_first_and_the_rest_is_the_runner_s() -> None:
    opts = parse_options(["--list", "l", "--stream", "s", "--error-file", "e", "--discover-all",
                          "discover", "-t", "./", "--list", "x"])
    assert opts == Options("l", "s", "e", True, ["discover", "-t", "./", "--list", "x"])
    assert parse_options(["--error-file", "e", "--list", "l", "--stream", "s"]).runner_args == []
    with pytest.raises(SystemExit, match="missing: --error-file"):
        parse_options(["--list", "l", "--stream", "s", "discover"])
    with pytest.raises(SystemExit, match="--stream needs a value"):
        parse_options(["--list", "l", "--stream"])


def test_ids_made_by_a_package_load_tests_are_found(suite: Path) -> None:
    ids = ["gen.tests.deep.test_deep.D.test_d(blue)", "gen.tests.test_b.Second.test_c",
           "gen.tests.deep.test_deep.D.test_d(red)"]
    code, pairs, error = run_child(suite, ids)
    assert (code, error) == (0, "")
    assert pairs == [(ids[0], "success"), (ids[1], "success"), (ids[2], "success")]
    # found through the package's load_tests, not by discovering (importing) the whole tree
    assert sorted(p.name for p in Path(os.environ["MARKS"]).iterdir()) == ["imported-b"]


def test_unknown_id_is_named_and_nothing_runs(suite: Path) -> None:
    code, pairs, error = run_child(suite, [A + "First.test_a", A + "First.test_zzz", "gen.nothing.Here.test"])
    assert code == 3 and pairs == []
    first = error.splitlines()[0]
    assert "unknown test id 'gen.tests.test_a.First.test_zzz' (and 1 more)" in first and "fix:" in first
    # the victim repeated in the run (--repeat-victim) is one missing id, not one per execution
    code, pairs, error = run_child(suite, [A + "First.test_a"] + [A + "First.test_zzz"] * 4)
    assert code == 3 and "unknown test id 'gen.tests.test_a.First.test_zzz': " in error.splitlines()[0], error


def test_import_error_is_named(suite: Path) -> None:
    (suite / "gen" / "tests" / "test_bad.py").write_text("import no_such_module_abc\n")
    code, pairs, error = run_child(suite, ["gen.tests.test_bad.T.test_t"])
    assert code == 3 and pairs == []
    first = error.splitlines()[0]
    assert "cannot import 'gen.tests.test_bad'" in first and "no_such_module_abc" in first
    assert "Traceback" in error  # the details follow the first line


def test_runner_args_of_the_usual_runners() -> None:
    assert parse_runner_args(["discover", "-t", "./", "./tests"]) == RunnerArgs(True, "./tests", "./", "test*.py", ())
    assert parse_runner_args(["discover", "-s", "src", "-p", "check_*.py"]) == RunnerArgs(True, "src", None, "check_*.py", ())
    assert parse_runner_args(["discover", "tests", "t*.py", "."]) == RunnerArgs(True, "tests", ".", "t*.py", ())
    assert parse_runner_args(["discover"]) == RunnerArgs(True, ".", None, "test*.py", ())
    assert parse_runner_args(["pkg.tests"]) == RunnerArgs(False, ".", None, "test*.py", ("pkg.tests",))


def test_named_modules_instead_of_discover(suite: Path) -> None:
    ids = ["gen.tests.test_b.Second.test_c", A + "First.test_a"]
    code, pairs, _ = run_child(suite, ids, runner_args=("gen.tests.test_a", "gen.tests.test_b"))
    assert code == 0 and [p[0] for p in pairs] == ids


TWICE = '''
import unittest
{imports}


class Twice({base}):
    def test_twice(self):
        raise ValueError("in the test")

    def tearDown(self):
        super().tearDown()
        raise OSError("in tearDown")

    def test_ok_body(self):
        pass


class Other(unittest.TestCase):
    def test_ok(self):
        pass
'''


@pytest.mark.parametrize("base", ["unittest.TestCase", "testtools.TestCase"])
def test_a_test_that_fails_twice_is_one_failed_occurrence(suite: Path, base: str) -> None:
    # unittest reports the test's error and its tearDown's as two failures of the same test
    (suite / "gen" / "tests" / "test_twice.py").write_text(
        TWICE.format(base=base, imports="import testtools" if "testtools" in base else ""))
    t = "gen.tests.test_twice."
    ids = [t + "Twice.test_twice", t + "Other.test_ok", t + "Twice.test_ok_body", t + "Twice.test_twice",
           t + "Twice.test_twice"]
    code, pairs, error = run_child(suite, ids)
    assert (code, error) == (0, "")
    assert pairs == [(ids[0], "fail"), (ids[1], "success"), (ids[2], "fail"), (ids[3], "fail"), (ids[4], "fail")]
    occurrences = read_stream(suite.parent / "work" / "stream.subunit")
    text = "".join(occurrences[0].text(name) for name in sorted(occurrences[0].files))
    assert "ValueError: in the test" in text
    # the tearDown's error is kept where the runner reported both at once (testtools' traceback-1)
    assert ("OSError: in tearDown" in text) == ("testtools" in base)
