"""Exercise generators for Harmonies (see :mod:`pangaea_lab.core.exercises`): each registered
kind builds a small position from a seed and lets the rules engine answer it.

>>> from pangaea_lab.exercises import generate
>>> ex = generate("harmonies.tree_points", seed=3)
>>> ex.check(ex.answer).correct, ex.check(ex.answer + 1).correct
(True, False)
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Iterable, Mapping

import networkx as nx

from ..core.errors import IllegalAction
from ..core.exercises import Exercise, Option, Verdict, register
from ..core.svg import Svg, SvgImage, as_image
from . import render
from .actions import DiscardCard, EndTurn, PlaceToken, TakeCard
from .board import (COLOURS, Cell, _neighbour_table, board_graph, cell_index, cells,
                    check_stack, describe_stack, landscape_of, legal_stacks, neighbours,
                    rules_data, stacks_tuple)
from .cards import animal_ids, card, spirit_ids
from .habitats import habitat_cells, pattern_cells, stack_matches, stacks_for_code
from .rules import why_illegal
from .scoring import (DEFAULT_RIVER_RULE, building_points, card_points, field_points, groups,
                      island_count, is_building, is_mountain, is_tree, longest_ring, mountain_points,
                      river_length, river_points, score_board, solo_suns, spirit_points,
                      suns_for_score, tree_points)
from .setup import new_game

NB01 = "harmonies/01_setup_and_turns.ipynb"
NB02 = "harmonies/02_landscapes.ipynb"
NB03 = "harmonies/03_habitats.ipynb"
NB04 = "harmonies/04_spirits_and_solo.ipynb"

TICK = "✓"


# ----- shared helpers ------------------------------------------------------------------------

def _rng(kind: str, seed: int) -> random.Random:
    return random.Random(f"harmonies.{kind}:{seed}")


def _cell_text(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def _cells_text(cs: Iterable[Cell]) -> str:
    cs = sorted(cs)
    return ", ".join(_cell_text(c) for c in cs) if cs else "no space"


def _where(stacks: Mapping[Cell, tuple], cell: Cell) -> str:
    """A space named by its coordinates and what stands on it."""
    stack = tuple(stacks.get(cell, ()))
    what = landscape_of(stack) if stack else "empty space"
    return f"the {what} at {_cell_text(cell)}"


def _picture(side: str, stacks: Mapping[Cell, Iterable[str]], marked: Iterable = (), *,
             cubes: Mapping[Cell, int] | None = None, cards: Iterable[Any] = (),
             clickable: bool = True, notes: Iterable[str] = (), badge: str = TICK,
             size: float = 26.0) -> SvgImage:
    """The board (spaces clickable, ``marked`` outlined and ticked), the cards beside it
    and a few lines of notes under it."""
    board = stacks_tuple(side, stacks)
    marked = [tuple(c) for c in marked if isinstance(c, tuple) and len(c) == 2]
    index = cell_index(side)
    marked = [c for c in marked if c in index]
    cube_list = [0] * len(board)
    for cell, which in (cubes or {}).items():
        cube_list[index[cell]] = which
    x0, y0, x1, y1 = render._board_extent(side, size)
    bw, bh = x1 - x0, y1 - y0
    cards = list(cards)
    extents = [render.card_extent(c, 14) for c in cards]
    notes = list(notes)
    width = bw + 12 + (max(w for w, _ in extents) + 10 if cards else 0)
    width = max(width, max((6.2 * len(n) + 12 for n in notes), default=0))
    height = max(bh + 12, sum(h + 6 for _, h in extents) + 6) + 16 * len(notes)
    pic = Svg(width, height, background="white")
    render.draw_board_into(pic, side, board, cube_list, marked, origin=(6, 6), size=size,
                           label=True, clickable=clickable, coords=True,
                           badges={c: badge for c in marked})
    y = 6.0
    for c, (_, h) in zip(cards, extents):
        render.draw_card_into(pic, c, (bw + 16, y), 14)
        y += h + 6
    top = max(bh + 12, y)
    for k, line in enumerate(notes):
        pic.text(6, top + 8 + 16 * k, line, size=11, anchor="start")
    return as_image(pic.render())


def _random_cells(rng: random.Random, side: str, n: int, avoid: Iterable[Cell] = ()) -> list[Cell]:
    free = [c for c in cells(side) if c not in set(avoid)]
    return rng.sample(free, n)


def _number_verdict(given: int, right: int, parts: list[tuple[str, int]], what: str,
                    detail: str) -> Verdict:
    """Judge a typed score: right, or wrong with the part that was missed when one part
    explains the difference, and the engine's breakdown."""
    if given == right:
        return Verdict(True, f"Right: {what} is {right}. {detail}")
    missed = [name for name, pts in parts if pts and given == right - pts]
    if missed:
        lead = f"it looks as if you left out {' or '.join(missed)} ({right - given} points)."
    else:
        lead = (f"{given} is {abs(given - right)} too "
                f"{'high' if given > right else 'low'}.")
    return Verdict(False, f"Not quite: {lead} {detail}")


def _state(side: str, stacks: Mapping[Cell, tuple], *, players: int = 1, player: int = 0,
           cubes: Mapping[Cell, int] | None = None, cards: tuple = (),
           hand: tuple = (), took_tokens: bool | None = None, took_card: bool = False,
           discarded: bool = False, seed: int = 0, empty_deck: bool = False):
    """A legal game position with the given board for ``player`` (tokens taken out of
    the pouch so that every token of the box is accounted for)."""
    g = new_game(players=players, seed=seed, side=side, spirits=False)
    board = stacks_tuple(side, stacks)
    index = cell_index(side)
    cube_list = [0] * len(board)
    for cell, which in (cubes or {}).items():
        cube_list[index[cell]] = which
    pouch = list(g.pouch)
    for token in [t for s in board for t in s] + list(hand):
        pouch.remove(token)
    ids = [c for c, _ in cards]
    deck = tuple(c for c in g.deck if c not in ids)
    row = tuple(c for c in g.row if c not in ids)
    while len(row) < len(g.row) and deck:
        row, deck = row + deck[:1], deck[1:]
    spirit = [c for c in ids if card(c).is_spirit]
    supply = rules_data()["central_board"]["animal_cubes"] - sum(
        card(c).cubes for c in ids if not card(c).is_spirit)
    area = replace(g.areas[player], stacks=board, cubes=tuple(cube_list), cards=tuple(cards))
    areas = list(g.areas)
    areas[player] = area
    state = replace(g, areas=tuple(areas), pouch=tuple(pouch), hand=tuple(hand),
                    took_tokens=bool(hand) if took_tokens is None else took_tokens,
                    took_card=took_card, discarded=discarded, deck=() if empty_deck else deck,
                    row=row, player=player, cube_supply=supply, spirits=bool(spirit),
                    boxed_spirits=tuple(s for s in spirit_ids() if s not in spirit))
    if empty_deck:   # the deck's cards leave the game through the solo discard pile
        state = replace(state, discard_pile=deck)
    return state


def _random_stack(rng: random.Random, min_height: int = 1) -> tuple:
    return rng.choice(sorted(s for s in legal_stacks() if len(s) >= min_height))


# ----- notebook 01: setup and turns ---------------------------------------------------------

