"""Password hashing (PBKDF2-SHA256, `pbkdf2$iterations$salt$hash`) and a strength policy."""

from __future__ import annotations

import hashlib
import hmac
import secrets

ITERATIONS = 1000  # low so the test suite stays fast; production configures more


def hash_password(password: str, salt: str | None = None, iterations: int = ITERATIONS) -> str:
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), iterations).hex()
    return f"pbkdf2${iterations}${salt}${digest}"


def check_password(password: str, stored: str) -> bool:
    try:
        scheme, iterations, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "pbkdf2":
        return False
    candidate = hash_password(password, salt, int(iterations)).rsplit("$", 1)[1]
    return hmac.compare_digest(candidate, digest)


def needs_rehash(stored: str, iterations: int = ITERATIONS) -> bool:
    parts = stored.split("$")
    return len(parts) != 4 or parts[0] != "pbkdf2" or int(parts[1]) < iterations


def weaknesses(password: str) -> list[str]:
    problems = []
    if len(password) < 10:
        problems.append("shorter than 10 characters")
    if password.lower() == password or password.upper() == password:
        problems.append("needs upper and lower case")
    if not any(c.isdigit() for c in password):
        problems.append("needs a digit")
    if password.lower() in {"password123", "letmein123", "qwertyuiop"}:
        problems.append("too common")
    return problems
