"""Exercise generators for The Dawn of Pangaea, notebooks 01-04 (setup, turns, Land Rituals,
scoring).  See :mod:`pangaea_lab.core.exercises` for what a generator returns.

Every position is built with the rules engine on a small hand-built board (a few rows of
spaces, the rule in focus); the engine gives the answer and decides whether an answer is
right.  A wrong answer gets a reason about what is wrong *in that answer* (the space that is
water, the colour counted once per piece, the tie read as a win), never the right answer;
hints go from a nudge to a pointer on the position.  Level 1 asks about the rule on a small
board, level 2 on a fuller one with more to look past.

>>> from pangaea_lab import exercises
>>> ex = exercises.generate("pangaea.flying_seed", seed=3, level=2)
>>> ex.check(ex.answer).correct
True
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable, Iterable, Sequence

import networkx as nx

from ...core.errors import IllegalAction, InvalidSetup
from ...core.exercises import (Exercise, Option, Verdict, cell_text, cells_verdict,
                               choice_verdict, choices_verdict, number_verdict, plural,
                               register, short)
from ..actions import EndTurn, ExpandForest, FlyingSeed, PlayCreature, SpiritGrowth
from ..board import Board, custom_board
from ..edition import CreatureCard, LandCard, load_edition
from ..rituals import (NOBODY, RitualOption, best_ritual, checked_option, count_shortest_paths,
                       land_ritual_options, path_fault, ritual_pairs, score_path)
from ..scoring import mountain_position, payments
from ..setup import new_game, setup_steps
from ..state import PLAYER_NAMES, GameState
from ..game import GAME
from .common import (cells_words, continent, drawer, game, grid, in_words,
                     number_misconceptions, player_names, random_owners)

RED, BLUE, ORANGE = 0, 1, 2
NB01, NB02 = "pangaea/01_setup.ipynb", "pangaea/02_turns.ipynb"
NB03, NB04 = "pangaea/03_land_rituals.ipynb", "pangaea/04_scoring.ipynb"
def _edition():
    return load_edition()


def _rng(name: str, seed: int, level: int) -> random.Random:
    """The random source of one exercise: the same kind, seed and level give the same one."""
    return random.Random(f"pangaea.{name}:{seed}:{level}")


# ----- small positions ------------------------------------------------------------------------


def _board(rng: random.Random, cols: int, rows: int, water: int,
           biomes: dict | None = None, blessing: Iterable = ()) -> Board:
    """A small board: ``water`` Water Spaces at random, the rest land of random biomes
    (``biomes`` fixes the biome of some spaces)."""
    spaces, _ = continent(rng, cols, rows, water)
    for c, b in (biomes or {}).items():
        spaces[c] = ("land", b)
    return custom_board(spaces, blessing=blessing)


def _game(board: Board, players: int = 2, **arranged) -> GameState:
    """A family game on ``board`` with Red to move and pieces placed by hand."""
    return game(board, players=players, arranged=arranged, family=True)


def _land(board: Board) -> list[tuple[int, int]]:
    return [board.cells[i] for i in board.land]


def _water(board: Board) -> list[tuple[int, int]]:
    return [board.cells[i] for i in board.water]


def _around(board: Board, cell: tuple) -> list[tuple[int, int]]:
    """The spaces next to ``cell``."""
    return sorted(board.cells[j] for j in board.neighbours[board.index[cell]])


def _refusal(state: GameState, action) -> str:
    """The engine's reason for refusing ``action`` ("" if it is legal), said of "it" rather
    than of the space's coordinates (the verdict names the space first)."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        reason = exc.reason
        cell = getattr(action, "cell", None) or (getattr(action, "cells", None) or (None,))[0]
        if cell is not None and reason.startswith(cell_text(cell)):
            reason = "it" + reason[len(cell_text(cell)):]
        return reason
    return ""


# ----- 01 Game Setup --------------------------------------------------------------------------


def _setup_board(rng: random.Random, level: int) -> tuple[GameState, GameState]:
    """A continent before and after its Blessings are laid: a small one at level 1 (few Water
    Spaces), a larger one with more water and more blessing icons at level 2."""
    cols, rows, water, icons = (4, 3, 3, (1, 2)) if level == 1 else (6, 4, 8, (2, 4))
    cells = grid(cols, rows)
    wet = rng.sample(cells, water)
    marked = set(rng.sample(wet, rng.randint(*icons)))
    kinds = _edition().biomes
    spaces = {c: ("water", kinds[0]) if c in wet else ("land", rng.choice(kinds)) for c in cells}
    steps = setup_steps(players=2, seed=rng.randrange(10**6),
                        board=custom_board(spaces, blessing=marked), family=True)
    before = next(s.state for s in steps if s.title == "Build the continent")
    after = next(s.state for s in steps if s.title.startswith("Blessings"))
    return before, after


@register("pangaea.setup_blessings", game=GAME.name, notebook=NB01,
          rule="At setup a Blessing Token is laid face up on every Water Space with the "
               "blessing icon",
          title="Where do the Blessings go?",
          levels=("a small continent with a few Water Spaces",
                  "a larger continent with more water, not all of it marked"))
def setup_blessings(seed: int, level: int) -> Exercise:
    before, after = _setup_board(_rng("setup_blessings", seed, level), level)
    board = after.board
    right = {board.cells[i] for i, kind in enumerate(after.board_blessings) if kind}
    water = _water(board)

    def classify(cell: tuple) -> tuple[str, str]:
        if board.terrain[board.index[cell]] == "land":
            return "blessing-on-land", "it is a Land Space; Blessings are laid on water only."
        return ("every-water-space", "it is water but shows no blessing icon (the white dot), "
                "so no Blessing is laid there.")

    return Exercise(
        kind="pangaea.setup_blessings", seed=seed,
        question=("Game Setup: a Blessing Token goes on some spaces of this continent. "
                  "Click every space that gets one."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=classify, missed="Some space that gets a Blessing is still "
            "empty: look at every blue space for the blessing icon.",
            right_reason="Right: each Water Space with the blessing icon gets one Blessing "
            "Token, face up; no other space gets one."),
        draw=drawer(before, "cells"),
        hints=(f"Blessings lie on water only: this continent has "
               f"{plural(len(water), 'Water Space')}. Which of them show the blessing icon?",
               f"The Water Spaces are {cells_words(water)} (marked). Look at each for the small "
               "white dot: only those get a Blessing."),
        hint_marks=((), tuple(water)),
        explanation=("Blessings are laid only on Water Spaces that show the blessing icon (the "
                     f"white dot): {cells_words(right)}."),
        context={"state": after})


#: what a player has when play starts: (key, words, the setup step that gives it)
_SETUP_ITEMS = (("trees", "Trees in the supply", "Players take their pieces"),
                ("seeds", "Seeds in the supply", "Players take their pieces"),
                ("hand", "Ritual cards in hand", "Shuffle the Ritual decks and deal hands"),
                ("tiles", "Biome Tiles brought for the continent", "Build the continent"))


def _setup_amount(last: GameState, key: str, player: int) -> int:
    """What one player has of ``key`` when play starts, read from the engine's setup."""
    ps = last.players[player]
    if key == "trees":
        return ps.trees
    if key == "seeds":
        return ps.seeds
    if key == "hand":
        return len(ps.hand)
    return len(last.board.tiles) // last.num_players


def _setup_wrongs(last: GameState, items: Sequence[str], group: Sequence[int],
                  right: int) -> list[tuple[int, str, str]]:
    """The typical wrong counts for ``items`` over the players in ``group``."""
    one = sum(_setup_amount(last, key, group[0]) for key in items)
    wrongs = []
    if len(group) > 1:
        wrongs.append((one, "counted-one-player", "That is what one player has; the question "
                       f"asks for {player_names(group)} together."))
    if "seeds" in items:
        wrongs.append((right + len(group), "counted-score-marker", "You counted the score "
                       "marker: one of each player's Seeds waits beside the Sacred Mountain, "
                       "not in the supply."))
    if "hand" in items:
        wrongs.append((right - len(group), "one-deck-only", "Each player draws from both Ritual "
                       "decks, the Land and the Creature deck."))
    for key in items if len(items) > 1 else ():
        part = sum(_setup_amount(last, key, p) for p in group)
        words = next(w for k, w, _ in _SETUP_ITEMS if k == key)
        wrongs.append((right - part, f"left-out-{key}", f"You left out the {words}."))
    return wrongs


@register("pangaea.setup_counts", game=GAME.name, notebook=NB01,
          rule="What each player takes at setup: Trees, Seeds (one is the score marker), a hand "
               "of one card of each deck; one Biome Tile of each type per player",
          title="Counting the setup",
          levels=("one kind of piece, for some of the players",
                  "two kinds of piece together, for some of the players"))
