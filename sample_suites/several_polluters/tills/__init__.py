"""tills: point-of-sale receipts (baskets, discounts, tax, formatted totals)."""
