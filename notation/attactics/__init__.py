"""Attactics turn notation, position strings and board diagrams, as
defined in ``notation/attactics/guide.md``.

Turns: ``a1-c3`` (move/clone), ``c3+`` (grow), ``c3-`` (shrink), each
followed where the mover has a choice by fills such as ``d4=b2`` (the
captured d4 is replaced by the piece on b2), ``d4=m`` (by a medium from the
stash; after a grow: d4 ends medium) or ``d4=.`` (left empty).  Positions:
``<ranks 8 to 1> <to-move> <players>``, squares ``.`` or ``1s`` .. ``4l``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.attactics import AttacticsGame, AttacticsState, Fill, Grow, Move, Shrink
from engine.attactics.board import (
    PIECES,
    PIECES_PER_SIZE,
    SIZE_LETTERS,
    code,
    owner,
    parse_square,
    size_of,
    square_name,
)
from engine.attactics.rules import turn_text
from engine.attactics.state import Turn
from engine.errors import GameOverError, IllegalTurnError, MalformedTurnError, PositionError, TurnError
from engine.i18n import N_, Text, _
from notation.base import Diagram, GameKind, Notation, Piece, reason_words
from notation.quote import quote

_SQ = r"[a-h][1-8]"
_HEAD = re.compile(
    rf"^(?:(?P<frm>{_SQ})\s*-?\s*(?P<to>{_SQ})(?![=\w])"
    rf"|(?P<sq1>{_SQ})\s*(?P<op1>[+-])(?=[\s,;]|$)|(?P<op2>[+-])\s*(?P<sq2>{_SQ})(?![=\w])"
    rf"|(?P<word>grow|shrink)\s+(?P<sq3>{_SQ}))(?P<rest>.*)$",
    re.DOTALL,
)
_FILL = re.compile(rf"^({_SQ})=({_SQ}|[sml123]|[.0-])$")
_SIZES = {"s": 1, "m": 2, "l": 3, "1": 1, "2": 2, "3": 3, ".": 0, "0": 0, "-": 0}
_HELP = _("an Attactics turn is a move or clone such as a1-c3, a grow such as c3+ or a shrink such as c3-, "
    "followed where you have a choice by fills such as d4=b2 (replace the captured d4 with your piece "
    "from b2), d4=m (with a medium from your stash; after a grow: d4 ends as a medium) or d4=. (leave it empty)")
_CELL = re.compile(r"([1-4])([sml])|\.|([1-8])")
_NUMBER = re.compile(r"[0-9]+\Z")
_LABELS = ("abc", "def", "ghi", "jkl")  # diagram letters: player -> small, medium, large
#: a line of the board's legend (shown translated under the board: pbem/services/stored_words.py)
_LEGEND = N_("player {n}: {small} small, {medium} medium, {large} large")


def _malformed(text: str, why: str | Text) -> MalformedTurnError:
    return MalformedTurnError(_('cannot read {text}: {why}; {help}', text=quote(text), why=why, help=_HELP))


def _square(name: str) -> int:
    """The index of a square the turn's patterns matched (a1 to h8)."""
    square = parse_square(name)
    assert square is not None  # the patterns match a1-h8 only
    return square


