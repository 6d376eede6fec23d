"""Discount rules applied to a net amount; the best applicable rule wins, never stacking."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ledger.money import Money


@dataclass(frozen=True)
class Percentage:
    percent: Decimal

    def apply(self, net: Money, quantity: int) -> Money:
        return net.times(Decimal(1) - self.percent / 100)


@dataclass(frozen=True)
class Fixed:
    off: Money

    def apply(self, net: Money, quantity: int) -> Money:
        result = net - self.off
        return result if result.amount > 0 else Money.of(0, net.currency)


@dataclass(frozen=True)
class Bulk:
    """Tiered: from `min_quantity` items on, `percent` off."""

    tiers: tuple[tuple[int, Decimal], ...]

    def apply(self, net: Money, quantity: int) -> Money:
        best = Decimal(0)
        for min_quantity, percent in self.tiers:
            if quantity >= min_quantity:
                best = max(best, percent)
        return net.times(Decimal(1) - best / 100)


Rule = Percentage | Fixed | Bulk


def best_price(net: Money, quantity: int, rules: list[Rule]) -> Money:
    prices = [rule.apply(net, quantity) for rule in rules]
    return min(prices, key=lambda m: m.amount, default=net)


def parse_code(code: str) -> Rule:
    """Voucher codes: `PCT10` (10 % off) or `OFF5` (5.00 off)."""
    code = code.strip().upper()
    if code.startswith("PCT") and code[3:].isdigit():
        percent = Decimal(code[3:])
        if not 0 < percent <= 100:
            raise ValueError(f"bad percentage in {code}")
        return Percentage(percent)
    if code.startswith("OFF") and code[3:].isdigit():
        return Fixed(Money.of(code[3:]))
    raise ValueError(f"unknown voucher code {code!r}")
