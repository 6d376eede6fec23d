"""Shared fixtures: a private in-memory database per test."""

import unittest

from stockdb import api, db


class DatabaseTestCase(unittest.TestCase):
    def setUp(self):
        self.conn = db.connect(":memory:")
        self.addCleanup(self.conn.close)

    def add(self, sku, name="Widget", cost=0, on_hand=0):
        api.add_product(sku, name, cost, conn=self.conn)
        if on_hand:
            api.set_stock(sku, on_hand, conn=self.conn)
