"""Taiga's bot (``engine/taiga/bot.py``): from a beginner up it searches
only the turns its evaluation ranks best straight after them (from medium up,
comparing them on the same luck), it plays one of those, and it decides
from its view alone."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.bots import LEVELS, choose, mcts, paired
from engine.taiga import bot
from test_bots_determinize import positions


def _crowded(count: int = 3, searched: int = bot.SEARCHED):
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
        assert len(kept) == bot.SEARCHED and len(set(map(repr, kept))) == bot.SEARCHED
        worth = {repr(t): bot.evaluate(game, game.apply(view, t))[seat] for t in turns}
        dropped = [worth[repr(t)] for t in turns if repr(t) not in {repr(k) for k in kept}]
        assert min(worth[repr(t)] for t in kept) >= max(dropped), (kept, dropped)


@pytest.mark.parametrize("level, how, playouts, searched", [
    ("beginner", "search of the turns best at once", 40, bot.SEARCHED_BEGINNER),
    ("easy", "search of the turns best at once", 150, bot.SEARCHED),
    ("medium", "the turns best at once, compared on the same luck", 300, bot.SEARCHED),  # 50 samples of 6 turns
    ("hard", "the turns best by their prospects, judged after the best reply", 32, 8),  # 4 samples of 8
])
def test_a_bot_plays_one_of_the_turns_best_at_once(level, how, playouts, searched, monkeypatch):
    game, crowded = _crowded(4, searched)
    compared: list[int] = []  # how many turns each paired comparison was given
    original = paired.compare
    monkeypatch.setattr(paired, "compare", lambda g, v, s, candidates, *rest: compared.append(len(candidates))
                        or original(g, v, s, candidates, *rest))
    looked_at = 0
    for state, seat in crowded:
        view = game.view(state, seat)
        turns = mcts.turns_of(game, view)
        judge = bot.judge_of(LEVELS[level])  # from medium up, the prospects
        worth = sorted((judge(game, game.apply(view, t))[seat] for t in turns), reverse=True)
        if worth[searched - 1] == worth[-1] or looked_at == 2:  # every turn left out is as good as one kept
            continue
        picked = choose(game, view, seat, level, seed=3, timed=False)
        assert picked.why == how and picked.playouts == playouts
        # one of the best (turns of equal worth are drawn at random among themselves)
        assert judge(game, game.apply(view, picked.turn))[seat] >= worth[searched - 1]
        looked_at += 1
    assert looked_at > 0
    assert compared == ([searched] * looked_at if level == "medium" else [])


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
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


def test_from_medium_up_a_surveyed_forest_counts_more_the_more_tiles_and_the_fewer_open_edges_it_has():
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
    assert bot.judge_of(LEVELS["medium"]) is bot.evaluate_prospects
    assert bot.judge_of(LEVELS["easy"]) is bot.evaluate


def test_the_prospects_fade_with_the_pile_and_only_money_counts_once_it_is_empty():
    from engine.taiga.scoring import final_scoring
    from engine.taiga.tiles import PILE
    from taiga_helpers import laid

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


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_from_medium_up_a_bot_keeps_the_camp_it_lays_even_where_its_road_reaches_no_forest_yet(level):
    from engine.taiga.state import Place
    from taiga_helpers import GAME, laid

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
        assert choose(GAME, view, 0, level, seed=seed, timed=False).turn.meeple == "c"


def test_from_hard_up_a_turn_is_judged_after_the_next_players_best_reply():
    game, crowded = _crowded(2)
    for state, seat in crowded:
        view = game.view(state, seat)
        settled = bot.determinize(game, view, seat, random.Random(4))
        turn = mcts.turns_of(game, settled)[0]
        after = game.apply(settled, turn)
        drawn = mcts.settle_randomly(game, after, random.Random(9))
        mover = game.to_move(drawn)
        assert mover not in (None, seat)
        replies = [bot.evaluate_prospects(game, game.apply(drawn, r)) for r in mcts.turns_of(game, drawn)]
        best_for_them = max(replies, key=lambda worth: worth[mover])
        judged = bot.after_reply(game, after, seat, random.Random(9))
        assert judged == best_for_them[seat]
        # with two players the reply best for them is the worst for the bot
        assert judged == min(worth[seat] for worth in replies)
