"""Reading the project's configuration the way stestr and testr do, and swapping testr's runner."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from isolate.errors import UserError
from isolate.running.project import find_project, runner_command, runner_span, substitute_placeholders

SAMPLES = Path(__file__).resolve().parents[2] / "sample_suites"
TESTR = "[DEFAULT]\ntest_command={}\ntest_id_option=--load-list $IDFILE\ntest_list_option=--list\n"


@pytest.fixture(autouse=True)
def no_python_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHON", raising=False)


def test_stestr_conf_found_from_a_subdirectory(tmp_path: Path) -> None:
    (tmp_path / ".stestr.conf").write_text("[DEFAULT]\ntest_path=./pkg/tests\n")
    (tmp_path / "pkg" / "tests").mkdir(parents=True)
    project = find_project(tmp_path / "pkg" / "tests")
    assert (project.root, project.kind) == (tmp_path, "stestr")
    assert (project.test_path, project.top_dir, project.python) == ("./pkg/tests", "./", sys.executable)
    command, shell = runner_command(project, "isolate.running.child", ["--list", "L"])
    assert not shell
    assert command == [sys.executable, "-m", "isolate.running.child", "--list", "L", "discover", "-t", "./", "./pkg/tests"]


def test_pyproject_and_tox_sections_and_precedence(tmp_path: Path) -> None:
    for name in ("from_tox", "from_toml", "from_conf"):
        (tmp_path / name).mkdir()
    (tmp_path / "tox.ini").write_text("[tox]\n[stestr]\ntest_path=./from_tox\ntop_dir=./src\n")
    assert (find_project(tmp_path).test_path, find_project(tmp_path).top_dir) == ("./from_tox", "./src")
    (tmp_path / "pyproject.toml").write_text('[project]\nname="x"\n[tool.stestr]\ntest_path = "./from_toml"\n')
    assert find_project(tmp_path).test_path == "./from_toml"
    (tmp_path / ".stestr.conf").write_text("[DEFAULT]\ntest_path=./from_conf\n")
    assert find_project(tmp_path).test_path == "./from_conf"


def test_stestr_test_path_variables_are_left_to_the_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenStack style: test_path=${OS_TEST_PATH:-./nova/tests/unit}, expanded by stestr's shell."""
    (tmp_path / ".stestr.conf").write_text("[DEFAULT]\ntest_path=${OS_TEST_PATH:-./unit}\ntop_dir=./\n")
    command, shell = runner_command(find_project(tmp_path), "isolate.running.child", ["--list", "a b"])
    assert shell and command == f'{sys.executable} -m isolate.running.child --list \'a b\' discover -t "./" "${{OS_TEST_PATH:-./unit}}"'
    echo = str(command).replace("-m isolate.running.child", "-c 'import sys; print(sys.argv[1:])'")
    monkeypatch.setenv("OS_TEST_PATH", "./other")
    out = subprocess.run(["/bin/sh", "-c", echo], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['--list', 'a b', 'discover', '-t', './', './other']"


def test_python_env_var_is_honoured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".stestr.conf").write_text("[DEFAULT]\ntest_path=.\n")
    monkeypatch.setenv("PYTHON", f"{sys.executable} -X dev")
    project = find_project(tmp_path)
    assert project.python_argv() == [sys.executable, "-X", "dev"]
    assert runner_command(project, "m", [])[0][:4] == [sys.executable, "-X", "dev", "-m"]


def test_missing_or_incomplete_configuration_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"no test configuration found .*; fix: "):
        find_project(tmp_path)
    (tmp_path / ".stestr.conf").write_text("[DEFAULT]\ntop_dir=./\n")
    with pytest.raises(UserError, match=r"has no test_path; fix: add"):
        find_project(tmp_path)
    (tmp_path / ".stestr.conf").unlink()
    (tmp_path / ".testr.conf").write_text(TESTR.format("make test"))
    with pytest.raises(UserError, match=r"does not run '-m subunit.run'"):
        find_project(tmp_path)
    (tmp_path / ".testr.conf").write_text("[DEFAULT]\ntest_list_option=--list\n")
    with pytest.raises(UserError, match="has no test_command"):
        find_project(tmp_path)


