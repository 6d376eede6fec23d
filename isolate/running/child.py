"""The order-keeping test runner that runs *inside* the test process.

Started as ``python -m isolate.running.child --list FILE --stream FILE --error-file FILE <runner args>``
where ``<runner args>`` are the project runner's own arguments (``discover -t TOP PATH`` ...), so a
testr ``test_command`` keeps its shell-expanded discover options when its runner is swapped for
this one. It exists because no stock runner can do the job (design §3): ``--load-list`` runs in
discovery order and silently drops unknown ids, ``loadTestsFromNames`` cannot load scenario ids
such as ``test_x(beta)``.

What it does, and why:

* imports only the modules the listed ids live in (start-up dominates short lists; a whole-tree
  discovery costs seconds on a large project) and loads their tests with
  ``TestLoader.loadTestsFromModule``, which honours ``load_tests`` and so yields scenario ids;
  ids still missing fall back to the ancestors' package ``load_tests`` and then to a full
  discovery, so exotic layouts still work, only slower. ``--discover-all`` imports the whole
  tree first, as stestr does, for failures that depend on import-time side effects;
* runs the cases in exactly the listed order in one flat suite (class and module fixtures run
  around each stretch of a class, as unittest does for any order); an id listed more than once
  (the victim repeated in one process, ``isolate bisect --repeat-victim``) runs each time;
* an entry ``import:<dotted.module>`` is no test: when the run reaches it, the module is imported
  (``importlib.import_module``), and it reports no result. A stestr worker imports every test
  module before its first test, this runner only those of the listed ids, so a module whose import
  breaks the target is a candidate of its own (a hunt whose victim ran first lists them all).
  A module imported already (its tests are listed too) is not imported again;
* writes subunit v2 to ``--stream`` with unbuffered writes: the file is dedicated (test prints
  cannot corrupt it) and survives a crash up to the last finished event;
* exits 3 after writing a one-line reason (then details) to ``--error-file`` when the list cannot
  run (unknown id, import error); exits 0 once the tests ran, whatever their results. The parent
  judges the target from the stream. It leaves with :func:`isolate.running.leave.leave`: threads
  the tests left running do not keep it (or the hunt) waiting.

Only the stdlib and isolate's own stdlib-only modules are imported here (subunit and testtools
when the tests use testtools): this runs under the project's Python.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import os
import sys
import traceback
import types
import unittest
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from isolate.orders.stream_writer import StreamWriter
from isolate.running.in_copy import follow_env
from isolate.running.leave import leave
from isolate.running.runner_args import RunnerArgs, parse_runner_args
from isolate.running.stream_result import StreamResult

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~5 ms of every test process)
if TYPE_CHECKING:
    from typing import IO, Union

EXIT_LIST_ERROR = 3
IMPORT = "import:"  # a list entry that imports a module instead of running a test


class ListError(Exception):
    """The list cannot run; ``args[0]`` is one line naming the cause, ``details`` the rest."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details


def flatten(suite: unittest.TestSuite | unittest.TestCase) -> Iterator[unittest.TestCase]:
    """Every test case of a (nested) suite, in suite order."""
    if isinstance(suite, unittest.TestSuite):
        for item in suite:
            yield from flatten(item)
    else:
        yield suite


def _strip_params(test_id: str) -> str:
    """``pkg.mod.Class.test_x(beta)`` -> ``pkg.mod.Class.test_x``: scenario names may hold dots."""
    return test_id.split("(", 1)[0].strip()


