"""The 40 Element cards of Aquarius as the rulings fix them: the one table
that the rules, the renderer and the docs read.

A card is 2 x 2 tiles.  It is written as four element letters, its tiles
top-left, top-right, bottom-left, bottom-right (reading order), so the
text of a card is also its name::

    AAAA   a whole card: one territory of 4 tiles
    AAEE   a half card split across: air on top, earth below
    AEAE   a half card split down: air on the left, earth on the right
    EFWT   a quartered card: four territories of 1 tile

The tiles of one element on one card form one territory.  A card turned
half a turn reads backwards (``AAEE`` turned is ``EEAA``).

The elements are air ``A``, earth ``E``, fire ``F``, water ``W`` and ether
``T`` (aeTher: ``E`` is taken by earth).

The quartered cards: for each element, two cards showing the other four
elements o1..o4 (in the order A E F W T), one per quarter.  The first
arrangement reads ``o1 o2 o3 o4`` (o1 and o4 on one diagonal), the second
``o1 o3 o4 o2`` (o1 and o2 on one diagonal), so the two never match even
when one is turned.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

#: element letter -> name, in the order the docs list them
ELEMENTS: dict[str, str] = {"A": "air", "E": "earth", "F": "fire", "W": "water", "T": "ether"}
#: CSS colours of the elements, for the pictures
ELEMENT_COLOURS: dict[str, str] = {
    "A": "#e8f4fa", "E": "#a07a4a", "F": "#e0482f", "W": "#2f78c4", "T": "#b08fd8",
}


def _whole() -> list[str]:
    return [e * 4 for e in ELEMENTS for _ in range(2)]


def _halves() -> list[str]:
    cards = []
    for a, b in combinations(ELEMENTS, 2):
        cards.append(a + a + b + b)  # split across: a on top, b below
        cards.append(a + b + a + b)  # split down: a left, b right
    return cards


def _quarters() -> list[str]:
    cards = []
    for missing in ELEMENTS:
        o1, o2, o3, o4 = (e for e in ELEMENTS if e != missing)
        cards.append(o1 + o2 + o3 + o4)
        cards.append(o1 + o3 + o4 + o2)
    return cards


#: the deck in its fixed order (whole, half, quartered), the order the deal
#: draws from; the two whole cards of an element share a name
DECK: tuple[str, ...] = tuple(_whole() + _halves() + _quarters())


def turned(card: str) -> str:
    """The card turned half a turn (180 degrees)."""
    return card[::-1]


def kind(card: str) -> str:
    """``whole``, ``half`` or ``quartered``."""
    return {1: "whole", 2: "half", 4: "quartered"}[len(set(card))]


def territories(card: str) -> list[tuple[str, tuple[int, ...]]]:
    """The card's territories: (element, tile indexes 0-3 in reading order),
    in the order their first tiles appear."""
    seen: dict[str, list[int]] = {}
    for i, element in enumerate(card):
        seen.setdefault(element, []).append(i)
    return [(e, tuple(tiles)) for e, tiles in seen.items()]


def census() -> dict[str, tuple[int, int]]:
    """Per element: (territories, tiles) over the whole deck."""
    terr: Counter[str] = Counter()
    tiles: Counter[str] = Counter()
    for card in DECK:
        for element, where in territories(card):
            terr[element] += 1
            tiles[element] += len(where)
    return {e: (terr[e], tiles[e]) for e in ELEMENTS}


def deck_table() -> str:
    """Every card as a small picture (its 2 x 2 tiles), ten to a row, with
    its name above: the table ``notation/alheimur/guide.md`` shows."""
    rows = []
    for start in range(0, len(DECK), 10):
        cards = DECK[start:start + 10]
        rows.append("  ".join(f"{c:<4}" for c in cards).rstrip())
        rows.append("  ".join(f"{c[0]}{c[1]}  " for c in cards).rstrip())
        rows.append("  ".join(f"{c[2]}{c[3]}  " for c in cards).rstrip())
        rows.append("")
    return "\n".join(rows).rstrip() + "\n"
