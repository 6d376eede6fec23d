import unittest

from textpipe import tokenize


class WordsTest(unittest.TestCase):
    def test_simple(self):
        self.assertEqual(tokenize.words("the cat sat"), ["the", "cat", "sat"])

    def test_punctuation_dropped(self):
        self.assertEqual(tokenize.words("Hello, world!"), ["Hello", "world"])

    def test_apostrophes_kept(self):
        self.assertEqual(tokenize.words("don't stop"), ["don't", "stop"])

    def test_digits_are_words(self):
        self.assertEqual(tokenize.words("route 66"), ["route", "66"])

    def test_empty(self):
        self.assertEqual(tokenize.words(""), [])

    def test_unicode_letters(self):
        self.assertEqual(tokenize.words("na\u00efve caf\u00e9"), ["na\u00efve", "caf\u00e9"])


class SentencesTest(unittest.TestCase):
    def test_split(self):
        self.assertEqual(tokenize.sentences("One. Two! Three?"), ["One.", "Two!", "Three?"])

    def test_single(self):
        self.assertEqual(tokenize.sentences("Just one"), ["Just one"])

    def test_blank(self):
        self.assertEqual(tokenize.sentences("   "), [])

    def test_abbreviation_limitation(self):
        self.assertEqual(len(tokenize.sentences("Dr. Who. Yes.")), 3)


class NgramsTest(unittest.TestCase):
    def test_bigrams(self):
        self.assertEqual(tokenize.ngrams(["a", "b", "c"], 2), [("a", "b"), ("b", "c")])

    def test_unigrams(self):
        self.assertEqual(tokenize.ngrams(["a", "b"], 1), [("a",), ("b",)])

    def test_n_larger_than_input(self):
        self.assertEqual(tokenize.ngrams(["a"], 3), [])

    def test_rejects_zero(self):
        with self.assertRaises(ValueError):
            tokenize.ngrams(["a"], 0)
