"""chance outcomes: what chance gave before the first turn (games) and after each turn (turns)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('start_chance', sa.JSON(), nullable=True))
    with op.batch_alter_table('turns', schema=None) as batch_op:
        batch_op.add_column(sa.Column('chance', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('turns', schema=None) as batch_op:
        batch_op.drop_column('chance')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('start_chance')
