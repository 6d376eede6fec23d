"""Bad input through the real `isolate` command: a real hunt (stestr run of a sample suite,
extract, three runs of bisect), then one corruption per case. Every case must end in one line
`isolate: error: <cause>; <fix>` with exit 2 and leave every file of the project as it was,
or (where reading on is right) warn and go on; never a traceback.

The readers themselves get many more bad inputs in process: tests/hunt/test_bad_files.py,
tests/orders/test_stream.py, tests/hunt/test_journal.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import assert_user_error, env, isolate, recording, tool

VICTIM = "reportgen.tests.core.test_report.ReportHeaderTest.test_header_uses_default_currency"
SHORT = "test_header_uses_default_currency"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A suite with a stored run and a hunt that has a journal, queries, steps and a verdict.
    The stored run is conftest.recording()'s (a parallel stestr run, made once per session, in
    which the victim failed), extracted as `isolate extract` would (the only failure is VICTIM)."""
    suite = recording("deterministic_polluter", tmp_path_factory.mktemp("base"), VICTIM)
    proc = isolate(suite, "bisect", SHORT, "--max-runs", "3", "--json")
    assert proc.returncode in (0, 5), proc.stderr
    return suite


def hunt_dir(suite: Path) -> Path:
    [path] = (suite / ".isolate").iterdir()
    return path


def snapshot(suite: Path) -> dict[str, bytes | None]:
    """Every file of the project (bytes) and directory (None), caches left out."""
    out: dict[str, bytes | None] = {}
    for path in sorted(suite.rglob("*")):
        if "__pycache__" in path.parts:
            continue
        rel = str(path.relative_to(suite))
        out[rel] = path.read_bytes() if path.is_file() and os.access(path, os.R_OK) else None
    return out


def write(name: str, data: bytes | str) -> Callable[[Path, Path], None]:
    def mutate(suite: Path, hunt: Path) -> None:
        target = hunt / name
        if target.is_dir():
            shutil.rmtree(target)
        target.unlink(missing_ok=True)
        target.write_bytes(data.encode() if isinstance(data, str) else data)
    return mutate


def as_dir(name: str) -> Callable[[Path, Path], None]:
    def mutate(suite: Path, hunt: Path) -> None:
        (hunt / name).unlink(missing_ok=True)
        (hunt / name).mkdir()
    return mutate


def search(**values: object) -> Callable[[Path, Path], None]:
    """hunt.json with these stored search settings (json.dumps writes NaN/Infinity for floats)."""
    def mutate(suite: Path, hunt: Path) -> None:
        data = json.loads((hunt / "hunt.json").read_text())
        data["search"] = {**data.get("search", {}), **values}
        (hunt / "hunt.json").write_text(json.dumps(data))
    return mutate


def top(**values: object) -> Callable[[Path, Path], None]:
    def mutate(suite: Path, hunt: Path) -> None:
        data = json.loads((hunt / "hunt.json").read_text())
        data.update(values)
        (hunt / "hunt.json").write_text(json.dumps(data))
    return mutate


def isolate_is_a_file(suite: Path, hunt: Path) -> None:
    shutil.rmtree(suite / ".isolate")
    (suite / ".isolate").write_text("not a directory\n")


def in_suite(name: str, data: bytes | str) -> Callable[[Path, Path], None]:
    def mutate(suite: Path, hunt: Path) -> None:
        (suite / name).write_bytes(data.encode() if isinstance(data, str) else data)
    return mutate


def unfinished(mutate: Callable[[Path, Path], None]) -> Callable[[Path, Path], None]:
    """`mutate`, and the hunt's verdict gone: a bisect of it must run (a finished hunt asked
    nothing new shows its verdict, reading no project file)."""
    def both(suite: Path, hunt: Path) -> None:
        (hunt / "verdict.json").unlink()
        mutate(suite, hunt)
    return both


def no_hunt(suite: Path, hunt: Path) -> None:
    shutil.rmtree(suite / ".isolate")


def nothing(suite: Path, hunt: Path) -> None:
    pass


