"""Martian Greenhouse: a solitaire of breeding six-pyramid flowers to fill
an order list in as few breedings as possible.

The rules follow ``shared/rules/martian-greenhouse.txt`` and the rulings in
``notation/greenhouse/guide.md``.
"""

from engine.greenhouse.flowers import Breed, Flower, GiveUp, GreenhouseState, GreenhouseTurn
from engine.greenhouse.rules import GreenhouseGame

__all__ = ["Breed", "Flower", "GiveUp", "GreenhouseGame", "GreenhouseState", "GreenhouseTurn"]
