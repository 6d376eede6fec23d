import unittest

from tabular import writer


class QuoteFieldTest(unittest.TestCase):
    def test_plain(self):
        self.assertEqual(writer.quote_field("abc", ","), "abc")

    def test_none_is_empty(self):
        self.assertEqual(writer.quote_field(None, ","), "")

    def test_number(self):
        self.assertEqual(writer.quote_field(12.5, ","), "12.5")

    def test_delimiter_inside(self):
        self.assertEqual(writer.quote_field("a,b", ","), '"a,b"')

    def test_other_delimiter_inside_is_plain(self):
        self.assertEqual(writer.quote_field("a,b", ";"), "a,b")

    def test_quote_doubled(self):
        self.assertEqual(writer.quote_field('say "hi"', ","), '"say ""hi"""')

    def test_newline_quoted(self):
        self.assertEqual(writer.quote_field("a\nb", ","), '"a\nb"')

    def test_carriage_return_quoted(self):
        self.assertEqual(writer.quote_field("a\rb", ","), '"a\rb"')

    def test_leading_space_quoted(self):
        self.assertEqual(writer.quote_field(" a", ","), '" a"')

    def test_trailing_space_quoted(self):
        self.assertEqual(writer.quote_field("a ", ","), '"a "')

    def test_empty_string(self):
        self.assertEqual(writer.quote_field("", ","), "")


class DumpsRowTest(unittest.TestCase):
    def test_comma(self):
        self.assertEqual(writer.dumps_row(["a", 1, None], ","), "a,1,")

    def test_semicolon(self):
        self.assertEqual(writer.dumps_row(["a", "b;c"], ";"), 'a;"b;c"')

    def test_tab(self):
        self.assertEqual(writer.dumps_row(["a", "b"], "\t"), "a\tb")

    def test_pipe(self):
        self.assertEqual(writer.dumps_row(["a", "b|c"], "|"), 'a|"b|c"')

    def test_single_field(self):
        self.assertEqual(writer.dumps_row(["only"], ","), "only")

    def test_bad_delimiter(self):
        with self.assertRaises(ValueError):
            writer.dumps_row(["a"], "/")


class DumpsTest(unittest.TestCase):
    def test_header_first(self):
        self.assertEqual(writer.dumps([["1"]], header=["n"], delimiter=","), "n\n1\n")

    def test_no_header(self):
        self.assertEqual(writer.dumps([["1", "2"]], delimiter=","), "1,2\n")

    def test_only_header(self):
        self.assertEqual(writer.dumps([], header=["a", "b"], delimiter="|"), "a|b\n")

    def test_many_rows(self):
        rows = [[str(i), str(i * i)] for i in range(4)]
        self.assertEqual(writer.dumps(rows, delimiter=","), "0,0\n1,1\n2,4\n3,9\n")

    def test_trailing_line_end(self):
        self.assertTrue(writer.dumps([["x"]], delimiter=",").endswith("\n"))