HUNT_COMMANDS = (("status", SHORT), ("log", SHORT), ("bisect", SHORT), ("backtrack", SHORT, "0"), ("extract",))
CORRUPT_HUNT_JSON = {
    "not-json": write("hunt.json", "{"),
    "empty": write("hunt.json", ""),
    "list": write("hunt.json", "[]"),
    "string": write("hunt.json", '"hunt"'),
    "null": write("hunt.json", "null"),
    "non-utf8": write("hunt.json", b'{"victim": "\xff"}'),
    "directory": as_dir("hunt.json"),
    "no-victim": top(victim=None),
    "victim-int": top(victim=5),
    "victim-empty": top(victim=""),
    "source-list": top(source=[]),
    "source-kind": top(source={"kind": 5}),
    "search-list": top(search=[]),
    "search-string": top(search="fast"),
    "timeout-inf": search(timeout=float("inf")),
    "timeout-nan": search(timeout=float("nan")),
    "timeout-string": search(timeout="60"),
    "timeout-negative": search(timeout=-1),
    "confidence-string": search(confidence="high"),
    "confidence-nan": search(confidence=float("nan")),
    "confidence-5": search(confidence=5),
    "jobs-string": search(jobs="two"),
    "jobs-float": search(jobs=1.5),
    "jobs-bool": search(jobs=True),
    "max-runs-zero": search(max_runs=0),
    "strategy": search(strategy=3),
    "mode": search(mode="threads"),
    "any-failure": search(any_failure="yes"),
    "pytest-args": search(pytest_args="-x"),
    "time-budget": search(time_budget="8h"),
    "step-budget": search(step_budget=-5),
}
# every command that finds the hunt must name the corrupt file instead of "no hunt" / "exists"
CASES: list[tuple[str, Callable[[Path, Path], None], tuple[str, ...], str]] = [
    (f"hunt.json-{name}-{args[0]}", mutate, args, "hunt.json")
    for name, mutate in CORRUPT_HUNT_JSON.items()
    for args in (HUNT_COMMANDS if name in ("not-json", "list", "no-victim", "timeout-inf", "directory")
                 else HUNT_COMMANDS[2:3])
]
CASES += [
    (f"{name}-{'-'.join(args)}", mutate, args, fragment)
    for name, mutate, fragment, commands in [
        ("journal-directory", as_dir("journal.jsonl"), "journal", HUNT_COMMANDS),
        ("isolate-is-a-file", isolate_is_a_file, ".isolate is not a directory", HUNT_COMMANDS),
        ("step-directory", as_dir("step-001.txt"), "step-001.txt", HUNT_COMMANDS[:4]),
        ("order-directory", as_dir("order.txt"), "order.txt", (("status",), ("bisect", SHORT))),
        ("order-non-utf8", write("order.txt", b"a\n\xff\n"), "not UTF-8", (("status",), ("bisect", SHORT))),
        ("order-nul", write("order.txt", b"a\0b\n"), "NUL", (("status",), ("bisect", SHORT))),
        ("failure-directory", as_dir("failure.txt"), "failure.txt", (("bisect", SHORT),)),
        ("failure-non-utf8", write("failure.txt", b"Traceback \xff\xfe\n"), "not UTF-8", (("bisect", SHORT),)),
        ("durations-list", write("durations.json", "[1, 2]"), "durations.json", (("status",), ("bisect", SHORT))),
        ("durations-string", write("durations.json", f'{{"{VICTIM}": "slow"}}'), "durations.json",
         (("status",), ("bisect", SHORT))),
        ("durations-nan", write("durations.json", f'{{"{VICTIM}": NaN}}'), "durations.json",
         (("status",), ("bisect", SHORT))),
        ("durations-infinity", write("durations.json", f'{{"{VICTIM}": Infinity}}'), "durations.json",
         (("status",), ("bisect", SHORT))),
        ("durations-negative", write("durations.json", f'{{"{VICTIM}": -3}}'), "durations.json",
         (("status",), ("bisect", SHORT))),
        ("durations-not-json", write("durations.json", "{"), "durations.json", (("status",), ("bisect", SHORT))),
        ("durations-directory", as_dir("durations.json"), "durations", (("status",), ("bisect", SHORT))),
        ("verdict-empty-object", write("verdict.json", "{}"), "verdict.json", (("status",), ("log", SHORT))),
        ("verdict-kind", write("verdict.json", '{"verdict": 5}'), "verdict.json", (("status",), ("log", SHORT))),
        ("verdict-no-confidence", write("verdict.json", '{"verdict": "polluter", "culprits": []}'),
         "verdict.json", (("status",), ("log", SHORT))),
        ("verdict-culprits", write("verdict.json", '{"verdict": "polluter", "confidence": 1, "culprits": [1]}'),
         "verdict.json", (("log", SHORT),)),
        ("verdict-nan", write("verdict.json", '{"verdict": "polluter", "confidence": NaN, "culprits": []}'),
         "verdict.json", (("log", SHORT),)),
        ("verdict-list", write("verdict.json", "[]"), "verdict.json", (("status",), ("log", SHORT))),
        ("verdict-non-utf8", write("verdict.json", b"\xff"), "verdict.json", (("status",), ("log", SHORT))),
        ("verdict-directory", as_dir("verdict.json"), "verdict.json", (("status",), ("log", SHORT))),
        ("queries-directory", as_dir("queries.jsonl"), "queries.jsonl", (("log", SHORT), ("backtrack", SHORT, "0"))),
        ("stestr-conf-no-dir", unfinished(in_suite(".stestr.conf", "[DEFAULT]\ntest_path=./gone\n")), "test_path",
         (("bisect", SHORT),)),
        ("stestr-conf-non-utf8", unfinished(in_suite(".stestr.conf", b"[DEFAULT]\ntest_path=\xff\n")), ".stestr.conf",
         (("bisect", SHORT),)),
        ("stestr-conf-no-test-path", unfinished(in_suite(".stestr.conf", "[DEFAULT]\ntop_dir=./\n")), "test_path",
         (("bisect", SHORT),)),
        ("stestr-format", in_suite(".stestr/format", "2\n"), "format", (("runs",), ("extract", "--force"))),
        ("run-garbage", in_suite(".stestr/0", b"\x00garbage\xff\n" * 10), "no subunit test records",
         (("extract", "--force"),)),
        ("run-empty", in_suite(".stestr/0", b""), "no subunit test records", (("extract", "--force"),)),
    ]
    for args in commands
]
CASES += [
    (f"option-{'-'.join(args)}", nothing, args, fragment)
    for args, fragment in [
        (("bisect", SHORT, "--timeout", "inf"), "--timeout"),
        (("bisect", SHORT, "--timeout", "nan"), "--timeout"),
        (("bisect", SHORT, "--timeout", "-inf"), "--timeout"),
        (("bisect", SHORT, "--timeout", "0"), "--timeout"),
        (("bisect", SHORT, "--timeout", "1e999"), "--timeout"),
        (("bisect", SHORT, "--confidence", "nan"), "--confidence"),
        (("bisect", SHORT, "--confidence", "inf"), "--confidence"),
        (("bisect", SHORT, "--confidence", "1"), "--confidence"),
        (("bisect", SHORT, "--confidence", "0"), "--confidence 0.0 is not in [0.5, 1)"),
        (("bisect", SHORT, "--further", "2"), "--further"),
        (("bisect", SHORT, "--further", "nan"), "--further"),
        (("bisect", SHORT, "--strategy", "fastest"), "--strategy"),
        (("bisect", SHORT, "--time-budget", "0s"), "--time-budget"),
        (("bisect", SHORT, "--time-budget", "nan"), "--time-budget"),
        (("bisect", SHORT, "--time-budget", "9" * 400 + "h"), "finite duration"),
        (("bisect", SHORT, "--jobs", "0"), "--jobs"),
        (("bisect", SHORT, "--max-runs", "-1"), "--max-runs"),
        (("bisect", SHORT, "--pytest-arg", "-x"), "--pytest-arg"),
        (("bisect", SHORT, "--strategy", "manual", "--scan"), "--scan does not apply to --strategy manual"),
        (("bisect", SHORT, "--strategy", "manual", "--cleaners"), "--cleaners does not apply to --strategy manual"),
        (("replay", "STEP", "--timeout", "inf"), "--timeout"),
        (("replay", "STEP", "--timeout", "nan"), "--timeout"),
        (("replay", "STEP", "--timeout", "0"), "--timeout"),
        (("replay", "STEP", "--times", "0"), "--times"),
        (("plan", "--tests", "9", "--rate", "nan"), "--rate"),
        (("plan", "--tests", "9", "--rate", "0.1", "--duration", "inf"), "--duration"),
        (("plan", "--tests", "9", "--rate", "0.1", "--duration", "nan"), "--duration"),
        (("plan", "--tests", "9", "--rate", "0.1", "--startup", "inf"), "--startup"),
        (("plan", "--tests", "9", "--rate", "0.1", "--startup", "nan"), "--startup"),
        (("plan", "--tests", "9", "--rate", "0.1", "--confidence", "nan"), "--confidence"),
        (("plan", "--tests", "9", "--rate", "0.1", "--duration", "0", "--startup", "0"), "both 0"),
        (("plan", "--tests", "9", "--rate", "0.1", "--startup", "1e308"), "--startup"),
        (("plan", "--tests", "1000000", "--rate", "0.1"), "more than plan simulates"),
        (("plan", "--tests", "9", "--rate", "1e-300"), "--rate"),
        (("bisect", SHORT, "--history", ".stestr.conf"), "stestr.conf holds no subunit test records"),
        (("bisect", SHORT, "--history-since", "abc"), "--history-since 'abc' is not a run id"),
        (("bisect", SHORT, "--history-since", "0", "--no-history"), "--history-since and --no-history contradict"),
        (("verify", SHORT, "--timeout", "nan"), "finite number of seconds"),
        (("verify", SHORT, "--timeout", "inf"), "finite number of seconds"),
        (("verify", SHORT, "--confidence", "0.01"), "--confidence"),
        (("replay", "STEP", "--scheduler", "tcp://localhost"), "missing port number"),
        (("extract", "--force", "-o", "."), "is a directory"),
        (("extract", "--force", "-o", ""), "the file name is empty"),
        (("report", SHORT, "--html", ""), "the file name is empty"),
        (("extract", "--force", "-o", "missing/order.txt"), "missing is not a directory"),
        (("extract", "--stream", "nowhere.subunit"), "does not exist"),
        (("extract", "--stream", ".stestr.conf"), "no subunit test records"),
        (("extract", "--run", "7"), "run 7 does not exist"),
        (("extract", "--test", "nosuch"), "not in run 0"),
        (("status", "nosuch"), "no hunt for 'nosuch'"),
        (("status", ""), "the test name '' is empty"),
        (("verify", " "), "the test name ' ' is empty"),
        (("log", ""), "the test name '' is empty"),
        (("resume", "nosuch"), "or with 'isolate bisect nosuch --run ID [--worker TAG]'"),
        (("status", "--repo", "nowhere"), "--repo nowhere is not a directory"),
        (("resume", SHORT, "--repo", "nowhere"), "--repo nowhere is not a directory"),
    ]
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_changes_nothing(
    tmp_path: Path, base: Path, case: tuple[str, Callable[[Path, Path], None], tuple[str, ...], str]
) -> None:
    _, mutate, args, fragment = case
    suite = tmp_path / "suite"
    shutil.copytree(base, suite, symlinks=True)
    hunt = hunt_dir(suite)
    step = str(hunt.relative_to(suite) / "step-000.txt")
    mutate(suite, hunt)
    before = snapshot(suite)
    proc = isolate(suite, *(step if a == "STEP" else a for a in args))
    assert_user_error(proc, fragment)
    assert snapshot(suite) == before, "a refused command must not change any file"


def test_corrupt_hunt_json_is_named_not_a_circle(tmp_path: Path, base: Path) -> None:
    """bisect used to say "no hunt" and extract "a hunt already exists": both name the file now."""
    suite = tmp_path / "suite"
    shutil.copytree(base, suite)
    (hunt_dir(suite) / "hunt.json").write_text("{")
    for args in (("bisect", SHORT), ("extract",)):
        proc = isolate(suite, *args)
        assert_user_error(proc, "hunt.json is corrupt", "extract --force")
        assert "no hunt" not in proc.stderr and "already exists" not in proc.stderr
    status = isolate(suite, "status")  # the other hunts stay visible; this one is warned about
    assert status.returncode == 0 and "warning: " in status.stderr and "hunt.json" in status.stderr
    assert isolate(suite, "extract", "--force").returncode == 0
    assert isolate(suite, "status", SHORT).returncode == 0


WRONG_TYPES = [
    '{"step": 0, "outcome": "fail", "reproduced": "false", "seconds": 0.5}',
    '{"step": true, "outcome": "fail", "reproduced": true, "seconds": 0.5}',
    '{"step": 0, "outcome": "fail", "reproduced": true, "seconds": NaN}',
    '{"step": 0, "outcome": "fail", "reproduced": true, "seconds": -1}',
    '{"step": 0, "outcome": "exploded", "reproduced": true, "seconds": 0.5}',
    b'{"step": 0, "outcome": "fail", "reproduced": true, "seconds": 0.5, "signature": "\xff"}',
]


@pytest.mark.parametrize("line", WRONG_TYPES, ids=range(len(WRONG_TYPES)))
def test_journal_entries_of_the_wrong_type_are_skipped_with_a_warning(tmp_path: Path, base: Path,
                                                                       line: str | bytes) -> None:
    suite = tmp_path / "suite"
    shutil.copytree(base, suite)
    journal = hunt_dir(suite) / "journal.jsonl"
    runs = len(journal.read_bytes().splitlines())
    with journal.open("ab") as fp:
        fp.write((line.encode() if isinstance(line, str) else line) + b"\n")
    log = isolate(suite, "log", SHORT)
    assert log.returncode == 0 and "Traceback" not in log.stderr, log.stderr
    assert f"skipped corrupt line {runs + 1} of" in log.stdout
    status = isolate(suite, "status", SHORT)
    assert status.returncode == 0, status.stderr
    assert f"{runs} runs" in status.stdout  # the bad entry is not counted, let alone as a reproduction
    assert f"warning: skipped corrupt line {runs + 1} of" in status.stdout  # and says so, as log does
    back = isolate(suite, "backtrack", SHORT, "0")  # reads the journal as bytes, bad line and all
    assert back.returncode == 0 and "Traceback" not in back.stderr, back.stderr


def test_a_lock_file_cut_empty_is_no_crash(tmp_path: Path, base: Path) -> None:
    suite = tmp_path / "suite"
    shutil.copytree(base, suite)
    (hunt_dir(suite) / "lock").write_text("")
    proc = isolate(suite, "status")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "pid ?" in proc.stdout


def test_a_garbage_run_is_listed_with_a_warning(tmp_path: Path, base: Path) -> None:
    suite = tmp_path / "suite"
    shutil.copytree(base, suite)
    (suite / ".stestr" / "1").write_bytes(b"\x00garbage\n")
    proc = isolate(suite, "runs")
    assert proc.returncode == 0, proc.stderr
    assert "warning: run 1 ran no test (an empty run, or a damaged one: " in proc.stdout, proc.stdout
    data = json.loads(isolate(suite, "runs", "--json").stdout)
    assert [r["run"] for r in data] == [0, 1]
    assert data[0]["tests"] > 100 and data[0]["failures"][0]["test"] == VICTIM
    assert data[1]["tests"] == 0 and data[1]["warnings"]


def _without_root_powers() -> list[str]:
    """A command prefix under which a mode-000 file is unreadable, root included (root reads
    everything unless it drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: no file is unreadable")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


@pytest.mark.parametrize("name", [".stestr/0", ".stestr.conf", "HUNT/journal.jsonl", "HUNT/queries.jsonl",
                                  "HUNT/failure.txt", "HUNT/hunt.json", "HUNT/verdict.json",
                                  "HUNT/durations.json"])
def test_unreadable_files(tmp_path: Path, base: Path, name: str) -> None:
    suite = tmp_path / "suite"
    shutil.copytree(base, suite)
    hunt = str(hunt_dir(suite).relative_to(suite))
    if name == ".stestr.conf":  # a bisect that must run reads it (a finished hunt's shows its verdict)
        (hunt_dir(suite) / "verdict.json").unlink()
    os.chmod(suite / name.replace("HUNT", hunt), 0)
    args = {".stestr/0": ("extract", "--force"), ".stestr.conf": ("bisect", SHORT),
            "HUNT/journal.jsonl": ("log", SHORT), "HUNT/queries.jsonl": ("log", SHORT),
            "HUNT/failure.txt": ("bisect", SHORT), "HUNT/hunt.json": ("bisect", SHORT),
            "HUNT/verdict.json": ("status",), "HUNT/durations.json": ("status",)}[name]
    raw = subprocess.run([*_without_root_powers(), tool("isolate"), *args], cwd=suite, capture_output=True,
                         env=env(), timeout=120)
    proc = subprocess.CompletedProcess(raw.args, raw.returncode, raw.stdout.decode(), raw.stderr.decode())
    assert_user_error(proc, "Permission denied", name.rsplit("/", 1)[-1])


@pytest.mark.parametrize("args", [("runs",), ("extract", "--force")])
def test_a_repository_that_cannot_be_listed(tmp_path: Path, base: Path, args: tuple[str, ...]) -> None:
    """`.stestr` searchable but not readable (mode 100): its `format` file reads, listing its runs
    was a PermissionError traceback."""
    suite = tmp_path / "suite"
    shutil.copytree(base, suite)
    os.chmod(suite / ".stestr", 0o100)
    try:
        raw = subprocess.run([*_without_root_powers(), tool("isolate"), *args], cwd=suite, capture_output=True,
                             env=env(), timeout=120)
    finally:
        os.chmod(suite / ".stestr", 0o755)
    proc = subprocess.CompletedProcess(raw.args, raw.returncode, raw.stdout.decode(), raw.stderr.decode())
    assert_user_error(proc, "Permission denied", ".stestr", "check its permissions")


def test_printed_commands_paste_into_bash(tmp_path: Path) -> None:
    """The hint for a scenario id like `test_render(json)` is a bash syntax error unless quoted;
    a hostile id must come out as one word, never as a command."""
    hostile = "t.T.test_x(json); touch PWNED"
    ids = ["t.T.test_a", hostile]
    stream = tmp_path / "hostile.subunit"
    stream.write_bytes(b"".join(
        f"tags: worker-0\ntest: {i}\n{'failure' if i == hostile else 'success'}: {i}\n".encode() for i in ids
    ))
    (tmp_path / ".stestr.conf").write_text("[DEFAULT]\ntest_path=.\n")
    proc = isolate(tmp_path, "extract", "--stream", str(stream))
    assert proc.returncode == 0, proc.stderr
    hint = proc.stderr.rsplit("Next: ", 1)[1].strip()
    _pasted_args_are(tmp_path, hint, ["bisect", hostile])
    from isolate.hunt.backtrack import backtrack
    from isolate.hunt.store import find_hunt
    from isolate.report.verdict import as_text
    from isolate.search.model import Problem, Verdict

    hunt = find_hunt(tmp_path, hostile)
    assert hunt is not None
    # a run to keep and one to set aside (a hunt without runs after the step has nothing to backtrack)
    (hunt.path / "journal.jsonl").write_text('{"step": 0, "outcome": "pass", "reproduced": false, "seconds": 0.1}\n'
                                             '{"step": 1, "outcome": "pass", "reproduced": false, "seconds": 0.1}\n')
    resume = backtrack(hunt, 0, print).rsplit("Resume with: ", 1)[1]
    _pasted_args_are(tmp_path, resume, ["bisect", hostile])
    odd = hunt.path.parent / "a dir; touch PWNED" / "reproducer.txt"
    odd.parent.mkdir()
    odd.write_text("t.T.test_a\n" + hostile + "\n")
    problem = Problem(("t.T.test_a",), hostile, (0.1,), 0.1, 0.1)
    verdict = Verdict("polluter", (0,), 0.99, 1.0, 0.0, ("x",), 3, 1.0)
    text = as_text(problem, verdict, hunt.path, odd, "stestr")
    replay = text.split("reproduce: ", 1)[1].splitlines()[0]
    _pasted_args_are(tmp_path, replay, ["replay", str(odd), "--times", "20"])
    stestr = text.split("or: ", 1)[1].splitlines()[0]
    # (from the project's root, where stestr finds its .stestr.conf: this process runs elsewhere)
    assert stestr.startswith(f"cd {tmp_path} && "), stestr
    _pasted_args_are(tmp_path, stestr, ["run", "--serial", "--load-list", str(odd.relative_to(tmp_path))],
                     program="stestr")
    # QA followed it after a hunt, and a later extract read that run: the line says stestr stores it
    assert stestr.endswith("    # stestr stores it as its newest run, which extract reads by default"), stestr
    assert not (tmp_path / "PWNED").exists()


def _pasted_args_are(cwd: Path, command: str, expected: list[str], program: str = "isolate") -> None:
    """Paste `command` into bash with `program` replaced by a stub that prints its arguments."""
    stub = cwd / "bin" / program
    stub.parent.mkdir(exist_ok=True)
    stub.write_text(f'#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n')
    stub.chmod(0o755)
    out = subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True,
                         env={**os.environ, "PATH": f"{stub.parent}{os.pathsep}{os.environ['PATH']}"})
    assert out.returncode == 0, (command, out.stderr)
    assert json.loads(out.stdout) == expected, command
