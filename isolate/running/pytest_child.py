"""The order-keeping replay of a pytest list, as a plugin *inside* the test process.

Loaded only by isolate's runner (never through an entry point), as
``python -m pytest -p isolate.running.pytest_child -p no:isolate -p no:randomly -p no:xdist
-p no:rerunfailures -p no:flaky -p no:pytest_cov -p no:cacheprovider --isolate-list FILE
--isolate-stream FILE --isolate-error-file FILE PATHS``
(see :func:`isolate.running.project.pytest_command`). It is the pytest twin of :mod:`isolate.running.child`:

* after every other plugin has touched the collected items (``trylast``), it keeps exactly the
  listed node ids, in the listed order, and deselects the rest;
* listed ids that were not collected make it write a one-line reason (then details) to the error
  file and exit 3 before any test runs; a collection error of a needed file is named as the cause;
* an id listed more than once (the victim repeated, ``--repeat-victim``) runs each time as a new
  item of the same test;
* it writes subunit v2 to the stream file with the recorder of :mod:`isolate.orders.pytest_plugin`
  (same statuses and failure texts as a recording, so signatures compare like with like);
* once the session has ended (its fixtures torn down, conftest files' and plugins'
  ``pytest_sessionfinish`` run) the process leaves (:mod:`isolate.running.leave`) with pytest's
  exit status, before the session's report (the terminal summary) and without waiting for threads
  the tests left running.

A replay never stops at a failure (``-x`` and ``--maxfail`` in ``addopts`` are undone): the victim
runs last. The cache plugin is blocked (``--lf``, ``--ff``, ``--sw`` would change what runs);
its and stepwise's options are registered here as no-ops, so ``addopts = --sw`` still parses.

The recording plugin (``isolate``) is blocked in a replay so that an ``isolate_record`` ini value
or ``--isolate-record`` in ``addopts`` writes nothing into the project; its option and ini names
are registered here as no-ops so such configurations still parse, and so are the options of the
other plugins it blocks (`BLOCKED_OPTIONS`): xdist's (``addopts = -n auto --dist loadfile``: the
replay runs in this one process), pytest-randomly's, pytest-rerunfailures' and flaky's (a rerun
would break the list's order or hide the failure) and pytest-cov's (it rewrote ``.coverage``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from isolate.orders.pytest_plugin import Recorder
from isolate.running.in_copy import follow_env
from isolate.running.leave import leave

follow_env()  # a run in a copy imports the project from it; loaded with -p: before any conftest

EXIT_LIST_ERROR = 3
IMPORT = "import:"  # isolate.running.child's module-import entry (its module is not imported here: start-up)
_LIST, _STREAM, _ERROR = "isolate_list", "isolate_stream", "isolate_error_file"


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    group = parser.getgroup("isolate-replay", "isolate replay (internal)")
    group.addoption("--isolate-list", dest=_LIST, default=None, help="node ids to run, in order")
    group.addoption("--isolate-stream", dest=_STREAM, default=None, help="subunit v2 output file")
    group.addoption("--isolate-error-file", dest=_ERROR, default=None, help="why the list cannot run")
    group.addoption("--isolate-record", dest="isolate_record", default=None, help="ignored in a replay")
    parser.addini("isolate_record", default="", help="ignored in a replay")
    if pluginmanager.is_blocked("cacheprovider"):  # and with it stepwise: their options in addopts still parse
        for names in (("--lf", "--last-failed"), ("--ff", "--failed-first"), ("--nf", "--new-first"),
                      ("--cache-clear",), ("--sw", "--stepwise"), ("--sw-skip", "--stepwise-skip"),
                      ("--sw-reset", "--stepwise-reset")):
            group.addoption(*names, action="store_true", dest=f"isolate_ignored_{names[-1][2:]}",
                            help="ignored in a replay (its order is the list's)")
        group.addoption("--lfnf", "--last-failed-no-failures", dest="isolate_ignored_lfnf",
                        choices=("all", "none"), default="all", help="ignored in a replay")
        group.addoption("--cache-show", action="append", nargs="?", dest="isolate_ignored_cacheshow",
                        help="ignored in a replay")
        parser.addini("cache_dir", default=".pytest_cache", help="ignored in a replay")
    for plugin, options in BLOCKED_OPTIONS.items():  # off in a replay: their options in addopts still parse
        if pluginmanager.is_blocked(plugin):
            for flags, kwargs in options:  # (_addoption: xdist's -n is a lowercase short option)
                group._addoption(*flags, **kwargs, help="ignored in a replay")  # type: ignore[arg-type]
    if pluginmanager.is_blocked("rerunfailures"):
        for name in ("reruns", "reruns_delay"):
            parser.addini(name, default="", help="ignored in a replay")


def _value(dest: str, default: object = None) -> dict[str, object]:
    return {"dest": dest, "default": default}


def _flag(dest: str, action: str = "store_true") -> dict[str, object]:
    return {"dest": dest, "action": action}


def _many(dest: str, nargs: str | None = None) -> dict[str, object]:
    return {"dest": dest, "action": "append", "default": None, **({"nargs": nargs} if nargs else {})}


BLOCKED_OPTIONS: dict[str, tuple[tuple[tuple[str, ...], dict[str, object]], ...]] = {
    # xdist: the replay runs in this one process (addopts = -n auto --dist loadfile)
    "xdist": ((("-n", "--numprocesses"), _value("numprocesses")), (("--maxprocesses",), _value("maxprocesses")),
              (("--dist",), _value("dist", "no")), (("--max-worker-restart",), _value("maxworkerrestart"))),
    # pytest-randomly: the list's order and the tests' own seeding stay as they run (QA: its
    # --randomly-seed in addopts ended every run as "unrecognized arguments")
    "randomly": ((("--randomly-seed",), _value("randomly_seed", "default")),
                 (("--randomly-dont-reset-seed",), _flag("randomly_reset_seed", "store_false")),
                 (("--randomly-dont-reorganize",), _flag("randomly_reorganize", "store_false"))),
    # pytest-rerunfailures and flaky run a failed test again: the rerun broke the list's order
    # (the hunt stopped: "order mismatch"), and a rerun that passed would hide the failure
    "rerunfailures": ((("--reruns",), _value("reruns")), (("--reruns-delay",), _value("reruns_delay")),
                      (("--only-rerun",), _many("only_rerun")), (("--rerun-except",), _many("rerun_except")),
                      (("--force-reruns",), _value("force_reruns")), (("--fail-on-flaky",), _flag("fail_on_flaky"))),
    "flaky": ((("--force-flaky",), _flag("force_flaky")), (("--max-runs",), _value("max_runs")),
              (("--min-passes",), _value("min_passes")), (("--no-flaky-report",), _flag("no_flaky_report")),
              (("--no-success-flaky-report",), _flag("no_success_flaky_report"))),
    # pytest-cov: a replay measured nothing anyone reads, and rewrote the project's .coverage
    "pytest_cov": ((("--cov",), _many("cov_source", "?")), (("--cov-report",), _many("cov_report", "?")),
                   (("--cov-config",), _value("cov_config")), (("--no-cov-on-fail",), _flag("no_cov_on_fail")),
                   (("--no-cov",), _flag("no_cov")), (("--cov-fail-under",), _value("cov_fail_under")),
                   (("--cov-append",), _flag("cov_append")), (("--cov-branch",), _flag("cov_branch")),
                   (("--cov-precision",), _value("cov_precision")), (("--cov-context",), _value("cov_context")),
                   (("--cov-reset",), _flag("cov_reset"))),
}
"""The plugins a replay blocks (isolate.running.project.pytest_command), and the options each
registers, registered here as no-ops so that a project's addopts naming them still parses."""


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.is_blocked("rerunfailures"):  # its marker, for --strict-markers
        config.addinivalue_line("markers", "flaky(reruns=1, reruns_delay=0): rerun marker, ignored in a replay")
    if config.getoption(_LIST) and config.getoption(_STREAM) and config.getoption(_ERROR):
        config.pluginmanager.register(Replay(config), "isolate-replay")


