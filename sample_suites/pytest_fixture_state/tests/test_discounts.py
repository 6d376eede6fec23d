from decimal import Decimal

import pytest

from ledger.discounts import Bulk, Fixed, Percentage, best_price, parse_code
from ledger.money import Money


def test_percentage_off(ten_percent):
    assert Percentage(ten_percent).apply(Money.of("80.00"), 1) == Money.of("72.00")


def test_percentage_rounds_half_up():
    assert Percentage(Decimal("15")).apply(Money.of("0.30"), 1) == Money.of("0.26")


def test_fixed_off():
    assert Fixed(Money.of("5")).apply(Money.of("12.50"), 1) == Money.of("7.50")


def test_fixed_never_goes_negative():
    assert Fixed(Money.of("20")).apply(Money.of("12.50"), 1) == Money.of("0.00")


@pytest.mark.parametrize("quantity,expected", [(1, "100.00"), (9, "100.00"), (10, "95.00"), (49, "95.00"), (50, "90.00"), (500, "90.00")])
def test_bulk_tiers(quantity, expected):
    rule = Bulk(((10, Decimal("5")), (50, Decimal("10"))))
    assert rule.apply(Money.of("100.00"), quantity) == Money.of(expected)


def test_best_price_picks_cheapest():
    rules = [Percentage(Decimal("10")), Fixed(Money.of("15"))]
    assert best_price(Money.of("100"), 1, rules) == Money.of("85.00")


def test_best_price_without_rules_is_net():
    assert best_price(Money.of("100"), 3, []) == Money.of("100.00")


def test_discounts_do_not_stack():
    rules = [Percentage(Decimal("10")), Percentage(Decimal("20"))]
    assert best_price(Money.of("100"), 1, rules) == Money.of("80.00")


@pytest.mark.parametrize("code,rule", [
    ("PCT10", Percentage(Decimal("10"))),
    ("pct25", Percentage(Decimal("25"))),
    (" OFF5 ", Fixed(Money.of("5"))),
    ("OFF120", Fixed(Money.of("120"))),
])
def test_parse_code(code, rule):
    assert parse_code(code) == rule


@pytest.mark.parametrize("code", ["PCT0", "PCT101", "FREE", "OFF", "PCTx", ""])
def test_parse_code_rejects(code):
    with pytest.raises(ValueError):
        parse_code(code)
