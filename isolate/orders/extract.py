"""The executed order of one worker, up to and including the failing test.

Within one worker, stream order is execution order. A worker's ids repeating means a second
process reused the tag (`stestr run --combine` appends streams), so the order is cut into
process runs at repeats and the one holding the failure is used.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from isolate.errors import UserError
from isolate.files import PYTEST_ARGS
from isolate.orders.stream import FAILING, Record, Visitor, Warn, compression, decompressed, scan, seekable

UNTAGGED = "untagged"
PSEUDO_TESTS = frozenset({"process-returncode"})
"""testr records a crashed worker's exit status as a failing 'test' of this name; it never ran."""

Source = Callable[[Visitor, Warn], int]
"""Pushes every record of a stream to the visitor, returns how many; may be called twice."""


@dataclass(frozen=True)
class Extraction:
    """What a hunt starts from: the order, the failing test and how it failed."""

    victim: str
    worker: str
    order: tuple[str, ...]
    status: str
    failure: str
    warnings: tuple[str, ...]
    durations: tuple[float | None, ...] = ()  # seconds per test of `order`, from the stream's timestamps
    tests: frozenset[str] = frozenset()  # every test id of the stream, all workers
    victim_start: float | None = None  # when the victim started (epoch seconds): which run this is, whatever the file

    @property
    def predecessors(self) -> tuple[str, ...]:
        return self.order[:-1]


@dataclass(frozen=True)
class _Entry:
    id: str
    status: str
    details: str
    start: float | None  # epoch seconds, when the stream has timestamps
    stop: float | None
    cut: bool = False  # the stream ends while it ran: counted as failed (Record.cut)

    @property
    def seconds(self) -> float | None:
        return None if self.start is None or self.stop is None else max(0.0, self.stop - self.start)


def _epoch(stamp: str | None) -> float | None:
    if not stamp:
        return None
    try:
        return dt.datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return None


CUT = "; the stream ends while it ran: counted as failed"
"""Said of a failing test whose outcome the stream lost (Record.cut), where the failing tests are listed."""


def _entry(record: Record) -> _Entry:
    """A worker's record as the order keeps it (a failure's details only)."""
    details = record.details if record.status in FAILING else ""
    return _Entry(record.id, record.status, details, _epoch(record.start), _epoch(record.stop), record.cut)


def _worker(record: Record) -> str:
    return record.worker or UNTAGGED


def _listing(items: list[str], most: int = 8) -> str:
    shown = ", ".join(items[:most])
    return shown + (f", … ({len(items) - most} more)" if len(items) > most else "")


def extract(source: Source, label: str, worker: str | None, test: str | None) -> Extraction:
    """Read the stream (twice when the worker must be found first) and cut out the order.

    `label` names the source in messages ("run 5", "ci.subunit").
    """
    warnings: list[str] = []
    if worker is None:
        worker, test = _find_worker(source, label, test, warnings)
    entries: list[_Entry] = []
    workers: set[str] = set()

    seen: set[str] = set()

    def keep(record: Record) -> None:
        if record.id in PSEUDO_TESTS:
            return
        seen.add(record.id)
        tag = _worker(record)
        workers.add(tag)
        if tag == worker:
            entries.append(_entry(record))

    damage: list[str] = []
    count = source(keep, damage.append)
    if not warnings:  # the first pass, when there was one, already reported the same damage
        warnings.extend(damage)
    if count == 0:
        raise _no_records(label)
    if not entries and worker is not None and f"worker-{worker}" in workers:
        return extract(source, label, f"worker-{worker}", test)  # pytest-xdist's `gw1` for `worker-gw1`
    if not entries:
        raise UserError(
            f"worker tag {worker!r} is not in {label}; its workers are {_listing(sorted(workers))}"
        )
    if test is not None:  # with --worker given, no pass resolved a part of an id yet
        test = _resolve_test(seen, label, test)
        if test not in seen:  # QA: "did not run on worker-0; pass its worker" of a typo
            raise _not_in(test, seen, label)
    victim_at = _victim_index(entries, worker, label, test)
    starts = _process_starts(entries)
    segment_start = max(s for s in starts if s <= victim_at)
    if len(starts) > 1:
        warnings.append(
            f"{worker} holds {len(starts)} process runs in {label} (ids repeat, as after"
            f" 'stestr run --combine'); used {_which_process(entries, victim_at)}, from {entries[segment_start].id}"
        )
    kept = entries[segment_start : victim_at + 1]
    order = tuple(e.id for e in kept)
    for test_id in order:
        if "\n" in test_id or "\r" in test_id or "\0" in test_id:
            raise UserError(
                f"test id {test_id!r} holds a line break or NUL, so it cannot go in a list file;"
                " rename that test"
            )
    victim = entries[victim_at]
    if worker == UNTAGGED and victim.cut and workers - {UNTAGGED}:  # it said the victim ran first, imports only
        raise UserError(
            f"{label} is cut in the middle of {victim.id}, whose record carries no worker tag (a stream of"
            " 'stestr last --subunit' tags a test only when it ends), so what ran before it in its worker is"
            " unknown; extract from the stored run itself (isolate extract --run ID) or a complete stream, or"
            " pass --test with a test that ended"
        )
    if victim.status not in FAILING:
        warnings.append(f"{victim.id} did not fail in {label} ({victim.status}); extracted its order anyway")
    return Extraction(victim.id, worker, order, victim.status, victim.details, tuple(warnings),
                      tuple(e.seconds for e in kept), frozenset(seen), victim.start)


