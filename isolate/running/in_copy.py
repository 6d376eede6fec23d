"""A run in a copy of the project (runs at once: executors/folders.py) imports the project from
the copy, as a run in the project imports it from the project.

The working folder alone does not do that: an editable install (``pip install -e .``) puts the
project's own ``src/`` on the import path through a ``.pth`` file, or maps its packages to the
project's folders in a finder of setuptools' (``__editable___*_finder``), so a run in a copy would
import the package from the project and share what its modules write beside themselves
(``Path(__file__).parent / "state.json"``) with the run in the project. So the import path's
entries inside the project's folder, and those finders' folders, are turned into the copy's.

Runs inside the test process: fresh processes call :func:`follow_env` first thing (the Launcher
names the project's folder in ISOLATE_PROJECT_ROOT for a run in a copy, and the variable is
removed, so the tests see the environment a run in the project sees); a fork child calls
:func:`follow` as it moves into its copy. Standard library only.
"""

from __future__ import annotations

import os
import sys

ROOT_ENV = "ISOLATE_PROJECT_ROOT"


def follow_env() -> None:
    """In a fresh test process started in a copy: import the project from the copy."""
    root = os.environ.pop(ROOT_ENV, None)
    if root:
        follow(root, os.getcwd())


def follow(root: str, copy: str) -> None:
    """Point the import path entries, and setuptools' editable finders' folders, that lie in
    ``root`` (also as its real path) at the same places in ``copy``."""
    roots = {os.path.normpath(root), os.path.realpath(root)}
    roots.discard(copy)

    def moved(path: str) -> str:
        if path == copy or path.startswith(copy + os.sep):
            return path  # already the copy's (a copy may lie inside the project's folder)
        for r in roots:
            if path == r or path.startswith(r + os.sep):
                return copy + path[len(r):]
        return path

    sys.path[:] = [moved(p) if isinstance(p, str) else p for p in sys.path]
    for name, module in list(sys.modules.items()):
        if name.startswith("__editable___") and name.endswith("_finder"):
            mapping = getattr(module, "MAPPING", None)
            if isinstance(mapping, dict):
                for package, path in list(mapping.items()):
                    if isinstance(path, str):
                        mapping[package] = moved(path)
