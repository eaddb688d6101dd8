"""The widget models exercises share (core/shared_models.py): how many models one exercise
makes, and that what one exercise hides, shows or restyles leaves every other as it was."""

import warnings

import ipywidgets as widgets
import pytest

from pangaea_lab.core.exercise_widget import ExerciseModel, ExerciseView
from pangaea_lab.core.exercises import Exercise, Option, Verdict
from pangaea_lab.core.mastery import PracticeRecord
from pangaea_lab.core.shared_models import SharedModelChanged, shared, shared_style

#: the most models one exercise may add to the page once the shared ones exist: its 32
#: widgets and the 8 layouts of the parts it hides and shows (90 before they were shared),
#: and one button per option of a choice
MODELS_PER_EXERCISE = 42


def draw(marked):
    cells = "".join(f'<rect data-cell="{q},0" x="{q * 30}" y="0" width="30" height="30"/>'
                    for q in range(3))
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="90" height="30">{cells}</svg>'


def cells(seed, level=1):
    return Exercise(kind="shared.cells", seed=seed, question="Click the middle space.",
                    answer_kind="cells", answer=frozenset({(1, 0)}), draw=draw,
                    checker=lambda a: Verdict(a == {(1, 0)}, "The middle one."),
                    hints=("Not at an end.", "Between the others."), hint_marks=((), ((1, 0),)),
                    explanation="It is the only one with two neighbours.")


def choice(seed, level=1):
    options = (Option("a", "Left"), Option("b", "Middle"), Option("c", "Right"))
    return Exercise(kind="shared.choice", seed=seed, question="Which space is in the middle?",
                    answer_kind="choice", answer="b", options=options, draw=draw,
                    checker=lambda a: Verdict(a == "b", "The middle one."),
                    hints=("Not at an end.", "Between the others."))


def number(seed, level=1):
    return Exercise(kind="shared.number", seed=seed, question="How many spaces?",
                    answer_kind="number", answer=3, draw=draw,
                    checker=lambda a: Verdict(a == 3, "Three."),
                    hints=("Count them.", "More than two."))


def view(generate, key="shared.cells"):
    return ExerciseView(ExerciseModel(key, 1, generate=generate, record=PracticeRecord()))


def models():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)    # Widget.widgets, still there
        return dict(widgets.Widget.widgets)


def parts(root):
    """Every widget under ``root`` (children of boxes), ``root`` first."""
    found, todo = [], [root]
    while todo:
        widget = todo.pop(0)
        found.append(widget)
        todo.extend(getattr(widget, "children", ()))
    return found


def looks(root):
    """What every part of an exercise looks like: its layout's and its style's values."""
    return [(type(w).__name__, w.layout.get_state(),
             w.style.get_state() if hasattr(w, "style") and isinstance(
                 w.style, widgets.Widget) else None)
            for w in parts(root)]


@pytest.mark.parametrize("generate", [cells, choice, number])
def test_one_exercise_makes_few_models(generate):
    view(generate)                     # the shared models exist from the first exercise on
    before = models()
    options = len(view(generate).option_buttons)
    made = [m for key, m in models().items() if key not in before]
    assert 30 < len(made) <= MODELS_PER_EXERCISE + options, sorted(type(m).__name__
                                                                    for m in made)


def test_a_page_of_fifteen_exercises_shares_its_styles():
    before = models()
    for n in range(15):
        view((cells, choice, number)[n % 3])
    made = [m for key, m in models().items() if key not in before]
    assert len(made) <= 15 * MODELS_PER_EXERCISE + 5 * 3
    assert sum(isinstance(m, widgets.ButtonStyle) for m in made) <= 1
    assert sum(isinstance(m, type(widgets.HTML().style)) for m in made) <= 1


def test_hiding_showing_and_restyling_one_exercise_leaves_the_others_as_they_were():
    one, same, other = view(cells), view(cells), view(number, "shared.number")
    kept = looks(same.root), looks(other.root)
    shown_before = same.answer_box.layout.display, same.hint_picture.layout.display
    assert shown_before == ("none", "none")
    # hide and show: the answer, the hint picture, the board (another kind of exercise)
    one.answer_button.click()
    one.hint_button.click()
    one.hint_button.click()
    assert one.answer_box.layout.display != "none" and one.hint_picture.layout.display != "none"
    one.model.generate = number
    one.model.load(2)
    assert one.board.layout.display == "none" and one.number_box.layout.display != "none"
    # restyle: a part with a layout of its own, and a shared one given its own first
    one.picture.layout.width = "10px"
    with pytest.raises(SharedModelChanged, match="shared by many widgets"):
        one.title.layout.margin = "40px"
    with pytest.raises(SharedModelChanged):
        one.check_button.style.button_color = "red"
    one.title.layout = widgets.Layout(margin="40px")
    one.check_button.style = widgets.ButtonStyle(button_color="red")
    assert one.title.layout.margin == "40px" and one.check_button.style.button_color == "red"
    assert (looks(same.root), looks(other.root)) == kept
    assert (same.answer_box.layout.display, same.hint_picture.layout.display) == shown_before
    assert same.title.layout.margin is None and same.check_button.style.button_color is None


def test_every_part_an_exercise_hides_has_a_layout_of_its_own():
    a, b = view(cells), view(cells)
    for name in ("board", "picture", "keyboard_row", "selection_line", "options_box",
                 "number_box", "hint_picture", "answer_box"):
        assert getattr(a, name).layout is not getattr(b, name).layout, name
    assert a.title.layout is b.title.layout and a.clear_button.style is b.clear_button.style


def test_a_shared_model_is_one_per_values_and_made_again_once_closed():
    wide = shared(widgets.Layout, width="123px")
    assert shared(widgets.Layout, width="123px") is wide
    assert shared(widgets.Layout, width="124px") is not wide
    assert shared_style(widgets.Button) is shared(widgets.ButtonStyle)
    wide.close()
    again = shared(widgets.Layout, width="123px")
    assert again is not wide and again.comm is not None and again.width == "123px"
