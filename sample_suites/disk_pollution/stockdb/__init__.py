"""stockdb: warehouse stock levels and reservations in SQLite."""

__version__ = "1.0.4"
