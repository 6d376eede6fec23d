"""Judge one repetition from what its process left behind: the subunit stream, the error file,
the exit status and whether it was killed for time.

The subunit runners exit 0 whatever the tests did, so the exit status says little; the stream
is the truth. It is also the only proof that the list ran in the requested order, so the order
is checked here and a mismatch is an ``error`` outcome, never a silent result (design §3).
"""

from __future__ import annotations

import re
import signal
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from isolate.orders.stream import FINAL, AfterEnd
from isolate.orders.v2_reader import Damage, events
from isolate.running.signature import (chain_signatures, function_of, line_in, signature_from_traceback,
                                      signatures_match)
from isolate.words import seconds as duration

FAIL, PASS, TIMEOUT, CRASH, ERROR, SKIP = "fail", "pass", "timeout", "crash", "error", "skip"
KINDS = (FAIL, PASS, TIMEOUT, CRASH, ERROR, SKIP)
EXIT_LIST_ERROR = 3  # isolate.running.child's status when the list cannot run
IMPORT = "import:"  # isolate.running.child's entry that imports a module and reports no result
_FIXTURE_RE = re.compile(
    r"^(?P<fixture>setUpClass|tearDownClass|setUpModule|tearDownModule|doClassCleanups|"
    r"doModuleCleanups) \((?P<owner>.+)\)$"
)
_PARSER_ID = "subunit.parser"


@dataclass(frozen=True)
class Outcome:
    """What one repetition did, judged for the target test only.

    ``kind`` is fail/pass/timeout/crash/error; ``reproduced`` says whether it counts as a
    reproduction of the recorded failure (a ``fail`` whose signature matches, or any ``fail``
    with no record or ``any_failure``; a ``crash`` too when the recorded failure was a crash).
    ``ran`` lists the ids that started, in stream order. ``hung`` names the test that was
    running when a ``timeout`` killed the process, or when it died (a ``crash``); None when no
    test was running. ``after`` names the test after which a ``crash`` ended the process between
    two predecessors: none was running, and the next one of the list had not started (when the
    next was the target, its own set-up may have ended it: None).
    """

    kind: str
    seconds: float
    signature: str | None
    message: str
    reproduced: bool = False
    details: str = ""
    ran: tuple[str, ...] = ()
    returncode: int | None = None
    hung: str | None = None
    executor: str = "local"  # where it ran: "local", or a Dask worker's address
    executions: str = ""  # the victim repeated in one process: each execution's r/f/p (see judge)
    after: str | None = None
    past: bool = False  # a fail of another way, every one at a later line of the test than the recorded failure's


@dataclass(frozen=True)
class Expectation:
    """How to tell a reproduction from another failure."""

    signature: str | None = None
    any_failure: bool = False
    count_crashes: bool = False
    point: tuple[str, int] | None = None  # the file and line of the test's own function the recorded failure left

    def reproduces(self, kind: str, signature: str | None, details: str = "") -> bool:
        """Whether an outcome of ``kind`` with ``signature`` reproduces the recorded failure: its
        signature matches, or that of an exception its chain holds (``details``: its traceback; QA:
        a `finally` that raised after the recorded failure hid it under its own)."""
        if kind == CRASH:
            return self.count_crashes
        if kind != FAIL:
            return False
        return (self.any_failure or signatures_match(self.signature, signature)
                or (self.signature is not None and self.signature in chain_signatures(details)[:-1]))

    def went_past(self, kind: str, signature: str | None, details: str, target: str) -> bool:
        """Whether a failure of another way left the test at a later line of its own function than
        the recorded failure did: it ran past the point where the recorded one fails, so that did
        not happen in this execution (straight-line code: a loop may bring it back), and the run
        is a pass of the recorded failure, not a run with no evidence (QA: a victim failing a
        second assert after a test that spoils what it checks was run 160 times for nothing)."""
        if kind != FAIL or self.point is None or self.reproduces(kind, signature, details):
            return False
        at = line_in(details, function_of(target), self.point[0])  # (a chain of exceptions: None)
        return at is not None and at > self.point[1]


@dataclass
class _Occurrence:
    test_id: str
    status: str = "inprogress"
    files: dict[str, bytearray] = field(default_factory=dict)

    def text(self, name: str) -> str:
        return bytes(self.files.get(name, b"")).decode("utf-8", "replace")


