"""The delimiter, quote character and line ending a table is written with.

`set_default_delimiter` changes the default for the whole process: what `tabular --delimiter`
does once at start-up. Library callers pass `delimiter=` instead.
"""

_DEFAULTS = {"delimiter": ",", "quotechar": '"', "lineterminator": "\n"}
ALLOWED_DELIMITERS = (",", ";", "\t", "|")


def default_delimiter():
    return _DEFAULTS["delimiter"]


def set_default_delimiter(delimiter):
    if delimiter not in ALLOWED_DELIMITERS:
        raise ValueError(f"unsupported delimiter {delimiter!r}")
    _DEFAULTS["delimiter"] = delimiter


def quotechar():
    return _DEFAULTS["quotechar"]


def lineterminator():
    return _DEFAULTS["lineterminator"]


def resolve(delimiter=None):
    """The delimiter to use: the one given, else the process default."""
    if delimiter is None:
        return default_delimiter()
    if delimiter not in ALLOWED_DELIMITERS:
        raise ValueError(f"unsupported delimiter {delimiter!r}")
    return delimiter
