import unittest
from decimal import Decimal

from tills import export
from tills.basket import Basket, Line


class CsvExportTest(unittest.TestCase):
    def test_header_only(self):
        self.assertEqual(export.lines_to_csv([]), "sku,quantity,unit_price\n")

    def test_one_line(self):
        self.assertEqual(export.lines_to_csv([Line("tea", 2, Decimal("1.50"))]),
                         "sku,quantity,unit_price\ntea,2,1.50\n")

    def test_quotes_commas(self):
        text = export.lines_to_csv([Line("tea, green", 1, Decimal("2"))])
        self.assertIn('"tea, green"', text)

    def test_basket_lines(self):
        basket = Basket()
        basket.add("tea", 1, "1.50")
        basket.add("milk", 2, "0.90")
        self.assertEqual(export.lines_to_csv(basket.lines()).count("\n"), 3)


class CsvImportTest(unittest.TestCase):
    def test_rows(self):
        rows = export.csv_to_rows("sku,quantity,unit_price\ntea,2,1.50\n")
        self.assertEqual(rows, [{"sku": "tea", "quantity": "2", "unit_price": "1.50"}])

    def test_empty(self):
        self.assertEqual(export.csv_to_rows("sku,quantity,unit_price\n"), [])

    def test_round_trip(self):
        lines = [Line("tea, green", 3, Decimal("0.25"))]
        rows = export.csv_to_rows(export.lines_to_csv(lines))
        self.assertEqual(rows[0]["sku"], "tea, green")
