"""The fork server where it is safe: a hunt given neither --fork-server nor --no-fork-server
starts in fresh processes and, once the journal holds CHECK_AFTER fresh runs that are evidence,
at least one of them a reproduction of the recorded failure, runs the lists those runs ran (up to
MAX_LISTS: those that reproduced it first, then those run most) again in fork mode and compares
the outcomes per list.

What the comparison checks, per list: how often the victim failed the recorded way
(reproduced: same outcome kind and failure signature) and how often it did something else
(failed another way, crashed, timed out). Under "fork and fresh behave alike" the fork runs'
count of each, summed over the lists, follows the convolution of one hypergeometric law per list
(conditional on the list's total: Fisher's exact test, stratified by list). Each of the two
counts is tested two-sided at ALPHA / 2. A list that cannot run in fork mode at all, or a fork
server that does not start, fails the check outright.

What it can and cannot see: a victim whose outcome depends on what the fork server shares
(the str hash seed, the interpreter's start-up) typically behaves the same in every fork child,
so it fails always or never there; against a few fresh runs that failed and passed otherwise,
that shows: the lists compared hold at least 4 fresh runs (CHECK_AFTER of them in all; at worst
MAX_LISTS lists of one run each), and with FORK_RUNS forks per list any 4 or more fresh runs that
all failed against forks that all passed (or the reverse) give p < ALPHA / 2, however they fall
on the lists (the worst is one list: 4 of 4 against 0 of 12, p = 1/C(16, 4) = 5.5e-04). A small
change of a rare failure's rate (1/30 against 1/15) cannot be told on a few runs; nothing cheap
can.

The fork runs go one of each list first, then a wave at a time (`jobs`, at least 2), list after
list, and stop as soon as the outcome no longer depends on the fork runs left (`settled`): when no
outcome of theirs could make the check fail, or every outcome would. The decision is the one the whole FORK_RUNS per list
would have reached, to the letter, and the guarantee above holds. On the 29 checks of one run of
the test suite (their fork outcomes replayed in a random order) it saved 388 of 1,140 fork runs,
34%, for 7 ms of arithmetic a check (docs/runner.md, "The fork check stops when it is settled").

The decision is stored in `fork-check.json`, so a resumed hunt does not check again; the
check's runs are journaled with phase "fork-check" and mode "fork", and count as evidence once
the check agreed (isolate.hunt.evidence). Every journal entry says which mode ran it.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import math
import os
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from isolate.errors import UserError
from isolate.files import write_atomic
from isolate.hunt.evidence import Evidence
from isolate.hunt.journal import Entry, judged_for, read_journal
from isolate.hunt.runs import DiskFull, run_journaled
from isolate.hunt.store import (FORK_CHECK, FORK_CHECK_PHASE, Hunt, read_fork_check, read_steps, repeat_of,
                                repeats_from)
from isolate.words import counted, noun

CHECK_AFTER = 24  # fresh runs of the hunt's own lists that are evidence, one a reproduction, before the check
# ...for a pytest project. The check's runs are a price paid once for cheaper runs after
# it; a hunt that ends first has paid it for nothing (rent or buy). A stestr fork run is 3-9x
# cheaper than a fresh one since fresh runs stopped importing subunit and testtools (0.0094 vs
# 0.082 s on one test, 0.037 vs 0.115 s on 78: docs/benchmarks.md, "Writing the stream without
# subunit and testtools"; 7-22x before), so the check's 4 x 12 fork runs cost about 5-16 fresh
# ones; and they are evidence, so runs of a long list failing at the victim's own rate can make
# a hunt that was about to end go on (the seed scenario: after 4 fresh runs the check made the
# default hunts 50-186 runs long and 0.37x the manual recipe's seconds; with no fork server they
# took 14-62 runs, 0.16x). After 24 runs, most short hunts never check (the seed's: 0.17x), and
# a long one loses 20 runs' difference, about a second and a half on short lists.
# A pytest fork run only ~2.3x (a child still loads conftest files, plugins and test modules:
# docs/benchmarks.md, "The pytest fork server"), so they cost about 48 / 2.3 = 21 fresh runs.
# Checking after 21 (when the runs so far cost what the check will) made the pytest hunts of the
# real suites (docs/real_suites.md), most of which end within 10-30 runs, 1.9-3.6x dearer; after
# 48, a hunt that ends right after the check pays at most 1 + 21/48 = 1.44x, most short hunts
# never check, and a long one (hundreds of runs) loses only the 27 runs' difference.
CHECK_AFTER_PYTEST = 48
MAX_LISTS = 4  # lists compared: those that reproduced first, then those run most
FORK_RUNS = 12  # fork runs per list: the fewest that keep the guarantee above with margin (10: p = 9.99e-04)
ALPHA = 0.002  # the check fails when either count differs at p < ALPHA / 2
COMPLETIONS_MOST = 4096  # outcomes of the fork runs left that `settled` tries, per count (about 70 ms)


@dataclass(frozen=True)
class Tally:
    """One list's outcomes in both modes: runs, reproductions, other outcomes (not a pass)."""

    step: int
    fresh: tuple[int, int, int]
    fork: tuple[int, int, int] = (0, 0, 0)


