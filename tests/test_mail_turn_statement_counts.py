"""A turn played by mail costs a fixed number of statements and commits:
the inbox pass's statements for one turn reply are counted with an
SQLAlchemy ``before_cursor_execute`` listener (and the commits with the
engine's ``commit`` event), so a change that adds one fails here, in CI,
without timing anything.  When a change removes some, lower the figures."""

from __future__ import annotations

from statement_counts import counting
from test_email_commands import client_reply, duel, robot, turns  # noqa: F401  (fixtures)

from pbem.mailrobot import jobs

#: statements of the inbox pass that plays one turn reply: the pass's
#: SELECT of new messages, the attempt (one UPDATE ... RETURNING), the
#: message, the sender check (player, game, seat: reused by the turn), the
#: claim, the confirmation (refusal check, INSERT), the turn (seats out of
#: the game, the conditional UPDATE, INSERT turn; the players' mail: seats
#: and players, digest preference, refusal check, INSERT).  It was
#: 20 before the attempt lost its SELECT and the turn its second parse and
#: seat lookups; 17 since each game mail names the recipient's seat (the
#: board is drawn at send time as that seat may see it).
TURN_STATEMENTS = {"sqlite": 17, "postgresql": 17}
#: its commits: the attempt, and the turn with its mail and the claim
TURN_COMMITS = 2




def test_a_turn_by_mail_runs_a_fixed_number_of_statements(duel):
    robot, (game_id, _, _), mail = duel
    engine = robot.app.extensions["pbem_engine"]
    robot.store(client_reply(mail, "A1"), None, [])
    with counting(engine) as (statements, commits):
        assert jobs.process_inbox(robot.app) == 1
    assert [t.canonical for t in turns(robot.app, game_id)] == ["a1"]
    listed = "\n".join(s.split("\n")[0][:120] for s in statements)
    assert len(statements) <= TURN_STATEMENTS[engine.dialect.name], f"{len(statements)} statements:\n{listed}"
    assert len(commits) <= TURN_COMMITS
