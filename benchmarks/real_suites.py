"""isolate against its peers on real open-source suites with known order-dependent tests.

Usage::

    python benchmarks/real_suites.py [--only NAME]... [--workdir DIR] [--time-budget 10m]
        [--jobs 1] [--parallel 1] [--no-peers] [--scan] [--signature any|recorded] [--json FILE]
    python benchmarks/real_suites.py --table-from FILE     # the table of a --json file again

Creating a venv takes minutes (pip, sdist builds): give the same ``--workdir`` again to reuse
them. The results of the latest measured run, with the commands, are in docs/real_suites.md.

For every entry of ``real_suites.toml`` (next to this file):

1. a venv under ``--workdir`` (default: a new temporary directory; never inside this repository),
   cached there between invocations: the pinned test requirements, ``detect-test-pollution`` for
   pytest projects, and isolate installed from *this checkout* (re-installed on every invocation);
   the project's pinned sdist is downloaded from PyPI (``pip download --no-binary :all:``),
   unpacked and installed;
2. a fresh copy of the unpacked sdist per invocation, where a failing order is laid out: a
   deterministic shuffle (``seed``) of up to ``predecessors`` of the suite's tests with every known
   polluter of the entry inserted at a random place, then the victim. If the victim does not fail
   in that order (a cleaner landed between polluter and victim) the next seed is tried;
3. the order becomes a stored run: pytest projects are run with the order on the command line
   (pytest keeps command-line order) and ``--isolate-record``; stestr projects are run in exactly
   that order by isolate's own runner (``python -m isolate.running.child``: ``stestr run
   --load-list`` would re-sort it, design.md section 3) and its subunit is stored with ``stestr
   load``. The extracted order is checked against the wanted one;
4. ``isolate extract`` then ``isolate bisect VICTIM --json --time-budget ... --jobs ... [--scan]``;
5. the peers on the same stored order: ``stestr run --analyze-isolation`` (stestr projects),
   ``detect-test-pollution --failing-test VICTIM --testids-file ORDER`` (pytest projects), and a
   one-by-one scan (each predecessor alone before the victim, once, in the recorded order, through
   ``isolate replay``; it stops at the first that fails the recorded way).

The ground truth of an entry (``polluters``) was established by hand: the victim passes alone and
fails after each listed test alone, in one process; for most entries the list is every test of the
suite that does so (the manifest says when it is not).

The table: ``right?`` is ``yes`` when every test isolate names is a true polluter (``yes 1/3``:
it named one of three), ``wrong`` when it names another test, otherwise the verdict
(``undecided``, ``fails-alone``, ``not-reproduced``, ``crash``). Runs and seconds are as each tool
reports or as counted here (stored stestr runs for analyze-isolation, pytest sessions for
detect-test-pollution, replays for the scan); seconds are wall clock.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
MANIFEST = Path(__file__).with_name("real_suites.toml")
PYTEST_OFF = ["-p", "no:randomly", "-p", "no:cacheprovider", "-p", "no:xdist"]


@dataclass(frozen=True)
class Entry:
    name: str
    sdist: str  # "six==1.17.0": the pinned PyPI sdist that ships the tests
    requirements: tuple[str, ...]  # pinned test requirements
    runner: str  # "pytest" or "stestr"
    test_path: str  # pytest: what to collect; stestr: the discover path
    top_dir: str
    victim: str
    polluters: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]  # both needed, in this order (found after a hunt named them)
    predecessors: int
    seed: int
    source: str
    notes: str


@dataclass
class Outcome:
    answer: str = "not run"
    named: list[str] = field(default_factory=list)
    runs: int | None = None
    seconds: float | None = None
    detail: str = ""


@dataclass
class Result:
    entry: Entry
    status: str = "not run"  # "ok" or why the entry could not be measured
    order: list[str] = field(default_factory=list)
    seed: int = 0
    isolate: Outcome = field(default_factory=Outcome)
    analyze_isolation: Outcome = field(default_factory=Outcome)
    dtp: Outcome = field(default_factory=Outcome)
    scan: Outcome = field(default_factory=Outcome)


def load_manifest(path: Path = MANIFEST) -> list[Entry]:
    data = tomllib.loads(path.read_text())
    entries = []
    for item in data["project"]:
        entries.append(
            Entry(
                name=item["name"],
                sdist=item["sdist"],
                requirements=tuple(item.get("requirements", [])),
                runner=item.get("runner", "pytest"),
                test_path=item.get("test_path", "."),
                top_dir=item.get("top_dir", "."),
                victim=item["victim"],
                polluters=tuple(item["polluters"]),
                pairs=tuple((a, b) for a, b in item.get("pairs", [])),
                predecessors=int(item.get("predecessors", 60)),
                seed=int(item.get("seed", 1)),
                source=item.get("source", ""),
                notes=item.get("notes", ""),
            )
        )
    return entries


def log(entry: Entry, message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {entry.name}: {message}", file=sys.stderr, flush=True)


def sh(
    cmd: list[str], cwd: Path, env: dict[str, str], timeout: float | None = None, stdin: Any = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, stdin=stdin
    )


def checked(proc: subprocess.CompletedProcess[str], what: str) -> subprocess.CompletedProcess[str]:
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise RuntimeError(f"{what} exited {proc.returncode}: {' | '.join(tail)}")
    return proc


# --- set-up -------------------------------------------------------------------------------------


def venv_env(venv: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    env["NO_COLOR"] = "1"
    return env


def unpack(archive: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(dest)
    else:
        with tarfile.open(archive) as tf:
            tf.extractall(dest, filter="data")
    (top,) = [p for p in dest.iterdir() if p.is_dir()]
    return top


def setup(entry: Entry, workdir: Path, wheel: Path) -> tuple[Path, Path, dict[str, str]]:
    """The venv (cached) and a fresh copy of the unpacked sdist; returns (project, venv, env)."""
    base = workdir / entry.name
    venv = base / "venv"
    key = hashlib.sha256(
        json.dumps([entry.sdist, entry.requirements, entry.runner]).encode()
    ).hexdigest()[:16]
    ready = venv / f".ready-{key}"
    env = venv_env(venv)
    pristine_dir = base / "sdist"
    if not ready.exists():
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir(parents=True)
        log(entry, f"creating venv in {venv}")
        checked(sh([sys.executable, "-m", "venv", str(venv)], base, os.environ.copy()), "venv")
        pip = [str(venv / "bin" / "python"), "-m", "pip", "-q"]
        dl = base / "download"
        checked(
            sh(pip + ["download", "--no-deps", "--no-binary", ":all:", "-d", str(dl), entry.sdist],
               base, env),
            f"pip download {entry.sdist}",
        )
        (archive,) = list(dl.iterdir())
        unpack(archive, pristine_dir)
        extra = ["detect-test-pollution==1.2.0"] if entry.runner == "pytest" else []
        checked(sh(pip + ["install", *entry.requirements, *extra], base, env), "pip install requirements")
        (src,) = list(pristine_dir.iterdir())
        checked(sh(pip + ["install", str(src)], base, env), f"pip install {entry.sdist}")
        checked(sh(pip + ["install", str(wheel)], base, env), "pip install isolate and its dependencies")
        ready.touch()
    # isolate from this checkout, every time (the checkout may have changed since the venv was made)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "-q"]
    checked(
        sh(pip + ["install", "--no-deps", "--force-reinstall", str(wheel)], base, env), "pip install isolate"
    )
    (src,) = list(pristine_dir.iterdir())
    project = base / "run"
    shutil.rmtree(project, ignore_errors=True)
    shutil.copytree(src, project)
    if entry.runner == "pytest" and not has_pytest_config(project):
        # isolate replays pytest projects it can recognise; an empty pytest.ini changes nothing else
        (project / "pytest.ini").write_text("[pytest]\n")
    return project, venv, env


def has_pytest_config(project: Path) -> bool:
    markers = {"pytest.ini": "", ".pytest.ini": "", "pyproject.toml": "[tool.pytest",
               "tox.ini": "[pytest]", "setup.cfg": "[tool:pytest]"}
    for name, marker in markers.items():
        path = project / name
        if path.exists() and marker in path.read_text(errors="replace"):
            return True
    return False


def build_isolate(workdir: Path) -> Path:
    """One wheel of this checkout for every venv (building it once per venv is slow)."""
    wheels = workdir / "isolate-wheel"
    shutil.rmtree(wheels, ignore_errors=True)
    checked(sh([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(REPO)],
               workdir, os.environ.copy()), "pip wheel isolate")
    (wheel,) = list(wheels.glob("*.whl"))
    return wheel


# --- the suite and the order ---------------------------------------------------------------------

UNITTEST_IDS = """
import sys, unittest
def walk(s):
    for t in s:
        if isinstance(t, unittest.TestSuite):
            yield from walk(t)
        else:
            yield t.id()