class AttacticsNotation(Notation[AttacticsState, Any]):
    game = AttacticsGame()
    turn_examples = ("a1-b2", "a1-c3 d4=b2", "c3+", "c3-", "c3+ d4=s")

    # -- turns -----------------------------------------------------------
    def read_turn(self, state: AttacticsState, text: str) -> Turn:
        """Parse the syntax only; raise ``MalformedTurnError``."""
        if not isinstance(text, str):
            raise MalformedTurnError(_('a turn is text, not {name}', name=type(text).__name__))
        cleaned = re.sub(r"\s*=\s*", "=", text.strip().lower())
        if not cleaned:
            raise MalformedTurnError(_('the turn is empty; {help}', help=_HELP))
        head = _HEAD.match(cleaned)
        if not head:
            raise _malformed(text, "it does not start with a move, a grow or a shrink")
        fills = []
        for part in (p for p in re.split(r"[\s,;]+", head["rest"]) if p):
            fill = _FILL.match(part)
            if not fill:
                raise _malformed(text, f"{quote(part)} is not a fill such as d4=b2, d4=m or d4=.")
            fills.append(self._fill(state, _square(fill[1]), fill[2]))
        fills_t = tuple(fills)
        if head["frm"]:
            return Move(_square(head["frm"]), _square(head["to"]), fills_t)
        square = _square(head["sq1"] or head["sq2"] or head["sq3"])
        grow = (head["op1"] or head["op2"] or head["word"]) in ("+", "grow")
        return Grow(square, fills_t) if grow else Shrink(square, fills_t)

    @staticmethod
    def _fill(state: AttacticsState, square: int, what: str) -> Fill:
        if what in _SIZES:
            return Fill(square, _SIZES[what])
        source = _square(what)  # not a size: a square (_FILL)
        piece = state.board[source]
        mover = state.to_move
        if mover is None:
            raise GameOverError(_('the game is over; no more turns can be played'))
        if not piece or owner(piece) != mover:
            raise IllegalTurnError(
                _('{what} holds no piece of player {value}, so it cannot replace the piece captured on {square}', what=what, value=mover + 1, square=square_name(square))
            )
        return Fill(square, size_of(piece), source)

    def parse_turn(self, state: AttacticsState, text: str) -> Turn:
        if state.to_move is None:
            raise GameOverError(_('the game is over in position {state}; no turn can be played', state=self.format_position(state)))
        try:
            turn = self.read_turn(state, text)
            return self.game.canonical(state, turn)
        except MalformedTurnError:
            raise
        except TurnError as error:
            raise type(error)(f"{quote(text.strip())}: {error} (position {self.format_position(state)})") from None

    def format_turn(self, state: AttacticsState, turn: Turn) -> str:
        return turn_text(turn)

    # -- positions -------------------------------------------------------
    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> AttacticsState:
        self.game.normalize_options(options)
        if not isinstance(text, str):
            raise PositionError(_('a position is text'))
        fields = text.split()
        example = ".......2s/8/8/8/8/8/8/1s....... 1 2"
        if len(fields) not in (2, 3):
            raise PositionError(
                _('an Attactics position has three fields (ranks 8 to 1, player to move, number of players), such as {example}; {text} has {fields}', example=repr(example), text=quote(text), fields=len(fields))
            )
        board = _board(fields[0])
        highest = max((owner(p) + 1 for p in board if p), default=0)
        mover_text = fields[1].lower()
        if len(fields) == 3:
            if not (_NUMBER.match(fields[2]) and len(fields[2]) <= 2 and 2 <= int(fields[2]) <= 4):
                raise PositionError(_('Attactics is for 2 to 4 players, not {value}', value=repr(fields[2][:20])))
            players = int(fields[2])
        else:
            players = max(2, highest, int(mover_text[-1]) if _NUMBER.match(mover_text[-1:]) else 0)
        if highest > players:
            raise PositionError(_('player {highest} has pieces on the board but there are only {players} players', highest=highest, players=players))
        over = mover_text.startswith("w")
        number = mover_text[1:] if over else mover_text
        if not (_NUMBER.match(number) and len(number) <= 2 and 1 <= int(number) <= players):
            raise PositionError(
                _('the second field is the player to move, 1 to {players}, or w1 to w{players} for a finished game and its winner; not {value}', players=players, value=repr(fields[1][:20]))
            )
        player = int(number) - 1
        stashes: list[tuple[int, int, int]] = []
        for p in range(players):
            counts = [0, 0, 0]
            for piece in board:
                if piece and owner(piece) == p:
                    counts[size_of(piece) - 1] += 1
            if max(counts) > PIECES_PER_SIZE:
                raise PositionError(_('player {value} has more than {pieces_per_size} pyramids of one size on the board', value=p + 1, pieces_per_size=PIECES_PER_SIZE))
            small, medium, large = (PIECES_PER_SIZE - c for c in counts)
            stashes.append((small, medium, large))
        state = AttacticsState(tuple(board), players, None if over else player, tuple(stashes), player if over else None)
        self._check_state(state)
        return state

    @staticmethod
    def _check_state(state: AttacticsState) -> None:
        counts = [state.on_board(p) for p in range(state.players)]
        alive = [p + 1 for p in range(state.players) if counts[p]]
        if not alive:
            raise PositionError(_('no player has a piece on the board'))
        full = [p + 1 for p in range(state.players) if counts[p] == PIECES]
        if state.winner is not None:
            if state.winner + 1 not in full and alive != [state.winner + 1]:
                raise PositionError(
                    _('player {value} has not won here: a winner has all {pieces} pyramids on the board or is the only player with pyramids on it', value=state.winner + 1, pieces=PIECES)
                )
            return
        if full or len(alive) == 1:
            who = full[0] if full else alive[0]
            raise PositionError(_('this game is over (player {who} has won); write the second field as w{who}', who=who))
        mover = state.to_move
        assert mover is not None  # no winner: someone is to move (parse_position)
        if not counts[mover]:
            raise PositionError(_('player {value} has no piece on the board, so is out and cannot move', value=mover + 1))

    def format_position(self, state: AttacticsState) -> str:
        ranks = []
        for rank in reversed(range(8)):
            ranks.append("".join(_cell(state.board[rank * 8 + f]) for f in range(8)))
        if state.to_move is not None:
            mover = str(state.to_move + 1)
        else:
            assert state.winner is not None  # no one to move: the game is won (AttacticsState)
            mover = f"w{state.winner + 1}"
        return f"{'/'.join(ranks)} {mover} {state.players}"

    # -- diagrams --------------------------------------------------------
    def diagram(self, state: AttacticsState) -> Diagram:
        cells = {}
        for square, piece in enumerate(state.board):
            if piece:
                p, size = owner(piece), size_of(piece)
                cells[(square % 8, square // 8)] = Piece("pyramid", _LABELS[p][size - 1], p, size)
        # the words are read now, in the language of the moment (the pictures are cached by language)
        if state.to_move is None:
            result = self.game.result(state)
            assert result is not None  # no one to move: the game is won (AttacticsState)
            caption = [str(_("Game over: player {n} wins ({reason})", n=result.winners[0] + 1,
                             reason=reason_words(result.reason)))]
        else:
            caption = [str(_("Player {n} to move", n=state.to_move + 1))]
        for p in range(state.players):
            small, medium, large = state.stashes[p]
            values = dict(n=p + 1, count=state.on_board(p), small=small, medium=medium, large=large)
            if state.is_out(p):
                line = _("Player {n}: {count} on the board; stash {small} small, {medium} medium, {large} large, out",
                         **values)
            else:
                line = _("Player {n}: {count} on the board; stash {small} small, {medium} medium, {large} large",
                         **values)
            caption.append(str(line))
        legend = tuple(
            _LEGEND.format(n=p + 1, small=_LABELS[p][0], medium=_LABELS[p][1], large=_LABELS[p][2])
            for p in range(state.players)
        )
        return Diagram(8, 8, cells, tuple(caption), legend)


def _cell(piece: int) -> str:
    return f"{owner(piece) + 1}{SIZE_LETTERS[size_of(piece)]}" if piece else "."


def _board(text: str) -> list[int]:
    rows = text.lower().split("/")
    if len(rows) != 8:
        raise PositionError(_("the board {text} must be eight ranks separated by '/', rank 8 first", text=quote(text)))
    board = [0] * 64
    for index, row in enumerate(rows):
        rank, file, at = 7 - index, 0, 0
        while at < len(row):
            cell = _CELL.match(row, at)
            if not cell or file >= 8:
                raise PositionError(
                    _("rank {value} {row} must be eight squares: '.' for empty (or a digit counting empty squares) and pieces such as 1s, 2m, 3l (player, then small, medium or large)", value=rank + 1, row=quote(row))
                )
            if cell[1]:
                board[rank * 8 + file] = code(int(cell[1]) - 1, "sml".index(cell[2]) + 1)
                file += 1
            else:
                file += int(cell[3]) if cell[3] else 1
            at = cell.end()
        if file != 8:
            raise PositionError(_('rank {value} {row} describes {file} squares, not 8', value=rank + 1, row=quote(row), file=file))
    return board


NOTATION = AttacticsNotation()
KIND = GameKind(
    "attactics",
    NOTATION.game,
    NOTATION,
    N_("Ataxx with pyramids for 2 to 4: clone, jump, grow and shrink to capture; fill the board with your stash to win."),
    package=__name__,  # its guide and catalogue (notation.base.GameKind.package)
)
