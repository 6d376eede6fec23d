"""Set-Cookie headers for session ids, and parsing of Cookie request headers."""

from __future__ import annotations

from dataclasses import dataclass

_SAMESITE = ("Strict", "Lax", "None")


@dataclass(frozen=True)
class CookiePolicy:
    name: str = "sid"
    path: str = "/"
    secure: bool = True
    http_only: bool = True
    same_site: str = "Lax"
    max_age: int | None = None

    def __post_init__(self) -> None:
        if self.same_site not in _SAMESITE:
            raise ValueError(f"SameSite must be one of {', '.join(_SAMESITE)}")
        if self.same_site == "None" and not self.secure:
            raise ValueError("SameSite=None requires Secure")


def set_cookie(value: str, policy: CookiePolicy = CookiePolicy()) -> str:
    parts = [f"{policy.name}={value}", f"Path={policy.path}"]
    if policy.max_age is not None:
        parts.append(f"Max-Age={policy.max_age}")
    if policy.secure:
        parts.append("Secure")
    if policy.http_only:
        parts.append("HttpOnly")
    parts.append(f"SameSite={policy.same_site}")
    return "; ".join(parts)


def clear_cookie(policy: CookiePolicy = CookiePolicy()) -> str:
    return set_cookie("", CookiePolicy(policy.name, policy.path, policy.secure, policy.http_only, policy.same_site, 0))


def parse_cookie_header(header: str) -> dict[str, str]:
    """The first value wins when a name repeats, as browsers send the most specific first."""
    cookies: dict[str, str] = {}
    for part in header.split(";"):
        name, sep, value = part.partition("=")
        name = name.strip()
        if sep and name and name not in cookies:
            cookies[name] = value.strip().strip('"')
    return cookies
