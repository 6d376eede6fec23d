"""Receipt lines: a total line in the shop's default formatting, and fixed-width layout."""

from tills import money


def total_line(amount, code):
    return "Total: " + money.format_amount(amount, code)


def item_line(name, amount_text, width=32):
    space = width - len(amount_text) - 1
    if space < 1:
        raise ValueError("line too narrow")
    return name[:space].ljust(space) + " " + amount_text


def rule(width=32):
    return "-" * width
