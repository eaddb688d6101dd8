"""Text inside every game's drawings is at least 11 pixels high at the drawing's own size
(issue: readable by everyone): the SVGs each game draws (boards and tables along a seeded
game, every exercise's question and answer) are parsed and every ``font-size`` is scaled by
the ``width``/``viewBox`` of the pictures around it.

A drawing wider than the page shrinks to fit it, its text with it; so each drawing is also
narrow enough that its text stays at least 11 pixels high in a 1024-pixel-wide window and 10
in a 768-pixel one (issue: the app in a real lesson; the page leaves a drawing
:data:`OUTPUT_WIDTH` pixels, as measured in the app).  tests/browser/test_browser_drawings.py
measures the same in Chromium, with overlaps and text running off its card."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from functools import lru_cache

import pytest

from pangaea_lab.core.svg import MIN_TEXT_PX

SVG_NS = "{http://www.w3.org/2000/svg}"


def text_sizes(svg: str) -> list[tuple[float, str]]:
    """``(pixels on screen, text)`` for every text of a drawing shown at its own size."""
    root = ET.fromstring(svg)
    found: list[tuple[float, str]] = []

    def walk(node: ET.Element, zoom: float) -> None:
        if node.tag == SVG_NS + "svg" and node.get("viewBox") and node.get("width"):
            zoom *= float(node.get("width")) / float(node.get("viewBox").split()[2])
        if node.tag == SVG_NS + "text":
            found.append((float(node.get("font-size", "16")) * zoom, "".join(node.itertext())))
        for child in node:
            walk(child, zoom)
    walk(root, 1.0)
    return found


#: the width the app's page gives a drawing, by window width (measured in Chromium)
OUTPUT_WIDTH = {1024: 994, 768: 738}
#: the least text height the teachers' guide promises, by window width
LEAST_TEXT = {1024: 11.0, 768: 10.0}


def shown_sizes(svg: str, window: int) -> list[tuple[float, str]]:
    """Text heights once the drawing is shrunk to the page of a ``window``-wide window."""
    width = float(ET.fromstring(svg).get("width"))
    shrink = min(1.0, OUTPUT_WIDTH[window] / width)
    return [(px * shrink, text) for px, text in text_sizes(svg)]


def too_small_in(svg: str, window: int) -> list[str]:
    return [f"{text!r} at {px:.1f} px" for px, text in shown_sizes(svg, window)
            if px < LEAST_TEXT[window] - 0.05]


def too_small(svg: str) -> list[str]:
    return [f"{text!r} at {px:.1f} px" for px, text in text_sizes(svg) if px < MIN_TEXT_PX - 0.05]   # widths are rounded to 0.01


def played(state, moves: int, seed: int = 1):
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@lru_cache(maxsize=1)
def drawings() -> dict[str, str]:
    from pangaea_lab import forest_shuffle, harmonies, inori, pangaea
    from pangaea_lab.pangaea import render as pr, woods_render
    from pangaea_lab.harmonies import render as hr
    from pangaea_lab.forest_shuffle import render as fr
    out: dict[str, str] = {}
    p = played(pangaea.new_game(players=4, seed=3), 40)
    out["pangaea board"] = p.to_svg(highlight=[p.board.cells[0]])
    out["pangaea chains"] = pr.chains_svg(p, 0)
    w = played(pangaea.new_game(players=2, seed=347, wild_woods=True), 60)
    out["pangaea wild woods"] = w.to_svg()
    out["pangaea player board"] = woods_render.player_board_svg(w, 0)
    out["pangaea co-op"] = played(pangaea.new_game(players=1, seed=1, mode="coop",
                                                   wild_woods=True), 30).to_svg()
    h = played(harmonies.new_game(players=3, seed=5), 30)
    out["harmonies game"] = h.to_svg()
    out["harmonies 4 players"] = played(harmonies.new_game(players=4, seed=5), 40).to_svg()
    out["harmonies board"] = str(hr.board_svg("A", {(2, 1): ["brown", "green"]},
                                             cubes={(2, 1): 1}, highlight=[(2, 1)]).render())
    out["harmonies stacks"] = hr.stacks_svg([["gray", "red"], ["brown", "brown", "green"]])
    f = played(forest_shuffle.new_game(players=3, seed=7), 40)
    out["forest shuffle game"] = f.to_svg()
    out["forest shuffle forest"] = fr.forest_svg(f.forests[0]) if hasattr(f, "forests") else ""
    i = played(inori.new_game(players=4, seed=2), 20)
    out["inori board"] = i.to_svg(highlight=[("slot", 0)])
    out["inori 2 players"] = played(inori.new_game(players=2, seed=2), 60).to_svg()
    out["forest shuffle 4 players"] = played(forest_shuffle.new_game(players=4, seed=2),
                                             60).to_svg()
    return {k: v for k, v in out.items() if v}


GAME_DRAWINGS = ["pangaea board", "pangaea chains", "pangaea wild woods",
                 "pangaea player board", "pangaea co-op", "harmonies game",
                 "harmonies 4 players", "harmonies board", "harmonies stacks",
                 "forest shuffle game", "forest shuffle 4 players", "forest shuffle forest",
                 "inori board", "inori 2 players"]


@pytest.mark.parametrize("name", GAME_DRAWINGS)
def test_game_drawings_have_no_text_under_11px(name):
    svg = drawings()[name]
    assert text_sizes(svg), f"{name}: no text found"
    assert not too_small(svg), f"{name}: text too small:\n" + "\n".join(too_small(svg)[:10])
    for window in OUTPUT_WIDTH:
        small = too_small_in(svg, window)
        assert not small, f"{name} in a {window}-pixel window: text too small:\n" + \
            "\n".join(small[:10])


def exercise_cases() -> list[tuple[str, int]]:
    from pangaea_lab.exercises import registry
    return [(kind.key, level) for kind in registry() for level in kind.levels]


@pytest.mark.parametrize("key,level", exercise_cases())
def test_exercise_drawings_have_no_text_under_11px(key, level):
    """The question, the answer and every hint's marked board, at every level."""
    from pangaea_lab.exercises import generate
    exercise = generate(key, 1, level)
    drawings = [("question", exercise.svg()), ("answer", exercise.answer_svg())]
    drawings += [(f"hint {n + 1}", exercise.hint_svg(n)) for n in range(len(exercise.hints))]
    for which, svg in drawings:
        if not svg:
            continue
        small = too_small(svg) + [f"in a {window}-pixel window: {text}" for window in
                                  OUTPUT_WIDTH for text in too_small_in(svg, window)]
        assert not small, f"{key} level {level} ({which}): text too small:\n" + \
            "\n".join(small[:10])