CHECK_AFTER_VARIABLE = "ISOLATE_FORK_CHECK_AFTER"  # overrides both, e.g. to check a short hunt (tests)


def check_after(kind: str) -> int:
    """Fresh runs that are evidence before the check, for a project of this kind, unless the
    environment's ISOLATE_FORK_CHECK_AFTER says otherwise."""
    value = os.environ.get(CHECK_AFTER_VARIABLE, "").strip()
    if value:
        if not value.isdigit() or int(value) < 1:
            raise UserError(f"{CHECK_AFTER_VARIABLE}={value!r} is not a number of runs; fix: set it to a "
                            f"whole number such as {CHECK_AFTER}, or unset it")
        return int(value)
    return CHECK_AFTER_PYTEST if kind == "pytest" else CHECK_AFTER


def automatic(merged: dict[str, Any]) -> bool:
    """Whether the hunt's mode is left to the check: no --fork-server/--no-fork-server given, and
    not the hand recipe (it runs fresh processes, as by hand)."""
    return merged.get("mode", "auto") == "auto" and merged.get("strategy") != "manual"


def stratified_p(tables: Sequence[tuple[int, int, int, int]]) -> float:
    """Two-sided exact p-value that fork and fresh share each list's rate of an event. A table
    is (fresh events, fresh runs, fork events, fork runs); given a list's total events, its fork
    events are hypergeometric; their sum's law is the convolution; p adds the probabilities of
    the sums no more likely than the one observed."""
    law = {0: 1.0}
    observed = 0
    for a, n, b, m in tables:
        k = a + b
        total = math.comb(n + m, m)
        pmf = {x: math.comb(k, x) * math.comb(n + m - k, m - x) / total for x in range(max(0, k - n), min(k, m) + 1)}
        law = _convolve(law, pmf)
        observed += b
    cut = law.get(observed, 0.0) * (1 + 1e-9)
    return min(1.0, sum(p for p in law.values() if p <= cut))


def _convolve(first: dict[int, float], second: dict[int, float]) -> dict[int, float]:
    out: dict[int, float] = {}
    for x, p in first.items():
        for y, q in second.items():
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


def fresh_tallies(entries: Sequence[Entry], steps: dict[int, tuple[str, ...]],
                  hung: Collection[str] = (), repeat: int = 1) -> list[Tally]:
    """The lists the hunt ran in fresh processes with their outcomes: up to MAX_LISTS, those
    that reproduced the failure first, then those with the most runs (in step order). A list
    holding a test that ever hung (`hung`) is left out: in the forks it would mostly time out. Runs
    that executed the victim more than `repeat` times count by their first `repeat` executions."""
    counts: dict[int, list[int]] = {}
    for e in entries:
        if e.phase is not None or e.mode is not None or e.step not in steps or e.outcome == "error":
            continue
        e = judged_for(e, repeat)
        if any(test in hung for test in steps[e.step]):
            continue
        c = counts.setdefault(e.step, [0, 0, 0])
        c[0] += 1
        c[1] += e.reproduced
        c[2] += not e.reproduced and e.outcome != "pass"
    chosen = sorted(counts, key=lambda step: (counts[step][1] > 0, counts[step][0], -step), reverse=True)[:MAX_LISTS]
    return [Tally(step, (counts[step][0], counts[step][1], counts[step][2])) for step in sorted(chosen)]


