from stockdb import api, csvio
from stockdb.validation import ValidationError
from stockdb.tests.base import DatabaseTestCase

GOOD = "sku,name,unit_cost,on_hand\nSKU-0001,Hex bolt,0.12,500\nSKU-0002,\"Nut, M6\",0.05,1200\n"


class ParseRowsTest(DatabaseTestCase):
    def test_good_file(self):
        self.assertEqual(csvio.parse_rows(GOOD)[1], ("SKU-0002", "Nut, M6", 5, 1200))

    def test_blank_lines_skipped(self):
        self.assertEqual(len(csvio.parse_rows(GOOD + "\n\n")), 2)

    def test_bad_header(self):
        with self.assertRaises(ValidationError):
            csvio.parse_rows("sku,name\nSKU-0001,x\n")

    def test_empty_file(self):
        with self.assertRaises(ValidationError):
            csvio.parse_rows("")

    def test_wrong_field_count(self):
        with self.assertRaisesRegex(ValidationError, "line 2"):
            csvio.parse_rows("sku,name,unit_cost,on_hand\nSKU-0001,x,1\n")

    def test_bad_sku(self):
        with self.assertRaises(ValidationError):
            csvio.parse_rows("sku,name,unit_cost,on_hand\nBOLT,x,1,1\n")


class ImportExportTest(DatabaseTestCase):
    def test_import_count(self):
        self.assertEqual(csvio.import_csv(self.conn, GOOD), 2)

    def test_import_sets_stock(self):
        csvio.import_csv(self.conn, GOOD)
        self.assertEqual(api.on_hand("SKU-0002", conn=self.conn), 1200)

    def test_export_header_only(self):
        self.assertEqual(csvio.export_csv(self.conn), "sku,name,unit_cost,on_hand\n")

    def test_roundtrip(self):
        csvio.import_csv(self.conn, GOOD)
        self.assertEqual(csvio.export_csv(self.conn), GOOD)

    def test_export_sorted_by_sku(self):
        self.add("SKU-0009", "Last")
        self.add("SKU-0003", "First")
        lines = csvio.export_csv(self.conn).splitlines()[1:]
        self.assertEqual([line.split(",")[0] for line in lines], ["SKU-0003", "SKU-0009"])

    def test_import_duplicate_fails(self):
        csvio.import_csv(self.conn, GOOD)
        with self.assertRaises(ValidationError):
            csvio.import_csv(self.conn, GOOD)
