"""Integer-cents money helpers."""

SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3"}


def format_cents(amount, currency="USD"):
    if amount < 0:
        return "-" + format_cents(-amount, currency)
    symbol = SYMBOLS.get(currency)
    text = "%d.%02d" % divmod(amount, 100)
    return symbol + text if symbol else "%s %s" % (text, currency)


def parse_price(text):
    text = text.strip()
    negative = text.startswith("-")
    if negative:
        text = text[1:]
    for symbol in SYMBOLS.values():
        if text.startswith(symbol):
            text = text[len(symbol):]
            break
    if "." in text:
        units, cents = text.split(".", 1)
        if len(cents) != 2 or not cents.isdigit():
            raise ValueError("bad price: %r" % text)
    else:
        units, cents = text, "00"
    if not units.isdigit():
        raise ValueError("bad price: %r" % text)
    value = int(units) * 100 + int(cents)
    return -value if negative else value


def multiply(amount, factor):
    """Multiply cents by a float factor, rounding half up."""
    scaled = amount * factor
    return int(scaled + 0.5) if scaled >= 0 else -int(-scaled + 0.5)


def split_evenly(amount, parts):
    if parts <= 0:
        raise ValueError("parts must be positive")
    base, extra = divmod(amount, parts)
    return [base + 1 if i < extra else base for i in range(parts)]
