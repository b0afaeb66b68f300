"""Logger turn notation, position strings and board diagrams, as defined in
``notation/logger/guide.md``.

Turns: ``[from-to] [G[:tree>square,...]] [P:sq | X:sq,sq... | C:sq]``; a setup
turn is the corner alone (``a1``).  Positions:
``<ranks> <to-move> <scores> <supplies>``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Mapping

from engine.base import Result
from engine.errors import GameOverError, IllegalTurnError, MalformedTurnError, PositionError, TurnError
from engine.i18n import N_, Text, _
from engine.logger import Chop, LoggerGame, LoggerState, LoggerTurn, Plant, Protest, SetupTurn
from engine.logger.board import CORNERS, names, order, parse_square, square_name
from engine.logger.state import Action, Turn
from notation.base import Diagram, GameKind, Notation, Piece, PieceLook, reason_words
from notation.quote import quote

_SQUARE = r"[a-e][1-5]"
_MOVE = re.compile(rf"^({_SQUARE})-({_SQUARE})$")
_GROWTH = re.compile(rf"^g(?::((?:{_SQUARE}>{_SQUARE})(?:,{_SQUARE}>{_SQUARE})*))?$")
_ACTION = re.compile(rf"^([pxc]):({_SQUARE}(?:,{_SQUARE})*)$")
_SPACING = re.compile(r"\s*([:,>\-])\s*")
_HELP = _("a Logger turn is up to three parts: a movement such as b2-c2, the growth G "
    "(or G:c3>c4,e2>e3 to choose spawns), and an action P:d3 (plant), X:c4 or X:c4,d5 "
    "(protest) or C:d3 (chop); for example 'b2-c2 G P:d3'")
_RANK = re.compile(r"^[.sSMP1-4]{5}$")
_NUMBER = re.compile(r"^[0-9]+$")
#: what mail clients and keyboards put where a hyphen or '>' was meant
_LOOKALIKES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"} | {"\u2192": ">"})


def _malformed(text: str, why: str | Text) -> MalformedTurnError:
    return MalformedTurnError(_('{why}; {help}', why=why, help=_HELP))


def _square(name: str) -> int:
    """The index of a square the turn's patterns matched (a1 to e5)."""
    square = parse_square(name)
    assert square is not None  # the patterns match a1-e5 only
    return square


#: the colour of a tree (of no player) on the pictures
TREE = "#2f7d32"