@register("harmonies.token_on_stacks", game="harmonies", notebook=NB01,
          rule="A token goes on an empty space or on top of one or two tokens, only to make a "
               "stack of the stacking chart, and never on a space with a cube.",
          title="Where may this token go?")
def token_on_stacks(seed: int) -> Exercise:
    rng = _rng("token_on_stacks", seed)
    side = "A"
    while True:
        colour = rng.choice(["gray", "red", "brown", "green"])
        spots = _random_cells(rng, side, 7)
        stacks = {c: _random_stack(rng) for c in spots}
        cube_cell = None
        cubes, cards = {}, ()
        if colour in ("gray", "red") and rng.random() < 0.7:
            mountain = [c for c in spots if stacks[c] in (("gray",),)]
            cube_card = next(c for c in animal_ids() if card(c).cube == "M1")
            if mountain:
                cube_cell = mountain[0]
                cubes, cards = {cube_cell: cube_card}, ((cube_card, 1),)
        state = _state(side, stacks, hand=(colour,), cubes=cubes, cards=cards, seed=seed)
        legal = {a.cell for a in state.legal_actions()
                 if isinstance(a, PlaceToken) and a.colour == colour}
        answer = {c for c in spots if c in legal}
        if answer and len(answer) < len(spots):
            break

    def checker(given: frozenset) -> Verdict:
        for cell in sorted(given - answer):
            if cell not in stacks:
                if cell in legal:
                    return Verdict(False, f"{_cell_text(cell)} is an empty space: a token may "
                                          "always go there, but the question asks only about "
                                          "spaces that already hold tokens.", (cell,))
                return Verdict(False, f"{_cell_text(cell)} is not a space of this board.")
            reason, _ = why_illegal(state, PlaceToken(colour, cell))
            return Verdict(False, f"Not on {_cell_text(cell)}: {reason}.", (cell,))
        missing = sorted(answer - given)
        if missing:
            cell = missing[0]
            made = landscape_of(stacks[cell] + (colour,))
            return Verdict(False, f"You missed {_cell_text(cell)}: {colour} on "
                                  f"{', '.join(stacks[cell])} makes a {made}.", (cell,))
        return Verdict(True, f"Right: {colour} may go on {_cells_text(answer)}.")

    notes = [f"You hold one {colour} token."]
    if cube_cell:
        notes.append(f"The white square on {_cell_text(cube_cell)} is an animal cube.")
    return Exercise(
        kind="harmonies.token_on_stacks", seed=seed,
        question=f"You hold a {colour} token. Click every space that already holds tokens "
                 f"where you may put it.",
        answer_kind="cells", answer=answer, checker=checker,
        draw=lambda marked: _picture(side, stacks, marked, cubes=cubes, notes=notes),
        hint="Check the stacking chart: gray only on gray, green only on brown, red on one "
             "red, brown or gray token, and nothing ever goes on a cube.",
        explanation=f"{colour.capitalize()} may go on " + "; ".join(
            f"{_cell_text(c)} (makes a {landscape_of(stacks[c] + (colour,))})"
            for c in sorted(answer)) + ".",
        context={"state": state, "stacks": stacks, "colour": colour})


def _stack_label(stack: tuple) -> str:
    return " then ".join(stack) + " (bottom to top)"


@register("harmonies.legal_stacks", game="harmonies", notebook=NB01,
          rule="Only the stacks of the stacking chart may stand on a personal board.",
          title="Which stacks are allowed?")
def legal_stack_choices(seed: int) -> Exercise:
    rng = _rng("legal_stacks", seed)
    tall = sorted(s for s in legal_stacks() if len(s) >= 2)
    wrong = set()
    while len(wrong) < 12:
        s = tuple(rng.choice(COLOURS) for _ in range(rng.choice((2, 3))))
        if s not in legal_stacks():
            wrong.add(s)
    n_good = rng.randint(1, 4)
    chosen = rng.sample(tall, n_good) + rng.sample(sorted(wrong), 5 - n_good)
    rng.shuffle(chosen)
    letters = "ABCDE"
    options = tuple(Option(letters[k], f"{letters[k]}: {_stack_label(s)}")
                    for k, s in enumerate(chosen))
    by_key = dict(zip(letters, chosen))

    def why_not(s: tuple) -> str:
        try:
            check_stack("A", (0, 0), list(s))
        except IllegalAction as exc:
            text = str(exc).split(" (rule:")[0]
            return text[text.index(":") + 2:] if ":" in text else text
        return ""

    answer = {k for k, s in by_key.items() if not why_not(s)}

    def checker(given: frozenset) -> Verdict:
        for k in sorted(given - answer):
            return Verdict(False, f"{k} is not allowed: {why_not(by_key[k])}.")
        for k in sorted(answer - given):
            return Verdict(False, f"You left out {k}: it is allowed, a "
                                  f"{landscape_of(by_key[k])}.")
        return Verdict(True, "Right: " + ", ".join(
            f"{k} is a {landscape_of(by_key[k])}" for k in sorted(answer)) + ".")

    def draw(_marked) -> SvgImage:
        return render.stacks_svg(chosen, labels=list(letters),
                                 captions=[f"{len(st)} tokens" for st in chosen])

    return Exercise(
        kind="harmonies.legal_stacks", seed=seed,
        question="Which of these stacks may stand on a personal board? Pick every one that "
                 "is allowed (colours listed from the bottom token to the top one).",
        answer_kind="choices", answer=answer, checker=checker, options=options, draw=draw,
        hint="Blue and yellow always lie alone; green goes on brown; gray on gray; red on "
             "one red, brown or gray; at most three tokens.",
        explanation="; ".join(f"{k}: " + (f"a {landscape_of(s)}" if not why_not(s)
                                          else why_not(s)) for k, s in by_key.items()) + ".",
        context={"stacks": by_key})


@register("harmonies.take_a_card", game="harmonies", notebook=NB01,
          rule="You may take one face-up animal card per turn, and only while fewer than four "
               "of your cards are unfinished (a kept spirit counts until its cube is placed).",
          title="May you take a card?")
