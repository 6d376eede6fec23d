"""Reading subunit streams (v1 as stored by stestr/testr, or v2 as emitted by runners).

The stock v1 parser builds a test case object, a details dict and a content object for every
test, which makes a stored 10k-test run take seconds to read. The v1 reader here is a single
pass over the lines that keeps only what ordering needs (id, status, tags, timestamps) and the
text of failures, so reading is fast and memory holds one record at a time. v2 streams are read
with isolate.orders.v2_reader, as subunit's parser and testtools' ``StreamToDict`` read them,
without importing either (0.2 s of CPU, most of what `isolate extract` cost).

Records are pushed to a visitor in stream order, which within one worker is execution order.
"""

from __future__ import annotations

import codecs
import datetime as dt
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from isolate.orders.stream_writer import SIGNATURE
from isolate.orders.v2_reader import Damage, events
from isolate.words import counted, noun

FAILING = frozenset({"fail", "uxsuccess"})
FINAL = frozenset({"success", "fail", "skip", "xfail", "uxsuccess"})

_OUTCOMES = {
    b"success": "success",
    b"successful": "success",
    b"failure": "fail",
    b"error": "fail",
    b"skip": "skip",
    b"xfail": "xfail",
    b"uxsuccess": "uxsuccess",
}


@dataclass(frozen=True, slots=True)
class Record:
    """One test's final state: what ran, how it ended, and on which worker."""

    id: str
    status: str
    tags: frozenset[str]
    start: str | None
    stop: str | None
    details: str = ""
    cut: bool = False  # the stream ends while it ran (cut short, or its worker died): counted as failed

    @property
    def worker(self) -> str | None:
        """The `worker-N` tag stestr/testr gave the process that ran this test, if any."""
        for tag in self.tags:
            if tag.startswith("worker-"):
                return tag
        return None


Visitor = Callable[[Record], None]
Warn = Callable[[str], None]


def scan(fp: BinaryIO, visit: Visitor, warn: Warn) -> int:
    """Push every test record of a v1 or v2 stream to `visit`; return how many there were.

    The format is not sniffed from the first byte (a stream may start with stdout noise):
    v1 is read first, and a stream holding a v2 packet is read again as v2. A stream mixing
    both (a v2 file with a stored v1 run appended, or the reverse) yields the records of both,
    with a warning: the v1 records before the first v2 packet, then the v2 ones, then the rest.
    Damage (a cut or corrupt stream) is reported through `warn`, and what precedes it is kept.
    """
    start = fp.tell()
    v1_warnings: list[str] = []
    later: list[Record] = []  # v1 records after the first v2 packet, visited after the v2 ones
    count, saw_v2_byte = _scan_v1(fp, visit, v1_warnings.append, later.append)
    if not saw_v2_byte:
        for message in v1_warnings:
            warn(message)
        return count
    fp.seek(start)
    v2_warnings: list[str] = []
    v2_count = _scan_v2(fp, visit, v2_warnings.append)
    if count and v2_count:
        warn(f"the stream mixes subunit v1 ({counted(count, 'test')}) and v2 ({counted(v2_count, 'test')});"
             " read both, the v2 tests at the first v2 packet")
    for message in (v1_warnings if count else []) + v2_warnings:
        warn(message)
    for record in later:
        visit(record)
    return count + v2_count


def _tags_update(current: set[str], words: list[str]) -> None:
    for word in words:
        if word.startswith("-"):
            current.discard(word[1:])
        else:
            current.add(word)


