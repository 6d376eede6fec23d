"""Reads subunit v2 with the standard library alone: the events of each packet, as
``subunit.ByteStreamToStreamResult`` passes them to ``StreamResult.status``.

The judge of every run reads its run's stream with it (isolate.running.judge), and so does the
reader of stored runs (isolate.orders.stream). Importing subunit to read a stream cost about 0.2 s
of CPU (testtools, fixtures, unittest.mock, email, ssl): as much as two fresh runs of a short list,
and most of what `isolate extract` cost.

The packet format is described in isolate.orders.stream_writer. Damage reads as subunit's parser
reads it: a packet that is cut short, fails its CRC or holds a field that does not fit becomes one
``Damage`` (subunit reports it as a failed test ``subunit.parser``), and reading goes on after the
bytes the packet claimed. Bytes between packets (a test's prints in a runner's stdout) are
skipped; as in subunit, a 0xB3 byte there starts a packet unless it continues a UTF-8 character.
"""

from __future__ import annotations

import codecs
import datetime as dt
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from isolate.orders.stream_writer import (EOF, EPOCH, FILE_CONTENT, MIME_TYPE, ROUTE_CODE, RUNNABLE, SIGNATURE,
                                          STATUS, TAGS, TEST_ID, TIMESTAMP)

STATUSES = tuple(sorted(STATUS, key=STATUS.__getitem__))  # a packet's status, by its low 3 bits


@dataclass(frozen=True, slots=True)
class Event:
    """One packet: the keyword arguments testtools' ``StreamResult.status`` is called with."""

    test_id: str | None
    test_status: str | None
    test_tags: frozenset[str] | None
    runnable: bool
    file_name: str | None
    file_bytes: bytes | None
    eof: bool
    mime_type: str | None
    route_code: str | None
    timestamp: dt.datetime | None


@dataclass(frozen=True, slots=True)
class Damage:
    """A packet that could not be read, what was wrong with it, and whether the stream ends inside
    it (cut short: subunit's "Short read")."""

    reason: str
    cut: bool = False


class _Bad(Exception):
    def __init__(self, reason: str, cut: bool = False) -> None:
        super().__init__(reason)
        self.cut = cut


def events(data: bytes) -> Iterator[Event | Damage]:
    """Every packet of a v2 stream held in ``data``, in order."""
    view = memoryview(data)
    at, end = 0, len(data)
    text = codecs.getincrementaldecoder("utf-8")()  # the bytes between packets, as UTF-8
    mid_character = False
    while at < end:
        if data[at] != SIGNATURE or mid_character:
            at = _skip(data, at, text)
            try:
                mid_character = not text.decode(data[at - 1 : at])
            except UnicodeDecodeError:
                mid_character = False
            continue
        start = at
        try:
            if end - at < 6:
                at = end
                raise _Bad("cut short in its header", cut=True)
            flags = (data[at + 1] << 8) | data[at + 2]
            length, used = _number(view, at + 3)
            if used == 4:
                at += 6
                raise _Bad("its length takes 4 bytes; 3 at most")
            if length < 6 or end - start < length:
                at = end
                raise _Bad(f"cut short: {end - start} of {length} bytes", cut=True)
            at = start + length
            (crc,) = struct.unpack_from(">I", data, at - 4)
            if zlib.crc32(view[start : at - 4]) & 0xFFFFFFFF != crc:
                raise _Bad("its CRC does not match")
            yield _fields(view, flags, start + 3 + used, at - 4)
        except _Bad as bad:
            yield Damage(str(bad), bad.cut)


def _skip(data: bytes, at: int, text: codecs.IncrementalDecoder) -> int:
    """Past a run of ASCII bytes between packets, or one other byte (fed to ``text`` by the caller)."""
    if data[at] < 0x80:
        stop = at + 1
        while stop < len(data) and data[stop] < 0x80:
            stop += 1
        try:  # all but the last, which the caller decodes; fails as byte by byte would, on a stale start
            text.decode(data[at : stop - 1])
        except UnicodeDecodeError:
            pass
        return stop
    return at + 1


def _fields(view: memoryview, flags: int, pos: int, stop: int) -> Event:
    body = view[:stop]
    timestamp = None
    if flags & TIMESTAMP:
        if pos + 4 > stop:
            raise _Bad("its timestamp runs past its end")
        (seconds,) = struct.unpack_from(">I", body, pos)
        nanos, used = _number(body, pos + 4)
        pos += 4 + used
        timestamp = EPOCH + dt.timedelta(seconds=seconds, microseconds=nanos / 1000)
    test_id = tags = mime_type = file_name = file_bytes = route_code = None
    if flags & TEST_ID:
        test_id, pos = _text(body, pos)
    if flags & TAGS:
        count, used = _number(body, pos)
        pos += used
        names = []
        for _ in range(count):
            name, pos = _text(body, pos)
            names.append(name)
        tags = frozenset(names)
    if flags & MIME_TYPE:
        mime_type, pos = _text(body, pos)
    if flags & FILE_CONTENT:
        file_name, pos = _text(body, pos)
        size, used = _number(body, pos)
        pos += used
        if pos + size > stop:
            raise _Bad(f"its file content runs past its end ({size} bytes claimed)")
        file_bytes = bytes(body[pos : pos + size])
        pos += size
    if flags & ROUTE_CODE:
        route_code, pos = _text(body, pos)
    return Event(test_id, STATUSES[flags & 0x7], tags, bool(flags & RUNNABLE), file_name, file_bytes,
                 bool(flags & EOF), mime_type, route_code, timestamp)


def _number(view: memoryview, pos: int) -> tuple[int, int]:
    """A variable-length number at ``pos``: (its value, how many bytes it took)."""
    if pos >= len(view):
        raise _Bad("a number runs past its end")
    first = view[pos]
    used = (first >> 6) + 1
    if pos + used > len(view):
        raise _Bad("a number runs past its end")
    value = first & 0x3F
    for byte in view[pos + 1 : pos + used]:
        value = (value << 8) | byte
    return value, used


def _text(view: memoryview, pos: int) -> tuple[str, int]:
    size, used = _number(view, pos)
    pos += used
    raw = bytes(view[pos : pos + size])
    if len(raw) != size:
        raise _Bad(f"a string runs past its end ({size} bytes claimed)")
    if b"\0" in raw:
        raise _Bad("a string holds a NUL byte")
    try:
        return raw.decode("utf-8"), pos + size
    except UnicodeDecodeError:
        raise _Bad("a string is not UTF-8") from None
