"""`isolate report --html`: one self-contained HTML page about a hunt, read from its directory.

The page needs nothing else: the charts are inline SVG, the styles inline CSS, no script, no
font or image from anywhere, so it can be mailed, attached to a bug or printed. Everything is
read from the hunt directory (journal, steps, queries, verdict), never written, so it works for
a finished hunt and for one another process is running.

The suspicion chart is the search's own posterior (search.posterior, as
search.strategies.bayesian.leading computes it) recomputed on prefixes of the evidence: after
every run for short hunts, at most MAX_POINTS times (every step's end among them) for long ones.
"""

from __future__ import annotations

import datetime as dt
import html
import math
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from isolate.files import HUNTS, read_list
from isolate.hunt.evidence import Evidence, evidence, fork_checked, phase_of
from isolate.hunt.journal import Entry, judged_for
from isolate.hunt.lock import holder
from isolate.hunt.settings import project_kind, reading_settings
from isolate.hunt.setters import setter_evidence
from isolate.hunt.store import Hunt, repeat_of, repeats_from
from isolate.hunt.verdict import read_verdict
from isolate.report.status import (Phase, StepRun, checked_steps, judged_journal, later_phase, later_phases,
                                   step_runs, verified_text)
from isolate.report.verdict import STORES_A_RUN, headline, stestr_keeps_order
from isolate.search.decide import leading
from isolate.search.model import Observation, Problem, Settings, tally
from isolate.search.posterior import Cells, Posterior, answers, infer, partition
from isolate.words import counted, fraction, noun, probability, seconds as duration

MAX_POINTS = 120
"""Most posterior recomputations per report (each is one inference over the whole evidence)."""

MAX_STRIP = 800
"""Most marks in the strip of runs under the steps (beyond, each mark stands for a few runs)."""

COLOURS = ("#0b62a4", "#d55e00", "#009e73", "#9b4f96", "#7a6a00")
"""One per answer line: blue for the leader, then colour-blind-safe contrasts."""


@dataclass(frozen=True)
class Line:
    """One answer's probability after each chosen run count."""

    culprits: tuple[int, ...]
    name: str
    points: tuple[tuple[int, float], ...]  # (journal entries so far, probability)


@dataclass(frozen=True)
class Page:
    """Everything the page shows, gathered from the hunt directory."""

    hunt: Hunt
    problem: Problem
    entries: tuple[Entry, ...]
    steps: tuple[StepRun, ...]
    lines: tuple[Line, ...]
    first_failure: int | None  # journal entries up to and including the first reproduction
    verdict: dict[str, Any] | None
    confidence: float  # the hunt's target
    state: str
    kind: str  # the project's runner: stestr, testr or pytest
    ev: Evidence
    candidates: int  # the predecessors the verdict is about (a brittle victim's: its setter phase's)
    phase: Phase | None = None  # a phase after the polluter search that a hunt without a verdict is in
    later: tuple[int, tuple[str, ...]] | None = None  # where the later phases began, and their names


def render(hunt: Hunt) -> str:
    """The whole page."""
    return page_html(gather(hunt))


# -- data ------------------------------------------------------------------------------------


def gather(hunt: Hunt) -> Page:
    ev = evidence(hunt)
    entries = judged_journal(hunt)[0][:ev.entries]  # a running hunt may have appended since
    settings = reading_settings(hunt)
    verdict = read_verdict(hunt)
    counted = _observations_after_each_entry(hunt, ev, entries)
    steps = step_runs(hunt, entries)
    xs = _sample(len(entries), [g.end for g in steps])
    lines, first = _lines(ev.problem, ev.observations, counted, xs, settings, verdict)
    found = holder(hunt.path)
    if found is not None and found.alive:
        state = "running"
    elif verdict is not None:
        state = f"done: {verdict.get('verdict')}"
    elif found is not None:  # a lock whose process is gone (kill -9, a reboot): as status says
        state = "stopped (its process died mid-hunt; run the same 'isolate bisect' to resume)"
    else:
        state = "paused" if entries else "not started"
    later = None if verdict is not None or not entries else \
        later_phase(hunt, ev.problem, ev.observations, entries, ev.wall_seconds)
    return Page(hunt, ev.problem, tuple(entries), tuple(steps), lines, first, verdict,
                settings.confidence, state, project_kind(hunt), ev, _candidates(hunt, ev, verdict), later,
                later_phases(hunt))


def _candidates(hunt: Hunt, ev: Evidence, verdict: dict[str, Any] | None) -> int:
    """How many predecessors the verdict is about, as the text verdict counts them: a brittle
    victim's are those its state-setter phase searched (isolate.hunt.setters), not the failing
    worker's, which the polluter phase searched."""
    if verdict is not None and verdict.get("verdict") == "brittle":
        seed = setter_evidence(hunt, ev.problem)
        if seed is not None:
            return len(seed[0].problem.predecessors)
    return len(ev.problem.predecessors)


