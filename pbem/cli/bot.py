"""``pbem bot play`` and ``pbem bot match``: the computer opponents on the
command line (``engine.bots``)."""

from __future__ import annotations

import click

from engine.bots import LEVELS, choose
from engine.bots.hooks import level_for
from engine.bots.levels import DEFAULT_LEVEL
from engine.bots.match import match as play_match
from engine.errors import PbemError
from notation import registry
from pbem.cli.engine import _fail, _options, _setup, option_flag

_LEVEL_HELP = ", ".join(LEVELS) + " (some games offer fewer; random plays at random)"


@click.group()
def bot() -> None:
    """The computer opponent: its turn in a position, or a match between levels."""


@bot.command("play")
@click.argument("game")
@click.argument("position_text", metavar="POSITION")
@click.option("--level", "-l", default=DEFAULT_LEVEL, show_default=True, help=f"one of: {_LEVEL_HELP}")
@click.option("--seed", default="0", show_default=True, help="the bot's random seed (same seed, same turn)")
@option_flag
def bot_play(game: str, position_text: str, level: str, seed: str, option: tuple[str, ...]) -> None:
    """Print the bot's turn for the player to move in POSITION (it is
    given only what that player sees)."""
    kind, state = _setup(game, position_text, option)
    try:
        chosen = level_for(kind.rules, level)
    except PbemError as error:
        _fail(str(error))
    seat = kind.rules.to_move(state)
    if seat is None:
        _fail("the game is over in this position; there is no turn to play")
    choice = choose(kind.rules, kind.rules.view(state, seat), seat, chosen, seed=seed)
    click.echo(kind.notation.format_turn(state, choice.turn))
    worth = "" if choice.value is None else f", expects {100 * choice.value:.0f}%"
    click.echo(f"# {chosen.name}: {choice.why}{worth}" + (", and would resign" if choice.resign else ""), err=True)


@bot.command("match")
@click.argument("game")
@click.option("--levels", required=True, metavar="A,B", help=f"two levels, first scored; from: {_LEVEL_HELP}")
@click.option("--games", "-n", default=10, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--players", "-p", default=None, type=click.IntRange(1, 8),
              help="players a game (B takes every seat but A's); default 2, or 1 for a solitaire, "
                   "whose levels play the same deal and are compared by its score")
@click.option("--seed", default="0", show_default=True)
@option_flag
def bot_match(game: str, levels: str, games: int, players: int | None, seed: str, option: tuple[str, ...]) -> None:
    """Play GAMES games of level A against level B (A changing seats) and
    print A's score with its 95% confidence interval."""
    names = [name.strip() for name in levels.split(",")]
    if len(names) != 2:
        _fail(f"--levels names two levels, such as medium,easy; not {levels!r}")
    try:
        kind = registry.get(game)
        for name in names:
            level_for(kind.rules, name)
        options = kind.rules.normalize_options(_options(option))
        if players is None:
            players = max(kind.rules.min_players, min(2, kind.rules.max_players))
        kind.rules.check_players(players)
    except PbemError as error:
        _fail(str(error))
    result = play_match(kind.rules, names[0], names[1], games, seed=seed, players=players, options=options)
    click.echo(f"{kind.rules.title or game}: {result.line()}")
