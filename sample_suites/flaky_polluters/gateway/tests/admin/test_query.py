import unittest

from gateway import query


class ParseTest(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(query.parse(""), {})

    def test_leading_question_mark(self):
        self.assertEqual(query.parse("?a=1"), {"a": ["1"]})

    def test_repeated_keys(self):
        self.assertEqual(query.parse("a=1&a=2"), {"a": ["1", "2"]})

    def test_plus_is_space(self):
        self.assertEqual(query.parse("q=a+b"), {"q": ["a b"]})

    def test_percent_decoding(self):
        self.assertEqual(query.parse("q=%C3%A9"), {"q": ["\u00e9"]})

    def test_key_without_value(self):
        self.assertEqual(query.parse("flag"), {"flag": [""]})

    def test_empty_parts_skipped(self):
        self.assertEqual(query.parse("a=1&&b=2"), {"a": ["1"], "b": ["2"]})


class BuildTest(unittest.TestCase):
    def test_sorted_keys(self):
        self.assertEqual(query.build({"b": ["2"], "a": ["1"]}), "a=1&b=2")

    def test_quotes_values(self):
        self.assertEqual(query.build({"q": ["a b&c"]}), "q=a%20b%26c")

    def test_repeated(self):
        self.assertEqual(query.build({"a": ["1", "2"]}), "a=1&a=2")

    def test_round_trip(self):
        params = {"q": ["x y"], "n": ["1"]}
        self.assertEqual(query.parse(query.build(params)), params)


class FirstTest(unittest.TestCase):
    def test_present(self):
        self.assertEqual(query.first({"a": ["1", "2"]}, "a"), "1")

    def test_missing_default(self):
        self.assertEqual(query.first({}, "a", "d"), "d")

    def test_empty_list(self):
        self.assertEqual(query.first({"a": []}, "a"), "")