def judge(tallies: Sequence[Tally]) -> tuple[bool, str, dict[str, float]]:
    """Agree or not, the summary said to the user, and the p-values: on FORK_RUNS fork runs per
    list, or on fewer once they were `settled` (then the p-values are the bounds over the fork
    runs not made, and the summary says so)."""
    left = sum(FORK_RUNS - t.fork[0] for t in tallies)
    early = settled(tallies) if left > 0 else None
    if early is None:
        ps = {"p_reproduced": stratified_p([(t.fresh[1], t.fresh[0], t.fork[1], t.fork[0]) for t in tallies]),
              "p_other": stratified_p([(t.fresh[2], t.fresh[0], t.fork[2], t.fork[0]) for t in tallies])}
        agree, bound, skipped = min(ps.values()) >= ALPHA / 2, "=", ""
    else:
        agree, ps = early
        bound = ">=" if agree else "<="
        skipped = (f"; {left} of {FORK_RUNS * len(tallies)} fork runs not made: no outcome of theirs could"
                   f" {'fail' if agree else 'pass'} the check")
    p_rep, p_other = ps["p_reproduced"], ps["p_other"]
    fresh = [sum(t.fresh[i] for t in tallies) for i in range(3)]
    fork = [sum(t.fork[i] for t in tallies) for i in range(3)]
    counts = (f"reproduced {fresh[1]}/{fresh[0]} fresh vs {fork[1]}/{fork[0]} fork, other outcomes"
              f" {fresh[2]} vs {fork[2]}, on the same {counted(len(tallies), 'list')}")
    if not agree:
        which = "reproductions" if p_rep < ALPHA / 2 else "other outcomes"
        p = p_rep if p_rep < ALPHA / 2 else p_other
        return False, (f"fresh (fork check failed: {counts}; the {which} differ, exact test p{bound}{p:.2g}"
                       f" < {ALPHA / 2:g}: the victim depends on what the fork server shares, such as the str"
                       f" hash seed{skipped})"), ps
    # QA: "5/5 fresh vs 17/17 fork; exact test p>=0.0016" read as a near miss: the threshold is said,
    # and that a bound is the worst the runs not made could give
    worst = " at worst" if early is not None else ""
    return True, (f"fork (checked: {counts}; exact test p{bound}{min(p_rep, p_other):.2g}{worst}, the check fails"
                  f" below {ALPHA / 2:g}{skipped})"), ps


def settled(tallies: Sequence[Tally]) -> tuple[bool, dict[str, float]] | None:
    """The check's decision if the fork runs left (up to FORK_RUNS per list) can no longer change
    it, with the p-values' bounds over every outcome they could have: (True, the smallest) when
    none of them could make it fail, (False, the largest of the count that always differs) when
    every one would. None while they could go either way, or when a count has more than
    COMPLETIONS_MOST outcomes left to try (the check then runs on). The outcomes where each list's
    runs left all count or none are tried first: they decide most calls at once."""
    def p_of(index: int, final: Sequence[int]) -> float:
        return stratified_p([(t.fresh[index], t.fresh[0], b, FORK_RUNS) for t, b in zip(tallies, final)])

    counts = {"p_reproduced": 1, "p_other": 2}
    left = {name: [range(t.fork[i], t.fork[i] + FORK_RUNS - t.fork[0] + 1) for t in tallies]
            for name, i in counts.items()}
    corners = {name: [p_of(counts[name], final) for final in set(itertools.product(*[(r[0], r[-1]) for r in ranges]))]
               for name, ranges in left.items()}
    agree = all(p >= ALPHA / 2 for ps in corners.values() for p in ps)
    differ = [name for name, ps in corners.items() if all(p < ALPHA / 2 for p in ps)]
    if not agree and not differ:
        return None
    bounds = {}
    for name, ranges in left.items():
        if math.prod(len(r) for r in ranges) > COMPLETIONS_MOST:
            return None
        ps = [p_of(counts[name], final) for final in itertools.product(*ranges)]
        bounds[name] = (min(ps), max(ps))
    if all(low >= ALPHA / 2 for low, _ in bounds.values()):
        return True, {name: low for name, (low, _) in bounds.items()}
    if any(high < ALPHA / 2 for _, high in bounds.values()):
        return False, {name: (high if high < ALPHA / 2 else low) for name, (low, high) in bounds.items()}
    return None


