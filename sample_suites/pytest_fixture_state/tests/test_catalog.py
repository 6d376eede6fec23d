from decimal import Decimal

import pytest

from ledger.catalog import Catalog, DuplicateSku, Product
from ledger.money import Money


def test_catalog_counts_products(catalog):
    assert len(catalog) == 5


def test_find_known_sku(catalog):
    assert catalog.find("MS-220").name == "Wireless mouse"


def test_find_unknown_sku_returns_none(catalog):
    assert catalog.find("XX-000") is None


def test_duplicate_sku_is_rejected(catalog, keyboard):
    with pytest.raises(DuplicateSku):
        catalog.add(keyboard)


def test_remove_returns_product(catalog):
    removed = catalog.remove("GC-050")
    assert removed.name == "Gift card 50"
    assert len(catalog) == 4


def test_remove_unknown_raises(catalog):
    with pytest.raises(KeyError):
        catalog.remove("XX-000")


@pytest.mark.parametrize("tag,skus", [
    ("hardware", ["KB-101", "MS-220"]),
    ("books", ["BK-007", "BK-008"]),
    ("vouchers", ["GC-050"]),
    ("garden", []),
])
def test_tagged(catalog, tag, skus):
    assert [p.sku for p in catalog.tagged(tag)] == skus


@pytest.mark.parametrize("text,count", [("python", 2), ("PYTHON", 2), ("mouse", 1), ("card", 1), ("lamp", 0)])
def test_search_is_case_insensitive(catalog, text, count):
    assert len(catalog.search(text)) == count


def test_unknown_vat_category_is_rejected():
    with pytest.raises(ValueError, match="unknown VAT category"):
        Product("X-1", "Thing", Money.of(1), "luxury")


def test_negative_price_is_rejected():
    with pytest.raises(ValueError, match="negative"):
        Product("X-1", "Thing", Money.of(-1))


def test_empty_catalog_has_no_products():
    assert len(Catalog()) == 0


@pytest.mark.parametrize("country,expected", [("FR", "60.00"), ("NL", "60.50"), ("IT", "61.00"), ("IE", "61.50")])
def test_shelf_price_standard_rate(catalog, vat_table, country, expected):
    assert catalog.shelf_price("KB-101", vat_table, country) == Money.of(expected)


def test_shelf_price_during_2020_vat_cut(catalog, vat_table):
    """Germany cut the standard VAT rate to 16 % from July to December 2020."""
    vat_table.set_rate("DE", "standard", Decimal("0.16"))
    assert catalog.shelf_price("KB-101", vat_table, "DE") == Money.of("58.00")


@pytest.mark.parametrize("country,expected", [("DE", "42.69"), ("FR", "42.09"), ("BE", "42.29")])
def test_books_use_reduced_rate(catalog, vat_table, country, expected):
    assert catalog.shelf_price("BK-007", vat_table, country) == Money.of(expected)


@pytest.mark.parametrize("country", ["DE", "FR", "NL", "AT"])
def test_gift_cards_carry_no_vat(catalog, vat_table, country):
    assert catalog.shelf_price("GC-050", vat_table, country) == Money.of("50.00")
