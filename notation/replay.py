"""A game record's data and its replay: the ``Record`` of a game, and
playing its turns from its start through the game's rules (``replay``).

Shared by the record formats (``notation.record``, the pbem text and JSON
forms, and ``notation.ataxx.pgn``), which import it; it imports neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.base import ChanceEvent, settle
from engine.errors import PbemError, RecordError
from engine.i18n import _
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


#: an outcome a record's reader may not see (a card drawn into another
#: player's hand): written ``?`` in the player's view of a record
HIDDEN = "?"


@dataclass(frozen=True)
class Outcome:
    """What one chance event gave, as a record writes it: the event's
    ``purpose`` and the ``values`` drawn or rolled, in order (``?`` where
    the record's reader may not see them)."""

    purpose: str
    values: tuple[str, ...]

    @property
    def hidden(self) -> bool:
        return HIDDEN in self.values


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
    #: chance outcomes as they happened: ``chance[0]`` those before the
    #: first turn, ``chance[n]`` those right after turn ``n``; shorter lists
    #: mean no outcomes after the later turns
    chance: list[list[Outcome]] = field(default_factory=list)

    def outcomes_after(self, ply: int) -> list[Outcome]:
        """The outcomes written after turn ``ply`` (0: before the first)."""
        return self.chance[ply] if ply < len(self.chance) else []

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
    #: the chance events and outcomes, indexed like ``Record.chance``
    events: list[list[tuple[ChanceEvent, tuple[str, ...]]]] = field(default_factory=list)
    #: the position the record starts from, before the chance events that
    #: come before the first turn (``states[0]`` is after them)
    origin: Any = None

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
        if player is None:
            super().__init__(_("turn {number} (round {round}) {text}: {reason}", number=number, round=round_number,
                               text=quote(text), reason=reason))
        else:
            super().__init__(_("turn {number} (round {round}, player {player}) {text}: {reason}", number=number,
                               round=round_number, player=player + 1, text=quote(text), reason=reason))


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
            raise RecordError(_("the {tag} tag lists players put out on time as PLAYER@TURN, such as '3@17' (player "
                                "3, out after turn 17); not {item}", tag=OUT, item=quote(item)))
        player, after = int(match[1]) - 1, int(match[2])
        if player >= len(record.players):
            raise RecordError(_("the {tag} tag names player {player}, but the record has {players} players", tag=OUT,
                                player=player + 1, players=len(record.players)))
        if player in found:
            raise RecordError(_("the {tag} tag names player {player} twice", tag=OUT, player=player + 1))
        if after > len(record.turns):
            raise RecordError(_("the {tag} tag puts player {player} out after turn {after}, but the record has "
                                "{turns} turns", tag=OUT, player=player + 1, after=after, turns=len(record.turns)))
        found[player] = after
    if found and len(found) >= len(record.players):
        raise RecordError(_("the {tag} tag puts every player out; the last player left wins instead", tag=OUT))
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
        raise RecordError(_("cannot set up the game: {error}", error=error)) from None
    if kind.rules.players(state) != len(record.players):
        raise RecordError(_("the record names {players} players but its start position has {start}",
                            players=len(record.players), start=kind.rules.players(state)))
    origin = state
    state, happened = _settle(record, state, 0, None)
    result = Replay([state], [], [], [], [happened], origin)
    out = outs(record)
    round_number, last = 1, None
    for number, text in enumerate(record.turns, start=1):
        mover = kind.rules.to_move(state)
        if last is not None and mover is not None and mover <= last:
            round_number += 1
        written = record.rounds[number - 1] if number <= len(record.rounds) else None
        if written is not None and mover is not None and written != round_number:
            raise BadTurn(number, round_number, mover, text,
                          str(_("it is numbered round {written}, but it is a turn of round {round} (a round is one "
                                "turn of each player in turn order, counted from 1); write it under {round}.",
                                written=written, round=round_number)))
        if mover in out and number > out[mover] and text.strip() != FORFEIT:
            raise BadTurn(number, round_number, mover, text,
                          str(_("player {player} was out after turn {after} (the {tag} tag), so their turns are "
                                "{forfeit}", player=mover + 1, after=out[mover], tag=OUT, forfeit=repr(FORFEIT))))
        if mover is None and _waits_on_hidden(kind, state):
            raise BadTurn(number, round_number, mover, text, str(_view_reason(None)))
        try:
            if text.strip() == FORFEIT:
                turn, canonical, state = None, FORFEIT, _forfeit(kind, state)
            else:
                turn = kind.notation.parse_turn(state, text)
                canonical = kind.notation.format_turn(state, turn)
                state = kind.rules.apply(state, turn)
        except PbemError as error:
            raise BadTurn(number, round_number, mover, text, str(error)) from None
        if mover is None:  # a turn read and played where no one is to move: the game's notation let it in
            raise BadTurn(number, round_number, mover, text, str(_("the game is over; no turn can be played")))
        state, happened = _settle(record, state, number, (number, round_number, mover, text))
        result.events.append(happened)
        result.states.append(state)
        result.turns.append(turn)
        result.texts.append(canonical)
        result.movers.append(mover)
        last = mover
    return result


def _settle(record: Record, state: Any, ply: int, turn: tuple[int, int, int | None, str] | None,
            ) -> tuple[Any, list[tuple[ChanceEvent, tuple[str, ...]]]]:
    """The state after the chance events that follow turn ``ply`` (0: the
    start), their outcomes read from the record, which must give each one
    exactly, and no more."""
    written = record.outcomes_after(ply)
    where = str(_("before the first turn") if turn is None else _("after it"))

    def fail(reason: Any) -> RecordError:
        if turn is None:
            return RecordError(_("the chance outcomes before the first turn: {reason}", reason=reason))
        return BadTurn(*turn, str(reason))

    def outcome(event: ChanceEvent, k: int) -> tuple[str, ...]:
        if k >= len(written):
            found = {"purpose": event.purpose, "count": event.count, "where": where,
                     "form": f"{{{event.purpose} ...}}"}
            raise fail(_("the game draws here ({purpose}, {count}), but the record gives no outcome {where}; "
                         "write it as {form}", **found) if event.kind == "draw" else
                       _("the game rolls here ({purpose}, {count}), but the record gives no outcome {where}; "
                         "write it as {form}", **found))
        given = written[k]
        if given.hidden:
            raise fail(_view_reason(given))
        if given.purpose != event.purpose:
            raise fail(_("the record gives {given} where the game's next chance event is {event}",
                         given=f"{{{given.purpose} ...}}", event=f"{{{event.purpose} ...}}"))
        if not event.allows(given.values):
            raise fail(_("{outcome} is not a possible outcome: {possible}",
                         outcome=f"{{{given.purpose} {' '.join(given.values)}}}", possible=_possible(event)))
        return given.values

    try:
        state, happened = settle(record.kind.rules, state, outcome)
    except RecordError:
        raise
    except PbemError as error:
        raise fail(str(error)) from None
    if len(happened) < len(written):
        extra = written[len(happened)]
        if extra.hidden or _waits_on_hidden(record.kind, state):
            raise fail(_view_reason(extra))
        raise fail(_("the record gives {outcome} {where}, but the game waits for no chance event there",
                     outcome=f"{{{extra.purpose} {' '.join(extra.values)}}}", where=where))
    return state, happened


def _view_reason(outcome: Outcome | None) -> Any:
    """Why a player's copy of a game still going on does not replay: it
    hides an ``outcome`` (``{draw ?}``), or what the game would draw from
    (to check ``outcome``, or to go on at all)."""
    if outcome is None:
        return _("the record's position hides what the game draws next: it is a player's view of a game still "
                 "going on, which cannot be replayed; the full record is given once the game is over")
    written = f"{{{outcome.purpose} {' '.join(outcome.values)}}}"
    if outcome.hidden:
        return _("the record hides the outcome {outcome}: it is a player's view of a game still going on, which "
                 "cannot be replayed; the full record is given once the game is over", outcome=written)
    return _("the record's position hides what the game draws from, so {outcome} cannot be checked: it is a "
             "player's view of a game still going on, which cannot be replayed; the full record is given once the "
             "game is over", outcome=written)


def _waits_on_hidden(kind: GameKind, state: Any) -> bool:
    """Whether ``state`` is a player's view waiting on what it hides: the
    game is not over, no one is to move and no chance event can be decided
    (Taiga's draw from a pile written ``?*69``).  A full state always has
    one or the other until the game ends."""
    rules = kind.rules
    return rules.uses_chance and rules.to_move(state) is None and not rules.is_over(state) \
        and rules.chance(state) is None


def _possible(event: ChanceEvent) -> str:
    if event.kind == "roll":
        return str(_("1 die of {sides} faces, 1 to {sides}", sides=event.sides) if event.count == 1 else
                   _("{count} dice of {sides} faces, each 1 to {sides}", count=event.count, sides=event.sides))
    left = sorted(set(event.items))
    shown = ", ".join(left[:12]) + (f" ... ({len(left)})" if len(left) > 12 else "")
    return str(_("{count} drawn from what is left: {items}", count=event.count, items=shown))


def _forfeit(kind: GameKind, state: Any) -> Any:
    if kind.rules.is_over(state):
        raise RecordError(_("the game is over; no turn can be forfeited"))
    try:
        return kind.rules.forfeit_turn(state)
    except NotImplementedError:
        raise RecordError(f"{kind.name} has no forfeited turns, so {FORFEIT!r} cannot be replayed") from None
