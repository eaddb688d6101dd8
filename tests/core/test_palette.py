"""Colours everyone can tell apart (issue: readable by everyone).

Each game's meaningful colours are simulated as seen with protanopia, deuteranopia and
tritanopia, and every pair that must be told apart is checked to stay at least a set
CIEDE2000 difference apart; every highlight must stand out against every space it can sit on.
"""

from __future__ import annotations

import os

import pytest

from pangaea_lab.core import palette
from pangaea_lab.core.errors import InvalidData
from pangaea_lab.core.palette import (DEFICIENCIES, HIGHLIGHT_DARK, HIGHLIGHT_LIGHT,
                                      contrast_ratio, delta_e, delta_e_lab, simulate, too_close)

#: the least CIEDE2000 difference, for every vision, between colours a player must tell apart
PIECES = 20.0      # whose piece it is (players, seats): always with a letter too
TOKENS = 15.0      # token and spirit colours
TERRAIN = 10.0     # large fills (biomes, card types) that also carry a letter or a word


def _pangaea():
    from pangaea_lab.pangaea import render
    from pangaea_lab.pangaea.state import PLAYER_NAMES
    return render, PLAYER_NAMES


def _inori_colours() -> dict[str, str]:
    from pangaea_lab.inori.edition import load_edition
    ed = load_edition()
    return {c: ed.draw[c] for c in ed.colours}


def sets() -> dict[str, tuple[dict[str, str], float]]:
    from pangaea_lab.forest_shuffle.render import COLOURS as FS
    from pangaea_lab.harmonies.render import PALETTE
    from pangaea_lab.inori.board import NEUTRAL_COLOUR, SEAT_COLOURS
    render, names = _pangaea()
    terrain = dict(render.BIOME_COLOURS, water=render.WATER, mountain=render.MOUNTAIN)
    return {
        "pangaea players": (dict(zip(names, render.PLAYER_COLOURS)), PIECES),
        "pangaea biomes": (terrain, TERRAIN),
        "pangaea paths": ({f"path {k + 1}": c for k, c in enumerate(render.PATH_COLOURS)},
                          TOKENS),
        "harmonies tokens": (dict(PALETTE), TOKENS),
        "forest shuffle card types": ({k: v for k, v in FS.items() if k != "back"}, TERRAIN),
        "inori colours": (_inori_colours(), TOKENS),
        "inori seats": ({**{f"seat {k + 1}": c for k, c in enumerate(SEAT_COLOURS)},
                         "neutral": NEUTRAL_COLOUR}, PIECES),
    }


@pytest.mark.parametrize("name", list(sets()))
def test_meaningful_colours_stay_apart_for_every_vision(name):
    colours, least = sets()[name]
    assert len(colours) >= 3
    problems = too_close(colours, least)
    assert not problems, f"{name}:\n" + "\n".join(problems)


def test_the_old_red_and_orange_would_have_failed():
    # the pair the issue reported: red and orange pieces look alike to a deuteranope
    assert too_close({"Red": "#d62728", "Orange": "#f28c28"}, PIECES, ["deutan"])


def fills() -> dict[str, str]:
    """Every colour a highlight can be drawn on: spaces, tokens, cards, markers."""
    from pangaea_lab.forest_shuffle.render import COLOURS as FS
    from pangaea_lab.harmonies.render import EMPTY, PALETTE
    from pangaea_lab.inori.board import NEUTRAL_COLOUR, SEAT_COLOURS
    render, names = _pangaea()
    found = {f"pangaea {k}": v for k, v in render.BIOME_COLOURS.items()}
    found.update({"pangaea water": render.WATER, "pangaea mountain": render.MOUNTAIN})
    found.update({f"pangaea {n} piece": c for n, c in zip(names, render.PLAYER_COLOURS)})
    found.update({f"harmonies {k}": v for k, v in PALETTE.items()})
    found["harmonies empty space"] = EMPTY
    found.update({f"forest shuffle {k}": v for k, v in FS.items()})
    found.update({"forest shuffle table": "#f4f1e8", "inori card": "#ffffff",
                  "inori space": "#efe9dc", "inori tree space": "#f3ead8",
                  "inori neutral": NEUTRAL_COLOUR})
    found.update({f"inori seat {k + 1}": c for k, c in enumerate(SEAT_COLOURS)})
    found.update({f"inori {k}": v for k, v in _inori_colours().items()})
    return found


