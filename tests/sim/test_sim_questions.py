"""The statistics questions and their widgets: intervals computed right, every question answers
with a chart and a sentence, and the widget's Run button plays the chosen games."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from pangaea_lab.sim.questions import QUESTIONS, answer
from pangaea_lab.sim.stats import by_turn_order, mean_interval, wilson
from pangaea_lab.sim.widgets import ask

PNG = b"\x89PNG\r\n\x1a\n"


def test_wilson_matches_the_formula_and_stays_in_range():
    # 8 of 10: centre (0.8 + 1.92/10) / 1.384, the known interval 0.490..0.943
    low, high = wilson(8, 10)
    assert math.isclose(low, 0.4902, abs_tol=1e-3) and math.isclose(high, 0.9433, abs_tol=1e-3)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0
    assert wilson(0, 5)[1] > 0 and wilson(5, 5)[0] < 1
    assert wilson(3, 0) == (0.0, 1.0)


def test_bootstrap_interval_is_seeded_and_holds_the_mean():
    values = [1, 5, 2, 8, 3, 9, 4]
    first, again = mean_interval(values), mean_interval(values)
    assert first == again
    mean, low, high = first
    assert mean == pytest.approx(32 / 7) and low < mean < high
    assert mean_interval([4]) == (4.0, 4.0, 4.0)


def test_turn_order_counts_the_starting_player_first():
    table = pd.DataFrame({"players": [2, 2, 2], "first_player": [0, 1, 1], "winners": [1, 1, 2],
                          "p0_won": [True, True, True], "p1_won": [False, False, True],
                          "p0_bot": ["random"] * 3, "p1_bot": ["random"] * 3})
    rates = by_turn_order(table)
    # game 1: the starter (seat 0) wins; game 2: the second to play (seat 0) wins; game 3: shared
    assert list(rates.wins) == [1.5, 1.5]


@pytest.mark.parametrize("key", sorted(QUESTIONS))
def test_every_question_answers_with_a_chart_and_a_sentence(key):
    q = QUESTIONS[key]
    result = answer(key, games=2 if q.tournament else 3, progress=False)
    assert result.png().startswith(PNG)
    assert len(result.table) > 0 or "No " in result.text
    assert "interval" in result.text or result.text.startswith("No ")
    assert "None" not in result.text and "nan" not in result.text


def test_widget_runs_on_build_and_again_on_run():
    box = ask("inori.first_player", games=4)
    q = box.question
    assert bytes(q.chart.value).startswith(PNG) and "interval" in q.words.value
    assert len(q.answer.games) == 4
    q.games.value = "6"
    q.players.value = "3"
    q.run.click()
    assert len(q.answer.games) == 6 and set(q.answer.games.players) == {3}
    assert "place in turn order" in q.numbers() and "win rate" in q.numbers()


def test_tournament_widget_explains_a_choice_it_cannot_run():
    box = ask("inori.tournament", games=2)
    q = box.question
    before = q.chart.value
    q.bots.value = ("greedy",)
    q.run.click()
    assert "at least two different computer players" in q.words.value
    assert bytes(q.chart.value) == bytes(before) and not q.run.disabled
