"""Delimited text to rows."""

from tabular import dialect


def split_row(line, delimiter):
    q = dialect.quotechar()
    fields, field, quoted, i = [], [], False, 0
    while i < len(line):
        c = line[i]
        if quoted:
            if c == q and i + 1 < len(line) and line[i + 1] == q:
                field.append(q)
                i += 1
            elif c == q:
                quoted = False
            else:
                field.append(c)
        elif c == q and not field:
            quoted = True
        elif c == delimiter:
            fields.append("".join(field))
            field = []
        else:
            field.append(c)
        i += 1
    if quoted:
        raise ValueError("unterminated quoted field")
    fields.append("".join(field))
    return fields


def loads(text, delimiter=None):
    sep = dialect.resolve(delimiter)
    return [split_row(line, sep) for line in text.splitlines() if line]


def loads_dicts(text, delimiter=None):
    rows = loads(text, delimiter)
    if not rows:
        return []
    header, body = rows[0], rows[1:]
    return [dict(zip(header, r)) for r in body]


def sniff(text):
    """The allowed delimiter used most in the first line."""
    first = text.splitlines()[0] if text else ""
    counts = {d: first.count(d) for d in dialect.ALLOWED_DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    if counts[best] == 0:
        raise ValueError("no delimiter found")
    return best
