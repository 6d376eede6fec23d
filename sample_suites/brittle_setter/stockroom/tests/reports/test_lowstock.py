import unittest

from stockroom import items, report


class LowStockTest(unittest.TestCase):
    def setUp(self):
        self.stock = [items.make("APL-0010", "Apples", 10, "pcs"), items.make("EGG-0002", "Eggs", 2, "pcs"),
                      items.make("SLT-0000", "Salt", 0, "kg")]

    def test_below_threshold(self):
        self.assertEqual(report.low_stock(self.stock, 5), ["EGG-0002", "SLT-0000"])

    def test_threshold_is_exclusive(self):
        self.assertEqual(report.low_stock(self.stock, 2), ["SLT-0000"])

    def test_nothing_low(self):
        self.assertEqual(report.low_stock(self.stock, 0), [])

    def test_keeps_order(self):
        self.assertEqual(report.low_stock(list(reversed(self.stock)), 11), ["SLT-0000", "EGG-0002", "APL-0010"])
