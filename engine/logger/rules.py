"""The Logger rules on the engine interface: setup, movement, growth,
the compulsory action, scoring and the equal-turns end."""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterator, Mapping

from engine.base import OptionSpec, Result, Rules, standings
from engine.errors import GameOverError, IllegalTurnError
from engine.i18n import N_, _
from engine.logger import growth
from engine.logger.board import (
    CORNERS,
    LINES,
    MATURE,
    MATURE_TREES,
    NEIGHBOURS,
    PROTESTED,
    SEEDLING,
    SQUARES,
    names,
    order,
    ray,
    square_name,
)
from engine.logger.state import Action, Chop, LoggerState, LoggerTurn, Plant, Protest, SetupTurn, Turn

WINNING_SCORE = 10
GROWING = ("s", "S")
SPAWN_STAGES = {"seedling": "s", "sapling": "S"}


class LoggerGame(Rules[LoggerState, Turn]):
    name = "logger"
    title = "Logger"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec(
            "spawn",
            ("seedling", "sapling"),
            "seedling",
            N_("what a mature tree spawns: a seedling (the rules) or a sapling (variant)"),  # shown translated
        ),
    )

    # -- setup ---------------------------------------------------------
    def initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> LoggerState:
        self.check_players(players)
        opts = self.normalize_options(options)
        board = ["."] * 25
        board[12] = SEEDLING  # c3
        supply = 2 if players == 2 else 1
        return LoggerState(
            board="".join(board),
            to_move=0,
            scores=(0,) * players,
            supplies=(supply,) * players,
            spawn=SPAWN_STAGES[opts["spawn"]],
        )

    # -- queries -------------------------------------------------------
    def players(self, state: LoggerState) -> int:
        return state.players

    def to_move(self, state: LoggerState) -> int | None:
        return state.to_move

    def scores(self, state: LoggerState) -> tuple[int, ...]:
        return state.scores

    def result(self, state: LoggerState) -> Result | None:
        if state.to_move is not None:
            return None
        if max(state.scores) < WINNING_SCORE:
            reason = N_("no player can change the board any more")  # stored in English; shown translated (pbem/services/stored_words.py)
        else:
            reason = ""
        best = max(state.scores)
        leaders = [p for p in range(state.players) if state.scores[p] == best]
        if len(leaders) == 1:
            return Result((leaders[0],), reason or N_("most points"), state.scores)
        most = max(state.supplies[p] for p in leaders)
        winners = tuple(p for p in leaders if state.supplies[p] == most)
        tie = N_("tie on points, most protesters in supply") if len(winners) == 1 else N_("tie on points and protesters")
        return Result(winners, f"{reason}; {tie}" if reason else tie, state.scores)

    def ranking(self, state: LoggerState) -> list[tuple[int, ...]]:
        """Ruling 10 for every place: more points first, then more
        protesters in supply; equal on both is a tie."""
        if state.to_move is not None:
            return []
        return standings([(state.scores[p], state.supplies[p]) for p in range(state.players)])

    def bot_hooks(self) -> Any:
        from engine.logger.bot import HOOKS  # the bots' help for this game, imported when a bot plays

        return HOOKS

    def destinations(self, state: LoggerState, start: int) -> list[int]:
        """Squares the logger on ``start`` can reach in 1 or 2 free steps."""
        board = state.board
        first = [n for n in NEIGHBOURS[start] if board[n] == "."]
        reach = set(first)
        for square in first:
            reach.update(n for n in NEIGHBOURS[square] if board[n] == "." and n != start)
        return sorted(reach, key=order)

    # -- the turn ------------------------------------------------------
    def legal_turns(self, state: LoggerState) -> list[Turn]:
        if state.to_move is None:
            return []
        if state.in_setup:
            return [SetupTurn(c) for c in state.free_corners()]
        return list(self._main_turns(state))

    def _main_turns(self, state: LoggerState) -> Iterator[LoggerTurn]:
        player = state.to_move
        assert player is not None  # listed only while someone is to move
        start = state.logger_square(player)
        assert start is not None  # after the setup round, every logger is on the board
        supply = state.supplies[player]
        for dest in [None, *self.destinations(state, start)]:
            square = start if dest is None else dest
            board = self._moved(state, start, square)
            spawners = growth.grow(board, square)
            for filled, written in growth.outcomes(board, spawners).items():
                after = list(board)
                for s in filled:
                    after[s] = state.spawn
                for action in self.actions(after, square, supply):
                    yield LoggerTurn(dest, written, action)

    @staticmethod
    def _moved(state: LoggerState, start: int, square: int) -> list[str]:
        board = list(state.board)
        if square != start:
            board[square], board[start] = board[start], "."
        return board

    @staticmethod
    def actions(board: list[str] | str, logger: int, supply: int) -> list[Action | None]:
        """Every action open to the logger on ``logger`` after growth;
        ``[None]`` when there is none."""
        result: list[Action | None] = []
        result.extend(Plant(n) for n in NEIGHBOURS[logger] if board[n] == ".")
        targets = sorted((s for s in SQUARES if board[s] == MATURE), key=order)
        for count in range(1, min(supply, len(targets)) + 1):
            result.extend(Protest(c) for c in combinations(targets, count))
        result.extend(Chop(n) for n in NEIGHBOURS[logger] if board[n] == MATURE)
        return result or [None]

    #: the last turn ``canonical`` put in its form: (position, canonical turn,
    #: position after it), so that applying that turn next (as a turn
    #: submitted is: read, then played) is not worked out twice.  One tuple,
    #: replaced whole: a thread reading it sees one consistent triple.
    _canonical_applied: tuple[LoggerState, Turn, LoggerState] | None = None

    def apply(self, state: LoggerState, turn: Turn) -> LoggerState:
        last = self._canonical_applied
        if last is not None and last[0] is state and last[1] == turn:
            return last[2]
        if state.to_move is None:
            raise GameOverError(_('the game is over; no more turns can be played'))
        if isinstance(turn, SetupTurn):
            return self._apply_setup(state, turn)
        if not isinstance(turn, LoggerTurn):
            raise IllegalTurnError(_('not a Logger turn: {turn}', turn=repr(turn)))
        if state.in_setup:
            raise IllegalTurnError(
                _('this is the setup round: player {value} places their logger on a free corner ({names})', value=state.to_move + 1, names=names(state.free_corners()))
            )
        board, square = self._grown(state, turn)
        return self._act(state, board, square, turn.action)

    def _apply_setup(self, state: LoggerState, turn: SetupTurn) -> LoggerState:
        assert state.to_move is not None  # apply refuses a finished game first
        if not state.in_setup:
            raise IllegalTurnError(_('the setup round is over; every logger is already on the board'))
        free = state.free_corners()
        if turn.square not in free:
            why = _("is not a corner") if turn.square not in CORNERS else _("is taken")
            raise IllegalTurnError(
                _('{square_name} {why}; player {value} may place their logger on {free}', square_name=square_name(turn.square), why=why, value=state.to_move + 1, free=names(free))
            )
        board = list(state.board)
        board[turn.square] = str(state.to_move + 1)
        following = (state.to_move + 1) % state.players
        return LoggerState("".join(board), following, state.scores, state.supplies, state.spawn)

    def _logger_after_move(self, state: LoggerState, turn: LoggerTurn) -> int:
        assert state.to_move is not None  # apply refuses a finished game first
        start = state.logger_square(state.to_move)
        assert start is not None  # after the setup round, every logger is on the board
        if turn.move_to is None:
            return start
        reachable = self.destinations(state, start)
        if turn.move_to == start:
            where = f"from here it can reach {names(reachable)}" if reachable else "it is boxed in this turn"
            raise IllegalTurnError(
                _('the logger of player {value} is already on {start}: a logger moves 1 or 2 squares ({where}); to stay, leave the movement out', value=state.to_move + 1, start=square_name(start), where=where)
            )
        if turn.move_to not in reachable:
            where = names(reachable) if reachable else "nowhere: it is boxed in and must stay"
            raise IllegalTurnError(
                _('the logger on {start} cannot reach {square_name}; it can move to {where}', start=square_name(start), square_name=square_name(turn.move_to), where=where)
            )
        return turn.move_to

    def _grown(self, state: LoggerState, turn: LoggerTurn) -> tuple[list[str], int]:
        """The board after movement and growth, and the logger's square."""
        assert state.to_move is not None  # apply refuses a finished game first
        start = state.logger_square(state.to_move)
        assert start is not None  # after the setup round, every logger is on the board
        square = self._logger_after_move(state, turn)
        board = self._moved(state, start, square)
        spawners = growth.grow(board, square)
        growth.spawn(board, spawners, turn.spawns, state.spawn)
        return board, square

    def _act(self, state: LoggerState, board: list[str], logger: int, action: Action | None) -> LoggerState:
        player = state.to_move
        assert player is not None  # apply refuses a finished game first
        scores = list(state.scores)
        supplies = list(state.supplies)
        possible = self.actions(board, logger, supplies[player])
        if action is None:
            if possible != [None]:
                raise IllegalTurnError(_('an action is compulsory here: ') + self.describe_actions(board, logger, supplies[player]))
        elif isinstance(action, Plant):
            if action not in possible:
                raise IllegalTurnError(
                    _('cannot plant on {square_name}: ', square_name=square_name(action.square)) + self._plant_hint(board, logger)
                )
            board[action.square] = SEEDLING
        elif isinstance(action, Protest):
            self._check_protest(board, supplies[player], action)
            for square in action.squares:
                board[square] = PROTESTED
            supplies[player] -= len(action.squares)
        elif isinstance(action, Chop):
            if action not in possible:
                raise IllegalTurnError(_('cannot chop {square_name}: ', square_name=square_name(action.square)) + self._chop_hint(board, logger))
            for square in ray(logger, action.square):
                if board[square] not in MATURE_TREES:
                    break
                if board[square] == PROTESTED:
                    supplies[player] += 1
                board[square] = "."
                scores[player] += 1
        else:
            raise IllegalTurnError(_('not a Logger action: {action}', action=repr(action)))
        following = self._next(state, board, scores, supplies)
        return LoggerState("".join(board), following, tuple(scores), tuple(supplies), state.spawn)

    def _next(self, state: LoggerState, board: list[str], scores: list[int], supplies: list[int]) -> int | None:
        player = state.to_move
        assert player is not None  # after a turn of a game that went on
        if player == state.players - 1 and max(scores) >= WINNING_SCORE:
            return None
        if self.is_dead(board, supplies):
            return None
        return (player + 1) % state.players

    @staticmethod
    def is_dead(board: list[str] | str, supplies: list[int] | tuple[int, ...]) -> bool:
        """True when no player can ever change the board again (ruling 11):
        every logger is boxed in, has no action, and growth on its rank and
        file would change nothing."""
        unprotested = MATURE in board
        for player, supply in enumerate(supplies):
            logger = board.index(str(player + 1)) if str(player + 1) in board else None
            if logger is None:
                return False
            if supply and unprotested:
                return False
            if any(board[n] in (".", MATURE) for n in NEIGHBOURS[logger]):
                return False
            for square in LINES[logger]:
                piece = board[square]
                if piece in GROWING:
                    return False
                if piece in MATURE_TREES and any(board[n] == "." for n in NEIGHBOURS[square]):
                    return False
        return True

    def forfeit_turn(self, state: LoggerState) -> LoggerState:
        """A forfeited turn: in the setup round the logger goes on the first
        free corner (a1, e1, a5, e5); later the player does nothing at all
        (no move, no growth, no action).  The equal-turns end still applies."""
        if state.to_move is None:
            raise GameOverError(_('the game is over; no more turns can be played'))
        if state.in_setup:
            return self._apply_setup(state, SetupTurn(state.free_corners()[0]))
        board = list(state.board)
        following = self._next(state, board, list(state.scores), list(state.supplies))
        return LoggerState(state.board, following, state.scores, state.supplies, state.spawn)

    # -- explanations --------------------------------------------------
    @staticmethod
    def _plant_hint(board: list[str], logger: int) -> str:
        free = [n for n in NEIGHBOURS[logger] if board[n] == "."]
        if free:
            return str(_("a seedling goes on an empty square next to the logger on {square}: {free}", square=square_name(logger), free=names(free)))
        return str(_("no empty square is next to the logger on {square}", square=square_name(logger)))

    @staticmethod
    def _chop_hint(board: list[str], logger: int) -> str:
        trees = [n for n in NEIGHBOURS[logger] if board[n] == MATURE]
        if trees:
            return str(_("the logger on {square} can chop the unprotested mature trees on {trees}", square=square_name(logger), trees=names(trees)))
        return str(_("no unprotested mature tree is next to the logger on {square}", square=square_name(logger)))

    @staticmethod
    def _check_protest(board: list[str], supply: int, action: Protest) -> None:
        targets = sorted((s for s in SQUARES if board[s] == MATURE), key=order)
        if not action.squares:
            raise IllegalTurnError(_('a protest names at least one mature tree'))
        if len(set(action.squares)) != len(action.squares):
            raise IllegalTurnError(_('a protest puts one protester per tree; a square is named twice'))
        if supply == 0:
            raise IllegalTurnError(_('you have no protesters in supply'))
        if len(action.squares) > supply:
            raise IllegalTurnError(
                (_('you have 1 protester in supply, not {count}', count=len(action.squares)) if supply == 1 else _('you have {supply} protesters in supply, not {count}', supply=supply, count=len(action.squares)))
            )
        bad = [s for s in action.squares if s not in targets]
        if bad:
            where = names(targets) if targets else _("none: no unprotested mature tree stands")
            raise IllegalTurnError(
                (_('protesters go on unprotested mature trees; {bad} is not one. Unprotested mature trees: {where}', bad=names(bad), where=where) if len(bad) == 1 else _('protesters go on unprotested mature trees; {bad} are not one. Unprotested mature trees: {where}', bad=names(bad), where=where))
            )

    def describe_actions(self, board: list[str] | str, logger: int, supply: int) -> str:
        """The actions open to the logger, in words, for error messages."""
        parts = []
        plant = [n for n in NEIGHBOURS[logger] if board[n] == "."]
        if plant:
            parts.append(str(_("plant on {squares} (P:{example})", squares=names(plant), example=square_name(plant[0]))))
        targets = sorted((s for s in SQUARES if board[s] == MATURE), key=order)
        if supply and targets:
            parts.append(
                str(_("protest with up to {supply} protesters on {squares} (X:{example})", supply=supply,
                      squares=names(targets), example=square_name(targets[0])) if supply != 1 else
                    _("protest with up to 1 protester on {squares} (X:{example})", squares=names(targets),
                      example=square_name(targets[0])))
            )
        chop = [n for n in NEIGHBOURS[logger] if board[n] == MATURE]
        if chop:
            parts.append(str(_("chop {squares} (C:{example})", squares=names(chop), example=square_name(chop[0]))))
        return "; ".join(parts) if parts else str(_("no action is possible"))

    # -- canonical form --------------------------------------------------
    def canonical(self, state: LoggerState, turn: Turn) -> Turn:
        """The turn in the form ``legal_turns`` lists it: the same movement
        and action, with the shortest spawn list giving the same growth.
        Raises like ``apply`` when the turn is not legal."""
        after = self.apply(state, turn)
        if isinstance(turn, SetupTurn):
            self._canonical_applied = (state, turn, after)
            return turn
        assert state.to_move is not None  # apply refused a finished game
        start = state.logger_square(state.to_move)
        assert start is not None  # apply refused a main turn in the setup round
        square = self._logger_after_move(state, turn)
        base = self._moved(state, start, square)
        spawners = growth.grow(base, square)
        grown = list(base)
        growth.spawn(grown, spawners, turn.spawns, state.spawn)
        spawned = frozenset(s for s in SQUARES if base[s] == "." and grown[s] != ".")
        action = turn.action
        if isinstance(action, Protest):
            action = Protest(tuple(sorted(action.squares, key=order)))
        found = LoggerTurn(None if square == start else square, growth.outcomes(base, spawners)[spawned], action)
        self._canonical_applied = (state, found, after)
        return found
