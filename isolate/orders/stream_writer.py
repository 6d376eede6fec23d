"""Writes subunit v2 with the standard library alone: the bytes ``subunit.StreamResultToBytes``
writes for the same events.

The processes that run tests write their stream with it (isolate.running.child for a list whose
tests do not use testtools, and the pytest recorder, isolate.orders.pytest_plugin): importing
subunit pulls in testtools, fixtures, asyncio and email, about 0.1 s of CPU, which was half of
what a short fresh run cost. It takes what testtools' ``StreamResult.status`` takes (every field
of a packet), reads nothing, and writes each packet with one ``write`` and a flush, so that a
crash leaves whole packets up to the last finished event.

A packet (the subunit v2 format): the signature byte 0xB3, 16 bits of flags (version 2, which
fields follow, the status in the low 3 bits), the packet's whole length as a variable-length
number, then the fields in a fixed order (timestamp, test id, tags, mime type, file name and
content, route code), then the CRC32 of everything before it.
"""

from __future__ import annotations

import datetime as dt
import struct
import zlib
from collections.abc import Iterable, Sequence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~5 ms of every test process)
if TYPE_CHECKING:
    from typing import IO

STATUS = {None: 0, "exists": 1, "inprogress": 2, "success": 3, "uxsuccess": 4, "skip": 5,
          "fail": 6, "xfail": 7}
SIGNATURE = 0xB3  # the first byte of every packet
VERSION = 0x2000
TEST_ID = 0x0800
ROUTE_CODE = 0x0400
TIMESTAMP = 0x0200
RUNNABLE = 0x0100
TAGS = 0x0080
FILE_CONTENT = 0x0040
MIME_TYPE = 0x0020
EOF = 0x0010
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
MAX_FILE_BYTES = 4_000_000  # file bytes per packet: a packet may not reach 4 MiB


def number(value: int) -> bytes:
    """subunit's variable-length number: 1 to 4 bytes, the top two bits of the first give how
    many follow."""
    if value < 0x40:
        return struct.pack(">B", value)
    if value < 0x4000:
        return struct.pack(">H", value | 0x4000)
    if value < 0x400000:
        value |= 0x800000
        return struct.pack(">HB", value >> 8, value & 0xFF)
    if value < 0x40000000:
        return struct.pack(">I", value | 0xC0000000)
    raise ValueError(f"value too large for a subunit v2 number: {value}")


def _text(value: str) -> bytes:
    data = value.encode("utf-8")
    return number(len(data)) + data


def packet(
    *,
    test_id: str | None = None,
    test_status: str | None = None,
    test_tags: Iterable[str] | None = None,
    runnable: bool = True,
    file_name: str | None = None,
    file_bytes: bytes = b"",
    eof: bool = False,
    mime_type: str | None = None,
    route_code: str | None = None,
    timestamp: dt.datetime | None = None,
) -> bytes:
    """One event as subunit v2 bytes (the arguments of testtools' ``StreamResult.status``)."""
    flags = VERSION | STATUS[test_status]
    body = []
    if timestamp is not None:
        flags |= TIMESTAMP
        since = timestamp - EPOCH
        body.append(struct.pack(">I", since.seconds + since.days * 86400))
        body.append(number(since.microseconds * 1000))
    if test_id is not None:
        flags |= TEST_ID
        body.append(_text(test_id))
    tags = list(test_tags or ())
    if tags:
        flags |= TAGS
        body.append(number(len(tags)))
        body.extend(_text(tag) for tag in tags)
    if runnable:
        flags |= RUNNABLE
    if mime_type:
        flags |= MIME_TYPE
        body.append(_text(mime_type))
    if file_name is not None:
        flags |= FILE_CONTENT
        body.append(_text(file_name))
        body.append(number(len(file_bytes)))
        body.append(bytes(file_bytes))
    if eof:
        flags |= EOF
    if route_code is not None:
        flags |= ROUTE_CODE
        body.append(_text(route_code))
    content = b"".join(body)
    base = 1 + 2 + len(content) + 4  # signature, flags, the fields, the CRC
    if base <= 62:
        length = base + 1
    elif base <= 16381:
        length = base + 2
    elif base <= 4194300:
        length = base + 3
    else:
        raise ValueError(f"subunit v2 packet too long: {base} bytes")
    head = struct.pack(">BH", SIGNATURE, flags) + number(length)
    data = head + content
    return data + struct.pack(">I", zlib.crc32(data) & 0xFFFFFFFF)


class StreamWriter:
    """``status(...)`` calls written to a binary file as subunit v2, one ``write`` a packet."""

    def __init__(self, fp: IO[bytes]) -> None:
        self.fp = fp

    def status(self, **event: object) -> None:
        data = packet(**event)  # type: ignore[arg-type]
        view = memoryview(data)
        while view:
            written = self.fp.write(view)
            if written is None:  # a buffered file took it all
                break
            view = view[written:]
        self.fp.flush()

    def file(self, *, test_id: str, name: str, chunks: Sequence[bytes], mime_type: str,
             timestamp: dt.datetime | None = None, tags: Iterable[str] | None = None) -> None:
        """An attachment: a packet per chunk (a chunk too long for one packet is split), the last
        one eof."""
        pieces = [c[at : at + MAX_FILE_BYTES] for c in chunks
                  for at in range(0, max(len(c), 1), MAX_FILE_BYTES)] or [b""]
        for i, piece in enumerate(pieces):
            self.status(test_id=test_id, file_name=name, file_bytes=piece, mime_type=mime_type,
                        eof=i == len(pieces) - 1, timestamp=timestamp, test_tags=tags)
