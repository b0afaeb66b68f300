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

``choose``: the search is given only the few turns that ``evaluate``
ranks best straight after them (``narrowed``: a beginner's best 12, from
easy up the best 6, from hard up 12 again): with every turn
searched, a position's 3 to 82 turns each had too few playouts to be told
apart.  From medium up those turns are compared on the same luck
(``engine.bots.paired``): each sample deals the hidden pile once and plays
every turn from it with the same draws, where the tree search's playouts
differed in their draws as much as in their turns.

``evaluate_prospects`` (from medium up, version 5): the money as if the
game ended now judges nearly every turn alike (a surveyor or a keeper
placed, a forest grown, earn nothing until the end), so the best 6 at once
were mostly 6 turns drawn at random among equals, and a playout of 3 turns
rarely reached what they were for.  It adds what the pieces on the map and
in hand are likely to bring, by how much of the pile is left (version 7: a
camp kept counts for itself, not only for the open forests it reaches yet).

``lookahead`` (from hard up, version 6): the turns best by the prospects,
each judged by the prospects after the next player's best reply to it
(the reply that player's own prospects rank best), over a few
determinizations of the pile and the draws that follow (the same draws
for every turn compared).  Compared on the same luck with playouts
instead (version 5), hard was no stronger than medium, 6 of 14: three
random turns judged after them said less than the prospects themselves.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from engine.base import Game
from engine.bots import mcts, paired
from engine.bots.hooks import Hooks
from engine.bots.hooks import unseen as unseen_of
from engine.errors import PbemError
from engine.taiga.scoring import camp_reach, final_scoring
from engine.taiga import board as maps
from engine.taiga.state import HIDDEN, Place, TaigaState
from engine.taiga.tiles import PILE

SCALE = 8.0  # dollars ahead of the average of the others for ~76% (tanh(1))


def unseen(view: TaigaState) -> list[str]:
    """The tiles of the set that ``view`` does not show: the whole pile
    less the tiles laid (the start tile is not in the pile), the discards
    and the tile the viewer holds, in the pile's order."""
    shown = [p.code for p in view.placed[1:]] + list(view.discards)
    return unseen_of(PILE, shown + ([view.drawn] if view.drawn not in (None, HIDDEN) else []))


def determinize(game: Game, view: TaigaState, seat: int, rng: random.Random) -> TaigaState:
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


def evaluate(game: Game, state: TaigaState) -> tuple[float, ...]:
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
#: drew without a keeper, with meeples in hand (see docs/bots.md)
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


def evaluate_prospects(game: Game, state: TaigaState) -> tuple[float, ...]:
    """As ``evaluate``, from each player's ``prospects``: medium and up
    rank and judge their turns by it."""
    return _worth(prospects(state))


def _worth(totals: list[float]) -> tuple[float, ...]:
    n = len(totals)
    if n < 2:
        return (0.5,)
    return tuple(0.5 + 0.5 * math.tanh((total - (sum(totals) - total) / (n - 1)) / SCALE) for total in totals)


def random_turn(game: Game, state: TaigaState, rng: random.Random) -> Any:
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
    options = list(game.turns_at(state, Place(code, x, y, t)))  # type: ignore[attr-defined]
    return rng.choice(options) if options else None


#: turns an easy or medium bot searches or compares: those its evaluation
#: ranks best straight after them.  Version 1 spread 150 playouts over up
#: to 82 turns, two or three each, too few to tell them apart: easy against
#: beginner was 62% of 20; among the best 6 at once it is 94% of 40 (the
#: strength row; see docs/bots.md)
SEARCHED = 6
#: the fewest playouts of a level that searches only the turns best at once
#: (version 4: a beginner too, among ``SEARCHED_BEGINNER``)
NARROWED_FROM = 40
#: the fewest playouts of a level that searches only ``SEARCHED`` turns
SEARCHED_FROM = 150
#: turns a beginner searches (version 4; until then every turn): 40
#: playouts spread over up to 82 turns played nearly at random, and random
#: play won 4.5 of 120 games (96%); among the best 12 at once it lost none
#: of 120 (one drawn), and easy still beat it in 12 of 14
SEARCHED_BEGINNER = 12


def searched(level: Any) -> int:
    """How many of the turns best at once a level compares or searches
    (from hard up, looks ahead from)."""
    if level.playouts >= LOOKAHEAD_FROM:
        return LOOKAHEAD_WIDTH.get(level.name, LOOKAHEAD_WIDTH["hard"])
    return SEARCHED if level.playouts >= SEARCHED_FROM else SEARCHED_BEGINNER


def narrowed(game: Game, view: TaigaState, seat: int, turns: list[Any], rng: random.Random,
             count: int = SEARCHED, judge: Any = evaluate) -> list[Any]:
    """The ``count`` turns of ``turns`` after which ``judge`` (by default
    ``evaluate``: the money each player would have if the game ended
    there) is best for ``seat``, ties in random order."""
    ranked = sorted(((judge(game, game.apply(view, turn))[seat], rng.random(), index)
                     for index, turn in enumerate(turns)), reverse=True)
    return [turns[index] for _, _, index in ranked[:count]]


#: the fewest playouts of a level that compares its turns on the same luck
#: (``engine.bots.paired``) instead of the tree search: medium against easy
#: was 52% of 40 with the tree search (both levels alike); see docs/bots.md
PAIRED_FROM = 300
#: turns a paired playout plays before it is judged (the tree search's
#: playouts play ``HOOKS.playout_plies``): the longer, the more of the
#: result is the playout's random turns, not the turn compared
PAIRED_PLIES = 3


def judge_of(level: Any) -> Any:
    """How a level ranks the turns best at once and judges its playouts:
    ``evaluate_prospects`` from medium up (version 5), ``evaluate`` below."""
    return evaluate_prospects if level.playouts >= PAIRED_FROM else evaluate


#: the fewest playouts of a level that judges its turns by the next
#: player's best reply (``lookahead``, version 6): hard and strongest
LOOKAHEAD_FROM = 1500
#: of the turns best by the prospects, how many a level looks ahead from
#: (hard 8, strongest 12) and over how many determinizations (a level's
#: playouts in ``PLAYOUTS_PER_SAMPLE``: hard 4, strongest 16): each reply
#: position reads up to some 200 replies; untimed, on a loaded machine, a
#: hard turn took at most 2.3 s of CPU, a strongest one 8.5 s
LOOKAHEAD_WIDTH = {"hard": 8, "strongest": 12}
PLAYOUTS_PER_SAMPLE = 375


def after_reply(game: Game, state: TaigaState, seat: int, rng: random.Random) -> float:
    """``seat``'s ``evaluate_prospects`` after the next player's best
    reply by their own: the draw before it settled by ``rng``; the position
    itself when the game is over or ``seat`` moves again (a choice)."""
    for _ in range(4):
        if game.chance(state) is None:
            break
        state = mcts.settle_randomly(game, state, rng)
    now = evaluate_prospects(game, state)
    mover = game.to_move(state)
    if game.is_over(state) or mover is None or mover == seat:
        return now[seat]
    best, mine = -1.0, now[seat]
    for reply in mcts.turns_of(game, state):
        try:
            worth = evaluate_prospects(game, game.apply(state, reply))
        except PbemError:
            continue
        if worth[mover] > best:
            best, mine = worth[mover], worth[seat]
    return mine


def lookahead(game: Game, view: TaigaState, seat: int, candidates: list[Any], samples: int,
              rng: random.Random, budget: Any = None) -> paired.Compared:
    """The best of ``candidates`` by ``after_reply`` summed over ``samples``
    determinizations of ``view``, each with one chance seed shared by every
    candidate (``paired.compare_by``: fewer samples if the turn's CPU
    ``budget`` would run out; at least one).  Ties: the earlier candidate."""
    return paired.compare_by(game, view, seat, candidates, samples, rng, determinize,
                             lambda after, seed: after_reply(game, after, seat, random.Random(seed)), budget)


def choose(game: Game, view: TaigaState, seat: int, level: Any, rng: random.Random, budget: Any) -> Any:
    """Beginner and easy: the tree search among the turns the evaluation
    ranks best at once (``narrowed``: a beginner's best 12, easy's best 6);
    medium: its best 6 by the prospects compared on the same luck,
    ``level.playouts`` playouts shared among them (``engine.bots.paired``);
    hard and strongest: their best 8 or 12 by the prospects, each judged
    after the next player's best reply (``lookahead``).  None (the search
    over every turn) when there is one turn, or below medium when there
    are no more than it searches."""
    from engine.bots.player import Choice

    if level.playouts < NARROWED_FROM:
        return None
    turns = mcts.turns_of(game, view, mcts.turn_limit(level.playouts))
    few = len(turns) <= searched(level)
    if len(turns) <= 1 or (few and level.playouts < PAIRED_FROM):
        return None
    judge = judge_of(level)
    if level.playouts >= LOOKAHEAD_FROM:
        width = searched(level)
        candidates = turns if len(turns) <= width else narrowed(game, view, seat, turns, rng, width,
                                                                 evaluate_prospects)
        ahead = lookahead(game, view, seat, candidates,
                          level.playouts // PLAYOUTS_PER_SAMPLE, rng, budget)
        return Choice(ahead.turn, ahead.value, playouts=ahead.playouts,
                      why="the turns best by their prospects, judged after the best reply")
    candidates = turns if few else narrowed(game, view, seat, turns, rng, searched(level), judge)
    if level.playouts >= PAIRED_FROM:
        found = paired.compare(game, view, seat, candidates, level.playouts // len(candidates), rng,
                               replace(HOOKS, playout_plies=PAIRED_PLIES, evaluate=judge), budget)
        return Choice(found.turn, found.value, playouts=found.playouts,
                      why="the turns best at once, compared on the same luck")
    found = mcts.search(game, view, seat, level.playouts, rng, HOOKS, budget, candidates)
    return Choice(found.turn, found.value, playouts=found.playouts, why="search of the turns best at once")


#: version 3 (2026-11-28): medium and up compare the best turns on the same luck (hard and
#: strongest the best 12); version 4 (2026-11-28): a beginner searches the best 12 at once;
#: version 5 (2026-12-02): medium and up rank and judge by ``evaluate_prospects`` (easy plays as
#: in version 3, beginner as in version 4)
#: version 6 (2026-12-02): hard and strongest judge the turns best by the prospects after the next
#: player's best reply (``lookahead``; medium plays as in version 5)
#: version 7 (2026-12-04): the prospects count each camp kept (``PROSPECT_KEEPER``), so medium and
#: up keep the camps they lay (beginner and easy, which do not judge by the prospects, as before)
HOOKS = Hooks(determinize=determinize, evaluate=evaluate, random_turn=random_turn, playout_plies=10,
              choose=choose, version=7, kept={"beginner": 4, "easy": 3})
