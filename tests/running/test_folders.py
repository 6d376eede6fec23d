"""Runs at once each work in a folder of their own (executors/folders.py): real processes of a
real project whose tests use files relative to the working directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import stestr_project
from isolate.running.executors import folders
from isolate.running.executors.folders import Folders, copy_project
from isolate.running.project import find_project
from isolate.running.runner import Runner

CWD_TESTS = '''
import os
import time
import unittest


class Files(unittest.TestCase):
    def test_claim(self):
        # A file relative to the working directory: two runs at once in one folder collide.
        with open(os.path.join(os.environ["WHERE_LOG"], "cwd-%d" % os.getpid()), "w") as f:
            f.write("\\n".join([os.getcwd(), os.environ["PWD"], __file__]))
        fd = os.open("claim.lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        try:
            time.sleep(0.4)
        finally:
            os.close(fd)
            os.remove("claim.lock")

    def test_where(self):
        self.fail("no file at " + os.path.abspath("data/missing.txt"))
'''
T = "pkg.tests.test_files.Files."


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = stestr_project(tmp_path / "proj", {
        "pkg/__init__.py": "", "pkg/tests/__init__.py": "", "pkg/tests/test_files.py": CWD_TESTS,
    }, "./pkg/tests")
    (tmp_path / "where").mkdir()
    monkeypatch.setenv("WHERE_LOG", str(tmp_path / "where"))
    monkeypatch.delenv("PYTHON", raising=False)
    return root


def where(log: Path) -> list[tuple[str, str]]:
    """(cwd, PWD) of every run that logged, and forget them; each imported its tests from its
    working folder (a fork child too, though its server was started in the project's)."""
    found = []
    for path in log.iterdir():
        cwd, pwd, module = path.read_text().splitlines()
        assert module.startswith(cwd + os.sep), (module, cwd)
        found.append((cwd, pwd))
        path.unlink()
    return found


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_runs_at_once_work_in_folders_of_their_own(project: Path, mode: str) -> None:
    log = Path(os.environ["WHERE_LOG"])
    with Runner(find_project(project), mode=mode, timeout=60) as runner:
        alone = runner.run([T + "test_claim"], T + "test_claim", times=2, jobs=1)
        assert [o.kind for o in alone] == ["pass", "pass"], alone
        assert {cwd for cwd, _ in where(log)} == {str(project)}
        together = runner.run([T + "test_claim"], T + "test_claim", times=6, jobs=2)
        assert [o.kind for o in together] == ["pass"] * 6, [o.message for o in together]
    runs = where(log)
    assert all(cwd == pwd for cwd, pwd in runs)
    cwds = {cwd for cwd, _ in runs}
    assert len(cwds) == 2 and str(project) in cwds
    [copy] = cwds - {str(project)}
    assert Path(copy).name == project.name and not Path(copy).exists()  # gone with the Runner
    assert not (project / "claim.lock").exists()


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_a_failure_naming_the_copy_signs_as_in_the_project(project: Path, mode: str) -> None:
    with Runner(find_project(project), mode=mode, timeout=60) as runner:
        [recorded] = runner.run([T + "test_where"], T + "test_where")
    assert str(project / "data" / "missing.txt") in recorded.details
    with Runner(find_project(project), mode=mode, timeout=60, expected_signature=recorded.signature) as runner:
        outcomes = runner.run([T + "test_where"], T + "test_where", times=4, jobs=2)
    assert [o.reproduced for o in outcomes] == [True] * 4, [o.signature for o in outcomes]
    assert {o.signature for o in outcomes} == {recorded.signature}
    assert all(str(project / "data" / "missing.txt") in o.details for o in outcomes)


def test_a_copy_leaves_out_stored_runs_and_hunts_and_links_large_folders(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    for name in ("src/pkg", ".stestr", ".isolate/hunt", ".git/objects", "venv/bin", ".tox/py311"):
        (root / name).mkdir(parents=True)
    (root / "src/pkg/mod.py").write_text("X = 1\n")
    os.utime(root / "src/pkg/mod.py", (1_000_000_000, 1_000_000_000))
    (root / ".stestr/0").write_text("a stored run")
    (root / ".isolate/hunt/journal.jsonl").write_text("{}")
    (root / "venv/pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / "link.py").symlink_to("src/pkg/mod.py")
    workdir = tmp_path / "work"
    workdir.mkdir()
    copy = workdir / "folder-1" / "proj"
    copy_project(root, copy, workdir)
    assert (copy / "src/pkg/mod.py").read_text() == "X = 1\n"
    assert not (copy / "src/pkg/mod.py").is_symlink()
    assert (copy / "src/pkg/mod.py").stat().st_mtime == 1_000_000_000  # compiled files stay valid
    assert not (copy / ".stestr").exists() and not (copy / ".isolate").exists()
    for linked in (".git", "venv", ".tox"):
        assert (copy / linked).is_symlink() and (copy / linked).resolve() == (root / linked).resolve()
    assert os.readlink(copy / "link.py") == "src/pkg/mod.py"


def test_a_read_only_folder_is_copied_and_its_copy_removed_with_the_runner(project: Path) -> None:
    (project / "data").mkdir()
    (project / "data" / "frozen.txt").write_text("x")
    (project / "data").chmod(0o555)
    try:
        with Runner(find_project(project), timeout=60) as runner:
            runner.run([T + "test_claim"], T + "test_claim", times=2, jobs=2)
            workdir = runner._workdir()
            [copy] = workdir.glob("folder-*/proj")
            assert (copy / "data" / "frozen.txt").read_text() == "x"
            assert (copy / "data").stat().st_mode & 0o777 == 0o755  # writable by its owner: removable
        assert not workdir.exists()
    finally:
        (project / "data").chmod(0o755)


def test_folders_are_handed_to_one_run_at_a_time(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "a.txt").write_text("a")
    workdir = tmp_path / "work"
    workdir.mkdir()
    shelf = Folders(root, workdir, warn=lambda message: pytest.fail(message))
    shelf.ready(3)
    taken = [shelf.take(), shelf.take(), shelf.take()]
    assert taken[0] == root and len(set(taken)) == 3
    assert all((f / "a.txt").read_text() == "a" for f in taken)
    shelf.give(taken[0])
    assert shelf.take() == root  # the project's own first
    shelf.give(taken[2])
    assert shelf.take() == taken[2]


def test_a_project_too_large_to_copy_shares_its_folder_with_a_warning(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    for n in range(5):
        (root / f"f{n}.txt").write_text("x")
    monkeypatch.setattr(folders, "COPY_MOST_FILES", 4)
    warnings: list[str] = []
    shelf = Folders(root, tmp_path, warn=warnings.append)
    shelf.ready(2)
    assert shelf.take() == root and shelf.take() == root
    [warning] = warnings
    assert "share the project folder" in warning and "it has more than 4 files to copy;" in warning
    assert warning.endswith("(fix: --jobs 1)")
    assert not any(p.name.startswith("folder-") for p in tmp_path.iterdir())
    Folders(root, tmp_path, warn=warnings.append).ready(2)  # the hunt's next Runner: told once
    assert len(warnings) == 1


def test_the_limit_is_on_all_the_copies_a_runner_needs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "data.bin").write_bytes(b"x" * 1000)
    monkeypatch.setattr(folders, "COPY_MOST_BYTES", 2500)
    warnings: list[str] = []
    shelf = Folders(root, tmp_path, warn=warnings.append)
    shelf.ready(3)  # two copies: 2,000 bytes
    assert not warnings and len({shelf.take(), shelf.take(), shelf.take()}) == 3
    other = tmp_path / "other"
    other.mkdir()
    (other / "data.bin").write_bytes(b"x" * 1000)
    shelf = Folders(other, tmp_path / "work", warn=warnings.append)
    shelf.ready(4)  # three copies: 3,000 bytes
    [warning] = warnings
    assert "3 copies of it would hold 1 MB, more than 0 MB;" in warning
    assert shelf.take() == other and shelf.take() == other


def test_copies_that_would_fill_half_the_free_space_are_not_made(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "data.bin").write_bytes(b"x" * 1000)
    # A full disk cannot be made here: the free space is what shutil.disk_usage says it is.
    monkeypatch.setattr(folders.shutil, "disk_usage", lambda path: SimpleNamespace(free=1500))
    warnings: list[str] = []
    shelf = Folders(root, tmp_path, warn=warnings.append)
    shelf.ready(2)
    [warning] = warnings
    assert "would fill half or more of the under 1 MB free in $TMPDIR" in warning
    assert warning.endswith("(fix: free space in $TMPDIR, or --jobs 1)")
    assert not any(p.name.startswith("folder-") for p in tmp_path.iterdir())



def test_a_link_out_of_the_project_reaches_the_same_folder_from_the_copy(tmp_path: Path) -> None:
    """A relative link that leaves the project would dangle in a copy made elsewhere: it becomes
    absolute there; one that stays inside keeps its relative target (it names the copy's file)."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "greeting.txt").write_text("Welcome")
    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "mod.py").write_text("X = 1\n")
    (root / "tests" / "data").symlink_to("../../shared")
    (root / "tests" / "same.py").symlink_to("mod.py")
    workdir = tmp_path / "work"
    workdir.mkdir()
    copy = workdir / "folder-1" / "proj"
    copy_project(root, copy, workdir)
    assert (copy / "tests" / "data" / "greeting.txt").read_text() == "Welcome"
    assert os.readlink(copy / "tests" / "data") == str(tmp_path / "shared")
    assert os.readlink(copy / "tests" / "same.py") == "mod.py"


def test_a_folder_this_user_cannot_read_is_left_out_of_the_copy(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Such as the data folder of a database a container ran as another user: neither counting
    the copy's size nor the copy may stop the runs (it was a traceback)."""
    root = tmp_path / "proj"
    (root / "locked").mkdir(parents=True)
    (root / "locked" / "secret.txt").write_text("x")
    (root / "a.txt").write_text("a")
    if os.geteuid() == 0:  # root reads every folder: here the denial is what os.scandir says
        real = os.scandir

        def scandir(path: str) -> object:
            if os.fspath(path) == str(root / "locked"):
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real(path)

        monkeypatch.setattr(folders.os, "scandir", scandir)
    else:
        (root / "locked").chmod(0)
    try:
        shelf = Folders(root, tmp_path, warn=lambda message: pytest.fail(message))
        shelf.ready(2)
        copy = [shelf.take(), shelf.take()][1]
        assert copy != root and (copy / "a.txt").read_text() == "a"
        assert not (copy / "locked" / "secret.txt").exists()
    finally:
        (root / "locked").chmod(0o755)


SRC_TESTS = '''
import os
import time
import unittest

from statepkg import store


class Files(unittest.TestCase):
    def test_claim(self):
        # A file beside the package's module: runs that import the package from one folder collide.
        with open(os.path.join(os.environ["WHERE_LOG"], "src-%d" % os.getpid()), "w") as f:
            f.write("\\n".join([os.getcwd(), store.__file__]))
        path = os.path.join(os.path.dirname(store.__file__), "claim.lock")
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        try:
            time.sleep(0.4)
        finally:
            os.close(fd)
            os.remove(path)
'''


@pytest.mark.parametrize("kind", ["stestr", "pytest"])
@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_an_editable_install_is_imported_from_the_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       mode: str, kind: str) -> None:
    """A src layout installed with `pip install -e .`: a .pth file in the interpreter's
    site-packages puts the project's own src/ on the import path (what setuptools writes for this
    layout; written here by hand, in a real virtualenv). A run in a copy imports the package from
    the copy's src/, not the project's."""
    root = stestr_project(tmp_path / "proj", {
        "src/statepkg/__init__.py": "", "src/statepkg/store.py": "X = 1\n",
        "tests/__init__.py": "", "tests/test_src.py": SRC_TESTS,
    }, "./tests")
    if kind == "pytest":
        (root / ".stestr.conf").unlink()
        (root / "pytest.ini").write_text("[pytest]\n")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    [site] = venv.glob("lib/python*/site-packages")
    ours = [p for p in sys.path if p.endswith("site-packages")]  # isolate, subunit, testtools
    (site / "isolate-tests.pth").write_text("".join(p + "\n" for p in ours))
    (site / "__editable__.statepkg-0.1.pth").write_text(str(root / "src") + "\n")
    monkeypatch.setenv("PYTHON", str(venv / "bin" / "python"))
    (tmp_path / "where").mkdir()
    monkeypatch.setenv("WHERE_LOG", str(tmp_path / "where"))
    claim = "tests.test_src.Files.test_claim" if kind == "stestr" else "tests/test_src.py::Files::test_claim"
    project = find_project(root)
    assert project.kind == kind
    with Runner(project, mode=mode, timeout=60) as runner:
        outcomes = runner.run([claim], claim, times=6, jobs=2)
    assert [o.kind for o in outcomes] == ["pass"] * 6, [o.message for o in outcomes]
    runs = [p.read_text().splitlines() for p in (tmp_path / "where").iterdir()]
    assert len(runs) == 6 and len({cwd for cwd, _ in runs}) == 2
    assert all(module == os.path.join(cwd, "src", "statepkg", "store.py") for cwd, module in runs), runs


MONOREPO_TESTS = '''
import os
import subprocess
import time
import unittest


class Files(unittest.TestCase):
    def test_shared(self):
        # The repository around the project: its top from git, a folder beside the project's.
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                             check=True).stdout.strip()
        with open(os.path.join(top, "shared", "greeting.txt")) as f:
            self.assertEqual(f.read(), "Welcome")
        with open(os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "greeting.txt")) as f:
            self.assertEqual(f.read(), "Welcome")
        with open(os.path.join(os.environ["WHERE_LOG"], "mono-%d" % os.getpid()), "w") as f:
            f.write(os.getcwd())
        fd = os.open("claim.lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        try:
            time.sleep(0.4)
        finally:
            os.close(fd)
            os.remove("claim.lock")

    def test_missing(self):
        self.fail("no file at " + os.path.abspath(os.path.join("..", "..", "shared", "missing.txt")))
'''


@pytest.mark.parametrize("mode", ["fresh", "fork"])
def test_a_project_inside_a_repository_still_reaches_the_repository_from_a_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    """A folder of a monorepo: the copy lies at the same place in a mirror of the repository
    whose other entries (.git, shared/) link to the real ones; what a run there names in the
    mirror reads as the repository's."""
    repo = tmp_path / "repo"
    (repo / "shared").mkdir(parents=True)
    (repo / "shared" / "greeting.txt").write_text("Welcome")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    root = stestr_project(repo / "services" / "vouchers", {
        "pkg/__init__.py": "", "pkg/tests/__init__.py": "", "pkg/tests/test_mono.py": MONOREPO_TESTS,
    }, "./pkg/tests")
    (repo / "services" / "other").mkdir()
    (tmp_path / "where").mkdir()
    monkeypatch.setenv("WHERE_LOG", str(tmp_path / "where"))
    monkeypatch.delenv("PYTHON", raising=False)
    shared, missing = "pkg.tests.test_mono.Files.test_shared", "pkg.tests.test_mono.Files.test_missing"
    with Runner(find_project(root), mode=mode, timeout=60) as runner:
        outcomes = runner.run([shared], shared, times=4, jobs=2)
        assert [o.kind for o in outcomes] == ["pass"] * 4, [o.message for o in outcomes]
        cwds = {p.read_text() for p in (tmp_path / "where").iterdir()}
        assert len(cwds) == 2 and str(root) in cwds
        [recorded] = runner.run([missing], missing, jobs=1)
        failed = runner.run([missing], missing, times=4, jobs=2)
    assert str(repo / "shared" / "missing.txt") in recorded.details
    assert {o.signature for o in failed} == {recorded.signature}, [o.details for o in failed]
    assert all(str(repo / "shared" / "missing.txt") in o.details for o in failed)


def test_a_copy_of_many_files_is_said_before_it_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It takes seconds (45,000 files: half a minute on a QA machine): not a silent pause."""
    root = tmp_path / "proj"
    root.mkdir()
    for n in range(5):
        (root / f"f{n}.txt").write_text("x")
    (root / ".mypy_cache").mkdir()
    (root / ".mypy_cache" / "cache.json").write_text("{}")  # left out: no test reads it
    monkeypatch.setattr(folders, "COPY_NOTICE_FILES", 10)
    warnings: list[str] = []
    Folders(root, tmp_path, warn=warnings.append).ready(3)
    assert warnings == ["copying the project (5 files) 2 times for runs at once: this may take a while"
                        " (fix: --jobs 1 makes no copy)"]
    assert not list(tmp_path.glob("folder-*/proj/.mypy_cache"))
    (tmp_path / "work").mkdir()
    Folders(root, tmp_path / "work", warn=warnings.append).ready(2)  # said once per process
    assert len(warnings) == 1
