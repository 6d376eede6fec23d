from decimal import Decimal

import pytest

from ledger.money import CurrencyMismatch, Money, total


@pytest.mark.parametrize("raw,expected", [("1", "1.00"), ("1.005", "1.01"), ("2.675", "2.68"), (3, "3.00"), ("-0.005", "-0.01")])
def test_of_rounds_half_up(raw, expected):
    assert Money.of(raw).amount == Decimal(expected)


def test_add():
    assert Money.of("1.10") + Money.of("2.20") == Money.of("3.30")


def test_sub():
    assert Money.of("5") - Money.of("7.5") == Money.of("-2.50")


def test_mismatched_currencies_do_not_add():
    with pytest.raises(CurrencyMismatch):
        Money.of(1, "EUR") + Money.of(1, "USD")


@pytest.mark.parametrize("factor,expected", [(2, "20.00"), ("0.5", "5.00"), ("0.333", "3.33"), (0, "0.00")])
def test_times(factor, expected):
    assert Money.of(10).times(factor) == Money.of(expected)


@pytest.mark.parametrize("amount,ratios,expected", [
    ("100", [1, 1, 1], ["33.34", "33.33", "33.33"]),
    ("0.05", [1, 1], ["0.03", "0.02"]),
    ("10", [3, 1], ["7.50", "2.50"]),
    ("1", [1, 0], ["1.00", "0.00"]),
])
def test_allocate_keeps_every_cent(amount, ratios, expected):
    assert [str(m.amount) for m in Money.of(amount).allocate(ratios)] == expected


@pytest.mark.parametrize("ratios", [[], [0, 0], [1, -1]])
def test_allocate_rejects_bad_ratios(ratios):
    with pytest.raises(ValueError):
        Money.of(1).allocate(ratios)


@pytest.mark.parametrize("currency,amount,text", [
    ("EUR", "1234.5", "€1,234.50"),
    ("USD", "-3", "-$3.00"),
    ("GBP", "0.1", "£0.10"),
    ("CHF", "99", "CHF 99.00"),
    ("SEK", "10", "SEK 10.00"),
])
def test_format(currency, amount, text):
    assert Money.of(amount, currency).format() == text


def test_str():
    assert str(Money.of("7.5", "USD")) == "7.50 USD"


def test_total_of_nothing_is_zero():
    assert total([]).is_zero()


def test_total_sums():
    assert total([Money.of("0.10")] * 3) == Money.of("0.30")
