"""The ``pbem`` command line: one click group that gathers the commands of
each part of the project."""

from __future__ import annotations

from typing import Any

import click

from engine.i18n import LANGUAGES, language

# the command modules are imported as modules, so that ``pbem.cli.serve``
# (and the others) stay the modules, not the commands of the same name
from pbem.cli import bot as bot_commands
from pbem.cli import engine as engine_commands
from pbem.cli import mail as mail_commands
from pbem.cli import play as play_commands
from pbem.cli import scheduler as scheduler_commands
from pbem.cli import serve as serve_commands
from pbem.cli.settings import set_for_command
from pbem.config import INSTANCE_VARIABLE, ConfigError


class _Group(click.Group):
    """The ``pbem`` group: a setting that cannot be used (``ConfigError``,
    such as a bad ``PBEM_*`` value) is a clear error, not a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ConfigError as error:
            raise click.ClickException(f"{error}; fix the setting and start again") from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--instance", "instance", metavar="PATH", default=None,
              type=click.Path(file_okay=False, resolve_path=True),
              help=f"the instance folder: database, secret key, pbem.cfg and kept mail "
                   f"(default: ${INSTANCE_VARIABLE}, else instance/ next to the code); made when missing")
@click.option("--language", "language_code", type=click.Choice(LANGUAGES), envvar="PBEM_LANGUAGE",
              default="en", show_default=True,
              help="the language of the games' words the commands print: boards, refusals, record errors "
                   "(default: $PBEM_LANGUAGE, else English)")
@click.pass_context
def main(ctx: click.Context, instance: str | None, language_code: str) -> None:
    """pbem: play Icehouse games by email and on the web."""
    if instance is not None:
        set_for_command(ctx, INSTANCE_VARIABLE, instance)
    ctx.with_resource(language(language_code))


main.add_command(engine_commands.position)
main.add_command(engine_commands.record)
main.add_command(serve_commands.serve)
main.add_command(serve_commands.migrate)
main.add_command(play_commands.play)
main.add_command(mail_commands.mail)
main.add_command(scheduler_commands.scheduler)
main.add_command(bot_commands.bot)
