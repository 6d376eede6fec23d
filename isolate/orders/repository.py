"""Finding stored runs in a stestr (`.stestr/`) or testrepository (`.testrepository/`) repository.

Both tools keep the same layout: a `format` file holding `1`, `next-stream`, and one subunit v1
file per run named by its integer id (ids can have gaps). isolate only ever reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from isolate.errors import UserError

_LAYOUTS = ((".stestr", "stestr"), (".testrepository", "testr"), (".testr", "testr"))


@dataclass(frozen=True)
class Repository:
    """A repository of stored runs and the project directory it belongs to."""

    path: Path
    kind: str

    @property
    def root(self) -> Path:
        return self.path.parent

    def run_ids(self) -> list[int]:
        """Stored run ids, ascending."""
        try:
            return sorted(int(p.name) for p in self.path.iterdir() if p.name.isdigit() and p.is_file())
        except OSError as exc:  # a directory that cannot be listed (mode 100, ...) was a traceback
            raise UserError(f"cannot list the runs in {self.path} ({exc.strerror}); check its permissions") from None

    def run_path(self, run_id: int) -> Path:
        return self.path / str(run_id)

    def resolve_run(self, spec: str, option: str = "--run") -> int:
        """An id from `7`, `last`, or a negative offset from the newest (`-1` is the newest);
        errors name `option`, the option that gave it."""
        ids = self.run_ids()
        if not ids:
            raise UserError(f"{self.path} holds no stored runs; run the suite with {self.kind} first")
        text = spec.strip().lower()
        try:
            number = -1 if text == "last" else int(text)
            if text.startswith("-") and number == 0:  # `-0` read as run 0, the oldest, not an offset
                raise ValueError(text)
        except ValueError:
            raise UserError(
                f"{option} {spec!r} is not a run id; give an integer id, 'last', or -N (-1 = newest)"
            ) from None
        if number < 0:
            if -number > len(ids):
                stored = "1 run is" if len(ids) == 1 else f"{len(ids)} runs are"
                offsets = "-1" if len(ids) == 1 else f"-1 to -{len(ids)}"
                raise UserError(f"{option} {spec}: only {stored} stored ({_span(ids)}); give {offsets}, or an id")
            return ids[number]
        if number not in ids:
            raise UserError(f"run {number} does not exist in {self.path}; stored runs: {_span(ids)}")
        return number


def _span(ids: list[int]) -> str:
    """`0-4, 7, 9-12`: a compact list of ids, for error messages."""
    parts: list[str] = []
    start = prev = ids[0]
    for n in ids[1:] + [None]:  # type: ignore[list-item]
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def find_repository(start: Path | None = None) -> Repository:
    """The repository in `start` or its nearest ancestor that has one (as `git` finds `.git`)."""
    origin = (start or Path.cwd()).resolve()
    if start is not None and not origin.is_dir():
        raise UserError(f"--repo {start} is not a directory; pass the project directory")
    named = dict(_LAYOUTS).get(origin.name)
    if start is not None and named is not None:  # the repository itself: `--repo .testrepository`
        _check_format(origin, named)  # (of a project that has both, as one moving from testr to stestr)
        return Repository(origin, named)
    for directory in (origin, *origin.parents):
        for name, kind in _LAYOUTS:
            candidate = directory / name
            if candidate.is_dir():
                _check_format(candidate, kind)
                return Repository(candidate, kind)
        if start is not None:
            break
    where = f"in {origin}" if start is not None else f"in {origin} or its parents"
    raise UserError(
        f"no .stestr or .testrepository repository found {where};"
        " run 'stestr run' there first, or pass --repo DIR (isolate extract also reads a saved stream"
        " with --stream FILE, and a pytest suite's recording: 'pytest --isolate-record=DIR', then"
        " 'isolate extract --stream DIR')"
    )


def other_repository(repository: Repository) -> Path | None:
    """The project's other repository (`.testrepository` beside `.stestr`), which isolate does not
    read unless `--repo` names it; None when there is none."""
    for name, _ in _LAYOUTS:
        candidate = repository.root / name
        if candidate != repository.path and candidate.is_dir():
            return candidate
    return None


def _check_format(path: Path, kind: str) -> None:
    fmt = path / "format"
    try:
        value = fmt.read_text().strip()
    except FileNotFoundError:
        raise UserError(f"{path} has no 'format' file, so it is not a {kind} repository;"
                        f" re-create it with '{kind} init'") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {fmt} ({exc.__class__.__name__}); check its permissions") from None
    if value != "1":
        raise UserError(f"{path} has repository format {value[:20]!r}, isolate reads format 1;"
                        " upgrade isolate or export the run with 'stestr last --subunit'")