def setup_counts(seed: int, level: int) -> Exercise:
    rng = _rng("setup_counts", seed, level)
    players = rng.randint(2, 4)
    last = setup_steps(players=players, seed=seed)[-1].state
    group = sorted(rng.sample(range(players), rng.randint(1, players)))
    chosen = rng.sample(_SETUP_ITEMS, level)
    items = [key for key, _, _ in chosen]
    right = sum(_setup_amount(last, key, p) for key in items for p in group)
    words = " and ".join(w for _, w, _ in chosen)
    who = PLAYER_NAMES[group[0]] if len(group) == 1 else f"{player_names(group)} together"
    steps = sorted({step for _, _, step in chosen})
    return Exercise(
        kind="pangaea.setup_counts", seed=seed,
        question=(f"A {players}-player game ({player_names(range(players))}). When play starts, "
                  f"count the {words} of {who}: how many in all?"),
        answer_kind="number", answer=right,
        checker=lambda given: number_verdict(
            given, right, what=f"the number of {words}",
            rule="Count what one player gets at setup, then add it for each player the "
            "question names.", misconceptions=number_misconceptions(
                right, _setup_wrongs(last, items, group, right))),
        hints=("Think of the setup " + ("steps " if len(steps) > 1 else "step ")
               + " and ".join(f"“{s}”" for s in steps) + ".",
               f"Count what one player has of the {words}; then count it once for each of "
               f"{player_names(group)}" + (" and add the two kinds." if level > 1 else ".")),
        explanation=(f"{player_names(group)}: " + "; ".join(
            f"{next(w for k, w, _ in _SETUP_ITEMS if k == key)} "
            + " + ".join(str(_setup_amount(last, key, p)) for p in group) for key in items)
            + f", {right} in all."),
        context={"state": last, "items": items, "group": group})


def _step_relation(j: int, k: int, after: bool, asked: str) -> str:
    """Why step ``j`` is not the step right after (or before) step ``k``, in words that name
    only those two steps."""
    side = "before" if j < k else "after"
    if (j > k) != after:
        return (f"comes {side} “{asked}” in the setup, so it cannot be the step right "
                f"{'after' if after else 'before'} it.")
    return f"comes {side} “{asked}”, but not right {side}: another step lies between them."


@register("pangaea.setup_order", game=GAME.name, notebook=NB01,
          rule="The order of the Game Setup steps",
          title="Which setup step comes next?",
          levels=("the step right after, among three", "the step right before or after, "
                  "among four, in the family or the full game"))
def setup_order(seed: int, level: int) -> Exercise:
    rng = _rng("setup_order", seed, level)
    family = level == 1 or rng.random() < 0.5
    steps = setup_steps(players=rng.randint(2, 4), seed=seed, family=family)
    titles = [s.title for s in steps]
    after = level == 1 or rng.random() < 0.5
    k = rng.randrange(len(titles) - 1) if after else rng.randrange(1, len(titles))
    target = k + 1 if after else k - 1
    others = [j for j in range(len(titles)) if j not in (k, target)]
    chosen = [target] + rng.sample(others, min(level + 1, len(others)))
    rng.shuffle(chosen)
    options = tuple(Option(f"step{j + 1}", titles[j]) for j in chosen)
    right = f"step{target + 1}"
    where = "right after" if after else "right before"
    game = "family game" if family else "full game"

    def why_not(key: str) -> tuple[str, str]:
        j = int(key[4:]) - 1
        name = "step-too-far" if (j > k) == after else "step-the-wrong-way"
        return name, f"“{titles[j]}” {_step_relation(j, k, after, titles[k])}"

    return Exercise(
        kind="pangaea.setup_order", seed=seed,
        question=f"Game Setup ({game}): which step comes {where} “{titles[k]}”?",
        answer_kind="choice", answer=right, options=options,
        checker=lambda given: choice_verdict(
            given, right, why_not=why_not, right_reason=f"Right: “{titles[target]}” is step "
            f"{target + 1}. {steps[target].explanation}"),
        hints=(f"Ask what “{titles[k]}” needs done before it, and what needs it done first.",
               f"“{titles[k]}” is step {k + 1} of {len(titles)}. The setup goes from the "
               "pieces to the continent and what lies on it, then the cards, and last who "
               "starts."),
        explanation=f"Step {target + 1}: {titles[target]}. {steps[target].explanation}",
        context={"steps": titles})


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")


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


@register("pangaea.turn_order", game=GAME.name, notebook=NB01,
          rule="The setup draws the starting player; then play goes clockwise",
          title="Who plays when?",
          levels=("once round the table", "twice round the table, with four players"))
def turn_order(seed: int, level: int) -> Exercise:
    rng = _rng("turn_order", seed, level)
    players = rng.randint(3, 4) if level == 1 else 4 if rng.random() < 0.7 else 3
    state = new_game(players=players, seed=seed, family=True)
    turn = (rng.randint(2, players + 1) if level == 1
            else rng.randint(players + 1, 2 * players + 1))
    order = _turn_order(state, turn)
    right = order[-1]
    first = PLAYER_NAMES[state.first_player]
    shift = rng.randrange(players)
    seats = ", ".join(PLAYER_NAMES[(shift + j) % players] for j in range(players))
    after = {p: PLAYER_NAMES[(p + 1) % players] for p in range(players)}

    def why_not(key: str) -> tuple[str, str]:
        p = int(key)
        turns = [t + 1 for t, q in enumerate(order) if q == p]
        name = ("counter-clockwise" if p == (state.first_player - (turn - 1)) % players
                else "counted-from-zero" if p == (state.first_player + turn) % players
                else "miscounted")
        said = (f"{PLAYER_NAMES[p]} plays turn {' and turn '.join(map(str, turns))}" if turns
                else f"{PLAYER_NAMES[p]} has not played yet")
        return name, (f"Counting clockwise with {first}'s turn as turn 1, {said}, not the "
                      f"{_ORDINALS[turn - 1]} turn.")

    return Exercise(
        kind="pangaea.turn_order", seed=seed,
        question=(f"{players} players sit clockwise as {seats}. At setup {first}'s Seed is "
                  f"drawn, so {first} starts. Who plays the {_ORDINALS[turn - 1]} turn of the "
                  "game?"),
        answer_kind="choice", answer=str(right),
        options=tuple(Option(str(p), PLAYER_NAMES[p]) for p in range(players)),
        checker=lambda given: choice_verdict(
            given, str(right), why_not=why_not, right_reason=f"Right: counting clockwise "
            f"from {first}, turn {turn} is {PLAYER_NAMES[right]}'s."),
        hints=(f"Turn 1 is {first}'s; go round the table clockwise, one turn each.",
               f"Clockwise, {after[state.first_player]} sits after {first}, and after "
               f"{PLAYER_NAMES[players - 1]} comes {PLAYER_NAMES[0]} again. Count up to turn "
               f"{turn}."),
        explanation=("Turns: " + ", ".join(f"{t + 1} {PLAYER_NAMES[p]}"
                                           for t, p in enumerate(order)) + "."),
        context={"state": state, "order": order})


# ----- 02 Taking turns ------------------------------------------------------------------------


def _crowded(rng: random.Random, level: int, trees_of: Sequence[int] = (RED, RED, BLUE)
             ) -> GameState:
    """A board with Trees and Seeds of Red and Blue (Red to move, one Seed left to sow): a
    small one with a few pieces at level 1, a larger, fuller one at level 2."""
    cols, rows, water, pieces = (4, 3, 2, 4) if level == 1 else (6, 4, 5, 10)
    board = _board(rng, cols, rows, water)
    land = _land(board)
    rng.shuffle(land)
    n_trees = pieces // 2
    trees = {c: rng.choice(trees_of) for c in land[:n_trees]}
    trees[land[0]] = RED
    # Red keeps a Seed in the supply to sow with
    seeds = random_owners(rng, land[n_trees:pieces], {RED: 1, BLUE: 2})
    return _game(board, trees=trees, seeds=seeds)


def _sowing_classify(state: GameState, action: Callable[[tuple], object]
                     ) -> Callable[[tuple], tuple[str, str]]:
    """Why a clicked space cannot take the Seed: the engine's refusal, named by its kind."""
    board = state.board

    def classify(cell: tuple) -> tuple[str, str]:
        i = board.index[cell]
        reason = _refusal(state, action(cell)) or "it cannot take the Seed."
        if board.terrain[i] != "land":
            return "seed-on-water", reason
        if state.trees[i] != NOBODY or state.seeds[i] != NOBODY:
            return "space-taken", reason
        near = {state.trees[j] for j in board.neighbours[i]} - {NOBODY}
        if near:
            return "next-to-other-tree", (reason + " A Tree of another colour next to it does "
                                          "not count.")
        return "too-far", reason

    return classify


def _blocked(state: GameState) -> list[tuple[int, int]]:
    """The spaces no Seed may take: water and spaces that hold a Tree or a Seed."""
    board = state.board
    return [c for i, c in enumerate(board.cells) if board.terrain[i] != "land"
            or state.trees[i] != NOBODY or state.seeds[i] != NOBODY]


