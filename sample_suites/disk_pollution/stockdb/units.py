"""Pack sizes: quantities are stored in eaches, entered in packs."""

import re

PACK_SIZES = {"each": 1, "pair": 2, "dozen": 12, "box": 50, "pallet": 2000}
_ALIASES = {"ea": "each", "pcs": "each", "piece": "each", "pairs": "pair", "dozens": "dozen",
            "boxes": "box", "pallets": "pallet", "bx": "box", "dz": "dozen"}
_QTY = re.compile(r"^\s*(\d+)\s*([a-z]*)\s*$")


class UnitError(ValueError):
    pass


def canonical_unit(unit):
    unit = unit.lower().strip() or "each"
    unit = _ALIASES.get(unit, unit)
    if unit not in PACK_SIZES:
        raise UnitError("unknown unit: %s" % unit)
    return unit


def to_eaches(text):
    match = _QTY.match(text.lower())
    if not match:
        raise UnitError("cannot parse quantity: %r" % text)
    count, unit = match.groups()
    return int(count) * PACK_SIZES[canonical_unit(unit)]


def split_packs(eaches, unit):
    """(full packs, loose eaches) for ``eaches`` in ``unit`` packs."""
    size = PACK_SIZES[canonical_unit(unit)]
    return divmod(eaches, size)


def describe(eaches, unit="box"):
    packs, loose = split_packs(eaches, unit)
    parts = []
    if packs:
        parts.append("%d %s" % (packs, canonical_unit(unit)))
    if loose or not parts:
        parts.append("%d each" % loose)
    return " + ".join(parts)
