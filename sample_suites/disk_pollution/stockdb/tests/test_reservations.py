"""Reservations through the default (process-wide, on-disk) database,
the way the CLI and the web views use it."""

import unittest

from stockdb import api, db


class DefaultStoreReservationTest(unittest.TestCase):
    def test_default_connection_is_shared(self):
        self.assertIs(db.default_connection(), db.default_connection())

    def test_reserve_creates_pending_reservation(self):
        api.add_product("SKU-1042", "Hinge, brass")
        api.set_stock("SKU-1042", 10)
        api.reserve("SKU-1042", 2)
        self.assertEqual(api.available("SKU-1042"), 8)

    def test_unknown_sku_on_default_store(self):
        with self.assertRaises(api.UnknownProduct):
            api.on_hand("SKU-999999")


class PendingReportTest(unittest.TestCase):
    def test_no_pending_reservations_on_fresh_store(self):
        pending = api.pending_reservations()
        if pending:
            self.fail("expected empty reservations table, found %d rows: %r" % (len(pending), pending))

    def test_default_store_has_schema(self):
        self.assertEqual(db.table_names(db.default_connection()),
                         ["products", "reservations", "stock"])
