"""The fast v1 reader must agree with subunit's own parser, record for record, on any input."""

from __future__ import annotations

import io
import re
import unittest
from pathlib import Path

import subunit
import testtools

from isolate.orders.stream import Record, scan, seekable


class _Sample(testtools.TestCase):
    """testtools reports details, so subunit writes them multipart and chunked, as stestr stores them."""

    __test__ = False  # run by the tests below through subunit, not collected by pytest

    def test_pass(self) -> None:
        pass

    def test_fail(self) -> None:
        self.fail("first\n]\n ] quoted\nlast")

    def test_error(self) -> None:
        raise ValueError("x" * 5000)

    def test_skip(self) -> None:
        self.skipTest("not here")

    def test_xfail(self) -> None:
        self.expectFailure("known", self.fail, "expected")

    def test_uxsuccess(self) -> None:
        self.expectFailure("known", lambda: None)


def v1_stream(worker_of: dict[str, str] | None = None) -> bytes:
    """A v1 stream written by subunit's own v1 client, with stestr-style global worker tags."""
    out = io.BytesIO()
    client = subunit.TestProtocolClient(out)
    suite = unittest.TestLoader().loadTestsFromTestCase(_Sample)
    for i, case in enumerate(suite):
        tag = (worker_of or {}).get(case.id(), f"worker-{i % 2}")
        out.write(f"time: 2026-01-01 00:00:{i:02d}.000000Z\n".encode())
        client.tags({tag}, set())
        case.run(testtools.ExtendedToOriginalDecorator(client))
        client.tags(set(), {tag})
        out.write(b"noise from a print() outside any test\n")
    return out.getvalue()


def stock(data: bytes) -> list[tuple[str, str, frozenset[str]]]:
    seen: list[tuple[str, str, frozenset[str]]] = []
    result = testtools.StreamToDict(
        lambda t: seen.append((t["id"], t["status"], frozenset(t["tags"]))) if t["status"] != "exists" else None
    )
    decorated = testtools.ExtendedToStreamDecorator(result)
    decorated.startTestRun()
    subunit.ProtocolTestCase(io.BytesIO(data), passthrough=io.BytesIO()).run(decorated)
    decorated.stopTestRun()
    return seen


def mine(data: bytes) -> tuple[list[Record], list[str]]:
    records: list[Record] = []
    warnings: list[str] = []
    scan(io.BytesIO(data), records.append, warnings.append)
    return records, warnings


def test_v1_matches_stock_parser() -> None:
    data = v1_stream()
    records, warnings = mine(data)
    assert [(r.id, r.status, r.tags) for r in records] == stock(data)
    assert warnings == []
    statuses = {r.id.rsplit(".", 1)[1]: r.status for r in records}
    assert statuses == {
        "test_pass": "success", "test_fail": "fail", "test_error": "fail", "test_skip": "skip",
        "test_xfail": "xfail", "test_uxsuccess": "uxsuccess",
    }


def test_failure_text_survives_brackets_and_chunking() -> None:
    records, _ = mine(v1_stream())
    failed = {r.id.rsplit(".", 1)[1]: r.details for r in records if r.status == "fail"}
    assert "first\n]\n ] quoted\nlast" in failed["test_fail"]
    assert "ValueError: " + "x" * 5000 in failed["test_error"]
    assert all(r.details == "" for r in records if r.status not in ("fail", "uxsuccess"))


def test_timestamps_and_tags() -> None:
    records, _ = mine(v1_stream({}))
    assert [r.worker for r in records] == [f"worker-{i % 2}" for i in range(len(records))]
    assert records[0].start == "2026-01-01 00:00:00.000000Z"


DECLARED = {b"success": "success", b"successful": "success", b"skip": "skip", b"xfail": "xfail",
            b"uxsuccess": "uxsuccess", b"failure": "fail", b"error": "fail"}


