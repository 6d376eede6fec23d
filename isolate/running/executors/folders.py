"""A working folder per run at once: the project's own, then copies of it.

Runs at once (``--jobs`` > 1) run the *same* list at the same time, which stestr's own workers
never do: two runs of a test that writes ``tests/codes.sqlite`` or ``./knack_temp`` relative to
the working directory would read each other's files, and fail in ways the suite never does. So
every run at once gets a folder of its own, and keeps it for its whole run: the first is the
project itself (a hunt on one job runs there, as before), the others are copies of it made in
the Runner's temporary directory before any run starts (a copy taken while a run writes would
start half-written). A folder is handed to one run at a time, so the files a run leaves are seen
by later runs in the same folder, as in the project itself.

What a copy leaves out or shares: the stored runs (``.stestr``, ``.testrepository``), the hunts
(``.isolate``) and the caches no test reads (``.mypy_cache``, ``.ruff_cache``, ``.pytest_cache``:
pytest's cache is off in a replay) are left out; version-control folders, virtualenvs, ``.tox``/``.nox`` and
``node_modules`` are symlinked (large, and read by tests if at all); everything else is copied,
file times kept; a relative link that leaves the project is made absolute, and a folder this
user cannot read is left out. A project inside a repository (a folder of a monorepo) is copied to
the same place in a mirror of the repository whose other entries link to the real ones. A project
with more than COPY_MOST_FILES files to copy, or whose copies would hold more than COPY_MOST_BYTES
in all or fill half the free space of the temporary directory, shares its folder, with a one-line
warning.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from isolate.files import remove_tree
from isolate.words import counted, megabytes

LEFT_OUT = frozenset({".stestr", ".testrepository", ".isolate",  # stored runs and hunts
                      ".mypy_cache", ".ruff_cache", ".pytest_cache"})  # no test reads them (a replay has no cache)
LINKED = frozenset({".git", ".hg", ".svn", ".bzr", ".tox", ".nox", "node_modules"})
COPY_MOST_BYTES = 500 * 2**20
COPY_MOST_FILES = 50_000
COPY_NOTICE_FILES = 10_000  # copies of this many files in all are said before they are made (they take seconds)
FREE_SPACE = "free space in $TMPDIR, or --jobs 1"
_told: set[Path] = set()  # projects whose sharing was told: once per process (a hunt has two Runners)
_noticed: set[Path] = set()  # projects whose slow copy was told, as _told


class Folders:
    """The working folders of one Runner's runs: ``take`` one per run, ``give`` it back."""

    def __init__(self, root: Path, workdir: Path, warn: Callable[[str], None]) -> None:
        self.root = root
        self.workdir = workdir
        self.warn = warn
        self.top = repository_top(root)
        self._free: list[Path] = [root]
        self._made = 1
        self._shared = False  # too large to copy: every run uses the project's folder
        self._tops: dict[Path, Path] = {}  # a copy -> the mirror of self.top it lies in

    def rewrite(self, folder: Path) -> tuple[str, str] | None:
        """What a run in ``folder`` names that a run in the project would name otherwise: (the
        copy's path, or that of the mirror of the repository around it; the project's, or the
        repository's). None for the project's own folder."""
        if folder == self.root:
            return None
        mirror = self._tops.get(folder)
        return (str(folder), str(self.root)) if mirror is None else (str(mirror), str(self.top))

    def ready(self, n: int) -> None:
        """Make sure ``n`` folders exist; call it while no run is in a folder."""
        if self._made >= n or self._shared:
            return
        copies = n - self._made
        size = _size(self.root, self.workdir)
        why_not = self._too_much(copies, size)
        if why_not:
            self._share(*why_not)
            return
        assert size is not None
        if size[0] * copies >= COPY_NOTICE_FILES and self.root not in _noticed:
            _noticed.add(self.root)
            self.warn(f"copying the project ({size[0]:,} files) {counted(copies, 'time')} for runs at once:"
                      " this may take a while (fix: --jobs 1 makes no copy)")
        for _ in range(copies):
            base = self.workdir / f"folder-{self._made}"
            try:
                copy = self._place(base)
                copy_project(self.root, copy, self.workdir)
            except OSError as exc:
                remove_tree(base)
                self._share(f"copying it failed ({exc.strerror or exc})", FREE_SPACE)
                return
            self._free.append(copy)
            self._made += 1

    def _place(self, base: Path) -> Path:
        """Where a copy goes under ``base``: ``base/<project>``; for a project inside a repository
        (a folder of a monorepo), at the same place in a mirror of the repository, whose other
        entries, ``.git`` among them, link to the real ones, so the tests still reach the
        repository (``git rev-parse --show-toplevel``, ``../shared``) from the copy."""
        if self.top == self.root:
            return base / self.root.name
        mirror = level = base / self.top.name
        real = self.top
        for part in self.root.relative_to(self.top).parts:
            level.mkdir(parents=True, exist_ok=True)
            for entry in _entries(str(real)):
                if entry.name != part and Path(entry.path) != self.workdir:
                    (level / entry.name).symlink_to(entry.path)
            level, real = level / part, real / part
        self._tops[level] = mirror
        return level

    def _too_much(self, copies: int, files_bytes: tuple[int, int] | None) -> tuple[str, str] | None:
        """Why ``copies`` copies of the project (of ``files_bytes``, as _size says) should not be
        made, and the fix, if they should not."""
        if files_bytes is None:
            return (f"it has more than {COPY_MOST_FILES:,} files to copy", "--jobs 1")
        size = files_bytes[1]
        if size * copies > COPY_MOST_BYTES:
            return (f"{counted(copies, 'copy', 'copies')} of it would hold {size * copies // 2**20 + 1} MB,"
                    f" more than {COPY_MOST_BYTES // 2**20} MB", "--jobs 1")
        free = shutil.disk_usage(self.workdir).free
        if free < 2 * size * copies:
            return (f"{counted(copies, 'copy', 'copies')} of it ({size * copies // 2**20 + 1} MB) would fill half or "
                    f"more of the {megabytes(free)} free in $TMPDIR", FREE_SPACE)
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


