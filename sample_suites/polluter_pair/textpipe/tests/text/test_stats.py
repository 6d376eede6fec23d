import unittest

from textpipe import stats


class WordCountTest(unittest.TestCase):
    def test_counts(self):
        self.assertEqual(stats.word_count("a b  c"), 3)

    def test_empty(self):
        self.assertEqual(stats.word_count(""), 0)

    def test_punctuation_only(self):
        self.assertEqual(stats.word_count("... !!!"), 0)


class TopWordsTest(unittest.TestCase):
    def test_most_common_first(self):
        self.assertEqual(stats.top_words("b a b c b a", 2), [("b", 3), ("a", 2)])

    def test_case_insensitive(self):
        self.assertEqual(stats.top_words("The the THE", 1), [("the", 3)])

    def test_ties_alphabetical(self):
        self.assertEqual(stats.top_words("y x z", 3), [("x", 1), ("y", 1), ("z", 1)])


class AverageLengthTest(unittest.TestCase):
    def test_average(self):
        self.assertEqual(stats.average_word_length("ab abcd"), 3.0)

    def test_empty(self):
        self.assertEqual(stats.average_word_length(""), 0.0)


class LexicalDensityTest(unittest.TestCase):
    def test_all_unique(self):
        self.assertEqual(stats.lexical_density("a b c"), 1.0)

    def test_repeats(self):
        self.assertEqual(stats.lexical_density("a a b b"), 0.5)

    def test_empty(self):
        self.assertEqual(stats.lexical_density(""), 0.0)
