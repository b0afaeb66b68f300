"""seats' pending settings: changes a player made outside their turn (a
standing order), JSON text by setting name, folded into the next turn played

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pending_settings', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('pending_settings')
