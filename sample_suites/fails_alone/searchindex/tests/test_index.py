import unittest

from searchindex.index import InvertedIndex


def build():
    index = InvertedIndex()
    index.add("d1", "The quick brown fox jumps over the lazy dog")
    index.add("d2", "A quick brown dog outpaces a quick red fox")
    index.add("d3", "Lazy afternoons by the river")
    return index


class AddRemoveTest(unittest.TestCase):
    def test_empty_index(self):
        self.assertEqual(InvertedIndex().doc_count, 0)

    def test_doc_count(self):
        self.assertEqual(build().doc_count, 3)

    def test_contains(self):
        self.assertIn("d2", build())

    def test_remove(self):
        index = build()
        index.remove("d1")
        self.assertNotIn("d1", index)
        self.assertEqual(index.doc_count, 2)

    def test_remove_cleans_postings(self):
        index = build()
        index.remove("d3")
        self.assertNotIn("river", index.vocabulary())

    def test_remove_unknown(self):
        with self.assertRaises(KeyError):
            build().remove("d9")

    def test_readd_replaces(self):
        index = build()
        index.add("d1", "completely different words")
        self.assertEqual(index.postings("fox"), {"d2": 1})

    def test_doc_length_excludes_stopwords(self):
        self.assertEqual(build().doc_length("d3"), 3)

    def test_average_length(self):
        index = InvertedIndex()
        index.add("a", "one two")
        index.add("b", "three four five six")
        self.assertEqual(index.average_length(), 3.0)

    def test_average_length_empty(self):
        self.assertEqual(InvertedIndex().average_length(), 0.0)


class PostingsTest(unittest.TestCase):
    def test_term_counts(self):
        self.assertEqual(build().postings("quick"), {"d1": 1, "d2": 2})

    def test_missing_term(self):
        self.assertEqual(build().postings("zebra"), {})

    def test_postings_is_a_copy(self):
        index = build()
        index.postings("fox")["dX"] = 5
        self.assertNotIn("dX", index.postings("fox"))

    def test_document_frequency(self):
        self.assertEqual(build().document_frequency("lazy"), 2)

    def test_vocabulary_sorted(self):
        vocab = build().vocabulary()
        self.assertEqual(vocab, sorted(vocab))

    def test_stopwords_not_indexed(self):
        self.assertNotIn("the", build().vocabulary())


class BooleanSearchTest(unittest.TestCase):
    def setUp(self):
        self.index = build()

    def test_all_single_term(self):
        self.assertEqual(self.index.search_all("fox"), {"d1", "d2"})

    def test_all_two_terms(self):
        self.assertEqual(self.index.search_all("lazy dog"), {"d1"})

    def test_all_no_match(self):
        self.assertEqual(self.index.search_all("fox river"), set())

    def test_all_only_stopwords(self):
        self.assertEqual(self.index.search_all("the and"), set())

    def test_any(self):
        self.assertEqual(self.index.search_any("red river"), {"d2", "d3"})

    def test_any_no_match(self):
        self.assertEqual(self.index.search_any("zebra"), set())

    def test_search_is_stemmed(self):
        self.assertEqual(self.index.search_all("jumping"), {"d1"})

    def test_search_case_insensitive(self):
        self.assertEqual(self.index.search_all("QUICK"), {"d1", "d2"})