def test_every_cut_point_agrees_with_stock_parser() -> None:
    """A file cut anywhere (every byte: the fixture's length depends on the checkout's path) yields
    what subunit yields: the tests before, the cut one as failed. One deliberate difference: an
    outcome line cut after its complete test id (`success: <id>`, `uxsuccess: <id> `) keeps its
    declared outcome; subunit drops the last byte of a cut line, so it reads the first as a cut
    test and the second as complete. Inside the 5,000 "x" of test_error's message (a run of one
    byte, inside one chunk) a cut differs only by how much of the run it keeps: there the cuts
    are the 8 bytes at either end of the run and every 100th (subunit's parser is 98% of the
    test's time, and the run 70% of the stream)."""
    data = v1_stream()
    full_ids = {i for i, _, _ in stock(data)}
    run = re.search(rb"x{5000}", data)
    assert run
    ends = [end for end in range(len(data))
            if not run.start() + 8 <= end <= run.end() - 8 or (end - run.start()) % 100 == 0]
    compared = declared = 0
    for end in ends:
        cut = data[:end]
        records, warnings = mine(cut)
        try:
            expected = stock(cut)
        except Exception:  # subunit itself raises on a cut `time:` line; isolate reads on
            continue
        compared += 1
        if expected and expected[-1][0] not in full_ids:  # cut inside `test: <id>`: subunit invents
            assert warnings and "middle of a test's start" in warnings[-1], end  # a test of the partial
            expected = expected[:-1]  # id; isolate ignores the cut line, with a warning
        keyword, _, rest = cut.rpartition(b"\n")[2].partition(b": ")
        if keyword in DECLARED and expected and rest.decode().rstrip() == expected[-1][0]:
            assert records[-1].id == expected[-1][0] and records[-1].status == DECLARED[keyword], end
            expected, records = expected[:-1], records[:-1]
            declared += 1
        assert [(r.id, r.status) for r in records] == [(i, s) for i, s, _ in expected], end
        if records and records[-1].details == "lost connection during test":
            assert warnings and "cut short" in warnings[0], end
    assert compared > len(ends) * 0.9 and declared > 0


def test_a_v1_stream_cut_between_two_tests_says_so() -> None:
    """Cut inside a line that is no test's (`time:`, `tags:`), the run reads as a shorter one; it
    said nothing (QA: `isolate runs` listed a stored run cut to 11 of its 102 tests without a word)."""
    for tail in (b"time: 2026-01-01 00:0", b"tags: worker-"):
        records, warnings = mine(b"test: a\nsuccess: a\ntest: b\nsuccess: b\n" + tail)
        assert [(r.id, r.status) for r in records] == [("a", "success"), ("b", "success")]
        assert warnings == ["stream ends at line 5 in the middle of a line: the run was cut short; kept the 2"
                            " tests before it"], warnings
    assert mine(b"test: a\nsuccess: a\ntime: 2026-01-01 00:00:00Z\n")[1] == []  # whole: nothing to say


def test_simple_bracket_details_and_test_local_tags() -> None:
    data = (
        b"test: a\ntags: local\nfailure: a [\nline one\n ]escaped\n]\n"
        b"testing b\nsuccess b\n"
        b"test: c\nxfail: c [\nwhy\n]\n"
    )
    records, _ = mine(data)
    assert [(r.id, r.status, set(r.tags)) for r in records] == [
        ("a", "fail", {"local"}), ("b", "success", set()), ("c", "xfail", set())
    ]
    assert records[0].details == "line one\n]escaped\n"
    assert [(i, s, set(t)) for i, s, t in stock(data)] == [(r.id, r.status, set(r.tags)) for r in records]


def test_corrupt_chunk_header_keeps_outcome_and_warns() -> None:
    data = (
        b"test: a\nfailure: a [ multipart\nContent-Type: text/plain\ntraceback\nZZ\r\nbody\n]\n"
        b"test: b\nsuccess: b\n"
    )
    records, warnings = mine(data)
    assert [(r.id, r.status) for r in records] == [("a", "fail"), ("b", "success")]
    assert len(warnings) == 1 and "corrupt details for a at line" in warnings[0]


