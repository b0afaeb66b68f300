"""Taiga rules (``notation/taiga/guide.md``, rulings 1-10): the draw, laying a
tile, meeples and trucks, completed forests, logging, the end and the score.

A turn of the player to move is one of:

- ``Place``: lay the drawn tile (or a face-up discard: the drawn tile then
  goes back into the pile) where it fits, with at most one meeple or truck,
  and the mover's choices for the forests it completes;
- ``Discard``: the drawn tile fits nowhere and goes face up to the discards;
- ``Choose``: the owner of the surveyor of a forest another player completed
  chooses "pay" or "lumberjack".

Before each turn the server draws the mover's tile (``chance``: seen only by
the mover) while the pile lasts.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import replace
from typing import Any, Iterator, Mapping

from engine.base import ChanceEvent, Result, Rules, standings
from engine.errors import AmbiguousTurnError, GameOverError, IllegalTurnError
from engine.i18n import N_, _
from engine.taiga import board as maps
from engine.taiga.board import Forest, Map
from engine.taiga.scoring import final_scoring, log_forests
from engine.taiga.state import (
    HIDDEN,
    LUMBERJACK_COST,
    START_MONEY,
    TRUCK_COST,
    Choose,
    Discard,
    Pending,
    Piece,
    Place,
    Placed,
    TaigaState,
    TaigaTurn,
)
from engine.taiga.tiles import CAMP_SPOT, DIRECTION_NAMES, EDGE_KINDS, KINDS, PILE, START, STEP, canonical_turn, turned


def start_state(players: int) -> TaigaState:
    return TaigaState((Placed(0, 0, START, 0),), (), (), (START_MONEY,) * players, ((),) * players,
                      (), PILE, None, 0)


def where(x: int, y: int) -> str:
    return f"{x},{y}"


class TaigaGame(Rules[TaigaState, TaigaTurn]):
    """Taiga – Battle Boreal, with the project's rulings."""

    name = "taiga"
    title = "Taiga – Battle Boreal"
    min_players = 2
    max_players = 5
    uses_chance = True

    # -- setting up -------------------------------------------------------
    def initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> TaigaState:
        self.check_players(players)
        self.normalize_options(options)
        return start_state(players)

    def players(self, state: TaigaState) -> int:
        return state.players

    # -- chance: the draw -----------------------------------------------------
    def chance(self, state: TaigaState) -> ChanceEvent | None:
        if state.pending or state.drawn is not None or not state.pile or HIDDEN in state.pile:
            return None
        return _draw(state.pile, state.mover)

    def apply_chance(self, state: TaigaState, outcome: tuple[str, ...]) -> TaigaState:
        event = self.chance(state)
        if event is None or not event.allows(outcome):
            raise IllegalTurnError(_("no tile {codes} can be drawn now", codes=" ".join(outcome)))
        pile = list(state.pile)
        pile.remove(outcome[0])
        return replace(state, pile=tuple(pile), drawn=outcome[0])

    # -- whose turn ------------------------------------------------------------
    def to_move(self, state: TaigaState) -> int | None:
        if state.pending:
            return state.pending[0].player
        if state.drawn is not None:
            return state.mover
        if state.pile:
            return None  # waiting for the draw
        if any(maps.fits_somewhere(state.placed, code) for code in set(state.discards)):
            return state.mover
        return None

    def is_over(self, state: TaigaState) -> bool:
        return not state.pending and state.drawn is None and not state.pile and self.to_move(state) is None

    # -- legal turns -------------------------------------------------------------
    def legal_turns(self, state: TaigaState) -> list[TaigaTurn]:
        return list(self.iter_turns(state))

    def iter_turns(self, state: TaigaState) -> Iterator[TaigaTurn]:
        mover = self.to_move(state)
        if mover is None:
            return
        if state.pending:
            yield Choose("pay")
            if state.money[mover] >= LUMBERJACK_COST:
                yield Choose("lumberjack")
            return
        codes = []
        if state.drawn is not None and state.drawn != HIDDEN:
            codes.append(state.drawn)
        codes += [c for c in dict.fromkeys(state.discards) if c not in codes]
        # every place with no piece or a meeple first, then the same places with a truck, so that
        # the first hundred turns (a page's list) show every place a tile fits
        for trucks in (False, True):
            for code in codes:
                for x, y, turn in maps.placements(state.placed, code):
                    yield from self.turns_at(state, Place(code, x, y, turn), trucks)
        if state.drawn not in (None, HIDDEN) and not maps.fits_somewhere(state.placed, state.drawn):
            yield Discard(state.drawn)

    def turns_at(self, state: TaigaState, bare: Place, trucks: bool | None = None) -> Iterator[Place]:
        """Every legal turn laying ``bare``'s tile at its place: no piece, a
        surveyor or keeper, or a truck; each with the choices it needs.
        ``trucks`` True gives only those with a truck, False only those
        without, None all."""
        placed = state.placed + (Placed(bare.x, bare.y, bare.code, bare.turn),)
        board = maps.analyse(placed)
        tile = board.tiles[(bare.x, bare.y)]
        mover = state.mover
        options: list[Place] = [] if trucks else [bare]
        if state.meeples_left(mover) > 0 and not trucks:
            for spot in tile.forest_spots:
                if not _meeples_on(state.pieces, board.forest_at((bare.x, bare.y, spot))):
                    options.append(Place(bare.code, bare.x, bare.y, bare.turn, spot, bare.truck, bare.choices))
            if tile.feature == "camp":
                options.append(Place(bare.code, bare.x, bare.y, bare.turn, CAMP_SPOT, bare.truck, bare.choices))
        if trucks is not False and state.trucks_left(mover) > 0 and state.money[mover] >= TRUCK_COST:
            taken = {(p.x, p.y, p.spot) for p in state.pieces if p.role == "truck"}
            # built directly, not with ``replace``: a position lists a truck on every free road segment
            options += [Place(bare.code, bare.x, bare.y, bare.turn, bare.meeple, key, bare.choices)
                        for key in board.segment_keys() if key not in taken]
        for option in options:
            spots = self._choice_spots(state, board, option)
            if not spots:
                yield option
                continue
            for picks in itertools.product(("pay", "lumberjack"), repeat=len(spots)):
                turn = replace(option, choices=tuple(zip(spots, picks)))
                if "lumberjack" not in picks:
                    yield turn
                    continue
                try:
                    self.apply(state, turn)
                except IllegalTurnError:
                    continue
                yield turn

    def _choice_spots(self, state: TaigaState, board: Map, turn: Place) -> list[str]:
        """The spots of the forests ``turn`` completes in which the mover has
        a surveyor (the one placed with it included), by spot."""
        pieces = state.pieces
        if turn.meeple and turn.meeple != CAMP_SPOT:
            pieces = pieces + (Piece(turn.x, turn.y, turn.meeple, "surveyor", state.mover),)
        return [spot for spot, forest in _completed(board, turn.x, turn.y)
                if state.mover in _surveyors(pieces, forest)]

    # -- applying turns ---------------------------------------------------------
    def apply(self, state: TaigaState, turn: TaigaTurn) -> TaigaState:
        mover = self.to_move(state)
        if mover is None:
            raise GameOverError(_("the game is over; no turn can be played") if self.is_over(state)
                                else _("no turn can be played before the draw"))
        if isinstance(turn, Choose):
            return self._choose(state, turn)
        if state.pending:
            owner = state.pending[0]
            raise IllegalTurnError(_(
                "player {player} first chooses, for their surveyor's completed forest at {at}, 'pay' or "
                "'lumberjack'", player=owner.player + 1, at=where(owner.x, owner.y)))
        if isinstance(turn, Discard):
            return self._discard(state, turn)
        if isinstance(turn, Place):
            return self._place(state, turn)
        raise IllegalTurnError(_("{turn} is not a Taiga turn", turn=repr(turn)))

    def _discard(self, state: TaigaState, turn: Discard) -> TaigaState:
        if state.drawn is None:
            raise IllegalTurnError(_("you drew no tile (the pile is empty): lay a discard that fits"))
        if turn.code != state.drawn:
            raise IllegalTurnError(_("you drew {drawn}, not {code}; only the drawn tile may be discarded",
                                     drawn=state.drawn, code=turn.code))
        found = maps.placements(state.placed, turn.code)
        if found:
            x, y, t = found[0]
            raise IllegalTurnError(_("{code} fits (at {at}, among {count} places and turns); a tile that fits "
                                     "must be laid", code=turn.code, at=where(x, y), count=len(found)))
        return self._next(replace(state, discards=state.discards + (turn.code,), drawn=None))

    def check_fit(self, state: TaigaState, code: str, x: int, y: int, turn: int) -> None:
        """``IllegalTurnError`` naming the side that does not match, unless
        ``code`` turned ``turn`` fits at ``x, y``."""
        board = maps.analyse(state.placed)
        tile = turned(code, turn % 4)
        laid = (_("{code} at {at} turned {degrees}", code=code, at=where(x, y), degrees=90 * (turn % 4)) if turn % 4
                else _("{code} at {at}", code=code, at=where(x, y)))
        if (x, y) in board.tiles:
            raise IllegalTurnError(_("{laid}: {at} already holds a tile ({other})", laid=laid, at=where(x, y),
                                     other=board.tiles[(x, y)].code))
        if not any((x + dx, y + dy) in board.tiles for dx, dy in STEP):
            raise IllegalTurnError(_("{laid}: {at} touches no tile; a tile is laid next to the map", laid=laid,
                                     at=where(x, y)))
        wrong = maps.mismatch(board.tiles, x, y, tile)
        if wrong is not None:
            d, other = wrong
            nx, ny = x + STEP[d][0], y + STEP[d][1]
            raise IllegalTurnError(_(
                "{laid} does not fit: its {side} edge is {kind} but {other} at {at} has {other_kind} on its "
                "{other_side} edge", laid=laid, side=_(DIRECTION_NAMES[d]), kind=_(EDGE_KINDS[tile.edges[d]]),
                other=other.code, at=where(nx, ny), other_kind=_(EDGE_KINDS[other.edges[(d + 2) % 4]]),
                other_side=_(DIRECTION_NAMES[(d + 2) % 4])))

    def _place(self, state: TaigaState, turn: Place) -> TaigaState:
        mover = state.mover
        if turn.code not in KINDS:
            raise IllegalTurnError(_("there is no tile {code}", code=turn.code))
        if state.drawn is not None and turn.code == state.drawn:
            pile, discards = state.pile, state.discards
        elif turn.code in state.discards:
            rest = list(state.discards)
            rest.remove(turn.code)
            pile = state.pile if state.drawn is None else tuple(sorted(state.pile + (state.drawn,), key=_pile_order))
            discards = tuple(rest)
        else:
            mine = _("your drawn tile is {drawn}", drawn=state.drawn) if state.drawn else _("you drew no tile")
            there = ", ".join(state.discards) or _("none")
            raise IllegalTurnError(_("you have no tile {code}: {mine}; the discards are {there}", code=turn.code,
                                     mine=mine, there=there))
        self.check_fit(state, turn.code, turn.x, turn.y, turn.turn)
        laid = Placed(turn.x, turn.y, turn.code, canonical_turn(turn.code, turn.turn))
        placed = state.placed + (laid,)
        board = maps.analyse(placed)
        tile = board.tiles[(turn.x, turn.y)]
        pieces = list(state.pieces)
        money = list(state.money)
        if turn.meeple is not None and turn.truck is not None:
            raise IllegalTurnError(_("with a tile, put a meeple on it or place a truck, not both"))
        if turn.meeple is not None:
            if state.meeples_left(mover) <= 0:
                raise IllegalTurnError(_("you have no meeple left (all 7 are on the map)"))
            if turn.meeple == CAMP_SPOT:
                if tile.feature != "camp":
                    raise IllegalTurnError(_("{code} has no logging camp to keep", code=turn.code))
                pieces.append(Piece(turn.x, turn.y, CAMP_SPOT, "keeper", mover))
            else:
                if turn.meeple not in tile.forest_spots:
                    spots = ", ".join(tile.forest_spots) or _("none")
                    raise IllegalTurnError(_("{code} laid so has no forest at {spot}; its forests are at: {spots}",
                                             code=turn.code, spot=turn.meeple, spots=spots))
                forest = board.forest_at((turn.x, turn.y, turn.meeple))
                if _meeples_on(state.pieces, forest):
                    raise IllegalTurnError(_("the {kind} forest at {spot} already has a surveyor or lumberjack; a "
                                             "forest has one surveyor", kind=_(forest.kind), spot=turn.meeple))
                pieces.append(Piece(turn.x, turn.y, turn.meeple, "surveyor", mover))
        if turn.truck is not None:
            tx, ty, tspot = turn.truck
            if state.trucks_left(mover) <= 0:
                raise IllegalTurnError(_("you have no truck left (both are on the map)"))
            if money[mover] < TRUCK_COST:
                raise IllegalTurnError(_("a truck costs ${cost} and you have ${money}", cost=TRUCK_COST,
                                         money=money[mover]))
            if (tx, ty, tspot) not in board.links:
                other = board.tiles.get((tx, ty))
                roads = ", ".join(other.road_spots) if other else ""
                if roads:
                    raise IllegalTurnError(_("there is no road at {spot} of the tile at {at}; its roads are at: "
                                             "{roads}", spot=tspot, at=where(tx, ty), roads=roads))
                if other:
                    raise IllegalTurnError(_("there is no road at {spot} of the tile at {at}", spot=tspot,
                                             at=where(tx, ty)))
                raise IllegalTurnError(_("there is no road at {spot} of the tile at {at}; there is no tile there",
                                         spot=tspot, at=where(tx, ty)))
            if any(p.role == "truck" and (p.x, p.y, p.spot) == turn.truck for p in pieces):
                raise IllegalTurnError(_("the road at {spot} of {at} already has a truck", spot=tspot,
                                         at=where(tx, ty)))
            money[mover] -= TRUCK_COST
            pieces.append(Piece(tx, ty, tspot, "truck", mover))
        # forests completed by this tile
        wanted = dict(turn.choices)
        if len(wanted) != len(turn.choices):
            raise IllegalTurnError(_("each completed forest is chosen for once"))
        if any(choice not in ("pay", "lumberjack") for choice in wanted.values()):
            raise IllegalTurnError(_("a completed forest is chosen for with 'pay' or 'lumberjack'"))
        lumberjacks = 0
        asked = set()
        for spot, forest in _completed(board, turn.x, turn.y):
            owners = _surveyors(pieces, forest)
            if not owners:
                continue
            if mover in owners:
                asked.add(spot)
                if spot not in wanted:
                    raise AmbiguousTurnError(_(
                        "{code} completes the {kind} forest at {spot} ({size} tiles) with your surveyor in it: add "
                        "'pay {spot}' (${share}) or 'lumberjack {spot}' (${cost})", code=turn.code,
                        kind=_(forest.kind), spot=spot, size=forest.size, share=_share(forest, owners),
                        cost=LUMBERJACK_COST))
                choice = wanted[spot]
                if choice == "pay":
                    pieces = _pay_out(pieces, money, forest, owners)
                else:
                    pieces = _to_lumberjack(pieces, forest, mover)
                    lumberjacks += 1
            elif len(owners) == 1:
                state = replace(state, pending=state.pending + (Pending(owners[0], turn.x, turn.y, spot),))
            else:
                pieces = _pay_out(pieces, money, forest, owners)
        for spot in wanted:
            if spot not in asked:
                raise IllegalTurnError(_("this tile completes no forest of yours at {spot}; only a completed "
                                         "forest with your surveyor in it is chosen for", spot=spot))
        money[mover] -= LUMBERJACK_COST * lumberjacks
        if money[mover] < 0:
            raise IllegalTurnError(_("you cannot pay: {count} lumberjack(s) cost ${cost} and you would have "
                                     "${money}", count=lumberjacks, cost=LUMBERJACK_COST * lumberjacks,
                                     money=money[mover] + LUMBERJACK_COST * lumberjacks))
        after = replace(state, placed=placed, pieces=tuple(sorted(pieces)), money=tuple(money), pile=pile,
                        discards=discards, drawn=None)
        return self._next(log_forests(after))

    def _choose(self, state: TaigaState, turn: Choose) -> TaigaState:
        if not state.pending:
            raise IllegalTurnError(_("there is no completed forest to choose for: 'pay' and 'lumberjack' answer "
                                     "only when another player completes your surveyor's forest"))
        first = state.pending[0]
        board = maps.analyse(state.placed)
        forest = board.forest_at((first.x, first.y, first.spot))
        owner = first.player
        pieces = list(state.pieces)
        money = list(state.money)
        if turn.option == "pay":
            pieces = _pay_out(pieces, money, forest, _surveyors(pieces, forest))
        elif turn.option == "lumberjack":
            if money[owner] < LUMBERJACK_COST:
                raise IllegalTurnError(_("a lumberjack costs ${cost} and you have ${money}; choose 'pay'",
                                         cost=LUMBERJACK_COST, money=money[owner]))
            money[owner] -= LUMBERJACK_COST
            pieces = _to_lumberjack(pieces, forest, owner)
        else:
            raise IllegalTurnError(_("choose 'pay' or 'lumberjack'"))
        after = replace(state, pieces=tuple(sorted(pieces)), money=tuple(money), pending=state.pending[1:])
        return _settle_pending(log_forests(after))

    def _next(self, state: TaigaState) -> TaigaState:
        return _settle_pending(replace(state, mover=(state.mover + 1) % state.players))

    def forfeit_turn(self, state: TaigaState) -> TaigaState:
        """A player out of time: a pending choice is paid out; a drawn tile
        goes back into the pile and the turn passes."""
        if self.to_move(state) is None:
            raise IllegalTurnError(_("no turn to forfeit"))
        if state.pending:
            return self.apply(state, Choose("pay"))
        pile = state.pile
        if state.drawn is not None:
            pile = tuple(sorted(pile + (state.drawn,), key=_pile_order))
        return self._next(replace(state, pile=pile, drawn=None))

    # -- the end -------------------------------------------------------------------
    def scores(self, state: TaigaState) -> tuple[int, ...]:
        """Money so far; once the game is over, the final totals."""
        if self.is_over(state):
            return tuple(sum(part.values()) for part in final_scoring(state))
        return state.money

    def result(self, state: TaigaState) -> Result | None:
        if not self.is_over(state):
            return None
        scores = self.scores(state)
        best = max(scores)
        return Result(tuple(p for p, s in enumerate(scores) if s == best), N_("most money"), scores)

    def ranking(self, state: TaigaState) -> list[tuple[int, ...]]:
        if not self.is_over(state):
            return []
        return standings(self.scores(state))

    def bot_hooks(self) -> Any:
        from engine.taiga.bot import HOOKS  # the bots' help for this game, imported when a bot plays

        return HOOKS

    # -- hidden information --------------------------------------------------------
    def view(self, state: TaigaState, player: int | None) -> TaigaState:
        """The pile is the server's alone; the drawn tile is its mover's."""
        if self.is_over(state):
            return state
        drawn = state.drawn
        if drawn is not None and player != state.mover:
            drawn = HIDDEN
        return replace(state, pile=(HIDDEN,) * len(state.pile), drawn=drawn)


