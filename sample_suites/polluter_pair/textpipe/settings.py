"""Process-wide pipeline mode.

strict   -- built-in normalisation only (default)
extended -- built-in normalisation, then every registered plugin
raw      -- no processing at all
"""

MODES = ("strict", "extended", "raw")
_state = {"mode": "strict"}


def set_mode(mode):
    if mode not in MODES:
        raise ValueError("unknown mode %r (expected one of %s)" % (mode, ", ".join(MODES)))
    previous = _state["mode"]
    _state["mode"] = mode
    return previous


def current_mode():
    return _state["mode"]


def is_extended():
    return _state["mode"] == "extended"
