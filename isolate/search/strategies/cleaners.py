"""Cleaners of a confirmed polluter: the tests that, run between it and the victim, make it PASS.

iPFlakies' term: a cleaner undoes what the polluter leaves behind (it resets a global, deletes a
file), so run after the polluter it lets the victim pass again.  It is a hint for the fix ("look
at what the cleaner resets"), not a cause of the failure.

The search is the state-setter one (setters.py) with the polluter fixed at the front: every list
is the polluter's tests, then a subset of the candidates, then the victim.  The fixed prefix is
not a candidate: the problem's predecessors are the candidates only and the prefix's seconds are
part of the start-up cost (cleaner_problem), so the search below never sees it; the hunt puts it
in front of every list it runs.  With the polluter in every list the victim fails at the
polluter's rate p, so the event "the victim passes" has the background rate 1 - p, and a cleaner
raises it: the same noisy-OR group testing, so causes.decide runs on the observations with
`failed` flipped and its "polluter" verdict names the cleaners.

What can be found follows from the rate prior's `min_ratio` (2): a cleaner must make the victim
pass at least twice as often as the polluter alone lets it.  A deterministic polluter (p = 1: it
never passes after it) leaves every cleaner that helps at all findable; a polluter with p = 0.5
lets it pass half of the time, and no cleaner can double that.  A full list that never passes
ends the search after REPRODUCE_RUNS runs ("no cleaner"): a cleaner that lets the victim pass
less often than CLEAN_MIN of the time may be missed then.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from typing import Sequence

from isolate.search.model import (
    Observation,
    Problem,
    Query,
    Settings,
    Verdict,
    counts,
)
from isolate.search.posterior import Answer, Tally
from isolate.search.strategies import causes
from isolate.search.strategies.setters import flipped, in_real_outcomes, inverted_decide, inverted_settings, swap

CLEANER = "cleaner"
CLEAN_MIN = 0.2  # the smallest pass rate a cleaner gives that the first full lists are sure to show


def cleaner_problem(candidates: tuple[str, ...], durations: tuple[float, ...], victim: str,
                    victim_duration: float, startup: float, prefix_seconds: float) -> Problem:
    """The cleaner search's problem: the candidates in the order they run, and the polluter's
    tests (run first in every list) counted as start-up."""
    return Problem(candidates, victim, durations, victim_duration, startup + prefix_seconds)


def decide(problem: Problem, observations: Sequence[Observation], settings: Settings, *,
           batch: int = 1) -> Query | Verdict:
    """The next list of candidates to run after the polluter, or the verdict: "cleaner" naming
    them, or the inverted search's own end (no cleaner found) in real words."""
    return inverted_decide(problem, observations, settings, batch, CLEAN_MIN, say,
                           lambda reason: f"cleaners: {_placed(say(reason))}", cleaned)


def leading(problem: Problem, observations: Sequence[Observation], settings: Settings) -> tuple[Answer, ...]:
    """The leading cleaners so far (an empty answer: it passes after the polluter as often alone)."""
    return causes.leading(problem, flipped(observations), inverted_settings(settings, CLEAN_MIN))


def say(text: str) -> str:
    """The inverted search's words turned back: its failures are passes, its causes cleaners."""
    return swap(text, CLEANER)


def _placed(reason: str) -> str:
    """A query's reason with the polluter in its place: every list runs it first."""
    return (reason.replace("victim alone", "victim right after the polluter")
            .replace("alone before the victim", "alone between the polluter and the victim"))


def cleaned(problem: Problem, t: Tally, inverted: Verdict) -> Verdict:
    """The inverted search's "polluter" verdict as a "cleaner" one, in real outcomes: `p` and `q`
    are the victim's failure rates after the polluter with and without the cleaners."""
    found = tuple(in_real_outcomes(problem, t, c, CLEANER, "between the polluter and it",
                                   "alone between the polluter and it") for c in inverted.causes)
    held = frozenset(inverted.culprits)
    lines = tuple(c.evidence[0] for c in found)
    af, ar = counts(t, lambda s: not s)
    if ar:
        lines += (f"passes {ar - af}/{ar} after the polluter alone",)
    lines += (say(inverted.stop),)
    wf, wr = counts(t, lambda s: bool(s & held))
    bf, br = counts(t, lambda s: not s & held)
    return Verdict(CLEANER, inverted.culprits, inverted.confidence, wf / wr if wr else 0.0,
                   bf / br if br else 1.0, lines, inverted.runs, inverted.seconds, (), found, say(inverted.stop))


