"""Units of measure: name -> (dimension, factor to the dimension's base unit).

The registry starts empty: the application calls register_defaults() at start-up
(stockroom.cli.main), and shops may add their own units on top.
"""

_UNITS = {}

DEFAULTS = {
    "g": ("mass", 0.001),
    "kg": ("mass", 1.0),
    "t": ("mass", 1000.0),
    "ml": ("volume", 0.001),
    "l": ("volume", 1.0),
    "pcs": ("count", 1.0),
}


def register(name, dimension, factor):
    if factor <= 0:
        raise ValueError("a unit's factor must be positive: %r" % (factor,))
    _UNITS[name] = (dimension, float(factor))


def register_defaults():
    for name, (dimension, factor) in DEFAULTS.items():
        register(name, dimension, factor)


def known():
    return sorted(_UNITS)


def lookup(name):
    try:
        return _UNITS[name]
    except KeyError:
        raise KeyError("unknown unit: %s" % name) from None


def convert(quantity, source, target):
    (dim_a, fa), (dim_b, fb) = lookup(source), lookup(target)
    if dim_a != dim_b:
        raise ValueError("cannot convert %s (%s) to %s (%s)" % (source, dim_a, target, dim_b))
    return quantity * fa / fb
