"""The interface between the Runner and an executor.

The Runner decides what runs (the list, how many repetitions, how many at once, when to stop)
and judges every repetition from the files it left behind. An executor decides where and how one
repetition runs: a fresh local process (local.py), a fork of a warm server (fork.py), or another
machine. Whatever it does, a finished repetition is a :class:`Job` whose directory holds
``stream.subunit`` (the test process's subunit v2 output), ``error.txt`` (why the list could not
run, if it could not) and ``output.txt`` (its stdout and stderr), with its exit status and whether
it was killed for time.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(eq=False)
class Job:
    """One repetition: where its files go, and how it ended (set by the executor)."""

    key: int
    dir: Path
    started: float
    timed_out: bool = False
    returncode: int | None = None
    ended: float = 0.0
    executor: str = "local"  # where it ran: "local", or a Dask worker's address
    folder: Path | None = None  # the working folder it ran in (None: the project's own, not recorded)

    def path(self, name: str) -> Path:
        return self.dir / name


class Executor(ABC):
    """Runs repetitions of lists; at most one call at a time (the Runner's loop)."""

    name = "local"

    @abstractmethod
    def launch(self, job: Job, list_file: Path, ids: list[str]) -> None:
        """Start one repetition of ``ids`` (also written, one per line, to ``list_file``)."""

    @abstractmethod
    def wait(self, until: float | None = None) -> list[Job]:
        """Block until some running jobs end (or are given up for time), or at the latest until
        the ``time.monotonic()`` time ``until``; return those that ended."""

    @abstractmethod
    def kill_all(self, after: float | None = None) -> None:
        """Kill every running job (with ``after``: every one started later than that
        ``time.monotonic()`` time) and forget it; its files may be gone."""

    @property
    @abstractmethod
    def running(self) -> int:
        """How many jobs are launched and not yet returned by :meth:`wait`."""

    def prepare(self, runs: int) -> None:
        """Get ready to hold ``runs`` runs at once (called while none runs)."""

    def capacity(self, ids: Sequence[str] = ()) -> int | None:
        """Runs it can hold at once, when it knows better than this machine's CPUs (a cluster):
        of the machines that can run ``ids``, when given."""
        return None

    def close(self) -> None:
        """Release what the executor holds (servers, watchdogs)."""
