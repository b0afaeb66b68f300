"""Games are plug-ins: a distribution registers a game with an entry point of
the group ``pbem.games`` (``notation/registry.py``), and the server plays it
without a line of its own naming it.  Here the test game Hands
(``tests/hands_game.py``) is installed as a real distribution (a
``*.dist-info`` folder with ``METADATA`` and ``entry_points.txt`` on
``sys.path``) and played to its end through the one turn service; a plug-in
that cannot be loaded is refused naming its entry point, without harming the
other games; and a game's own kinds of piece are drawn by the looks it
declares (``Notation.piece_looks``), a kind given two looks refused."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import hands_game
import pytest
import tally_game

from notation import record as records
from notation import registry
from notation.base import GameKind, Piece, PieceLook
from notation.drawing import render as diagrams
from pbem.models import Game
from pbem.services import records as stored_records
from pbem.services import turns
from pbem.services.stored import state_of


@pytest.fixture
def plugins(tmp_path):
    """``install(name, entry_points)`` installs a distribution called
    ``name`` declaring ``entry_points`` (the text of its
    ``entry_points.txt``) and reads the registry's entry points again; all
    are uninstalled after the test."""
    where = str(tmp_path)
    sys.path.insert(0, where)

    def install(name: str, entry_points: str) -> None:
        info = tmp_path / f"{name.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(entry_points)
        importlib.invalidate_caches()
        registry.refresh()

    yield install
    sys.path.remove(where)
    importlib.invalidate_caches()
    registry.refresh()


def test_a_game_installed_as_a_plugin_is_played_on_the_server(plugins, session, make_players, start_game):
    assert "hands" not in registry.names()
    plugins("pbem-hands", "[pbem.games]\nhands = hands_game:KIND\n")
    assert "hands" in registry.names() and registry.get("Hands") is hands_game.KIND
    rules, notation = hands_game.KIND.rules, hands_game.KIND.notation
    players = make_players("alice", "bob", "carol")
    game = start_game(*players, kind="hands")  # made and accepted through the games service
    assert game.status == "active" and game.kind == "hands"
    rng = random.Random(5)
    while game.status == "active":
        state = state_of(game)
        mover = rules.to_move(state)
        turns.submit_turn(session, game.id, players[mover], rng.choice(notation.legal_texts(state)), game.ply, "web")
        session.expire_all()
        game = session.get(Game, game.id)
    assert game.status == "finished" and game.result != "*" and game.ply == len(hands_game.ANIMALS)
    played = records.check(records.read(stored_records.text(session, game)))
    assert notation.format_position(played.final) == game.position


def test_a_plugin_that_cannot_be_loaded_is_refused_naming_its_entry_point(plugins):
    plugins("pbem-broken", "[pbem.games]\nbroken = no_such_module_for_pbem:KIND\nmisnamed = hands_game:KIND\n"
                           "notakind = hands_game:ANIMALS\n")
    assert {"broken", "misnamed", "notakind"} <= set(registry.names())  # registered: never silently left out
    with pytest.raises(registry.GameLoadError) as refused:
        registry.get("broken")
    message = str(refused.value)
    assert "broken = no_such_module_for_pbem:KIND" in message and "pbem-broken 1.0" in message
    assert "ModuleNotFoundError" in message and isinstance(refused.value.__cause__, ModuleNotFoundError)
    with pytest.raises(registry.GameLoadError, match="names the game 'hands'"):
        registry.get("misnamed")
    with pytest.raises(registry.GameLoadError, match="names a tuple, not a notation.base.GameKind"):
        registry.get("notakind")
    assert registry.get("logger").name == "logger"  # the other games are not harmed
    assert diagrams.render("logger", {}, registry.get("logger").notation.format_position(
        registry.get("logger").rules.initial_state(2)), "svg").startswith("<svg")


def test_a_name_two_distributions_give_different_games_is_refused_naming_both(plugins):
    plugins("pbem-one", "[pbem.games]\ntwice = hands_game:KIND\n")
    plugins("pbem-two", "[pbem.games]\ntwice = tally_game:KIND\n")
    with pytest.raises(registry.GameLoadError, match="more than once") as refused:
        registry.get("twice")
    assert "pbem-one 1.0" in str(refused.value) and "pbem-two 1.0" in str(refused.value)


class _Gems(tally_game.TallyNotation):
    piece_looks = {"gem": PieceLook("disc", fill="#00bcd4", size=11, label="#000000")}


class _OtherStones(tally_game.TallyNotation):
    piece_looks = {"stone": PieceLook("square", size=5)}


def _register(monkeypatch, name: str, notation) -> None:
    kind = GameKind(name, notation.game, notation, "a test game")
    monkeypatch.setitem(registry._GAMES, name, f"tests:{name}")
    monkeypatch.setitem(registry._loaded, name, kind)


def test_a_game_s_own_kind_of_piece_is_drawn_by_the_look_it_declares(monkeypatch):
    assert diagrams._shapes(Piece("gem", "g", 0), 0, 0) == [("text", (28.0, 28.0, "g"), diagrams.INK)]  # unknown
    _register(monkeypatch, "gems", _Gems())
    assert diagrams._shapes(Piece("gem", "g", 0), 0, 0) == [("circle", (28.0, 28.0, 11), "#00bcd4"),
                                                           ("text", (28.0, 28.0, "g"), "#000000")]


def test_a_kind_of_piece_two_games_draw_differently_is_refused_naming_both(monkeypatch):
    _register(monkeypatch, "stones", _OtherStones())
    with pytest.raises(ValueError, match="'stone' is given two looks, by ataxx and by stones"):
        diagrams._shapes(Piece("stone", "x", 0), 0, 0)
    assert diagrams._shapes(Piece("tree", "s", None, 1), 0, 0)  # the other kinds are still drawn


def test_the_registry_reads_the_project_s_own_games_from_its_entry_points():
    from importlib.metadata import entry_points

    declared = {point.name: point.value for point in entry_points(group=registry.GROUP)}
    assert set(registry.names()) == set(declared) and all(
        value == f"notation.{name}:KIND" for name, value in declared.items())
    assert all(Path(str(registry.get(name).guide())).name == "guide.md" for name in registry.names())
