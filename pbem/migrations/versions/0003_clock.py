"""clock: time control, reminders, vacations, digests, calendar tokens

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('preferences',
    sa.Column('player_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('reminder_hours', sa.String(length=100), nullable=False),
    sa.Column('digest', sa.Boolean(), nullable=False),
    sa.Column('digest_sent_on', sa.String(length=10), nullable=True),
    sa.Column('calendar_token', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('player_id'),
    sa.UniqueConstraint('calendar_token')
    )
    op.create_table('vacations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('vacations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_vacations_player_id'), ['player_id'], unique=False)

    op.create_table('reminders_sent',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('hours', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'ply', 'hours')
    )
    op.create_table('timeouts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('policy', sa.String(length=8), nullable=False),
    sa.Column('outcome', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'ply')
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('time_control', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('turn_started_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('next_check_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_next_check_at'), ['next_check_at'], unique=False)

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bank_seconds', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('bank_seconds')

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_next_check_at'))
        batch_op.drop_column('next_check_at')
        batch_op.drop_column('turn_started_at')
        batch_op.drop_column('time_control')

    op.drop_table('timeouts')
    op.drop_table('reminders_sent')
    with op.batch_alter_table('vacations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_vacations_player_id'))

    op.drop_table('vacations')
    op.drop_table('preferences')
