"""The hunt directory `.isolate/<hunt>/`: everything a hunt knows, on disk, human-readable.

- `hunt.json`   settings: the victim, where its order came from, the search settings
- `order.txt`   the worker's recorded order up to and including the victim
- `failure.txt` the recorded failure text of the victim (its signature is derived from it)
- `durations.json` seconds each test took in the recorded run (the search weighs cost by them)
- `step-NNN.txt` every candidate list ever run, each a valid `--load-list` file
- `journal.jsonl` one line per finished repetition, appended and fsynced (journal.py)
- `lock`        who is running the hunt now (lock.py)
- `history.jsonl` earlier runs of the victim used as evidence (history.py)
- `fork-check.json` whether the hunt switched to the fork server, and why (forkcheck.py)
- `repeat-check.json`, `repeat-auto.json` whether runs repeat the victim, since when, and why
  (repeatcheck.py)
- `verdict.json`, `reproducer.txt` the verdict (verdict.py); `passing.txt` for a brittle one
- `replaced-<time>/` what an earlier hunt ran, set aside by `extract --force`
  (`replacing-<time>/` while it is being set aside)

Every file except the journal is written whole: temp file, fsync, rename.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from isolate.errors import UserError
from isolate.files import HUNTS, list_text, read_list, read_text, reject_non_finite, write_atomic
from isolate.words import counted, on_test

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_REPLACING, _REPLACED = "replacing-", "replaced-"  # a set-aside under way, and done
_TAIL = 60


def hunt_name(test_id: str) -> str:
    """A directory name for a test id, safe on every file system and collision-free.

    The readable part keeps the tail of the id (the test's own name) with anything but
    letters, digits, `.`, `_` and `-` replaced, no leading dot, at most 60 characters; a hash
    of the whole id keeps different ids apart, case-insensitive file systems included.
    """
    import hashlib  # here: only a new hunt is named, and hashlib loads OpenSSL (~8 ms)

    safe = _UNSAFE.sub("_", test_id.replace("::", "."))  # pytest's node id separator is a boundary too
    readable = safe[-_TAIL:]
    if len(safe) > _TAIL and "." in readable:  # start at a component boundary: `Class.test_x`
        readable = readable.split(".", 1)[1] or readable
    readable = readable.lstrip(".-_") or "test"
    digest = hashlib.sha256(test_id.encode("utf8")).hexdigest()[:10]
    return f"{readable}-{digest}"


@dataclass(frozen=True)
class Hunt:
    """A hunt directory and what it was created from."""

    path: Path
    settings: dict[str, Any]

    @property
    def victim(self) -> str:
        return str(self.settings["victim"])

    def order(self) -> tuple[str, ...]:
        path = self.path / "order.txt"
        if not path.exists() and not path.is_symlink():  # read_list's "check the path": the user gave none
            raise UserError(f"{path} is missing, so the hunt has no order; restore it from a backup, or re-create"
                            " the hunt with 'isolate extract --force'")
        order = read_list(path)
        first = self.step_path(0)  # extract writes the order to both; only a hand can make them differ
        if first.is_file() and read_list(first) != order:
            # QA: a cut order.txt hid the runs of its lists and kept a verdict naming a test it no longer held
            raise UserError(f"{path} and {first.name} differ, though extract wrote the hunt's order to both and its"
                            " runs were chosen from it: one was edited; copy the other back over it, or start a"
                            " new hunt with 'isolate extract --force'")
        return order

    def failure(self) -> str:
        return read_text(self.path / "failure.txt", "the recorded failure",
                         "fix or delete it, or re-create the hunt with 'isolate extract --force'")

    def step_path(self, step: int) -> Path:
        return self.path / f"step-{step:03d}.txt"

    @property
    def root(self) -> Path:
        """The project's root: the folder holding `.isolate/`."""
        return self.path.parent.parent

    def source_path(self, key: str) -> Path | None:
        """Where the hunt's source `key` ("repository", "stream") is: kept relative to the project
        when it lies inside it (source_paths), so that a project copied or moved with its `.isolate`
        reads its own stored runs, not the original's. None when there is none, or it was stdin."""
        where = self.settings.get("source", {}).get(key)
        if not isinstance(where, str) or not where or where == "-":
            return None
        path = Path(where)
        return path if path.is_absolute() else self.root / path


def source_paths(source: dict[str, Any], root: Path) -> dict[str, Any]:
    """`source` with its repository and stream relative to the project `root` where they lie
    inside it (Hunt.source_path reads them)."""
    kept = dict(source)
    for key in ("repository", "stream"):
        where = kept.get(key)
        if isinstance(where, str) and where != "-" and Path(where).is_absolute():
            path, base = Path(where).resolve(), root.resolve()
            if path.is_relative_to(base) and path != base:
                kept[key] = path.relative_to(base).as_posix()
    return kept


def create_hunt(
    root: Path,
    victim: str,
    order: tuple[str, ...],
    failure: str,
    source: dict[str, Any],
    force: bool,
    durations: tuple[float | None, ...] = (),
) -> Hunt:
    """Make `.isolate/<hunt>/` holding the order as its first candidate list (step 0).

    With `force`, an earlier hunt's runs and steps are moved into `replaced-<time>/`, never
    deleted. The caller holds the hunt's lock (see hunt_dir)."""
    path = hunt_dir(root, victim)
    force = force or _interrupted_set_aside(path)  # finish it: what is left belongs to the old hunt
    if not force:
        runs = _count_lines(path / "journal.jsonl")
        if not (path / "hunt.json").exists():
            if runs:
                raise UserError(f"{path} holds runs but no hunt.json; restore it from a backup, or pass --force"
                                " to start over (the runs are kept in replaced-<time>/)")
        elif runs:
            load_settings(path / "hunt.json")  # a corrupt one is named, not offered to 'bisect'
            raise UserError(
                f"a hunt for {victim} with {counted(runs, 'run')} already exists in {path};"
                f" continue it with {on_test('isolate bisect', victim)}, or pass --force to start over"
            )
        elif differs := _differs(path, order, failure, source):
            # an extract of another run or worker would replace the recorded failure and order
            raise UserError(f"a hunt for {victim} already exists in {path}, extracted with {differs} other than"
                            f" these; continue it with {on_test('isolate bisect', victim)}, or pass --force"
                            " to replace it (the old files are kept in replaced-<time>/)")
    make_hunt_dir(path)
    if force:
        _set_aside(path)
    settings = {"victim": victim, "source": source}
    write_atomic(path / "order.txt", list_text(order))
    write_atomic(path / "failure.txt", failure)
    write_atomic(path / "step-000.txt", list_text(order))
    known = {test_id: round(sec, 6) for test_id, sec in zip(order, durations) if sec is not None}
    write_atomic(path / "durations.json", json.dumps(known, indent=0, sort_keys=True) + "\n")
    write_atomic(path / "hunt.json", json.dumps(settings, indent=2, sort_keys=True) + "\n")
    return Hunt(path, settings)


def hunt_dir(root: Path, victim: str) -> Path:
    """Where the hunt for `victim` lives under the project `root` (it may not exist yet)."""
    hunts = root / HUNTS
    if (hunts.exists() or hunts.is_symlink()) and not hunts.is_dir():
        raise UserError(f"{hunts} is not a directory, so isolate cannot keep hunts there; move or delete it")
    path = hunts / hunt_name(victim)
    if path.resolve().parent != hunts.resolve():
        raise UserError(f"test id {victim!r} would escape {hunts}; rename the test")
    return path


def make_hunt_dir(path: Path) -> None:
    """Create a hunt's directory (and `.isolate/`), or say in one line why it cannot be."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create {path} ({exc.strerror}); check that {path.parent} is a writable"
                        " directory") from None


def _set_aside(path: Path) -> None:
    """Move what an earlier hunt in `path` ran into `replaced-<time>/`, hunt.json first: until
    the last file is moved, `path` holds no hunt that `bisect` or `status` could take up. A set-aside
    cut short (`replacing-<time>/` is left) is finished by the next extract into the same folder."""
    # history.jsonl too: the stored runs it read left out the run that hunt was extracted from,
    # not this one's; verify.jsonl counts passes of that hunt's reproducer
    old = [*(path / n for n in ("hunt.json", "journal.jsonl", "queries.jsonl", "verdict.json", "reproducer.txt",
                                "passing.txt", FORK_CHECK, REPEAT_CHECK, REPEAT_AUTO, "history.jsonl",
                                "verify.jsonl", "order.txt", "failure.txt", "durations.json")
             if (path / n).exists()),
           *path.glob("step-*.txt"), *path.glob("*.backtracked-*")]  # journal, reproducer, decisions
    started = sorted(path.glob(f"{_REPLACING}*"))
    if not old and not started:
        return
    aside = started[0] if started else path / f"{_REPLACING}{dt.datetime.now(dt.timezone.utc).strftime('%Y%m%dT%H%M%S.%fZ')}"
    aside.mkdir(exist_ok=True)
    for item in old:
        item.rename(aside / item.name)
    aside.rename(path / f"{_REPLACED}{aside.name.removeprefix(_REPLACING)}")


def _interrupted_set_aside(path: Path) -> bool:
    """Whether an `extract --force` into `path` stopped while it set the old hunt aside."""
    return any(path.glob(f"{_REPLACING}*"))


def _differs(path: Path, order: tuple[str, ...], failure: str, source: dict[str, Any]) -> str:
    """What of an existing hunt without runs a new extract would change: "" when it would write
    the same order, recorded failure and source (extracting the same run again), else their names."""
    changed = []
    try:
        if (path / "order.txt").read_text(encoding="utf8") != list_text(order):
            changed.append("an order")
        if (path / "failure.txt").read_text(encoding="utf8") != failure:
            changed.append("a recorded failure")
        stored = json.loads((path / "hunt.json").read_text(encoding="utf8")).get("source")
        # an older hunt.json's absolute paths read as the relative ones a new extract writes
        if not isinstance(stored, dict) or source_paths(stored, path.parent.parent) != source:
            changed.append("a source")
    except (OSError, ValueError, AttributeError):
        return "files"  # missing or unreadable: not the same hunt for sure
    return " and ".join(changed)


def _count_lines(path: Path) -> int:
    try:
        with path.open("rb") as fp:
            return sum(1 for _ in fp)
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise UserError(f"cannot read the journal {path} ({exc.strerror}); check its permissions,"
                        " or pass --force to start over") from None


# -- finding hunts -------------------------------------------------------------------------


def hunts_root(start: Path | None = None) -> Path | None:
    """The nearest directory at or above `start` holding `.isolate/`."""
    origin = (start or Path.cwd()).resolve()
    if start is not None and not origin.is_dir():
        raise UserError(f"--repo {start} is not a directory; pass the project directory")
    for directory in (origin, *origin.parents):
        hunts = directory / HUNTS
        if hunts.is_dir():
            return directory
        if hunts.exists() or hunts.is_symlink():
            raise UserError(f"{hunts} is not a directory, so isolate cannot keep hunts there;"
                            " move or delete it")
    return None


def load_settings(settings_file: Path) -> dict[str, Any]:
    """`hunt.json`, checked: a UserError naming the file and the fix when it is corrupt."""
    fix = (f"fix it by hand, or start this hunt over with 'isolate extract --force'"
           f" (or delete {settings_file.parent})")
    try:
        data = settings_file.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read {settings_file} ({exc.strerror}); {fix}") from None
    try:
        settings = json.loads(data.decode("utf8"), parse_constant=reject_non_finite)
    except ValueError as exc:  # UnicodeDecodeError and non-finite numbers included
        raise UserError(f"{settings_file} is corrupt ({str(exc).splitlines()[0]}); {fix}") from None
    problem = _settings_problem(settings)
    if problem:
        raise UserError(f"{settings_file} is corrupt ({problem}); {fix}")
    return dict(settings)


_NUMBERS = {"confidence", "step_budget", "time_budget", "timeout"}  # finite, > 0
_COUNTS = {"max_runs", "jobs", "repeat"}  # integers >= 1
_CHOICES = {"strategy": ("isolate", "single", "manual"), "mode": ("fresh", "fork")}


def _settings_problem(settings: Any) -> str:
    """What is wrong with hunt.json's content, or "" (unknown keys are left to newer versions)."""
    if not isinstance(settings, dict):
        return "not a JSON object"
    victim = settings.get("victim")
    if not isinstance(victim, str) or not victim:
        return f"victim {victim!r} is not a test id"
    source = settings.get("source", {})
    if not isinstance(source, dict):
        return "source is not an object"
    if source.get("kind", "stestr") not in ("stestr", "testr", "pytest"):
        return f"source.kind {source.get('kind')!r} is not one of stestr, testr, pytest"
    search = settings.get("search", {})
    if not isinstance(search, dict):
        return "search is not an object"
    return search_problem(search, "search.")


def search_problem(search: dict[str, Any], prefix: str) -> str:
    """What is wrong with a hunt's search settings (stored or given), or ""."""
    for key, value in search.items():
        name = f"{prefix}{key}"
        if value is None:
            continue
        if key == "confidence" and (type(value) not in (int, float) or not 0.5 <= value < 1):
            return f"{name} {value!r} is not in [0.5, 1)"
        if key in _NUMBERS and (type(value) not in (int, float) or not math.isfinite(value) or value <= 0):
            return f"{name} {value!r} is not a finite number > 0"
        if key in _COUNTS and (type(value) is not int or value < 1):
            return f"{name} {value!r} is not a whole number >= 1"
        if key in _CHOICES and value not in _CHOICES[key]:
            return f"{name} {value!r} is not one of {', '.join(_CHOICES[key])}"
        if key == "timeouts_from" and (type(value) is not int or value < 0):
            return f"{name} {value!r} is not a whole number >= 0"
        if key == "further" and (type(value) not in (int, float) or not 0 <= value <= 1):
            return f"{name} {value!r} is not a number in [0, 1]"
        if key in ("any_failure", "cleaners", "scan", "weak_polluters") and type(value) is not bool:
            return f"{name} {value!r} is not true or false"
        if key == "pytest_args" and (not isinstance(value, list) or not all(isinstance(a, str) for a in value)):
            return f"{name} {value!r} is not a list of strings"
    return ""


def all_hunts(root: Path) -> list[Hunt]:
    """Every hunt whose hunt.json is sound (see broken_hunts for the others)."""
    hunts = []
    for settings_file in sorted((root / HUNTS).glob("*/hunt.json")):
        try:
            hunts.append(Hunt(settings_file.parent, load_settings(settings_file)))
        except UserError:
            continue
    return hunts


def broken_hunts(root: Path) -> list[str]:
    """One message per hunt directory whose hunt.json cannot be used, naming it and the fix."""
    problems = []
    for settings_file in sorted((root / HUNTS).glob("*/hunt.json")):
        try:
            load_settings(settings_file)
        except UserError as exc:
            problems.append(str(exc))
    for aside in sorted((root / HUNTS).glob(f"*/{_REPLACING}*")):
        problems.append(f"an 'isolate extract --force' into {aside.parent} stopped while it set the old hunt"
                        f" aside (in {aside.name}/), so it holds no hunt; run the extract again to finish")
    for journal in sorted((root / HUNTS).glob("*/journal.jsonl")):  # runs, but no settings at all
        if not (journal.parent / "hunt.json").exists() and not _interrupted_set_aside(journal.parent):
            problems.append(f"{journal.parent} holds runs but no hunt.json, so it is no hunt any more; restore"
                            " hunt.json from a backup, or start over with 'isolate extract --force' (which"
                            " keeps the runs in replaced-<time>/)")
    return problems


def names_part(part: str, test_id: str) -> bool:
    """Whether `part` names `test_id`: a bare fragment anywhere in it (`header` of `m.T.test_header_x`),
    a qualified one (with a `.`, `::` or `/`) only ending on whole words: `T.test_x` of
    `m.T.test_x`, not `m.T.test_x` of `m.T.test_x_names`, whose hunt the complete id of another
    test opened (QA: `verify` then verified the other test's reproducer)."""
    if not any(sep in part for sep in (".", "::", "/")):
        return part in test_id
    start = test_id.find(part)
    while start != -1:
        end = start + len(part)
        whole_start = not _word(part[0]) or start == 0 or not _word(test_id[start - 1])
        if whole_start and (not _word(part[-1]) or end == len(test_id) or not _word(test_id[end])):
            return True
        start = test_id.find(part, start + 1)
    return False


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def find_hunt(root: Path | None, test: str) -> Hunt | None:
    """The hunt whose victim is `test`, or the one whose victim `test` names as a part of it
    (`names_part`).
    When none matches but a hunt.json is corrupt (it may be this test's), that is the error."""
    if root is None:
        return None
    if not test.strip():  # (a part of every id: it named the only hunt, and verify ran it; QA)
        raise UserError(f"the test name {test!r} is empty; give the failing test's id, or a part of it"
                        " that names one hunt ('isolate status' lists them)")
    hunts = all_hunts(root)
    exact = [h for h in hunts if h.victim == test]
    if exact:
        return exact[0]
    partial = [h for h in hunts if names_part(test, h.victim)]
    if len({h.victim for h in partial}) > 1:
        names = ", ".join(h.victim for h in partial[:8])
        raise UserError(f"{test!r} matches {len(partial)} hunts ({names}); give more of the test id")
    if partial:
        return partial[0]
    broken = broken_hunts(root)
    if broken:
        raise UserError(f"no sound hunt for {test!r}, and " + broken[0])
    return None


def read_steps(hunt: Hunt, known: dict[int, tuple[str, ...]] | None = None) -> dict[int, tuple[str, ...]]:
    """The step files by number; those in `known` are not read again (step files never change)."""
    steps = dict(known or {})
    for path in hunt.path.glob("step-*.txt"):
        number = path.stem[len("step-"):]
        if number.isdigit() and int(number) not in steps:
            steps[int(number)] = read_list(path)
    return steps


def step_for(hunt: Hunt, ids: tuple[str, ...], steps: dict[int, tuple[str, ...]]) -> int:
    """The step already holding exactly this list, or a new step file for it."""
    for number, listed in steps.items():
        if listed == ids:
            return number
    number = max(steps, default=-1) + 1
    write_atomic(hunt.step_path(number), list_text(ids))
    steps[number] = ids
    return number


def save_settings(hunt: Hunt, settings: dict[str, Any]) -> Hunt:
    write_atomic(hunt.path / "hunt.json", json.dumps(settings, indent=2, sort_keys=True) + "\n")
    return Hunt(hunt.path, settings)


def hunts_for(root: Path | None, test: str | None) -> list[Hunt]:
    if root is None:
        raise UserError("no .isolate directory here or above; start a hunt with 'isolate extract'")
    if test is None:
        return all_hunts(root)
    hunt = find_hunt(root, test)
    if hunt is None:
        from isolate.orders.extract import closest_id  # (on this error path only)

        near = closest_id(test, [h.victim for h in all_hunts(root)])
        if near is not None:  # QA: a complete id of another test, a part of this one's
            raise UserError(f"no hunt for {test!r}; did you mean {near}? fix: pass that id, or start a hunt for"
                            f" it with {on_test('isolate extract --test', test)}")
        raise UserError(f"no hunt for {test!r}; list them with 'isolate status'")
    return [hunt]


FORK_CHECK = "fork-check.json"  # the automatic fork-mode decision (isolate.hunt.forkcheck)
FORK_CHECK_PHASE = "fork-check"  # the journal phase of the check's fork runs
REPEAT_CHECK = "repeat-check.json"  # whether repeating the victim in one process is evidence (hunt.repeatcheck)
REPEAT_AUTO = "repeat-auto.json"  # repeats started by themselves (isolate.search.repeats.automatic)


def read_repeat_check(hunt: Hunt) -> dict[str, Any] | None:
    """The stored decision on repeating the victim: {"repeat": K asked, "used": executions per run
    from now on, "state": "on"|"off", "summary": text, ...}; None before the check (or when the file
    cannot be read as such: it runs again)."""
    try:
        data = json.loads((hunt.path / REPEAT_CHECK).read_text(encoding="utf8"), parse_constant=reject_non_finite)
    except (OSError, ValueError):
        return None
    if (not isinstance(data, dict) or data.get("state") not in ("on", "off") or type(data.get("repeat")) is not int
            or type(data.get("used")) is not int or not 1 <= data["used"] <= data["repeat"]
            or not isinstance(data.get("summary"), str)):
        return None
    return data


def read_repeat_auto(hunt: Hunt) -> dict[str, Any] | None:
    """When repeats started by themselves: {"repeat": K, "from": journal entries before them,
    "why": text, ...}; None when they did not, when --repeat-victim was given since (it rules), or
    when the file cannot be read as such. With "ahead": true, every run executed the victim K
    times from the first one ("from" 0), counted by its first execution until "checking": true
    (isolate.hunt.repeatcheck.auto_start), or until "stopped": the journal entries then (a
    deterministic cause: the runs execute the victim once from there, and repeats may still start
    by themselves, which replaces the file)."""
    if type(hunt.settings.get("search", {}).get("repeat")) is int:
        return None
    try:
        data = json.loads((hunt.path / REPEAT_AUTO).read_text(encoding="utf8"), parse_constant=reject_non_finite)
    except (OSError, ValueError):
        return None
    if (not isinstance(data, dict) or type(data.get("repeat")) is not int or data["repeat"] < 2
            or type(data.get("from")) is not int or data["from"] < 0 or not isinstance(data.get("why"), str)
            or type(data.get("ahead", False)) is not bool or type(data.get("checking", False)) is not bool
            or type(data.get("stopped", 0)) is not int or data.get("stopped", 0) < 0):
        return None
    return data


def ahead_waiting(hunt: Hunt) -> bool:
    """Whether the runs execute the victim K times ahead while they still count by their first
    execution: repeats ahead, the check not started (nor decided)."""
    auto = read_repeat_auto(hunt)
    return (auto is not None and bool(auto.get("ahead")) and not auto.get("checking") and "stopped" not in auto
            and read_repeat_check(hunt) is None)


def repeat_asked(hunt: Hunt) -> int:
    """The executions per run the hunt asked for: --repeat-victim K, or what repeats started by
    themselves with (isolate.hunt.repeatcheck), else 1."""
    given = hunt.settings.get("search", {}).get("repeat")
    auto = read_repeat_auto(hunt)
    return max(1, given) if type(given) is int else 1 if auto is None or "stopped" in auto else int(auto["repeat"])


def repeats_from(hunt: Hunt) -> int:
    """Journal entries that are no evidence now: the single runs made before repeats started by
    themselves, while the runs still repeat the victim (0 with --repeat-victim, or once repeats
    are off: every run then counts by its first execution)."""
    auto = read_repeat_auto(hunt)
    return 0 if auto is None or repeat_of(hunt) < 2 else int(auto["from"])


def repeat_of(hunt: Hunt) -> int:
    """How many times the hunt's runs execute the victim: what was asked (`repeat_asked`), or
    what the check made of it (isolate.hunt.repeatcheck), else 1."""
    asked = repeat_asked(hunt)
    if asked < 2 or ahead_waiting(hunt):
        return 1
    decision = read_repeat_check(hunt)
    return asked if decision is None else int(decision["used"])


def executions_of(hunt: Hunt) -> int:
    """How many times the runs execute the victim (the runner's): what they count by
    (`repeat_of`), or K while repeats run ahead of the check."""
    return repeat_asked(hunt) if ahead_waiting(hunt) else repeat_of(hunt)


def read_fork_check(hunt: Hunt) -> dict[str, Any] | None:
    """The stored decision of the fork check: {"mode": "fork"|"fresh", "summary": text, ...};
    None before the check (or when the file cannot be read as such: the check runs again)."""
    try:
        data = json.loads((hunt.path / FORK_CHECK).read_text(encoding="utf8"), parse_constant=reject_non_finite)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("mode") not in ("fork", "fresh") or not isinstance(data.get("summary"), str):
        return None
    return data


def read_queries(hunt: Hunt, warnings: list[str] | None = None) -> list[dict[str, Any]]:
    """`queries.jsonl`: why each step was run. A line that is not a JSON object with a step
    number, a `from` entry count and a reason is skipped, with a warning into `warnings`."""
    path = hunt.path / "queries.jsonl"
    out: list[dict[str, Any]] = []
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return out
    except OSError as exc:
        raise UserError(f"cannot read {path} ({exc.strerror}); check its permissions, or delete it"
                        " (it only says why each step was run)") from None
    for number, line in enumerate(data.splitlines(), 1):
        try:
            query = json.loads(line.decode("utf8"))
        except ValueError:  # UnicodeDecodeError included
            query = None
        if (isinstance(query, dict) and _count(query.get("from")) and _count(query.get("step"))
                and isinstance(query.get("reason", ""), str)):
            out.append(query)
        elif warnings is not None:
            warnings.append(f"skipped corrupt line {number} of {path}")
    return out


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0
