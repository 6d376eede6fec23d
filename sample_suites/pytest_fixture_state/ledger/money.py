"""Money as a Decimal amount in one currency, rounded half-up to cents like a till does."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF "}


class CurrencyMismatch(ValueError):
    """Two amounts in different currencies were combined."""


@dataclass(frozen=True)
class Money:
    amount: Decimal
    currency: str = "EUR"

    @classmethod
    def of(cls, amount: str | int | Decimal, currency: str = "EUR") -> Money:
        return cls(Decimal(str(amount)).quantize(CENT, ROUND_HALF_UP), currency)

    def _check(self, other: Money) -> None:
        if other.currency != self.currency:
            raise CurrencyMismatch(f"cannot combine {self.currency} with {other.currency}")

    def __add__(self, other: Money) -> Money:
        self._check(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other: Money) -> Money:
        self._check(other)
        return Money(self.amount - other.amount, self.currency)

    def times(self, factor: Decimal | int | str) -> Money:
        return Money((self.amount * Decimal(str(factor))).quantize(CENT, ROUND_HALF_UP), self.currency)

    def is_zero(self) -> bool:
        return self.amount == 0

    def allocate(self, ratios: list[int]) -> list[Money]:
        """Split without losing a cent: the remainder goes to the first shares."""
        if not ratios or any(r < 0 for r in ratios) or sum(ratios) == 0:
            raise ValueError("ratios must be non-negative and not all zero")
        cents = int(self.amount / CENT)
        total = sum(ratios)
        shares = [cents * r // total for r in ratios]
        for i in range(cents - sum(shares)):
            shares[i % len(shares)] += 1
        return [Money(Decimal(s) * CENT, self.currency) for s in shares]

    def format(self) -> str:
        symbol = SYMBOLS.get(self.currency, self.currency + " ")
        sign = "-" if self.amount < 0 else ""
        return f"{sign}{symbol}{abs(self.amount):,.2f}"

    def __str__(self) -> str:
        return f"{self.amount:.2f} {self.currency}"


def total(amounts: list[Money], currency: str = "EUR") -> Money:
    result = Money.of(0, currency)
    for amount in amounts:
        result = result + amount
    return result
