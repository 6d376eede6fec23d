"""isolate.orders.v2_reader reads what subunit's own parser reads: every field of every packet,
and a stream cut at any byte or with a damaged packet is damaged at the same packets and goes on
at the same byte."""

from __future__ import annotations

import io
import tempfile
import zlib
from typing import Any

import subunit

from isolate.orders.v2_reader import Damage, Event, events
from test_stream_writer import EVENTS

FIELDS = ("test_id", "test_status", "test_tags", "runnable", "file_name", "file_bytes", "eof",
          "mime_type", "route_code", "timestamp")


def written(*statuses: dict[str, Any]) -> bytes:
    """The stream subunit's writer writes for these `status` calls."""
    out = io.BytesIO()
    writer = subunit.StreamResultToBytes(out)
    for event in statuses:
        writer.status(**event)
    return out.getvalue()


def stock(data: bytes, noise: str | None = None) -> list[tuple[Any, ...]]:
    """What subunit's parser passes to `status`, one tuple a packet; a damaged packet (reported as
    the two events of a failed test `subunit.parser`) is ("damage",)."""
    seen: list[dict[str, Any]] = []

    class Recorder:
        def status(self, **kw: Any) -> None:
            seen.append(kw)

    with tempfile.TemporaryFile() as fp:  # a file, as isolate reads: subunit reads bytes between
        fp.write(data)                      # packets from a file otherwise than from memory
        fp.seek(0)
        subunit.ByteStreamToStreamResult(fp, non_subunit_name=noise).run(Recorder())
    out: list[tuple[Any, ...]] = []
    for kw in seen:
        if noise and kw.get("file_name") == noise and kw.get("test_id") is None:
            continue
        if kw["test_id"] == "subunit.parser":
            if kw["file_name"] == "Parser Error":
                out.append(("damage",))
            continue
        out.append(tuple(bytes(kw[f]) if f == "file_bytes" and kw[f] is not None
                         else set(kw[f]) if f == "test_tags" and kw[f] is not None else kw[f] for f in FIELDS))
    return out


def mine(data: bytes) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for event in events(data):
        if isinstance(event, Damage):
            assert event.reason
            out.append(("damage",))
        else:
            assert isinstance(event, Event)
            out.append(tuple(set(getattr(event, f)) if f == "test_tags" and event.test_tags is not None
                             else getattr(event, f) for f in FIELDS))
    return out


def test_every_field_and_every_length_of_packet_reads_as_subunit_reads_it() -> None:
    data = written(*EVENTS)
    expected = stock(data)
    assert len(expected) == len(EVENTS) and not any(e[0] == "damage" for e in expected)
    assert mine(data) == expected


SMALL = [e for e in EVENTS if len(e.get("file_bytes", b"")) < 100]


def test_a_stream_cut_at_any_byte_reads_as_subunit_reads_it() -> None:
    """A run that dies while writing leaves a cut packet: the packets before it are whole, the cut
    one is damage, and nothing is invented after it."""
    data = written(*SMALL)
    damaged = 0
    for end in range(len(data) + 1):
        cut = data[:end]
        expected = stock(cut)
        assert mine(cut) == expected, end
        damaged += bool(expected and expected[-1][0] == "damage")
    assert damaged > len(data) // 2


def test_a_damaged_packet_is_skipped_and_the_next_ones_read() -> None:
    """A changed byte anywhere after a packet's length fails its CRC (or a field that no longer fits);
    the reader goes on at the byte after the bytes the packet claimed, as subunit's does."""
    packets = [written(e) for e in SMALL]
    data = b"".join(packets)
    compared = 0
    offset = 0
    for one in packets:
        length_bytes = (one[3] >> 6) + 1
        for at in range(offset + 3 + length_bytes, offset + len(one)):
            changed = bytearray(data)
            changed[at] ^= 0x55
            expected = stock(bytes(changed))
            if any(e[0] == "damage" for e in expected):
                assert mine(bytes(changed)) == expected, at
                compared += 1
        offset += len(one)
    assert compared > len(data) // 2


def test_bytes_between_packets_are_skipped_as_subunit_skips_them() -> None:
    """A runner's stdout holds the tests' prints between packets: subunit passes them on as a file
    of no test, and a 0xB3 byte among them starts a packet unless it continues a UTF-8 character
    (the second byte of "³" is 0xB3), as subunit reads a file (it reads memory otherwise). Without a
    name for such bytes subunit stops at the first."""
    packets = [written(e) for e in SMALL[:4]]
    compared = raised = 0
    for noise in (b"plain print\n", "caf\u00e9 \u00b3 x\u00b3".encode(), b"\xc3", b"\xc3 stale \xb3",
                  b"\xe2\x82", b"\xff\xb3", "\u00b3".encode() * 3, b"\xb3"):
        for at in range(len(packets) + 1):
            data = b"".join(packets[:at]) + noise + b"".join(packets[at:])
            try:
                expected = stock(data, noise="stdout")
            except ValueError:  # a packet claiming under 6 bytes: subunit asks a file for a negative
                assert ("damage",) in mine(data)  # read and raises; isolate reads on
                raised += 1
                continue
            assert mine(data) == expected, (noise, at)
            compared += 1
    assert compared >= 30 and raised  # both kinds were met
    assert [e[0] for e in mine(b"noise" + b"".join(packets))] == [e[0] for e in stock(b"".join(packets))]


def test_a_string_with_a_nul_byte_or_not_utf8_is_damage() -> None:
    good = written({"test_id": "t", "test_status": "success"})
    for test_id in (b"a\0b", b"\xff\xfe"):
        data = bytearray(written({"test_id": "x" * len(test_id), "test_status": "fail"}))
        at = data.index(b"x" * len(test_id))
        data[at : at + len(test_id)] = test_id
        body = bytes(data[:-4])
        data[-4:] = (zlib.crc32(body) & 0xFFFFFFFF).to_bytes(4, "big")  # a valid packet but for its id
        expected = stock(bytes(data) + good)
        assert [e[0] for e in expected] == ["damage", "t"]
        assert mine(bytes(data) + good) == expected