class ImportStep(unittest.TestSuite):
    """``import:NAME``: imports module NAME when the run reaches it, and reports nothing.

    An (empty) suite rather than a case, so that unittest's fixture handling passes it by: a
    class's or module's fixtures around it run as if it were not in the list.
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def run(self, result: unittest.TestResult, debug: bool = False) -> unittest.TestResult:
        _import(self.name, IMPORT + self.name)
        return result


if TYPE_CHECKING:
    Step = Union[unittest.TestCase, ImportStep]  # a list entry: a test, or a module to import


def import_step(entry: str) -> ImportStep:
    """The step for an ``import:NAME`` entry, once NAME is known to be importable (found);
    a ListError naming the entry otherwise."""
    name = entry[len(IMPORT):].strip()
    if not name or not all(part.isidentifier() for part in name.split(".")):
        raise ListError(f"{entry!r} does not name a module; fix: write import:<dotted.module.name>")
    try:
        spec = importlib.util.find_spec(name)
    except BaseException as exc:  # a parent package missing or raising while imported
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _import_error(name, entry) from None
    if spec is None:
        raise ListError(f"cannot import {name!r} (needed by {entry!r}): no module named {name!r};"
                        " fix: correct the module name or remove the entry from the list")
    return ImportStep(name)


class TestIndex:
    """Finds test cases by id, importing as little as possible, and caches what it loaded.

    The fork server keeps one index for its whole life, so every module is imported once.
    """

    def __init__(self, runner_args: RunnerArgs) -> None:
        self.args = runner_args
        self.loader = unittest.TestLoader()
        self.cases: dict[str, unittest.TestCase] = {}
        self._loaded: set[str] = set()
        self._module_of: dict[str, str | None] = {}
        self._discovered = False
        top = runner_args.top_dir or (runner_args.start_dir if runner_args.discover else None)
        self.top = None if top is None else os.path.abspath(top)  # on sys.path
        if self.top is not None and self.top not in sys.path:
            # What unittest discovery does: ids are relative to the top-level directory.
            sys.path.insert(0, self.top)

    def resolve(self, ids: Sequence[str]) -> list[Step]:
        """The cases for ``ids`` in the given order, an ImportStep for each ``import:`` entry;
        ListError names the first one missing."""
        imports = {entry: import_step(entry) for entry in ids if entry.startswith(IMPORT)}
        if imports:
            tests = [i for i in ids if i not in imports]
            cases = iter(self.resolve(tests))
            return [imports[i] if i in imports else next(cases) for i in ids]
        for test_id in ids:
            if test_id not in self.cases:
                self._load_module_of(test_id)
                self._scenario(test_id)
        missing = [i for i in ids if i not in self.cases]
        if missing:
            self._load_package_tests(missing)
            missing = [i for i in ids if i not in self.cases]
        if missing:
            self.discover_all()
            for test_id in missing:
                self._scenario(test_id)
            missing = [i for i in ids if i not in self.cases]
        if missing:
            errors = "\n".join(str(e) for e in self.loader.errors)
            missing = list(dict.fromkeys(missing))  # the victim repeated is one id
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            hint = "; import errors during discovery: " + errors.strip().splitlines()[-1] if errors else ""
            raise ListError(
                f"unknown test id {missing[0]!r}{more}: not found by discovery in "
                f"{self.args.start_dir!r}{hint}; fix: correct or remove it from the list",
                errors,
            )
        return _fresh_repeats([self.cases[i] for i in ids])

    def discover_all(self) -> None:
        """Load the whole tree the way the project's runner does (imports every test module)."""
        if self._discovered:
            return
        self._discovered = True
        try:
            if self.args.discover:
                suite = self.loader.discover(
                    self.args.start_dir, self.args.pattern, self.args.top_dir
                )
            elif self.args.names:
                suite = self.loader.loadTestsFromNames(self.args.names)
            else:
                return
        except Exception as exc:
            first = f"{type(exc).__name__}: {exc}".splitlines()[0]
            raise ListError(
                f"test discovery in {self.args.start_dir!r} failed: {first}; fix: check "
                "test_path/top_dir in the project's configuration",
                traceback.format_exc(),
            ) from None
        self._index(suite)

    def _index(self, suite: unittest.TestSuite | unittest.TestCase) -> None:
        for case in flatten(suite):
            self.cases.setdefault(case.id(), case)

    def _scenario(self, test_id: str) -> None:
        """``Class.test_x(name)`` of a testscenarios ``WithScenarios`` case: discovery finds only
        ``Class.test_x``, which runs every scenario when run, and a run reports each as
        ``test_x(name)``. Indexes the one scenario, as testscenarios builds it (a copy of the case
        with the scenario's id and attributes, and no scenarios of its own)."""
        if test_id in self.cases or not test_id.endswith(")") or "(" not in test_id:
            return
        base, name = test_id[:-1].split("(", 1)
        case = self.cases.get(base)
        scenarios = getattr(case, "scenarios", None)
        if case is None or not isinstance(scenarios, (list, tuple)):
            return
        for scenario in scenarios:
            if isinstance(scenario, tuple) and len(scenario) == 2 and scenario[0] == name:
                clone = copy.copy(case)
                setattr(clone, "id", lambda: test_id)
                for key, value in dict(scenario[1]).items():
                    setattr(clone, key, value)
                setattr(clone, "scenarios", None)
                self.cases[test_id] = clone
                return

    def _load_module_of(self, test_id: str) -> None:
        base = _strip_params(test_id)
        owner = base.rsplit(".", 1)[0]
        if owner not in self._module_of:
            self._module_of[owner] = self._find_module(base, test_id)
        name = self._module_of[owner]
        if name is None or name in self._loaded:
            return
        self._loaded.add(name)
        module = _import(name, test_id)
        self._index(self.loader.loadTestsFromModule(module, pattern=self.args.pattern))

    def _find_module(self, base: str, test_id: str) -> str | None:
        """The longest importable module prefix of a dotted id (the rest names class/method)."""
        parts = base.split(".")
        found = None
        for k in range(1, len(parts)):
            name = ".".join(parts[:k])
            try:
                spec = importlib.util.find_spec(name)
            except ModuleNotFoundError as exc:
                if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
                    break
                raise _import_error(name, test_id) from None
            except (ImportError, ValueError, AttributeError):
                break
            except Exception:  # a package __init__ raised while finding a submodule
                raise _import_error(name, test_id) from None
            if spec is None:
                break
            found = name
            if spec.submodule_search_locations is None:
                break  # a plain module: what follows are attributes
        return found

    def _load_package_tests(self, missing: list[str]) -> None:
        """Ask ancestor packages with ``load_tests`` (they may generate the missing ids)."""
        packages = {
            ".".join(parts[:k])
            for test_id in missing
            for parts in [_strip_params(test_id).split(".")]
            for k in range(1, len(parts))
        }
        for name in sorted(packages, key=lambda n: (n.count("."), n)):
            module = sys.modules.get(name)
            if module is None or not hasattr(module, "__path__"):
                continue
            if getattr(module, "load_tests", None) is None or ("pkg:" + name) in self._loaded:
                continue
            self._loaded.add("pkg:" + name)
            self._index(self.loader.loadTestsFromModule(module, pattern=self.args.pattern))


