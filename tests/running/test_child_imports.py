"""`import:<module>` list entries, run by real child processes: the module is imported where the
entry stands in the order, no result is reported for it, class fixtures around it are not
disturbed, the runner judges such lists on the target, and a bad module is a one-line list error."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import stestr_project
from test_child import run_child as run_child_in

from isolate.running.project import find_project
from isolate.running.runner import Runner

SETTINGS = '''
SEPARATOR = ","
'''

# Importing this module switches a process-wide default, as a careless test module does.
POLLUTING = '''
import unittest

from app import settings

settings.SEPARATOR = ";"


class Semicolon(unittest.TestCase):
    def test_separator(self):
        self.assertEqual(settings.SEPARATOR, ";")
'''

VICTIM_MODULE = '''
import os
import sys
import unittest

from app import settings


class Csv(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(os.environ["MARKS"], "setup-class"), "a") as f:
            f.write("x")

    def test_default_separator(self):
        self.assertEqual(settings.SEPARATOR, ",")

    def test_not_imported_yet(self):
        self.assertNotIn("app.tests.test_polluting", sys.modules)

    def test_imported_now(self):
        self.assertIn("app.tests.test_polluting", sys.modules)
'''

BROKEN = '''
raise RuntimeError("this module cannot be imported")
'''

CSV = "app.tests.test_csv.Csv."
VICTIM = CSV + "test_default_separator"
POLLUTER = "import:app.tests.test_polluting"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = stestr_project(tmp_path / "proj", {
        "app/__init__.py": "", "app/settings.py": SETTINGS, "app/broken.py": BROKEN, "app/tests/__init__.py": "",
        "app/tests/test_polluting.py": POLLUTING, "app/tests/test_csv.py": VICTIM_MODULE,
    }, "./app/tests")
    (tmp_path / "marks").mkdir()
    monkeypatch.setenv("MARKS", str(tmp_path / "marks"))
    monkeypatch.delenv("PYTHON", raising=False)
    return root


def run_child(root: Path, ids: list[str]) -> tuple[int, list[tuple[str, str]], str]:
    """Run the child as the runner does, on this module's project (test_child.run_child)."""
    return run_child_in(root, ids, runner_args=("discover", "-t", "./", "./app/tests"))


def test_the_module_is_imported_where_the_entry_stands(project: Path) -> None:
    ids = [CSV + "test_not_imported_yet", POLLUTER, CSV + "test_imported_now"]
    code, pairs, error = run_child(project, ids)
    assert (code, error) == (0, "")
    assert pairs == [(ids[0], "success"), (ids[2], "success")]  # no result for the import entry
    # the class's fixtures run once around the entry, as if it were not in the list
    assert (project.parent / "marks" / "setup-class").read_text() == "x"


def test_importing_the_polluting_module_breaks_the_victim(project: Path) -> None:
    assert run_child(project, [VICTIM])[1] == [(VICTIM, "success")]
    assert run_child(project, [POLLUTER, VICTIM])[1] == [(VICTIM, "fail")]
    assert run_child(project, [VICTIM, POLLUTER])[1] == [(VICTIM, "success")]


@pytest.mark.parametrize("entry, fragments", [
    ("import:app.tests.test_nothing_here", ["cannot import 'app.tests.test_nothing_here'", "no module named"]),
    ("import:nowhere_pkg.sub", ["cannot import 'nowhere_pkg.sub'", "nowhere_pkg"]),
    ("import:not a module", ["'import:not a module' does not name a module"]),
    ("import:", ["'import:' does not name a module"]),
    ("import:app.broken", ["cannot import 'app.broken'", "RuntimeError: this module cannot be imported"]),
], ids=["missing", "missing-package", "not-a-name", "empty", "raises"])
def test_a_bad_module_is_a_one_line_list_error(project: Path, entry: str, fragments: list[str]) -> None:
    code, pairs, error = run_child(project, [entry, VICTIM])
    assert code == 3 and pairs == [], (code, pairs, error)
    first = error.splitlines()[0]
    assert "fix:" in first, first
    for fragment in fragments:
        assert fragment in first, (fragment, first)


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_the_runner_judges_lists_with_import_entries(project: Path, mode: str) -> None:
    with Runner(find_project(project), mode=mode, timeout=30) as runner:
        [alone] = runner.run([VICTIM], VICTIM)
        [after_import] = runner.run([POLLUTER, VICTIM], VICTIM)
        [bad] = runner.run(["import:app.broken", VICTIM], VICTIM)
    assert alone.kind == "pass", alone
    assert after_import.kind == "fail" and after_import.reproduced, after_import
    assert after_import.ran == (VICTIM,)
    assert bad.kind == "error" and "cannot import 'app.broken'" in bad.message, bad
