from stockdb import api, reports
from stockdb.tests.base import DatabaseTestCase


class ReportsTest(DatabaseTestCase):
    def setUp(self):
        super().setUp()
        self.add("SKU-0001", "Bolt", cost=12, on_hand=500)
        self.add("SKU-0002", "Nut", cost=5, on_hand=2)
        self.add("SKU-0003", "Gasket", cost=80, on_hand=0)

    def test_low_stock(self):
        self.assertEqual(reports.low_stock(self.conn), [("SKU-0003", 0), ("SKU-0002", 2)])

    def test_low_stock_threshold(self):
        self.assertEqual(reports.low_stock(self.conn, threshold=1), [("SKU-0003", 0)])

    def test_valuation(self):
        self.assertEqual(reports.valuation(self.conn), 500 * 12 + 2 * 5)

    def test_valuation_empty_db(self):
        self.conn.execute("DELETE FROM stock")
        self.assertEqual(reports.valuation(self.conn), 0)

    def test_product_count(self):
        self.assertEqual(reports.product_count(self.conn), 3)

    def test_reservation_summary_empty(self):
        self.assertEqual(reports.reservation_summary(self.conn), {})

    def test_reservation_summary(self):
        rid = api.reserve("SKU-0001", 10, conn=self.conn)
        api.reserve("SKU-0001", 5, conn=self.conn)
        api.cancel(rid, conn=self.conn)
        self.assertEqual(reports.reservation_summary(self.conn), {"cancelled": 1, "pending": 1})

    def test_tables(self):
        self.assertEqual(reports.tables(self.conn), ["products", "reservations", "stock"])