def _fresh_repeats(cases: list[Step]) -> list[Step]:
    """An id listed again (the victim repeated after the list) runs as a copy of the case taken
    before anything ran, as unittest would build it anew: a case object keeps what its earlier
    run left in its attributes."""
    seen: set[int] = set()
    out: list[Step] = []
    for case in cases:
        if id(case) in seen:
            case, original = copy.copy(case), case
            if isinstance(getattr(original, "_cleanups", None), list):
                setattr(case, "_cleanups", [])  # a shallow copy would share the original's list
        else:
            seen.add(id(case))
        out.append(case)
    return out


def _import(name: str, test_id: str) -> types.ModuleType:
    try:
        return importlib.import_module(name)
    except BaseException as exc:  # SystemExit/KeyboardInterrupt at import are list errors too
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _import_error(name, test_id) from None


def _import_error(name: str, test_id: str) -> ListError:
    """A ListError for the exception being handled while importing ``name``."""
    exc = sys.exc_info()[1]
    first = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return ListError(
        f"cannot import {name!r} (needed by {test_id!r}): {first}; fix: make the module "
        "importable or remove its tests from the list",
        traceback.format_exc(),
    )


def run_cases(cases: Sequence[Step], stream: IO[bytes]) -> None:
    """Run ``cases`` in order, reporting subunit v2 to ``stream`` the way stestr's runner does.
    An ``import:`` entry whose module fails to import raises ListError.

    A list holding a testtools ``TestCase`` (which reports ``details``) reports through testtools'
    result, as under stestr; the others through :mod:`isolate.running.stream_result`, which
    writes the same events without subunit and testtools, and at two thirds of their cost per
    test. Chosen by the cases, not by whether testtools is imported: a fork server imports it
    for all its children."""
    result: unittest.TestResult
    testtools = sys.modules.get("testtools")
    if testtools is not None and any(isinstance(case, testtools.TestCase) for case in cases):
        from subunit import StreamResultToBytes
        from subunit.test_results import AutoTimingTestResultDecorator
        from testtools import ExtendedToStreamDecorator

        result = AutoTimingTestResultDecorator(ExtendedToStreamDecorator(StreamResultToBytes(stream)))
    else:
        result = StreamResult(StreamWriter(stream))
    suite = unittest.TestSuite(list(cases))
    result.startTestRun()
    try:
        suite(result)
    finally:
        result.stopTestRun()


