"""The choice part of an Attactics turn: the capture replacement chain and
the reductions of a grow.

Both are described as *outcomes*: every distinct final position the rules
allow, each with the token sets that produce it.  A token is a ``Fill``: one
per affected square, and for a piece taken from the board two, ``BOARD`` on
the captured square and ``USED`` on the square it came from.  Which board
piece serves which captured square of the same size never changes the
position, so the tokens leave that pairing out and the mover may write any.
A turn picks one outcome by the fills the mover writes; the canonical turn
writes the fewest fills that pin its outcome down.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations, product

from engine.attactics.board import code, order, owner, size_of
from engine.attactics.state import Fill
from engine.i18n import _

#: an outcome of a turn, as ``Work.key`` gives it: the final board and
#: stashes (``()`` for a turn that leaves nothing to settle)
OutcomeKey = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | tuple[()]


class Work:
    """A mutable board and stashes, for building the next position."""

    def __init__(self, board: Iterable[int], stashes: Iterable[Iterable[int]]):
        self.board = list(board)
        self.stashes = [list(s) for s in stashes]

    def copy(self) -> Work:
        return Work(self.board, self.stashes)

    def take(self, square: int, player: int, size: int) -> None:
        """Put a piece of ``size`` from ``player``'s stash on ``square``."""
        self.stashes[player][size - 1] -= 1
        self.board[square] = code(player, size)

    def remove(self, square: int) -> None:
        """Return the piece on ``square`` to its owner's stash."""
        piece = self.board[square]
        self.stashes[owner(piece)][size_of(piece) - 1] += 1
        self.board[square] = 0

    def key(self) -> OutcomeKey:
        return tuple(self.board), tuple(tuple(s) for s in self.stashes)


@dataclass
class Captures:
    """Captured squares (already emptied) waiting for replacements."""

    mover: int
    sizes: dict[int, int]  # captured square -> size of the captured piece
    forbidden: frozenset[int]  # mover's pieces that may not serve from the board

    def is_forced(self, stash: list[int]) -> bool:
        """True when the stash covers every capture with its own size."""
        need = [0, 0, 0]
        for size in self.sizes.values():
            need[size - 1] += 1
        return all(n <= s for n, s in zip(need, stash))


@dataclass
class Reductions:
    """The pieces next to a grown piece: smalls go, the rest shrink a size
    as far as each owner's stash (as it stood before the reductions) allows."""

    squares: tuple[int, ...]


def no_choice(work: Work, pending: Captures | Reductions | None) -> bool:
    """A quick test that the rules leave the mover nothing to choose."""
    if pending is None:
        return True
    if isinstance(pending, Captures):
        return pending.is_forced(work.stashes[pending.mover])
    need: dict[tuple[int, int], int] = {}
    for square in pending.squares:
        piece = work.board[square]
        if size_of(piece) > 1:
            slot = (owner(piece), size_of(piece) - 2)
            need[slot] = need.get(slot, 0) + 1
    return all(count <= work.stashes[p][k] or not work.stashes[p][k] for (p, k), count in need.items())


BOARD = -1  # token source: this captured square is served from the board
USED = -2  # token source: the mover's piece on this square served; it empties


def tokens(fills: Iterable[Fill]) -> frozenset[Fill]:
    """Written fills as tokens (``d4=h2`` is ``BOARD`` on d4, ``USED`` on h2)."""
    result = set()
    for fill in fills:
        if fill.source is None or fill.source < 0:
            result.add(fill)
        else:
            result.add(Fill(fill.square, fill.size, BOARD))
            result.add(Fill(fill.source, fill.size, USED))
    return frozenset(result)


def writable(clause: Iterable[Fill]) -> tuple[Fill, ...]:
    """Tokens back as fills, pairing board squares and sources in order."""
    plain: list[Fill] = []
    board: dict[int, list[int]] = {}
    used: dict[int, list[int]] = {}
    for token in clause:
        if token.source == BOARD:
            board.setdefault(token.size, []).append(token.square)
        elif token.source == USED:
            used.setdefault(token.size, []).append(token.square)
        else:
            plain.append(token)
    for size, squares in board.items():
        pairs = zip(sorted(squares, key=order), sorted(used.get(size, []), key=order))
        plain.extend(Fill(square, size, source) for square, source in pairs)
    return tuple(sorted(plain, key=fill_key))


