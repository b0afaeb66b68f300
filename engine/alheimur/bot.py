"""Alheimur's bot hooks: a determinization of the bot's view.

A player's view hides the cards not yet turned over (the piles, ``?``
each) and the orbit cards; another player's standing fire order shows as
``HIDDEN_ORDER``, which fires as the default order does.  In play the
view can be searched as it is (nothing hidden is read there), but in
world building the next card of the pile is hidden, so each playout of
the tree search stopped one card after the bot's own placement.

``determinize`` deals what the view hides from what it shows: the cards
of the deck not in a world, not being built and not turned over are the
unseen ones, dealt at random into the hidden places of the piles and the
orbit cards.  Nothing is read from the hidden state (the hook is given
the view only); the fire orders are left as the view shows them.

``evaluate`` judges a cut-off playout.  Alheimur keeps no running score
(``Rules.scores`` is empty), so with the defaults every cut-off playout
was worth an even share to everyone: only the playouts that reached the
end within 16 turns said anything, and a beginner's 40 playouts over a
few hundred turns (one random playout each) lost 3 games of 20 to random
play, most by placing colonists or expanding so that a survival check
then killed them.  A two-player game is mostly decided by who is wiped
out first, so a player's worth is what of theirs would survive: the pips
of their pyramids that pass a survival check of every world now (as the
check after their next expansion would find them), their ships and
marines, and a little of their final score as if the game ended now.
Playouts are cut off after 4 turns: shorter, cheaper and judged by that.

``choose`` places the starting colonists at every level, and at medium
and hard compares the glance's best turns of play on the same luck,
halving them round by round (``engine.bots.paired.halve``; hard compares
more of them): medium's tree search, its root widened to 35 turns of a
few noisy playouts each, lost more games to easy than it won.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Sequence

from engine.alheimur.deck import DECK, turned
from engine.alheimur.pieces import AlheimurState, AlheimurTurn, Civilize, Expand, Move, Turn
from engine.alheimur.scoring import score
from engine.alheimur.survival import check_world, expand, survive
from engine.alheimur.turns import STEPS, expansion_options, moved, step_moves
from engine.base import Rules
from engine.bots import mcts, paired
from engine.bots.hooks import Hooks
from engine.bots.hooks import unseen as unseen_of
from engine.errors import IllegalTurnError, PbemError

if TYPE_CHECKING:  # the rules import this module when a bot plays
    from engine.alheimur.rules import AlheimurGame

HIDDEN = "?"


def _printed(card: str) -> str:
    return card if card in DECK else turned(card)


def unseen(view: AlheimurState) -> list[str]:
    """The cards of the deck that ``view`` does not show (in a world, in
    the world being built or turned over), in the deck's order."""
    shown = Counter(_printed(c) for w in view.worlds for c in w.layout if c != HIDDEN)
    shown.update(_printed(c) for w in view.worlds if w.orbit_card != HIDDEN for c in [w.orbit_card])
    shown.update(_printed(c) for _, _, c in view.building if c != HIDDEN)
    if view.card not in ("", HIDDEN):
        shown[_printed(view.card)] += 1
    return unseen_of(DECK, shown)


def determinize(game: Rules[AlheimurState, AlheimurTurn], view: AlheimurState, seat: int, rng: random.Random) -> AlheimurState:
    """A full position that ``view`` could be a view of: the hidden cards
    of the piles and the hidden orbit cards dealt from the unseen cards.
    A view with nothing hidden, or one whose hidden places outnumber the
    unseen cards (not a view this game made), is searched as it is."""
    slots = sum(pile.count(HIDDEN) for pile in view.piles) + sum(w.orbit_card == HIDDEN for w in view.worlds)
    if not slots:
        return view
    left = unseen(view)
    if len(left) < slots:
        return view
    dealt = iter(rng.sample(left, slots))  # cards of worlds given up for an extra pile are seen but gone
    piles = tuple(tuple(next(dealt) if c == HIDDEN else c for c in pile) for pile in view.piles)
    worlds = tuple(replace(w, orbit_card=next(dealt)) if w.orbit_card == HIDDEN else w for w in view.worlds)
    return replace(view, piles=piles, worlds=worlds)


