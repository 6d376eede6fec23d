"""Process-wide display settings, as `unitsfmt --units ... --locale ...` sets them."""

FACTORY = {"units": "metric", "locale": "en"}
_current = dict(FACTORY)


def get(key):
    return _current[key]


def set_setting(key, value):
    if key not in FACTORY:
        raise KeyError(key)
    _current[key] = value


def reset_units():
    """Back to the factory units (the locale is left as it is)."""
    _current["units"] = FACTORY["units"]