@dataclass(frozen=True)
class VictimRun:
    """One process run of a test in a stream: how it ended, and what ran before it in that process."""

    status: str
    failure: str
    predecessors: tuple[str, ...]
    start: float | None  # epoch seconds: which run this is, whatever the file
    cut: bool  # the stream ends while it ran: how it ended is unknown


def victim_runs(source: Source, test: str) -> list[VictimRun]:
    """Every process run of `test` in the stream, on any worker: a stream or recording directory
    may hold several runs (`stestr run --combine`, streams joined, files of several sessions),
    and each is one observation. Stream damage is not reported here (extract reports it)."""
    by_worker: dict[str, list[_Entry]] = {}

    def keep(record: Record) -> None:
        if record.id not in PSEUDO_TESTS:
            by_worker.setdefault(_worker(record), []).append(_entry(record))

    source(keep, lambda _: None)
    found: list[VictimRun] = []
    for entries in by_worker.values():
        if not any(e.id == test for e in entries):
            continue
        bounds = _process_starts(entries) + [len(entries)]
        for start, stop in zip(bounds, bounds[1:]):
            for i in range(start, stop):
                entry = entries[i]
                if entry.id == test:
                    found.append(VictimRun(entry.status, entry.details, tuple(e.id for e in entries[start:i]),
                                           entry.start, entry.cut))
    return found


def victim_runs_in(path: Path, test: str) -> list[VictimRun]:
    """`victim_runs` of a saved stream, or of each file of a recording directory on its own (each
    is one session or one worker's process: a file's end is a process's end)."""
    files = recorded_files(path) if path.is_dir() else []
    return [run for f in files for run in victim_runs(file_source(f), test)] if files \
        else victim_runs(path_source(path), test)


def suite_order(source: Source, label: str) -> tuple[str, ...]:
    """Every test of the stream, all workers, in the order they started (stream order where
    there are no timestamps): the whole suite's order, as one process would have run it."""
    started: list[tuple[float, int, str]] = []
    seen: set[str] = set()

    def keep(record: Record) -> None:
        if record.id in PSEUDO_TESTS or record.id in seen:
            return
        seen.add(record.id)
        start = _epoch(record.start)
        started.append((start if start is not None else math.inf, len(started), record.id))

    if source(keep, lambda _: None) == 0:
        raise _no_records(label)
    return tuple(test_id for _, _, test_id in sorted(started))


NO_RECORDS = "holds no subunit test records (empty, or not a subunit stream)"  # after a stream's label


def _no_records(label: str) -> UserError:
    if label.startswith("run ") and label[4:].isdigit():  # a repository's stored run: it told to pass one
        return UserError(f"{label} holds no subunit test records (empty, or damaged: not a subunit stream);"
                         " pass another run with --run ID ('isolate runs' lists them)")
    return UserError(f"{label} {NO_RECORDS}; pass a stored run, or a file made by 'stestr last --subunit'")


