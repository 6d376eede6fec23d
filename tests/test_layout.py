"""The package reads as the data flow: no import cycles between modules (imports inside
functions included), and no stage imports a later one."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "isolate"

# Each stage may import the stages listed before it (and itself), never one after it;
# "isolate" is the package itself (its version).
STAGES = ["isolate", "words", "errors", "search", "files", "orders", "running", "hunt", "report", "cli", "__main__"]


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports, anywhere in its body."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            found.update(t for t in targets if t in modules and t != "isolate")
        graph[name] = found - {name}
    return graph


def _stage(module: str) -> str:
    return module.split(".")[1] if "." in module else module


def test_there_are_modules_to_check() -> None:
    graph = _imports()
    assert len(graph) > 40 and "isolate.hunt.loop" in graph and "isolate.search.decide" in graph["isolate.hunt.loop"]


def test_no_import_cycles() -> None:
    graph = _imports()
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycle = stack[stack.index(target):] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)


def test_no_stage_imports_a_later_one() -> None:
    backwards = []
    for module, targets in _imports().items():
        here = STAGES.index(_stage(module))
        for target in targets:
            if STAGES.index(_stage(target)) > here:
                backwards.append(f"{module} imports {target}")
    assert not backwards, backwards


def test_the_search_is_pure() -> None:
    """No I/O, clock or processes in the search: it is simulated thousands of times in seconds."""
    impure = {"os", "subprocess", "time", "pathlib", "socket", "shutil", "tempfile", "datetime", "click"}
    found = []
    for path in (PACKAGE / "search").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            found += [f"{path.name}: {n}" for n in names if n.split(".")[0] in impure]
    assert not found, found


def test_the_commands_do_not_import_the_test_runner() -> None:
    """What every command imports (the CLI's modules, its lazy ones included) leaves out the
    modules of the process that runs the tests (unittest, subunit, testtools, pytest): each
    command would pay for them at start-up, and a hunt starts a process per command. A fresh
    interpreter, so that nothing this test process imported counts."""
    tree = ast.parse((PACKAGE / "cli.py").read_text())
    used = sorted({node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                   and node.module and node.module.startswith("isolate")})
    assert "isolate.hunt.loop" in used and "isolate.report.html" in used, used
    script = (f"import sys\nfor name in {used!r}:\n    __import__(name)\n"
              "print(sorted(m for m in ('unittest', 'subunit', 'testtools', 'pytest') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]", proc.stdout


# Modules that cost every isolate process milliseconds to import (hashlib loads OpenSSL,
# statistics fractions and decimal) for what few commands do: a hash names a new hunt or marks a
# --history path, tomllib and configparser read one kind of project file each, socket is the
# fork server's. They are imported in the functions that use them.
RARELY_NEEDED = ("hashlib", "statistics", "tomllib", "configparser", "socket")
# ...and what only a command that runs tests or writes files needs: not `status` or `log`.
RUNNING = ("tempfile", "subprocess", "isolate.hunt.loop", "isolate.running.runner")


def _imported(modules: list[str], names: tuple[str, ...]) -> list[str]:
    """Which of `names` importing `modules` imports, in a fresh interpreter (see below)."""
    script = (f"import sys\nfor name in {modules!r}:\n    __import__(name)\n"
              f"print(sorted(m for m in {names!r} if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    found: list[str] = ast.literal_eval(proc.stdout)
    return found


def test_a_hunts_start_leaves_out_what_few_commands_need() -> None:
    """What `isolate bisect` imports before its first run, and what `status` and `log` import,
    leave out the modules of RARELY_NEEDED (and `status` those of RUNNING): each would be paid
    by each of the processes a hunt, its scripts and CI start. A fresh interpreter, so that
    nothing this test process imported counts."""
    bisect = ["isolate.cli", "isolate.hunt.loop", "isolate.hunt.settings", "isolate.hunt.store",
              "isolate.hunt.start", "isolate.report.progress", "isolate.report.verdict"]
    assert _imported(bisect, RARELY_NEEDED) == []
    status = ["isolate.cli", "isolate.hunt.store", "isolate.report.status"]
    assert _imported(status, RARELY_NEEDED + RUNNING) == []
