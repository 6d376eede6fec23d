"""Tables as aligned plain text."""


def widths(rows):
    out = []
    for row in rows:
        for i, value in enumerate(row):
            size = len(str(value))
            if i == len(out):
                out.append(size)
            else:
                out[i] = max(out[i], size)
    return out


def align(value, width, numeric):
    text = str(value)
    return text.rjust(width) if numeric else text.ljust(width)


def is_number(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    try:
        float(str(value))
    except ValueError:
        return False
    return True


def render(rows, header=None):
    table = ([list(header)] if header else []) + [list(r) for r in rows]
    if not table:
        return ""
    sizes = widths(table)
    lines = []
    for n, row in enumerate(table):
        cells = [align(v, sizes[i], is_number(v) and not (header and n == 0)) for i, v in enumerate(row)]
        lines.append(" | ".join(cells).rstrip())
        if header and n == 0:
            lines.append("-+-".join("-" * s for s in sizes))
    return "\n".join(lines)
