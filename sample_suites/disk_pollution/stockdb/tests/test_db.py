import os
import sqlite3
import tempfile
import unittest

from stockdb import db


class ConnectTest(unittest.TestCase):
    def test_creates_schema(self):
        conn = db.connect(":memory:")
        self.assertEqual(db.table_names(conn), ["products", "reservations", "stock"])

    def test_connect_is_idempotent(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "x.sqlite3")
            db.connect(path).close()
            conn = db.connect(path)
            self.assertEqual(len(db.table_names(conn)), 3)
            conn.close()

    def test_foreign_keys_enforced(self):
        conn = db.connect(":memory:")
        with self.assertRaises(sqlite3.IntegrityError):
            conn.execute("INSERT INTO stock (sku, on_hand) VALUES ('SKU-0001', 1)")

    def test_negative_stock_rejected(self):
        conn = db.connect(":memory:")
        conn.execute("INSERT INTO products (sku, name) VALUES ('SKU-0001', 'x')")
        with self.assertRaises(sqlite3.IntegrityError):
            conn.execute("INSERT INTO stock (sku, on_hand) VALUES ('SKU-0001', -1)")


class DefaultLocationTest(unittest.TestCase):
    def test_default_path_is_stable_within_process(self):
        self.assertEqual(db.default_path(), db.default_path())

    def test_default_path_names_process(self):
        self.assertIn("stockdb-%d-" % os.getpid(), db.default_path())

    def test_default_path_in_temp_dir(self):
        self.assertTrue(db.default_path().startswith(tempfile.gettempdir()))
