"""The ``pbem`` command line: one click group that gathers the commands of
each part of the project."""

from __future__ import annotations

import click

from pbem.cli_engine import position, record
from pbem.cli_play import play
from pbem.cli_scheduler import scheduler
from pbem.cli_serve import migrate, serve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """pbem: play Icehouse games by email and on the web."""


main.add_command(position)
main.add_command(record)
main.add_command(serve)
main.add_command(migrate)
main.add_command(play)
main.add_command(__import__("pbem.cli_mail", fromlist=["mail"]).mail)
main.add_command(scheduler)