def take_a_card(seed: int) -> Exercise:
    rng = _rng("take_a_card", seed)
    side = "A"
    g0 = new_game(players=2, seed=seed, side=side, spirits=False)
    pool = [c for c in g0.deck]
    n_cards = rng.randint(2, 5)
    held = pool[:n_cards]
    spirit = rng.choice(spirit_ids()) if rng.random() < 0.5 else None
    cards, cubes, stacks = [], {}, {}
    free = list(cells(side))
    rng.shuffle(free)
    for cid in held:
        c = card(cid)
        placed = rng.choice([0, rng.randint(0, c.cubes), c.cubes])
        cards.append((cid, placed))
        for _ in range(placed):
            cell = free.pop()
            stacks[cell] = tuple(stacks_for_code(c.cube))
            cubes[cell] = cid
    if spirit is not None:
        placed = rng.randint(0, 1)
        cards.append((spirit, placed))
        if placed:
            cell = free.pop()
            stacks[cell] = tuple(stacks_for_code(card(spirit).cube))
            cubes[cell] = spirit
    took = rng.random() < 0.25
    state = _state(side, stacks, players=2, cubes=cubes, cards=tuple(cards), seed=seed,
                   took_tokens=True, took_card=took)
    wanted = state.row[0]
    action = TakeCard(wanted)
    legal = action in state.legal_actions()
    answer = "yes" if legal else "no"
    reason = "" if legal else why_illegal(state, action)[0]
    unfinished = [(c, k) for c, k in cards if k < card(c).cubes]
    status = "; ".join(
        f"{'spirit ' if card(c).is_spirit else ''}{card(c).name} {k} of {card(c).cubes} cubes "
        f"placed" + (" (finished)" if k == card(c).cubes else "") for c, k in cards)
    why_yes = (f"you hold {len(unfinished)} unfinished card"
               f"{'s' if len(unfinished) != 1 else ''} (finished cards leave their slot) and "
               f"took no card yet this turn")

    def checker(given: str) -> Verdict:
        if given == answer:
            return Verdict(True, f"Right: {'yes, ' + why_yes if legal else 'no: ' + reason}.")
        if legal:
            return Verdict(False, f"You may: {why_yes}.")
        return Verdict(False, f"You may not: {reason}.")

    turn = "You already took a card this turn." if took else "You have not taken a card this turn."
    notes = [turn, "Small squares on the board are cubes, numbered by their card."]
    return Exercise(
        kind="harmonies.take_a_card", seed=seed,
        question=f"{turn} Your cards: {status}. May you take the face-up {card(wanted).name} "
                 f"card now?",
        answer_kind="choice", answer=answer, checker=checker,
        options=(Option("yes", "Yes, I may take it"), Option("no", "No, not now")),
        draw=lambda marked: _picture(side, stacks, (), cubes=cubes, clickable=False,
                                     notes=notes, size=20),
        hint="Count only the unfinished cards (a spirit counts until its cube is placed), "
             "and remember: one card per turn.",
        explanation=(f"Yes: {why_yes}." if legal else f"No: {reason}."),
        context={"state": state, "card": wanted})


@register("harmonies.end_of_game", game="harmonies", notebook=NB01,
          rule="The end is triggered when a player ends a turn with two or fewer empty spaces "
               "(or the pouch cannot refill the central board); the round is then finished.",
          title="Does the game end?")
def end_of_game(seed: int) -> Exercise:
    rng = _rng("end_of_game", seed)
    side = "A"
    empty = rng.choice([1, 2, 2, 3, 3, 4])
    player = rng.randint(0, 1)
    g0 = new_game(players=2, seed=seed, side=side, spirits=False)
    pouch = list(g0.pouch)
    rng.shuffle(pouch)
    filled = _random_cells(rng, side, len(cells(side)) - empty)
    stacks = {}
    for cell in filled:
        stacks[cell] = (pouch.pop(),)
    state = _state(side, stacks, players=2, player=player, seed=seed, took_tokens=True)
    after = state.apply(EndTurn())
    if after.over:
        answer = "over"
    elif after.end_reason:
        answer = "round"
    else:
        answer = "on"
    name = state.player_name(player)
    texts = {
        "on": "The game goes on",
        "round": "The end is triggered: the other player still plays this round, then it ends",
        "over": "The game ends now: this turn completes the round",
    }
    why = {
        "on": f"{name} has {empty} empty spaces, more than 2, and the pouch can still refill "
              f"the central board.",
        "round": f"{name} has {empty} empty space{'s' if empty != 1 else ''} (2 or fewer): the "
                 f"end is triggered, and Player 2 still takes a turn so both have played "
                 f"as often.",
        "over": f"{name} has {empty} empty space{'s' if empty != 1 else ''} (2 or fewer), and "
                f"{name} is the last player of the round, so the game ends now.",
    }

    def checker(given: str) -> Verdict:
        if given == answer:
            return Verdict(True, "Right: " + why[answer])
        return Verdict(False, f"Not quite: {why[answer]}")

    return Exercise(
        kind="harmonies.end_of_game", seed=seed,
        question=f"Two players; Player 1 started. {name} has placed this turn's tokens and "
                 f"ends the turn with this board. What happens?",
        answer_kind="choice", answer=answer, checker=checker,
        options=tuple(Option(k, v) for k, v in texts.items()),
        draw=lambda marked: _picture(side, stacks, (), clickable=False,
                                     notes=[f"{name}'s board at the end of the turn"]),
        hint="Count the empty spaces; then ask whether everyone has played as often.",
        explanation=why[answer],
        context={"state": state, "after": after})


# ----- notebook 02: landscapes -------------------------------------------------------------

def _height_points(kind: str) -> tuple:
    return tuple(rules_data()["landscapes"][f"{kind}_points_by_height"])


@register("harmonies.tree_points", game="harmonies", notebook=NB02,
          rule="A tree is green on zero, one or two brown tokens: 1, 3 or 7 points by height; "
               "brown without green scores nothing.",
          title="Points for trees")
def tree_points_exercise(seed: int) -> Exercise:
    rng = _rng("tree_points", seed)
    side = "A"
    n_trees = rng.randint(2, 4)
    spots = _random_cells(rng, side, n_trees + 3)
    stacks = {}
    for cell in spots[:n_trees]:
        h = rng.randint(1, 3)
        stacks[cell] = ("brown",) * (h - 1) + ("green",)
    stacks[spots[n_trees]] = rng.choice([("brown",), ("brown", "brown")])
    stacks[spots[n_trees + 1]] = rng.choice([("gray",), ("gray", "gray"), ("yellow",)])
    stacks[spots[n_trees + 2]] = rng.choice([("brown", "red"), ("blue",), ("brown", "brown")])
    board = stacks_tuple(side, stacks)
    right = tree_points(board)
    pts = _height_points("tree")
    trees = sorted(c for c, s in stacks.items() if is_tree(s))
    parts = [(f"the tree at {_cell_text(c)}", pts[len(stacks[c]) - 1]) for c in trees]
    detail = " + ".join(f"{p} (height {len(stacks[c])} at {_cell_text(c)})"
                        for c, p in zip(trees, [p for _, p in parts])) + f" = {right}"
    trunks = [c for c, s in stacks.items() if s and s[-1] == "brown"]
    detail += "; " + ", ".join(_cell_text(c) for c in sorted(trunks)) + \
        (" is a trunk without foliage: 0." if len(trunks) == 1
         else " are trunks without foliage: 0 each.")

    return Exercise(
        kind="harmonies.tree_points", seed=seed,
        question="How many points do the trees on this board score?",
        answer_kind="number", answer=right,
        checker=lambda a: _number_verdict(a, right, parts, "the trees' score", detail),
        draw=lambda marked: _picture(side, stacks, (), clickable=False),
        hint="Only stacks with green on top are trees; the number in the middle is the height.",
        explanation=f"Trees: {detail}", context={"stacks": stacks})


@register("harmonies.mountain_points", game="harmonies", notebook=NB02,
          rule="A mountain (1 to 3 gray tokens) scores 1, 3 or 7 by height, but only when at "
               "least one neighbouring space is also a mountain.",
          title="Points for mountains")