class AutoRunner:
    """The hunt's runner when the mode is automatic: fresh until the check decides, then fork
    if it agreed. Runs lists like a Runner (what loop.py needs of one)."""

    def __init__(self, hunt: Hunt, fresh: Any, make_fork: Callable[[], Any], display: Any) -> None:
        self.hunt = hunt
        self.fresh = fresh
        self.make_fork = make_fork
        self.display = display
        self.fork: Any = None
        self.current = fresh
        decision = read_fork_check(hunt)
        self.pending = decision is None
        if decision is not None and decision["mode"] == "fork":
            self._switch()
            display.info(f"runs in fork mode, as decided earlier: {decision['summary']}")

    @property
    def mode(self) -> str:
        return str(self.current.mode)

    def capacity(self, ids: Sequence[str] = ()) -> int | None:
        return self.current.capacity(ids)  # type: ignore[no-any-return]

    def run_lists(self, *args: Any, **kwargs: Any) -> Any:
        return self.current.run_lists(*args, **kwargs)

    def __enter__(self) -> AutoRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fork is not None:
            self.fork.close()
            self.fork = None

    def _switch(self) -> None:
        if self.fork is None:
            self.fork = self.make_fork()
        self.current = self.fork

    def check(self, ev: Evidence, jobs: int, deadline: float | None, max_runs: int | None = None) -> bool:
        """Run the check when it is due (the hunt's own phase, enough fresh evidence); True if
        it ran, so the caller reads the evidence again. It is put off (to a later session) when
        its runs would not fit in --max-runs."""
        if not self.pending or ev.phase is not None or ev.prefix or (deadline is not None and time.monotonic() >= deadline):
            return False  # (out of time: a later session checks)
        fresh = ev.own
        if len(fresh) < check_after(self.fresh.project.kind) or not any(o.failed for o in fresh):
            return False  # "the same outcomes" needs the recorded failure among them
        self.pending = False
        entries, _ = read_journal(self.hunt)
        repeat = repeat_of(self.hunt)  # while repeats run, the single runs before them are not compared
        tallies = fresh_tallies(entries[repeats_from(self.hunt):], ev.steps,
                                {test for test, n in ev.hangs.items() if n}, repeat)
        mine = set(ev.problem.predecessors)  # this phase's lists only (the setter phase has others)
        tallies = [t for t in tallies if all(i in mine for i in ev.steps[t.step][:-1])]
        tallies = earlier_fork_runs(tallies, entries[repeats_from(self.hunt):], repeat)
        left = sum(FORK_RUNS - t.fork[0] for t in tallies)
        if not tallies or (max_runs is not None and len(entries) + left > max_runs):
            return False
        kept = sum(t.fork[0] for t in tallies)
        self.display.info(f"fork check: running the hunt's first {counted(len(tallies), 'list')} in the fork server to"
                          " compare with their fresh runs" + (f" ({counted(kept, 'fork run')} of an earlier session"
                                                              " kept)" if kept else ""))
        try:
            tallies = self._run_all(tallies, ev, jobs, deadline)
        except DiskFull:
            raise  # nothing was learnt: the check runs again once the hunt resumes
        except UserError as why:
            return self._decide(False, f"fresh (fork check failed: {why})", tallies, {})
        if deadline is not None and time.monotonic() >= deadline and settled(tallies) is None \
                and any(t.fork[0] < FORK_RUNS for t in tallies):
            # the time budget cut the check short while its runs left could still decide either way
            # (QA: 1 fork run against 12 fresh "agreed", for good): decided by a later session, which
            # keeps these runs (earlier_fork_runs)
            self.pending = True
            made = sum(t.fork[0] for t in tallies)
            self.display.info(f"fork check: cut short by the time budget after {counted(made, 'fork run')}, before"
                              " it could decide; the hunt stays fresh, and a resumed hunt finishes the check")
            return True
        agree, summary, ps = judge(tallies)
        return self._decide(agree, summary, tallies, ps)

    def _run_all(self, tallies: list[Tally], ev: Evidence, jobs: int, deadline: float | None) -> list[Tally]:
        """The lists' fork runs: one of each list first (so that a list that cannot run in fork
        mode at all fails the check, however early it settles), then a wave of `jobs` (at least 2)
        at a time, list after list, until each has FORK_RUNS or the outcome is `settled`. A wave
        that made fewer runs than asked (a run hung, or the time is up) ends its list's runs, as a
        list's one query did before."""
        first = {i: 1 for i, t in enumerate(tallies) if not t.fork[0]}  # (an earlier session's runs show it can)
        if first:
            tallies = self._run(tallies, first, ev, jobs, deadline)
        for i in range(len(tallies)):
            while tallies[i].fork[0] < FORK_RUNS:
                if settled(tallies) is not None:  # (once a wave; settled, it stays so: no list runs on)
                    return tallies
                asked = min(max(2, jobs), FORK_RUNS - tallies[i].fork[0])
                made = tallies[i].fork[0]
                tallies = self._run(tallies, {i: asked}, ev, jobs, deadline)
                if tallies[i].fork[0] - made < asked:
                    break
        return tallies

    def _run(self, tallies: list[Tally], asked: dict[int, int], ev: Evidence, jobs: int, deadline: float | None
             ) -> list[Tally]:
        """`asked[i]` more runs of list i in the fork server, journaled as the check's runs (one
        query, like the search's)."""
        start = len(read_journal(self.hunt)[0])
        if self.fork is None:
            self.fork = self.make_fork()
        which = list(asked)
        outcomes = run_journaled(self.hunt, self.fork, [(tallies[i].step, ev.steps[tallies[i].step], asked[i])
                                                        for i in which],
                                 f"fork check: the same {noun(len(which), 'list')} in the fork server", start,
                                 FORK_CHECK_PHASE, jobs, deadline, where=" in the fork server")
        return [_added(t, [o for j, o in outcomes if which[j] == i]) if i in asked else t
                for i, t in enumerate(tallies)]

    def _decide(self, agree: bool, summary: str, tallies: list[Tally], ps: dict[str, float]) -> bool:
        """Store the decision (a resumed hunt reads it), say it once, switch if it agreed."""
        data = {"mode": "fork" if agree else "fresh", "summary": summary, "alpha": ALPHA, **ps,
                "lists": [{"step": t.step, "fresh": list(t.fresh), "fork": list(t.fork)} for t in tallies],
                "at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")}
        write_atomic(self.hunt.path / FORK_CHECK, json.dumps(data, indent=2) + "\n")
        self.display.info(f"mode: {summary}")
        if agree:
            self._switch()
        elif self.fork is not None:
            self.fork.close()
            self.fork = None
        return True


