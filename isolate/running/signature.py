"""Failure signatures: does a run fail *the same way* as the recorded failure?

A flaky victim can fail for unrelated reasons too (a timeout in a fixture, a different
assertion). Counting those as reproductions would send a hunt after the wrong polluter, so a run
only reproduces when its signature equals the recorded one. A signature is built from the
traceback text alone, because that is all a stored subunit run keeps:

    ``<exception type>: <normalised first message line> @ <file>:<function>``

The message is normalised (temporary paths, numbers such as pids, ports and timestamps,
addresses, uuids, long hex tokens, the contents of dict, set, list and object reprs) because those vary from
run to run while the failure stays the same; the frame is the deepest one outside unittest and
testtools (their helpers such as ``assertEqual`` tell nothing about *where* the test failed),
named by file base name and function, without the line number, so that a recorded traceback
still matches after unrelated edits shift the lines.
"""

from __future__ import annotations

import re

_TRACEBACK_HEADER = "Traceback (most recent call last):"
_FRAME_RE = re.compile(r'^\s*File "(?P<file>[^"]*)", line (?P<line>\d+), in (?P<func>.+)$')
_EXCEPTION_RE = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?::\s?(?P<msg>.*))?$")
_LIBRARY_PARTS = ("/unittest/", "/testtools/", "/unittest2/", "\\unittest\\", "\\testtools\\",
                  "/_pytest/", "/pluggy/")
# A path up to its last temporary-looking component: each run has its own TMPDIR (isolate gives
# every repetition one: $TMPDIR/isolate-run-*/job-N/tmp), so `/tmp/tmpi8rkne15/app` recorded and
# `/tmp/isolate-run-x1/job-7/tmp/tmpq2w3e4r5/app` replayed must both read `<tmp>/app`.
_TEMP_PART = r"(?:tmp[\w.-]*|temp|Temp|TEMP|T|isolate-run-[\w-]+|job-\d+|pytest-of-[\w.-]+|pytest-\d+)"
_NORMALISERS = (
    (re.compile(r"(?:[A-Za-z]:)?(?:[/\\][^\s/\\'\":,;()\[\]]+)*?(?:[/\\]" + _TEMP_PART + r"(?=[/\\'\"\s:,;)\]]|$))+"), "<tmp>"),
    (re.compile(r"0x[0-9a-fA-F]+"), "<addr>"),
    (re.compile(r"\b[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\b"), "<uuid>"),
    (re.compile(r"\btmp[\w-]{6,}"), "tmp?"),
    (re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{12,}\b"), "<hex>"),  # hashes, tokens
    (re.compile(r"\d+(?:\.\d+)?"), "N"),
    (re.compile(r"\s+"), " "),
)
MAX_MESSAGE = 200


def signature_from_traceback(text: str | None) -> str | None:
    """The signature of a failure from its traceback text; None when there is nothing to read.

    Empty text is what a stored run keeps for a worker that died mid-test, so it yields None
    (no signature) rather than a signature that nothing could match.
    """
    if not text or not text.strip():
        return None
    lines = text.replace("\r\n", "\n").splitlines()
    if _is_pytest_text(lines):
        return signature_from_pytest(lines)
    start = max((i for i, line in enumerate(lines) if line.strip() == _TRACEBACK_HEADER), default=-1)
    block = lines[start + 1 :]
    frames = [(i, m) for i, line in enumerate(block) if (m := _FRAME_RE.match(line))]
    exc_line = _exception_line(block, frames[-1][0] + 1 if frames else 0)
    if exc_line is None:
        return None
    match = _EXCEPTION_RE.match(exc_line)
    if match:
        exc_type, message = match.group("type"), match.group("msg") or ""
    else:  # e.g. a bare message with spaces before any colon
        exc_type, message = "", exc_line
    signature = f"{exc_type}: {normalise_message(message)}".rstrip()
    frame = _relevant_frame([m for _, m in frames])
    return f"{signature} @ {frame}" if frame else signature


def _exception_line(block: list[str], after: int) -> str | None:
    """The first unindented, non-empty line after the last frame: the exception line."""
    for line in block[after:]:
        if line.strip() and not line[:1].isspace():
            return line.strip()
    return None


def _relevant_frame(frames: list[re.Match[str]]) -> str | None:
    """``file:function`` of the deepest frame outside the test framework's own code."""
    if not frames:
        return None
    chosen = next(
        (m for m in reversed(frames) if not any(p in m.group("file") for p in _LIBRARY_PARTS)),
        frames[-1],
    )
    return f"{_base_name(chosen.group('file'))}:{chosen.group('func').strip()}"


def _base_name(path: str) -> str:
    """A frame's file as signatures name it: its base name, whatever the separator."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def normalise_message(message: str) -> str:
    """The parts of a message that stay stable across runs of the same failure."""
    message = _collapse_containers(message.strip())  # first: the placeholders below look like reprs
    for pattern, replacement in _NORMALISERS:
        message = pattern.sub(replacement, message)
    return message.strip()[:MAX_MESSAGE]


_OPEN = {"{": "}", "[": "]", "<": ">"}


def _collapse_containers(message: str) -> str:
    """`{…}`, `[…]`, `<…>` for the contents of every dict, set, list and object repr: they dump
    the process's state (pytest's assertion message shows `sys.modules` whole; a set's order
    follows the per-process hash seed), so they differ between runs of the same failure. A
    bracket left open (the message was cut) is closed at the end."""
    out: list[str] = []
    closing: list[str] = []
    for i, char in enumerate(message):
        opens = char in _OPEN and (char != "<" or message[i + 1 : i + 2].isalpha())  # not `x < 3`
        if closing:
            if char == closing[-1]:
                closing.pop()
                if not closing:
                    out.append("…" + char)
            elif opens:
                closing.append(_OPEN[char])
            continue
        out.append(char)
        if opens:
            closing.append(_OPEN[char])
    if closing:
        out.append("…" + closing[0])
    return "".join(out)


def signatures_match(expected: str | None, actual: str | None) -> bool:
    """Whether a run's signature reproduces the recorded one (no record: any failure does)."""
    if expected is None:
        return True
    return actual is not None and actual == expected


