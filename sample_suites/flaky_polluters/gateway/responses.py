"""Responses: status, headers and body, as the gateway sends them."""

from __future__ import annotations

from dataclasses import dataclass, field

from gateway import canary, status, telemetry
from gateway.headers import render


@dataclass
class Response:
    code: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


def text(body: str, code: int = 200) -> Response:
    """A plain-text response: the two headers every response has, then what the request's
    tracing and routing add."""
    data = body.encode("utf-8") if status.has_body(code) else b""
    headers = {"content-type": "text/plain; charset=utf-8", "content-length": str(len(data))}
    telemetry.maybe_trace(headers)
    canary.route(headers)
    return Response(code, data, headers)


def redirect(location: str, permanent: bool = False) -> Response:
    response = text("", 301 if permanent else 302)
    response.headers["location"] = location
    return response


def wire(response: Response) -> bytes:
    head = status.status_line(response.code) + "\r\n" + render(response.headers) + "\r\n"
    return head.encode("latin-1") + response.body
