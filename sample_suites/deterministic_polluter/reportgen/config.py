"""Process-wide report defaults, overridable per report with Settings."""

DEFAULTS = {
    "currency": "USD",
    "locale": "en_US",
    "date_format": "%Y-%m-%d",
    "page_width": 80,
    "decimal_places": 2,
}


def get(key):
    return DEFAULTS[key]


def set_default(key, value):
    """Change a process-wide default (used by the CLI's --currency etc.)."""
    if key not in DEFAULTS:
        raise KeyError("unknown setting: %s" % key)
    if not isinstance(value, type(DEFAULTS[key])):
        raise TypeError("%s must be %s" % (key, type(DEFAULTS[key]).__name__))
    DEFAULTS[key] = value


class Settings:
    """A view of DEFAULTS with per-report overrides."""

    def __init__(self, **overrides):
        unknown = set(overrides) - set(DEFAULTS)
        if unknown:
            raise KeyError("unknown setting(s): %s" % ", ".join(sorted(unknown)))
        self._overrides = dict(overrides)

    def __getitem__(self, key):
        if key in self._overrides:
            return self._overrides[key]
        return DEFAULTS[key]

    def with_overrides(self, **more):
        merged = dict(self._overrides)
        merged.update(more)
        return Settings(**merged)

    def as_dict(self):
        return {key: self[key] for key in DEFAULTS}
