"""Paired Monte Carlo (``engine/bots/paired.py``): a few candidate turns
compared on the same luck, one dealing of the hidden parts and one stream
of chance per sample for every candidate, within the turn's CPU cap;
and sequential halving, which gives the better candidates more samples."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hands_game import ANIMALS, HIDDEN, HandsGame
from test_bots_search import last_piece

from engine.base import settle_from_seed
from engine.bots import paired
from engine.bots.budget import Budget
from engine.bots.hooks import Hooks, hooks_for

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


def test_halving_finds_the_turn_that_wins_among_many():
    game, state, turns, winning = last_piece()
    others = [t for t in turns if t not in winning][:9]
    for seed in range(3):
        found = paired.halve(game, state, 0, others + winning[:1], 60, random.Random(seed), hooks_for(game))
        assert found.turn == winning[0] and found.value == 1.0
        assert found.playouts <= 60


class _Numbers:
    """A game of one move whose turns are numbers: after turn n comes the position n."""

    def apply(self, state, turn):
        return turn


def test_halving_gives_the_better_half_more_samples_on_the_same_luck():
    met: dict[int, list[int]] = {turn: [] for turn in range(8)}

    def judge(after, seed):  # turn n is worth n / 10 on any luck
        met[after].append(seed)
        return after / 10

    found = paired.halve_by(_Numbers(), "start", 0, list(range(8)), 240, random.Random(3),
                            lambda game, view, seat, rng: view, judge)
    assert found.turn == 7 and found.value == pytest.approx(0.7)
    counts = [len(met[turn]) for turn in range(8)]
    # 3 rounds of 80 playouts: 10 samples for all 8, 20 more for the best 4, 40 more for the best 2
    assert counts == [10, 10, 10, 10, 30, 30, 70, 70] and found.samples == 70 and found.playouts == 240
    assert met[6] == met[7] and met[4] == met[7][:30] and met[0] == met[7][:10]  # the same luck
    assert len(set(met[7])) == 70


def test_halving_stops_within_the_turns_cap_at_the_best_left():
    game, view = _dealt_hands()
    found = paired.halve(game, view, 0, game.legal_turns(view), 100_000, random.Random(1), hooks_for(game),
                         Budget.start(20))
    assert 1 <= found.samples < 50_000 and found.turn in game.legal_turns(view)