@register("pangaea.flying_seed", game=GAME.name, notebook=NB02,
          rule="Flying Seed: one of your Seeds on any empty Land Space",
          title="Where may a Flying Seed land?",
          levels=("a small board with a few pieces",
                  "a crowded board with Trees and Seeds of both colours"))
def flying_seed(seed: int, level: int) -> Exercise:
    state = _crowded(_rng("flying_seed", seed, level), level)
    board = state.board
    right = {a.cell for a in state.legal_actions() if isinstance(a, FlyingSeed)}
    reds = sorted(board.cells[i] for i in board.land if state.trees[i] == RED)
    near = {c for t in reds for c in _around(board, t)} & right

    def partial(given: frozenset) -> tuple[str, str] | None:
        if given and given <= near and near != right:
            return ("expand-forest-range", "You kept to the spaces next to Red's Trees: that is "
                    "Expand Forest. A Flying Seed may land on an empty Land Space anywhere.")
        return None

    blocked = _blocked(state)
    return Exercise(
        kind="pangaea.flying_seed", seed=seed,
        question="Red takes the Flying Seed action. Click every space where Red may put the Seed.",
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=_sowing_classify(state, FlyingSeed),
            missed="Some space where the Seed may land is missing: look over the whole "
            "continent, far from Red's Trees too.", partial=partial,
            right_reason="Right: a Flying Seed may land on any empty Land Space, near Red's "
            "Trees or far from them."),
        draw=drawer(state, "cells"),
        hints=(f"A Flying Seed is not tied to Red's Trees (on {cells_words(reds)}): look over the "
               "whole continent.",
               f"Leave out the {plural(len(blocked), 'space')} marked: water, or already holding "
               "a Tree or a Seed. Every other space will do."),
        hint_marks=((), tuple(blocked)),
        explanation="Every empty Land Space: " + cells_words(right) + ".",
        context={"state": state})


@register("pangaea.expand_forest", game=GAME.name, notebook=NB02,
          rule="Expand Forest: up to 2 Seeds on empty Land Spaces next to one of your Trees",
          title="Where may Expand Forest sow?",
          levels=("one or two Red Trees on a small board",
                  "a crowded board with Trees and Seeds of both colours"))
def expand_forest(seed: int, level: int) -> Exercise:
    rng = _rng("expand_forest", seed, level)
    while True:
        state = _crowded(rng, level, (RED, BLUE, BLUE) if level == 1 else (RED, RED, BLUE))
        right = {a.cells[0] for a in state.legal_actions()
                 if isinstance(a, ExpandForest) and len(a.cells) == 1}
        empty = {state.board.cells[i] for i in state.board.land
                 if state.trees[i] == NOBODY and state.seeds[i] == NOBODY}
        if right and empty - right:
            break
    board = state.board
    reds = sorted(board.cells[i] for i in board.land if state.trees[i] == RED)
    return Exercise(
        kind="pangaea.expand_forest", seed=seed,
        question=("Red takes the Expand Forest action. Click every space where Red may place "
                  "one of its Seeds."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=_sowing_classify(state, lambda c: ExpandForest((c,))),
            missed="Some space where Red may sow is missing: go round each of Red's Trees, "
            "all six sides.", right_reason="Right: these empty Land Spaces touch one of Red's "
            "Trees."),
        draw=drawer(state, "cells"),
        hints=("Start from each red Tree (R) and look at the six spaces around it.",
               f"Red's Trees stand on {cells_words(reds)} (marked). Around each, which spaces are "
               "land and hold neither a Tree nor a Seed?"),
        hint_marks=((), tuple(reds)),
        explanation="Empty Land Spaces next to a Red Tree: " + cells_words(right) + ".",
        context={"state": state})


def _growth(seed: int, level: int, name: str) -> tuple[GameState, GameState, tuple, set]:
    """A Spirit Growth position: Seeds of Red and Blue around a chosen Water Space (more Seeds,
    Trees and far Seeds at level 2).  Returns (before, after, the water space, the spaces whose
    Seeds grew)."""
    rng = _rng(name, seed, level)
    cols, rows, water, far = (5, 3, 3, 1) if level == 1 else (6, 4, 5, 2)
    while True:
        board = _board(rng, cols, rows, water)
        water_cell = rng.choice(_water(board))
        near = [c for c in _around(board, water_cell) if board.terrain[board.index[c]] == "land"]
        if len(near) < 2:
            continue
        land = [c for c in _land(board) if c not in near]
        rng.shuffle(near)
        rng.shuffle(land)
        seeds = random_owners(rng, near[:rng.randint(2, min(2 + level, len(near)))],
                        {RED: 2, BLUE: 2})
        left = {q: 2 - list(seeds.values()).count(q) for q in (RED, BLUE)}
        seeds.update(random_owners(rng, land[:far], left))
        trees = {c: rng.choice((RED, BLUE)) for c in near[len(seeds):][:level - 1] +
                 land[far:far + 2 * level]}
        trees = {c: p for c, p in trees.items() if c not in seeds}
        before = _game(board, trees=trees, seeds=seeds)
        after = before.apply(SpiritGrowth(water_cell))
        grew = {board.cells[i] for i in board.land
                if before.seeds[i] != NOBODY and after.trees[i] != NOBODY}
        bare = [c for c in _around(board, water_cell) if c not in grew]
        if grew and bare and len({before.seeds[board.index[c]] for c in grew}) == 2:
            return before, after, water_cell, grew


@register("pangaea.spirit_growth_seeds", game=GAME.name, notebook=NB02,
          rule="Spirit Growth: every Seed next to the Water Space the Spirit moves to grows into "
               "a Tree, whoever owns it",
          title="Which Seeds grow?",
          levels=("a few Seeds around the Spirit's space",
                  "Seeds and Trees of both colours, near the Spirit and far from it"))
def spirit_growth_seeds(seed: int, level: int) -> Exercise:
    before, after, water, grew = _growth(seed, level, "spirit_growth_seeds")
    board = before.board
    around = _around(board, water)
    reds = {c for c in grew if before.seeds[board.index[c]] == RED}

    def classify(cell: tuple) -> tuple[str, str]:
        i = board.index[cell]
        if before.trees[i] != NOBODY:
            return "tree-grows-again", "it holds a Tree already; only Seeds grow."
        if before.seeds[i] == NOBODY:
            return "no-seed", "it holds no Seed, so nothing grows there."
        return "far-seed-grows", f"its Seed is not next to the Spirit's space {cell_text(water)}."

    def partial(given: frozenset) -> tuple[str, str] | None:
        if given == reds:
            return ("only-own-seeds", "You chose only Red's Seeds: every Seed next to the "
                    "Spirit's space grows, whoever owns it.")
        return None

    return Exercise(
        kind="pangaea.spirit_growth_seeds", seed=seed,
        question=(f"Red moves its Spirit to the Water Space {cell_text(water)} (marked S). Click "
                  "every Seed that grows into a Tree."),
        answer_kind="cells", answer=grew,
        checker=lambda given: cells_verdict(
            given, frozenset(grew), refuse=classify, partial=partial,
            missed="A Seed that grows is missing: look at every space next to the Spirit's "
            "space.", right_reason="Right: the Seeds next to the Spirit's space grow, Red's "
            "and Blue's alike."),
        draw=drawer(before, "cells", base={water: "S"}),
        hints=(f"Only the six spaces around the Spirit's new space {cell_text(water)} matter.",
               f"The spaces next to {cell_text(water)} are marked. Which of them hold a Seed, "
               "of any colour?"),
        hint_marks=((water,), tuple(around)),
        explanation=f"The Seeds next to {cell_text(water)}: {cells_words(grew)}.",
        context={"state": before, "after": after, "water": water})


def _weather_text(state: GameState, gains: dict[int, dict[str, int]]) -> str:
    parts = []
    for p in range(state.num_players):
        got = gains.get(p, {})
        text = ", ".join(f"{n} {b}" for b, n in sorted(got.items()) if n) or "nothing"
        parts.append(f"{PLAYER_NAMES[p]}: {text}")
    return " · ".join(parts)


