"""One door for game state: a draw offer racing a turn cannot survive it,
and no module but ``pbem.services.gamestate`` changes a game's position,
ply, status, result or draw offer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlmodel import Session

from pbem.services import errors, games, gamestate
from pbem.services.turns import submit_turn

ROOT = Path(__file__).resolve().parent.parent
DOOR = ROOT / "pbem" / "services" / "gamestate.py"
GAME_STATE = {"position", "ply", "status", "result", "draw_offer", "termination", "finished_at"}


def test_a_draw_offer_racing_a_turn_does_not_survive_the_turn(app, session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    engine = app.extensions["pbem_engine"]
    raced = []

    def alice_plays_first(_conn, _cursor, statement, *_args):
        """Just before bob's offer writes the game row, alice's turn (read
        at the same ply) is committed by another session."""
        if raced or not statement.lstrip().upper().startswith("UPDATE GAMES"):
            return
        raced.append(True)
        with Session(engine) as other:
            submit_turn(other, game.id, alice, "A1", 0, "web")

    event.listen(engine, "before_cursor_execute", alice_plays_first)
    try:
        with pytest.raises(errors.ServiceError, match="moved on|changed"):
            games.offer_draw(session, game.id, bob)
    finally:
        event.remove(engine, "before_cursor_execute", alice_plays_first)
    assert raced
    session.expire_all()
    session.refresh(game)
    assert game.ply == 1
    assert gamestate.draw_offer_seats(game) == set()  # the turn withdrew the offer; it was not written after it


def _writes_game_state(tree: ast.AST) -> list[str]:
    """Lines of ``tree`` that assign a game's state or issue ``update(Game)``."""
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for element in ast.walk(target):
                if (isinstance(element, ast.Attribute) and element.attr in GAME_STATE
                        and isinstance(element.value, ast.Name) and "game" in element.value.id.lower()):
                    found.append(f"{node.lineno}: assigns {element.value.id}.{element.attr}")
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "update" and any(isinstance(a, ast.Name) and a.id == "Game" for a in node.args):
                found.append(f"{node.lineno}: update(Game)")
            if name in ("set_committed_value", "setattr") and node.args and \
                    isinstance(node.args[0], ast.Name) and "game" in node.args[0].id.lower():
                found.append(f"{node.lineno}: {name}({node.args[0].id}, ...)")
    return found


def test_only_the_door_changes_a_games_state():
    offenders = []
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        if path == DOOR or "migrations" in path.parts:
            continue
        for line in _writes_game_state(ast.parse(path.read_text(), str(path))):
            offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert offenders == [], "only pbem/services/gamestate.py may change a game's state:\n" + "\n".join(offenders)


def test_the_architecture_check_sees_a_write():
    assert _writes_game_state(ast.parse("game.ply = 3\nsession.execute(update(Game).values(ply=1))")) == [
        "1: assigns game.ply", "2: update(Game)"]
    assert _writes_game_state(ast.parse("seat.status = 'accepted'")) == []
