"""Formatting of integer minor-unit amounts."""

SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3", "JPY": "\u00a5"}
ZERO_DECIMAL = {"JPY"}


def format_amount(amount, currency, places=2, grouping=True):
    if currency in ZERO_DECIMAL:
        places = 0
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if places:
        units, frac = divmod(amount, 10 ** places)
        frac_text = ".%0*d" % (places, frac)
    else:
        units, frac_text = amount, ""
    units_text = "{:,}".format(units) if grouping else str(units)
    symbol = SYMBOLS.get(currency)
    if symbol:
        return "%s%s%s%s" % (sign, symbol, units_text, frac_text)
    return "%s%s%s %s" % (sign, units_text, frac_text, currency)


def parse_amount(text, places=2):
    text = text.replace(",", "").strip()
    for symbol in SYMBOLS.values():
        text = text.replace(symbol, "")
    negative = text.startswith("-")
    text = text.lstrip("-")
    if "." in text:
        units, frac = text.split(".")
        frac = (frac + "0" * places)[:places]
    else:
        units, frac = text, "0"
    value = int(units) * 10 ** places + int(frac or 0)
    return -value if negative else value


def percent(part, whole, places=1):
    if whole == 0:
        return "n/a"
    return "%.*f%%" % (places, 100.0 * part / whole)