def _resolve_test(ids: Collection[str], label: str, test: str) -> str:
    """The test id `test` names among the stream's `ids`: itself when there, else the one id that
    contains it (an unambiguous part of the id, as `isolate bisect` takes); several are an error,
    none is left to the caller (it says the test is not there)."""
    if test in ids:
        return test
    partial = sorted(i for i in ids if test in i)
    if len(partial) > 1:
        raise UserError(f"{test!r} matches {len(partial)} tests of {label} ({_listing(partial)}); give more of the"
                        " test id")
    return partial[0] if partial else test


def closest_id(test: str, ids: Collection[str]) -> str | None:
    """The id of `ids` whose test name (its last part) is closest to `test`'s, when one is near: what a
    typo in a test's name meant. Imports difflib: for error paths only."""
    import difflib

    def name(test_id: str) -> str:
        return test_id.rsplit("::", 1)[-1].rsplit(".", 1)[-1]

    short = {name(test_id): test_id for test_id in sorted(ids)}
    near = difflib.get_close_matches(name(test), list(short), n=1, cutoff=0.8)
    return short[near[0]] if near else None


def _not_in(test: str, ids: Collection[str], label: str) -> UserError:
    """`test` is in none of `ids`: the error, naming the closest id when one is near (a typo in its
    name, or in the whole id)."""
    import difflib  # only on this error path

    guess = closest_id(test, ids) or next(iter(difflib.get_close_matches(test, list(ids), n=1, cutoff=0.8)), None)
    if guess is not None:
        return UserError(f"test {test} is not in {label}; did you mean {guess}? fix: pass that id")
    return UserError(f"test {test} is not in {label}; fix: check the id ('isolate runs' lists each run's failing"
                     " tests), or pass the run it ran in with --run ID")


def _find_worker(source: Source, label: str, test: str | None, warnings: list[str]) -> tuple[str, str | None]:
    """First pass: the worker of --test (and the id it names, which may be a part of one), or of
    the run's only failing test."""
    failing: dict[tuple[str, str], bool] = {}  # (id, worker) -> whether the stream ends while it ran
    named: dict[str, list[str]] = {}  # the ids that contain --test -> their workers
    named_failed: dict[str, set[str]] = {}  # ... -> the workers where it failed
    seen: set[str] = set()

    def look(record: Record) -> None:
        if record.id in PSEUDO_TESTS:
            return
        seen.add(record.id)
        if test is not None and test in record.id:
            named.setdefault(record.id, []).append(_worker(record))
            if record.status in FAILING:
                named_failed.setdefault(record.id, set()).add(_worker(record))
        elif test is None and record.status in FAILING:  # (once a worker: combined runs repeat ids; QA)
            failing[(record.id, _worker(record))] = failing.get((record.id, _worker(record)), False) or record.cut

    if source(look, warnings.append) == 0:
        raise _no_records(label)
    if test is not None:
        test = _resolve_test(named, label, test)
        distinct = sorted(set(named.get(test, ())))
        if not distinct:
            raise _not_in(test, seen, label)
        if len(distinct) > 1 and len(named_failed.get(test, ())) == 1:  # it failed on one of them: that one
            return next(iter(named_failed[test])), test
        if len(distinct) > 1:
            raise UserError(f"{test} ran on several workers in {label} ({', '.join(distinct)}); pass --worker TAG")
        return distinct[0], test
    if not failing:
        pick = " pick a run with one with --run ID ('isolate runs' lists each run's failures), or" \
            if label.startswith("run ") else ""
        raise UserError(f"{label} has no failing test;{pick} pass --test ID to name the test to investigate")
    if len(failing) > 1:
        names = [f"{test_id} ({tag}{CUT if cut else ''})" for (test_id, tag), cut in failing.items()]
        ids = {test_id for test_id, _ in failing}
        fix = "pass --worker TAG" if len(ids) == 1 else "pass --test ID"
        what = "failing tests" if len(ids) > 1 else "failures"
        raise UserError(f"{label} has {len(failing)} {what}: {_listing(names)}; {fix}")
    return next(iter(failing))[1], test


def _which_process(entries: list[_Entry], victim_at: int) -> str:
    """Which of a worker's process runs extract used, in words (QA: two had failed, silently)."""
    failed = sum(e.id == entries[victim_at].id and e.status in FAILING for e in entries)
    return f"the last of the {failed} in which it failed" if failed > 1 else "the one with the failure"


