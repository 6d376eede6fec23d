"""The one entry point of the search: pick the strategy, ask it for the next query or the verdict.

Pure (no I/O, no clock, no randomness): the hunt calls it after every batch of runs with the
full journal of observations, so a killed hunt that is resumed from its journal continues
identically.  Strategy "isolate" is the Bayesian search; "manual", "halving" and "ddmin" replay
the human recipe and the peers' procedures from the same journal, so users and the benchmark
compare strategies through one code path.
"""

from __future__ import annotations

from typing import Sequence

from isolate.search.model import Observation, Problem, Query, Settings, Strategy, Verdict
from isolate.search.posterior import Answer
from isolate.search import stored
from isolate.search.strategies import bayesian, causes, cleaners, scan, setters


def _peers(problem: Problem, observations: Sequence[Observation], settings: Settings, *,
           batch: int = 1) -> Query | Verdict:
    """The human recipe and the peers' procedures (strategies/manual.py), imported only when a
    hunt or the benchmark runs one: a default hunt has no use for its dataclasses (~4 ms)."""
    from isolate.search.strategies import manual

    return manual.decide(problem, observations, settings, batch=batch)


STRATEGIES: dict[str, Strategy] = {
    "isolate": causes.decide,
    "single": bayesian.decide,
    "manual": _peers,
    "halving": _peers,
    "ddmin": _peers,
    "setters": setters.decide,  # a brittle victim's state-setters (the hunt's second phase)
    "cleaners": cleaners.decide,  # a polluter's cleaners (bisect --cleaners, after a polluter verdict)
    "scan": scan.decide,  # every other predecessor alone (bisect --scan, after a polluter verdict)
}
# the searches that read stored runs and would otherwise chase stored failures that no longer
# happen (both reproduce them on the full list first: stored.stale reads those runs); the peers'
# recipes and the second phases run after failures of their own
STALE_CHECKED = ("isolate", "single")


def decide(
    problem: Problem,
    observations: Sequence[Observation],
    settings: Settings = Settings(),
    *,
    batch: int = 1,
) -> Query | Verdict:
    """The next query to run, or the verdict.  Pure and deterministic."""
    strategy = STRATEGIES.get(settings.strategy)
    if strategy is None:
        raise ValueError(f"unknown strategy {settings.strategy!r}")
    if settings.strategy in STALE_CHECKED:
        gone = stored.stale(problem, observations, settings)
        if gone is not None:
            return gone
    return strategy(problem, observations, settings, batch=batch)


def leading(problem: Problem, observations: Sequence[Observation], settings: Settings = Settings()
            ) -> tuple[Answer, ...]:
    """The most probable answers now, for progress and status (empty before the first failure).
    The peers' strategies keep no posterior: their hunts are ranked by the single-cause one.
    None once stored failures that no longer happen ended the hunt (they made the leaders)."""
    if settings.strategy in STALE_CHECKED and stored.stale(problem, observations, settings) is not None:
        return ()
    if settings.strategy == "isolate":
        return causes.leading(problem, observations, settings)
    if settings.strategy == "setters":
        return setters.leading(problem, observations, settings)
    if settings.strategy == "cleaners":
        return cleaners.leading(problem, observations, settings)
    if settings.strategy == "scan":
        return ()  # each candidate alone: the scan has no posterior over them
    return bayesian.leading(problem, observations, settings)
