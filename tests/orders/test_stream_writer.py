"""isolate.orders.stream_writer writes the bytes subunit's own writer does, for every field and
every size of packet, and what it splits comes back whole."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest
import subunit

from isolate.orders.stream_writer import MAX_FILE_BYTES, StreamWriter, number, packet

UTC = dt.timezone.utc
EVENTS: list[dict[str, Any]] = [
    {},
    {"test_id": "pkg.mod.Class.test_x", "test_status": "inprogress"},
    {"test_id": "pkg.mod.Class.test_x(ünïcode ✓)", "test_status": "success",
     "timestamp": dt.datetime(2026, 11, 27, 9, 1, 2, 345678, tzinfo=UTC)},
    {"test_id": "t", "test_status": "fail", "test_tags": ["worker-0"], "runnable": False},
    {"test_id": "t", "file_name": "traceback", "file_bytes": b"Traceback ...\n",
     "mime_type": 'text/x-traceback; charset="utf8"; language="python"', "eof": True},
    {"test_id": "t", "file_name": "reason", "file_bytes": b"", "eof": True, "route_code": "0/1"},
    {"test_status": "exists", "test_id": "t", "timestamp": dt.datetime(1970, 1, 1, tzinfo=UTC)},
    *({"test_id": "t", "test_status": status} for status in ("uxsuccess", "skip", "xfail")),
    # packet lengths on each side of the 1-, 2- and 3-byte length encodings
    *({"test_id": "t", "file_name": "f", "file_bytes": b"x" * n} for n in
      (40, 45, 46, 47, 48, 16360, 16365, 16366, 16367, 16368, 4_194_270, 4_194_285)),
]


@pytest.mark.parametrize("event", EVENTS)
def test_a_packet_is_what_subunit_writes(event: dict[str, Any]) -> None:
    expected = io.BytesIO()
    subunit.StreamResultToBytes(expected).status(**event)
    assert packet(**event) == expected.getvalue()


def test_packets_subunit_cannot_write_are_refused_too() -> None:
    with pytest.raises(ValueError, match="too long"):
        packet(test_id="t", file_name="f", file_bytes=b"x" * 4_194_300)
    with pytest.raises(ValueError):
        number(1 << 30)


def test_a_large_attachment_is_split_and_read_back_whole() -> None:
    out = io.BytesIO()
    data = bytes(range(256)) * (2 * MAX_FILE_BYTES // 256 + 7)
    writer = StreamWriter(out)
    writer.status(test_id="t", test_status="inprogress")
    writer.file(test_id="t", name="traceback", chunks=[b"head\n", data, b""], mime_type="text/plain")
    writer.status(test_id="t", test_status="fail")
    events: list[dict[str, Any]] = []

    class Recorder:
        def status(self, **kw: Any) -> None:
            events.append(kw)

    out.seek(0)
    subunit.ByteStreamToStreamResult(out, non_subunit_name=None).run(Recorder())
    files = [e for e in events if e.get("file_name")]
    assert len(files) == 5  # head, the data in three packets, the empty last chunk
    assert [bool(e["eof"]) for e in files] == [False, False, False, False, True]
    assert b"".join(bytes(e["file_bytes"]) for e in files) == b"head\n" + data
    assert [e["test_status"] for e in events if e.get("test_status")] == ["inprogress", "fail"]
