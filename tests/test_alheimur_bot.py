"""Alheimur's bot hooks: a playout's turn picked without listing the
position's turns is a legal turn, of any kind the position offers; the
starting colonists are placed so that they survive; its three levels
play as they say (a beginner's glance at a few turns, medium's tree search,
strongest's comparison of the turns best at a glance, only of turns that
lead to different positions)."""

from __future__ import annotations

import random

from test_bots_determinize import positions as shared_positions

from engine.alheimur.bot import distinct, random_turn, survivors
from engine.alheimur.pieces import Civilize, Expand, Turn
from engine.alheimur.setup import world_name
from engine.bots import choose

SEEDS = [f"{n:02x}" * 32 for n in range(1, 120, 17)]


def _playout_or_beginner(game, state, seat: int, ply: int):
    """The playouts' turn in play; in the setup a beginner bot's (a random
    setup loses its colonists at once)."""
    return random_turn(game, state, random.Random(ply)) or choose(game, game.view(state, seat), seat, "beginner",
                                                                 seed=ply, timed=False).turn


def positions(seed: str, plies: int = 80):
    """The positions of a two-player game played so, settled from ``seed``."""
    return shared_positions("alheimur", plies, seed=seed, pick=_playout_or_beginner)


def test_a_playouts_turn_in_play_is_legal_and_of_every_kind_the_position_offers():
    in_play = []
    for seed in SEEDS:
        game, found = positions(seed)
        in_play += [(state, seat) for state, seat in found if state.phase == "play"]
    assert len(in_play) >= 20
    kinds: set[str] = set()
    for index, (state, _) in enumerate(in_play):
        rng = random.Random(index)
        for _ in range(30):
            turn = random_turn(game, state, rng)
            assert isinstance(turn, Turn)
            game.apply(state, turn)  # raises when the turn is not legal
            assert len(turn.expansion) + len(turn.moves) <= 1
            if turn.expansion:
                kinds.add("civilize" if isinstance(turn.expansion[0], Civilize) else "expand")
                assert isinstance(turn.expansion[0], (Expand, Civilize))
            elif turn.moves:
                kinds.add(type(turn.moves[0]).__name__)
            else:
                kinds.add("nothing")
    assert {"nothing", "expand", "civilize", "Migrate"} <= kinds, kinds


def test_setup_turns_are_listed_not_picked():
    game, found = positions(SEEDS[0])
    setup = [state for state, _ in found if state.phase in ("build", "colonists")]
    assert setup
    assert all(random_turn(game, state, random.Random(0)) is None for state in setup)


def test_a_bots_starting_colonists_all_survive_the_first_survival_check():
    for seed in SEEDS[:3]:
        game, found = positions(seed, plies=12)
        placing = [(state, seat) for state, seat in found if state.phase == "colonists"]
        assert placing
        for state, seat in placing:
            turn = choose(game, game.view(state, seat), seat, "beginner", seed=0).turn
            after = survivors(game.apply(state, turn))
            world = after.world(world_name(seat))
            assert sum(1 for _, piece in world.pieces if piece.owner == seat) == 3, turn


def test_medium_compares_only_turns_that_lead_to_different_positions():
    game, found = positions(SEEDS[1])
    views = [game.view(state, seat) for state, seat in found if state.phase == "play"]
    view, turns = next((view, turns) for view in views if 50 < len(turns := game.legal_turns(view)) < 1000)
    afters = [game.apply(view, turn) for turn in turns]
    assert len(set(afters)) < len(turns)  # some turns repeat another
    kept = distinct(game, view, turns, len(turns))
    assert len(kept) == len(set(afters))
    assert len({game.apply(view, turn) for turn in kept}) == len(kept)
    first = [turn for turn, after in zip(turns, afters) if afters.index(after) == turns.index(turn)]
    assert kept == first  # the earliest of each, in order
    assert distinct(game, view, turns, 3) == first[:3]


def test_the_three_levels_glance_search_and_compare_and_an_older_games_hard_bot_plays_as_strongest(monkeypatch):
    import engine.alheimur.bot as alheimur_bot
    from engine.bots.hooks import offered

    game, found = positions(SEEDS[1])
    assert offered(game) == ("beginner", "medium", "strongest")
    view, seat = next((game.view(state, seat), seat) for state, seat in found
                      if state.phase == "play" and len(game.legal_turns(game.view(state, seat))) > 200)
    compared = {}
    real_halve = alheimur_bot.paired.halve

    def halve(game, view, seat, candidates, playouts, rng, hooks, budget=None):
        compared[playouts] = len(candidates)
        return real_halve(game, view, seat, candidates, playouts, rng, hooks, budget)

    monkeypatch.setattr(alheimur_bot.paired, "halve", halve)
    glanced = choose(game, view, seat, "beginner", seed=3, timed=False)
    assert glanced.why == "the best of a few turns at a glance" and glanced.turn in game.legal_turns(view)
    searched = choose(game, view, seat, "medium", seed=3, timed=False)
    assert searched.why == "search" and searched.playouts == 40
    strongest = choose(game, view, seat, "strongest", seed=3, timed=False)
    assert strongest.why == "the turns best at a glance, halved on the same luck"
    assert strongest.turn in game.legal_turns(view) and compared == {300: 10}
    assert choose(game, view, seat, "hard", seed=3, timed=False) == strongest
    assert choose(game, view, seat, "easy", seed=3, timed=False) == searched
