"""Reply tokens, the command language, loop guards, composing, and robustness of
the parsing layer against arbitrary bytes (hypothesis)."""
from __future__ import annotations

from email import message_from_bytes, policy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mail.body import html_to_text, reply_text
from mail.commands import (
    BOARD,
    DRAW,
    GAMES,
    HELP,
    INVALID,
    LEGAL,
    NEW,
    PREVIEW,
    RECORD,
    RESIGN,
    TURN,
    VACATION,
    parse_command,
)
from mail.compose import (
    INTERNAL_ERROR,
    answer_thread,
    compose_error_reply,
    compose_notification,
    compose_reply,
    game_root_id,
    game_thread,
    reply_subject,
)
from mail.errors import MailError, ParseError
from mail.inbound import load, parse_message, should_not_reply
from mail.keys import message_key
from mail.tokens import make_reply_address, make_token, read_reply_address, read_token

SECRET = "test-secret"

# --- tokens --------------------------------------------------------------------------------


def test_reply_address_round_trip_survives_case_and_display_names():
    address = make_reply_address(SECRET, "pbem.test", 12, 345)
    local = address.split("@")[0]
    assert local.startswith("play+") and len(local) <= 64
    assert read_reply_address(SECRET, address) == (12, 345)
    assert read_reply_address(SECRET, address.upper()) == (12, 345)
    assert read_reply_address(SECRET, f'"Game 12" <{address}>') == (12, 345)
    assert read_reply_address(SECRET, address, domain="PBEM.test") == (12, 345)
    assert read_reply_address(SECRET, address, domain="other.test") is None


def test_tokens_are_short_and_lower_case():
    token = make_token(SECRET, 123456, 789)
    assert token == token.lower() and len(token) <= 32
    assert set(token) <= set("abcdefghijklmnopqrstuvwxyz234567")


@pytest.mark.parametrize("bad", ["", "play@pbem.test", "play+@pbem.test", "other+abc@pbem.test",
                                 "play+!!!@pbem.test", "play+aaaaaaaa@pbem.test", "no-at-sign", "play+" + "a" * 200])
def test_bad_reply_addresses_are_refused(bad):
    assert read_reply_address(SECRET, bad) is None


def test_a_token_made_with_another_secret_or_tampered_is_refused():
    token = make_token(SECRET, 7, 2)
    assert read_token("other", token) is None
    flipped = token[:3] + ("a" if token[3] != "a" else "b") + token[4:]
    assert read_token(SECRET, flipped) is None
    assert read_token(SECRET, make_token(SECRET, 7, 3)) == (7, 3)


def test_secret_rotation():
    old = make_token("old", 1, 2)
    assert read_token(["new", "old"], old) == (1, 2)
    assert read_token(["new", "old"], make_token(["new", "old"], 1, 2)) == (1, 2)
    assert read_token("old", make_token(["new", "old"], 1, 2)) is None


@given(st.integers(0, 2**63 - 1), st.integers(0, 2**63 - 1))
def test_any_ids_round_trip(game, player):
    assert read_token(SECRET, make_token(SECRET, game, player)) == (game, player)


def test_token_ids_must_be_non_negative_ints():
    with pytest.raises(ValueError):
        make_token(SECRET, -1, 2)
    with pytest.raises(ValueError):
        make_token(SECRET, "7", 2)  # type: ignore[arg-type]  # a wrong type on purpose


@given(st.text(max_size=120))
def test_read_reply_address_never_raises(text):
    read_reply_address(SECRET, text)


# --- commands ------------------------------------------------------------------------------


