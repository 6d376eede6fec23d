import unittest

from textpipe import normalize
from textpipe.pipeline import Pipeline


class NormalizeCombinationTest(unittest.TestCase):
    def test_strict_pipeline_on_headline(self):
        self.assertEqual(Pipeline().run("  BREAKING:  Caf\u00e9  Opens "), "breaking: cafe opens")

    def test_accents_before_lowercase(self):
        self.assertEqual(Pipeline().run("\u00c9COLE"), "ecole")

    def test_stage_functions_are_pure(self):
        text = " A "
        normalize.collapse_whitespace(text)
        self.assertEqual(text, " A ")

    def test_quotes_and_case(self):
        self.assertEqual(Pipeline().run("\u201cOK\u201d"), '"ok"')

    def test_multiline(self):
        self.assertEqual(Pipeline().run("line ONE\nline TWO"), "line one line two")