def _weather_readings(before: GameState, water: tuple, grew: set,
                      right_gain: dict) -> list[tuple[str, dict, str]]:
    """Wrong readings of a Spirit Growth's Weather Tokens: (misconception, gains, why not)."""
    board = before.board
    biome = lambda c: board.biome[board.index[c]]  # noqa: E731
    mover: dict[str, int] = {}
    for c in grew:
        mover[biome(c)] = mover.get(biome(c), 0) + 1
    every: dict[int, dict[str, int]] = {}
    for i in board.land:
        if before.seeds[i] != NOBODY:
            got = every.setdefault(before.seeds[i], {})
            got[board.biome[i]] = got.get(board.biome[i], 0) + 1
    spirit: dict[int, dict[str, int]] = {}
    for c in grew:
        got = spirit.setdefault(before.seeds[board.index[c]], {})
        got[biome(water)] = got.get(biome(water), 0) + 1
    out = [("mover-takes-all", {RED: mover}, "This gives every token to Red, who moved the "
            "Spirit; each token goes to the owner of the Tree that grew."),
           ("far-seeds-grow", every, "This counts Seeds that are not next to the Spirit's "
            "space; only the Seeds next to it grow."),
           ("spirit-biome", spirit, "This takes the biome of the Spirit's Water Space; each "
            "token is of the biome under the new Tree.")]
    for c in sorted(grew):
        less = {p: dict(g) for p, g in right_gain.items()}
        less[before.seeds[board.index[c]]][biome(c)] -= 1
        out.append(("missed-a-tree", less, "This leaves out a Tree that grows: count every Seed "
                    "next to the Spirit's space."))
    return out


@register("pangaea.spirit_growth_weather", game=GAME.name, notebook=NB02,
          rule="Each Tree that grows earns its owner one Weather Token of the biome it stands on",
          title="Who gets which Weather?",
          levels=("a few Seeds around the Spirit's space",
                  "Seeds and Trees of both colours, near the Spirit and far from it"))
def spirit_growth_weather(seed: int, level: int) -> Exercise:
    before, after, water, grew = _growth(seed, level, "spirit_growth_weather")
    rng = _rng("spirit_growth_weather/options", seed, level)
    board = before.board
    biomes = before.edition.biomes
    right_gain = {p: {b: after.players[p].weather[k] - before.players[p].weather[k]
                      for k, b in enumerate(biomes)} for p in range(before.num_players)}
    right = _weather_text(before, right_gain)
    wrong: dict[str, tuple[str, str]] = {}
    for name, gains, why in _weather_readings(before, water, grew, right_gain):
        text = _weather_text(before, gains)
        if text != right and text not in wrong:
            wrong[text] = (name, why)
    texts = [right] + rng.sample(sorted(wrong), min(3, len(wrong)))
    rng.shuffle(texts)
    options = tuple(Option(f"o{k}", t) for k, t in enumerate(texts))
    key = next(o.key for o in options if o.label == right)
    label = {o.key: o.label for o in options}
    detail = "; ".join(f"{cell_text(c)} {board.biome[board.index[c]]} → "
                       f"{PLAYER_NAMES[before.seeds[board.index[c]]]}" for c in sorted(grew))
    return Exercise(
        kind="pangaea.spirit_growth_weather", seed=seed,
        question=(f"Red moves its Spirit to {cell_text(water)} (marked S) and the Seeds next to "
                  "it grow. Which Weather Tokens does each player gain?"),
        answer_kind="choice", answer=key, options=options,
        checker=lambda given: choice_verdict(given, key, why_not=lambda k: wrong[label[k]],
                                             right_reason="Right: " + detail + "."),
        draw=drawer(before, "cells", base={water: "S"}),
        hints=(f"Find the Seeds next to {cell_text(water)}: each one grows into a Tree.",
               f"The spaces next to {cell_text(water)} are marked. For each Seed there, its owner "
               "takes one token of the biome written on that space."),
        hint_marks=((water,), tuple(_around(board, water))),
        explanation=detail + ".", context={"state": before, "after": after})


def _creature_hand(rng: random.Random, level: int):
    """Red's Weather Tokens (and Wild Weather Blessings at level 2) and the cards to judge:
    some payable, some not, as the engine's payments say."""
    ed = _edition()
    biomes = ed.biomes
    creatures = list(ed.creature_cards)
    size = 3 if level == 1 else 4
    while True:
        have = {b: rng.choice((0, 0, 1, 1, 2, 3)) for b in biomes}
        wild = 0 if level == 1 else rng.choice((0, 1, 1))
        cards = rng.sample(creatures, size)
        if level == 1:
            cards = [c for c in cards if not c.wild] or cards
        tokens = tuple(have[b] for b in biomes)
        pay = {c.id: next(iter(payments(c, tokens, wild, biomes)), None) for c in cards}
        if 0 < sum(v is not None for v in pay.values()) < len(cards):
            return have, wild, cards, pay


def _engine_agrees(rng: random.Random, cards: Sequence[CreatureCard], have: dict, wild: int,
                   pay: dict) -> GameState:
    """Play one of the cards with the engine, paid as :func:`payments` says (a card the seeded
    game already dealt to another hand cannot be handed to Red: the next one is tried)."""
    board = _board(rng, 4, 2, 1)
    for card in cards:
        try:
            state = _game(board, hands={RED: [card.id]},
                          weather={RED: {b: n for b, n in have.items() if n}},
                          blessings={RED: {"Wild Weather": wild}} if wild else None)
        except InvalidSetup:
            continue
        if pay[card.id] is not None:
            tokens_used, used_wild = pay[card.id]
            state.apply(PlayCreature(card.id, False, tokens_used, used_wild))
        return state
    raise InvalidSetup("none of the cards can be handed to Red")


def _short_of(card: CreatureCard, have: dict, wild: int) -> str:
    """What keeps Red from paying ``card``, in words about that card."""
    missing = [(b, n - have.get(b, 0)) for b, n in card.cost if n > have.get(b, 0)]
    gap = sum(n for _, n in missing)
    if missing and gap > wild:
        text = " and ".join(f"{n} more {b}" for b, n in missing)
        return (f"{card.name} asks for {card.cost_text()}: Red would need {text}"
                + (", more than the Wild Weather Blessing covers." if wild else "."))
    return (f"{card.name} asks for {card.cost_text()}: after its named weathers Red has too "
            "few tokens left for the “any” symbols.")


def _names_of(ed, ids: Iterable[str]) -> str:
    return ", ".join(ed.card(c).name for c in sorted(ids))


@register("pangaea.creature_payable", game=GAME.name, notebook=NB02,
          rule="Creature Rituals are paid with the Weather Tokens shown on the card; a wild "
               "symbol takes any token and a Wild Weather Blessing stands in for one token",
          title="Which Creature Rituals can be paid?",
          levels=("three cards, named weathers only",
                  "four cards, with “any” symbols and Wild Weather Blessings"))
def creature_payable(seed: int, level: int) -> Exercise:
    rng = _rng("creature_payable", seed, level)
    ed = _edition()
    have, wild, cards, pay = _creature_hand(rng, level)
    right = frozenset(cid for cid, p in pay.items() if p is not None)
    holding = ", ".join(f"{n} {b}" for b, n in have.items() if n) or "no Weather Tokens"
    if wild:
        holding += f" and {plural(wild, 'Wild Weather Blessing')}"
    state = _engine_agrees(rng, cards, have, wild, pay)
    needs_wild = {cid for cid in right if pay[cid][1]}

    def check(given: frozenset) -> Verdict:
        return choices_verdict(
            given, right, right_reason="Right: " + _names_of(ed, right) + " can be paid; the "
            "others cannot.",
            why_not=lambda key: ("cannot-pay", _short_of(ed.card(key), have, wild)),
            partial=lambda given: ("forgot-wild-blessing", "A card you left out can be paid "
                                   "with the Wild Weather Blessing standing in for a missing "
                                   "token.") if needs_wild - given else None,
            missed="A card you left out can be paid too: for each card, cover its named "
            "weathers first, then the “any” symbols with what is left.")

    first = cards[0]
    return Exercise(
        kind="pangaea.creature_payable", seed=seed,
        question=(f"Red holds {holding}. Which of these Creature Rituals can Red pay now? "
                  "(“any” means a token of any weather. The costs on these cards are our "
                  "reading: the printed cards are not public.)"),
        answer_kind="choices", answer=right,
        options=tuple(Option(c.id, f"{c.name} ({c.points} points): {c.cost_text()}")
                      for c in cards),
        checker=check,
        hints=("Take the cards one at a time: match the weathers each names with Red's tokens.",
               f"Start with {first.name}: it asks for {first.cost_text()}, and Red holds "
               f"{holding}. Cover the named weathers first, then the “any” symbols"
               + (", and a Blessing stands in for one missing token." if wild else ".")),
        explanation="Payable: " + _names_of(ed, right) + ".",
        context={"state": state, "have": have, "wild": wild})


# ----- 03 Land Rituals ------------------------------------------------------------------------


def _card_words(card: LandCard) -> str:
    """A Land Ritual card as the learner reads it (its biomes, never its code)."""
    return f"The Land Ritual card {card.biomes[0]}–{card.biomes[1]}"


def _ritual_pieces(rng: random.Random, land: list, level: int) -> dict:
    """Who holds each land space: Red, Blue and (at level 2) Orange, some spaces empty."""
    owners: dict = {}
    counts = [0, 0, 0]
    cut = (0.35, 0.55, 0.75) if level == 1 else (0.35, 0.55, 0.7)
    for c in land:
        r = rng.random()
        p = RED if r < cut[0] else BLUE if r < cut[1] else ORANGE if r < cut[2] else None
        if p is not None and counts[p] < 9:
            owners[c] = p
            counts[p] += 1
    return owners


