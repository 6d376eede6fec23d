"""A hunt's settings: what the user gave now, over what earlier sessions stored, over defaults.

Settings given once are stored in `hunt.json`, so a resumed hunt (`isolate bisect TEST` again)
runs as the first session did.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from isolate.errors import UserError
from isolate.hunt.history import check as check_history
from isolate.hunt.journal import read_journal
from isolate.hunt.store import Hunt, repeat_asked, repeat_of, save_settings, search_problem
from isolate.running.project import check_pytest_args
from isolate.search.model import Settings
from isolate.search.posterior import WEAK_POLLUTERS, RatePrior

DEFAULTS: dict[str, Any] = {
    "confidence": 0.99,
    "step_budget": None,
    "time_budget": None,
    "max_runs": None,
    "jobs": None,
    "timeout": None,
    "strategy": "isolate",
    "further": 1.0,  # after each cause, rule out further ones down to this fraction of the weakest rate
    "cleaners": False,  # after a polluter verdict, look for its cleaners (isolate.hunt.cleaners)
    "scan": False,  # after a polluter verdict, every other predecessor alone (isolate.hunt.scan)
    "mode": "auto",  # fresh, fork, or auto: fresh until the fork check (isolate.hunt.forkcheck)
    "any_failure": False,
    "repeat": None,  # executions of the victim per run; None: automatic (isolate.hunt.repeatcheck)
    "pytest_args": [],
    "history": True,  # stored runs as evidence (isolate.hunt.history)
    "history_paths": [],
    "history_since": None,
    "weak_polluters": False,  # a polluter raising the rate less than 10x is as likely a priori (RatePrior)
}
# stored, not a default: "timeouts_from", the journal entries before which ran under a shorter
# --timeout than today's (their timeouts are not counted as hangs; evidence.py)


def settings_for(hunt: Hunt, options: dict[str, Any]) -> Hunt:
    """Options given now override those stored by earlier sessions; the result is stored."""
    stored, merged = _merged(hunt, options)
    before = hunt.settings.get("search", {}).get("timeout")
    if before is not None and stored.get("timeout") is not None and stored["timeout"] > before:
        # runs killed at the shorter limit say nothing of hangs at this one: a --timeout given
        # too short once would otherwise stop every later session ("timed out before any test")
        stored["timeouts_from"] = merged["timeouts_from"] = len(read_journal(hunt)[0])
    if stored != hunt.settings.get("search"):
        hunt = save_settings(hunt, {**hunt.settings, "search": stored})
    return replace(hunt, settings={**hunt.settings, "search": merged})


def changes(hunt: Hunt, options: dict[str, Any]) -> list[str]:
    """The settings the options given now change on a hunt that has run before, in words
    ("--confidence 0.99 -> 0.9"): a resumed hunt says so rather than silently running otherwise."""
    if not (hunt.path / "journal.jsonl").exists():
        return []
    before = {**DEFAULTS, **hunt.settings.get("search", {})}
    said = []
    for key, value in options.items():
        if value is not None and key in DEFAULTS and before[key] != value:
            old = "default" if before[key] is None else before[key]
            unit = "s" if key in _SECONDS else ""  # QA: "--time-budget 10 -> 600" (seconds, unsaid)
            shown = [_shown(v) + (unit if isinstance(v, (int, float)) and not isinstance(v, bool) else "")
                     for v in (old, value)]
            said.append(f"{_OPTION.get(key, '--' + key.replace('_', '-'))} {shown[0]} -> {shown[1]}")
    return said


_SECONDS = ("time_budget", "timeout")
_OPTION = {"mode": "fork server", "repeat": "--repeat-victim", "pytest_args": "--pytest-arg",
           "history": "stored runs as evidence", "history_paths": "--history"}  # where the key is not the option


def _shown(value: Any) -> str:
    if value in ("auto", "fork", "fresh"):  # the fork server (mode)
        return {"auto": "automatic", "fork": "on", "fresh": "off"}[value]
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return " ".join(map(str, value)) or "none"
    return f"{value:g}" if isinstance(value, float) else str(value)


def unchanged(hunt: Hunt, options: dict[str, Any]) -> dict[str, Any] | None:
    """The settings a session given `options` would run under (what settings_for puts in the
    hunt it returns), when they change none of the hunt's stored ones; None when they do.
    Checked as settings_for checks them, writing nothing."""
    stored, merged = _merged(hunt, options)
    return merged if stored == hunt.settings.get("search", {}) else None


def _merged(hunt: Hunt, options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The settings to store (the earlier sessions' with the options given now over them) and
    those in force (the defaults under them); a UserError names an option that is wrong."""
    for key, value in options.items():
        problem = search_problem({key: value}, "--")
        if problem:
            option, rest = problem.split(" ", 1)
            raise UserError(f"{option.replace('_', '-')} {rest}; give a valid value (see 'isolate bisect --help')")
    stored = dict(hunt.settings.get("search", {}))
    for key, value in options.items():
        if value is not None:
            stored[key] = value
    merged = {**DEFAULTS, **stored}
    if merged["strategy"] not in ("isolate", "single", "manual"):
        raise UserError(f"--strategy {merged['strategy']!r} is unknown; use isolate, single or manual")
    if merged["pytest_args"] and (kind := project_kind(hunt)) != "pytest":
        raise UserError(f"--pytest-arg given but the hunt for {hunt.victim} runs a {kind} "
                        "project; fix: drop --pytest-arg")
    check_pytest_args(merged["pytest_args"])  # before it is stored: every run would pass, or none start
    if not 0.5 <= float(merged["confidence"]) < 1:
        raise UserError(f"--confidence {merged['confidence']} is out of range; give a value in [0.5, 1), e.g. 0.99")
    _check_repeat(hunt, options.get("repeat"), merged)
    for phase in ("scan", "cleaners"):  # later phases of the search's polluter verdict (hunt/loop.py)
        if merged[phase] and merged["strategy"] == "manual":
            raise UserError(f"--{phase} does not apply to --strategy manual (the hand recipe stops at its"
                            f" culprit); fix: drop one of them (--no-{phase} if the hunt has it stored)")
    if options.get("history") is False and (options.get("history_since") is not None or options.get("history_paths")):
        given = "--history-since" if options.get("history_since") is not None else "--history"
        raise UserError(f"{given} and --no-history contradict each other (stored runs would be read, then left"
                        f" out); fix: drop one of them")
    # only the streams given now: one stored by an earlier session was checked then, reading it
    # again on every resume costs a pass over it, and one moved away since must not stop the
    # hunt (its runs are kept in history.jsonl)
    check_history(hunt, list(options.get("history_paths") or ()), merged["history_since"])
    return stored, merged