def mountain_points_exercise(seed: int) -> Exercise:
    rng = _rng("mountain_points", seed)
    side = "A"
    while True:
        start = rng.choice(cells(side))
        group = [start]
        for _ in range(rng.randint(1, 2)):
            group.append(rng.choice([n for c in group for n in neighbours(side, c)
                                     if n not in group]))
        lone = _random_cells(rng, side, 2, avoid=group)
        stacks = {c: ("gray",) * rng.randint(1, 3) for c in group + lone}
        board = stacks_tuple(side, stacks)
        gs = groups(side, board, is_mountain)
        if any(len(g) == 1 for g in gs) and any(len(g) > 1 for g in gs):
            break
    for cell in _random_cells(rng, side, 2, avoid=list(stacks)):
        stacks[cell] = rng.choice([("brown", "green"), ("yellow",), ("gray", "red")])
    board = stacks_tuple(side, stacks)
    right = mountain_points(side, board)
    all_cells = cells(side)
    pts = _height_points("mountain")
    scoring = sorted(all_cells[i] for g in groups(side, board, is_mountain) if len(g) > 1
                     for i in g)
    alone = sorted(all_cells[g[0]] for g in groups(side, board, is_mountain) if len(g) == 1)
    parts = [(f"the mountain at {_cell_text(c)}", pts[len(stacks[c]) - 1]) for c in scoring]
    detail = " + ".join(f"{pts[len(stacks[c]) - 1]} (height {len(stacks[c])} at "
                        f"{_cell_text(c)})" for c in scoring) + f" = {right}"
    detail += "; " + ", ".join(_cell_text(c) for c in alone) + \
        (" has no mountain next to it: 0." if len(alone) == 1
         else " have no mountain next to them: 0 each.")
    return Exercise(
        kind="harmonies.mountain_points", seed=seed,
        question="How many points do the mountains on this board score?",
        answer_kind="number", answer=right,
        checker=lambda a: _number_verdict(a, right, parts, "the mountains' score", detail),
        draw=lambda marked: _picture(side, stacks, (), clickable=False),
        hint="A mountain on its own scores nothing; look for gray stacks that touch.",
        explanation=f"Mountains: {detail}", context={"stacks": stacks})


def _grow(rng: random.Random, side: str, size: int, avoid: set) -> list[Cell]:
    """A connected group of ``size`` cells avoiding ``avoid`` and its neighbours."""
    blocked = set(avoid) | {n for c in avoid for n in neighbours(side, c)}
    for _ in range(50):
        free = [c for c in cells(side) if c not in blocked]
        if not free:
            return []
        start = rng.choice(free)
        group = [start]
        while len(group) < size:
            options = [n for c in group for n in neighbours(side, c)
                       if n not in group and n not in blocked]
            if not options:
                break
            group.append(rng.choice(sorted(set(options))))
        if len(group) == size:
            return group
    return []


@register("harmonies.field_points", game="harmonies", notebook=NB02,
          rule="Every group of two or more connected yellow tokens scores 5, however large.",
          title="Points for fields")
def field_points_exercise(seed: int) -> Exercise:
    rng = _rng("field_points", seed)
    side = "A"
    while True:
        used: set = set()
        for size in [rng.randint(2, 4) for _ in range(rng.randint(1, 2))] + [1]:
            used |= set(_grow(rng, side, size, used))
        stacks = {c: ("yellow",) for c in used}
        board = stacks_tuple(side, stacks)
        gs = groups(side, board, lambda s: s == ("yellow",))
        if any(len(g) == 1 for g in gs) and any(len(g) > 1 for g in gs):
            break
    for cell in _random_cells(rng, side, 2, avoid=list(stacks)):
        stacks[cell] = rng.choice([("blue",), ("brown", "green"), ("gray",)])
    board = stacks_tuple(side, stacks)
    right = field_points(side, board)
    all_cells = cells(side)
    each = rules_data()["landscapes"]["field_group_points"]
    big = [sorted(all_cells[i] for i in g)
           for g in groups(side, board, lambda s: s == ("yellow",)) if len(g) > 1]
    alone = [all_cells[g[0]] for g in groups(side, board, lambda s: s == ("yellow",))
             if len(g) == 1]
    parts = [(f"the field group at {_cells_text(g)}", each) for g in big]
    detail = (f"{len(big)} group{'s' if len(big) != 1 else ''} of two or more "
              f"({'; '.join(_cells_text(g) for g in big)}) × {each} = {right}; the lone "
              f"yellow at {_cells_text(alone)} scores nothing.")
    return Exercise(
        kind="harmonies.field_points", seed=seed,
        question="How many points do the fields (yellow) on this board score?",
        answer_kind="number", answer=right,
        checker=lambda a: _number_verdict(a, right, parts, "the fields' score", detail),
        draw=lambda marked: _picture(side, stacks, (), clickable=False),
        hint="Count groups, not tokens: a group of four scores the same as a group of two.",
        explanation=f"Fields: {detail}", context={"stacks": stacks})


@register("harmonies.scoring_buildings", game="harmonies", notebook=NB02,
          rule="A building (red on red, brown or gray) scores 5 when the top tokens of its "
               "neighbours show at least three different colours.",
          title="Which buildings score?")
def scoring_buildings(seed: int) -> Exercise:
    rng = _rng("scoring_buildings", seed)
    side = "A"
    need = rules_data()["landscapes"]["building_colours_needed"]
    while True:
        spots = _random_cells(rng, side, 3)
        stacks = {c: rng.choice([("red", "red"), ("brown", "red"), ("gray", "red")])
                  for c in spots}
        for cell in spots:
            for n in neighbours(side, cell):
                if n not in stacks and rng.random() < 0.55:
                    stacks[n] = rng.choice([("blue",), ("yellow",), ("green",), ("gray",),
                                            ("brown", "green"), ("red",), ("brown",)])
        board = stacks_tuple(side, stacks)
        colours = {c: sorted({stacks[n][-1] for n in neighbours(side, c) if n in stacks})
                   for c, s in stacks.items() if is_building(s)}
        answer = {c for c, cs in colours.items() if len(cs) >= need}
        if answer and len(answer) < len(colours):
            break
    each = rules_data()["landscapes"]["building_points"]
    if building_points(side, board) != each * len(answer):  # the engine's total agrees
        raise RuntimeError("building check disagrees with the engine")

    def seen(c: Cell) -> str:
        return ", ".join(colours[c]) or "no colour"

    def checker(given: frozenset) -> Verdict:
        for cell in sorted(given - answer):
            if cell not in colours:
                return Verdict(False, f"{_where(stacks, cell).capitalize()} is not a "
                                      f"building (a building is red on one red, brown or "
                                      f"gray token).", (cell,))
            return Verdict(False, f"The building at {_cell_text(cell)} sees only "
                                  f"{len(colours[cell])} colour"
                                  f"{'s' if len(colours[cell]) != 1 else ''} around it "
                                  f"({seen(cell)}); it needs {need}.", (cell,))
        for cell in sorted(answer - given):
            return Verdict(False, f"You missed the building at {_cell_text(cell)}: its "
                                  f"neighbours show {seen(cell)}.", (cell,))
        return Verdict(True, "Right: " + "; ".join(
            f"{_cell_text(c)} sees {seen(c)}" for c in sorted(answer)) + ".")

    return Exercise(
        kind="harmonies.scoring_buildings", seed=seed,
        question="Click every building (red on top of one token) that scores 5 points.",
        answer_kind="cells", answer=answer, checker=checker,
        draw=lambda marked: _picture(side, stacks, marked),
        hint="For each building, list the colours on top of its six neighbours; empty "
             "spaces do not count.",
        explanation="; ".join(f"{_cell_text(c)} sees {seen(c)}"
                              + (" — scores" if c in answer else " — too few colours")
                              for c in sorted(colours)) + ".",
        context={"stacks": stacks})


