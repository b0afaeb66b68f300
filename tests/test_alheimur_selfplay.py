"""Random self-play for 2, 4 and 8 players: every game ends, and after
every ply each player owns exactly 15 pyramids (stash, worlds and ships),
no marine is larger than its transport, and the player to move is in."""

import random

import pytest
from alheimur_selfplay import GAME, play_game

from engine.alheimur.pieces import PER_SIZE, SIZES

#: games per player count (the 8-player ones are the slow ones)
GAMES = {2: 6, 4: 4, 8: 2}


def check(state):
    for player in range(state.players):
        stash = state.stash(player)
        assert all(0 <= stash[s] <= PER_SIZE for s in SIZES), (player, stash)
    for ship in state.all_ships():
        assert 1 <= ship.size <= 3 and 0 <= ship.marine <= ship.size and not (ship.fighter and ship.marine)
    for world in state.worlds:
        assert len({t for t, _ in world.pieces}) == len(world.pieces)
    mover = GAME.to_move(state)
    if state.phase == "play":
        assert not state.is_out(mover)
    if state.phase == "over":
        assert mover is None and GAME.result(state) is not None


@pytest.mark.parametrize("players", [2, 4, 8])
def test_random_games_end_and_keep_every_invariant(players):
    for game in range(GAMES[players]):
        seed = f"{players:02x}{game:02x}" * 16
        state, plies = play_game(players, seed, random.Random(game), limit=3000, check=check)
        assert GAME.is_over(state), (players, game, plies)
        ranking = GAME.ranking(state)
        assert sorted(p for group in ranking for p in group) == list(range(players))
