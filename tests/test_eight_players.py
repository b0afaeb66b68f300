"""Games of up to eight players: each player has a colour of their own in
the board pictures (named in a legend), records carry results and Out tags
for players 5 to 8, and the new-game page and API take eight players for a
game that allows eight and refuse nine clearly.  Played with Tally, a tiny
test-only game for 2 to 8 players (``tests/tally_game.py``)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image
from tally_game import KIND, register_tally
from test_api_games import api  # noqa: F401 - the API fixture, shared
from test_email_commands import robot  # noqa: F401 - the mail robot fixture, shared
from test_web_pages import csrf, sign_in

from engine.base import MAX_PLAYERS
from engine.errors import RecordError
from notation import record as records
from notation import registry
from notation.base import PLAYER_COLOURS
from notation.drawing import render as diagrams

SVG = "{http://www.w3.org/2000/svg}"
EIGHT = [f"p{i}@example.org" for i in range(1, 9)]


@pytest.fixture
def tally(monkeypatch):
    return register_tally(monkeypatch)


def _everyone_to_move_once():
    return KIND.rules.initial_state(8, {})


def test_eight_players_have_eight_distinct_named_colours_in_svg_png_and_text():
    diagram = KIND.notation.diagram(_everyone_to_move_once())
    root = ET.fromstring(diagrams.render_svg(diagram))
    piece_fills = [p.get("fill") for p in root.iter(f"{SVG}polygon")]
    assert len(piece_fills) == 8 and len(set(piece_fills)) == 8
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for number, name in ((1, "red"), (5, "purple"), (7, "sky"), (8, "black")):
        assert f"{number} {name}" in texts
    image = Image.open(io.BytesIO(diagrams.render_png(diagram))).convert("RGB")
    assert image.size == (int(root.get("width")), int(root.get("height")))
    seen = {colour for _, colour in image.getcolors(maxcolors=100000)}
    for player in range(8):
        css = diagrams.colour(player)
        assert tuple(int(css[i:i + 2], 16) for i in (1, 3, 5)) in seen, f"player {player + 1}'s {css} is drawn"
    text = KIND.notation.text_diagram(_everyone_to_move_once())
    assert "5 purple (P)" in text and "8 black (K)" in text
    assert len({c.css for c in PLAYER_COLOURS}) == len({c.name for c in PLAYER_COLOURS}) == MAX_PLAYERS == 8


def test_no_hosted_game_allows_more_players_than_the_pages_and_diagrams_cope_with():
    for name in registry.names():
        assert registry.get(name).rules.max_players <= MAX_PLAYERS


def _record(turns, result, **tags):
    return records.Record("tally", [f"P{i}" for i in range(1, 9)], list(turns), result=result, tags=tags)


def test_a_record_won_by_players_1_5_and_8_round_trips(tally):
    turns = ["mark", "pass", "pass", "pass", "mark", "pass", "pass", "mark"]
    record = _record(turns, "1=5=8")
    records.check(record)
    text = records.write_text(record)
    assert "1=5=8" in text.splitlines()[-1] and '[Result "1=5=8"]' in text
    again = records.read_text(text)
    assert again.result == "1=5=8" and again.turns == turns
    records.check(again)
    assert records.read_json(records.write_json(record)).result == "1=5=8"
    with pytest.raises(RecordError, match="1=5"):
        records.check(_record(turns, "1=5"))


def test_out_tags_for_players_5_to_8_round_trip(tally):
    turns = ["mark", "pass", "mark", "pass", "--", "--", "--", "--"]
    record = _record(turns, "1=3", Out="5@4 6@4 7@4 8@4")
    records.check(record)
    again = records.read_text(records.write_text(record))
    assert again.tags["Out"] == "5@4 6@4 7@4 8@4"
    assert records.outs(again) == {4: 4, 5: 4, 6: 4, 7: 4}
    records.check(again)


@pytest.mark.parametrize("result", ["9", "1=9", "3=3"])
def test_a_result_naming_a_player_the_record_lacks_is_refused_clearly(tally, result):
    text = records.write_text(_record([], "*")).replace('"*"', f'"{result}"').rstrip("\n").rsplit("\n", 1)[0]
    with pytest.raises(RecordError, match="player"):
        records.read_text(text + f"\n{result}\n")


def test_the_api_starts_a_game_of_eight_and_refuses_nine(tally, api):
    refused = api("alice", "POST", "/api/v1/games", {"game": "tally", "players": ["alice@example.org", *EIGHT]})
    assert refused.status_code == 400
    assert "2 to 8 players, not 9" in refused.get_json()["error"]
    assert api("alice", "GET", "/api/v1/games").get_json() == []
    made = api("alice", "POST", "/api/v1/games", {"game": "tally", "players": ["alice@example.org", *EIGHT[1:]]})
    assert made.status_code == 201, made.get_json()
    assert len(made.get_json()["players"]) == 8
    kinds = {k["name"]: k for k in api("alice", "GET", "/api/v1/kinds").get_json()}
    assert kinds["tally"]["max_players"] == 8


def test_the_new_game_page_takes_eight_players_and_refuses_nine(tally, app, client):
    sign_in(client, app, "alice@example.org")
    page = client.get("/games/new")
    html = page.get_data(as_text=True)
    assert "Tally (2–8 players)" in html
    form = {"kind": "tally", "hours": "", "csrf_token": csrf(page)}
    refused = client.post("/games/new", data={**form, "players": "\n".join(["alice@example.org", *EIGHT])})
    assert refused.status_code == 400
    assert "2 to 8 players, not 9" in refused.get_data(as_text=True)
    made = client.post("/games/new", data={**form, "players": "\n".join(["alice@example.org", *EIGHT[1:]])})
    assert made.status_code == 302, made.get_data(as_text=True)
    game = client.get(made.headers["Location"]).get_data(as_text=True)
    for address in EIGHT[1:]:
        assert re.search(re.escape(address.split("@")[0]), game)


def test_a_game_of_eight_is_started_by_mail_and_nine_are_refused_clearly(tally, robot):
    from sqlmodel import Session, select
    from test_email_commands import ROBOT, fresh_mail, plain_text

    from pbem.db import get_session
    from pbem.models import Game
    from pbem.services.accounts import player_for_email

    with robot.app.app_context():
        player_for_email(get_session(), "alice@example.org")
        get_session().commit()
    nine = robot.send(fresh_mail("alice@example.org", ROBOT, "new tally with " + ", ".join(EIGHT)))
    [refused] = robot.to("alice@example.org", nine)
    assert "2 to 8 players, not 9" in plain_text(refused)
    with Session(robot.app.extensions["pbem_engine"]) as session:
        assert session.exec(select(Game)).all() == []
    eight = robot.send(fresh_mail("alice@example.org", ROBOT, "new tally with " + ", ".join(EIGHT[1:])))
    assert "invited" in plain_text(robot.to("alice@example.org", eight)[0])
    for address in EIGHT[1:]:
        assert any("invites you" in str(m["Subject"]) for m in robot.to(address, eight)), address


NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def test_a_game_of_eight_is_played_and_its_page_board_and_record_show_all_eight(tally, app, client):
    from pbem.db import get_session
    from pbem.services import games
    from pbem.services.accounts import player_for_email
    from pbem.services.turns import submit_turn

    with app.app_context():
        session = get_session()
        players = [player_for_email(session, f"{name}@example.org") for name in NAMES]
        for player, name in zip(players, NAMES):
            player.name = name.capitalize()
        session.commit()
        game = games.create_game(session, players[0], "tally", [p.email for p in players])
        for player in players[1:]:
            games.accept(session, game.id, player)
        for ply, player in enumerate(players):
            submit_turn(session, game.id, player, "mark" if ply in (0, 4, 7) else "pass", ply, "web")
        session.refresh(game)
        assert (game.status, game.result) == ("finished", "1=5=8")
        game_id = game.id
    sign_in(client, app, "alice@example.org")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert re.search(r'id="game-result">1=5=8<', page)
    for name in NAMES:
        assert name.capitalize() in page
    board = client.get(f"/games/{game_id}/board/4.svg")
    assert board.status_code == 200
    legend = [t.text for t in ET.fromstring(board.get_data(as_text=True)).iter(f"{SVG}text")]
    assert "8 black" in legend
    record = client.get(f"/games/{game_id}/record.pgn").get_data(as_text=True)
    assert '[Result "1=5=8"]' in record and '[Player8 "Heidi"]' in record
    records.check(records.read_text(record))
