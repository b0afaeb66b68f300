"""Alheimur values: pyramids on worlds, ships, worlds, fire orders, the
turns and the state.  Everything here is immutable.

Players are 0-based here.  A player's stash is five pyramids of each size
(1, 2, 3 pips); what is not in play is in the stash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar, Union

from engine.alheimur.worlds import Laid, Layout

SIZES = (1, 2, 3)
PER_SIZE = 5
#: pyramids in one stash
STASH = PER_SIZE * len(SIZES)
#: pyramids in play that start the last round
LAST_ROUND_AT = 13
NEUTRAL = "N"

_T = TypeVar("_T")


def _changed(value: _T, **fields: Any) -> _T:
    """``dataclasses.replace`` without its checks, for the plain frozen
    dataclasses here (no ``__post_init__``, nothing cached on them): the
    bots' searches change hundreds of thousands of worlds a turn, and
    ``replace`` took a third of their time."""
    new = object.__new__(type(value))
    new.__dict__.update(value.__dict__)
    new.__dict__.update(fields)
    return new


@dataclass(frozen=True, order=True)
class Pyramid:
    """A pyramid on a world: upright (a colonist) or sideways (an invader)."""

    owner: int
    size: int
    invader: bool = False


@dataclass(frozen=True, order=True)
class Ship:
    """A pyramid off-world: a fighter, or a transport carrying a marine of
    ``marine`` pips (0: none)."""

    owner: int
    size: int
    fighter: bool = False
    marine: int = 0


@dataclass(frozen=True)
class World:
    """A built world: its name (the owner's number 1-8, or ``N`` for the
    neutral world), owner (0-based, None: neutral), layout, orbit card
    (``?`` when hidden), pyramids by territory and ships in its orbit
    (both sorted)."""

    name: str
    owner: int | None
    layout: Layout
    orbit_card: str
    pieces: tuple[tuple[str, Pyramid], ...] = ()
    ships: tuple[Ship, ...] = ()

    def at(self, territory: str) -> Pyramid | None:
        for name, pyramid in self.pieces:
            if name == territory:
                return pyramid
        return None

    def with_pieces(self, pieces: dict[str, Pyramid]) -> "World":
        return _changed(self, pieces=tuple(sorted(pieces.items())))

    def with_ships(self, ships: list[Ship] | tuple[Ship, ...]) -> "World":
        return _changed(self, ships=tuple(sorted(ships)))

    def with_contents(self, pieces: dict[str, Pyramid], ships: list[Ship] | tuple[Ship, ...]) -> "World":
        return _changed(self, pieces=tuple(sorted(pieces.items())), ships=tuple(sorted(ships)))

    def has(self, player: int) -> bool:
        return any(p.owner == player for _, p in self.pieces)


@dataclass(frozen=True)
class FireOrder:
    """How a player's ships choose targets.  ``hold``: never fire.
    ``players``: players (0-based) whose ships are shot first, in order.
    ``transports``: transports before fighters (where a transport may be
    a target at all); otherwise fighters first.  Within that, the largest
    ship first, then the lowest player number."""

    hold: bool = False
    players: tuple[int, ...] = ()
    transports: bool = False
    #: another player's order as a player's view shows it (hidden while the game is on)
    hidden: bool = False


DEFAULT_ORDER = FireOrder()
HIDDEN_ORDER = FireOrder(hidden=True)


# -- turns --------------------------------------------------------------

@dataclass(frozen=True)
class Place:
    """World building: lay the turned-over card at (x, y) from the first
    card (x east, y south), turned half a turn or not."""

    x: int
    y: int
    turned: bool = False


@dataclass(frozen=True)
class Colonists:
    """The three starting colonists: (territory, size) on one's own world."""

    placed: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Expand:
    world: str
    territory: str
    size: int


@dataclass(frozen=True)
class Civilize:
    world: str
    territory: str
    size: int  # the new size


@dataclass(frozen=True)
class Migrate:
    """Step 1: a one- or two-pip colonist moves to an adjacent empty territory."""

    world: str
    start: str
    end: str


@dataclass(frozen=True)
class Launch:
    """Step 2: a colonist leaves its territory for the orbit as a fighter
    (``as_`` "F"), a transport ("T") or a marine boarding an empty
    transport of its own of that size or larger (``as_`` "M", ``into`` the
    transport's size)."""

    world: str
    territory: str
    as_: str
    into: int = 0


@dataclass(frozen=True)
class Return:
    """Step 2: a ship of ``size`` (a fighter if ``fighter``), or the marine
    of ``marine`` pips carried by a transport of that size (``marine`` > 0),
    comes down from orbit to an empty territory as a colonist."""

    world: str
    size: int
    fighter: bool
    marine: int
    territory: str


@dataclass(frozen=True)
class Flip:
    """Step 3: a ship in orbit without a marine turns: a fighter becomes a
    transport or a transport a fighter (``fighter``: what it is now)."""

    world: str
    size: int
    fighter: bool


@dataclass(frozen=True)
class Land:
    """Step 4: the marine of ``marine`` pips of a transport of ``size``
    lands on ``territory``."""

    world: str
    size: int
    marine: int
    territory: str


@dataclass(frozen=True)
class Board:
    """Step 5: the invader on ``territory`` boards an empty transport of
    its owner of ``into`` pips in orbit."""

    world: str
    territory: str
    into: int


@dataclass(frozen=True)
class Fly:
    """Step 6: a ship moves from an orbit to space (``end`` "S") or from
    space to an orbit (``start`` "S"); worlds by name."""

    start: str
    end: str
    size: int
    fighter: bool
    marine: int = 0