def v2_stream(noise: bytes = b"") -> bytes:
    out = io.BytesIO()
    out.write(noise)
    stream = subunit.StreamResultToBytes(out)
    for i, status in enumerate(["success", "fail", "skip", "uxsuccess"]):
        tags = {f"worker-{i % 2}"}
        stream.status(test_id=f"t{i}", test_status="exists")
        stream.status(test_id=f"t{i}", test_status="inprogress", test_tags=tags)
        if status == "fail":
            stream.status(test_id=f"t{i}", file_name="traceback", file_bytes=b"AssertionError: v2 boom",
                          mime_type="text/plain;charset=utf8", test_tags=tags)
        stream.status(test_id=f"t{i}", test_status=status, test_tags=tags)
    return out.getvalue()


def test_v2_with_leading_noise() -> None:
    for noise in (b"", b"Running tests...\nstarting\n"):
        records, warnings = mine(v2_stream(noise))
        assert [(r.id, r.status, r.worker) for r in records] == [
            ("t0", "success", "worker-0"), ("t1", "fail", "worker-1"),
            ("t2", "skip", "worker-0"), ("t3", "uxsuccess", "worker-1"),
        ]
        assert records[1].details == "AssertionError: v2 boom"
        assert warnings == []


def test_v2_cut_mid_test_warns_and_keeps_the_rest() -> None:
    data = v2_stream()
    records, warnings = mine(data[: len(data) - 5])
    assert [r.id for r in records][:3] == ["t0", "t1", "t2"]
    assert warnings, "a cut v2 stream must be reported"


def test_empty_and_garbage_yield_nothing() -> None:
    assert mine(b"") == ([], [])
    assert mine(b"hello\nworld\n\xb3garbage")[0] == []


def test_seekable_spools_a_pipe() -> None:
    import os

    read, write = os.pipe()
    os.write(write, v2_stream())
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        fp = seekable(pipe)
        records: list[Record] = []
        assert scan(fp, records.append, lambda _: None) == 4


def test_a_v2_stream_then_a_v1_run_keeps_both_parts() -> None:
    """`cat ci.subunit .stestr/3 > all.subunit`: reading only the v1 part dropped the v2 tests."""
    v1_ids = [i for i, _, _ in stock(v1_stream())]
    for data, order in ((v2_stream() + v1_stream(), ["t0", "t1", "t2", "t3", *v1_ids]),
                        (v1_stream() + v2_stream(), [*v1_ids, "t0", "t1", "t2", "t3"])):
        records, warnings = mine(data)
        assert [r.id for r in records] == order
        assert warnings == ["the stream mixes subunit v1 (6 tests) and v2 (4 tests); read both,"
                            " the v2 tests at the first v2 packet"]
        assert scan(io.BytesIO(data), lambda r: None, lambda w: None) == 10


# -- property: random truncation and corruption -------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

V1 = v1_stream()
V2 = v2_stream()
V1_FULL = [(r.id, r.status) for r in mine(V1)[0]]
V2_FULL = [(r.id, r.status) for r in mine(V2)[0]]


@settings(max_examples=300, deadline=None)
@given(which=st.sampled_from(["v1", "v2"]), cut=st.integers(0, 20_000),
       flips=st.lists(st.tuples(st.integers(0, 20_000), st.integers(0, 255)), max_size=3))
def test_stream_reader_survives_truncation_and_corruption(which: str, cut: int, flips: list[tuple[int, int]]) -> None:
    """Any damage: no exception, never more records than were written (plus none invented
    from nothing); a stream that was only cut yields what was written before the cut, every
    record the same test with the same outcome, except the one cut mid-test, counted failed."""
    full, written = (V1, V1_FULL) if which == "v1" else (V2, V2_FULL)
    data = bytearray(full[:cut])
    for position, value in flips:
        if data:
            data[position % len(data)] = value
    records, warnings = mine(bytes(data))
    assert len(records) <= len(written)
    if not flips:
        got = [(r.id, r.status) for r in records]
        assert [i for i, _ in got] == [i for i, _ in written[:len(got)]], "records out of thin air"
        assert got[:-1] == written[:max(0, len(got) - 1)]
        if got and got[-1] != written[len(got) - 1]:
            assert got[-1][1] == "fail" and warnings, "only the test cut mid-way may differ: failed, with a warning"
        if len(data) == len(full):
            assert got == written and warnings == []