def read_ids(path: str) -> list[str]:
    """The ids of a list file the parent wrote (one per line, utf-8)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [line.strip() for line in text.splitlines() if line.strip()]


def write_error(path: str, error: ListError) -> None:
    """Leave the reason for the parent: first line for the user, then the details."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"{error.args[0]}\n{error.details}")


USAGE = ("usage: python -m isolate.running.child --list FILE --stream FILE --error-file FILE "
         "[--discover-all] RUNNER_ARGS...")


@dataclass(frozen=True)
class Options:
    """The child's command line: isolate's own options, then the project runner's arguments."""

    list_file: str  # one test id per line
    stream: str  # where to write subunit v2
    error_file: str  # where to explain a list error
    discover_all: bool  # import the whole tree first
    runner_args: list[str]


def parse_options(argv: Sequence[str]) -> Options:
    """isolate's options come first, as isolate writes them (processes.own_args, and a testr
    command's runner part: project.runner_command); the first other word starts the runner's.
    Not argparse: it and what it imports (gettext's search for translations, shutil, locale)
    were about 13 ms of every fresh run's start-up."""
    valued = ("--list", "--stream", "--error-file")
    values: dict[str, str] = {}
    discover_all = False
    words = list(argv)
    while words and (words[0] in valued or words[0] == "--discover-all"):
        word = words.pop(0)
        if word == "--discover-all":
            discover_all = True
        elif not words:
            raise SystemExit(f"{USAGE}\n{word} needs a value")
        else:
            values[word] = words.pop(0)
    missing = [w for w in valued if w not in values]
    if missing:
        raise SystemExit(f"{USAGE}\nmissing: {' '.join(missing)}")
    return Options(values["--list"], values["--stream"], values["--error-file"], discover_all, words)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one list once; the exit status only says whether the list could run (0) or not (3)."""
    follow_env()  # before any of the project is imported
    opts = parse_options(sys.argv[1:] if argv is None else argv)
    try:
        ids = read_ids(opts.list_file)
        index = TestIndex(parse_runner_args(opts.runner_args))
        if opts.discover_all:
            index.discover_all()
        cases = index.resolve(ids)
        with open(opts.stream, "wb", buffering=0) as stream:
            run_cases(cases, stream)
    except ListError as error:
        write_error(opts.error_file, error)
        return EXIT_LIST_ERROR
    return 0


if __name__ == "__main__":
    leave(main())
