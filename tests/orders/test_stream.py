"""The fast v1 reader must agree with subunit's own parser, record for record, on any input."""

from __future__ import annotations

import io
import unittest

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


def test_every_cut_point_agrees_with_stock_parser() -> None:
    """A file cut anywhere yields what subunit yields: the tests before, the cut one as failed."""
    data = v1_stream()
    compared = 0
    for end in range(0, len(data), 7):
        cut = data[:end]
        records, warnings = mine(cut)
        try:
            expected = stock(cut)
        except Exception:  # subunit itself raises on a cut `time:` line; isolate reads on
            continue
        compared += 1
        assert [(r.id, r.status) for r in records] == [(i, s) for i, s, _ in expected], end
        if records and records[-1].details == "lost connection during test":
            assert warnings and "cut short" in warnings[0], end
    assert compared > len(data) // 7 * 0.9


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
