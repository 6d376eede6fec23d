"""Path patterns with `{name}` parameters, matched in the order they were added."""

from __future__ import annotations

import re
from typing import Callable

Handler = Callable[..., object]


def compile_pattern(pattern: str) -> re.Pattern[str]:
    if not pattern.startswith("/"):
        raise ValueError(f"pattern {pattern!r} must start with /")
    parts = re.split(r"\{([a-z_]+)\}", pattern)
    regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^/]+)" for i, p in enumerate(parts))
    return re.compile(f"^{regex}$")


class Router:
    def __init__(self) -> None:
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []

    def add(self, method: str, pattern: str, handler: Handler) -> None:
        self._routes.append((method.upper(), compile_pattern(pattern), handler))

    def match(self, method: str, path: str) -> tuple[Handler, dict[str, str]]:
        allowed = False
        for m, regex, handler in self._routes:
            found = regex.match(path)
            if found:
                if m == method.upper():
                    return handler, found.groupdict()
                allowed = True
        raise LookupError(405 if allowed else 404)
