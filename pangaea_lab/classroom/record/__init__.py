"""The class record: every attempt a student makes on a classroom hub, judged again on the
server by the engine and kept in a database (SQLite by default, PostgreSQL by URL).

``judge`` reads a batch of attempts sent by a student's kernel (every field checked before
anything is built) and judges each one by regenerating its exercise; ``store`` keeps the judged
attempts (``RecordStore``) with schema migrations in ``migrations/`` (Alembic);
``python -m pangaea_lab.classroom.record`` upgrades, backs up or deletes from the command line.
"""
