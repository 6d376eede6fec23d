"""The verdict a user acts on, as text for people (hunt/verdict.py holds the JSON), and the
exit status per verdict."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from isolate.files import from_here, read_list
from isolate.search.model import Problem, Verdict
from isolate.search.repeats import per_execution
from isolate.search.posterior import Answer
from isolate.search.scopes import IMPORT
from isolate.words import counted, fraction, probability, seconds as duration

EXIT = {"polluter": 0, "fails-alone": 3, "not-reproduced": 4, "undecided": 5, "brittle": 6}
"""Exit status per verdict kind; 2 is a usage error, 1 an internal one, 130 Ctrl-C."""

HEADLINE = {
    "polluter": "polluted by an earlier test",
    "brittle": "brittle: passes only when an earlier test (a state-setter) ran first; it fails on its own",
    "fails-alone": "fails on its own (no earlier test is needed)",
    "not-reproduced": "the failure did not reproduce",
    "undecided": "undecided: the budget ran out before the target confidence",
}


SHORT = "undecided: stopped short of the target confidence"
"""An undecided verdict the budget did not end (its stop line, said below, gives the reason: runs
that were no evidence, or a cause not confirmed)."""


def headline(kind: str, causes: int, stop: str = "") -> str:
    """The verdict in a few words, as the text and the HTML page both open with it. `stop` is the
    verdict's stop line: an undecided verdict blames the budget only when the budget ended it."""
    if kind == "polluter" and causes > 1:
        return f"polluted by earlier tests: {causes} causes"
    if kind == "undecided" and stop and "budget" not in stop:
        return SHORT
    return HEADLINE.get(kind, kind)


STORES_A_RUN = "# stestr stores it as its newest run, which extract reads by default"
"""Said beside the stestr command: QA followed it after a hunt, and a later `isolate extract` read
that run, not the flaky one."""


def stestr_keeps_order(ids: Sequence[str]) -> bool:
    """Whether `stestr run --load-list` would run the list in its own order. stestr runs a
    loaded list in discovery order, whatever the file's (design.md), and unittest discovers in
    sorted order (directories, modules, classes, methods), so only a sorted list keeps its order.
    Otherwise the stestr command would not reproduce, and `isolate replay` is the only one."""
    return list(ids) == sorted(ids)


