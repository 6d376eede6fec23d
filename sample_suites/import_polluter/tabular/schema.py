"""Typed columns: text fields to Python values and back."""

import datetime as dt
from decimal import Decimal, InvalidOperation

TRUE = {"true", "yes", "1", "y"}
FALSE = {"false", "no", "0", "n"}


def to_bool(text):
    low = text.strip().lower()
    if low in TRUE:
        return True
    if low in FALSE:
        return False
    raise ValueError(f"not a boolean: {text!r}")


def to_decimal(text):
    try:
        return Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"not a number: {text!r}") from None


def to_date(text):
    return dt.date.fromisoformat(text.strip())


CONVERTERS = {"str": str, "int": int, "bool": to_bool, "decimal": to_decimal, "date": to_date}


def coerce(row, types):
    """Convert a dict of text fields by a dict of type names; missing fields stay missing."""
    out = {}
    for key, value in row.items():
        kind = types.get(key, "str")
        if kind not in CONVERTERS:
            raise KeyError(f"unknown type {kind!r}")
        out[key] = None if value == "" else CONVERTERS[kind](value)
    return out


def to_text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)
