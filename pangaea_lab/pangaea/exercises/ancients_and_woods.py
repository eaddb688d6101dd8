"""Exercise generators for The Dawn of Pangaea, notebooks 05-08: the Ancient Guardians, Ritual
Chains and Favor Tokens, Return of the Ancients and Wild Woods (see the package docstring).

Every generator ``kind(seed, level)`` builds a position with the rules engine from a seeded
``random.Random``, asks one question, and takes the answer, and the reason a wrong answer is
wrong, from the engine: the legal placements of an Ancient, the spaces the Shadow may reach,
the state after a Spirit Growth, a Ritual or a Storm, the Seeds a lead needs, and so on.
Level 1 asks the rule on a small, quiet position; level 2 on a fuller one with distractors.
A wrong answer's reason names what is wrong in it (never the right answer); the hints go from
where to look to the rule applied to this position.

>>> from pangaea_lab import exercises
>>> ex = exercises.generate("pangaea.sowing_range", seed=4, level=2)
>>> ex.check(ex.answer).correct
True
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Callable, Iterable

from ...core import hexgrid
from ...core.errors import IllegalAction, InvalidSetup
from ...core.exercises import (Exercise, Option, cell_text, cells_verdict, choice_verdict,
                               choices_verdict, number_verdict, plural, register)
from ...core.svg import as_image
from ...core.validate import InvariantError
from .. import coop, render, woods, woods_render
from ..actions import MoveShadow, PlaceInChain, PlayLand, SpiritGrowth
from ..board import custom_board
from ..draft import Draft
from ..edition import ANCIENTS, BLESSING_KINDS, CreatureCard, LandCard
from ..rituals import NOBODY
from ..rules import chain_options, favor_types, placements
from ..state import PLAYER_NAMES, GameState, Pending
from ..variant import active
from ..game import GAME
from .common import TRIES, and_list, cells_words, first_fit, game, named, owned_piece

NB05 = "pangaea/05_ancients.ipynb"
NB06 = "pangaea/06_chains_and_favor.ipynb"
NB07 = "pangaea/07_return_of_the_ancients.ipynb"
NB08 = "pangaea/08_wild_woods.ipynb"
BIOMES = ("Sun", "Rain", "Snow", "Wind")

#: our labelled readings of the rules, said in words where a kind rests on one
OURS = "This reading of the rules is ours: "
READING_RANGE = (OURS + "a level-N Tree reaches Land Spaces up to N steps away, counting steps "
                 "between neighbouring spaces of any kind, land or water.")
READING_SHADOW = (OURS + "the Shadow moves to a space exactly two steps away, counting spaces; "
                  "if none is free there, it takes the nearest free distance.")
READING_SCOURGE = (OURS + "a Scourge Marker never goes on a space with a Spirit or an Ancient "
                   "Guardian; if none is free next to the Shadow's scourged area, it goes next "
                   "to any scourged area.")
READING_SEED_ON_SCOURGE = (OURS + "a Seed lying on a Scourge Marker stops the Shadow like any "
                           "Seed, so the Ancient Markers do not go down there.")
READING_WILD = (OURS + "a Wild Weather Blessing may pay one token of a Treetop's cost, standing "
                "for a type not otherwise used in that payment.")


# ----------------------------------------------------------------------------------------------
# small boards and drawings


def _board(rng: random.Random, cols: int = 6, rows: int = 4, water: float = 0.3,
           keep_land: Iterable = ()):
    """A small rectangular board of single-space tiles: random biomes, about ``water`` of the
    spaces water (never those in ``keep_land``)."""
    keep = set(keep_land)
    spaces = {}
    for r in range(rows):
        for c in range(cols):
            cell = (c - r // 2, r)
            wet = cell not in keep and rng.random() < water
            spaces[cell] = ("water" if wet else "land", rng.choice(BIOMES))
    return custom_board(spaces)


def _owners(rng: random.Random, n: int) -> list[int]:
    """Owners for ``n`` Seeds (at most 4), at most 2 each: each player has 2 in supply."""
    out = [0, 1, 0, 1][:n]
    rng.shuffle(out)
    return out


def _free_land(s: GameState) -> list:
    return [s.board.cells[i] for i in s.board.land
            if s.trees[i] == NOBODY and s.seeds[i] == NOBODY]


def _where(s: GameState, cell) -> int:
    return s.board.index[tuple(cell)]


def _name(p: int) -> str:
    return PLAYER_NAMES[p]


def _mark(x: float, y: float, text: str, ring: str = "#111111") -> str:
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="#ffffff" stroke="{ring}" '
            f'stroke-width="2"/><text x="{x:.1f}" y="{y:.1f}" font-size="9" '
            'text-anchor="middle" dominant-baseline="central" font-family="sans-serif" '
            f'font-weight="bold" fill="#111111">{text}</text>')


def _owner_letters(s: GameState) -> str:
    """Each Tree's and Seed's owner as a letter too (R, B, ...), not by colour alone."""
    out = []
    for i, cell in enumerate(s.board.cells):
        x, y = hexgrid.to_pixel(cell, render.SIZE)
        if s.trees[i] != NOBODY:
            out.append(f'<text x="{x - 12:.1f}" y="{y + 3:.1f}" font-size="8" text-anchor="middle" '
                       'font-family="sans-serif" font-weight="bold" fill="#111111">'
                       f'{_name(s.trees[i])[0]}</text>')
        if s.seeds[i] != NOBODY:
            stack = s.woods.seed_stacks[i] if (s.woods is not None) else ()
            label = (" ".join(f"{_name(p)[0]}{n}" for p, n in enumerate(stack) if n)
                     if sum(stack) > 1 else f"{_name(s.seeds[i])[0]} Seed")
            out.append(f'<text x="{x:.1f}" y="{y + 12:.1f}" font-size="8" text-anchor="middle" '
                       'font-family="sans-serif" font-weight="bold" fill="#111111">'
                       f'{label}</text>')
    return "".join(out)


def _draw(s: GameState, marked=(), fixed: dict | None = None, path=(), status: bool = False,
          numbered: bool = False) -> str:
    """The position with the learner's ``marked`` spaces outlined and ticked (numbered 1, 2...
    when ``numbered``), ``fixed`` letters on spaces the question names, and a ``path``."""
    marked = [tuple(c) for c in marked if isinstance(c, (tuple, list)) and len(c) == 2
              and tuple(c) in s.board.index]
    svg = render.board_svg(s, highlight=marked, paths=[path] if path else (), chain=False,
                           status=status)
    extra = [_owner_letters(s)]
    for cell, letter in (fixed or {}).items():
        x, y = hexgrid.to_pixel(cell, render.SIZE)
        extra.append(_mark(x - 11, y - 11, letter, ring="#7a1fa2"))
    for k, cell in enumerate(marked):
        x, y = hexgrid.to_pixel(cell, render.SIZE)
        extra.append(_mark(x + 11, y - 11, str(k + 1) if numbered else "✓"))
    return as_image(svg.replace("</svg>", '<g pointer-events="none">' + "".join(extra)
                                + "</g></svg>", 1))


def _size(svg: str) -> tuple[float, float]:
    w = re.search(r'width="([0-9.]+)"', svg)
    h = re.search(r'height="([0-9.]+)"', svg)
    return float(w.group(1)), float(h.group(1))


def _stack(*svgs: str) -> str:
    """Several drawings one below the other, as one picture."""
    sizes = [_size(x) for x in svgs]
    width = max(w for w, _ in sizes)
    height = sum(h for _, h in sizes) + 6 * (len(svgs) - 1)
    parts, y = [], 0.0
    for svg, (_, h) in zip(svgs, sizes):
        parts.append(f'<g transform="translate(0,{y:.1f})">{svg}</g>')
        y += h + 6
    return as_image(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
                    f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">'
                    + "".join(parts) + "</svg>")


def _retitle(svg: str, title: str) -> str:
    """A chains drawing with another heading (for a single card shown on its own)."""
    return as_image(re.sub(r"Red(&#x27;|&#39;|&apos;|')s Ritual Chains", title, svg, count=1))




def _cells_text(cells) -> str:
    """Spaces as the learner reads them: "(0, 1) and (2, 1)", or "no space"."""
    return cells_words(cells) or "no space"


def _make(key: str, seed: int, level: int,
          build: Callable[[random.Random, int, int], dict | None]) -> Exercise:
    """Build positions from one stream seeded by kind, seed and level until one fits the
    question; ``build`` returns the exercise's fields (or None to try again)."""
    fields = first_fit(random.Random(f"{key}/{seed}/{level}"),
                       lambda rng: build(rng, seed, level), f"{key} seed {seed} level {level}")
    return Exercise(kind=key, seed=seed, level=level, **fields)


def _near(s: GameState, cell) -> list:
    """The spaces touching ``cell``."""
    return [s.board.cells[j] for j in s.board.neighbours[_where(s, cell)]]


def _is_water(s: GameState, cell) -> bool:
    return s.board.terrain[_where(s, cell)] == "water"


def _what_on(s: GameState, cell) -> str:
    """What stands on a space, in words ("Blue's Tree", "Red's Seed", "nothing")."""
    return owned_piece(s, cell) or "nothing"


# ----------------------------------------------------------------------------------------------
# 05 — the Ancient Guardians


def _okuma_direct(rng: random.Random, seed: int, level: int) -> dict | None:
    small = level == 1
    s = game(_board(rng, cols=4 if small else 6, rows=3 if small else 4, water=0.3), seed)
    land = [s.board.cells[i] for i in s.board.land]
    if len(land) < (6 if small else 12):
        return None
    rng.shuffle(land)
    k = rng.randint(1, 2) if small else rng.randint(3, 5)
    n = 1 if small else rng.randint(2, 4)
    s = s.arranged(trees={c: rng.randrange(2) for c in land[:k]},
                   seeds=dict(zip(land[k:k + n], _owners(rng, n))))
    if not small or rng.random() < 0.6:
        s = s.arranged(ancients={"Okuma": land[k + n]})
    right = {act.cell for act in placements(s, "Okuma", 0)}
    if not 2 <= len(right) <= (5 if small else 9):
        return None
    here = s.ancients[0]
    taken = [c for c in land if _what_on(s, c) != "nothing"]

    def refuse(c) -> str:
        i = _where(s, c)
        if s.board.terrain[i] == "water":
            return "it is a Water Space, and Okuma goes on land."
        if s.trees[i] != NOBODY or s.seeds[i] != NOBODY:
            return f"it holds {_what_on(s, c)}, and Okuma needs an empty space."
        if i == here:
            return "Okuma stands there already: a summon moves him to another space."
        return "Okuma cannot go there."

    def name(c) -> str:
        i = _where(s, c)
        return ("water-space" if s.board.terrain[i] == "water" else
                "seed-counts-as-empty" if s.seeds[i] != NOBODY else
                "okuma-stays" if i == here else "occupied-space")

    where = (f"Okuma stands at {cell_text(s.board.cells[here])} now" if here != NOBODY
             else "Okuma is not on the board yet")
    return dict(
        answer_kind="cells", answer=right,
        question="Red summons Okuma the bear (the brown disc 'Ok', if he is on the board "
                 "already). Click every space where Okuma may go.",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, name),
            missed="Some spaces are missing: check every Land Space "
                   "with nothing on it, all over the board.",
            right_reason="Right: Okuma goes on any empty Land Space (no Tree, no Seed) "
                         "except the one he stands on."),
        draw=lambda m: _draw(s, m),
        hints=("Okuma goes on land, on a space with nothing on it.",
               f"{where}. The marked spaces, {_cells_text(taken)}, hold a Tree or a Seed: "
               "they are out, and so is every Water Space."),
        hint_marks=((), tuple(taken) + ((s.board.cells[here],) if here != NOBODY else ())),
        explanation="Okuma's direct effect: he goes on an empty Land Space and Red takes a "
                    "Weather Token of that space's biome. Spaces with a Tree or a Seed, Water "
                    "Spaces and his own space are not allowed.",
        context={"state": s})


