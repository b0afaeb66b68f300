"""The Logger growth phase: trees on the logger's rank and file grow, and
trees that were already mature spawn onto an empty adjacent square.

Growth is simultaneous: every tree grows at most one stage, a tree that
matured this turn does not spawn and a spawned tree does not grow.  The mover
writes the spawns that involve a choice; the rest are made for them, which is
only allowed where every remaining tree has at most one empty neighbour.
"""

from __future__ import annotations

from engine.errors import AmbiguousTurnError, IllegalTurnError
from engine.i18n import _
from engine.logger.board import LINES, MATURE_TREES, NEIGHBOURS, names, order, square_name

GROW = {"s": "S", "S": "M"}


def grow(board: list[str], logger: int) -> tuple[int, ...]:
    """Grow the trees of the logger's rank and file in place; return the
    trees that were mature before growth (the ones that spawn)."""
    spawners = []
    for square in sorted(LINES[logger], key=order):
        piece = board[square]
        if piece in MATURE_TREES:
            spawners.append(square)
        elif piece in GROW:
            board[square] = GROW[piece]
    return tuple(spawners)


def _options(board: list[str], tree: int) -> list[int]:
    return [n for n in NEIGHBOURS[tree] if board[n] == "."]


def spawn(
    board: list[str],
    spawners: tuple[int, ...],
    written: tuple[tuple[int, int], ...],
    stage: str,
) -> None:
    """Make the written spawns in order, then the forced ones, in place.

    Raises ``IllegalTurnError`` for a written spawn the rules forbid and
    ``AmbiguousTurnError`` when an unwritten tree has a choice of squares.
    """
    pending = list(spawners)
    for tree, square in written:
        if tree not in pending:
            if tree in spawners:
                raise IllegalTurnError(_('the tree on {tree} spawns only once', tree=square_name(tree)))
            if spawners:
                raise IllegalTurnError(
                    _("{tree} is not a tree that spawns this turn; the mature trees on the logger's rank and file are: {spawners}", tree=square_name(tree), spawners=names(spawners))
                )
            raise IllegalTurnError(
                _("{tree} is not a tree that spawns this turn; no mature tree stands on the logger's rank or file", tree=square_name(tree))
            )
        choices = _options(board, tree)
        if square not in choices:
            where = names(choices) if choices else "nowhere (it has no empty neighbour)"
            raise IllegalTurnError(
                _('the tree on {tree} cannot spawn onto {square}; it can spawn onto {where}', tree=square_name(tree), square=square_name(square), where=where)
            )
        board[square] = stage
        pending.remove(tree)
    open_choices = [(t, _options(board, t)) for t in pending]
    undecided = [(t, c) for t, c in open_choices if len(c) > 1]
    if undecided:
        detail = "; ".join(f"{square_name(t)} could spawn onto {names(c)}" for t, c in undecided)
        example = ",".join(f"{square_name(t)}>{square_name(c[0])}" for t, c in undecided)
        raise AmbiguousTurnError(
            _('the growth leaves a choice unstated: {detail}. Write the spawn of every tree that has a choice, for example G:{example}', detail=detail, example=example)
        )
    for tree in pending:
        choices = _options(board, tree)
        if choices:
            board[choices[0]] = stage


def outcomes(
    board: list[str], spawners: tuple[int, ...]
) -> dict[frozenset[int], tuple[tuple[int, int], ...]]:
    """Every distinct result of the spawns, each with the shortest (then
    first in board order) written spawn list that produces it.

    The result is keyed by the set of squares that receive a spawned tree.
    """
    results: dict[frozenset[int], tuple[tuple[int, int], ...]] = {}
    frontier: list[tuple[tuple[tuple[int, int], ...], frozenset[int], frozenset[int]]] = [
        ((), frozenset(spawners), frozenset())
    ]
    seen: set[tuple[frozenset[int], frozenset[int]]] = set()
    while frontier:
        following = []
        for written, pending, filled in frontier:
            choices = {
                t: [n for n in NEIGHBOURS[t] if board[n] == "." and n not in filled] for t in pending
            }
            if all(len(c) <= 1 for c in choices.values()):
                final = filled | {c[0] for c in choices.values() if c}
                results.setdefault(final, written)
                continue
            key = (pending, filled)
            if key in seen:
                continue
            seen.add(key)
            for tree in sorted(pending, key=order):
                for square in choices[tree]:
                    following.append((written + ((tree, square),), pending - {tree}, filled | {square}))
        frontier = following
    return results