def _ritual_position(seed: int, level: int, name: str, extra_pairs: bool = False):
    """A Land Ritual lesson: Red has two Trees on the biomes of a card, joined by shortest
    chains of 3-6 spaces through Trees and Spirits.  Level 1: a small board, Red and Blue,
    one to three shortest chains; level 2: a larger board with Orange too and up to six.
    Returns (state, card, start, end)."""
    rng = _rng(name, seed, level)
    ed = _edition()
    cards = [c for c in ed.land_cards if c.biomes[0] != c.biomes[1]]
    cols, rows, n_water, players, most = (5, 3, 3, 3, 3) if level == 1 else (6, 4, 5, 3, 6)
    while True:
        card = rng.choice(cards)
        cells = grid(cols, rows)
        wet = set(rng.sample(cells, n_water))
        land = [c for c in cells if c not in wet]
        rng.shuffle(land)
        owners = _ritual_pieces(rng, land, level)
        spirits = dict(zip(range(players), rng.sample(sorted(wet), players)))
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
        state = _game(board, players=players, trees=owners, spirits=spirits)
        pos = state.position
        n = count_shortest_paths(pos, board.index[start], board.index[end])
        if not 1 <= n <= most:
            continue
        (pair, *_) = ritual_pairs(pos, RED, card, start, end)
        if 2 <= pair.steps <= 3 + level:
            return state, card, start, end


def _carriers(state: GameState) -> list[tuple[int, int]]:
    """The spaces a chain may pass: those holding a Tree or a Spirit."""
    pos = state.position
    return [c for i, c in enumerate(state.board.cells) if pos.connects(i)]


def _path_verdict(pos, card: LandCard, start: tuple, end: tuple, path: tuple) -> Verdict:
    """The verdict on a chain clicked from A (``start``) to B (``end``)."""
    a, b = cell_text(start), cell_text(end)
    if len(path) > 1 and path[0] == end and path[-1] == start and not path_fault(
            pos, RED, card, path[::-1])[0]:
        return Verdict(False, f"That chain runs from B to A; the question asks for it from A "
                       f"{a} to B {b}: click A first.", misconception="reversed")
    fault, reason = path_fault(pos, RED, card, path)
    if fault == "detour":
        return Verdict(False, f"Your chain takes {len(path) - 1} steps, and a shorter chain "
                       "joins the same two Trees: a Land Ritual takes a shortest chain, not "
                       "any chain.", misconception="longer-than-shortest")
    if fault in ("ends", "biomes", "") and path[0] != start:
        return Verdict(False, f"The chain must start on A {a}; yours starts on "
                       f"{cell_text(path[0])}.", misconception="wrong-start")
    if fault in ("ends", "biomes", "") and path[-1] != end:
        return Verdict(False, f"The chain must end on B {b}; yours stops on "
                       f"{cell_text(path[-1])}.", misconception="wrong-end")
    if fault:
        return Verdict(False, short(reason),
                       misconception={"gap": "empty-space-carries", "adjacent": "not-neighbours"
                                      }.get(fault, fault))
    got = checked_option(pos, RED, card, path)
    return Verdict(True, f"Right: a shortest chain of {len(path)} spaces from A to B. It would "
                   f"score {got.explain(PLAYER_NAMES)}.")


@register("pangaea.land_path", game=GAME.name, notebook=NB03,
          rule="A Land Ritual joins your two Trees through adjacent Trees and Spirits of any "
               "player, along a shortest chain",
          title="Click a shortest chain",
          levels=("a small board, Red and Blue pieces",
                  "a larger board with three colours and several ways round"))
def land_path(seed: int, level: int) -> Exercise:
    state, card, start, end = _ritual_position(seed, level, "land_path")
    pos = state.position
    options = land_ritual_options(pos, RED, card, start, end)
    answer = options[0].path
    carriers = _carriers(state)
    return Exercise(
        kind="pangaea.land_path", seed=seed,
        question=(f"{_card_words(card)}: Red joins its Tree on {cell_text(start)} (A) and its "
                  f"Tree on {cell_text(end)} (B). Click, in order from A to B, the spaces of a "
                  "shortest chain. (Any shortest chain will do.)"),
        answer_kind="path", answer=answer,
        checker=lambda path: _path_verdict(pos, card, start, end, path),
        draw=drawer(state, "path", base={start: "A", end: "B"}),
        hints=(f"Start on A {cell_text(start)} and step only onto Trees and Spirits, of any "
               f"colour, until you reach B {cell_text(end)}.",
               f"The spaces that can carry a chain are marked. A shortest chain from A to B "
               f"here takes {plural(len(answer) - 1, 'step')}: count the steps of each way."),
        hint_marks=((start, end), tuple(carriers)),
        explanation=(f"There {'is' if len(options) == 1 else 'are'} "
                     f"{plural(len(options), 'shortest chain')} of {len(answer)} spaces, e.g. "
                     + " → ".join(map(cell_text, answer)) + "."),
        context={"state": state, "card": card.id, "start": start, "end": end,
                 "paths": [o.path for o in options]})


def _aimed(seed: int, level: int, name: str, score: Callable, extra_pairs: bool = False):
    """A Land Ritual position whose chosen chain scores an aimed number of points, the aim
    drawn evenly from the scores such boards give (so that no score is right in most seeds);
    ``score(state, card, start, end, rng)`` picks the chain and returns (points, chain).
    Returns (state, card, chain)."""
    rng = _rng(name, seed, level)
    aim = rng.choice((3, 4, 5) if level == 1 else (3, 4, 5, 6))
    found = None
    for attempt in range(40):
        state, card, start, end = _ritual_position(seed * 100 + attempt, level, name,
                                                   extra_pairs)
        points, chain = score(state, card, start, end, rng)
        found = found or (state, card, chain)
        if points == aim:
            return state, card, chain
    return found


def _scored_chain(seed: int, level: int):
    """A position and one of the shortest chains between Red's two Trees, scoring an aimed
    number of points: (state, card, option)."""
    def pick(state, card, start, end, rng):
        option = rng.choice(land_ritual_options(state.position, RED, card, start, end))
        return option.points, option

    return _aimed(seed, level, "land_path_score", pick)


def _chain_score_wrongs(option: RitualOption, pieces: int) -> list[tuple[int, str, str]]:
    """The typical wrong scores of one chain: (value, misconception, reason)."""
    own, extra = option.own, len(option.other_colours)
    return [
        (own, "forgot-other-colours", "You counted Red's own pieces but not the other colours: "
         "each other colour on the chain adds one."),
        (own + pieces, "counted-each-other-piece", "You counted each piece of another colour; "
         "each other colour counts once, however many of its pieces are on the chain."),
        (option.points - 2, "forgot-end-trees", "The two end Trees count too: they are Red's "
         "own Trees on the chain."),
        (extra, "forgot-own", "You left out Red's own Trees and Spirit on the chain; both "
         "ends count."),
        (option.points + 2, "counted-end-trees-twice", "You counted the two end Trees twice: "
         "each piece of Red's on the chain scores once."),
    ]


@register("pangaea.land_path_score", game=GAME.name, notebook=NB03,
          rule="A Land Ritual scores 1 per Tree or Spirit of your own on the chain and +1 per "
               "other colour on it",
          title="What does this chain score?",
          levels=("a short chain with Red and Blue pieces",
                  "a longer chain with pieces of three colours"))
def land_path_score(seed: int, level: int) -> Exercise:
    state, card, option = _scored_chain(seed, level)
    pos, start, end = state.position, option.start, option.end
    board = pos.board
    holders = {c: pos.holder(board.index[c]) for c in option.path}
    others = [c for c, p in holders.items() if p not in (RED, NOBODY)]
    colours = player_names(option.other_colours)
    labels = {c: str(k + 1) for k, c in enumerate(option.path)}
    return Exercise(
        kind="pangaea.land_path_score", seed=seed,
        question=(f"{_card_words(card)}: Red performs the Land Ritual along the numbered chain "
                  f"(1 to {len(option.path)}). How many points does it score?"),
        answer_kind="number", answer=option.points,
        checker=lambda given: number_verdict(
            given, option.points, what="what this chain scores",
            rule="Count again: each Tree or Spirit of Red's on the chain scores one, and each "
            "other colour on it one more, however many of its pieces are there.",
            misconceptions=number_misconceptions(option.points,
                                                 _chain_score_wrongs(option, len(others)))),
        draw=drawer(state, "cells", base=labels, paths=[option.path]),
        hints=(f"On this {card.biomes[0]}–{card.biomes[1]} chain, count Red's own pieces first, "
               "both end Trees included; then look at the other colours.",
               ("The pieces of other colours are marked: " + colours + ". Each colour adds "
                "one, however many of its pieces are there.") if others else
               "Every piece on this chain is Red's: no other colour adds anything. Count each "
               "of Red's pieces once."),
        hint_marks=((), tuple(others or (start, end))),
        explanation=option.explain(PLAYER_NAMES) + ".",
        answer_cells=(), context={"state": state, "path": option.path})