@pytest.mark.parametrize("vision", [None, *DEFICIENCIES])
def test_the_highlight_stands_out_on_every_fill(vision):
    """The highlight is a dark line with a bright line inside: one of the two contrasts at
    least 3:1 with every fill (the web's rule for shapes), for every vision."""
    def seen(c: str) -> str:
        return simulate(c, vision) if vision else c
    dark, light = seen(HIGHLIGHT_DARK), seen(HIGHLIGHT_LIGHT)
    assert contrast_ratio(dark, light) >= 7
    weak = [f"{name} ({fill}): {contrast_ratio(dark, seen(fill)):.2f} / "
            f"{contrast_ratio(light, seen(fill)):.2f}"
            for name, fill in fills().items()
            if max(contrast_ratio(dark, seen(fill)), contrast_ratio(light, seen(fill))) < 3]
    assert not weak, "the highlight is hard to see on:\n" + "\n".join(weak)


def test_every_renderer_uses_the_shared_highlight():
    from pangaea_lab.forest_shuffle import render as fs
    from pangaea_lab.harmonies import render as hm
    from pangaea_lab.inori import render as ino
    render, _ = _pangaea()
    assert {render.HIGHLIGHT, hm.HIGHLIGHT, fs.HIGHLIGHT, ino.HIGHLIGHT} == {HIGHLIGHT_LIGHT}


def test_gold_on_yellow_is_what_the_check_catches():
    # the old Dawn of Pangaea highlight on the old Sun biome: too little contrast
    assert contrast_ratio("#ffcc00", "#f6d77c") < 1.5


def test_ciede2000_matches_published_pairs():
    # reference pairs from Sharma, Wu & Dalal (2005), the CIEDE2000 test data
    assert delta_e_lab((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e_lab((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert delta_e_lab((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514)) == \
        pytest.approx(0.9082, abs=1e-4)
    assert delta_e("#336699", "#336699") == 0


def test_simulation_keeps_greys_and_confuses_red_with_green():
    for vision in DEFICIENCIES:
        for grey in ("#000000", "#777777", "#ffffff"):
            assert simulate(grey, vision) == grey
    # red and green, far apart for most readers, come close for protans and deutans
    assert delta_e("#d62728", "#2ca02c") > 50
    assert delta_e(simulate("#d62728", "deutan"), simulate("#2ca02c", "deutan")) < 20
    # blue and yellow stay apart for them, and come closer for tritans
    assert delta_e(simulate("#1f77b4", "tritan"), simulate("#2ca02c", "tritan")) < \
        delta_e("#1f77b4", "#2ca02c")


def test_ink_on_picks_the_readable_letter_colour():
    assert palette.ink_on("#ffff34") == "#111111"
    assert palette.ink_on("#342e77") == "#ffffff"


@pytest.mark.parametrize("bad", ["red", "#12", "#gggggg", None, 12])
def test_bad_colours_are_refused_naming_the_field(bad):
    with pytest.raises(InvalidData, match="colour"):
        palette.rgb(bad)


def test_unknown_deficiency_is_refused():
    with pytest.raises(InvalidData, match="deficiency"):
        simulate("#ffffff", "achromat")


def test_the_app_template_and_font_ship_with_the_package():
    from pangaea_lab.core import fonts
    static = fonts.TEMPLATE_DIR / "static"
    for name in fonts.FONT_FILES:
        assert (static / name).read_bytes()[:4] == b"wOFF"
    assert "DejaVu" in (static / "LICENSE-DejaVu.txt").read_text()
    css = (static / "pangaea-lab.css").read_text()
    assert all(name in css for name in fonts.FONT_FILES) and "http" not in css
    page = (fonts.TEMPLATE_DIR / "index.html.j2").read_text()
    assert "cdn.jsdelivr.net" in page and "replace(" in page     # the CDN links are removed
    assert fonts.jupyter_path().split(os.pathsep)[0] == str(fonts.SHARE)
