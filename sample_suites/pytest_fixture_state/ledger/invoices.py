"""Invoices: lines, VAT per category, totals and numbering."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from decimal import Decimal

from ledger.catalog import Product
from ledger.money import Money, total
from ledger.vat import VatTable


@dataclass(frozen=True)
class Line:
    product: Product
    quantity: int
    unit_net: Money

    @property
    def net(self) -> Money:
        return self.unit_net.times(self.quantity)


@dataclass
class Invoice:
    number: str
    country: str
    lines: list[Line] = field(default_factory=list)

    def add(self, product: Product, quantity: int = 1, unit_net: Money | None = None) -> None:
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        self.lines.append(Line(product, quantity, unit_net or product.net_price))

    def subtotal(self) -> Money:
        return total([line.net for line in self.lines])

    def vat_breakdown(self, vat: VatTable) -> dict[Decimal, Money]:
        """VAT per rate, as an invoice must show it."""
        by_rate: dict[Decimal, Money] = {}
        for line in self.lines:
            rate = vat.rate(self.country, line.product.vat_category)
            by_rate[rate] = by_rate.get(rate, Money.of(0)) + line.net
        return {rate: net.times(rate) for rate, net in sorted(by_rate.items())}

    def vat(self, vat: VatTable) -> Money:
        return total(list(self.vat_breakdown(vat).values()))

    def total(self, vat: VatTable) -> Money:
        return self.subtotal() + self.vat(vat)


class Numbering:
    """Invoice numbers like `2024-0001`, gap-free within a year."""

    def __init__(self, year: int, start: int = 1) -> None:
        self.year = year
        self._counter = itertools.count(start)

    def next(self) -> str:
        return f"{self.year}-{next(self._counter):04d}"