def capture_fills(work: Work, captures: Captures) -> list[frozenset[Fill]]:
    """Every token set the replacement chain allows, serving the captures
    in any order and taking any allowed board piece."""
    board = work.board
    sizes = captures.sizes
    available: dict[int, list[int]] = {1: [], 2: [], 3: []}
    for square in sorted(range(64), key=order):
        piece = board[square]
        if piece and owner(piece) == captures.mover and square not in captures.forbidden:
            available[size_of(piece)].append(square)
    memo: dict[tuple[frozenset[int], tuple[int, ...], tuple[int, ...]], set[frozenset[Fill]]] = {}

    def serve(remaining: frozenset[int], stash: tuple[int, ...], used: tuple[int, ...]) -> set[frozenset[Fill]]:
        if not remaining:
            return {frozenset()}
        key = (remaining, stash, used)
        if key in memo:
            return memo[key]
        results: set[frozenset[Fill]] = set()
        for square in remaining:
            size = sizes[square]
            if stash[size - 1]:
                fill, stash_after, used_after = Fill(square, size), _less(stash, size), used
            elif len(available[size]) > used[size - 1]:
                fill, stash_after, used_after = Fill(square, size, BOARD), stash, _more(used, size)
            else:
                larger = next((k for k in range(size + 1, 4) if stash[k - 1]), 0)
                fill, stash_after, used_after = Fill(square, larger), _less(stash, larger) if larger else stash, used
            for tail in serve(remaining - {square}, stash_after, used_after):
                results.add(tail | {fill})
        memo[key] = results
        return results

    result = []
    for served in serve(frozenset(sizes), tuple(work.stashes[captures.mover]), (0, 0, 0)):
        counts = {k: sum(1 for f in served if f.source == BOARD and f.size == k) for k in (1, 2, 3)}
        choices = [combinations(available[k], counts[k]) for k in (1, 2, 3)]
        for picks in product(*choices):
            used = {Fill(square, k + 1, USED) for k, pick in enumerate(picks) for square in pick}
            result.append(served | used)
    return result


def _less(stash: tuple[int, ...], size: int) -> tuple[int, ...]:
    result = list(stash)
    result[size - 1] -= 1
    return tuple(result)


def _more(used: tuple[int, ...], size: int) -> tuple[int, ...]:
    result = list(used)
    result[size - 1] += 1
    return tuple(result)


def place_fills(work: Work, mover: int, fills: Iterable[Fill]) -> None:
    """Make the replacements of a capture, given as tokens, in place."""
    for fill in fills:
        if fill.source == USED:
            work.board[fill.square] = 0
        elif fill.source == BOARD:
            work.board[fill.square] = code(mover, fill.size)
        elif fill.size:
            work.take(fill.square, mover, fill.size)


def reduction_fills(work: Work, reductions: Reductions) -> list[frozenset[Fill]]:
    """Every fill set the reductions allow (the mover choosing which pieces
    an owner's short stash reduces)."""
    fixed: list[Fill] = []
    groups: dict[tuple[int, int], list[int]] = {}
    for square in reductions.squares:
        piece = work.board[square]
        if size_of(piece) == 1:
            fixed.append(Fill(square, 0))
        else:
            groups.setdefault((owner(piece), size_of(piece)), []).append(square)
    choices = []
    for (player, size), squares in sorted(groups.items()):
        room = work.stashes[player][size - 2]
        picks = combinations(squares, min(room, len(squares)))
        choices.append(
            [tuple(Fill(s, size - 1 if s in pick else size) for s in squares) for pick in picks]
        )
    return [frozenset(fixed).union(*combo) for combo in product(*choices)]


def reduce(work: Work, fills: Iterable[Fill]) -> None:
    """Make the reductions in place; stashes as they stood before serve
    every reduction, and the pieces reduced go back afterwards."""
    for fill in fills:
        piece = work.board[fill.square]
        if fill.size == size_of(piece):
            continue
        player = owner(piece)
        if fill.size:
            work.stashes[player][fill.size - 1] -= 1
            work.board[fill.square] = code(player, fill.size)
            work.stashes[player][size_of(piece) - 1] += 1
        else:
            work.remove(fill.square)


