"""Mail that costs little to send (issue 52, point 6) stays the same mail:
what the outbox drain keeps between rows never lets one seat see another's
hidden cards (each mail's board is its recipient's view, even when every
seat's mail is composed in one drain), and the cheaper ways of building
and writing a message give the bytes the email package gives.  Speed is
measured by ``benchmarks/mail_cost.py``, not here."""

from __future__ import annotations

import random
from email import policy

import pytest
from hands_game import register_hands
from test_email_commands import mail_app
from test_hidden_information import EMAIL, NAMES, SEAT

from mail import compose as compose_module
from mail.compose import compose_notification
from mail.send import EmlFolderSink, flatten
from notation.drawing import render as diagrams
from pbem.db import get_session
from pbem.mailrobot import jobs, outgoing
from pbem.models import Game
from pbem.services import games
from pbem.services.accounts import player_for_email
from pbem.services.stored import kind_of, state_of


@pytest.fixture
def hands(database_config, tmp_path, monkeypatch):
    """Three players at a game of Hands (hidden hands), started; its id and the app."""
    register_hands(monkeypatch)
    seeds = iter(f"{n:064x}" for n in range(0xcc00, 0xcd00))
    monkeypatch.setattr(games, "NEW_SEED", lambda: next(seeds))
    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "sent"))
    with app.app_context():
        session = get_session()
        players = {name: player_for_email(session, EMAIL[name]) for name in NAMES}
        game = games.create_game(session, players["alice"], "hands", [EMAIL[n] for n in NAMES])
        for name in ("bob", "carol"):
            games.accept(session, game.id, players[name])
        game_id = game.id
    yield app, game_id, tmp_path / "sent"
    app.extensions["pbem_engine"].dispose()


def _png(message) -> bytes | None:
    for part in message.walk():
        if part.get_content_type() == "image/png":
            return bytes(part.get_content())
    return None


def test_seats_with_different_views_never_share_a_board_in_one_drain(hands):
    app, game_id, folder = hands
    diagrams._render.cache_clear()
    jobs.drain_outbox(app)  # every seat's mail composed by the same drain
    with app.app_context():
        game = get_session().get(Game, game_id)
        kind = kind_of(game)
        state = state_of(game)
        views = {name: kind.notation.format_position(kind.rules.view(state, SEAT[name])) for name in NAMES}
        expected = {name: diagrams.render_fresh(game.kind, game.options, views[name], "png") for name in NAMES}
    assert len(set(views.values())) == len(NAMES), "the seats' views should differ (hidden hands)"
    boards: dict[str, set[bytes]] = {name: set() for name in NAMES}
    for _, message in EmlFolderSink(folder).messages():
        png = _png(message)
        to = next(name for name in NAMES if EMAIL[name] in str(message["To"]))
        if png is not None:
            boards[to].add(png)
    for name in NAMES:
        assert boards[name] == {expected[name]}, f"{name}'s mail shows a board that is not {name}'s view"
    assert len({png for found in boards.values() for png in found}) == len(NAMES)


def test_the_memo_keeps_what_a_seat_sees_apart_from_another_seat(hands):
    """The drain's memo is keyed by seat for what a seat sees: composing
    the rows of every seat with one memo gives each the mail it gets alone."""
    app, game_id, _ = hands
    from sqlmodel import Session, select

    from pbem.mailrobot.settings import mail_settings
    from pbem.models import OutboxMessage

    settings = mail_settings(app.config)
    with app.app_context(), Session(app.extensions["pbem_engine"]) as session:
        rows = list(session.exec(select(OutboxMessage).where(OutboxMessage.game_id == game_id)))
        assert {row.seat for row in rows} >= {0, 1, 2}
        memo: outgoing.Memo = {}
        together = [outgoing.compose(session, settings, row, memo) for row in rows]
        alone = [outgoing.compose(session, settings, row) for row in rows]
    for shared, single in zip(together, alone):
        assert shared.get_body(("plain",)).get_content() == single.get_body(("plain",)).get_content()
        assert _png(shared) == _png(single)


def _notification(**extra):
    return compose_notification(
        from_addr="pbem <pbem@example.org>", to_addr="Émile <emile@example.org>",
        subject="Game 3 (Logger): your turn — à vous", text="Un texte\n\nen français: à vous de jouer",
        domain="example.org", loop_id="pbem@example.org", diagram="a b c\n1 2 3", after="Moves: 1. a1",
        png=b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40, reply_to="play+token@example.org",
        message_id="<m1@example.org>", refusal_link="https://example.org/refuse/" + "x" * 60, **extra)


def _written(message, use) -> bytes:
    random.seed(7)  # the same MIME boundaries
    return message.as_bytes(policy=use)


def test_flatten_writes_the_bytes_the_email_package_writes():
    message = _notification()
    for use in (policy.SMTP, policy.default):
        random.seed(3)
        expected = message.as_bytes(policy=use)
        assert flatten(message, use) == expected
    assert flatten(message, linesep="\r\n") == message.as_bytes(policy=policy.SMTP)


def test_kept_headers_give_the_bytes_of_the_default_policy(monkeypatch):
    monkeypatch.setattr("mail.compose.make_msgid", lambda domain=None: "<cid1@example.org>")
    first, again = _notification(), _notification()  # the second one from kept headers
    monkeypatch.setattr(compose_module, "POLICY", policy.default)
    plain = _notification()
    assert plain.policy is policy.default and isinstance(first.policy, compose_module._KeptHeaders)
    assert _written(first, policy.SMTP) == _written(plain, policy.SMTP) == _written(again, policy.SMTP)