SCALE = 4.0  # pips ahead of the best other player for ~76% (tanh(1))
SCORE_WEIGHT = 0.1  # pips per point of the final score as if the game ended now
#: a position's turns the search orders by a glance: one in this many of
#: those it reads (10 a playout of the level, at most 3000: a beginner
#: glances at 80, easy 300, medium and up 600), at least ``BELOW_ROOT``
GLANCE_SHARE = 5
#: turns read (and all glanced at) in a position below the root: a node
#: of a search of a few hundred playouts widens to a dozen turns at most,
#: and reading and glancing at 200 for each was half of a search's time
BELOW_ROOT = 50


def survivors(state: AlheimurState) -> AlheimurState:
    """``state`` with every world's survival checked now."""
    return replace(state, worlds=tuple(check_world(w) for w in state.worlds))


def worth(state: AlheimurState) -> list[float]:
    """Each player's pips that would survive a survival check of every
    world now, their ships and marines, and a little of their score with
    only those survivors."""
    checked = survivors(state)
    values = [0.0] * state.players
    for world in checked.worlds:
        for _, piece in world.pieces:
            values[piece.owner] += piece.size
    for ship in checked.all_ships():
        values[ship.owner] += ship.size + ship.marine
    if state.phase in ("play", "battle", "over"):
        for player in range(state.players):
            values[player] += SCORE_WEIGHT * float(score(checked, player).total)
    return values


def evaluate(game: Rules[AlheimurState, AlheimurTurn], state: AlheimurState) -> tuple[float, ...]:
    """A cut-off playout's worth to each player, 0 to 1: their ``worth``
    against the best of the others', smoothly."""
    values = worth(state)
    if len(values) < 2:
        return (0.5,) * len(values)
    result = []
    for player, value in enumerate(values):
        rival = max(v for p, v in enumerate(values) if p != player)
        result.append(0.5 + 0.5 * math.tanh((value - rival) / SCALE))
    return tuple(result)