class Replay:
    """Orders the items like the list and records their results."""

    def __init__(self, config: pytest.Config) -> None:
        text = Path(config.getoption(_LIST)).read_text(encoding="utf-8")
        self.ids = [line.strip() for line in text.splitlines() if line.strip()]
        self.stream = Path(config.getoption(_STREAM))
        self.error_file = Path(config.getoption(_ERROR))
        self.collect_errors: list[pytest.CollectReport] = []
        self.config = config
        self.recorder: Recorder | None = None
        # Every listed id was collected (or the list errors out before running): a broken file
        # the list does not need (collected by --discover-all) must not stop the run.
        config.option.continue_on_collection_errors = True
        # -x or --maxfail in addopts would end the session at a predecessor's failure, before the
        # victim ran: the run would be no evidence, every time (QA: 100 such runs, 'not-reproduced')
        config.option.maxfail = 0

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors.append(report)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        by_id = {item.nodeid: item for item in items}
        missing = [i for i in self.ids if i not in by_id]
        if missing:
            self._fail(missing)
        wanted = set(self.ids)
        others = [item for item in items if item.nodeid not in wanted]
        items[:] = _fresh_repeats([by_id[i] for i in self.ids])
        if others:
            self.config.hook.pytest_deselected(items=others)
        self.recorder = Recorder(self.stream, "main", replay=True)
        self.config.pluginmanager.register(self.recorder, "isolate-replay-recorder")

    @pytest.hookimpl(trylast=True)  # after every other plugin's and conftest's own
    def pytest_sessionfinish(self, exitstatus: int) -> None:
        if self.recorder is not None:
            self.recorder.close()
        leave(int(exitstatus))

    def _fail(self, missing: list[str]) -> None:
        missing = list(dict.fromkeys(missing))  # the victim repeated is one id (QA: "and 9 more" of one)
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        first = missing[0]
        path = first.split("::", 1)[0]
        broken = [r for r in self.collect_errors if r.nodeid.split("::", 1)[0] == path]
        imports = [i for i in missing if i.startswith(IMPORT)]
        if imports:
            message = (f"{imports[0]!r} is a module import, which isolate replays in stestr and unittest projects"
                       " only (pytest imports a test file when it collects it); fix: remove the import: lines"
                       " from the list")
            details = "\n".join(imports)
        elif broken:
            last = (broken[0].longreprtext.strip().splitlines() or ["collection error"])[-1]
            message = (f"cannot collect {path!r} (needed by {first!r}){more}: {last.strip()}; fix: "
                       "make the file importable or remove its tests from the list")
            details = broken[0].longreprtext
        else:
            message = (f"unknown test id {first!r}{more}: pytest did not collect it (or -k/-m "
                       "deselected it); fix: correct or remove it from the list")
            details = "\n".join(missing)
        self.error_file.write_text(f"{message}\n{details}", encoding="utf-8")
        pytest.exit(message, returncode=EXIT_LIST_ERROR)


def _fresh_repeats(items: list[pytest.Item]) -> list[pytest.Item]:
    """An id listed again (the victim repeated in one process, ``isolate bisect --repeat-victim``)
    runs as a new item of the same test, node id and parent: between two executions pytest then
    tears down the first one's function fixtures and keeps the module's, class's and session's,
    as between two tests of a module (one item object run twice would keep its own fixtures
    set up). Items other than test functions (doctests, plugins' own) run again as they are."""
    seen: set[int] = set()
    out: list[pytest.Item] = []
    for item in items:
        if id(item) in seen and isinstance(item, pytest.Function):
            item = pytest.Function.from_parent(
                item.parent, name=item.name, callspec=getattr(item, "callspec", None),
                keywords=dict(item.keywords), fixtureinfo=item._fixtureinfo, originalname=item.originalname)
        seen.add(id(item))
        out.append(item)
    return out
