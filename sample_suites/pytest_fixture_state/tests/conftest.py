from decimal import Decimal

import pytest

from ledger import vat
from ledger.catalog import Catalog, Product
from ledger.money import Money


@pytest.fixture(scope="session")
def vat_table():
    """The bundled rate table is parsed once per session: every test shares this object."""
    return vat.load_default()


@pytest.fixture
def catalog():
    c = Catalog()
    c.add(Product("KB-101", "Mechanical keyboard", Money.of("50.00"), tags=frozenset({"hardware"})))
    c.add(Product("MS-220", "Wireless mouse", Money.of("24.99"), tags=frozenset({"hardware"})))
    c.add(Product("BK-007", "Python cookbook", Money.of("39.90"), "reduced", frozenset({"books"})))
    c.add(Product("BK-008", "Fluent Python", Money.of("54.00"), "reduced", frozenset({"books"})))
    c.add(Product("GC-050", "Gift card 50", Money.of("50.00"), "zero", frozenset({"vouchers"})))
    return c


@pytest.fixture
def keyboard(catalog):
    return catalog.find("KB-101")


@pytest.fixture
def book(catalog):
    return catalog.find("BK-007")


@pytest.fixture
def ten_percent():
    return Decimal("10")
