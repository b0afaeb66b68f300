"""clock: time control, reminders, vacations, digests, calendar tokens

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
