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


def _notification(text="Un texte\n\nen français: à vous de jouer", **extra):
    return compose_notification(
        from_addr="pbem <pbem@example.org>", to_addr="Émile <emile@example.org>",
        subject="Game 3 (Logger): your turn — à vous", text=text,
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


def _play(app, game_id: int, turns: int) -> None:
    """``turns`` turns of Hands, each player playing their first card."""
    from sqlmodel import select

    from pbem.models import Player, Seat
    from pbem.services.turns import submit_turn

    with app.app_context():
        session = get_session()
        for _ in range(turns):
            game = session.get(Game, game_id)
            session.refresh(game)
            state = state_of(game)
            mover = kind_of(game).rules.to_move(state)
            seat = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.number == mover)).one()
            player = session.get(Player, seat.player_id)
            submit_turn(session, game_id, player, f"play {state.hands[mover][0]}", game.ply, "cli")


def _rows(app, game_id: int):
    from sqlmodel import Session, select

    from pbem.mailrobot.settings import mail_settings
    from pbem.models import OutboxMessage

    session = Session(app.extensions["pbem_engine"])
    rows = list(session.exec(select(OutboxMessage).where(OutboxMessage.game_id == game_id)
                             .order_by(OutboxMessage.id)))
    return session, mail_settings(app.config), rows


def test_one_move_list_serves_every_seat_only_when_no_seat_reads_a_turn_differently(hands, monkeypatch):
    """A game whose turns every seat reads alike gets one move list per ply
    for all seats; one whose notation hides a seat's turn from the others
    (``private_turn_text``) gets each seat its own, the same as composed alone."""
    from hands_game import HandsNotation

    app, game_id, _ = hands
    _play(app, game_id, 4)
    with app.app_context():
        session, settings, rows = _rows(app, game_id)
        memo: outgoing.Memo = {}
        for row in rows:
            outgoing.compose(session, settings, row, memo)
        readers = {key[1] for key in memo if key[0] == "moves"}
        assert readers == {"every seat"}

        monkeypatch.setattr(HandsNotation, "private_turn_text",
                            lambda self, text, mover, viewer: text if viewer == mover else "play ?")
        memo = {}
        together = [outgoing.compose(session, settings, row, memo) for row in rows]
        alone = [outgoing.compose(session, settings, row) for row in rows]
        assert {key[1] for key in memo if key[0] == "moves"} >= {0, 1, 2}
        session.close()
    seen = set()
    for shared, single, row in zip(together, alone, rows):
        text = shared.get_body(("plain",)).get_content()
        assert text == single.get_body(("plain",)).get_content()
        if "Moves:" in text:
            seen.add((row.seat, text.split("Moves:")[1].split("\n")[0]))
    assert len({moves for _, moves in seen}) > 1, "seats should read the turns differently"


def test_the_turns_kept_by_a_drain_grow_with_the_game(hands):
    """``played_turns`` reads a game's turns once per drain and only the
    new ones when a row asks for a later ply: the same turns as read anew."""
    app, game_id, _ = hands
    _play(app, game_id, 2)
    with app.app_context():
        session = get_session()
        game = session.get(Game, game_id)
        memo: outgoing.Memo = {}
        assert [t[0] for t in outgoing.played_turns(session, game, 2, memo)] == [1, 2]
        assert [t[0] for t in outgoing.played_turns(session, game, 1, memo)] == [1]
    _play(app, game_id, 2)
    with app.app_context():
        session = get_session()
        game = session.get(Game, game_id)
        kept = outgoing.played_turns(session, game, 4, memo)
        assert kept == outgoing.played_turns(session, game, 4)
        assert [t[0] for t in kept] == [1, 2, 3, 4]
        assert outgoing.played_turns(session, game, 0, memo) == []


