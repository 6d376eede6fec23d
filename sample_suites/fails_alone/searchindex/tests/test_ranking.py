import unittest

from searchindex import ranking
from searchindex.index import InvertedIndex


class RankingTest(unittest.TestCase):
    def setUp(self):
        self.index = InvertedIndex()
        self.index.add("short", "python tips")
        self.index.add("long", "python python python guide covering many other topics besides")
        self.index.add("other", "gardening tips for spring")

    def test_idf_rare_term_higher(self):
        self.assertGreater(ranking.idf(self.index, "gardening"), ranking.idf(self.index, "tip"))

    def test_idf_unknown_term(self):
        self.assertAlmostEqual(ranking.idf(self.index, "zzz"), 1.0 + 0.0 + __import__("math").log(4))

    def test_tfidf_counts_repeats(self):
        self.assertGreater(ranking.tfidf(self.index, "long", "python"),
                           ranking.tfidf(self.index, "short", "python"))

    def test_tfidf_zero_without_match(self):
        self.assertEqual(ranking.tfidf(self.index, "other", "python"), 0)

    def test_bm25_zero_without_match(self):
        self.assertEqual(ranking.bm25(self.index, "other", "python"), 0.0)

    def test_bm25_positive_with_match(self):
        self.assertGreater(ranking.bm25(self.index, "short", "python"), 0.0)

    def test_bm25_saturates(self):
        ratio = ranking.bm25(self.index, "long", "python") / ranking.bm25(self.index, "short", "python")
        self.assertLess(ratio, 3.0)

    def test_rank_orders_by_score(self):
        self.assertEqual(ranking.rank(self.index, "python tips")[0], "short")

    def test_rank_limit(self):
        self.assertEqual(len(ranking.rank(self.index, "python tips", limit=1)), 1)

    def test_rank_no_hits(self):
        self.assertEqual(ranking.rank(self.index, "quantum"), [])

    def test_rank_with_tfidf(self):
        self.assertEqual(ranking.rank(self.index, "python", scorer=ranking.tfidf)[0], "long")

    def test_rank_ties_by_id(self):
        index = InvertedIndex()
        index.add("b", "same words")
        index.add("a", "same words")
        self.assertEqual(ranking.rank(index, "same"), ["a", "b"])
