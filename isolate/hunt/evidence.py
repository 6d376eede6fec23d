"""The journal in the search's terms: the problem (predecessors, durations, start-up cost) and
one observation per repetition that is evidence either way (a reproduction or a pass); and what
the other repetitions tell the hunt: which tests hang, how the victim failed when it failed
another way, and how much wall time the hunt has spent."""

from __future__ import annotations

import datetime as dt
import json
import math
import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path

from isolate.errors import UserError
from isolate.files import from_here, read_text, reject_non_finite
from isolate.hunt.history import judged, read_history, stored_rate
from isolate.hunt.journal import Entry, Position, journal_since, judged_for
from isolate.hunt.store import FORK_CHECK_PHASE, Hunt, read_fork_check, read_steps, repeat_of, repeats_from
from isolate.running.judge import IMPORT
from isolate.search.model import Observation, Problem, carry_over, without
from isolate.words import counted, quoted

STARTUP_GUESS = 0.5  # seconds per run before the journal has measured it
HANGS_TO_DROP = 2  # timeouts while a predecessor ran, after which it is left out of every list
CRASHES_TO_DROP = 2  # ...and deaths of the test process while it ran (or right after it, before the next
# predecessor started), if no run holding it ever finished
SILENT_TIMEOUTS = 3  # timeouts before any test started, after which the hunt stops
IMPORTS_HINT = 50  # runs of the full list, none failing, before the hint on modules imported by discovery
ANOTHER_WAY = 3  # failures of another kind, with none of the recorded kind, before the hint
SKIPS = 3  # runs that skipped the victim from which the notes say so


@dataclass(frozen=True)
class Evidence:
    """What the journal says, in the search's terms."""

    problem: Problem
    observations: tuple[Observation, ...]
    ignored: dict[str, int]  # outcomes that are no evidence either way, by kind
    warnings: tuple[str, ...]
    entries: int  # journal entries read, corrupt ones excluded
    steps: dict[int, tuple[str, ...]]  # the step files, by number
    position: Position = Position()  # how far the journal was read
    overheads: tuple[float, ...] = ()  # measured per-run start-up, one per observation
    hangs: dict[str, int] = field(default_factory=dict)  # timeouts by the test that was running ("": none was)
    other_failures: dict[str, int] = field(default_factory=dict)  # the victim failing another way, by signature
    spans: tuple[tuple[float, float], ...] = ()  # (start, end) epoch seconds of every run
    history: tuple[int, int] = (0, 0)  # observations from stored runs: (runs, failures)
    # A later phase's lists are tagged in the journal (Entry.phase) and begin with a fixed prefix
    # that is not a candidate (the cleaner phase: the polluter's tests); None and (): the hunt's own
    phase: str | None = None
    prefix: tuple[str, ...] = ()
    # The single runs made before repeats started by themselves: while the runs repeat the victim,
    # the several-causes search reads them as it reads stored runs (its chain's prior: see
    # _history), where `singles`; `early` counts those it read
    singles: bool = False
    early: int = 0
    crashes: dict[str, int] = field(default_factory=dict)  # runs whose process died while a test ran, by that test
    checked: bool = False  # whether the fork check had agreed when the journal was read (its runs counted)
    ended: dict[str, int] = field(default_factory=dict)  # runs whose process ended between tests, by the last one
    other_steps: dict[str, tuple[int, ...]] = field(default_factory=dict)  # the steps whose lists showed each of other_failures
    past: int = 0  # runs that failed another way past the recorded failure's line, read as passes of it
    skipped: dict[str, int] = field(default_factory=dict)  # runs that skipped the victim, by reason ("skipped: …")

    @property
    def own(self) -> list[Observation]:
        """The observations of the hunt's own runs as runs (stored ones, and the single runs read
        like them, left out)."""
        return [o for o in self.observations if not o.stored]

    @property
    def wall_seconds(self) -> float:
        """Wall time during which at least one run was in flight, across every session."""
        total, reach = 0.0, float("-inf")
        for start, end in sorted(self.spans):
            if end > reach:
                total += end - max(start, reach)
                reach = end
        return total

    @property
    def test_seconds(self) -> float:
        """The runs' durations added up (parallel runs count each)."""
        return sum(end - start for start, end in self.spans)


