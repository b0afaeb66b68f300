"""The Ataxx rules on the engine interface, with a bitboard perft."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ataxx.bitboard import FAR, FULL, NEAR, can_move, dilate, square_name, squares
from engine.ataxx.state import PASS, AtaxxMove, AtaxxState
from engine.base import Result, Rules
from engine.errors import GameOverError, IllegalTurnError
from engine.i18n import N_, _

START = AtaxxState(x=(1 << 42) | (1 << 6), o=1 | (1 << 48))  # x on a7 and g1, o on a1 and g7
HALFMOVE_LIMIT = 100


def game_over(x: int, o: int, blocked: int, halfmove: int) -> bool:
    """The libataxx end: a side without pieces, a full board, nobody able
    to move, or the half-move clock at 100."""
    empty = FULL & ~(x | o | blocked)
    if halfmove >= HALFMOVE_LIMIT or not empty or not x or not o:
        return True
    return not can_move(x | o, empty)


class AtaxxGame(Rules[AtaxxState, AtaxxMove]):
    name = "ataxx"
    title = "Ataxx"
    min_players = 2
    max_players = 2

    def initial_state(self, players: int = 2, options: Mapping[str, Any] | None = None) -> AtaxxState:
        self.check_players(players)
        self.normalize_options(options)
        return START

    def players(self, state: AtaxxState) -> int:
        return 2

    def to_move(self, state: AtaxxState) -> int | None:
        if game_over(state.x, state.o, state.blocked, state.halfmove):
            return None
        return state.turn

    def result(self, state: AtaxxState) -> Result | None:
        if not game_over(state.x, state.o, state.blocked, state.halfmove):
            return None
        x, o = state.counts()
        scores = (x, o)
        empty = state.empty
        decided = not x or not o or not empty or not can_move(state.x | state.o, empty)
        if not decided:
            return Result((0, 1), N_("half-move clock at 100: a draw"), scores)
        if x == o:
            return Result((0, 1), N_("equal piece counts: a draw"), scores)
        return Result((0,) if x > o else (1,), N_("more pieces"), scores)  # stored in English; shown translated (pbem/services/stored_words.py)

    def ranking(self, state: AtaxxState) -> list[tuple[int, ...]]:
        """The winner, then the loser; a draw is one group of both."""
        outcome = self.result(state)
        if outcome is None:
            return []
        if outcome.is_draw:
            return [(0, 1)]
        winner = outcome.winners[0]
        return [(winner,), (1 - winner,)]

    def scores(self, state: AtaxxState) -> tuple[int, ...]:
        return state.counts()

    def bot_hooks(self) -> Any:
        from engine.ataxx.bot import HOOKS  # the bots' help for this game, imported when a bot plays

        return HOOKS

    # -- moves ---------------------------------------------------------
    def legal_turns(self, state: AtaxxState) -> list[AtaxxMove]:
        if self.to_move(state) is None:
            return []
        own, empty = state.side(state.turn), state.empty
        moves = [AtaxxMove(t) for t in squares(dilate(own) & empty)]
        for s in squares(own):
            moves.extend(AtaxxMove(t, s) for t in squares(FAR[s] & empty))
        return moves or [PASS]

    def check(self, state: AtaxxState, move: AtaxxMove) -> None:
        """Raise ``IllegalTurnError`` saying why ``move`` is not legal here."""
        if self.to_move(state) is None:
            raise GameOverError(_('the game is over; no more moves can be played'))
        own, empty = state.side(state.turn), state.empty
        side = "xo"[state.turn]
        if move.to is None:  # a pass
            if can_move(own, empty):
                raise IllegalTurnError(_('{side} has a move, so may not pass (0000)', side=side))
            return
        if not 0 <= move.to < 49 or not (empty >> move.to) & 1:
            what = _("blocked") if 0 <= move.to < 49 and (state.blocked >> move.to) & 1 else _("not empty")
            raise IllegalTurnError(_('{name} is {what}; a move goes to an empty square', name=_name(move.to), what=what))
        if move.frm is None:
            if not NEAR[move.to] & own:
                raise IllegalTurnError(_('no {side} piece is next to {square_name} to clone from', side=side, square_name=square_name(move.to)))
            return
        if not 0 <= move.frm < 49 or not (own >> move.frm) & 1:
            raise IllegalTurnError(_('no {side} piece stands on {name}', side=side, name=_name(move.frm)))
        if not (FAR[move.frm] >> move.to) & 1:
            raise IllegalTurnError(
                _('a jump goes exactly two squares; {square_name} to {square_name2} is not one', square_name=square_name(move.frm), square_name2=square_name(move.to))
            )

    def apply(self, state: AtaxxState, move: AtaxxMove) -> AtaxxState:
        if not isinstance(move, AtaxxMove):
            raise IllegalTurnError(_('not an Ataxx move: {move}', move=repr(move)))
        self.check(state, move)
        own, opp = state.side(state.turn), state.side(1 - state.turn)
        halfmove = state.halfmove + 1
        if move.to is not None:  # not a pass
            flips = NEAR[move.to] & opp
            own |= (1 << move.to) | flips
            opp ^= flips
            if move.frm is None:
                halfmove = 0
            else:
                own ^= 1 << move.frm
        x, o = (opp, own) if state.turn else (own, opp)
        return AtaxxState(x, o, state.blocked, 1 - state.turn, halfmove, state.fullmove + state.turn)

    def forfeit_turn(self, state: AtaxxState) -> AtaxxState:
        """A forfeited turn (time ran out): played as a pass, whether or not
        the side had a move; the half-move clock runs on."""
        if self.to_move(state) is None:
            raise GameOverError(_('the game is over; no more moves can be played'))
        return AtaxxState(state.x, state.o, state.blocked, 1 - state.turn, state.halfmove + 1, state.fullmove + state.turn)

    def count_leaves(self, state: AtaxxState, depth: int) -> int:
        own, opp = state.side(state.turn), state.side(1 - state.turn)
        return perft(own, opp, state.blocked, state.halfmove, depth)


def _name(square: int | None) -> str:
    return square_name(square) if square is not None and 0 <= square < 49 else repr(square)


def perft(own: int, opp: int, blocked: int, halfmove: int, depth: int) -> int:
    """Leaf count ``depth`` plies deep, the side to move owning ``own``.
    Passes count as moves; a finished game counts 0 below depth 0."""
    if depth == 0:
        return 1
    empty = FULL & ~(own | opp | blocked)
    if halfmove >= HALFMOVE_LIMIT or not empty or not own or not opp:
        return 0
    near = dilate(own)
    clones = near & empty
    if not clones and not (dilate(near) & empty):
        if not (dilate(dilate(opp)) & empty):
            return 0  # nobody can move: the game is over
        return 1 if depth == 1 else perft(opp, own, blocked, halfmove + 1, depth - 1)
    if depth == 1:
        count = clones.bit_count()
        bb = own
        while bb:
            low = bb & -bb
            count += (FAR[low.bit_length() - 1] & empty).bit_count()
            bb ^= low
        return count
    total = 0
    depth -= 1
    bb = clones
    while bb:
        low = bb & -bb
        bb ^= low
        flips = NEAR[low.bit_length() - 1] & opp
        total += perft(opp ^ flips, own | low | flips, blocked, 0, depth)
    halfmove += 1
    bb = own
    while bb:
        low = bb & -bb
        bb ^= low
        targets = FAR[low.bit_length() - 1] & empty
        rest = own ^ low
        while targets:
            dest = targets & -targets
            targets ^= dest
            flips = NEAR[dest.bit_length() - 1] & opp
            total += perft(opp ^ flips, rest | dest | flips, blocked, halfmove, depth)
    return total
