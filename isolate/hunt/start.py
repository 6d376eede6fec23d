"""Starting a hunt: find the source of the order (a stored run, a saved stream, a recording
directory or stdin), extract the failing worker's order, and create the hunt directory."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from isolate.errors import UserError
from isolate.files import from_here
from isolate.hunt.lock import Lock
from isolate.hunt.store import (Hunt, all_hunts, create_hunt, find_hunt, hunt_dir, hunts_root, make_hunt_dir,
                                 source_paths)
from isolate.orders.extract import (
    UNTAGGED,
    Extraction,
    closest_id,
    extract,
    file_source,
    recording_options,
    stream_source,
)
from isolate.orders.repository import find_repository, other_repository
from isolate.running.judge import IMPORT
from isolate.words import counted, on_test


@dataclass(frozen=True)
class Extracted:
    """What the `extract` command reports."""

    order: tuple[str, ...]
    warnings: tuple[str, ...]
    summary: str


def extract_to_hunt(
    run_spec: str | None,
    worker: str | None,
    test: str | None,
    repo: Path | None,
    stream: Path | None,
    force: bool,
    stdin: Callable[[], BinaryIO],
) -> Extracted:
    """Find the stream (stored run, file, recording directory or stdin), extract, start the hunt."""
    origin: dict[str, object]
    early: list[str] = []
    if stream is not None:
        if run_spec is not None:
            raise UserError("--run and --stream both name a source; pass only one")
        root = (repo or Path.cwd()).resolve()
        source, label = stream_source(stream, stdin)
        origin = {"stream": "-" if str(stream) == "-" else str(stream.resolve())}
    else:
        repository = find_repository(repo)
        root = repository.root
        if (other := other_repository(repository)) is not None:
            early = [f"read {repository.path.name}; this project also has {other.name} (--repo {other} reads that one)"]
        run_id = repository.resolve_run("last" if run_spec is None else run_spec)  # `--run ''` is no `last`
        source, label = file_source(repository.run_path(run_id)), f"run {run_id}"
        origin = {"repository": str(repository.path), "kind": repository.kind, "run": run_id}
    result = extract(source, label, worker, test)
    origin["worker"] = result.worker
    origin["status"] = result.status
    if "kind" not in origin and _pytest_recording(result.worker, result.victim):
        origin["kind"] = "pytest"  # replayed with pytest even where no pytest config file exists
    if origin.get("kind") == "pytest":
        above = None if repo is not None else _rootdir_above(root, result.victim)
        if above is not None:  # QA: pytest run from tests/, its ids relative to the rootdir above it
            early.append(f"pytest's node ids are relative to its rootdir {above}, above this folder: the hunt is"
                         " made there (isolate finds it from here too)")
            root = above
        _check_pytest_root(root, result.victim, stream)
        left_out = recording_options(stream) if stream is not None and str(stream) != "-" else []
        if left_out:  # QA: recorded with --count 2, -W error or --runslow: every hunt run differed from it
            shown = " ".join(shlex.quote(a) for a in left_out)
            early.append(f"the recording's pytest ran with {shown}, and a hunt's runs use the project's configuration"
                         f" only: give what changes which tests run or how they fail with --pytest-arg, e.g."
                         f" isolate bisect {shlex.quote(result.victim)} --pytest-arg={shlex.quote(left_out[0])}")
    warnings = early + list(result.warnings)
    order, durations = result.order, result.durations
    imports = () if result.predecessors or origin.get("kind") == "pytest" else import_candidates(result)
    if imports:  # nothing ran before the victim: the hunt's candidates are the imports discovery did
        order, durations = (*imports, result.victim), (*(None,) * len(imports), result.durations[-1])
    path = hunt_dir(root, result.victim)
    make_hunt_dir(path)
    with Lock(path, warnings.append):  # a running hunt of this test refuses, before anything is written
        hunt = create_hunt(root, result.victim, order, result.failure, source_paths(origin, root), force, durations)
    step = hunt.step_path(0)
    shown = from_here(step)
    who = f"{label} (no worker tags)" if result.worker == UNTAGGED else f"{result.worker} of {label}"
    summary = (
        f"{who} ran {counted(len(result.predecessors), 'test')} before {result.victim};"
        f" wrote {shown}. Next: isolate bisect {shlex.quote(result.victim)}"
    )
    if not result.predecessors:
        warnings.append(_ran_first(result.victim, len(imports), origin.get("kind") == "pytest"))
    return Extracted(order, tuple(warnings), summary)


def import_candidates(result: Extraction) -> tuple[str, ...]:
    """`import:MODULE` for every test module of the stream but the victim's, sorted.

    A stestr (or testr, or unittest discover) worker imports every test module before its first
    test, while the hunt's runner imports only the listed tests' modules: when the victim ran
    first, a module's import is the only thing that ran before it there."""
    own = test_module(result.victim)
    modules = {test_module(t) for t in result.tests} - {own, None}
    return tuple(f"{IMPORT}{m}" for m in sorted(m for m in modules if m is not None))


