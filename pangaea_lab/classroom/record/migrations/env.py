"""Alembic's environment for the class record: run by :meth:`RecordStore.upgrade` with the
store's own connection (no alembic.ini is needed; nothing here reads a file or a variable)."""

from __future__ import annotations

from alembic import context

from pangaea_lab.classroom.record.schema import Base


def run() -> None:
    """Apply the revisions on the connection the store handed over."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):      # only when Alembic runs it, never on a plain import
    run()
