"""The Attactics rules on the engine interface: move/clone, grow, shrink,
captures with their replacement chain, elimination and the two wins."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from engine.attactics import settle
from engine.attactics.board import (
    CORNERS,
    NEAR,
    PIECES,
    REACH,
    SIZE_WORDS,
    code,
    is_near,
    names,
    order,
    owner,
    size_of,
    square_name,
)
from engine.attactics.settle import Captures, OutcomeKey, Reductions, Work
from engine.attactics.state import AttacticsState, Fill, Grow, Move, Shrink, Turn
from engine.base import Result, Rules, standings
from engine.errors import AmbiguousTurnError, GameOverError, IllegalTurnError
from engine.i18n import N_, _

Outcomes = dict[OutcomeKey, list[frozenset[Fill]]]
_LISTED = 12  # options listed in an error message at most


def turn_text(turn: Turn) -> str:
    """The canonical text of a turn (``a1-c3 d4=b2``, ``c3+``, ``c3-``)."""
    if isinstance(turn, Move):
        head = f"{square_name(turn.frm)}-{square_name(turn.to)}"
    else:
        head = square_name(turn.square) + ("+" if isinstance(turn, Grow) else "-")
    tail = settle.fills_text(turn.fills)
    return f"{head} {tail}" if tail else head


class AttacticsGame(Rules[AttacticsState, Turn]):
    name = "attactics"
    title = "Attactics"
    min_players = 2
    max_players = 4

    # -- setup and queries ---------------------------------------------
    def initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> AttacticsState:
        self.check_players(players)
        self.normalize_options(options)
        board = [0] * 64
        for player in range(players):
            board[CORNERS[player]] = code(player, 1)
        return AttacticsState(tuple(board), players, 0, ((4, 5, 5),) * players)

    def players(self, state: AttacticsState) -> int:
        return state.players

    def to_move(self, state: AttacticsState) -> int | None:
        return state.to_move

    def scores(self, state: AttacticsState) -> tuple[int, ...]:
        """Pyramids on the board, per player."""
        return tuple(state.on_board(p) for p in range(state.players))

    def bot_hooks(self) -> Any:
        from engine.attactics.bot import HOOKS  # the bots' help for this game, imported when a bot plays

        return HOOKS

    def result(self, state: AttacticsState) -> Result | None:
        if state.winner is None:
            return None
        scores = self.scores(state)
        if scores[state.winner] == PIECES:
            reason = N_("all 15 pyramids on the board")  # stored in English; shown translated (pbem/services/stored_words.py)
        else:
            reason = N_("the only player with pyramids on the board")
        return Result((state.winner,), reason, scores)

    def ranking(self, state: AttacticsState) -> list[tuple[int, ...]]:
        """The winner, then the others by pyramids on the board, more first;
        players with as many pyramids (eliminated players: none) are tied."""
        if state.winner is None:
            return []
        return standings(self.scores(state), first=(state.winner,))

    # -- the turn, first part: what the rules fix ------------------------
    def prepare(self, state: AttacticsState, turn: Turn) -> tuple[Work, Captures | Reductions | None]:
        """Play the part of ``turn`` that involves no choice; return the
        board so far and what is left to settle.  Raise ``IllegalTurnError``."""
        if state.to_move is None:
            raise GameOverError(_('the game is over; no more turns can be played'))
        if not isinstance(turn, (Move, Grow, Shrink)):
            raise IllegalTurnError(_('not an Attactics turn: {turn}', turn=repr(turn)))
        mover = state.to_move
        start = turn.frm if isinstance(turn, Move) else turn.square
        if not isinstance(start, int) or not 0 <= start < 64:
            raise IllegalTurnError(_('no square {start}', start=repr(start)))
        piece = state.board[start]
        if not piece or owner(piece) != mover:
            raise IllegalTurnError(self._not_yours(state, start))
        work = Work(state.board, state.stashes)
        if isinstance(turn, Move):
            return self._move(state, work, turn)
        if isinstance(turn, Grow):
            return self._grow(state, work, turn.square)
        return self._shrink(state, work, turn.square)

    def _not_yours(self, state: AttacticsState, square: int) -> str:
        mine = [s for s, p in enumerate(state.board) if p and owner(p) == state.to_move]
        mover = state.to_move
        assert mover is not None  # prepare refuses a finished game first
        piece = state.board[square]
        what = "is empty" if not piece else f"holds a piece of player {owner(piece) + 1}"
        return (
            f"{square_name(square)} {what}; player {mover + 1} plays with one of their own "
            f"pieces, on {names(mine)}"
        )

    def _move(self, state: AttacticsState, work: Work, turn: Move) -> tuple[Work, Captures | None]:
        mover, frm, to = state.to_move, turn.frm, turn.to
        assert mover is not None  # prepare refuses a finished game first
        if not isinstance(to, int) or to not in REACH[frm] or state.board[to]:
            free = [s for s in REACH[frm] if not state.board[s]]
            where = names(free) if free else "nowhere: every square within two is taken"
            raise IllegalTurnError(
                _('the piece on {frm} cannot go to {to}; it can move or clone to {where}', frm=square_name(frm), to=_name(to), where=where)
            )
        size = size_of(state.board[frm])
        if is_near(frm, to):
            stash = state.stashes[mover]
            placed = next((k for k in range(size, 4) if stash[k - 1]), 0)
            if not placed:
                raise IllegalTurnError(
                    _("no {size_words} or larger pyramid is left in player {value}'s stash to clone {frm} onto {to}", size_words=SIZE_WORDS[size], value=mover + 1, frm=square_name(frm), to=square_name(to))
                )
            work.take(to, mover, placed)
            forbidden = frozenset((frm, to))
        else:
            placed = size
            work.board[to], work.board[frm] = work.board[frm], 0
            forbidden = frozenset((to,))
        return work, self._capture(work, mover, to, placed, forbidden)

    @staticmethod
    def _capture(work: Work, mover: int, square: int, up_to: int, forbidden: frozenset[int]) -> Captures | None:
        sizes = {}
        for n in NEAR[square]:
            piece = work.board[n]
            if piece and owner(piece) != mover and size_of(piece) <= up_to:
                sizes[n] = size_of(piece)
                work.remove(n)
        return Captures(mover, sizes, forbidden) if sizes else None

    def _grow(self, state: AttacticsState, work: Work, square: int) -> tuple[Work, Reductions | None]:
        mover, size = state.to_move, size_of(state.board[square])
        assert mover is not None  # prepare refuses a finished game first
        if size == 3:
            raise IllegalTurnError(_('the piece on {square} is large and cannot grow', square=square_name(square)))
        if not state.stashes[mover][size]:
            raise IllegalTurnError(
                _("no {size_words} pyramid is left in player {value}'s stash to grow {square}", size_words=SIZE_WORDS[size + 1], value=mover + 1, square=square_name(square))
            )
        work.remove(square)
        work.take(square, mover, size + 1)
        around = tuple(n for n in NEAR[square] if work.board[n])
        return work, Reductions(around) if around else None

    def _shrink(self, state: AttacticsState, work: Work, square: int) -> tuple[Work, Captures | None]:
        mover, size = state.to_move, size_of(state.board[square])
        assert mover is not None  # prepare refuses a finished game first
        if size > 1 and not state.stashes[mover][size - 2]:
            raise IllegalTurnError(
                _("no {size_words} pyramid is left in player {value}'s stash to shrink {square}", size_words=SIZE_WORDS[size - 1], value=mover + 1, square=square_name(square))
            )
        work.remove(square)
        if size > 1:
            work.take(square, mover, size - 1)
        around = [n for n in NEAR[square] if work.board[n]]
        for n in around:  # friendly pieces first: they go back to the stash
            if owner(work.board[n]) == mover:
                work.remove(n)
        return work, self._capture(work, mover, square, 3, frozenset((square,)))

    # -- the turn, second part: the mover's choices ----------------------
    def outcomes(self, work: Work, pending: Captures | Reductions | None) -> tuple[Outcomes, dict[OutcomeKey, Work]]:
        """Every distinct end of the turn, keyed by the final position, with
        the fill sets that produce it, and the finished boards."""
        if pending is None:
            return {(): [frozenset()]}, {(): work}
        if isinstance(pending, Captures):
            if pending.is_forced(work.stashes[pending.mover]):
                fill_sets = [frozenset(Fill(s, k) for s, k in pending.sizes.items())]
            else:
                fill_sets = list(settle.capture_fills(work, pending))
            mover = pending.mover

            def make(done: Work, fills: frozenset[Fill], /) -> None:  # positional, as settle.reduce is called
                settle.place_fills(done, mover, fills)

        else:
            fill_sets = settle.reduction_fills(work, pending)
            make = settle.reduce
        outcomes: Outcomes = {}
        boards: dict[OutcomeKey, Work] = {}
        for fills in fill_sets:
            done = work.copy()
            make(done, fills)
            key = done.key()
            outcomes.setdefault(key, []).append(fills)
            boards.setdefault(key, done)
        return outcomes, boards

    def resolve(self, state: AttacticsState, turn: Turn, canonical: bool = True) -> tuple[Work, tuple[Fill, ...]]:
        """The board after ``turn`` and its canonical fills (none unless
        ``canonical``: finding them is most of a turn with many captures,
        and ``apply`` needs only the board); raise if the turn is illegal
        or its fills are wrong or too few."""
        work, pending = self.prepare(state, turn)
        outcomes, boards = self.outcomes(work, pending)
        written = settle.tokens(turn.fills)
        bare = _with_fills(turn, ())
        squares = [f.square for f in turn.fills]
        if len(set(squares)) != len(squares):
            raise IllegalTurnError(_('{turn} states a square twice', turn=turn_text(turn)))
        sources = [f.source for f in turn.fills if f.source is not None]
        if len(set(sources)) != len(sources):
            raise IllegalTurnError(_('{turn} takes one piece from the board twice', turn=turn_text(turn)))
        allowed = settle.affected(outcomes)
        stray = [s for s in squares if s not in allowed]
        if stray:
            if not allowed:
                raise IllegalTurnError(
                    (_('{bare} leaves no choice, so states nothing after it; {stray} is not affected', bare=turn_text(bare), stray=names(stray)) if len(stray) == 1 else _('{bare} leaves no choice, so states nothing after it; {stray} are not affected', bare=turn_text(bare), stray=names(stray)))
                )
            raise IllegalTurnError(
                (_('{stray} is not captured or reduced by {bare}; the squares it settles are: {allowed}', stray=names(stray), bare=turn_text(bare), allowed=names(allowed)) if len(stray) == 1 else _('{stray} are not captured or reduced by {bare}; the squares it settles are: {allowed}', stray=names(stray), bare=turn_text(bare), allowed=names(allowed)))
            )
        index = settle.Index(outcomes)
        keys = index.matching(written)
        if len(keys) == 1:
            return boards[keys[0]], index.canonical(keys[0]) if canonical else ()
        options = self._options(bare, index, keys or list(outcomes))
        if not keys:
            raise IllegalTurnError(_('{turn} is not a way this turn can end; it can end as: {options}', turn=turn_text(turn), options=options))
        raise AmbiguousTurnError(
            _('{turn} leaves a choice unstated ({pending}); write one of: {options}', turn=turn_text(turn), pending=_why(pending), options=options)
        )

    @staticmethod
    def _options(bare: Turn, index: settle.Index, keys: list[OutcomeKey]) -> str:
        canonical = index.canonical_all()
        texts = sorted(turn_text(_with_fills(bare, canonical[k])) for k in keys)
        more = f" and {len(texts) - _LISTED} more" if len(texts) > _LISTED else ""
        return ", ".join(texts[:_LISTED]) + more

    def apply(self, state: AttacticsState, turn: Turn) -> AttacticsState:
        work, _fills = self.resolve(state, turn, canonical=False)
        return self.finish(state, work)

    def canonical(self, state: AttacticsState, turn: Turn) -> Turn:
        """The turn as ``legal_turns`` lists it; raise like ``apply``."""
        _work, fills = self.resolve(state, turn)
        return _with_fills(turn, fills)

    def forfeit_turn(self, state: AttacticsState) -> AttacticsState:
        """A forfeited turn (time ran out): the board stays as it is and the
        next player with a piece on the board moves."""
        if state.to_move is None:
            raise GameOverError(_('the game is over; no more turns can be played'))
        return self.finish(state, Work(state.board, state.stashes))

    @staticmethod
    def finish(state: AttacticsState, work: Work) -> AttacticsState:
        """The position after a turn: eliminations and the end (ruling 10)."""
        mover, players = state.to_move, state.players
        assert mover is not None  # a turn (or a forfeit) of a game that goes on
        counts = [PIECES - sum(stash) for stash in work.stashes]  # every pyramid not in a stash is on the board (ruling 8)
        stashes = tuple((s[0], s[1], s[2]) for s in work.stashes)  # small, medium, large
        after = [(mover + i) % players for i in range(players)]  # mover first, then turn order
        full = [p for p in after if counts[p] == PIECES]
        alive = [p for p in after[1:] + after[:1] if counts[p]]
        if full or len(alive) == 1:
            winner = full[0] if full else alive[0]
            return AttacticsState(tuple(work.board), players, None, stashes, winner)
        return AttacticsState(tuple(work.board), players, alive[0], stashes)

    # -- every legal turn ----------------------------------------------------
    def legal_turns(self, state: AttacticsState) -> list[Turn]:
        if state.to_move is None:
            return []
        return [turn for turn, _work in self._listed(state, named=True) if turn is not None]  # named: never None

    def next_states(self, state: AttacticsState) -> Iterator[AttacticsState]:
        """The position after each legal turn, the boards found as the
        turns are listed, without the turns' canonical fills (applying each
        listed turn settled its captures again, and naming the fills of a
        position of many captures took a third of a second)."""
        if state.to_move is None:
            return iter(())
        return (self.finish(state, work) for _turn, work in self._listed(state, named=False)
                if work is not None)  # not named: never None

    def _listed(self, state: AttacticsState, named: bool) -> Iterator[tuple[Turn | None, Work | None]]:
        """The legal turns in order, with no board (``named``), or the
        board after each, with the turn only where it leaves no choice."""
        mover, board = state.to_move, state.board
        assert mover is not None  # turns are listed only while someone is to move
        stash = state.stashes[mover]
        mine = sorted((s for s, p in enumerate(board) if p and owner(p) == mover), key=order)
        for frm in mine:
            size = size_of(board[frm])
            clone = next((k for k in range(size, 4) if stash[k - 1]), 0)
            for to in REACH[frm]:
                if board[to]:
                    continue
                near = is_near(frm, to)
                placed = clone if near else size
                if not placed:
                    continue
                if not named and self._quiet(board, mover, to, placed):
                    yield None, self._quiet_work(state, frm, to, placed, near)
                elif self._simple_capture(board, stash, mover, to, placed, near):
                    move = Move(frm, to)
                    yield move, None if named else self._only_board(*self.prepare(state, move))
                else:
                    yield from self._variants(state, Move(frm, to), named)
            if size < 3 and stash[size]:
                yield from self._variants(state, Grow(frm), named)
            if size == 1 or stash[size - 2]:
                yield from self._variants(state, Shrink(frm), named)

    @staticmethod
    def _quiet(board: tuple[int, ...], mover: int, to: int, placed: int) -> bool:
        """True when a move of a piece of size ``placed`` to ``to`` captures nothing."""
        for n in NEAR[to]:
            piece = board[n]
            if piece and piece >> 2 != mover and piece & 3 <= placed:
                return False
        return True

    @staticmethod
    def _quiet_work(state: AttacticsState, frm: int, to: int, placed: int, clone: bool) -> Work:
        """The board after a move that captures nothing (``_quiet``), built
        directly: the search meets many, and ``prepare`` checks each again."""
        work = Work(state.board, state.stashes)
        if clone:
            assert state.to_move is not None  # listed only while someone is to move
            work.take(to, state.to_move, placed)
        else:
            work.board[to], work.board[frm] = work.board[frm], 0
        return work

    @staticmethod
    def _simple_capture(board: tuple[int, ...], stash: tuple[int, ...], mover: int, to: int, placed: int, clone: bool) -> bool:
        """True when every capture of this move is served from the stash
        with its own size, so the move leaves no choice."""
        left = list(stash)
        if clone:
            left[placed - 1] -= 1
        for n in NEAR[to]:
            piece = board[n]
            if piece and owner(piece) != mover and piece & 3 <= placed:
                left[(piece & 3) - 1] -= 1
        return min(left) >= 0

    def _variants(self, state: AttacticsState, turn: Turn, named: bool) -> Iterator[tuple[Turn | None, Work | None]]:
        work, pending = self.prepare(state, turn)
        if settle.no_choice(work, pending):
            yield turn, None if named else self._only_board(work, pending)
            return
        outcomes, boards = self.outcomes(work, pending)
        if not named:
            for done in boards.values():
                yield None, done
            return
        for fills in settle.Index(outcomes).canonical_all().values():
            yield _with_fills(turn, fills), None

    def _only_board(self, work: Work, pending: Captures | Reductions | None) -> Work:
        """The board of a turn that leaves no choice."""
        _outcomes, boards = self.outcomes(work, pending)
        (only,) = boards.values()
        return only


def _with_fills(turn: Turn, fills: tuple[Fill, ...]) -> Turn:
    if isinstance(turn, Move):
        return Move(turn.frm, turn.to, fills)
    return type(turn)(turn.square, fills)


def _name(square: Any) -> str:
    return square_name(square) if isinstance(square, int) and 0 <= square < 64 else repr(square)


def _why(pending: Captures | Reductions | None) -> str:
    if isinstance(pending, Reductions):
        return "a stash is short, so the mover chooses which pieces are reduced"
    return "the stash is short, so the mover chooses how the captured pieces are replaced"
