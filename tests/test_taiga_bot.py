"""Taiga's bot (``engine/taiga/bot.py``): two levels; the beginner
searches only the turns the money ranks best straight after them,
strongest plays the turn best by its prospects; every level decides from
its view alone, and one the game does not offer (the default, medium, and
an older game's easy or hard) plays as strongest."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from test_bots_determinize import positions

from engine.bots import LEVELS, choose, mcts
from engine.bots.hooks import level_for, offered, played_as
from engine.errors import OptionError
from engine.taiga import bot
from notation import registry


def _crowded(count: int = 3, searched: int = bot.SEARCHED["beginner"]):
    """Positions of a random game with more turns than the bot searches."""
    game, found = positions("taiga", 40)
    crowded = [(s, seat) for s, seat in found
               if len(mcts.turns_of(game, game.view(s, seat))) > searched][::4][:count]
    assert len(crowded) == count, "too few positions with many turns"
    return game, crowded


def test_the_searched_turns_are_those_the_evaluation_ranks_best():
    game, crowded = _crowded()
    for state, seat in crowded:
        view = game.view(state, seat)
        turns = mcts.turns_of(game, view)
        kept = bot.narrowed(game, view, seat, turns, random.Random(1))
        assert len(kept) == bot.SEARCHED["beginner"] and len(set(map(repr, kept))) == len(kept)
        worth = {repr(t): bot.evaluate(game, game.apply(view, t))[seat] for t in turns}
        dropped = [worth[repr(t)] for t in turns if repr(t) not in {repr(k) for k in kept}]
        assert min(worth[repr(t)] for t in kept) >= max(dropped), (kept, dropped)


def test_the_beginner_searches_only_the_turns_best_at_once():
    level, playouts, searched = "beginner", 40, 12
    game, crowded = _crowded(4, searched)
    looked_at = 0
    for state, seat in crowded:
        view = game.view(state, seat)
        turns = mcts.turns_of(game, view)
        worth = sorted((bot.evaluate(game, game.apply(view, t))[seat] for t in turns), reverse=True)
        if worth[searched - 1] == worth[-1] or looked_at == 2:  # every turn left out is as good as one kept
            continue
        picked = choose(game, view, seat, level, seed=3, timed=False)
        assert picked.why == "search of the turns best at once" and picked.playouts == playouts
        # one of the best (turns of equal worth are drawn at random among themselves)
        assert bot.evaluate(game, game.apply(view, picked.turn))[seat] >= worth[searched - 1]
        looked_at += 1
    assert looked_at > 0


def test_strongest_plays_a_turn_best_by_its_prospects():
    game, crowded = _crowded(3)
    for state, seat in crowded:
        view = game.view(state, seat)
        best = max(bot.evaluate_prospects(game, game.apply(view, t))[seat] for t in mcts.turns_of(game, view))
        picked = choose(game, view, seat, "strongest", seed=1, timed=False)
        assert picked.why == "the turn best by its prospects" and picked.value == best
        assert bot.evaluate_prospects(game, game.apply(view, picked.turn))[seat] == best


def test_taiga_offers_two_levels_and_the_default_or_an_older_games_level_plays_as_strongest():
    game = registry.get("taiga").rules
    assert offered(game) == ("beginner", "strongest")
    with pytest.raises(OptionError, match="beginner, strongest; there is no level 'medium'"):
        level_for(game, "medium")
    assert level_for(game, None).name == "strongest" and level_for(game, "Beginner").name == "beginner"
    assert {played_as(game, LEVELS[name]).name for name in ("easy", "medium", "hard")} == {"strongest"}
    crowded_game, crowded = _crowded(1)
    state, seat = crowded[0]
    view = crowded_game.view(state, seat)
    strongest = choose(game, view, seat, "strongest", seed=2, timed=False)
    for name in ("easy", "medium", "hard"):
        assert choose(game, view, seat, name, seed=2, timed=False) == strongest


@pytest.mark.parametrize("level", ["beginner", "strongest"])
def test_a_bot_decides_the_same_whatever_the_hidden_tiles_are(level):
    game, crowded = _crowded(1)
    state, seat = crowded[0]
    pile = list(state.pile)
    random.Random(5).shuffle(pile)
    changed = replace(state, pile=tuple(pile))
    assert changed != state and game.view(changed, seat) == game.view(state, seat)
    one = choose(game, game.view(state, seat), seat, level, seed=2, timed=False)
    two = choose(game, game.view(changed, seat), seat, level, seed=2, timed=False)
    assert one == two


def _lead(state) -> float:
    """How far player 1's prospects are ahead of player 2's."""
    first, second = bot.prospects(state)
    return first - second


def test_a_surveyed_forest_counts_more_the_more_tiles_and_the_fewer_open_edges_it_has():
    from taiga_helpers import laid

    surveyor = [(1, "surveyor", 0, 0, "n")]  # on the start tile's softwood forest
    alone = laid(pieces=surveyor)  # one tile, one open edge
    grown = laid([("S4", 0, 1, 90)], pieces=surveyor)  # two tiles, one open edge
    wider = laid([("S8", 0, 1, 90)], pieces=surveyor)  # two tiles, two open edges
    assert _lead(grown) > _lead(alone) and _lead(grown) > _lead(wider)
    # the others' pieces count for them alike
    assert bot.prospects(laid([("S4", 0, 1, 90)], pieces=[(2, "surveyor", 0, 0, "n")]))[::-1] \
        == bot.prospects(grown)
    # a one-tile forest surveyed is worth less than the meeple kept in hand for a better one
    assert _lead(alone) < 0


def test_the_prospects_fade_with_the_pile_and_only_money_counts_once_it_is_empty():
    from taiga_helpers import laid

    from engine.taiga.scoring import final_scoring
    from engine.taiga.tiles import PILE

    pieces = [(1, "surveyor", 0, 0, "n"), (2, "keeper", 1, 0, "c")]
    tiles = [("S4", 0, 1, 90), ("C1", 1, 0, 270)]
    full = laid(tiles, pieces=pieces)
    half = laid(tiles, pieces=pieces, pile=full.pile[: len(PILE) // 2])
    empty = laid(tiles, pieces=pieces, pile=())
    assert abs(_lead(half)) < abs(_lead(full))
    assert bot.prospects(empty) == [float(sum(part.values())) for part in final_scoring(empty)]


def _prospects_by_definition(state):
    """The prospects as ``prospects`` defines them, computed the plain way:
    ``final_scoring``'s money, then each prospect, routes followed anew."""
    from engine.taiga import board as maps
    from engine.taiga.scoring import camp_reach, final_scoring
    from engine.taiga.tiles import PILE

    totals = [float(sum(part.values())) for part in final_scoring(state)]
    left = len(state.pile) / len(PILE)
    if not left:
        return totals
    board = maps.analyse(state.placed)
    surveyors = {}
    for piece in state.pieces:
        if piece.role == "surveyor":
            surveyors.setdefault(board.forest_of[(piece.x, piece.y, piece.spot)], set()).add(piece.player)
        elif piece.role == "lumberjack":
            forest = board.forest_at((piece.x, piece.y, piece.spot))
            totals[piece.player] += bot.PROSPECT_LUMBERJACK * left * (2 * forest.size + forest.value)
    for name, owners in surveyors.items():
        forest = board.forests[name]
        worth = bot.PROSPECT_SURVEYED * left * forest.size / (1 + bot.PROSPECT_OPEN_EDGE * forest.open)
        for player in owners:
            totals[player] += worth / len(owners)
    for player in range(state.players):
        for _, forests in camp_reach(state, board, player):
            reached_open = sum(1 for f in forests if not board.forests[f].complete)
            totals[player] += left * (bot.PROSPECT_KEEPER + bot.PROSPECT_CAMP * reached_open)
        totals[player] += bot.PROSPECT_MEEPLE * left * state.meeples_left(player)
    return totals


