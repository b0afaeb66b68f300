"""Hands: a small card game that exists only in the tests, to show hidden
information and chance during play working through the one game interface.

Sixteen cards, each an animal with a value (``ant`` 1 ... ``yak`` 16).  At the
start every player is dealt two cards, one draw each, seen only by the
player who gets them.  On their turn a player plays a card from their hand
face up (``play ant``, or just ``ant``) and, while the pile lasts, draws one
card, again seen only by them.  The game ends when the player to move has no
card left; the highest total of played values wins (ties share the win).

What a player must not see: the cards in the other players' hands and the
cards left in the pile (the "next tile").  ``view`` hides both; a view's
position string writes a hidden card as ``?``.

Position: ``<hands> <pile> <played> <to move> <dealing>``, with hands and
played cards ``/``-separated per player (cards ``,``-separated, ``-`` for
none), the pile ``,``-separated (or ``-``), the player to move from 1, and
the players still waiting for a card (``,``-separated, from 1; ``-`` for
none).  ``ant,bee/?,? ?,?,? -/- 1 -`` is player 1's view of a game where
each player holds two cards and three are left.

``register_hands(monkeypatch)`` offers it as the game "hands" for one test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

from engine.base import ChanceEvent, Result, Rules
from engine.errors import GameOverError, IllegalTurnError, MalformedTurnError, PositionError
from notation import registry
from notation.base import Card, Diagram, GameKind, Notation, Zone

ANIMALS = ("ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen",
           "ibis", "jay", "kiwi", "lynx", "mole", "newt", "owl", "yak")
VALUE = {name: n + 1 for n, name in enumerate(ANIMALS)}
HAND = 2
HIDDEN = "?"


@dataclass(frozen=True)
class HandsState:
    hands: tuple[tuple[str, ...], ...]  # per player, sorted by value
    pile: tuple[str, ...]  # left to draw, in ANIMALS order
    played: tuple[tuple[str, ...], ...]  # per player, in the order played
    mover: int  # 0-based
    dealing: tuple[int, ...] = ()  # players waiting for a card, first first


def _sorted(cards: Any) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda c: (c == HIDDEN, VALUE.get(c, 0))))


class HandsGame(Rules[HandsState, str]):
    name = "hands"
    title = "Hands"
    min_players = 2
    max_players = 4
    uses_chance = True

    def initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> HandsState:
        self.check_players(players)
        return HandsState(((),) * players, ANIMALS, ((),) * players, 0,
                          tuple(p for _ in range(HAND) for p in range(players)))

    def players(self, state: HandsState) -> int:
        return len(state.hands)

    def chance(self, state: HandsState) -> ChanceEvent | None:
        if not state.dealing:
            return None
        return ChanceEvent("draw", "draw", 1, state.pile, seen_by=(state.dealing[0],))

    def apply_chance(self, state: HandsState, outcome: tuple[str, ...]) -> HandsState:
        event = self.chance(state)
        if event is None or not event.allows(outcome):
            raise IllegalTurnError(f"no card {' '.join(outcome)} can be drawn now")
        player, card = state.dealing[0], outcome[0]
        hands = list(state.hands)
        hands[player] = _sorted(hands[player] + (card,))
        pile = list(state.pile)
        pile.remove(card)
        return replace(state, hands=tuple(hands), pile=tuple(pile), dealing=state.dealing[1:])

    def to_move(self, state: HandsState) -> int | None:
        if state.dealing or not state.hands[state.mover]:
            return None
        return state.mover

    def legal_turns(self, state: HandsState) -> list[str]:
        if self.to_move(state) is None:
            return []
        return [card for card in state.hands[state.mover] if card != HIDDEN]

    def apply(self, state: HandsState, turn: str) -> HandsState:
        if self.to_move(state) is None:
            raise GameOverError("the game is over; no card can be played")
        hand = state.hands[state.mover]
        if turn not in hand:
            raise IllegalTurnError(f"you hold no {turn}; your cards are {', '.join(hand)}")
        hands, played = list(state.hands), list(state.played)
        rest = list(hand)
        rest.remove(turn)
        hands[state.mover] = tuple(rest)
        played[state.mover] = played[state.mover] + (turn,)
        dealing = (state.mover,) if state.pile else ()
        return HandsState(tuple(hands), state.pile, tuple(played), (state.mover + 1) % len(hands), dealing)

    def forfeit_turn(self, state: HandsState) -> HandsState:
        return self.apply(state, state.hands[state.mover][0])

    def scores(self, state: HandsState) -> tuple[int, ...]:
        return tuple(sum(VALUE[c] for c in cards) for cards in state.played)

    def result(self, state: HandsState) -> Result | None:
        if not self.is_over(state):
            return None
        scores = self.scores(state)
        best = max(scores)
        return Result(tuple(p for p, s in enumerate(scores) if s == best), "highest total", scores)

    def view(self, state: HandsState, player: int | None) -> HandsState:
        hands = tuple(cards if p == player else (HIDDEN,) * len(cards) for p, cards in enumerate(state.hands))
        return replace(state, hands=hands, pile=(HIDDEN,) * len(state.pile))


def _cards(text: str) -> tuple[str, ...]:
    return () if text == "-" else tuple(text.split(","))


def _write(cards: tuple[str, ...]) -> str:
    return ",".join(cards) or "-"


class HandsNotation(Notation[HandsState, str]):
    game = HandsGame()
    turn_examples = ("play ant", "yak")

    def parse_turn(self, state: HandsState, text: str) -> str:
        if self.game.to_move(state) is None:
            raise GameOverError("the game is over; no card can be played")
        cleaned = re.sub(r"^\s*play\s+", "", str(text).strip().lower()).strip()
        if cleaned not in VALUE:
            raise MalformedTurnError(f"cannot read {str(text)[:40]!r}: a Hands turn names a card, such as 'play ant'")
        hand = state.hands[state.mover]
        if cleaned not in hand:
            raise IllegalTurnError(f"you hold no {cleaned}; your cards are {', '.join(hand)}")
        return cleaned

    def format_turn(self, state: HandsState, turn: str) -> str:
        return f"play {turn}"

    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> HandsState:
        wrong = PositionError(f"a Hands position is '<hands> <pile> <played> <to move> <dealing>', "
                              f"such as 'ant,bee/?,? ?,?,? -/- 1 -'; not {str(text)[:60]!r}")
        fields = str(text).split()
        if len(fields) != 5:
            raise wrong
        try:
            hands = tuple(_sorted(_cards(h)) for h in fields[0].split("/"))
            pile = _cards(fields[1])
            played = tuple(_cards(p) for p in fields[2].split("/"))
            mover = int(fields[3]) - 1
            dealing = tuple(int(p) - 1 for p in _cards(fields[4]))
        except ValueError:
            raise wrong from None
        players = len(hands)
        cards = [c for h in hands for c in h] + list(pile) + [c for p in played for c in p]
        known = [c for c in cards if c != HIDDEN]
        if not 2 <= players <= 4 or len(played) != players or not 0 <= mover < players \
                or any(not 0 <= p < players for p in dealing) or len(cards) != len(ANIMALS) \
                or any(c not in VALUE for c in known) or len(set(known)) != len(known) \
                or (HIDDEN not in pile and tuple(sorted(pile, key=VALUE.get)) != pile):
            raise wrong
        return HandsState(hands, pile, played, mover, dealing)

    def format_position(self, state: HandsState) -> str:
        return " ".join((
            "/".join(_write(h) for h in state.hands), _write(state.pile), "/".join(_write(p) for p in state.played),
            str(state.mover + 1), _write(tuple(str(p + 1) for p in state.dealing))))

    def diagram(self, state: HandsState) -> Diagram:
        zones = [Zone("Pile", "pile", (), count=len(state.pile))]
        for player, hand in enumerate(state.hands):
            cards = tuple(Card(face_up=False) if c == HIDDEN else Card(c, player=player) for c in hand)
            zones.append(Zone(f"Player {player + 1}'s hand", "hand", cards))
            zones.append(Zone(f"Played by {player + 1}", "hand",
                              tuple(Card(c, player=player) for c in state.played[player]), beside=True))
        scores = self.game.scores(state)
        caption = ("Totals: " + ", ".join(f"{p + 1}: {s}" for p, s in enumerate(scores)),)
        return Diagram(0, 0, {}, caption, players=len(state.hands), zones=tuple(zones))


NOTATION = HandsNotation()
KIND = GameKind("hands", NOTATION.game, NOTATION, "Hands: a test game with hidden hands and a hidden pile.")


def register_hands(monkeypatch) -> GameKind:
    """Offer Hands as a hosted game until the test ends."""
    monkeypatch.setitem(registry._GAMES, "hands", "hands_game:KIND")
    monkeypatch.setitem(registry._loaded, "hands", KIND)
    return KIND