def _scan_v1(fp: BinaryIO, visit: Visitor, warn: Warn, after_v2: Visitor) -> tuple[int, bool]:
    """A line-oriented reader of subunit v1 (the protocol is documented in subunit's README).
    Records after the first line starting with a v2 packet go to `after_v2` instead of `visit`."""
    global_tags: set[str] = set()
    test_tags: set[str] = set()
    now: str | None = None
    current: str | None = None
    start: str | None = None
    in_details = False
    count = 0
    lineno = 0
    saw_v2_byte = False
    cut_line = False  # the last line read ended without its newline, and nothing said so yet
    readline = fp.readline
    while True:
        line = readline()
        if not line:
            break
        lineno += 1
        cut_line = not line.endswith(b"\n")
        if line[0] == SIGNATURE and not saw_v2_byte:
            saw_v2_byte = True
            visit = after_v2
        space = line.find(b" ")
        if space <= 0 or not line[space + 1 :].strip():
            continue
        cmd = line[:space].rstrip(b":")
        if cmd == b"time":
            now = line[space + 1 :].strip().decode("ascii", "replace")
            continue
        if cmd == b"tags":
            words = line[space + 1 :].decode("utf8", "replace").split()
            _tags_update(test_tags if current is not None else global_tags, words)
            continue
        if cmd in (b"test", b"testing"):
            if current is None and not line.endswith(b"\n"):
                # cut mid-line: the id is incomplete (subunit's parser invents a test of that name)
                warn(f"stream ends at line {lineno} in the middle of a test's start; ignored that line")
                cut_line = False
            elif current is None:
                current = line[space + 1 : -1].decode("utf8", "replace")
                start = now
                test_tags = set()
            continue
        status = _OUTCOMES.get(cmd)
        if status is None or current is None:
            continue
        name = line[space + 1 :].removesuffix(b"\n").decode("utf8", "replace")
        details = ""
        if name == current or (not line.endswith(b"\n") and name.rstrip() == current):
            pass  # (cut after the id: the outcome was declared, whatever details were to follow)
        elif name == current + " [":
            text, lineno, ok = _read_simple(fp, lineno)
            details = text
            if not ok:
                in_details = True
                break
        elif name == current + " [ multipart":
            text, lineno, complete = _read_multipart(fp, lineno, want=status in FAILING)
            details = text
            if not complete:
                if complete is None:
                    warn(f"corrupt details for {current} at line {lineno}; kept its outcome")
                else:
                    in_details = True
                    break
        else:
            continue
        tags = global_tags | test_tags if test_tags else frozenset(global_tags)
        visit(Record(current, status, frozenset(tags), start, now, details))
        count += 1
        current = None
    if current is not None:
        where = " (in its details)" if in_details else ""
        warn(
            f"stream ends at line {lineno} in the middle of test {current}{where}:"
            " the run was cut short; kept the tests before it and counted it as failed"
        )
        tags = global_tags | test_tags
        visit(Record(current, "fail", frozenset(tags), start, now, "lost connection during test", cut=True))
        count += 1
    elif cut_line and count and not saw_v2_byte:
        # cut between two tests of a v1 stream: whatever ran after them is lost (QA: `isolate runs`
        # showed a stored run cut to 11 of its 102 tests as a shorter run, with no word of it)
        warn(f"stream ends at line {lineno} in the middle of a line: the run was cut short; kept the"
             f" {counted(count, 'test')} before it")
    return count, saw_v2_byte


def _read_simple(fp: BinaryIO, lineno: int) -> tuple[str, int, bool]:
    """Bracketed details: lines up to a lone `]`, with a leading ` ]` unquoted."""
    parts: list[bytes] = []
    while True:
        line = fp.readline()
        if not line:
            return b"".join(parts).decode("utf8", "replace"), lineno, False
        lineno += 1
        if line == b"]\n":
            return b"".join(parts).decode("utf8", "replace"), lineno, True
        parts.append(line[1:] if line.startswith(b" ]") else line)


def _read_multipart(fp: BinaryIO, lineno: int, want: bool) -> tuple[str, int, bool | None]:
    """MIME-typed, HTTP-chunked parts up to a lone `]`.

    Returns (text, lineno, ok) where ok is True when complete, False when the stream ended
    inside the details, and None when a chunk header was corrupt (the reader then skipped to
    the closing bracket).
    """
    texts: list[str] = []
    while True:
        line = fp.readline()
        if not line:
            return "\n".join(texts), lineno, False
        lineno += 1
        if line == b"]\n":
            return "\n".join(texts), lineno, True
        name = fp.readline()  # the part's name, e.g. "traceback"
        if not name:
            return "\n".join(texts), lineno, False
        lineno += 1
        body: list[bytes] = []
        while True:
            header = fp.readline()
            if not header:
                return "\n".join(texts), lineno, False
            lineno += 1
            try:
                size = int(header.strip(), 16)
            except ValueError:
                return "\n".join(texts), _skip_to_bracket(fp, lineno), None
            if size == 0:
                break
            chunk = fp.read(size)
            lineno += chunk.count(b"\n")
            if len(chunk) < size:
                return "\n".join(texts), lineno, False
            if want:
                body.append(chunk)
        if want and line.lower().startswith(b"content-type: text/"):
            texts.append(b"".join(body).decode("utf8", "replace"))


