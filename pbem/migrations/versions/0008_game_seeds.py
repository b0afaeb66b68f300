"""game seeds: the secret seed of a game that uses chance, and its SHA-256 commitment

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seed', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('seed_hash', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('seed_hash')
        batch_op.drop_column('seed')