def earlier_fork_runs(tallies: Sequence[Tally], entries: Sequence[Entry], repeat: int = 1) -> list[Tally]:
    """`tallies` with the fork runs of their lists an earlier session of the check journaled
    before it was cut short (killed, a full disk), at most FORK_RUNS a list: made as this
    session's would be, they count once, not again on top of new ones."""
    out = []
    for tally in tallies:
        runs = [judged_for(e, repeat) for e in entries
                if e.phase == FORK_CHECK_PHASE and e.step == tally.step and e.outcome != "error"][:FORK_RUNS]
        out.append(replace(tally, fork=(len(runs), sum(e.reproduced for e in runs),
                                        sum(not e.reproduced and e.outcome != "pass" for e in runs))))
    return out


def _added(tally: Tally, outcomes: Sequence[Any]) -> Tally:
    """`tally` with the fork runs of its list that gave `outcomes` added."""
    runs, reproduced, other = tally.fork
    return replace(tally, fork=(runs + len(outcomes), reproduced + sum(bool(o.reproduced) for o in outcomes),
                                other + sum(not o.reproduced and o.kind != "pass" for o in outcomes)))


def mode_text(hunt: Hunt) -> str:
    """Which mode ran the hunt's runs and why, in one line (status, log, verdict)."""
    decision = read_fork_check(hunt)
    search = hunt.settings.get("search", {})
    mode = search.get("mode", "auto")
    before = "" if decision is None else f"; before it: {decision['summary']}"
    if mode == "fresh":
        return f"fresh (--no-fork-server{before})"
    if mode != "fork" and decision is None and search.get("strategy") == "manual":
        return "fresh (--strategy manual runs fresh processes, as by hand)"
    entries = read_journal(hunt)[0]  # read only where the answer depends on the runs
    on_dask = sum(entry.executor is not None for entry in entries)
    # QA: a hunt begun with --fork-server and resumed on a cluster was said to run forks
    fresh_there = (f" ({counted(on_dask, 'run')} on Dask workers ran fresh processes: they run no fork server)"
                   if on_dask else "")
    if mode == "fork":
        return f"fork (--fork-server{before}){fresh_there}"
    if decision is not None:
        return str(decision["summary"]) + (fresh_there if decision["mode"] == "fork" else "")
    if on_dask:  # the fork check never runs on a Dask cluster (its workers run fresh processes only)
        return (f"fresh (automatic: {counted(on_dask, 'run')} on Dask workers, which run fresh processes only;"
                " the fork check runs only in a session without --scheduler)")
    checking = sum(entry.phase == FORK_CHECK_PHASE for entry in entries[repeats_from(hunt):])
    if checking:  # begun, not decided: running now, or cut short (a resume goes on from these runs)
        return (f"fresh (automatic: the fork check has made {counted(checking, 'run')} in the fork server and"
                " not decided yet)")
    after = check_after(hunt.settings.get("source", {}).get("kind", ""))
    return _not_checked(hunt, entries, after, search.get("max_runs")) or \
        f"fresh (automatic: the fork check comes after {after} runs that are evidence)"


