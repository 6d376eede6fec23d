import unittest

import textpipe
from textpipe.pipeline import Pipeline


class DefaultRenderTest(unittest.TestCase):
    def test_render_normalises_case(self):
        result = textpipe.render("  Hello   World ")
        if result != "hello world":
            self.fail("render() returned %r, expected 'hello world'" % result)


class ExplicitRenderTest(unittest.TestCase):
    def setUp(self):
        self.pipe = Pipeline(mode="strict")

    def test_collapses_whitespace(self):
        self.assertEqual(self.pipe.run("a \t\n b"), "a b")

    def test_curly_quotes(self):
        self.assertEqual(self.pipe.run("\u201cIt\u2019s\u201d"), "\"it's\"")

    def test_accents_removed(self):
        self.assertEqual(self.pipe.run("Cr\u00e8me Br\u00fbl\u00e9e"), "creme brulee")

    def test_casefold_german(self):
        self.assertEqual(self.pipe.run("STRASSE Stra\u00dfe"), "strasse strasse")

    def test_idempotent(self):
        once = self.pipe.run("  Mixed  CASE \u2018text\u2019 ")
        self.assertEqual(self.pipe.run(once), once)

    def test_numbers_kept(self):
        self.assertEqual(self.pipe.run("Room 101"), "room 101")
