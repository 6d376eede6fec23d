import unittest

from tabular import reader


class SplitRowTest(unittest.TestCase):
    def test_plain(self):
        self.assertEqual(reader.split_row("a,b,c", ","), ["a", "b", "c"])

    def test_empty_fields(self):
        self.assertEqual(reader.split_row(",,", ","), ["", "", ""])

    def test_quoted_delimiter(self):
        self.assertEqual(reader.split_row('"a,b",c', ","), ["a,b", "c"])

    def test_doubled_quote(self):
        self.assertEqual(reader.split_row('"say ""hi""",x', ","), ['say "hi"', "x"])

    def test_semicolon(self):
        self.assertEqual(reader.split_row("a;b", ";"), ["a", "b"])

    def test_tab(self):
        self.assertEqual(reader.split_row("a\tb", "\t"), ["a", "b"])

    def test_pipe(self):
        self.assertEqual(reader.split_row("a|b", "|"), ["a", "b"])

    def test_quote_in_middle_is_literal(self):
        self.assertEqual(reader.split_row('a"b,c', ","), ['a"b', "c"])

    def test_unterminated(self):
        with self.assertRaises(ValueError):
            reader.split_row('"abc,d', ",")

    def test_single_field(self):
        self.assertEqual(reader.split_row("abc", ","), ["abc"])


class LoadsTest(unittest.TestCase):
    def test_two_lines(self):
        self.assertEqual(reader.loads("a,b\nc,d", delimiter=","), [["a", "b"], ["c", "d"]])

    def test_blank_lines_skipped(self):
        self.assertEqual(reader.loads("a\n\nb\n", delimiter=","), [["a"], ["b"]])

    def test_crlf(self):
        self.assertEqual(reader.loads("a,b\r\nc,d\r\n", delimiter=","), [["a", "b"], ["c", "d"]])

    def test_empty_text(self):
        self.assertEqual(reader.loads("", delimiter=","), [])

    def test_bad_delimiter(self):
        with self.assertRaises(ValueError):
            reader.loads("a", delimiter="x")


class LoadsDictsTest(unittest.TestCase):
    def test_keys(self):
        self.assertEqual(reader.loads_dicts("k,v\n1,2\n", delimiter=","), [{"k": "1", "v": "2"}])

    def test_only_header(self):
        self.assertEqual(reader.loads_dicts("k,v\n", delimiter=","), [])

    def test_empty(self):
        self.assertEqual(reader.loads_dicts("", delimiter=","), [])

    def test_short_row(self):
        self.assertEqual(reader.loads_dicts("a,b\n1\n", delimiter=","), [{"a": "1"}])


class SniffTest(unittest.TestCase):
    def test_comma(self):
        self.assertEqual(reader.sniff("a,b,c\n1,2,3"), ",")

    def test_semicolon(self):
        self.assertEqual(reader.sniff("a;b;c"), ";")

    def test_tab(self):
        self.assertEqual(reader.sniff("a\tb"), "\t")

    def test_pipe_majority(self):
        self.assertEqual(reader.sniff("a|b|c,d"), "|")

    def test_nothing(self):
        with self.assertRaises(ValueError):
            reader.sniff("abc")

    def test_empty(self):
        with self.assertRaises(ValueError):
            reader.sniff("")