def _river_explained(side: str, stacks: Mapping[Cell, tuple]) -> tuple[int, str]:
    """The river length by the engine, and why, in words (the longest path and the
    longest loop without shortcuts of the best water group)."""
    board = stacks_tuple(side, stacks)
    right = river_length(side, board, DEFAULT_RIVER_RULE)
    water = [c for c, s in stacks.items() if s == ("blue",)]
    graph = board_graph(side).subgraph(water)
    index = cell_index(side)
    best_text, best = "", -1
    for comp in nx.connected_components(graph):
        sub = graph.subgraph(comp)
        lengths = dict(nx.all_pairs_shortest_path_length(sub))
        a, b = max(((u, v) for u in sorted(comp) for v in sorted(comp)),
                   key=lambda uv: (lengths[uv[0]][uv[1]], uv))
        path = lengths[a][b] + 1
        ring = longest_ring([index[c] for c in comp], _neighbour_table(side)) \
            if len(comp) >= 3 else 0
        size = max(path, ring)
        if size > best:
            best = size
            best_text = (f"the shortest way from {_cell_text(a)} to {_cell_text(b)} passes "
                         f"{path} tokens")
            best_text += (f", and a loop without shortcuts of {ring} tokens is longer"
                          if ring > path else
                          f" (its longest loop without shortcuts has {ring} tokens)"
                          if ring else "")
    if best != right:
        raise RuntimeError("river explanation disagrees with the engine")
    return right, best_text


@register("harmonies.river_length", game="harmonies", notebook=NB02,
          rule="Side A: a river is as long as the shortest way between its two farthest "
               "tokens, or its longest loop without shortcuts if that is longer; only the "
               "best river scores.",
          title="How long is the river?")
def river_length_exercise(seed: int) -> Exercise:
    rng = _rng("river_length", seed)
    side = "A"
    kind = rng.choice(["path", "path", "ring", "blob"])
    water: set = set()
    if kind == "ring":
        inner = [c for c in cells(side) if len(neighbours(side, c)) == 6]
        centre = rng.choice(inner)
        water = set(neighbours(side, centre))
        tail_from = rng.choice(sorted(water))
        for _ in range(rng.randint(0, 2)):
            options = [n for n in neighbours(side, tail_from)
                       if n not in water and n != centre]
            if not options:
                break
            tail_from = rng.choice(sorted(options))
            water.add(tail_from)
    else:
        water = set(_grow(rng, side, rng.randint(4, 7) if kind == "path" else 5, set()))
    other = _grow(rng, side, rng.randint(1, 3), water)
    stacks = {c: ("blue",) for c in water | set(other)}
    for cell in _random_cells(rng, side, 2, avoid=list(stacks)):
        stacks[cell] = rng.choice([("brown", "green"), ("yellow",), ("gray",)])
    right, why = _river_explained(side, stacks)
    points = river_points(right)
    detail = f"{why}, so the river is {right} tokens long (worth {points} points)."
    return Exercise(
        kind="harmonies.river_length", seed=seed,
        question="How many tokens long is the river that scores on this board (side A)?",
        answer_kind="number", answer=right,
        checker=lambda a: (Verdict(True, f"Right: {detail}") if a == right else
                           Verdict(False, f"Not quite: {detail}")),
        draw=lambda marked: _picture(side, stacks, (), clickable=False),
        hint="Find the two water tokens farthest apart and count the tokens on the shortest "
             "way between them; then look for a ring whose tokens touch only their two "
             "neighbours along it.",
        explanation=detail[0].upper() + detail[1:], context={"stacks": stacks})


@register("harmonies.islands", game="harmonies", notebook=NB02,
          rule="Side B: every group of spaces not covered by water, empty spaces included, "
               "is an island worth 5 points.",
          title="Count the islands")
def islands_exercise(seed: int) -> Exercise:
    rng = _rng("islands", seed)
    side = "B"
    while True:
        water: set = set()
        for _ in range(rng.randint(1, 2)):
            col = rng.randrange(1, 6)
            water |= {(col, r) for r in range(4) if (col, r) in board_graph(side)}
            if rng.random() < 0.5:
                water.discard(rng.choice(sorted(water)))
        water |= set(_random_cells(rng, side, rng.randint(0, 2), avoid=water))
        stacks = {c: ("blue",) for c in water}
        for cell in _random_cells(rng, side, 3, avoid=list(stacks)):
            stacks[cell] = rng.choice([("brown", "green"), ("yellow",), ("gray",)])
        board = stacks_tuple(side, stacks)
        right = island_count(side, board)
        if 2 <= right <= 5:
            break
    each = rules_data()["landscapes"]["island_points"]
    all_cells = cells(side)
    isl = [sorted(all_cells[i] for i in g)
           for g in groups(side, board, lambda s: s != ("blue",))]
    detail = (f"{right} islands: " + "; ".join(
        f"one with {_cell_text(g[0])}" + (f" and {len(g) - 1} more spaces" if len(g) > 1
                                           else " alone") for g in isl)
              + f" — worth {right * each} points.")
    return Exercise(
        kind="harmonies.islands", seed=seed,
        question="This is a side B board. How many islands does it have?",
        answer_kind="number", answer=right,
        checker=lambda a: (Verdict(True, f"Right: {detail}") if a == right else
                           Verdict(False, f"Not quite: there are {detail}")),
        draw=lambda marked: _picture(side, stacks, (), clickable=False),
        hint="An island is every space, empty or not, that you can reach from another "
             "without crossing water.",
        explanation=detail[0].upper() + detail[1:], context={"stacks": stacks})


@register("harmonies.landscape_total", game="harmonies", notebook=NB02,
          rule="The landscape total adds trees, mountains, fields, buildings and water.",
          title="Score a whole board")
def landscape_total(seed: int) -> Exercise:
    rng = _rng("landscape_total", seed)
    side = "A"
    while True:
        stacks = {c: ("blue",) for c in _grow(rng, side, rng.randint(2, 4), set())}
        stacks.update({c: _random_stack(rng)
                       for c in _random_cells(rng, side, 9, avoid=list(stacks))})
        s = score_board(side, stacks)
        if sum(1 for _, p in s.rows() if p) >= 3:
            break
    right = s.total
    parts = list(s.rows())
    detail = ", ".join(f"{name} {pts}" for name, pts in parts) + f": total {right}."
    return Exercise(
        kind="harmonies.landscape_total", seed=seed,
        question="What is the landscape total of this side A board (trees, mountains, fields, "
                 "buildings and the river)?",
        answer_kind="number", answer=right,
        checker=lambda a: _number_verdict(a, right, parts, "the landscape total", detail),
        draw=lambda marked: _picture(side, stacks, (), clickable=False),
        hint="Go through the score pad row by row: trees, mountains, fields, buildings, water.",
        explanation=detail, context={"stacks": stacks})


# ----- notebook 03: habitats -------------------------------------------------------------------

