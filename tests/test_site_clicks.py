"""Play by clicking, on the server's side: the game page gives the player
to move (and nobody else) the board's clickable regions and every legal
turn with its clicks; the step-by-step endpoint answers what may be clicked
next; the preview board outlines what a turn changes; and without
JavaScript the turn form is there and plays as before."""

from __future__ import annotations

import json
import re
from html import unescape

from test_site_history import _play, _started, browsers  # noqa: F401  (fixture)


def _clicking(page: str) -> dict | None:
    """The data the page gives the click script, or None when it gives none."""
    found = re.search(r"data-board='([^']*)'\s+data-turns='([^']*)'", page)
    if found is None:
        return None
    return {"board": json.loads(unescape(found.group(1))), "turns": json.loads(unescape(found.group(2)))}


def test_only_the_player_to_move_gets_the_turns_to_click(app, browsers):
    game_id = _started(app, "logger", "alice", "bob")
    alice = browsers["alice"].get(f"/games/{game_id}").get_data(as_text=True)
    bob = browsers["bob"].get(f"/games/{game_id}").get_data(as_text=True)
    data = _clicking(alice)
    assert data is not None and _clicking(bob) is None
    assert sorted(text for text, _ in data["turns"]) == ["a1", "a5", "e1", "e5"]  # the corners of the setup round
    assert all(clicks == [text] for text, clicks in data["turns"])
    assert set(data["board"]["regions"]) == {f"{f}{r}" for f in "abcde" for r in "12345"}
    assert browsers["carol"].get(f"/games/{game_id}").status_code in (403, 404)


def test_the_waiting_player_and_outsiders_get_no_clicks(app, browsers):
    game_id = _started(app, "logger", "alice", "bob")
    _play(app, game_id, "alice", "a1")
    refused = browsers["alice"].get(f"/api/v1/games/{game_id}/clicks")  # bob is to move
    assert refused.status_code == 400 and "not your turn" in refused.get_json()["error"]
    assert browsers["carol"].get(f"/api/v1/games/{game_id}/clicks").status_code in (403, 404)
    assert browsers["bob"].get(f"/api/v1/games/{game_id}/clicks").get_json()["next"] == ["e1", "a5", "e5"]  # the free corners


def test_clicking_square_after_square_narrows_to_one_turn(app, browsers):
    game_id = _started(app, "logger", "alice", "bob")
    _play(app, game_id, "alice", "a1")
    _play(app, game_id, "bob", "e5")
    alice = browsers["alice"]
    first = alice.get(f"/api/v1/games/{game_id}/clicks").get_json()
    assert "a1" in first["next"] and first["complete"] == []
    after = alice.get(f"/api/v1/games/{game_id}/clicks?click=a1&click=a3").get_json()
    assert after["text"].startswith("a1-a3") and after["next"]
    words = [c for c in after["next"] if not re.fullmatch(r"[a-e][1-5]", c)]
    assert "G P:" in words  # no spawns, then plant: a button, then the square
    done = alice.get(f"/api/v1/games/{game_id}/clicks?click=a1&click=a3&click=G P:&click=b3").get_json()
    assert done["complete"] == ["a1-a3 G P:b3"] and done["text"] == "a1-a3 G P:b3"
    nowhere = alice.get(f"/api/v1/games/{game_id}/clicks?click=c3").get_json()
    assert nowhere["next"] == [] and nowhere["complete"] == []


def test_the_preview_board_outlines_the_squares_the_turn_changes(app, browsers):
    game_id = _started(app, "logger", "alice", "bob")
    _play(app, game_id, "alice", "a1")
    _play(app, game_id, "bob", "e5")
    board = browsers["alice"].get(f"/games/{game_id}/preview.svg?turn=a1-a3 G P:b3")
    assert board.status_code == 200 and board.mimetype == "image/svg+xml"
    marks = re.findall(r'<rect class="changed" x="([\d.]+)" y="([\d.]+)"', board.get_data(as_text=True))
    squares = {"abcde"[round((float(x) - 1.5 - 26) / 56)] + str(5 - round((float(y) - 1.5 - 8) / 56))
               for x, y in marks}
    assert {"a1", "a3", "b3"} <= squares  # the logger left a1 for a3 and planted on b3
    assert not squares & {"c5", "d4", "e1"}  # nothing happened there
    refused = browsers["alice"].get(f"/games/{game_id}/preview.svg?turn=c3")
    assert refused.status_code in (400, 422) and "c3" in refused.get_data(as_text=True)


def test_a_game_with_very_many_turns_is_clicked_step_by_step(app, browsers):
    game_id = _started(app, "greenhouse", "alice")
    page = browsers["alice"].get(f"/games/{game_id}").get_data(as_text=True)
    data = _clicking(page)
    assert data is not None and data["turns"] is None  # too many to send: the page asks step by step
    assert any(r.startswith("#") for r in data["board"]["regions"])  # the flowers' stacks are clickable
    first = browsers["alice"].get(f"/api/v1/games/{game_id}/clicks").get_json()
    assert "give up" in first["next"] and first["next"][0] == "#1"
    pair = browsers["alice"].get(f"/api/v1/games/{game_id}/clicks?click=%231&click=%232").get_json()
    assert pair["text"] == "#1 x #2 ->" and 1 <= len(pair["next"]) <= 12


def test_without_javascript_the_turn_form_still_plays(app, browsers):
    game_id = _started(app, "ataxx", "alice", "bob")
    page = browsers["alice"].get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="click-play" hidden' in page  # shown only by the script
    assert re.search(r'<form method="post" action="/games/\d+/turn" id="turn-form">', page)