@pytest.mark.parametrize("line,kind,argument,ply", [
    ("b2-c2 G P:d3", TURN, "b2-c2 G P:d3", None),
    ("  b2-c2   G  P:d3 ", TURN, "b2-c2 G P:d3", None),
    ("#12 b2-c2 G P:d3", TURN, "b2-c2 G P:d3", 12),
    ("# 12: b2-c2", TURN, "b2-c2", 12),
    ("12: b2-c2", TURN, "b2-c2", 12),
    ("#3 x #7 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B", TURN, "#3 x #7 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B", None),
    ("#12 #3 x #7 -> 1P / 2B", TURN, "#3 x #7 -> 1P / 2B", 12),
    ("12: #3 x #7 -> 1P / 2B", TURN, "#3 x #7 -> 1P / 2B", 12),
    ("preview b2-c2 G", PREVIEW, "b2-c2 G", None),
    ("PREVIEW #4 a1", PREVIEW, "a1", 4),
    ("Legal", LEGAL, "", None),
    ("board", BOARD, "", None),
    ("STATUS", BOARD, "", None),
    ("record", RECORD, "", None),
    ("Resign.", RESIGN, "", None),
    ("draw", DRAW, "", None),
    ("help!", HELP, "", None),
    ("games", GAMES, "", None),
])
def test_commands_in_a_game(line, kind, argument, ply):
    command = parse_command(line)
    assert (command.kind, command.argument, command.ply) == (kind, argument, ply)


def test_vacation():
    assert parse_command("Vacation 7").days == 7
    assert parse_command("vacation 0").kind == VACATION
    assert parse_command("vacation").kind == INVALID
    assert parse_command("vacation 9999").kind == INVALID


@pytest.mark.parametrize("line,error", [
    ("#12", "no turn"), ("preview", "preview <turn>"), ("x" * 600, "longer than"), ("", "empty"),
])
def test_invalid_lines_say_why(line, error):
    command = parse_command(line)
    assert command.kind == INVALID and error in command.error


def test_plain_address_commands():
    new = parse_command("New Logger with <Bob@Example.org>, carol@example.org and dave@example.net.", in_game=False)
    assert new.kind == NEW and new.argument == "logger"
    assert new.addresses == ("bob@example.org", "carol@example.org", "dave@example.net")
    assert parse_command("help", in_game=False).kind == HELP
    assert parse_command("games", in_game=False).kind == GAMES
    solitaire = parse_command("new Greenhouse", in_game=False)  # a game of one player: nobody to invite
    assert solitaire.kind == NEW and solitaire.argument == "greenhouse" and solitaire.addresses == ()
    for line, error in [("b2-c2", "unknown command"), ("legal", "needs a game"), ("new", "new <game>"),
                        ("new logger bob@example.org", "new <game> with"),
                        ("new logger with bob", "not an email address"), ("vacation 3", "needs a game")]:
        command = parse_command(line, in_game=False)
        assert command.kind == INVALID and error in command.error, line


@given(st.text(max_size=300), st.booleans())
def test_parse_command_never_raises(line, in_game):
    command = parse_command(line, in_game=in_game)
    assert command.kind in {TURN, PREVIEW, LEGAL, BOARD, RECORD, RESIGN, DRAW, HELP, VACATION, GAMES, NEW, INVALID}


# --- loop guards ---------------------------------------------------------------------------


def headers(extra: str, sender: str = "Bob <bob@example.org>") -> bytes:
    return f"From: {sender}\r\nTo: play+x@pbem.test\r\nSubject: hi\r\n{extra}\r\nb2-c2\r\n".encode()


@pytest.mark.parametrize("extra,sender,reason", [
    ("Auto-Submitted: auto-replied\r\n", None, "auto-submitted"),
    ("Auto-Submitted: Auto-Generated; owner-email=x@y\r\n", None, "auto-submitted"),
    ("Precedence: junk\r\n", None, "precedence"),
    ("Precedence: list\r\n", None, "precedence"),
    ("List-Post: <mailto:l@x>\r\n", None, "mailing list"),
    ("Return-Path: <>\r\n", None, "bounce"),
    ("X-Loop: PBEM@pbem.test\r\n", None, "X-Loop"),
    ("X-Autoreply: yes\r\n", None, "auto-reply"),
    ("", "MAILER-DAEMON@mx.example.org", "robot sender"),
    ("", "postmaster@example.org", "robot sender"),
    ("", "pbem <robot@pbem.test>", "server's own address"),
    ("", "undisclosed", "no sender"),
    ("Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n", None, "bounce"),
])
def test_should_not_reply(extra, sender, reason):
    msg = load(headers(extra, sender or "Bob <bob@example.org>"))
    found = should_not_reply(msg, loop_id="pbem@pbem.test", our_addresses=["robot@pbem.test"])
    assert found is not None and reason.lower() in found.lower()


