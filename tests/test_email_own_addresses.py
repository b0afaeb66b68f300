"""The server never answers its own addresses: mail From (or Sender, Reply-To,
Return-Path, envelope sender) MAIL_FROM, MAIL_ROBOT_ADDRESS or any
``play+...@MAIL_DOMAIN`` address (a genuine token or not) is stored as
ignored, with the reason, and nothing is queued in the outbox."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select
from test_email_commands import DOMAIN, duel, fresh_mail, outbox_rows, plain_text, reply_address, robot  # noqa: F401 - fixtures

from pbem.models.mail import InboxMessage


def _inbox(app) -> list[InboxMessage]:
    with Session(app.extensions["pbem_engine"]) as s:
        return list(s.exec(select(InboxMessage).order_by(InboxMessage.id)))


def _sent_to_the_game(robot, game_id, player_id, **headers) -> None:
    before = len(outbox_rows(robot.app))
    envelope_from = headers.pop("envelope_from", None)
    sender = headers.pop("sender", "Alice <alice@example.org>")
    robot.send(fresh_mail(sender, reply_address(robot.app, game_id, player_id), "resign", **headers),
               envelope_from=envelope_from)
    [row] = _inbox(robot.app)[-1:]
    assert row.status == "ignored", row.reason
    assert "from the server's own address" in row.reason
    assert len(outbox_rows(robot.app)) == before  # nothing answered, not even once a day


def test_mail_from_a_players_own_game_reply_address_is_not_answered(duel):
    robot, (game_id, alice_id, _), _ = duel
    _sent_to_the_game(robot, game_id, alice_id, sender=f"Game <{reply_address(robot.app, game_id, alice_id)}>")
    assert robot.new_mail() == []


@pytest.mark.parametrize("sender", [
    "play+notatoken@pbem.test",
    "PLAY+AbCdEf@PBEM.TEST",
    "play@pbem.test",
    "pbem <pbem@pbem.test>",
    "pbem+bounces@pbem.test",
])
def test_mail_from_any_of_the_servers_addresses_is_not_answered(duel, sender):
    robot, (game_id, alice_id, _), _ = duel
    _sent_to_the_game(robot, game_id, alice_id, sender=sender)


@pytest.mark.parametrize("header", ["Sender", "Reply-To", "Return-Path"])
def test_mail_whose_sender_reply_to_or_return_path_is_ours_is_not_answered(duel, header):
    robot, (game_id, alice_id, _), _ = duel
    _sent_to_the_game(robot, game_id, alice_id, **{header.replace("-", "_"): "play+x@pbem.test"})


def test_mail_whose_envelope_sender_is_ours_is_not_answered(duel):
    robot, (game_id, alice_id, _), _ = duel
    _sent_to_the_game(robot, game_id, alice_id, envelope_from=f"pbem@{DOMAIN}")


def test_mail_to_the_plain_address_from_the_robot_address_is_not_answered(robot):
    robot.send(fresh_mail(f"play@{DOMAIN}", f"play@{DOMAIN}", "help"))
    [row] = _inbox(robot.app)
    assert row.status == "ignored" and "from the server's own address" in row.reason
    assert outbox_rows(robot.app) == []


def test_a_player_at_the_servers_domain_is_still_answered(robot):
    [answer] = robot.send(fresh_mail(f"carol@{DOMAIN}", f"play@{DOMAIN}", "help"))
    assert "help" in plain_text(answer).lower()
