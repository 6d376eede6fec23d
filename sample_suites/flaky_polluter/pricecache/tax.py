"""Sales tax by region, in basis points."""

RATES_BP = {"CA": 725, "NY": 400, "TX": 625, "OR": 0, "WA": 650}
EXEMPT_CATEGORIES = {"fruit", "dairy", "bakery"}


class UnknownRegion(LookupError):
    pass


def rate_bp(region):
    try:
        return RATES_BP[region.upper()]
    except KeyError:
        raise UnknownRegion(region) from None


def tax_for(amount, region, category=None):
    if category in EXEMPT_CATEGORIES:
        return 0
    bp = rate_bp(region)
    return (amount * bp + 5000) // 10000


def gross(amount, region, category=None):
    return amount + tax_for(amount, region, category)
