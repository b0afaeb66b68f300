"""game_events: every change of a game, written by triggers on games in the
changing transaction, for event streams and their Last-Event-ID

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None

#: the columns a trigger copies from the game's new row
COPIED = ("ply", "status", "result", "termination", "draw_offer", "deadline", "open_seats")
#: a change of any of these writes an event (not next_check_at alone: the sweep's own bookkeeping)
WATCHED = ("ply", "status", "result", "draw_offer", "deadline", "open_seats")


def create_triggers(bind) -> None:  # type: ignore[no-untyped-def]
    """The triggers that write ``game_events`` (run again by any later
    migration that rebuilds ``games`` on SQLite)."""
    columns = "game_id, old_ply, " + ", ".join(COPIED) + ", at"
    changed = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in WATCHED)
    if bind.dialect.name == "postgresql":
        schema = bind.execute(sa.text("SELECT current_schema()")).scalar_one()
        new = ", ".join(f"NEW.{c}" for c in COPIED)
        op.execute(f'''
CREATE OR REPLACE FUNCTION game_events_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "{schema}".game_events ({columns})
  VALUES (NEW.id, CASE WHEN TG_OP = 'UPDATE' THEN OLD.ply ELSE NEW.ply END, {new}, clock_timestamp());
  RETURN NULL;
END $$''')
        op.execute("CREATE TRIGGER game_events_on_insert AFTER INSERT ON games FOR EACH ROW "
                   "EXECUTE FUNCTION game_events_record()")
        op.execute(f"CREATE TRIGGER game_events_on_update AFTER UPDATE ON games FOR EACH ROW "
                   f"WHEN ({changed}) EXECUTE FUNCTION game_events_record()")
        return
    now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
    new = ", ".join(f"NEW.{c}" for c in COPIED)
    op.execute(f"CREATE TRIGGER game_events_on_insert AFTER INSERT ON games BEGIN "
               f"INSERT INTO game_events ({columns}) VALUES (NEW.id, NEW.ply, {new}, {now}); END")
    changed = changed.replace("IS DISTINCT FROM", "IS NOT")
    op.execute(f"CREATE TRIGGER game_events_on_update AFTER UPDATE ON games WHEN {changed} BEGIN "
               f"INSERT INTO game_events ({columns}) VALUES (NEW.id, OLD.ply, {new}, {now}); END")


def upgrade() -> None:
    op.create_table(
        'game_events',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('old_ply', sa.Integer(), nullable=False),
        sa.Column('ply', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('result', sa.String(length=40), nullable=False),
        sa.Column('termination', sa.String(length=200), nullable=True),
        sa.Column('draw_offer', sa.String(length=100), nullable=True),
        sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
        sa.Column('open_seats', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sqlite_autoincrement=True,
    )
    op.create_index('ix_game_events_game_id_id', 'game_events', ['game_id', 'id'], unique=False)
    create_triggers(op.get_bind())


def downgrade() -> None:
    bind = op.get_bind()
    op.execute("DROP TRIGGER IF EXISTS game_events_on_update" + (" ON games" if bind.dialect.name == "postgresql" else ""))
    op.execute("DROP TRIGGER IF EXISTS game_events_on_insert" + (" ON games" if bind.dialect.name == "postgresql" else ""))
    if bind.dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS game_events_record()")
    op.drop_index('ix_game_events_game_id_id', table_name='game_events')
    op.drop_table('game_events')
