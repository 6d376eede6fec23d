import unittest

from textpipe import normalize


class CollapseWhitespaceTest(unittest.TestCase):
    def test_tabs_and_newlines(self):
        self.assertEqual(normalize.collapse_whitespace("a\tb\nc"), "a b c")

    def test_strips_ends(self):
        self.assertEqual(normalize.collapse_whitespace("  x  "), "x")

    def test_only_whitespace(self):
        self.assertEqual(normalize.collapse_whitespace(" \n\t "), "")

    def test_non_breaking_space(self):
        self.assertEqual(normalize.collapse_whitespace("a\u00a0\u00a0b"), "a b")


class LowercaseTest(unittest.TestCase):
    def test_ascii(self):
        self.assertEqual(normalize.lowercase("ABC"), "abc")

    def test_sharp_s(self):
        self.assertEqual(normalize.lowercase("\u00df"), "ss")

    def test_greek_final_sigma(self):
        self.assertEqual(normalize.lowercase("\u03a3"), "\u03c3")


class StripAccentsTest(unittest.TestCase):
    def test_acute(self):
        self.assertEqual(normalize.strip_accents("caf\u00e9"), "cafe")

    def test_keeps_plain(self):
        self.assertEqual(normalize.strip_accents("plain"), "plain")

    def test_cedilla(self):
        self.assertEqual(normalize.strip_accents("fa\u00e7ade"), "facade")


class FixQuotesTest(unittest.TestCase):
    def test_single(self):
        self.assertEqual(normalize.fix_quotes("\u2018a\u2019"), "'a'")

    def test_double(self):
        self.assertEqual(normalize.fix_quotes("\u201ca\u201d"), '"a"')

    def test_builtin_order(self):
        names = [f.__name__ for f in normalize.BUILTIN_STAGES]
        self.assertEqual(names[0], "collapse_whitespace")
        self.assertEqual(names[-1], "lowercase")


class StageCompositionTest(unittest.TestCase):
    def test_collapse_then_lower(self):
        self.assertEqual(normalize.lowercase(normalize.collapse_whitespace(" A  B ")), "a b")

    def test_strip_accents_keeps_length_for_ascii(self):
        self.assertEqual(len(normalize.strip_accents("abc")), 3)
