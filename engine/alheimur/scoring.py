"""Final scoring: five element scores, progress, the product and the sum.

A region's score for a player is the pips of their largest pyramid in the
region times the region's tiles.  An element score is the best over the
regions of that element the player occupies, 0.5 when they occupy no
territory of the element.  Progress is 1 per ship (fighters and
transports; marines are not ships) plus 3 per world where the player has
pyramids.  The total is highest element x lowest element x progress, plus
the other three element scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.alheimur.deck import ELEMENTS
from engine.alheimur.pieces import AlheimurState
from engine.alheimur.worlds import geometry

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class Score:
    elements: dict[str, Fraction]  # by element letter
    progress: int
    total: Fraction

    def text(self) -> str:
        parts = " ".join(f"{ELEMENTS[e]} {_num(v)}" for e, v in self.elements.items())
        return f"{parts}, progress {self.progress}: total {_num(self.total)}"


def _num(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def score(state: AlheimurState, player: int) -> Score:
    best: dict[str, Fraction] = {}
    worlds = 0
    for world in state.worlds:
        mine = {t: p for t, p in world.pieces if p.owner == player}
        if mine:
            worlds += 1
        geo = geometry(world.layout)
        for region in geo.regions:
            sizes = [mine[t].size for t in region if t in mine]
            if sizes:
                element = geo.territory(next(iter(region))).element
                value = Fraction(max(sizes) * geo.tiles_in(region))
                best[element] = max(best.get(element, Fraction(0)), value)
    elements = {e: best.get(e, HALF) for e in ELEMENTS}
    ships = sum(1 for s in state.all_ships() if s.owner == player)
    progress = ships + 3 * worlds
    values = sorted(elements.values())
    total = values[-1] * values[0] * progress + sum(values[1:-1])
    return Score(elements, progress, total)
