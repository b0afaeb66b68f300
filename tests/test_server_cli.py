"""``pbem play`` plays turns in stored games through the turn service."""

from __future__ import annotations

from click.testing import CliRunner
from conftest import make_test_app
from sqlmodel import select

from pbem.cli import main
from pbem.db import get_session
from pbem.models import Turn
from pbem.services import games
from pbem.services.accounts import player_for_email


def test_play_from_the_command_line(sqlite_config):
    app = make_test_app(sqlite_config)
    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        game = games.create_game(session, alice, "logger", ["bob@example.org"])
        games.accept(session, game.id, player_for_email(session, "bob@example.org"))
    runner = CliRunner(env={"DATABASE_URL": sqlite_config["DATABASE_URL"], "PBEM_SECRET_KEY": "x"})
    result = runner.invoke(main, ["play", str(game.id), "A1", "--as", "alice@example.org"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("played a1; game 1 is at ply 1")
    refused = runner.invoke(main, ["play", str(game.id), "e5", "--as", "alice@example.org"])
    assert refused.exit_code == 1 and "not your turn" in refused.stderr
    stale = runner.invoke(main, ["play", str(game.id), "e5", "--as", "bob@example.org", "--ply", "0"])
    assert stale.exit_code == 1 and "moved on" in stale.stderr
    with app.app_context():
        assert [t.source for t in get_session().exec(select(Turn))] == ["cli"]