def read_stream(path: Path) -> list[_Occurrence]:
    """Every test occurrence in a subunit v2 file, in stream order (repeats kept apart).

    A test can end more than once: unittest reports an error in the test and another in its
    ``tearDown`` or cleanups as two failures (a testtools ``TestCase`` reports them at once, as
    ``traceback`` and ``traceback-1``). The events after the first are dropped
    (isolate.orders.stream.AfterEnd, as for stored runs): the occurrence keeps the test's own
    error, and only ``inprogress`` starts another execution (the victim repeated)."""
    occurrences: list[_Occurrence] = []
    open_by_id: dict[str, _Occurrence] = {}
    after_end = AfterEnd()

    def status(test_id: str | None, test_status: str | None, file_name: str | None = None,
               file_bytes: bytes | None = None) -> None:
        if test_id is None or test_status == "exists" or after_end.drops(test_id, test_status):
            return
        occ = open_by_id.get(test_id)
        if occ is None or test_status == "inprogress" and occ.status != "inprogress":
            occ = open_by_id[test_id] = _Occurrence(test_id)
            occurrences.append(occ)
        if file_name and file_bytes:
            occ.files.setdefault(file_name, bytearray()).extend(file_bytes)
        if test_status and test_status != "inprogress":
            occ.status = test_status
            if test_status in FINAL:
                open_by_id.pop(test_id, None)

    for event in events(path.read_bytes()):
        if isinstance(event, Damage):  # as subunit's parser reports it: a failed test of its own
            status(_PARSER_ID, "fail", "Parser Error", event.reason.encode())
        else:
            status(event.test_id, event.test_status, event.file_name, event.file_bytes)
    return occurrences


def judge(
    *,
    ids: list[str],
    target: str,
    stream: Path,
    error_file: Path,
    output: Path,
    returncode: int | None,
    timed_out: bool,
    seconds: float,
    expect: Expectation,
    folder: tuple[str, str] | None = None,
) -> Outcome:
    """The outcome of one repetition (see module docstring for the rules). ``folder`` is (the copy
    of the project the run worked in, the project's root): the copy's path in what the run wrote
    reads as the root's, so that its failures sign as the recorded one."""

    def here(text: str) -> str:
        return text if folder is None else text.replace(folder[0], folder[1])

    def outcome(kind: str, message: str, signature: str | None = None, details: str = "",
                ran: tuple[str, ...] = (), hung: str | None = None, after: str | None = None) -> Outcome:
        return Outcome(kind, seconds, signature, message, expect.reproduces(kind, signature, details),
                       details, ran, returncode, hung, after=after,
                       past=expect.went_past(kind, signature, details, target))

    if error_file.exists():
        text = here(error_file.read_text(encoding="utf-8", errors="replace"))
        first, _, rest = text.partition("\n")
        return outcome(ERROR, first.strip() or "the list could not run", details=rest)
    if not stream.exists():
        if timed_out:
            return outcome(TIMEOUT, f"timed out after {duration(seconds)} before any test started")
        said = here(_last_output(output))
        options = "arguments are required" in said or "unrecognized arguments" in said
        return outcome(ERROR, f"the test command {_status(returncode)} before running any test{said}; fix: "
                       + ("pass the options the project's tests need (pytest: --pytest-arg=OPTION, repeatable)"
                          if options else "run the project's test command by hand and check it starts"))
    occurrences = read_stream(stream)
    fixtures = [o for o in occurrences if _FIXTURE_RE.match(o.test_id)]
    tests = [o for o in occurrences if o.test_id != _PARSER_ID and not _FIXTURE_RE.match(o.test_id)]
    ran = tuple(o.test_id for o in tests)
    expected = _expected_order(ids, fixtures)
    for position, test_id in enumerate(ran):
        if position >= len(expected) or expected[position] != test_id:
            want = expected[position] if position < len(expected) else "nothing"
            return outcome(ERROR, f"order mismatch at position {position + 1}: ran {test_id!r}, "
                           f"the list has {want!r}; the runner did not keep the list's order",
                           ran=ran)
    mine = [o for o in tests if o.test_id == target]
    finished = [o for o in mine if o.status in FINAL]
    if finished:  # every execution finished, or one reproduced the failure before a crash or hang
        judged = _executions(outcome, finished, here)
        if len(finished) == ids.count(target) or judged.reproduced:
            return replace(judged, ran=ran)
    for fixture in fixtures:
        if _covers(fixture, target) and fixture.status in ("fail", "uxsuccess"):
            text = here(_traceback_text(fixture))
            sig = signature_from_traceback(text)
            return outcome(FAIL, f"target's {fixture.test_id} failed: {sig}", sig, text, ran)
    if timed_out:
        hung = tests[-1].test_id if tests and tests[-1].status == "inprogress" else None
        where = f" while running {hung!r}" if hung else ""
        return outcome(TIMEOUT, f"timed out after {duration(seconds)}{where}", ran=ran, hung=hung)
    running = tests[-1].test_id if tests and tests[-1].status == "inprogress" else None
    after = None
    if running:
        where = f"while running {running!r}"
    elif tests:
        where = f"after {tests[-1].test_id!r}"
        after = tests[-1].test_id if len(ran) < len(expected) and expected[len(ran)] != target else None
    else:
        where = "before the first test"
    return outcome(CRASH, f"the test process {_status(returncode)} {where}, before the target "
                   f"finished{here(_last_output(output))}", ran=ran, hung=running, after=after)