def _victim_index(entries: list[_Entry], worker: str, label: str, test: str | None) -> int:
    if test is not None:
        hits = [i for i, e in enumerate(entries) if e.id == test]
        if not hits:
            raise UserError(f"test {test} did not run on {worker} in {label}; pass its worker, or omit --worker")
        failed = [i for i in hits if entries[i].status in FAILING]
        return (failed or hits)[-1]
    failing = [i for i, e in enumerate(entries) if e.status in FAILING]
    if not failing:
        raise UserError(f"{worker} has no failing test in {label}; pass --test ID to name the test to investigate")
    names = sorted({entries[i].id + (f" ({CUT.lstrip('; ')})" if entries[i].cut else "") for i in failing})
    if len(names) > 1:
        raise UserError(f"{worker} has {len(names)} failing tests in {label}: {_listing(names)}; pass --test ID")
    return failing[-1]


def _process_starts(entries: list[_Entry]) -> list[int]:
    """Where each process run begins in a worker's records.

    A process runs a test once, so an id seen again means a new process started somewhere
    after its first occurrence. Where exactly: at the widest pause between two tests in that
    span (a new process spends interpreter start-up and discovery before its first test),
    or right at the repeat when the stream has no timestamps. A test that starts before the
    one ahead of it ended belongs to another process too (runs joined out of time order, e.g.
    `cat newer.subunit older.subunit`): it starts a process run even when no id repeats (the two
    runs gave the worker different tests), and within a repeat's span a pause counts by its size,
    backwards or forwards.
    """
    starts = [0]
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        first = seen.get(entry.id)
        if i and _backwards(entries, i):  # an earlier run joined after a later one, whatever the ids
            starts.append(i)
            seen = {entry.id: i}
        elif first is not None:
            boundary = max(range(first + 1, i + 1), key=lambda j: (_pause(entries, j), j))
            starts.append(boundary)
            seen = {e.id: j for j, e in enumerate(entries[boundary : i + 1], boundary)}
        else:
            seen[entry.id] = i
    return starts


BACKWARDS = 0.5
"""Seconds by which a test may seem to start before the one ahead of it in its worker ended and
still be of the same process (a clock stepped back); more marks another process run."""


def _backwards(entries: list[_Entry], j: int) -> bool:
    before, after = entries[j - 1].stop, entries[j].start
    return before is not None and after is not None and after < before - BACKWARDS


def _pause(entries: list[_Entry], j: int) -> float:
    before, after = entries[j - 1].stop, entries[j].start
    return -1.0 if before is None or after is None else abs(after - before)


def stream_source(stream: Path, stdin: Callable[[], BinaryIO]) -> tuple[Source, str]:
    """What --stream names: a saved subunit file, a recording directory, or '-' for stdin; and
    its label in messages."""
    if str(stream) == "-":
        return stdin_source(stdin()), "stdin"
    if stream.is_dir() or stream.is_file():
        return path_source(stream), str(stream)
    if stream.exists():  # `<(cmd)`, a FIFO: it said the path does not exist
        raise UserError(f"--stream {stream} is a pipe or device, which isolate reads twice; pass '-' and redirect"
                        " the stream to stdin, or save it to a file")
    raise UserError(f"--stream {stream} does not exist; pass a saved subunit file, a recording directory, or '-'"
                    " for stdin")


def path_source(path: Path) -> Source:
    """A saved stream, a recording directory, or one pytest-replay file (`.pytest-replay-gw1.txt`,
    read as that process's: as a subunit stream it held no records)."""
    from isolate.orders.pytest_replay import replay_process, scan_replay_file

    if path.is_dir():
        return directory_source(path)
    process = replay_process(path)
    if process is not None:
        return lambda visit, warn: scan_replay_file(path, process, visit, warn)
    return file_source(path)


def file_source(path: Path) -> Source:
    def read(visit: Visitor, warn: Warn) -> int:
        try:
            fp = path.open("rb")
        except OSError as exc:
            raise UserError(f"cannot read {path} ({exc.strerror}); check its permissions") from None
        with fp:
            return scan(_uncompressed(fp, str(path), warn), visit, warn)

    return read