# pytest's failure text (``longreprtext``, what isolate's pytest plugin records): entries end in
# ``path:line: ExcType`` (the raising entry, long style), ``path:line: `` (other entries, long
# style) or ``path:line: in function`` (short style); the exception is on ``E   `` lines.
_PYTEST_LOCATION_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+): ?(?P<msg>.*)$")
_PYTEST_E_RE = re.compile(r"^E(?:\s|$)")
_DEF_RE = re.compile(r"^\s*(?:async\s+)?def\s+(?P<func>\w+)\s*\(")
_DOCTEST = ("DocTestFailure", "UnexpectedException")  # pytest's doctest failures: no E lines
_EXAMPLE_RE = re.compile(r"^\d+\s+>>> (.*\S)\s*$")  # a doctest listing's numbered example line
_PYTEST_SEPARATOR = re.compile(r"^(?:_ )+_?$")


def _is_pytest_text(lines: list[str]) -> bool:
    """pytest's failure text rather than a Python traceback (``--tb=native`` gives the latter)."""
    if any(_PYTEST_E_RE.match(line) for line in lines):
        return True
    last = next((line for line in reversed(lines) if line.strip()), "")
    return bool(_PYTEST_LOCATION_RE.match(last))


def signature_from_pytest(lines: list[str]) -> str | None:
    """The signature of pytest's failure text, in the same shape as a traceback's.

    Type: the raising entry's ``path:line: ExcType`` (long style) or the first ``E`` line;
    message: the first line of the last ``E`` block without its type; frame: the deepest entry
    outside pytest/unittest, by file base name and function (from ``in f`` or its ``def`` line).
    """
    frames: list[tuple[str, str, str]] = []  # (file, function, message after the location)
    section_def = ""
    e_lines: list[str] = []
    in_e_block = False
    for line in lines:
        if _PYTEST_E_RE.match(line):
            if not in_e_block:
                e_lines = []
            in_e_block = True
            e_lines.append(line[1:].strip())
            continue
        in_e_block = False
        if (loc := _PYTEST_LOCATION_RE.match(line)) is not None:
            msg = loc.group("msg").strip()
            func = msg[3:].strip() if msg.startswith("in ") else section_def
            frames.append((loc.group("file"), func, msg))
            section_def = ""
        elif _PYTEST_SEPARATOR.match(line.strip()) or line.startswith("--- error in "):
            section_def = ""
        elif not section_def and (match := _DEF_RE.match(line)):
            section_def = match.group("func")
    first = next((line for line in e_lines if line), "")
    exc_type, message = "", first
    last_msg = frames[-1][2] if frames else ""
    if re.fullmatch(r"[A-Za-z_][\w.]*", last_msg):
        exc_type = last_msg
    found = _EXCEPTION_RE.match(first)
    if found and (not exc_type or found.group("type").rsplit(".", 1)[-1] == exc_type):
        # ``E   pkg.mod.Error: msg`` under a ``path:N: Error`` location: one type, short name
        exc_type, message = found.group("type").rsplit(".", 1)[-1], found.group("msg") or ""
    elif not first and not exc_type:
        message = last_msg  # --tb=line: ``path:N: message``
    if not exc_type and message.startswith("assert "):
        exc_type = "AssertionError"  # a bare assert (short style names no type)
    if exc_type in _DOCTEST and not message:
        # the failing example's source, the doctest's listing's last ">>>" line (QA: the signature was
        # "DocTestFailure: @ utils.py", so another example's failure counted as the recorded one)
        examples = [m.group(1) for line in lines if (m := _EXAMPLE_RE.match(line))]
        message = examples[-1] if examples else ""
    if not exc_type and not message:
        return None
    signature = f"{exc_type}: {normalise_message(message)}".rstrip()
    outside = [f for f in frames if not any(p in f[0] for p in _LIBRARY_PARTS)] or frames
    if not outside:
        return signature
    path, func, _ = outside[-1]
    where = _base_name(path)
    return f"{signature} @ {where}:{func}" if func else f"{signature} @ {where}"


