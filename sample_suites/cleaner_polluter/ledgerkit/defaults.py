"""Process-wide defaults of the ledger summaries, changed by the CLI's options."""

FACTORY = {"currency": "USD", "places": 2, "separator": ","}
DEFAULTS = dict(FACTORY)


def get(key):
    return DEFAULTS[key]


def set_default(key, value):
    """Change a process-wide default (what `ledgerkit --currency EUR` does)."""
    if key not in DEFAULTS:
        raise KeyError("unknown setting: %s" % key)
    if not isinstance(value, type(DEFAULTS[key])):
        raise TypeError("%s must be %s" % (key, type(DEFAULTS[key]).__name__))
    DEFAULTS[key] = value


def reset():
    """Back to the factory defaults (what `ledgerkit --reset` does)."""
    DEFAULTS.clear()
    DEFAULTS.update(FACTORY)