def _longer_scores(state: GameState, card: LandCard, limit: int = 300) -> set[int]:
    """What longer-than-shortest chains between the card's pairs of Red's Trees would score
    (what a learner who takes any chain for a Land Ritual finds)."""
    pos, board = state.position, state.board
    carrying = board.graph.subgraph(_carriers(state))
    out: set[int] = set()
    for pair in ritual_pairs(pos, RED, card):
        found = nx.all_simple_paths(carrying, pair.start, pair.end, cutoff=pair.steps + 3)
        for k, path in enumerate(found):
            if k >= limit:
                break
            if len(path) - 1 > pair.steps:
                own, others = score_path(pos, [board.index[c] for c in path], RED)
                out.add(own + len(others))
    return out


def _best_of(state: GameState, card: LandCard, start, end, rng) -> tuple[int, RitualOption]:
    best = best_ritual(state.position, RED, card)
    return best.points, best


@register("pangaea.land_best_score", game=GAME.name, notebook=NB03,
          rule="Of all the legal Land Rituals a card allows, the best scores most: try every pair "
               "of Trees and every shortest chain",
          title="The best Land Ritual",
          levels=("one pair of Red's Trees, Red and Blue pieces",
                  "several pairs of Red's Trees, three colours"))
def land_best_score(seed: int, level: int) -> Exercise:
    state, card, best = _aimed(seed, level, "land_best_score", _best_of, extra_pairs=level > 1)
    pos, board = state.position, state.board
    pairs = ritual_pairs(pos, RED, card)
    lower = {s for pair in pairs for s in pair.scores if s < best.points}
    wrongs = [(s, "not-the-best", "A chain here can score that, but another chain, or another "
               "pair of Red's Trees, scores more.") for s in sorted(lower)]
    wrongs += [(s, "longer-than-shortest", "Only a longer chain than needed could score that; a "
                "Land Ritual takes a shortest chain between its two Trees.")
               for s in sorted(_longer_scores(state, card)) if s > best.points]
    wrongs += _chain_score_wrongs(best, sum(1 for c in best.path if pos.holder(
        board.index[c]) not in (RED, NOBODY)))[:3]
    ends = sorted(board.cells[i] for i in board.land if state.trees[i] == RED
                  and board.biome[i] in card.biomes)
    return Exercise(
        kind="pangaea.land_best_score", seed=seed,
        question=(f"{_card_words(card)}: what is the most Red can score with this card right "
                  "now? (Any pair of Red's Trees, one on each of the card's biomes, may be "
                  "joined.)"),
        answer_kind="number", answer=best.points,
        checker=lambda given: number_verdict(
            given, best.points, what="the best this card can score here",
            rule="Score each shortest chain between Red's Trees on the card's biomes: Red's "
            "own pieces one each, each other colour one more; then keep the best.",
            misconceptions=number_misconceptions(best.points, wrongs)),
        draw=drawer(state, "path"),
        hints=(f"Find Red's Trees on {card.biomes[0]} and on {card.biomes[1]}: every such pair "
               "may be joined.",
               f"Red's Trees on {card.biomes[0]} or {card.biomes[1]} are marked. For "
               + ("each pair" if len(pairs) > 1 else "the pair") + ", try every shortest chain "
               "and score it; a chain through more colours may beat one with more Red pieces."),
        hint_marks=((), tuple(ends)),
        explanation=(f"Best: {' → '.join(map(cell_text, best.path))}, "
                     f"{best.explain(PLAYER_NAMES)}."),
        answer_cells=best.path, context={"state": state, "card": card.id})


_VERDICTS = (("legal", "Yes, it is a legal Land Ritual"),
             ("ends", "No: it does not join two of Red's Trees on the card's biomes"),
             ("gap", "No: a space on it holds no Tree or Spirit"),
             ("detour", "No: a shorter chain exists"))
_FAULT_KEY = {"": "legal", "ends": "ends", "biomes": "ends", "gap": "gap", "detour": "detour"}

#: why a picked verdict does not fit the chain, for (picked, right): (misconception, reason)
_NOT_THAT = {
    ("legal", "ends"): ("ends-not-checked", "Look again at the two ends: each must be one of "
                        "Red's Trees, one on each of the card's biomes."),
    ("legal", "gap"): ("empty-space-carries", "Look at every space between the ends: a chain "
                       "passes only through spaces that hold a Tree or a Spirit."),
    ("legal", "detour"): ("shortest-confused-with-any", "Any chain is not enough: a Land Ritual "
                          "takes a shortest one. Count this chain's steps and look for another "
                          "way between the same two Trees."),
    ("ends", None): ("ends-are-fine", "Both ends of this chain are Red's Trees, one on each of "
                     "the card's biomes: the ends are not the problem."),
    ("gap", None): ("no-gap", "Every space between the ends of this chain holds a Tree or a "
                    "Spirit, so nothing breaks it."),
    ("detour", None): ("no-shorter-way", "No chain between the two end spaces of this one is "
                       "shorter: count the steps of each way."),
}


def _candidates(state: GameState, card: LandCard, start: tuple, end: tuple) -> dict:
    """Paths of each kind between (or near) the two Trees: legal, detour, gap, wrong ends."""
    pos, board = state.position, state.board
    out: dict[str, list] = {"legal": [o.path for o in land_ritual_options(pos, RED, card,
                                                                          start, end)]}
    length = len(out["legal"][0])
    graph = board.graph
    connecting = graph.subgraph(_carriers(state))
    out["detour"] = [tuple(p) for p in nx.all_simple_paths(connecting, start, end,
                                                           cutoff=length + 1)
                     if len(p) > length][:20]
    out["gap"] = [tuple(p) for p in nx.all_simple_paths(graph, start, end, cutoff=length - 1)
                  if any(not pos.connects(board.index[c]) for c in p[1:-1])][:20]
    out["ends"] = [p[:-1] for p in out["legal"] if len(p) > 2]
    return {k: v for k, v in out.items() if v}


@register("pangaea.land_is_legal", game=GAME.name, notebook=NB03,
          rule="A chain is refused if an end is not your Tree on the card's biomes, if a space "
               "on it holds no Tree or Spirit, or if it is longer than a shortest one",
          title="Legal or not?",
          levels=("a small board, Red and Blue pieces",
                  "a larger board with three colours and several ways round"))
def land_is_legal(seed: int, level: int) -> Exercise:
    state, card, start, end = _ritual_position(seed, level, "land_is_legal")
    rng = _rng("land_is_legal/chain", seed, level)
    candidates = _candidates(state, card, start, end)
    kind = sorted(candidates)[seed % len(candidates)]
    path = rng.choice(candidates[kind])
    fault, reason = path_fault(state.position, RED, card, path)
    right = _FAULT_KEY[fault]
    ok = ("Right: both ends are Red's Trees on the card's biomes, every space between them "
          "holds a Tree or a Spirit, and no chain between them is shorter." if right == "legal"
          else "Right: " + reason)
    board = state.board
    ends_text = " and ".join(f"{cell_text(c)} ({board.biome[board.index[c]]})"
                             for c in (path[0], path[-1]))

    def why_not(key: str) -> tuple[str, str]:
        return _NOT_THAT.get((key, right)) or _NOT_THAT[(key, None)]

    return Exercise(
        kind="pangaea.land_is_legal", seed=seed,
        question=(f"{_card_words(card)}: Red proposes the numbered chain (1 to {len(path)}). "
                  "Is it a legal Land Ritual?"),
        answer_kind="choice", answer=right,
        options=tuple(Option(k, t) for k, t in _VERDICTS), checker=lambda given: choice_verdict(
            given, right, why_not=why_not, right_reason=ok),
        draw=drawer(state, "cells", base={c: str(k + 1) for k, c in enumerate(path)},
                     paths=[path]),
        hints=("Check the two ends, then every space in between, then whether a shorter way "
               "exists.",
               f"The chain's ends are {ends_text}; the card asks for {card.biomes[0]} and "
               f"{card.biomes[1]}. Its spaces are marked: does each hold a Tree or a Spirit? "
               f"It takes {plural(len(path) - 1, 'step')}: is there a shorter way?"),
        hint_marks=((path[0], path[-1]), tuple(path)),
        explanation=ok[len("Right: "):], answer_cells=(),
        context={"state": state, "path": path, "card": card.id})


# ----- 04 Scoring -----------------------------------------------------------------------------