Move = Union[Migrate, Launch, Return, Flip, Land, Board, Fly]
#: the movement step (1-6) of each kind of move
STEP = {Migrate: 1, Launch: 2, Return: 2, Flip: 3, Land: 4, Board: 5, Fly: 6}


@dataclass(frozen=True)
class Turn:
    """A whole turn: one expansion action per world (or none), the moves in
    step order, the order of fleet battles (worlds by name; worlds not
    named follow in world order), the fire of the current player in them
    (None: the standing order), and a new standing order (None: keep);
    ``fire_at``: the fire at named worlds, over ``fire`` there (by world
    order); ``standings``: new standing orders of other players, each
    (0-based player, order), set outside their turn and folded into this
    one by the server (by player order)."""

    expansion: tuple[Union[Expand, Civilize], ...] = ()
    moves: tuple[Move, ...] = ()
    battles: tuple[str, ...] = ()
    fire: FireOrder | None = None
    standing: FireOrder | None = None
    fire_at: tuple[tuple[str, FireOrder], ...] = ()
    standings: tuple[tuple[int, FireOrder], ...] = ()


AlheimurTurn = Union[Place, Colonists, Turn]


# -- the state ----------------------------------------------------------

@dataclass(frozen=True)
class Shot:
    """A ship about to fire, or whose fire waits for the target's defence."""

    shooter: Ship
    target: Ship
    hits: int = -1  # -1: the attack is not rolled yet


@dataclass(frozen=True)
class Battle:
    """Fleet battles still to resolve in the current turn.

    ``worlds``: worlds still to fight after this one.  ``world``: the one
    being fought.  ``stages``: the attack stages to come there, each
    (attacker, its step number), its return fire following it.  ``firing``: the ships still to fire
    in the current stage, each (owner, ship, the only player it may
    target, or -1 for any other player).  ``fired_upon``: players targeted in
    the current attack stage.  ``shot``: the shot waiting for dice."""

    worlds: tuple[str, ...]
    world: str
    stages: tuple[tuple[int, int], ...]
    firing: tuple[tuple[Ship, int], ...] = ()
    attacker: int = -1
    returning: bool = False
    fired_upon: tuple[int, ...] = ()
    shot: Shot | None = None


@dataclass(frozen=True)
class AlheimurState:
    """An Alheimur position.

    ``phase``: ``deal`` (waits for the deal), ``build`` (a world being
    built), ``swap`` (a player's unplayable world waits for the lot of the
    orbit-card swap), ``colonists``, ``first`` (waits for the lot of the
    first player), ``play``, ``battle`` (a turn's fleet battles waiting for
    dice) or ``over``.
    ``piles``: the eight piles' cards not yet turned over (hidden).
    ``pile_of``: the pile each builder (player 0..n-1, then the neutral
    world, index n) builds from.  ``extra``: extra piles not yet taken.
    ``worlds``: finished worlds (players' worlds by seat, the neutral last
    once built).  ``building``: the cards laid in the world being built;
    ``card``: the card turned over and waiting to be laid; ``builder``:
    whose world it is (n: the neutral world).  ``lots``: placements or
    swaps waiting for a lot (their canonical texts).  ``current``: the
    player to move.  ``space``: ships in space.  ``orders``: standing fire
    orders per player.  ``last_round``: turns still to play once the last
    round began (None before).  ``deals``: how many deals so far.
    ``fire``, ``fire_at``: the current player's fire for this turn's
    battles (all, and at named worlds)."""

    players: int
    phase: str
    piles: tuple[tuple[str, ...], ...] = ()
    pile_of: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    worlds: tuple[World, ...] = ()
    building: tuple[Laid, ...] = ()
    card: str = ""
    builder: int = 0
    lots: tuple[str, ...] = ()
    current: int = 0
    space: tuple[Ship, ...] = ()
    orders: tuple[FireOrder, ...] = ()
    last_round: tuple[int, ...] | None = None
    deals: int = 0
    battle: Battle | None = None
    fire: FireOrder | None = None
    turns: int = 0
    fire_at: tuple[tuple[str, FireOrder], ...] = ()

    def world(self, name: str) -> World | None:
        for w in self.worlds:
            if w.name == name:
                return w
        return None

    def known_world(self, name: str) -> World:
        """The world called ``name``, which the caller knows is in play
        (``world`` answers None for any name)."""
        for w in self.worlds:
            if w.name == name:
                return w
        raise KeyError(name)

    def with_world(self, world: World) -> "AlheimurState":
        return _changed(self, worlds=tuple(world if w.name == world.name else w for w in self.worlds))

    def in_play(self, player: int) -> list[int]:
        """Sizes of ``player``'s pyramids in play (worlds, ships, marines)."""
        sizes = [p.size for w in self.worlds for _, p in w.pieces if p.owner == player]
        for ship in self.all_ships():
            if ship.owner == player:
                sizes.append(ship.size)
                if ship.marine:
                    sizes.append(ship.marine)
        return sizes

    def all_ships(self) -> list[Ship]:
        return [s for w in self.worlds for s in w.ships] + list(self.space)

    def stash(self, player: int) -> dict[int, int]:
        """Pyramids of each size in ``player``'s stash."""
        used = self.in_play(player)
        return {size: PER_SIZE - used.count(size) for size in SIZES}

    def is_out(self, player: int) -> bool:
        """Out: the game is under way and nothing of theirs is left."""
        return self.phase in ("play", "battle", "over") and not self.in_play(player)


def world_name(owner: int | None) -> str:
    return NEUTRAL if owner is None else str(owner + 1)
