"""Token issuing: a new token takes the number after the highest one still outstanding in this
process (revoked numbers are reused once no later token is outstanding)."""

from __future__ import annotations

from dataclasses import dataclass

_issued: dict[int, "Token"] = {}


@dataclass(frozen=True)
class Token:
    number: int
    user: str
    scope: str

    @property
    def text(self) -> str:
        return f"tok-{self.number:06d}-{self.user}-{self.scope}"


def issue(user: str, scope: str = "read") -> Token:
    if not user:
        raise ValueError("a token needs a user")
    token = Token(max(_issued, default=0) + 1, user, scope)
    _issued[token.number] = token
    return token


def lookup(number: int) -> Token | None:
    return _issued.get(number)


def revoke(number: int) -> bool:
    return _issued.pop(number, None) is not None


def issued_count() -> int:
    return len(_issued)