def _forest(rng: random.Random, counts: Sequence[int], seeds: int = 0) -> GameState:
    """A board with ``counts[p]`` Trees of each player (and up to ``seeds`` Seeds of each)."""
    board = _board(rng, 7, 5, 4) if len(counts) > 2 else _board(rng, 6, 4, 3)
    land = _land(board)
    rng.shuffle(land)
    trees = {}
    for p, n in enumerate(counts):
        for _ in range(n):
            trees[land.pop()] = p
    sown = {land.pop(): p for p in range(len(counts)) for _ in range(rng.randint(0, seeds))}
    return _game(board, players=len(counts), trees=trees, seeds=sown)


def _tree_counts(rng: random.Random, players: int, style: str) -> list[int]:
    """Trees per player for a Most Trees question: a clear leader, a tie at the top, or
    nobody with enough."""
    low = _edition().most_trees_minimum
    if style == "leader":
        counts = [rng.randint(1, low + 1) for _ in range(players)]
        counts[0] = max(max(counts) + 1, rng.randint(low, low + 3))
    elif style == "tie":
        top = rng.randint(low - 1, low + 2)
        counts = [top, top] + [rng.randint(1, top - 1) for _ in range(players - 2)]
    else:
        counts = [rng.randint(1, low - 1) for _ in range(players)]
    rng.shuffle(counts)
    return counts


def _most_trees_why(counts: Sequence[int], seeds: Sequence[int], low: int
                    ) -> Callable[[str], tuple[str, str]]:
    """Why a picked holder of Most Trees is wrong: the rule that pick breaks."""
    top = max(counts)

    def why_not(key: str) -> tuple[str, str]:
        if key == "nobody":
            return "missed-holder", (f"Someone has at least {in_words(low)} Trees and more than "
                                     "each other player: count each colour's Trees again.")
        p, name = int(key), PLAYER_NAMES[int(key)]
        with_seeds = [c + s for c, s in zip(counts, seeds)]
        if counts[p] < top and with_seeds[p] == max(with_seeds) and seeds[p]:
            return "counted-seeds", ("Count only Trees: Seeds on the continent do not count "
                                     "for Most Trees.")
        if counts[p] < top:
            return "not-the-most", f"{name} has {counts[p]} Trees, and another player has more."
        if counts.count(top) > 1:
            return "tie-read-as-win", (f"{name} does not have more Trees than everyone else: "
                                       "another player has as many, and the marker needs "
                                       "strictly more.")
        return "below-minimum", (f"{name} has the most Trees, but only {counts[p]}; the marker "
                                 f"needs at least {in_words(low)}.")

    return why_not


@register("pangaea.most_trees", game=GAME.name, notebook=NB04,
          rule="Most Trees: the one player with at least 5 Trees on the continent and more than "
               "anyone else; on a tie nobody holds it",
          title="Who holds Most Trees?",
          levels=("two players, Trees only", "three players, with Seeds on the continent too"))
def most_trees(seed: int, level: int) -> Exercise:
    rng = _rng("most_trees", seed, level)
    low = _edition().most_trees_minimum
    players = 1 + level
    style = rng.choices(("leader", "tie", "short"), (7, 3, 2))[0]
    state = _forest(rng, _tree_counts(rng, players, style), seeds=2 * (level - 1))
    counts = [state.trees.count(p) for p in range(players)]
    seeds = [state.seeds.count(p) for p in range(players)]
    holder = state.most_trees          # the engine's marker (the tests hold it to the rule)
    right = str(holder) if holder != NOBODY else "nobody"
    tally = ", ".join(f"{PLAYER_NAMES[p]} {n}" for p, n in enumerate(counts))
    if holder != NOBODY:
        because = (f"{PLAYER_NAMES[holder]} has {counts[holder]} Trees, at least {low} and more "
                   f"than anyone else ({tally}).")
    elif counts.count(max(counts)) > 1 and max(counts) >= low:
        because = f"The most Trees are tied ({tally}), so nobody holds the marker."
    else:
        because = f"Nobody has {low} Trees on the continent ({tally}), so nobody holds it."
    reds = [state.board.cells[i] for i in state.board.land if state.trees[i] == RED]
    return Exercise(
        kind="pangaea.most_trees", seed=seed,
        question="Count the Trees on the continent. Who holds the Most Trees marker?",
        answer_kind="choice", answer=right,
        options=tuple(Option(str(p), PLAYER_NAMES[p]) for p in range(players))
        + (Option("nobody", "Nobody"),),
        checker=lambda given: choice_verdict(given, right,
                                             why_not=_most_trees_why(counts, seeds, low),
                                             right_reason="Right: " + because),
        draw=drawer(state, "cells"),
        hints=(f"Count each colour's Trees on the continent ({sum(counts)} Trees in all)"
               + ("; Seeds do not count." if level > 1 else "."),
               f"Red's Trees are marked; count them, then the other colours'. The marker needs "
               f"at least {in_words(low)} Trees and strictly more than every other player."),
        hint_marks=((), tuple(reds)),
        explanation=because, context={"state": state, "counts": counts})


def _finished(rng: random.Random, players: int = 3, seeds: int = 0) -> GameState:
    """A finished game on a small board: points from Rituals and Trees as drawn."""
    low = _edition().most_trees_minimum
    counts = [rng.randint(2, low + 2) for _ in range(players)]
    if rng.random() < 0.6:
        counts[rng.randrange(players)] = max(counts) + 1
    state = _forest(rng, counts, seeds)
    biomes = state.edition.biomes
    state = state.arranged(weather={p: {b: rng.randint(0, 2) for b in biomes}
                                    for p in range(players)})
    ritual = tuple(replace(ps, creature_points=rng.randint(0, 5) * 3,
                           land_points=rng.randint(0, 14)) for ps in state.players)
    return replace(state, players=ritual, phase="over", end_triggered=True,
                   end_reason="Red reached the top of the Sacred Mountain")


def _final_wrongs(state: GameState, p: int) -> list[tuple[int, str, str]]:
    """The typical wrong final scores of player ``p``: (value, misconception, reason)."""
    score = state.scores()[p]
    total, bonus, name = score.total, state.edition.most_trees_bonus, PLAYER_NAMES[p]
    counts = [state.trees.count(q) for q in range(state.num_players)]
    low = state.edition.most_trees_minimum
    ps = state.players[p]
    if state.most_trees == p:
        out = [(total - bonus, "forgot-most-trees", f"{name} holds Most Trees: its bonus is "
                "part of the final score.")]
    elif counts[p] == max(counts) and counts.count(counts[p]) > 1:
        out = [(total + bonus, "tie-read-as-win", f"{name} ties for the most Trees; on a tie "
                "nobody holds Most Trees, so nobody gets its bonus.")]
    elif counts[p] == max(counts):
        out = [(total + bonus, "below-minimum", f"{name} has the most Trees but fewer than "
                f"{in_words(low)}, so nobody holds Most Trees.")]
    else:
        out = [(total + bonus, "bonus-for-non-holder", f"{name} does not hold Most Trees: "
                "another player has more Trees.")]
    out += [(total - ps.creature_points, "left-out-creature", "You left out the Creature "
             "Ritual points."),
            (total - ps.land_points, "left-out-land", "You left out the Land Ritual points."),
            (total + counts[p], "counted-trees-as-points", "Trees on the continent are not "
             "points by themselves: they count only for the Most Trees bonus.")]
    return out


@register("pangaea.final_score", game=GAME.name, notebook=NB04,
          rule="Final score: Creature Ritual points + Land Ritual points + 2 for the holder of "
               "Most Trees",
          title="A player's final score",
          levels=("two players, Trees only", "three players, with Seeds on the continent too"))
def final_score(seed: int, level: int) -> Exercise:
    rng = _rng("final_score", seed, level)
    state = _finished(rng, players=1 + level, seeds=2 * (level - 1))
    p = rng.randrange(state.num_players)
    score = state.scores()[p]
    ps, name = state.players[p], PLAYER_NAMES[p]
    low, bonus = state.edition.most_trees_minimum, state.edition.most_trees_bonus
    counts = [state.trees.count(q) for q in range(state.num_players)]
    trees_text = ", ".join(f"{PLAYER_NAMES[q]} {n}" for q, n in enumerate(counts))
    sums = " + ".join(f"{v} {k}" for k, v in score.categories)
    mine = [state.board.cells[i] for i in state.board.land if state.trees[i] == p]
    return Exercise(
        kind="pangaea.final_score", seed=seed,
        question=("The game is over. The players scored these Ritual points: "
                  + "; ".join(f"{PLAYER_NAMES[q]} {s.creature_points} from Creature Rituals "
                              f"and {s.land_points} from Land Rituals"
                              for q, s in enumerate(state.players))
                  + f". The Trees on the continent are drawn. What is {name}'s final score?"),
        answer_kind="number", answer=score.total,
        checker=lambda given: number_verdict(
            given, score.total, what=f"{name}'s final score",
            rule="Add the Creature and the Land Ritual points, and the Most Trees bonus only if "
            "this player holds it.",
            misconceptions=number_misconceptions(score.total, _final_wrongs(state, p))),
        draw=drawer(state, "cells"),
        hints=(f"Start from {name}'s {ps.creature_points} Creature and {ps.land_points} Land "
               "Ritual points; then see who holds Most Trees.",
               f"{name}'s Trees are marked. Most Trees needs at least {in_words(low)} Trees and "
               f"strictly more than anyone else; only its holder adds {in_words(bonus)} points"
               + ("; Seeds do not count." if level > 1 else ".")),
        hint_marks=((), tuple(mine)),
        explanation=f"{name}: {sums} = {score.total} (Trees: {trees_text}).",
        context={"state": state, "player": p, "categories": dict(score.categories), "ps": ps})


