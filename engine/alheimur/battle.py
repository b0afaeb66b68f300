"""Fleet battles: where they happen, the firing steps, targets, attack and
defence dice (chance events from the server's seed), hits and the stash
shortage, marines lost with their transport.

A battle is fought in each orbit where the current player and another
player have ships, in the order the current player names (worlds not
named follow in world order).  At each, the *attack stages* are: the
world's owner (step 1), the current player if not the owner (step 3),
then each other player with a spaceport on the world, in turn order from
the current player (step 5).  After each attack stage, the players whose
ships were fired upon fire back at the attacker (steps 2, 4, 6), in turn
order from the current player.  A player fires each of their ships in the
orbit once: larger ships first, fighters before transports of one size.

Targets come from fire orders (``choose_target``): the current player's
fire for this turn, or a player's standing order.
"""

from __future__ import annotations

from dataclasses import replace

from engine.alheimur.pieces import AlheimurState, Battle, FireOrder, Ship, Shot
from engine.base import ChanceEvent
from engine.errors import IllegalTurnError
from engine.i18n import _

PURPOSES = ("attack", "defence")


def sites(state: AlheimurState) -> list[str]:
    """Worlds whose orbit holds ships of the current player and of another."""
    return [w.name for w in state.worlds
            if any(s.owner == state.current for s in w.ships) and any(s.owner != state.current for s in w.ships)]


def battle_order(state: AlheimurState, named: tuple[str, ...]) -> list[str]:
    here = sites(state)
    for name in named:
        if name not in here:
            raise IllegalTurnError(_("fleet battle order: there is no battle in the orbit of world {world}; "
                                     "battles this turn: {battles}", world=name, battles=" ".join(here) or _("none")))
    if len(set(named)) != len(named):
        raise IllegalTurnError(_("fleet battle order: each world once"))
    return list(named) + [w for w in here if w not in named]


def firing_order(ships: list[Ship]) -> list[Ship]:
    return sorted(ships, key=lambda s: (-s.size, not s.fighter, s.marine))


def stages(state: AlheimurState, world_name: str) -> tuple[tuple[int, int], ...]:
    """(attacker, step number) of each attack stage at this world."""
    world = state.known_world(world_name)
    current, n = state.current, state.players
    result: list[tuple[int, int]] = []
    if world.owner is not None:
        result.append((world.owner, 1))
    if world.owner != current:
        result.append((current, 3))
    for k in range(1, n):
        p = (current + k) % n
        if p != world.owner and any(q.owner == p and q.size == 3 and not q.invader for _, q in world.pieces):
            result.append((p, 5))
    return tuple(result)


def begin(state: AlheimurState, named: tuple[str, ...]) -> AlheimurState:
    """The turn's battles, or the state unchanged when there are none."""
    order = battle_order(state, named)
    for world, _order in state.fire_at:
        if world not in order:
            raise IllegalTurnError(_("fire at world {world}: there is no battle in its orbit; "
                                     "battles this turn: {battles}", world=world, battles=" ".join(order) or _("none")))
    if not order:
        return state
    b = Battle(worlds=tuple(order[1:]), world=order[0], stages=stages(state, order[0]))
    return replace(state, phase="battle", battle=b)


def order_of(state: AlheimurState, player: int) -> FireOrder:
    """The current player's fire at this battle's world, else for the turn,
    else the player's standing order."""
    if player == state.current:
        here = state.battle.world if state.battle is not None else None
        for world, order in state.fire_at:
            if world == here:
                return order
        if state.fire is not None:
            return state.fire
    return state.orders[player]


def choose_target(state: AlheimurState, ships: tuple[Ship, ...], shooter: Ship, only: int) -> Ship | None:
    """The target the shooter's owner's fire order picks, or None."""
    order = order_of(state, shooter.owner)
    if order.hold:
        return None
    screened = {s.owner for s in ships if s.fighter}
    candidates = [s for s in ships if s.owner != shooter.owner and (only < 0 or s.owner == only)
                  and (s.fighter or s.owner not in screened)]
    if not candidates:
        return None

    def key(s: Ship) -> tuple[int, bool, int, int, int]:
        rank = order.players.index(s.owner) if s.owner in order.players else len(order.players)
        kind = (s.fighter if order.transports else not s.fighter)
        return (rank, kind, -s.size, s.owner, -s.marine)

    return min(candidates, key=key)


def threshold(shooter: Ship, target: Ship) -> int:
    """The lowest die that hits."""
    if not shooter.fighter:
        return 6
    return 5 if target.fighter else 4


def chance_event(state: AlheimurState) -> ChanceEvent | None:
    b = state.battle
    if b is None or b.shot is None:
        return None
    if b.shot.hits < 0:
        return ChanceEvent("roll", "attack", count=b.shot.shooter.size)
    return ChanceEvent("roll", "defence", count=b.shot.target.size)


