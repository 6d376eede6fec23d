"""SQLite access.

The default database lives in a temporary directory created once per process
(``stockdb-<pid>-*`` under the system temp dir) and removed at exit, so every
new process starts with an empty database.  Within one process it is shared.
"""

import atexit
import os
import shutil
import sqlite3
import tempfile

SCHEMA = """
CREATE TABLE IF NOT EXISTS products (
    sku TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    unit_cost INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS stock (
    sku TEXT PRIMARY KEY REFERENCES products(sku),
    on_hand INTEGER NOT NULL CHECK (on_hand >= 0)
);
CREATE TABLE IF NOT EXISTS reservations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sku TEXT NOT NULL REFERENCES products(sku),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    status TEXT NOT NULL DEFAULT 'pending'
);
"""

_default_dir = None
_default_conn = None


def connect(path):
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.executescript(SCHEMA)
    return conn


def default_path():
    global _default_dir
    if _default_dir is None:
        _default_dir = tempfile.mkdtemp(prefix="stockdb-%d-" % os.getpid())
        atexit.register(shutil.rmtree, _default_dir, True)
    return os.path.join(_default_dir, "stock.sqlite3")


def default_connection():
    global _default_conn
    if _default_conn is None:
        _default_conn = connect(default_path())
    return _default_conn


def table_names(conn):
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    return [name for (name,) in rows if not name.startswith("sqlite_")]