@register("pangaea.mountain_step", game=GAME.name, notebook=NB04,
          rule="Points climb the Sacred Mountain; passing the summit takes a Summit Marker and "
               "the count goes on from step 1",
          title="Where is the score marker?",
          levels=("a score, from the foot of the mountain",
                  "more points for a marker already on the mountain"))
def mountain_step(seed: int, level: int) -> Exercise:
    rng = _rng("mountain_step", seed, level)
    summit = _edition().summit_steps
    name = PLAYER_NAMES[rng.randrange(4)]
    mountain = (f"The Sacred Mountain has {summit} steps to the summit (our reading: the "
                "rulebook does not print the number).")
    if level == 1:
        start, held, gained = 0, 0, rng.randint(summit - 6, 2 * summit)
        points = gained
        question = (f"{mountain} {name} has {points} points. On which step does {name}'s "
                    "score marker stand?")
    else:
        held = rng.randint(0, 1)
        start = rng.randint(summit // 2, summit - 1)
        gained = rng.randint(3, summit + 8)
        points = held * summit + start + gained
        question = (f"{mountain} {name}'s score marker stands on step {start} and {name} holds "
                    f"{plural(held, 'Summit Marker') if held else 'no Summit Marker'}. "
                    f"{name} scores {gained} more points. On "
                    "which step does the marker stand now?")
    step, markers = mountain_position(points, summit)
    passes = markers - held
    wrongs = [(start + gained, "no-wrap", f"The mountain has only {summit} steps: past the "
               "summit the marker takes a Summit Marker and goes on from the first step."),
              (step - 1, "counted-summit-step", "Count again past the summit: the first point "
               "after it puts the marker on the first step, not on the summit's."),
              (gained, "forgot-start", f"The marker does not start again from the foot: it "
               f"climbs on from step {start}."),
              (start + gained - summit, "wrapped-once-only", "The marker passes the summit "
               "more than once here: each time it goes on from the first step.")]
    because = (f"{points} points in all: " + (f"{plural(markers, 'time')} past the summit of "
                                              f"{summit} (a Summit Marker each), then step {step}"
                                              if markers else f"step {step}, below the summit "
                                              f"of {summit}") + ".")
    climb = (f"{name} climbs {gained} steps from step {start}" if level > 1
             else f"{name}'s marker climbs {gained} steps from the foot")
    return Exercise(
        kind="pangaea.mountain_step", seed=seed, question=question,
        answer_kind="number", answer=step,
        checker=lambda given: number_verdict(
            given, step, what=f"the step {name}'s marker stands on",
            rule="Climb one step per point; each time the marker passes the summit, take a "
            "Summit Marker and count on from the first step.",
            misconceptions=number_misconceptions(step, wrongs if passes else wrongs[2:3])),
        hints=("Every time the marker passes the summit, the player takes a Summit Marker and "
               "counts on from the first step.",
               f"{climb}: count up to the summit of {summit}, then go on with the points left "
               "from the first step, and again past the summit if enough are left."),
        explanation=because, context={"points": points, "markers": markers})


def _winner_state(rng: random.Random, level: int) -> GameState:
    """A finished game whose top is, as drawn at random: one player ahead, a tie on points
    that the Weather Tokens left break, or a tie on both."""
    state = _finished(rng, players=2 + rng.randint(0, 1) if level == 1 else 3,
                      seeds=2 * (level - 1))
    style = rng.choices(("clear", "weather", "shared"), (4, 4, 2))[0]
    if style == "clear":
        return state
    totals = [s.total for s in state.scores()]
    lead = totals.index(max(totals))
    other = rng.choice([q for q in range(state.num_players) if q != lead])
    players = list(state.players)
    players[other] = replace(players[other], creature_points=players[other].creature_points
                             + max(totals) - totals[other])
    state = replace(state, players=tuple(players))
    biomes = state.edition.biomes
    held = {q: dict(zip(biomes, state.players[q].weather)) for q in (lead, other)}
    if style == "shared":
        return state.arranged(weather={other: held[lead]})
    if sum(held[lead].values()) == sum(held[other].values()):
        more = rng.choice((lead, other))
        held[more][rng.choice(biomes)] += 1
        return state.arranged(weather={more: held[more]})
    return state


def _winner_why(totals: Sequence[int], left: Sequence[int], won: Sequence[int]
                ) -> Callable[[str], tuple[str, str]]:
    """Why a picked winner is wrong: the rule that pick breaks."""
    top = max(totals)
    tied = [q for q, t in enumerate(totals) if t == top]

    def why_not(key: str) -> tuple[str, str]:
        if key == "shared":
            if len(tied) > 1:
                return "tie-not-broken", ("A tie on points goes to the player with more "
                                          "Weather Tokens left, and here they differ.")
            return "only-one-top", "Only one player has the most points: nobody shares."
        p, name = int(key), PLAYER_NAMES[int(key)]
        if totals[p] < top and left[p] == max(left):
            return "weather-first", (f"{name} has the most Weather Tokens left, but they only "
                                     f"break a tie on points, and {name} has fewer points.")
        if totals[p] < top:
            return "fewer-points", f"{name} has fewer points than another player."
        if left[p] < max(left[q] for q in tied):
            return "tie-read-as-win", (f"{name} ties on points, but the tie goes to the player "
                                       "with more Weather Tokens left.")
        return "shared-read-as-own", (f"{name} is not alone at the top: another player has as "
                                      "many points and as many Weather Tokens left.")

    return why_not


@register("pangaea.winner", game=GAME.name, notebook=NB04,
          rule="The most points wins; on a tie the player with more Weather Tokens left wins, "
               "still tied they share the win",
          title="Who wins?",
          levels=("the final scores given", "Ritual points and Trees given: add the Most Trees "
                  "bonus first"))
def winner(seed: int, level: int) -> Exercise:
    rng = _rng("winner", seed, level)
    state = _winner_state(rng, level)
    n = state.num_players
    totals = [s.total for s in state.scores()]
    left = [sum(ps.weather) for ps in state.players]
    won = state.winners()               # the engine's winners (the tests hold them to the rule)
    right = str(won[0]) if len(won) == 1 else "shared"
    counts = [state.trees.count(q) for q in range(n)]
    if level == 1:
        table = "; ".join(f"{PLAYER_NAMES[q]} {t} points, "
                          f"{plural(w, 'Weather Token')} left"
                          for q, (t, w) in enumerate(zip(totals, left)))
    else:
        table = "; ".join(f"{PLAYER_NAMES[q]} {ps.creature_points} Creature and "
                          f"{ps.land_points} Land Ritual points, {counts[q]} Trees on the "
                          f"continent, {plural(left[q], 'Weather Token')} left"
                          for q, ps in enumerate(state.players))
    if len(won) > 1:
        because = (f"{player_names(won)} tie on points and on Weather Tokens left, so they "
                   "share the win.")
    elif totals.count(max(totals)) > 1:
        because = (f"The top is tied on points; {PLAYER_NAMES[won[0]]} has more Weather Tokens "
                   "left and wins.")
    else:
        because = f"{PLAYER_NAMES[won[0]]} has the most points and wins."
    scored = ", ".join(f"{PLAYER_NAMES[q]} {t}" for q, t in enumerate(totals))
    return Exercise(
        kind="pangaea.winner", seed=seed,
        question=f"The game is over: {table}. Who wins?",
        answer_kind="choice", answer=right,
        options=tuple(Option(str(q), PLAYER_NAMES[q]) for q in range(n))
        + (Option("shared", "They share the win"),),
        checker=lambda given: choice_verdict(given, right,
                                             why_not=_winner_why(totals, left, won),
                                             right_reason="Right: " + because),
        hints=(("Find the highest score first." if level == 1 else
                "Work out each final score first: Ritual points, plus the Most Trees bonus for "
                "its holder, if anyone holds it."),
               (f"The highest score here is {max(totals)} points." if level == 1 else
                f"The final scores are {scored}.")
               + " If more than one player has the highest score, compare their Weather Tokens "
               "left; still tied, they share the win."),
        explanation=(f"Final scores: {scored}. " if level > 1 else "") + because,
        context={"state": state})
