"""``pbem position`` and ``pbem record``: the engine and the records on the
command line, for people and tests alike.  GAME is any hosted game."""

from __future__ import annotations

import sys
from itertools import islice
from pathlib import Path
from typing import Any, NoReturn

import click

from engine.base import Rules, settle_from_seed
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


#: stands in front of an argument that starts with '-' but is no option, while click reads the line
_NOT_AN_OPTION = "\0"


def _is_no_option(arg: str) -> bool:
    """An argument such as a Martian Greenhouse position with an empty
    greenhouse (``- 1R1R2R2R3R3R=6 - 7 1 -``): it starts with '-' but what
    would be the option's name holds a space, which no option's does."""
    return arg.startswith("-") and any(c.isspace() for c in arg.split("=", 1)[0])


class _PositionCommand(click.Command):
    """A ``pbem position`` command: an argument that starts with '-' and
    holds a space before any '=' is an argument (a position), not an
    option; ``--`` also ends the options, as everywhere."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        marked = [_NOT_AN_OPTION + a if _is_no_option(a) else a for a in args]
        rest = super().parse_args(ctx, marked)
        for name, value in ctx.params.items():
            if isinstance(value, str):
                ctx.params[name] = value.removeprefix(_NOT_AN_OPTION)
            elif isinstance(value, tuple):
                ctx.params[name] = tuple(v.removeprefix(_NOT_AN_OPTION) if isinstance(v, str) else v for v in value)
        return rest


class _PositionGroup(click.Group):
    command_class = _PositionCommand


@click.group(cls=_PositionGroup)
def position() -> None:
    """Show a position, list its legal turns, apply turns, count perft.

    A position is one argument: quote it.  One that starts with '-' (a
    Martian Greenhouse position whose greenhouse is empty, such as
    '- 1R1R2R2R3R3R=6 - 7 1 -') is read as a position all the same; '--'
    before it works too (options then go before the '--')."""


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
#: ``pbem position legal --all`` writes the turns this many lines at a time
LEGAL_BLOCK = 5000


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
        lazy = getattr(kind.rules, "iter_turns", None)
        turns = lazy(state) if callable(lazy) else iter(kind.rules.legal_turns(state))
        while True:  # written a block at a time: a position may have millions of turns
            block = [kind.notation.format_turn(state, t) for t in islice(turns, LEGAL_BLOCK)]
            if block:
                click.echo("\n".join(block))
            if len(block) < LEGAL_BLOCK:
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
    --seed, the draws and rolls that follow each turn on stderr).  A game
    that draws nothing during play (Martian Greenhouse: only its deal comes
    from the seed) takes no --seed."""
    kind, state = _setup(game, position_text, option)
    if seed and type(kind.rules).chance is Rules.chance:
        name = kind.rules.title or kind.name
        dealt = (f": its deal comes from the seed, so give --seed to 'pbem position start {kind.name}' instead"
                 if kind.rules.uses_chance else "")
        _fail(f"{name} draws and rolls nothing during play, so apply takes no --seed{dealt}")
    for number, text in enumerate(turns, start=ply + 1):
        try:
            turn = kind.notation.parse_turn(state, text)
            state = _settled(kind, kind.rules.apply(state, turn), seed, number)
        except PbemError as error:
            _fail(str(error))
        click.echo(kind.notation.format_position(state))


#: ``pbem position perft`` stops counting past this many leaves unless given --max-leaves
PERFT_LEAVES = 10_000_000
#: ... and says on stderr, to a terminal, that it is still counting when it passes this many
PERFT_NOTICE = 1_000_000


class _TooMany(Exception):
    pass


def _at_a_terminal() -> bool:
    """Is someone watching stderr (the notice that perft is still counting
    is for a person, not for a program reading the output)?"""
    return sys.stderr.isatty()


class _Leaves:
    """Perft's count so far, against its cap."""

    def __init__(self, cap: int) -> None:
        self.cap, self.count, self.told = cap, 0, False

    def add(self, leaves: int) -> None:
        self.count += leaves
        if self.cap and self.count > self.cap:
            raise _TooMany
        if not self.told and self.count > PERFT_NOTICE and (not self.cap or self.cap > PERFT_NOTICE):
            self.told = True
            if not _at_a_terminal():
                return
            limit = f"; it stops past {self.cap:,} (--max-leaves)" if self.cap else ""
            click.echo(f"still counting: over {PERFT_NOTICE:,} leaves so far{limit}", err=True)


def _count_leaves(rules: Any, state: Any, depth: int, leaves: _Leaves) -> None:
    """``rules.count_leaves`` counted into ``leaves``, the turns listed
    lazily where the rules can (Martian Greenhouse has millions)."""
    if depth == 0:
        leaves.add(1)
        return
    if rules.is_over(state):
        return
    lazy = getattr(rules, "iter_turns", None)
    turns = lazy(state) if callable(lazy) else rules.legal_turns(state)
    if depth == 1:
        if isinstance(turns, list):
            leaves.add(len(turns))
        else:
            for block in iter(lambda: sum(1 for _ in islice(turns, 10_000)), 0):
                leaves.add(block)
        return
    for turn in turns:
        _count_leaves(rules, rules.apply(state, turn), depth - 1, leaves)


@position.command("perft")
@click.argument("game")
@click.argument("position_text", metavar="POSITION")
@click.argument("depth", type=click.IntRange(0, 64))
@option_flag
@click.option("--max-leaves", default=PERFT_LEAVES, type=click.IntRange(0), metavar="N", show_default=True,
              help="stop counting past N leaves and say so (0: count them all, however long it takes)")
def position_perft(game: str, position_text: str, depth: int, option: tuple[str, ...], max_leaves: int) -> None:
    """Print the number of leaf nodes DEPTH turns deep.  Past --max-leaves
    leaves it stops and says so (a Martian Greenhouse start has millions of
    turns: perft 2 there would never end)."""
    kind, state = _setup(game, position_text, option)
    leaves = _Leaves(max_leaves)
    try:
        _count_leaves(kind.rules, state, depth, leaves)
    except _TooMany:
        _fail(f"more than {max_leaves:,} leaves {depth} turns deep: stopped counting (give --max-leaves with a "
              "bigger number, or 0 to count them all, however long it takes)")
    except PbemError as error:
        _fail(str(error))
    click.echo(leaves.count)


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
