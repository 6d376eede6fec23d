import unittest

from bufpool import codec


class VarintTest(unittest.TestCase):
    def test_zero(self):
        self.assertEqual(codec.encode_varint(0), b"\x00")

    def test_one_byte_max(self):
        self.assertEqual(codec.encode_varint(127), b"\x7f")

    def test_two_bytes(self):
        self.assertEqual(codec.encode_varint(300), b"\xac\x02")

    def test_large(self):
        self.assertEqual(len(codec.encode_varint(2 ** 35)), 6)

    def test_negative_rejected(self):
        with self.assertRaises(ValueError):
            codec.encode_varint(-1)

    def test_decode_single(self):
        self.assertEqual(codec.decode_varint(b"\x05"), (5, 1))

    def test_decode_multi(self):
        self.assertEqual(codec.decode_varint(b"\xac\x02"), (300, 2))

    def test_decode_with_offset(self):
        self.assertEqual(codec.decode_varint(b"\xff\x01\x7f", 2), (127, 3))

    def test_decode_truncated(self):
        with self.assertRaises(ValueError):
            codec.decode_varint(b"\x80")

    def test_roundtrip_boundaries(self):
        for n in (0, 1, 127, 128, 16383, 16384, 2 ** 32 - 1):
            self.assertEqual(codec.decode_varint(codec.encode_varint(n))[0], n)


class FrameTest(unittest.TestCase):
    def test_frame_prefix(self):
        self.assertEqual(codec.frame(b"abc"), b"\x03abc")

    def test_empty_frame(self):
        self.assertEqual(codec.frame(b""), b"\x00")

    def test_unframe_single(self):
        self.assertEqual(codec.unframe_all(b"\x02hi"), [b"hi"])

    def test_unframe_many(self):
        data = codec.frame(b"one") + codec.frame(b"") + codec.frame(b"three")
        self.assertEqual(codec.unframe_all(data), [b"one", b"", b"three"])

    def test_unframe_empty_stream(self):
        self.assertEqual(codec.unframe_all(b""), [])

    def test_unframe_truncated_payload(self):
        with self.assertRaises(ValueError):
            codec.unframe_all(b"\x05abc")

    def test_long_frame(self):
        payload = b"x" * 1000
        self.assertEqual(codec.unframe_all(codec.frame(payload)), [payload])


class ZigzagTest(unittest.TestCase):
    def test_zero(self):
        self.assertEqual(codec.zigzag_encode(0), 0)

    def test_minus_one(self):
        self.assertEqual(codec.zigzag_encode(-1), 1)

    def test_one(self):
        self.assertEqual(codec.zigzag_encode(1), 2)

    def test_minus_two(self):
        self.assertEqual(codec.zigzag_encode(-2), 3)

    def test_decode(self):
        self.assertEqual(codec.zigzag_decode(3), -2)

    def test_roundtrip(self):
        for n in (-(2 ** 40), -300, -1, 0, 1, 300, 2 ** 40):
            self.assertEqual(codec.zigzag_decode(codec.zigzag_encode(n)), n)

    def test_small_negative_varint_is_short(self):
        self.assertEqual(len(codec.encode_varint(codec.zigzag_encode(-5))), 1)
