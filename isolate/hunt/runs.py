"""Run lists of tests and journal every run as it ends: one way for the hunt loop, the fork
check (isolate.hunt.forkcheck) and the repeat check (isolate.hunt.repeatcheck).

Each list's step goes to `queries.jsonl` first (why it ran, and from which journal entry on),
then every run's outcome to `journal.jsonl` as soon as it ends, so a hunt stopped at any point
resumes from what ran. A full disk stops the hunt with one line saying how to resume.

A run whose list could not run at all (an unknown test id, an import error: an `error` outcome)
stops the hunt with one line naming the cause; it is no run of the list, so it is not
journaled: it is no evidence, and it spends no budget however often the hunt is resumed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from isolate.errors import UserError
from isolate.files import write_fix
from isolate.hunt.journal import append_journal, append_lines, entry_of
from isolate.hunt.store import Hunt


class DiskFull(UserError):
    """A journal or the query log could not be written: the hunt stops here and resumes later
    (never a failed check: nothing was learnt about the runs)."""


Lists = Sequence[tuple[int, tuple[str, ...], int]]
"""Lists to run: step, test ids (the victim last), runs."""


def run_journaled(hunt: Hunt, runner: Any, lists: Lists, reason: str, start: int, phase: str | None,
                  jobs: int, deadline: float | None, *, until_failure: bool = False, in_flight: bool = True,
                  on_outcome: Callable[[Any], None] | None = None, where: str = "") -> list[tuple[int, Any]]:
    """Run `lists` with `runner` (a running.runner.Runner, or what holds one), `jobs` at once,
    journaled for `phase` (None: the hunt's own) in the runner's mode as the query `reason`
    asked from journal entry `start` on; `on_outcome` sees each outcome once it is journaled.
    With `until_failure`, the runs started with the reproducing one (its wave) finish and are
    journaled too (Runner.run_lists's `in_flight`: evidence for little wall time), unless
    `in_flight` is False (the manual recipe stops at its first failure, as by hand). Returns the
    outcomes as (index of the list, outcome); a UserError names the first list that could not run
    (`where`: " in the fork server", say)."""
    path = hunt.path / "queries.jsonl"
    try:
        append_lines(path, [{"step": step, "runs": runs, "reason": reason, "from": start} for step, _, runs in lists])
    except OSError as exc:
        raise DiskFull(f"cannot write {path} ({exc.strerror}); {write_fix(exc)}, then run the same"
                        " command again to resume") from None

    def record(index: int, outcome: Any) -> None:
        if outcome.kind == "error":  # the list did not run: said below, in the hunt's terms
            return
        try:
            append_journal(hunt, [entry_of(lists[index][0], outcome, phase, runner.mode)])
        except OSError as exc:
            raise DiskFull(f"cannot write the journal in {hunt.path} ({exc.strerror}); {write_fix(exc)},"
                            " then run the same command again to resume") from None
        if on_outcome is not None:
            on_outcome(outcome)

    outcomes = runner.run_lists([(ids, runs) for _, ids, runs in lists], lists[0][1][-1], jobs=jobs,
                                until_failure=until_failure, on_outcome=record, deadline=deadline,
                                stop_on_hang=True, in_flight=in_flight)
    errors = [(i, o) for i, o in outcomes if o.kind == "error"]
    if errors:
        raise UserError(f"step {lists[errors[0][0]][0]} could not run{where}: {_why(hunt, errors[0][1].message)}")
    return list(outcomes)


UNKNOWN = "unknown test id "  # how the runners (isolate.running.child, pytest_child) begin that error


def _why(hunt: Hunt, message: str) -> str:
    """A list that could not run, in the hunt's terms. The runner's fix for an unknown id
    ("correct or remove it from the list") is no fix here: the lists are the hunt's order, so its
    tests are not in this project (the order was recorded by another project, or at another
    commit). A stored --pytest-arg may be why pytest deselected a test or stopped first."""
    stored = hunt.settings.get("search", {}).get("pytest_args")  # hunt.json is checked when read
    args = ""
    if stored and (message.startswith(UNKNOWN) or "before running any test" in message):
        shown = " ".join(f"--pytest-arg={a}" for a in stored)
        args = f"; this hunt runs pytest with {shown} (kept in hunt.json): give --pytest-arg= to clear it"
    if not message.startswith(UNKNOWN):
        return message + args
    cause = message.split("; fix:", 1)[0]
    source = hunt.settings.get("source", {})
    stream = source.get("stream")
    if stream is not None:
        where = "stdin" if stream == "-" else str(stream)
        fix = (f"run isolate from the project that recorded {where}, at the commit it ran, or check that --stream"
               " names a recording of this project")
    else:
        fix = ("run the suite again and extract that run ('isolate extract --force'): the run this hunt was"
               " extracted from ran tests the project no longer has")
    return f"the hunt's order holds tests this project does not have: {cause}; fix: {fix}{args}"
