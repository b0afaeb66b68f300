"""The findings of a player's review of the mail side: joining a game by
mail, answers to lines that are not turns, mail composed as it was when
queued, the order of sending, who may start games by mail, the wording of
subjects and counts, and mail clients' smart punctuation."""

from __future__ import annotations

import threading
import time

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select
from test_email_commands import (  # noqa: F401 - fixtures
    ROBOT,
    client_reply,
    duel,
    fresh_mail,
    game_row,
    outbox_rows,
    plain_text,
    reply_address,
    robot,
    turns,
)

from pbem.cli import main
from pbem.mailrobot import jobs, outgoing
from pbem.mailrobot.settings import mail_settings
from pbem.models import Game, OutboxMessage
from pbem.models.mail import InboxMessage
from pbem.services.stored import kind_of, state_of


def _services(app, fn):
    from pbem.db import get_session

    with app.app_context():
        return fn(get_session())


def _player(session, email):
    from pbem.services.accounts import player_for_email

    return player_for_email(session, email)


@pytest.fixture
def invited(robot):
    """alice has created a Logger game and invited bob; bob's invitation read."""
    from pbem.services import games

    def create(session):
        alice, bob = _player(session, "alice@example.org"), _player(session, "bob@example.org")
        game = games.create_game(session, alice, "logger", ["alice@example.org", "bob@example.org"])
        return game.id, alice.id, bob.id

    ids = _services(robot.app, create)
    jobs.drain_outbox(robot.app)
    [invitation] = robot.to("bob@example.org", robot.new_mail())
    return robot, ids, invitation


# -- 1. joining by mail ----------------------------------------------------------------------

def test_the_invitation_says_reply_accept_or_decline(invited):
    robot, (game_id, _, bob_id), invitation = invited
    text = plain_text(invitation)
    assert "reply 'accept' to this mail" in text and "'decline'" in text and "Or use the link" in text
    assert invitation["Reply-To"] == reply_address(robot.app, game_id, bob_id)


def test_replying_accept_to_the_invitation_starts_the_game(invited):
    robot, (game_id, _, _), invitation = invited
    new = robot.send(client_reply(invitation, "Accept"))
    answer = robot.to("bob@example.org", new)
    assert any("You accepted game" in plain_text(m) and "the game starts now" in plain_text(m) for m in answer)
    assert game_row(robot.app, game_id).status == "active"
    assert any("your turn" in str(m["Subject"]) for m in robot.to("alice@example.org", new))


def test_replying_decline_to_the_invitation_cancels_the_game(invited):
    robot, (game_id, _, _), invitation = invited
    new = robot.send(client_reply(invitation, "decline"))
    assert any("You declined game" in plain_text(m) for m in robot.to("bob@example.org", new))
    assert game_row(robot.app, game_id).status == "cancelled"
    assert any("cancelled" in str(m["Subject"]) for m in robot.to("alice@example.org", new))


@pytest.mark.parametrize("line", ["a1", "legal", "#1 a1"])
def test_a_command_before_the_start_says_who_the_game_waits_for(invited, line):
    robot, (game_id, _, _), invitation = invited
    [answer] = robot.send(client_reply(invitation, line))
    text = plain_text(answer)
    assert "has not started yet" in text and "waiting for bob (bob@example.org)" in text
    assert "reply 'accept'" in text and "no more turns can be played" not in text
    assert game_row(robot.app, game_id).status == "inviting"


def test_the_draw_offer_says_reply_draw_to_agree(duel):
    robot, _, mail = duel
    new = robot.send(client_reply(mail, "draw"))
    [offer] = [m for m in robot.to("bob@example.org", new) if "draw offered" in str(m["Subject"])]
    assert "Reply 'draw' to this mail to agree (or use the game page)" in plain_text(offer)


# -- 2. a line that is no turn ---------------------------------------------------------------

@pytest.mark.parametrize("line", ["G", "zz"])
def test_a_bad_turn_without_a_square_is_quoted_with_the_notations_reason(duel, line):
    robot, (game_id, _, _), mail = duel
    [answer] = robot.send(client_reply(mail, line))
    text = plain_text(answer)
    assert f"> {line}" in text and "in the setup round a turn is the corner" in text
    assert "preview <turn>" in text  # the help
    assert turns(robot.app, game_id) == []


