import unittest

from searchindex import query
from searchindex.index import InvertedIndex


class ParseTest(unittest.TestCase):
    def test_single_word(self):
        self.assertEqual(query.parse("fox"), [(["fox"], [])])

    def test_and(self):
        self.assertEqual(query.parse("brown fox"), [(["brown", "fox"], [])])

    def test_or(self):
        self.assertEqual(query.parse("cat OR dog"), [(["cat"], []), (["dog"], [])])

    def test_exclusion(self):
        self.assertEqual(query.parse("fox -red"), [(["fox"], ["red"])])

    def test_terms_are_analyzed(self):
        self.assertEqual(query.parse("Foxes"), [(["fox"], [])])

    def test_empty(self):
        with self.assertRaises(query.QueryError):
            query.parse("   ")

    def test_only_exclusions(self):
        with self.assertRaises(query.QueryError):
            query.parse("-fox")

    def test_lowercase_or_is_a_word(self):
        self.assertEqual(query.parse("cat or dog"), [(["cat", "dog"], [])])


class ExecuteTest(unittest.TestCase):
    def setUp(self):
        self.index = InvertedIndex()
        self.index.add("a", "red apple pie")
        self.index.add("b", "green apple tart")
        self.index.add("c", "red cherry pie")

    def test_and(self):
        self.assertEqual(query.execute(self.index, "red pie"), {"a", "c"})

    def test_exclude(self):
        self.assertEqual(query.execute(self.index, "apple -green"), {"a"})

    def test_or(self):
        self.assertEqual(query.execute(self.index, "tart OR cherry"), {"b", "c"})

    def test_or_with_exclusion(self):
        self.assertEqual(query.execute(self.index, "pie -cherry OR tart"), {"a", "b"})

    def test_no_hits(self):
        self.assertEqual(query.execute(self.index, "banana"), set())

    def test_exclude_everything(self):
        self.assertEqual(query.execute(self.index, "apple -apple"), set())
