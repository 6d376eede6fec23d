"""Find and read the project's test configuration, the way stestr and testr do.

isolate never runs tests through ``stestr run`` or ``testr run`` (they lose the list's order and
write to the repository), but it must start the tests in the same environment those tools would:
same interpreter, same ``top_dir``/``test_path``, and for testr the same shell wrapper around the
runner. This module reads ``.stestr.conf`` (or ``[tool.stestr]`` in pyproject.toml, ``[stestr]`` in
tox.ini) and ``.testr.conf``, and builds the command that starts one of isolate's own in-process
runners (:mod:`isolate.running.child`, :mod:`isolate.running.forkserver`) in place of the project's runner.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from isolate.running.runner_args import parse_runner_args
from isolate.errors import UserError

STESTR_CONF = ".stestr.conf"
TESTR_CONF = ".testr.conf"

# The runners a .testr.conf test_command may invoke with ``-m``; their part of the command is
# replaced by isolate's order-keeping runner, everything around it (wrappers, env) is kept.
RUNNER_MODULES = ("subunit.run", "stestr.subunit_runner.run", "testtools.run")
_RUNNER_RE = re.compile(
    r"(?<![\w.-])-m\s+(?:" + "|".join(re.escape(m) for m in RUNNER_MODULES) + r")(?![\w.])"
)
_PLACEHOLDER_RE = re.compile(r"\$(IDOPTION|IDFILE|IDLIST|LISTOPT)\b")
_SHELL_STOP = set(";&|()<>`\n#")


@dataclass(frozen=True)
class Project:
    """Where and how the project's tests run, as its own test tool would run them.

    ``test_path``/``top_dir`` are what stestr passes to ``discover`` (for testr: read from the
    ``test_command``, for display only, since the shell expands them at run time);
    ``test_command`` and ``test_id_option`` are testr's, kept verbatim so that the command can
    be run with only its runner swapped for isolate's.
    """

    root: Path
    kind: str  # "stestr" | "testr" | "pytest"
    test_path: str
    top_dir: str
    python: str
    test_command: str | None = None
    config_file: Path | None = None
    test_id_option: str = ""
    extra_args: tuple[str, ...] = ()  # pytest only: passed through to every replay

    def python_argv(self) -> list[str]:
        """The interpreter as an argv prefix; ``$PYTHON`` may carry options, as under stestr."""
        return shlex.split(self.python) or [sys.executable]


NO_TESTS_RUN = ("--co", "--collect-only", "--setup-plan", "--setup-only", "--fixtures", "--funcargs",
                "--fixtures-per-test", "--markers", "--version", "-V", "-h", "--help")
"""pytest options under which no test runs: every replay would pass (--setup-plan), crash or fail to start."""


def check_pytest_args(args: tuple[str, ...] | list[str]) -> None:
    """Refuse a --pytest-arg that stops pytest from running the tests."""
    for arg in args:
        if arg in NO_TESTS_RUN:
            raise UserError(f"--pytest-arg {arg} makes pytest run no test, so no run could show the failure (under"
                            f" --setup-plan each would pass); fix: drop --pytest-arg={arg}")


def with_pytest_args(project: Project, args: tuple[str, ...] | list[str]) -> Project:
    """The project with ARGS passed to pytest in every run; an error for other kinds."""
    if not args:
        return project
    if project.kind != "pytest":
        raise UserError(f"--pytest-arg given but {project.root} is a {project.kind} project; fix: "
                        "drop --pytest-arg")
    check_pytest_args(args)
    return replace(project, extra_args=project.extra_args + tuple(args))


def find_project(start: Path, kind: str | None = None) -> Project:
    """Walk up from ``start`` to the nearest directory holding a test configuration.

    In a directory holding both stestr and testr configurations, ``kind`` ("stestr" or "testr":
    the repository a hunt's run was stored in) says which; without it the one whose repository
    (``.stestr/`` or ``.testrepository/``) exists wins, stestr otherwise, because that is where
    the failing run the user is hunting was recorded (QA: a hunt of a testr run in a project
    midway to stestr ran its lists with .stestr.conf, without .testr.conf's test_command and the
    variables it sets). A directory with pytest configuration and neither of those is a pytest
    project. ``kind="pytest"`` looks for pytest configuration only (and takes ``start`` itself as
    the root when there is none).
    """
    start = start.resolve()
    if kind == "pytest":
        for directory in (start, *start.parents):
            if (config := pytest_config(directory)) is not None:
                return _pytest_project(directory, config)
        return _pytest_project(start, None)
    for directory in (start, *start.parents):
        stestr = _read_stestr(directory)
        testr = _read_testr(directory) if (directory / TESTR_CONF).is_file() else None
        if stestr and testr:
            if kind in ("stestr", "testr"):
                return testr if kind == "testr" else stestr
            if (directory / ".testrepository").is_dir() and not (directory / ".stestr").is_dir():
                return testr
            return stestr
        if stestr or testr:
            return stestr or testr  # type: ignore[return-value]
        if (config := pytest_config(directory)) is not None:
            return _pytest_project(directory, config)
    raise UserError(
        f"no test configuration found in {start} or its parents (.stestr.conf, [tool.stestr] in "
        "pyproject.toml, [stestr] in tox.ini, .testr.conf, pytest.ini or other pytest "
        "configuration); fix: run isolate from the project root or create .stestr.conf with a "
        "test_path (pytest projects: an empty pytest.ini)"
    )


def pytest_config(directory: Path) -> Path | None:
    """The file making ``directory`` a pytest root, in pytest's own order, or None."""
    for name in ("pytest.ini", ".pytest.ini"):
        if (directory / name).is_file():
            return directory / name
    pyproject = directory / "pyproject.toml"
    if pyproject.is_file():
        import tomllib  # here, and in _read_stestr: only when a pyproject.toml is read (~8 ms)

        try:
            tool = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise UserError(f"cannot parse {pyproject}: {exc}; fix: correct the TOML syntax") from None
        if isinstance(tool.get("pytest"), dict):
            return pyproject
    for name, section in (("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")):
        if (directory / name).is_file() and _ini_section(directory / name, section) is not None:
            return directory / name
    return None


def _pytest_project(directory: Path, config: Path | None) -> Project:
    return Project(root=directory, kind="pytest", test_path=".", top_dir=".", python=_python(),
                   config_file=config)


def pytest_command(project: Project, own_args: list[str], ids: list[str],
                   collect_all: bool = False) -> list[str]:
    """The argv replaying a list with :mod:`isolate.running.pytest_child` in a fresh pytest process."""
    return [*project.python_argv(), "-m", "pytest", *pytest_args(project, own_args, ids, collect_all)]


def pytest_args(project: Project, own_args: list[str], ids: list[str], collect_all: bool = False) -> list[str]:
    """pytest's arguments replaying a list with :mod:`isolate.running.pytest_child` (in a fresh
    process, or in a fork server's child).

    Only the files the list names are collected (start-up dominates short lists), unless
    ``collect_all``; files that do not exist are left to the plugin to report as unknown ids.
    Random ordering, xdist, reruns (rerunfailures, flaky) and coverage are switched off, and nothing
    is cached in the project.
    """
    paths: list[str] = []
    if not collect_all:
        for test_id in ids:
            path = test_id.split("::", 1)[0]
            if path not in paths and (project.root / path).exists():
                paths.append(path)
    return ["-p", "isolate.running.pytest_child", "-p", "no:isolate", "-p", "no:randomly", "-p", "no:xdist",
            "-p", "no:rerunfailures", "-p", "no:flaky", "-p", "no:pytest_cov", "-p", "no:cacheprovider",
            *own_args, *project.extra_args, *paths]


def _python() -> str:
    """The test interpreter: ``$PYTHON`` if set (stestr honours it), else the running one."""
    return os.environ.get("PYTHON") or sys.executable


def _read_stestr(directory: Path) -> Project | None:
    """Read stestr's settings from the first of its three possible homes in ``directory``."""
    values: dict[str, str] | None = None
    config = directory / STESTR_CONF
    if config.is_file():
        values = _ini_section(config, "DEFAULT")
    else:
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file():
            import tomllib

            try:
                doc = tomllib.loads(pyproject.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise UserError(
                    f"cannot parse {pyproject}: {exc}; fix: correct the TOML syntax"
                ) from None
            section = doc.get("tool", {}).get("stestr")
            if isinstance(section, dict):
                config = pyproject
                values = {k: str(v) for k, v in section.items()}
        if values is None and (directory / "tox.ini").is_file():
            values = _ini_section(directory / "tox.ini", "stestr")
            config = directory / "tox.ini"
    if values is None:
        return None
    test_path = values.get("test_path")
    if not test_path:
        raise UserError(
            f"{config} has no test_path; fix: add a line 'test_path=./tests' (your test "
            "directory) to it"
        )
    if "$" not in test_path and not (directory / test_path).is_dir():
        raise UserError(
            f"the test_path {test_path!r} of {config} is not a directory in {directory}; fix: set"
            " test_path to your test directory, e.g. './tests'"
        )
    return Project(
        root=directory,
        kind="stestr",
        test_path=test_path,
        top_dir=values.get("top_dir") or "./",
        python=_python(),
        config_file=config,
    )


def _ini_section(path: Path, section: str) -> dict[str, str] | None:
    """The options of one ini section, or None when the section is absent.

    Interpolation is off: stestr and testr values hold ``$VAR`` and sometimes ``%``.
    """
    import configparser  # here: a project configured by pytest.ini or pyproject.toml never needs it

    parser = configparser.ConfigParser(interpolation=None)
    try:
        with path.open(encoding="utf-8") as fp:  # parser.read() would skip an unreadable file silently
            parser.read_file(fp)
    except OSError as exc:
        raise UserError(f"cannot read {path} ({exc.strerror}); fix: check its permissions") from None
    except (configparser.Error, UnicodeDecodeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"cannot parse {path}: {first}; fix: correct the ini syntax") from None
    if section == "DEFAULT":
        return dict(parser.defaults())
    if not parser.has_section(section):
        return None
    return dict(parser.items(section))


def _read_testr(directory: Path) -> Project:
    """Read ``.testr.conf``; its ``test_command`` must invoke a runner isolate can replace."""
    config = directory / TESTR_CONF
    values = _ini_section(config, "DEFAULT") or {}
    command = values.get("test_command", "").strip()
    if not command:
        raise UserError(
            f"{config} has no test_command; fix: add 'test_command=${{PYTHON:-python}} -m "
            "subunit.run discover -t ./ ./tests $LISTOPT $IDOPTION'"
        )
    span = runner_span(command)
    if span is None:
        raise UserError(
            f"the test_command in {config} does not run '-m subunit.run', "
            "'-m stestr.subunit_runner.run' or '-m testtools.run'; fix: use one of those runners "
            "so isolate can replace it with its order-keeping runner"
        )
    test_path, top_dir = _discover_paths(command[span[0] : span[1]])
    return Project(
        root=directory,
        kind="testr",
        test_path=test_path,
        top_dir=top_dir,
        python=_python(),
        test_command=command,
        config_file=config,
        test_id_option=values.get("test_id_option", ""),
    )


def runner_span(command: str) -> tuple[int, int] | None:
    """Where ``-m <runner> <its arguments>`` sits in a shell command (None if absent).

    The arguments end at the first unquoted shell operator, so wrappers before the runner and
    commands chained after it are kept as they are.
    """
    match = _RUNNER_RE.search(command)
    if match is None:
        return None
    i, quote, depth = match.end(), "", 0
    while i < len(command):
        ch = command[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = ""
        elif ch == "\\":
            i += 1
        elif ch in "'\"":
            quote = ch
        elif ch == "$" and command[i + 1 : i + 2] in ("(", "{"):
            depth += 1  # $(...) and ${...} belong to the word they are in
            i += 1
        elif depth and ch in ")}":
            depth -= 1
        elif ch == "#" and not command[i - 1].isspace():
            pass  # only a word-initial '#' starts a comment
        elif not depth and ch in _SHELL_STOP:
            if ch in "<>":  # an fd number right before a redirection belongs to it: 2>&1
                j = i
                while j > match.end() and command[j - 1].isdigit():
                    j -= 1
                if command[j - 1].isspace():
                    i = j
            break
        i += 1
    return match.start(), min(i, len(command))


def _discover_paths(segment: str) -> tuple[str, str]:
    """Best-effort (test_path, top_dir) from the runner's arguments, for display only.

    The real values are computed by the shell at run time (they may hold ``$VARS``).
    """
    try:
        words = shlex.split(_PLACEHOLDER_RE.sub("", segment))[2:]
    except ValueError:
        return ".", "."
    args = parse_runner_args(words)
    if not args.discover:
        return ".", "."
    return args.start_dir, args.top_dir or args.start_dir


def runner_command(
    project: Project, module: str, own_args: list[str]
) -> tuple[list[str] | str, bool]:
    """The command starting isolate's runner ``module`` as the project would start its own.

    Returns ``(command, shell)``: an argv for stestr projects (what stestr's
    ``${PYTHON} -m stestr.subunit_runner.run discover -t "TOP" "PATH"`` amounts to, minus the
    shell, unless TOP or PATH hold ``$`` variables), a ``/bin/sh -c`` string for testr projects where ``-m <runner> ARGS $LISTOPT $IDOPTION`` becomes
    ``-m <module> OWN_ARGS ARGS`` and the other placeholders are substituted.
    """
    if project.kind == "stestr":
        argv = [*project.python_argv(), "-m", module, *own_args]
        if "$" in project.top_dir + project.test_path:
            # e.g. test_path=${OS_TEST_PATH:-./tests}: stestr leaves that to the shell, so do we,
            # with the same double quotes stestr puts around both values.
            words = " ".join(shlex.quote(a) for a in argv)
            return f'{words} discover -t "{project.top_dir}" "{project.test_path}"', True
        return [*argv, "discover", "-t", project.top_dir, project.test_path], False
    assert project.test_command is not None
    command = project.test_command.replace("\\\n", " ")
    span = runner_span(command)
    if span is None:  # pragma: no cover - _read_testr guarantees a runner
        raise UserError("test_command has no runner; fix: use '-m subunit.run discover ...'")
    start, end = span
    runner_args = _PLACEHOLDER_RE.sub("", command[start:end])
    runner_args = _RUNNER_RE.sub("", runner_args, count=1).strip()
    parts = [f"-m {module}", *(shlex.quote(a) for a in own_args), runner_args]
    replaced = " ".join(w for w in parts if w) + " "
    return command[:start] + replaced + command[end:], True


def substitute_placeholders(command: str, ids_file: Path, ids: list[str], id_option: str) -> str:
    """Fill testr's placeholders that remain outside the runner's part of the command.

    ``$LISTOPT`` becomes empty (isolate never lists); ``$IDOPTION`` becomes the configured
    ``test_id_option``, as testr would, with its own ``$IDFILE``/``$IDLIST`` filled in.
    """
    values = {
        "IDFILE": shlex.quote(str(ids_file)),
        "IDLIST": " ".join(shlex.quote(i) for i in ids),
        "LISTOPT": "",
    }
    values["IDOPTION"] = _PLACEHOLDER_RE.sub(lambda m: values.get(m.group(1), ""), id_option)
    return _PLACEHOLDER_RE.sub(lambda m: values[m.group(1)], command)
