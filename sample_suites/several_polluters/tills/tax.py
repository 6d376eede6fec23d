"""Sales tax, rounded half-up to the cent as tax law asks (never the context's mode)."""

from decimal import Decimal

from tills import rounding

RATES = {"standard": Decimal("0.20"), "reduced": Decimal("0.05"), "zero": Decimal(0)}


def tax_on(net, band="standard"):
    return rounding.to_places_with(Decimal(net) * RATES[band], 2, "half-up")


def gross(net, band="standard"):
    return Decimal(net) + tax_on(net, band)


def net_from_gross(gross_amount, band="standard"):
    return rounding.to_places_with(Decimal(gross_amount) / (1 + RATES[band]), 2, "half-up")