def _observations_after_each_entry(hunt: Hunt, ev: Evidence, entries: list[Entry]) -> list[int]:
    """counted[e]: how many observations the stored history and the first e journal entries hold
    (timeouts, crashes and entries of unknown steps are no evidence either way, nor single runs
    before repeats started unless the search reads them, as in hunt.evidence; K-fold runs are
    judged on the executions used)."""
    index = set(ev.problem.predecessors)
    counted = [ev.history[0]]  # the stored runs come first, before any entry
    checked = fork_checked(hunt)
    repeat = repeat_of(hunt)
    single = 0 if ev.singles else repeats_from(hunt)  # single runs among K-fold ones, unless read
    for number, entry in enumerate(entries):
        entry = judged_for(entry, repeat)
        ids = ev.steps.get(entry.step)
        valid = (ids is not None and bool(ids) and ids[-1] == ev.problem.victim and all(i in index for i in ids[:-1])
                 and phase_of(entry, checked) == ev.phase  # a cleaner phase's lists are its own evidence
                 and number >= single)
        counted.append(counted[-1] + (1 if valid and entry.telling else 0))
    if counted[-1] != len(ev.observations):  # cannot happen when both read the same entries; never overrun
        counted = [min(c, len(ev.observations)) for c in counted]
    return counted


