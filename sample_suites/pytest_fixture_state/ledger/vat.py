"""VAT rates per country and category, loaded from the bundled table."""

from __future__ import annotations

from decimal import Decimal

from ledger.money import Money

_BUNDLED = """\
country,standard,reduced,zero
DE,0.19,0.07,0
FR,0.20,0.055,0
NL,0.21,0.09,0
IT,0.22,0.10,0
ES,0.21,0.10,0
AT,0.20,0.10,0
BE,0.21,0.06,0
IE,0.23,0.135,0
"""


class UnknownCountry(KeyError):
    """No VAT rates are known for the country."""


class VatTable:
    """Rates keyed by (country, category). Mutable so that rate changes can be applied."""

    def __init__(self, rates: dict[tuple[str, str], Decimal]) -> None:
        self.rates = rates

    def rate(self, country: str, category: str = "standard") -> Decimal:
        try:
            return self.rates[(country.upper(), category)]
        except KeyError:
            raise UnknownCountry(f"no {category} VAT rate for {country!r}") from None

    def set_rate(self, country: str, category: str, rate: Decimal) -> None:
        if not Decimal(0) <= rate < Decimal(1):
            raise ValueError(f"VAT rate {rate} out of range")
        self.rates[(country.upper(), category)] = rate

    def countries(self) -> list[str]:
        return sorted({country for country, _ in self.rates})

    def vat_on(self, net: Money, country: str, category: str = "standard") -> Money:
        return net.times(self.rate(country, category))

    def gross(self, net: Money, country: str, category: str = "standard") -> Money:
        return net + self.vat_on(net, country, category)

    def net_from_gross(self, gross: Money, country: str, category: str = "standard") -> Money:
        return gross.times(Decimal(1) / (Decimal(1) + self.rate(country, category)))


def load_default() -> VatTable:
    lines = _BUNDLED.strip().splitlines()
    header = lines[0].split(",")[1:]
    rates: dict[tuple[str, str], Decimal] = {}
    for line in lines[1:]:
        country, *values = line.split(",")
        for category, value in zip(header, values):
            rates[(country, category)] = Decimal(value)
    return VatTable(rates)
