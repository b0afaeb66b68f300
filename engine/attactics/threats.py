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

from itertools import compress

from engine.attactics.board import NEAR, REACH, SQUARES
from engine.attactics.state import AttacticsState

_BITS = tuple(1 << s for s in SQUARES)
_NEAR_MASK = tuple(sum(1 << t for t in NEAR[s]) for s in SQUARES)
#: the squares a piece jumps from to land on a square: two away, not adjacent
_JUMP_MASK = tuple(sum(1 << t for t in REACH[s] if t not in NEAR[s]) for s in SQUARES)


def best_capture(state: AttacticsState, player: int) -> int:
    """How much ``player``'s best move or clone changes their lead in
    pyramids on the board (0 when no move captures or clones next to an
    enemy piece; see the module's docstring for what it leaves out)."""
    board = state.board
    by_code = [0] * (4 * state.players)  # a mask of the squares of each piece code
    for square in compress(SQUARES, board):
        by_code[board[square]] |= _BITS[square]
    mine = by_code[4 * player:4 * player + 4]
    theirs = [0, 0, 0, 0]
    for base in range(0, len(by_code), 4):
        if base != 4 * player:
            for size in (1, 2, 3):
                theirs[size] |= by_code[base + size]
    enemy = theirs[1] | theirs[2] | theirs[3]
    if not enemy:
        return 0
    up_to = (0, theirs[1], theirs[1] | theirs[2], enemy)  # enemy pieces a piece of each size captures
    stash = state.stashes[player]
    # a larger piece captures what a smaller one does and more, and a clone is made with the smallest
    # size in the stash from its own up, which grows with the size cloned: at a square, the largest
    # piece that clones (or jumps) to it captures the most, so only it is counted
    clones = []  # (my pieces of a size, what a clone of them captures), largest first
    jumps = []
    for size in (3, 2, 1):
        if mine[size]:
            made = next((z for z in range(size, 4) if stash[z - 1]), 0)
            if made:
                clones.append((mine[size], up_to[made]))
            jumps.append((mine[size], up_to[size]))
    landings = 0
    rest = enemy
    while rest:
        low = rest & -rest
        landings |= _NEAR_MASK[low.bit_length() - 1]
        rest ^= low
    landings &= ~(enemy | mine[1] | mine[2] | mine[3])
    best = 0
    while landings:
        low = landings & -landings
        landings ^= low
        square = low.bit_length() - 1
        near = _NEAR_MASK[square]
        if 1 + 2 * (enemy & near).bit_count() <= best:  # not even taking every neighbour would do better
            continue
        for pieces, captured in clones:
            if pieces & near:
                gain = 1 + 2 * (captured & near).bit_count()
                if gain > best:
                    best = gain
                break
        jump = _JUMP_MASK[square]
        for pieces, captured in jumps:
            if pieces & jump:
                gain = 2 * (captured & near).bit_count()
                if gain > best:
                    best = gain
                break
    return best
