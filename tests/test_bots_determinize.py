"""The bots' determinizations of Taiga and Alheimur: a full position made
from a player's view alone, which that player's view of it gives back,
with the hidden tiles or cards dealt from those the view does not show;
and a bot that decides the same whatever the hidden order is."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.base import settle_from_seed
from engine.bots import choose, random_turn
from engine.bots.hooks import hooks_for
from notation import registry

SEED = "5e" * 32


def _random(game, state, seat: int, ply: int):
    return random_turn(game, game.view(state, seat), ply)


def positions(name: str, plies: int, players: int = 2, seed: str = SEED, pick=_random):
    """The positions of a game of random turns (or ``pick(game, state,
    seat, ply)``'s), settled from ``seed``, each with the player to move,
    up to ``plies`` turns."""
    game = registry.get(name).rules
    state, _ = settle_from_seed(game, game.seeded_state(players, None, seed), seed, 0)
    found = []
    for ply in range(plies):
        seat = game.to_move(state)
        if seat is None:
            break
        found.append((state, seat))
        state = game.apply(state, pick(game, state, seat, ply))
        state, _ = settle_from_seed(game, state, seed, ply + 1)
    return game, found


def test_taiga_determinized_positions_agree_with_the_view():
    game, found = positions("taiga", 30, players=3)
    determinize = hooks_for(game).determinize
    rng = random.Random(1)
    for state, _seat in found:
        for who in range(3):  # the mover's view and the others' (the drawn tile hidden)
            view = game.view(state, who)
            full = determinize(game, view, who, rng)
            assert game.view(full, who) == view
            assert "?" not in full.pile and full.drawn != "?"
            # the hidden tiles are dealt from the tiles the view does not show: the very tiles left
            assert Counter(full.pile) + Counter([full.drawn] if full.drawn else []) \
                == Counter(state.pile) + Counter([state.drawn] if state.drawn else [])
    # searched, a determinized position plays on past the next draw
    state, seat = found[-1]
    full = determinize(game, game.view(state, seat), seat, rng)
    after = game.apply(full, next(iter(game.iter_turns(full))))
    assert game.chance(after) is not None


def _alheimur_building():
    """A two-player Alheimur position in world building, the builder to
    place a card (the piles hidden from everybody)."""
    game, found = positions("alheimur", 12)
    building = [(s, seat) for s, seat in found if s.phase == "build"]
    assert building, "no world-building turn in the first turns"
    return game, found, building


def test_alheimur_determinized_positions_agree_with_the_view():
    game, found, _ = _alheimur_building()
    determinize = hooks_for(game).determinize
    rng = random.Random(2)
    for state, seat in found:
        view = game.view(state, seat)
        full = determinize(game, view, seat, rng)
        assert game.view(full, seat) == view
        assert all("?" not in pile for pile in full.piles)
        hidden = Counter(c for pile in state.piles for c in pile) + Counter(w.orbit_card for w in state.worlds)
        dealt = Counter(c for pile in full.piles for c in pile) + Counter(w.orbit_card for w in full.worlds)
        assert dealt == hidden


@pytest.mark.parametrize("level", ["beginner", "medium", "strongest"])
def test_an_alheimur_bot_decides_the_same_whatever_the_hidden_cards_are(level):
    game, _, building = _alheimur_building()
    state, seat = building[0]
    # the same view, the piles dealt otherwise
    cards = [c for pile in state.piles for c in pile]
    random.Random(3).shuffle(cards)
    dealt = iter(cards)
    changed = replace(state, piles=tuple(tuple(next(dealt) for _ in pile) for pile in state.piles))
    assert changed != state and game.view(changed, seat) == game.view(state, seat)
    for seed in range(2):
        one = choose(game, game.view(state, seat), seat, level, seed=seed, timed=False)
        two = choose(game, game.view(changed, seat), seat, level, seed=seed, timed=False)
        assert one == two


@pytest.mark.parametrize("name", ["taiga", "alheimur"])
def test_the_search_looks_past_the_hidden_draw(name):
    """Searched from a view, the playouts go on past the next draw or card
    (before the determinization they stopped one turn after the bot's)."""
    from engine.bots import mcts

    game, found = positions(name, 8)
    state, seat = next((s, p) for s, p in found if len(mcts.turns_of(game, game.view(s, p))) > 1)
    hooks = hooks_for(game)
    full = hooks.determinize(game, game.view(state, seat), seat, random.Random(4))
    turn = next(iter(game.iter_turns(full)))
    after = mcts.settle_randomly(game, game.apply(full, turn), random.Random(5))
    assert game.is_over(after) or mcts.turns_of(game, after)