class _Twice(unittest.TestCase):
    """A plain unittest test that fails in the test and again in tearDown: unittest reports two
    failures of one test."""

    __test__ = False

    def test_twice(self) -> None:
        raise ValueError("in the test")

    def tearDown(self) -> None:
        raise OSError("in tearDown")

    def test_after(self) -> None:
        self.addCleanup(lambda: None)


def test_v2_a_test_that_failed_twice_is_one_record() -> None:
    from subunit.test_results import AutoTimingTestResultDecorator

    out = io.BytesIO()
    result = AutoTimingTestResultDecorator(testtools.ExtendedToStreamDecorator(subunit.StreamResultToBytes(out)))
    suite = unittest.TestSuite([_Twice("test_twice"), _Twice("test_after"), _Twice("test_twice")])
    result.startTestRun()
    suite.run(result)
    result.stopTestRun()
    records, warnings = mine(out.getvalue())
    assert [(r.id.rsplit(".", 1)[1], r.status) for r in records] == [
        ("test_twice", "fail"), ("test_after", "fail"), ("test_twice", "fail")]
    assert "ValueError: in the test" in records[0].details and "OSError" not in records[0].details
    assert warnings == []


# -- v2 read without subunit: what the stock parser and testtools' StreamToDict read -------------

def stock_v2(data: bytes) -> tuple[list[Record], list[str]]:
    """The v2 reader isolate had before isolate.orders.v2_reader: subunit's parser into testtools'
    StreamToDict, its damage told by the parser's errors. The reference the reader is held to."""
    import tempfile
    from typing import Any

    from isolate.orders.stream import FAILING, AfterEnd, _iso, _v2_damage
    from isolate.orders.v2_reader import Damage

    records: list[Record] = []
    parser_errors: list[str] = []
    cut_tests: list[str] = []
    last = ""

    def on_test(test: dict) -> None:  # type: ignore[type-arg]
        nonlocal last
        status = test["status"]
        if status == "exists":
            return
        details = test["details"]
        if test["id"] == "subunit.parser":
            error = details.get("Parser Error")
            parser_errors.append(error.as_text() if error is not None else "")
            return
        cut = status in ("inprogress", None)
        if cut:
            cut_tests.append(test["id"])
            status = "fail"
        else:
            last = test["id"]
        text = "\n".join(c.as_text() for c in details.values() if c.content_type.type == "text") \
            if status in FAILING else ""
        stamps = test["timestamps"]
        records.append(Record(test["id"], status, frozenset(test["tags"]), _iso(stamps[0]), _iso(stamps[1]), text, cut))

    to_dict = testtools.StreamToDict(on_test)  # type: ignore[arg-type]
    after_end = AfterEnd()

    class Dropped(testtools.StreamResult):
        def status(self, **kw: Any) -> None:  # type: ignore[override]
            if not after_end.drops(kw.get("test_id"), kw.get("test_status")):
                to_dict.status(**kw)

    to_dict.startTestRun()
    with tempfile.TemporaryFile() as fp:
        fp.write(data)
        fp.seek(0)
        subunit.ByteStreamToStreamResult(fp, non_subunit_name="stdout").run(Dropped())
    to_dict.stopTestRun()
    # the damage in words is _v2_damage's; what is held to the stock path is which damage is a cut
    damage = [Damage(error, cut=error.startswith("Short read")) for error in parser_errors]
    return records, _v2_damage(damage, cut_tests, len(records) - len(cut_tests), last)


