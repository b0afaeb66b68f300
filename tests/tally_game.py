"""Tally: a tiny game for 2 to 8 players that exists only in the tests, to
show the server, records and diagrams working with eight players.

Each player in turn writes ``mark`` or ``pass``; once everyone has played,
the players who marked share the win (nobody marked: a draw).  Position:
``<players> <one of m, p or - per player>``, such as ``8 m---m--m``.  Its
diagram shows a stone of each player's colour for every player who marked
and a pyramid for every player who has not played yet.

``register_tally(monkeypatch)`` offers it as the game "tally" for one test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from engine.base import Result, Rules
from engine.errors import GameOverError, MalformedTurnError, PositionError
from notation import registry
from notation.base import Diagram, GameKind, Notation, Piece


@dataclass(frozen=True)
class TallyState:
    plays: tuple[str, ...]  # per player: "m" marked, "p" passed, "-" not yet


class TallyGame(Rules[TallyState, str]):
    name = "tally"
    title = "Tally"
    min_players = 2
    max_players = 8

    def initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> TallyState:
        self.check_players(players)
        return TallyState(("-",) * players)

    def players(self, state: TallyState) -> int:
        return len(state.plays)

    def to_move(self, state: TallyState) -> int | None:
        return state.plays.index("-") if "-" in state.plays else None

    def legal_turns(self, state: TallyState) -> list[str]:
        return [] if self.to_move(state) is None else ["mark", "pass"]

    def apply(self, state: TallyState, turn: str) -> TallyState:
        mover = self.to_move(state)
        if mover is None:
            raise GameOverError("the game is over")
        plays = list(state.plays)
        plays[mover] = "m" if turn == "mark" else "p"
        return TallyState(tuple(plays))

    def forfeit_turn(self, state: TallyState) -> TallyState:
        return self.apply(state, "pass")

    def result(self, state: TallyState) -> Result | None:
        if self.to_move(state) is not None:
            return None
        return Result(tuple(p for p, play in enumerate(state.plays) if play == "m"), "marks")


class TallyNotation(Notation[TallyState, str]):
    game = TallyGame()
    turn_examples = ("mark", "pass")

    def parse_turn(self, state: TallyState, text: str) -> str:
        if self.game.to_move(state) is None:
            raise GameOverError("the game is over; no turn can be played")
        cleaned = str(text).strip().lower()
        if cleaned not in ("mark", "pass"):
            raise MalformedTurnError(f"cannot read {text!r}: a Tally turn is 'mark' or 'pass'")
        return cleaned

    def format_turn(self, state: TallyState, turn: str) -> str:
        return turn

    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> TallyState:
        match = re.fullmatch(r"([2-8]) ([mp-]{2,8})", str(text).strip())
        if not match or int(match[1]) != len(match[2]):
            raise PositionError(f"a Tally position is the player count and m, p or - per player, such as '3 mp-'; "
                                f"not {text!r}")
        return TallyState(tuple(match[2]))

    def format_position(self, state: TallyState) -> str:
        return f"{len(state.plays)} {''.join(state.plays)}"

    def diagram(self, state: TallyState) -> Diagram:
        cells = {}
        for player, play in enumerate(state.plays):
            if play == "m":
                cells[(player, 0)] = Piece("stone", str(player + 1), player)
            elif play == "-":
                cells[(player, 0)] = Piece("pyramid", str(player + 1), player, 2)
        return Diagram(len(state.plays), 1, cells, (f"{state.plays.count('m')} marked",), players=len(state.plays))


NOTATION = TallyNotation()
KIND = GameKind("tally", NOTATION.game, NOTATION, "Tally: a test game for up to eight players.")


def register_tally(monkeypatch) -> GameKind:
    """Offer Tally as a hosted game until the test ends."""
    monkeypatch.setitem(registry._GAMES, "tally", "tally_game:KIND")
    monkeypatch.setitem(registry._loaded, "tally", KIND)
    return KIND
