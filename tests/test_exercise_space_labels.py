"""Without a mouse, a learner picks a space of an exercise's board from a list; the list
names each space by what is on it (the drawing's tooltip), not by coordinates alone."""

from __future__ import annotations

import re

import pytest

from pangaea_lab import exercises
from pangaea_lab.core.exercise_widget import exercise_widget


CLICKED = [(kind.key, level) for kind in exercises.registry() for level in kind.levels
           if kind.generate(1, level).answer_kind in ("cells", "path")]


@pytest.mark.parametrize("key,level", CLICKED)
def test_the_keyboard_list_names_spaces_in_words(key, level):
    view = exercise_widget(key, seed=1, level=level).view
    labels = [label for label, _ in view.space_list.options]
    assert labels, f"{key}: no space to pick from the keyboard"
    assert all(re.search(r"[A-Za-z]{3}", label) for label in labels), (key, labels[:5])


@pytest.mark.parametrize("key,level", CLICKED)
def test_an_answer_names_its_spaces_as_the_board_does(key, level):
    """"Your answer: ..." and the engine's "Answer: ..." name each space as the list and the
    board's tooltips do."""
    widget = exercise_widget(key, seed=1, level=level)
    model, view = widget.model, widget.view
    listed = dict((cell, label) for label, cell in view.space_list.options)
    cell = next(iter(listed))
    model.click(cell)
    words = model.exercise.cell_words(cell)
    assert words in model.answer_text(), (key, words, model.answer_text())
    assert re.search(r"[A-Za-z]{3}", words), (key, words)
    answer = model.exercise.answer_text()
    assert all(model.exercise.cell_words(c) in answer for c in model.exercise.answer_cells
               if tuple(c) in listed), (key, answer)
