import unittest

from stockroom import items, report


def stock():
    return [items.make("SUG-0002", "sugar", 2, "kg"), items.make("APL-0010", "Apples", 10, "pcs"),
            items.make("FLR-0025", "Flour", 25, "kg")]


class CsvLinesTest(unittest.TestCase):
    def test_one_line_per_item(self):
        self.assertEqual(len(report.csv_lines(stock())), 3)

    def test_sorted_by_name_ignoring_case(self):
        self.assertEqual([line.split(",")[1] for line in report.csv_lines(stock())], ["Apples", "Flour", "sugar"])

    def test_fields(self):
        self.assertEqual(report.csv_lines(stock())[0], "APL-0010,Apples,10,pcs")

    def test_empty(self):
        self.assertEqual(report.csv_lines([]), [])


class ByNameTest(unittest.TestCase):
    def test_ties_broken_by_sku(self):
        a = items.make("BBB-0001", "Same", 1, "pcs")
        b = items.make("AAA-0001", "Same", 1, "pcs")
        self.assertEqual(report.by_name([a, b]), [b, a])

    def test_stable_for_sorted_input(self):
        s = report.by_name(stock())
        self.assertEqual(report.by_name(s), s)
