"""Expand ~ and $VARS in configuration values from an environment mapping."""

import re

_VAR = re.compile(r"\$(\w+)|\$\{(\w+)(?::-([^}]*))?\}")


def expand_vars(value, environ):
    def replace(match):
        name = match.group(1) or match.group(2)
        if name in environ:
            return environ[name]
        if match.group(3) is not None:
            return match.group(3)
        return match.group(0)

    return _VAR.sub(replace, value)


def expand_user(value, environ):
    if value == "~" or value.startswith("~/"):
        return environ.get("HOME", "~") + value[1:]
    return value


def expand(value, environ):
    return expand_vars(expand_user(value, environ), environ)
