"""Exercise generators for The Dawn of Pangaea, notebooks 01-04 (setup, turns, Land Rituals,
scoring).  See :mod:`pangaea_lab.core.exercises` for what a generator returns.

Every position is built with the rules engine on a small hand-built board (a few rows of
spaces, the rule in focus); the engine gives the answer and the reason a wrong answer is wrong.

>>> from pangaea_lab import exercises
>>> ex = exercises.generate("pangaea.flying_seed", seed=3)
>>> ex.check(ex.answer).correct
True
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable, Iterable, Sequence

import networkx as nx

from ...core.errors import IllegalAction, InvalidSetup
from ...core.exercises import Exercise, Option, Verdict, register
from ..actions import EndTurn, ExpandForest, FlyingSeed, PlayCreature, SpiritGrowth
from ..board import Board, custom_board
from ..edition import CreatureCard, LandCard, load_edition
from ..render import board_svg
from ..rituals import (NOBODY, RitualOption, best_ritual, checked_option, count_shortest_paths,
                       land_ritual_options, path_fault, ritual_pairs)
from ..scoring import mountain_position, payments
from ..setup import new_game, setup_steps
from ..state import PLAYER_NAMES, GameState

GAME = "pangaea"
RED, BLUE, ORANGE = 0, 1, 2


def _edition():
    return load_edition()


# ----- small positions ------------------------------------------------------------------------


def _grid(cols: int, rows: int) -> list[tuple[int, int]]:
    """A compact block of spaces: ``rows`` rows of ``cols`` hexes, drawn as a rectangle."""
    return [(q - r // 2, r) for r in range(rows) for q in range(cols)]


def _board(rng: random.Random, cols: int, rows: int, water: int,
           biomes: dict | None = None, blessing: Iterable = ()) -> Board:
    """A small board: ``water`` Water Spaces at random, the rest land of random biomes
    (``biomes`` fixes the biome of some spaces)."""
    cells = _grid(cols, rows)
    wet = set(rng.sample(cells, water))
    kinds = _edition().biomes
    spaces = {c: ("water", kinds[0]) if c in wet else ("land", rng.choice(kinds)) for c in cells}
    for c, b in (biomes or {}).items():
        spaces[c] = ("land", b)
    return custom_board(spaces, blessing=blessing)


def _game(board: Board, players: int = 2, **arranged) -> GameState:
    """A family game on ``board`` with Red to move and pieces placed by hand."""
    s = new_game(players=players, seed=0, board=board, family=True)
    s = replace(s, first_player=RED, turn_player=RED)
    return s.arranged(**arranged) if arranged else s


def _land(board: Board) -> list[tuple[int, int]]:
    return [board.cells[i] for i in board.land]


def _water(board: Board) -> list[tuple[int, int]]:
    return [board.cells[i] for i in board.water]


def _names(players: Iterable[int]) -> str:
    names = [PLAYER_NAMES[p] for p in players]
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]


def _owners(rng: random.Random, cells: Iterable, caps: dict[int, int]) -> dict:
    """Give each cell to a random player who still has pieces left (``caps``: pieces per
    player); cells left over stay empty."""
    left = dict(caps)
    out = {}
    for c in cells:
        able = [p for p, n in left.items() if n > 0]
        if not able:
            break
        p = rng.choice(able)
        out[c] = p
        left[p] -= 1
    return out


def _drawer(state: GameState, kind: str, base: dict | None = None, paths: Sequence = (),
            path_labels: Sequence[str] = (), status: bool = False) -> Callable:
    """``draw(marked)``: the position with the marked spaces outlined and labelled (a tick for a
    set of spaces, the step numbers 1, 2, 3... for a path), players' initials on the pieces."""

    def draw(marked: Iterable = ()) -> str:
        marked = [tuple(c) for c in marked]
        labels = dict(base or {})
        for k, cell in enumerate(marked):
            labels[cell] = str(k + 1) if kind == "path" else "✓"
        return board_svg(state, highlight=marked, chain=kind == "path", labels=labels,
                         letters=True, status=status, paths=paths, path_labels=path_labels)

    return draw


def _cells_checker(right: set, why_not: Callable[[tuple], str], why_yes: Callable[[tuple], str],
                   ok: str) -> Callable:
    """A checker for a set of spaces: the first wrong space with the engine's reason, else the
    first space left out and why it belongs."""
    right = frozenset(right)

    def check(answer: frozenset) -> Verdict:
        for cell in sorted(answer - right):
            return Verdict(False, why_not(cell), (cell,))
        for cell in sorted(right - answer):
            return Verdict(False, why_yes(cell), (cell,))
        return Verdict(True, ok)

    return check