@register("pangaea.okuma_direct", game=GAME.name, notebook=NB05,
          rule="Summoned Okuma goes on any empty Land Space other than the one he stands on",
          title="Where may Okuma go?",
          levels=("a small board with a few pieces", "a larger board, Okuma already on it"))
def okuma_direct(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.okuma_direct", seed, level, _okuma_direct)


def _okuma_passive(rng: random.Random, seed: int, level: int) -> dict | None:
    s = game(_board(rng, cols=5, rows=4, water=0.25 if level == 1 else 0.35), seed)
    land = [s.board.cells[i] for i in s.board.land]
    rng.shuffle(land)
    at = land[0]
    near = _near(s, at)
    near_land = [c for c in near if c in land]
    if len(near_land) < 3:
        return None
    rng.shuffle(near_land)
    trees = {c: rng.randrange(2) for c in near_land[:rng.randint(1, 2)]}
    seeds = {at: 0}
    if level == 2 and len(near_land) > 3:
        seeds[near_land[-1]] = 1
    if level == 2:   # a Tree two steps away, which does not block a one-step walk
        two = [c for c in land if c not in near and c != at and c not in seeds]
        trees[two[0]] = rng.randrange(2)
    s = s.arranged(trees=trees, seeds=seeds, ancients={"Okuma": at})
    far = [s.board.cells[i] for i in s.board.water
           if all(s.board.cells[j] not in near + [at] for j in s.board.neighbours[i])
           and _where(s, at) not in s.board.neighbours[i]]
    if not far:
        return None
    water = rng.choice(far)
    grown = s.apply(SpiritGrowth(water))
    if grown.trees[_where(s, at)] != 0 or grown.pending is None or grown.pending.kind != "okuma":
        return None
    right = {act.cell for act in grown.legal_actions()}
    if len(right) < 2:
        return None
    blockers = [c for c in near if grown.trees[_where(s, c)] != NOBODY]

    def refuse(c) -> str:
        i = _where(s, c)
        if c == at:
            return "it is Okuma's own space, where Red's new Tree now stands."
        if c not in near:
            return "it does not touch Okuma's space: he walks one step."
        if s.board.terrain[i] == "water":
            return "it is a Water Space, and Okuma walks on land."
        return f"it holds {_name(grown.trees[i])}'s Tree, and a Tree blocks Okuma."

    def name(c) -> str:
        return ("okuma-stays" if c == at else "more-than-one-step" if c not in near else
                "water-space" if _is_water(s, c) else "tree-does-not-block")

    return dict(
        answer_kind="cells", answer=right,
        question=f"Okuma stands on Red's Seed at {cell_text(at)} (marked O). Red performs Spirit "
                 f"Growth on the far Water Space {cell_text(water)} (marked W): Red's Seed under "
                 "Okuma grows too. Click every space where Okuma may move next.",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, name),
            missed=f"Some spaces are missing: look again at every Land "
                   f"Space touching {cell_text(at)}; a Seed there does not stop Okuma.",
            right_reason="Right: Okuma moves one step to a neighbouring Land Space with no "
                         "Tree (a Seed there is fine)."),
        draw=lambda m: _draw(s, m, fixed={at: "O", water: "W"}),
        hints=(f"Okuma walks one step: look only at the spaces touching {cell_text(at)}.",
               f"Around {cell_text(at)}, the Trees at {_cells_text(blockers)} block him (marked), "
               "and Water Spaces are not for him; Seeds do not block."),
        hint_marks=((at,), tuple(blockers)),
        explanation="The Seed under Okuma grows whenever anyone performs Spirit Growth. Then "
                    "the current player moves Okuma to a neighbouring Land Space without a "
                    "Tree.",
        context={"state": s, "after": grown})


@register("pangaea.okuma_passive", game=GAME.name, notebook=NB05,
          rule="When the Seed under Okuma grows, Okuma moves to a neighbouring Land Space "
               "without a Tree",
          title="Where does Okuma walk?",
          levels=("Okuma among a few Trees", "Okuma among Trees and Seeds, one Tree farther"))
def okuma_passive(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.okuma_passive", seed, level, _okuma_passive)


def _chelon_direct(rng: random.Random, seed: int, level: int) -> dict | None:
    s = game(_board(rng, cols=5, rows=4, water=0.35), seed)
    water = [s.board.cells[i] for i in s.board.water]
    if not water:
        return None
    w = rng.choice(water)
    land = [s.board.cells[i] for i in s.board.land]
    near = [c for c in land if c in _near(s, w)]
    far = [c for c in land if c not in near]
    if len(near) < 3 or len(far) < 3:
        return None
    rng.shuffle(near)
    rng.shuffle(far)
    k = rng.randint(1, 2) if level == 1 else 2
    f = 1 if level == 1 else 2
    seeds = dict(zip(near[:k] + far[:f], _owners(rng, k + f)))
    trees = {near[2]: rng.randrange(2), far[f]: rng.randrange(2)}
    s = s.arranged(trees=trees, seeds=seeds)
    right = {act.second for act in placements(s, "Chelon", 0) if act.cell == w and act.second}
    if not right:
        return None
    far_seeds = [c for c in far if s.seeds[_where(s, c)] != NOBODY]
    red = frozenset(c for c in right if s.seeds[_where(s, c)] == 0)

    def refuse(c) -> str:
        if s.seeds[_where(s, c)] == NOBODY:
            return f"it holds {_what_on(s, c)}, and Chelon grows a Seed."
        return f"that Seed does not touch Chelon's Water Space {cell_text(w)}."

    def whole(answer):
        if red and answer == red and red != right:
            return ("own-colour-only", "Chelon may grow a Seed of any colour, not only Red's: "
                    f"look again at every Seed touching {cell_text(w)}.")
        return None

    return dict(
        answer_kind="cells", answer=right,
        question=f"Red summons Chelon the turtle onto the Water Space {cell_text(w)} (marked C). "
                 "Chelon then makes one Seed grow. Click every Seed Chelon may choose.",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, lambda c: "not-a-seed" if s.seeds[_where(s, c)] == NOBODY
                         else "not-adjacent"),
            partial=whole,
            missed=f"Some Seeds are missing: check every space touching "
                   f"{cell_text(w)}.",
            right_reason="Right: any Seed next to Chelon's Water Space "
                         "may grow, whoever owns it."),
        draw=lambda m: _draw(s, m, fixed={w: "C"}),
        hints=(f"Look only at the spaces touching Chelon's Water Space {cell_text(w)}.",
               f"The Seeds at {_cells_text(far_seeds)} (marked) do not touch {cell_text(w)}; a "
               "Seed's colour does not matter, and a Tree is no Seed."),
        hint_marks=((w,), tuple(far_seeds)),
        explanation="Chelon's direct effect: she goes on any Water Space and one Seed next to "
                    "it, of any colour, grows into its owner's Tree.",
        context={"state": s})


@register("pangaea.chelon_direct", game=GAME.name, notebook=NB05,
          rule="Summoned Chelon goes on a Water Space and one Seed next to it grows",
          title="Which Seed can Chelon grow?",
          levels=("a few Seeds around one Water Space", "Seeds of both colours near and far"))
def chelon_direct(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.chelon_direct", seed, level, _chelon_direct)


def _ritual_row(rng: random.Random, seed: int, level: int):
    """A row of Land Spaces with a Land Ritual path of Red Trees along it, and the Land card
    that pays for it; (state, path, card, extra Red Trees) or None."""
    cols = 6 if level == 1 else 7
    spaces = {(q, 0): ("land", rng.choice(BIOMES)) for q in range(cols)}
    spaces.update({(q, 1): ("water", "Rain") for q in range(cols - 1)})
    spaces.update({(q, 2): ("land", rng.choice(BIOMES)) for q in range(-1, cols - 2)})
    s = game(custom_board(spaces), seed)
    a0 = rng.randrange(0, 2)
    b0 = rng.randrange(a0 + 2, cols)
    path = tuple((q, 0) for q in range(a0, b0 + 1))
    biomes = sorted([spaces[path[0]][1], spaces[path[-1]][1]])
    cards = [c.id for c in s.edition.land_cards if sorted(c.biomes) == biomes
             and c.id not in s.players[1].hand]
    if not cards:
        return None
    extra = {(q, 2): 0 for q in range(-1, cols - 2) if rng.random() < 0.3}
    off = [(q, 0) for q in range(cols) if (q, 0) not in path]
    if level == 2 and off:
        extra[rng.choice(off)] = 1          # a Blue Tree on the row, off the path
    s = s.arranged(trees={**{c: 0 for c in path}, **extra}, hands={0: [cards[0]]})
    return s, path, cards[0], [c for c, p in extra.items() if p == 0]


def _thorondal_protects(rng: random.Random, seed: int, level: int) -> dict | None:
    made = _ritual_row(rng, seed, level)
    if made is None:
        return None
    s, path, card, spare = made
    on_path = level == 1 or not spare or rng.random() < 0.6
    guard = rng.choice(path) if on_path else rng.choice(spare)
    s = s.arranged(ancients={"Thorondal": guard})
    try:
        done = s.apply(PlayLand(card, False, path))
    except IllegalAction:
        return None
    right = {c for c in path if done.trees[_where(s, c)] == NOBODY}

    def refuse(c) -> str:
        if c == guard:
            return "Thorondal stands on that Tree: it is protected."
        if s.trees[_where(s, c)] != 0:
            return f"it holds {_what_on(s, c)}, not a Red Tree."
        return "that Red Tree is not on the Ritual's path."

    def name(c) -> str:
        return ("forgot-thorondal" if c == guard else "not-red-tree"
                if s.trees[_where(s, c)] != 0 else "off-path")

    where = "on the path" if guard in path else "off the path"
    return dict(
        answer_kind="cells", answer=right,
        question=f"Red plays a Land Ritual along the drawn path from {cell_text(path[0])} to "
                 f"{cell_text(path[-1])}. Thorondal the eagle ('Th') stands on Red's Tree at "
                 f"{cell_text(guard)}. Click every Red Tree that goes back to Red's supply.",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, name),
            missed="Some Trees are missing: check every Red Tree on "
                   "the drawn path.",
            right_reason="Right: every Red Tree on the path goes back, "
                         "except the one under Thorondal."),
        draw=lambda m: _draw(s, m, path=path),
        hints=("Only Red Trees on the drawn path go back; then look for the eagle.",
               f"The path runs from {cell_text(path[0])} to {cell_text(path[-1])} "
               f"({plural(len(path), 'space')}); Thorondal at {cell_text(guard)} is {where}, and "
               "he keeps the Tree he stands on."),
        hint_marks=((guard,), (guard, path[0], path[-1])),
        explanation="After a Land Ritual your Trees on its path go back to your supply. "
                    "Thorondal's passive protects the Tree he stands on; Trees off the path stay.",
        context={"state": s, "after": done})


