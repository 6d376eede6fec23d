"""Command line: parses arguments and calls the library. No logic lives here."""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import click

from isolate import __version__
from isolate.errors import UserError
from isolate.words import counted

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
        except OSError as exc:
            if exc.errno not in OUTPUT_FULL:  # isolate's own files say which one (UserError)
                raise
            _output_failed(exc)

    return wrapper  # type: ignore[return-value]


OUTPUT_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)  # writing stdout can end so


def _output_failed(exc: OSError) -> None:
    """stdout could not be written (a full disk, /dev/full): one line, status 2, and nothing
    left buffered for Python to fail on again at exit."""
    _drop_stdout()
    fail(f"cannot write the output ({exc.strerror}); free disk space or redirect it elsewhere")


ADDRESS = re.compile(r"([a-z][a-z0-9+.-]*://)?[^\s/:]+:\d+|inproc://\S+")  # what a Dask scheduler listens on
PLAN_RUNS = 5  # runs of the victim, stored or the hunt's, that `isolate plan TEST` estimates its rate from


def _file_to_write(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """A file to write, as a Path; an empty name, which a Path reads as the current folder (". is
    a directory"; QA), is refused as empty."""
    if value is not None and not value.strip():
        raise click.BadParameter("the file name is empty; give a file name, or '-' for stdout")
    return None if value is None else Path(value)


def _scheduler(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--scheduler, or ISOLATE_SCHEDULER: blank is unset; from the environment, where the user may
    not remember setting it, an address of no known shape is named as the variable's fault."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    if (ctx.get_parameter_source(param.name or "") is click.core.ParameterSource.ENVIRONMENT
            and not ADDRESS.fullmatch(value)):
        raise click.BadParameter(f"ISOLATE_SCHEDULER={value!r} is no Dask scheduler address (such as"
                                 " tcp://HOST:8786); fix it, or 'unset ISOLATE_SCHEDULER' to run here")
    return value


class _FlagPair(click.Option):
    """A `--x/--no-x` flag that refuses both given at once: click keeps only the last one, so
    `--fork-server --no-fork-server` silently meant the second. Taken as a multiple option (click
    then keeps every spelling given, in order), more than one value is a usage error (one line,
    exit 2); none given is None. The cast is where click turns a value into the option's, on the
    command line and in ctx.invoke alike (`resume`), so both read None when the flag is absent."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["multiple"] = True
        super().__init__(*args, **kwargs)

    def type_cast_value(self, ctx: click.Context, value: Any) -> Any:
        given = super().type_cast_value(ctx, value) or ()
        if len(set(given)) > 1:
            raise click.UsageError(f"{self.opts[0]} and {self.secondary_opts[0]} contradict each other (the"
                                   " last would win); give one of them", ctx)
        return given[0] if given else None


class _Group(click.Group):
    """click's usage errors, like isolate's own, as one line with the fix and exit status 2."""

    def main(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        try:
            status = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        except click.UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare `isolate`: show the help
                click.echo(exc.ctx.get_help() if exc.ctx else "")
                sys.exit(0)
            where = exc.ctx.command_path if exc.ctx else "isolate"
            fail(f"{exc.format_message().rstrip('.')}; see '{where} --help'")
        except click.Abort:
            # (a Ctrl-C before a command's own handler, or a second one during its clean-up, QA)
            click.echo("isolate: interrupted; a hunt keeps every finished run: the same command resumes it", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            fail(exc.format_message())
        _flush_output()
        sys.exit(status if isinstance(status, int) else 0)


def _flush_output() -> None:
    """What is still buffered for stdout, written now: a full disk (or /dev/full) behind a
    redirection is an error with its one line, not a quiet exit 0; a reader that went away
    (`isolate status | head -1`) is not."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()
    except OSError as exc:
        _output_failed(exc)


def _drop_stdout() -> None:
    """stdout to /dev/null from here: what is still buffered is discarded, so Python's own flush
    at exit has nothing left to fail on."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="isolate")
def main() -> None:
    """Find which earlier tests pollute an intermittently failing test, or prove it fails alone."""


@main.command()
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@click.option("--stream", type=click.Path(allow_dash=True, path_type=Path),
              help="A saved subunit stream, a recording directory ('pytest --isolate-record'), or '-' for stdin,"
                   " instead of the repository's runs.")
@click.option("--limit", type=click.IntRange(min=0), default=20, show_default=True, help="Show the newest N runs (0: all).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@user_errors
def runs(repo: Path | None, stream: Path | None, limit: int, as_json: bool) -> None:
    """List stored runs: tests, failures, workers, and each failure's worker."""
    from isolate.orders.repository import find_repository, other_repository
    from isolate.orders.runs import format_summaries, summaries_json, summarize, summarize_stream

    if stream is not None:
        if repo is not None:
            raise UserError("--repo and --stream both name a source; pass only one")
        one = summarize_stream(stream, _stdin)
        click.echo(summaries_json([one]) if as_json else format_summaries([one]))
        return
    repository = find_repository(repo)
    other = other_repository(repository)
    if other is not None:  # QA: a project moving from testr to stestr saw only one, and no way to the other
        click.echo(f"isolate: note: runs of {repository.path.name}; this project also has {other.name} (--repo"
                   f" {other} lists its runs)", err=True)
    ids = repository.run_ids()
    if not ids:
        raise UserError(f"{repository.path} holds no stored runs; run the suite with {repository.kind} first")
    shown = ids[-limit:] if limit > 0 else ids
    summaries = [summarize(repository, run_id) for run_id in shown]
    click.echo(summaries_json(summaries) if as_json else format_summaries(summaries))
    if len(shown) < len(ids):  # QA: the failing run of "once in thirty" was among those hidden, unsaid
        click.echo(f"isolate: note: the newest {len(shown)} of {len(ids)} runs; --limit 0 lists all, --limit N the"
                   " newest N", err=True)


@main.command()
@click.option("--run", "run_spec", help="Run id, 'last', or -N (-1 = newest). Default: last.")
@click.option("--worker", help="Worker tag, e.g. worker-0 (stestr/testr) or gw1 (pytest-xdist). Default: the failing test's.")
@click.option("--test", help="Failing test id. Default: the worker's only failing test.")
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@click.option("--stream", type=click.Path(allow_dash=True, path_type=Path),
              help="Read a saved subunit v1/v2 file ('-' for stdin) instead of a repository.")
@click.option("-o", "--output", type=click.Path(allow_dash=True), callback=_file_to_write,
              help="Also write the list here ('-' for stdout).")
@click.option("--force", is_flag=True, help="Replace an existing hunt for this test.")
@user_errors
def extract(run_spec: str | None, worker: str | None, test: str | None, repo: Path | None,
            stream: Path | None, output: Path | None, force: bool) -> None:
    """Save the order one worker ran, up to the failing test, as a hunt's first candidate list."""
    from isolate.files import check_target
    from isolate.hunt.start import extract_to_hunt

    if output is not None and str(output) != "-":
        check_target(output)  # before the hunt is written: a bad -o leaves no half-made hunt
    result = extract_to_hunt(run_spec, worker, test, repo, stream, force, _stdin)
    for warning in result.warnings:
        click.echo(f"isolate: warning: {warning}", err=True)
    if output is not None:
        text = "".join(f"{test_id}\n" for test_id in result.order)
        if str(output) == "-":
            click.echo(text, nl=False)
        else:
            from isolate.files import write_atomic

            write_atomic(output, text)
    click.echo(result.summary, err=True)


@main.command()
@click.argument("list_file", metavar="LIST", type=click.Path(path_type=Path))
@click.option("--times", type=int, help="Repetitions (default 1; with --until-failure: no limit).")
@click.option("--until-failure", is_flag=True, help="Stop all jobs at the first reproduction.")
@click.option("--jobs", type=int, help="Repetitions at once (default: number of CPUs).")
@click.option("--timeout", type=float, help="Seconds per repetition; the process group is killed.")
@click.option("--target", help="The test judged (default: the list's last id).")
@click.option("--any-failure", is_flag=True, help="Count any failure of the target, not only the recorded one.")
@click.option("--signature-from", type=click.Path(path_type=Path),
              help="File with the recorded traceback (default: failure.txt of the list's hunt directory).")
@click.option("--fork-server", is_flag=True,
              help="Start Python once, fork per repetition (faster; children share the str hash seed).")
@click.option("--discover-all", is_flag=True, help="Import the whole test tree first, as stestr does.")
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@click.option("--pytest-arg", "pytest_args", multiple=True, metavar="ARG",
              help="Pass ARG to pytest in every repetition (pytest projects; repeatable).")
@click.option("--scheduler", envvar="ISOLATE_SCHEDULER", metavar="ADDRESS", callback=_scheduler,
              help="Run repetitions on this Dask cluster, e.g. tcp://HOST:8786 (env ISOLATE_SCHEDULER; not stored).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary.")
@user_errors
def replay(list_file: Path, times: int | None, until_failure: bool, jobs: int | None, timeout: float | None,
           target: str | None, any_failure: bool, signature_from: Path | None, fork_server: bool,
           discover_all: bool, repo: Path | None, pytest_args: tuple[str, ...], scheduler: str | None,
           as_json: bool) -> None:
    """Run LIST in exactly its order in fresh processes; exit 1 if the target failed the recorded way."""
    from isolate.running import replay as replaying

    result = replaying.replay(
        list_file, times=times, until_failure=until_failure, jobs=jobs, timeout=timeout, target=target,
        any_failure=any_failure, signature_from=signature_from, mode="fork" if fork_server else "fresh",
        discover_all=discover_all, project_dir=repo, progress=sys.stderr if sys.stderr.isatty() else None,
        pytest_args=pytest_args, scheduler=scheduler,
    )
    click.echo(replaying.format_json(result) if as_json else replaying.format_text(result))
    if result.stopped:
        click.echo(f"isolate: error: {result.stopped}", err=True)
    sys.exit(replaying.exit_status(result))


class Duration(click.ParamType):
    """`90`, `90s`, `30m`, `1h30m`, `1.5h`, `8h` → seconds."""

    name = "duration"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)):
            return float(value)
        import re

        text = str(value).strip().lower()
        parts = re.fullmatch(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s?)?", text)
        if not text or parts is None:
            self.fail(f"{value!r} is not a duration; write e.g. 90s, 30m, 1h30m or 8h", param, ctx)
        hours, minutes, seconds = (float(g) if g else 0.0 for g in parts.groups())  # type: ignore[union-attr]
        total = hours * 3600 + minutes * 60 + seconds
        if not 0 < total < float("inf"):
            self.fail(f"{value!r} is not a positive finite duration", param, ctx)
        return total