def _refusal(state: GameState, action) -> str:
    """The engine's reason for refusing ``action`` ("" if it is legal)."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        return exc.reason
    return ""


def _number_checker(right: int, parts: Callable[[int], str], ok: str) -> Callable:
    def check(answer: int) -> Verdict:
        if answer == right:
            return Verdict(True, ok)
        return Verdict(False, parts(answer))
    return check


def _choice_checker(right: str, why: Callable[[str], str], ok: str) -> Callable:
    def check(answer: str) -> Verdict:
        return Verdict(True, ok) if answer == right else Verdict(False, why(answer))
    return check


# ----- 01 Game Setup --------------------------------------------------------------------------


@register("pangaea.setup_blessings", game=GAME, notebook="pangaea/01_setup.ipynb",
          rule="At setup a Blessing Token is laid face up on every Water Space with the blessing icon",
          title="Where do the Blessings go?")
def setup_blessings(seed: int) -> Exercise:
    rng = random.Random(seed)
    cells = _grid(6, 4)
    wet = rng.sample(cells, 8)
    marked = set(rng.sample(wet, rng.randint(2, 4)))
    kinds = _edition().biomes
    spaces = {c: ("water", kinds[0]) if c in wet else ("land", rng.choice(kinds)) for c in cells}
    steps = setup_steps(players=2, seed=seed, board=custom_board(spaces, blessing=marked),
                        family=True)
    before = next(s.state for s in steps if s.title == "Build the continent")
    after = next(s.state for s in steps if s.title.startswith("Blessings"))
    board = after.board
    right = {board.cells[i] for i, kind in enumerate(after.board_blessings) if kind}

    def why_not(cell: tuple) -> str:
        i = board.index.get(cell)
        if i is None:
            return f"{cell} is not a space of this board."
        if board.terrain[i] == "land":
            return f"{cell} is a Land Space: Blessings are laid only on Water Spaces."
        return f"{cell} is water but has no blessing icon (white dot), so it gets no Blessing."

    return Exercise(
        kind="pangaea.setup_blessings", seed=seed,
        question=("Game Setup: a Blessing Token goes on some spaces of this small continent. "
                  "Click every space that gets one."),
        answer_kind="cells", answer=right,
        checker=_cells_checker(
            right, why_not,
            lambda c: f"{c} is a Water Space with the blessing icon: it gets a Blessing too.",
            f"Right: each of the {len(right)} Water Spaces with the blessing icon gets one "
            "Blessing Token, face up; the other tokens stay in the bag."),
        draw=_drawer(before, "cells"),
        hint="Look for the small white dot on the blue spaces.",
        explanation=("Blessings are laid only on Water Spaces that show the blessing icon (the "
                     "white dot): " + ", ".join(map(str, sorted(right))) + "."),
        context={"state": after})


_COUNT_QUESTIONS = ("trees", "seeds", "hand", "market", "tiles")


@register("pangaea.setup_counts", game=GAME, notebook="pangaea/01_setup.ipynb",
          rule="What each player takes at setup: Trees, Seeds (one is the score marker), a hand "
               "of one card of each deck; four cards in the Open Market; one Biome Tile of each "
               "type per player",
          title="Counting the setup")
def setup_counts(seed: int) -> Exercise:
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    what = _COUNT_QUESTIONS[seed % len(_COUNT_QUESTIONS)]
    last = setup_steps(players=players, seed=seed)[-1].state
    ed = last.edition
    types = len(ed.biomes)
    if what == "trees":
        right = last.players[0].trees
        question = f"A {players}-player game: how many Trees does each player start with?"
        why = f"Each player takes {right} Trees of their colour; none is on the continent yet."
    elif what == "seeds":
        right = last.players[0].seeds
        question = (f"A {players}-player game: how many Seeds does each player have in the "
                    "supply when play starts?")
        why = (f"Each player takes {ed.seeds_per_player} Seeds, and one of them becomes the score "
               f"marker beside the Sacred Mountain, so {right} stay in the supply.")
    elif what == "hand":
        right = len(last.players[0].hand)
        question = (f"A {players}-player game: how many Ritual cards does each player hold in "
                    "hand when play starts?")
        why = f"Each player draws one Land Ritual and one Creature Ritual: {right} cards."
    elif what == "market":
        right = sum(1 for c in last.market if c)
        question = (f"A {players}-player game: how many cards lie face up in the Open Market "
                    "when play starts?")
        why = f"Two cards of each of the two decks are turned face up: {right} cards."
    else:
        right = len(last.board.tiles)
        question = f"How many Biome Tiles build the continent in a {players}-player game?"
        why = (f"Each of the {players} players brings one tile of each of the {types} types: "
               f"{players} × {right // players} = {right}.")
    return Exercise(
        kind="pangaea.setup_counts", seed=seed, question=question, answer_kind="number",
        answer=right,
        checker=_number_checker(right, lambda a: f"Not {a}. {why}", f"Right: {why}"),
        hint="Think of the Game Setup steps one at a time.",
        explanation=why, context={"state": last, "what": what})


@register("pangaea.setup_order", game=GAME, notebook="pangaea/01_setup.ipynb",
          rule="The order of the Game Setup steps",
          title="Which setup step comes next?")
def setup_order(seed: int) -> Exercise:
    rng = random.Random(seed)
    family = bool(seed % 2)
    steps = setup_steps(players=rng.randint(2, 4), seed=seed, family=family)
    titles = [s.title for s in steps]
    k = rng.randrange(len(titles) - 1)
    others = [j for j in range(len(titles)) if j not in (k, k + 1)]
    chosen = sorted([k + 1] + rng.sample(others, min(3, len(others))))
    rng.shuffle(chosen)
    options = tuple(Option(f"step{j + 1}", titles[j]) for j in chosen)
    right = f"step{k + 2}"

    def why(answer: str) -> str:
        j = int(answer[4:]) - 1
        return (f"“{titles[j]}” is step {j + 1} of {len(titles)}; right after “{titles[k]}” "
                f"(step {k + 1}) comes “{titles[k + 1]}”.")

    game = "family game" if family else "full game"
    return Exercise(
        kind="pangaea.setup_order", seed=seed,
        question=f"Game Setup ({game}): which step comes right after “{titles[k]}”?",
        answer_kind="choice", answer=right, options=options,
        checker=_choice_checker(right, why, f"Right: “{titles[k + 1]}” is step {k + 2}: "
                                f"{steps[k + 1].explanation}"),
        hint="The continent comes before the tokens that lie on it, the cards before the market.",
        explanation=f"Step {k + 2}: {titles[k + 1]}. {steps[k + 1].explanation}",
        context={"steps": titles})


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


def _turn_order(state: GameState, turns: int) -> list[int]:
    """Who plays each of the first ``turns`` turns, by playing them with the engine (each
    player places Flying Seeds and ends the turn)."""
    order = [state.turn_player]
    while len(order) < turns:
        acts = state.legal_actions()
        end = [a for a in acts if isinstance(a, EndTurn)]
        seeds = [a for a in acts if isinstance(a, FlyingSeed)]
        state = state.apply(end[0] if end else seeds[0] if seeds else acts[0])
        if end:
            order.append(state.turn_player)
    return order


@register("pangaea.turn_order", game=GAME, notebook="pangaea/01_setup.ipynb",
          rule="The setup draws the starting player; then play goes clockwise",
          title="Who plays when?")
def turn_order(seed: int) -> Exercise:
    rng = random.Random(seed)
    players = rng.randint(3, 4)
    state = new_game(players=players, seed=seed, family=True)
    turn = rng.randint(2, players + 2)
    order = _turn_order(state, turn)
    right = order[-1]
    first = PLAYER_NAMES[state.first_player]
    seats = ", ".join(PLAYER_NAMES[:players])

    def why(answer: str) -> str:
        listed = ", ".join(PLAYER_NAMES[p] for p in order)
        return (f"{first} starts and play goes clockwise ({seats}, then round again): the "
                f"first {turn} turns are {listed}, so the {_ORDINALS[turn - 1]} is "
                f"{PLAYER_NAMES[right]}'s, not {PLAYER_NAMES[int(answer)]}'s.")

    return Exercise(
        kind="pangaea.turn_order", seed=seed,
        question=(f"{players} players sit clockwise as {seats}. At setup {first}'s Seed is "
                  f"drawn, so {first} starts. Who plays the {_ORDINALS[turn - 1]} turn of the "
                  "game?"),
        answer_kind="choice", answer=str(right),
        options=tuple(Option(str(p), PLAYER_NAMES[p]) for p in range(players)),
        checker=_choice_checker(str(right), why,
                                f"Right: counting clockwise from {first}, turn {turn} is "
                                f"{PLAYER_NAMES[right]}'s."),
        hint=f"Count the turns clockwise, starting with {first} as turn 1.",
        explanation=("Turns: " + ", ".join(PLAYER_NAMES[p] for p in order) + "."),
        context={"state": state, "order": order})


# ----- 02 Taking turns ------------------------------------------------------------------------


def _crowded(rng: random.Random, cols: int = 5, rows: int = 3, water: int = 3,
             pieces: int = 7) -> GameState:
    """A small board with a few Trees and Seeds of Red and Blue (Red to move)."""
    board = _board(rng, cols, rows, water)
    land = _land(board)
    rng.shuffle(land)
    trees = {c: rng.choice((RED, RED, BLUE)) for c in land[:pieces // 2 + 1]}
    # Red keeps a Seed in the supply to sow with
    seeds = _owners(rng, land[pieces // 2 + 1:pieces], {RED: 1, BLUE: 2})
    return _game(board, trees=trees, seeds=seeds)


@register("pangaea.flying_seed", game=GAME, notebook="pangaea/02_turns.ipynb",
          rule="Flying Seed: one of your Seeds on any empty Land Space",
          title="Where may a Flying Seed land?")
def flying_seed(seed: int) -> Exercise:
    rng = random.Random(seed)
    state = _crowded(rng)
    right = {a.cell for a in state.legal_actions() if isinstance(a, FlyingSeed)}

    def why_not(cell: tuple) -> str:
        return _refusal(state, FlyingSeed(cell)) or f"{cell} is not a space of this board."

    return Exercise(
        kind="pangaea.flying_seed", seed=seed,
        question="Red takes the Flying Seed action. Click every space where Red may put the Seed.",
        answer_kind="cells", answer=right,
        checker=_cells_checker(right, why_not,
                               lambda c: f"{c} is an empty Land Space: a Flying Seed may land there too.",
                               f"Right: a Flying Seed may land on any of the {len(right)} empty "
                               "Land Spaces, near Red's Trees or far from them."),
        draw=_drawer(state, "cells"),
        hint="Water never takes a Seed, and a space with a Tree or a Seed is taken.",
        explanation="Every empty Land Space: " + ", ".join(map(str, sorted(right))) + ".",
        context={"state": state})


@register("pangaea.expand_forest", game=GAME, notebook="pangaea/02_turns.ipynb",
          rule="Expand Forest: up to 2 Seeds on empty Land Spaces next to one of your Trees",
          title="Where may Expand Forest sow?")
def expand_forest(seed: int) -> Exercise:
    rng = random.Random(seed)
    while True:
        state = _crowded(rng, 6, 4, 5, 8)
        right = {a.cells[0] for a in state.legal_actions()
                 if isinstance(a, ExpandForest) and len(a.cells) == 1}
        empty = {state.board.cells[i] for i in state.board.land
                 if state.trees[i] == NOBODY and state.seeds[i] == NOBODY}
        if right and empty - right:
            break

    def why_not(cell: tuple) -> str:
        return _refusal(state, ExpandForest((cell,))) or f"{cell} is not a space of this board."

    return Exercise(
        kind="pangaea.expand_forest", seed=seed,
        question=("Red takes the Expand Forest action. Click every space where Red may place "
                  "one of its Seeds."),
        answer_kind="cells", answer=right,
        checker=_cells_checker(right, why_not,
                               lambda c: f"{c} is an empty Land Space next to one of Red's Trees: "
                               "Expand Forest may sow there too.",
                               f"Right: these {len(right)} empty Land Spaces touch one of Red's "
                               "Trees."),
        draw=_drawer(state, "cells"),
        hint="Start from each red Tree (R) and look at the six spaces around it.",
        explanation=("Empty Land Spaces next to a Red Tree: "
                     + ", ".join(map(str, sorted(right))) + "."),
        context={"state": state})


def _growth(seed: int) -> tuple[GameState, GameState, tuple, set]:
    """A Spirit Growth position: Seeds of Red and Blue around a chosen Water Space.  Returns
    (before, after, the water space, the spaces whose Seeds grew)."""
    rng = random.Random(seed)
    while True:
        board = _board(rng, 6, 4, 5)
        water = rng.choice(_water(board))
        near = [c for c in _land(board) if board.index[c] in
                {j for j in board.neighbours[board.index[water]]}]
        if len(near) < 2:
            continue
        land = [c for c in _land(board) if c not in near]
        rng.shuffle(near)
        rng.shuffle(land)
        seeds = _owners(rng, near[:rng.randint(2, min(4, len(near)))], {RED: 2, BLUE: 2})
        left = {q: 2 - list(seeds.values()).count(q) for q in (RED, BLUE)}
        seeds.update(_owners(rng, land[:2], left))
        trees = {c: rng.choice((RED, BLUE)) for c in near[len(seeds):][:1] + land[2:4]}
        trees = {c: p for c, p in trees.items() if c not in seeds}
        before = _game(board, trees=trees, seeds=seeds)
        after = before.apply(SpiritGrowth(water))
        grew = {board.cells[i] for i in board.land
                if before.seeds[i] != NOBODY and after.trees[i] != NOBODY}
        if grew and len({before.seeds[board.index[c]] for c in grew}) == 2:
            return before, after, water, grew


@register("pangaea.spirit_growth_seeds", game=GAME, notebook="pangaea/02_turns.ipynb",
          rule="Spirit Growth: every Seed next to the Water Space the Spirit moves to grows into "
               "a Tree, whoever owns it",
          title="Which Seeds grow?")
def spirit_growth_seeds(seed: int) -> Exercise:
    before, after, water, grew = _growth(seed)
    board = before.board

    def why_not(cell: tuple) -> str:
        i = board.index.get(cell)
        if i is None:
            return f"{cell} is not a space of this board."
        if before.seeds[i] == NOBODY:
            return f"{cell} holds no Seed, so nothing grows there."
        return f"The Seed on {cell} is not next to {water}, so it does not grow."

    return Exercise(
        kind="pangaea.spirit_growth_seeds", seed=seed,
        question=(f"Red moves its Spirit to the Water Space {water} (marked S). Click every "
                  "Seed that grows into a Tree."),
        answer_kind="cells", answer=grew,
        checker=_cells_checker(grew, why_not,
                               lambda c: f"The {PLAYER_NAMES[before.seeds[board.index[c]]]} Seed "
                               f"on {c} is next to {water}: it grows too, whoever owns it.",
                               f"Right: the {len(grew)} Seeds next to {water} grow, Red's and "
                               "Blue's alike."),
        draw=_drawer(before, "cells", base={water: "S"}),
        hint="Only the six spaces around the Spirit's new space matter, and every colour grows.",
        explanation=("The Seeds next to " + str(water) + ": "
                     + ", ".join(map(str, sorted(grew))) + "."),
        context={"state": before, "after": after, "water": water})


def _weather_text(state: GameState, gains: dict[int, dict[str, int]]) -> str:
    parts = []
    for p in range(state.num_players):
        got = gains.get(p, {})
        text = ", ".join(f"{n} {b}" for b, n in sorted(got.items()) if n) or "nothing"
        parts.append(f"{PLAYER_NAMES[p]}: {text}")
    return " · ".join(parts)


@register("pangaea.spirit_growth_weather", game=GAME, notebook="pangaea/02_turns.ipynb",
          rule="Each Tree that grows earns its owner one Weather Token of the biome it stands on",
          title="Who gets which Weather?")
def spirit_growth_weather(seed: int) -> Exercise:
    before, after, water, grew = _growth(seed)
    rng = random.Random(seed + 7919)
    board = before.board
    biomes = before.edition.biomes
    right_gain = {p: {b: after.players[p].weather[k] - before.players[p].weather[k]
                      for k, b in enumerate(biomes)} for p in range(before.num_players)}
    right = _weather_text(before, right_gain)
    # wrong readings: the mover takes every token; every Seed on the board grows; one is missed
    wrong = []
    everything: dict[str, int] = {}
    for c in grew:
        b = board.biome[board.index[c]]
        everything[b] = everything.get(b, 0) + 1
    wrong.append(_weather_text(before, {RED: everything}))
    every_seed: dict[int, dict[str, int]] = {}     # every Seed on the board, near or not
    for i in board.land:
        if before.seeds[i] != NOBODY:
            got = every_seed.setdefault(before.seeds[i], {})
            got[board.biome[i]] = got.get(board.biome[i], 0) + 1
    wrong.append(_weather_text(before, every_seed))
    for c in sorted(grew):
        owner = before.seeds[board.index[c]]
        less = {p: dict(g) for p, g in right_gain.items()}
        less[owner][board.biome[board.index[c]]] -= 1
        wrong.append(_weather_text(before, less))
    texts = [right] + [w for w in dict.fromkeys(wrong) if w != right]
    texts = texts[:4]
    rng.shuffle(texts)
    options = tuple(Option(f"o{k}", t) for k, t in enumerate(texts))
    key = next(o.key for o in options if o.label == right)
    detail = "; ".join(f"{c} {board.biome[board.index[c]]} → {PLAYER_NAMES[before.seeds[board.index[c]]]}"
                       for c in sorted(grew))

    def why(answer: str) -> str:
        return ("Each new Tree earns its owner one token of its own space's biome (" + detail
                + "), so: " + right + ".")

    return Exercise(
        kind="pangaea.spirit_growth_weather", seed=seed,
        question=(f"Red moves its Spirit to {water} (marked S) and the Seeds next to it grow. "
                  "Which Weather Tokens does each player gain?"),
        answer_kind="choice", answer=key, options=options,
        checker=_choice_checker(key, why, "Right: " + detail + "."),
        draw=_drawer(before, "cells", base={water: "S"}),
        hint="A token of the biome under each new Tree (the two letters on the space) goes to "
             "the Tree's owner.",
        explanation=detail + ".", context={"state": before, "after": after})


@register("pangaea.creature_payable", game=GAME, notebook="pangaea/02_turns.ipynb",
          rule="Creature Rituals are paid with the Weather Tokens shown on the card; a wild "
               "symbol takes any token and a Wild Weather Blessing stands in for one token",
          title="Which Creature Rituals can be paid?")
def creature_payable(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = _edition()
    biomes = ed.biomes
    creatures = list(ed.creature_cards)
    while True:
        have = {b: rng.choice((0, 0, 1, 1, 2, 3)) for b in biomes}
        wild = rng.choice((0, 0, 1))
        cards = rng.sample(creatures, 4)
        tokens = tuple(have[b] for b in biomes)
        pay = {c.id: next(iter(payments(c, tokens, wild, biomes)), None) for c in cards}
        if 0 < sum(v is not None for v in pay.values()) < 4:
            break
    right = {cid for cid, p in pay.items() if p is not None}
    holding = ", ".join(f"{n} {b}" for b, n in have.items() if n) or "no Weather Tokens"
    if wild:
        holding += f" and {wild} Wild Weather Blessing"
    # the engine must agree: each payable card is played with that payment
    # (a card the seeded game already dealt to another hand cannot be handed to Red: try the
    # next one of the four)
    board = _board(rng, 4, 2, 1)
    for check_card in cards:
        try:
            state = _game(board, hands={RED: [check_card.id]},
                          weather={RED: {b: n for b, n in have.items() if n}},
                          blessings={RED: {"Wild Weather": wild}} if wild else None)
            break
        except InvalidSetup:
            continue
    else:
        raise InvalidSetup("none of the four cards can be handed to Red")
    if pay[check_card.id] is not None:
        tokens_used, used_wild = pay[check_card.id]
        state.apply(PlayCreature(check_card.id, False, tokens_used, used_wild))

    def label(c: CreatureCard) -> str:
        return f"{c.name} ({c.points} points): {c.cost_text()}"

    def check(answer: frozenset) -> Verdict:
        for cid in sorted(answer - right):
            c = ed.card(cid)
            return Verdict(False, f"{c.name} needs {c.cost_text()}; with {holding} there is no "
                           "way to pay it.")
        for cid in sorted(right - answer):
            c = ed.card(cid)
            tokens_used, used_wild = pay[cid]
            way = ", ".join(f"{n} {b}" for b, n in tokens_used)
            if used_wild:
                way += (", " if way else "") + f"{used_wild} Wild Weather"
            return Verdict(False, f"{c.name} can be paid too: {way}.")
        return Verdict(True, "Right: " + (", ".join(ed.card(c).name for c in sorted(right)))
                       + " can be paid; the others cannot.")

    return Exercise(
        kind="pangaea.creature_payable", seed=seed,
        question=(f"Red holds {holding}. Which of these Creature Rituals can Red pay now? "
                  "(“any” means a token of any weather.)"),
        answer_kind="choices", answer=right,
        options=tuple(Option(c.id, label(c)) for c in cards), checker=check,
        hint="Cover the named weathers first, then see what is left for the “any” symbols.",
        explanation="Payable: " + ", ".join(ed.card(c).name for c in sorted(right)) + ".",
        context={"state": state, "have": have, "wild": wild})


# ----- 03 Land Rituals ------------------------------------------------------------------------


def _ritual_position(seed: int, extra_pairs: bool = False):
    """A Land Ritual lesson: a small board with Trees of Red, Blue and Orange and Spirits;
    Red has two Trees on the biomes of a card, joined by 1-6 shortest chains of 3-6 spaces.
    Returns (state, card, start, end)."""
    rng = random.Random(seed)
    ed = _edition()
    cards = [c for c in ed.land_cards if c.biomes[0] != c.biomes[1]]
    while True:
        card = rng.choice(cards)
        cells = _grid(6, 4)
        wet = set(rng.sample(cells, 5))
        land = [c for c in cells if c not in wet]
        rng.shuffle(land)
        owners: dict = {}
        counts = [0, 0, 0]
        for c in land:
            r = rng.random()
            p = RED if r < 0.35 else BLUE if r < 0.55 else ORANGE if r < 0.7 else None
            if p is not None and counts[p] < 9:
                owners[c] = p
                counts[p] += 1
        spirits = dict(zip((RED, BLUE, ORANGE), rng.sample(sorted(wet), 3)))
        reds = sorted(c for c, p in owners.items() if p == RED)
        if len(reds) < 2:
            continue
        start, end = rng.sample(reds, 2)
        others = [b for b in ed.biomes if b not in card.biomes]
        biomes = {c: rng.choice(others) for c in reds}
        biomes[start], biomes[end] = card.biomes
        if extra_pairs and len(reds) > 3:
            biomes[rng.choice([c for c in reds if c not in (start, end)])] = card.biomes[1]
        spaces = {c: ("water", ed.biomes[0]) if c in wet else
                  ("land", biomes.get(c, rng.choice(ed.biomes))) for c in cells}
        board = custom_board(spaces)
        state = _game(board, players=3, trees=owners, spirits=spirits)
        pos = state.position
        n = count_shortest_paths(pos, board.index[start], board.index[end])
        if not 1 <= n <= 6:
            continue
        (pair, *_) = ritual_pairs(pos, RED, card, start, end)
        if 2 <= pair.steps <= 5:
            return state, card, start, end


@register("pangaea.land_path", game=GAME, notebook="pangaea/03_land_rituals.ipynb",
          rule="A Land Ritual joins your two Trees through adjacent Trees and Spirits of any "
               "player, along a shortest chain",
          title="Click a shortest chain")
def land_path(seed: int) -> Exercise:
    state, card, start, end = _ritual_position(seed)
    pos = state.position
    options = land_ritual_options(pos, RED, card, start, end)
    answer = options[0].path

    def check(path: tuple) -> Verdict:
        got = checked_option(pos, RED, card, path)
        if isinstance(got, RitualOption):
            if {got.start, got.end} != {start, end}:
                return Verdict(False, f"That chain joins {got.start} and {got.end}; this question "
                               f"asks for the Trees on {start} and {end}.")
            return Verdict(True, f"Right: a shortest chain of {len(path)} spaces. It would score "
                           f"{got.explain(PLAYER_NAMES)}.")
        return Verdict(False, got)

    return Exercise(
        kind="pangaea.land_path", seed=seed,
        question=(f"{card.title}: Red joins its Tree on {start} (A) and its Tree on {end} (B). "
                  "Click, in order from A to B, the spaces of a shortest chain."),
        answer_kind="path", answer=answer, checker=check,
        draw=_drawer(state, "path", base={start: "A", end: "B"}),
        hint="Only Trees and Spirits (of any colour) connect; count the steps of each way and "
             "keep a shortest one.",
        explanation=(f"There {'is' if len(options) == 1 else 'are'} {len(options)} shortest "
                     f"chain{'s' if len(options) != 1 else ''} of {len(answer)} spaces, e.g. "
                     + " → ".join(map(str, answer)) + "."),
        context={"state": state, "card": card.id})


@register("pangaea.land_path_score", game=GAME, notebook="pangaea/03_land_rituals.ipynb",
          rule="A Land Ritual scores 1 per Tree or Spirit of your own on the chain and +1 per "
               "other colour on it",
          title="What does this chain score?")
def land_path_score(seed: int) -> Exercise:
    state, card, start, end = _ritual_position(seed)
    pos = state.position
    rng = random.Random(seed)
    option = rng.choice(land_ritual_options(pos, RED, card, start, end))
    board = pos.board
    pieces = sum(1 for c in option.path if pos.holder(board.index[c]) not in (RED, NOBODY))
    colours = _names(option.other_colours) or "no other colour"

    def parts(answer: int) -> str:
        own, extra = option.own, len(option.other_colours)
        if answer == own:
            return (f"You counted Red's {own} pieces but not the other colours: +1 each for "
                    f"{colours}.")
        if answer == own + pieces and pieces != extra:
            return (f"Each other colour counts once, however many pieces it has on the chain: "
                    f"+{extra} for {colours}, not +{pieces}.")
        if answer == extra:
            return f"You left out Red's own {own} Trees and Spirit on the chain (both ends count)."
        if answer == own - 2 + extra:
            return "Both end Trees count too: they are Red's own Trees on the chain."
        return f"{option.explain(PLAYER_NAMES)}."

    labels = {c: str(k + 1) for k, c in enumerate(option.path)}
    return Exercise(
        kind="pangaea.land_path_score", seed=seed,
        question=(f"{card.title}: Red performs the Land Ritual along the numbered chain "
                  f"(1 to {len(option.path)}). How many points does it score?"),
        answer_kind="number", answer=option.points,
        checker=_number_checker(option.points, parts,
                                f"Right: {option.explain(PLAYER_NAMES)}."),
        draw=_drawer(state, "cells", base=labels, paths=[option.path]),
        hint="1 for each of Red's own pieces on the chain, then +1 for each other colour.",
        explanation=option.explain(PLAYER_NAMES) + ".",
        answer_cells=(), context={"state": state, "path": option.path})


@register("pangaea.land_best_score", game=GAME, notebook="pangaea/03_land_rituals.ipynb",
          rule="Of all the legal Land Rituals a card allows, the best scores most: try every pair "
               "of Trees and every shortest chain",
          title="The best Land Ritual")
def land_best_score(seed: int) -> Exercise:
    state, card, start, end = _ritual_position(seed, extra_pairs=True)
    pos = state.position
    best = best_ritual(pos, RED, card)
    pairs = ritual_pairs(pos, RED, card)

    def parts(answer: int) -> str:
        for pair in pairs:
            if answer in pair.scores and answer < best.points:
                return (f"{answer} is what a chain from {pair.start} to {pair.end} can give, but "
                        f"a better one exists: {best.start} → {best.end} scores "
                        f"{best.explain(PLAYER_NAMES)}.")
        return (f"No legal Land Ritual scores {answer}. The best: {best.start} → {best.end}, "
                f"{best.explain(PLAYER_NAMES)}.")

    return Exercise(
        kind="pangaea.land_best_score", seed=seed,
        question=(f"{card.title}: what is the most Red can score with this card right now? "
                  "(Any pair of Red's Trees on the card's two biomes may be joined.)"),
        answer_kind="number", answer=best.points,
        checker=_number_checker(best.points, parts,
                                f"Right: {best.start} → {best.end} scores "
                                f"{best.explain(PLAYER_NAMES)}."),
        draw=_drawer(state, "path"),
        hint=(f"Find Red's Trees on {card.biomes[0]} and on {card.biomes[1]}, then the shortest "
              "chains between them."),
        explanation=(f"Best: {' → '.join(map(str, best.path))}, {best.explain(PLAYER_NAMES)}."),
        answer_cells=best.path, context={"state": state, "card": card.id})


_VERDICTS = (("legal", "Yes, it is a legal Land Ritual"),
             ("ends", "No: it does not join two of Red's Trees on the card's biomes"),
             ("gap", "No: a space on it holds no Tree or Spirit"),
             ("detour", "No: a shorter chain exists"))
_FAULT_KEY = {"": "legal", "ends": "ends", "biomes": "ends", "gap": "gap", "detour": "detour"}


def _candidates(state: GameState, card: LandCard, start: tuple, end: tuple) -> dict:
    """Paths of each kind between (or near) the two Trees: legal, detour, gap, wrong ends."""
    pos, board = state.position, state.board
    out: dict[str, list] = {"legal": [o.path for o in land_ritual_options(pos, RED, card,
                                                                          start, end)]}
    length = len(out["legal"][0])
    graph = board.graph
    connecting = graph.subgraph([c for c in board.cells if pos.connects(board.index[c])])
    out["detour"] = [tuple(p) for p in nx.all_simple_paths(connecting, start, end,
                                                           cutoff=length + 1)
                     if len(p) > length][:20]
    out["gap"] = [tuple(p) for p in nx.all_simple_paths(graph, start, end, cutoff=length)
                  if any(not pos.connects(board.index[c]) for c in p[1:-1])][:20]
    out["ends"] = [p[:-1] for p in out["legal"] if len(p) > 2]
    return {k: v for k, v in out.items() if v}


@register("pangaea.land_is_legal", game=GAME, notebook="pangaea/03_land_rituals.ipynb",
          rule="A chain is refused if an end is not your Tree on the card's biomes, if a space "
               "on it holds no Tree or Spirit, or if it is longer than a shortest one",
          title="Legal or not?")
def land_is_legal(seed: int) -> Exercise:
    state, card, start, end = _ritual_position(seed)
    rng = random.Random(seed)
    candidates = _candidates(state, card, start, end)
    kind = sorted(candidates)[seed % len(candidates)]
    path = rng.choice(candidates[kind])
    fault, reason = path_fault(state.position, RED, card, path)
    right = _FAULT_KEY[fault]
    if right == "legal":
        ok = "Right: both ends are Red's Trees on the card's biomes, every space connects, and "
        ok += "no chain is shorter."
    else:
        ok = "Right: " + reason

    def why(answer: str) -> str:
        if right == "legal":
            return ("It is legal: both ends are Red's Trees on the card's biomes, every space on "
                    "it holds a Tree or a Spirit, and no chain is shorter.")
        return reason

    return Exercise(
        kind="pangaea.land_is_legal", seed=seed,
        question=(f"{card.title}: Red proposes the numbered chain (1 to {len(path)}). Is it a "
                  "legal Land Ritual?"),
        answer_kind="choice", answer=right,
        options=tuple(Option(k, t) for k, t in _VERDICTS), checker=_choice_checker(right, why, ok),
        draw=_drawer(state, "cells", base={c: str(k + 1) for k, c in enumerate(path)},
                     paths=[path]),
        hint="Check the two ends, then every space in between, then whether a shorter way exists.",
        explanation=ok[len("Right: "):], answer_cells=(),
        context={"state": state, "path": path, "card": card.id})


# ----- 04 Scoring -----------------------------------------------------------------------------


def _forest(rng: random.Random, counts: Sequence[int]) -> GameState:
    """A 3-player board with ``counts[p]`` Trees of each player."""
    board = _board(rng, 7, 5, 4)
    land = _land(board)
    rng.shuffle(land)
    trees = {}
    for p, n in enumerate(counts):
        for _ in range(n):
            trees[land.pop()] = p
    return _game(board, players=len(counts), trees=trees)


@register("pangaea.most_trees", game=GAME, notebook="pangaea/04_scoring.ipynb",
          rule="Most Trees: the one player with at least 5 Trees on the continent and more than "
               "anyone else; on a tie nobody holds it",
          title="Who holds Most Trees?")
def most_trees(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = _edition()
    low = ed.most_trees_minimum
    style = seed % 3
    if style == 0:       # a clear leader
        counts = [rng.randint(low, low + 3)] + [rng.randint(1, low + 1) for _ in range(2)]
        counts[0] = max(counts) + 1
    elif style == 1:     # a tie at the top
        top = rng.randint(low - 1, low + 2)
        counts = [top, top, rng.randint(1, top - 1)]
    else:                # nobody has enough
        counts = [rng.randint(1, low - 1) for _ in range(3)]
    rng.shuffle(counts)
    state = _forest(rng, counts)
    on_board = [state.trees.count(p) for p in range(3)]
    holder = state.most_trees          # the engine's marker (the tests hold it to the rule)
    right = str(holder) if holder != NOBODY else "nobody"
    tally = ", ".join(f"{PLAYER_NAMES[p]} {n}" for p, n in enumerate(on_board))
    if holder != NOBODY:
        because = (f"{PLAYER_NAMES[holder]} has {on_board[holder]} Trees, at least {low} and more "
                   f"than anyone else ({tally}).")
    elif on_board.count(max(on_board)) > 1 and max(on_board) >= low:
        because = f"The most Trees are tied ({tally}), so nobody holds the marker."
    else:
        because = f"Nobody has {low} Trees on the continent ({tally}), so nobody holds it."

    return Exercise(
        kind="pangaea.most_trees", seed=seed,
        question="Count the Trees on the continent. Who holds the Most Trees marker?",
        answer_kind="choice", answer=right,
        options=tuple(Option(str(p), PLAYER_NAMES[p]) for p in range(3)) + (Option("nobody", "Nobody"),),
        checker=_choice_checker(right, lambda a: because, "Right: " + because),
        draw=_drawer(state, "cells"),
        hint=f"The holder needs at least {low} Trees and strictly more than each other player.",
        explanation=because, context={"state": state, "counts": on_board})


def _finished(rng: random.Random) -> GameState:
    """A finished 3-player game on a small board: points from Rituals and Trees as drawn."""
    low = _edition().most_trees_minimum
    counts = [rng.randint(2, low + 2) for _ in range(3)]
    if rng.random() < 0.6:
        counts[rng.randrange(3)] = max(counts) + 1
    state = _forest(rng, counts)
    biomes = state.edition.biomes
    state = state.arranged(weather={p: {b: rng.randint(0, 2) for b in biomes} for p in range(3)})
    players = tuple(replace(ps, creature_points=rng.randint(0, 5) * 3,
                            land_points=rng.randint(0, 14))
                    for ps in state.players)
    return replace(state, players=players, phase="over", end_triggered=True,
                   end_reason="Red reached the top of the Sacred Mountain")


@register("pangaea.final_score", game=GAME, notebook="pangaea/04_scoring.ipynb",
          rule="Final score: Creature Ritual points + Land Ritual points + 2 for the holder of "
               "Most Trees",
          title="A player's final score")
def final_score(seed: int) -> Exercise:
    rng = random.Random(seed)
    state = _finished(rng)
    p = rng.randrange(3)
    score = state.scores()[p]
    cats = dict(score.categories)
    ps = state.players[p]
    name = PLAYER_NAMES[p]
    bonus = state.edition.most_trees_bonus
    on_board = [state.trees.count(q) for q in range(3)]
    trees_text = ", ".join(f"{PLAYER_NAMES[q]} {n}" for q, n in enumerate(on_board))
    sums = " + ".join(f"{v} {k}" for k, v in score.categories)

    def parts(answer: int) -> str:
        if state.most_trees == p and answer == score.total - bonus:
            return (f"You missed the Most Trees bonus: {name} has the most Trees ({trees_text}), "
                    f"worth +{bonus}.")
        if state.most_trees != p and answer == score.total + bonus:
            holder = ("nobody" if state.most_trees == NOBODY else PLAYER_NAMES[state.most_trees])
            return (f"{name} does not hold Most Trees ({trees_text}; the marker goes to "
                    f"{holder}), so no bonus.")
        for k, v in score.categories:
            if v and answer == score.total - v:
                return f"You left out the {k} points ({v})."
        return f"Not {answer}: {sums} = {score.total}."

    return Exercise(
        kind="pangaea.final_score", seed=seed,
        question=(f"The game is over. Red, Blue and Orange scored these Ritual points: "
                  + "; ".join(f"{PLAYER_NAMES[q]} {s.creature_points} from Creature Rituals "
                              f"and {s.land_points} from Land Rituals"
                              for q, s in enumerate(state.players))
                  + f". The Trees on the continent are drawn. What is {name}'s final score?"),
        answer_kind="number", answer=score.total,
        checker=_number_checker(score.total, parts, f"Right: {sums} = {score.total}."),
        draw=_drawer(state, "cells"),
        hint="Add the two kinds of Ritual points, then check who holds Most Trees.",
        explanation=f"{name}: {sums} = {score.total} (Trees: {trees_text}).",
        context={"state": state, "player": p, "categories": cats, "ps": ps})


@register("pangaea.mountain_step", game=GAME, notebook="pangaea/04_scoring.ipynb",
          rule="Points climb the Sacred Mountain; passing the summit takes a Summit Marker and "
               "the count goes on from step 1",
          title="Where is the score marker?")
def mountain_step(seed: int) -> Exercise:
    rng = random.Random(seed)
    summit = _edition().summit_steps
    points = rng.randint(summit // 2, summit * 2 + 5)
    step, markers = mountain_position(points, summit)
    name = PLAYER_NAMES[rng.randrange(4)]
    because = (f"{points} points: " + (f"{markers} time{'s' if markers > 1 else ''} past the "
                                       f"summit of {summit} (a Summit Marker each), then step "
                                       f"{step}" if markers else f"step {step}, below the summit "
                                       f"of {summit}") + ".")

    def parts(answer: int) -> str:
        if answer == points:
            return f"The mountain has only {summit} steps. {because}"
        return f"Not step {answer}. {because}"

    return Exercise(
        kind="pangaea.mountain_step", seed=seed,
        question=(f"The Sacred Mountain has {summit} steps to the summit. {name} has {points} "
                  f"points. On which step does {name}'s score marker stand?"),
        answer_kind="number", answer=step,
        checker=_number_checker(step, parts, "Right: " + because),
        hint="Every time the marker passes the summit, take a Summit Marker and count on from 1.",
        explanation=because, context={"points": points, "markers": markers})


@register("pangaea.winner", game=GAME, notebook="pangaea/04_scoring.ipynb",
          rule="The most points wins; on a tie the player with more Weather Tokens left wins, "
               "still tied they share the win",
          title="Who wins?")
def winner(seed: int) -> Exercise:
    rng = random.Random(seed)
    state = _finished(rng)
    totals = [s.total for s in state.scores()]
    if seed % 2 and totals.count(max(totals)) == 1:
        # every other seed: a tie at the top, so the Weather Tokens left decide
        lead = totals.index(max(totals))
        other = rng.choice([q for q in range(3) if q != lead])
        players = list(state.players)
        players[other] = replace(players[other], creature_points=players[other].creature_points
                                 + totals[lead] - totals[other])
        state = replace(state, players=tuple(players))
        totals = [s.total for s in state.scores()]
    left = [sum(ps.weather) for ps in state.players]
    won = state.winners()               # the engine's winners (the tests hold them to the rule)
    right = str(won[0]) if len(won) == 1 else "shared"
    table = "; ".join(f"{PLAYER_NAMES[q]} {t} points, {w} Weather Tokens left"
                      for q, (t, w) in enumerate(zip(totals, left)))
    if len(won) > 1:
        because = f"{_names(won)} tie on points and on Weather Tokens left, so they share the win."
    elif totals.count(max(totals)) > 1:
        because = (f"The top is tied on points; {PLAYER_NAMES[won[0]]} has more Weather Tokens "
                   "left and wins.")
    else:
        because = f"{PLAYER_NAMES[won[0]]} has the most points and wins."

    return Exercise(
        kind="pangaea.winner", seed=seed,
        question=f"The final scores: {table}. Who wins?",
        answer_kind="choice", answer=right,
        options=tuple(Option(str(q), PLAYER_NAMES[q]) for q in range(3))
        + (Option("shared", "They share the win"),),
        checker=_choice_checker(right, lambda a: because, "Right: " + because),
        hint="Most points first; only a tie looks at the Weather Tokens left.",
        explanation=because, context={"state": state})
