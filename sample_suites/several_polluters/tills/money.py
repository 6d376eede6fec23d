"""Formatting amounts: rounding, currency symbol, locale separators."""

from tills import currencies, numbers, rounding


def format_amount(amount, code, locale=None):
    currency = currencies.lookup(code)
    text = str(rounding.to_places(amount, currency.places))
    number = numbers.format_number(text, locale)
    if numbers.conventions(locale).symbol_after:
        return number + "\u00a0" + currency.symbol
    return currency.symbol + number
