"""Promotions and discounts."""


def apply_discount(record, percent):
    """Apply a percentage discount to a price record and return it."""
    if not 0 <= percent <= 100:
        raise ValueError("percent must be between 0 and 100")
    record["amount"] = record["amount"] * (100 - percent) // 100
    record["discount"] = percent
    return record


def bulk_price(amount, quantity, tiers=((10, 5), (50, 10))):
    """Unit amount after the best applicable volume discount."""
    percent = 0
    for threshold, tier_percent in tiers:
        if quantity >= threshold:
            percent = tier_percent
    return amount * (100 - percent) // 100


def bundle_price(amounts, percent_off=10):
    return sum(amounts) * (100 - percent_off) // 100
