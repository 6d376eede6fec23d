"""Run lists of tests and journal every run as it ends: one way for the hunt loop, the fork
check (isolate.hunt.forkcheck) and the repeat check (isolate.hunt.repeatcheck).

Each list's step goes to `queries.jsonl` first (why it ran, and from which journal entry on),
then every run's outcome to `journal.jsonl` as soon as it ends, so a hunt stopped at any point
resumes from what ran. A full disk stops the hunt with one line saying how to resume.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from isolate.errors import UserError
from isolate.hunt.journal import append_journal, append_lines, entry_of
from isolate.hunt.store import Hunt


class DiskFull(UserError):
    """A journal or the query log could not be written: the hunt stops here and resumes later
    (never a failed check: nothing was learnt about the runs)."""


Lists = Sequence[tuple[int, tuple[str, ...], int]]
"""Lists to run: step, test ids (the victim last), runs."""


def run_journaled(hunt: Hunt, runner: Any, lists: Lists, reason: str, start: int, phase: str | None,
                  jobs: int, deadline: float | None, *, until_failure: bool = False, in_flight: bool = True,
                  on_outcome: Callable[[Any], None] | None = None, where: str = "") -> list[Any]:
    """Run `lists` with `runner` (a running.runner.Runner, or what holds one), `jobs` at once,
    journaled for `phase` (None: the hunt's own) in the runner's mode as the query `reason`
    asked from journal entry `start` on; `on_outcome` sees each outcome once it is journaled.
    With `until_failure`, the runs started with the reproducing one (its wave) finish and are
    journaled too (Runner.run_lists's `in_flight`: evidence for little wall time), unless
    `in_flight` is False (the manual recipe stops at its first failure, as by hand). The
    outcomes; a UserError names the first list that could not run (`where`: " in the fork
    server", say)."""
    path = hunt.path / "queries.jsonl"
    try:
        append_lines(path, [{"step": step, "runs": runs, "reason": reason, "from": start} for step, _, runs in lists])
    except OSError as exc:
        raise DiskFull(f"cannot write {path} ({exc.strerror}); free disk space, then run the same"
                        " command again to resume") from None

    def record(index: int, outcome: Any) -> None:
        try:
            append_journal(hunt, [entry_of(lists[index][0], outcome, phase, runner.mode)])
        except OSError as exc:
            raise DiskFull(f"cannot write the journal in {hunt.path} ({exc.strerror}); free disk space,"
                            " then run the same command again to resume") from None
        if on_outcome is not None:
            on_outcome(outcome)

    outcomes = runner.run_lists([(ids, runs) for _, ids, runs in lists], lists[0][1][-1], jobs=jobs,
                                until_failure=until_failure, on_outcome=record, deadline=deadline,
                                stop_on_hang=True, in_flight=in_flight)
    errors = [(i, o) for i, o in outcomes if o.kind == "error"]
    if errors:
        message = errors[0][1].message
        stored = hunt.settings.get("search", {}).get("pytest_args")  # hunt.json is checked when read
        if stored and "before running any test" in message:  # the stored --pytest-arg may be why
            shown = " ".join(f"--pytest-arg={a}" for a in stored)
            message += f"; this hunt runs pytest with {shown} (kept in hunt.json): give --pytest-arg= to clear it"
        raise UserError(f"step {lists[errors[0][0]][0]} could not run{where}: {message}")
    return [o for _, o in outcomes]
