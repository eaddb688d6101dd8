"""The first schema of the class record: one table of attempts.

Revision ID: 0001
Revises: none
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attempts",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_name", sa.String(100), nullable=False),
        sa.Column("attempt_id", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(100), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("notebook", sa.String(200), nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("answer_text", sa.Text, nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("misconception", sa.String(60), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("hints", sa.Integer, nullable=False),
        sa.Column("shown", sa.Boolean, nullable=False),
        sa.Column("first", sa.Boolean, nullable=False),
        sa.Column("client_time", sa.Float, nullable=False),
        sa.Column("received", sa.Float, nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.UniqueConstraint("user_name", "attempt_id", name="uq_attempts_user_attempt"),
    )
    op.create_index("ix_attempts_user_name", "attempts", ["user_name"])
    op.create_index("ix_attempts_kind", "attempts", ["kind"])
    op.create_index("ix_attempts_received", "attempts", ["received"])


def downgrade() -> None:
    op.drop_table("attempts")