class LoggerNotation(Notation[LoggerState, Any]):
    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        spawn = str(options.get("spawn", "seedling"))
        return [str(_("mature trees spawn saplings (a variant)") if spawn == "sapling"
                    else _("mature trees spawn seedlings"))]

    game = LoggerGame()
    turn_examples = ("a1", "b1-b3 G P:b4", "G:c3>c4 C:c2", "X:c4,d5")
    #: a tree is a green pyramid of its stage (marked: a protester on it); a logger a disc with its number
    piece_looks = {"tree": PieceLook("pyramid", neutral=TREE), "logger": PieceLook("disc", size=17, label="#ffffff")}

    # -- turns -----------------------------------------------------------
    def read_turn(self, state: LoggerState, text: str) -> Turn:
        """Parse the syntax only; raise ``MalformedTurnError``."""
        if not isinstance(text, str):
            raise MalformedTurnError(_('a turn is text, not {name}', name=type(text).__name__))
        cleaned = _SPACING.sub(r"\1", unicodedata.normalize("NFKC", text).translate(_LOOKALIKES).strip().lower())
        parts = cleaned.split()
        if not parts:
            if state.in_setup:
                raise MalformedTurnError(_('the turn is empty; in the setup round write the corner for your logger, such as a1'))
            raise MalformedTurnError(_('the turn is empty; to make no move and no action write G'))
        if state.in_setup:
            square = parse_square(parts[0]) if len(parts) == 1 else None
            if square is None:
                raise MalformedTurnError(
                    _('in the setup round a turn is the corner for your logger alone, one of {corners}', corners=names(CORNERS))
                )
            return SetupTurn(square)
        move_to: int | None = None
        origin: int | None = None
        spawns: tuple[tuple[int, int], ...] = ()
        action: Action | None = None
        stage = 0  # 0: expect movement, 1: growth, 2: action, 3: done
        for part in parts:
            move = _MOVE.match(part)
            grow = _GROWTH.match(part)
            act = _ACTION.match(part)
            if move:
                if stage > 0:
                    raise _malformed(text, f"the movement {quote(part)} must come first")
                origin, move_to = _square(move[1]), _square(move[2])
                stage = 1
            elif grow:
                if stage > 1:
                    raise _malformed(text, f"the growth {quote(part.upper())} must come before the action")
                if grow[1]:
                    pairs = [p.split(">") for p in grow[1].split(",")]
                    spawns = tuple((_square(a), _square(b)) for a, b in pairs)
                stage = 2
            elif act:
                if stage > 2:
                    raise _malformed(text, "a turn has only one action")
                kind, squares = act[1], [_square(s) for s in act[2].split(",")]
                if kind != "x" and len(squares) > 1:
                    raise _malformed(text, f"{kind.upper()}: takes one square; only a protest (X:) takes several")
                if kind == "p":
                    action = Plant(squares[0])
                elif kind == "c":
                    action = Chop(squares[0])
                else:
                    if len(set(squares)) != len(squares):
                        raise _malformed(text, "a protest names each tree once")
                    action = Protest(tuple(sorted(squares, key=order)))
                stage = 3
            else:
                what = "it" if len(parts) == 1 else quote(part)
                raise _malformed(text, f"{what} is not a movement, a growth or an action")
        if origin is not None:
            mover = state.to_move
            if mover is None:
                raise GameOverError(_('the game is over in position {state}; no turn can be played', state=self.format_position(state)))
            start = state.logger_square(mover)
            assert start is not None  # after the setup round, every logger is on the board
            if origin != start:
                raise _illegal_origin(state, mover, origin, start)
        return LoggerTurn(move_to, spawns, action)

    def parse_turn(self, state: LoggerState, text: str) -> Turn:
        if state.to_move is None:
            raise GameOverError(_('the game is over in position {state}; no turn can be played', state=self.format_position(state)))
        try:
            return self.game.canonical(state, self.read_turn(state, text))
        except TurnError as error:
            written = text.strip() if isinstance(text, str) else text
            raise type(error)(f"{quote(written)}: {error} (position {self.format_position(state)})") from None

    def format_turn(self, state: LoggerState, turn: Turn) -> str:
        if isinstance(turn, SetupTurn):
            return square_name(turn.square)
        parts = []
        if turn.move_to is not None:
            mover = state.to_move
            start = state.logger_square(mover) if mover is not None else None
            assert start is not None  # a turn is formatted in the state it is played in: its mover's logger is on the board
            parts.append(f"{square_name(start)}-{square_name(turn.move_to)}")
        if turn.spawns:
            parts.append("G:" + ",".join(f"{square_name(t)}>{square_name(s)}" for t, s in turn.spawns))
        else:
            parts.append("G")
        action = turn.action
        if isinstance(action, Plant):
            parts.append(f"P:{square_name(action.square)}")
        elif isinstance(action, Chop):
            parts.append(f"C:{square_name(action.square)}")
        elif isinstance(action, Protest):
            parts.append("X:" + ",".join(square_name(s) for s in action.squares))
        return " ".join(parts)

    # -- positions -------------------------------------------------------
    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> LoggerState:
        opts = self.game.normalize_options(options)
        if not isinstance(text, str):
            raise PositionError(_('a position is text'))
        fields = text.split()
        example = "...../...../..s../...../..... 1 0,0 2,2"
        if len(fields) != 4:
            raise PositionError(
                _('a Logger position has four fields (ranks, player to move, scores, supplies), such as {example}; {text} has {fields}', example=repr(example), text=quote(text), fields=len(fields))
            )
        ranks, mover, scores_text, supplies_text = fields
        rows = ranks.split("/")
        if len(rows) != 5 or not all(_RANK.match(r) for r in rows):
            raise PositionError(
                _("the board {ranks} must be five ranks of five characters separated by '/', using . s S M P and the logger digits 1-4", ranks=quote(ranks))
            )
        scores = _numbers(scores_text, "scores")
        supplies = _numbers(supplies_text, "supplies")
        players = len(scores)
        if not 2 <= players <= 4:
            raise PositionError(_('Logger is for 2 to 4 players; the scores {scores_text} name {players}', scores_text=quote(scores_text), players=players))
        if len(supplies) != players:
            raise PositionError(_('{players} scores but {supplies} supplies; give one of each per player', players=players, supplies=len(supplies)))
        board = "".join(reversed(rows))
        for digit in "1234":
            count = board.count(digit)
            if count > 1:
                raise PositionError(_('logger {digit} stands on the board {count} times', digit=digit, count=count))
            if count and int(digit) > players:
                raise PositionError(_('there is a logger {digit} but only {players} players', digit=digit, players=players))
        if mover == "-":
            to_move = None
        elif _NUMBER.match(mover) and 1 <= int(mover) <= players:
            to_move = int(mover) - 1
        else:
            raise PositionError(_('the player to move must be 1 to {players}, or - when the game is over; not {mover}', players=players, mover=quote(mover)))
        state = LoggerState(board, to_move, scores, supplies, "S" if opts["spawn"] == "sapling" else "s")
        if to_move is not None and state.in_setup and state.logger_square(to_move) is not None:
            raise PositionError(_('in the setup round player {value} is to move but their logger is already placed', value=to_move + 1))
        if to_move is not None and state.in_setup and not state.free_corners():
            raise PositionError(_('in the setup round a corner must be free'))
        return state

    def format_position(self, state: LoggerState) -> str:
        ranks = "/".join(state.board[r * 5 : r * 5 + 5] for r in reversed(range(5)))
        mover = "-" if state.to_move is None else str(state.to_move + 1)
        return f"{ranks} {mover} {','.join(map(str, state.scores))} {','.join(map(str, state.supplies))}"

    # -- diagrams --------------------------------------------------------
    def diagram(self, state: LoggerState) -> Diagram:
        cells = {_WHERE[square]: _PIECES[char] for square, char in enumerate(state.board) if char in _PIECES}
        # the words are read now, in the language of the moment (the pictures are cached by language)
        caption = []
        if state.to_move is None:
            caption.append(_result_words(self.game.result(state)))
        elif state.in_setup:
            caption.append(str(_("Setup: player {n} places their logger on a free corner", n=state.to_move + 1)))
        else:
            caption.append(str(_("Player {n} to move", n=state.to_move + 1)))
        for p in range(state.players):
            points, supply = state.scores[p], state.supplies[p]
            caption.append(str(_(_SCORE_LINES[points != 1, supply != 1], n=p + 1, points=points, supply=supply)))
        legend = (N_("s seedling  S sapling  M mature tree  P protested tree  1-4 loggers"),)  # shown translated
        return Diagram(5, 5, cells, tuple(caption), legend)


