import unittest

from textpipe import summarize

ARTICLE = (
    "The river flooded the lower town on Tuesday. Residents moved to the school. "
    "The river is expected to fall by Friday, and the town council will meet."
)


class FirstSentenceTest(unittest.TestCase):
    def test_article(self):
        self.assertEqual(summarize.first_sentence(ARTICLE), "The river flooded the lower town on Tuesday.")

    def test_no_terminator(self):
        self.assertEqual(summarize.first_sentence("no full stop here"), "no full stop here")

    def test_empty(self):
        self.assertEqual(summarize.first_sentence(""), "")


class TruncateWordsTest(unittest.TestCase):
    def test_under_limit(self):
        self.assertEqual(summarize.truncate_words("a b c", 5), "a b c")

    def test_over_limit(self):
        self.assertEqual(summarize.truncate_words("a b c d", 2), "a b\u2026")

    def test_custom_marker(self):
        self.assertEqual(summarize.truncate_words("a b c", 1, " [more]"), "a [more]")

    def test_zero_limit(self):
        self.assertEqual(summarize.truncate_words("a b", 0), "\u2026")

    def test_negative_limit(self):
        with self.assertRaises(ValueError):
            summarize.truncate_words("a", -1)

    def test_whitespace_normalised(self):
        self.assertEqual(summarize.truncate_words(" a \n b ", 5), "a b")


class KeywordsTest(unittest.TestCase):
    def test_article_keywords(self):
        self.assertEqual(summarize.keywords(ARTICLE, 2), ["river", "town"])

    def test_stopwords_ignored(self):
        self.assertEqual(summarize.keywords("the the the cat", 1), ["cat"])

    def test_empty(self):
        self.assertEqual(summarize.keywords(""), [])


class HeadlineTest(unittest.TestCase):
    def test_article(self):
        self.assertEqual(summarize.headline(ARTICLE), "The river flooded the lower town on Tuesday")

    def test_truncated(self):
        self.assertEqual(summarize.headline(ARTICLE, 3), "The river flooded\u2026")


class ReadingTimeTest(unittest.TestCase):
    def test_rounds_up(self):
        self.assertEqual(summarize.reading_time_seconds("word"), 1)

    def test_two_hundred_words_is_a_minute(self):
        self.assertEqual(summarize.reading_time_seconds("w " * 200), 60)

    def test_empty(self):
        self.assertEqual(summarize.reading_time_seconds(""), 0)

    def test_rejects_zero_speed(self):
        with self.assertRaises(ValueError):
            summarize.reading_time_seconds("x", words_per_minute=0)
