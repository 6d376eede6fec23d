"""Rows to delimited text."""

from tabular import dialect


def quote_field(value, delimiter):
    text = "" if value is None else str(value)
    q = dialect.quotechar()
    if any(c in text for c in (delimiter, q, "\n", "\r")) or text != text.strip():
        return q + text.replace(q, q + q) + q
    return text


def dumps_row(row, delimiter=None):
    sep = dialect.resolve(delimiter)
    return sep.join(quote_field(v, sep) for v in row)


def dumps(rows, header=None, delimiter=None):
    """The table as text, one line per row, the header first when given."""
    lines = []
    if header is not None:
        lines.append(dumps_row(header, delimiter))
    lines.extend(dumps_row(r, delimiter) for r in rows)
    end = dialect.lineterminator()
    return end.join(lines) + (end if lines else "")