def _skip_to_bracket(fp: BinaryIO, lineno: int) -> int:
    for line in iter(fp.readline, b""):
        lineno += 1
        if line == b"]\n":
            break
    return lineno


def _scan_v2(fp: BinaryIO, visit: Visitor, warn: Warn) -> int:
    """Subunit v2 (isolate.orders.v2_reader), each test as testtools' ``StreamToDict`` gathers it
    from the packets: the packets of one test id and route code from its first to its final
    status (the file contents joined, the last tags given, the first and last timestamps), and
    the tests that never reached one at the end, last started first. Bytes between packets are
    skipped."""
    count = 0
    damage: list[Damage] = []  # in stream order
    cut_tests: list[str] = []  # tests started before the end of the stream, never ended
    last = ""  # the last test that ended
    open_tests: dict[tuple[str, str | None], _V2Test] = {}
    after_end = AfterEnd()

    def on_test(test: _V2Test) -> None:
        nonlocal count, last
        status = test.status
        if status == "exists":
            return
        cut = status == "inprogress"
        if cut:
            cut_tests.append(test.id)
            status = "fail"
        else:
            last = test.id
        text = "\n".join(test.text(name) for name in test.files if _is_text(test.mime_types[name])) \
            if status in FAILING else ""
        visit(Record(test.id, status, test.tags, _iso(test.start), _iso(test.stop), text, cut))
        count += 1

    for event in events(fp.read()):
        if isinstance(event, Damage):
            damage.append(event)
            continue
        if event.test_id is None or after_end.drops(event.test_id, event.test_status):
            continue
        key = (event.test_id, event.route_code)
        test = open_tests.get(key)
        if test is None:
            test = open_tests[key] = _V2Test(event.test_id, start=event.timestamp)
        if event.test_status is not None:
            test.status = event.test_status
        test.stop = event.timestamp
        if event.file_name is not None and event.file_bytes:
            if event.file_name not in test.files:
                test.files[event.file_name] = []
                test.mime_types[event.file_name] = event.mime_type
            test.files[event.file_name].append(event.file_bytes)
        if event.test_tags is not None:
            test.tags = event.test_tags
        if event.test_status not in (None, "inprogress"):
            on_test(open_tests.pop(key))
    while open_tests:
        test = open_tests.popitem()[1]
        test.stop = None
        on_test(test)
    for message in _v2_damage(damage, cut_tests, count - len(cut_tests), last):
        warn(message)
    return count


@dataclass
class _V2Test:
    """One test's packets so far (_scan_v2)."""

    id: str
    start: dt.datetime | None
    stop: dt.datetime | None = None
    status: str = "unknown"  # no status yet: only files
    tags: frozenset[str] = frozenset()
    files: dict[str, list[bytes]] = field(default_factory=dict)
    mime_types: dict[str, str | None] = field(default_factory=dict)

    def text(self, name: str) -> str:
        """A file's text in its charset (ISO-8859-1 when it names none, as testtools reads it)."""
        charset = "iso-8859-1"
        for param in (self.mime_types[name] or "").split(";")[1:]:
            key, _, value = param.partition("=")
            if key.strip().lower() == "charset":
                charset = value.strip().strip('"')
        try:
            codecs.lookup(charset)
        except LookupError:
            charset = "utf-8"
        return b"".join(self.files[name]).decode(charset, "replace")


def _is_text(mime_type: str | None) -> bool:
    """Whether a file is text, as testtools reads its MIME type (through the email package: no
    type is application/octet-stream, a malformed one text/plain)."""
    if mime_type is None:
        return False
    full = mime_type.partition(";")[0].strip().lower()
    return full.count("/") != 1 or full.split("/")[0] == "text"


