"""A whole game against the computer by mail, for each game of two: alice
writes ``new <game> vs bot beginner`` to the robot, then answers each
your-turn mail with a turn; the bot's turns are made by the scheduler's
``bots`` job (the worker), through the same turn service, until the game is
over.  Nothing is ever queued for the bot's address.  A one-player game
(Martian Greenhouse) has no seat for a bot, and says so."""

from __future__ import annotations

import random

import pytest
from sqlmodel import Session, select
from test_email_commands import ROBOT, client_reply, fresh_mail, plain_text, robot  # noqa: F401 - fixtures

from engine.bots import random_turn
from notation import registry
from pbem import scheduler
from pbem.models import FINISHED, Game, OutboxMessage, Player, Seat, Turn
from pbem.services.bots import BOT_DOMAIN
from pbem.services.stored import kind_of, state_of

ALICE = "alice@example.org"
GAMES = [name for name in registry.names() if registry.get(name).rules.max_players >= 2]


def _signed_up(app) -> None:
    from pbem.db import get_session
    from pbem.services.accounts import player_for_email

    with app.app_context():
        player_for_email(get_session(), ALICE)
        get_session().commit()


def _alices_turn(app, game_id: int, rng: random.Random) -> str:
    with Session(app.extensions["pbem_engine"]) as s:
        game = s.get(Game, game_id)
        kind = kind_of(game)
        state = state_of(game)
        return kind.notation.format_turn(state, random_turn(kind.rules, kind.rules.view(state, 0), rng.random()))


def _in_game(message) -> bool:
    """Mail to alice from the game's own reply address (a turn answers it)."""
    return ALICE in str(message["To"]) and "+" in str(message["Reply-To"] or message["From"])


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_game_by_mail_against_the_bot(robot, name):
    app = robot.app
    _signed_up(app)
    started = robot.send(fresh_mail(ALICE, ROBOT, f"new {name} vs bot beginner"))
    assert any("against the computer has started" in plain_text(m) for m in started), \
        [plain_text(m) for m in started]
    with Session(app.extensions["pbem_engine"]) as s:
        game = s.exec(select(Game).order_by(Game.id.desc())).first()
        game_id = game.id
        bot = s.exec(select(Player).join(Seat, Seat.player_id == Player.id)
                     .where(Seat.game_id == game_id, Seat.number == 1)).one()
        assert bot.email == f"beginner@{BOT_DOMAIN}" and game.status == "active"
    from pbem.mailrobot import jobs

    def bots_move() -> list:
        """The worker plays the bot's turns (none when it is alice's turn);
        the your-turn mail alice gets then."""
        scheduler.run_once(app, ["bots"])
        jobs.drain_outbox(app)
        return [m for m in robot.new_mail() if _in_game(m)]

    mail = [m for m in started if _in_game(m)] or bots_move()  # the bot may have the first turn
    assert mail, "alice got no mail to play her first turn"
    last = mail[-1]
    rng = random.Random(name)
    for _ in range(400):
        with Session(app.extensions["pbem_engine"]) as s:
            if s.get(Game, game_id).status == FINISHED:
                break
            ply = s.get(Game, game_id).ply
        answer = robot.send(client_reply(last, _alices_turn(app, game_id, rng)))
        assert answer, "the robot did not answer alice's turn"
        with Session(app.extensions["pbem_engine"]) as s:
            game = s.get(Game, game_id)
            assert game.ply > ply, plain_text(answer[0])  # her turn was played
            if game.status == FINISHED:
                break
        mail = [m for m in answer if _in_game(m)] + bots_move()
        assert mail, "alice got no mail after her turn and the bot's"
        last = mail[-1]
    with Session(app.extensions["pbem_engine"]) as s:
        game = s.get(Game, game_id)
        assert game.status == FINISHED, f"{name} still going after 400 turns"
        played = [(t.seat, t.source) for t in s.exec(select(Turn).where(Turn.game_id == game_id).order_by(Turn.ply))]
        assert {source for _, source in played} == {"email", "bot"}
        # alice (seat 0) by mail, the bot (seat 1) by the worker; turns need not alternate (a Taiga
        # forest completed for the other player gives them a turn of their own to choose)
        assert all(source == ("email" if seat == 0 else "bot") for seat, source in played if source), played
        bot_mail = s.exec(select(OutboxMessage).where(OutboxMessage.to_addr.endswith(BOT_DOMAIN))).all()
        assert bot_mail == []


def test_a_one_player_game_has_no_seat_for_a_bot(robot):
    _signed_up(robot.app)
    [answer] = robot.send(fresh_mail(ALICE, ROBOT, "new greenhouse vs bot"))
    assert "1 player, not 2" in plain_text(answer)


def test_a_level_the_game_does_not_offer_is_refused_by_mail_naming_its_levels(robot):
    _signed_up(robot.app)
    with Session(robot.app.extensions["pbem_engine"]) as s:
        games_before = len(s.exec(select(Game)).all())
    [answer] = robot.send(fresh_mail(ALICE, ROBOT, "new taiga vs bot medium"))
    assert "bot plays at these levels: beginner, strongest; there is no level 'medium'" in plain_text(answer)
    with Session(robot.app.extensions["pbem_engine"]) as s:
        assert len(s.exec(select(Game)).all()) == games_before
    [helped] = robot.send(fresh_mail(ALICE, ROBOT, "help"))
    assert "taiga: beginner, strongest" in plain_text(helped)
    assert "alheimur: beginner, medium, strongest" in plain_text(helped)
