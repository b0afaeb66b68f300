"""Ataxx moves, FEN positions and diagrams, as libataxx writes them and as
``notation/ataxx/guide.md`` describes: ``g2`` (clone), ``a7c5`` (jump), ``0000``
(pass); ``x5o/7/7/7/7/7/o5x x 0 1``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.ataxx import PASS, AtaxxGame, AtaxxMove, AtaxxState
from engine.ataxx.bitboard import FAR, NEAR, SIZE, parse_square, square_name
from engine.errors import GameOverError, MalformedTurnError, PositionError, TurnError
from engine.i18n import N_, _
from notation.base import Diagram, GameKind, Notation, Piece, PieceLook, reason_words
from notation.quote import quote

_MOVE = re.compile(r"^([a-z][0-9])(?:-?([a-z][0-9]))?$")
_NUMBER = re.compile(r"[0-9]+\Z")
_HELP = _("an Ataxx move is a clone such as g2, a jump such as a7c5, or the pass 0000")
_FEN_HELP = _("a FEN such as 'x5o/7/7/7/7/7/o5x x 0 1' (ranks 7 to 1; x, o, - blocked, digits for empty squares; side to move; half-move clock; move number)")


class AtaxxNotation(Notation[AtaxxState, AtaxxMove]):
    game = AtaxxGame()
    turn_examples = ("g2", "a7c5", "0000")
    #: a stone is a disc in its player's colour; a blocked square is dark grey
    piece_looks = {"stone": PieceLook("disc", size=19), "blocked": PieceLook("square", fill="#444444", size=3)}

    def player_label(self, player: int) -> str:
        return "xo"[player]

    # -- moves -----------------------------------------------------------
    def read_turn(self, state: AtaxxState, text: str) -> AtaxxMove:
        """Parse the syntax only; raise ``MalformedTurnError``."""
        if not isinstance(text, str):
            raise MalformedTurnError(_('a move is text, not {name}', name=type(text).__name__))
        cleaned = re.sub(r"\s+", "", text).lower()
        if cleaned in ("0000", "pass", "@@@@", "--"):
            return PASS
        match = _MOVE.match(cleaned)
        first = parse_square(match[1]) if match else None
        second = parse_square(match[2]) if match and match[2] else None
        if match is None or first is None or (match[2] and second is None):
            raise MalformedTurnError(_('cannot read {text}: {help}', text=quote(text), help=_HELP))
        if second is None:
            return AtaxxMove(first)
        if (NEAR[first] >> second) & 1:
            return AtaxxMove(second)  # a clone written from-to
        if not (FAR[first] >> second) & 1:
            raise MalformedTurnError(
                _('cannot read {text}: a jump goes exactly two squares, and {second} is not two squares from {first}', text=quote(text), second=square_name(second), first=square_name(first))
            )
        return AtaxxMove(second, first)

    def parse_turn(self, state: AtaxxState, text: str) -> AtaxxMove:
        if self.game.to_move(state) is None:
            raise GameOverError(_('the game is over in position {state}; no move can be played', state=self.format_position(state)))
        move = self.read_turn(state, text)
        try:
            self.game.check(state, move)
        except TurnError as error:
            raise type(error)(f"{quote(text.strip())}: {error} (position {self.format_position(state)})") from None
        return move

    def format_turn(self, state: AtaxxState, move: AtaxxMove) -> str:
        if move.to is None:  # a pass
            return "0000"
        if move.frm is None:
            return square_name(move.to)
        return square_name(move.frm) + square_name(move.to)

    # -- positions -------------------------------------------------------
    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> AtaxxState:
        self.game.normalize_options(options)
        if not isinstance(text, str):
            raise PositionError(_('a position is text'))
        fields = text.split()
        if fields == ["startpos"]:
            fields = ["x5o/7/7/7/7/7/o5x"]
        if not 1 <= len(fields) <= 4:
            raise PositionError(_('{fen_help}; {text} has {fields} fields', fen_help=_FEN_HELP, text=quote(text), fields=len(fields)))
        fields += ["x", "0", "1"][len(fields) - 1 :]
        board, side, half, full = fields
        rows = board.split("/")
        if len(rows) != SIZE:
            raise PositionError(_("the board {board} must have 7 ranks separated by '/'; {fen_help}", board=quote(board), fen_help=_FEN_HELP))
        x = o = blocked = 0
        for index, row in enumerate(rows):
            rank, file = SIZE - 1 - index, 0
            for char in row.lower():
                if char in "1234567":
                    file += int(char)
                    continue
                if char not in "xo-bw" or file >= SIZE:
                    break
                bit = 1 << (rank * SIZE + file)
                if char in "xb":
                    x |= bit
                elif char in "ow":
                    o |= bit
                else:
                    blocked |= bit
                file += 1
            else:
                if file == SIZE:
                    continue
            raise PositionError(_('rank {value} {row} must describe 7 squares with x, o, - and digits', value=rank + 1, row=quote(row)))
        if side.lower() not in ("x", "o", "b", "w"):
            raise PositionError(_('the side to move is x or o, not {side}', side=quote(side)))
        if not (_NUMBER.match(half) and _NUMBER.match(full)):
            raise PositionError(_('the half-move clock and move number are whole numbers, not {half} and {full}', half=repr(half[:20]), full=repr(full[:20])))
        if len(half) > 6 or len(full) > 6:
            raise PositionError(_('the half-move clock and move number are at most 999999; {half} and {full} are too large', half=repr(half[:20]), full=repr(full[:20])))
        return AtaxxState(x, o, blocked, 0 if side.lower() in "xb" else 1, int(half), max(1, int(full)))

    def format_position(self, state: AtaxxState) -> str:
        rows = []
        for rank in reversed(range(SIZE)):
            row, run = "", 0
            for file in range(SIZE):
                char = _char(state, rank * SIZE + file)
                if char == ".":
                    run += 1
                    continue
                row += (str(run) if run else "") + char
                run = 0
            rows.append(row + (str(run) if run else ""))
        return f"{'/'.join(rows)} {'xo'[state.turn]} {state.halfmove} {state.fullmove}"

    # -- diagrams --------------------------------------------------------
    def diagram(self, state: AtaxxState) -> Diagram:
        cells = {}
        for square in range(SIZE * SIZE):
            char = _char(state, square)
            where = (square % SIZE, square // SIZE)
            if char in "xo":
                cells[where] = Piece("stone", char, "xo".index(char))
            elif char == "-":
                cells[where] = Piece("blocked", "#")
        x, o = state.counts()
        result = self.game.result(state)
        # the words are read now, in the language of the moment (the pictures are cached by language)
        if result is None:
            caption = [str(_("{side} to move", side="xo"[state.turn]))]
        elif len(result.winners) == 1:
            caption = [str(_("Game over: {side} wins ({reason})", side="xo"[result.winners[0]],
                             reason=reason_words(result.reason)))]
        else:
            caption = [str(_("Game over: {reason}", reason=reason_words(result.reason)))]
        caption.append(str(_(_COUNTS_LINES[x != 1, o != 1], x=x, o=o, clock=state.halfmove, move=state.fullmove)))
        return Diagram(SIZE, SIZE, cells, tuple(caption), (N_("x and o the two sides, # a blocked square"),))


#: the caption's counts line, by (several x pieces, several o pieces)
_COUNTS_LINES = {
    (False, False): N_("x: {x} piece, o: {o} piece, half-move clock {clock}, move {move}"),
    (True, False): N_("x: {x} pieces, o: {o} piece, half-move clock {clock}, move {move}"),
    (False, True): N_("x: {x} piece, o: {o} pieces, half-move clock {clock}, move {move}"),
    (True, True): N_("x: {x} pieces, o: {o} pieces, half-move clock {clock}, move {move}"),
}


def _char(state: AtaxxState, square: int) -> str:
    if (state.x >> square) & 1:
        return "x"
    if (state.o >> square) & 1:
        return "o"
    if (state.blocked >> square) & 1:
        return "-"
    return "."


NOTATION = AtaxxNotation()
KIND = GameKind(
    "ataxx",
    NOTATION.game,
    NOTATION,
    N_("Clone and jump to flip your opponent's pieces on a 7x7 board; the most pieces wins."),
    package=__name__,  # its guide and catalogue (notation.base.GameKind.package)
)
