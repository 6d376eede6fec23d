"""Number formatting by locale conventions: separators and where the symbol goes.

The default locale is process-wide (what `tills --locale de_DE` sets for the whole run).
"""

from collections import namedtuple

Conventions = namedtuple("Conventions", "group decimal symbol_after")

LOCALES = {
    "en_US": Conventions(",", ".", False),
    "en_GB": Conventions(",", ".", False),
    "de_DE": Conventions(".", ",", True),
    "fr_FR": Conventions("\u202f", ",", True),
    "de_CH": Conventions("\u2019", ".", False),
}

_default_locale = "en_US"


def default_locale():
    return _default_locale


def set_default_locale(name):
    global _default_locale
    if name not in LOCALES:
        raise KeyError("unsupported locale: %s" % name)
    _default_locale = name


def conventions(locale=None):
    return LOCALES[locale or _default_locale]


def group_digits(digits, separator):
    """'1234567' -> '1,234,567' for separator ','."""
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)]
    return separator.join(parts)


def format_number(text, locale=None):
    """A plain decimal string ('-1234.50') in the locale's separators."""
    conv = conventions(locale)
    sign = "-" if text.startswith("-") else ""
    whole, _, fraction = text.lstrip("-").partition(".")
    grouped = group_digits(whole, conv.group)
    return sign + grouped + (conv.decimal + fraction if fraction else "")
