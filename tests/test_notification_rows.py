"""Game mail is queued as structured rows (the words, the game, the ply, the
recipient's seat) and its board drawn when it is sent; rows queued by the
code before migration 0011 (their board already in the body) are still
sent, as written."""

from __future__ import annotations

from sqlmodel import Session
from test_email_commands import duel, outbox_rows, plain_text, robot  # noqa: F401 - fixtures

from pbem.mailrobot import jobs
from pbem.models import Game, OutboxMessage
from pbem.services.stored import kind_of, state_of


def _images(message) -> list:
    return [part for part in message.walk() if part.get_content_type() == "image/png"]


def test_a_game_mail_row_holds_words_and_a_seat_and_the_board_is_drawn_when_sent(duel):
    robot, (game_id, _, _), mail = duel
    rows = [r for r in outbox_rows(robot.app) if r.game_id == game_id and r.kind in ("your_turn", "turn_played")]
    assert {(r.to_addr, r.seat) for r in rows} == {("alice@example.org", 0), ("bob@example.org", 1)}
    for row in rows:
        assert ". . ." not in row.body and ". . ." not in row.after_board  # no board in the row
        assert "The game: http" in row.after_board
    with Session(robot.app.extensions["pbem_engine"]) as s:
        game = s.get(Game, game_id)
        board = kind_of(game).notation.text_diagram(state_of(game)).strip("\n")
    text = plain_text(mail).replace("\r\n", "\n")
    assert board in text and "The game: http" in text  # the board, drawn at send time, and the link after
    assert text.index("It is your turn") < text.index(board) < text.index("The game: http")
    assert _images(mail)


def test_a_row_queued_before_the_structured_rows_is_sent_as_written(duel):
    robot, (game_id, _, _), _mail = duel
    board = "5 . . . . 2\n4 . . . . .\n3 . . s . .\n2 . . . . .\n1 1 . . . .\n  a b c d e"
    with Session(robot.app.extensions["pbem_engine"]) as s:
        s.add(OutboxMessage(to_addr="alice@example.org", subject=f"Game {game_id}: your turn", game_id=game_id, ply=0,
                            kind="turn_played", body=f"Old words.\n\n{board}\n\nThe game: http://pbem.test/games/1\n"))
        s.commit()  # after_board and seat NULL, as the old code left them
    jobs.drain_outbox(robot.app)
    [sent] = robot.new_mail()
    text = plain_text(sent)
    assert "Old words." in text and text.count("5 . . . . 2") == 1 and "The game: http" in text
    assert not _images(sent)  # its board is the one in its body; nothing is read back out of it


def test_the_local_mailbox_shows_where_the_board_goes(database_config, tmp_path):
    from test_email_commands import mail_app

    from pbem.db import get_session
    from pbem.services import games
    from pbem.services.accounts import player_for_email

    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "mail"), DEV_MAILBOX=True)
    try:
        with app.app_context():
            session = get_session()
            alice, bob = (player_for_email(session, f"{n}@example.org") for n in ("alice", "bob"))
            game = games.create_game(session, alice, "logger", [alice.email, bob.email])
            games.accept(session, game.id, bob)
        page = app.test_client().get("/dev/mail").get_data(as_text=True)
        assert "[the board after turn 0, as player 1 may see it, goes here" in page
        assert "[the board after turn 0, as player 2 may see it, goes here" in page
    finally:
        app.extensions["pbem_engine"].dispose()
