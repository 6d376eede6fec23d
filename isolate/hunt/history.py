"""Stored runs as free evidence: every earlier run in which the victim ran is an observation.

A stored run of the repository (or an extra stream or recording, `--history PATH`) in which the
victim ran says which tests ran before it in its process and whether it failed. Restricted to
the hunt's candidates, that is exactly what a run of the hunt says, for no test time at all.
Runs where the victim passed count as much as runs where it failed.

What this assumes: the stored runs tested the same code as the hunt does now. A run from before a
change to the code (or to the failing test) can mislead the search; `--history-since RUN` limits
the stored runs used, `--no-history` switches them off. The run the hunt was extracted from is
never used: it was chosen because it failed, so counting it would overstate the failure rate.

`history.jsonl` in the hunt directory keeps what was read (one line per run: where from, the
victim's status and failure signature, its predecessors), so a resumed hunt sees the same
evidence; runs stored later are appended, none is ever dropped. A `--history` file or directory
is read again when its contents changed since (CI overwrote `last.subunit`): a line
`{"read": path, "digest": sha256}` marks the contents each path had when it was read. A stored
run that gave nothing to keep (the victim did not run there, or only as a copy of a run kept, or
cut short) is marked `{"passed_over": "run 12", "size": bytes, "mtime_ns": ns}` and not read
again while it stays so (`stestr run --combine` appends to a stored run): a repository of 1,615
runs, most of them partial, is read once, not at every session.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from isolate.errors import UserError
from isolate.hunt.store import Hunt
from isolate.orders.extract import path_source, recorded_files, suite_order, victim_runs_in
from isolate.orders.repository import Repository
from isolate.orders.stream import FAILING
from isolate.running.judge import IMPORT
from isolate.running.signature import signature_from_traceback, signatures_match

HISTORY = "history.jsonl"
MANY_RUNS = 200
"""Stored runs to read at once from which the hunt says it is reading them (a few seconds' worth)."""


@dataclass(frozen=True)
class Past:
    """The victim in one earlier run: where from, how it ended, what ran before it."""

    source: str  # "run 12" (a stored run) or a stream's or recording's path
    status: str  # the victim's status there: success, fail, skip, ...
    signature: str | None  # of its failure, when it failed
    predecessors: tuple[str, ...]
    at: float | None = None  # when the victim started there: the same run read from two files is one run


def read_history(hunt: Hunt) -> list[Past]:
    """The runs kept in `history.jsonl`; lines that are not whole records are skipped."""
    path = hunt.path / HISTORY
    if not path.exists():
        return []
    pasts: list[Past] = []
    for line in path.read_text(encoding="utf8", errors="replace").splitlines():
        try:
            item = json.loads(line)
            past = Past(item["source"], item["status"], item.get("signature"), tuple(item["predecessors"]),
                        item.get("at"))
        except (ValueError, KeyError, TypeError):
            continue
        if (isinstance(past.source, str) and isinstance(past.status, str)
                and isinstance(past.signature, (str, type(None)))
                and (past.at is None or type(past.at) in (int, float))
                and all(isinstance(t, str) for t in past.predecessors)):
            pasts.append(past)
    return pasts


def _stamp(path: Path) -> tuple[int, int]:
    """A stored run's size and mtime: what changes when stestr appends to it (--combine)."""
    try:
        info = path.stat()
    except OSError:
        return (-1, -1)
    return info.st_size, info.st_mtime_ns


def _mentions(path: Path, victim: str) -> bool:
    """Whether the victim's id is anywhere in the stored run's bytes (both subunit versions write
    ids whole): a run that never names it needs no parsing, at the speed of a memory search."""
    import mmap

    try:
        with path.open("rb") as fp, mmap.mmap(fp.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return data.find(victim.encode("utf8")) != -1
    except (OSError, ValueError):  # unreadable, or empty (mmap refuses 0 bytes): parsing says what it is
        return True


def _read_marks(hunt: Hunt) -> tuple[dict[str, str], dict[str, tuple[int, int]]]:
    """What `history.jsonl` marks (see the module's docstring): the digest each --history path
    had when it was last read, and the stored runs read with nothing to keep, with the size and
    mtime each had then."""
    path = hunt.path / HISTORY
    marks: dict[str, str] = {}
    over: dict[str, tuple[int, int]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf8", errors="replace").splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if not isinstance(item, dict):
                continue
            if isinstance(item.get("read"), str) and isinstance(item.get("digest"), str):
                marks[item["read"]] = item["digest"]
            elif "passed_over" in item:
                try:
                    over[str(item["passed_over"])] = (int(item["size"]), int(item["mtime_ns"]))
                except (KeyError, TypeError, ValueError):
                    continue
    return marks, over


def digest(path: Path) -> str:
    """The contents of a stream, or of the files of a recording directory, as one hash."""
    import hashlib  # here: only --history paths are hashed, and it loads OpenSSL (~8 ms)

    files = sorted([*recorded_files(path), *path.glob(".pytest-replay*.txt")]) if path.is_dir() else [path]
    hashed = hashlib.sha256()
    for f in files:
        hashed.update(f.name.encode() + b"\0")
        try:
            with f.open("rb") as fp:
                for chunk in iter(lambda: fp.read(1 << 20), b""):
                    hashed.update(chunk)
        except OSError:
            hashed.update(b"\0unreadable")
    return hashed.hexdigest()


def stored_predecessors(hunt: Hunt, skip: set[str], passed_only: bool = False) -> list[str]:
    """The tests that ran before the victim in the kept runs (only those where it passed, with
    `passed_only`), first seen first; none of `skip` and no `import:` entry."""
    seen = set(skip)
    order: list[str] = []
    for past in read_history(hunt):
        if passed_only and past.status != "success":
            continue
        for test_id in past.predecessors:
            if test_id not in seen and not test_id.startswith(IMPORT):
                seen.add(test_id)
                order.append(test_id)
    return order


def repository_of(hunt: Hunt) -> Repository | None:
    """The stestr/testr repository the hunt was extracted from, when it still exists."""
    where = hunt.source_path("repository")
    if where is None or not where.is_dir():
        return None
    return Repository(where, str(hunt.settings.get("source", {}).get("kind", "stestr")))


def _stored_run(hunt: Hunt, path: Path) -> int | None:
    """The id of the hunt's repository run that `path` is (`.stestr/3`), else None: the hunt reads
    those runs as "run 3" already, so one given again as a stream would count twice."""
    where = hunt.source_path("repository")
    resolved = path.resolve()
    if where is None or not resolved.name.isdigit() or resolved.parent != where.resolve():
        return None
    return int(resolved.name)


def _holds_extracted(hunt: Hunt, path: Path) -> bool:
    """Whether `path` reads the stream the hunt was extracted from: that stream, a file of the
    recording directory it was (`rec/gw1.subunit` of `rec`), or the directory holding it."""
    origin = hunt.source_path("stream")
    if origin is None:
        return False
    resolved, origin = path.resolve(), origin.resolve()
    return resolved == origin or resolved.parent == origin or (resolved.is_dir() and origin.parent == resolved)


def check(hunt: Hunt, paths: list[str], since: str | None) -> None:
    """Refuse settings that could not be read, before they are stored."""
    extracted_run = hunt.settings.get("source", {}).get("run")
    for given in paths:
        path = Path(given)
        if not path.exists():
            raise UserError(f"--history {given} does not exist; pass a saved subunit stream or a recording directory")
        if not (path.is_file() or path.is_dir()):  # `<(cmd)`, a FIFO: gone (or blocking) when read again
            raise UserError(f"--history {given} is a pipe or device, which the hunt could not read again when it"
                            " resumes; save the stream to a file and pass that")
        stored = _stored_run(hunt, path)
        if _holds_extracted(hunt, path) or (stored is not None and stored == extracted_run):
            what = "the stream" if stored is None else f"run {stored}, the run"
            raise UserError(f"--history {given} is {what} this hunt was extracted from: its run failed, which is"
                            " why it was picked, so it is no evidence of how often; drop it")
        if stored is not None:
            raise UserError(f"--history {given} is run {stored} of the hunt's own repository, whose stored runs the"
                            " hunt reads already (it would count twice); drop it (--history-since RUN chooses"
                            " from which run on they count)")
        where = hunt.source_path("repository")
        if where is not None and path.resolve() == where.resolve():
            raise UserError(f"--history {given} is the hunt's own repository, whose stored runs the hunt reads"
                            " already; drop it (--history-since RUN chooses from which run on they count)")
        try:  # a file that is no subunit stream was stored and read as no runs, without a word
            suite_order(path_source(path), f"--history {given}")
        except UserError as exc:
            said = str(exc) if str(exc).startswith("--history") else f"--history {exc}"
            raise UserError(f"{said}; or drop it") from None
        runs = victim_runs_in(path, hunt.victim)
        if not runs:  # another project's stream, or one cut before the victim ran: no evidence, said
            raise UserError(f"--history {given} holds no run of {hunt.victim} (a stream of another project or"
                            " test, or cut before it ran); drop it, or pass a stream of a run in which it ran")
        if all(run.cut for run in runs):
            raise UserError(f"--history {given} ends while {hunt.victim} ran, so how it ended is unknown; drop it,"
                            " or pass a complete stream")
    if since is not None:
        repository = repository_of(hunt)
        if repository is None:
            raise UserError("--history-since needs the hunt's stestr/testr repository, and this hunt has none;"
                            " drop --history-since")
        repository.resolve_run(since, "--history-since")


def gather(hunt: Hunt, repository: Repository | None, paths: list[str], since: str | None,
           say: Callable[[str], None] | None = None) -> tuple[int, int, int]:
    """Append to `history.jsonl` every run not in it yet in which the victim ran (see `unread`),
    the contents each --history path had when read, and the stored runs that gave nothing to
    keep. Returns (runs added, runs kept in all, copies left out)."""
    found = unread(hunt, repository, paths, since, say)
    lines = [json.dumps({"source": past.source, "status": past.status, "signature": past.signature,
                         "predecessors": list(past.predecessors), "at": past.at}, sort_keys=True)
             for past in found.new]
    lines += [json.dumps({"read": path, "digest": hashed}, sort_keys=True) for path, hashed in found.read.items()]
    lines += [json.dumps({"passed_over": label, "size": size, "mtime_ns": mtime}, sort_keys=True)
              for label, (size, mtime) in found.passed_over.items()]
    if lines:
        with open(hunt.path / HISTORY, "a", encoding="utf8") as fp:
            fp.write("".join(line + "\n" for line in lines))
    return len(found.new), found.known + len(found.new), found.copies


@dataclass(frozen=True)
class Unread:
    known: int  # runs kept already
    new: list[Past]  # runs to keep
    copies: int  # runs left out as copies of runs counted already
    read: dict[str, str]  # the --history paths read, and their contents' digests
    passed_over: dict[str, tuple[int, int]]  # stored runs read with nothing to keep: (size, mtime_ns)


def unread(hunt: Hunt, repository: Repository | None, paths: list[str], since: str | None,
           say: Callable[[str], None] | None = None) -> Unread:
    """The runs not in `history.jsonl` yet in which the victim ran: the repository's stored runs
    (from `since` on; none passed over before and unchanged since), and the streams or recording
    directories in `paths` (each read again when its contents changed since it was). A run read
    already under another name (a stream saved from a stored run, one file given twice, the run the
    hunt was extracted from) is told by when the victim started there, and left out. `say` hears
    once that many stored runs are to be read. Writes nothing."""
    pasts = read_history(hunt)
    known = {p.source for p in pasts}
    marks, over = _read_marks(hunt)
    seen = {p.at for p in pasts if p.at is not None}
    if paths:  # only a given file can be a copy of the run extracted from (the repository's is skipped by id)
        seen |= _extracted_start(hunt, repository)
    copies = 0
    extracted_from = hunt.settings.get("source", {}).get("run")
    found: list[Past] = []
    stamps: dict[str, tuple[int, int]] = {}  # the stored runs read now, as they were
    if repository is not None and repository.run_ids():
        first = repository.resolve_run(since) if since is not None else None
        todo: list[tuple[str, Path]] = []
        for run_id in repository.run_ids():
            label = f"run {run_id}"
            if run_id == extracted_from or label in known or (first is not None and run_id < first):
                continue
            path = repository.run_path(run_id)
            stamps[label] = _stamp(path)
            if over.get(label) != stamps[label]:
                todo.append((label, path))
        if say is not None and len(todo) >= MANY_RUNS:
            say(f"reading {len(todo)} stored runs for the victim's earlier runs (once: the hunt keeps what it"
                " read; --no-history skips them)")
        for label, path in todo:
            found += _victim_in(hunt.victim, path, label) if _mentions(path, hunt.victim) else []
    read: dict[str, str] = {}
    for given in paths:
        path = Path(given).resolve()
        if str(path) in read or _holds_extracted(hunt, path) or _stored_run(hunt, path) is not None:
            continue  # given twice, the stream the hunt was extracted from, or a run of its repository (see check)
        if not (path.is_dir() or path.is_file()):
            continue  # stored by an earlier session and gone since (`check` refuses a new one)
        hashed = digest(path)
        if marks.get(str(path)) == hashed or (str(path) in known and str(path) not in marks):
            continue  # read already as it is now (a hunt of before the marks read each path once)
        read[str(path)] = hashed
        kept_from = Counter(_key(p) for p in pasts if p.source == str(path))
        for past in _victim_in(hunt.victim, path, str(path)):
            if kept_from[_key(past)]:  # read from this path before it changed: kept already
                kept_from[_key(past)] -= 1
            else:
                found.append(past)
    kept: list[Past] = []
    for past in found:
        if past.at is not None and past.at in seen:
            copies += 1
            continue
        kept.append(past)
        if past.at is not None:
            seen.add(past.at)
    keeping = {past.source for past in kept}
    passed = {label: stamp for label, stamp in stamps.items() if label not in keeping and over.get(label) != stamp}
    return Unread(len(pasts), kept, copies, read, passed)


def _key(past: Past) -> tuple[str, str | None, tuple[str, ...], float | None]:
    return past.status, past.signature, past.predecessors, past.at


def stored_rate(hunt: Hunt) -> tuple[int, int]:
    """(failures, runs) of the victim in the stored runs: those kept in `history.jsonl`, the
    repository's not read yet (from the hunt's --history-since on), and the run the hunt was
    extracted from, which failed. As the search reads them: a failure the recorded way (any, with
    --any-failure) or a pass; a skip or another failure is neither. Writes nothing: `isolate plan`
    estimates the failure rate from it before any hunt has run."""
    since = hunt.settings.get("search", {}).get("history_since")
    new = unread(hunt, repository_of(hunt), [], since if isinstance(since, str) else None).new
    outcomes = [judge for judge in map(judged(hunt), read_history(hunt) + new) if judge is not None]
    return 1 + sum(outcomes), 1 + len(outcomes)


def failed_since(hunt: Hunt, when: float) -> list[str]:
    """The stored runs in which the victim started after `when` (epoch seconds) and failed as the
    search counts a failure: kept in `history.jsonl`, or in the repository and not read yet (from
    the hunt's --history-since on). After `verify` said fixed, the fix did not hold there. A run
    whose stream has no timestamps cannot be placed, and is left out. Writes nothing."""
    since = hunt.settings.get("search", {}).get("history_since")
    new = unread(hunt, repository_of(hunt), [], since if isinstance(since, str) else None).new
    judge = judged(hunt)
    return [past.source for past in read_history(hunt) + new if past.at is not None and past.at > when and judge(past)]


def judged(hunt: Hunt) -> Callable[[Past], bool | None]:
    """How the search reads a stored run of the victim: True when it failed the recorded way (any
    way, with --any-failure or no recorded failure), False when it passed, None when neither
    (skipped, or failed another way: no evidence either way)."""
    expected = signature_from_traceback(hunt.failure())
    any_failure = bool(hunt.settings.get("search", {}).get("any_failure")) or expected is None

    def judge(past: Past) -> bool | None:
        if past.status in FAILING and (any_failure or signatures_match(expected, past.signature)):
            return True
        return False if past.status == "success" else None
    return judge


def _extracted_start(hunt: Hunt, repository: Repository | None) -> set[float]:
    """When the victim started in the run the hunt was extracted from (empty when that run is
    gone, or its stream has no timestamps): a copy of it given as --history is no evidence."""
    run, stream = hunt.settings.get("source", {}).get("run"), hunt.source_path("stream")
    if repository is not None and isinstance(run, int) and run in repository.run_ids():
        pasts = _victim_in(hunt.victim, repository.run_path(run), f"run {run}")
    elif stream is not None and stream.exists():
        pasts = _victim_in(hunt.victim, stream, str(stream))
    else:
        return set()
    return {p.at for p in pasts if p.at is not None}


def _victim_in(victim: str, path: Path, label: str) -> list[Past]:
    """Every run of the victim in one stream or recording (several when it holds several process
    runs); none when it did not run there, it cannot be read, or it ends while the victim ran."""
    try:
        runs = victim_runs_in(path, victim)
    except UserError:
        return []
    return [Past(label, run.status,
                 signature_from_traceback(run.failure) if run.status in ("fail", "uxsuccess") else None,
                 run.predecessors, run.start)
            for run in runs if not run.cut]