def apply_roll(state: AlheimurState, dice: tuple[str, ...], log: list[str] | None) -> AlheimurState:
    """Apply the attack or defence dice of the waiting shot."""
    b = state.battle
    assert b is not None and b.shot is not None  # the dice answer the shot that waits for them (chance_event)
    shot = b.shot
    values = [int(d) for d in dice]
    if shot.hits < 0:
        hits = sum(1 for v in values if v >= threshold(shot.shooter, shot.target))
        if log is not None:
            log.append("  " + str(_("{shooter} fires at {target}: {dice}, {hits} hits", shooter=_name(shot.shooter),
                                    target=_name(shot.target), dice=" ".join(dice), hits=hits)
                                  if hits != 1 else _("{shooter} fires at {target}: {dice}, 1 hit",
                                                      shooter=_name(shot.shooter), target=_name(shot.target),
                                                      dice=" ".join(dice))))
        if hits == 0:
            return replace(state, battle=replace(b, shot=None))
        return replace(state, battle=replace(b, shot=replace(shot, hits=hits)))
    cancelled = sum(1 for v in values if v == 6)
    net = max(0, shot.hits - cancelled)
    world = state.known_world(b.world)
    ships = list(world.ships)
    ships.remove(shot.target)
    state = state.with_world(world.with_ships(ships))
    result = reduce(state, shot.target, net)
    note = "  " + str(_("defence {dice}: {cancelled} cancelled", dice=" ".join(dice),
                             cancelled=min(cancelled, shot.hits)))
    if net:
        note += ", " + str(_("now {ship}", ship=_name(result)) if result else _("destroyed"))
    if log is not None:
        log.append(note)
    if result is not None:
        state = state.with_world(state.known_world(b.world).with_ships(ships + [result]))
    return replace(state, battle=replace(b, shot=None))  # b: state.battle, kept by with_world


def reduce(state: AlheimurState, ship: Ship, hits: int) -> Ship | None:
    """``ship`` (already taken out of play) after ``hits`` uncancelled hits:
    one size smaller per hit; where the stash lacks that size, another size
    smaller, until a size the stash has or nothing (destroyed).  The marine
    stays aboard (and out of the stash) while the transport shrinks; then,
    if larger than what is left of it, it is lost to the stash."""
    if hits == 0:
        return ship
    stash = state.stash(ship.owner)  # the hit ship is back in it; it is larger than any new size
    if ship.marine:
        stash[ship.marine] -= 1  # the marine stays aboard while its transport shrinks
    size = ship.size - hits
    while size >= 1 and stash[size] <= 0:
        size -= 1
    if size < 1:
        return None
    marine = ship.marine if ship.marine <= size else 0
    return replace(ship, size=size, marine=marine)


def _name(ship: Ship) -> str:
    cargo = f"+{ship.marine}" if ship.marine else ""
    if ship.fighter:
        return str(_("{player}'s fighter {size}", player=ship.owner + 1, size=f"{ship.size}{cargo}"))
    return str(_("{player}'s transport {size}", player=ship.owner + 1, size=f"{ship.size}{cargo}"))


def advance(state: AlheimurState, log: list[str] | None) -> AlheimurState:
    """Go on with the battles until a shot waits for dice or all are done
    (then ``battle`` is None)."""
    while True:
        b = state.battle
        if b is None or b.shot is not None:
            return state
        world = state.known_world(b.world)
        if b.firing:
            (shooter, only), rest = b.firing[0], b.firing[1:]
            b = replace(b, firing=rest)
            state = replace(state, battle=b)
            if shooter not in world.ships:
                continue
            target = choose_target(state, world.ships, shooter, only)
            if target is None:
                continue
            fired = b.fired_upon if target.owner in b.fired_upon else b.fired_upon + (target.owner,)
            state = replace(state, battle=replace(b, shot=Shot(shooter, target),
                                                  fired_upon=fired if not b.returning else b.fired_upon))
            continue
        if not b.returning and b.fired_upon:
            n, cur = state.players, state.current
            back = [p for p in ((cur + k) % n for k in range(n)) if p in b.fired_upon]
            firing = tuple((s, b.attacker) for p in back for s in firing_order([x for x in world.ships if x.owner == p]))
            if firing:
                if log is not None:
                    log.append(" " + str(_("Step {step} at world {world}: return fire at player {player}",
                                           step=_step_no(state, b) + 1, world=b.world, player=b.attacker + 1)))
            state = replace(state, battle=replace(b, firing=firing, returning=True, fired_upon=()))
            continue
        if b.stages:
            (attacker, step), later = b.stages[0], b.stages[1:]
            mine = firing_order([s for s in world.ships if s.owner == attacker])
            if mine:
                if log is not None:
                    log.append(" " + str(_("Step {step} at world {world}: player {player} fires", step=step,
                                           world=b.world, player=attacker + 1)))
            state = replace(state, battle=replace(b, stages=later, attacker=attacker, returning=False, fired_upon=(),
                                                  firing=tuple((s, -1) for s in mine)))
            continue
        if b.worlds:
            name = b.worlds[0]
            if log is not None:
                log.append(str(_("Fleet battle at world {world}", world=name)))
            state = replace(state, battle=Battle(worlds=b.worlds[1:], world=name, stages=stages(state, name)))
            continue
        return replace(state, battle=None)


def _step_no(state: AlheimurState, b: Battle) -> int:
    world = state.known_world(b.world)
    if b.attacker == world.owner:
        return 1
    return 3 if b.attacker == state.current else 5