def _uncompressed(fp: BinaryIO, label: str, warn: Warn) -> BinaryIO:
    kind = compression(fp)
    if kind == "zip":
        raise UserError(f"{label} is a zip archive (as CI artifacts download); unzip it and pass the subunit file"
                        " inside")
    return fp if kind is None else decompressed(fp, kind, label, warn)


def stdin_source(fp: BinaryIO) -> Source:
    """stdin spooled once, so it can be read twice."""
    spooled = seekable(fp)
    start = spooled.tell()

    def read(visit: Visitor, warn: Warn) -> int:
        spooled.seek(start)
        return scan(_uncompressed(spooled, "stdin", warn), visit, warn)

    return read


_QUIET_OPTIONS = re.compile(r"-[qvsxlr]+|--(tb|color|durations|maxfail|dist|numprocesses|junit-?xml|html|"
                            r"basetemp|capture|showlocals|verbose|quiet|exitfirst|strict-markers)(=.*)?|-n\S*|-[rp]\S+")
_TAKES_VALUE = frozenset({"-n", "--numprocesses", "--dist", "--tb", "--maxfail", "--durations", "-p", "--basetemp",
                          "--capture", "--junitxml", "--junit-xml", "-r", "--isolate-record", "--color", "-k", "-m"})


def recording_options(path: Path) -> list[str]:
    """The options of the pytest session that made the recording in `path` (a directory, or a
    file in one) that a hunt's runs leave out: its command line (the recorder keeps it, see
    isolate.files.PYTEST_ARGS) without the paths and node ids it ran, the recording's own option,
    output options, xdist's, plugins (-p) and test selection (-k, -m: a hunt runs its lists).
    Empty when there is none, or the recording predates it."""
    import json

    folder = path if path.is_dir() else path.parent
    try:
        saved = json.loads((folder / PYTEST_ARGS).read_text(encoding="utf8"))
        args, where = [str(a) for a in saved["args"]], Path(str(saved["dir"]))
    except (OSError, ValueError, KeyError, TypeError):
        return []
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in _TAKES_VALUE:
            skip = True
            continue
        if arg.startswith("--isolate-record") or _QUIET_OPTIONS.fullmatch(arg) \
                or (not arg.startswith("-") and (where / arg.split("::", 1)[0]).exists()):  # a path or node id
            continue
        kept.append(arg)
    return kept


def recorded_files(path: Path) -> list[Path]:
    """A recording directory's streams: its `*.subunit` files (one a worker or a session), and
    compressed ones (`*.subunit.gz`, `.bz2`, `.xz`) as CI artifacts come."""
    return sorted(f for suffix in ("", ".gz", ".bz2", ".xz") for f in path.glob(f"*.subunit{suffix}"))


def directory_source(path: Path) -> Source:
    """A recording directory: every `*.subunit` file in it (one per worker), read as one stream;
    failing that, pytest-replay's per-worker `.pytest-replay-gwN.txt` files."""
    from isolate.orders.pytest_replay import replay_files, scan_replay_dir

    files = recorded_files(path)
    if not files and replay_files(path):
        return lambda visit, warn: scan_replay_dir(path, visit, warn)
    if not files and (path / "format").is_file():  # told to record pytest into a stestr repository
        runs = sorted((int(p.name) for p in path.iterdir() if p.name.isdigit()), reverse=True)
        example = path / str(runs[0] if runs else 0)
        raise UserError(f"{path} is a stestr or testr repository, not a recording; pass one of its stored runs,"
                        f" e.g. {example} (or, for extract and runs, its project with --repo)")
    if not files:
        raise UserError(f"{path} holds no *.subunit recordings or .pytest-replay*.txt files;"
                        f" record with 'pytest --isolate-record={path}'")

    def read(visit: Visitor, warn: Warn) -> int:
        count = 0
        sizes = [f.stat().st_size for f in files]
        for f, size in zip(files, sizes):
            found = file_source(f)(visit, warn)
            if not found and size:  # a worker's file replaced or damaged: its tests were left out silently
                warn(f"{f} holds no subunit test records (not a subunit stream); read the directory's other files")
            count += found
        if count == 0 and not any(sizes):  # was: "pass a stored run, or 'stestr last'"
            raise UserError(f"the recording in {path} holds no test: that pytest session ran none (exit status 5:"
                            " nothing collected, or -k/-m matched nothing); record a session that ran the failing test")
        return count

    return read