def _place_pattern(rng: random.Random, side: str, card_id: int, avoid: set) -> dict | None:
    """The card's habitat built somewhere on the board (random cell and turn), or None."""
    options = []
    for cell in cells(side):
        for turn in range(6):
            pattern = pattern_cells(card_id, cell, turn)
            if all(c in board_graph(side) and c not in avoid for c in pattern):
                options.append(pattern)
    if not options:
        return None
    pattern = rng.choice(options)
    return {c: tuple(stacks_for_code(code)) for c, code in pattern.items()}


def _near_miss(rng: random.Random, stacks: dict, cells_: Iterable[Cell]) -> None:
    """Spoil one stack of a built habitat a little (a tree or mountain one level off)."""
    for cell in rng.sample(sorted(cells_), len(list(cells_))):
        s = stacks[cell]
        if s[-1] == "green" and len(s) < 3:
            stacks[cell] = ("brown",) + s
            return
        if s[-1] == "green" and len(s) == 3:
            stacks[cell] = s[1:]
            return
        if s[-1] == "gray" and len(s) < 3:
            stacks[cell] = s + ("gray",)
            return
    cell = rng.choice(sorted(cells_))
    stacks[cell] = ("yellow",) if stacks[cell] != ("yellow",) else ("blue",)


def _habitat_board(rng: random.Random, side: str, card_id: int, copies: int,
                   spoiled: int) -> dict:
    stacks: dict = {}
    for _ in range(copies):
        built = _place_pattern(rng, side, card_id, set(stacks) | {
            n for c in stacks for n in neighbours(side, c)})
        if built:
            stacks.update(built)
    for _ in range(spoiled):
        built = _place_pattern(rng, side, card_id, set(stacks) | {
            n for c in stacks for n in neighbours(side, c)})
        if built:
            _near_miss(rng, built, list(built))
            stacks.update(built)
    return stacks


def _why_no_cube(card_id: int, side: str, stacks: Mapping, cubes: Iterable[Cell],
                 cell: Cell) -> str:
    c = card(card_id)
    if cell in set(cubes):
        return f"{_cell_text(cell)} already holds a cube"
    stack = tuple(stacks.get(cell, ()))
    if not stack_matches(c.cube, stack):
        want = describe_stack(tuple(stacks_for_code(c.cube)))
        if c.cube == "BLD":
            want = "a building"
        return (f"the cube goes on {want}, and {_where(stacks, cell)} is not that")
    return (f"around {_cell_text(cell)} the rest of the {c.name} habitat is not built in any "
            f"of the six turns (a stack is missing or has another height)")


@register("harmonies.habitat_cells", game="harmonies", notebook=NB03,
          rule="A card's cube may go on a space when the card's habitat is built around it, "
               "turned any way, with exactly the same stacks, and no cube is there yet.",
          title="Where can the cube go?")
def habitat_cells_exercise(seed: int) -> Exercise:
    rng = _rng("habitat_cells", seed)
    side = "A"
    while True:
        cid = rng.choice(animal_ids())
        stacks = _habitat_board(rng, side, cid, rng.randint(1, 2), 1)
        cubes: dict = {}
        found = habitat_cells(cid, side, stacks)
        if len(found) >= 2 and rng.random() < 0.5:
            cubes = {found[0]: cid}
        answer = set(habitat_cells(cid, side, stacks, cubes=list(cubes)))
        if answer:
            break

    def checker(given: frozenset) -> Verdict:
        for cell in sorted(given - answer):
            return Verdict(False, f"Not {_cell_text(cell)}: "
                                  f"{_why_no_cube(cid, side, stacks, cubes, cell)}.", (cell,))
        for cell in sorted(answer - given):
            return Verdict(False, f"You missed {_cell_text(cell)}: the whole habitat is "
                                  f"built around it.", (cell,))
        return Verdict(True, f"Right: the {card(cid).name} cube fits on {_cells_text(answer)}.")

    name = card(cid).name
    notes = ["White squares on the board are cubes already placed."] if cubes else []
    return Exercise(
        kind="harmonies.habitat_cells", seed=seed,
        question=f"Click every space where the {name} cube may go now (its habitat is drawn "
                 f"on the card; the little square marks the cube's space).",
        answer_kind="cells", answer=answer, checker=checker,
        draw=lambda marked: _picture(side, stacks, marked, cubes=cubes, cards=[cid],
                                     notes=notes),
        hint="Find the cube's stack first, then turn the card's pattern around it; heights "
             "must match exactly.",
        explanation=f"The {name} habitat is complete around {_cells_text(answer)}.",
        context={"stacks": stacks, "card": cid, "cubes": cubes})


@register("harmonies.card_points", game="harmonies", notebook=NB03,
          rule="An animal card scores the highest value no longer covered by a cube; a card "
               "with all its cubes still on it scores nothing.",
          title="Points of an animal card")
def card_points_exercise(seed: int) -> Exercise:
    rng = _rng("card_points", seed)
    cid = rng.choice(animal_ids())
    c = card(cid)
    placed = rng.randint(0, c.cubes)
    right = card_points(cid, placed)
    track = ", ".join(str(p) for p in c.points)
    if placed == 1:
        detail = f"1 cube moved to the board uncovers the lowest value, {right}."
    elif placed:
        detail = (f"{placed} cubes moved to the board uncover the {placed} lowest values; "
                  f"the highest uncovered one is {right}.")
    else:
        detail = "No cube has left the card, so it scores nothing."

    def draw(_marked) -> SvgImage:
        w, h = render.card_extent(cid, 14)
        box = 26
        pic = Svg(w + 20 + box + 120, max(h, box * c.cubes + 30) + 12, background="white")
        render.draw_card_into(pic, cid, (6, 6), 14)
        x = w + 20
        pic.text(x, 10, "points track", size=10, anchor="start")
        for k, p in enumerate(c.points):   # bottom value drawn lowest
            y = 20 + box * (c.cubes - 1 - k)
            covered = k >= placed
            pic.rect(x, y, box, box - 2, fill="#fbf7ea", stroke="#8a7d55", stroke_width=1)
            pic.text(x + box / 2, y + box / 2 - 1, str(p), size=11)
            if covered:
                pic.rect(x + 4, y + 3, box - 8, box - 8, fill="#fdfdfd", stroke="black",
                         stroke_width=1.5, title="a cube still on the card")
                pic.text(x + box + 8, y + box / 2, "cube", size=9, anchor="start")
            else:
                pic.text(x + box + 8, y + box / 2, "uncovered", size=9, anchor="start")
        return as_image(pic.render())

    return Exercise(
        kind="harmonies.card_points", seed=seed,
        question=f"The {c.name} card's values are {track} from the bottom up. You have moved "
                 f"{placed} of its {c.cubes} cubes to your board. How many points does it "
                 f"score?",
        answer_kind="number", answer=right,
        checker=lambda a: (Verdict(True, f"Right: {detail}") if a == right else
                           Verdict(False, f"Not quite: {detail}")),
        draw=draw,
        hint="Cubes leave the card from the bottom; the card scores the top value you can see.",
        explanation=detail, context={"card": cid, "placed": placed})


@register("harmonies.cards_that_fit", game="harmonies", notebook=NB03,
          rule="A card's cube can be placed only where its whole habitat is built.",
          title="Which cards can place a cube?")
