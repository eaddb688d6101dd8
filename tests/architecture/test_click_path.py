"""How far an action travels: a Land Ritual chosen by a click on the board and played with the
Apply button, from the button's handler to the rules and back to the redraw.

Every call made by the package while the button is pressed is recorded with the package's
frames on the stack at that moment; a *module switch* is a step on that stack from a function of
one module to a function of another.  ARCHITECTURE.md promises at most ten for this path (and
names the modules it passes); the test plays it as a learner does, with the widget (no browser
needed: the button's click runs the same handlers as a click in the page).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import pangaea_lab
from pangaea_lab import pangaea
from pangaea_lab.pangaea import ForesterPlayer, PlayLand

pytest.importorskip("ipywidgets")

PACKAGE = Path(pangaea_lab.__file__).resolve().parent
PACKAGE_TEXT = str(PACKAGE)
ARCHITECTURE = Path(__file__).resolve().parents[2] / "ARCHITECTURE.md"

#: the promise made in ARCHITECTURE.md
MOST_SWITCHES = 10


def _modules_on_stack(frame) -> list[tuple[str, str]]:
    """(module path inside the package, function name) of the package's frames, outermost
    first."""
    found = []
    while frame is not None:
        path = Path(frame.f_code.co_filename).resolve()
        if PACKAGE in path.parents:
            found.append((path.relative_to(PACKAGE).as_posix(), frame.f_code.co_name))
        frame = frame.f_back
    return found[::-1]


def _switches(stack: list[tuple[str, str]]) -> int:
    return sum(1 for outer, inner in zip(stack, stack[1:]) if outer[0] != inner[0])


def _land_ritual_widget():
    """The Dawn of Pangaea's step-through widget, played by hand (with the Forester's choices)
    until a Land Ritual can be played; then the Ritual is chosen by a click on its last space."""
    from pangaea_lab.pangaea.widgets import play

    root = play(players=2, seed=5, computer={}, link=False)
    model = root.model
    bots = [ForesterPlayer(0), ForesterPlayer(1)]
    for _ in range(400):
        state = model.state
        rituals = [a for a in state.legal_actions() if isinstance(a, PlayLand)]
        if rituals:
            break
        model.apply(bots[state.current_player].choose(state))
    else:
        pytest.fail("no Land Ritual came up in 400 steps")
    ritual = rituals[0]
    model.pick_cell(ritual.end)
    if not isinstance(model.selected, PlayLand):
        pytest.fail(f"the click on {ritual.end} selected {model.selected!r}")
    return root, ritual


def test_a_land_ritual_from_click_to_redraw_switches_modules_at_most_ten_times():
    root, ritual = _land_ritual_widget()
    model = root.model
    before = model.state
    known: dict = {}          # frame -> (its module, switches from the click's first frame)
    deepest: list = [-1, None]
    seen: set = set()

    def record(frame, event, _arg):
        if event != "call":
            return
        module = frame.f_code.co_filename
        if not module.startswith(PACKAGE_TEXT):
            return
        outer = frame.f_back
        while outer is not None and outer not in known:
            outer = outer.f_back
        if outer is None:
            switches = 0
        else:
            outer_module, outer_switches = known[outer]
            switches = outer_switches + (outer_module != module)
        known[frame] = (module, switches)
        seen.add(module)
        if switches > deepest[0]:
            deepest[0], deepest[1] = switches, _modules_on_stack(frame)

    sys.setprofile(record)
    try:
        root.view.apply_button.click()
    finally:
        sys.setprofile(None)

    # the click did play the Ritual and redrew the board
    assert model.state is not before
    assert model.moves[-1].action == ritual
    stack = deepest[1]
    assert stack[0][0] == "core/clicks.py"
    assert str(PACKAGE / "pangaea" / "rules.py") in seen, "the click did not reach the rules"
    assert _switches(stack) == deepest[0]
    assert deepest[0] <= MOST_SWITCHES, "\n".join(f"{module}: {name}" for module, name in stack)
    # the number ARCHITECTURE.md gives is the one measured here
    said = re.search(r"the deepest chain switches\s+modules (\d+) times", ARCHITECTURE.read_text())
    assert said is not None, "ARCHITECTURE.md no longer gives the measured number"
    assert int(said.group(1)) == deepest[0], "\n".join(f"{m}: {n}" for m, n in stack)


def test_the_redraw_is_on_the_path():
    """The same click reaches the game's drawing (the board is redrawn from the new state)."""
    root, _ritual = _land_ritual_widget()
    drawn: list = []
    draw = pangaea.GAME.part("to_svg")

    def record(frame, event, _arg):
        if event == "call" and frame.f_code is draw.__code__:
            drawn.append(_modules_on_stack(frame))

    sys.setprofile(record)
    try:
        root.view.apply_button.click()
    finally:
        sys.setprofile(None)
    assert drawn, "the board was not redrawn"
    assert drawn[0][0][0] == "core/clicks.py"
    assert _switches(drawn[0]) <= MOST_SWITCHES
