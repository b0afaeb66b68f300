"""The invitations one address may receive are counted for its mailbox:
bob+1@example.org, bob+2@example.org... (delivered to bob's mailbox by most
mail services) share bob@example.org's limit, so varying the +detail does
not get round it, in one game or in many."""

from __future__ import annotations

from sqlmodel import Session, func, select
from test_invitation_limits import api  # noqa: F401 - a fixture

from pbem.models import Game, OutboxMessage


def invitation_mails(app) -> int:
    with Session(app.extensions["pbem_engine"]) as s:
        return s.exec(select(func.count()).select_from(OutboxMessage)
                      .where(OutboxMessage.kind == "invitation")).one()


def games(app) -> int:
    with Session(app.extensions["pbem_engine"]) as s:
        return s.exec(select(func.count()).select_from(Game)).one()


def test_sub_addresses_share_their_mailboxs_invitation_limit(app, api):
    answers = [api("alice", f"stranger+{n}@example.org") for n in range(6)]
    assert [a.status_code for a in answers[:3]] == [201] * 3
    assert {a.status_code for a in answers[3:]} == {429}
    error = answers[3].get_json()["error"]
    assert ("stranger+3@example.org (with the other +addresses of stranger@example.org) has been invited 3 times "
            "in the last 24 hours") in error
    assert api("bob", "Stranger@example.org").status_code == 429  # the mailbox itself, from someone else
    assert api("bob", "strangers@example.org").status_code == 201  # another mailbox
    assert games(app) == 4 and invitation_mails(app) == 4


def test_one_game_cannot_invite_one_mailbox_past_its_limit(app, api):
    app.config["INVITATIONS_TO_NEWCOMER_PER_DAY"] = 2
    answer = api("alice", *(f"newbie+{n}@example.org" for n in range(3)))
    assert answer.status_code == 429
    assert "this game invites 3 addresses of the mailbox newbie@example.org" in answer.get_json()["error"]
    assert games(app) == 0 and invitation_mails(app) == 0
    assert api("alice", "newbie+0@example.org", "newbie@example.org").status_code == 201
    assert api("bob", "newbie+7@example.org").status_code == 429
