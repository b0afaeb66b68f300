"""Two players inviting the same new address at the same moment (two web
workers, one PostgreSQL): both games are created and the address becomes
one player, never a 500 for the slower of the two."""

from __future__ import annotations

import threading

from sqlmodel import Session, func, select
from test_invitation_limits import api  # noqa: F401 - a fixture

from pbem.models import Game, Player


def test_two_players_inviting_one_new_address_at_once_both_get_their_game(app, api):
    for attempt in range(3):
        address = f"fresh{attempt}@example.org"
        answers: dict[str, object] = {}
        barrier = threading.Barrier(2)

        def invite(who: str) -> None:
            barrier.wait()
            answers[who] = api(who, address)

        threads = [threading.Thread(target=invite, args=(who,)) for who in ("alice", "bob")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        statuses = {who: answer.status_code for who, answer in answers.items()}
        assert statuses == {"alice": 201, "bob": 201}, {who: a.get_data(as_text=True)[:200] for who, a in answers.items()}
        with Session(app.extensions["pbem_engine"]) as s:
            assert s.exec(select(func.count()).select_from(Player).where(Player.email == address)).one() == 1
    with Session(app.extensions["pbem_engine"]) as s:
        assert s.exec(select(func.count()).select_from(Game)).one() == 6