def _sample(total: int, step_ends: Sequence[int]) -> list[int]:
    """Run counts to recompute the posterior at: every one for short hunts, else every step's
    end and evenly spaced ones, MAX_POINTS in all, the last run always among them."""
    if total <= MAX_POINTS:
        return list(range(1, total + 1))
    ends = sorted({e for e in step_ends if 0 < e <= total} | {total})
    if len(ends) > MAX_POINTS // 2:  # many short steps: keep an even share of them
        ends = [ends[round(i * (len(ends) - 1) / (MAX_POINTS // 2 - 1))] for i in range(MAX_POINTS // 2)]
    spare = MAX_POINTS - len(ends)
    even = {max(1, round(total * (i + 1) / spare)) for i in range(spare)}
    return sorted(set(ends) | even)


def _posterior(problem: Problem, observations: Sequence[Observation],
               settings: Settings) -> tuple[Posterior, Cells] | None:
    """What bayesian.leading computes (None before the first failure: nothing to rank yet)."""
    t = tally(observations)
    if t.total_fails == 0:
        return None
    n = len(problem.predecessors)
    cells = partition(n, t.sets)
    return infer(n, t, cells, settings.rates, settings.prior_none, settings.prior_pair), cells


def chance(post: Posterior, cells: Cells, culprits: tuple[int, ...]) -> float:
    """The posterior probability of exactly this answer (as search.posterior.answers ranks it:
    a cell's mass shared equally by its members)."""
    if not culprits:
        return post.none
    if len(culprits) == 1:
        c = cells.cell_of[culprits[0]]
        return post.single[c] / len(cells.members[c])
    a, b = sorted((cells.cell_of[culprits[0]], cells.cell_of[culprits[1]]))
    for c, d, mass, _, _ in post.pairs:
        if (c, d) == (a, b):
            size = len(cells.members[c])
            return mass / (size * (size - 1) / 2 if c == d else size * len(cells.members[d]))
    return 0.0  # pruned: below 1e-12 of the mass


def _lines(problem: Problem, observations: Sequence[Observation], counted: list[int], xs: list[int],
           settings: Settings, verdict: dict[str, Any] | None) -> tuple[tuple[Line, ...], int | None]:
    """The leading answers' probabilities over the runs: the verdict's answer and alternatives
    (or, for a hunt still running, the answers leading now)."""
    final = _posterior(problem, observations, settings)
    if final is None:
        return (), None
    tracked: list[tuple[int, ...]] = []
    index = {test_id: i for i, test_id in enumerate(problem.predecessors)}
    if settings.strategy == "isolate":
        return _cause_lines(problem, observations, counted, xs, settings, verdict, index)
    if verdict is not None and verdict.get("verdict") in ("polluter", "fails-alone", "undecided"):
        for names in [verdict.get("culprits", []), *(a.get("culprits", []) for a in verdict.get("alternatives", []))]:
            if all(name in index for name in names):
                tracked.append(tuple(sorted(index[name] for name in names)))
    if not tracked:
        tracked = [a.culprits for a in answers(*final, limit=3)]
    tracked = list(dict.fromkeys(tracked))[:len(COLOURS)]

    def at(prefix: Sequence[Observation]) -> Callable[[tuple[int, ...]], float] | None:
        got = _posterior(problem, prefix, settings)
        return None if got is None else (lambda c: chance(*got, c))

    names = [" + ".join(problem.predecessors[i] for i in c) if c else "fails on its own" for c in tracked]
    return _series(observations, counted, xs, list(zip(tracked, names)), at)


def _series(observations: Sequence[Observation], counted: list[int], xs: list[int],
            tracked: list[tuple[tuple[int, ...], str]],
            at: Callable[[Sequence[Observation]], Callable[[tuple[int, ...]], float] | None]
            ) -> tuple[tuple[Line, ...], int | None]:
    """Each tracked answer's probability at the chart's points, from the first failure on;
    `at(prefix)` gives the probability of an answer on that prefix of the evidence."""
    values: dict[tuple[int, ...], list[tuple[int, float]]] = {c: [] for c, _ in tracked}
    first = next((e for e in range(1, len(counted))
                  if any(o.failed for o in observations[:counted[e]])), None)
    for x in xs:
        if first is None or x < first:
            continue
        chance_of = at(observations[:counted[x]])
        if chance_of is None:
            continue
        for c, _ in tracked:
            values[c].append((x, chance_of(c)))
    return tuple(Line(c, name, tuple(values[c])) for c, name in tracked), first


def _what(verdict: dict[str, Any]) -> str:
    """What the verdict's causes are, as the text verdict names them: a brittle victim's are
    state-setters (they make it pass), any other's causes (they make it fail)."""
    return "state-setter" if verdict.get("verdict") == "brittle" else "cause"


def _role(cause: dict[str, Any]) -> str:
    """A state-setter says so before its scope (a polluter, the usual role, says nothing)."""
    return "setter, " if cause.get("role") == "setter" else ""


def _each(cause: dict[str, Any]) -> str:
    """A cause's rate per execution under its rate per run, when the victim ran K times a run."""
    each = cause.get("rate_per_execution")
    return "" if each is None else f'<br><span class="each">{e(fraction(float(each), 2))} an execution</span>'


def _cause_lines(problem: Problem, observations: Sequence[Observation], counted: list[int], xs: list[int],
                 settings: Settings, verdict: dict[str, Any] | None, index: dict[str, int]
                 ) -> tuple[tuple[Line, ...], int | None]:
    """The several-causes search's view over the runs: for each cause of the verdict (or answer
    leading now), its probability after every run: the round's posterior while it was being
    searched, its confidence once confirmed (search.decide.leading)."""
    tracked: list[tuple[tuple[int, ...], str]] = []
    scanned = _scan_causes(verdict)
    for cause in (verdict or {}).get("causes") or []:
        if cause in scanned:
            continue  # the search never saw it: the chart would draw it at 0 (listed under the chart)
        tests = [index[name] for name in cause.get("tests", []) if name in index]
        if tests:
            tracked.append((tuple(sorted(tests)), str(cause.get("name"))))
    if not tracked:
        now = leading(problem, observations, settings)
        tracked = [(a.culprits, " + ".join(problem.predecessors[i] for i in a.culprits) or "fails on its own")
                   for a in now]
    if tracked and all(c for c, _ in tracked):  # the rival every hunt weighs first
        tracked.append(((), "fails on its own"))
    tracked = list(dict.fromkeys(tracked))[:len(COLOURS)]
    if not tracked:
        return (), None

    def at(prefix: Sequence[Observation]) -> Callable[[tuple[int, ...]], float]:
        top = leading(problem, prefix, settings)
        return lambda c: max((a.probability for a in top
                              if a.culprits == c or (a.culprits and set(a.culprits) <= set(c))), default=0.0)

    lines, first = _series(observations, counted, xs, tracked, at)
    # the verdict's run: each cause at its own confidence, as the headline and the table give it (QA: a
    # module's curve ended at 0.994, its best member's, under a verdict of 0.991)
    final = {str(c.get("name")): float(c["confidence"]) for c in (verdict or {}).get("causes") or []
             if c not in scanned and isinstance(c.get("confidence"), (int, float))}
    return tuple(replace(line, points=(*line.points[:-1], (line.points[-1][0], final[line.name])))
                 if line.name in final and line.points and line.points[-1][0] == xs[-1] else line
                 for line in lines), first


def _scan_causes(verdict: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The verdict's causes that the scan after the search found (isolate.hunt.scan.merged marks
    their evidence): no list of the search showed them, so its posterior has none of their mass."""
    return [c for c in (verdict or {}).get("causes") or []
            if any(str(line).startswith("found by the scan") for line in c.get("evidence", []))]


def cause_counts(ev: Evidence, culprits: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(fails, runs) with every culprit before the victim, and (fails, runs) without; for
    "fails on its own": the victim alone, and with predecessors."""
    with_f = with_r = fails = runs = 0
    need = frozenset(culprits)
    for o in ev.observations:
        runs += o.count
        fails += o.count if o.failed else 0
        hit = need <= o.included if culprits else not o.included
        if hit:
            with_r += o.count
            with_f += o.count if o.failed else 0
    return with_f, with_r, fails - with_f, runs - with_r


# -- page ------------------------------------------------------------------------------------


def e(text: object) -> str:
    """Escaped for HTML text and attribute values alike (test ids can hold < & " ')."""
    return html.escape(str(text), quote=True)


def e_id(test_id: str) -> str:
    """A test id escaped for text, allowed to wrap after its dots and colons (not mid-name, nor
    inside a number: QA saw "confidence 0." end a line, "996" begin the next)."""
    return re.sub(r"\.(?!\d)|(?<!\d)\.", ".<wbr>", e(test_id)).replace("::", "::<wbr>")


CSS = """
:root { color-scheme: light; --ink: #1d232a; --muted: #5b6570; --rule: #d8dde3; --fail: #c0392b; --pass: #8a949e; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color: var(--ink); margin: 0 auto; max-width: 1000px; padding: 24px 28px 48px; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
code, pre, .id { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 13px; }
.id { overflow-wrap: anywhere; }
#cause-table td.id { width: 38%; } #cause-table td:last-child { width: 40%; }
#cause-table td, #cleaners td { overflow-wrap: anywhere; }  /* a long test id in the evidence wraps, not widens */
#cause-table td.scope { overflow-wrap: normal; }  /* "module" is one word, never "modu" and "le" */
.victim { color: var(--muted); margin: 0 0 12px; }
.headline { font-size: 18px; margin: 8px 0; }
.headline b { font-weight: 650; }
.kind-polluter { color: #0b62a4; } .kind-fails-alone { color: #9b4f96; }
.kind-undecided, .kind-not-reproduced, .kind-pending { color: #a35f00; }
.facts { display: flex; flex-wrap: wrap; gap: 6px 24px; color: var(--muted); margin: 0; padding: 0; list-style: none; }
.facts b { color: var(--ink); }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--rule); }
th { font-weight: 600; color: var(--muted); font-size: 13px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.reproduced td.fails { color: var(--fail); font-weight: 600; }
.legend { list-style: none; padding: 0; margin: 6px 0 0; font-size: 13px; }
.legend li { margin: 2px 0; display: flex; gap: 8px; align-items: baseline; }
.swatch { display: inline-block; width: 22px; height: 4px; border-radius: 2px; flex: none; position: relative; top: -3px; }
.legend .p { font-variant-numeric: tabular-nums; min-width: 4.5em; text-align: right; flex: none; }
svg { display: block; max-width: 100%; height: auto; }
svg text { font: 11px system-ui, sans-serif; fill: var(--muted); }
pre { background: #f5f7f9; border: 1px solid var(--rule); border-radius: 4px; padding: 10px 12px;
      overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; }
.note { color: var(--muted); font-size: 13px; }
ul.evidence { margin: 6px 0; padding-left: 20px; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
.wide { overflow-x: auto; }  /* a table wider than a phone scrolls by itself, not the page */
#step-table { min-width: 600px; }  /* its last column, the reason, stays readable */
#step-table td:last-child { overflow-wrap: anywhere; }  /* a test id in a reason wraps, not widens the table */
@media (max-width: 600px) {
  body { padding: 14px 12px 32px; }
  table { font-size: 13px; }
  th, td { padding: 4px 5px; }
}
@media print {
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  h2 { break-after: avoid; }
  section, figure, tr, pre { break-inside: avoid; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  @page { margin: 14mm 12mm; }
}
"""


def page_html(p: Page) -> str:
    v = p.verdict
    title = f"isolate: {p.problem.victim}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # nothing may load from anywhere: no network, no scripts, only inline styles and data
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>{e(title)}</title>",
        f"<style>{CSS}</style>",
        "</head><body>",
        _header(p),
        _chart_section(p),
        _steps_section(p),
        _evidence_section(p),
        _reproducer_section(p),
        f'<footer>Made by isolate report from <span class="id">{e(p.hunt.path)}</span> on'
        f" {e(dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'))}"
        f"{'' if v else ' (no verdict yet: the hunt was ' + e(p.state) + ')'}.</footer>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _header(p: Page) -> str:
    v = p.verdict
    runs = len(p.entries)
    fails = sum(1 for x in p.entries if x.reproduced)
    seconds = sum(x.seconds for x in p.entries)
    out = ["<header>", "<h1>Why does this test fail?</h1>",
           f'<p class="victim id" id="victim">{e_id(p.problem.victim)}</p>']
    if v is not None:
        kind = str(v.get("verdict"))
        culprits = v.get("culprits") or []
        causes = v.get("causes") or []
        out.append(f'<p class="headline" id="headline"><b class="kind-{e(kind)}">{e(headline(kind, len(causes), str(v.get("stop") or "")))}</b>'
                   f' — confidence <b id="confidence">{e(probability(float(v.get("confidence", 0))))}</b></p>')
        if causes:
            what = _what(v)
            label = what if len(causes) == 1 else f"{len(causes)} {what}s, each enough on its own"
            out.append(f"<p>{e(label)}: " + ", ".join(
                f'<code class="id culprit">{e_id(c.get("name", ""))}</code> ({_role(c)}{e(c.get("scope", ""))})'
                for c in causes) + "</p>")
            culprits = []
        if culprits:
            label = "culprit" if len(culprits) == 1 else "culprits, all needed together"
            if kind == "undecided":
                label = "leading suspect (not proven)"
            out.append(f"<p>{e(label)}: " + ", ".join(f'<code class="id culprit">{e_id(c)}</code>' for c in culprits)
                       + "</p>")
    elif p.phase is not None:  # the chart's answers are the polluter search's, decided by now
        out.append(f'<p class="headline" id="headline"><b class="kind-pending">no verdict yet ({e(p.state)})</b>'
                   f' — phase: {e(p.phase.name)} — leading: <code class="id">{e(p.phase.leader)}</code></p>')
    else:
        leader = p.lines[0] if p.lines else None
        now = _probability(leader.points[-1][1]) if leader and leader.points else "—"
        out.append(f'<p class="headline" id="headline"><b class="kind-pending">'
                   f"no verdict yet ({e(p.state)})</b> — leading: "
                   f'<code class="id">{e(leader.name) if leader else "nothing until the failure reproduces"}</code>'
                   f" ({e(now)})</p>")
    steps = len({g.step for g in p.steps})  # a list run by several queries is one step
    out.append('<ul class="facts">'
               f"<li><b>{runs}</b> {noun(runs, 'run')}</li><li><b>{fails}</b> reproduced the failure</li>"
               f"<li><b>{steps}</b> {noun(steps, 'step')}</li>"
               f"<li><b>{p.candidates}</b> {noun(p.candidates, 'predecessor')}"
               f"{' tried as state-setters' if v is not None and v.get('verdict') == 'brittle' else ''}</li>"
               f"<li><b>{e(duration(seconds))}</b> of test time</li>"
               f"<li>target confidence <b>{p.confidence:g}</b></li></ul>")
    out.append("</header>")
    return "\n".join(out)


def _probability(p: float) -> str:
    """A probability to three places; one that would print as 0.000 is "< 0.001" (the search
    prunes answers below 1e-12 of the mass to 0: they are unlikely, not ruled out)."""
    return "< 0.001" if p < 0.0005 else probability(p)


# chart geometry, in SVG user units
W, H = 900, 300
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 22, 36


def _x(run: float, total: int) -> float:
    return LEFT + (W - LEFT - RIGHT) * run / max(1, total)


def _y(prob: float) -> float:
    return TOP + (H - TOP - BOTTOM) * (1.0 - prob)


def _ticks(total: int, want: int = 8) -> list[int]:
    if total <= 0:
        return [0]
    raw = total / want
    unit = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(m * unit for m in (1, 2, 5, 10) if m * unit >= raw)
    step = max(1, int(step))
    return list(range(0, total + 1, step))


def _chart_section(p: Page) -> str:
    total = len(p.entries)
    out = ['<section id="suspicion"><h2>Suspicion over the runs</h2>']
    if not p.lines:
        out.append('<p class="note">No run has reproduced the failure yet, so there is nothing to rank.</p></section>')
        return "\n".join(out)
    out.append('<p class="note">The probability of each leading answer after every run (the search\'s posterior,'
               " recomputed on the evidence so far" + ("" if total <= MAX_POINTS else
               f", at {len(p.lines[0].points)} points of the {total} runs") + "). The dashed line is the target"
               " confidence; grey marks along the top are where each step began.</p>")
    if p.first_failure is not None and p.first_failure > 1:  # QA: an empty start with no word of why
        out.append(f'<p class="note" id="first-note">Before run {p.first_failure}, the first to reproduce the failure,'
                   " there are no curves: until a run fails, no answer can be ranked above another.</p>")
    strategy = p.hunt.settings.get("search", {}).get("strategy", "isolate")
    if p.later is not None and p.later[0] < total:
        out.append(f'<p class="note" id="later-note">From run {p.later[0] + 1} on (the shaded part), the hunt ran'
                   f" {e(_and(p.later[1]))} after the polluter search: the curves are the polluter search's and stay"
                   " where it left them; those runs are among the steps below, their findings in the verdict above.</p>")
    if strategy != "isolate" and p.verdict is not None:
        out.append(f'<p class="note">This hunt ran the {e(strategy)} strategy: the confidence of its verdict is'
                   " that recipe's own; the chart is the Bayesian posterior of the same runs.</p>")
    svg = [f'<svg id="chart" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img"'
           ' aria-label="probability of the leading answers over the runs" xmlns="http://www.w3.org/2000/svg">']
    for prob in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = _y(prob)
        svg.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e3e7eb"/>')
        svg.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{prob:g}</text>')
    for t in _ticks(total):
        x = _x(t, total)
        svg.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{H - BOTTOM}" y2="{H - BOTTOM + 4}" stroke="#9aa4ae"/>')
        svg.append(f'<text x="{x:.1f}" y="{H - BOTTOM + 16}" text-anchor="middle">{t}</text>')
    svg.append(f'<text x="{(LEFT + W - RIGHT) / 2:.0f}" y="{H - 4}" text-anchor="middle">runs</text>')
    if p.later is not None and p.later[0] < total:  # the polluter search's curves stay flat over them
        x = _x(p.later[0], total)
        svg.append(f'<rect id="later-phases" x="{x:.1f}" y="{TOP}" width="{W - RIGHT - x:.1f}" height="{H - BOTTOM - TOP}"'
                   f' fill="#dde3e9" fill-opacity="0.45"><title>runs {p.later[0] + 1}–{total}: {e(", ".join(p.later[1]))}</title></rect>')
    for g in p.steps:
        x = _x(g.begin, total)
        svg.append(f'<line class="step-mark" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP - 8}" y2="{TOP - 2}" stroke="#9aa4ae">'
                   f"<title>step {g.step} began after run {g.begin}</title></line>")
    y = _y(p.confidence)
    svg.append(f'<line id="target" x1="{LEFT}" x2="{W - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#5b6570"'
               f' stroke-dasharray="5 4" data-p="{p.confidence}"/>')
    svg.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{H - BOTTOM}" stroke="#9aa4ae"/>')
    same = same_curves(p.lines)
    # the leader drawn last, on top; then the curves equal to one drawn already, dashed over it
    drawn = [k for k in reversed(range(len(p.lines))) if k not in same] + sorted(same)
    for k in drawn:
        line = p.lines[k]
        colour = COLOURS[k % len(COLOURS)]
        coords = " ".join(f"{_x(x, total):.1f},{_y(v):.1f}" for x, v in line.points)
        twin = f' data-same-as="{same[k]}"' if k in same else ""
        svg.append(f'<g class="answer" data-answer="{k}" data-name="{e(line.name)}"{twin}>')
        dash = ' stroke-dasharray="7 7"' if k in same else ""
        svg.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="{2.5 if k == 0 else 1.6}"'
                   f' stroke-linejoin="round"{dash}/>')
        radius = 2.6 if len(line.points) <= 60 else 1.6
        for x, v in line.points:
            svg.append(f'<circle cx="{_x(x, total):.1f}" cy="{_y(v):.1f}" r="{radius}" fill="{colour}"'
                       f' data-run="{x}" data-p="{v:.6f}"><title>after run {x}: {e(line.name)} {e(_probability(v))}</title></circle>')
        svg.append("</g>")
    if p.verdict is not None and p.lines[0].points:
        x, v = p.lines[0].points[-1]
        svg.append(f'<text x="{_x(x, total) - 6:.1f}" y="{_y(v) - 8:.1f}" text-anchor="end" id="final-label"'
                   f' style="fill:{COLOURS[0]};font-weight:600">{e(probability(v))}</text>')
    svg.append("</svg>")
    out.append("\n".join(svg))
    out.append('<ul class="legend">')
    for k, line in enumerate(p.lines):
        last = _probability(line.points[-1][1]) if line.points else "—"
        colour = COLOURS[k % len(COLOURS)]
        swatch = (f"repeating-linear-gradient(90deg, {colour} 0 5px, transparent 5px 9px)" if k in same
                  else colour)
        twin = (f'<span class="note twin">(the same curve as {e_id(p.lines[same[k]].name)}: drawn dashed over it)</span>'
                if k in same else "")
        out.append(f'<li><span class="swatch" style="background:{swatch}"></span>'
                   f'<span class="p">{e(last)}</span><span class="id">{e_id(line.name)}</span>{twin}</li>')
    out.append("</ul>")
    scanned = _scan_causes(p.verdict)
    if scanned:
        names = ", ".join(f'{e_id(str(c.get("name")))} (confidence {e(probability(float(c.get("confidence", 0))))})'
                          for c in scanned)
        out.append(f'<p class="note" id="scan-causes">Found by the scan after the search, which no list of the'
                   f" search could show (a later test undoes it), so not in this chart: {names}. Its runs alone"
                   " before the victim are among the steps below.</p>")
    out.append("</section>")
    return "\n".join(out)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def same_curves(lines: Sequence[Line], within: float = 0.005) -> dict[int, int]:
    """The curves drawn over another's whole length (within `within` at every point, as close as the
    chart's pixels show), each with the first of its kind: QA saw two answers tied all along as
    one line, the other's colour hidden under it."""
    same: dict[int, int] = {}
    for k, line in enumerate(lines):
        for j in range(k):
            other = lines[j]
            if j not in same and line.points and len(line.points) == len(other.points) and all(
                    x == y and abs(v - w) <= within for (x, v), (y, w) in zip(line.points, other.points)):
                same[k] = j
                break
    return same


def _steps_section(p: Page) -> str:
    total = len(p.entries)
    out = ['<section id="steps"><h2>Steps</h2>']
    if not p.steps:
        out.append('<p class="note">No run has finished yet.</p></section>')
        return "\n".join(out)
    n = max(1, len(p.problem.predecessors))
    height = 120
    base = height - 22
    svg = [f'<svg id="timeline" viewBox="0 0 {W} {height}" width="{W}" height="{height}" role="img"'
           ' aria-label="the steps: list size and outcome of every run" xmlns="http://www.w3.org/2000/svg">']
    for g in p.steps:
        x0, x1 = _x(g.begin, total), _x(g.end, total)
        tall = 10 + (base - 30) * math.log1p(max(0, g.size)) / math.log1p(n)
        checked = checked_steps(p.entries, g)  # the fork check's lists, one bar as one table row (QA: labelled "1")
        what, label, wide = ((f"step {g.step}: {_size(g.size)}", str(g.step), 14) if checked is None else
                             (f"fork check: steps {checked} again in the fork server", "fork check", 60))
        svg.append(f'<rect class="step{"" if checked is None else " check"}" data-step="{g.step}" x="{x0 + 0.5:.1f}"'
                   f' y="{base - tall:.1f}" width="{max(1.0, x1 - x0 - 1):.1f}" height="{tall:.1f}" fill="#dbe6f0">'
                   f"<title>{e(what)}, {counted(g.runs, 'run')}, {g.fails} reproduced</title></rect>")
        if x1 - x0 > wide:
            svg.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{base - tall - 4:.1f}" text-anchor="middle">{label}</text>')
    bins = min(total, MAX_STRIP)  # a long hunt: one mark per bin of runs, red if any reproduced
    for b in range(bins):
        lo, hi = b * total // bins, (b + 1) * total // bins
        group = p.entries[lo:hi]
        colour = ("#c0392b" if any(x.reproduced for x in group) else
                  "#8a949e" if all(x.outcome == "pass" for x in group) else "#e08e0b")
        x0, x1 = _x(lo, total), _x(hi, total)
        svg.append(f'<rect class="run" x="{x0:.1f}" y="{base + 3}" width="{max(0.6, x1 - x0 - 0.4):.1f}" height="9"'
                   f' fill="{colour}"/>')
    svg.append(f'<text x="{LEFT - 6}" y="{base + 11}" text-anchor="end">runs</text>')
    svg.append(f'<text x="{LEFT - 6}" y="{base - 8}" text-anchor="end">list</text>')
    svg.append("</svg>")
    out.append("\n".join(svg))
    out.append('<p class="note">Bars: each step\'s list size (log scale) over its runs. Strip: every run,'
               ' <span style="color:#c0392b">red</span> reproduced the failure, grey passed,'
               ' <span style="color:#e08e0b">orange</span> neither (timeout, crash, another failure).</p>')
    out.append('<div class="wide"><table id="step-table"><thead><tr><th>finished</th><th class="num">step</th>'
               '<th class="num">list</th><th class="num">runs</th><th class="num">reproduced</th><th>why this list</th>'
               "</tr></thead><tbody>")
    for g in p.steps:
        other = f" ({', '.join(g.other)} too)" if g.other else ""
        steps = checked_steps(p.entries, g)
        if steps is not None:  # as `isolate log` has it: one row for the check
            out.append(f'<tr class="check-row" data-runs="{g.runs}" data-fails="{g.fails}">'
                       f'<td class="num">{e(g.at[11:19] or g.at)}</td><td class="num">{e(steps)}</td>'
                       f'<td class="num">the same lists</td><td class="num">{g.runs}</td>'
                       f'<td class="num fails">{g.fails}{e(other)}</td><td>fork check: the same lists again in the fork'
                       ' server, to compare their outcomes with the fresh runs</td></tr>')
            continue
        out.append(f'<tr class="step-row{" reproduced" if g.fails else ""}" data-step="{g.step}" data-size="{g.size}"'
                   f' data-runs="{g.runs}" data-fails="{g.fails}"><td class="num">{e(g.at[11:19] or g.at)}</td>'
                   f'<td class="num">{g.step}</td><td class="num">{e(_size(g.size, short=True))}</td>'
                   f'<td class="num">{g.runs}</td>'
                   f'<td class="num fails">{g.fails}{e(other)}</td><td>{e_id(g.reason)}</td></tr>')
    out.append("</tbody></table></div></section>")
    return "\n".join(out)


def _size(size: int, short: bool = False) -> str:
    """A step's list as the page says it; a step whose file is missing has size -1."""
    if size < 0:
        return "list file missing"
    return f"{size} + victim" if short else f"{counted(size, 'predecessor')} + victim"


def _evidence_section(p: Page) -> str:
    v = p.verdict
    out = [f'<section id="evidence"><h2>Evidence per {_what(v or {})}</h2>']
    index = {test_id: i for i, test_id in enumerate(p.problem.predecessors)}
    rows: list[tuple[tuple[int, ...], float | None]] = []
    if v is not None and v.get("causes"):
        measure = "pass rate" if v.get("verdict") == "brittle" else "rate"
        out.append(f'<div class="wide"><table id="cause-table"><thead><tr><th>{_what(v)}</th><th>scope</th><th class="num">confidence</th>'
                   f'<th class="num">{measure}</th><th>its evidence</th></tr></thead><tbody>')
        for k, c in enumerate(v["causes"]):
            members = "".join(f'<br><code class="id">{e_id(t)}</code>' for t in c.get("tests", [])
                              if c.get("scope") in ("class", "module"))
            lines = "<br>".join(e_id(line) for line in c.get("evidence", []))
            out.append(f'<tr class="cause{" leader" if k == 0 else ""}"><td class="id">{e_id(c.get("name", ""))}'
                       f'{members}</td><td class="scope">{_role(c)}{e(c.get("scope", ""))}</td>'
                       f'<td class="num">{e(probability(float(c.get("confidence", 0))))}</td>'
                       f'<td class="num">{e(fraction(float(c.get("rate", 0))))}{_each(c)}</td><td>{lines}</td></tr>')
        out.append("</tbody></table></div>")
    elif v is not None and v.get("verdict") in ("polluter", "fails-alone", "undecided"):
        candidates = [(v.get("culprits", []), v.get("confidence")),
                      *((a.get("culprits", []), a.get("probability")) for a in v.get("alternatives", []))]
        for names, prob in candidates:
            if all(n in index for n in names):
                rows.append((tuple(sorted(index[n] for n in names)), None if prob is None else float(prob)))
    else:
        for line in p.lines:
            rows.append((line.culprits, line.points[-1][1] if line.points else None))
    if rows and not (v is not None and v.get("causes")):
        out.append('<div class="wide"><table id="cause-table"><thead><tr><th>cause</th><th class="num">probability</th>'
                   '<th class="num">fails with it before the victim</th><th class="num">fails without it</th>'
                   "</tr></thead><tbody>")
        for k, (culprits, prob) in enumerate(rows):
            wf, wr, of, orr = cause_counts(p.ev, culprits)
            name = " + ".join(p.problem.predecessors[i] for i in culprits) if culprits else "fails on its own"
            with_label = f"{wf}/{wr}" + (" alone" if not culprits else "")
            without = f"{of}/{orr}" + (" with predecessors" if not culprits else "")
            out.append(f'<tr class="cause{" leader" if k == 0 else ""}"><td class="id">{e_id(name)}</td>'
                       f'<td class="num">{"—" if prob is None else e(probability(prob))}</td>'
                       f'<td class="num">{e(with_label)}</td><td class="num">{e(without)}</td></tr>')
        out.append("</tbody></table></div>")
    if v is not None:
        out.append("<p>The verdict's evidence:</p><ul class=\"evidence\">")
        out.extend(f'<li class="id">{e_id(line)}</li>' for line in v.get("evidence", []))
        out.append("</ul>")
        rates = v.get("rates") or {}
        if v.get("verdict") == "fails-alone" and rates:
            out.append(f'<p>Estimated failure rate: <b>{e(fraction(float(rates.get("background", 0))))}</b>, whatever ran'
                       ' before it.</p>')
        elif v.get("verdict") in ("polluter", "undecided") and rates and v.get("culprits"):
            out.append(f'<p>Estimated failure rate: <b>{e(fraction(float(rates.get("with_culprits", 0))))}</b> with the'
                       f' culprit(s), <b>{e(fraction(float(rates.get("background", 0))))}</b> without.</p>')
        if isinstance(v.get("cleaners"), list):
            out.append(_cleaners_table(v["cleaners"]))
    elif not rows:
        out.append('<p class="note">No evidence yet.</p>')
    out.append("</section>")
    return "\n".join(out)


def _cleaners_table(cleaners: list[dict[str, Any]]) -> str:
    """The cleaner hints (bisect --cleaners): tests that, run between a polluter and the victim,
    make it pass."""
    if not cleaners:
        return '<p id="cleaners" class="note">Cleaners: none found (see the evidence above).</p>'
    out = ['<h3>Hints: cleaners</h3><div class="wide"><table id="cleaners"><thead><tr><th>after the polluter</th>'
           '<th>this makes it pass</th><th class="num">pass rate</th><th class="num">confidence</th>'
           "<th>its evidence</th></tr></thead><tbody>"]
    for c in cleaners:
        tests = "<br>".join(f'<code class="id">{e_id(t)}</code>' for t in c.get("tests", []))
        lines = "<br>".join(e_id(line) for line in c.get("evidence", []))
        out.append(f'<tr class="cleaner"><td class="id">{e_id(str(c.get("polluter", "")))}</td><td>{tests}</td>'
                   f'<td class="num">{e(fraction(float(c.get("rate", 0))))}</td>'
                   f'<td class="num">{e(probability(float(c.get("confidence", 0))))}</td><td>{lines}</td></tr>')
    out.append("</tbody></table></div><p>Look at what each of these resets: the polluter leaves that state behind.</p>")
    return "\n".join(out)


def _reproducer_section(p: Page) -> str:
    out = ['<section id="reproduce"><h2>Reproduce it</h2>']
    reproducer = p.hunt.path / "reproducer.txt"
    root = p.hunt.root
    rel = Path(HUNTS) / p.hunt.path.name
    if p.verdict is None or not reproducer.exists():
        out.append('<p class="note">There is no reproducer until the hunt names a cause. The first list is the'
                   " worker's recorded order, in which the failure was recorded:</p>")
        listed = rel / "step-000.txt"
        commands = [f"isolate replay {shlex.quote(str(listed))} --times 20",
                    f"isolate bisect {shlex.quote(p.problem.victim)}    # start or continue the hunt"]
    else:
        ids = read_list(reproducer)
        shown = e_id(str(rel / "reproducer.txt"))
        what = {"polluter": "the culprits then the victim", "fails-alone": "the victim alone, which fails on its own",
                "brittle": "the victim alone, which fails without its state-setters"}.get(str(p.verdict.get("verdict")), "the list")
        out.append(f'<p>The reproducer, {what}: <code class="id">{shown}</code></p>')
        out.append(f'<pre id="reproducer-list">{e("".join(i + chr(10) for i in ids))}</pre>')
        listed = rel / "reproducer.txt"
        commands = [f"isolate replay {shlex.quote(str(listed))} --times 20"]
        if p.kind == "stestr" and stestr_keeps_order(ids):
            commands.append(f"stestr run --serial --load-list {shlex.quote(str(listed))}    {STORES_A_RUN}")
        passing = p.hunt.path / "passing.txt"
        if p.verdict.get("verdict") == "brittle" and passing.exists():  # as the text verdict offers it
            commands.append(f"isolate replay {shlex.quote(str(rel / 'passing.txt'))} --times 20"
                            "    # passes: the state-setter(s) first")
            out.append('<p class="note">Fix: give the victim the setup the state-setter(s) do (setUp, a fixture),'
                       " so that it passes alone.</p>")
        commands.append(f"isolate verify {shlex.quote(p.problem.victim)}    # after a fix: is it gone?")
    out.append(f"<p>From the project directory <code>{e(root)}</code>:</p>")
    out.append(f'<pre id="commands">{e(chr(10).join(commands))}</pre>')
    verified = verified_text(p.hunt)
    if verified:
        out.append(f'<p id="verified"><b>Verified after a fix</b> (<code>isolate verify</code>): {e(verified)}</p>')
    out.append("</section>")
    return "\n".join(out)
