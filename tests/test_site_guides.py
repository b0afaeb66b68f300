"""Learning a game where it is played: a guide page per game (what it is,
the notation with examples, a sample game drawn by the server's diagrams,
the rules as this server applies them with our rulings), made from the
game's plug-in and document alone, so a new game gets one for free; linked
from the home page (each game with its picture and sentence), the game
page, the new-game page, every game mail and the mail ``help``; and a
legend under the board."""

from __future__ import annotations

import re
from html import unescape

import pytest
from tally_game import register_tally
from test_email_commands import client_reply, duel, plain_text, robot  # noqa: F401  (fixtures)
from test_web_pages import create_game, post, sign_in, two  # noqa: F401  (fixture)

from notation import registry
from pbem.services import guides


def _text(response) -> str:
    return unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("name", registry.names())
def test_every_game_has_a_guide_page_made_from_its_plug_in_and_document(client, name):
    kind = registry.get(name)
    answer = client.get(f"/rules/{name}")  # public: no sign-in needed
    assert answer.status_code == 200
    page = _text(answer)
    title = kind.rules.title or kind.name
    assert f"<h1>How to play {title}</h1>" in page
    assert kind.summary and kind.summary in page
    for example in kind.notation.turn_examples:
        assert f"<code>{example}</code>" in page
    sample = re.search(r'id="sample-boards">(.*?)</div>', page, re.S).group(1)
    assert sample.count("<svg") >= 2  # the start and at least one turn, drawn by the server
    assert "The start" in sample and re.search(r"After <code>[^<]+</code>", sample)
    document = guides.document(name)
    assert document is not None, f"the game {name} has no guide (guide.md in its package)"
    # the document's first sentence is on the page, as text
    opening = next(line for line in document.read_text().splitlines() if line[:1].isalpha())
    words = " ".join(re.sub(r"[`*_]", "", opening).split()[:5])
    rules = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(r'id="rules-text">(.*)', page, re.S).group(1)))
    assert words in rules


def test_a_game_registered_without_a_document_still_gets_its_page(client, monkeypatch):
    register_tally(monkeypatch)
    guides.sample.cache_clear()
    page = _text(client.get("/rules/tally"))
    assert "<h1>How to play Tally</h1>" in page
    assert page.count("<svg") >= 2 and "<code>mark</code>" in page
    assert 'id="rules-text"' not in page  # no document: no rules section, and no error


def test_an_unknown_game_is_a_clear_404(client):
    answer = client.get("/rules/chess")
    assert answer.status_code == 404 and "there is no game called 'chess'" in _text(answer)
    assert client.get("/rules/chess/picture.svg").status_code == 404


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_home_page_shows_each_game_with_its_picture_and_sentence(app, client, signed_in):
    if signed_in:
        sign_in(client, app, "alice@example.org")
    page = _text(client.get("/"))
    for name in registry.names():
        kind = registry.get(name)
        card = re.search(rf'<li id="kind-{name}">(.*?)</li>', page, re.S).group(1)
        assert f'src="/rules/{name}/picture.svg"' in card and kind.summary in card
        assert f'href="/rules/{name}"' in card
        picture = client.get(f"/rules/{name}/picture.svg")
        assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
        assert picture.get_data(as_text=True).lstrip().startswith("<svg")


def test_the_game_page_and_the_new_game_page_link_the_guide(two):
    alice, bob = two
    new_page = _text(alice.get("/games/new"))
    for name in registry.names():
        assert f'href="/rules/{name}"' in new_page
    game_id = create_game(alice)
    post(bob, f"/games/{game_id}/accept")
    page = _text(alice.get(f"/games/{game_id}"))
    assert re.search(r'<a id="guide-link" href="/rules/logger">How to play Logger</a>', page)


def test_a_legend_is_under_the_board(two):
    alice, bob = two
    game_id = create_game(alice)
    post(bob, f"/games/{game_id}/accept")
    page = _text(alice.get(f"/games/{game_id}"))
    after_board = page.split('id="board"', 1)[1]
    legend = re.search(r'<div class="legend" id="legend">(.*?)</div>', after_board, re.S).group(1)
    assert "player 1 (red): alice (you)" in legend and "player 2 (blue): bob" in legend
    assert "s seedling" in legend  # what the board's letters mean, from the game's diagram


def test_every_game_mail_links_the_guide(app, two):
    from sqlmodel import select

    from pbem.db import get_session
    from pbem.models import OutboxMessage

    alice, bob = two
    game_id = create_game(alice)
    post(bob, f"/games/{game_id}/accept")
    with app.app_context():
        rows = get_session().exec(select(OutboxMessage).where(OutboxMessage.game_id == game_id)).all()
    assert rows
    for row in rows:
        assert "How to play Logger: http://pbem.test/rules/logger" in (row.body or "") + (row.after_board or "")


def test_the_mail_help_links_the_guide(duel):
    robot, _ids, mail = duel
    [helped] = robot.send(client_reply(mail, "help"))
    assert re.search(r"How to play Logger .*: http://\S+/rules/logger", plain_text(helped).replace("\n", " "))


def test_a_turn_refused_by_mail_names_no_raw_position_string(duel):
    from test_email_commands import game_row

    robot, (game_id, _, _), mail = duel
    position = game_row(robot.app, game_id).position
    [answer] = robot.send(client_reply(mail, "c3"))
    body = plain_text(answer)
    assert "Why:" in body and "corner" in body
    assert position not in body and "(position" not in body
    [board] = robot.send(client_reply(mail, "board"))  # where a player asks for the board, it is there
    assert "your turn" in plain_text(board)


@pytest.mark.parametrize("name", registry.names())
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_guide_shows_the_game_before_its_notation_under_one_title(client, name, language):
    """The sample game (pictures) and the rules come first, the notation
    after them; the rules document's own headings sit under the page's
    (one h1), and its anchors never repeat the page's."""
    html = client.get(f"/rules/{name}", headers={"Accept-Language": language}).get_data(as_text=True)
    sections = re.findall(r'<h2 id="([a-z]+)"', html)
    assert sections.index("sample") < sections.index("notation")
    assert "rules" not in sections or sections.index("rules") < sections.index("notation")
    assert len(re.findall(r"<h1\b", html)) == 1
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
