"""Shared values for the Martian Greenhouse tests: the rules' own example
flowers in a full four-stash greenhouse."""

from collections import Counter

from engine.greenhouse.flowers import split_genes, stash_pyramids
from notation.greenhouse import NOTATION

RULES = NOTATION.game
SEED = "00" * 31 + "01"
#: the rules' example: flower 1, flower 2, the later greenhouse flower
EXAMPLE = [split_genes("2B3R1B1B2P3R"), split_genes("2C1P1C1R2B3P"), split_genes("3P1P2P2P3R3P")]
PURE_PURPLE = split_genes("1P1P2P2P3P3P")


def example_greenhouse() -> list[tuple[str, ...]]:
    """The example's three flowers, then the rest of the four default
    stashes stacked in bag order: ten flowers in all."""
    left = Counter(stash_pyramids("RBPC")) - Counter(g for f in EXAMPLE for g in f)
    rest = sorted(left.elements())
    return EXAMPLE + [tuple(rest[i:i + 6]) for i in range(0, len(rest), 6)]


def example_start():
    return RULES.start(example_greenhouse(), [PURE_PURPLE])
