"""Query strings."""

from __future__ import annotations

from urllib.parse import quote, unquote_plus


def parse(query: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in query.lstrip("?").split("&"):
        if not part:
            continue
        key, _, value = part.partition("=")
        out.setdefault(unquote_plus(key), []).append(unquote_plus(value))
    return out


def build(params: dict[str, list[str]]) -> str:
    return "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k in sorted(params) for v in params[k])


def first(params: dict[str, list[str]], key: str, default: str = "") -> str:
    values = params.get(key)
    return values[0] if values else default
