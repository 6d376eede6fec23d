from decimal import Decimal

import pytest

from ledger import vat
from ledger.money import Money


@pytest.mark.parametrize("country,rate", [
    ("DE", "0.19"), ("FR", "0.20"), ("NL", "0.21"), ("IT", "0.22"),
    ("ES", "0.21"), ("AT", "0.20"), ("BE", "0.21"), ("IE", "0.23"),
])
def test_bundled_standard_rates(country, rate):
    assert vat.load_default().rate(country) == Decimal(rate)


@pytest.mark.parametrize("country,rate", [("DE", "0.07"), ("FR", "0.055"), ("IE", "0.135")])
def test_reduced_rates(vat_table, country, rate):
    assert vat_table.rate(country, "reduced") == Decimal(rate)


def test_country_codes_are_case_insensitive(vat_table):
    assert vat_table.rate("fr") == vat_table.rate("FR")


def test_unknown_country(vat_table):
    with pytest.raises(vat.UnknownCountry, match="'XX'"):
        vat_table.rate("XX")


def test_countries_listed_sorted(vat_table):
    assert vat_table.countries() == ["AT", "BE", "DE", "ES", "FR", "IE", "IT", "NL"]


@pytest.mark.parametrize("rate", ["-0.01", "1", "1.5"])
def test_set_rate_rejects_out_of_range(rate):
    with pytest.raises(ValueError, match="out of range"):
        vat.load_default().set_rate("DE", "standard", Decimal(rate))


def test_set_rate_on_fresh_table():
    table = vat.load_default()
    table.set_rate("nl", "reduced", Decimal("0.06"))
    assert table.rate("NL", "reduced") == Decimal("0.06")


def test_vat_on_net(vat_table):
    assert vat_table.vat_on(Money.of("200"), "IT") == Money.of("44.00")


@pytest.mark.parametrize("country,gross,net", [("FR", "120.00", "100.00"), ("NL", "12.10", "10.00"), ("IE", "123.00", "100.00")])
def test_net_from_gross(vat_table, country, gross, net):
    assert vat_table.net_from_gross(Money.of(gross), country) == Money.of(net)


def test_zero_category_everywhere(vat_table):
    assert all(vat_table.rate(c, "zero") == 0 for c in vat_table.countries())
