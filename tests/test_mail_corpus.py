"""The awkward-mail corpus: every message in tests/fixtures/mail/*.eml parsed and
judged the way the robot will, against its expected outcome in expected.json.

Outcomes: ``player N`` (a genuine reply from player N of game 7: the token is
good and the From address is that player's), ``forged`` (a good token, someone
else's address), ``plain`` (mail to the plain address), ``ignore`` (must not be
answered: ``ignore`` names a substring of the reason).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mail.commands import INVALID, TURN, parse_commands
from mail.inbound import parse_message
from mail.tokens import read_token

FIXTURES = Path(__file__).parent / "fixtures" / "mail"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
SECRET = "fixture-secret"
PLAYERS = {(7, 1): "alice@example.org", (7, 2): "bob@example.org"}
OURS = ["robot@pbem.test"]
LOOP = "pbem@pbem.test"
DOMAIN = "pbem.test"  # of the reply addresses: mail from any of them is ignored


def judge(raw: bytes):
    parsed = parse_message(raw, loop_id=LOOP, our_addresses=OURS, our_domain=DOMAIN)
    if parsed.ignore_reason:
        return "ignore", parsed
    if parsed.token is None:
        return "plain", parsed
    seat = read_token(SECRET, parsed.token)
    if seat is None:
        return "bad token", parsed
    if PLAYERS.get(seat) != parsed.sender:
        return "forged", parsed
    return f"player {seat[1]}", parsed


def test_the_corpus_is_big_enough_and_complete():
    files = sorted(p.name for p in FIXTURES.glob("*.eml"))
    assert len(files) >= 30
    assert files == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture(name):
    expected = EXPECTED[name]
    outcome, parsed = judge((FIXTURES / name).read_bytes())
    assert outcome == expected["outcome"], parsed.ignore_reason
    if outcome == "ignore":
        assert expected["ignore"].lower() in parsed.ignore_reason.lower()
        return
    assert parsed.lines == expected["lines"]
    assert parsed.attachment_lines == expected.get("attachment_lines", [])
    if expected.get("key") == "sha256":
        assert parsed.message_id is None and parsed.key.startswith("sha256:")
    else:
        assert parsed.key == parsed.message_id and parsed.message_id.startswith("<fixture-")
    # Replies carry the notification they answer, for threading.
    assert parsed.in_reply_to == "<notif-1@pbem.test>"
    assert parsed.references == ["<game-7@pbem.test>", "<notif-1@pbem.test>"]
    commands = parse_commands(parsed.lines, in_game=outcome != "plain")
    if outcome == "plain":
        assert all(c.kind != INVALID for c in commands)


def test_turn_file_attachment_is_a_turn():
    _, parsed = judge((FIXTURES / "19-turn-file-attachment.eml").read_bytes())
    [command] = parse_commands(parsed.attachment_lines)
    assert command.kind == TURN and command.ply == 12 and command.argument == "b2-c2 G P:d3"


def test_encoded_headers_are_decoded():
    _, parsed = judge((FIXTURES / "15-shift-jis.eml").read_bytes())
    assert parsed.sender_name == "ツップ"  # decoded, not raw =?...?=
    assert "=?" not in parsed.subject and "ゲーム" in parsed.subject


def test_plain_new_game_command():
    _, parsed = judge((FIXTURES / "35-plain-new-game.eml").read_bytes())
    [command] = parse_commands(parsed.lines, in_game=False)
    assert command.kind == "new" and command.argument == "logger"
    assert command.addresses == ("bob@example.org", "carol@example.org")


def test_a_huge_body_is_read_and_its_command_found():
    """Speed is measured in benchmarks/mail_parse.py; here only the outcome."""
    filler = ("> " + "x" * 70 + "\r\n") * 60_000  # ~4.5 MB of quoted history
    raw = (b"From: Bob <bob@example.org>\r\nTo: play+a4bmaedirjoy5qklwprq@pbem.test\r\n"
           b"Subject: Re: Game 7\r\nMessage-ID: <huge@client.example>\r\nContent-Type: text/plain\r\n\r\n"
           b"b2-c2 G P:d3\r\n\r\nOn Mon, 1 Jan 2024, pbem wrote:\r\n" + filler.encode())
    html = (b"From: Bob <bob@example.org>\r\nTo: play+a4bmaedirjoy5qklwprq@pbem.test\r\n"
            b"Subject: Re: Game 7\r\nContent-Type: text/html\r\n\r\n<div>legal</div>" + b"<p>word</p>" * 300_000)
    outcome, parsed = judge(raw)
    _, parsed_html = judge(html)
    assert outcome == "player 2" and parsed.lines == ["b2-c2 G P:d3"]
    assert [c.kind for c in parse_commands(parsed.lines)] == [TURN]
    assert parsed_html.lines[0] == "legal" and len(parsed_html.lines) <= 20
