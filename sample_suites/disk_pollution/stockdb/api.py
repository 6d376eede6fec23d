"""Stock operations.  Every function takes an optional connection; without one
the process-wide default database is used (as the CLI and web views do)."""

import sqlite3

from stockdb import db
from stockdb.validation import ValidationError, check_sku, parse_quantity


class OutOfStock(Exception):
    pass


class UnknownProduct(LookupError):
    pass


def _conn(conn):
    return conn if conn is not None else db.default_connection()


def add_product(sku, name, unit_cost=0, conn=None):
    conn = _conn(conn)
    check_sku(sku)
    if not name.strip():
        raise ValidationError("name must not be empty")
    try:
        with conn:
            conn.execute("INSERT INTO products (sku, name, unit_cost) VALUES (?, ?, ?)",
                         (sku, name.strip(), unit_cost))
            conn.execute("INSERT INTO stock (sku, on_hand) VALUES (?, 0)", (sku,))
    except sqlite3.IntegrityError:
        raise ValidationError("duplicate SKU: %s" % sku) from None


def product_name(sku, conn=None):
    row = _conn(conn).execute("SELECT name FROM products WHERE sku = ?", (sku,)).fetchone()
    if row is None:
        raise UnknownProduct(sku)
    return row[0]


def on_hand(sku, conn=None):
    row = _conn(conn).execute("SELECT on_hand FROM stock WHERE sku = ?", (sku,)).fetchone()
    if row is None:
        raise UnknownProduct(sku)
    return row[0]


def set_stock(sku, quantity, conn=None):
    conn = _conn(conn)
    quantity = parse_quantity(quantity)
    with conn:
        cur = conn.execute("UPDATE stock SET on_hand = ? WHERE sku = ?", (quantity, sku))
    if cur.rowcount == 0:
        raise UnknownProduct(sku)


def receive(sku, quantity, conn=None):
    set_stock(sku, on_hand(sku, conn) + parse_quantity(quantity), conn)


def reserved(sku, conn=None):
    row = _conn(conn).execute(
        "SELECT COALESCE(SUM(quantity), 0) FROM reservations WHERE sku = ? AND status = 'pending'",
        (sku,)).fetchone()
    return row[0]


def available(sku, conn=None):
    return on_hand(sku, conn) - reserved(sku, conn)


def reserve(sku, quantity, conn=None):
    conn = _conn(conn)
    quantity = parse_quantity(quantity)
    if quantity == 0:
        raise ValidationError("cannot reserve zero items")
    if available(sku, conn) < quantity:
        raise OutOfStock("%s: %d available, %d requested" % (sku, available(sku, conn), quantity))
    with conn:
        cur = conn.execute("INSERT INTO reservations (sku, quantity) VALUES (?, ?)", (sku, quantity))
    return cur.lastrowid


def _set_status(reservation_id, status, conn):
    with conn:
        cur = conn.execute(
            "UPDATE reservations SET status = ? WHERE id = ? AND status = 'pending'",
            (status, reservation_id))
    if cur.rowcount == 0:
        raise LookupError("no pending reservation %s" % reservation_id)


def cancel(reservation_id, conn=None):
    _set_status(reservation_id, "cancelled", _conn(conn))


def fulfil(reservation_id, conn=None):
    conn = _conn(conn)
    row = conn.execute("SELECT sku, quantity FROM reservations WHERE id = ?",
                       (reservation_id,)).fetchone()
    if row is None:
        raise LookupError("no reservation %s" % reservation_id)
    _set_status(reservation_id, "fulfilled", conn)
    set_stock(row[0], on_hand(row[0], conn) - row[1], conn)


def pending_reservations(conn=None):
    rows = _conn(conn).execute(
        "SELECT sku FROM reservations WHERE status = 'pending' ORDER BY id")
    return [sku for (sku,) in rows]
