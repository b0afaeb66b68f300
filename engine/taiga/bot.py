"""Taiga's bot hooks: a determinization of the bot's view.

A player's view hides the draw pile (``?`` for each tile left) and the
drawn tile of another mover.  Searched as it is, the view has no next
draw (``TaigaGame.chance`` waits for a pile it can read), so every
playout of the tree search stopped one turn after the bot's own: the bot
judged its turn by the money it made at once and nothing else.

``determinize`` fills in what the view hides from what it shows: the
tiles of the set not on the map, not among the discards and not in the
bot's hand are exactly the tiles left (the pile and another mover's drawn
tile), so the pile becomes those tiles (the draw from it stays a chance
event, settled at random by the search) and a hidden drawn tile one of
them at random.  Nothing is read from the hidden state: the hook is given
the view only.

``random_turn`` is the playouts' random turn without listing every turn
(listing a hundred turns at each ply of each playout took most of a
search): a place the tile fits, then one of the turns laying it there.

``evaluate`` judges a cut-off playout by each player's money as if the
game ended there (``final_scoring``: money, lumberjack forests reached by
truck, forests served by camps, species tokens), not by money alone.

``choose`` (version 9): Taiga's bot offers two levels (``LEVELS``).
The beginner searches, with the tree search, only the few turns that
``evaluate`` ranks best straight after them (``narrowed``: its best 12):
with every turn searched, a position's 3 to 82 turns each had too few
playouts to be told apart.  Strongest, which also plays the games made
with the default level (medium) or with easy or hard, plays the
turn after which its ``prospects`` are best: the money as if the game
ended now judges nearly every turn alike (a surveyor or a keeper placed, a
forest grown, earn nothing until the end), so ``prospects`` adds what the
pieces on the map and in hand are likely to bring, by how much of the pile
is left (a camp kept counts for itself and for the open forests it
reaches).  Comparing the turns best by the prospects with paired playouts
(version 7's medium) or after the next player's best reply (version 7's
strongest) was no stronger than this greedy choice: the tile draws decide
most of what is left (benchmarks/results/bots_experiments.md).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from engine.base import Rules
from engine.bots import mcts
from engine.bots.hooks import Hooks
from engine.bots.hooks import unseen as unseen_of
from engine.taiga import board as maps
from engine.taiga.scoring import camp_reach, final_scoring
from engine.taiga.state import HIDDEN, Place, TaigaState, TaigaTurn
from engine.taiga.tiles import PILE

SCALE = 8.0  # dollars ahead of the average of the others for ~76% (tanh(1))


def unseen(view: TaigaState) -> list[str]:
    """The tiles of the set that ``view`` does not show: the whole pile
    less the tiles laid (the start tile is not in the pile), the discards
    and the tile the viewer holds, in the pile's order."""
    shown = [p.code for p in view.placed[1:]] + list(view.discards)
    return unseen_of(PILE, shown + ([view.drawn] if view.drawn not in (None, HIDDEN) else []))


def determinize(game: Rules[TaigaState, TaigaTurn], view: TaigaState, seat: int, rng: random.Random) -> TaigaState:
    """A full position that ``view`` could be a view of: the hidden pile
    (and another mover's hidden drawn tile) dealt from the unseen tiles."""
    if HIDDEN not in view.pile and view.drawn != HIDDEN:
        return view
    left = unseen(view)
    drawn = view.drawn
    if drawn == HIDDEN:
        drawn = left.pop(rng.randrange(len(left)))
    if len(left) != len(view.pile):  # not a view this game made: search it as it is
        return view
    return replace(view, pile=tuple(left), drawn=drawn)


def evaluate(game: Rules[TaigaState, TaigaTurn], state: TaigaState) -> tuple[float, ...]:
    """Each player's worth from their money as if the game ended now,
    against the others' average, smoothly (two players: 0 to 1, summing
    to 1)."""
    return _worth([float(sum(part.values())) for part in final_scoring(state)])


