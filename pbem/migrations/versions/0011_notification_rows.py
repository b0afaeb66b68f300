"""notification rows: game mail queued as structured rows (the recipient's seat, the words after the board),
its board drawn at send time for that seat

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # rows queued before this migration keep after_board NULL: their body was composed whole, and they are
    # sent as written (pbem.mailrobot.outgoing)
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seat', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('after_board', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('after_board')
        batch_op.drop_column('seat')
