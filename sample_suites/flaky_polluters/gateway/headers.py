"""Header names and values as HTTP/1.1 wants them."""

from __future__ import annotations


def canonical(name: str) -> str:
    """Header names are case-insensitive: keep them lower-case, as HTTP/2 does."""
    name = name.strip().lower()
    if not name or any(c in name for c in " \t:\r\n"):
        raise ValueError(f"bad header name {name!r}")
    return name


def merge(first: dict[str, str], second: dict[str, str]) -> dict[str, str]:
    """`second` wins; names compared case-insensitively."""
    out = {canonical(k): v for k, v in first.items()}
    out.update({canonical(k): v for k, v in second.items()})
    return out


def parse(block: str) -> dict[str, str]:
    """A header block (`Name: value` lines) into a dict; repeated names are joined by ', '."""
    out: dict[str, str] = {}
    for line in block.splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"not a header line: {line!r}")
        key = canonical(name)
        value = value.strip()
        out[key] = f"{out[key]}, {value}" if key in out else value
    return out


def render(headers: dict[str, str]) -> str:
    return "".join(f"{name}: {value}\r\n" for name, value in sorted(headers.items()))
