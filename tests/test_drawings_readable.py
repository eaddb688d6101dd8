"""Text inside every game's drawings is at least 11 pixels high at the drawing's own size
(issue: readable by everyone): the SVGs each game draws (boards and tables along a seeded
game, every exercise's question and answer) are parsed and every ``font-size`` is scaled by
the ``width``/``viewBox`` of the pictures around it."""

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
    from pangaea_lab.pangaea import render as pr
    from pangaea_lab.harmonies import render as hr
    from pangaea_lab.forest_shuffle import render as fr
    out: dict[str, str] = {}
    p = played(pangaea.new_game(players=4, seed=3), 40)
    out["pangaea board"] = p.to_svg(highlight=[p.board.cells[0]])
    out["pangaea chains"] = pr.chains_svg(p, 0)
    w = played(pangaea.new_game(players=2, seed=347, wild_woods=True), 60)
    out["pangaea wild woods"] = w.to_svg()
    out["pangaea player board"] = pr.player_board_svg(w, 0)
    out["pangaea co-op"] = played(pangaea.new_game(players=1, seed=1, mode="coop",
                                                   wild_woods=True), 30).to_svg()
    h = played(harmonies.new_game(players=3, seed=5), 30)
    out["harmonies game"] = h.to_svg()
    out["harmonies board"] = str(hr.board_svg("A", {(2, 1): ["brown", "green"]},
                                             cubes={(2, 1): 1}, highlight=[(2, 1)]).render())
    out["harmonies stacks"] = hr.stacks_svg([["gray", "red"], ["brown", "brown", "green"]])
    f = played(forest_shuffle.new_game(players=3, seed=7), 40)
    out["forest shuffle game"] = f.to_svg()
    out["forest shuffle forest"] = fr.forest_svg(f.forests[0]) if hasattr(f, "forests") else ""
    i = played(inori.new_game(players=4, seed=2), 20)
    out["inori board"] = i.to_svg(highlight=[("slot", 0)])
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("name", ["pangaea board", "pangaea chains", "pangaea wild woods",
                                  "pangaea player board", "pangaea co-op", "harmonies game",
                                  "harmonies board", "harmonies stacks", "forest shuffle game",
                                  "inori board"])
def test_game_drawings_have_no_text_under_11px(name):
    svg = drawings()[name]
    assert text_sizes(svg), f"{name}: no text found"
    assert not too_small(svg), f"{name}: text too small:\n" + "\n".join(too_small(svg)[:10])


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
        small = too_small(svg)
        assert not small, f"{key} level {level} ({which}): text too small:\n" + \
            "\n".join(small[:10])


def test_the_check_sees_small_text():
    tiny = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="200" '
            'height="100"><text font-size="5">a</text><text font-size="6">b</text></svg>')
    assert too_small(tiny) == ["'a' at 10.0 px"]


def test_drawings_shrink_to_fit_a_narrow_window():
    svg = drawings()["inori board"]
    root = ET.fromstring(svg)
    assert "max-width: 100%" in root.get("style", "")
