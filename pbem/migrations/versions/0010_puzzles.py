"""shared puzzles: published seeds with par, and the games dealt from them

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'puzzles',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=40), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('seed', sa.String(length=64), nullable=False),
        sa.Column('seed_hash', sa.String(length=64), nullable=False),
        sa.Column('day', sa.Date(), nullable=True),
        sa.Column('par', sa.Integer(), nullable=True),
        sa.Column('lower_bound', sa.Integer(), nullable=True),
        sa.Column('optimal', sa.Boolean(), nullable=False),
        sa.Column('solver_seconds', sa.Float(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('kind', 'day'),
    )
    op.create_table(
        'published_seed_games',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('puzzle_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id']),
        sa.ForeignKeyConstraint(['puzzle_id'], ['puzzles.id']),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_index(op.f('ix_published_seed_games_puzzle_id'), 'published_seed_games', ['puzzle_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_published_seed_games_puzzle_id'), table_name='published_seed_games')
    op.drop_table('published_seed_games')
    op.drop_table('puzzles')
