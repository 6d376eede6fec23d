from decimal import Decimal

import pytest

from ledger.catalog import Product
from ledger.invoices import Invoice, Numbering
from ledger.money import Money


def test_empty_invoice_subtotal_is_zero():
    assert Invoice("2024-0001", "DE").subtotal() == Money.of(0)


def test_subtotal_sums_lines(keyboard, book):
    invoice = Invoice("2024-0002", "NL")
    invoice.add(keyboard, 2)
    invoice.add(book)
    assert invoice.subtotal() == Money.of("139.90")


def test_quantity_must_be_positive(keyboard):
    with pytest.raises(ValueError, match="positive"):
        Invoice("2024-0003", "DE").add(keyboard, 0)


def test_custom_unit_price_overrides_catalog(keyboard):
    invoice = Invoice("2024-0004", "FR")
    invoice.add(keyboard, 1, Money.of("45.00"))
    assert invoice.subtotal() == Money.of("45.00")


def test_vat_breakdown_by_rate(keyboard, book, vat_table):
    invoice = Invoice("2024-0005", "FR")
    invoice.add(keyboard)
    invoice.add(book)
    assert invoice.vat_breakdown(vat_table) == {
        Decimal("0.055"): Money.of("2.19"),
        Decimal("0.20"): Money.of("10.00"),
    }


def test_dutch_invoice_total(keyboard, vat_table):
    invoice = Invoice("2024-0006", "NL")
    invoice.add(keyboard, 2)
    assert invoice.total(vat_table) == Money.of("121.00")


def test_german_book_invoice_uses_reduced_rate(book, vat_table):
    invoice = Invoice("2024-0007", "DE")
    invoice.add(book)
    assert invoice.vat(vat_table) == Money.of("2.79")


def test_german_invoice_total_includes_19_percent_vat(vat_table):
    invoice = Invoice("2024-0042", "DE")
    invoice.add(Product("SV-001", "Consulting hour", Money.of("100.00")))
    got = invoice.total(vat_table)
    assert got == Money.of("119.00"), f"DE invoice total {got}, expected 119.00 EUR (19% VAT)"


def test_gift_card_invoice_has_no_vat(catalog, vat_table):
    invoice = Invoice("2024-0008", "AT")
    invoice.add(catalog.find("GC-050"), 3)
    assert invoice.vat(vat_table).is_zero()


@pytest.mark.parametrize("country,expected", [("FR", "59.99"), ("IT", "61.00"), ("ES", "60.50"), ("BE", "60.50")])
def test_total_per_country(keyboard, vat_table, country, expected):
    invoice = Invoice("2024-0009", country)
    invoice.add(keyboard, 1, Money.of("49.99") if country == "FR" else None)
    assert invoice.total(vat_table) == Money.of(expected)


def test_numbering_starts_at_one():
    assert Numbering(2024).next() == "2024-0001"


def test_numbering_is_sequential():
    numbering = Numbering(2024, start=41)
    assert [numbering.next() for _ in range(3)] == ["2024-0041", "2024-0042", "2024-0043"]


@pytest.mark.parametrize("year", [1999, 2024, 2100])
def test_numbering_carries_year(year):
    assert Numbering(year).next().startswith(f"{year}-")
