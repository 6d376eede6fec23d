"""Renderer tests, parameterised over formats the way testscenarios does it.

Test ids look like ``reportgen.tests.output.test_formats.FormatTest.test_render(json)``.
"""

import copy
import unittest

from reportgen import formats

ROWS = [("Rent", 250000), ("Travel | misc", 48210), ("Caf\u00e9", 990)]


class FormatTest(unittest.TestCase):
    scenarios = [
        ("json", {"fmt": "json", "marker": '"label": "Rent"', "mime": "application/json"}),
        ("csv", {"fmt": "csv", "marker": "label,amount\n", "mime": "text/csv"}),
        ("markdown", {"fmt": "markdown", "marker": "| --- | ---: |", "mime": "text/markdown"}),
    ]
    fmt = None
    scenario_name = None

    def id(self):
        base = super().id()
        if self.scenario_name is None:
            return base
        return "%s(%s)" % (base, self.scenario_name)

    def test_render(self):
        self.assertIn(self.marker, formats.render(ROWS, self.fmt))

    def test_roundtrip(self):
        self.assertEqual(formats.parse(formats.render(ROWS, self.fmt), self.fmt), ROWS)

    def test_empty_rows(self):
        self.assertEqual(formats.parse(formats.render([], self.fmt), self.fmt), [])

    def test_content_type(self):
        self.assertEqual(formats.content_type(self.fmt), self.mime)


def _apply_scenarios(test):
    for name, params in test.scenarios:
        clone = copy.copy(test)
        clone.scenario_name = name
        for key, value in params.items():
            setattr(clone, key, value)
        yield clone


class UnknownFormatTest(unittest.TestCase):
    def test_render_unknown(self):
        with self.assertRaises(ValueError):
            formats.render(ROWS, "xml")

    def test_parse_unknown(self):
        with self.assertRaises(ValueError):
            formats.parse("", "xml")

    def test_render_pdf(self):
        self.skipTest("PDF output not implemented yet")
        formats.render(ROWS, "pdf")

    def test_formats_listed(self):
        self.assertEqual(formats.FORMATS, ("json", "csv", "markdown"))


def load_tests(loader, standard_tests, pattern):
    suite = unittest.TestSuite()
    for test in loader.loadTestsFromTestCase(FormatTest):
        suite.addTests(_apply_scenarios(test))
    suite.addTests(loader.loadTestsFromTestCase(UnknownFormatTest))
    return suite