def _not_checked(hunt: Hunt, entries: list[Entry], after: int, most: int | None) -> str | None:
    """Why a hunt whose journal holds `entries` and `after` fresh runs that are evidence has not
    checked (None: it has fewer): none reproduced the failure, or the check's runs would not fit
    in --max-runs `most`."""
    since = entries[repeats_from(hunt):]
    own = [e for e in since if e.phase is None and e.mode is None and e.outcome != "error"]
    if len(own) < after:
        return None
    if not any(e.reproduced for e in own):  # the single runs before repeats started are no K-fold runs
        since_repeats = " since repeats started" if repeats_from(hunt) else ""
        return (f"fresh (automatic: the fork check comes after {after} runs that are evidence, one of them a"
                f" reproduction; none{since_repeats} has reproduced the failure)")
    tallies = fresh_tallies(since, read_steps(hunt), (), repeat_of(hunt))
    forks = FORK_RUNS * len(tallies)
    if most is not None and tallies and len(entries) + forks > most:
        return (f"fresh (automatic: the fork check, due after {after} runs that are evidence, was put off: its"
                f" {forks} runs would not fit in --max-runs {most})")
    return None


def runs_by_mode(hunt: Hunt) -> dict[str, int]:
    """Journaled runs per mode."""
    counts = {"fresh": 0, "fork": 0}
    for entry in read_journal(hunt)[0]:
        counts["fork" if entry.mode == "fork" else "fresh"] += 1
    return counts