def function_of(test_id: str) -> str:
    """The function a test id runs: `pkg.mod.Class.test_x(scenario)` -> `test_x`,
    `tests/f.py::Class::test_y[1.5]` -> `test_y`."""
    base = test_id
    for open_, close in (("(", ")"), ("[", "]")):
        if base.endswith(close) and open_ in base:
            base = base[: base.index(open_)]
    return base.rsplit("::", 1)[-1].rsplit(".", 1)[-1].strip()


_CHAINED = ("During handling of the above exception, another exception occurred:",
            "The above exception was the direct cause of the following exception:")


def _frames_of(text: str | None, function: str) -> list[tuple[str, int]] | None:
    """(file base name, line) of every frame of `function` in a failure's traceback (a Python one
    or pytest's failure text), outermost first; None when the text holds a chain of exceptions
    (an earlier one, the recorded failure say, may lie under the last) or nothing to read."""
    if not text or not function or any(chained in text for chained in _CHAINED):
        return None
    lines = text.replace("\r\n", "\n").splitlines()
    found: list[tuple[str, int]] = []
    if _is_pytest_text(lines):
        section_def = ""
        for line in lines:
            if (loc := _PYTEST_LOCATION_RE.match(line)) is not None and not _PYTEST_E_RE.match(line):
                msg = loc.group("msg").strip()
                if (msg[3:].strip() if msg.startswith("in ") else section_def) == function:
                    found.append((_base_name(loc.group("file")), int(loc.group("line"))))
                section_def = ""
            elif _PYTEST_SEPARATOR.match(line.strip()):
                section_def = ""
            elif not section_def and (match := _DEF_RE.match(line)):
                section_def = match.group("func")
        return found
    start = max((i for i, line in enumerate(lines) if line.strip() == _TRACEBACK_HEADER), default=-1)
    for line in lines[start + 1:]:
        if (frame := _FRAME_RE.match(line)) is not None and frame.group("func").strip() == function:
            found.append((_base_name(frame.group("file")), int(frame.group("line"))))
    return found


def chain_signatures(text: str | None) -> list[str]:
    """The signature of every exception of a chain ("During handling of the above exception,
    another exception occurred", "The above exception was the direct cause ..."), first raised
    first; one for a failure without a chain (signature_from_traceback's, the last one's)."""
    if not text or not any(chained in text for chained in _CHAINED):
        one = signature_from_traceback(text)
        return [one] if one else []
    blocks = [""]
    for line in text.replace("\r\n", "\n").splitlines(keepends=True):
        if line.strip() in _CHAINED:
            blocks.append("")
        else:
            blocks[-1] += line
    return [sig for block in blocks if (sig := signature_from_traceback(block))]


def failure_point(text: str | None, function: str) -> tuple[str, int] | None:
    """Where the test's own function (`function`) was when its failure left it: the file and line
    of the deepest frame of that name; None when the text holds no such frame, or a chain of
    exceptions."""
    frames = _frames_of(text, function)
    return frames[-1] if frames else None


def line_in(text: str | None, function: str, file: str) -> int | None:
    """The line of the deepest frame of `function` in `file` (a base name) at which a failure
    left it: the same function of the same file as a recorded failure's point (an inherited test
    calling its base class's of the same name is another frame); None as failure_point."""
    frames = [line for name, line in _frames_of(text, function) or () if name == file]
    return frames[-1] if frames else None