def as_text(problem: Problem, verdict: Verdict, hunt: Path, reproducer: Path | None, kind: str,
            wall: float | None = None, history_runs: int = 0, cleaners: list[dict[str, Any]] | None = None,
            ignored: dict[str, Any] | None = None, executions: int = 1, findings: Sequence[str] = ()) -> str:
    """`kind` is the project's runner kind (stestr/testr), for the reproduce command; `wall` the
    hunt's wall time across sessions; `history_runs` how many of the verdict's runs are stored
    earlier runs rather than new ones; `cleaners` the verdict's cleaner hints (--cleaners);
    `ignored` the runs that were no evidence, by outcome (verdict.json's `ignored_outcomes`),
    which the verdict's runs leave out; `findings` what the runs proved on the way (verdict.json's)."""
    n = len(verdict.causes)
    head = headline(verdict.kind, n, verdict.stop)
    lines = [f"{problem.victim}", f"  {head} — confidence {probability(verdict.confidence)}"]
    culprits = [problem.predecessors[i] for i in verdict.culprits]
    if verdict.causes:
        lines.extend(_causes(problem, verdict))
        culprits = []
    if verdict.kind != "fails-alone":  # QA: a polluter named, and not a word that the victim also fails alone
        lines.extend(f"  finding: {f}" + ("; the victim fails on its own as well, so fixing the cause(s) leaves that"
                                           " failure" if verdict.kind == "polluter" and "on its own" in f else "")
                     for f in findings)
    tied = [c for c, p in verdict.alternatives if culprits and verdict.kind == "undecided"
            and p >= verdict.confidence - 1e-9]
    if culprits:
        label = "culprit" if len(culprits) == 1 else "culprits (all needed together)"
        if verdict.kind == "undecided":
            label = "leading suspect (not proven)" if len(culprits) == 1 else "leading suspects (not proven)"
        if tied:  # no one leads: name them all, as alike
            label = f"{len(tied) + 1} suspects tied for the lead, at {probability(verdict.confidence)} each (not proven)"
        lines.append(f"  {label}:")
        lines.extend(f"    {c}" for c in culprits)
        lines.extend(f"    {' + '.join(problem.predecessors[i] for i in c) or 'fails on its own'}" for c in tied)
    elif verdict.kind == "undecided" and not verdict.causes and verdict.runs and verdict.confidence > 0:
        # QA: "confidence 0.310" named nothing; the answer it is the probability of is the empty one
        lines.append("  leading answer (not proven): fails on its own, no earlier test needed")
    lines.append("  evidence:")
    said = {line for c in verdict.causes for line in c.evidence} | {verdict.stop}
    lines.extend(f"    {line}" for line in verdict.evidence if line not in said)
    if verdict.stop and not verdict.causes:
        lines.append(f"  stopped: {verdict.stop}")
    if cleaners is not None:
        lines.extend(_cleaners(cleaners))
    others = len(problem.predecessors) - len(verdict.culprits)
    if verdict.kind == "polluter" and others > 0 and not any(line.startswith("scan:") for line in verdict.evidence):
        which = "the 1 other predecessor" if others == 1 else f"each of the {others} other predecessors"
        lines.append(f"  not covered: a cause that a later test undoes fails no list of the rest; --scan runs {which}"
                     " alone before the victim")
    if verdict.kind == "brittle":
        lines.append(f"  estimated failure rate: {fraction(verdict.p)} with the setter(s) first, {fraction(verdict.q)} without")
    if verdict.kind == "fails-alone" and verdict.runs and executions > 1:
        # QA: "0.364" read as one run's chance, where one replay run of the reproducer failed 2 in 40
        lines.append(f"  estimated failure rate: {fraction(verdict.q)} a run of repeats ({executions} executions of the"
                     f" victim), {fraction(per_execution(verdict.q, executions), 2)} an execution (a run of the suite),"
                     " whatever ran before it")
    elif verdict.kind == "fails-alone" and verdict.runs:
        lines.append(f"  estimated failure rate: {fraction(verdict.q)}, whatever ran before it")
    elif verdict.kind in ("polluter", "undecided") and verdict.runs and verdict.culprits:
        rates = sorted({fraction(c.rate): c.rate for c in verdict.causes if c.role == "polluter"}.items(),
                       key=lambda kv: kv[1])
        if len(rates) > 1:  # one figure would be one cause's (each is listed with its own above)
            lines.append(f"  estimated failure rate: {rates[0][0]} to {rates[-1][0]} with one of the causes (each"
                         f" as listed), {fraction(verdict.q)} without any")
        else:
            lines.append(f"  estimated failure rate: {fraction(verdict.p)} with the culprit(s), {fraction(verdict.q)} without")
    for c, p in verdict.alternatives[:3]:
        if p < 0.0005 or c in tied:  # it would print as 0.000, or it is named above
            continue
        names = " + ".join(short_name(problem.predecessors[i]) for i in c) or "fails alone"
        lines.append(f"  next most likely: {names} ({probability(p)})")
    spent = f" in {duration(wall)}" if wall is not None else ""
    earlier = f" (and {counted(history_runs, 'earlier stored run')})" if history_runs else ""
    lines.append(f"  {_runs(verdict.runs - history_runs, ignored)}{spent}{earlier}, {duration(verdict.seconds)} of test"
                 f" time; hunt in {from_here(hunt)}")
    if reproducer is not None:
        shown = shlex.quote(from_here(reproducer))
        lines.append(f"  reproduce: isolate replay {shown} --times 20")
        if kind == "stestr" and reproducer.is_file() and stestr_keeps_order(read_list(reproducer)):
            root = hunt.parent.parent  # stestr runs from the project's root, where its .stestr.conf is
            here = "" if Path.cwd().resolve() == root.resolve() else f"cd {shlex.quote(str(root))} && "
            listed = shown if not here else shlex.quote(str(reproducer.relative_to(root)))
            lines.append(f"         or: {here}stestr run --serial --load-list {listed}    {STORES_A_RUN}")
    if verdict.kind == "brittle" and reproducer is not None:
        passing = shlex.quote(from_here(reproducer.with_name("passing.txt")))
        lines.append(f"  passes with the setter(s) first: isolate replay {passing} --times 20")
        lines.append("  fix: give the victim the setup the setter(s) do (setUp, a fixture), so it passes alone")
    return "\n".join(lines)


NO_EVIDENCE = {"fail": "failed another way", "timeout": "timed out", "crash": "crashed", "error": "could not run",
               "skip": "skipped the victim"}
