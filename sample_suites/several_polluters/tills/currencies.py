"""The currency registry: code -> symbol and minor units. Shops can register their own."""

from collections import namedtuple

Currency = namedtuple("Currency", "code symbol places")

_REGISTRY = {
    "USD": Currency("USD", "$", 2),
    "EUR": Currency("EUR", "\u20ac", 2),
    "GBP": Currency("GBP", "\u00a3", 2),
    "JPY": Currency("JPY", "\u00a5", 0),
    "KWD": Currency("KWD", "KD", 3),
}


def lookup(code):
    try:
        return _REGISTRY[code.upper()]
    except KeyError:
        raise KeyError("unknown currency: %s" % code) from None


def register(code, symbol, places=2):
    """Add a currency, or replace an existing one (e.g. a shop that prints 'US$')."""
    if len(code) != 3 or not code.isalpha():
        raise ValueError("currency codes are three letters: %r" % (code,))
    if not 0 <= places <= 4:
        raise ValueError("places must be 0..4")
    _REGISTRY[code.upper()] = Currency(code.upper(), symbol, places)


def known_codes():
    return sorted(_REGISTRY)
