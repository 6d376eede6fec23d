"""E-mail addresses: a pragmatic syntax check and normalisation (domain lower-cased)."""

from __future__ import annotations

import re

_LOCAL = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$")
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


class BadAddress(ValueError):
    """Not an address mail can be sent to."""


def normalize(address: str) -> str:
    address = address.strip()
    local, sep, domain = address.rpartition("@")
    if not sep or not local or not domain:
        raise BadAddress(f"{address!r} has no local part and domain")
    if len(local) > 64 or not _LOCAL.match(local) or local.startswith(".") or local.endswith(".") or ".." in local:
        raise BadAddress(f"bad local part in {address!r}")
    labels = domain.split(".")
    if len(labels) < 2 or not all(_LABEL.match(label) for label in labels):
        raise BadAddress(f"bad domain in {address!r}")
    return f"{local}@{domain.lower()}"


def parse_list(text: str) -> list[str]:
    """Comma- or semicolon-separated addresses, normalised, duplicates dropped, order kept."""
    seen: dict[str, None] = {}
    for part in re.split(r"[;,]", text):
        if part.strip():
            seen.setdefault(normalize(part), None)
    return list(seen)


def domain_of(address: str) -> str:
    return normalize(address).rpartition("@")[2]