@functools.lru_cache(maxsize=4096)
def _draw(pile: tuple[str, ...], mover: int) -> ChanceEvent:
    """The draw of the mover's tile from ``pile`` (an event is a value: a
    bot's search asks for the same one many times, and checking a new one
    of the whole pile each time was a tenth of a search)."""
    return ChanceEvent("draw", "draw", 1, pile, seen_by=(mover,))


def _pile_order(code: str) -> int:
    return PILE.index(code) if code in PILE else len(PILE)


def _meeples_on(pieces: Any, forest: Forest) -> bool:
    keys = set(forest.keys)
    return any(p.role in ("surveyor", "lumberjack") and (p.x, p.y, p.spot) in keys for p in pieces)


def _surveyors(pieces: Any, forest: Forest) -> list[int]:
    """The players with a surveyor in ``forest``, each once, sorted."""
    keys = set(forest.keys)
    return sorted({p.player for p in pieces if p.role == "surveyor" and (p.x, p.y, p.spot) in keys})


def _completed(board: Map, x: int, y: int) -> list[tuple[str, Forest]]:
    """The complete forests that hold an area of the tile at ``x, y``, each
    once, with the first spot of the tile in it."""
    found, seen = [], set()
    for spot in board.tiles[(x, y)].forest_spots:
        index = board.forest_of[(x, y, spot)]
        if index not in seen and board.forests[index].complete:
            seen.add(index)
            found.append((spot, board.forests[index]))
    return found