def test_free_text_before_a_real_command_is_still_skipped(duel):
    robot, (game_id, _, _), mail = duel
    robot.send(client_reply(mail, "Thanks for the game!\nG\na5"))
    assert [t.canonical for t in turns(robot.app, game_id)] == ["a5"]


def test_an_ataxx_pass_when_moves_exist_is_refused_with_the_reason(robot):
    from pbem.services import games

    def create(session):
        alice, bob = _player(session, "alice@example.org"), _player(session, "bob@example.org")
        game = games.create_game(session, alice, "ataxx", ["alice@example.org", "bob@example.org"])
        games.accept(session, game.id, bob)
        return game.id

    game_id = _services(robot.app, create)
    jobs.drain_outbox(robot.app)
    mail = robot.to("alice@example.org", robot.new_mail())[-1]
    [answer] = robot.send(client_reply(mail, "0000"))
    text = plain_text(answer)
    assert "> 0000" in text and "may not pass" in text and "g2" in text
    assert turns(robot.app, game_id) == []


def test_an_engine_bug_while_reading_a_line_shunts_the_message(duel, monkeypatch):
    robot, (game_id, _, _), mail = duel
    notation = kind_of(game_row(robot.app, game_id)).notation

    def broken(state, text):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(notation, "parse_turn", broken)
    assert robot.send(client_reply(mail, "Hello there")) == []
    with Session(robot.app.extensions["pbem_engine"]) as s:
        assert s.exec(select(InboxMessage.status)).all()[-1] == "shunted"


# -- 3. mail composed as it was queued; sent in order ----------------------------------------

def _play(app, game_id, email, text):
    from pbem.services import turns as turn_service

    def play(session):
        game = session.get(Game, game_id)
        turn_service.submit_turn(session, game_id, _player(session, email), text, game.ply, "web")

    _services(app, play)


def _legal(app, game_id):
    with Session(app.extensions["pbem_engine"]) as s:
        game = s.get(Game, game_id)
        return kind_of(game).notation.legal_texts(state_of(game))


def test_a_your_turn_mail_sent_late_shows_its_own_turn_number_example_and_board(duel):
    robot, (game_id, _, _), _ = duel
    _play(robot.app, game_id, "alice@example.org", "a1")
    _play(robot.app, game_id, "bob@example.org", "e5")
    [row] = [r for r in outbox_rows(robot.app) if r.kind == "your_turn" and r.ply == 2]
    with Session(robot.app.extensions["pbem_engine"]) as s:
        game = s.get(Game, game_id)
        expected = kind_of(game).notation.legal_texts(state_of(game))[0]
    assert expected != "a1"
    _play(robot.app, game_id, "alice@example.org", expected)  # the game moves on before the mail is sent
    _play(robot.app, game_id, "bob@example.org", _legal(robot.app, game_id)[0])
    with robot.app.app_context(), Session(robot.app.extensions["pbem_engine"]) as s:
        message = outgoing.compose(s, mail_settings(robot.app.config), s.get(OutboxMessage, row.id))
    text = plain_text(message)
    assert f'"#3 {expected}"' in text
    assert "Moves: 1. a1  2. e5\n" in text.replace("\r\n", "\n")


def test_a_deadline_is_not_added_to_a_mail_about_an_earlier_turn(robot):
    from pbem.services import games

    def create(session):
        alice, bob = _player(session, "alice@example.org"), _player(session, "bob@example.org")
        game = games.create_game(session, alice, "logger", ["alice@example.org", "bob@example.org"],
                                 hours_per_turn=24)
        games.accept(session, game.id, bob)
        return game.id

    game_id = _services(robot.app, create)
    jobs.drain_outbox(robot.app)
    robot.new_mail()
    from pbem.services import outbox

    def queue(session):
        row = outbox.queue(session, "alice@example.org", "Re: Game", "About turn 1.", game_id=game_id, ply=0,
                           kind="reply")
        session.commit()
        return row.id

    row_id = _services(robot.app, queue)
    with robot.app.app_context(), Session(robot.app.extensions["pbem_engine"]) as s:
        assert "Deadline:" in plain_text(outgoing.compose(s, mail_settings(robot.app.config), s.get(OutboxMessage, row_id)))
    _play(robot.app, game_id, "alice@example.org", "a1")
    with robot.app.app_context(), Session(robot.app.extensions["pbem_engine"]) as s:
        assert "Deadline:" not in plain_text(outgoing.compose(s, mail_settings(robot.app.config),
                                                              s.get(OutboxMessage, row_id)))


