"""Alheimur played by clicking, answered from the rules, prefix first.

A turn in play is clicked item by item in the order its text is written
(``AlheimurNotation.turn_clicks``): the expansion actions in world order,
then the moves in step order, then the sections after the items
(``battles ...``, ``fire ...``), or ``pass`` for a turn without items.
The legal turns of a position in play can be astronomically many, so the
generic ``notation.clicks.click_options`` (which scans at most
``SCAN_LIMIT`` of them, in ``engine.alheimur.turns.play_turns`` order) can
take seconds and offer an incomplete set of next clicks.

``click_options`` here walks the same tree of turns as ``play_turns`` (an
expansion action per world in world order, each kept when the rules accept
it; then moves of steps 1 to 6, each kept when the rules accept the moves
so far; then each turn's battle and fire variants), but only down the
branches whose clicks agree with the clicks made so far.  A branch whose
clicks go one past them gives a next click; below it every turn agrees,
so it is walked only to count those turns, at most ``BUDGET`` of them in
all.  So ``next`` and ``complete`` are always whole (every next click and
every completed turn the rules allow); ``count`` and ``text`` are those of
the generic scan whenever the turns agreeing with the clicks number at
most ``BUDGET``; beyond, ``cut`` says ``count`` is a lower bound (the
next clicks are still every one) and ``text`` is the start shared by the
completed turns and one turn per next click (turns part within the text of
their next clicks), or by the turns after the only next click.  ``next`` is in the order of the walk (the items in their
written order), which is the generic scan's set but not always its order.
Setup choices (world building, starting colonists) are few: they go to the
generic scan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from engine.alheimur.pieces import STEP, AlheimurState, Civilize, Expand, Turn
from engine.alheimur.survival import expand, survive
from engine.alheimur.turns import MOST_ITEMS, STEPS, expansion_options, moved, step_moves, variants
from engine.errors import IllegalTurnError
from notation.clicks import ClickOptions, common_start
from notation.clicks import click_options as generic_click_options

#: at most this many turns agreeing with the clicks are walked to count them
#: (and to find the start of text they share); the next clicks and the
#: completed turns are found whatever their number
BUDGET = 200

@dataclass
class _Walk:
    """What the walk has found so far for one ``prefix``."""

    notation: Any
    state: AlheimurState
    prefix: tuple[str, ...]
    budget: int
    nexts: dict[str, str] = field(default_factory=dict)  # next click -> a turn's text it leads to
    complete: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    count: int = 0
    cut: bool = False

    def item_clicks(self, item: Any) -> tuple[str, ...]:
        """The clicks of one expansion action or move, as written alone."""
        return tuple(self.notation.turn_clicks(self.state, Turn(moves=(item,))))

    def fits(self, clicks: tuple[str, ...]) -> bool:
        """``clicks`` and the prefix agree as far as both go."""
        n = min(len(clicks), len(self.prefix))
        return clicks[:n] == self.prefix[:n]

    def visit(self, turn: Turn, after: AlheimurState) -> None:
        """The turn and its variants (``variants``), where their clicks agree."""
        for variant in variants(turn, after):
            clicks = tuple(self.notation.turn_clicks(self.state, variant))
            if clicks[:len(self.prefix)] != self.prefix:
                continue
            text = self.notation.format_turn(self.state, variant)
            if len(clicks) == len(self.prefix):
                self.complete.append(text)
            else:
                self.nexts.setdefault(clicks[len(self.prefix)], text)
            self.counted(text)

    def counted(self, text: str) -> None:
        if self.count >= self.budget:
            self.cut = True
            return
        self.count += 1
        self.texts.append(text)

    def beyond(self, clicks: tuple[str, ...], turn: Turn) -> bool:
        """Past the prefix and no longer counting: the branch (of the legal
        ``turn``) gives its next click and needs no walk."""
        if len(clicks) <= len(self.prefix) or not self.cut:
            return False
        self.nexts.setdefault(clicks[len(self.prefix)], self.notation.format_turn(self.state, turn))
        return True


def click_options(notation: Any, state: AlheimurState, prefix: Sequence[str], budget: int = BUDGET) -> ClickOptions:
    """What may be clicked after ``prefix``, counting at most ``budget``
    turns (see the module's docstring)."""
    prefix = tuple(prefix)
    if state.phase != "play" or notation.game.chance(state) is not None:
        return generic_click_options(notation, state, prefix)
    walk = _Walk(notation, state, prefix, budget)
    per_world = expansion_options(state)
    _expansions(walk, per_world, 0, (), ())
    if walk.cut:
        # turns with different next clicks part within the text of those clicks: one turn
        # for each shows where; with a single next click, the turns after it show it
        texts = list(walk.complete) + list(walk.nexts.values())
        if len(walk.nexts) == 1:
            texts = list(walk.complete) + [click_options(notation, state, (*prefix, *walk.nexts), 0).text]
        return ClickOptions(tuple(walk.nexts), tuple(walk.complete), common_start(texts), walk.count, True)
    return ClickOptions(tuple(walk.nexts), tuple(walk.complete), common_start(walk.texts), walk.count, False)


def _expansions(walk: _Walk, per_world: list[list[Expand | Civilize]], first: int,
                chosen: tuple[Expand | Civilize, ...], clicks: tuple[str, ...]) -> None:
    """The turns whose expansion actions start with ``chosen`` (the next on
    a world from ``first`` on): with no more actions (moves may follow),
    then with one more."""
    state = walk.state
    try:
        mid = survive(expand(state, chosen, []), [])
    except IllegalTurnError:
        return
    _moves(walk, Turn(expansion=chosen), mid, mid, 0, clicks)
    if len(chosen) >= MOST_ITEMS:
        return
    stash = state.stash(state.current)
    for index in range(first, len(per_world)):
        for action in per_world[index]:
            if stash[action.size] <= sum(1 for a in chosen if a.size == action.size):
                continue
            longer = clicks + walk.item_clicks(action)
            if not walk.fits(longer):
                continue
            if len(longer) > len(walk.prefix) and walk.cut:  # its next click, if the rules accept it
                try:
                    expand(state, chosen + (action,), [])
                except IllegalTurnError:
                    continue
            if not walk.beyond(longer, Turn(expansion=chosen + (action,))):
                _expansions(walk, per_world, index + 1, chosen + (action,), longer)


def _moves(walk: _Walk, turn: Turn, start: AlheimurState, after: AlheimurState, step: int,
           clicks: tuple[str, ...]) -> None:
    """``turn`` (its moves played to ``after``; those of its last step,
    ``step``, from ``start``) and every turn adding moves of steps ``step``
    on (of step 1 on, when ``step`` is 0: no move yet)."""
    walk.visit(turn, after)
    if len(turn.expansion) + len(turn.moves) >= MOST_ITEMS:
        return
    same = tuple(m for m in turn.moves if STEP[type(m)] == step)
    for s in STEPS[max(step, 1) - 1:]:
        for m in step_moves(after, s):
            longer = clicks + walk.item_clicks(m)
            if not walk.fits(longer):
                continue
            moves = turn.moves + (m,)
            # the rules play a step's moves from the step's start (``move`` keeps no other
            # account across steps), so only this step's moves are played again
            later = moved(start, same + (m,)) if s == step else moved(after, (m,))
            if later is not None and not walk.beyond(longer, Turn(expansion=turn.expansion, moves=moves)):
                _moves(walk, Turn(expansion=turn.expansion, moves=moves), start if s == step else after, later, s,
                       longer)
