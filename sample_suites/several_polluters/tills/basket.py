"""A basket of lines: SKU, quantity, unit price (Decimal)."""

from collections import namedtuple
from decimal import Decimal

Line = namedtuple("Line", "sku quantity unit_price")


class Basket:
    def __init__(self):
        self._lines = []

    def add(self, sku, quantity, unit_price):
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        unit_price = Decimal(unit_price)
        if unit_price < 0:
            raise ValueError("unit price cannot be negative")
        for index, line in enumerate(self._lines):
            if line.sku == sku and line.unit_price == unit_price:
                self._lines[index] = line._replace(quantity=line.quantity + quantity)
                return
        self._lines.append(Line(sku, quantity, unit_price))

    def remove(self, sku):
        before = len(self._lines)
        self._lines = [line for line in self._lines if line.sku != sku]
        if len(self._lines) == before:
            raise KeyError(sku)

    def lines(self):
        return list(self._lines)

    def item_count(self):
        return sum(line.quantity for line in self._lines)

    def subtotal(self):
        return sum((line.quantity * line.unit_price for line in self._lines), Decimal(0))