def test_ordinary_mail_may_be_answered():
    msg = load(headers("Auto-Submitted: no\r\nReturn-Path: <bob@example.org>\r\nX-Loop: other@list\r\n"))
    assert should_not_reply(msg, loop_id="pbem@pbem.test", our_addresses=["robot@pbem.test"]) is None
    assert should_not_reply(msg, envelope_from="bob@example.org") is None
    assert "bounce" in should_not_reply(msg, envelope_from="")


# --- body extraction -----------------------------------------------------------------------


def test_reply_text_keeps_only_the_new_reply():
    assert reply_text("a1\n\nOn Tue, Bob wrote:\n> old\n") == "a1"
    assert reply_text("> old\n> older\n\nnew line\n") == "new line"
    assert reply_text("board\n-- \nsig\n") == "board"
    assert reply_text("") == ""


def test_html_to_text_drops_quotes_and_survives_garbage():
    assert html_to_text("<p>legal</p><blockquote>resign</blockquote>").split() == ["legal"]
    assert html_to_text("") == ""
    for garbage in ["<", "<?xml version='1.0'?>", "\x00\x01", "<html><body></body></html>", "&#xD800;"]:
        assert isinstance(html_to_text(garbage), str)


# --- composing -----------------------------------------------------------------------------


def test_notification_threading_and_headers():
    first = compose_notification(from_addr="robot@pbem.test", to_addr="bob@example.org", subject="Game 7 begins",
                                 text="Welcome", domain="pbem.test", loop_id="pbem@pbem.test",
                                 message_id=game_root_id(7, "pbem.test"), thread=game_thread(7, "pbem.test"))
    assert first["Message-ID"] == "<game-7@pbem.test>" and first["In-Reply-To"] is None
    later = compose_notification(from_addr="robot@pbem.test", to_addr="bob@example.org", subject="Game 7",
                                 text="Your turn", diagram="a b\n. .", domain="pbem.test",
                                 loop_id="pbem@pbem.test", thread=game_thread(7, "pbem.test"),
                                 reply_to=make_reply_address(SECRET, "pbem.test", 7, 2))
    assert later["In-Reply-To"] == "<game-7@pbem.test>" and later["References"] == "<game-7@pbem.test>"
    assert later["Auto-Submitted"] == "auto-generated" and later["X-Loop"] == "pbem@pbem.test"
    assert read_reply_address(SECRET, later["Reply-To"]) == (7, 2)
    html = later.get_body(("html",)).get_content()
    assert "<pre>a b\n. .</pre>" in html  # no PNG: the text diagram in HTML
    # Our own notification, bounced back to us, is recognised.
    parsed = parse_message(later.as_bytes(), loop_id="pbem@pbem.test", our_addresses=["robot@pbem.test"])
    assert parsed.ignore_reason


def test_reply_threads_under_the_players_mail():
    thread = answer_thread("<m1@client>", ["<game-7@pbem.test>"], root_id="<game-7@pbem.test>")
    reply = compose_reply(from_addr="robot@pbem.test", to_addr="bob@example.org", subject="Re: Game 7",
                          text="Done.", domain="pbem.test", loop_id="pbem@pbem.test", thread=thread)
    assert reply["Subject"] == "Re: Game 7" and reply["Auto-Submitted"] == "auto-replied"
    assert reply["In-Reply-To"] == "<m1@client>"
    assert reply["References"] == "<game-7@pbem.test> <m1@client>"
    assert reply_subject("Game 7") == "Re: Game 7" and reply_subject("AW: x") == "AW: x"


