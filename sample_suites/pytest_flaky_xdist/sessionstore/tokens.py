"""Opaque session ids and signed tokens (HMAC-SHA256 over `payload.expiry`)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


class BadToken(ValueError):
    """A token was malformed, forged or expired."""


def new_id(prefix: str = "s") -> str:
    return f"{prefix}-{secrets.token_hex(8)}"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(payload: str, key: bytes, expires_at: int) -> str:
    body = f"{_b64(payload.encode())}.{expires_at}"
    mac = hmac.new(key, body.encode(), hashlib.sha256).digest()
    return f"{body}.{_b64(mac)}"


def verify(token: str, key: bytes, now: int) -> str:
    try:
        encoded, expiry, mac = token.split(".")
        expires_at = int(expiry)
        given = _unb64(mac)
    except ValueError:
        raise BadToken("malformed token") from None
    expected = hmac.new(key, f"{encoded}.{expiry}".encode(), hashlib.sha256).digest()
    if not hmac.compare_digest(given, expected):
        raise BadToken("signature mismatch")
    if now >= expires_at:
        raise BadToken("token expired")
    return _unb64(encoded).decode()