def fork_checked(hunt: Hunt) -> bool:
    """Whether the automatic fork check agreed (isolate.hunt.forkcheck): its runs are then evidence."""
    return (read_fork_check(hunt) or {}).get("mode") == "fork"


def phase_of(entry: Entry, checked: bool) -> str | None:
    """The phase whose evidence a journal entry's run is (None: the polluter hunt's): the fork
    check's runs, of the hunt's own lists, are the hunt's once the check agreed (`checked`)."""
    return None if entry.phase == FORK_CHECK_PHASE and checked else entry.phase


def evidence(hunt: Hunt, previous: Evidence | None = None) -> Evidence:
    """The journal in the search's terms.  With `previous` (read from the same hunt), only
    what was appended since is read; the warnings are then the new ones only."""
    if previous is None:
        order = hunt.order()
        if not order:
            raise UserError(f"{hunt.path / 'order.txt'} is empty; re-create the hunt with 'isolate extract --force'")
        seconds = durations(hunt, order)
        previous = seed(hunt, Problem(order[:-1], order[-1], tuple(seconds[:-1]), seconds[-1] * repeat_of(hunt),
                                      STARTUP_GUESS))
        previous = replace(previous, singles=hunt.settings.get("search", {}).get("strategy", "isolate") == "isolate")
    elif previous.entries and not previous.checked and previous.phase is None and not previous.prefix \
            and fork_checked(hunt):
        return evidence(hunt)  # the check agreed since: its runs read before (a session cut short) count now
    problem = previous.problem
    entries, warnings, position = journal_since(hunt, previous.position)
    steps = read_steps(hunt, previous.steps)
    index = {test_id: i for i, test_id in enumerate(problem.predecessors)}
    observations = list(previous.observations)
    overheads = list(previous.overheads)
    ignored = dict(previous.ignored)
    hangs = dict(previous.hangs)
    crashes = dict(previous.crashes)
    ended = dict(previous.ended)
    unmatched: dict[int, int] = {}  # step -> journal entries that match no step file
    other = dict(previous.other_failures)
    other_steps = {signature: set(numbers) for signature, numbers in previous.other_steps.items()}
    past = previous.past
    skipped = dict(previous.skipped)
    spans = list(previous.spans)
    checked = bool(entries) and fork_checked(hunt)
    repeat = repeat_of(hunt)
    single = repeats_from(hunt)  # runs before repeats started by themselves
    early = previous.early
    timeouts_from = int(hunt.settings.get("search", {}).get("timeouts_from", 0))
    for number, entry in enumerate(entries, previous.entries):
        end = _epoch(entry.at)
        if end is not None:
            spans.append((end - entry.seconds, end))
        phase = phase_of(entry, checked)
        if phase != previous.phase or (number < single and not previous.singles):  # another phase's runs, or
            continue  # single runs among K-fold ones a search cannot read: wall time only
        if number < single:  # a single run among K-fold ones, read as stored runs are
            ids = steps.get(entry.step)
            if entry.telling and ids and ids[-1] == problem.victim \
                    and all(i in index for i in ids[:-1]):
                observations.append(Observation(frozenset(index[i] for i in ids[:-1]), entry.reproduced,
                                                entry.seconds, stored=True, here=True))
                early += 1
            continue
        every = entry.executions or ""  # all its executions (K-fold, ahead of the check, or a hedge)
        entry = judged_for(entry, repeat)  # K-fold runs, repeats since lowered: their first executions
        if entry.outcome == "timeout":
            if number >= timeouts_from:  # not killed at a shorter --timeout than today's
                hangs[entry.hung or ""] = hangs.get(entry.hung or "", 0) + 1
        elif entry.outcome == "crash" and entry.hung and not entry.reproduced:
            crashes[entry.hung] = crashes.get(entry.hung, 0) + 1
        elif entry.outcome == "crash" and entry.after:
            ended[entry.after] = ended.get(entry.after, 0) + 1
        elif entry.outcome == "fail" and entry.past and not entry.reproduced:
            past += 1  # a pass of the recorded failure (below)
        elif entry.outcome == "skip":
            skipped[entry.signature or "skipped"] = skipped.get(entry.signature or "skipped", 0) + 1
        elif entry.outcome == "fail" and not entry.reproduced:
            other[entry.signature or "?"] = other.get(entry.signature or "?", 0) + 1
            other_steps.setdefault(entry.signature or "?", set()).add(entry.step)
        ids = steps.get(entry.step)
        if ids is None or not ids or ids[-1] != problem.victim or ids[:len(previous.prefix)] != previous.prefix:
            unmatched[entry.step] = unmatched.get(entry.step, 0) + 1
            continue
        ids = ids[len(previous.prefix):]
        if any(i not in index for i in ids[:-1]):  # a list of the other phase (state-setters or polluters)
            continue
        included = frozenset(index[i] for i in ids[:-1])
        overheads.append(entry.seconds - sum(problem.durations[i] for i in included) - problem.victim_duration)
        if entry.telling:
            observations.append(Observation(included, entry.reproduced, entry.seconds, executions=len(every),
                                            reproductions=every.count("r")))
        else:
            ignored[entry.outcome] = ignored.get(entry.outcome, 0) + 1
    for step, n in sorted(unmatched.items()):
        which = "journal entry" if n == 1 else f"{n} journal entries"
        warnings.append(f"{which} for step {step} {'does' if n == 1 else 'do'} not match a step file"
                        f" (step-{step:03d}.txt missing or changed); skipped")
    startup = max(0.05, _median(overheads)) if overheads else problem.startup
    return Evidence(replace(problem, startup=startup), tuple(observations), ignored, tuple(warnings),
                    previous.entries + len(entries), steps, position, tuple(overheads), hangs, other,
                    tuple(spans), previous.history, previous.phase, previous.prefix, previous.singles, early,
                    crashes, checked or previous.checked, ended,
                    {signature: tuple(sorted(numbers)) for signature, numbers in other_steps.items()}, past, skipped)