#: the piece drawn for each letter of a board (trees by stage, protested marked; loggers by player)
_PIECES = {**{char: Piece("tree", char, None, size, marked=char == "P")
              for char, size in (("s", 1), ("S", 2), ("M", 3), ("P", 3))},
           **{str(n): Piece("logger", str(n), n - 1, 2) for n in range(1, 10)}}
#: (file, rank) of each square of the board string
_WHERE = tuple((square % 5, square // 5) for square in range(25))


#: the board's caption lines (drawn in the language of the moment; an English text board is
#: still shown translated through pbem/services/stored_words.py)
CAPTIONS = (
    N_("Setup: player {n} places their logger on a free corner"), N_("Player {n} to move"),
    N_("Player {n}: {points} point, {supply} protester in supply"),
    N_("Player {n}: {points} points, {supply} protester in supply"),
    N_("Player {n}: {points} point, {supply} protesters in supply"),
    N_("Player {n}: {points} points, {supply} protesters in supply"),
    N_("Game over: player {n} wins ({reason})"), N_("Game over: draw between players {players}"),
)


#: a player's caption line, by (several points, several protesters)
_SCORE_LINES = {(False, False): CAPTIONS[2], (True, False): CAPTIONS[3], (False, True): CAPTIONS[4],
                (True, True): CAPTIONS[5]}


def _result_words(result: Result | None) -> str:
    """The caption's line for a finished game, in the language of the moment."""
    if result is None:
        return str(_("Game over: in progress"))
    if len(result.winners) == 1:
        return str(_(CAPTIONS[6], n=result.winners[0] + 1, reason=reason_words(result.reason)))
    return str(_(CAPTIONS[7], players=_(" and ").join(str(w + 1) for w in result.winners)))


def _numbers(text: str, what: str) -> tuple[int, ...]:
    items = text.split(",")
    if not all(_NUMBER.match(i) for i in items):
        raise PositionError(_('the {what} {text} must be whole numbers separated by commas, such as 0,0', what=what, text=quote(text)))
    if any(len(i) > 4 for i in items):
        raise PositionError(_('the {what} {text} are too large; Logger scores and supplies stay well under 100', what=what, text=quote(text)))
    return tuple(int(i) for i in items)


def _illegal_origin(state: LoggerState, player: int, origin: int, start: int) -> IllegalTurnError:
    reachable = LoggerNotation.game.destinations(state, start)
    where = f"it can move to {names(reachable)}" if reachable else "it cannot move this turn"
    return IllegalTurnError(
        _('the logger of player {value} is on {start}, not {origin}; write its move from {start} ({where}), or leave the movement out to stay', value=player + 1, start=square_name(start), origin=square_name(origin), where=where)
    )


NOTATION = LoggerNotation()
KIND = GameKind(
    "logger",
    NOTATION.game,
    NOTATION,
    N_("Lumberjacks race to 10 points on a 5x5 forest that grows where they stand."),  # shown translated
    package=__name__,  # its guide and catalogue (notation.base.GameKind.package)
)
