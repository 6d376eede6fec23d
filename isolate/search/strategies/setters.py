"""State-setters of a brittle victim: the tests that, run before it, make it PASS.

A brittle test (iDFlakies' term) fails unless a state-setter ran earlier in its process; in the
failing worker's order the setter is simply missing, so the polluter search finds the victim
failing on its own.  Looking for setters is the polluter search with the outcome inverted: the
event is "the victim passes", its background rate is how often it passes alone, and a setter
raises that rate.  That is the same noisy-OR group-testing model, so causes.decide runs on the
observations with `failed` flipped, and its answer is mapped back: a "polluter" of passing is a
setter, reported as verdict "brittle" with causes of role "setter".

The rate prior's `min_ratio` applies to the inverted rates: a setter must raise the pass rate
that many times over the victim's own pass rate alone.  That is easy when the victim (nearly)
always fails alone; a victim that passes alone half of the time leaves no room for a setter to
be told from the background, and the search then ends without one.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable, Sequence

from isolate.search.model import (
    FoundCause,
    Observation,
    Problem,
    Query,
    Settings,
    Verdict,
    counts,
    label,
    runs_for,
    tally,
)
from isolate.search import stored
from isolate.search.posterior import Answer, Tally
from isolate.search.strategies import causes
from isolate.words import fraction, probability

BRITTLE = "brittle"
SET_MIN = 0.1  # the lowest pass rate after every candidate at which a setter is looked for
_SWAP = {"fail": "pass", "fails": "passes", "failed": "passed", "failing": "passing",
         "pass": "fail", "passes": "fails", "passed": "failed", "passing": "failing",
         "cause": "setter", "causes": "setters", "failure rate": "pass rate", "pass rate": "failure rate",
         # the reproduction's words (QA: "full list: no failure yet", said right after two failing runs)
         "does the failure reproduce": "does it pass", "reproduced the failure": "passed",
         "no failure yet": "no pass yet", "a failure": "a pass", "not reproduced": "no setter"}
_WORDS = re.compile(r"\b(" + "|".join(sorted(_SWAP, key=len, reverse=True)) + r")\b")


def decide(problem: Problem, observations: Sequence[Observation], settings: Settings, *,
           batch: int = 1) -> Query | Verdict:
    """The next list to run, or the verdict: "brittle" naming the setters, or the inverted
    search's own end (no setter found) with its words turned back the right way round. Stored
    passes that runs with every candidate before the victim never repeat end it as the polluter
    search's stale stored failures do (QA: the stored runs had a variable tox sets, the hunt did
    not; the search doubled its runs of the full list, 1, 2, 4, ... 5,338, for 13 minutes)."""
    gone = stored.stale(problem, flipped(observations), inverted_settings(settings))
    if gone is not None:
        stop = (gone.stop.replace("the stored runs' failure did not reproduce", "the stored runs' passes did not happen"
                                  " again") + ": they likely came from outside the lists (environment variables such as"
                " tox's setenv or a .testr.conf test_command's, the working directory, another machine or version of"
                " the code); run isolate as the suite was run")
        return replace(gone, evidence=(swap(gone.evidence[0]), swap(gone.evidence[1]), stop), stop=stop)
    return inverted_decide(problem, observations, settings, batch, SET_MIN, swap,
                           lambda reason: f"state-setters: {swap(reason)}", brittle)


def leading(problem: Problem, observations: Sequence[Observation], settings: Settings) -> tuple[Answer, ...]:
    """The leading setters so far (an empty answer: the victim passes on its own)."""
    return causes.leading(problem, flipped(observations), inverted_settings(settings))


def inverted_decide(problem: Problem, observations: Sequence[Observation], settings: Settings, batch: int,
                    least: float, say: Callable[[str], str], asked: Callable[[str], str],
                    found: Callable[[Problem, Tally, Verdict], Verdict]) -> Query | Verdict:
    """causes.decide on the runs with pass and fail swapped (`least` as in inverted_settings), its
    answer in real words: `asked` turns a query's reason, `say` the rest, `found` a "polluter" verdict."""
    answer = causes.decide(problem, flipped(observations), inverted_settings(settings, least), batch=batch)
    if isinstance(answer, Query):  # a pass is the event: run every run, not until a failure
        return replace(answer, reason=asked(answer.reason), until_failure=False)
    if answer.kind != "polluter":
        return replace(answer, evidence=tuple(say(line) for line in answer.evidence), stop=say(answer.stop))
    return found(problem, tally(observations), answer)


