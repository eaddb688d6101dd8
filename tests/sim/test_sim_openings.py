"""The statistics pages open with answers the engine stored (pangaea_lab/sim/openings.py): a
page starts without playing games or loading pandas, matplotlib or the other games, and what
it shows is what the engine gives now, played again here for every stored opening."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pangaea_lab.sim import openings
from pangaea_lab.sim.questions import QUESTIONS
from pangaea_lab.sim.widgets import QuestionWidget, ask

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
REFRESH = "python -m pangaea_lab.sim.opening_writer"


@pytest.mark.parametrize("key,asked", openings.PAGE_QUESTIONS,
                         ids=[key for key, _ in openings.PAGE_QUESTIONS])
def test_a_stored_opening_is_what_the_engine_gives_now(key, asked):
    played = QuestionWidget(key, run_now=False, **asked)
    played.press(progress=False)
    stored = openings.opening(key, **played.choices())
    assert stored is not None, f"{key}: no stored opening for {asked} (run {REFRESH})"
    now = played.shown()
    for part in ("text", "numbers_html", "numbers_text", "games_html", "png"):
        assert stored[part] == now[part], f"{key}: the stored {part} differs (run {REFRESH})"
    opened = ask(key, **asked).question
    assert opened.shown() == now and opened.numbers() == played.numbers()


def test_the_stored_choices_are_the_questions_own():
    for key, q in QUESTIONS.items():
        stored = openings.choices_of(key)
        assert stored is not None, f"{key} is not stored (run {REFRESH})"
        assert (stored.title, stored.players, stored.bots, stored.default_bots,
                stored.default_players, stored.default_games, stored.tournament) == \
            (q.title, q.players, q.bots, q.default_bots, q.default_players, q.default_games,
             q.tournament), key
    assert openings.choices_of("no.such_question") is None


def test_the_stored_openings_are_the_questions_the_pages_ask():
    asked = set()
    for page in NOTEBOOKS.rglob("*statistics.ipynb"):
        for cell in json.loads(page.read_text())["cells"]:
            for call in re.findall(r"\bask\((.*)\)", "".join(cell["source"])):
                asked.add(call)
    listed = {", ".join([repr(key).replace("'", '"')] + [
        f"{name}={json.dumps(value)}" for name, value in given.items()])
        for key, given in openings.PAGE_QUESTIONS}
    assert asked == listed


def test_an_opened_page_plays_its_games_only_when_its_answer_is_asked_for():
    widget = ask("inori.first_player", games=60).question
    assert widget._answer is None and "game" in widget.games_box.value
    answer = widget.answer                           # played now, as the stored one was
    assert len(answer.games) == 60 and widget.answer is answer
    assert widget.numbers() == widget.shown()["numbers_text"]


def test_a_statistics_page_opens_without_pandas_matplotlib_or_other_games():
    """The page's first cell and its questions, in a fresh interpreter."""
    code = ("import sys\nfrom pangaea_lab.sim.widgets import ask\n"
            "q = ask('pangaea.first_player', games=20, bots=['forester'])\n"
            "heavy = [m for m in ('pandas', 'matplotlib', 'pangaea_lab.sim.questions', "
            "'pangaea_lab.inori', 'pangaea_lab.harmonies', 'pangaea_lab.forest_shuffle') "
            "if m in sys.modules]\nprint(heavy, len(q.question.chart.value) > 1000)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[] True"