def test_fresh_messages_flattened_here_are_the_email_packages_bytes(monkeypatch):
    """Two messages built alike, one written by the email package
    (``as_bytes``) and one by ``flatten`` with ``SMTP_POLICY`` (boundaries
    chosen, kept headers folded once, the picture's base64 made at once):
    the same bytes, a text holding a boundary-like line included."""
    from mail.send import SMTP_POLICY

    monkeypatch.setattr("mail.compose.make_msgid", lambda domain=None: "<cid1@example.org>")
    for text in ("plain words", "--===============0000000000000000001==\nlooks like a boundary"):
        for _ in range(2):  # the second time from kept headers and folds
            first = compose_notification(
                from_addr="pbem <pbem@example.org>", to_addr="Émile <emile@example.org>", subject="Game 3 — à vous",
                text=text, domain="example.org", loop_id="pbem@example.org", png=bytes(range(256)) * 9,
                message_id="<m1@example.org>")
            second = compose_notification(
                from_addr="pbem <pbem@example.org>", to_addr="Émile <emile@example.org>", subject="Game 3 — à vous",
                text=text, domain="example.org", loop_id="pbem@example.org", png=bytes(range(256)) * 9,
                message_id="<m1@example.org>")
            random.seed(5)
            expected = first.as_bytes(policy=policy.SMTP)
            random.seed(5)
            assert flatten(second, SMTP_POLICY) == expected
            random.seed(5)
            assert flatten(compose_notification(
                from_addr="pbem <pbem@example.org>", to_addr="Émile <emile@example.org>", subject="Game 3 — à vous",
                text=text, domain="example.org", loop_id="pbem@example.org", png=bytes(range(256)) * 9,
                message_id="<m1@example.org>"), linesep="\r\n") == expected


def test_base64_lines_are_the_email_packages():
    from email import contentmanager

    for size in (0, 1, 2, 3, 56, 57, 58, 114, 1000, 4099):
        data = bytes(random.Random(size).randrange(256) for _ in range(size))
        for width in (78, 76, 100):
            assert compose_module.base64_lines(data, width) == contentmanager._encode_base64(data, width)
    message = _notification()
    assert _png(message) == b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


def test_a_boundary_found_in_the_text_is_changed_as_the_email_package_does():
    from email.generator import BytesGenerator, Generator

    from mail.send import _Generator

    random.seed(9)
    taken = BytesGenerator._make_boundary()
    for text in (f"a\n--{taken}\nb", f"--{taken}--\n--{taken}.0", f"x--{taken}y", "nothing"):
        for given, package in ((text, Generator), (text.encode("ascii"), BytesGenerator)):
            random.seed(9)
            expected = package._make_boundary(given)
            random.seed(9)
            assert _Generator._make_boundary(given) == expected
    random.seed(9)
    assert _Generator._make_boundary(f"--{taken}--\n--{taken}.0".encode("ascii")) == f"{taken}.1"


def test_notifications_keep_the_process_boundaries_unless_a_part_holds_one():
    """Every notification's multiparts get ``BOUNDARIES`` (their header
    parsed once); a mail whose text holds one gets boundaries drawn by the
    email package instead, and reads back whole either way."""
    from email.parser import BytesParser

    plain = _notification()
    assert [part.get_boundary() for part in plain.walk() if part.is_multipart()] == list(compose_module.BOUNDARIES)
    for boundary in compose_module.BOUNDARIES:
        # a text part goes out as it is (7bit, 8bit): the generator draws the boundaries
        for text in (f"a reply quoting\n--{boundary}\n--{boundary}--\nin its text",
                     f"une réponse citant\n--{boundary}\nen français"):
            message = compose_notification(
                from_addr="pbem <pbem@example.org>", to_addr="emile@example.org", subject="Game 3", text=text,
                domain="example.org", loop_id="pbem@example.org", png=_png(plain), message_id="<m1@example.org>")
            boundaries = {part.get_boundary() for part in message.walk() if part.is_multipart()}
            assert boundaries == {None}  # drawn when written
            read = BytesParser(policy=policy.default).parsebytes(flatten(message, linesep="\r\n"))
            assert text in read.get_body(("plain",)).get_content().replace("\r\n", "\n")
            assert _png(read) == _png(plain)
    read = BytesParser(policy=policy.default).parsebytes(flatten(plain, linesep="\r\n"))
    assert [part.get_content_type() for part in read.walk()] == [
        "multipart/alternative", "text/plain", "multipart/related", "text/html", "image/png"]