suite = unittest.TestLoader().discover(sys.argv[1], top_level_dir=sys.argv[2])
for i in walk(suite):
    if not i.startswith("unittest.loader."):
        print(i)
"""


def collect(entry: Entry, project: Path, env: dict[str, str]) -> list[str]:
    if entry.runner == "pytest":
        # one -q lists node ids; a project whose addopts hold --verbose (dotty-dict) needs two
        for quiet in ("-q", "-qq"):
            proc = sh(["python", "-m", "pytest", *PYTEST_OFF, "--collect-only", quiet, entry.test_path],
                      project, env)
            ids = [line for line in proc.stdout.splitlines() if "::" in line and " " not in line]
            if ids:
                break
    else:
        proc = sh(["python", "-c", UNITTEST_IDS, entry.test_path, entry.top_dir], project, env)
        ids = [line for line in proc.stdout.splitlines() if line.strip()]
    if not ids:
        said = " ".join((proc.stderr or proc.stdout)[-300:].split())  # one line: it goes in a table row
        raise RuntimeError(f"collected no tests: {said}")
    return ids


def lay_out(entry: Entry, ids: list[str], seed: int) -> list[str]:
    """Up to ``predecessors`` tests shuffled by ``seed``, every polluter at a random place, victim last."""
    missing = [t for t in (entry.victim, *entry.polluters) if t not in ids]
    if missing:
        raise RuntimeError(f"not in the collected suite: {missing}")
    rng = random.Random(seed)
    others = [t for t in ids if t != entry.victim and t not in entry.polluters]
    rng.shuffle(others)
    preds = others[: max(0, entry.predecessors - len(entry.polluters))]
    for polluter in entry.polluters:
        preds.insert(rng.randrange(len(preds) + 1), polluter)
    return preds + [entry.victim]


def store_run(entry: Entry, project: Path, env: dict[str, str], order: list[str]) -> bool:
    """Run ``order`` once as a stored run; True if the victim failed in it."""
    if entry.runner == "pytest":
        rec = project / ".isolate-rec"
        shutil.rmtree(rec, ignore_errors=True)
        proc = sh(["python", "-m", "pytest", *PYTEST_OFF, "-q", "-rfE", "--tb=short",
                   "--isolate-record", str(rec), *order], project, env)
        return bool(re.search(r"^(FAILED|ERROR) " + re.escape(entry.victim) + r"( |$)",
                              proc.stdout, re.M))
    (project / ".stestr.conf").write_text(
        f"[DEFAULT]\ntest_path={entry.test_path}\ntop_dir={entry.top_dir}\n"
    )
    shutil.rmtree(project / ".stestr", ignore_errors=True)
    listing = project / ".order.txt"
    listing.write_text("\n".join(order) + "\n")
    stream = project / ".order.subunit"
    checked(sh(["python", "-m", "isolate.running.child", "--list", str(listing), "--stream",
                str(stream), "--error-file", str(project / ".order.err"), "discover", "-t",
                entry.top_dir, entry.test_path], project, env), "exact-order run")
    checked(sh(["stestr", "init"], project, env), "stestr init")
    with stream.open("rb") as fh:
        sh(["stestr", "load"], project, env, stdin=fh)  # exits 1 when the run has failures
    failing = sh(["stestr", "failing", "--list"], project, env).stdout.split()
    return entry.victim in failing


def extract(entry: Entry, project: Path, env: dict[str, str], order: list[str]) -> None:
    cmd = ["isolate", "extract", "--force", "--test", entry.victim, "-o", ".extracted.txt"]
    if entry.runner == "pytest":
        cmd += ["--stream", ".isolate-rec"]
    checked(sh(cmd, project, env), "isolate extract")
    got = (project / ".extracted.txt").read_text().split("\n")
    got = [line for line in got if line]
    if got != order:
        raise RuntimeError(f"extracted order differs from the wanted one ({len(got)} vs {len(order)} ids)")


# --- the contenders -------------------------------------------------------------------------------


def run_isolate(
    entry: Entry, project: Path, env: dict[str, str], budget: str, jobs: int, any_failure: bool,
    scan: bool = False,
) -> Outcome:
    start = time.monotonic()
    proc = sh(["isolate", "bisect", entry.victim, "--json", "--time-budget", budget,
               "--jobs", str(jobs), *(["--any-failure"] if any_failure else []),
               *(["--scan"] if scan else [])], project, env)
    wall = time.monotonic() - start
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
        return Outcome("crash", [], None, wall, f"exit {proc.returncode}: {tail[0][:200]}")
    named = list(data.get("culprits") or [])
    causes = data.get("causes")
    if causes:
        named = sorted({t for c in causes for t in c.get("tests", [])}) or named
    return Outcome(data.get("verdict", "?"), named, data.get("runs"), wall,
                   f"confidence {data.get('confidence')}")


def run_analyze_isolation(entry: Entry, project: Path, env: dict[str, str]) -> Outcome:
    before = int((project / ".stestr" / "next-stream").read_text())
    start = time.monotonic()
    proc = sh(["stestr", "run", "--analyze-isolation"], project, env, timeout=3600)
    wall = time.monotonic() - start
    after = int((project / ".stestr" / "next-stream").read_text())
    text = proc.stdout + proc.stderr
    # stestr ends with a table "failing test | caused by test"; "unknown - no conflicts" when its
    # halving did not end at a test; no table when the victim passed alone (it is then not bisected)
    rows = re.findall(r"^\s*" + re.escape(entry.victim) + r"\s+(.+?)\s*$", text, re.M)
    m = rows[-1] if rows else None
    cause = m.strip() if m else ""
    named = [cause] if cause and not cause.startswith("unknown") else []
    answer = "named" if named else ("no cause found" if m else "not bisected")
    detail = " | ".join(text.strip().splitlines()[-3:])[:300]
    return Outcome(answer, named, after - before, wall, detail)


def run_dtp(entry: Entry, project: Path, env: dict[str, str], order: list[str]) -> Outcome:
    ids = project / ".dtp-ids.txt"
    ids.write_text("\n".join(order) + "\n")
    start = time.monotonic()
    try:
        proc = sh(["detect-test-pollution", "--failing-test", entry.victim, "--testids-file",
                   str(ids)], project, env, timeout=3600)
    except subprocess.TimeoutExpired:
        return Outcome("timeout", [], None, time.monotonic() - start)
    wall = time.monotonic() - start
    text = proc.stdout + proc.stderr
    m = re.search(r"the polluting test is: (\S+)", text)
    steps = len(re.findall(r"^running step", text, re.M))
    # victim alone, victim after everything, the steps, the double check
    runs = 2 + steps + (1 if "double checking" in text else 0)
    if m:
        return Outcome("named", [m.group(1)], runs, wall)
    last = text.strip().splitlines()[-1:] or [""]
    return Outcome("crash" if proc.returncode not in (0, 1) else "none named", [], runs, wall,
                   f"exit {proc.returncode}: {last[0][:200]}")


def run_scan(
    entry: Entry, project: Path, env: dict[str, str], order: list[str], any_failure: bool
) -> Outcome:
    """Each predecessor alone before the victim, once, in the recorded order; stop at the first failure."""
    hunts = [p for p in (project / ".isolate").iterdir() if (p / "failure.txt").exists()]
    signature = ["--any-failure"]
    if hunts and not any_failure:
        signature = ["--signature-from", str(hunts[0] / "failure.txt")]
    pair = project / ".scan-pair.txt"
    start = time.monotonic()
    for runs, test in enumerate(order[:-1], start=1):
        pair.write_text(f"{test}\n{entry.victim}\n")
        proc = sh(["isolate", "replay", str(pair), "--times", "1", "--jobs", "1", *signature],
                  project, env, timeout=600)
        if proc.returncode == 1:
            return Outcome("named", [test], runs, time.monotonic() - start)
        if proc.returncode not in (0, 1):
            last = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
            return Outcome("crash", [], runs, time.monotonic() - start, last[0][:200])
    return Outcome("none named", [], len(order) - 1, time.monotonic() - start)


# --- one entry, the table -------------------------------------------------------------------------


def measure(
    entry: Entry, workdir: Path, wheel: Path, budget: str, jobs: int, peers: bool, any_failure: bool,
    scan: bool = False,
) -> Result:
    result = Result(entry)
    try:
        project, _venv, env = setup(entry, workdir, wheel)
        ids = collect(entry, project, env)
        for seed in range(entry.seed, entry.seed + 10):
            order = lay_out(entry, ids, seed)
            if store_run(entry, project, env, order):
                result.order, result.seed = order, seed
                break
            log(entry, f"seed {seed}: the victim passed in that order; next seed")
        else:
            result.status = "the victim never failed in 10 orders"
            return result
        extract(entry, project, env, result.order)
        log(entry, f"stored a failing order of {len(result.order) - 1} predecessors (seed {result.seed}); hunting")
        result.isolate = run_isolate(entry, project, env, budget, jobs, any_failure, scan)
        log(entry, f"isolate: {result.isolate.answer} {result.isolate.named} in {result.isolate.runs} runs")
        if peers:
            if entry.runner == "stestr":
                result.analyze_isolation = run_analyze_isolation(entry, project, env)
                log(entry, f"analyze-isolation: {result.analyze_isolation.answer}")
            else:
                result.dtp = run_dtp(entry, project, env, result.order)
                log(entry, f"detect-test-pollution: {result.dtp.answer} {result.dtp.named}")
            result.scan = run_scan(entry, project, env, result.order, any_failure)
            log(entry, f"one-by-one: {result.scan.answer} {result.scan.named} in {result.scan.runs} runs")
        result.status = "ok"
    except Exception as exc:  # one broken entry must not lose the others' results
        result.status = f"error: {exc}"
        log(entry, result.status)
    return result


def causes_of(entry: Entry) -> list[frozenset[str]]:
    return [frozenset([p]) for p in entry.polluters] + [frozenset(pair) for pair in entry.pairs]


def judge(named: list[str], answer: str, entry: Entry) -> str:
    """``yes`` if every named test belongs to a true cause (``yes k/n``: k of n causes named)."""
    if not named:
        return answer
    causes = causes_of(entry)
    if not set(named) <= set().union(*causes):
        return "wrong"
    found = sum(1 for cause in causes if cause <= set(named))
    return "yes" if len(causes) == 1 else f"yes {found}/{len(causes)}"


def short(test: str) -> str:
    return re.split(r"::|\.(?=test)", test)[-1] if test else test


def cell(outcome: Outcome, entry: Entry, applicable: bool = True) -> str:
    if not applicable:
        return "n/a"
    if outcome.answer == "not run":
        return "not run"
    verdict = judge(outcome.named, outcome.answer, entry)
    runs = "?" if outcome.runs is None else str(outcome.runs)
    secs = "?" if outcome.seconds is None else f"{outcome.seconds:.0f}"
    return f"{verdict} / {runs} / {secs}s"


def table(results: list[Result]) -> str:
    head = ("| project | runner | victim | true causes | preds | isolate: right? | isolate named | "
            "isolate runs / s | analyze-isolation | detect-test-pollution | one-by-one scan |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in results:
        e = r.entry
        names = [short(p) for p in e.polluters] + [" + ".join(short(t) for t in pair) for pair in e.pairs]
        causes = f"{len(names)}: " + ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
        if r.status != "ok":
            lines.append(f"| {e.name} | {e.runner} | {short(e.victim)} | {causes} | | "
                         f"{r.status[:120]} | | | | | |")
            continue
        iso = r.isolate
        named = ", ".join(short(t) for t in iso.named) or "—"
        lines.append(
            f"| {e.name} | {e.runner} | {short(e.victim)} | {causes} | {len(r.order) - 1} | "
            f"{judge(iso.named, iso.answer, e)} ({iso.answer}) | {named} | "
            f"{iso.runs} / {0 if iso.seconds is None else iso.seconds:.0f}s | "
            f"{cell(r.analyze_isolation, e, e.runner == 'stestr')} | "
            f"{cell(r.dtp, e, e.runner == 'pytest')} | {cell(r.scan, e)} |"
        )
    return "\n".join(lines)


def as_json(r: Result) -> dict[str, Any]:
    def out(o: Outcome) -> dict[str, Any]:
        return {"answer": o.answer, "named": o.named, "runs": o.runs, "seconds": o.seconds,
                "detail": o.detail}
    return {"name": r.entry.name, "sdist": r.entry.sdist, "victim": r.entry.victim,
            "polluters": list(r.entry.polluters), "pairs": [list(p) for p in r.entry.pairs],
            "status": r.status, "seed": r.seed,
            "predecessors": max(0, len(r.order) - 1), "isolate": out(r.isolate),
            "analyze_isolation": out(r.analyze_isolation), "detect_test_pollution": out(r.dtp),
            "one_by_one": out(r.scan)}


def from_json(data: list[dict[str, Any]], entries: list[Entry]) -> list[Result]:
    by_name = {e.name: e for e in entries}

    def outcome(d: dict[str, Any]) -> Outcome:
        return Outcome(d["answer"], d["named"], d["runs"], d["seconds"], d.get("detail", ""))

    results = []
    for item in data:
        r = Result(by_name[item["name"]], status=item["status"], seed=item["seed"])
        r.order = ["?"] * (item["predecessors"] + 1)
        r.isolate = outcome(item["isolate"])
        r.analyze_isolation = outcome(item["analyze_isolation"])
        r.dtp = outcome(item["detect_test_pollution"])
        r.scan = outcome(item["one_by_one"])
        results.append(r)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], help="entry name (repeatable)")
    parser.add_argument("--workdir", type=Path, help="venvs and copies (default: a temp dir)")
    parser.add_argument("--time-budget", default="10m", help="isolate bisect --time-budget")
    parser.add_argument("--jobs", type=int, default=1, help="isolate bisect --jobs")
    parser.add_argument("--parallel", type=int, default=1, help="entries measured at once")
    parser.add_argument("--no-peers", action="store_true", help="only isolate")
    parser.add_argument("--scan", action="store_true", help="isolate bisect --scan")
    parser.add_argument(
        "--signature", choices=["any", "recorded"], default="any",
        help="what counts as the victim failing in a replay, for isolate and the scan: any failure "
        "(default; the ground truth of the manifest is 'fails after the polluter', any failure, "
        "as detect-test-pollution and analyze-isolation judge) or only the recorded way "
        "(isolate's default)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--table-from", type=Path,
                        help="print the table of a --json file again (judged by the manifest) and exit")
    opts = parser.parse_args(argv)
    entries = load_manifest(opts.manifest)
    if opts.table_from:
        print(table(from_json(json.loads(opts.table_from.read_text()), entries)))
        return 0
    if opts.only:
        unknown = set(opts.only) - {e.name for e in entries}
        if unknown:
            parser.error(f"not in the manifest: {', '.join(sorted(unknown))}")
        entries = [e for e in entries if e.name in opts.only]
    workdir = (opts.workdir or Path(tempfile.mkdtemp(prefix="isolate-real-"))).resolve()
    if workdir == REPO or REPO in workdir.parents:
        parser.error("--workdir must be outside the repository")
    workdir.mkdir(parents=True, exist_ok=True)
    print(f"workdir: {workdir}", file=sys.stderr)
    wheel = build_isolate(workdir)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.parallel)) as pool:
        results = list(pool.map(
            lambda e: measure(e, workdir, wheel, opts.time_budget, opts.jobs, not opts.no_peers,
                              opts.signature == "any", opts.scan),
            entries))
    print(table(results))
    if opts.json:
        opts.json.write_text(json.dumps([as_json(r) for r in results], indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
