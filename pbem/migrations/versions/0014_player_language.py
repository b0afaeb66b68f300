"""players' language: the language of their pages and mail ("en", "fr"; empty: the browser's, mail in English)

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=False, server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('language')
