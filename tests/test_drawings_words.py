"""What the drawings write is English a learner reads, not shorthand (issue: the app in a real
lesson, plain English): no "point(s)" for a number that is known, no "pts", no two-letter
weather codes with a count glued on ("Wi0 Su1") in the players' lines.  Every text and tooltip
of each game's drawings along a seeded game (tests/test_drawings_readable.py) is read."""

from __future__ import annotations

import re
from dataclasses import replace
import xml.etree.ElementTree as ET
from html import unescape

import pytest
from test_drawings_readable import GAME_DRAWINGS, drawings

from pangaea_lab import pangaea
from pangaea_lab.pangaea import render

#: shorthand a line of words must not hold, with what it is (a lone badge on a space, such as
#: a Storm's "Wi2", is a label explained by the drawing's legend line)
SHORTHAND = ((re.compile(r"\w\((?:s|es)\)"), "a plural written as (s)"),
             (re.compile(r"\bpts\b"), "'pts' for points"),
             (re.compile(r"\b[A-Z][a-z]\d+\b.* |\s.*\b[A-Z][a-z]\d+\b"), "a code such as Wi0"))


def words_of(svg: str) -> list[str]:
    """Every text and tooltip of a drawing."""
    return [unescape("".join(node.itertext())) for node in ET.fromstring(svg).iter()
            if node.tag.rsplit("}", 1)[-1] in ("text", "title")]


def shorthand_in(text: str) -> list[str]:
    return [f"{what}: {text!r}" for pattern, what in SHORTHAND if pattern.search(text)]


def test_the_check_finds_shorthand():
    assert shorthand_in("3 point(s) when empty") and shorthand_in("Red: 3 pts")
    assert shorthand_in("Wi0 Su1 Ra2") and not shorthand_in("Weather: Wind 0, Sun 1")
    assert not shorthand_in("Red: 3 points (step 3) on (2, -1)") and not shorthand_in("Wi2")


@pytest.mark.parametrize("name", GAME_DRAWINGS)
def test_drawings_speak_in_words(name):
    found = [p for text in words_of(drawings()[name]) for p in shorthand_in(text)]
    assert not found, f"{name}:\n" + "\n".join(found[:10])


def status_lines(state) -> list[str]:
    return [t for t in words_of(state.to_svg()) if "mountain step" in t or "in supply" in t
            or t.strip().startswith("Weather:")]


def test_pangaea_players_lines_in_words_and_number():
    s = pangaea.new_game(players=2, seed=3).arranged(points={0: 1, 1: 33})
    s = s.with_players([replace(s.players[0], seeds=1, trees=1), s.players[1]])
    lines = " ".join(" ".join(status_lines(s)).split())
    assert "Red: 1 point · mountain step 1" in lines and "1 Tree and 1 Seed in supply" in lines
    step, markers = s.mountain(1)
    assert markers == 1, "33 points on a 30-step mountain pass the summit once"
    assert f"Blue: 33 points · mountain step {step} + 1 Summit Marker" in lines
    assert lines.count("Weather: ") == 2
    assert "Weather: " + ", ".join(f"{b} {n}" for b, n in zip(s.edition.biomes,
                                                            s.players[0].weather)) in lines


@pytest.mark.parametrize("players,extra", [(1, {"mode": "coop"}), (2, {}), (4, {}),
                                           (4, {"wild_woods": True}),
                                           (3, {"mode": "coop", "wild_woods": True})])
def test_pangaea_status_lines_fit_the_picture(players, extra):
    """Each status line is at most as long as the picture leaves it (counting every character
    at the font's widest common advance)."""
    s = pangaea.new_game(players=players, seed=3, **extra)
    s = s.arranged(points={p: 123 for p in range(players)})
    svg = s.to_svg()
    width = float(ET.fromstring(svg).get("viewBox").split()[2])
    for text in status_lines(s):
        assert 30 + render.CHAR * len(text) <= width, (text, width)


def test_ritual_card_titles_and_forest_refusals_in_words():
    from pangaea_lab.core.errors import InvalidData
    from pangaea_lab.forest_shuffle.forest import Forest
    ed = pangaea.new_game(players=2, seed=1).edition
    titles = [c.title for c in ed.creature_cards]
    assert titles and not [t for t in titles if shorthand_in(t)]
    assert any(" 1 point, pay " in t for t in titles) or all(" points, pay " in t for t in titles)
    for bad, words in (({"trees": [], "cove": 1}, "unknown forest field: cove"),
                       ({"trees": [], "cove": 1, "x": 2}, "unknown forest fields: cove, x"),
                       ({"trees": [{"tree": "Oak", "middle": []}]},
                        "trees[0] has unknown field middle;")):
        with pytest.raises(InvalidData, match=re.escape(words)):
            Forest.from_dict(bad)