def test_error_reply_quotes_the_line_says_why_and_lists_legal_turns():
    legal = [f"a{n}" for n in range(100)]
    msg = compose_error_reply(from_addr="robot@pbem.test", to_addr="bob@example.org", subject="Game 7",
                              line="b2-c9 G", reason="c9 is off the board", legal=legal, domain="pbem.test",
                              loop_id="pbem@pbem.test", thread=answer_thread("<m@x>"))
    text = msg.get_body(("plain",)).get_content()
    assert "> b2-c9 G" in text and "Why: c9 is off the board" in text
    assert "  a0\n" in text and "60 more" in text
    assert msg["Auto-Submitted"] == "auto-replied"
    html = msg.get_body(("html",)).get_content()
    assert "&gt; b2-c9 G" in html


@pytest.mark.parametrize("reason", [
    ValueError("secret internals"),
    'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\nKeyError: 1',
    "",
    None,
])
def test_error_reply_never_carries_a_traceback(reason):
    msg = compose_error_reply(from_addr="robot@pbem.test", to_addr="bob@example.org", subject="x", line="a1",
                              reason=reason, domain="pbem.test", loop_id="pbem@pbem.test")
    text = msg.get_body(("plain",)).get_content()
    assert INTERNAL_ERROR in text and "Traceback" not in text and "secret internals" not in text


def test_composed_html_is_escaped():
    msg = compose_notification(from_addr="robot@pbem.test", to_addr="bob@example.org", subject="x",
                               text="<script>alert(1)</script>", domain="pbem.test", loop_id="l")
    assert "<script>" not in msg.get_body(("html",)).get_content()


# --- robustness ----------------------------------------------------------------------------


EMAILISH = st.lists(st.sampled_from([
    b"From: ", b"To: ", b"Subject: ", b"Content-Type: ", b"multipart/mixed; boundary=\"b\"", b"text/html",
    b"Content-Transfer-Encoding: ", b"base64", b"quoted-printable", b"charset=", b"x-bogus", b"utf-7",
    b"\r\n", b"\n", b"--b\r\n", b"--b--", b"=?utf-8?b?", b"?=", b"<", b">", b"@", b"play+abc@pbem.test",
    b"=E2=80", b"\xff\xfe", b"\x00", b"Message-ID: ", b"<blockquote>", b"On Mon, x wrote:", b"> ", b"-- ",
    b"Content-Disposition: attachment; filename=t.txt", b"Auto-Submitted: ", b"\r\n\r\n",
]), max_size=60).map(b"".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=2000), EMAILISH))
def test_parse_message_reads_any_bytes(raw):
    # The contract is "a result or MailError"; in fact any bytes give a result.
    try:
        parsed = parse_message(raw, envelope_to=["play+abc@pbem.test"])
    except MailError as exc:  # pragma: no cover - would be a finding worth a fixture
        pytest.fail(f"ParseError on bytes: {exc}")
    assert isinstance(parsed.lines, list) and all(isinstance(line, str) for line in parsed.lines)
    assert parsed.key == message_key(raw)


def test_parse_message_refuses_non_bytes_with_its_own_error():
    with pytest.raises(ParseError):
        parse_message("not bytes")  # type: ignore[arg-type]  # a wrong type on purpose


def test_message_parsed_by_stdlib_matches():
    raw = headers("Message-ID: <x@y>\r\n")
    assert message_from_bytes(raw, policy=policy.default)["Message-ID"] == parse_message(raw).message_id


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=2000))
def test_body_functions_take_any_text(text):
    assert isinstance(reply_text(text), str)
    assert isinstance(html_to_text(text), str)


def test_absurdly_deep_mime_nesting_is_our_own_error():
    raw = b"From: a@b.c\r\nTo: play+x@y.z\r\n"
    for n in range(3000):
        raw += b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (n, n)
    raw += b"Content-Type: text/plain\r\n\r\nlegal\r\n"
    with pytest.raises(ParseError):
        parse_message(raw)