def cards_that_fit(seed: int) -> Exercise:
    rng = _rng("cards_that_fit", seed)
    side = "A"
    while True:
        ids = rng.sample(animal_ids(), 3)
        stacks: dict = {}
        for k, cid in enumerate(ids):
            blocked = set(stacks) | {n for c in stacks for n in neighbours(side, c)}
            built = _place_pattern(rng, side, cid, blocked)
            if built is None:
                continue
            if rng.random() < 0.45:
                _near_miss(rng, built, list(built))
            stacks.update(built)
        answer = {str(cid) for cid in ids if habitat_cells(cid, side, stacks)}
        if 1 <= len(answer) <= 2:
            break
    options = tuple(Option(str(cid), card(cid).name) for cid in ids)

    def checker(given: frozenset) -> Verdict:
        for key in sorted(given - answer):
            return Verdict(False, f"{card(int(key)).name} cannot place a cube: nowhere on the "
                                  f"board is its whole habitat built (a stack is missing or "
                                  f"has another height).")
        for key in sorted(answer - given):
            where = habitat_cells(int(key), side, stacks)
            return Verdict(False, f"You left out {card(int(key)).name}: its cube fits on "
                                  f"{_cells_text(where)}.")
        return Verdict(True, "Right: " + "; ".join(
            f"{card(int(k)).name} fits on {_cells_text(habitat_cells(int(k), side, stacks))}"
            for k in sorted(answer)) + ".")

    return Exercise(
        kind="harmonies.cards_that_fit", seed=seed,
        question="Which of these cards could place a cube on this board now? Pick every one.",
        answer_kind="choices", answer=answer, checker=checker, options=options,
        draw=lambda marked: _picture(side, stacks, (), cards=ids, clickable=False),
        hint="For each card, look for its cube's stack, then turn the pattern around it.",
        explanation="; ".join(
            f"{card(c).name}: " + (f"fits on {_cells_text(habitat_cells(c, side, stacks))}"
                                   if str(c) in answer else "not built")
            for c in ids) + ".",
        context={"stacks": stacks, "cards": ids})


@register("harmonies.complete_habitat", game="harmonies", notebook=NB03,
          rule="Placing one more token can complete a habitat, as long as the stacking chart "
               "allows it.",
          title="Finish the habitat")
def complete_habitat(seed: int) -> Exercise:
    rng = _rng("complete_habitat", seed)
    side = "A"
    while True:
        cid = rng.choice(animal_ids())
        built = _place_pattern(rng, side, cid, set())
        missing = rng.choice(sorted(built))
        colour = built[missing][-1]
        stacks = dict(built)
        if len(stacks[missing]) == 1:
            del stacks[missing]
        else:
            stacks[missing] = stacks[missing][:-1]
        for cell in _random_cells(rng, side, 3, avoid=list(built)):
            stacks[cell] = _random_stack(rng)
        if habitat_cells(cid, side, stacks):
            continue
        answer = set()
        for cell in cells(side):
            below = tuple(stacks.get(cell, ()))
            if (*below, colour) not in legal_stacks():
                continue
            trial = dict(stacks)
            trial[cell] = below + (colour,)
            if habitat_cells(cid, side, trial):
                answer.add(cell)
        if 1 <= len(answer) <= 3:   # a few spaces to find, not a whole ring of them
            break

    def checker(given: frozenset) -> Verdict:
        for cell in sorted(given - answer):
            below = tuple(stacks.get(cell, ()))
            if (*below, colour) not in legal_stacks():
                return Verdict(False, f"{colour} cannot go on {_where(stacks, cell)} (stacking "
                                      f"chart).", (cell,))
            return Verdict(False, f"With {colour} on {_cell_text(cell)} the {card(cid).name} "
                                  f"habitat is still not complete anywhere.", (cell,))
        for cell in sorted(answer - given):
            return Verdict(False, f"You missed {_cell_text(cell)}: {colour} there completes "
                                  f"the habitat.", (cell,))
        return Verdict(True, f"Right: {colour} on {_cells_text(answer)} completes the "
                             f"{card(cid).name} habitat.")

    return Exercise(
        kind="harmonies.complete_habitat", seed=seed,
        question=f"You hold one {colour} token. Click every space where placing it would let "
                 f"the {card(cid).name} cube go on the board.",
        answer_kind="cells", answer=answer, checker=checker,
        draw=lambda marked: _picture(side, stacks, marked, cards=[cid],
                                     notes=[f"You hold one {colour} token."]),
        hint="Find the nearly finished habitat on the board and the one stack it lacks.",
        explanation=f"{colour.capitalize()} on {_cells_text(answer)} completes the habitat.",
        context={"stacks": stacks, "card": cid, "colour": colour})


# ----- notebook 04: spirits and solo -----------------------------------------------------------

_SPIRIT_BOARD = {
    "yellow_groups": [("yellow",)] * 3,
    "water_groups": [("blue",)] * 3,
    "building_groups": [("gray", "red"), ("brown", "red"), ("red", "red")],
    "trees": [("green",), ("brown", "green"), ("brown", "brown", "green")],
    "mountains": [("gray",), ("gray", "gray"), ("gray", "gray", "gray")],
    "blue_tokens": [("blue",)] * 3,
}


def _spirit_stacks(rng: random.Random, side: str, spirit: int) -> dict:
    kinds = _SPIRIT_BOARD[card(spirit).count]
    stacks: dict = {}
    for _ in range(rng.randint(2, 3)):
        group = _grow(rng, side, rng.randint(1, 3), set(stacks))
        for cell in group:
            stacks[cell] = rng.choice(kinds)
    for cell in _random_cells(rng, side, 3, avoid=list(stacks)):
        stacks[cell] = _random_stack(rng)
    return stacks


def _spirit_detail(spirit: int, side: str, stacks: Mapping) -> str:
    c = card(spirit)
    board = stacks_tuple(side, stacks)
    pts = c.count_points
    all_cells = cells(side)
    if c.count in ("yellow_groups", "water_groups", "building_groups"):
        keep = {"yellow_groups": lambda s: bool(s) and s[-1] == "yellow",
                "water_groups": lambda s: bool(s) and s[-1] == "blue",
                "building_groups": is_building}[c.count]
        gs = groups(side, board, keep)
        return "; ".join(f"a group of {len(g)} at {_cell_text(all_cells[g[0]])}: "
                         f"{pts[min(len(g), len(pts)) - 1]}" for g in gs) or "no group"
    if c.count in ("trees", "mountains"):
        keep = is_tree if c.count == "trees" else is_mountain
        return "; ".join(f"height {len(s)} at {_cell_text(all_cells[i])}: "
                         f"{pts[min(len(s), len(pts)) - 1]}"
                         for i, s in enumerate(board) if keep(s)) or "none on the board"
    blue = sum(s.count("blue") for s in board)
    return f"{blue} blue tokens × {pts[0]}"


def _spirit_rule(spirit: int) -> str:
    c = card(spirit)
    what = {"yellow_groups": "group of fields", "water_groups": "group of water",
            "building_groups": "group of buildings", "trees": "tree",
            "mountains": "mountain", "blue_tokens": "blue token"}[c.count]
    pts = c.count_points
    if c.count == "blue_tokens":
        return f"{pts[0]} per {what}"
    if len(pts) == 1:
        return f"{pts[0]} per {what}, whatever its size"
    if c.count.endswith("groups"):
        sizes = ", ".join(str(k + 1) for k in range(len(pts) - 1))
        return f"per {what} of size {sizes}, {len(pts)} or more: " + "/".join(map(str, pts))
    return f"per {what} of height 1, 2, 3: " + "/".join(map(str, pts))