def order_turns(game: Rules[AlheimurState, AlheimurTurn], state: AlheimurState, turns: list[AlheimurTurn], rng: random.Random) -> list[AlheimurTurn]:
    """``turns`` best first at a glance: the mover's evaluation after each
    (its own survival check included), ties in ``rng``'s order; of a long
    list only one turn in ``GLANCE_SHARE`` (at least ``BELOW_ROOT``), at
    random, is glanced at, the rest follow in random order (a position of
    play lists up to 3000 turns, and applying each took seconds).  A level
    that reads more turns glances at more: with 200 glanced at every
    level, easy beat beginner in 18 games of 34; glancing at one in five,
    12.5 of 15."""
    mover = game.to_move(state)
    assert mover is not None  # the turns of a player to move
    shuffled = list(turns)
    rng.shuffle(shuffled)
    glanced_count = max(BELOW_ROOT, len(turns) // GLANCE_SHARE)
    glanced, rest = shuffled[:glanced_count], shuffled[glanced_count:]
    glance = []
    for turn in glanced:
        try:
            after = game.apply(state, turn)
        except PbemError:
            glance.append(-1.0)
            continue
        glance.append(evaluate(game, after)[mover] if game.chance(after) is None else 0.5)
    order = sorted(range(len(glanced)), key=lambda i: -glance[i])
    return [glanced[i] for i in order] + rest


def choose(game: AlheimurGame, view: AlheimurState, seat: int, level: Any, rng: random.Random, budget: Any) -> Any:
    """The starting colonists: of every placement (5,940 on a world of 12
    territories, a tenth of a second to judge), the best by ``evaluate``,
    which counts what survives a survival check; ties in ``rng``'s order.
    The search read only the first few hundred placements (those on the
    world's first territories) and could not tell them apart in 40
    playouts: a beginner lost games to random play by placing colonists
    that the first survival check killed.  In play, a beginner glances at
    a few turns (``_glanced``) and strongest compares the glance's best on
    the same luck (``_paired``).  None otherwise: the tree search decides
    (medium's with a beginner's playouts of version 4: ``PLAYOUTS``)."""
    from engine.bots.player import Choice

    if game.chance(view) is not None:
        return None
    if view.phase == "play" and level.name == "beginner":
        return _glanced(game, view, seat, rng, budget)
    if view.phase == "play" and level.name == "strongest":
        return _paired(game, view, seat, level, rng, budget)
    if view.phase != "colonists":
        return None

    placements = list(game.iter_turns(view))
    rng.shuffle(placements)
    best, value = None, -1.0
    for turn in placements:
        worth_now = evaluate(game, game.apply(view, turn))[seat]
        if worth_now > value:
            best, value = turn, worth_now
    return None if best is None else Choice(best, value, why="starting colonists: the most that survive")


#: the levels Alheimur's bot offers (``Hooks.levels``; version 9, 2026-12-06): its luck leaves
#: room for three levels that each beat the one below in 65% of games, not five (docs/bots.md,
#: "Levels a game offers").  A game made with an easy bot plays on as medium, one with a hard bot
#: as strongest (``engine.bots.hooks.played_as``)
LEVELS = ("beginner", "medium", "strongest")
#: medium searches with version 4's beginner's 40 playouts; strongest compares the glance's best
#: turns with 300, as version 7's medium did (version 8's hard, with 1,500 playouts and twice the
#: turns compared, was no stronger: 7 of 14 against it)
PLAYOUTS = {"medium": 40, "strongest": 300}
#: turns a beginner glances at in play, drawn at random from those it reads: it plays the best of
#: them at a glance (``evaluate`` after each), so it rarely throws its pieces away and seldom
#: finds the turn that matters
GLANCED_BY_BEGINNER = 20
#: turns a beginner reads (the lazy list's first ones), from which it draws those it glances at
READ_BY_BEGINNER = 3000
#: the share of its cap a beginner may spend reading them (version 10): in the few positions whose
#: legal turns are sparse among those the lazy list tries, reading 3000 took up to 1.8 s, and the
#: beginner's turn up to 3.9 s against its cap of 1 s; it now glances at those read by then
READING_SHARE = 0.5
#: turns strongest compares, the glance's best (the last two meet some 80 samples)
PAIRED_WIDTH = 10


def _glanced(game: Rules[AlheimurState, AlheimurTurn], view: AlheimurState, seat: int, rng: random.Random, budget: Any) -> Any:
    """The best of ``GLANCED_BY_BEGINNER`` turns drawn at random (of the
    first ``READ_BY_BEGINNER``, or of those read in ``READING_SHARE`` of
    the cap) by ``evaluate`` straight after them; None when the view has
    one turn."""
    from engine.bots.player import Choice

    turns = mcts.turns_of(game, view, READ_BY_BEGINNER, budget.deadline(READING_SHARE))
    if len(turns) <= 1:
        return None
    best, value = None, -1.0
    for turn in rng.sample(turns, min(GLANCED_BY_BEGINNER, len(turns))):
        try:
            after = game.apply(view, turn)
        except PbemError:
            continue
        worth_now = evaluate(game, after)[seat] if game.chance(after) is None else 0.5
        if worth_now > value:
            best, value = turn, worth_now
    return None if best is None else Choice(best, value, why="the best of a few turns at a glance")


def _paired(game: Rules[AlheimurState, AlheimurTurn], view: AlheimurState, seat: int, level: Any, rng: random.Random, budget: Any) -> Any:
    """The best of the glance's ``PAIRED_WIDTH`` best distinct turns (``order_turns``)
    by their playouts on the same luck, halved round by round
    (``paired.halve``: ``level.playouts`` playouts in all, the last two
    turns playing the most); None when the view has one turn."""
    from engine.bots.player import Choice

    turns = mcts.turns_of(game, view, mcts.turn_limit(level.playouts))
    if len(turns) <= 1:
        return None
    candidates = distinct(game, view, order_turns(game, view, turns, rng), PAIRED_WIDTH)
    found = paired.halve(game, view, seat, candidates, level.playouts, rng, HOOKS, budget)
    return Choice(found.turn, found.value, playouts=found.playouts,
                  why="the turns best at a glance, halved on the same luck")


def distinct(game: Rules[AlheimurState, AlheimurTurn], view: AlheimurState, turns: list[AlheimurTurn], count: int) -> list[AlheimurTurn]:
    """The first ``count`` of ``turns`` that lead to different positions:
    of a turn that leads where an earlier one did (the same moves in
    another order, a step that changes nothing), only the earlier is
    kept.  Some six turns in ten of a position of play repeat another,
    and one in six of the glance's best ten did (2026-12-03, 174
    positions of beginners' games)."""
    kept, seen = [], set()
    for turn in turns:
        try:
            after = game.apply(view, turn)
        except PbemError:
            after = None
        if after is not None:
            if after in seen:
                continue
            seen.add(after)
        kept.append(turn)
        if len(kept) == count:
            break
    return kept


#: tries at a random item before a playout's turn is the empty turn
ITEM_TRIES = 8


def random_turn(game: Rules[AlheimurState, AlheimurTurn], state: AlheimurState, rng: random.Random) -> Turn | None:
    """A playout's turn in play without listing any: the empty turn or one
    item, its kind (an expansion action, or a move of one of the six
    steps) picked at random among the kinds the position has, then the
    item of that kind, as the first turns of the list (the empty turn,
    then one item of each kind in turn) offer them; battles in world order
    and fire by the standing order.  Listing a playout ply's first 100
    turns was three quarters of a search's time.  None outside play (the
    setup's turns are listed)."""
    if state.phase != "play" or game.chance(state) is not None:
        return None
    mid = survive(state, None)
    kinds: list[Sequence[Expand | Civilize | Move]]
    kinds = [actions for actions in ([a for options in expansion_options(state) for a in options],) if actions]
    kinds += [moves for moves in (step_moves(mid, step) for step in STEPS) if moves]
    if not kinds or rng.random() < 1.0 / (1 + sum(len(k) for k in kinds)):
        return Turn()
    for _ in range(ITEM_TRIES):
        item = rng.choice(rng.choice(kinds))
        if isinstance(item, (Expand, Civilize)):
            try:
                expand(state, (item,), None)
            except IllegalTurnError:
                continue
            return Turn(expansion=(item,))
        if moved(mid, (item,)) is not None:
            return Turn(moves=(item,))
    return Turn()


#: version 6 (2026-12-03): medium compares the glance's best turns on the same luck (``_paired``);
#: the other levels play as in version 4 (version 5, a lookahead from medium up, was undone);
#: version 7 (2026-12-03): medium halves them (``paired.halve``), the last two playing some 80
#: samples, and compares only turns that lead to different positions (``distinct``);
#: version 8 (2026-12-03): hard does the same with more turns instead of version 4's tree search
#: (medium plays as in version 7; strongest, tried so too, was kept at 4);
#: version 9 (2026-12-06): three levels (``LEVELS``): beginner glances at a few turns of play,
#: medium plays as version 4's beginner, strongest as version 7's medium
#: version 10 (2026-12-07): the beginner stops reading turns at half its cap (``READING_SHARE``);
#: medium and strongest play as in version 9
HOOKS = Hooks(choose=choose, determinize=determinize, evaluate=evaluate, order_turns=order_turns,
              random_turn=random_turn, below_root=BELOW_ROOT, playout_plies=4, version=10,
              kept={"medium": 9, "strongest": 9}, levels=LEVELS, playouts=PLAYOUTS)
