"""Ledger summaries: a header and a total line."""

from ledgerkit import defaults


def header(title, currency=None):
    return "%s (%s)" % (title, currency or defaults.get("currency"))


def format_amount(cents, places=None):
    places = defaults.get("places") if places is None else places
    sign = "-" if cents < 0 else ""
    units, frac = divmod(abs(cents), 100)
    text = "{:,}".format(units).replace(",", defaults.get("separator"))
    if places:
        text += "." + ("%02d" % frac)[:places].ljust(places, "0")
    return sign + text


def total(amounts):
    return sum(amounts)


def total_line(amounts, width=30):
    value = format_amount(total(amounts))
    return "Total".ljust(width - len(value)) + value