class SlowSink:
    """A sender that takes its time, so two drains overlap."""

    def __init__(self):
        self.sent: list[str] = []

    def send(self, message):
        time.sleep(0.02)
        self.sent.append(str(message["Subject"]))

    def close(self):
        pass


def _queue_numbered(app, count, to="bob@example.org"):
    from pbem.services import outbox

    def queue(session):
        for n in range(count):
            outbox.queue(session, to, f"mail {n}", "text", kind="reply")
        session.commit()

    _services(app, queue)


def test_two_drains_at_once_send_one_players_mail_in_the_order_it_was_queued(robot):
    app, engine = robot.app, robot.app.extensions["pbem_engine"]
    _queue_numbered(app, 8)
    sink = SlowSink()
    workers = [threading.Thread(target=outgoing.drain, args=(app, engine, sink)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sink.sent == [f"mail {n}" for n in range(8)]


def test_a_mail_waits_while_an_earlier_one_to_the_same_address_is_not_out(robot):
    from datetime import timedelta

    from pbem.models import utcnow

    app, engine = robot.app, robot.app.extensions["pbem_engine"]
    _queue_numbered(app, 2)
    _queue_numbered(app, 1, to="carol@example.org")
    with Session(engine) as s:  # another process holds bob's first mail
        first = s.exec(select(OutboxMessage).order_by(OutboxMessage.id)).first()
        first.next_attempt_at = utcnow() + timedelta(minutes=10)
        s.add(first)
        s.commit()
    sink = SlowSink()
    outgoing.drain(app, engine, sink)
    assert sink.sent == ["mail 0"]  # carol's; bob's second waits for his first
    with Session(engine) as s:
        first = s.exec(select(OutboxMessage).order_by(OutboxMessage.id)).first()
        first.next_attempt_at = None
        s.add(first)
        s.commit()
    outgoing.drain(app, engine, sink)
    assert sink.sent == ["mail 0", "mail 0", "mail 1"]


# -- 4. who may start games by mail ----------------------------------------------------------

def test_new_from_an_unknown_address_is_refused_and_explained_once_a_day(robot):
    [answer] = robot.send(fresh_mail("stranger@example.org", ROBOT, "new logger with bob@example.org"))
    assert "No game was started" in plain_text(answer) and "signed in on the web" in plain_text(answer)
    assert robot.send(fresh_mail("stranger@example.org", ROBOT, "new logger with carol@example.org")) == []
    with Session(robot.app.extensions["pbem_engine"]) as s:
        assert s.exec(select(Game)).all() == []


def test_new_is_limited_to_a_few_games_a_day(robot):
    from pbem.mailrobot.commands import NEW_GAMES_PER_DAY

    _services(robot.app, lambda s: (_player(s, "alice@example.org"), s.commit()))
    for n in range(NEW_GAMES_PER_DAY):
        robot.send(fresh_mail("alice@example.org", ROBOT, f"new logger with friend{n}@example.org"))
    new = robot.send(fresh_mail("alice@example.org", ROBOT, "new logger with one.more@example.org"))
    [answer] = robot.to("alice@example.org", new)
    assert "No game was started" in plain_text(answer) and "try again tomorrow" in plain_text(answer)
    with Session(robot.app.extensions["pbem_engine"]) as s:
        assert len(s.exec(select(Game)).all()) == NEW_GAMES_PER_DAY


# -- 5. words -------------------------------------------------------------------------------

def test_the_game_over_subject_says_who_won(duel):
    robot, _, mail = duel
    new = robot.send(client_reply(mail, "resign"))
    subjects = {str(m["Subject"]) for m in new if "game over" in str(m["Subject"])}
    assert subjects and all(s.endswith("game over: bob (player 2) wins") for s in subjects)


def test_the_game_over_subject_of_a_draw_names_both(duel):
    robot, (game_id, _, bob_id), mail = duel
    robot.send(client_reply(mail, "draw"))
    new = robot.send(client_reply(mail, "draw", sender="bob@example.org", to=reply_address(robot.app, game_id, bob_id)))
    subjects = {str(m["Subject"]) for m in new if "game over" in str(m["Subject"])}
    assert subjects and all(s.endswith("game over: a draw between alice (player 1) and bob (player 2)")
                            for s in subjects)


def test_one_point_is_singular_in_mail(duel):
    robot, (game_id, _, _), _ = duel
    from pbem.services import outbox

    def queue(session):
        row = outbox.queue(session, "alice@example.org", "Re: Game", "The board:", game_id=game_id, ply=0,
                           kind="reply")
        row.position = "1...2/...../..s../...../..... 1 1,0 1,2"
        session.commit()
        return row.id

    row_id = _services(robot.app, queue)
    with robot.app.app_context(), Session(robot.app.extensions["pbem_engine"]) as s:
        text = plain_text(outgoing.compose(s, mail_settings(robot.app.config), s.get(OutboxMessage, row_id)))
    assert "Player 1: 1 point, 1 protester in supply" in text and "1 points" not in text
    assert "Player 2: 0 points, 2 protesters" in text


def test_pbem_mail_retry_without_arguments_says_what_to_give():
    result = CliRunner().invoke(main, ["mail", "retry"])
    assert result.exit_code != 0
    assert "not both" not in result.output and "--all" in result.output and "pbem mail shunt" in result.output


# -- 6. smart punctuation --------------------------------------------------------------------

def test_a_turn_with_an_en_dash_and_full_width_digits_is_played(duel):
    robot, (game_id, _, _), _ = duel
    _play(robot.app, game_id, "alice@example.org", "a1")
    _play(robot.app, game_id, "bob@example.org", "e5")
    jobs.drain_outbox(robot.app)
    mail = [m for m in robot.to("alice@example.org", robot.new_mail()) if "your turn" in str(m["Subject"])][-1]
    with Session(robot.app.extensions["pbem_engine"]) as s:
        game = s.get(Game, game_id)
        turn = [t for t in kind_of(game).notation.legal_texts(state_of(game)) if "-" in t][0]
    smart = "＃３ " + turn.replace("-", "\u2013", 1).replace("-", "\u2011")
    robot.send(client_reply(mail, smart))
    assert [t.canonical for t in turns(robot.app, game_id)][-1] == turn


@pytest.mark.parametrize("written, read", [
    ("b2\u2013c2", "b2-c2"),            # en dash
    ("e2\u2011e3", "e2-e3"),            # non-breaking hyphen
    ("c3\u2212", "c3-"),                # minus sign
    ("\uff43\uff13\uff0b", "c3+"),      # full-width
    ("\u201cdraw\u201d", '"draw"'),     # curly quotes
    ("a1-a3\u00a0G\u00a0P:b3", "a1-a3 G P:b3"),  # non-breaking spaces
])
def test_smart_punctuation_is_undone_before_parsing(written, read):
    from mail.commands import parse_command

    assert parse_command(written).line == read


def test_games_at_the_plain_address_tells_an_invitee_how_to_accept(invited):
    robot, (game_id, _, bob_id), _ = invited
    [listed] = robot.send(fresh_mail("bob@example.org", ROBOT, "games"))
    text = plain_text(listed)
    assert f"Game {game_id}" in text and f"mail 'accept' (or 'decline') to {reply_address(robot.app, game_id, bob_id)}" \
        in text.replace("\n    ", " ").replace("\r", "")


def test_accept_in_reply_to_a_draw_offer_points_to_draw(duel):
    robot, (game_id, _, bob_id), mail = duel
    robot.send(client_reply(mail, "draw"))
    bob_mail = client_reply(mail, "accept", sender="bob@example.org", to=reply_address(robot.app, game_id, bob_id))
    [answer] = robot.send(bob_mail)
    assert "no invitation to accept" in plain_text(answer) and "reply 'draw'" in plain_text(answer)
    assert game_row(robot.app, game_id).status == "active"
