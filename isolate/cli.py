"""Command line: parses arguments and calls the library. No logic lives here."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import click

from isolate import __version__
from isolate.errors import UserError

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, status: int = 2) -> None:
    click.echo(f"isolate: error: {message}", err=True)
    sys.exit(status)


def user_errors(func: F) -> F:
    """Turn a UserError into its one-line message and exit status 2, never a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except UserError as exc:
            fail(str(exc))
        except BrokenPipeError:
            sys.stderr.close()
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="isolate")
def main() -> None:
    """Find which earlier tests pollute an intermittently failing test, or prove it fails alone."""


@main.command()
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@click.option("--limit", default=20, show_default=True, help="Show the newest N runs (0: all).")
@user_errors
def runs(repo: Path | None, limit: int) -> None:
    """List stored runs: tests, failures, workers, and each failure's worker."""
    from isolate.repository import find_repository
    from isolate.runs import format_summaries, summarize

    repository = find_repository(repo)
    ids = repository.run_ids()
    if not ids:
        raise UserError(f"{repository.path} holds no stored runs; run the suite with {repository.kind} first")
    shown = ids[-limit:] if limit > 0 else ids
    click.echo(format_summaries([summarize(repository, run_id) for run_id in shown]))


@main.command()
@click.option("--run", "run_spec", help="Run id, 'last', or -N (-1 = newest). Default: last.")
@click.option("--worker", help="Worker tag, e.g. worker-0. Default: the worker of the failing test.")
@click.option("--test", help="Failing test id. Default: the worker's only failing test.")
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@click.option("--stream", type=click.Path(allow_dash=True, path_type=Path),
              help="Read a saved subunit v1/v2 file ('-' for stdin) instead of a repository.")
@click.option("-o", "--output", type=click.Path(allow_dash=True, path_type=Path),
              help="Also write the list here ('-' for stdout).")
@click.option("--force", is_flag=True, help="Replace an existing hunt for this test.")
@user_errors
def extract(run_spec: str | None, worker: str | None, test: str | None, repo: Path | None,
            stream: Path | None, output: Path | None, force: bool) -> None:
    """Save the order one worker ran, up to the failing test, as a hunt's first candidate list."""
    from isolate.extract import extract_to_hunt

    result = extract_to_hunt(run_spec, worker, test, repo, stream, force, _stdin)
    for warning in result.warnings:
        click.echo(f"isolate: warning: {warning}", err=True)
    if output is not None:
        text = "".join(f"{test_id}\n" for test_id in result.order)
        if str(output) == "-":
            click.echo(text, nl=False)
        else:
            from isolate.hunt import write_atomic

            write_atomic(output, text)
    click.echo(result.summary, err=True)


def _stdin() -> BinaryIO:
    return sys.stdin.buffer


if __name__ == "__main__":
    main()
