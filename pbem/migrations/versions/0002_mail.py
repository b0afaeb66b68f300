"""mail: inbox, shunt, IMAP state, reply log, outbox delivery fields

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