def _entries(folder: str) -> list[os.DirEntry[str]]:
    """A folder's entries; none when it cannot be read (a directory this user may not list, such
    as a database's data folder a container left: not the tests' input, so left out of a copy)."""
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:
        return []


def repository_top(root: Path) -> Path:
    """The top folder of the repository ``root`` lies in (the nearest folder above it holding a
    ``.git``), or ``root`` itself when it holds one or lies in none."""
    if (root / ".git").exists():
        return root
    return next((folder for folder in root.parents if (folder / ".git").exists()), root)


def _size(root: Path, workdir: Path) -> tuple[int, int] | None:
    """The files and bytes a copy of ``root`` would write; None past the file limit."""
    total = files = 0
    stack = [str(root)]
    while stack:
        for entry in _entries(stack.pop()):
            if _kind(entry, workdir) != "copy":
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
                continue
            files += 1
            try:
                total += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue  # removed meanwhile
            if files > COPY_MOST_FILES:
                return None
            if total > COPY_MOST_BYTES:
                return files, total  # too large already
    return files, total


def _link_target(link: str, top: Path) -> str:
    """What a copy of the symlink ``link`` (inside the project ``top``) points at: the same
    relative target when it stays inside the project, else the absolute target, so that a link
    such as ``tests/data -> ../../shared`` still reaches the same folder from the copy."""
    target = os.readlink(link)
    if os.path.isabs(target):
        return target
    absolute = os.path.normpath(os.path.join(os.path.realpath(os.path.dirname(link)), target))
    real_top = os.path.realpath(top)
    inside = absolute == real_top or absolute.startswith(real_top + os.sep)
    return target if inside else absolute


def copy_project(root: Path, dest: Path, workdir: Path, top: Path | None = None) -> None:
    """Copy ``root`` to ``dest`` (which must not exist) as the module docstring says (``top``:
    the project's folder, when ``root`` is one of its subfolders)."""
    dest.mkdir(parents=True)
    for entry in _entries(str(root)):
        kind = _kind(entry, workdir)
        target = dest / entry.name
        if kind == "skip":
            continue
        if kind == "link":
            target.symlink_to(entry.path)
        elif entry.is_dir(follow_symlinks=False):
            copy_project(Path(entry.path), target, workdir, top or root)
        elif entry.is_symlink():
            target.symlink_to(_link_target(entry.path, top or root))
        else:
            try:
                shutil.copy2(entry.path, target)
            except OSError:
                pass  # a socket, a fifo, a file removed meanwhile: not the tests' input
    shutil.copystat(root, dest)  # last: a read-only folder is filled first...
    os.chmod(dest, os.stat(dest).st_mode | stat.S_IRWXU)  # ...and stays removable with the Runner
