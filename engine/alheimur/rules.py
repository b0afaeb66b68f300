"""Alheimur rules: the game object (setup, the turn cycle, chance, the end,
the result), as ruled in ``notation/alheimur/guide.md``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator, Mapping, Sequence

from engine.alheimur import battle, setup
from engine.alheimur.movement import move
from engine.alheimur.pieces import HIDDEN_ORDER, LAST_ROUND_AT, AlheimurState, AlheimurTurn, Colonists, Place, Turn
from engine.alheimur.scoring import score
from engine.alheimur.survival import expand, last_round_owed, survive
from engine.alheimur.turns import play_turns
from engine.base import ChanceEvent, Result, Rules, standings
from engine.errors import GameOverError, IllegalTurnError, OptionError, shown
from engine.i18n import _

#: what the server hides while the game is on: unturned cards, orbit cards
HIDDEN = "?"


class AlheimurGame(Rules[AlheimurState, AlheimurTurn]):
    """Alheimur (Glenn Overby, version 1.1): worlds of Aquarius cards, 2 to 8."""

    name = "alheimur"
    title = "Alheimur"
    min_players = 2
    max_players = 8
    uses_chance = True

    # -- setup ---------------------------------------------------------
    def initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> AlheimurState:
        raise OptionError("Alheimur deals its cards from a seed: use seeded_state(players, options, seed)")

    def seeded_state(self, players: int, options: Mapping[str, Any] | None, seed: str) -> AlheimurState:
        """The position waiting for the deal; the deal and every lot are
        chance events, decided from the seed by whoever settles them."""
        self.check_players(players)
        self.normalize_options(options)
        return setup.start(players)

    # -- play ------------------------------------------------------------
    def players(self, state: AlheimurState) -> int:
        return state.players

    def to_move(self, state: AlheimurState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "build":
            return state.builder if state.builder < state.players else 0
        return state.current

    def chance(self, state: AlheimurState) -> ChanceEvent | None:
        if state.phase == "battle":
            return battle.chance_event(state)
        return setup.chance_event(state)

    def apply_chance(self, state: AlheimurState, outcome: tuple[str, ...]) -> AlheimurState:
        return self.apply_chance_logged(state, outcome, None)

    def apply_chance_logged(self, state: AlheimurState, outcome: tuple[str, ...], log: list[str] | None) -> AlheimurState:
        event = self.chance(state)
        if event is None:
            raise IllegalTurnError("Alheimur waits for no chance event here")
        if not event.allows(outcome):
            raise IllegalTurnError(f"{event.kind} {event.purpose!r} cannot give {' '.join(outcome) or 'nothing'}")
        if state.phase != "battle":
            if event.purpose == "lot":
                if log is not None:
                    log.append(str(_("Lot: {outcome}", outcome=outcome[0])))
            if event.purpose == "first":
                if log is not None:
                    log.append(str(_("Lot: player {player} plays first", player=outcome[0])))
            return setup.apply_outcome(state, outcome)
        state = battle.apply_roll(state, outcome, log)
        state = battle.advance(state, log)
        return self._after_battles(state)

    def iter_turns(self, state: AlheimurState) -> Iterator[AlheimurTurn]:
        """Setup turns, every one; in play, every legal turn lazily, the
        smallest first (``engine/alheimur/turns.py`` says what is listed)."""
        if self.chance(state) is not None or state.phase == "over":
            return
        if state.phase == "build":
            yield from setup.place_turns(state)
        elif state.phase == "colonists":
            yield from setup.colonist_turns(state)
        elif state.phase == "play":
            yield from play_turns(state)

    def legal_turns(self, state: AlheimurState) -> list[AlheimurTurn]:
        return list(self.iter_turns(state))

    def apply(self, state: AlheimurState, turn: AlheimurTurn) -> AlheimurState:
        return self.apply_logged(state, turn, None)

    def apply_logged(self, state: AlheimurState, turn: AlheimurTurn, log: list[str] | None) -> AlheimurState:
        """``apply``, writing what happened (every survival check, move and
        shot) into ``log`` (None: nothing is written, as ``apply`` does; the
        bots apply hundreds of thousands of turns, and writing took a sixth
        of their time)."""
        if state.phase == "over":
            raise GameOverError(_("the game is over; no more turns"))
        if self.chance(state) is not None:
            raise IllegalTurnError(_("the game waits for chance (the server settles it)"))
        if state.phase == "build":
            if not isinstance(turn, Place):
                raise IllegalTurnError(_("world building: lay the card {card} next to the world "
                                         "(a place such as 'e' or 'sw~')", card=state.card))
            return setup.apply_place(state, turn)
        if state.phase == "colonists":
            if not isinstance(turn, Colonists):
                raise IllegalTurnError(_("setup: place your three starting colonists"))
            return setup.apply_colonists(state, turn)
        if not isinstance(turn, Turn):
            raise IllegalTurnError(f"not an Alheimur turn in play: {shown(turn)}")
        return self._play(state, turn, log)

    def _play(self, state: AlheimurState, turn: Turn, log: list[str] | None) -> AlheimurState:
        state = expand(state, turn.expansion, log)
        state = survive(state, log)
        if state.last_round is None and len(state.in_play(state.current)) >= LAST_ROUND_AT:
            owed = last_round_owed(state)
            if log is not None:
                log.append(str(_("Player {player} has {count} pyramids in play: the last round begins",
                                 player=state.current + 1, count=len(state.in_play(state.current)))))
            state = replace(state, last_round=(state.current,) + owed)
        state = move(state, turn.moves, log)
        orders = state.orders
        if turn.standing is not None:
            orders = tuple(turn.standing if p == state.current else o for p, o in enumerate(orders))
        for player, order in turn.standings:  # set outside their turn: in force for this turn's battles
            if not 0 <= player < state.players:
                raise IllegalTurnError(f"there is no player {player + 1} to set a standing order for")
            orders = tuple(order if p == player else o for p, o in enumerate(orders))
        state = replace(state, fire=turn.fire, fire_at=turn.fire_at, orders=orders)
        state = battle.begin(state, turn.battles)
        if state.battle is not None:
            if log is not None:
                log.append(str(_("Fleet battle at world {world}", world=state.battle.world)))
            state = battle.advance(state, log)
        return self._after_battles(state)

    def _after_battles(self, state: AlheimurState) -> AlheimurState:
        if state.battle is not None:
            return state
        return end_turn(state)

    def forfeit_turn(self, state: AlheimurState) -> AlheimurState:
        """A forfeited turn in play is an empty turn (no action, no move;
        battles still happen where the player's ships meet others)."""
        if state.phase != "play":
            raise NotImplementedError("a setup choice cannot be skipped")
        return self.apply(state, Turn())

    # -- the end ---------------------------------------------------------
    def result(self, state: AlheimurState) -> Result | None:
        if state.phase != "over":
            return None
        totals = [score(state, p).total for p in range(state.players)]
        best = max(totals)
        winners = tuple(p for p, t in enumerate(totals) if t == best)
        reason = "; ".join(f"player {p + 1} {score(state, p).text()}" for p in range(state.players))
        return Result(winners, reason)

    def ranking(self, state: AlheimurState) -> list[tuple[int, ...]]:
        if state.phase != "over":
            return []
        return standings([score(state, p).total for p in range(state.players)])

    def bot_hooks(self) -> Any:
        from engine.alheimur.bot import HOOKS  # the bots' help for this game, imported when a bot plays

        return HOOKS

    def view(self, state: AlheimurState, player: int | None) -> AlheimurState:
        """Everyone sees the worlds and the card being laid; nobody sees the
        unturned cards of the piles, the extra piles or the orbit cards until
        the game is over; each player sees only their own standing fire
        order (a spectator none)."""
        if state.phase == "over":
            return state
        piles = tuple(tuple(HIDDEN for _ in pile) for pile in state.piles)
        worlds = tuple(replace(w, orbit_card=HIDDEN) for w in state.worlds)
        orders = tuple(o if p == player else HIDDEN_ORDER for p, o in enumerate(state.orders))
        return replace(state, piles=piles, worlds=worlds, orders=orders)


def end_turn(state: AlheimurState) -> AlheimurState:
    """The next player's turn, skipping players who are out; the end after
    the last round, or when at most one player is left."""
    n = state.players
    state = replace(state, fire=None, fire_at=(), turns=state.turns + 1, phase="play")
    owed = state.last_round
    if owed is not None and owed and owed[0] == state.current:
        owed = owed[1:]
    left = [p for p in range(n) if not state.is_out(p)]
    if len(left) <= 1 or not can_grow(state):
        return replace(state, phase="over", last_round=owed)
    if owed is not None:
        owed = tuple(p for p in owed if not state.is_out(p))
        if not owed:
            return replace(state, phase="over", last_round=owed)
        return replace(state, last_round=owed, current=owed[0])
    for k in range(1, n + 1):
        p = (state.current + k) % n
        if not state.is_out(p):
            return replace(state, current=p)
    return replace(state, phase="over")


def can_grow(state: AlheimurState) -> bool:
    """Someone can still put a pyramid on a world: a pyramid stands on some
    world (expansion, launches and returns start there) or a marine is
    aboard a transport (it can land).  When nobody can, nobody can ever
    reach the last round: the game ends."""
    return any(w.pieces for w in state.worlds) or any(s.marine for s in state.all_ships())


def play_out(game: AlheimurGame, state: AlheimurState, turn: AlheimurTurn,
             outcomes: Sequence[tuple[str, ...]]) -> tuple[AlheimurState, list[str]]:
    """A turn and the chance outcomes that follow it, with the log of what
    happened: the turn report."""
    log: list[str] = []
    state = game.apply_logged(state, turn, log)
    for outcome in outcomes:
        state = game.apply_chance_logged(state, tuple(outcome), log)
    return state, log
