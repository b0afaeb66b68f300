"""mail: inbox, shunt, IMAP state, reply log, outbox delivery fields

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('inbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=1000), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('envelope_from', sa.String(length=1000), nullable=True),
    sa.Column('envelope_to', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.Column('traceback', sa.Text(), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    with op.batch_alter_table('inbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbox_status'), ['status'], unique=False)

    op.create_table('imap_state',
    sa.Column('mailbox', sa.String(length=500), nullable=False),
    sa.Column('last_uid', sa.BigInteger(), nullable=False),
    sa.Column('uidvalidity', sa.BigInteger(), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('mailbox')
    )
    op.create_table('mail_reply_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('sender', sa.String(length=320), nullable=False),
    sa.Column('day', sa.String(length=10), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('sender', 'day', 'kind')
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('message_id', sa.String(length=300), nullable=True))
        batch_op.add_column(sa.Column('in_reply_to', sa.String(length=1000), nullable=True))
        batch_op.add_column(sa.Column('thread_refs', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('position', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('attempts', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('last_error', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('failed_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('failed_at')
        batch_op.drop_column('last_error')
        batch_op.drop_column('next_attempt_at')
        batch_op.drop_column('attempts')
        batch_op.drop_column('position')
        batch_op.drop_column('thread_refs')
        batch_op.drop_column('in_reply_to')
        batch_op.drop_column('message_id')
        batch_op.drop_column('kind')

    op.drop_table('mail_reply_log')
    op.drop_table('imap_state')
    with op.batch_alter_table('inbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inbox_status'))

    op.drop_table('inbox')
