"""The class record's tables as SQLAlchemy models (the newest schema; each change to it is an
Alembic revision in ``migrations/versions/``).

``attempts`` holds one row per attempt a student made: who (the hub user name), the client's
name for the attempt (unique per user, so a resent attempt is stored once), the exercise
(kind, seed, level; its game, notebook and rule), the answer as sent (JSON) and in words, the
server's verdict, hints, shown, first, the client's clock and the server's own received time,
and where it came from ("hub": judged by the server; "file": a progress file imported by a
teacher, its verdicts the browser's).  Plain types only, so SQLite and PostgreSQL read the
same schema.
"""

from __future__ import annotations

from sqlalchemy import (Boolean, Float, Index, Integer, String, Text, UniqueConstraint)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The record's declarative base (its metadata is the newest schema)."""


class AttemptRow(Base):
    """One attempt of one student."""

    __tablename__ = "attempts"
    __table_args__ = (
        UniqueConstraint("user_name", "attempt_id", name="uq_attempts_user_attempt"),
        Index("ix_attempts_user_name", "user_name"),
        Index("ix_attempts_kind", "kind"),
        Index("ix_attempts_received", "received"),
        Index("ix_attempts_game_notebook", "game", "notebook"),
    )

    n: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_name: Mapped[str] = mapped_column(String(100), nullable=False)
    attempt_id: Mapped[str] = mapped_column(String(40), nullable=False)
    kind: Mapped[str] = mapped_column(String(100), nullable=False)
    game: Mapped[str] = mapped_column(String(40), nullable=False)
    notebook: Mapped[str] = mapped_column(String(200), nullable=False)
    rule: Mapped[str] = mapped_column(Text, nullable=False, server_default="")
    seed: Mapped[int] = mapped_column(Integer, nullable=False)
    level: Mapped[int] = mapped_column(Integer, nullable=False)
    answer: Mapped[str] = mapped_column(Text, nullable=False)
    answer_text: Mapped[str] = mapped_column(Text, nullable=False)
    correct: Mapped[bool] = mapped_column(Boolean, nullable=False)
    misconception: Mapped[str] = mapped_column(String(60), nullable=False)
    reason: Mapped[str] = mapped_column(Text, nullable=False)
    hints: Mapped[int] = mapped_column(Integer, nullable=False)
    shown: Mapped[bool] = mapped_column(Boolean, nullable=False)
    first: Mapped[bool] = mapped_column(Boolean, nullable=False)
    client_time: Mapped[float] = mapped_column(Float, nullable=False)
    received: Mapped[float] = mapped_column(Float, nullable=False)
    source: Mapped[str] = mapped_column(String(8), nullable=False)
