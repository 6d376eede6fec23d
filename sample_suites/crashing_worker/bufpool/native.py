"""Thin ctypes layer: raw allocation and raw reads by address."""

import ctypes
import zlib


def alloc(size):
    if size <= 0:
        raise ValueError("size must be positive")
    return ctypes.create_string_buffer(size)


def address_of(buf):
    return ctypes.addressof(buf)


def read(address, size):
    """Copy ``size`` bytes starting at ``address`` (no checks: C semantics)."""
    out = ctypes.create_string_buffer(size)
    ctypes.memmove(out, address, size)
    return out.raw


def write(buf, data, offset=0):
    if offset < 0 or offset + len(data) > len(buf):
        raise ValueError("write out of bounds")
    ctypes.memmove(ctypes.addressof(buf) + offset, data, len(data))


def crc32(address, size):
    return zlib.crc32(read(address, size)) & 0xFFFFFFFF
