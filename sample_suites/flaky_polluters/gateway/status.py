"""Status codes and their reason phrases."""

from __future__ import annotations

REASONS = {200: "OK", 201: "Created", 204: "No Content", 301: "Moved Permanently", 304: "Not Modified",
           400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
           405: "Method Not Allowed", 429: "Too Many Requests", 500: "Internal Server Error",
           502: "Bad Gateway", 503: "Service Unavailable"}


def reason(code: int) -> str:
    if code in REASONS:
        return REASONS[code]
    if 100 <= code < 600:
        return {1: "Informational", 2: "Success", 3: "Redirection", 4: "Client Error", 5: "Server Error"}[code // 100]
    raise ValueError(f"{code} is not an HTTP status")


def status_line(code: int) -> str:
    return f"HTTP/1.1 {code} {reason(code)}"


def has_body(code: int) -> bool:
    return not (100 <= code < 200 or code in (204, 304))
