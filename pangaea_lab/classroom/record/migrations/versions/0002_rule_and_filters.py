"""Each attempt keeps the rule its exercise practises (the dashboard's columns are rules), and
the dashboard's filter by game and notebook has an index.  Rows kept from the first schema get
their rule from the exercise registry (an exercise no longer shipped keeps an empty rule).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from pangaea_lab import exercises

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("attempts") as batch:
        batch.add_column(sa.Column("rule", sa.Text, nullable=False, server_default=""))
        batch.create_index("ix_attempts_game_notebook", ["game", "notebook"])
    attempts = sa.table("attempts", sa.column("kind", sa.String), sa.column("rule", sa.Text))
    bind = op.get_bind()
    kinds = {kind.key: kind.rule for kind in exercises.registry()}
    for (key,) in bind.execute(sa.select(attempts.c.kind).distinct()).all():
        if key in kinds:
            bind.execute(attempts.update().where(attempts.c.kind == key)
                         .values(rule=kinds[key]))


def downgrade() -> None:
    with op.batch_alter_table("attempts") as batch:
        batch.drop_index("ix_attempts_game_notebook")
        batch.drop_column("rule")
