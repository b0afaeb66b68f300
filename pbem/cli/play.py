"""``pbem play``: play a turn in a stored game from the command line,
through the same turn submission service as the web, API and mail."""

from __future__ import annotations

import sys

import click


@click.command("play")
@click.argument("game_id", type=int)
@click.argument("turn")
@click.option("--as", "email", required=True, help="the player's email address")
@click.option("--ply", type=int, default=None, help="the ply you saw (default: the game's current ply)")
def play(game_id: int, turn: str, email: str, ply: int | None) -> None:
    """Play TURN in game GAME_ID as the player with address --as."""
    from pbem import create_app
    from pbem.db import get_session
    from pbem.services import visibility as views
    from pbem.services.accounts import player_for_email
    from pbem.services.errors import ServiceError
    from pbem.services.stored import load_game
    from pbem.services.turns import submit_turn

    app = create_app()
    with app.app_context():
        session = get_session()
        try:
            player = player_for_email(session, email, create=False)
            seen = load_game(session, game_id).ply if ply is None else ply
            done = submit_turn(session, game_id, player, turn, seen, "cli")
        except ServiceError as error:
            click.echo(f"error: {error.message}", err=True)
            sys.exit(1)
        # the player sees their own view of the position, never the whole of it while the game is on
        sight = views.at(session, done.game, views.seat_for(session, done.game, player))
        shown = sight.position if sight is not None else ""
        click.echo(f"played {done.turn.canonical}; game {game_id} is at ply {done.game.ply}: {shown}")