@register("harmonies.spirit_points", game="harmonies", notebook=NB04,
          rule="A Nature's Spirit scores by its own count of landscapes or groups, and only "
               "if its cube was placed.",
          title="Points of a spirit")
def spirit_points_exercise(seed: int) -> Exercise:
    rng = _rng("spirit_points", seed)
    side = "A"
    spirit = rng.choice(spirit_ids())
    stacks = _spirit_stacks(rng, side, spirit)
    placed = rng.random() < 0.8
    right = card_points(spirit, 1 if placed else 0, side, stacks)
    if placed:
        detail = f"{_spirit_detail(spirit, side, stacks)} — {right} points in all."
    else:
        detail = "Its cube is still on the card, so the spirit scores nothing."
    state = "Its cube is on the board." if placed else "Its cube was never placed."
    return Exercise(
        kind="harmonies.spirit_points", seed=seed,
        question=f"Your spirit is the {card(spirit).name} ({_spirit_rule(spirit)}). {state} "
                 f"How many points does it score on this board?",
        answer_kind="number", answer=right,
        checker=lambda a: (Verdict(True, f"Right: {detail}") if a == right else
                           Verdict(False, f"Not quite: {detail}")),
        draw=lambda marked: _picture(side, stacks, (), cards=[spirit], clickable=False,
                                     notes=[f"{card(spirit).name}: {_spirit_rule(spirit)}",
                                            state]),
        hint="A lone token is a group of one; count each group or stack once.",
        explanation=detail, context={"stacks": stacks, "spirit": spirit, "placed": placed})


@register("harmonies.better_spirit", game="harmonies", notebook=NB04,
          rule="You keep one of the two spirits you are dealt; each scores by its own rule.",
          title="Which spirit scores more?")
def better_spirit(seed: int) -> Exercise:
    rng = _rng("better_spirit", seed)
    side = "A"
    while True:
        a, b = rng.sample(spirit_ids(), 2)
        stacks = _spirit_stacks(rng, side, a)
        stacks.update({c: s for c, s in _spirit_stacks(rng, side, b).items()
                       if c not in stacks})
        board = stacks_tuple(side, stacks)
        pa, pb = spirit_points(card(a), side, board), spirit_points(card(b), side, board)
        if pa != pb:
            break
    answer = str(a if pa > pb else b)
    detail = (f"{card(a).name} scores {pa} ({_spirit_detail(a, side, stacks)}); "
              f"{card(b).name} scores {pb} ({_spirit_detail(b, side, stacks)}).")
    return Exercise(
        kind="harmonies.better_spirit", seed=seed,
        question="You were dealt these two spirits. Which one would score more on this board "
                 "(its cube placed)?",
        answer_kind="choice", answer=answer,
        checker=lambda g: (Verdict(True, f"Right: {detail}") if g == answer else
                           Verdict(False, f"Not this one: {detail}")),
        options=(Option(str(a), f"{card(a).name} ({_spirit_rule(a)})"),
                 Option(str(b), f"{card(b).name} ({_spirit_rule(b)})")),
        draw=lambda marked: _picture(side, stacks, (), cards=[a, b], clickable=False,
                                     notes=[f"{card(a).name}: {_spirit_rule(a)}",
                                            f"{card(b).name}: {_spirit_rule(b)}"]),
        hint="Score each spirit on its own, then compare.",
        explanation=detail, context={"stacks": stacks, "spirits": (a, b)})


@register("harmonies.solo_suns", game="harmonies", notebook=NB04,
          rule="Solo: 40, 70, 90, 110, 130, 140, 150 and 160 points each earn a sun; side A "
               "adds one; no spirit adds two, a groups spirit one, a number spirit none.",
          title="Solo suns")
def solo_suns_exercise(seed: int) -> Exercise:
    rng = _rng("solo_suns", seed)
    score = rng.randint(30, 170)
    side = rng.choice("AB")
    spirit = rng.choice([None, *spirit_ids()])
    right = solo_suns(score, side, spirit)
    base = suns_for_score(score)
    solo = rules_data()["solo"]
    side_bonus = solo["side_bonus"][side]
    if spirit is None:
        spirit_text, bonus = "no spirit", solo["no_spirit_bonus"]
    else:
        fam = card(spirit).family
        spirit_text = f"the {card(spirit).name} ({'groups' if fam == 'groups' else 'number'} " \
                      f"family)"
        bonus = solo["spirit_family_bonus"][fam]
    parts = [("the score's suns", base), ("the side's sun", side_bonus),
             ("the spirit's suns", bonus)]
    detail = (f"{score} points earn {base} sun{'s' if base != 1 else ''}, side {side} adds "
              f"{side_bonus}, {spirit_text} adds {bonus}: {right} suns.")
    bands = ", ".join(map(str, solo["sun_thresholds"]))
    return Exercise(
        kind="harmonies.solo_suns", seed=seed,
        question=f"A solo game ends with {score} points on side {side}, played with "
                 f"{spirit_text}. How many suns is that?",
        answer_kind="number", answer=right,
        checker=lambda a: _number_verdict(a, right, parts, "the result", detail),
        draw=None,
        hint=f"One sun for each of {bands} points reached, then the side and spirit bonuses.",
        explanation=detail, context={"score": score, "side": side, "spirit": spirit})


@register("harmonies.solo_discard", game="harmonies", notebook=NB04,
          rule="Solo: if you took no animal card this turn, you may discard one face-up card "
               "and replace it from the deck.",
          title="Solo: may you discard a card?")
def solo_discard(seed: int) -> Exercise:
    rng = _rng("solo_discard", seed)
    side = "A"
    took = rng.random() < 0.4
    discarded = (not took) and rng.random() < 0.25
    empty_deck = (not took) and (not discarded) and rng.random() < 0.2
    state = _state(side, {}, players=1, seed=seed, took_tokens=True, took_card=took,
                   discarded=discarded, empty_deck=empty_deck)
    target = state.row[0]
    action = DiscardCard(target)
    legal = action in state.legal_actions()
    answer = "yes" if legal else "no"
    if took:
        situation = "You took an animal card this turn."
    elif discarded:
        situation = "You took no card this turn but already discarded one."
    else:
        situation = "You took no animal card this turn."
    situation += " The deck is empty." if empty_deck else \
        f" The deck still holds {len(state.deck)} cards."
    reason = "" if legal else why_illegal(state, action)[0]
    yes_text = "you took no card this turn and the deck can replace the discarded one"
    detail = f"Yes: {yes_text}." if legal else f"No: {reason}."

    def checker(given: str) -> Verdict:
        return Verdict(given == answer, ("Right. " if given == answer else "Not quite. ")
                       + detail)

    return Exercise(
        kind="harmonies.solo_discard", seed=seed,
        question=f"Solo game. {situation} May you discard the face-up {card(target).name} "
                 f"card now?",
        answer_kind="choice", answer=answer, checker=checker,
        options=(Option("yes", "Yes"), Option("no", "No")),
        draw=lambda marked: as_image(state.to_svg()),
        hint="Discarding replaces taking a card, and a replacement must come from the deck.",
        explanation=detail, context={"state": state})


__all__ = ["Exercise", "Option", "Verdict"]
