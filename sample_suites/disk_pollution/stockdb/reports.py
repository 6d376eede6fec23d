"""Read-only reports."""

from stockdb import db


def low_stock(conn, threshold=5):
    rows = conn.execute(
        "SELECT p.sku, s.on_hand FROM products p JOIN stock s USING (sku) "
        "WHERE s.on_hand < ? ORDER BY s.on_hand, p.sku", (threshold,))
    return rows.fetchall()


def valuation(conn):
    row = conn.execute(
        "SELECT COALESCE(SUM(p.unit_cost * s.on_hand), 0) FROM products p JOIN stock s USING (sku)"
    ).fetchone()
    return row[0]


def reservation_summary(conn):
    rows = conn.execute("SELECT status, COUNT(*) FROM reservations GROUP BY status ORDER BY status")
    return dict(rows.fetchall())


def product_count(conn):
    return conn.execute("SELECT COUNT(*) FROM products").fetchone()[0]


def tables(conn):
    return db.table_names(conn)
