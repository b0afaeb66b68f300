"""Paired Monte Carlo (``engine/bots/paired.py``): a few candidate turns
compared on the same luck, one dealing of the hidden parts and one stream
of chance per sample for every candidate, within the turn's CPU cap."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.base import settle_from_seed
from engine.bots import paired
from engine.bots.budget import Budget
from engine.bots.hooks import Hooks, hooks_for
from hands_game import ANIMALS, HIDDEN, HandsGame
from test_bots_search import last_piece

SEED = "cd" * 32


def test_the_comparison_finds_the_turn_that_wins():
    game, state, turns, winning = last_piece()
    others = [t for t in turns if t not in winning][:5]
    for seed in range(3):
        found = paired.compare(game, state, 0, others + winning[:1], 4, random.Random(seed), hooks_for(game))
        assert found.turn == winning[0] and found.value == 1.0 and found.samples == 4


def _dealt_hands():
    game = HandsGame()
    state, _ = settle_from_seed(game, game.initial_state(2), SEED, 0)
    return game, game.view(state, 0)


def test_every_candidate_of_a_sample_meets_the_same_hidden_cards_and_draws():
    game, view = _dealt_hands()
    deals: list[int] = []
    seen: list[tuple[tuple[str, ...], tuple[str, ...]]] = []  # (pile left, opponent's hand) per candidate played

    def deal(game, view, seat, rng):
        shown = set(view.hands[seat]) | {c for cards in view.played for c in cards}
        unseen = [c for c in ANIMALS if c not in shown]
        rng.shuffle(unseen)
        theirs = tuple(sorted(unseen[:len(view.hands[1])], key=ANIMALS.index))
        deals.append(1)
        return replace(view, hands=(view.hands[0], theirs), pile=tuple(sorted(unseen[len(theirs):], key=ANIMALS.index)))

    def judge(game, state):
        seen.append((state.pile, state.hands[1]))
        return (0.5, 0.5)

    candidates = game.legal_turns(view)
    assert len(candidates) == 2 and HIDDEN in view.pile
    found = paired.compare(game, view, 0, candidates, 6, random.Random(1),
                           Hooks(determinize=deal, evaluate=judge, playout_plies=0))
    assert found.samples == 6 and len(deals) == 6  # one dealing a sample, not one a candidate
    samples = [seen[i:i + 2] for i in range(0, len(seen), 2)]
    assert len(samples) == 6
    assert all(one == two for one, two in samples)  # the same draw and the same hidden hand for both turns
    assert len({one for one, _ in samples}) > 1  # and the luck changes from sample to sample


def test_the_comparison_stops_within_the_turns_cap_after_one_sample_at_least():
    game, view = _dealt_hands()
    found = paired.compare(game, view, 0, game.legal_turns(view), 100_000, random.Random(1), hooks_for(game),
                           Budget.start(20))
    assert 1 <= found.samples < 100_000
