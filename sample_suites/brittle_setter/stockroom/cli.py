"""The command line: `stockroom level kg items.csv`."""

import sys

from stockroom import items, report, units


def read_items(lines):
    out = []
    for line in lines:
        sku, name, quantity, unit = line.strip().split(",")
        out.append(items.make(sku, name, float(quantity), unit))
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    units.register_defaults()
    unit, path = argv[1], argv[2]
    with open(path) as fp:
        print(report.stock_level(read_items(fp), unit))
    return 0