#: the prospects from medium up (``prospects``), each times the share of the
#: pile left to draw (at the end none of them is money): a tile of an open
#: forest a player surveys (shared among its surveyors' owners), divided by
#: one plus ``PROSPECT_OPEN_EDGE`` for each of the forest's open edges
PROSPECT_SURVEYED = 0.8
PROSPECT_OPEN_EDGE = 0.5
#: an open forest a camp the player keeps reaches ($3 a camp if it completes)
PROSPECT_CAMP = 1.5
#: a meeple in hand (surveyors and keepers are few: seven each, and the bots
#: placed every one of them, most on forests that never completed)
PROSPECT_MEEPLE = 1.5
#: a camp the player keeps, whatever its road reaches yet (version 7): the
#: roads grow to it and every forest it reaches pays $3 at the end.  Until
#: then a camp laid where its road reached no forest was worth less than the
#: meeple kept for it, and medium and hard left about one camp in nine they
#: drew without a keeper, with meeples in hand (see benchmarks/results/bots_experiments.md)
PROSPECT_KEEPER = 12.0
#: of what logging a lumberjack's forest would pay ($2 a tile and its values)
PROSPECT_LUMBERJACK = 0.6


def prospects(state: TaigaState) -> list[float]:
    """Each player's money as if the game ended now (``final_scoring``)
    and what their pieces are likely to bring before it does: surveyed
    open forests, lumberjacks waiting for a road, the camps they keep and
    the open forests those reach, and meeples in hand, all in proportion to
    the pile left.
    The map is analysed once and each player's camp routes followed once,
    for the money part (``final_scoring``, given them) and the camps'
    prospects alike (following them four times or more was most of a
    lookahead's time)."""
    board = maps.analyse(state.placed)
    reach = [camp_reach(state, board, player) for player in range(state.players)]
    totals = [float(sum(part.values())) for part in final_scoring(state, board, reach)]
    left = len(state.pile) / len(PILE)
    if not left:
        return totals
    surveyors: dict[Any, set[int]] = {}
    for piece in state.pieces:
        if piece.role == "surveyor":
            surveyors.setdefault(board.forest_of[(piece.x, piece.y, piece.spot)], set()).add(piece.player)
        elif piece.role == "lumberjack":
            forest = board.forest_at((piece.x, piece.y, piece.spot))
            totals[piece.player] += PROSPECT_LUMBERJACK * left * (2 * forest.size + forest.value)
    for name, owners in surveyors.items():
        forest = board.forests[name]
        worth = PROSPECT_SURVEYED * left * forest.size / (1 + PROSPECT_OPEN_EDGE * forest.open)
        for player in owners:
            totals[player] += worth / len(owners)
    for player in range(state.players):
        for _, forests in reach[player]:
            open_forests = sum(1 for f in forests if not board.forests[f].complete)
            totals[player] += left * (PROSPECT_KEEPER + PROSPECT_CAMP * open_forests)
        totals[player] += PROSPECT_MEEPLE * left * state.meeples_left(player)
    return totals


def evaluate_prospects(game: Rules[TaigaState, TaigaTurn], state: TaigaState) -> tuple[float, ...]:
    """As ``evaluate``, from each player's ``prospects``: medium and up
    rank and judge their turns by it."""
    return _worth(prospects(state))


def _worth(totals: list[float]) -> tuple[float, ...]:
    n = len(totals)
    if n < 2:
        return (0.5,)
    return tuple(0.5 + 0.5 * math.tanh((total - (sum(totals) - total) / (n - 1)) / SCALE) for total in totals)


def random_turn(game: Rules[TaigaState, TaigaTurn], state: TaigaState, rng: random.Random) -> Any:
    """A random turn laying a tile: a place that the drawn tile or a
    discard fits, then one of the turns laying it there; None (the search
    lists the turns) for a choice or a discard."""
    if state.pending or game.to_move(state) is None:
        return None
    codes = [] if state.drawn in (None, HIDDEN) else [state.drawn]
    codes += [c for c in dict.fromkeys(state.discards) if c not in codes]
    places = [(code, x, y, t) for code in codes for x, y, t in maps.placements(state.placed, code)]
    if not places:
        return None
    code, x, y, t = rng.choice(places)
    options = list(game.turns_at(state, Place(code, x, y, t)))  # type: ignore[attr-defined]  # TaigaGame has turns_at; the hooks type games as Rules
    return rng.choice(options) if options else None


