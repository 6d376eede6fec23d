"""A working folder per run at once: the project's own, then copies of it.

Runs at once (``--jobs`` > 1) run the *same* list at the same time, which stestr's own workers
never do: two runs of a test that writes ``tests/codes.sqlite`` or ``./knack_temp`` relative to
the working directory would read each other's files, and fail in ways the suite never does. So
every run at once gets a folder of its own, and keeps it for its whole run: the first is the
project itself (a hunt on one job runs there, as before), the others are copies of it made in
the Runner's temporary directory before any run starts (a copy taken while a run writes would
start half-written). A folder is handed to one run at a time, so the files a run leaves are seen
by later runs in the same folder, as in the project itself.

What a copy leaves out or shares: the stored runs (``.stestr``, ``.testrepository``) and the hunts
(``.isolate``) are left out; version-control folders, virtualenvs, ``.tox``/``.nox`` and
``node_modules`` are symlinked (large, and read by tests if at all); everything else is copied,
file times kept. A project with more than COPY_MOST_FILES files to copy, or whose copies would
hold more than COPY_MOST_BYTES in all or fill half the free space of the temporary directory,
shares its folder, with a one-line warning.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from isolate.words import counted

LEFT_OUT = frozenset({".stestr", ".testrepository", ".isolate"})
LINKED = frozenset({".git", ".hg", ".svn", ".bzr", ".tox", ".nox", "node_modules"})
COPY_MOST_BYTES = 500 * 2**20
COPY_MOST_FILES = 50_000
FREE_SPACE = "free space in $TMPDIR, or --jobs 1"
_told: set[Path] = set()  # projects whose sharing was told: once per process (a hunt has two Runners)


class Folders:
    """The working folders of one Runner's runs: ``take`` one per run, ``give`` it back."""

    def __init__(self, root: Path, workdir: Path, warn: Callable[[str], None]) -> None:
        self.root = root
        self.workdir = workdir
        self.warn = warn
        self._free: list[Path] = [root]
        self._made = 1
        self._shared = False  # too large to copy: every run uses the project's folder

    def ready(self, n: int) -> None:
        """Make sure ``n`` folders exist; call it while no run is in a folder."""
        if self._made >= n or self._shared:
            return
        copies = n - self._made
        why_not = self._too_much(copies)
        if why_not:
            self._share(*why_not)
            return
        for _ in range(copies):
            copy = self.workdir / f"folder-{self._made}" / self.root.name
            try:
                copy_project(self.root, copy, self.workdir)
            except OSError as exc:
                shutil.rmtree(copy.parent, ignore_errors=True)
                self._share(f"copying it failed ({exc.strerror or exc})", FREE_SPACE)
                return
            self._free.append(copy)
            self._made += 1

    def _too_much(self, copies: int) -> tuple[str, str] | None:
        """Why ``copies`` copies of the project should not be made, and the fix, if they should not."""
        size = _size(self.root, self.workdir)
        if size is None or size * copies > COPY_MOST_BYTES:
            return (f"it has more than {COPY_MOST_FILES:,} files to copy, or {counted(copies, 'copy', 'copies')} "
                    f"of it would hold more than {COPY_MOST_BYTES // 2**20} MB", "--jobs 1")
        free = shutil.disk_usage(self.workdir).free
        if free < 2 * size * copies:
            return (f"{counted(copies, 'copy', 'copies')} of it ({size * copies // 2**20 + 1} MB) would fill half or "
                    f"more of the {free // 2**20} MB free in $TMPDIR", FREE_SPACE)
        return None

    def _share(self, why: str, fix: str) -> None:
        """Every run from now on in the project's own folder, and say why once."""
        self._shared = True
        if self.root not in _told:
            _told.add(self.root)
            self.warn(f"runs at once share the project folder {self.root}: {why}; a test that writes "
                      f"files there may see another run's (fix: {fix})")

    def take(self) -> Path:
        """A folder no running run uses (the project's own first)."""
        if self._shared or not self._free:
            return self.root
        folder = self.root if self.root in self._free else self._free[0]
        self._free.remove(folder)
        return folder

    def give(self, folder: Path) -> None:
        """A run that had ``folder`` has ended."""
        if not self._shared and folder not in self._free:
            self._free.append(folder)


def _kind(entry: os.DirEntry[str], workdir: Path) -> str:
    """How a copy treats one entry of a folder: "skip" (also the Runner's own temporary directory,
    should it lie inside the project), "link" or "copy"."""
    if entry.name in LEFT_OUT or Path(entry.path) == workdir:
        return "skip"
    if entry.is_dir(follow_symlinks=False) and (entry.name in LINKED or os.path.exists(os.path.join(entry.path, "pyvenv.cfg"))):
        return "link"
    return "copy"


def _size(root: Path, workdir: Path) -> int | None:
    """The bytes a copy of ``root`` would write; None past the limits."""
    total = files = 0
    stack = [str(root)]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if _kind(entry, workdir) != "copy":
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    continue
                files += 1
                total += entry.stat(follow_symlinks=False).st_size
                if files > COPY_MOST_FILES or total > COPY_MOST_BYTES:
                    return None
    return total


def copy_project(root: Path, dest: Path, workdir: Path) -> None:
    """Copy ``root`` to ``dest`` (which must not exist) as the module docstring says."""
    dest.mkdir(parents=True)
    with os.scandir(root) as entries:
        for entry in entries:
            kind = _kind(entry, workdir)
            target = dest / entry.name
            if kind == "skip":
                continue
            if kind == "link":
                target.symlink_to(entry.path)
            elif entry.is_dir(follow_symlinks=False):
                copy_project(Path(entry.path), target, workdir)
            elif entry.is_symlink():
                target.symlink_to(os.readlink(entry.path))
            else:
                try:
                    shutil.copy2(entry.path, target)
                except OSError:
                    pass  # a socket, a fifo, a file removed meanwhile: not the tests' input
    shutil.copystat(root, dest)  # last: a read-only folder is filled first...
    os.chmod(dest, os.stat(dest).st_mode | stat.S_IRWXU)  # ...and stays removable with the Runner