def test_the_check_sees_small_text():
    tiny = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="200" '
            'height="100"><text font-size="5">a</text><text font-size="6">b</text></svg>')
    assert too_small(tiny) == ["'a' at 10.0 px"]
    wide = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 50" width="990" '
            'height="55"><text font-size="10">c</text></svg>')
    assert too_small(wide) == [] and too_small_in(wide, 1024) == []
    assert too_small_in(wide, 768) == ["'c' at 8.2 px"]


def test_drawings_shrink_to_fit_a_narrow_window():
    svg = drawings()["inori board"]
    root = ET.fromstring(svg)
    assert "max-width: 100%" in root.get("style", "")


def _boxes(svg: str, keep) -> list[tuple[float, float, float, float]]:
    return [(float(r.get("x")), float(r.get("y")), float(r.get("x")) + float(r.get("width")),
             float(r.get("y")) + float(r.get("height")))
            for r in ET.fromstring(svg).iter(SVG_NS + "rect") if keep(r)]


def _meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_harmonies_cube_square_leaves_the_letters_of_its_stack_readable():
    """On a board and on a habitat card drawn beside it (at the board's scale), the cube's
    square sits beside the stack's letters, never over them."""
    from pangaea_lab.exercises import generate
    from pangaea_lab.harmonies import render as hr
    board = str(hr.board_svg("A", {(2, 1): ["gray", "gray", "gray"], (1, 1): ["blue"]},
                             cubes={(2, 1): 1, (1, 1): 2}).render())
    card = generate("harmonies.complete_habitat", 1, 1).svg()
    for name, svg in (("board", board), ("habitat card", card)):
        cubes = _boxes(svg, lambda r: r.findtext(SVG_NS + "title", "").startswith(
            ("cube of", "the cube goes here")))
        letters = _boxes(svg, lambda r: r.get("rx") == "3" and r.get("fill") == "#ffffff")
        assert cubes and letters, name
        assert not [(c, t) for c in cubes for t in letters if _meet(c, t)], name