def test_the_prospects_are_the_money_at_the_end_and_each_prospect_exactly():
    from taiga_helpers import laid

    game, found = positions("taiga", 40)
    states = [s for s, _ in found]
    # lumberjacks (one reached by a truck from a camp) and trucks, which a random game seldom has
    tiles = [("C1", 1, 0, 270), ("H2", -1, 0, 0)]
    states.append(laid(tiles, pieces=[(1, "keeper", 1, 0, "c"), (1, "truck", 0, 0, "e"), (1, "lumberjack", -1, 0, "n")]))
    states.append(laid(tiles, pieces=[(1, "keeper", 1, 0, "c"), (2, "truck", 0, 0, "e"), (2, "lumberjack", -1, 0, "n")]))
    for state in states:
        assert bot.prospects(state) == _prospects_by_definition(state)  # the map analysed once, the same values


def test_the_strongest_bot_keeps_the_camp_it_lays_even_where_its_road_reaches_no_forest_yet():
    from taiga_helpers import GAME, laid

    from engine.taiga.state import Place

    state = laid(drawn="C1")  # the start tile alone; a camp tile to lay
    view = GAME.view(state, 0)
    placements = [t for t in GAME.legal_turns(view) if isinstance(t, Place) and t.truck is None]
    by_place = {}
    for turn in placements:
        by_place.setdefault((turn.x, turn.y, turn.turn), {})[turn.meeple] = _lead(GAME.apply(view, turn))
    assert len(by_place) > 1 and all(set(options) == {None, "c"} for options in by_place.values())
    # south of the start tile the camp's road leads away from every forest, and it is still worth keeping
    assert any(place[:2] == (0, -1) for place in by_place)
    for place, options in by_place.items():
        assert options["c"] > options[None], place
    for seed in range(3):
        assert choose(GAME, view, 0, "strongest", seed=seed, timed=False).turn.meeple == "c"