def seed(hunt: Hunt, problem: Problem) -> Evidence:
    """Evidence over `problem`'s candidates before any journal entry is read: the stored runs.
    The polluter hunt's problem is the extracted order; the state-setter hunt's is another set
    of candidates (isolate.hunt.setters), and each phase reads only the journal's lists of its
    own candidates (the victim alone belongs to both)."""
    past = _history(hunt, problem)
    return Evidence(problem, past, {}, (), 0, {}, history=(len(past), sum(o.failed for o in past)))


def _history(hunt: Hunt, problem: Problem) -> tuple[Observation, ...]:
    """The stored runs kept in `history.jsonl` as observations over the hunt's candidates (for
    the Bayesian search, unless the hunt switched history off). They take no test time.

    While the victim runs K > 1 times a run, only the several-causes search keeps them: it reads
    stored runs into its chain's prior alone (which predecessors they suspect, their own rates
    integrated out: isolate.search.stored), never as runs of its lists, so a stored run's one
    execution is no K-fold run there; the single-cause search would count it as one."""
    search = hunt.settings.get("search", {})
    strategy = search.get("strategy", "isolate")
    if not search.get("history", True) or strategy == "manual" or (repeat_of(hunt) > 1 and strategy != "isolate"):
        return ()
    judge = judged(hunt)
    index = {test_id: i for i, test_id in enumerate(problem.predecessors)}
    # the stored runs' workers imported every test module before their first test
    imported = frozenset(i for i, test_id in enumerate(problem.predecessors) if test_id.startswith(IMPORT))
    out: list[Observation] = []
    for past in read_history(hunt):
        failed = judge(past)
        if failed is None:  # skipped, or failed another way: no evidence either way
            continue
        out.append(Observation(imported | {index[t] for t in past.predecessors if t in index}, failed, 0.0,
                               stored=True))
    return tuple(out)


def _epoch(stamp: str) -> float | None:
    try:
        return dt.datetime.fromisoformat(stamp).timestamp() if stamp else None
    except ValueError:
        return None


def durations(hunt: Hunt, order: tuple[str, ...]) -> list[float]:
    """Seconds per test of `order` as recorded; the median for tests without a record.
    A corrupt durations.json is a UserError naming it (deleting it falls back to the median)."""
    path = hunt.path / "durations.json"
    fix = "fix it, or delete it to weigh every test alike"
    text = read_text(path, "durations file", fix)
    try:
        known = json.loads(text, parse_constant=reject_non_finite) if text else {}
    except ValueError as exc:
        raise UserError(f"{path} is corrupt ({str(exc).splitlines()[0]}); {fix}") from None
    if not isinstance(known, dict):
        raise UserError(f"{path} is corrupt (not a JSON object of seconds per test); {fix}")
    for test_id, value in known.items():
        if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
            raise UserError(f"{path} is corrupt ({test_id}: {value!r} is not a finite number of"
                            f" seconds >= 0); {fix}")
    values = [float(v) for v in known.values()]
    default = _median(values) if values else 0.01
    return [max(0.0005, float(known.get(test_id, default))) for test_id in order]


