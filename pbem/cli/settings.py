"""Command line options that are settings: ``pbem serve --mail-port 2525``
sets ``MAIL_LISTENER_PORT`` for that command exactly as
``PBEM_MAIL_LISTENER_PORT=2525`` would, so the option, the environment
variable and ``pbem.cfg`` are one setting, read and checked in one place
(``pbem.config``).  The command line wins over the environment, which wins
over ``pbem.cfg``."""

from __future__ import annotations

import os
from typing import Any, Callable, TypeVar

import click

#: what a click option decorates: a command, or the function it is made from
FC = TypeVar("FC", bound="Callable[..., Any] | click.Command")


def _as_text(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def set_for_command(ctx: click.Context, variable: str, text: str) -> None:
    """Set the environment ``variable`` while the command runs; the old
    value comes back when it is done."""
    before = os.environ.get(variable)
    os.environ[variable] = text

    def restore() -> None:
        if before is None:
            os.environ.pop(variable, None)
        else:
            os.environ[variable] = before

    ctx.call_on_close(restore)


def setting_option(key: str, *declarations: str, to_text: Callable[[Any], str] = _as_text,
                   **options: Any) -> Callable[[FC], FC]:
    """A click option that sets the config ``key`` (as ``PBEM_<KEY>``) for
    the command when given; its help names the key."""
    variable = f"PBEM_{key}"
    options["help"] = f"{options.get('help', '')} (setting {key}, or ${variable})".strip()

    def store(ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
        if value is not None:
            set_for_command(ctx, variable, to_text(value))
        return value

    return click.option(*declarations, default=None, expose_value=False, callback=store, **options)
