"""Machine-readable renderers for report rows."""

import csv
import io
import json

FORMATS = ("json", "csv", "markdown")


def render(rows, fmt):
    if fmt == "json":
        return json.dumps([{"label": label, "amount": amount} for label, amount in rows])
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["label", "amount"])
        writer.writerows(rows)
        return out.getvalue()
    if fmt == "markdown":
        lines = ["| label | amount |", "| --- | ---: |"]
        lines += ["| %s | %d |" % (label.replace("|", "\\|"), amount) for label, amount in rows]
        return "\n".join(lines) + "\n"
    raise ValueError("unknown format: %s" % fmt)


def parse(data, fmt):
    if fmt == "json":
        return [(item["label"], item["amount"]) for item in json.loads(data)]
    if fmt == "csv":
        reader = csv.reader(io.StringIO(data))
        next(reader)
        return [(label, int(amount)) for label, amount in reader]
    if fmt == "markdown":
        rows = []
        for line in data.splitlines()[2:]:
            cells = [c.strip() for c in line.strip("|").rsplit(" | ", 1)]
            rows.append((cells[0].replace("\\|", "|"), int(cells[1])))
        return rows
    raise ValueError("unknown format: %s" % fmt)


def content_type(fmt):
    return {"json": "application/json", "csv": "text/csv", "markdown": "text/markdown"}[fmt]