def _executions(outcome: Any, finished: list[_Occurrence], here: Callable[[str], str]) -> Outcome:
    """The target's result over its executions (one, or the victim repeated in one process): the
    first one that reproduced the recorded failure, else the first that failed, else a pass.
    With several, ``executions`` keeps each one's result, r(eproduced), f(ailed otherwise) or
    p(assed; a skipped one is an f: it did not pass), for the check that the victim does not change
    its own odds. A skipped target ran none of its body: no evidence either way."""
    judged: list[Outcome] = []
    for occ in finished:
        if occ.status in ("fail", "uxsuccess"):
            text = here(_traceback_text(occ))
            sig = signature_from_traceback(text)
            judged.append(outcome(FAIL, f"target failed: {sig or occ.status}", sig, text))
        elif occ.status == "skip":  # it never ran its body: no evidence (QA: a pytest-dependency skip read as a pass)
            reason = " ".join(occ.text("reason").split())[:200]
            judged.append(outcome(SKIP, f"target was skipped: {reason}", f"skipped: {reason}" if reason else "skipped"))
        else:
            judged.append(outcome(PASS, "target passed"))
    first = (next((o for o in judged if o.reproduced), None)
             or next((o for o in judged if o.kind == FAIL and not o.past), None)
             or next((o for o in judged if o.kind == FAIL), None)
             or next((o for o in judged if o.kind == PASS), None) or judged[0])
    if len(judged) == 1:
        return first
    codes = "".join("r" if o.reproduced else "p" if o.kind == PASS else "f" for o in judged)
    # past: every execution that failed another way ran past the recorded failure's line
    return replace(first, executions=codes, past=first.kind == FAIL and not first.reproduced
                   and all(o.past for o in judged if o.kind == FAIL))


def _expected_order(ids: list[str], fixtures: list[_Occurrence]) -> list[str]:
    """The list minus its ``import:`` entries (they report nothing) and the tests a failed
    setUpClass/setUpModule kept from starting."""
    blocked = [f for f in fixtures if f.test_id.startswith(("setUpClass", "setUpModule"))]
    return [i for i in ids if not i.startswith(IMPORT) and not any(_covers(f, i) for f in blocked)]


def _covers(fixture: _Occurrence, test_id: str) -> bool:
    """Whether a class/module fixture error belongs to ``test_id``'s class or module."""
    match = _FIXTURE_RE.match(fixture.test_id)
    if not match:
        return False
    owner = match.group("owner")
    base = test_id.split("(", 1)[0]
    if "Class" in match.group("fixture"):
        return base.rsplit(".", 1)[0] == owner
    return base.startswith(owner + ".")


def _traceback_text(occ: _Occurrence) -> str:
    names = sorted(n for n in occ.files if n.startswith("traceback"))
    return "\n".join(occ.text(n) for n in names)


def _status(returncode: int | None) -> str:
    if returncode is None:
        return "stopped"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    return f"exited with status {returncode}"


def _last_output(output: Path) -> str:
    """The line that names the cause of an early death: the last error line the process printed
    (pytest's "ERROR: usage: ... unrecognized arguments" comes before its rootdir line), else its
    last line."""
    try:
        lines = [l.strip() for l in output.read_text(errors="replace").splitlines() if l.strip()]
    except OSError:
        return ""
    errors = [l for l in lines if re.match(r"(ERROR|error|\w*Error)\b", l) or ": error: " in l]
    if errors:
        last = errors[-1]
        if "while loading conftest" in last:  # pytest's wrapper: what the conftest raised follows it
            raised = [l for l in lines[lines.index(last):] if re.match(r"E\s+\w+(\.\w+)*(Error|Exception)\b", l)]
            if raised:
                last = f"{last.rstrip('.')}: {raised[-1][1:].strip()}"
        return f" (error: {last[:300]})"
    return f" (last output: {lines[-1][:200]})" if lines else ""
