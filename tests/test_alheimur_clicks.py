"""Alheimur played by clicking (``notation/alheimur/clicks.py``): its answers
are those of the generic scan over every legal turn (``notation.clicks``)
wherever that scan sees every turn, and stay whole where there are far too
many turns to scan."""

from __future__ import annotations

import random
from functools import cache
from itertools import islice

from alheimur_selfplay import GAME, play_game, random_turn

from notation.alheimur import AlheimurNotation
from notation.alheimur import clicks as alheimur_clicks
from notation.clicks import SCAN_LIMIT
from notation.clicks import click_options as generic

NOTATION = AlheimurNotation()


@cache
def positions_in_play() -> tuple:
    """Positions in play (no chance pending) of seeded random games of 2, 3
    and 4 players, every few plies."""
    found = []
    for players in (2, 3, 4):
        seed = f"{players:02x}c1" * 16 + "ab" * 8
        states = []
        play_game(players, seed[:64], random.Random(players), limit=90,
                  check=lambda s: states.append(s) if s.phase == "play" and GAME.chance(s) is None else None)
        found += states[::5]
    return tuple(found)


def turns_at_most(state, most: int) -> list | None:
    """The legal turns of ``state``, or None when more than ``most``."""
    turns = list(islice(GAME.iter_turns(state), most + 1))
    return None if len(turns) > most else turns


class Listed:
    """The notation as the generic scan sees it, over a list of turns made
    once (the scan asks for them again at each answer)."""

    def __init__(self, state, turns: list) -> None:
        self.texts = [NOTATION.format_turn(state, t) for t in turns]
        self.clicks = [NOTATION.turn_clicks(state, t) for t in turns]
        self.game = self
        self.iter_turns = lambda _state: iter(range(len(turns)))

    def turn_clicks(self, _state, index: int) -> tuple[str, ...]:
        return self.clicks[index]

    def format_turn(self, _state, index: int) -> str:
        return self.texts[index]


def same_answer(state, listed: Listed, prefix: tuple[str, ...], budget: int):
    mine = alheimur_clicks.click_options(NOTATION, state, prefix, budget)
    theirs = generic(listed, state, prefix)
    assert not theirs.cut
    assert set(mine.next) == set(theirs.next) and len(mine.next) == len(theirs.next), (prefix, mine, theirs)
    assert mine.complete == theirs.complete, (prefix, mine, theirs)
    if not mine.cut:
        assert (mine.text, mine.count) == (theirs.text, theirs.count), (prefix, mine, theirs)
    else:  # counted up to the budget only; the shared text found without counting
        assert budget == mine.count < theirs.count and mine.text == theirs.text, (prefix, mine, theirs)
    return mine


def test_the_answers_are_those_of_the_scan_over_every_turn():
    """On positions with few enough turns to list them all, every prefix of
    up to three clicks (a sample of them) gets the scan's next clicks,
    completed turns, shared text and count (the next clicks in the walk's
    order); counting fewer turns changes only the count, marked cut."""
    checked = 0
    few = [(s, t) for s in positions_in_play() for t in [turns_at_most(s, 600)] if t is not None]
    for state, turns in few:  # as many positions as it takes
        if checked >= 48:
            break
        listed = Listed(state, turns)
        frontier = [()]
        for _depth in range(4):
            deeper = []
            for prefix in frontier:
                answer = same_answer(state, listed, prefix, SCAN_LIMIT)
                same_answer(state, listed, prefix, 20)
                checked += 1
                deeper += [(*prefix, c) for c in answer.next]
            frontier = random.Random(len(deeper)).sample(deeper, min(len(deeper), 12))
    assert checked >= 48, f"only {checked} prefixes on {len(few)} positions"


def test_a_position_with_too_many_turns_to_scan_offers_every_turn_by_clicking():
    """Mid-game, where the generic scan would stop at its limit long before
    turns of several items: random legal turns of many items are each
    reached by walking their clicks through the answers (each click offered,
    the last one completing the turn)."""
    crowded = [s for s in positions_in_play() if s.turns >= 20 and turns_at_most(s, 300) is None]
    rng = random.Random(7)
    walked = 0
    for state in crowded[::5][:2]:
        for _ in range(2):
            turn = random_turn(state, rng)
            clicks = NOTATION.turn_clicks(state, turn)
            text = NOTATION.format_turn(state, turn)
            for step in range(len(clicks)):
                answer = NOTATION.click_options(state, clicks[:step])
                assert clicks[step] in answer.next, (text, clicks[:step], answer.next)
                assert text.startswith(answer.text), (text, answer.text)
            assert text in NOTATION.click_options(state, clicks).complete
            walked += len(clicks) > 4
    assert walked
