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
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from engine.alheimur.deck import DECK, turned
from engine.alheimur.pieces import AlheimurState
from engine.base import Game
from engine.bots.hooks import Hooks
from engine.bots.hooks import unseen as unseen_of

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


def determinize(game: Game, view: AlheimurState, seat: int, rng: random.Random) -> AlheimurState:
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


HOOKS = Hooks(determinize=determinize)
