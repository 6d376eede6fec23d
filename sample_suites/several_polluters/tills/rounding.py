"""Rounding money to its minor units with the decimal context's rounding mode.

Banker's rounding (ROUND_HALF_EVEN, decimal's default) unless a shop asks for another mode with
use_rounding(), which sets it on the current decimal context (what `tills --round half-up` does).
"""

import decimal
from decimal import Decimal

MODES = {
    "half-even": decimal.ROUND_HALF_EVEN,
    "half-up": decimal.ROUND_HALF_UP,
    "down": decimal.ROUND_DOWN,
    "up": decimal.ROUND_UP,
}


def use_rounding(name):
    if name not in MODES:
        raise KeyError("unknown rounding mode: %s" % name)
    decimal.getcontext().rounding = MODES[name]


def current_mode():
    rounding = decimal.getcontext().rounding
    return next(name for name, mode in MODES.items() if mode == rounding)


def to_places(amount, places):
    """AMOUNT (a Decimal) rounded to PLACES decimals with the context's rounding."""
    return Decimal(amount).quantize(Decimal(1).scaleb(-places))


def to_places_with(amount, places, mode):
    """The same with an explicit mode, leaving the context alone."""
    return Decimal(amount).quantize(Decimal(1).scaleb(-places), rounding=MODES[mode])