def odd_v2_stream() -> bytes:
    """What real runners write besides the plain case: two workers' route codes running one id,
    a test with only a file (status "unknown"), tags changed mid-test, files of every kind of MIME
    type (none, malformed, Latin-1, a quoted charset, binary), prints between packets, a test cut."""
    import datetime as dt

    out = io.BytesIO()
    s = subunit.StreamResultToBytes(out)
    at = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.timezone.utc)
    s.status(test_id="a", test_status="inprogress", route_code="0", timestamp=at, test_tags={"worker-0"})
    s.status(test_id="a", test_status="inprogress", route_code="1", timestamp=at, test_tags={"worker-1"})
    out.write("print café ³\n".encode())
    s.status(test_id="a", file_name="traceback", file_bytes=b"boom \xe9", mime_type="text/plain; charset=latin-1",
             route_code="1")
    s.status(test_id="a", file_name="bin", file_bytes=b"\x00\xff", mime_type="application/octet-stream", route_code="1")
    s.status(test_id="a", file_name="odd", file_bytes=b"odd \xe9", mime_type="garbage", route_code="1")
    s.status(test_id="a", file_name="none", file_bytes=b"no type", route_code="1")
    s.status(test_id="a", file_name="q", file_bytes="ünï".encode(), mime_type='text/x-traceback; charset="utf8"',
             route_code="1", test_tags={"worker-1", "late"})
    s.status(test_id="a", test_status="fail", route_code="1", timestamp=at + dt.timedelta(seconds=2))
    s.status(test_id="a", test_status="success", route_code="0", timestamp=at + dt.timedelta(seconds=3))
    s.status(test_id="files-only", file_name="stdout", file_bytes=b"hi", mime_type="text/plain")
    s.status(test_id="b", test_status="exists")
    s.status(test_id="b", test_status="inprogress", timestamp=at)
    s.status(test_id="b", test_status="xfail", timestamp=at)
    s.status(test_id="c", test_status="inprogress", timestamp=at)
    s.status(test_id="d", test_status="inprogress", timestamp=at)
    return out.getvalue()


def test_v2_reads_as_subunit_and_testtools_read_it_whole_and_cut_anywhere() -> None:
    for data in (v2_stream(), v2_stream(b"Running tests...\n"), odd_v2_stream()):
        full = stock_v2(data)
        assert mine(data) == full
        for end in range(len(data)):
            assert mine(data[:end]) == stock_v2(data[:end]), end
    records, warnings = mine(odd_v2_stream())
    # route 0's "a" ends after route 1's: dropped as a second end of "a" (AfterEnd), so it never ends
    assert [(r.id, r.status) for r in records] == [("a", "fail"), ("b", "xfail"), ("d", "fail"), ("c", "fail"),
                                                   ("files-only", "unknown"), ("a", "fail")]
    assert records[0].details == "boom é\nodd é\nünï" and records[0].tags == {"worker-1", "late"}
    assert warnings == ["stream ends in the middle of test d, c, a: the run was cut short; counted it as failed"]


def test_a_real_runners_stream_reads_as_subunit_and_testtools_read_it(tmp_path: Path) -> None:
    """What a stestr worker writes (subunit.run, testtools' writer), on a sample suite with a
    failure: read whole, and cut at 300 points."""
    import subprocess
    import sys

    from conftest import copy_suite

    suite = copy_suite("deterministic_polluter", tmp_path)
    data = subprocess.run([sys.executable, "-m", "subunit.run", "discover", "-t", ".", "reportgen"], cwd=suite,
                          capture_output=True, check=True).stdout
    records, warnings = mine(data)
    assert (records, warnings) == stock_v2(data) and len(records) > 100 and not warnings
    assert any(r.status == "fail" and "expected default 'USD'" in r.details for r in records)
    for end in range(0, len(data), max(1, len(data) // 300)):
        assert mine(data[:end]) == stock_v2(data[:end]), end
