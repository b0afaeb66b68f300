"""Thousands of random Attactics games for 2, 3 and 4 players, checking
Attactics' own invariants after every turn: every player owns 15 pyramids,
five of each size, on the board or in their stash; the player to move has a
piece and a legal turn; a finished game has a winner by ruling 10.  (The
pyramids a player has on the board are counted from their stash, so the
first invariant is what keeps the scores and the ending right.)  The text
round trips every game must keep are in ``test_game_contract.py``."""

from __future__ import annotations

import random

import pytest

from engine.attactics.board import PIECES
from notation import registry

KIND = registry.get("attactics")
GAME, NOTATION = KIND.rules, KIND.notation
GAMES = {2: 900, 3: 700, 4: 600}  # 2200 games in all
MAX_TURNS = 24  # turns per game at most; games end sooner when someone wins


def check(state) -> None:
    for player in range(state.players):
        counts = state.board_counts(player)
        assert all(counts[k] + state.stashes[player][k] == 5 for k in range(3)), (player, counts, state.stashes)
    on_board = [state.on_board(p) for p in range(state.players)]
    if state.to_move is None:
        winner = state.winner
        assert on_board[winner] == PIECES or [p for p in range(state.players) if on_board[p]] == [winner]
    else:
        assert on_board[state.to_move] > 0
        assert sum(1 for n in on_board if n) >= 2 and max(on_board) < PIECES


@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_self_play_keeps_the_invariants(players):
    rng = random.Random(players)
    endings: dict[str, int] = {}
    for _ in range(GAMES[players]):
        state = GAME.initial_state(players)
        for _ in range(MAX_TURNS):
            turns = GAME.legal_turns(state)
            assert turns, NOTATION.format_position(state)  # nobody with a piece ever has to pass
            turn = rng.choice(turns)
            state = GAME.apply(state, turn)
            check(state)
            if state.to_move is None:
                reason = GAME.result(state).reason
                endings[reason] = endings.get(reason, 0) + 1
                break
    assert endings.get("the only player with pyramids on the board", 0) > 0


def test_long_games_reach_all_fifteen_on_the_board():
    """Games steered towards cloning reach the other ending, too."""
    rng = random.Random(15)
    wins = 0
    for _ in range(12):
        state = GAME.initial_state(2)
        for _ in range(200):
            turns = GAME.legal_turns(state)
            clones = [t for t in turns if type(t).__name__ == "Move" and abs(t.frm - t.to) in (1, 7, 8, 9)]
            turn = rng.choice(clones if clones and rng.random() < 0.9 else turns)
            state = GAME.apply(state, turn)
            check(state)
            if state.to_move is None:
                wins += GAME.result(state).reason == "all 15 pyramids on the board"
                break
    assert wins > 0
