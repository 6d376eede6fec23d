import unittest

from bufpool import hexdump


class HexdumpTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(hexdump.hexdump(b""), "")

    def test_single_line(self):
        self.assertEqual(
            hexdump.hexdump(b"AB"),
            "00000000  41 42" + " " * 42 + "  |AB|",
        )

    def test_non_printable_shown_as_dot(self):
        self.assertTrue(hexdump.hexdump(b"\x00a\xff").endswith("|.a.|"))

    def test_line_count(self):
        self.assertEqual(len(hexdump.hexdump_lines(b"x" * 33)), 3)

    def test_offsets(self):
        lines = hexdump.hexdump_lines(b"x" * 40)
        self.assertEqual([line[:8] for line in lines], ["00000000", "00000010", "00000020"])

    def test_custom_width(self):
        self.assertEqual(hexdump.hexdump_lines(b"abcd", width=2)[1][:8], "00000002")

    def test_invalid_width(self):
        with self.assertRaises(ValueError):
            hexdump.hexdump_lines(b"a", width=0)

    def test_lines_padded_to_same_length(self):
        lines = hexdump.hexdump_lines(b"y" * 20)
        self.assertEqual(len(lines[0]) - 16, len(lines[1]) - 4)

    def test_parse_hex(self):
        self.assertEqual(hexdump.parse_hex("de ad be ef"), b"\xde\xad\xbe\xef")

    def test_parse_hex_multiline(self):
        self.assertEqual(hexdump.parse_hex("01 02\n03"), b"\x01\x02\x03")

    def test_parse_hex_invalid(self):
        with self.assertRaises(ValueError):
            hexdump.parse_hex("zz")

    def test_space_printable(self):
        self.assertTrue(hexdump.hexdump(b" ").endswith("| |"))
