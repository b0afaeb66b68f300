"""the sweep's index: games by status and next check, so finding the games
due reads only those (not every active game)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25
"""

from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index('ix_games_status_next_check_at', ['status', 'next_check_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('ix_games_status_next_check_at')