class Seconds(click.ParamType):
    """A finite number of seconds > 0 (nan and inf are refused: a timeout of either never ends)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds; pass e.g. 60", param, ctx)
        if not 0 < seconds < float("inf"):
            self.fail(f"{value!r} is not a finite number of seconds > 0; pass e.g. 60", param, ctx)
        return seconds


@main.command()
@click.argument("test")
@click.option("--confidence", type=float, help="Stop when the answer is this likely (default 0.99).")
@click.option("--step-budget", type=Duration(), help="Most time one step may take, e.g. 20m.")
@click.option("--time-budget", type=Duration(), help="Wall time for the whole hunt, across resumes, e.g. 8h.")
@click.option("--max-runs", type=click.IntRange(min=1), help="Most repetitions for the whole hunt.")
@click.option("--jobs", type=click.IntRange(min=1), help="Repetitions at once (default: number of CPUs).")
@click.option("--timeout", type=Seconds(), help="Seconds per repetition (default: generous, from the recorded durations).")
@click.option("--strategy", type=click.Choice(["isolate", "single", "manual"]),
              help="isolate (every cause, Bayesian; default), single (one cause only) or manual (the halving recipe).")
@click.option("--further", type=click.FloatRange(0, 1), metavar="FRACTION",
              help="After each cause, rule out further causes down to this fraction of its rate (default 1; 0: stop at the first).")
@click.option("--cleaners/--no-cleaners", cls=_FlagPair, default=None,
              help="After a polluter verdict, find the tests that, run between it and the victim, make it pass (hints; kept for resumes).")
@click.option("--scan/--no-scan", cls=_FlagPair, default=None,
              help="After a polluter verdict, run every other predecessor alone before the victim (a one-by-one"
                   " scan): finds causes a later test undoes, which no list of the rest shows (kept for resumes).")
@click.option("--fork-server/--no-fork-server", cls=_FlagPair, default=None,
              help="Fork per repetition from one started Python (faster; children share the str hash seed), or"
                   " always start a fresh process. Default: fresh, then fork once a check on the hunt's own"
                   " lists shows the same outcomes (kept for resumes).")
@click.option("--any-failure", is_flag=True, default=None, help="Count any failure of the victim, not only the recorded one.")
@click.option("--weak-polluters/--no-weak-polluters", cls=_FlagPair, default=None,
              help="Before saying the victim fails on its own, rule out a polluter raising its failure rate 2-10x as"
                   " firmly as a stronger one (by default such a one is held 10 times less likely beforehand, and"
                   " about half of those raising it 2.5x are missed); costs 2-3x the runs (kept for resumes).")
@click.option("--repeat-victim", "repeat", type=click.IntRange(1, 100), metavar="K",
              help="Run the victim K times at the end of every run, in the same process: more"
                   " evidence per start-up, checked against a victim that changes its own odds (set when the"
                   " hunt starts; stored runs are then not evidence). Default: 10, started by themselves once"
                   " 2 runs passed or a cause proved flaky; 1 keeps single runs.")
@click.option("--pytest-arg", "pytest_args", multiple=True, metavar="ARG",
              help="Pass ARG to pytest in every run (pytest projects; repeatable; kept for resumes).")
@click.option("--history", "history_paths", multiple=True, metavar="PATH",
              help="Also take the victim's runs in this saved stream or recording as evidence (repeatable).")
@click.option("--history-since", metavar="RUN", help="Use stored runs from this run id (or -N) on only.")
@click.option("--no-history", is_flag=True, default=None, help="Do not use stored runs as evidence.")
@click.option("--run", "run_spec", help="Extract from this run first (as isolate extract --run).")
@click.option("--worker", help="With --run: the worker tag.")
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@click.option("--scheduler", envvar="ISOLATE_SCHEDULER", metavar="ADDRESS", callback=_scheduler,
              help="Run repetitions on this Dask cluster, e.g. tcp://HOST:8786 (env ISOLATE_SCHEDULER; not stored).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the verdict.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@user_errors
def bisect(test: str, confidence: float | None, step_budget: float | None, time_budget: float | None,
           max_runs: int | None, jobs: int | None, timeout: float | None, strategy: str | None,
           further: float | None, cleaners: bool | None, scan: bool | None, fork_server: bool | None, any_failure: bool | None, weak_polluters: bool | None,
           repeat: int | None, pytest_args: tuple[str, ...],
           history_paths: tuple[str, ...], history_since: str | None, no_history: bool | None,
           run_spec: str | None, worker: str | None, repo: Path | None, scheduler: str | None,
           quiet: bool, as_json: bool) -> None:
    """Hunt down what makes TEST fail: resumable; every step is saved in .isolate/<hunt>/.

    Exit status: 0 polluter found, 3 fails on its own, 4 not reproduced, 5 undecided within
    the budget, 6 brittle (a state-setter found), 2 usage error, 130 interrupted (run the same
    command again to resume).
    """
    from isolate.hunt import loop as hunting
    from isolate.hunt.settings import project_kind
    from isolate.hunt.store import repeat_of
    from isolate.hunt.start import open_hunt
    from isolate.report.progress import Display
    from isolate.report.verdict import EXIT, as_text

    if scheduler and fork_server:  # (one stored by an earlier session is left aside on Dask: make_runner)
        raise UserError("the fork server cannot run on Dask workers; fix: drop --fork-server or --scheduler")
    hunt = open_hunt(test, run_spec, worker, repo)
    options = {"confidence": confidence, "step_budget": step_budget, "time_budget": time_budget,
               "max_runs": max_runs, "jobs": jobs, "timeout": timeout, "strategy": strategy,
               "further": further, "cleaners": cleaners, "scan": scan, "mode": None if fork_server is None else ("fork" if fork_server else "fresh"),
               "any_failure": any_failure, "weak_polluters": weak_polluters, "repeat": repeat, "pytest_args": list(pytest_args) or None,
               "history": None if no_history is None else not no_history,
               "history_paths": [os.path.abspath(p) for p in history_paths] or None,  # (resolved, <(cmd) is no path)
               "history_since": history_since}
    display = Display(quiet=quiet or as_json)
    try:
        result = hunting.hunt_loop(hunt, options, display,
                                   lambda h: hunting.make_runner(h, scheduler, display.warn))
    except hunting.Interrupted as stop:
        display.end()
        resume = f"isolate bisect {shlex.quote(hunt.victim)}"
        if scheduler:  # else a resume would run the rest here, not on the cluster
            resume += f" --scheduler {shlex.quote(scheduler)}"
        if as_json:
            click.echo(json.dumps({"verdict": "interrupted", "victim": hunt.victim, "runs_this_session": stop.runs,
                                   "hunt": str(hunt.path), "resume": resume}, indent=2))
        click.echo(f"isolate: interrupted after {counted(stop.runs, 'run')} this session; the journal keeps them."
                   f" Resume with: {resume}", err=True)
        sys.exit(130)
    display.end()
    if as_json:
        click.echo(json.dumps(result.data, indent=2))
    else:
        kind = project_kind(result.hunt)
        click.echo(as_text(result.problem, result.verdict, result.hunt.path, result.reproducer, kind,
                           result.data["seconds"], result.data["history_runs"], result.data.get("cleaners"),
                           result.data.get("ignored_outcomes"), repeat_of(result.hunt),
                           tuple(str(f) for f in result.data.get("findings") or ())))
    sys.exit(EXIT[result.verdict.kind])


@main.command()
@click.argument("test")
@click.option("--quiet", "-q", is_flag=True, help="Print only the verdict.")
@click.option("--scheduler", envvar="ISOLATE_SCHEDULER", metavar="ADDRESS", callback=_scheduler,
              help="Run repetitions on this Dask cluster, e.g. tcp://HOST:8786 (env ISOLATE_SCHEDULER; not stored).")
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@click.pass_context
def resume(ctx: click.Context, test: str, scheduler: str | None, quiet: bool, repo: Path | None,
           as_json: bool) -> None:
    """Continue the hunt for TEST with its stored settings (the same as running bisect again)."""
    ctx.invoke(bisect, test=test, scheduler=scheduler, quiet=quiet, repo=repo, as_json=as_json, pytest_args=(),
               history_paths=())


@main.command()
@click.argument("test", required=False)
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@user_errors
def status(test: str | None, repo: Path | None) -> None:
    """Where each hunt stands: state, candidates, leading suspect, runs, time spent and left."""
    from isolate.hunt.store import broken_hunts, hunts_for, hunts_root
    from isolate.report.status import format_status, statuses

    root = hunts_root(repo)
    broken = broken_hunts(root) if root is not None and test is None else []
    shown, unreadable = statuses(hunts_for(root, test), alone=test is not None)
    for problem in [*broken, *unreadable]:
        click.echo(f"isolate: warning: {problem}", err=True)
    if shown or not broken:
        click.echo(format_status(shown))


@main.command()
@click.argument("test")
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@user_errors
def log(test: str, repo: Path | None) -> None:
    """The steps of the hunt for TEST: which list, how many runs, how many reproduced, why."""
    from isolate.hunt.store import hunts_for, hunts_root
    from isolate.report.status import log_lines

    [hunt] = hunts_for(hunts_root(repo), test)
    click.echo("\n".join(log_lines(hunt)))


@main.command()
@click.argument("test")
@click.option("--html", "html_file", type=click.Path(allow_dash=True), callback=_file_to_write, required=True,
              help="Write the report here ('-' for stdout): one self-contained HTML file.")
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@user_errors
def report(test: str, html_file: Path, repo: Path | None) -> None:
    """A self-contained HTML report of the hunt for TEST: suspicion over runs, steps, evidence."""
    from isolate.files import write_atomic
    from isolate.hunt.store import hunts_for, hunts_root
    from isolate.report.html import render

    [hunt] = hunts_for(hunts_root(repo), test)
    page = render(hunt)
    if str(html_file) == "-":
        click.echo(page, nl=False)
        return
    try:
        write_atomic(html_file, page)
    except OSError as exc:
        raise UserError(f"cannot write {html_file} ({exc.strerror}); pass a writable path or '-'") from None
    click.echo(f"wrote {html_file}", err=True)


@main.command()
@click.argument("test")
@click.option("--confidence", type=click.FloatRange(0.5, 1, max_open=True), default=0.99,
              show_default=True, help="How sure the passes must make 'fixed' (0.5 to below 1, as bisect's).")
@click.option("--jobs", type=click.IntRange(min=1), help="Repetitions at once (default: the hunt's, or CPUs).")
@click.option("--timeout", type=Seconds(), help="Seconds per repetition (default: the hunt's).")
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@user_errors
def verify(test: str, confidence: float, jobs: int | None, timeout: float | None, repo: Path | None,
           as_json: bool) -> None:
    """After a fix: re-run the hunt's reproducer and original list until it fails or is shown fixed.

    Exit status: 0 fixed, 1 still fails (or inconclusive), 2 usage error, 130 interrupted
    (run the same command again to continue the count).
    """
    from isolate.hunt import verify as verifying
    from isolate.hunt.loop import Interrupted
    from isolate.hunt.store import hunts_for, hunts_root
    from isolate.report.verification import EXIT, as_data, as_text

    [hunt] = hunts_for(hunts_root(repo), test)

    def say(line: str) -> None:
        click.echo(line, err=True)

    def warn(line: str) -> None:
        click.echo(f"isolate: warning: {line}", err=True)

    try:
        result = verifying.verify(hunt, confidence=confidence, jobs=jobs, timeout=timeout,
                                  say=(lambda line: None) if as_json else say, warn=warn)
    except Interrupted as stop:
        # --confidence is not stored: the same command must carry it, or the count goes on at 0.99
        resume = f"isolate verify {shlex.quote(hunt.victim)}" + (f" --confidence {confidence!r}" if confidence != 0.99 else "")
        if as_json:
            click.echo(json.dumps({"verdict": "interrupted", "victim": hunt.victim, "runs_this_session": stop.runs,
                                   "hunt": str(hunt.path), "resume": resume}, indent=2))
        click.echo(f"isolate: interrupted after {counted(stop.runs, 'run')} this session; {verifying.JOURNAL} keeps them."
                   f" Continue with: {resume}", err=True)
        sys.exit(130)
    click.echo(json.dumps(as_data(result), indent=2) if as_json else as_text(result))
    sys.exit(EXIT[result.verdict])


@main.command()
@click.argument("test")
@click.argument("step", metavar="STEP")
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@user_errors
def backtrack(test: str, step: str, repo: Path | None) -> None:
    """Restart the hunt for TEST from the evidence up to STEP; later runs are set aside, not deleted."""
    from isolate.hunt.backtrack import backtrack as set_aside
    from isolate.hunt.store import hunts_for, hunts_root

    if not step.isdigit():
        raise UserError(f"STEP {step!r} is not a step number; give one of 0 or more, as 'isolate log TEST' lists them")
    [hunt] = hunts_for(hunts_root(repo), test)
    click.echo(set_aside(hunt, int(step), _warn))


@main.command()
@click.argument("test", required=False)
@click.option("--repo", type=click.Path(path_type=Path), help="Project directory (default: here or a parent).")
@click.option("--tests", "tests", type=click.IntRange(min=1),
              help="Predecessors of the failing test (default: the hunt's, with TEST).")
@click.option("--rate", type=click.FloatRange(0, 1, min_open=True),
              help="How often it fails with the polluter before it, e.g. 0.033 for 1 in 30 (default, with TEST:"
                   " how often it failed in the stored runs and the hunt's runs of its whole list).")
@click.option("--duration", type=click.FloatRange(min=0),
              help="Seconds per test (default: the recorded mean of the hunt's predecessors with TEST, else 0.2).")
@click.option("--startup", type=click.FloatRange(min=0),
              help="Seconds of start-up per run (default, with TEST: as the hunt's runs measured it, 0.5 before"
                   " any run; else 1).")
@click.option("--confidence", type=click.FloatRange(0.5, 1, max_open=True), default=0.99, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@user_errors
def plan(test: str | None, repo: Path | None, tests: int | None, rate: float | None, duration: float | None,
         startup: float | None, confidence: float, as_json: bool) -> None:
    """Predict runs and time of a hunt before starting it, for isolate's search and the manual recipe.
    With TEST, the numbers of its extracted hunt (options given win)."""
    from isolate.search import plan as planning

    if test is not None:
        from isolate.hunt.evidence import plan_inputs
        from isolate.hunt.store import hunts_for, hunts_root

        [hunt] = hunts_for(hunts_root(repo), test)
        got = plan_inputs(hunt, with_rate=rate is None)
        tests = got.tests if tests is None else tests
        duration = got.duration if duration is None else duration
        if startup is None:
            startup = got.startup
            if not got.measured:
                _warn(f"start-up {startup:g} s a run is a guess until the hunt has run; give --startup SECONDS")
        if rate is None:
            rate = _estimated_rate(got.failures, got.runs)
    elif tests is None:
        raise UserError("give the hunt's test (isolate plan TEST) or its size (--tests N --rate R)")
    elif rate is None:
        raise UserError("give how often the test fails with the polluter before it: --rate R (0.033 for 1 in 30)")
    result = planning.plan(tests, rate, duration=0.2 if duration is None else duration,
                           startup=1.0 if startup is None else startup, confidence=confidence)
    click.echo(planning.to_json(result) if as_json else planning.format_text(result))


def _estimated_rate(failures: int, runs: int) -> float:
    """The victim's failure rate for `isolate plan TEST`, from its stored runs and the hunt's runs
    of its whole list; too few of them is an error asking for --rate."""
    if runs < PLAN_RUNS:
        raise UserError(f"the victim ran {counted(runs, 'time')} to estimate its failure rate from (stored runs"
                        f" and runs of its whole list; {PLAN_RUNS} needed): give --rate R (0.033 for 1 in 30)")
    rate = failures / runs
    # executions, not runs (QA: "51 of 178 runs" of a hunt of 110 runs, its whole list's K-fold)
    click.echo(f"isolate: rate {rate:.3g}: the victim failed {failures} of the {counted(runs, 'time')} it ran (once"
               " in each stored run, every execution in the hunt's runs of its whole list); with the polluter always"
               " before it the rate may be higher: give --rate R", err=True)
    return rate


def _warn(message: str) -> None:
    click.echo(f"isolate: warning: {message}", err=True)


def _stdin() -> BinaryIO:
    return sys.stdin.buffer


if __name__ == "__main__":
    main()
