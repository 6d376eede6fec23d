import unittest

from gateway import headers


class CanonicalTest(unittest.TestCase):
    def test_lower_case(self):
        self.assertEqual(headers.canonical("Content-Type"), "content-type")

    def test_strips_spaces(self):
        self.assertEqual(headers.canonical("  Accept "), "accept")

    def test_rejects_empty(self):
        with self.assertRaises(ValueError):
            headers.canonical("  ")

    def test_rejects_colon(self):
        with self.assertRaises(ValueError):
            headers.canonical("a:b")

    def test_rejects_inner_space(self):
        with self.assertRaises(ValueError):
            headers.canonical("x y")


class MergeTest(unittest.TestCase):
    def test_second_wins(self):
        self.assertEqual(headers.merge({"a": "1"}, {"A": "2"}), {"a": "2"})

    def test_keeps_both_sides(self):
        self.assertEqual(headers.merge({"a": "1"}, {"b": "2"}), {"a": "1", "b": "2"})

    def test_empty(self):
        self.assertEqual(headers.merge({}, {}), {})


class ParseTest(unittest.TestCase):
    def test_one_line(self):
        self.assertEqual(headers.parse("Host: example.org"), {"host": "example.org"})

    def test_repeated_names_join(self):
        self.assertEqual(headers.parse("Accept: a\nAccept: b"), {"accept": "a, b"})

    def test_blank_lines_skipped(self):
        self.assertEqual(headers.parse("\nA: 1\n\n"), {"a": "1"})

    def test_value_may_hold_a_colon(self):
        self.assertEqual(headers.parse("Location: http://x/"), {"location": "http://x/"})

    def test_rejects_a_line_without_colon(self):
        with self.assertRaises(ValueError):
            headers.parse("nonsense")


class RenderTest(unittest.TestCase):
    def test_sorted_crlf(self):
        self.assertEqual(headers.render({"b": "2", "a": "1"}), "a: 1\r\nb: 2\r\n")

    def test_empty(self):
        self.assertEqual(headers.render({}), "")

    def test_round_trip(self):
        block = {"accept": "x", "host": "h"}
        self.assertEqual(headers.parse(headers.render(block)), block)