"""What a run that is no evidence did, by its outcome (isolate.running.judge)."""


def _runs(evidence: int, ignored: dict[str, Any] | None) -> str:
    """The hunt's new runs: "18 runs"; with runs that were no evidence, those too, and what they
    did: "100 runs (none of them evidence: 100 failed another way)"; a hunt that stopped because
    its runs told nothing read "0 runs" when a hundred had run."""
    kinds = {kind: n for kind, n in (ignored or {}).items() if type(n) is int and n > 0}
    if not kinds:
        return counted(evidence, "run")
    other = sum(kinds.values())
    did = ", ".join(f"{n} {NO_EVIDENCE.get(kind, kind)}" for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
    which = "none of them evidence" if not evidence else f"{other} of them no evidence"
    return f"{counted(evidence + other, 'run')} ({which}: {did})"


SCOPES = {"test": "test", "pair": "pair (both needed)", "class": "class: any of its tests",
          "module": "module: any of its tests"}


def _causes(problem: Problem, verdict: Verdict) -> list[str]:
    """Each cause: what it is, its members, its own evidence."""
    n = len(verdict.causes)
    what = "state-setter" if verdict.kind == "brittle" else "cause"
    out = [f"  {what if n == 1 else f'{n} {what}s, each enough on its own'}:"]
    for k, c in enumerate(verdict.causes, 1):
        role, measure = ("setter, ", "pass rate") if c.role == "setter" else ("", "rate")
        each = "" if c.per_execution is None else f" a run of repeats, {fraction(c.per_execution, 2)} an execution"
        imported = all(problem.predecessors[i].startswith(IMPORT) for i in c.tests)  # no tests: its import
        scope = "module: its import" if c.scope == "module" and imported else SCOPES.get(c.scope, c.scope)
        # QA read "rate 0.833" of a cause that failed 2 of 2 runs as a flaky one: the counts it is estimated from
        basis = f" ({c.fails}/{c.held} runs)" if c.held and c.role == "polluter" else ""
        out.append(f"    {k}. {c.name}  [{role}{scope}; {measure} {fraction(c.rate)}{basis}{each},"
                   f" confidence {probability(c.confidence)}]")
        if c.scope in ("class", "module"):
            out.extend(f"         {problem.predecessors[i]}" for i in c.tests)
        out.extend(f"         {line}" for line in c.evidence[:-1])
    if verdict.stop:
        out.append(f"  stopped: {verdict.stop}")
    return out


def _cleaners(cleaners: list[dict[str, Any]]) -> list[str]:
    """The cleaner hints, each with its own evidence; or that none was found."""
    if not cleaners:
        return ["  cleaners: none found (see the evidence)"]
    out = ["  hints (cleaners):"]
    for c in cleaners:
        out.append(f"    {cleaner_hint(c)}")
        out.extend(f"         {line}" for line in c.get("evidence", []))
    return out


def cleaner_hint(cleaner: dict[str, Any]) -> str:
    """A cleaner as a hint a user can act on: what to look at for the fix."""
    if cleaner.get("scope") in ("class", "module") and cleaner.get("name"):  # any of its tests
        return (f"run after {cleaner['polluter']}, any test of {cleaner['name']} makes it pass: look at what"
                f" the {cleaner['scope']}'s tests (or its setUp) reset")
    tests = " + ".join(cleaner["tests"])
    return f"run after {cleaner['polluter']}, {tests} makes it pass: look at what it resets"


def short_name(test_id: str) -> str:
    """A test's own name: the method of a dotted unittest id, the last part of a pytest node id,
    each with its parameters whole (`test_x[a::b]`, `test_y(json.v2)`: cut inside them, they
    read `b]` and `v2)`)."""
    if "::" in test_id:
        head, _, tail = test_id.partition("::")
        opened = tail.find("[") if test_id.endswith("]") else -1
        name, params = (tail[:opened], tail[opened:]) if opened >= 0 else (tail, "")
        return (head + "::" + name).rsplit("::", 1)[-1] + params
    opened = test_id.find("(") if test_id.endswith(")") else -1
    name, params = (test_id[:opened], test_id[opened:]) if opened >= 0 else (test_id, "")
    return name.rsplit(".", 1)[-1] + params


def describe(problem: Problem, answer: Answer) -> str:
    """An answer in words: its tests' ids, or that the victim fails on its own."""
    if not answer.culprits:
        return "fails on its own"
    return " + ".join(problem.predecessors[i] for i in answer.culprits)