def fills_text(fills: Iterable[Fill]) -> str:
    """Fills as the notation writes them: ``d4=b2 e5=l f6=.``."""
    from engine.attactics.board import SIZE_LETTERS, square_name

    parts = []
    for fill in sorted(fills, key=fill_key):
        what = square_name(fill.source) if fill.source is not None else SIZE_LETTERS[fill.size]
        parts.append(f"{square_name(fill.square)}={what}")
    return " ".join(parts)


def fill_key(fill: Fill) -> tuple[tuple[int, int], int, int]:
    """Fills in notation order: by square, then size, then source."""
    return order(fill.square), fill.size, -1 if fill.source is None else fill.source


class Index:
    """Which outcomes a token set can mean, found by set intersection: each
    token maps to the (outcome, token set) pairs holding it."""

    def __init__(self, outcomes: dict[OutcomeKey, list[frozenset[Fill]]]):
        self.outcomes = outcomes
        self.by_token: dict[Fill, set[tuple[OutcomeKey, int]]] = {}
        for key, sets in outcomes.items():
            for i, fills in enumerate(sets):
                for fill in fills:
                    self.by_token.setdefault(fill, set()).add((key, i))

    def matching(self, clause: frozenset[Fill]) -> list[OutcomeKey]:
        """The outcomes some token set of which includes ``clause``."""
        if not clause:
            return list(self.outcomes)
        groups = sorted((self.by_token.get(token, set()) for token in clause), key=len)
        keys = {key for key, _ in groups[0].intersection(*groups[1:])}
        return [k for k in self.outcomes if k in keys]

    def canonical(self, key: OutcomeKey) -> tuple[Fill, ...]:
        """The fewest fills (first in notation order) that single out ``key``."""
        return self.canonical_all(key)[key]

    def canonical_all(self, wanted: OutcomeKey | None = None) -> dict[OutcomeKey, tuple[Fill, ...]]:
        """The canonical fills of every outcome (or at least of ``wanted``):
        for each count of squares, each choice of squares in notation order,
        the first clause of an outcome that no other outcome shares."""
        keys = list(self.outcomes)
        if len(keys) == 1:
            return {keys[0]: ()}
        ordered = {k: sorted(sets, key=lambda a: sorted(map(fill_key, a))) for k, sets in self.outcomes.items()}
        squares = affected(self.outcomes)
        result: dict[OutcomeKey, tuple[Fill, ...]] = {}
        for count in range(1, len(squares) + 1):
            for chosen in combinations(squares, count):
                inside = set(chosen)
                clauses = {k: [c for a in ordered[k] for c in _clauses(a, inside)] for k in keys}
                owners: dict[frozenset[Fill], set[OutcomeKey]] = {}
                for k, found in clauses.items():
                    for clause in found:
                        owners.setdefault(clause, set()).add(k)
                for k in keys:
                    if k not in result:
                        single = next((c for c in clauses[k] if len(owners[c]) == 1), None)
                        if single is not None:
                            result[k] = writable(single)
                if len(result) == len(keys) or wanted in result:
                    return result
        raise AssertionError(_('an outcome that no fills single out'))  # pragma: no cover


def _clauses(assignment: frozenset[Fill], inside: set[int]) -> list[frozenset[Fill]]:
    """The clauses that state ``assignment`` on the squares ``inside``: a
    board-served square takes one of the sources the assignment uses."""
    base = [t for t in assignment if t.square in inside and t.source != USED]
    wants = {k: sum(1 for t in base if t.source == BOARD and t.size == k) for k in (1, 2, 3)}
    if not any(wants.values()):
        return [frozenset(base)]
    sources = {k: sorted((t.square for t in assignment if t.source == USED and t.size == k), key=order) for k in (1, 2, 3)}
    picks = product(*(combinations(sources[k], wants[k]) for k in (1, 2, 3)))
    return [
        frozenset(base).union(Fill(s, k + 1, USED) for k, pick in enumerate(choice) for s in pick)
        for choice in picks
    ]


def affected(outcomes: dict[OutcomeKey, list[frozenset[Fill]]]) -> list[int]:
    """The squares a turn's fills may name: captured and reduced squares."""
    squares = {f.square for sets in outcomes.values() for s in sets for f in s if f.source != USED}
    return sorted(squares, key=order)
