"""`Hello {name}`-style templates with a strict mode that refuses missing fields."""

from __future__ import annotations

import re

_FIELD = re.compile(r"\{\{|\}\}|\{([a-z_][a-z0-9_]*)\}")


class MissingField(KeyError):
    """The template names a field the context does not provide."""


def fields(template: str) -> list[str]:
    return sorted({m[1] for m in _FIELD.finditer(template) if m[1]})


def render(template: str, context: dict[str, object], strict: bool = True) -> str:
    def replace(match: re.Match[str]) -> str:
        if match[0] == "{{":
            return "{"
        if match[0] == "}}":
            return "}"
        name = match[1]
        if name in context:
            return str(context[name])
        if strict:
            raise MissingField(name)
        return match[0]

    return _FIELD.sub(replace, template)


WELCOME = "Hello {name},\n\nwelcome to {product}! Your login is {login}.\n"
