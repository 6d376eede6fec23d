"""Sessions: a login issues a token and remembers it."""

from __future__ import annotations

from dataclasses import dataclass, field

from tokenstore import tokens


@dataclass
class Session:
    user: str
    tokens: list[int] = field(default_factory=list)

    def login(self, scope: str = "read") -> tokens.Token:
        token = tokens.issue(self.user, scope)
        self.tokens.append(token.number)
        return token

    def logout(self) -> int:
        revoked = sum(tokens.revoke(n) for n in self.tokens)
        self.tokens.clear()
        return revoked


def parse_scope(text: str) -> tuple[str, ...]:
    scopes = tuple(part.strip() for part in text.split(",") if part.strip())
    for scope in scopes:
        if scope not in ("read", "write", "admin"):
            raise ValueError(f"unknown scope {scope!r}")
    return scopes
