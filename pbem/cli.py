"""The ``pbem`` command line: one click group that gathers the commands of
each part of the project."""

from __future__ import annotations

import click

from pbem.cli_engine import position, record
from pbem.cli_serve import serve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """pbem: play Icehouse games by email and on the web."""


main.add_command(position)
main.add_command(record)
main.add_command(serve)
