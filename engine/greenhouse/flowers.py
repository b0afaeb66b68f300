"""Martian Greenhouse values: chromosomes, flowers, the state and the turns.

A chromosome is a pyramid written size then colour letter (``1P`` is a small
purple); a flower's genes are six chromosomes listed from the top of the
stack down.  Everything here is immutable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

#: colour letter -> name, in the order the rulings list them (and the order
#: stashes are written in and put in the bag before the shuffle)
COLOURS = {
    "R": "red", "Y": "yellow", "G": "green", "B": "blue", "K": "black",
    "P": "purple", "C": "cyan", "O": "orange", "W": "white", "X": "clear",
}
SIZES = ("1", "2", "3")
#: pyramids of each size in one stash
PER_SIZE = 5
#: chromosomes in a flower
GENES = 6

Genes = tuple[str, ...]
_CHROMOSOME = re.compile(r"([123])([A-Za-z])")


def is_chromosome(text: str) -> bool:
    return len(text) == 2 and text[0] in SIZES and text[1] in COLOURS


def split_genes(text: str) -> Genes:
    """``"1P1B2P"`` -> ``("1P", "1B", "2P")`` (no checking beyond pairs)."""
    return tuple(text[i:i + 2] for i in range(0, len(text), 2))


def genes_text(genes: Genes, sep: str = " ") -> str:
    return sep.join(genes)


def stash_pyramids(colours: str) -> list[str]:
    """Every pyramid of the stashes, in bag order: colour by colour as
    written, small to large, five of each."""
    return [size + colour for colour in colours for size in SIZES for _ in range(PER_SIZE)]


@dataclass(frozen=True, slots=True)
class Flower:
    """A numbered flower in the greenhouse."""

    number: int
    genes: Genes


@dataclass(frozen=True, slots=True)
class GreenhouseState:
    """A Martian Greenhouse position.

    ``flowers``: the greenhouse, by number.  ``siblings``: pairs of numbers
    (smaller first, sorted) of flowers still in the greenhouse that were bred
    together.  ``orders``: the order list as given.  ``filled``: per order,
    the number of the flower that filled it, 0 while unfilled.
    ``next_number``: the number the next new flower gets.  ``breedings``:
    how many so far (the score).  ``given_up``: the player gave up.
    """

    flowers: tuple[Flower, ...]
    siblings: tuple[tuple[int, int], ...]
    orders: tuple[Genes, ...]
    filled: tuple[int, ...]
    next_number: int
    breedings: int = 0
    given_up: bool = False

    @property
    def unfilled(self) -> tuple[Genes, ...]:
        return tuple(o for o, f in zip(self.orders, self.filled) if not f)

    @property
    def done(self) -> bool:
        return all(self.filled)

    @property
    def over(self) -> bool:
        return self.given_up or self.done

    def flower(self, number: int) -> Flower | None:
        for flower in self.flowers:
            if flower.number == number:
                return flower
        return None

    def are_siblings(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.siblings


@dataclass(frozen=True, slots=True)
class Breed:
    """Breed flowers ``a`` and ``b`` (``a < b``) into ``first`` and
    ``second``; ``first`` gets the next number, ``second`` the one after."""

    a: int
    b: int
    first: Genes
    second: Genes


@dataclass(frozen=True, slots=True)
class GiveUp:
    """The player gives up; the game ends unfinished."""


GreenhouseTurn = Union[Breed, GiveUp]
