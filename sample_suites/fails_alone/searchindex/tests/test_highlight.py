import unittest

from searchindex import highlight

TEXT = "Searching large indexes: the search engine ranks indexed documents quickly."


class MatchingSpansTest(unittest.TestCase):
    def test_single_match(self):
        self.assertEqual(highlight.matching_spans("find the fox", "fox"), [(9, 12)])

    def test_stemmed_match(self):
        self.assertEqual(highlight.match_count(TEXT, "search"), 2)

    def test_no_match(self):
        self.assertEqual(highlight.matching_spans(TEXT, "zebra"), [])

    def test_stopword_query_matches_nothing(self):
        self.assertEqual(highlight.matching_spans(TEXT, "the"), [])

    def test_case_insensitive(self):
        self.assertEqual(highlight.match_count("FOX fox Fox", "fox"), 3)

    def test_multiple_terms(self):
        self.assertEqual(highlight.match_count(TEXT, "engine documents"), 2)


class HighlightTest(unittest.TestCase):
    def test_brackets(self):
        self.assertEqual(highlight.highlight("a red fox", "fox"), "a red [fox]")

    def test_custom_markers(self):
        self.assertEqual(highlight.highlight("red fox", "red", "<b>", "</b>"), "<b>red</b> fox")

    def test_keeps_original_case(self):
        self.assertEqual(highlight.highlight("Fox!", "fox"), "[Fox]!")

    def test_no_match_unchanged(self):
        self.assertEqual(highlight.highlight(TEXT, "zebra"), TEXT)

    def test_all_occurrences(self):
        self.assertEqual(highlight.highlight("fox and fox", "fox"), "[fox] and [fox]")

    def test_empty_text(self):
        self.assertEqual(highlight.highlight("", "fox"), "")


class SnippetTest(unittest.TestCase):
    def test_short_text_returned_whole(self):
        self.assertEqual(highlight.snippet("short text", "text"), "short text")

    def test_no_match_takes_prefix(self):
        self.assertEqual(highlight.snippet(TEXT, "zebra", width=10), "Searching...")

    def test_window_around_match(self):
        self.assertIn("ranks", highlight.snippet(TEXT, "ranks", width=20))

    def test_leading_ellipsis(self):
        self.assertTrue(highlight.snippet(TEXT, "documents", width=20).startswith("..."))

    def test_trailing_ellipsis(self):
        self.assertTrue(highlight.snippet(TEXT, "large", width=20).endswith("..."))

    def test_match_at_start_has_no_prefix(self):
        self.assertFalse(highlight.snippet(TEXT, "searching", width=20).startswith("..."))