def _share(forest: Forest, owners: list[int]) -> int:
    """Each surveyor owner's payout: $1 a tile, rounded up to a multiple of
    the number of owners and split (two owners: up to an even number)."""
    return -(-forest.size // len(owners))


def _pay_out(pieces: list[Piece], money: list[int], forest: Forest, owners: list[int]) -> list[Piece]:
    share = _share(forest, owners)
    for owner in owners:
        money[owner] += share
    keys = set(forest.keys)
    return [p for p in pieces if not (p.role == "surveyor" and (p.x, p.y, p.spot) in keys)]


def _to_lumberjack(pieces: list[Piece], forest: Forest, player: int) -> list[Piece]:
    """Every surveyor leaves ``forest``; ``player``'s first becomes its lumberjack."""
    keys = set(forest.keys)
    mine = min(p for p in pieces if p.role == "surveyor" and p.player == player and (p.x, p.y, p.spot) in keys)
    rest = [p for p in pieces if not (p.role == "surveyor" and (p.x, p.y, p.spot) in keys)]
    return rest + [mine._replace(role="lumberjack")]


def _settle_pending(state: TaigaState) -> TaigaState:
    """Pay out, without asking, the pending choices whose owner cannot
    afford a lumberjack."""
    while state.pending and state.money[state.pending[0].player] < LUMBERJACK_COST:
        first = state.pending[0]
        board = maps.analyse(state.placed)
        forest = board.forest_at((first.x, first.y, first.spot))
        pieces = list(state.pieces)
        money = list(state.money)
        pieces = _pay_out(pieces, money, forest, _surveyors(pieces, forest))
        state = replace(state, pieces=tuple(sorted(pieces)), money=tuple(money), pending=state.pending[1:])
    return state