def _median(values: list[float]) -> float:
    """statistics.median, computed as it does it (the middle value, or the mean of the middle two),
    without importing statistics (with fractions and decimal, ~10 ms of every command's start)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def without_hangs(ev: Evidence, timeout: object = None) -> tuple[Problem, tuple[Observation, ...], tuple[str, ...]]:
    """The hunt's problem without the predecessors that hung (they would stall every list that
    holds them) or killed the test process in CRASHES_TO_DROP runs while no run holding them ever
    finished (no list holding them could show the victim's outcome), and the observations that
    stay valid without them. A process that ended right after a predecessor, before the next one
    started (pytest.exit in a hook, os._exit in a tearDownClass), is read as that test killing it
    (QA: 100 runs that were no evidence, then "not reproduced", with a test that ended the pytest
    session after it); one that ended just before the victim is not (running.judge: its own
    set-up may have)."""
    problem = ev.problem
    limit = f" (killed after {timeout:g}s)" if isinstance(timeout, (int, float)) else ""
    if ev.hangs.get(problem.victim, 0) >= HANGS_TO_DROP:
        # QA: "the victim itself" read as "not polluted", where a lock left held by a predecessor hung it
        raise UserError(f"the victim hung in {ev.hangs[problem.victim]} runs{limit}, and a hang is not counted as"
                        " its failure; fix: raise --timeout if it is only slow, then run the same command again;"
                        " if it hangs only after some earlier tests (a lock or a queue they leave behind), give its"
                        " wait a timeout that fails the test, store a run in which it fails so, and hunt that")
    if ev.hangs.get("", 0) >= SILENT_TIMEOUTS:
        raise UserError(f"{ev.hangs['']} runs timed out before any test started{limit}; fix: run the"
                        " project's test command by hand to see what hangs, or raise --timeout")
    finished: set[int] = set()  # predecessors some run of this hunt held and finished (read only after crashes)
    killed = {t for t, n in (*ev.crashes.items(), *ev.ended.items()) if n >= CRASHES_TO_DROP}
    if killed:
        for o in ev.observations:
            if not o.stored:
                finished |= o.included
    dropped = tuple(t for i, t in enumerate(problem.predecessors) if ev.hangs.get(t, 0) >= HANGS_TO_DROP
                    or (t in killed and i not in finished))
    if not dropped:
        return problem, ev.observations, ()
    drop = [i for i, t in enumerate(problem.predecessors) if t in dropped]
    return without(problem, drop), carry_over(problem, ev.observations, drop), dropped


def _left_out(ev: Evidence, test: str) -> str:
    """Why `test`, dropped by without_hangs, is in no list: it hung, the process died while it ran,
    or the process ended right after it."""
    if ev.hangs.get(test, 0) >= HANGS_TO_DROP:
        return f"{test} hung in {counted(ev.hangs[test], 'run')}"
    if ev.crashes.get(test, 0) >= CRASHES_TO_DROP:
        return f"{test} killed the test process in {counted(ev.crashes[test], 'run')} and no run holding it finished"
    return (f"the test process ended right after {test} (before the next test started) in"
            f" {counted(ev.ended.get(test, 0), 'run')} and no run holding it finished")


def notes(ev: Evidence, dropped: tuple[str, ...], any_failure: bool, jobs: int = 1,
          where: Path | None = None) -> tuple[str, ...]:
    """What the runs that are no evidence either way tell the user (`jobs`: runs at once, which
    share what lies outside their folders, such as a fixed port; `where`: the hunt's folder, whose
    step files the note names)."""
    notes = tuple(f"left out: {_left_out(ev, t)}; it is in no list after that" for t in dropped)
    if ev.past and not any_failure:
        notes += (f"the victim failed another way at a later line than the recorded failure's, past the point"
                  f" where that one fails, in {ev.past} of the runs: counted as passes of it (with --any-failure, as"
                  " failures)",)
    another = sum(ev.other_failures.values())
    reproduced = sum(o.failed for o in ev.observations)
    full = frozenset(range(len(ev.problem.predecessors)))
    passed = sum(o.count for o in ev.observations if o.included == full and not o.stored)
    if not reproduced and passed >= IMPORTS_HINT and where is not None and ev.phase is None:
        step = from_here(where / "step-000.txt")  # QA: 2,188 runs of a list whose failure came from another file's import
        notes += (f"the full list has not failed in {passed} runs: the recorded worker imported every test module"
                  " of its run before its tests (unittest discovery, pytest collection), a run here only its list's;"
                  " if importing another module sets the state, this shows it:"
                  f" {quoted(f'isolate replay {shlex.quote(step)} --discover-all --times 5')}",)
    skips = sum(ev.skipped.values())
    if skips >= SKIPS and skips > 2 * reproduced:  # QA: pytest-dependency skipped it in lists without its dependency
        common = max(ev.skipped, key=lambda s: ev.skipped[s])
        notes += (f"the victim was skipped in {counted(skips, 'run')} ({common}), which is no evidence either way:"
                  " the lists leave out what its skip condition needs (a test it depends on, pytest-dependency's"
                  " marker, a resource); runs that skip it are not counted",)
    if another >= ANOTHER_WAY and another > 2 * reproduced and not any_failure:
        common = max(ev.other_failures, key=lambda s: ev.other_failures[s])
        lists = ev.other_steps.get(common, ())
        shown = ""
        if lists and where is not None:  # QA: which lists showed it, to see it again (digits only: said once)
            name = f"step-{lists[0]:03d}.txt"
            shown = (f" (lists that showed it: {len(lists)}, the first {name}; see it with"
                     f" {quoted(f'isolate replay {shlex.quote(from_here(where / name))} --times 3')})")
        notes += (f"the victim failed {another} times another way ({common}){shown}, {counted(reproduced, 'time')}"
                  " the recorded way; if it is the same failure, run again with --any-failure"
                  + ("; if it comes from runs at once sharing something (a fixed port, a file outside the"
                     " project), run with --jobs 1" if jobs > 1 else ""),)
    return notes


def findings(observations: tuple[Observation, ...], repeat: int = 1,
             first: tuple[int, int] = (0, 0)) -> tuple[str, ...]:
    """What is already proven, whatever the search goes on to find: once the victim has failed
    the recorded way with no predecessor at all, it fails on its own (a polluter may still
    raise its rate; the search goes on to tell). With the victim repeated `repeat` times a run,
    only a first execution proves it (a later one ran after the victim itself): `first` is
    (runs of the victim alone that failed on their first execution, runs of it alone)."""
    alone = [o for o in observations if not o.included]
    failed = sum(o.count for o in alone if o.failed)
    if not failed:
        return ()
    if repeat > 1:
        if not first[0]:
            return ()
        return (f"fails on its own: {first[0]}/{first[1]} alone on a first execution ({failed}/"
                f"{sum(o.count for o in alone)} runs of {repeat} executions failed)",)
    return (f"fails on its own: {failed}/{sum(o.count for o in alone)} alone",)


@dataclass(frozen=True)
class PlanInputs:
    """What `isolate plan TEST` reads from a hunt: its predecessors, their mean recorded
    duration, a run's start-up (measured by the journal, or STARTUP_GUESS before any run), and
    how often the victim failed: in stored runs and in the hunt's runs of its whole list."""

    tests: int
    duration: float
    startup: float
    measured: bool
    failures: int = 0
    runs: int = 0


def plan_inputs(hunt: Hunt, with_rate: bool = False) -> PlanInputs:
    """`with_rate`: count the victim's failures too (reading every stored run: only when no
    --rate was given)."""
    ev = evidence(hunt)
    problem = ev.problem
    n = len(problem.predecessors)
    if n == 0:
        raise UserError(f"nothing ran before {hunt.victim} in the hunt's order, so there is no polluter to plan a"
                        " search for; run 'isolate bisect' on it (it hunts over module imports then)")
    if not with_rate:
        return PlanInputs(n, sum(problem.durations) / n, problem.startup, bool(ev.own))
    failures, runs = stored_rate(hunt)
    for o in ev.own:
        if len(o.included) == n:  # the whole list: the polluter, if any, ran before the victim
            failures += o.reproductions if o.executions else o.count * o.failed
            runs += o.executions or o.count
    return PlanInputs(n, sum(problem.durations) / n, problem.startup, bool(ev.own), failures, runs)
