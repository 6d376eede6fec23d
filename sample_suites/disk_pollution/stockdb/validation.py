"""Input validation."""

import re

_SKU = re.compile(r"^SKU-\d{4,6}$")


class ValidationError(ValueError):
    pass


def check_sku(sku):
    if not isinstance(sku, str) or not _SKU.match(sku):
        raise ValidationError("invalid SKU: %r" % (sku,))
    return sku


def parse_quantity(value):
    if isinstance(value, bool):
        raise ValidationError("quantity must be a number")
    if isinstance(value, str):
        value = value.strip()
        if not value.lstrip("-").isdigit():
            raise ValidationError("quantity must be a whole number: %r" % value)
        value = int(value)
    if not isinstance(value, int):
        raise ValidationError("quantity must be a whole number")
    if value < 0:
        raise ValidationError("quantity must not be negative")
    return value


def parse_cost(text):
    text = text.strip().lstrip("$")
    if not re.match(r"^\d+(\.\d{1,2})?$", text):
        raise ValidationError("invalid cost: %r" % text)
    units, _, cents = text.partition(".")
    return int(units) * 100 + int((cents + "00")[:2])