def flipped(observations: Sequence[Observation]) -> tuple[Observation, ...]:
    """The runs with the event inverted: a pass is what the inverted search looks for (per run:
    its executions' reproductions are failures, not the inverted event, so they are left out)."""
    return tuple(replace(o, failed=not o.failed, executions=0, reproductions=0) for o in observations)


def swap(text: str, role: str = "setter") -> str:
    """The inverted search's words turned back: its "fails" are passes, its causes setters (or
    another `role`: the cleaner search's causes are cleaners)."""
    def turn(word: str) -> str:
        return _SWAP[word].replace("setter", role)
    return _WORDS.sub(lambda m: turn(m.group(1)), text)


def inverted_settings(settings: Settings, least: float = SET_MIN) -> Settings:
    """The polluter search's settings, with a short reproduction: when no run shows the victim
    passing yet, the phase first runs it after every candidate, and a setter (or cleaner) that
    makes it pass less than `least` of the time there is not looked for (44 runs at 0.99 for
    SET_MIN, 21 for the cleaners' 0.2). Its stop check's runs execute the victim once (`hedge`:
    a later execution's failure is no inverted event)."""
    cap = settings.reproduce_runs or runs_for(settings.confidence, least)
    return replace(settings, strategy="isolate", reproduce_runs=cap, hedge=1)


def brittle(problem: Problem, t: Tally, inverted: Verdict) -> Verdict:
    """The inverted search's "polluter" verdict as a brittle one, in real outcomes: `t` counts
    failures; `p` and `q` are the victim's failure rates with and without the setters, as the
    model estimates them (one minus the inverted search's pass rates), not the raw frequencies:
    9/9 passes with a setter is no failure rate of 0."""
    setters = tuple(in_real_outcomes(problem, t, c, "setter", "before it", "alone before the victim")
                    for c in inverted.causes)
    af, ar = counts(t, lambda s: not s)
    lines = tuple(c.evidence[0] for c in setters)
    if ar:
        lines += (f"fails {af}/{ar} alone (no predecessors)",)
    lines += (swap(inverted.stop), f"passes {t.total_runs - t.total_fails}/{t.total_runs} over all runs")
    return Verdict(BRITTLE, inverted.culprits, inverted.confidence, 1.0 - inverted.p, 1.0 - inverted.q, lines,
                   inverted.runs, inverted.seconds, (), setters, swap(inverted.stop))


def in_real_outcomes(problem: Problem, t: Tally, cause: FoundCause, role: str, where: str, alone: str
                     ) -> FoundCause:
    """A cause of an inverted search as what it is (`role`: a setter, a cleaner), with lines a
    user can check, passes counted: `where` its tests run in the lists ("before it"), `alone`
    how they run alone ("alone before the victim")."""
    tests = frozenset(cause.tests)
    on = (lambda s: tests <= s) if cause.scope == "pair" else (lambda s: bool(s & tests))
    wf, wr = counts(t, on)
    bf, br = counts(t, lambda s: not on(s))
    name = label(problem, cause.tests) if cause.scope in ("test", "pair") else f"a test of {cause.name}"
    lines = [f"passes {wr - wf}/{wr} with {name} {where}, {br - bf}/{br} without"]
    alone_f, alone_r = counts(t, lambda s: bool(s) and s <= tests and on(s))
    if alone_r:
        lines.append(f"its tests {alone}: passes {alone_r - alone_f}/{alone_r}")
    lines.append(f"pass rate {fraction(cause.rate)} with it, confidence {probability(cause.confidence)}")
    return replace(cause, evidence=tuple(lines), role=role)
