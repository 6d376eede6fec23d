"""The project runner's arguments (``discover -t TOP PATH`` ...), read as ``unittest``/``subunit.run``
would read them: by the child that runs a list, and by the parent that reads a testr
``test_command``. Only the standard library, and none of the test runner's modules (``unittest``,
``traceback``), which the parent has no use for: every ``isolate`` command that reads a project
would import them otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_PATTERN = "test*.py"


@dataclass(frozen=True)
class RunnerArgs:
    """The project runner's arguments, as ``unittest``/``subunit.run`` would read them."""

    discover: bool
    start_dir: str
    top_dir: str | None
    pattern: str
    names: tuple[str, ...]


def parse_runner_args(args: Sequence[str]) -> RunnerArgs:
    """Read ``discover [-s START] [-t TOP] [-p PATTERN] [START [PATTERN [TOP]]]`` or test names.

    Unknown options are ignored rather than fatal: the runner they were meant for is not running.
    """
    words = [w for w in args if w]
    if not words or words[0] != "discover":
        return RunnerArgs(False, ".", None, DEFAULT_PATTERN, tuple(w for w in words if not w.startswith("-")))
    start = top = pattern = None
    positional: list[str] = []
    it = iter(words[1:])
    for word in it:
        if word in ("-s", "--start-directory"):
            start = next(it, None)
        elif word in ("-t", "--top-level-directory"):
            top = next(it, None)
        elif word in ("-p", "--pattern"):
            pattern = next(it, None)
        elif word in ("-k", "--load-list", "--concurrency"):
            next(it, None)
        elif not word.startswith("-"):
            positional.append(word)
    start = start or (positional[0] if positional else ".")
    pattern = pattern or (positional[1] if len(positional) > 1 else DEFAULT_PATTERN)
    top = top or (positional[2] if len(positional) > 2 else None)
    return RunnerArgs(True, start, top, pattern, ())
