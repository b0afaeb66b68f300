"""A game record's data and its replay: the ``Record`` of a game, and
playing its turns from its start through the game's rules (``replay``).

Shared by the record formats (``notation.record``, the pbem text and JSON
forms, and ``notation.ataxx_pgn``), which import it; it imports neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.errors import PbemError, RecordError
from notation import registry
from notation.base import GameKind
from notation.quote import quote

#: the record's text for a turn the player forfeited because their time ran
#: out; replaying it applies the game's ``forfeit_turn``
FORFEIT = "--"

#: the tag naming the players put out of the game on time (the ``out``
#: timeout policy): ``[Out "3@17"]``, player 3 was out after turn 17; several
#: separated by spaces.  Their later turns are ``--``.
OUT = "Out"
_OUT_ITEM = re.compile(r"^([1-9][0-9]*)@([0-9]+)$")


@dataclass
class Record:
    """One game: what was played and by whom."""

    game: str
    players: list[str]
    turns: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)
    start: str | None = None  # position string, when not the initial position
    date: str | None = None  # "YYYY.MM.DD", as in PGN
    end_date: str | None = None
    result: str = "*"
    tags: dict[str, str] = field(default_factory=dict)  # any other tags, kept in order
    #: the round number each turn was written under, as read from a text or
    #: JSON record (None where it gave none); replaying checks them
    rounds: list[int | None] = field(default_factory=list)

    @property
    def kind(self) -> GameKind:
        return registry.get_any(self.game)


@dataclass
class Replay:
    """What replaying a record gave."""

    states: list[Any]  # the state before the first turn, then after each
    turns: list[Any]  # the turn values
    texts: list[str]  # canonical texts
    movers: list[int]  # 0-based player who played each turn

    @property
    def final(self) -> Any:
        return self.states[-1]


class BadTurn(RecordError):
    """A turn of a record that cannot be played; names it by number."""

    def __init__(self, number: int, round_number: int, player: int | None, text: str, reason: str):
        self.number = number
        self.round_number = round_number
        self.player = player
        self.text = text
        self.reason = reason
        who = f", player {player + 1}" if player is not None else ""
        super().__init__(f"turn {number} (round {round_number}{who}) {quote(text)}: {reason}")


def outs(record: Record) -> dict[int, int]:
    """The record's ``Out`` tag: 0-based player -> the number of turns
    played when they were put out.  ``RecordError`` when it is malformed."""
    text = record.tags.get(OUT)
    if text is None:
        return {}
    found: dict[int, int] = {}
    for item in text.replace(",", " ").split():
        match = _OUT_ITEM.match(item)
        if not match:
            raise RecordError(f"the {OUT} tag lists players put out on time as PLAYER@TURN, such as "
                              f"'3@17' (player 3, out after turn 17); not {quote(item)}")
        player, after = int(match[1]) - 1, int(match[2])
        if player >= len(record.players):
            raise RecordError(f"the {OUT} tag names player {player + 1}, but the record has {len(record.players)} players")
        if player in found:
            raise RecordError(f"the {OUT} tag names player {player + 1} twice")
        if after > len(record.turns):
            raise RecordError(f"the {OUT} tag puts player {player + 1} out after turn {after}, "
                              f"but the record has {len(record.turns)} turns")
        found[player] = after
    if found and len(found) >= len(record.players):
        raise RecordError(f"the {OUT} tag puts every player out; the last player left wins instead")
    return found


def initial_state(record: Record) -> Any:
    kind = record.kind
    if record.start:
        return kind.notation.parse_position(record.start, record.options)
    return kind.rules.initial_state(len(record.players), record.options)


def replay(record: Record) -> Replay:
    """Play the record's turns from its start; raise ``BadTurn`` naming the
    first turn that cannot be played, or ``RecordError``."""
    kind = record.kind
    try:
        state = initial_state(record)
    except PbemError as error:
        raise RecordError(f"cannot set up the game: {error}") from None
    if kind.rules.players(state) != len(record.players):
        raise RecordError(
            f"the record names {len(record.players)} players but its start position has "
            f"{kind.rules.players(state)}"
        )
    result = Replay([state], [], [], [])
    out = outs(record)
    round_number, last = 1, None
    for number, text in enumerate(record.turns, start=1):
        mover = kind.rules.to_move(state)
        if last is not None and mover is not None and mover <= last:
            round_number += 1
        written = record.rounds[number - 1] if number <= len(record.rounds) else None
        if written is not None and mover is not None and written != round_number:
            raise BadTurn(number, round_number, mover, text,
                          f"it is numbered round {written}, but it is a turn of round {round_number} "
                          f"(a round is one turn of each player in turn order, counted from 1); "
                          f"write it under {round_number}.")
        if mover in out and number > out[mover] and text.strip() != FORFEIT:
            raise BadTurn(number, round_number, mover, text,
                          f"player {mover + 1} was out after turn {out[mover]} (the {OUT} tag), "
                          f"so their turns are {FORFEIT!r}")
        try:
            if text.strip() == FORFEIT:
                turn, canonical, state = None, FORFEIT, _forfeit(kind, state)
            else:
                turn = kind.notation.parse_turn(state, text)
                canonical = kind.notation.format_turn(state, turn)
                state = kind.rules.apply(state, turn)
        except PbemError as error:
            raise BadTurn(number, round_number, mover, text, str(error)) from None
        result.states.append(state)
        result.turns.append(turn)
        result.texts.append(canonical)
        result.movers.append(mover)
        last = mover
    return result


def _forfeit(kind: GameKind, state: Any) -> Any:
    if kind.rules.is_over(state):
        raise RecordError("the game is over; no turn can be forfeited")
    try:
        return kind.rules.forfeit_turn(state)
    except NotImplementedError:
        raise RecordError(f"{kind.name} has no forfeited turns, so {FORFEIT!r} cannot be replayed") from None
