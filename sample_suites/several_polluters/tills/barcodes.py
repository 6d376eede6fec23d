"""EAN-13 barcodes: check digits and validation."""


def check_digit(first12):
    if len(first12) != 12 or not first12.isdigit():
        raise ValueError("need 12 digits")
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def is_valid(code):
    return len(code) == 13 and code.isdigit() and check_digit(code[:12]) == code[12]


def country_prefix(code):
    """The GS1 prefix (first three digits)."""
    if not is_valid(code):
        raise ValueError("not an EAN-13: %r" % (code,))
    return code[:3]