#: the levels Taiga's bot offers (``Hooks.levels``; version 9, 2026-12-07).  The
#: tile draws decide too much of a game for levels that each beat the one
#: below in 65% of games, beyond two: greedy play by the prospects
#: (strongest) beats the beginner in 94% of games and no bot was found that
#: beats greedy play by the prospects (version 7's medium, its paired
#: playouts, 17 of 40 against it; its strongest, which looks at the best
#: reply, 2 of 5).  No bot found between them made two steps: version 8's
#: medium (version 3's easy, the tree search among the best 6 by the money)
#: beat the beginner in only 63 of 82 games over two rows, and at up to 1.7 s
#: of CPU a turn it reached its cap of 1.5 s, so the server's would have been
#: weaker still; greedy play with noise on the prospects either lost to the
#: beginner or held its own against the strongest (docs/bots.md, "Levels a
#: game offers").  A game made with the default level (medium), or with easy
#: or hard, plays as strongest (``engine.bots.hooks.played_as``)
LEVELS = ("beginner", "strongest")
#: the beginner: the tree search's playouts, among the turns ``evaluate``
#: ranks best at once (``narrowed``): spread over every turn, its playouts
#: gave each of a position's 3 to 82 turns two or three, too few to tell
#: them apart.  A beginner searched every turn until version 4: its 40
#: playouts over up to 82 turns played nearly at random in wide positions,
#: and random play won 4.5 of its 120 games (96%); among the best 12 at once
#: it lost none of 120 (one drawn)
PLAYOUTS = {"beginner": 40}
SEARCHED = {"beginner": 12}


def narrowed(game: Rules[TaigaState, TaigaTurn], view: TaigaState, seat: int, turns: list[Any], rng: random.Random,
             count: int = SEARCHED["beginner"], judge: Any = evaluate) -> list[Any]:
    """The ``count`` turns of ``turns`` after which ``judge`` (by default
    ``evaluate``: the money each player would have if the game ended
    there) is best for ``seat``, ties in random order."""
    ranked = sorted(((judge(game, game.apply(view, turn))[seat], rng.random(), index)
                     for index, turn in enumerate(turns)), reverse=True)
    return [turns[index] for _, _, index in ranked[:count]]


def choose(game: Rules[TaigaState, TaigaTurn], view: TaigaState, seat: int, level: Any, rng: random.Random, budget: Any) -> Any:
    """Beginner: the tree search (``PLAYOUTS``) among the turns the money
    ranks best at once (``narrowed``: its best 12); strongest: the turn
    after which the player's ``prospects`` are best against the other
    players', ties at random.  None (the search over every turn, with the
    level's own playouts) for one turn, for no more turns than the
    beginner would search, and for a level of another name (a test's own
    budget)."""
    from engine.bots.player import Choice

    turns = mcts.turns_of(game, view, mcts.turn_limit(level.playouts))
    if len(turns) <= 1 or level.name not in LEVELS or len(turns) <= SEARCHED.get(level.name, 0):
        return None
    if level.name == "strongest":
        [best] = narrowed(game, view, seat, turns, rng, 1, evaluate_prospects)
        return Choice(best, evaluate_prospects(game, game.apply(view, best))[seat],
                      why="the turn best by its prospects")
    candidates = narrowed(game, view, seat, turns, rng, SEARCHED[level.name])
    found = mcts.search(game, view, seat, PLAYOUTS[level.name], rng, HOOKS, budget, candidates)
    return Choice(found.turn, found.value, playouts=found.playouts, why="search of the turns best at once")


#: version 3 (2026-11-28): medium and up compare the best turns on the same luck (hard and
#: strongest the best 12); version 4 (2026-11-28): a beginner searches the best 12 at once;
#: version 5 (2026-12-02): medium and up rank and judge by ``evaluate_prospects`` (easy plays as
#: in version 3, beginner as in version 4)
#: version 6 (2026-12-02): hard and strongest judge the turns best by the prospects after the next
#: player's best reply (``lookahead``; medium plays as in version 5)
#: version 7 (2026-12-04): the prospects count each camp kept (``PROSPECT_KEEPER``), so medium and
#: up keep the camps they lay (beginner and easy, which do not judge by the prospects, as before)
#: version 8 (2026-12-06): three levels (``LEVELS``): beginner as in version 4, medium plays as
#: version 3's easy did, strongest the turn best by the prospects (the paired playouts and the
#: lookahead of versions 3 to 7 are gone: greedy play by the prospects was as strong or stronger)
#: version 9 (2026-12-07): two levels, beginner (as in version 4) and strongest (as in version 8);
#: medium plays as strongest
HOOKS = Hooks(determinize=determinize, evaluate=evaluate, random_turn=random_turn, playout_plies=10,
              choose=choose, version=9, kept={"beginner": 4, "strongest": 8}, levels=LEVELS)
