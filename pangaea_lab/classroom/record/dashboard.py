"""What the teacher's dashboard shows, computed from the class record's rows.

Plain functions, no web server: the class as a table (students by exercise kinds, grouped by
notebook, each cell practised / mastered / struggling exactly as the learner's own progress
line says it, through :class:`~pangaea_lab.core.mastery.PracticeRecord`), one student's
history, the kinds the class missed most (with the wrong answers and misconceptions heard
most often) and the attempts as a CSV table with headings in words.

Every row comes from :class:`pangaea_lab.classroom.record.store.RecordStore`; a row's
``attempt()`` is the :class:`~pangaea_lab.core.mastery.Attempt` the learner's own record
holds, so the dashboard and the learner's page never disagree.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from datetime import datetime, timezone
from typing import Any, Iterable

from ...core.errors import InvalidData
from ...core.mastery import PracticeRecord
from ... import exercises

#: the words for each state of a cell (a symbol too, so the meaning never rests on colour)
STATES = {
    "mastered": "✓ mastered",
    "struggling": "! struggling",
    "practised": "• practised",
    "": "– not tried",
}
#: how an attempt from a learner's saved progress file is marked wherever it is shown
FROM_FILE = "from a saved file, not checked by the server"
#: the kinds listed under "to talk about tomorrow", and the answers shown for each
MISSED_KINDS = 6
MISSED_ANSWERS = 3
#: the headings of the CSV export, in the order of its columns
CSV_HEADINGS = ("Student", "Received (UTC)", "Game", "Notebook", "Rule", "Exercise", "Seed",
                "Level", "Answer", "Verdict", "Misconception", "Hints open", "Answer shown",
                "First check of this position", "Checked by", "Attempt name")


def kinds(game: str = "", notebook: str = "") -> list[exercises.ExerciseKind]:
    """The exercise kinds of ``game`` and ``notebook`` ("" for all), grouped by game and
    notebook, in the order the games and their notebooks are taught."""
    order = {name: k for k, name in enumerate(exercises.GAMES)}
    chosen = [kind for kind in exercises.registry()
              if (not game or kind.game == game) and (not notebook or kind.notebook == notebook)]
    numbered = sorted(enumerate(chosen), key=lambda item: (
        order.get(item[1].game, len(order)), item[1].notebook, item[0]))
    return [kind for _, kind in numbered]


def filters() -> dict[str, Any]:
    """The choices of the dashboard's filter: games, and the notebooks of each game."""
    notebooks: dict[str, list[str]] = {}
    for kind in kinds():
        shelf = notebooks.setdefault(kind.game, [])
        if kind.notebook not in shelf:
            shelf.append(kind.notebook)
    return {"games": list(notebooks), "notebooks": notebooks}


def check_filter(game: Any, notebook: Any) -> tuple[str, str]:
    """``game`` and ``notebook`` as a filter ("" for all); anything not offered by
    :func:`filters` raises :class:`InvalidData` naming the field."""
    offered = filters()
    if not isinstance(game, str) or (game and game not in offered["games"]):
        raise InvalidData(f"game: {str(game)[:40]!r} is not one of the games "
                          f"({', '.join(offered['games'])})")
    every = [nb for shelf in offered["notebooks"].values() for nb in shelf]
    if not isinstance(notebook, str) or (notebook and notebook not in every):
        raise InvalidData(f"notebook: {str(notebook)[:80]!r} is not a notebook with exercises")
    if game and notebook and notebook not in offered["notebooks"][game]:
        raise InvalidData(f"notebook: {notebook!r} is not a notebook of {game}")
    return game, notebook


def cell(record: PracticeRecord, key: str) -> dict[str, Any]:
    """One student's state on one kind, as the learner's progress line says it: mastered
    (at a level) first, then struggling, then practised; "" when never tried."""
    status = record.status(key)
    if status.mastered:
        state = "mastered"
    elif status.struggling:
        state = "struggling"
    elif record.of(key):
        state = "practised"
    else:
        state = ""
    text = STATES[state] + (f" (level {status.mastered_level})" if status.mastered else "")
    return {"state": state, "text": text, "right": status.right, "run": status.run,
            "practised": status.practised, "last": status.last}


