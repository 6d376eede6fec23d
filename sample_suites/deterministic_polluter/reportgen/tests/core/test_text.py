import unittest

from reportgen import text


class SlugifyTest(unittest.TestCase):
    def test_spaces(self):
        self.assertEqual(text.slugify("Quarterly Report"), "quarterly-report")

    def test_accents(self):
        self.assertEqual(text.slugify("R\u00e9sum\u00e9 2024"), "resume-2024")

    def test_punctuation_collapsed(self):
        self.assertEqual(text.slugify("a -- b!!c"), "a-b-c")

    def test_strip_edges(self):
        self.assertEqual(text.slugify("  (draft) "), "draft")


class TruncateTest(unittest.TestCase):
    def test_short_unchanged(self):
        self.assertEqual(text.truncate("abc", 5), "abc")

    def test_exact_unchanged(self):
        self.assertEqual(text.truncate("abcde", 5), "abcde")

    def test_long(self):
        self.assertEqual(text.truncate("abcdefgh", 6), "abc...")

    def test_tiny_width(self):
        self.assertEqual(text.truncate("abcdefgh", 2), "..")

    def test_custom_ellipsis(self):
        self.assertEqual(text.truncate("abcdefgh", 4, "~"), "abc~")


class WrapTest(unittest.TestCase):
    def test_wraps_on_words(self):
        self.assertEqual(text.wrap("the quick brown fox", 10), ["the quick", "brown fox"])

    def test_long_word_own_line(self):
        self.assertEqual(text.wrap("a extraordinarily b", 5), ["a", "extraordinarily", "b"])

    def test_empty(self):
        self.assertEqual(text.wrap("   ", 10), [])

    def test_center(self):
        self.assertEqual(text.center("ab", 6, "*"), "**ab**")

    def test_center_odd_padding(self):
        self.assertEqual(len(text.center("abc", 8)), 8)

    def test_wrap_single_word(self):
        self.assertEqual(text.wrap("word", 2), ["word"])
