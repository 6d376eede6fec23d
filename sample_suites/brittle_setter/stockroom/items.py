"""Stock items: a SKU, a name, a quantity in some unit."""

from collections import namedtuple

Item = namedtuple("Item", "sku name quantity unit")


def parse_sku(text):
    text = text.strip().upper()
    if len(text) != 8 or text[:3].isalpha() is False or not text[3] == "-" or not text[4:].isdigit():
        raise ValueError("a SKU looks like ABC-1234: %r" % (text,))
    return text


def make(sku, name, quantity, unit):
    if quantity < 0:
        raise ValueError("negative stock for %s" % sku)
    if not name.strip():
        raise ValueError("an item needs a name")
    return Item(parse_sku(sku), name.strip(), quantity, unit)


def restock(item, amount):
    if amount <= 0:
        raise ValueError("restock by a positive amount")
    return item._replace(quantity=item.quantity + amount)


def take(item, amount):
    if amount > item.quantity:
        raise ValueError("only %s %s of %s left" % (item.quantity, item.unit, item.sku))
    return item._replace(quantity=item.quantity - amount)
