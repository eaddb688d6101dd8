"""Writes the statistics pages' stored openings (:mod:`.openings`) from the engine:
``python -m pangaea_lab.sim.opening_writer``."""

from __future__ import annotations

import base64
import json
import sys
from typing import Any, Sequence

from .openings import FILE, PAGE_QUESTIONS, opening_key
from .questions import QUESTIONS
from .widgets import QuestionWidget


def computed() -> dict[str, Any]:
    """Every page question's opening, as its widget shows it after a Run, and every
    question's choices."""
    questions = {key: {"title": q.title, "players": list(q.players), "bots": list(q.bots),
                       "default_bots": list(q.default_bots),
                       "default_players": q.default_players, "default_games": q.default_games,
                       "tournament": q.tournament} for key, q in QUESTIONS.items()}
    openings = {}
    for key, asked in PAGE_QUESTIONS:
        widget = QuestionWidget(key, run_now=False, **asked)
        widget.press(progress=False)
        shown = widget.shown()
        openings[opening_key(key, **widget.choices())] = {
            **shown, "png": base64.b64encode(shown["png"]).decode("ascii")}
    return {"questions": questions, "openings": openings}


def main(argv: Sequence[str] | None = None) -> int:
    if argv:
        print("usage: python -m pangaea_lab.sim.opening_writer (no arguments)", file=sys.stderr)
        return 2
    FILE.parent.mkdir(exist_ok=True)
    FILE.write_text(json.dumps(computed(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
