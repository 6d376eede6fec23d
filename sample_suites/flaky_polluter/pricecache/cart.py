"""Shopping cart built on the price service."""

from pricecache import catalog, service, tax


class Cart:
    def __init__(self, region="OR"):
        self.region = region
        self.lines = {}

    def add(self, sku, quantity=1):
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        catalog.product(sku)
        self.lines[sku] = self.lines.get(sku, 0) + quantity

    def remove(self, sku, quantity=None):
        if sku not in self.lines:
            raise KeyError(sku)
        if quantity is None or quantity >= self.lines[sku]:
            del self.lines[sku]
        else:
            self.lines[sku] -= quantity

    def item_count(self):
        return sum(self.lines.values())

    def subtotal(self):
        return sum(service.get_amount(sku) * qty for sku, qty in self.lines.items())

    def tax(self):
        return sum(
            tax.tax_for(service.get_amount(sku) * qty, self.region, catalog.product(sku)["category"])
            for sku, qty in self.lines.items()
        )

    def total(self):
        return self.subtotal() + self.tax()

    def clear(self):
        self.lines.clear()