def _check_repeat(hunt: Hunt, given: int | None, merged: dict[str, Any]) -> None:
    """--repeat-victim K is fixed once the hunt has runs (its model's rates are those of K-fold
    runs), but for 1: every run counts by its first execution then, whatever it ran. It is not
    part of the hand recipe."""
    stored = hunt.settings.get("search", {}).get("repeat")
    now = repeat_asked(hunt)  # what the runs were made with: given, or started by themselves
    if given is not None and given not in (1, stored) and (hunt.path / "journal.jsonl").exists():
        made = f"its {now} executions per run" if now > 1 else "single runs"
        raise UserError(f"--repeat-victim {given} differs from this hunt's runs, made with {made}; fix: drop"
                        " --repeat-victim (or give 1), or start over with 'isolate extract --force'")
    if (merged["repeat"] or 1) > 1 and merged["strategy"] == "manual":
        raise UserError("--repeat-victim does not apply to --strategy manual (the hand recipe runs the victim"
                        " once); fix: drop one of them")


def search_settings(merged: dict[str, Any], jobs: int) -> Settings:
    """The search's settings from the hunt's merged ones, for `jobs` runs at once."""
    time_budget = merged["time_budget"]
    return Settings(
        confidence=float(merged["confidence"]),
        max_runs=merged["max_runs"],
        # runs in parallel jobs overlap, so a wall-clock budget buys `jobs` times its test seconds
        max_seconds=None if time_budget is None else float(time_budget) * jobs,
        strategy=merged["strategy"],
        further=float(merged["further"]),
        rates=_rates(merged),
    )


def _rates(search: dict[str, Any]) -> RatePrior:
    return WEAK_POLLUTERS if search.get("weak_polluters") else RatePrior()


def reading_settings(hunt: Hunt) -> Settings:
    """The search's settings for reading a hunt's evidence again (status, the HTML report): its
    stored confidence, and the executions its runs are judged on (isolate.hunt.store.repeat_of)."""
    search = hunt.settings.get("search", {})
    return Settings(confidence=float(search.get("confidence", 0.99)), executions=repeat_of(hunt),
                    rates=_rates(search))


def project_kind(hunt: Hunt) -> str:
    """stestr/testr from the hunt's source repository; for a stream, the project's own kind."""
    kind = hunt.settings.get("source", {}).get("kind")  # hunt.json is checked: source is an object
    if kind is None:
        from isolate.running.project import find_project

        try:
            kind = find_project(hunt.root).kind
        except UserError:
            kind = "stestr"
    return str(kind)
