"""A question's widget redraws everything it shows on each Run (chart, sentence, the numbers
behind the chart, the first games), with words for every heading, and its progress is said in
words ("120 of 200 games, about 5 s left"), not in tqdm's own numbers."""

import re

from pangaea_lab.core.page_text import raw_text_problems
from pangaea_lab.sim.run import _progress_bar, progress_words
from pangaea_lab.sim.widgets import GAMES_SHOWN, ask


def words_of(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_run_redraws_every_table_and_the_chart():
    q = ask("inori.first_player", games=4).question
    first = (bytes(q.chart.value), q.words.value, q.table.value, q.games_box.value)
    assert "The numbers behind the chart" in q.table.value and "<table" in q.games_box.value
    assert words_of(q.games_box.value).count("Seat 1: player") == 1
    q.games.value = "7"
    q.players.value = "3"
    q.run.click()
    now = (bytes(q.chart.value), q.words.value, q.table.value, q.games_box.value)
    assert all(a != b for a, b in zip(first, now))
    assert q.games_box.value.count("<tr>") == 1 + min(7, GAMES_SHOWN)   # heading + games
    assert "Seat 3: player" in q.games_box.value
    for part in (q.table.value, q.games_box.value, q.words.value):
        assert raw_text_problems(words_of(part)) == [], words_of(part)[:200]


def test_progress_is_said_in_words():
    assert progress_words(120, 200, 4.0, 16.0) == "120 of 200 games, about 5 s left"
    assert progress_words(200, 200, 7.4, 40.0) == "200 of 200 games in 7 s"
    assert progress_words(10, 200, 1.0, 0.05) == "10 of 200 games, about 1 h 3 min left"
    bar = _progress_bar(5, 0, "Inori", True)
    for _ in range(5):
        bar.update(1)
    line = bar.format_meter(**bar.format_dict)
    bar.close()
    assert "5 of 5 games in " in line and "game/s" not in line and "<" not in line


def test_number_boxes_refuse_what_is_not_a_whole_number_with_a_sentence():
    q = ask("inori.first_player", games=4).question
    chart = bytes(q.chart.value)
    for games, players, said in (
            ("2.5", "2", "The number in Games must be a whole number, like 7; “2.5” is not one."),
            ("5000", "2", "The number in Games must be a whole number from 1 to 2000, not 5000."),
            ("4", "9", "The number of players must be a whole number from 2 to 4, not 9.")):
        q.games.value, q.players.value = games, players
        q.run.click()
        assert words_of(q.words.value) == f"Cannot run: {said}"
        assert bytes(q.chart.value) == chart and not q.run.disabled