@register("pangaea.thorondal_protects", game=GAME.name, notebook=NB05,
          rule="A Land Ritual sends your Trees on its path back, except the Tree Thorondal "
               "stands on",
          title="Which Trees go back?",
          levels=("Thorondal on the Ritual's path", "Thorondal on or off the path, more Trees"))
def thorondal_protects(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.thorondal_protects", seed, level, _thorondal_protects)


def _thorondal_seed(rng: random.Random, seed: int, level: int) -> dict | None:
    s = game(_board(rng, cols=5, rows=4, water=0.25 if level == 1 else 0.35), seed)
    land = [s.board.cells[i] for i in s.board.land]
    rng.shuffle(land)
    tree = land[0]
    near = [c for c in land if c in _near(s, tree)]
    if len(near) < 3:
        return None
    rng.shuffle(near)
    trees = {tree: 1, near[0]: rng.randrange(2)}
    seeds = {near[1]: 1}
    if level == 2:
        others = [c for c in land if c not in near and c != tree]
        trees[others[0]] = 0
        seeds[others[1]] = 0
        if len(near) > 3 and rng.random() < 0.5:
            seeds[near[2]] = 0
    s = s.arranged(trees=trees, seeds=seeds)
    right = {act.second for act in placements(s, "Thorondal", 0) if act.cell == tree
             and act.second}
    if not right:
        return None
    taken = [c for c in _near(s, tree) if not _is_water(s, c) and _what_on(s, c) != "nothing"]

    def refuse(c) -> str:
        if c not in _near(s, tree):
            return f"it does not touch the Tree at {cell_text(tree)}, where Thorondal lands."
        if _is_water(s, c):
            return "it is a Water Space, and Seeds go on land."
        return f"it holds {_what_on(s, c)}: the Seed needs an empty space."

    def name(c) -> str:
        return ("not-adjacent" if c not in _near(s, tree) else "water-space"
                if _is_water(s, c) else "occupied-space")

    return dict(
        answer_kind="cells", answer=right,
        question=f"Red summons Thorondal the eagle onto Blue's Tree at {cell_text(tree)} (marked "
                 "T). Click every space where Red may then place its Seed.",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, name),
            missed=f"Some spaces are missing: check every space "
                   f"touching {cell_text(tree)}.",
            right_reason="Right: Red's Seed goes on an empty "
                         "Land Space next to the Tree Thorondal landed on."),
        draw=lambda m: _draw(s, m, fixed={tree: "T"}),
        hints=(f"The Seed goes next to Thorondal's Tree at {cell_text(tree)}, on land, where "
               "nothing stands yet.",
               f"Around {cell_text(tree)}, the marked spaces {_cells_text(taken)} are taken; "
               "water is out too."),
        hint_marks=((tree,), tuple(taken)),
        explanation="Thorondal's direct effect: he lands on any player's Tree and you place "
                    "one of your Seeds on an empty Land Space next to it.",
        context={"state": s})


@register("pangaea.thorondal_seed", game=GAME.name, notebook=NB05,
          rule="Summoned Thorondal lands on any player's Tree and you place a Seed next to it",
          title="Where does Thorondal's Seed go?",
          levels=("one Tree with a few neighbours", "a fuller board with pieces near and far"))