def class_view(rows: Iterable[Any], students: Iterable[str] = (), game: str = "",
               notebook: str = "") -> dict[str, Any]:
    """The dashboard's data: the columns (kinds with their notebook and rule), one line per
    student (everyone with a record, and everyone in ``students``) and the most-missed
    kinds, for the kinds of ``game`` and ``notebook``."""
    columns = kinds(game, notebook)
    keys = {kind.key for kind in columns}
    by_student: dict[str, list[Any]] = {name: [] for name in students}
    for row in rows:
        by_student.setdefault(row.user, []).append(row)
    lines = []
    for name in sorted(by_student, key=str.casefold):
        own = by_student[name]
        record = PracticeRecord([row.attempt() for row in own])
        shown = [row for row in own if row.kind in keys]
        lines.append({
            "name": name, "attempts": len(shown),
            "last": max((row.received for row in shown), default=0),
            "from_file": sum(row.source == "file" for row in shown),
            "cells": {kind.key: cell(record, kind.key) for kind in columns}})
    chosen = [row for rows_of in by_student.values() for row in rows_of if row.kind in keys]
    latest = max((row for rows_of in by_student.values() for row in rows_of),
                 key=lambda row: row.received, default=None)
    return {
        "columns": [{"kind": k.key, "title": k.title, "rule": k.rule, "game": k.game,
                     "notebook": k.notebook} for k in columns],
        "students": lines, "missed": most_missed(chosen), "states": STATES,
        "filter": {"game": game, "notebook": notebook},
        "latest_game": latest.game if latest else "", **filters()}


def most_missed(rows: Iterable[Any], limit: int = MISSED_KINDS) -> list[dict[str, Any]]:
    """The kinds with the most wrong answers (a shown answer is no answer), each with how many
    students missed it and the wrong answers and misconceptions heard most often."""
    wrong: dict[str, list[Any]] = {}
    for row in rows:
        if not row.correct and row.answer_text:
            wrong.setdefault(row.kind, []).append(row)
    named = {kind.key: kind for kind in kinds()}
    missed = []
    for key, misses in wrong.items():
        kind = named.get(key)
        answers = Counter(row.answer_text for row in misses).most_common(MISSED_ANSWERS)
        ideas = Counter(row.misconception for row in misses
                        if row.misconception).most_common(MISSED_ANSWERS)
        said = {row.misconception: row.reason for row in misses if row.reason}
        missed.append({
            "kind": key, "title": kind.title if kind else key,
            "rule": kind.rule if kind else "", "wrong": len(misses),
            "students": len({row.user for row in misses}),
            "answers": [{"answer": text, "count": n} for text, n in answers],
            "misconceptions": [{"name": name, "text": misconception_words(name),
                                "reason": said.get(name, ""), "count": n}
                               for name, n in ideas]})
    missed.sort(key=lambda item: (-item["wrong"], -item["students"], item["kind"]))
    return missed[:limit]


def misconception_words(name: str) -> str:
    """A misconception's name in words ("counted-lone-mountain" -> "counted lone mountain")."""
    return " ".join(str(name).replace("-", " ").replace("_", " ").split())


def verdict_words(row: Any) -> str:
    """A row's verdict in words: right, not right, or the answer shown."""
    if row.shown and not row.answer_text:
        return "answer shown"
    return "right" if row.correct else "not right"


def history(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """One student's attempts as the dashboard lists them, newest first."""
    named = {kind.key: kind for kind in kinds()}
    out = []
    for row in rows:
        kind = named.get(row.kind)
        out.append({
            "id": row.id, "kind": row.kind, "title": kind.title if kind else row.kind,
            "rule": row.rule, "game": row.game, "notebook": row.notebook,
            "seed": row.seed, "level": row.level, "answer": row.answer_text,
            "correct": bool(row.correct), "verdict": verdict_words(row),
            "misconception": misconception_words(row.misconception), "reason": row.reason,
            "hints": row.hints, "shown": bool(row.shown),
            "first": bool(row.first), "time": row.client_time, "received": row.received,
            "source": row.source, "checked": FROM_FILE if row.source == "file" else "the server"})
    out.reverse()
    return out


def _cell_text(value: Any) -> str:
    """A CSV cell that a spreadsheet shows as text: a leading = + - @ (a formula to a
    spreadsheet) is kept as text with a leading apostrophe."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_text(rows: Iterable[Any]) -> str:
    """The attempts as CSV: one line per attempt, the headings in words."""
    named = {kind.key: kind for kind in kinds()}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADINGS)
    for row in rows:
        kind = named.get(row.kind)
        received = datetime.fromtimestamp(row.received, timezone.utc)
        writer.writerow([_cell_text(value) for value in (
            row.user, received.strftime("%Y-%m-%d %H:%M:%S"), row.game, row.notebook,
            row.rule, kind.title if kind else row.kind, row.seed, row.level, row.answer_text,
            verdict_words(row), misconception_words(row.misconception), row.hints, "yes" if row.shown else "no",
            "yes" if row.first else "no",
            FROM_FILE if row.source == "file" else "the server", row.id)])
    return out.getvalue()


def row_json(row: Any) -> dict[str, Any]:
    """A row as a learner's own records are sent back to them."""
    try:
        answer = json.loads(row.answer) if row.answer else None
    except ValueError:
        answer = None
    return {"id": row.id, "kind": row.kind, "seed": row.seed, "level": row.level,
            "answer": answer, "answer_text": row.answer_text, "correct": bool(row.correct),
            "misconception": row.misconception, "hints": row.hints, "shown": bool(row.shown),
            "first": bool(row.first), "time": row.client_time, "received": row.received,
            "source": row.source}
