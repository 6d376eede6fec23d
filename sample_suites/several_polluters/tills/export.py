"""CSV export of basket lines (plain decimal strings, no locale)."""

import csv
import io


def lines_to_csv(lines):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["sku", "quantity", "unit_price"])
    for line in lines:
        writer.writerow([line.sku, line.quantity, str(line.unit_price)])
    return out.getvalue()


def csv_to_rows(text):
    reader = csv.DictReader(io.StringIO(text))
    return [dict(row) for row in reader]