def thorondal_seed(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.thorondal_seed", seed, level, _thorondal_seed)



# ----------------------------------------------------------------------------------------------
# 06 — Ritual Chains, Favor Tokens, Ecosystems


def _cards(s: GameState, kind: type, rng: random.Random, winds: str | None = None) -> list[str]:
    pool = [c for c in s.land_deck + s.creature_deck
            if isinstance(s.card(c), kind) and (winds is None or s.card(c).winds == winds)]
    rng.shuffle(pool)
    return pool


def _card_words(s: GameState, c: str) -> str:
    """A card in words, never by its code: "a Land card of Sun and Snow"."""
    card = s.card(c)
    if isinstance(card, LandCard):
        first, second = card.biomes
        return f"a Land card of {first} only" if first == second else \
            f"a Land card of {first} and {second}"
    return f"a Creature card of {card.ancient}"


def _spot(s: GameState, c: str) -> str:
    """Where a played card of Red's lies: "card 2 of chain 1"."""
    for r, row in enumerate(s.players[0].chains):
        if c in row:
            return f"card {row.index(c) + 1} of chain {r + 1}"
    return "a card of Red's"


def _corners(winds: str) -> str:
    """A card's white winds in words."""
    return {"LR": "both top corners", "L": "its top left corner only",
            "R": "its top right corner only"}.get(winds, "neither top corner")


def _chain_words(s: GameState) -> str:
    """Each of Red's chains as the kinds of its cards, left to right."""
    return "; ".join(f"chain {r + 1} reads " + ", ".join(
        "Land" if isinstance(s.card(c), LandCard) else "Creature" for c in row)
        for r, row in enumerate(s.players[0].chains))


def _random_chains(s: GameState, rng: random.Random, rows: int, length: tuple[int, int]):
    """Chains of cards that follow the wind rule (each neighbour pair joined by white winds)."""
    lands = _cards(s, LandCard, rng)
    creatures = _cards(s, CreatureCard, rng)
    out = []
    for _ in range(rows):
        row = [lands.pop() if rng.random() < 0.5 else creatures.pop()]
        for _ in range(rng.randint(*length) - 1):
            pool = [c for c in lands[-6:] + creatures[-10:] if "L" in s.card(c).winds]
            if "R" not in s.card(row[-1]).winds or not pool:
                break
            c = rng.choice(pool)
            (lands if c in lands else creatures).remove(c)
            row.append(c)
        out.append(row)
    return out


def _with_card(s: GameState, card: str, title: str) -> str:
    """Red's chains with the card being played drawn below them."""
    alone = replace(s, players=(replace(s.players[0], chains=((card,),)),) + s.players[1:])
    return _stack(render.chains_svg(s, 0), _retitle(render.chains_svg(alone, 0), title))


def _end_options(rows) -> list[Option]:
    out = []
    for k in range(len(rows)):
        out += [Option(f"{k}:left", f"the left end of chain {k + 1}"),
                Option(f"{k}:right", f"the right end of chain {k + 1}")]
    return out


def _chain_place(rng: random.Random, seed: int, level: int) -> dict | None:
    s = game(seed=seed)
    rows = _random_chains(s, rng, 1 if level == 1 else rng.randint(2, 3),
                          (1, 2) if level == 1 else (1, 3))
    s = s.arranged(chains={0: rows})
    new = rng.choice(_cards(s, CreatureCard, rng) + _cards(s, LandCard, rng)[:3])
    fits = chain_options(s, s.players[0].chains, new)
    right = frozenset("new" if k < 0 else f"{k}:{side}" for k, side in fits)
    if right == {"new"} and rng.random() < 0.6:
        return None
    chains = s.players[0].chains
    winds = s.card(new).winds

    def why_not(key: str) -> str:
        if key == "new":
            return ("A card that fits a chain end joins that chain; it starts a new chain only "
                    "when it fits no end. Compare its corners with the chain ends again.")
        k, side = key.split(":")
        end = chains[int(k)][0 if side == "left" else -1]
        mine, outer = ("right", "left") if side == "left" else ("left", "right")
        if (mine[0].upper()) not in winds:
            return (f"At the {side} end of chain {int(k) + 1}, the new card's top {mine} corner "
                    "would touch the chain, and it shows no white wind.")
        return (f"At the {side} end of chain {int(k) + 1}, the end card ({_card_words(s, end)}) "
                f"shows no white wind on its top {outer} corner.")

    return dict(
        answer_kind="choices", answer=right,
        options=tuple(_end_options(chains)) + (Option("new", "a new chain of its own"),),
        question=f"Red plays {_card_words(s, new)} (drawn below the chains). Where may it go in "
                 "Red's Ritual Chains? Pick every place it may go. (White triangles on the top "
                 "corners are the white winds.)",
        checker=lambda given: choices_verdict(
            given, frozenset(right),
            why_not=named(why_not, lambda k: "new-chain-when-fits" if k == "new" else
                          "corner-mismatch"),
            missed="Some places are missing: check both ends of "
                   "every chain, and remember a card always goes somewhere.",
            right_reason="Right: a card joins a chain end where both touching top "
                         "corners show a white wind, and starts a new chain only when "
                         "it fits no end."),
        draw=lambda m, pic=_with_card(s, new, "The card Red plays now"): pic,
        hints=("Compare the new card's top corners with the outer top corner at each chain end: "
               "both touching corners need a white wind.",
               f"The new card, {_card_words(s, new)}, shows a white wind on {_corners(winds)}. "
               "Its top left corner would touch a chain's right end, its top right corner a "
               f"chain's left end; Red has {plural(len(chains), 'chain')}."),
        explanation="A card joins a chain end when the two touching top corners both show a "
                    "white wind; if it fits no end, it starts a new chain. Cards never move "
                    "once placed.",
        context={"state": s, "card": new, "right": right})


@register("pangaea.chain_place", game=GAME.name, notebook=NB06,
          rule="A played card joins a chain end where both touching top corners show a white "
               "wind; otherwise it starts a new chain",
          title="Where does the card go in the chains?",
          levels=("one short chain", "two or three chains"))
def chain_place(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.chain_place", seed, level, _chain_place)


def _favor_land(rng: random.Random, seed: int, level: int) -> dict | None:
    s = game(seed=seed)
    rows = _random_chains(s, rng, 1 if level == 1 else 2, (3, 4) if level == 1 else (3, 5))
    s = s.arranged(chains={0: rows})
    lands = [c for row in s.players[0].chains for c in row if isinstance(s.card(c), LandCard)]
    if not lands:
        return None
    land = rng.choice(lands)
    right = frozenset(favor_types(s, 0, land))
    if not right and rng.random() < 0.75:
        return None
    row = next(r for r in s.players[0].chains if land in r)
    k = row.index(land)
    beside = [row[j] for j in (k - 1, k + 1) if 0 <= j < len(row)]
    further = {s.card(c).ancient for c in row if isinstance(s.card(c), CreatureCard)}

    def why_not(ancient: str) -> str:
        where = ("is farther along the chain" if ancient in further else
                 "is not in this chain")
        return (f"No Creature card of {ancient} lies right beside this Land card (a Creature "
                f"card of {ancient} {where}); only the cards touching it count.")

    sides = ("the one card beside it (it ends its chain)" if len(beside) == 1 else
             f"cards {k} and {k + 2}, one on each side")
    return dict(
        answer_kind="choices", answer=right, options=tuple(Option(x, x) for x in ANCIENTS),
        question=f"Red's {_spot(s, land)} in the chains drawn is {_card_words(s, land)}. "
                 "Which Favor Token types could Red activate on it? Pick all that fit (none, "
                 "if none fit).",
        checker=lambda given: choices_verdict(
            given, frozenset(right),
            why_not=named(why_not, lambda x: "not-adjacent" if x in further else "not-in-chain"),
            missed="Some types are missing: look at both cards "
                   "right beside the Land card.",
            right_reason="Right: a Land card takes the type of each Creature card right "
                         "beside it in its chain."),
        draw=lambda m, pic=render.chains_svg(s, 0): pic,
        hints=("A Land card has no Ancient of its own: look at the cards right beside it in "
               "its chain.",
               f"It is {_spot(s, land)}: look at {sides} and nothing farther. A Land card beside "
               "it gives no type; a Creature card gives its own Ancient."),
        explanation="A Creature card takes Favor Tokens of its own Ancient. A Land card takes "
                    "the type of a Creature card right next to it in its chain.",
        context={"state": s, "card": land})


@register("pangaea.favor_land", game=GAME.name, notebook=NB06,
          rule="A Land card accepts the Favor Token type of a Creature card right next to it in "
               "its chain",
          title="Which Favor Tokens fit this Land card?",
          levels=("one chain of three or four cards", "two longer chains"))
def favor_land(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.favor_land", seed, level, _favor_land)


def _use_one(s: GameState, card: str, ancient: str) -> GameState:
    """``card`` of Red's already holds an ``ancient`` Favor Token (taken from the bag)."""
    ps = s.players[0]
    bag = list(s.favor_bag)
    bag.remove(ancient)
    return replace(s, favor_bag=tuple(bag), players=(replace(
        ps, activated=ps.activated + ((card, ancient),)),) + s.players[1:])


def _favor_cards(rng: random.Random, seed: int, level: int) -> dict | None:
    s = game(seed=seed)
    rows = _random_chains(s, rng, 1 if level == 1 else 2, (3, 4) if level == 1 else (2, 3))
    ancient = rng.choice(ANCIENTS)
    land = [s.board.cells[i] for i in s.board.land]
    s = s.arranged(chains={0: rows}, favors={0: {ancient: 1}}, trees={land[0]: 0, land[5]: 1})
    played = [c for row in s.players[0].chains for c in row]
    fitting = [c for c in played if ancient in favor_types(s, 0, c)]
    if not fitting:
        return None
    if level == 2 and len(fitting) > 1 and rng.random() < 0.7:
        s = _use_one(s, rng.choice(fitting), ancient)
    right = frozenset(act.card for act in s.legal_actions()
                      if type(act).__name__ == "ActivateFavor" and act.ancient == ancient)
    if not right:
        return None
    done = dict(s.players[0].activated)

    def why_not(c: str) -> str:
        if c in done:
            return ("That card already holds a Favor Token (the gold dot): each card takes "
                    "one per game.")
        if isinstance(s.card(c), LandCard):
            return (f"No Creature card of {ancient} lies right beside that Land card, so it "
                    f"takes no {ancient} token.")
        return f"That is a Creature card of {s.card(c).ancient}, and the token is {ancient}."

    def name(c: str) -> str:
        return ("used-card-twice" if c in done else "land-without-neighbour"
                if isinstance(s.card(c), LandCard) else "other-ancient")

    return dict(
        answer_kind="choices", answer=right,
        options=tuple(Option(c, f"{_spot(s, c)}: {_card_words(s, c)}") for c in played),
        question=f"Red holds one {ancient} Favor Token. On which of Red's played cards (drawn in "
                 "its chains) could Red activate it now? Pick all that fit.",
        checker=lambda given: choices_verdict(
            given, frozenset(right),
            why_not=named(why_not, name),
            missed=f"Some cards are missing: check each Creature "
                   f"card of {ancient}, and each Land card right beside one.",
            right_reason=f"Right: those cards can take the {ancient} token."),
        draw=lambda m, pic=render.chains_svg(s, 0): pic,
        hints=("A card takes a token of its own Ancient; a Land card borrows the Ancient of a "
               "Creature card right beside it; a card with a gold dot is used up.",
               f"The token is {ancient}: find the Creature cards of {ancient} among Red's "
               f"{plural(len(played), 'played card')}, then the Land cards touching them; "
               + (f"{plural(len(done), 'card')} already "
                  f"{'carries' if len(done) == 1 else 'carry'} a gold dot." if done else
                  "no card carries a gold dot yet.")),
        explanation="Activating a Favor Token summons its Ancient for free. It goes on a played "
                    "card of the same Ancient (a Land card borrows the type of a neighbouring "
                    "Creature card), and each card takes one token per game.",
        context={"state": s, "ancient": ancient})


@register("pangaea.favor_cards", game=GAME.name, notebook=NB06,
          rule="A Favor Token is activated on one of your played cards of the same Ancient, once "
               "per card per game",
          title="Which card takes this Favor Token?",
          levels=("one chain, no token used yet", "two chains, a card already used"))
def favor_cards(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.favor_cards", seed, level, _favor_cards)


def _closed(s: GameState, key: str) -> tuple[int, str | None]:
    """At a chain end: the Creature cards from that end inward, and the Land card that closes
    them (None when no Land card does)."""
    k, side = key.split(":")
    row = s.players[0].chains[int(k)]
    inward = row if side == "left" else row[::-1]
    creatures = 0
    for c in inward:
        if isinstance(s.card(c), LandCard):
            return creatures, c
        creatures += 1
    return creatures, None


def _ecosystem_ends(s: GameState, new: str):
    """The chain ends ``new`` can join and those where it creates an Ecosystem."""
    ps = s.players[0]
    waiting = replace(s, players=(replace(ps, hand=tuple(c for c in ps.hand if c != new),
                                          played=ps.played + (new,)),) + s.players[1:],
                      decisions=(Pending("chain", 0, card=new),))
    ends = [(k, side) for k, side in chain_options(waiting, ps.chains, new) if k >= 0]
    makes = set()
    for k, side in ends:
        after = waiting.apply(PlaceInChain(new, k, side))
        if sum(after.players[0].blessings) > sum(ps.blessings) or (
                after.pending is not None and after.pending.kind == "ecosystem"):
            makes.add(f"{k}:{side}")
    return waiting, ends, frozenset(makes)


def _ecosystem(rng: random.Random, seed: int, level: int) -> dict | None:
    s = game(seed=seed)
    rows = _random_chains(s, rng, rng.randint(1, 2) if level == 1 else rng.randint(2, 3),
                          (2, 3) if level == 1 else (2, 4))
    s = s.arranged(chains={0: rows})
    new = _cards(s, LandCard, rng, winds="LR")
    if not new:
        return None
    new = new[0]
    s = s.arranged(hands={0: [new]})
    waiting, ends, makes = _ecosystem_ends(s, new)
    if len(ends) < 2 or (not makes and rng.random() < 0.7):
        return None

    def why_not(key: str) -> str:
        k, side = key.split(":")
        creatures, _ = _closed(s, key)
        if creatures == 0:
            return (f"At the {side} end of chain {int(k) + 1}, it would touch a Land card "
                    "directly: no Creature card lies in between.")
        return (f"At the {side} end of chain {int(k) + 1}, no Land card closes the Creature "
                "cards on the other side.")

    return dict(
        answer_kind="choices", answer=makes,
        options=tuple(Option(f"{k}:{side}", f"at the {side} end of chain {k + 1}")
                      for k, side in ends),
        question=f"Red plays {_card_words(s, new)} (white winds on both top corners). At which "
                 "chain ends would it create an Ecosystem? Pick all that do (none, if none do).",
        checker=lambda given: choices_verdict(
            given, frozenset(makes),
            why_not=named(why_not, lambda key: "no-creature-between"
                          if _closed(s, key)[0] == 0 else "no-closing-land"),
            missed="Some ends are missing: from each end, walk "
                   "inward past the Creature cards and see whether a Land card "
                   "closes them.",
            right_reason="Right: there the new Land card closes Creature "
                         "cards between itself and another Land card."),
        draw=lambda m, pic=_with_card(s, new, "The Land card Red plays now"): pic,
        hints=("Green cards are Land cards, amber ones Creature cards. An Ecosystem is one or "
               "more Creature cards closed between two Land cards.",
               f"From left to right, {_chain_words(s)}. From each end, walk inward: at least "
               "one Creature card, then a Land card, makes an Ecosystem."),
        explanation="Placing a Land card so that one or more Creature cards lie between it "
                    "and another Land card of the same chain creates an Ecosystem: Red takes "
                    "a Blessing of its choice from the discard pile (or the top one of the "
                    "bag).",
        context={"state": waiting})


@register("pangaea.ecosystem", game=GAME.name, notebook=NB06,
          rule="A Land card that closes Creature cards between itself and another Land card "
               "creates an Ecosystem (a Blessing)",
          title="Does it create an Ecosystem?",
          levels=("one or two short chains", "two or three longer chains"))
def ecosystem(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.ecosystem", seed, level, _ecosystem)


# ----------------------------------------------------------------------------------------------
# 07 — Return of the Ancients


def _coop(rng: random.Random, seed: int, players: int = 1):
    """A small co-op position: a board, the Shadow on a Water Space and some Scourge."""
    for _ in range(TRIES):
        board = _board(rng, cols=6, rows=5, water=0.3)
        try:
            s = game(board, seed, players, mode="ancients")
        except InvalidSetup:
            continue
        return s
    raise InvalidSetup("no co-op board found")  # pragma: no cover


def _scourge(s: GameState, cells) -> GameState:
    """Scourge Markers from the supply onto empty spaces (for a lesson position)."""
    idx = sorted(set(s.coop.scourged) | {_where(s, c) for c in cells})
    used = len(idx) - len(s.coop.scourged)
    return replace(s, coop=replace(s.coop, scourged=tuple(idx),
                                   scourge_supply=s.coop.scourge_supply - used))


def _blockers(s: GameState) -> set[int]:
    return {i for i in s.spirits if i != NOBODY} | {i for i in s.ancients if i != NOBODY}


def _ring(s: GameState, centre: int, k: int) -> list:
    """The spaces exactly ``k`` steps from the space ``centre``."""
    return [s.board.cells[i] for i, d in coop.distances(s.board, centre).items() if d == k]


def _shadow_moves(rng: random.Random, seed: int, level: int) -> dict | None:
    s = _coop(rng, seed, players=level)
    two = _ring(s, s.coop.shadow, 2)
    if len(two) < 4:
        return None
    if level == 2:
        water2 = [c for c in two if _is_water(s, c)]
        land2 = [c for c in two if not _is_water(s, c)]
        if not water2 or not land2:
            return None
        s = s.arranged(spirits={1: rng.choice(water2)}, ancients={"Okuma": rng.choice(land2)})
        s = _scourge(s, [rng.choice([c for c in two if _where(s, c) not in _blockers(s)])])
    far = coop.distances(s.board, s.coop.shadow)
    right = {s.board.cells[i] for i in coop.shadow_targets(s)}
    if not all(far[_where(s, c)] == 2 for c in right):
        return None
    shadow = s.board.cells[s.coop.shadow]
    held = sorted(s.board.cells[i] for i in _blockers(s))

    def refuse(c) -> str:
        i = _where(s, c)
        if i in _blockers(s):
            return "it holds a Spirit or an Ancient, and the Shadow never moves onto one."
        if i == s.coop.shadow:
            return "the Shadow stands there now, and it must move."
        return f"it is {plural(far[i], 'step')} from the Shadow, which moves exactly two."

    def name(c) -> str:
        i = _where(s, c)
        return ("onto-spirit" if i in _blockers(s) else "shadow-stays" if i == s.coop.shadow
                else "one-step" if far[i] == 1 else "too-far")

    return dict(
        answer_kind="cells", answer=right,
        question="Shadow Phase: click every space where the Spirit of Shadows (the black disc "
                 f"with a crescent, at {cell_text(shadow)}) may move.",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, name),
            missed="Some spaces are missing: check the whole ring two "
                   "steps from the Shadow, over land and water alike.",
            right_reason="Right: exactly two steps away, over land or water, never onto a "
                         "Spirit or an Ancient."),
        draw=lambda m: _draw(s, m),
        hints=(f"Count steps from the Shadow at {cell_text(shadow)}, from a space to a touching "
               "one; it may cross water and Scourge.",
               f"The spaces touching {cell_text(shadow)} are marked: one step. The Shadow goes "
               "one ring further out" + (f", but not onto the pieces at {_cells_text(held)}."
                                         if held else ".")),
        hint_marks=((shadow,), tuple(_ring(s, s.coop.shadow, 1))),
        explanation="The player who just ended the turn moves the Shadow exactly two spaces "
                    "away, never onto a Spirit or an Ancient. " + READING_SHADOW,
        context={"state": s})


@register("pangaea.shadow_moves", game=GAME.name, notebook=NB07,
          rule="In the Shadow Phase the Spirit of Shadows moves exactly 2 spaces, never onto a "
               "Spirit or an Ancient",
          title="Where may the Shadow go?",
          levels=("the Shadow alone on the board", "a Spirit and an Ancient in its way"))
def shadow_moves(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.shadow_moves", seed, level, _shadow_moves)


EFFECTS = (Option("nothing", "Nothing: a Tree or a Seed stops it"),
           Option("scourge", "A Scourge Marker is placed there"),
           Option("down", "Every Ancient Marker on the mountain goes down a step"))
EFFECT_WRONG = {
    "nothing": "Only a Tree or a Seed on the space stops the Shadow. Look again at {x}.",
    "scourge": "A new Scourge Marker goes only on a space with no Tree, no Seed and no Scourge "
               "yet. Look again at everything on {x}: its pieces and its colour.",
    "down": "The Ancients go down only when the Shadow lands on an already scourged space "
            "where no Tree or Seed stops it. Look again at {x}."}
EFFECT_NAMES = {("down", "nothing"): "scourge-before-pieces",
                ("scourge", "nothing"): "pieces-do-not-stop",
                ("scourge", "down"): "rescourge-scourged",
                ("nothing", "scourge"): "empty-stops", ("nothing", "down"): "scourge-stops",
                ("down", "scourge"): "empty-is-scourged"}


def _shadow_pick(rng: random.Random, s: GameState, two: list, want: str, level: int):
    """A space two steps from the Shadow where landing does ``want`` (None if none)."""
    def empty(c):
        return _what_on(s, c) == "nothing"

    scourged = [c for c in two if _where(s, c) in s.coop.scourged]
    pools = {"nothing": [c for c in two if not empty(c)],
             "scourge": [c for c in two if empty(c) and c not in scourged],
             "down": [c for c in scourged if empty(c)]}
    if level == 2 and want == "nothing":   # a Seed on Scourge stops it as well
        pools["nothing"] += [c for c in scourged if not empty(c)]
    return rng.choice(pools[want]) if pools[want] else None


def _shadow_effect(rng: random.Random, seed: int, level: int) -> dict | None:
    s = _coop(rng, seed, players=1)
    two = _ring(s, s.coop.shadow, 2)
    land2 = [c for c in two if not _is_water(s, c) and s.trees[_where(s, c)] == NOBODY]
    if len(land2) < (3 if level == 1 else 5):
        return None
    rng.shuffle(land2)
    s = s.arranged(seeds={land2[0]: 0}, trees={land2[1]: 0})
    s = _scourge(s, [land2[2]] + (land2[3:5] if level == 2 else []))
    if level == 2:
        s = s.arranged(seeds={land2[3]: 0})
    want = rng.choice([o.key for o in EFFECTS])
    pick = _shadow_pick(rng, s, two, want, level)
    bag = list(s.coop.shadow_bag)
    if pick is None or "Dream" not in bag:
        return None
    bag.remove("Dream")      # the marker drawn after the move changes nothing here
    waiting = replace(s, coop=replace(s.coop, shadow_bag=("Dream",) + tuple(bag)),
                      decisions=(Pending("shadow", 0),), actions_taken=2)
    after = waiting.apply(MoveShadow(pick))
    i = _where(s, pick)
    got = ("scourge" if i in after.coop.scourged and i not in s.coop.scourged else
           "down" if sum(after.coop.ancient_steps) < sum(s.coop.ancient_steps) else "nothing")
    x = cell_text(pick)
    kind = "Water Space" if _is_water(s, pick) else f"{s.board.biome[i]} Land Space"
    return dict(
        answer_kind="choice", answer=got, options=EFFECTS,
        question=f"The Spirit of Shadows moves to {x} (marked X). What happens there, before "
                 "the Shadow Marker is drawn? (Dark hexes are Scourge.)",
        checker=lambda answer: choice_verdict(
            answer, got, why_not=lambda k: EFFECT_WRONG[k].format(x=x),
            names={k: EFFECT_NAMES.get((k, got), "") for k in EFFECT_WRONG},
            right_reason="Right: a Tree or a Seed stops the Shadow first; otherwise an empty "
                         "space is scourged and a scourged one pulls the Ancients down."),
        draw=lambda m: _draw(s, m, fixed={pick: "X"}),
        hints=("Look at what lies on the space: a Tree or a Seed, nothing, or a Scourge "
               "Marker (a dark hex).",
               f"{x} is a {kind}. Ask in order: does a Tree or a Seed stand on it (that stops "
               "the Shadow before anything else)? Only if not: is its hex dark?"),
        hint_marks=((pick,), (pick,)),
        explanation="A Tree or a Seed stops the Shadow; an empty space gets a Scourge Marker "
                    "from the shared supply; an already scourged space pulls every Ancient "
                    "Marker still on the mountain down one step."
                    + (" " + READING_SEED_ON_SCOURGE if level == 2 else ""),
        context={"state": waiting, "after": after})


@register("pangaea.shadow_effect", game=GAME.name, notebook=NB07,
          rule="Where the Shadow lands: a Tree or Seed stops it, an empty space is scourged, a "
               "scourged space pulls the Ancients down",
          title="What does the Shadow do there?",
          levels=("one piece, one Scourge nearby", "Seeds on Scourge and more Scourge around"))
def shadow_effect(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.shadow_effect", seed, level, _shadow_effect)


def _region(s: GameState) -> set[int]:
    """The Shadow's space and the Scourge joined to it."""
    region, frontier = {s.coop.shadow}, [s.coop.shadow]
    while frontier:
        i = frontier.pop()
        for j in s.board.neighbours[i]:
            if j in s.coop.scourged and j not in region:
                region.add(j)
                frontier.append(j)
    return region


def _spread_position(rng: random.Random, seed: int, level: int):
    s = _coop(rng, seed, players=level)
    near = [j for j in s.board.neighbours[s.coop.shadow] if j not in s.coop.scourged]
    if len(near) < 3:
        return None
    rng.shuffle(near)
    grown = [near[0]]
    if level == 2:   # the area reaches one step further
        out = [j for j in s.board.neighbours[near[0]] if j not in s.coop.scourged
               and j != s.coop.shadow and j not in near]
        grown += out[:1]
    s = _scourge(s, [s.board.cells[j] for j in grown])
    far = coop.distances(s.board, s.coop.shadow)
    others = [i for i in range(len(s.board)) if i not in s.coop.scourged and far[i] >= 4]
    if not others:
        return None
    s = _scourge(s, [s.board.cells[rng.choice(others)]])
    if level == 2:
        ring = [s.board.cells[j] for j in near[1:]]
        water = [c for c in ring if _is_water(s, c)]
        land = [c for c in ring if not _is_water(s, c)]
        if water:
            s = s.arranged(spirits={0: water[0]})
        if land and rng.random() < 0.5:
            s = s.arranged(ancients={"Chelon" if _is_water(s, land[0]) else "Okuma": land[0]})
    return s


def _scourge_spread(rng: random.Random, seed: int, level: int) -> dict | None:
    s = _spread_position(rng, seed, level)
    if s is None:
        return None
    right = {s.board.cells[i] for i in coop.scourge_targets(s, "shadow")}
    region = _region(s)
    touching = {j for i in region for j in s.board.neighbours[i]}
    if not 2 <= len(right) <= 9 or any(_where(s, c) not in touching for c in right):
        return None
    alone = [i for i in s.coop.scourged if i not in region]

    def refuse(c) -> str:
        i = _where(s, c)
        if i in s.coop.scourged:
            return "it is scourged already."
        if i in _blockers(s):
            return "a Spirit or an Ancient stands there, and a Scourge never goes there."
        if any(j in alone for j in s.board.neighbours[i]):
            return "it touches a Scourge that is not joined to the Shadow's area."
        return "it does not touch the scourged area around the Shadow."

    def name(c) -> str:
        i = _where(s, c)
        return ("already-scourged" if i in s.coop.scourged else "onto-spirit"
                if i in _blockers(s) else "far-scourge-area"
                if any(j in alone for j in s.board.neighbours[i]) else "not-touching")

    area = sorted(s.board.cells[i] for i in region)
    shadow = s.board.cells[s.coop.shadow]
    return dict(
        answer_kind="cells", answer=right,
        question="A Dance marker makes the Scourge spread. Click every space where one "
                 "spreading Scourge Marker may go. (Dark hexes are Scourge; the black disc "
                 f"with a crescent, at {cell_text(shadow)}, is the Shadow.)",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, name),
            missed="Some spaces are missing: go all around the "
                   "scourged area joined to the Shadow.",
            right_reason="Right: next to the "
                         "scourged area joined to the Shadow, and never onto a Spirit or "
                         "an Ancient."),
        draw=lambda m: _draw(s, m),
        hints=(f"Start at the Shadow at {cell_text(shadow)} and follow the dark hexes joined to "
               "it; a Scourge far away does not count.",
               f"The Shadow's scourged area is marked: {_cells_text(area)}. The spaces around "
               "it are the candidates; drop those with a Spirit or an Ancient on them."),
        hint_marks=((shadow,), tuple(area)),
        explanation="A spreading Scourge goes on a space next to the scourged area around the "
                    "Shadow (its own space and the Scourge joined to it). " + READING_SCOURGE,
        context={"state": s})


@register("pangaea.scourge_spread", game=GAME.name, notebook=NB07,
          rule="A spreading Scourge goes next to the scourged area around the Shadow, never onto "
               "a Spirit or an Ancient",
          title="Where may the Scourge spread?",
          levels=("a small scourged area and one far Scourge",
                  "a larger area with a Spirit or an Ancient beside it"))
def scourge_spread(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.scourge_spread", seed, level, _scourge_spread)


def _moon_stack(s: GameState, stack: list) -> GameState | None:
    """The current Moon Board stack set to ``stack`` with a Dance on top of the bag, the
    markers taken from the bag, the box or the Moon Board (None when they are not there)."""
    bag, shadow_box = list(s.coop.shadow_bag), list(s.coop.shadow_box)
    moon = [list(c) for c in s.coop.moon_board]
    for marker in stack + ["Dance"]:
        for source in [bag, shadow_box] + moon:
            if marker in source:
                source.remove(marker)
                break
        else:
            return None
    s = replace(s, coop=replace(s.coop, moon_stacks=(tuple(stack),),
                                shadow_bag=("Dance",) + tuple(bag),
                                shadow_box=tuple(shadow_box),
                                moon_board=tuple(tuple(c) for c in moon),
                                ancient_steps=(24, 25, 26)),
                decisions=(Pending("shadow", 0),), actions_taken=2)
    try:
        s.check_invariants()
    except InvariantError:
        return None
    return s


def _dance_descent(rng: random.Random, seed: int, level: int) -> dict | None:
    s = _coop(rng, seed, players=1)
    trees = [c for c in _ring(s, s.coop.shadow, 2) if not _is_water(s, c)]
    if not trees:
        return None
    target = rng.choice(trees)
    s = s.arranged(trees={target: 0})
    size = rng.randint(1, 2) if level == 1 else rng.randint(2, 4)
    black = rng.randint(0, min(size, 3))
    stack = ["Devour"] * black + ["Dream"] * (size - black)
    rng.shuffle(stack)
    s = _moon_stack(s, stack)
    if s is None:
        return None
    after = s.apply(MoveShadow(target))
    fall = s.coop.ancient_steps[0] - after.coop.ancient_steps[0]
    words = ", ".join(stack)
    known = {1: ("one-step-only", "A Dance does not lower the Ancients by one step alone: "
                 "they fall one step for each black marker in the stack."),
             size + 1: ("counted-dream", "You counted every marker, white ones too; only the "
                        "black markers (Devour and Dance) pull the Ancients down."),
             black: ("forgot-dance", "You counted the black markers already in the stack, "
                     "but the Dance joins the stack before the Ancients fall.")}
    known.pop(fall, None)
    return dict(
        answer_kind="number", answer=fall,
        question=f"The current stack on the Moon Board holds {words}. The Shadow moves onto the "
                 f"Tree at {cell_text(target)} (marked X), which stops it, and the marker drawn "
                 "is a Dance. How many steps does each Ancient Marker go down?",
        checker=lambda answer: number_verdict(
            answer, fall, what="the number of steps each Ancient falls",
            rule="Count the black markers (Devour and Dance) in the stack once the Dance has "
                 "joined it: each is one step down.", misconceptions=known),
        draw=lambda m: _draw(s, m, fixed={target: "X"}, status=True),
        hints=("Dream markers are white; Devour and Dance markers are black.",
               f"Once the Dance joins it, the stack reads {words}, Dance. Cross out the white "
               "Dream markers: each black marker left is one step down for every Ancient."),
        hint_marks=((target,), ()),
        explanation="A Dance joins the current stack, spreads Scourge, and then every Ancient "
                    "Marker still on the mountain goes down one step per black marker (Devour "
                    "or Dance) in that stack.",
        context={"state": s, "after": after})


@register("pangaea.dance_descent", game=GAME.name, notebook=NB07,
          rule="A Dance marker lowers every Ancient Marker by the black markers in the current "
               "Moon Board stack",
          title="How far do the Ancients fall?",
          levels=("a stack of one or two markers", "a stack of two to four markers"))
def dance_descent(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.dance_descent", seed, level, _dance_descent)


def _pair(s: GameState, cells) -> GameState | None:
    """A second Seed of the same owner on each of ``cells`` (lying on Scourge)."""
    extra = [_where(s, c) for c in cells]
    players = list(s.players)
    for i in extra:
        p = s.seeds[i]
        if players[p].seeds == 0:
            return None
        players[p] = replace(players[p], seeds=players[p].seeds - 1)
    s = replace(s, coop=replace(s.coop, paired=tuple(sorted(extra))), players=tuple(players))
    try:
        s.check_invariants()
    except InvariantError:
        return None
    return s


def _growth_position(rng: random.Random, seed: int, level: int):
    s = _coop(rng, seed, players=2)
    water = [i for i in s.board.water if i != s.coop.shadow and i not in s.coop.scourged]
    rng.shuffle(water)
    for w in water:
        near = [j for j in s.board.neighbours[w] if s.board.terrain[j] == "land"
                and s.trees[j] == NOBODY and j != s.coop.shadow and j not in s.coop.scourged]
        if len(near) >= 3:
            break
    else:
        return None
    rng.shuffle(near)
    cells = [s.board.cells[j] for j in near[:3 + (level == 2 and len(near) > 3)]]
    s = s.arranged(seeds=dict(zip(cells, _owners(rng, len(cells)))))
    scourged = [c for c in cells if rng.random() < 0.6]
    if not scourged or len(scourged) == len(cells):
        return None
    s = _scourge(s, scourged)
    if level == 2:
        paired = [c for c in scourged if rng.random() < 0.6]
        s = _pair(s, paired) if paired else s
    return None if s is None else (s, w, cells)


def _scourged_growth(rng: random.Random, seed: int, level: int) -> dict | None:
    made = _growth_position(rng, seed, level)
    if made is None:
        return None
    s, w, cells = made
    w_cell = s.board.cells[w]
    after = s.apply(SpiritGrowth(w_cell))
    right = {c for c in cells if after.trees[_where(s, c)] != NOBODY}
    dark = [c for c in cells if _where(s, c) in s.coop.scourged]
    paired = frozenset(s.board.cells[i] for i in s.coop.paired)

    def refuse(c) -> str:
        i = _where(s, c)
        if s.seeds[i] == NOBODY:
            return f"it holds {_what_on(s, c)}, and only Seeds grow."
        if i not in s.board.neighbours[w]:
            return f"it does not touch {cell_text(w_cell)}, where the Spirit grows."
        return "a single Seed on scourged land does not grow."

    def whole(answer):
        if paired & right and answer == right - paired:
            return ("pair-does-not-grow", "You left out Seeds on scourged land that are not "
                    "alone: look for the '×2' marks.")
        return None

    return dict(
        answer_kind="cells", answer=right,
        question=f"Red performs Spirit Growth on {cell_text(w_cell)} (marked W). Click every space "
                 "where a Tree grows. (Dark hexes are Scourge; '×2' means two Seeds lie there.)",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, lambda c: "not-a-seed" if s.seeds[_where(s, c)] == NOBODY
                         else "single-seed-on-scourge"),
            partial=whole,
            missed=f"Some spaces are missing: check every Seed touching "
                   f"{cell_text(w_cell)}, on healthy and on scourged land.",
            right_reason="Right: Seeds on healthy land grow; on scourged land only two "
                         "Seeds grow, and the Scourge is healed."),
        draw=lambda m: _draw(s, m, fixed={w_cell: "W"}),
        hints=(f"Every Seed touching {cell_text(w_cell)} grows, unless it lies alone on a dark "
               "(scourged) hex.",
               f"The Seeds on Scourge next to {cell_text(w_cell)} are marked: "
               f"{_cells_text(dark)}. A single Seed there stays; two Seeds ('×2') grow."),
        hint_marks=((w_cell,), tuple(dark)),
        explanation="Healing Scourge: a single Seed on a scourged Land Space does not grow. "
                    "Two Seeds of the same player (or a Vigorous Seed) grow a Tree there; both "
                    "Seeds return and the Scourge Marker goes back to the supply.",
        context={"state": s, "after": after})


@register("pangaea.scourged_growth", game=GAME.name, notebook=NB07,
          rule="A single Seed on scourged land does not grow; two Seeds there grow and heal it",
          title="Which Seeds grow on scourged land?",
          levels=("single Seeds on healthy and scourged land",
                  "pairs of Seeds on Scourge among single ones"))
def scourged_growth(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.scourged_growth", seed, level, _scourged_growth)


# ----------------------------------------------------------------------------------------------
# 08 — Wild Woods


def _woods(rng: random.Random, seed: int, cols: int = 7, rows: int = 5, water: float = 0.3,
           keep_land=(), players: int = 2) -> GameState:
    board = _board(rng, cols=cols, rows=rows, water=water, keep_land=keep_land)
    return game(board, seed, players=players, wild_woods=True, storms=False)


def _land_steps(s: GameState, start: int) -> dict[int, int]:
    """Steps from ``start`` over Land Spaces only (the reading a learner may wrongly use)."""
    far, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for i in frontier:
            for j in s.board.neighbours[i]:
                if j not in far and s.board.terrain[j] == "land":
                    far[j] = far[i] + 1
                    nxt.append(j)
        frontier = nxt
    return far


def _sow_position(rng: random.Random, seed: int, level: int):
    r = rng.randint(1, 3)
    centre = (rng.randint(1, 5) - r // 2, r)
    s = _woods(rng, seed, keep_land=[centre])
    lvl = rng.choice([1, 2, 2]) if level == 1 else rng.choice([2, 3, 3])
    s = s.arranged(trees={centre: 0}, treetops={centre: lvl - 1})
    land = [c for c in _free_land(s) if c != centre]
    rng.shuffle(land)
    if level == 1:
        blue = {land[1]: {1: rng.randint(1, 2)}}
        trees = {land[0]: 1}
    else:
        blue = rng.choice([{land[1]: {1: 2}}, {land[1]: {1: 1}, land[2]: {1: 1}}])
        blue[land[3]] = {0: 1}
        trees = {land[0]: 1, land[4]: 1}
    return s.arranged(trees=trees, seeds=blue), centre, lvl


def _sowing_range(rng: random.Random, seed: int, level: int) -> dict | None:
    try:
        s, centre, lvl = _sow_position(rng, seed, level)
    except InvalidSetup:
        return None
    seeds = s.players[0].seeds
    right = {s.board.cells[i] for i, _ in woods.sow_options(s, 0, seeds)}
    if not 2 <= len(right) <= (8 if level == 1 else 16):
        return None
    c0 = _where(s, centre)
    dist = coop.distances(s.board, c0)
    by_land = _land_steps(s, c0)
    wet = frozenset(c for c in right if by_land.get(_where(s, c), 99) > lvl)

    def refuse(c) -> str:
        i = _where(s, c)
        if s.board.terrain[i] == "water":
            return "it is a Water Space, and Seeds go on land."
        if s.trees[i] != NOBODY:
            return f"{_what_on(s, c)} stands there, and a Tree blocks sowing."
        if dist[i] > lvl:
            return (f"it is {plural(dist[i], 'step')} from Red's level-{lvl} Tree, which reaches "
                    f"{plural(lvl, 'step')}.")
        return (f"it holds {plural(s.woods.seed_stacks[i][1], 'Blue Seed')}: Red must end with "
                f"more Seeds there than Blue, and has {plural(seeds, 'Seed')}.")

    def name(c) -> str:
        i = _where(s, c)
        return ("water-space" if s.board.terrain[i] == "water" else "tree-blocks"
                if s.trees[i] != NOBODY else "range-off-by-one" if dist[i] == lvl + 1 else
                "out-of-range" if dist[i] > lvl else "cannot-lead")

    def whole(answer):
        if wet and answer == right - wet:
            return ("no-steps-over-water", "Some spaces are missing: steps count over water "
                    "too, so the Tree reaches across it.")
        return None

    blockers = [s.board.cells[i] for i, d in dist.items() if 1 <= d <= lvl
                and (s.board.terrain[i] == "water" or s.trees[i] != NOBODY)]
    return dict(
        answer_kind="cells", answer=right,
        question=f"Red's Tree at {cell_text(centre)} is level {lvl} and Red has "
                 f"{plural(seeds, 'Seed')} in supply. Click every space where Red's Expand "
                 "Forest may sow. (A Seed row like 'B2' means two Blue Seeds.)",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, name),
            partial=whole,
            missed=f"Some spaces are missing: count up to "
                   f"{plural(lvl, 'step')} from the Tree, over water as well as land, "
                   "and check each Land Space without a Tree.",
            right_reason="Right: Land Spaces within the Tree's reach, across water too, "
                         "with no Tree, where Red's Seeds can hold the lead."),
        draw=lambda m: _draw(s, m),
        hints=(f"Count up to {plural(lvl, 'step')} from Red's Tree at {cell_text(centre)}, over "
               "land or water.",
               "Within reach, the marked spaces hold water or a Tree: they are out. On Blue's "
               f"Seeds Red must end with more Seeds than Blue, and Red has "
               f"{plural(seeds, 'Seed')}."),
        hint_marks=((centre,), tuple(blockers)),
        explanation="A level-1 Tree sows next to itself, level 2 up to 2 spaces away, level 3 "
                    "up to 3. On another colour's Seeds Red must end with more Seeds than "
                    "anyone. " + READING_RANGE,
        context={"state": s})


@register("pangaea.sowing_range", game=GAME.name, notebook=NB08,
          rule="Wild Woods Expand Forest: a level-N Tree sows on Land Spaces up to N steps away, "
               "across water, never on a Tree, winning any Seeds already there",
          title="Where can this Tree sow?",
          levels=("a level-1 or level-2 Tree, one Blue Seed stack",
                  "a taller Tree among Trees and Seed stacks"))
def sowing_range(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.sowing_range", seed, level, _sowing_range)


def _stack_words(stack) -> str:
    """The Seeds on a space in words: "2 Blue Seeds and 1 Red Seed"."""
    parts = [plural(n, f"{_name(p)} Seed") for p, n in sorted(
        enumerate(stack), key=lambda pn: (pn[0] == 0, pn[0])) if n]
    return " and ".join(parts)


def _needed_stack(rng: random.Random, level: int) -> dict[int, int]:
    """Seeds per player on one space (no tie, at most 2 each) needing 1 to 3 Seeds from Red."""
    players = 2 if level == 1 else 3
    target = rng.randint(1, 3)
    found = []
    for red in range(0, 3):
        for blue in range(0, 3):
            for orange in range(0, 3 if players == 3 else 1):
                counts = [n for n in (red, blue, orange) if n]
                if blue + orange == 0 or len(counts) != len(set(counts)):
                    continue
                if max(1, max(blue, orange) - red + 1) == target:
                    found.append({0: red, 1: blue, 2: orange})
    stack = rng.choice(found)
    return {p: n for p, n in stack.items() if n}


def _seeds_needed(rng: random.Random, seed: int, level: int) -> dict | None:
    s = _woods(rng, seed, cols=5, rows=3, players=2 if level == 1 else 3)
    cell = rng.choice(_free_land(s))
    try:
        s = s.arranged(seeds={cell: _needed_stack(rng, level)})
    except InvalidSetup:
        return None
    stack = s.woods.seed_stacks[_where(s, cell)]
    need = woods.needed(stack, 0)
    red = stack[0]
    top = max(n for p, n in enumerate(stack) if p != 0)
    leader = " and ".join(_name(p) for p, n in enumerate(stack) if p and n == top)
    known = {}
    for given in range(0, need + 4):
        if given <= 0:
            known[given] = ("none-added", "Red must add at least one Seed to add any.")
        elif red + given == top:
            known[given] = ("tie-is-a-lead", f"With that many, Red would hold as many Seeds there "
                            f"as {leader}: a tie, and two colours may never tie on a space.")
        elif red + given < top:
            known[given] = ("short-of-lead", f"With that many, Red would still hold fewer Seeds "
                            f"there than {leader}.")
        elif red and given in (top, top + 1) and given > need:
            known[given] = ("ignored-own-seeds", "Red's own Seeds already on the space count "
                            "too: add them to the Seeds Red brings.")
        elif given > need:
            known[given] = ("more-than-needed", "That many would give Red the lead, but the "
                            "question asks for the fewest Seeds that still do.")
    return dict(
        answer_kind="number", answer=need,
        question=f"On {cell_text(cell)} (marked X) lie {_stack_words(stack)}. What is the fewest "
                 "Seeds Red would have to add there at once?",
        checker=lambda answer: number_verdict(
            answer, need, what="the fewest Seeds Red must add",
            rule="Red must end with more Seeds there than any other colour.",
            misconceptions=known),
        draw=lambda m: _draw(s, m, fixed={cell: "X"}),
        hints=("Red must end with more Seeds there than any other colour: a tie is never "
               "allowed.",
               f"On {cell_text(cell)}, find the colour with the most Seeds ({leader}); Red's "
               "Seeds already there count too, and Red's total after adding must be above "
               f"{leader}'s."),
        hint_marks=((cell,), (cell,)),
        explanation="Seed Competition: Seeds may join another colour's Seeds only if their "
                    "owner then has more Seeds there than anyone else. Several Flying Seeds "
                    "(both actions and Blessings) or one Expand Forest can bring them at once.",
        context={"state": s})


@register("pangaea.seeds_needed", game=GAME.name, notebook=NB08,
          rule="Seed Competition: to add Seeds to a space you must then hold more Seeds there "
               "than anyone else",
          title="How many Seeds to lead?",
          levels=("Red against Blue", "three colours on the space"))
def seeds_needed(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.seeds_needed", seed, level, _seeds_needed)


def _growing_water(rng: random.Random, s: GameState):
    """A Water Space with at least three Land Spaces around it, and those spaces."""
    water = list(s.board.water)
    rng.shuffle(water)
    for w in water:
        near = [s.board.cells[j] for j in s.board.neighbours[w] if s.board.terrain[j] == "land"]
        if len(near) >= 3:
            rng.shuffle(near)
            return w, near
    return None


def _competition_stacks(rng: random.Random, s: GameState, near: list, level: int) -> dict:
    """Seed stacks (no tie) on the spaces ``near``, within each player's supply."""
    budget = [s.players[0].seeds - (level == 2), s.players[1].seeds]
    stacks = {}
    for c in near[:3 if level == 1 else 4]:
        red, blue = rng.randint(0, min(3, budget[0])), rng.randint(0, min(2, budget[1]))
        if red == blue:
            red, blue = (red + 1, blue) if red < budget[0] else (red, blue - 1) if blue else \
                (red, blue + 1)
        if red + blue == 0 or red == blue or red > budget[0] or blue > budget[1]:
            continue
        budget = [budget[0] - red, budget[1] - blue]
        stacks[c] = {p: n for p, n in ((0, red), (1, blue)) if n}
    return stacks


def _competition_position(rng: random.Random, seed: int, level: int):
    s = _woods(rng, seed, cols=5, rows=4, water=0.35)
    found = _growing_water(rng, s)
    if found is None:
        return None
    w, near = found
    # a level-3 Tree each, away from the Spirit: their Treetops unlock a third Seed
    away = [c for c in _free_land(s) if c not in near and _where(s, c) not in s.board.neighbours[w]]
    if len(away) < 3:
        return None
    s = s.arranged(trees={away[0]: 0, away[-1]: 1}, treetops={away[0]: 2, away[-1]: 2})
    stacks = _competition_stacks(rng, s, near, level)
    if level == 2:   # Seeds away from the Spirit, which do not grow
        stacks[away[1]] = {0: 1}
    if not any(len(x) == 2 for x in stacks.values()):   # at least one shared space
        return None
    if any(sum(x.get(p, 0) for x in stacks.values()) > s.players[p].seeds for p in (0, 1)):
        return None
    s = replace(s.arranged(seeds=stacks), turn_player=1)
    return s, s.board.cells[w], stacks


def _competition_growth(rng: random.Random, seed: int, level: int) -> dict | None:
    made = _competition_position(rng, seed, level)
    if made is None:
        return None
    s, w_cell, stacks = made
    after = s.apply(SpiritGrowth(w_cell))
    right = {c for c in stacks if after.trees[_where(s, c)] == 0}
    if not right:
        return None
    near = _near(s, w_cell)
    seeded = [c for c in near if c in stacks]
    shared = frozenset(c for c in right if len(stacks[c]) == 2)

    def refuse(c) -> str:
        i = _where(s, c)
        if s.seeds[i] == NOBODY:
            return f"it holds {_what_on(s, c)}, and no Seed grows there."
        if c not in near:
            return f"it does not touch {cell_text(w_cell)}, so its Seeds do not grow."
        return "there Blue has more Seeds than Red, so Blue's Tree grows."

    def whole(answer):
        if not answer:
            return ("performer-wins", "Who performs the Growth does not decide: on each growing "
                    "space, the colour with the most Seeds grows its Tree.")
        if shared and answer == right - shared:
            return ("shared-never-grows", "On a space with both colours' Seeds a Tree still "
                    "grows: the colour with more Seeds there grows its own.")
        return None

    return dict(
        answer_kind="cells", answer=right,
        question=f"Blue performs Spirit Growth on {cell_text(w_cell)} (marked W). Click every "
                 "space where a Red Tree grows. (Seed rows like 'R2 B1' give each colour's "
                 "Seeds.)",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, lambda c: "not-a-seed" if s.seeds[_where(s, c)] == NOBODY
                         else "not-adjacent" if c not in near else "fewer-seeds-grow"),
            partial=whole,
            missed=f"Some spaces are missing: check every Seed stack "
                   f"touching {cell_text(w_cell)}.",
            right_reason="Right: on each growing space "
                         "the colour with the most Seeds grows its Tree, whoever performed "
                         "the Growth."),
        draw=lambda m: _draw(s, m, fixed={w_cell: "W"}),
        hints=(f"Every Seed touching {cell_text(w_cell)} grows, whoever performs the Growth; on "
               "a shared space, compare the two colours.",
               f"The Seed stacks next to {cell_text(w_cell)} are marked: {_cells_text(seeded)}. "
               "Read each row and keep the spaces where Red has more Seeds than Blue."),
        hint_marks=((w_cell,), tuple(seeded)),
        explanation="When a space grows, every Seed on it goes back to its owner's supply and "
                    "only the player with the most Seeds there grows a Tree.",
        context={"state": s, "after": after})


@register("pangaea.competition_growth", game=GAME.name, notebook=NB08,
          rule="Seed Competition: when a space grows, every Seed goes back and only the colour "
               "with the most Seeds grows a Tree",
          title="Whose Tree grows?",
          levels=("three Seed stacks around the Spirit", "four stacks and Seeds farther away"))
def competition_growth(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.competition_growth", seed, level, _competition_growth)


def _treetop_position(rng: random.Random, seed: int, level: int) -> GameState:
    s = _woods(rng, seed, cols=5, rows=3)
    tree = _free_land(s)[0]
    held = {b: rng.choice([0, 0, 1, 2]) for b in BIOMES}
    wild = rng.choice([0, 0, 1]) if level == 2 else 0
    taken = rng.randint(0, 1) if level == 1 else rng.randint(1, 2)
    return s.arranged(trees={tree: 0}, treetops={tree: taken} if taken else {},
                      weather={0: held}, blessings={0: {"Wild Weather": wild}})


def _treetop_slots(rng: random.Random, seed: int, level: int) -> dict | None:
    s = _treetop_position(rng, seed, level)
    data = woods.woods_data(s.edition)
    pb = s.woods.player_boards[0]
    right = frozenset(str(k) for k, full in enumerate(pb.slots)
                      if full and woods.payments(s, 0, data.slots[k].cost))
    if len(right) in (0, len(data.slots)):
        return None
    weather = s.players[0].weather
    tokens = and_list([plural(n, f"{b} token") for b, n in zip(s.edition.biomes, weather)
                   if n]) or "no Weather Token"
    wild = s.players[0].blessings[BLESSING_KINDS.index("Wild Weather")]
    kinds = sum(1 for n in weather if n)

    def why_not(key: str) -> str:
        k = int(key)
        if not pb.slots[k]:
            return f"Slot {k + 1} holds no Treetop any more."
        return (f"Slot {k + 1} costs {plural(data.slots[k].cost, 'token')}, each of a different "
                f"type; Red holds {plural(kinds, 'type')}"
                + (" and a Wild Weather Blessing." if wild else "."))

    def name(key: str) -> str:
        k = int(key)
        return ("empty-slot" if not pb.slots[k] else "counted-tokens-not-types"
                if data.slots[k].cost <= sum(weather) + wild else "too-costly")

    with_wild = f" and {plural(wild, 'Wild Weather Blessing')}" if wild else ""
    pic = _stack(woods_render.player_board_svg(s, 0), _draw(s, ()))
    return dict(
        answer_kind="choices", answer=right,
        options=tuple(Option(str(k), f"slot {k + 1} (cost {slot.cost})")
                      for k, slot in enumerate(data.slots)),
        question=f"Red holds {tokens}{with_wild}. From which slots of Red's Player Board could "
                 "Red take a Treetop now? Pick all.",
        checker=lambda given: choices_verdict(
            given, frozenset(right),
            why_not=named(why_not, name),
            missed="Some slots are missing: check every slot that "
                   "still holds a Treetop against the types Red holds.",
            right_reason="Right: those slots still hold a Treetop and Red can pay their "
                         "cost with different types."),
        draw=lambda m: pic,
        hints=("Count the different weather types Red holds: two tokens of one type count once.",
               f"Red's tokens are of {plural(kinds, 'type')}{with_wild}; a slot is open to Red "
               "when it still holds a Treetop and its cost needs no more types than that."),
        explanation="Add Treetop: choose a slot that still holds a Treetop and pay its cost; "
                    "2 or 3 tokens must all be of different types. " + READING_WILD,
        context={"state": s})


@register("pangaea.treetop_slots", game=GAME.name, notebook=NB08,
          rule="Add Treetop: pay a slot's cost in Weather Tokens of different types (a Wild "
               "Weather Blessing may stand for one)",
          title="Which Treetops can Red pay for?",
          levels=("Weather Tokens only", "a Wild Weather Blessing and emptied slots"))
def treetop_slots(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.treetop_slots", seed, level, _treetop_slots)


def _storm_position(rng: random.Random, seed: int, level: int):
    s = game(seed=seed, wild_woods=True, storms=True)
    b = s.board
    tile = rng.choice(sorted(set(b.tile_of)))
    lands = [i for i in b.land if b.tile_of[i] == tile]
    waters = [i for i in b.water if b.tile_of[i] == tile]
    if len(lands) < 3 or not waters:
        return None
    cells = [b.cells[i] for i in lands]
    trees = {c: rng.randrange(2) for c in cells}
    if level == 2:   # level-1 Trees on a touching tile, which the Storm does not reach
        beside = {b.cells[j] for i in lands for j in b.neighbours[i]
                  if b.tile_of[j] != tile and b.terrain[j] == "land"}
        trees.update({c: rng.randrange(2) for c in sorted(beside)[:2]})
    s = s.arranged(trees=trees, spirits={0: b.cells[waters[0]]})
    tops = {c: rng.choice([0, 0, 1, 2] if level == 2 else [0, 0, 0, 1]) for c in cells}
    s = s.arranged(treetops={c: n for c, n in tops.items() if n})
    if level == 2 and rng.random() < 0.5:
        s = s.arranged(ancients={"Thorondal": rng.choice(cells)})
    return s, tile, lands + waters, cells


def _storm_blows(rng: random.Random, seed: int, level: int) -> dict | None:
    made = _storm_position(rng, seed, level)
    if made is None:
        return None
    s, tile, spaces, cells = made
    b = s.board
    d = Draft(s, active(s))
    woods.storm(d, next(c for c in s.land_deck + s.creature_deck + s.woods.storm_box
                        if woods.is_storm(c)))
    after = d.freeze()
    right = {c for c in cells if after.trees[_where(s, c)] == NOBODY}
    if not right and rng.random() < 0.8:
        return None
    guard = s.ancients[2]
    spared = guard if s.woods.storm_spares_thorondal else NOBODY

    def refuse(c) -> str:
        i = _where(s, c)
        if b.tile_of[i] != tile:
            return "it is not on the Biome Tile of Red's Spirit."
        if s.trees[i] == NOBODY:
            return "no Tree stands there."
        if i == spared:
            return "Thorondal stands on that Tree, and in this game's reading it stays."
        return f"its Tree is level {woods.level(s, i)}, and only level-1 Trees blow away."

    def name(c) -> str:
        i = _where(s, c)
        return ("other-tile" if b.tile_of[i] != tile else "no-tree" if s.trees[i] == NOBODY
                else "thorondal-tree" if i == spared else "taller-trees-blow")

    def partial(given) -> tuple[str, str] | None:
        guarded = b.cells[guard] if guard != NOBODY else None
        if guarded in right and right - given == {guarded}:
            return ("thorondal-guards-storm", "Thorondal guards its Tree only against Rituals, "
                    "and a Storm is no Ritual (the reading this page uses). Look again at "
                    "every level-1 Tree on the struck tile.")
        return None

    outline = [b.cells[i] for i in spaces]
    spirit = b.cells[s.spirits[0]]
    standing = sum(1 for c in cells if s.trees[_where(s, c)] != NOBODY)
    guard_words = (f" Thorondal stands at {cell_text(b.cells[guard])}; "
                   + ("in this game a Storm spares its Tree." if spared != NOBODY else
                      "it guards its Tree only against Rituals.") if guard != NOBODY else "")
    return dict(
        answer_kind="cells", answer=right,
        question="An Elemental Storm is revealed at the end of Red's turn. It strikes the Biome "
                 "Tile of Red's Spirit (the Red disc; the tile's spaces are marked T). Click "
                 "every Tree that blows away (none, if none do).",
        checker=lambda given: cells_verdict(
            given, frozenset(right),
            refuse=named(refuse, name), partial=partial,
            missed="Some Trees are missing: check the level of every "
                   "Tree on the struck tile.",
            right_reason="Right: the level-1 Trees of the struck tile blow away; taller Trees "
                         + ("(and Thorondal's) stand." if spared != NOBODY else "stand.")),
        draw=lambda m: _draw(s, m, fixed={c: "T" for c in outline}),
        hints=(f"Only the Biome Tile of Red's Spirit, at {cell_text(spirit)}, is struck: look at "
               "the spaces marked T.",
               f"On that tile stand {plural(standing, 'Tree')}; the number in a Tree's disc is "
               f"its level, and only level 1 blows away.{guard_words}"),
        hint_marks=((spirit,), (spirit, b.cells[guard]) if guard != NOBODY else ()),
        explanation="An Elemental Storm removes every level-1 Tree on the Biome Tile of the "
                    "current player's Spirit (each owner draws a Blessing), then lays Storm "
                    "tokens on the tile. Trees of level 2 or 3 are not affected. "
                    + woods.storm_reading(s),
        context={"state": s, "after": after})


@register("pangaea.storm_blows", game=GAME.name, notebook=NB08,
          rule="An Elemental Storm blows away the level-1 Trees on the Biome Tile of the current "
               "player's Spirit, Thorondal's too (it guards only against Rituals); taller Trees "
               "stand",
          title="Which Trees does the Storm blow away?",
          levels=("Trees on the struck tile only", "Trees beside it too, and Thorondal"))
def storm_blows(seed: int, level: int = 1) -> Exercise:
    return _make("pangaea.storm_blows", seed, level, _storm_blows)
