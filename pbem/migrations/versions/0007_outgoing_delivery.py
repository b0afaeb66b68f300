"""outgoing delivery: outages apart from attempts, failing since, uncertain deliveries, leases

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('outages', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('failing_since', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('uncertain_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('lease', sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('lease')
        batch_op.drop_column('uncertain_at')
        batch_op.drop_column('failing_since')
        batch_op.drop_column('outages')
