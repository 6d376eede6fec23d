"""Command line: parses arguments and calls the library. No logic lives here."""

from __future__ import annotations

import click

from isolate import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="isolate")
def main() -> None:
    """Find which earlier tests pollute an intermittently failing test."""


if __name__ == "__main__":
    main()
