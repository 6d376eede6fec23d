"""Exports for spreadsheets in locales whose decimal separator is a comma (de_DE, fr_FR, ...):
those spreadsheets expect semicolons, which is what `tabular --delimiter ';'` sets."""

import unittest

from tabular import dialect, reader, writer

# Every test below writes the semicolon dialect, so set it once for the module instead of
# passing delimiter=";" everywhere. (This runs at import, in whatever process imports the module.)
dialect.set_default_delimiter(";")


class SemicolonExportTest(unittest.TestCase):
    def test_header_and_row(self):
        self.assertEqual(writer.dumps([["Äpfel", "3"]], header=["Obst", "Menge"]), "Obst;Menge\nÄpfel;3\n")

    def test_decimal_comma_not_quoted(self):
        self.assertEqual(writer.dumps_row(["1,5", "2,25"]), "1,5;2,25")

    def test_semicolon_in_text_quoted(self):
        self.assertEqual(writer.dumps_row(["a;b"]), '"a;b"')

    def test_read_back(self):
        self.assertEqual(reader.loads("a;1,5\n"), [["a", "1,5"]])

    def test_read_dicts(self):
        self.assertEqual(reader.loads_dicts("Obst;Menge\nBirnen;12\n"), [{"Obst": "Birnen", "Menge": "12"}])

    def test_round_trip(self):
        rows = [["x;y", "1,0"], ["z", ""]]
        self.assertEqual(reader.loads(writer.dumps(rows)), rows)

    def test_sniffed_as_semicolon(self):
        self.assertEqual(reader.sniff(writer.dumps([["a", "b", "c"]])), ";")
