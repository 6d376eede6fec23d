"""CSV import/export of stock levels."""

import csv
import io

from stockdb import api
from stockdb.validation import ValidationError, check_sku, parse_cost, parse_quantity

HEADER = ["sku", "name", "unit_cost", "on_hand"]


def export_csv(conn):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    rows = conn.execute(
        "SELECT p.sku, p.name, p.unit_cost, s.on_hand FROM products p JOIN stock s USING (sku) "
        "ORDER BY p.sku")
    for sku, name, cost, qty in rows:
        writer.writerow([sku, name, "%d.%02d" % divmod(cost, 100), qty])
    return out.getvalue()


def parse_rows(text):
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header != HEADER:
        raise ValidationError("bad header: %r" % (header,))
    rows = []
    for lineno, row in enumerate(reader, start=2):
        if not row:
            continue
        if len(row) != 4:
            raise ValidationError("line %d: expected 4 fields" % lineno)
        sku, name, cost, qty = row
        rows.append((check_sku(sku), name, parse_cost(cost), parse_quantity(qty)))
    return rows


def import_csv(conn, text):
    rows = parse_rows(text)
    for sku, name, cost, qty in rows:
        api.add_product(sku, name, cost, conn=conn)
        api.set_stock(sku, qty, conn=conn)
    return len(rows)