def test_both_configurations_prefer_the_existing_repository(tmp_path: Path) -> None:
    (tmp_path / ".stestr.conf").write_text("[DEFAULT]\ntest_path=.\n")
    (tmp_path / ".testr.conf").write_text(TESTR.format("python -m subunit.run discover . $IDOPTION"))
    assert find_project(tmp_path).kind == "stestr"
    (tmp_path / ".testrepository").mkdir()
    assert find_project(tmp_path).kind == "testr"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("${PYTHON:-python} -m subunit.run discover -t ./ ./tests $LISTOPT $IDOPTION",
         "${PYTHON:-python} -m isolate.running.child --list /l discover -t ./ ./tests "),
        ("lockutils-wrapper ${PYTHON:-python} -m subunit.run discover -t ./ ${OS_TEST_PATH:-./x/tests} $LISTOPT $IDOPTION",
         "lockutils-wrapper ${PYTHON:-python} -m isolate.running.child --list /l discover -t ./ ${OS_TEST_PATH:-./x/tests} "),
        ("OS_STDOUT_CAPTURE=1 \\\n  python -m stestr.subunit_runner.run discover -t \"./\" \"$(pwd)/t\" $LISTOPT $IDOPTION; echo done",
         "OS_STDOUT_CAPTURE=1  python -m isolate.running.child --list /l discover -t \"./\" \"$(pwd)/t\" ; echo done"),
        ("coverage run -m testtools.run discover -s tests -p 'test_*.py' $IDOPTION 2>&1 | tee log",
         "coverage run -m isolate.running.child --list /l discover -s tests -p 'test_*.py' 2>&1 | tee log"),
        ("python -m subunit.run $IDLIST",
         "python -m isolate.running.child --list /l "),
    ],
)
def test_testr_runner_is_replaced_and_the_rest_kept(tmp_path: Path, command: str, expected: str) -> None:
    (tmp_path / ".testr.conf").write_text(TESTR.format(command))
    project = find_project(tmp_path)
    assert project.kind == "testr"
    replaced, shell = runner_command(project, "isolate.running.child", ["--list", "/l"])
    assert shell and replaced == expected


def test_runner_span_ignores_look_alikes() -> None:
    assert runner_span("python -m subunit.runner x") is None
    assert runner_span("python -m subunit.run.other x") is None
    assert runner_span("echo -m subunit.run discover # comment") == (5, 29)
    assert runner_span("x -m subunit.run a#b") == (2, 20)


def test_placeholders_outside_the_runner_are_substituted() -> None:
    command = 'check-list $IDFILE && echo $IDLIST; wrap $IDOPTION $LISTOPT'
    out = substitute_placeholders(command, Path("/tmp/l st"), ["a.b", "c(d e)"], "--load-list $IDFILE")
    assert out == "check-list '/tmp/l st' && echo a.b 'c(d e)'; wrap --load-list '/tmp/l st' "
    assert shlex.split(out.split(";")[0])[-2:] == ["a.b", "c(d e)"]


def test_sample_suites_are_read(tmp_path: Path) -> None:
    samples = [d for d in sorted(SAMPLES.iterdir()) if (d / ".stestr.conf").exists()]
    if not samples:
        pytest.skip("no sample suites yet")
    for sample in samples:
        project = find_project(sample)
        assert project.kind == "stestr" and project.root == sample
        assert (sample / project.test_path).is_dir()
        (tmp_path / ".testr.conf").write_bytes((sample / ".testr.conf").read_bytes())
        testr = find_project(tmp_path)
        assert testr.test_path == project.test_path and testr.top_dir == "./"
        command, _ = runner_command(testr, "isolate.running.child", [])
        assert f"-m isolate.running.child discover -t ./ {project.test_path}" in command


def test_substituted_command_really_runs_through_the_shell(tmp_path: Path) -> None:
    """The rewritten testr command is valid shell: it starts a process that sees our arguments."""
    (tmp_path / ".testr.conf").write_text(TESTR.format(
        "A=1 \\\n  ${PYTHON:-%s} -m subunit.run discover -t ./ ${TP:-./t} $LISTOPT $IDOPTION" % sys.executable))
    project = find_project(tmp_path)
    command, _ = runner_command(project, "json.tool", [])
    command = str(command).replace("-m json.tool", "-c 'import sys; print(sys.argv[1:])'")
    out = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True, cwd=tmp_path)
    assert out.stdout.strip() == "['discover', '-t', './', './t']", out.stderr


def test_a_project_with_both_configurations_runs_with_the_one_of_the_hunts_repository(tmp_path: Path) -> None:
    """QA (a project midway from testr to stestr, both configurations and both repositories): a
    hunt of a run stored by testr ran its lists with .stestr.conf, without the variables and
    wrapper of .testr.conf's test_command (the polluter's rate read 0.676 against its 0.4). The
    hunt's repository kind decides; without one, the rule stays as it was."""
    (tmp_path / "t").mkdir()
    (tmp_path / ".stestr.conf").write_text("[DEFAULT]\ntest_path=./t\n")
    (tmp_path / ".testr.conf").write_text(TESTR.format(
        "RATE=0.4 ${PYTHON:-python} -m subunit.run discover -t ./ ./t $LISTOPT $IDOPTION"))
    (tmp_path / ".stestr").mkdir()
    (tmp_path / ".testrepository").mkdir()
    assert find_project(tmp_path, "testr").kind == "testr"
    assert "RATE=0.4" in str(runner_command(find_project(tmp_path, "testr"), "isolate.running.child", [])[0])
    assert find_project(tmp_path, "stestr").kind == "stestr"
    assert find_project(tmp_path).kind == "stestr"  # both repositories, no kind given: stestr, as before
