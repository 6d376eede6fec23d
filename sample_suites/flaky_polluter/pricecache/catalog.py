"""Static product catalogue (stands in for the primary database)."""

CATALOG = {
    "apple": {"name": "Apple", "amount": 120, "currency": "USD", "category": "fruit"},
    "banana": {"name": "Banana", "amount": 45, "currency": "USD", "category": "fruit"},
    "cherry": {"name": "Cherries (250 g)", "amount": 399, "currency": "USD", "category": "fruit"},
    "bread": {"name": "Sourdough loaf", "amount": 550, "currency": "USD", "category": "bakery"},
    "bagel": {"name": "Bagel", "amount": 150, "currency": "USD", "category": "bakery"},
    "milk": {"name": "Milk (1 l)", "amount": 189, "currency": "USD", "category": "dairy"},
    "butter": {"name": "Butter (250 g)", "amount": 425, "currency": "USD", "category": "dairy"},
    "coffee": {"name": "Coffee beans (500 g)", "amount": 1299, "currency": "USD", "category": "pantry"},
    "rice": {"name": "Rice (1 kg)", "amount": 310, "currency": "USD", "category": "pantry"},
}


class UnknownSku(KeyError):
    """Raised for a SKU that is not in the catalogue."""


def known_skus():
    return sorted(CATALOG)


def product(sku):
    try:
        return CATALOG[sku]
    except KeyError:
        raise UnknownSku(sku) from None


def by_category(category):
    return sorted(sku for sku, item in CATALOG.items() if item["category"] == category)


def categories():
    return sorted({item["category"] for item in CATALOG.values()})