def _v2_damage(damage: list[Damage], cut_tests: list[str], complete: int, last: str) -> list[str]:
    """The damage of a v2 stream in words, a line each. A stream cut mid-record (a copy or upload
    that stopped) ends inside its last packet: that is one line saying where it was cut, and the
    test it cut, counted as failed (what ran before it is whole); any other damage is corruption."""
    cut = bool(damage) and damage[-1].cut
    corrupt = damage[:-1] if cut else damage
    out = ["the v2 stream is corrupt after the last complete test; kept the tests before it"] if corrupt else []
    after = f" after its {counted(complete, 'complete test')} (the last {last})" if last else " before any test ended"
    started = (f"; {', '.join(cut_tests)} had started, {noun(len(cut_tests), 'its', 'their')} outcome lost:"
               f" counted as failed" if cut_tests else "")
    if cut:
        out.append(f"the stream is cut short in the middle of a record{after}: its order is usable up to the cut"
                   f"{started}")
    elif cut_tests:
        out.append(f"stream ends in the middle of test {', '.join(cut_tests)}: the run was cut short;"
                   " counted it as failed")
    return out


class AfterEnd:
    """Which v2 events come after a test ended and before it starts again: unittest reports an
    error in a test and another in its tearDown or cleanups as two failures (testtools and
    stestr's runner write both), and the second would read as another run of the test. Such
    events are dropped, so the test's run stays as its first failure left it; only
    ``inprogress`` starts another run (the victim repeated). Ids that never start (a class or
    module fixture's ``setUpClass (pkg.mod.Class)``) are never dropped. The stored-run reader
    here and the judge of a new run (isolate.running.judge) read streams with it."""

    def __init__(self) -> None:
        self._ended: dict[str, bool] = {}  # a test that started: whether its last run has ended

    def drops(self, test_id: str | None, status: str | None) -> bool:
        """Whether this event is one to drop; it is noted either way."""
        if test_id is None or status == "exists":
            return False
        if status == "inprogress":
            self._ended[test_id] = False
            return False
        if self._ended.get(test_id):
            return True
        if status in FINAL and test_id in self._ended:
            self._ended[test_id] = True
        return False


def _iso(stamp: object) -> str | None:
    if stamp is None:
        return None
    text = stamp.isoformat(sep=" ")  # type: ignore[attr-defined]
    return text.replace("+00:00", "Z")


_COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"))
ZIP_MAGIC = b"PK\x03\x04"


def compression(fp: BinaryIO) -> str | None:
    """"gzip", "bzip2", "xz" or "zip" when the stream at `fp` starts so (CI keeps its subunit
    artifacts compressed: Zuul's `testrepository.subunit.gz`), else None; `fp` stays where it was."""
    start = fp.tell()
    head = fp.read(6)
    fp.seek(start)
    if head.startswith(ZIP_MAGIC):
        return "zip"
    return next((name for magic, name in _COMPRESSED if head.startswith(magic)), None)


def decompressed(fp: BinaryIO, kind: str, label: str, warn: Warn) -> BinaryIO:
    """The contents of a gzip, bzip2 or xz stream (its members one after the other), spooled to
    disk past 64 MiB; a file cut short (an interrupted download) or damaged gives what came
    before, with a warning."""
    import bz2
    import lzma
    import tempfile
    import zlib

    def fresh() -> Any:
        return {"gzip": lambda: zlib.decompressobj(wbits=31), "bzip2": bz2.BZ2Decompressor,
                "xz": lzma.LZMADecompressor}[kind]()

    spool = tempfile.SpooledTemporaryFile(max_size=64 << 20)
    member = fresh()
    try:
        while chunk := fp.read(1 << 16):
            while chunk:
                spool.write(member.decompress(chunk))
                chunk = member.unused_data if member.eof else b""
                if member.eof and chunk.strip(b"\0"):  # another member follows (a concatenated file)
                    member = fresh()
                elif member.eof:
                    chunk = b""  # (zero padding after the last member, as gzip allows)
        problem = None if member.eof else "is cut short"
    except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
        problem = f"is damaged ({exc})"
    if problem:
        warn(f"{label}: its {kind} data {problem}; read the {spool.tell()} bytes before that (copy the file"
             " again for the rest)")
    spool.seek(0)
    return spool  # type: ignore[return-value]


def seekable(fp: BinaryIO) -> BinaryIO:
    """A seekable copy of a pipe (stdin), spooled to disk past 64 MiB."""
    try:
        fp.seek(0, io.SEEK_CUR)
        return fp
    except (OSError, io.UnsupportedOperation):
        import tempfile

        spool = tempfile.SpooledTemporaryFile(max_size=64 << 20)
        while chunk := fp.read(1 << 20):
            spool.write(chunk)
        spool.seek(0)
        return spool  # type: ignore[return-value]
