"""Products and the shelf prices shown to customers (gross, VAT included)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.money import Money
from ledger.vat import VatTable

CATEGORIES = ("standard", "reduced", "zero")


class DuplicateSku(ValueError):
    """A product with the same SKU is already in the catalog."""


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    net_price: Money
    vat_category: str = "standard"
    tags: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.vat_category not in CATEGORIES:
            raise ValueError(f"unknown VAT category {self.vat_category!r}")
        if self.net_price.amount < 0:
            raise ValueError("a price cannot be negative")


class Catalog:
    def __init__(self) -> None:
        self._products: dict[str, Product] = {}

    def add(self, product: Product) -> None:
        if product.sku in self._products:
            raise DuplicateSku(product.sku)
        self._products[product.sku] = product

    def find(self, sku: str) -> Product | None:
        return self._products.get(sku)

    def remove(self, sku: str) -> Product:
        return self._products.pop(sku)

    def tagged(self, tag: str) -> list[Product]:
        return sorted((p for p in self._products.values() if tag in p.tags), key=lambda p: p.sku)

    def search(self, text: str) -> list[Product]:
        needle = text.casefold()
        return [p for p in self._products.values() if needle in p.name.casefold()]

    def __len__(self) -> int:
        return len(self._products)

    def shelf_price(self, sku: str, vat: VatTable, country: str) -> Money:
        product = self._products[sku]
        return vat.gross(product.net_price, country, product.vat_category)
