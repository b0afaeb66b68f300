"""``pbem position`` and ``pbem record``: the engine and the records on the
command line, for people and tests alike.  GAME is any hosted game."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from engine.base import settle_from_seed
from engine.errors import PbemError
from notation import record as records
from notation import registry
from notation.base import GameKind


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


def _options(pairs: tuple[str, ...]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        if "=" not in pair:
            _fail(f"an option is NAME=VALUE, such as spawn=seedling; not {pair!r}")
        key, value = pair.split("=", 1)
        options[key] = value
    return options


def _setup(game: str, position_text: str, option: tuple[str, ...]) -> tuple[GameKind, Any]:
    try:
        kind = registry.get(game)
        return kind, kind.notation.parse_position(position_text, _options(option))
    except PbemError as error:
        _fail(str(error))


option_flag = click.option(
    "--option", "-o", multiple=True, metavar="NAME=VALUE", help="a game option, such as spawn=sapling"
)


@click.group()
def position() -> None:
    """Show a position, list its legal turns, apply turns, count perft."""


@position.command("show")
@click.argument("game")
@click.argument("position_text", metavar="POSITION")
@option_flag
def position_show(game: str, position_text: str, option: tuple[str, ...]) -> None:
    """Print the board as a text diagram."""
    kind, state = _setup(game, position_text, option)
    click.echo(kind.notation.text_diagram(state))


@position.command("start")
@click.argument("game")
@click.argument("players", type=int)
@option_flag
@click.option("--seed", default=None, metavar="HEX",
              help="games that use chance: the seed (64 hex digits) that deals the start")
def position_start(game: str, players: int, option: tuple[str, ...], seed: str | None) -> None:
    """Print the starting position for PLAYERS players (dealt from --seed
    in a game that uses chance, such as greenhouse)."""
    try:
        kind = registry.get(game)
        if kind.rules.uses_chance:
            if not seed:
                _fail(f"{kind.rules.title or kind.name} deals its start from a seed; give --seed and 64 hex digits, "
                      f"such as --seed {'0' * 63}1")
            state = _settled(kind, kind.rules.seeded_state(players, _options(option), seed), seed, 0)
        elif seed:
            _fail(f"{kind.rules.title or kind.name} uses no chance, so it takes no --seed")
        else:
            state = kind.rules.initial_state(players, _options(option))
        click.echo(kind.notation.format_position(state))
    except PbemError as error:
        _fail(str(error))


#: ``pbem position legal`` prints at most this many turns unless given --all
LEGAL_SHOWN = 300


@position.command("legal")
@click.argument("game")
@click.argument("position_text", metavar="POSITION")
@option_flag
@click.option("--all", "everything", is_flag=True,
              help=f"print every legal turn (default: the first {LEGAL_SHOWN}; a game may have millions)")
def position_legal(game: str, position_text: str, option: tuple[str, ...], everything: bool) -> None:
    """Print the legal turns, one per line, in canonical notation: the first
    300 (saying so on stderr when there are more), or every one with --all."""
    kind, state = _setup(game, position_text, option)
    if everything:
        for text in kind.notation.legal_texts(state):
            click.echo(text)
        return
    texts, more = kind.notation.first_legal_texts(state, LEGAL_SHOWN)
    for text in texts:
        click.echo(text)
    if more:
        click.echo(f"... and more: only the first {LEGAL_SHOWN} legal turns are printed; "
                   "give --all to print every one", err=True)


def _settled(kind: Any, state: Any, seed: str | None, ply: int) -> Any:
    """``state`` after the chance events that follow turn ``ply``, decided
    from ``seed`` as the server does, each printed on stderr; without a seed
    the waiting state, saying what chance decides next."""
    event = kind.rules.chance(state)
    if event is None:
        return state
    if not seed:
        click.echo(f"chance decides next ({event.kind} {event.purpose!r}): give --seed (and --ply, the turns "
                   "played before the first turn given) to settle it as the server would", err=True)
        return state
    state, happened = settle_from_seed(kind.rules, state, seed, ply)
    for event, values in happened:
        click.echo(f"chance after turn {ply}: {{{event.purpose} {' '.join(values)}}}", err=True)
    return state


@position.command("apply")
@click.argument("game")
@click.argument("position_text", metavar="POSITION")
@click.argument("turns", nargs=-1, required=True)
@option_flag
@click.option("--seed", default=None, metavar="HEX",
              help="games that draw or roll during play: the seed that decides it, as on the server")
@click.option("--ply", default=0, type=click.IntRange(0), metavar="N",
              help="with --seed: the turns played before the first of TURNS (default 0)")
def position_apply(game: str, position_text: str, turns: tuple[str, ...], option: tuple[str, ...],
                   seed: str | None, ply: int) -> None:
    """Apply TURNS in order; print the position after each (and, with
    --seed, the draws and rolls that follow each turn on stderr)."""
    kind, state = _setup(game, position_text, option)
    for number, text in enumerate(turns, start=ply + 1):
        try:
            turn = kind.notation.parse_turn(state, text)
            state = _settled(kind, kind.rules.apply(state, turn), seed, number)
        except PbemError as error:
            _fail(str(error))
        click.echo(kind.notation.format_position(state))


@position.command("perft")
@click.argument("game")
@click.argument("position_text", metavar="POSITION")
@click.argument("depth", type=click.IntRange(0, 64))
@option_flag
def position_perft(game: str, position_text: str, depth: int, option: tuple[str, ...]) -> None:
    """Print the number of leaf nodes DEPTH turns deep."""
    kind, state = _setup(game, position_text, option)
    click.echo(kind.rules.count_leaves(state, depth))


@click.group()
def record() -> None:
    """Check and replay game records (text or JSON)."""


def _read(path: str) -> records.Record:
    try:
        text = Path(path).read_text(encoding="utf-8") if path != "-" else sys.stdin.read()
    except (OSError, UnicodeDecodeError) as error:
        _fail(f"cannot read {path}: {error}")
    try:
        return records.read(text)
    except PbemError as error:
        _fail(f"{path}: {error}")


def _summary(kind: GameKind, played: records.Replay) -> str:
    final = played.final
    outcome = kind.rules.result(final)
    result = "*" if outcome is None else outcome.tag()
    return f"{kind.notation.format_position(final)}\nresult: {result}"


@record.command("check")
@click.argument("file")
def record_check(file: str) -> None:
    """Check every turn of FILE; name the first bad one by its number."""
    rec = _read(file)
    try:
        played = records.check(rec)
    except PbemError as error:
        _fail(f"{file}: {error}")
    click.echo(f"ok: {len(played.turns)} turns, result {rec.result}")


@record.command("replay")
@click.argument("file")
def record_replay(file: str) -> None:
    """Replay FILE; print the final position and the result."""
    rec = _read(file)
    try:
        played = records.replay(rec)
    except PbemError as error:
        _fail(f"{file}: {error}")
    click.echo(_summary(rec.kind, played))


@record.command("convert")
@click.argument("file")
@click.option("--to", "fmt", type=click.Choice(["text", "json"]), default="text")
def record_convert(file: str, fmt: str) -> None:
    """Print FILE as a canonical text or JSON record."""
    rec = _read(file)
    try:
        click.echo(records.write_json(rec) if fmt == "json" else records.write_text(rec), nl=False)
    except PbemError as error:
        _fail(f"{file}: {error}")
