"""The clickable spaces of every board a learner plays or answers on, with where each is
seen: the centre of the first shape drawn with its ``data-cell`` (the board widget's script
takes the same shape's box on the page)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache

SVG_NS = "{http://www.w3.org/2000/svg}"
#: the project's own exercise kinds start with their game's name
GAMES = ("pangaea", "harmonies", "forest_shuffle", "inori")


def _centre(node: ET.Element) -> tuple[float, float]:
    tag = node.tag.removeprefix(SVG_NS)
    if tag == "circle":
        return float(node.get("cx")), float(node.get("cy"))
    if tag == "rect":
        return (float(node.get("x")) + float(node.get("width")) / 2,
                float(node.get("y")) + float(node.get("height")) / 2)
    if tag == "polygon":
        points = [tuple(map(float, p.split(","))) for p in node.get("points").split()]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    raise ValueError(f"a clickable <{tag}> this check cannot place")


def space_centres(svg: str) -> dict[str, tuple[float, float]]:
    """``data-cell`` -> centre of its first shape, in the drawing's own units."""
    centres: dict[str, tuple[float, float]] = {}
    for node in ET.fromstring(svg).iter():
        cell = node.get("data-cell")
        if cell is not None and cell not in centres:
            centres[cell] = _centre(node)
    return centres


@lru_cache(maxsize=1)
def boards() -> dict[str, str]:
    """Every kind of clickable drawing: each game's board at every seat count and mode, and
    every exercise's question at every level."""
    from pangaea_lab import harmonies, inori, pangaea
    from pangaea_lab.exercises import generate, registry
    out: dict[str, str] = {}
    for players in (1, 2, 3, 4):
        if players > 1:
            out[f"pangaea, {players} players"] = pangaea.new_game(players=players,
                                                                  seed=3).to_svg()
        out[f"harmonies, {players} players"] = harmonies.new_game(players=players,
                                                                  seed=3).to_svg()
    for players in (2, 3, 4):
        out[f"inori, {players} players"] = inori.new_game(players=players, seed=3).to_svg()
    out["pangaea co-op with Wild Woods"] = pangaea.new_game(players=1, seed=3, mode="coop",
                                                            wild_woods=True).to_svg()
    for kind in registry():
        if kind.key.split(".")[0] not in GAMES:    # toy kinds other tests register
            continue
        for level in kind.levels:
            out[f"exercise {kind.key} level {level}"] = generate(kind.key, 1, level).svg()
    return {name: svg for name, svg in out.items() if svg and len(space_centres(svg)) > 1}
