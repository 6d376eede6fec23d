"""Progress of a running hunt: a live status line on a terminal, plain log lines elsewhere.

Overnight hunts run under nohup, cron or CI, where carriage returns and colours only make
the log unreadable, so anything that is not a terminal gets one timestamped line per step.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from isolate.report.verdict import short_name
from isolate.search.model import Observation, Problem
from isolate.search.posterior import Answer
from isolate.words import counted, probability


class Display:
    def __init__(self, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.live = self.stream.isatty() and os.environ.get("TERM") != "dumb"
        self.colour = self.live and "NO_COLOR" not in os.environ
        self.started = time.monotonic()
        self.step_no = 0
        self.size = 0
        self.planned = 0
        self.done = 0
        self.fails = 0
        self.total_runs = 0
        self.total_fails = 0
        self.shown: set[int] = set()  # steps already begun: a list run again keeps its number

    def _elapsed(self) -> str:
        seconds = int(time.monotonic() - self.started)
        return f"{seconds // 3600:d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

    def _write(self, text: str) -> None:
        if self.live:
            self.stream.write("\r\x1b[2K" + text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def info(self, message: str) -> None:
        if self.quiet:
            return
        if self.live:
            self.stream.write("\r\x1b[2K")
        self.stream.write(f"isolate: {message}\n")
        self.stream.flush()

    def warn(self, message: str) -> None:
        if self.live:
            self.stream.write("\r\x1b[2K")
        self.stream.write(f"isolate: warning: {message}\n")
        self.stream.flush()

    def step(self, step: int, size: int, runs: int, reason: str, problem: Problem,
             observations: Sequence[Observation], leaders: Sequence[Answer] = (), lists: int = 1,
             alone: str = "fails alone") -> None:
        """A step begins; with `lists` > 1, a batch of that many lists run together (the first is
        `step` with `size` predecessors; `runs` counts them all).  `alone`: the empty answer in
        words (the state-setter phase's is "passes alone")."""
        self.step_no, self.size, self.planned, self.done, self.fails = step, size, runs, 0, 0
        self.total_runs = sum(o.count for o in observations)
        self.total_fails = sum(o.count for o in observations if o.failed)
        if self.quiet:
            return
        again = " again" if step in self.shown else ""
        self.shown.add(step)
        what = (f"step {step}{again}: {counted(size, 'predecessor')} + victim" if lists == 1
                else f"step {step}{again} and {counted(lists - 1, 'more list')}")
        line = f"[{self._elapsed()}] {what}, up to {counted(runs, 'run')} — {reason}"
        if leaders:
            line += f"\n{'':11}leading: {_suspects(problem, leaders, alone)}"
        if self.live:
            self.stream.write("\r\x1b[2K" + line + "\n")
            self.stream.flush()
            self._status()
        else:
            self._write(line)

    def outcome(self, outcome: Any) -> None:
        self.done += 1
        self.total_runs += 1
        if outcome.reproduced:
            self.fails += 1
            self.total_fails += 1
        if self.quiet:
            return
        if self.live:
            self._status()
        elif outcome.reproduced or outcome.kind not in ("pass", "fail"):
            self._write(f"[{self._elapsed()}]   run {self.done}/{self.planned}: {outcome.kind}"
                        f"{' (reproduced)' if outcome.reproduced else ''} — {outcome.message}")

    def _status(self) -> None:
        bold, plain = ("\x1b[1m", "\x1b[0m") if self.colour else ("", "")
        self._write(f"  {bold}step {self.step_no}{plain}: run {self.done}/{self.planned},"
                    f" {self.fails} reproduced · hunt: {self.total_fails}/{counted(self.total_runs, 'run')} failed"
                    f" · {self._elapsed()}")

    def end(self) -> None:
        if self.live and not self.quiet:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()


def _suspects(problem: Problem, leaders: Sequence[Answer], alone: str = "fails alone") -> str:
    """`fails alone 0.21, test_default_locale 0.01`: the leading answers by their short names
    (after the first, none that would print as 0.00; the first then says "< 0.01")."""
    short = [(" + ".join(short_name(problem.predecessors[i]) for i in a.culprits) or alone, a.probability)
             for k, a in enumerate(leaders) if k == 0 or a.probability >= 0.005]
    return ", ".join(f"{name} {probability(p, 2)}" for name, p in short)
