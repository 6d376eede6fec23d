import unittest
import zlib

from bufpool import native


class NativeBufferTest(unittest.TestCase):
    def test_alloc_size(self):
        self.assertEqual(len(native.alloc(32)), 32)

    def test_alloc_zeroed(self):
        buf = native.alloc(16)
        self.assertEqual(native.read(native.address_of(buf), 16), b"\x00" * 16)

    def test_alloc_rejects_zero(self):
        with self.assertRaises(ValueError):
            native.alloc(0)

    def test_write_then_read(self):
        buf = native.alloc(8)
        native.write(buf, b"abc")
        self.assertEqual(native.read(native.address_of(buf), 3), b"abc")

    def test_write_at_offset(self):
        buf = native.alloc(8)
        native.write(buf, b"xy", offset=6)
        self.assertEqual(buf.raw[6:], b"xy")

    def test_write_out_of_bounds(self):
        with self.assertRaises(ValueError):
            native.write(native.alloc(4), b"toolong")

    def test_write_negative_offset(self):
        with self.assertRaises(ValueError):
            native.write(native.alloc(4), b"a", offset=-1)

    def test_crc32_matches_zlib(self):
        buf = native.alloc(5)
        native.write(buf, b"hello")
        self.assertEqual(native.crc32(native.address_of(buf), 5), zlib.crc32(b"hello"))

    def test_distinct_addresses(self):
        a, b = native.alloc(8), native.alloc(8)
        self.assertNotEqual(native.address_of(a), native.address_of(b))
