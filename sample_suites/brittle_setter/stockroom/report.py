"""Reports over a list of items."""

from stockroom import units


def total_quantity(items):
    return sum(i.quantity for i in items)


def low_stock(items, threshold):
    return [i.sku for i in items if i.quantity < threshold]


def by_name(items):
    return sorted(items, key=lambda i: (i.name.lower(), i.sku))


def csv_lines(items):
    return ["%s,%s,%s,%s" % (i.sku, i.name, i.quantity, i.unit) for i in by_name(items)]


def stock_level(items, dimension_unit):
    """Total stock of every item convertible to `dimension_unit`, in that unit."""
    return round(sum(units.convert(i.quantity, i.unit, dimension_unit) for i in items), 6)
