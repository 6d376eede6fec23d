import unittest

from searchindex import analysis


class TokenizeTest(unittest.TestCase):
    def test_lowercases(self):
        self.assertEqual(analysis.tokenize("Hello World"), ["hello", "world"])

    def test_splits_punctuation(self):
        self.assertEqual(analysis.tokenize("e-mail, fax."), ["e", "mail", "fax"])

    def test_keeps_digits(self):
        self.assertEqual(analysis.tokenize("ipv6 rfc2460"), ["ipv6", "rfc2460"])

    def test_empty(self):
        self.assertEqual(analysis.tokenize("  ...  "), [])

    def test_drops_non_ascii_letters(self):
        self.assertEqual(analysis.tokenize("na\u00efve"), ["na", "ve"])


class StemTest(unittest.TestCase):
    def test_plural_s(self):
        self.assertEqual(analysis.stem("cats"), "cat")

    def test_ing(self):
        self.assertEqual(analysis.stem("indexing"), "index")

    def test_ed(self):
        self.assertEqual(analysis.stem("searched"), "search")

    def test_ies(self):
        self.assertEqual(analysis.stem("queries"), "query")

    def test_es(self):
        self.assertEqual(analysis.stem("boxes"), "box")

    def test_short_word_untouched(self):
        self.assertEqual(analysis.stem("is"), "is")

    def test_keeps_minimum_stem(self):
        self.assertEqual(analysis.stem("bus"), "bus")

    def test_no_suffix(self):
        self.assertEqual(analysis.stem("engine"), "engine")


class AnalyzeTest(unittest.TestCase):
    def test_removes_stopwords(self):
        self.assertEqual(analysis.analyze("the cat and the hat"), ["cat", "hat"])

    def test_stems(self):
        self.assertEqual(analysis.analyze("Running queries"), ["runn", "query"])

    def test_only_stopwords(self):
        self.assertEqual(analysis.analyze("to be or not to be"), [])

    def test_order_preserved(self):
        self.assertEqual(analysis.analyze("zebra apple"), ["zebra", "apple"])
