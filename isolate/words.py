"""Counts, durations and sizes as a person reads them: "1 run", "2 runs", "1 predecessor + victim",
"3 min 5 s", "12 MB"; and commands as messages name them."""

from __future__ import annotations

import shlex


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """`singular` for one, else `plural` (default: `singular` + "s")."""
    return singular if n == 1 else (plural if plural is not None else f"{singular}s")


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """`n` and its noun: "1 run", "0 runs", "3 runs"."""
    return f"{n} {noun(n, singular, plural)}"


def seconds(x: float) -> str:
    """A duration as a person reads it, never rounded to nothing: "under 0.001 s", "0.034 s" (two
    significant digits below a tenth), "0.4 s", "12.3 s", "3 min 5 s", "2 h 10 min", "3 d 4 h";
    "0 s" only for no time at all. The one place durations are worded (progress, verdicts,
    status, the HTML report, plan)."""
    if x <= 0:
        return "0 s"
    if x < 0.001:
        return "under 0.001 s"
    if x < 0.1:
        return f"{x:.2g} s"
    if x < 59.95:  # ".1f" shows 60.0 from here on: minutes
        return f"{x:.1f} s"
    whole = round(x)
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    minutes = round(x / 60)
    if minutes < 48 * 60:
        return f"{minutes // 60} h {minutes % 60} min"
    hours = round(x / 3600)
    return f"{hours // 24} d {hours % 24} h"


def megabytes(n: int) -> str:
    """A size in bytes as whole megabytes, never rounded to nothing: "12 MB", "under 1 MB", "0 MB"
    only for no byte at all."""
    if 0 < n < 2**20:
        return "under 1 MB"
    return f"{n // 2**20} MB"


def fraction(x: float, digits: int = 3) -> str:
    """A rate, a share of runs (0 to 1), to `digits` significant digits: "0.955", "0.0333", "0.5", "0"
    and "1" only when exact: one just below 1 reads "> 0.999" (see `_bounded`)."""
    return _bounded(x, f"{x:.{digits}g}", digits)


def probability(x: float, places: int = 3) -> str:
    """A probability (a confidence, a suspicion) to `places` decimals: "0.998", "0.050"; "1.000" and
    "0.000" only when exact: "> 0.999", "< 0.001" (see `_bounded`)."""
    return _bounded(x, f"{x:.{places}f}", places)


def _bounded(x: float, text: str, places: int) -> str:
    """`text`, the number `x` rounded, unless rounding put it on 0 or 1, which it is not: a
    cause failing 99.999% of the time is no certainty, a suspect at 0.0004 is no acquittal. The
    one place rates and probabilities are kept off the bounds (verdicts, progress, status, HTML)."""
    if 0 < x < 1 and float(text) == 1:
        return f"> 0.{'9' * places}"
    if 0 < x < 1 and float(text) == 0:
        return f"< 0.{'0' * (places - 1)}1"
    return text


def on_test(words: str, test: str, rest: str = "") -> str:
    """`words TEST rest`, a command on a test as a message names it: the id quoted for the shell,
    the whole in quotes (quoted)."""
    return quoted(f"{words} {shlex.quote(test)}{rest}")


def quoted(command: str) -> str:
    """A command to type, as a message names it: in single quotes, or in double quotes when its
    words are quoted themselves (a test id with parentheses: 'isolate bisect 'x(y)'' reads as two
    quoted strings and one bare word)."""
    return f'"{command}"' if "'" in command else f"'{command}'"
