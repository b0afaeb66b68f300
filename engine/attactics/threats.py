"""Attactics: the most a player can take at once, for the strongest bot's
evaluation (``engine.attactics.bot``).

A position judged by its pyramids on the board alone is judged wrong
whenever the player to move can capture at once: the search stops at a
depth where one side is about to take three pieces and counts the board
as level.  ``best_capture`` says how much the best single move or clone of
a player changes the difference in pyramids on the board: a clone adds
one, each enemy piece captured (adjacent to the landing square, of its
size or smaller) counts twice (one less of theirs, one more of the
mover's).  It is a quick estimate, not a turn: it leaves out shrinks and
grows and a stash too short to replace every captured piece.

The board is read once into bit masks (one bit a square, one mask a
player's pieces of each size) and the landing squares worth looking at
are the empty squares next to an enemy piece.
"""

from __future__ import annotations

from engine.attactics.board import NEAR, REACH, SQUARES
from engine.attactics.state import AttacticsState

_NEAR_MASK = tuple(sum(1 << t for t in NEAR[s]) for s in SQUARES)
#: the squares a piece jumps from to land on a square: two away, not adjacent
_JUMP_MASK = tuple(sum(1 << t for t in REACH[s] if t not in NEAR[s]) for s in SQUARES)


def best_capture(state: AttacticsState, player: int) -> int:
    """How much ``player``'s best move or clone changes their lead in
    pyramids on the board (0 when no move captures or clones next to an
    enemy piece; see the module's docstring for what it leaves out)."""
    mine = [0, 0, 0, 0]
    theirs = [0, 0, 0, 0]
    occupied = 0
    for square, piece in enumerate(state.board):
        if piece:
            bit = 1 << square
            occupied |= bit
            if piece >> 2 == player:
                mine[piece & 3] |= bit
            else:
                theirs[piece & 3] |= bit
    enemy = theirs[1] | theirs[2] | theirs[3]
    if not enemy:
        return 0
    up_to = (0, theirs[1], theirs[1] | theirs[2], enemy)  # enemy pieces a piece of each size captures
    stash = state.stashes[player]
    cloned = [0, 0, 0, 0]  # the size a clone of each size is made with (0: none left)
    for size in (1, 2, 3):
        cloned[size] = next((z for z in range(size, 4) if stash[z - 1]), 0)
    landings = 0
    rest = enemy
    while rest:
        low = rest & -rest
        landings |= _NEAR_MASK[low.bit_length() - 1]
        rest ^= low
    landings &= ~occupied
    best = 0
    while landings:
        low = landings & -landings
        landings ^= low
        square = low.bit_length() - 1
        near, jump = _NEAR_MASK[square], _JUMP_MASK[square]
        for size in (3, 2, 1):
            made = cloned[size]
            if made and mine[size] & near:
                best = max(best, 1 + 2 * (up_to[made] & near).bit_count())
            if mine[size] & jump:
                best = max(best, 2 * (up_to[size] & near).bit_count())
    return best
