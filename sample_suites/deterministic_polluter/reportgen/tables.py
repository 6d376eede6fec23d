"""Plain-text tables."""


def column_widths(rows, headers):
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(str(cell)))
    return widths


def render_table(rows, headers, align=None):
    align = align or ["<"] * len(headers)
    widths = column_widths(rows, headers)

    def fmt(row):
        cells = ["{:{}{}}".format(str(c), a, w) for c, a, w in zip(row, align, widths)]
        return "| " + " | ".join(cells) + " |"

    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([fmt(headers), sep] + [fmt(r) for r in rows])