def test_module(test_id: str) -> str | None:
    """The module of a unittest id `pkg.module.Class.test_method(scenario)`, or None when the id
    has no module part (a scenario's name may hold dots, so it is dropped first)."""
    parts = test_id.split("(", 1)[0].strip().split(".")
    return ".".join(parts[:-2]) if len(parts) > 2 and all(p.isidentifier() for p in parts) else None


def _ran_first(victim: str, imports: int, pytest: bool) -> str:
    said = (f"{victim} ran first in its process, so no earlier test can have polluted it there: a failure"
            " comes from the victim itself or from what importing the test modules does; ")
    if imports:
        return said + (f"the hunt's candidates are the imports of the run's {imports} other test modules"
                       " (import:MODULE lines in step-000.txt), so 'isolate bisect' will look for a module"
                       " whose import breaks it, or tell whether it fails alone")
    if pytest:
        return said + ("'isolate bisect' cannot replay module imports under pytest, and will tell whether it"
                       " fails alone")
    return said + "'isolate bisect' will tell whether it fails alone"


SKIPPED_DIRS = {"node_modules", "__pycache__", "site-packages", "build", "dist"}  # never a pytest rootdir


def _check_pytest_root(root: Path, victim: str, stream: Path | None) -> None:
    """A pytest node id's path is relative to pytest's rootdir: refuse a hunt at `root` that would
    not find the victim's file, naming the folder below that holds it (QA: a recording made in a
    monorepo's backend/, extracted from the repository's top, failed at the first run with "tests
    this project does not have" and a fix to record it again)."""
    path = victim.split("::", 1)[0]
    if not path or (root / path).exists():
        return
    level, found = [root], []
    for _ in range(3):  # folders up to 3 deep, hidden ones and the usual heavy ones left out
        level = [d for parent in level for d in _folders(parent)]
        found = [d for d in level if (d / path).exists()]
        if found:
            break
    given = "-" if str(stream) == "-" else shlex.quote(str(stream.resolve())) if stream is not None else ""
    again = f"isolate extract --stream {given}" if stream is not None else "isolate extract"
    if found:
        where = found[0]
        fix = f"run isolate from {where} (cd {shlex.quote(str(where))} && {again})"
    else:
        fix = "run isolate from pytest's rootdir (where its pytest.ini or pyproject.toml is)"
    raise UserError(f"the victim's file {path} is not under {root}: pytest's node ids are relative to its rootdir;"
                    f" fix: {fix}")


PYTEST_CONFIGS = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")


def _rootdir_above(root: Path, victim: str) -> Path | None:
    """The nearest folder above `root` that holds the victim's file (by its node id's path) and a
    pytest configuration file, as pytest's rootdir would be, when `root` does not hold it."""
    path = victim.split("::", 1)[0]
    if not path or (root / path).exists():
        return None
    for above in root.parents:
        if (above / path).exists() and any((above / name).is_file() for name in PYTEST_CONFIGS):
            return above
    return None


def _folders(parent: Path) -> list[Path]:
    try:
        return sorted(d for d in parent.iterdir()
                      if d.is_dir() and not d.is_symlink() and not d.name.startswith(".") and d.name not in SKIPPED_DIRS)
    except OSError:
        return []


def _pytest_recording(worker: str, victim: str) -> bool:
    """Whether a stream was recorded by pytest: `pytest --isolate-record` and pytest-replay tag
    processes `worker-main` and `worker-gwN`, and pytest's node ids hold `::`."""
    return re.fullmatch(r"worker-(main|gw\d+)", worker) is not None or "::" in victim


def open_hunt(test: str, run_spec: str | None, worker: str | None, repo: Path | None) -> Hunt:
    """The hunt for TEST, extracting it first when --run/--worker say where from."""
    root = hunts_root(repo)
    hunt = find_hunt(root, test)
    if hunt is not None and (run_spec is None and worker is None):
        return hunt
    if run_spec is None and worker is None:
        hunts = all_hunts(root) if root is not None else []
        others = len(hunts)  # a typo in an id: say the hunts are there
        listed = f" ('isolate status' lists the {counted(others, 'hunt')} here)" if others else ""
        near = closest_id(test, [h.victim for h in hunts])
        if near is not None:  # QA: the fix it gave repeated the typo
            raise UserError(f"no hunt for {test!r}; did you mean {near}? fix: {on_test('isolate bisect', near)}, or"
                            f" start a hunt for it with {on_test('isolate extract --test', test)}")
        raise UserError(
            f"no hunt for {test!r}{listed}; start one with {on_test('isolate extract --test', test)}, or with"
            f" {on_test('isolate bisect', test, ' --run ID [--worker TAG]')}"
        )
    if hunt is not None:
        raise UserError(f"a hunt for {hunt.victim} already exists in {hunt.path}; drop --run/--worker to"
                        " continue it, or re-extract with 'isolate extract --force'")
    extract_to_hunt(run_spec, worker, test, repo, None, False, _no_stdin)
    found = find_hunt(hunts_root(repo), test)
    assert found is not None
    return found


def _no_stdin() -> Any:
    raise UserError("bisect cannot read a stream from stdin; run 'isolate extract --stream -' first")
