"""Exercise generators for Harmonies (see :mod:`pangaea_lab.core.exercises`): each registered
kind builds a position from a seed and a level and lets the rules engine answer it.  A wrong
answer gets a reason about what is wrong in it (a typical mistake gets its own, named
diagnosis), hints go from a nudge to a pointer on this very board, and the answer itself is
shown only by Show answer.

>>> from pangaea_lab.exercises import generate
>>> ex = generate("harmonies.tree_points", seed=3, level=2)
>>> ex.check(ex.answer).correct, ex.check(ex.answer + 1).correct
(True, False)
>>> str(ex.answer) in ex.check(ex.answer + 1).reason
False
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from functools import partial
from typing import Any, Callable, Iterable, Mapping

import networkx as nx

from ..core.exercises import (Exercise, Option, Verdict, cell_text, cells_verdict,
                              choice_verdict, choices_verdict, number_verdict, register)
from ..core.svg import Svg, SvgImage, as_image
from . import render
from .actions import DiscardCard, EndTurn, PlaceCube, PlaceToken, TakeCard, TakeTokens
from .board import (COLOURS, Cell, _neighbour_table, board_graph, cell_index, cells,
                    landscape_of, legal_stacks, neighbours, rules_data, stacks_tuple)
from .cards import animal_ids, card, spirit_ids
from .habitats import habitat_cells, pattern_cells, stack_matches, stacks_for_code
from .rules import why_illegal
from .scoring import (DEFAULT_RIVER_RULE, building_points, card_points, field_points, groups,
                      island_count, is_building, is_mountain, is_tree, longest_ring,
                      mountain_points, river_length, river_points, score_board, solo_suns,
                      spirit_points, suns_for_score, tree_points)
from .setup import new_game
from .game import GAME

NB01 = "harmonies/01_setup_and_turns.ipynb"
NB02 = "harmonies/02_landscapes.ipynb"
NB03 = "harmonies/03_habitats.ipynb"
NB04 = "harmonies/04_spirits_and_solo.ipynb"

TICK = "✓"
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve")


# ----- shared helpers ------------------------------------------------------------------------

def _rng(kind: str, seed: int, level: int) -> random.Random:
    return random.Random(f"harmonies.{kind}:{seed}:{level}")


def _cells_text(cs: Iterable[Cell]) -> str:
    cs = sorted(cs)
    return ", ".join(cell_text(c) for c in cs) if cs else "no space"


def _count(n: int, one: str, many: str | None = None) -> str:
    """``n`` things in words for small numbers: "two trees", "one field", "14 tokens"."""
    word = _WORDS[n] if 0 <= n < len(_WORDS) else str(n)
    return f"{word} {one if n == 1 else (many or one + 's')}"


def _names(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _where(stacks: Mapping[Cell, tuple], cell: Cell) -> str:
    """A space named by its coordinates and what stands on it."""
    stack = tuple(stacks.get(cell, ()))
    what = landscape_of(stack) if stack else "empty space"
    return f"the {what} at {cell_text(cell)}"


def _digits(text: str) -> list[str]:
    return re.findall(r"(?<![\w.])-?\d+(?![\w.])", text)


def _safe(text: str, right: int, question: str, fallback: str) -> str:
    """``text``, or ``fallback`` when ``text`` shows the number ``right`` (say, as a space's
    coordinate) that the question does not already show: a learner must not read it."""
    shown = str(right)
    if shown in _digits(text) and shown not in _digits(question):
        return fallback
    return text


_PLAIN_RULE = "Go through the rule again, one part at a time, on this board."
_PLAIN_HINTS = ("Look at the board again, one part at a time.",
                "Apply the rule to each marked space in turn.", "Check each step once more.")


def _number_exercise(key: str, seed: int, level: int, question: str, right: int, *,
                     what: str, rule: str, mistakes: Iterable[tuple],
                     hints: tuple[tuple[str, str], ...], explanation: str,
                     draw: Callable | None, context: dict, hint_marks: tuple = ()) -> Exercise:
    """A "type a number" exercise.  ``mistakes`` are (value, name, reason) or (value, name,
    reason, plain reason): a typical wrong answer with its diagnosis, the first one listed
    winning; ``hints`` are (hint, plain hint) pairs.  A reason or hint that would show the
    answer (a coordinate, a count equal to it) is replaced by its plain version (for a
    mistake without one, the reason itself), and that by a general one."""
    known: dict[int, tuple[str, str]] = {}
    for value, name, reason, *rest in mistakes:
        plain = (rest[0] if rest else "") or reason
        if value != right and value >= 0 and value not in known:
            known[value] = (name, _safe(_safe(reason, right, question, plain), right,
                                        question, _PLAIN_RULE))
    rule = _safe(rule, right, question, _PLAIN_RULE)
    shown = tuple(_safe(_safe(h, right, question, p), right, question, last)
                  for (h, p), last in zip(hints, _PLAIN_HINTS))
    checker = partial(number_verdict, right=right, what=what, rule=rule, misconceptions=known,
                      right_reason=f"Right. {explanation}")
    return Exercise(kind=key, seed=seed, question=question, answer_kind="number", answer=right,
                    checker=checker, draw=draw, hints=shown, hint_marks=hint_marks,
                    explanation=explanation, context=context)


#: the diagnosis of an empty answer where every space (or option) that fits is asked for
_NO_CLICK = ("shape", "Click at least one space: the question asks for every space that fits.")
_NO_PICK = ("shape", "Pick at least one: the question asks for every one that fits.")


def _cells_checker(answer: set, refuse: Callable[[Cell], tuple[str, str]], missed: str,
                   right_reason: str) -> Callable[[frozenset], Verdict]:
    """Core's :func:`cells_verdict` for "click every space that fits", where an empty answer
    is told to click at least one space rather than to look for the missing ones."""
    return lambda given: cells_verdict(given, frozenset(answer), refuse=refuse, missed=missed,
                                       right_reason=right_reason,
                                       partial=lambda g: None if g else _NO_CLICK)


def _choices_checker(answer: set, refuse: Mapping[str, tuple[str, str]] | Callable[[str], Any],
                     missed: str, right_reason: str) -> Callable[[frozenset], Verdict]:
    """Core's :func:`choices_verdict` for "pick every one that fits", where an empty answer
    is told to pick at least one; ``refuse`` gives a wrong pick's (misconception, reason)."""
    return lambda given: choices_verdict(given, frozenset(answer), why_not=refuse,
                                         missed=missed, right_reason=right_reason,
                                         partial=lambda g: None if g else _NO_PICK)


def _picture(side: str, stacks: Mapping[Cell, Iterable[str]], marked: Iterable = (), *,
             cubes: Mapping[Cell, int] | None = None, cards: Iterable[Any] = (),
             clickable: bool = True, notes: Iterable[str] = (), badge: str = TICK,
             size: float = 26.0) -> SvgImage:
    """The board (spaces clickable, ``marked`` outlined and ticked), the cards beside it
    and a few lines of notes under it."""
    board = stacks_tuple(side, stacks)
    index = cell_index(side)
    marked = [tuple(c) for c in marked if isinstance(c, tuple) and tuple(c) in index]
    cube_list = [0] * len(board)
    for cell, which in (cubes or {}).items():
        cube_list[index[cell]] = which
    x0, y0, x1, y1 = render._board_extent(side, size)
    bw, bh = x1 - x0, y1 - y0
    cards = list(cards)
    extents = [render.card_extent(c, size) for c in cards]   # at the board's scale
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
        render.draw_card_into(pic, c, (bw + 16, y), size)
        y += h + 6
    top = max(bh + 12, y)
    for k, line in enumerate(notes):
        pic.text(6, top + 8 + 16 * k, line, size=11, anchor="start")
    return as_image(pic.render())


def _board_drawer(side: str, stacks: Mapping, **kw: Any) -> Callable:
    """A drawing of the board for a number or choice question: the marked spaces are what
    a hint points at."""
    return lambda marked: _picture(side, stacks, marked, clickable=False, **kw)


def _random_cells(rng: random.Random, side: str, n: int, avoid: Iterable[Cell] = ()) -> list[Cell]:
    avoid = set(avoid)
    free = [c for c in cells(side) if c not in avoid]
    return rng.sample(free, min(n, len(free)))


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


def _grow(rng: random.Random, side: str, size: int, avoid: set) -> list[Cell]:
    """A connected group of ``size`` cells avoiding ``avoid`` and its neighbours."""
    blocked = set(avoid) | {n for c in avoid for n in neighbours(side, c)}
    for _ in range(50):
        free = [c for c in cells(side) if c not in blocked]
        if not free:
            return []
        group = [rng.choice(free)]
        while len(group) < size:
            options = [n for c in group for n in neighbours(side, c)
                       if n not in group and n not in blocked]
            if not options:
                break
            group.append(rng.choice(sorted(set(options))))
        if len(group) == size:
            return group
    return []


# ----- the stacking chart in words ------------------------------------------------------------

#: what each colour may go on, in words (the engine's chart decides; these words explain it)
_COLOUR_RULE = {
    "gray": "A gray token goes only on one or two gray tokens: a mountain grows up to three.",
    "red": "A red token goes on one single red, brown or gray token, making a building of "
           "two tokens.",
    "brown": "A brown token goes only on one brown token: a trunk is at most two brown "
             "tokens high.",
    "green": "A green token goes on one or two brown tokens, making a tree; nothing goes on "
             "a green token.",
    "blue": "A blue token always lies alone on an empty space.",
    "yellow": "A yellow token always lies alone on an empty space.",
}


def _stack_problem(below: tuple, colour: str) -> tuple[str, str]:
    """Why ``colour`` may not go on ``below`` (asked only when the chart forbids it): the
    mistake's name and the reason in words."""
    top = below[-1] if below else ""
    if len(below) >= 3:
        return "too-tall", "no stack is ever taller than three tokens."
    if top in ("blue", "yellow"):
        return "stacked-on-lone-colour", f"{top} tokens always lie alone: nothing goes on them."
    if colour in ("blue", "yellow"):
        return "stacked-lone-colour", f"{colour} tokens always lie alone on an empty space."
    if top == "green":
        return "stacked-on-tree", ("a tree is finished once its green token is on top: "
                                   "nothing goes on it.")
    if top == "red" and len(below) == 2:
        return "stacked-on-building", ("a building is finished at two tokens: nothing goes "
                                       "on it.")
    rule = _COLOUR_RULE[colour]
    return f"{colour}-misplaced", (f"{colour} cannot go on {', '.join(below)}: "
                                   f"{rule[0].lower() + rule[1:]}")


def _first_problem(stack: tuple) -> tuple[str, str]:
    """The first token of ``stack`` that the chart forbids (bottom up), with its reason."""
    for k in range(1, len(stack) + 1):
        if stack[:k] not in legal_stacks():
            return _stack_problem(stack[:k - 1], stack[k - 1])
    return "", ""


def _stack_label(stack: tuple) -> str:
    return " then ".join(stack) + " (bottom to top)"


# ----- notebook 01: setup and turns ---------------------------------------------------------

def _cube_for(stack: tuple) -> int | None:
    """An animal card whose cube may sit on ``stack`` (its cube's stack matches)."""
    fits = [c for c in animal_ids() if stack_matches(card(c).cube, stack)]
    return fits[0] if fits else None


def _token_position(rng: random.Random, seed: int, level: int) -> tuple:
    side = "A"
    n = 4 if level == 1 else 7
    while True:
        colour = rng.choice(["gray", "red", "brown", "green"])
        spots = _random_cells(rng, side, n)
        stacks = {c: _random_stack(rng) for c in spots}
        fits = [c for c in spots if stacks[c] + (colour,) in legal_stacks()]
        cubes: dict = {}
        cards: tuple = ()
        if level == 2 and len(fits) >= 2:
            for cell in rng.sample(fits, len(fits)):
                owner = _cube_for(stacks[cell])
                if owner is not None:
                    cubes, cards = {cell: owner}, ((owner, 1),)
                    break
        state = _state(side, stacks, hand=(colour,), cubes=cubes, cards=cards, seed=seed)
        legal = {a.cell for a in state.legal_actions()
                 if isinstance(a, PlaceToken) and a.colour == colour}
        answer = {c for c in spots if c in legal}
        if answer and len(answer) < len(spots):
            return side, colour, stacks, cubes, state, answer


@register("harmonies.token_on_stacks", game=GAME.name, notebook=NB01,
          rule="A token goes on an empty space or on top of one or two tokens, only to make a "
               "stack of the stacking chart, and never on a space with a cube.",
          title="Where may this token go?",
          levels=("a few stacks and one token to place",
                  "a fuller board, with an animal cube on one of the stacks"))
def token_on_stacks(seed: int, level: int) -> Exercise:
    rng = _rng("token_on_stacks", seed, level)
    side, colour, stacks, cubes, state, answer = _token_position(rng, seed, level)

    def refuse(cell: Cell) -> tuple[str, str]:
        if cell not in stacks:
            return "empty-space", "that space is empty; the question asks only about spaces " \
                                  "that already hold tokens."
        if cell in cubes:
            return "token-on-cube", "it holds an animal cube, and no token is ever placed " \
                                    "on a cube, whatever is under it."
        return _stack_problem(stacks[cell], colour)

    cube_cell = next(iter(cubes), None)
    notes = [f"You hold one {colour} token."]
    if cube_cell:
        notes.append(f"The white square on {cell_text(cube_cell)} is an animal cube.")
    cube_hint = (f" And look closely at {cell_text(cube_cell)}: what sits on top of its "
                 f"tokens?" if cube_cell else "")
    return Exercise(
        kind="harmonies.token_on_stacks", seed=seed,
        question=f"You hold a {colour} token. Click every space that already holds tokens "
                 f"where you may put it.",
        answer_kind="cells", answer=answer,
        checker=_cells_checker(
            answer, refuse,
            f"Every space you clicked may take the {colour} token, but there are more: go "
            f"over each stack again with the chart's rule for {colour}.",
            f"Right: {colour} may go on {_cells_text(answer)}."),
        draw=lambda marked: _picture(side, stacks, marked, cubes=cubes, notes=notes),
        hints=(f"Look at the top token and the height of each of the "
               f"{_count(len(stacks), 'stack')}, on {_cells_text(stacks)}.",
               _COLOUR_RULE[colour] + cube_hint),
        hint_marks=(tuple(sorted(stacks)), (cube_cell,) if cube_cell else ()),
        explanation=f"{colour.capitalize()} may go on " + "; ".join(
            f"{cell_text(c)} (makes a {landscape_of(stacks[c] + (colour,))})"
            for c in sorted(answer)) + "."
        + (f" {cell_text(cube_cell)} holds a cube, so nothing goes there." if cube_cell
           else ""),
        context={"state": state, "stacks": stacks, "colour": colour, "cubes": cubes})


def _letters(keys: list[str]) -> str:
    """Option letters for a hint: "B", "B, E" (never "A and ...")."""
    return ", ".join(keys)


def _chart_pointer(by_key: dict) -> str:
    """The stacking chart applied to the stacks on show: which ones start with a lone
    colour, which are three tall."""
    lone = [k for k, s in by_key.items() if s[0] in ("blue", "yellow")]
    tall = [k for k, s in by_key.items() if len(s) == 3]
    green = [k for k, s in by_key.items() if "green" in s[:-1]]
    if lone:
        return (f"Blue and yellow always lie alone: look at {_letters(lone)}, which "
                f"{'has' if len(lone) == 1 else 'have'} blue or yellow at the bottom.")
    if green:
        return (f"Nothing ever goes on a green token: look at {_letters(green)}, which "
                f"{'has' if len(green) == 1 else 'have'} green below another token.")
    if tall:
        return (f"Only a tree (green on two brown) or a mountain of three grays is three "
                f"tokens tall: check {_letters(tall)}.")
    first = {k: s[0] for k, s in by_key.items()}
    return "Check the first step of each: " + ", ".join(
        f"{k} starts on {c}" for k, c in first.items()) + "; what may go on each?"


@register("harmonies.legal_stacks", game=GAME.name, notebook=NB01,
          rule="Only the stacks of the stacking chart may stand on a personal board.",
          title="Which stacks are allowed?",
          levels=("four stacks of two tokens", "five stacks of two or three tokens"))
def legal_stack_choices(seed: int, level: int) -> Exercise:
    rng = _rng("legal_stacks", seed, level)
    n, heights = (4, (2,)) if level == 1 else (5, (2, 3))
    tall = sorted(s for s in legal_stacks() if len(s) in heights)
    wrong: set = set()
    while len(wrong) < 12:
        s = tuple(rng.choice(COLOURS) for _ in range(rng.choice(heights)))
        if s not in legal_stacks():
            wrong.add(s)
    n_good = rng.randint(1, n - 1)
    chosen = rng.sample(tall, n_good) + rng.sample(sorted(wrong), n - n_good)
    rng.shuffle(chosen)
    letters = "ABCDE"[:n]
    by_key = dict(zip(letters, chosen))
    options = tuple(Option(k, f"{k}: {_stack_label(s)}") for k, s in by_key.items())
    answer = {k for k, s in by_key.items() if s in legal_stacks()}

    def refuse(key: str) -> tuple[str, str]:
        name, reason = _first_problem(by_key[key])
        return name, f"{key} is not allowed: {reason}"

    def draw(_marked) -> SvgImage:
        return render.stacks_svg(chosen, labels=list(letters),
                                 captions=[_count(len(st), "token") for st in chosen])

    return Exercise(
        kind="harmonies.legal_stacks", seed=seed,
        question="Which of these stacks may stand on a personal board? Pick every one that "
                 "is allowed (colours listed from the bottom token to the top one).",
        answer_kind="choices", answer=answer, options=options, draw=draw,
        checker=_choices_checker(
            answer, refuse, "Every stack you picked is allowed, but so is another one: read "
                            "each remaining stack from its bottom token up.",
            "Right: " + "; ".join(f"{k} is a {landscape_of(by_key[k])}"
                                  for k in sorted(answer)) + "."),
        hints=(f"Read each of the {_count(n, 'stack')} from its bottom token up: is every "
               f"token allowed on the ones below it?", _chart_pointer(by_key)),
        explanation="; ".join(f"{k}: " + (f"a {landscape_of(s)}" if s in legal_stacks()
                                          else _first_problem(s)[1].rstrip("."))
                              for k, s in by_key.items()) + ".",
        context={"stacks": by_key})


def _card_table(rng: random.Random, level: int, seed: int) -> tuple:
    """Cards held by a player (some finished), maybe a kept spirit, and the board that
    holds their cubes: (state, cards, cubes, stacks, took, spirit)."""
    side = "A"
    g0 = new_game(players=2, seed=seed, side=side, spirits=False)
    held = list(g0.deck[:rng.randint(2, 5)])
    spirit = rng.choice(spirit_ids()) if level == 2 and rng.random() < 0.6 else None
    cards, cubes, stacks = [], {}, {}
    free = list(cells(side))
    rng.shuffle(free)
    for cid in held + ([spirit] if spirit else []):
        c = card(cid)
        placed = rng.choice([0, rng.randint(0, c.cubes), c.cubes])
        if len(free) < placed:
            placed = 0
        cards.append((cid, placed))
        for _ in range(placed):
            cell = free.pop()
            stacks[cell] = tuple(stacks_for_code(c.cube))
            cubes[cell] = cid
    took = level == 2 and rng.random() < 0.3
    state = _state(side, stacks, players=2, cubes=cubes, cards=tuple(cards), seed=seed,
                   took_tokens=True, took_card=took)
    return state, cards, cubes, stacks, took, spirit


def _card_status(cid: int, placed: int) -> str:
    c = card(cid)
    name = f"spirit {c.name}" if c.is_spirit else c.name
    if placed == c.cubes:
        return f"{name}: every cube placed"
    return f"{name}: {placed} of {c.cubes} cubes placed"


@register("harmonies.take_a_card", game=GAME.name, notebook=NB01,
          rule="You may take one face-up animal card per turn, and only while fewer than four "
               "of your cards are unfinished (a kept spirit counts until its cube is placed).",
          title="May you take a card?",
          levels=("animal cards only, some of them finished",
                  "a kept spirit, finished cards and a card maybe taken already"))
def take_a_card(seed: int, level: int) -> Exercise:
    rng = _rng("take_a_card", seed, level)
    want = rng.random() < 0.5
    while True:
        state, cards, cubes, stacks, took, spirit = _card_table(rng, level, seed)
        wanted = state.row[0]
        legal = TakeCard(wanted) in state.legal_actions()
        open_cards = sum(1 for c, k in cards if k < card(c).cubes)
        if legal == want and open_cards <= 4:   # nobody ever holds five unfinished cards
            break
    answer = "yes" if legal else "no"
    reason = "" if legal else why_illegal(state, TakeCard(wanted))[0]
    finished = [card(c).name for c, k in cards if k == card(c).cubes]
    open_spirit = [card(c).name for c, k in cards if card(c).is_spirit and k < card(c).cubes]

    def refuse(given: str) -> tuple[str, str]:
        if given == "no":
            if finished and len(cards) >= 4:
                return "counted-finished-cards", (
                    "You counted every card you hold; a card whose cubes have all left it is "
                    "finished and frees its slot.")
            return "slots-miscounted", ("Nothing on this table stops you: count again the "
                                        "cards that still hold cubes, and check whether a "
                                        "card was taken this turn.")
        if took:
            return "two-cards-a-turn", f"You may not: {reason}; one card per turn."
        if open_spirit:
            return "forgot-spirit-slot", (f"You may not: {reason}. The {open_spirit[0]} "
                                          f"spirit still holds its cube, so it fills a slot.")
        return "slots-miscounted", f"You may not: {reason}."

    turn = "You already took a card this turn." if took else \
        "You have not taken a card this turn."
    status = "; ".join(_card_status(c, k) for c, k in cards)
    free_words = (f"{_names(finished)} {'is' if len(finished) == 1 else 'are'} finished and "
                  f"{'frees its slot' if len(finished) == 1 else 'free their slots'}; every "
                  f"other card fills one of your four slots"
                  if finished else "no card of yours is finished yet, so each fills one of "
                                   "your four slots")
    return Exercise(
        kind="harmonies.take_a_card", seed=seed,
        question=f"{turn} Your cards: {status}. May you take the face-up {card(wanted).name} "
                 f"card now?",
        answer_kind="choice", answer=answer,
        checker=partial(choice_verdict, right=answer, why_not=refuse, right_reason="Right: "
                        + ("no unfinished card takes a fourth slot, and no card was taken "
                           "this turn." if legal else f"{reason}.")),
        options=(Option("yes", "Yes, I may take it"), Option("no", "No, not now")),
        draw=lambda marked: _picture(
            "A", stacks, marked, cubes=cubes, clickable=False, size=20,
            notes=[turn, "Small squares on the board are cubes, numbered by their card."]),
        hints=(f"Look at your {_count(len(cards), 'card')}: which of them still hold cubes?",
               f"Here {free_words}" + (", the kept spirit too" if open_spirit else "")
               + (". And you already took a card this turn." if took else ".")),
        hint_marks=((), tuple(sorted(cubes))),
        explanation=("Yes: fewer than four of your cards are unfinished and you took no card "
                     "yet this turn." if legal else f"No: {reason}."),
        context={"state": state, "card": wanted})


def _end_position(rng: random.Random, seed: int, level: int) -> tuple:
    side = "A"
    players = 2 if level == 1 else rng.choice((3, 4))
    empty = rng.choice([1, 2, 3, 4] if level == 1 else [0, 1, 2, 3, 4, 5])
    triggered = empty <= 2
    last = rng.random() < 0.5
    player = players - 1 if last else rng.randrange(players - 1)
    if not triggered:
        player = rng.randrange(players)
    g0 = new_game(players=players, seed=seed, side=side, spirits=False)
    pouch = list(g0.pouch)
    rng.shuffle(pouch)
    filled = _random_cells(rng, side, len(cells(side)) - empty)
    stacks = {cell: (pouch.pop(),) for cell in filled}
    state = _state(side, stacks, players=players, player=player, seed=seed, took_tokens=True)
    return side, players, player, stacks, state, state.apply(EndTurn())


@register("harmonies.end_of_game", game=GAME.name, notebook=NB01,
          rule="The end is triggered when a player ends a turn with two or fewer empty spaces "
               "(or the pouch cannot refill the central board); the round is then finished.",
          title="Does the game end?",
          levels=("two players", "three or four players"))
def end_of_game(seed: int, level: int) -> Exercise:
    rng = _rng("end_of_game", seed, level)
    side, players, player, stacks, state, after = _end_position(rng, seed, level)
    answer = "over" if after.over else "round" if after.end_reason else "on"
    name = state.player_name(player)
    empty = [c for c in cells(side) if c not in stacks]
    texts = {"on": "The game goes on",
             "round": "The end is triggered: the players after this one still play this "
                      "round, then it ends",
             "over": "The game ends now: this turn completes the round"}
    still = players - 1 - player

    def refuse(given: str) -> tuple[str, str]:
        if given == "on":
            return "missed-end-trigger", (f"Count the empty spaces on {name}'s board again: "
                                          f"the end is triggered at two or fewer.")
        if answer == "on":
            return "end-too-early", (f"Nothing triggers the end yet: the end comes when a "
                                     f"board has two or fewer empty spaces; count "
                                     f"{name}'s empty spaces again.")
        if given == "over":
            return "round-not-finished", (f"The game does not stop in the middle of a round: "
                                          f"every player plays as often, and {name} is not "
                                          f"the last of the {_count(players, 'player')}.")
        return "round-already-finished", (f"Who is still to play this round? It started "
                                          f"with Player 1: count the players who come after "
                                          f"{name}.")

    why = {"on": f"{name} has {_count(len(empty), 'empty space')}, more than two, and the "
                 f"pouch can still refill the central board.",
           "round": f"{name} has {_count(len(empty), 'empty space')} (two or fewer): the end "
                    f"is triggered, and {_count(still, 'more player')} still "
                    f"{'plays' if still == 1 else 'play'} so that all have played as often.",
           "over": f"{name} has {_count(len(empty), 'empty space')} (two or fewer), and "
                   f"{name} is the last player of the round, so the game ends now."}
    return Exercise(
        kind="harmonies.end_of_game", seed=seed,
        question=f"{_count(players, 'player').capitalize()}; Player 1 started the round. "
                 f"{name} has placed this turn's tokens and ends the turn with this board. "
                 f"What happens?",
        answer_kind="choice", answer=answer,
        checker=partial(choice_verdict, right=answer, why_not=refuse,
                        right_reason="Right: " + why[answer]),
        options=tuple(Option(k, v) for k, v in texts.items()),
        draw=lambda marked: _picture(side, stacks, marked, clickable=False,
                                     notes=[f"{name}'s board at the end of the turn"]),
        hints=(f"Count the empty spaces on {name}'s board: the spaces with no token.",
               f"The empty spaces are marked: {_cells_text(empty) if empty else 'none'}. The "
               f"end is triggered by two or fewer; then the round is finished. {name} is "
               f"player number {player + 1} of {players}: who still plays after {name} this "
               f"round?"),
        hint_marks=((), tuple(empty)),
        explanation=why[answer],
        context={"state": state, "after": after})


# ----- notebook 02: landscapes -------------------------------------------------------------

def _height_points(kind: str) -> tuple:
    return tuple(rules_data()["landscapes"][f"{kind}_points_by_height"])


def _height_words(kind: str, stack: tuple) -> str:
    """How a tree or mountain is built, in words: "green on two brown tokens"."""
    if kind == "tree":
        under = len(stack) - 1
        return "a lone green token" if not under else \
            f"green on {_count(under, 'brown token')}"
    return _count(len(stack), "gray token")


def _height_mistakes(kind: str, scored: list[tuple[Cell, tuple]], right: int
                     ) -> list[tuple[int, str, str, str]]:
    """Typical wrong scores of trees or mountains: heights added as points, one stack
    scored at another height, one stack left out."""
    pts = _height_points(kind)
    noun = "tree" if kind == "tree" else "mountain"
    out = [(sum(len(s) for _, s in scored), "height-as-points",
            f"You seem to have added the {noun}s' heights; a {noun} of height one, two or "
            f"three scores {pts[0]}, {pts[1]} or {pts[2]} points.",
            f"You seem to have added the {noun}s' heights; a {noun}'s points grow faster "
            f"than its height.")]
    for cell, stack in scored:
        p = pts[len(stack) - 1]
        for q in pts:
            if q != p:
                out.append((right - p + q, "wrong-height",
                            f"You scored the {noun} at {cell_text(cell)}, "
                            f"{_height_words(kind, stack)}, as {q}; a {noun}'s points "
                            f"depend on its height: look at what is under its top token.",
                            f"It looks as if one {noun} was scored at another height; a "
                            f"{noun}'s points depend on its height: look at what is under "
                            f"each top token."))
        out.append((right - p, f"left-out-{noun}",
                    f"It looks as if you left out the {noun} at {cell_text(cell)} "
                    f"({_height_words(kind, stack)}).",
                    f"It looks as if you left out one {noun}: check every stack with "
                    f"{'green' if kind == 'tree' else 'gray'} on top."))
    return out


def _tree_board(rng: random.Random, level: int) -> dict:
    side = "A"
    n_trees = rng.randint(2, 3) if level == 1 else rng.randint(3, 5)
    extra = 1 if level == 1 else 3
    spots = _random_cells(rng, side, n_trees + extra)
    stacks = {c: ("brown",) * (rng.randint(1, 3) - 1) + ("green",) for c in spots[:n_trees]}
    decoys = [("brown",), ("brown", "brown")]
    if level == 2:
        decoys += [("gray",), ("gray", "gray"), ("yellow",), ("brown", "red"), ("blue",)]
    for cell in spots[n_trees:]:
        stacks[cell] = rng.choice(decoys if cell != spots[n_trees] else decoys[:2])
    return stacks


@register("harmonies.tree_points", game=GAME.name, notebook=NB02,
          rule="A tree is green on zero, one or two brown tokens: 1, 3 or 7 points by height; "
               "brown without green scores nothing.",
          title="Points for trees",
          levels=("a few trees and a bare trunk",
                  "more trees among trunks, mountains and buildings"))
def tree_points_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("tree_points", seed, level)
    side = "A"
    stacks = _tree_board(rng, level)
    right = tree_points(stacks_tuple(side, stacks))
    pts = _height_points("tree")
    trees = sorted((c, s) for c, s in stacks.items() if is_tree(s))
    trunks = sorted(c for c, s in stacks.items() if s[-1] == "brown")
    trunk_pts = sum(pts[len(stacks[c]) - 1] for c in trunks)
    question = (f"How many points do the trees on this board score? (A tree of height 1, 2 "
                f"or 3 scores {pts[0]}, {pts[1]} or {pts[2]}.)")
    mistakes = [(right + trunk_pts, "counted-trunks",
                 "You counted the bare brown trunks as trees; a stack scores as a tree only "
                 "with a green token on top."),
                (len(trees), "one-per-tree",
                 "You gave each tree the same points; a tree's points depend on its height.")]
    mistakes += _height_mistakes("tree", trees, right)
    detail = " + ".join(f"{pts[len(s) - 1]} ({_height_words('tree', s)} at {cell_text(c)})"
                        for c, s in trees) + f" = {right}"
    detail += "; bare trunks score nothing."
    return _number_exercise(
        "harmonies.tree_points", seed, level, question, right,
        what="the trees' score", rule="Only stacks with green on top are trees; score each "
                                      "by its height.",
        mistakes=mistakes,
        hints=((f"Find the stacks with a green token on top: there are "
                f"{_count(len(trees), 'of them', 'of them')}.",
                "Find the stacks with a green token on top; the number in a stack is its "
                "height."),
               (f"The marked stacks are the trees; the tallest one is "
                f"{_height_words('tree', max((s for _, s in trees), key=len))}. Score "
                f"each by its height, and leave out "
                f"{_count(len(trunks), 'bare trunk')}.",
                "The marked stacks are the trees: score each by its height, and leave out "
                "the bare brown trunks.")),
        hint_marks=((), tuple(c for c, _ in trees)),
        explanation=f"Trees: {detail}",
        draw=_board_drawer(side, stacks), context={"stacks": stacks})


def _mountain_board(rng: random.Random, level: int) -> dict:
    side = "A"
    while True:
        group = [rng.choice(cells(side))]
        for _ in range(rng.randint(1, 2 if level == 1 else 3)):
            group.append(rng.choice(sorted({n for c in group for n in neighbours(side, c)
                                            if n not in group})))
        lone = _random_cells(rng, side, 1 if level == 1 else 2, avoid=group)
        stacks = {c: ("gray",) * rng.randint(1, 3) for c in group + lone}
        gs = groups(side, stacks_tuple(side, stacks), is_mountain)
        if any(len(g) == 1 for g in gs) and any(len(g) > 1 for g in gs):
            break
    if level == 2:
        for cell in _random_cells(rng, side, 3, avoid=list(stacks)):
            stacks[cell] = rng.choice([("brown", "green"), ("yellow",), ("gray", "red"),
                                       ("green",)])
    return stacks


@register("harmonies.mountain_points", game=GAME.name, notebook=NB02,
          rule="A mountain (1 to 3 gray tokens) scores 1, 3 or 7 by height, but only when at "
               "least one neighbouring space is also a mountain.",
          title="Points for mountains",
          levels=("a group of mountains and a lone one",
                  "larger groups, lone mountains and other landscapes"))
def mountain_points_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("mountain_points", seed, level)
    side = "A"
    stacks = _mountain_board(rng, level)
    board = stacks_tuple(side, stacks)
    right = mountain_points(side, board)
    every = cells(side)
    pts = _height_points("mountain")
    gs = groups(side, board, is_mountain)
    scoring = sorted((every[i], stacks[every[i]]) for g in gs if len(g) > 1 for i in g)
    alone = sorted(every[g[0]] for g in gs if len(g) == 1)
    alone_pts = sum(pts[len(stacks[c]) - 1] for c in alone)
    question = (f"How many points do the mountains on this board score? (A mountain of "
                f"height 1, 2 or 3 scores {pts[0]}, {pts[1]} or {pts[2]}.)")
    mistakes = [(right + alone_pts, "counted-lone-mountain",
                 "You scored a mountain that has no mountain next to it; a mountain scores "
                 "only when a neighbouring space is a mountain too.")]
    mistakes += _height_mistakes("mountain", scoring, right)
    detail = " + ".join(f"{pts[len(s) - 1]} (height {len(s)} at {cell_text(c)})"
                        for c, s in scoring) + f" = {right}; " + _names(
        [cell_text(c) for c in alone]) + (" has no mountain next to it: 0." if len(alone) == 1
                                           else " have no mountain next to them: 0 each.")
    return _number_exercise(
        "harmonies.mountain_points", seed, level, question, right,
        what="the mountains' score",
        rule="Score each mountain by its height, but only those next to another mountain.",
        mistakes=mistakes,
        hints=((f"There are {_count(len(scoring) + len(alone), 'gray stack')} here: which of "
                f"them touch another gray stack?",
                "Look at every gray stack: which of them touch another gray stack?"),
               (f"The marked {'mountain' if len(alone) == 1 else 'mountains'} on "
                f"{_cells_text(alone)} {'stands' if len(alone) == 1 else 'stand'} alone and "
                f"score nothing; score every other mountain by its height.",
                "The marked mountains stand alone and score nothing; score every other "
                "mountain by its height.")),
        hint_marks=((), tuple(alone)),
        explanation=f"Mountains: {detail}",
        draw=_board_drawer(side, stacks), context={"stacks": stacks})


def _field_board(rng: random.Random, level: int) -> dict:
    side = "A"
    while True:
        used: set = set()
        sizes = [rng.randint(2, 3 if level == 1 else 5) for _ in range(rng.randint(1, 3))]
        for size in sizes + [1] * rng.randint(1, 2):
            used |= set(_grow(rng, side, size, used))
        stacks = {c: ("yellow",) for c in used}
        gs = groups(side, stacks_tuple(side, stacks), lambda s: s == ("yellow",))
        if any(len(g) == 1 for g in gs) and any(len(g) > 1 for g in gs):
            break
    for cell in _random_cells(rng, side, 1 if level == 1 else 3, avoid=list(stacks)):
        stacks[cell] = rng.choice([("blue",), ("brown", "green"), ("gray",)])
    return stacks


@register("harmonies.field_points", game=GAME.name, notebook=NB02,
          rule="Every group of two or more connected yellow tokens scores 5, however large.",
          title="Points for fields",
          levels=("one field group and a lone yellow token",
                  "several field groups of different sizes, lone yellow tokens"))
def field_points_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("field_points", seed, level)
    side = "A"
    stacks = _field_board(rng, level)
    board = stacks_tuple(side, stacks)
    right = field_points(side, board)
    every = cells(side)
    each = rules_data()["landscapes"]["field_group_points"]
    gs = groups(side, board, lambda s: s == ("yellow",))
    big = [sorted(every[i] for i in g) for g in gs if len(g) > 1]
    alone = [every[g[0]] for g in gs if len(g) == 1]
    in_groups = sum(len(g) for g in big)
    question = (f"How many points do the fields (yellow) on this board score? (A group of "
                f"fields scores {each}.)")
    mistakes = [(right + each * len(alone), "counted-lone-field",
                 "You scored a lone yellow token; a field scores only in a group of two or "
                 "more touching yellow tokens."),
                (each * in_groups, "points-per-token",
                 "You scored every yellow token; a group scores once, however many tokens "
                 "it has."),
                (in_groups, "counted-tokens",
                 "You counted yellow tokens; count groups of touching yellow tokens, each "
                 "worth the same."),
                (right - each, "missed-field-group",
                 "It looks as if one group of fields was left out: two yellow tokens that "
                 "touch already make a group.")]
    detail = (f"{_count(len(big), 'group')} of two or more "
              f"({'; '.join(_cells_text(g) for g in big)}) × {each} = {right}; the lone "
              f"yellow at {_cells_text(alone)} scores nothing.")
    return _number_exercise(
        "harmonies.field_points", seed, level, question, right,
        what="the fields' score", rule="Count the groups of two or more touching yellow "
                                       "tokens; each scores the same.",
        mistakes=mistakes,
        hints=((f"Count groups, not tokens: look for yellow tokens that touch each other "
                f"among the {_count(in_groups + len(alone), 'yellow token')}.",
                "Count groups, not tokens: look for yellow tokens that touch each other."),
               (f"The marked yellow {'token' if len(alone) == 1 else 'tokens'} on "
                f"{_cells_text(alone)} {'touches' if len(alone) == 1 else 'touch'} no other "
                f"yellow token; every other yellow token is in a group.",
                "The marked yellow tokens touch no other yellow token; every other yellow "
                "token is in a group.")),
        hint_marks=((), tuple(alone)),
        explanation=f"Fields: {detail}",
        draw=_board_drawer(side, stacks), context={"stacks": stacks})


_AROUND = [("blue",), ("yellow",), ("green",), ("gray",), ("brown", "green"), ("red",),
           ("brown",), ("gray", "gray")]


def _building_board(rng: random.Random, level: int) -> tuple[dict, dict]:
    side = "A"
    need = rules_data()["landscapes"]["building_colours_needed"]
    while True:
        spots = _random_cells(rng, side, 2 if level == 1 else rng.randint(3, 4))
        stacks = {c: rng.choice([("red", "red"), ("brown", "red"), ("gray", "red")])
                  for c in spots}
        if level == 2:
            for cell in _random_cells(rng, side, 2, avoid=spots):
                stacks[cell] = rng.choice([("red",), ("brown", "green"), ("gray", "gray")])
        for cell in spots:
            for n in neighbours(side, cell):
                if n not in stacks and rng.random() < 0.6:
                    stacks[n] = rng.choice(_AROUND)
        colours = {c: sorted({stacks[n][-1] for n in neighbours(side, c) if n in stacks})
                   for c, s in stacks.items() if is_building(s)}
        answer = {c for c, cs in colours.items() if len(cs) >= need}
        if answer and len(answer) < len(colours):
            return stacks, colours


@register("harmonies.scoring_buildings", game=GAME.name, notebook=NB02,
          rule="A building (red on red, brown or gray) scores 5 when the top tokens of its "
               "neighbours show at least three different colours.",
          title="Which buildings score?",
          levels=("two buildings", "three or four buildings among lone red tokens and other "
                                   "stacks"))
def scoring_buildings(seed: int, level: int) -> Exercise:
    rng = _rng("scoring_buildings", seed, level)
    side = "A"
    need = rules_data()["landscapes"]["building_colours_needed"]
    stacks, colours = _building_board(rng, level)
    answer = {c for c, cs in colours.items() if len(cs) >= need}
    board = stacks_tuple(side, stacks)
    each = rules_data()["landscapes"]["building_points"]
    if building_points(side, board) != each * len(answer):  # the engine's total agrees
        raise RuntimeError("building check disagrees with the engine")

    def refuse(cell: Cell) -> tuple[str, str]:
        if cell not in colours:
            return "not-a-building", (f"{_where(stacks, cell)} is not a building; a building "
                                      f"is red on one red, brown or gray token.")
        near = [n for n in neighbours(side, cell) if n in stacks]
        seen = colours[cell]
        if len(near) >= need:
            return "counted-colour-twice", (
                f"the building has {_count(len(near), 'neighbour')} with tokens, but their "
                f"top colours are only {_names(seen)}: a colour seen twice counts once.")
        return "too-few-colours", (f"its neighbours show only {_names(seen) or 'no colour'}; "
                                   f"empty spaces add no colour.")

    return Exercise(
        kind="harmonies.scoring_buildings", seed=seed,
        question=f"Click every building (red on top of one token) that scores {each} points.",
        answer_kind="cells", answer=answer,
        checker=_cells_checker(answer, refuse, "Every building you clicked scores, but not "
                                               "all that score are clicked: look at each "
                                               "building's six neighbours again.",
                               "Right: " + "; ".join(f"{cell_text(c)} sees "
                                                     f"{_names(colours[c])}"
                                                     for c in sorted(answer)) + "."),
        draw=lambda marked: _picture(side, stacks, marked),
        hints=(f"There are {_count(len(colours), 'building')} here: for each, look at the top "
               f"tokens of the spaces around it.",
               f"The buildings stand on {_cells_text(colours)}. A building needs "
               f"{_count(need, 'different colour')} "
               f"on top of its neighbours; empty spaces add nothing and a colour seen twice "
               f"counts once."),
        hint_marks=((), tuple(sorted(colours))),
        explanation="; ".join(f"{cell_text(c)} sees {_names(colours[c]) or 'no colour'}"
                              + (" — scores" if c in answer else " — too few colours")
                              for c in sorted(colours)) + ".",
        context={"stacks": stacks})


def _water_groups(side: str, stacks: Mapping[Cell, tuple]) -> list[list[Cell]]:
    every = cells(side)
    board = stacks_tuple(side, stacks)
    return [sorted(every[i] for i in g) for g in groups(side, board, lambda s: s == ("blue",))]


def _river_facts(side: str, stacks: Mapping[Cell, tuple]) -> dict:
    """The river by the engine, and why, for each water group: its two ends (farthest
    apart along the water), the tokens on the shortest way between them and its longest
    loop without shortcuts; the best group first."""
    right = river_length(side, stacks_tuple(side, stacks), DEFAULT_RIVER_RULE)
    index = cell_index(side)
    facts = []
    for comp in _water_groups(side, stacks):
        sub = board_graph(side).subgraph(comp)
        lengths = dict(nx.all_pairs_shortest_path_length(sub))
        a, b = max(((u, v) for u in comp for v in comp),
                   key=lambda uv: (lengths[uv[0]][uv[1]], uv))
        path = lengths[a][b] + 1
        ring = longest_ring([index[c] for c in comp], _neighbour_table(side)) \
            if len(comp) >= 3 else 0
        facts.append({"cells": comp, "ends": (a, b), "path": path, "ring": ring,
                      "size": max(path, ring)})
    facts.sort(key=lambda f: -f["size"])
    if not facts or facts[0]["size"] != right:
        raise RuntimeError("river explanation disagrees with the engine")
    return {"right": right, "groups": facts}


def _river_water(rng: random.Random, side: str, level: int) -> set:
    shape = rng.choice(["path", "ring"] if level == 1 else ["path", "ring", "blob", "branch"])
    if shape == "ring":
        centre = rng.choice([c for c in cells(side) if len(neighbours(side, c)) == 6])
        water = set(neighbours(side, centre))
        if level == 2:
            tail = rng.choice(sorted(water))
            for _ in range(rng.randint(1, 2)):
                options = [n for n in neighbours(side, tail) if n not in water and n != centre]
                if not options:
                    break
                tail = rng.choice(sorted(options))
                water.add(tail)
        return water
    if shape == "branch":
        water = set(_grow(rng, side, rng.randint(4, 6), set()))
        stem = rng.choice(sorted(water))
        for n in sorted(neighbours(side, stem)):
            if n not in water and sum(m in water for m in neighbours(side, n)) == 1:
                water.add(n)
                break
        return water
    return set(_grow(rng, side, rng.randint(3, 7) if shape == "path" else 5, set()))


@register("harmonies.river_length", game=GAME.name, notebook=NB02,
          rule="Side A: a river is as long as the shortest way between its two farthest "
               "tokens, or its longest loop without shortcuts if that is longer; only the "
               "best river scores.",
          title="How long is the river?",
          levels=("one river: a line or a ring", "a river with branches or loops, and a "
                                                 "second, smaller river"))
def river_length_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("river_length", seed, level)
    side = "A"
    water = _river_water(rng, side, level)
    other = _grow(rng, side, rng.randint(1, 3), water) if level == 2 else []
    stacks = {c: ("blue",) for c in water | set(other)}
    for cell in _random_cells(rng, side, 2 if level == 1 else 4, avoid=list(stacks)):
        stacks[cell] = rng.choice([("brown", "green"), ("yellow",), ("gray",)])
    facts = _river_facts(side, stacks)
    right, best = facts["right"], facts["groups"][0]
    a, b = best["ends"]
    question = ("How many tokens long is the river that scores on this board (side A)? Our "
                "reading of the rules: a loop of water counts, with all its tokens, when it "
                "has no shortcut across it.")
    mistakes = [(len(best["cells"]), "counted-every-token",
                 "You counted every water token of the river; a river is measured along the "
                 "shortest way between its two ends, so a side branch off that way adds "
                 "nothing.")]
    if best["ring"] > best["path"]:
        mistakes.append((best["path"], "ignored-loop",
                         "You measured the shortest way between the two ends, but this river "
                         "also holds a loop without shortcuts that is longer, and such a loop "
                         "counts with all its tokens."))
    mistakes += [(right - 1, "counted-steps",
                  "You seem to have counted the steps between the two ends; count the "
                  "tokens, both ends included."),
                 (river_points(right), "gave-points",
                  "That is what the river scores in points; the question asks how many "
                  "tokens long it is."),
                 (sum(len(g["cells"]) for g in facts["groups"]), "added-rivers",
                  "You added up the water of separate rivers; only your best river scores.")]
    for g in facts["groups"][1:]:
        mistakes.append((g["size"], "measured-other-river",
                         "You measured the smaller river; only your best river scores."))
    loop = (f" It also holds a loop without shortcuts of {best['ring']} tokens, which is "
            f"longer." if best["ring"] > best["path"] else "")
    detail = (f"The river's two ends are {cell_text(a)} and {cell_text(b)}; the shortest "
              f"way between them passes {best['path']} tokens.{loop} So the river is "
              f"{right} tokens long (worth {river_points(right)} points).")
    return _number_exercise(
        "harmonies.river_length", seed, level, question, right,
        what="the river's length", rule="Find the two ends of the best river and count the "
                                        "tokens on the shortest way between them.",
        mistakes=mistakes,
        hints=((f"There {'is' if len(facts['groups']) == 1 else 'are'} "
                f"{_count(len(facts['groups']), 'group')} of water here. Find the two water "
                f"tokens farthest apart along the water.",
                "Find the two water tokens farthest apart along the water."),
               (f"The marked tokens at {cell_text(a)} and {cell_text(b)} are the river's "
                f"two ends: count the tokens on the shortest way between them, both ends "
                f"included; then look for a loop whose tokens touch only their two "
                f"neighbours along it.",
                "The marked tokens are the river's two ends: count the tokens on the "
                "shortest way between them, both ends included; then look for a loop whose "
                "tokens touch only their two neighbours along it.")),
        hint_marks=(tuple(sorted(best["cells"])), (a, b)),
        explanation=detail, draw=_board_drawer(side, stacks), context={"stacks": stacks})


def _island_water(rng: random.Random, side: str, level: int) -> set:
    water: set = set()
    for _ in range(rng.randint(0 if level == 1 else 1, 2)):
        col = rng.randrange(1, 6)
        water |= {c for c in cells(side) if c[0] == col}
        if rng.random() < 0.3:
            water.discard(rng.choice(sorted(water)))
    if level == 2 and rng.random() < 0.5:
        centre = rng.choice(cells(side))
        water |= set(neighbours(side, centre)) - {centre}
    water |= set(_random_cells(rng, side, rng.randint(0, 3 if level == 2 else 1),
                               avoid=water))
    return water


@register("harmonies.islands", game=GAME.name, notebook=NB02,
          rule="Side B: every group of spaces not covered by water, empty spaces included, "
               "is an island worth 5 points.",
          title="Count the islands",
          levels=("straight walls of water", "walls, rings and scattered water"))
def islands_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("islands", seed, level)
    side = "B"
    target = rng.choice((1, 2, 3) if level == 1 else (2, 3, 4, 5))
    while True:
        water = _island_water(rng, side, level)
        stacks = {c: ("blue",) for c in water}
        for cell in _random_cells(rng, side, 3 if level == 1 else 6, avoid=list(stacks)):
            stacks[cell] = rng.choice([("brown", "green"), ("yellow",), ("gray",),
                                       ("gray", "red")])
        board = stacks_tuple(side, stacks)
        if island_count(side, board) == target:
            break
    right = target
    every = cells(side)
    isl = sorted((sorted(every[i] for i in g) for g in groups(side, board,
                                                               lambda s: s != ("blue",))),
                 key=lambda g: (-len(g), g))
    each = rules_data()["landscapes"]["island_points"]
    built = len(groups(side, board, lambda s: bool(s) and s != ("blue",)))
    singles = [g for g in isl if len(g) == 1]
    question = "This is a side B board. How many islands does it have?"
    mistakes = [(len(_water_groups(side, stacks)), "counted-water-groups",
                 "You counted the groups of water; the islands are the land between them: "
                 "every space not covered by water, empty ones too."),
                (built, "skipped-empty-spaces",
                 "You left out the empty spaces; an empty space is land too, and it can join "
                 "two parts into one island."),
                (right * each, "gave-points", "That is what the islands score in points; the "
                                              "question asks how many islands there are."),
                (right + 1, "counted-island-twice",
                 "You have counted one island too many: look for two parts you counted apart "
                 "that still touch along a side, perhaps through an empty space."),
                (right - 1, "missed-island",
                 "You missed an island: " + ("a single space cut off by water, even an empty "
                                             "one, is an island of its own." if singles else
                                             "follow each wall of water to the board's edge; "
                                             "each part it cuts off is an island."))]
    detail = (f"{_count(right, 'island')}: " + "; ".join(
        f"one with {cell_text(g[0])}" + (f" and {_count(len(g) - 1, 'more space')}"
                                           if len(g) > 1 else " alone") for g in isl)
              + f", worth {right * each} points.")
    return _number_exercise(
        "harmonies.islands", seed, level, question, right,
        what="the number of islands",
        rule="Start at a space not covered by water, take in every space you can reach "
             "without crossing water, and repeat.",
        mistakes=mistakes,
        hints=((f"Follow each line of water among the {_count(len(water), 'water token')}: "
                f"does it cut the board from edge to edge?",
                "Follow each line of water: does it cut the board from edge to edge?"),
               (f"The marked spaces, from {cell_text(isl[0][0])} on, form one island "
                f"(empty spaces count as land). Which spaces are left, and are they joined "
                f"without crossing water?",
                "The marked spaces form one island (empty spaces count as land). Which "
                "spaces are left, and are they joined without crossing water?")),
        hint_marks=(tuple(sorted(water)), tuple(isl[0])),
        explanation=detail[0].upper() + detail[1:],
        draw=_board_drawer(side, stacks), context={"stacks": stacks})


def _landscape_census(board: tuple) -> str:
    """What a board holds, in words: "two trees, one gray stack, ..."."""
    parts = [_count(sum(1 for s in board if is_tree(s)), "tree"),
             _count(sum(1 for s in board if is_mountain(s)), "gray stack"),
             _count(sum(1 for s in board if s == ("yellow",)), "yellow token"),
             _count(sum(1 for s in board if is_building(s)), "building"),
             _count(sum(1 for s in board if s == ("blue",)), "water token")]
    return _names(parts)


def _total_board(rng: random.Random, level: int) -> dict:
    side = "A"
    while True:
        stacks = {c: ("blue",) for c in _grow(rng, side, rng.randint(2, 4), set())}
        n = 6 if level == 1 else 11
        stacks.update({c: _random_stack(rng)
                       for c in _random_cells(rng, side, n, avoid=list(stacks))})
        scored = sum(1 for _, p in score_board(side, stacks).rows() if p)
        if scored >= (3 if level == 1 else 4):
            return stacks


@register("harmonies.landscape_total", game=GAME.name, notebook=NB02,
          rule="The landscape total adds trees, mountains, fields, buildings and water.",
          title="Score a whole board",
          levels=("a small board with a few landscapes", "a crowded board"))
def landscape_total(seed: int, level: int) -> Exercise:
    rng = _rng("landscape_total", seed, level)
    side = "A"
    stacks = _total_board(rng, level)
    s = score_board(side, stacks)
    right = s.total
    board = stacks_tuple(side, stacks)
    pts = _height_points("mountain")
    lone_m = sum(pts[len(board[g[0]]) - 1] for g in groups(side, board, is_mountain)
                 if len(g) == 1)
    lone_f = sum(1 for g in groups(side, board, lambda x: x == ("yellow",)) if len(g) == 1)
    question = ("What is the landscape total of this side A board (trees, mountains, fields, "
                "buildings and the river)?")
    mistakes = [(right - p, "left-out-row",
                 f"Your total is what the board scores without its {name.lower()} row: "
                 f"check that row again.") for name, p in s.rows() if p]
    mistakes += [(right + lone_m, "counted-lone-mountain",
                  "You seem to have scored a mountain with no mountain next to it; such a "
                  "mountain scores nothing."),
                 (right + 5 * lone_f, "counted-lone-field",
                  "You seem to have scored a lone yellow token; a field scores only in a "
                  "group of two or more."),
                 (right - s.water + s.water_size, "river-length-as-points",
                  "You added the river's length in tokens; the river scores points by its "
                  "length, on a table of its own.")]
    detail = ", ".join(f"{name} {p}" for name, p in s.rows()) + f": total {right}."
    scoring_rows = [name.lower() for name, p in s.rows() if p]
    return _number_exercise(
        "harmonies.landscape_total", seed, level, question, right,
        what="the landscape total",
        rule="Go through the score pad row by row and add the rows up.",
        mistakes=mistakes,
        hints=((f"Go through the score pad row by row. This board has {_landscape_census(board)}.",
                "Go through the score pad row by row: trees, mountains, fields, buildings, "
                "water."),
               (f"Rows that score here: {_names(scoring_rows)}. Remember: a lone mountain and "
                f"a lone yellow token score nothing, and the river scores by its length.",
                "Remember: a lone mountain and a lone yellow token score nothing, and the "
                "river scores by its length.")),
        explanation=detail, draw=_board_drawer(side, stacks), context={"stacks": stacks})


# ----- notebook 03: habitats -------------------------------------------------------------------

_CODE_WORDS = {"W": "water", "Y": "a field", "M1": "a mountain of height 1",
               "M2": "a mountain of height 2", "M3": "a mountain of height 3",
               "T1": "a tree of height 1", "T2": "a tree of height 2",
               "T3": "a tree of height 3", "BLD": "a building"}


def _code_words(code: str) -> str:
    """A habitat stack in words: "a tree of height 2"."""
    return _CODE_WORDS.get(code, "the stack drawn on the card")


def _placements(side: str, card_id: int) -> list[dict]:
    """Every way the card's habitat lies on the board (each space, each of six turns), as the
    stacks it needs there: a new dict for each, free to change."""
    graph = board_graph(side)
    out = []
    for cell in cells(side):
        for turn in range(6):
            pattern = pattern_cells(card_id, cell, turn)
            if all(c in graph for c in pattern):
                out.append({c: tuple(stacks_for_code(code)) for c, code in pattern.items()})
    return out


def _place_pattern(rng: random.Random, side: str, card_id: int, avoid: set) -> dict | None:
    """The card's habitat built somewhere on the board (random cell and turn), or None."""
    options = [want for want in _placements(side, card_id) if not avoid.intersection(want)]
    return rng.choice(options) if options else None


def _near_miss(rng: random.Random, stacks: dict, cells_: Iterable[Cell]) -> None:
    """Spoil one stack of a built habitat a little (a tree or mountain one level off)."""
    cells_ = sorted(cells_)
    for cell in rng.sample(cells_, len(cells_)):
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
    cell = rng.choice(cells_)
    stacks[cell] = ("yellow",) if stacks[cell] != ("yellow",) else ("blue",)


def _apart(side: str, stacks: Mapping) -> set:
    """The spaces a new habitat must keep clear of: the used ones and their neighbours."""
    return set(stacks) | {n for c in stacks for n in neighbours(side, c)}


def _habitat_board(rng: random.Random, side: str, card_id: int, copies: int,
                   spoiled: int) -> dict:
    stacks: dict = {}
    for k in range(copies + spoiled):
        built = _place_pattern(rng, side, card_id, _apart(side, stacks))
        if built:
            if k >= copies:
                _near_miss(rng, built, list(built))
            stacks.update(built)
    return stacks


def _why_no_cube(card_id: int, side: str, stacks: Mapping, cubes: Iterable[Cell],
                 cell: Cell) -> tuple[str, str]:
    c = card(card_id)
    if cell in set(cubes):
        return "cube-already-there", "a cube already sits there, and a space holds one cube."
    stack = tuple(stacks.get(cell, ()))
    if not stack_matches(c.cube, stack):
        return "wrong-cube-stack", (f"the {c.name} cube goes on {_code_words(c.cube)}, and "
                                    f"{_where(stacks, cell)} is not that.")
    return "habitat-not-built", (f"around {cell_text(cell)} the rest of the {c.name} habitat "
                                 f"is not built, whichever way the card is turned: a stack "
                                 f"is missing or has another height.")


def _habitat_hints(cid: int, stacks: Mapping, answer: set, cubes: Iterable = ()
                   ) -> tuple[tuple[str, str], tuple]:
    c = card(cid)
    spots = sorted(cell for cell, s in stacks.items() if stack_matches(c.cube, s)
                   and cell not in set(cubes))
    nudge = (f"The {c.name} cube goes on {_code_words(c.cube)}: find every such stack on the "
             f"board first.")
    pointer = (f"There {'is' if len(spots) == 1 else 'are'} {_count(len(spots), 'such stack')}"
               f"; around {'it' if len(spots) == 1 else 'each'}, turn the card's pattern all "
               f"six ways: every stack must match, heights included.")
    marks = ((), tuple(spots)) if set(spots) != set(answer) else ((), ())
    return (nudge, pointer), marks


@register("harmonies.habitat_cells", game=GAME.name, notebook=NB03,
          rule="A card's cube may go on a space when the card's habitat is built around it, "
               "turned any way, with exactly the same stacks, and no cube is there yet.",
          title="Where can the cube go?",
          levels=("one habitat built, a few other stacks",
                  "habitats built and nearly built, a cube already placed"))
def habitat_cells_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("habitat_cells", seed, level)
    side = "A"
    while True:
        cid = rng.choice(animal_ids())
        if level == 1:
            stacks = _habitat_board(rng, side, cid, 1, 0)
            for cell in _random_cells(rng, side, 3, avoid=_apart(side, stacks)):
                stacks[cell] = _random_stack(rng)
        else:
            stacks = _habitat_board(rng, side, cid, rng.randint(1, 2), 1)
        cubes: dict = {}
        found = habitat_cells(cid, side, stacks)
        if level == 2 and len(found) >= 2 and rng.random() < 0.6:
            cubes = {found[0]: cid}
        answer = set(habitat_cells(cid, side, stacks, cubes=list(cubes)))
        if answer:
            break
    name = card(cid).name
    hints, marks = _habitat_hints(cid, stacks, answer, cubes)
    notes = ["White squares on the board are cubes already placed."] if cubes else []
    return Exercise(
        kind="harmonies.habitat_cells", seed=seed,
        question=f"Click every space where the {name} cube may go now (its habitat is drawn "
                 f"on the card; the little square marks the cube's space).",
        answer_kind="cells", answer=answer,
        checker=_cells_checker(
            answer, lambda cell: _why_no_cube(cid, side, stacks, cubes, cell),
            f"Every space you clicked fits, but the {name} habitat is complete around "
            f"another space too: check each stack where the cube could sit.",
            f"Right: the {name} cube fits on {_cells_text(answer)}."),
        draw=lambda marked: _picture(side, stacks, marked, cubes=cubes, cards=[cid],
                                     notes=notes),
        hints=hints, hint_marks=marks,
        explanation=f"The {name} habitat is complete around {_cells_text(answer)}."
        + (f" {_cells_text(cubes)} already holds a cube." if cubes else ""),
        context={"stacks": stacks, "card": cid, "cubes": cubes})


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _uncovered(k: int) -> str:
    return {0: "no value is uncovered", 1: "one value is uncovered"}.get(
        k, f"{_count(k, 'value')} are uncovered")


def _card_value_mistakes(cid: int, placed: int, right: int) -> list:
    c = card(cid)
    out = []
    if placed < c.cubes:
        out.append((c.points[placed], "read-covered-value",
                    f"You read a value that a cube still covers on the {c.name}; the card "
                    f"scores the highest value you can see."))
    if placed:
        out.append((sum(c.points[:placed]), "added-uncovered-values",
                    f"You added up the uncovered values of the {c.name}; a card scores only "
                    f"its highest uncovered value."))
        out.append((c.points[c.cubes - placed], "cubes-from-top",
                    f"You took the {c.name}'s cubes from the top; cubes leave a card from the "
                    f"bottom, uncovering its lowest values first."))
        out.append((placed, "counted-cubes", f"You counted the cubes moved to the board; the "
                                             f"card scores a value printed on it."))
    else:
        out.append((c.points[0], "scored-untouched-card",
                    f"No cube has left the {c.name} yet: every value is still covered."))
    return out


@register("harmonies.card_points", game=GAME.name, notebook=NB03,
          rule="An animal card scores the highest value no longer covered by a cube; a card "
               "with all its cubes still on it scores nothing.",
          title="Points of an animal card",
          levels=("one card", "two cards: their points together"))
def card_points_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("card_points", seed, level)
    ids = rng.sample(animal_ids(), level)
    placed = [rng.choice([0] + list(range(1, card(i).cubes + 1)) * 2) for i in ids]
    parts = [card_points(i, k) for i, k in zip(ids, placed)]
    right = sum(parts)
    mistakes = []
    for k, (i, p) in enumerate(zip(ids, placed)):
        rest = right - parts[k]
        mistakes += [(rest + v, n, r) for v, n, r in _card_value_mistakes(i, p, parts[k])]
    said = [f"the {card(i).name}: values {', '.join(map(str, card(i).points))} from the "
            f"bottom up, {p} of its {card(i).cubes} cubes moved to your board"
            for i, p in zip(ids, placed)]
    question = ("How many points " + ("does this card" if level == 1 else
                                      "do these two cards together") + " score? "
                + "; ".join(s[0].upper() + s[1:] for s in said) + ".")
    detail = "; ".join(
        f"the {card(i).name} scores {p}" + (" (no cube has left it)" if not k else
                                            " (its lowest value is uncovered)" if k == 1 else
                                            f" (the highest of its {_count(k, 'lowest value')}"
                                            f", uncovered)")
        for i, k, p in zip(ids, placed, parts)) + (f": {right} in all." if level == 2 else ".")
    return _number_exercise(
        "harmonies.card_points", seed, level, question, right,
        what="the cards' points" if level == 2 else "the card's points",
        rule="Cubes leave a card from the bottom; a card scores the highest value no longer "
             "covered.",
        mistakes=mistakes,
        hints=(("Cubes leave a card from the bottom: which values can you see on "
                + _names([f"the {card(i).name}" for i in ids]) + "?",
                "Cubes leave a card from the bottom: which values can you see?"),
               (_upper("; ".join(f"on the {card(i).name}, {_uncovered(k)}"
                                 for i, k in zip(ids, placed)))
                + ": a card scores the highest value you can see, and nothing if you see "
                  "none.",
                "A card scores the highest value you can see, and nothing if you see none.")),
        explanation=detail[0].upper() + detail[1:],
        draw=lambda marked: _cards_track(ids, placed),
        context={"card": ids[0], "cards": ids, "placed": placed[0], "placed_all": placed})


def _cards_track(ids: list[int], placed: list[int]) -> SvgImage:
    """Each card with its points track: the values still covered by a cube marked."""
    box = 26
    sizes = [render.card_extent(i, 14) for i in ids]
    width = sum(w + 20 + box + 80 for w, _ in sizes)
    height = max(max(h, box * card(i).cubes + 30) for i, (_, h) in zip(ids, sizes)) + 12
    pic = Svg(width, height, background="white")
    x0 = 6.0
    for cid, k, (w, _) in zip(ids, placed, sizes):
        c = card(cid)
        render.draw_card_into(pic, cid, (x0, 6), 14)
        x = x0 + w + 14
        pic.text(x, 10, "points track", size=10, anchor="start")
        for j, p in enumerate(c.points):   # bottom value drawn lowest
            y = 20 + box * (c.cubes - 1 - j)
            pic.rect(x, y, box, box - 2, fill="#fbf7ea", stroke="#8a7d55", stroke_width=1)
            pic.text(x + box / 2, y + box / 2 - 1, str(p), size=11)
            if j >= k:
                pic.rect(x + 4, y + 3, box - 8, box - 8, fill="#fdfdfd", stroke="black",
                         stroke_width=1.5, title="a cube still on the card")
                pic.text(x + box + 6, y + box / 2, "cube", size=9, anchor="start")
            else:
                pic.text(x + box + 6, y + box / 2, "uncovered", size=9, anchor="start")
        x0 = x + box + 66
    return as_image(pic.render())


@register("harmonies.cards_that_fit", game=GAME.name, notebook=NB03,
          rule="A card's cube can be placed only where its whole habitat is built.",
          title="Which cards can place a cube?",
          levels=("two cards", "three cards, one habitat nearly built"))
def cards_that_fit(seed: int, level: int) -> Exercise:
    rng = _rng("cards_that_fit", seed, level)
    side = "A"
    n = level + 1
    while True:
        ids = rng.sample(animal_ids(), n)
        stacks: dict = {}
        for cid in ids:
            built = _place_pattern(rng, side, cid, _apart(side, stacks))
            if built is None:
                continue
            if rng.random() < (0.5 if level == 2 else 0.35):
                _near_miss(rng, built, list(built))
            stacks.update(built)
        answer = {str(cid) for cid in ids if habitat_cells(cid, side, stacks)}
        if 1 <= len(answer) < n:
            break
    options = tuple(Option(str(cid), card(cid).name) for cid in ids)

    def refuse(key: str) -> tuple[str, str]:
        cid = int(key)
        c = card(cid)
        if not any(stack_matches(c.cube, s) for s in stacks.values()):
            return "no-cube-stack", (f"The {c.name} cannot place a cube: its cube goes on "
                                     f"{_code_words(c.cube)}, and there is none on the board.")
        return "habitat-not-built", (f"The {c.name} cannot place a cube: wherever its cube "
                                     f"could sit, the rest of its habitat is missing or a "
                                     f"stack has another height.")

    return Exercise(
        kind="harmonies.cards_that_fit", seed=seed,
        question="Which of these cards could place a cube on this board now? Pick every one.",
        answer_kind="choices", answer=answer, options=options,
        checker=_choices_checker(
            answer, refuse, "Every card you picked fits, but another one fits too: check "
                            "each remaining card's habitat, turned every way.",
            "Right: " + "; ".join(f"the {card(int(k)).name} fits on "
                                  f"{_cells_text(habitat_cells(int(k), side, stacks))}"
                                  for k in sorted(answer)) + "."),
        draw=lambda marked: _picture(side, stacks, marked, cards=ids, clickable=False),
        hints=("For each card, find the stack its cube goes on: "
               + "; ".join(f"the {card(c).name} needs {_code_words(card(c).cube)}"
                           for c in ids) + ".",
               "Then turn each card's pattern around those stacks: every stack must match, "
               "heights included. Look closely at " + _names(
                   [f"the {card(c).name}" for c in rng.sample(ids, 2)]) + "."),
        explanation="; ".join(
            f"{card(c).name}: " + (f"fits on {_cells_text(habitat_cells(c, side, stacks))}"
                                   if str(c) in answer else "not built")
            for c in ids) + ".",
        context={"stacks": stacks, "cards": ids})


def _gap_position(rng: random.Random, side: str, level: int) -> tuple:
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
        for cell in _random_cells(rng, side, 1 if level == 1 else 5, avoid=list(built)):
            stacks[cell] = _random_stack(rng)
        if habitat_cells(cid, side, stacks):
            continue
        answer = set()
        for cell in cells(side):
            below = tuple(stacks.get(cell, ()))
            trial = dict(stacks)
            trial[cell] = below + (colour,)
            if trial[cell] in legal_stacks() and habitat_cells(cid, side, trial):
                answer.add(cell)
        if 1 <= len(answer) <= 3:   # a few spaces to find, not a whole ring of them
            return cid, colour, stacks, answer, set(built)


@register("harmonies.complete_habitat", game=GAME.name, notebook=NB03,
          rule="Placing one more token can complete a habitat, as long as the stacking chart "
               "allows it.",
          title="Finish the habitat",
          levels=("a habitat one token short", "a habitat one token short among other stacks"))
def complete_habitat(seed: int, level: int) -> Exercise:
    rng = _rng("complete_habitat", seed, level)
    side = "A"
    cid, colour, stacks, answer, built = _gap_position(rng, side, level)
    name = card(cid).name

    def refuse(cell: Cell) -> tuple[str, str]:
        below = tuple(stacks.get(cell, ()))
        if below + (colour,) not in legal_stacks():
            kind, why = _stack_problem(below, colour)
            return kind, f"the stacking chart forbids it there: {why}"
        return "not-the-gap", (f"with {colour} there, the {name} habitat is still not "
                               f"complete anywhere on the board.")

    return Exercise(
        kind="harmonies.complete_habitat", seed=seed,
        question=f"You hold one {colour} token. Click every space where placing it would let "
                 f"the {name} cube go on the board.",
        answer_kind="cells", answer=answer,
        checker=_cells_checker(answer, refuse,
                               f"Each space you clicked completes the {name} habitat, but "
                               f"another one does too: try the pattern turned other ways.",
                               f"Right: {colour} on {_cells_text(answer)} completes the "
                               f"{name} habitat."),
        draw=lambda marked: _picture(side, stacks, marked, cards=[cid],
                                     notes=[f"You hold one {colour} token."]),
        hints=(f"Find the nearly finished {name} habitat: its cube goes on "
               f"{_code_words(card(cid).cube)}.",
               f"The marked area holds the nearly built habitat; which of its stacks lacks "
               f"one {colour} token? {_COLOUR_RULE[colour]}"),
        hint_marks=((), tuple(sorted(built - answer))),
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
_SPIRIT_WHAT = {"yellow_groups": "group of fields", "water_groups": "group of water",
                "building_groups": "group of buildings", "trees": "tree",
                "mountains": "mountain", "blue_tokens": "blue token"}
_SPIRIT_KEEP = {"yellow_groups": lambda s: bool(s) and s[-1] == "yellow",
                "water_groups": lambda s: bool(s) and s[-1] == "blue",
                "building_groups": is_building, "trees": is_tree, "mountains": is_mountain,
                "blue_tokens": lambda s: "blue" in s}


def _spirit_stacks(rng: random.Random, side: str, spirit: int, avoid: Iterable = ()) -> dict:
    kinds = _SPIRIT_BOARD[card(spirit).count]
    stacks: dict = {}
    avoid = set(avoid)
    for _ in range(rng.randint(2, 3)):
        group = _grow(rng, side, rng.randint(1, 3), set(stacks) | avoid)
        for cell in group:
            stacks[cell] = rng.choice(kinds)
    return stacks


def _spirit_counted(spirit: int, side: str, stacks: Mapping) -> list[tuple[Cell, int]]:
    """What the spirit counts on the board: (a space of it, its size or height), a group
    or a stack each."""
    c = card(spirit)
    board = stacks_tuple(side, stacks)
    every = cells(side)
    keep = _SPIRIT_KEEP[c.count]
    if c.count.endswith("groups"):
        return [(every[g[0]], len(g)) for g in groups(side, board, keep)]
    if c.count == "blue_tokens":
        return [(every[i], s.count("blue")) for i, s in enumerate(board) if keep(s)]
    return [(every[i], len(s)) for i, s in enumerate(board) if keep(s)]


def _spirit_detail(spirit: int, side: str, stacks: Mapping) -> str:
    c = card(spirit)
    pts = c.count_points
    found = _spirit_counted(spirit, side, stacks)
    if c.count == "blue_tokens":
        blue = sum(k for _, k in found)
        return f"{blue} blue token{'' if blue == 1 else 's'} × {pts[0]}"
    what = "size" if c.count.endswith("groups") else "height"
    return "; ".join(f"a {_SPIRIT_WHAT[c.count]} of {what} {k} at {cell_text(cell)}: "
                     f"{pts[min(k, len(pts)) - 1]}" for cell, k in found) or "none on the board"


def _spirit_rule(spirit: int) -> str:
    c = card(spirit)
    what = _SPIRIT_WHAT[c.count]
    pts = c.count_points
    if c.count == "blue_tokens":
        return f"{pts[0]} per {what}"
    if len(pts) == 1:
        return f"{pts[0]} per {what}, whatever its size"
    if c.count.endswith("groups"):
        sizes = ", ".join(str(k + 1) for k in range(len(pts) - 1))
        return f"per {what} of size {sizes}, {len(pts)} or more: " + "/".join(map(str, pts))
    return f"per {what} of height 1, 2, 3: " + "/".join(map(str, pts))


def _spirit_mistakes(spirit: int, side: str, stacks: Mapping, placed: bool, right: int
                     ) -> list:
    c = card(spirit)
    full = spirit_points(c, side, stacks_tuple(side, stacks))
    out = []
    if not placed:
        out.append((full, "spirit-cube-not-placed",
                    "You scored the spirit as if its cube were on the board; a spirit whose "
                    "cube was never placed scores nothing."))
    found = _spirit_counted(spirit, side, stacks)
    pts = c.count_points
    if c.count.endswith("groups"):
        out.append((pts[0] * sum(k for _, k in found), "tokens-not-groups",
                    "You scored every token as a group of its own; touching tokens make one "
                    "group, scored by its size."))
    elif c.count in ("trees", "mountains"):
        land = _height_points("tree")
        out.append((sum(land[k - 1] for _, k in found), "landscape-points",
                    f"You gave each {_SPIRIT_WHAT[c.count]} its landscape points; the spirit "
                    f"scores by its own table."))
    else:
        out.append((pts[0] * len(_water_groups(side, stacks)), "groups-not-tokens",
                    "You counted groups of water; this spirit scores each blue token."))
    out.append((len(found), "counted-not-scored",
                "You counted what the spirit looks at, but did not score it by the table on "
                "the card."))
    return [m for m in out if placed or m[1] == "spirit-cube-not-placed"]


@register("harmonies.spirit_points", game=GAME.name, notebook=NB04,
          rule="A Nature's Spirit scores by its own count of landscapes or groups, and only "
               "if its cube was placed.",
          title="Points of a spirit",
          levels=("a placed spirit on a board of its landscapes",
                  "a spirit, placed or not, on a board with other landscapes"))
def spirit_points_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("spirit_points", seed, level)
    side = "A"
    spirit = rng.choice(spirit_ids())
    stacks = _spirit_stacks(rng, side, spirit)
    if level == 2:
        for cell in _random_cells(rng, side, 4, avoid=_apart(side, stacks)):
            stacks[cell] = _random_stack(rng)
    placed = level == 1 or rng.random() < 0.75
    right = card_points(spirit, 1 if placed else 0, side, stacks)
    name = card(spirit).name
    state = "Its cube is on the board." if placed else "Its cube was never placed."
    question = (f"Your spirit is the {name} ({_spirit_rule(spirit)}). {state} How many points "
                f"does it score on this board?")
    detail = (f"{_spirit_detail(spirit, side, stacks)}: {right} points in all." if placed
              else "Its cube is still on the card, so the spirit scores nothing.")
    found = _spirit_counted(spirit, side, stacks)
    what = _SPIRIT_WHAT[card(spirit).count]
    return _number_exercise(
        "harmonies.spirit_points", seed, level, question, right,
        what="the spirit's points", rule="Find what the spirit counts, then score each by "
                                         "the spirit's own table.",
        mistakes=_spirit_mistakes(spirit, side, stacks, placed, right),
        hints=((f"Was the {name}'s cube placed? If so, find every {what} on the board.",
                f"Was the {name}'s cube placed? If so, find what it counts on the board."),
               (f"The marked spaces show each {what} the {name} counts"
                + (" (a lone token is a group of one)" if "group" in what else "")
                + "; score each by the card's table.",
                f"The marked spaces show what the {name} counts; score each by the card's "
                f"table.")),
        hint_marks=((), tuple(c for c, _ in found) if placed else ()),
        explanation=detail,
        draw=_board_drawer(side, stacks, cards=[spirit],
                           notes=[f"{name}: {_spirit_rule(spirit)}", state]),
        context={"stacks": stacks, "spirit": spirit, "placed": placed})


@register("harmonies.better_spirit", game=GAME.name, notebook=NB04,
          rule="You keep one of the two spirits you are dealt; each scores by its own rule.",
          title="Which spirit scores more?",
          levels=("two spirits on a board of their landscapes",
                  "two spirits on a board with other landscapes too"))
def better_spirit(seed: int, level: int) -> Exercise:
    rng = _rng("better_spirit", seed, level)
    side = "A"
    first_wins = rng.random() < 0.5
    while True:
        a, b = rng.sample(spirit_ids(), 2)
        stacks = _spirit_stacks(rng, side, a)
        stacks.update(_spirit_stacks(rng, side, b, avoid=_apart(side, stacks)))
        if level == 2:
            for cell in _random_cells(rng, side, 3, avoid=_apart(side, stacks)):
                stacks[cell] = _random_stack(rng)
        board = stacks_tuple(side, stacks)
        pa, pb = spirit_points(card(a), side, board), spirit_points(card(b), side, board)
        if pa != pb and (pa > pb) == first_wins:
            break
    spirits = {"first": (a, pa), "second": (b, pb)}
    answer = "first" if pa > pb else "second"

    def refuse(key: str) -> tuple[str, str]:
        sid, p = spirits[key]
        return "compared-without-scoring", (
            f"On this board the {card(sid).name} would score {p} "
            f"({_spirit_detail(sid, side, stacks)}); score the other spirit the same way "
            f"and compare.")

    detail = (f"{card(a).name} scores {pa} ({_spirit_detail(a, side, stacks)}); "
              f"{card(b).name} scores {pb} ({_spirit_detail(b, side, stacks)}).")
    return Exercise(
        kind="harmonies.better_spirit", seed=seed,
        question="You were dealt these two spirits. Which one would score more on this board "
                 "(its cube placed)?",
        answer_kind="choice", answer=answer,
        checker=partial(choice_verdict, right=answer, why_not=refuse,
                        right_reason=f"Right: {detail}"),
        options=(Option("first", f"{card(a).name} ({_spirit_rule(a)})"),
                 Option("second", f"{card(b).name} ({_spirit_rule(b)})")),
        draw=_board_drawer(side, stacks, cards=[a, b],
                           notes=[f"{card(a).name}: {_spirit_rule(a)}",
                                  f"{card(b).name}: {_spirit_rule(b)}"]),
        hints=(f"Score each spirit on its own: the {card(a).name} counts each "
               f"{_SPIRIT_WHAT[card(a).count]}, the {card(b).name} each "
               f"{_SPIRIT_WHAT[card(b).count]}.",
               f"The marked spaces are what the {card(a).name} counts; score them by its "
               f"table, then do the same for the {card(b).name}, and compare."),
        hint_marks=((), tuple(c for c, _ in _spirit_counted(a, side, stacks))),
        explanation=detail, context={"stacks": stacks, "spirits": (a, b)})


@register("harmonies.solo_suns", game=GAME.name, notebook=NB04,
          rule="Solo: 40, 70, 90, 110, 130, 140, 150 and 160 points each earn a sun; side A "
               "adds one; no spirit adds two, a groups spirit one, a number spirit none.",
          title="Solo suns",
          levels=("the score and the side, with a number spirit",
                  "the score, the side and any spirit or none"))
def solo_suns_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("solo_suns", seed, level)
    solo = rules_data()["solo"]
    bands = solo["sun_thresholds"]
    score = rng.choice(bands) if rng.random() < 0.2 else rng.randint(30, 175)
    side = rng.choice("AB")
    number = [s for s in spirit_ids() if card(s).family == "number"]
    spirit = rng.choice(number) if level == 1 else rng.choice([None, None, *spirit_ids()])
    right = solo_suns(score, side, spirit)
    base = suns_for_score(score)
    side_bonus = solo["side_bonus"][side]
    if spirit is None:
        spirit_text, bonus = "no spirit", solo["no_spirit_bonus"]
    else:
        fam = card(spirit).family
        spirit_text = f"the {card(spirit).name} (a {'groups' if fam == 'groups' else 'number'}" \
                      f" spirit)"
        bonus = solo["spirit_family_bonus"][fam]
    question = (f"A solo game ends with {score} points on side {side}, played with "
                f"{spirit_text}. How many suns is that? (A sun for each of "
                f"{', '.join(map(str, bands))} points reached; one more sun on side A; no "
                f"spirit adds two, a groups spirit one, a number spirit none.)")
    mistakes = [(right - side_bonus, "forgot-side-sun",
                 "You left out the extra sun of side A."),
                (right - bonus, "forgot-spirit-suns",
                 "You left out what the spirit choice adds (playing without one adds the "
                 "most)."),
                (right + 1 if score in bands else -1, "threshold-not-reached",
                 f"You seem to think {score} points does not reach its own threshold; a "
                 f"score equal to a threshold earns its sun."),
                (right - 1 if score in bands else -1, "threshold-not-reached",
                 f"A score equal to a threshold earns that sun: {score} reaches it."),
                (base, "score-suns-only", "You counted the suns of the score alone; add the "
                                          "side's and the spirit's.")]
    reached = [t for t in bands if score >= t]
    detail = (f"{score} points reach {_count(base, 'threshold')}; side {side} gives "
              f"{side_bonus} more and {spirit_text} {bonus} more: {right} suns.")
    return _number_exercise(
        "harmonies.solo_suns", seed, level, question, right,
        what="the number of suns", rule="Count the thresholds reached, then add the side's "
                                       "and the spirit's suns.",
        mistakes=mistakes,
        hints=((f"First: which thresholds does {score} reach? Go up the list until one is "
                f"higher than {score}.", "First: which thresholds does the score reach?"),
               (f"{score} reaches the thresholds up to "
                f"{reached[-1] if reached else 'none of them'}; now add the suns for "
                f"{spirit_text} and for side {side}.",
                f"Now add the suns for {spirit_text} and for side {side}.")),
        explanation=detail, draw=None,
        context={"score": score, "side": side, "spirit": spirit})


def _discard_case(rng: random.Random, level: int) -> str:
    """What this solo turn looks like: "free" (a discard is allowed), "took", "discarded",
    "empty"."""
    if rng.random() < 0.5:
        return "free"
    return rng.choice(["took"] if level == 1 else ["took", "discarded", "empty"])


@register("harmonies.solo_discard", game=GAME.name, notebook=NB04,
          rule="Solo: if you took no animal card this turn, you may discard one face-up card "
               "and replace it from the deck.",
          title="Solo: may you discard a card?",
          levels=("a card taken or not", "a card taken, a card already discarded or an empty "
                                         "deck"))
def solo_discard(seed: int, level: int) -> Exercise:
    rng = _rng("solo_discard", seed, level)
    case = _discard_case(rng, level)
    state = _state("A", {}, players=1, seed=seed, took_tokens=True, took_card=case == "took",
                   discarded=case == "discarded", empty_deck=case == "empty")
    target = state.row[rng.randrange(len(state.row))]
    legal = DiscardCard(target) in state.legal_actions()
    answer = "yes" if legal else "no"
    situation = {"free": "You took no animal card this turn.",
                 "took": "You took an animal card this turn.",
                 "discarded": "You took no card this turn but already discarded one.",
                 "empty": "You took no animal card this turn."}[case]
    situation += " The deck is empty." if case == "empty" else \
        f" The deck still holds {len(state.deck)} cards."
    reason = "you took no card this turn and the deck can replace the discarded one" \
        if legal else why_illegal(state, DiscardCard(target))[0]
    names = {"took": "discard-after-taking", "discarded": "discarded-twice",
             "empty": "empty-deck"}
    why_no = {"took": "discarding takes the place of taking a card, and you took one.",
              "discarded": "one discard a turn, and you made it already.",
              "empty": "a discarded card must be replaced from the deck, and it is empty."}

    def refuse(given: str) -> tuple[str, str]:
        if given == "yes":
            return names[case], f"You may not: {why_no[case]}"
        return "discard-refused", ("Check the three conditions again: no animal card taken "
                                   "this turn, no discard made yet, a deck to replace the "
                                   "card. This turn meets every one of them.")

    return Exercise(
        kind="harmonies.solo_discard", seed=seed,
        question=f"Solo game. {situation} May you discard the face-up {card(target).name} "
                 f"card now?",
        answer_kind="choice", answer=answer,
        checker=partial(choice_verdict, right=answer, why_not=refuse,
                        right_reason=f"Right: {reason}."),
        options=(Option("yes", "Yes"), Option("no", "No")),
        draw=lambda marked: as_image(state.to_svg()),
        hints=(f"A discard takes the place of taking a card: what did you do with the cards "
               f"this turn? The {card(target).name} would be replaced from the deck.",
               "Three things must hold: no animal card taken this turn, no card discarded "
               f"yet, and a deck to replace it; the deck holds "
               f"{_count(len(state.deck), 'card')}."),
        explanation=f"{'Yes' if legal else 'No'}: {reason}.",
        context={"state": state})


# ----- rules the notebooks teach that had no exercise yet ------------------------------------

_SETUP_ASKS = {
    1: ("central", "face-up", "spirits"),
    2: ("pouch", "deck", "spirits-left"),
}
_SETUP_QUESTION = {
    "central": "how many tokens lie on the central board",
    "face-up": "how many animal cards lie face up",
    "spirits": "how many spirit cards are dealt in all",
    "pouch": "how many tokens are still in the pouch",
    "deck": "how many animal cards are left in the deck",
    "spirits-left": "how many spirit cards stay in the box, never dealt",
}


def _setup_facts(game) -> dict:
    """What a new game holds, read from the engine's set-up state."""
    return {"central": sum(len(s) for s in game.central), "face-up": len(game.row),
            "spirits": sum(len(a.spirit_offer) for a in game.areas),
            "pouch": len(game.pouch), "deck": len(game.deck),
            "spirits-left": len(game.boxed_spirits)}


def _setup_mistakes(ask: str, facts: dict, other: dict, players: int) -> list:
    """Typical wrong counts: the other table size (solo against several players), a count
    per player taken for a total, the whole box taken for what is left."""
    solo_word = "a solo game" if players == 1 else "a game of several players"
    out = []
    if ask == "spirits":
        out.append((2, "per-player-not-total", "That is what one player is dealt; the "
                                               "question asks for every player's together."))
    if ask == "pouch":
        out.append((120, "forgot-central-board", "That is the whole pouch before setup; the "
                                                 "central board is filled from it first."))
    if ask == "deck":
        out.append((facts["deck"] + facts["face-up"], "forgot-face-up-cards",
                    "That is every animal card; the face-up cards are laid out from the "
                    "deck first."))
    if ask == "spirits-left":
        total = facts["spirits"] + facts["spirits-left"]
        out.append((total, "forgot-dealt-spirits", "That is every spirit card; the ones "
                                                    "dealt to the players leave the box."))
    if ask == "central":
        out.append((facts["central"] // 3, "counted-spaces", "You counted the central "
                                                             "board's spaces; each holds "
                                                             "three tokens."))
    out.append((other[ask], "solo-setup-mixed",
                f"That count belongs to the other kind of table; check how {solo_word} is "
                f"set up."))
    return out


@register("harmonies.setup_counts", game=GAME.name, notebook=NB01,
          rule="Setup: the central board holds 5 spaces of 3 tokens (3 spaces in solo), 5 "
               "animal cards lie face up (3 in solo), and with the spirits every player is "
               "dealt two spirit cards.",
          title="Setting up the table",
          levels=("what is laid out for a number of players",
                  "what is left in the pouch, the deck and the box"))
def setup_counts(seed: int, level: int) -> Exercise:
    rng = _rng("setup_counts", seed, level)
    players = rng.choice((1, 2, 3, 4))
    # the picture shows a table set up for another number of players: the question asks to
    # carry the setup rule over, so the answer cannot be read off the picture
    shown_players = rng.choice([n for n in (1, 2, 3, 4) if n != players])
    ask = rng.choice(_SETUP_ASKS[level])
    side = rng.choice("AB")
    game = new_game(players=players, seed=seed, side=side, spirits=True)
    shown = new_game(players=shown_players, seed=seed, side=side, spirits=True)
    facts = _setup_facts(game)
    other = _setup_facts(new_game(players=1 if players > 1 else 2, seed=seed, side="A",
                                  spirits=True))
    right = facts[ask]
    table = "a solo game" if players == 1 else f"a game of {_count(players, 'player')}"
    pictured = ("a solo game" if shown_players == 1
                else f"a game of {_count(shown_players, 'player')}")
    question = (f"The picture shows {pictured} just set up, with the spirits. Going by the "
                f"rulebook's setup, in {table} set up the same way, "
                f"{_SETUP_QUESTION[ask]}?"
                + (" (The pouch starts with 120 tokens.)" if ask == "pouch" else ""))
    spaces = "three spaces" if players == 1 else "five spaces"
    pointers = {"central": f"With {table} the central board uses {spaces}; each is filled "
                           f"with three tokens.",
                "face-up": f"With {table}, the card row is as long as the central board "
                           f"has spaces: {spaces}.",
                "spirits": f"Every player is dealt two spirit cards; there "
                           f"{'is' if players == 1 else 'are'} {_count(players, 'player')}.",
                "pouch": f"The central board's {spaces} are filled from the pouch, three "
                         f"tokens each.",
                "deck": f"The deck holds every animal card but those laid face up: "
                        f"{spaces}' worth of cards with {table}.",
                "spirits-left": f"The box holds every spirit card but the two dealt to each "
                                f"of the {_count(players, 'player')}."}
    return _number_exercise(
        "harmonies.setup_counts", seed, level, question, right,
        what="that count", rule="Read the rulebook's setup again for this number of players.",
        mistakes=_setup_mistakes(ask, facts, other, players),
        hints=((f"Think of the setup with {table}: a solo table is smaller.",
                "Think of the setup for this number of players: a solo table is smaller."),
               (pointers[ask], "Apply the setup rule for this number of players.")),
        explanation=f"With {table}: {facts['central']} tokens on the central board, "
                    f"{facts['face-up']} face-up cards, {facts['deck']} cards in the deck, "
                    f"{facts['pouch']} tokens in the pouch, {facts['spirits']} spirit cards "
                    f"dealt and {facts['spirits-left']} left in the box.",
        draw=lambda marked: as_image(shown.to_svg()),
        context={"state": game, "ask": ask, "players": players, "shown": shown})


_TURN_OPTIONS = (("tokens", "Take the three tokens of a central space"),
                 ("place", "Place a token on your board"),
                 ("card", "Take a face-up animal card"),
                 ("cube", "Place an animal cube on a habitat"),
                 ("end", "End the turn"))


def _turn_kinds(state) -> set:
    names = {"TakeTokens": "tokens", "PlaceToken": "place", "TakeCard": "card",
             "PlaceCube": "cube", "EndTurn": "end"}
    return {names[type(a).__name__] for a in state.legal_actions()
            if type(a).__name__ in names}


def _turn_position(rng: random.Random, seed: int, level: int):
    """A two-player turn at some stage: tokens taken or not, some placed, a card taken or
    not; on level 2 cards held, one habitat maybe complete."""
    side = "A"
    stage = rng.choice(("start", "middle", "placed"))
    stacks: dict = {}
    cards: tuple = ()
    if level == 2:
        cid = rng.choice(animal_ids())
        built = _place_pattern(rng, side, cid, set()) or {}
        if rng.random() < 0.5:
            _near_miss(rng, built, list(built))
        stacks.update(built)
        held = [cid] + [c for c in new_game(players=2, seed=seed).deck[:rng.choice((0, 2, 3))]
                        if c != cid]
        cards = tuple((c, 0) for c in held)
    for cell in _random_cells(rng, side, rng.randint(2, 5), avoid=_apart(side, stacks)):
        stacks[cell] = _random_stack(rng)
    pouch = list(new_game(players=2, seed=seed).pouch)
    rng.shuffle(pouch)
    hand = () if stage != "middle" else tuple(pouch[:rng.randint(1, 3)])
    took_card = rng.random() < 0.4
    state = _state(side, stacks, players=2, cards=cards, hand=hand, seed=seed,
                   took_tokens=stage != "start", took_card=took_card)
    return state, stage, stacks, cards


@register("harmonies.turn_actions", game=GAME.name, notebook=NB01,
          rule="A turn: take the three tokens of one central space and place all of them; "
               "at any moment of the turn you may also take one animal card and place cubes.",
          title="What may you do now?",
          levels=("tokens and one card", "cards held, a habitat maybe complete"))
def turn_actions(seed: int, level: int) -> Exercise:
    rng = _rng("turn_actions", seed, level)
    state, stage, stacks, cards = _turn_position(rng, seed, level)
    answer = _turn_kinds(state)
    hand = state.hand
    doing = {"start": "You have not taken tokens yet this turn.",
             "middle": f"You took three tokens and still hold {_names(list(hand))}.",
             "placed": "You took three tokens and placed all of them."}[stage]
    doing += " You already took an animal card." if state.took_card else \
        " You have not taken an animal card."
    why_not = {
        "tokens": ("tokens-twice", "You take the tokens of one central space once a turn, "
                                   "and you did so already."),
        "place": ("placed-without-tokens", "You hold no token to place: tokens come from a "
                                           "central space, taken once a turn."),
        "card": ("two-cards-a-turn", "Only one animal card a turn, and you took one already.")
        if state.took_card else ("slots-full", "Your four card slots are full of "
                                               "unfinished cards."),
        "cube": ("cube-without-habitat", "No card you hold has its habitat complete on your "
                                         "board with a cube left to place."),
        "end": ("ended-too-early", "You may end the turn only once you took the tokens of a "
                                   "central space and placed every one of them.")}

    options = tuple(Option(k, label) for k, label in _TURN_OPTIONS)
    return Exercise(
        kind="harmonies.turn_actions", seed=seed,
        question=f"Two players, your turn. {doing} Which of these may you do now? Pick every "
                 f"one.",
        answer_kind="choices", answer=answer, options=options,
        checker=_choices_checker(answer, why_not, "Every action you picked is allowed now, "
                                                 "but another one is too: taking a card and "
                                                 "placing cubes may come at any moment of "
                                                 "the turn.",
                                 "Right: " + "; ".join(label.lower() for k, label in
                                                       _TURN_OPTIONS if k in answer) + "."),
        draw=lambda marked: _picture("A", stacks, marked, cards=[c for c, _ in cards],
                                     clickable=False, notes=[doing]),
        hints=(f"Go through the turn in order: {doing[0].lower() + doing[1:-1]}. Which "
               f"duty is left?",
               "The duty is to take one central space's three tokens and place them all; "
               "the turn ends only after that. One animal card a turn, and cubes go only "
               "on complete habitats"
               + (f": look at the {card(cards[0][0]).name} card." if cards else ".")),
        explanation="Allowed now: " + "; ".join(label.lower() for k, label in _TURN_OPTIONS
                                                if k in answer) + ".",
        context={"state": state, "stacks": stacks})


def _straight_river(rng: random.Random, side: str, length: int) -> list[Cell]:
    """A river without loops: each new token touches only the one before it."""
    for _ in range(200):
        path = [rng.choice(cells(side))]
        while len(path) < length:
            options = [n for n in neighbours(side, path[-1]) if n not in path
                       and sum(m in path for m in neighbours(side, n)) == 1]
            if not options:
                break
            path.append(rng.choice(sorted(options)))
        if len(path) == length:
            return path
    return []


@register("harmonies.river_points", game=GAME.name, notebook=NB02,
          rule="Side A: the best river scores 2, 5, 8, 11 or 15 points for 2 to 6 tokens, "
               "then 4 more for every token after the sixth.",
          title="Points for the river",
          levels=("one river without loops", "two rivers, with branches or loops"))
def river_points_exercise(seed: int, level: int) -> Exercise:
    rng = _rng("river_points", seed, level)
    side = "A"
    table = rules_data()["landscapes"]["river_points_by_length"]
    extra = rules_data()["landscapes"]["river_points_per_extra_token"]
    if level == 1:
        water = set(_straight_river(rng, side, rng.randint(2, 9)))
    else:
        water = _river_water(rng, side, 2)
        water |= set(_grow(rng, side, rng.randint(2, 3), water))
    stacks = {c: ("blue",) for c in water}
    for cell in _random_cells(rng, side, 3, avoid=_apart(side, stacks)):
        stacks[cell] = rng.choice([("brown", "green"), ("yellow",), ("gray",)])
    facts = _river_facts(side, stacks)
    length = facts["right"]
    right = river_points(length)
    question = (f"How many points does the water score on this side A board? (A river of "
                f"2, 3, 4, 5 or 6 tokens scores {', '.join(map(str, table[2:]))}, then "
                f"{extra} more for each token after the sixth; only the best river scores."
                + (" Our reading of the rules: a loop without a shortcut counts with all "
                   "its tokens.)" if level == 2 else ")"))
    lengths = [g["size"] for g in facts["groups"]]
    mistakes = [(length, "length-not-points", "That is the river's length in tokens; the "
                                              "question asks for its points."),
                (sum(river_points(n) for n in lengths), "scored-every-river",
                 "You scored every river; only your best river scores."),
                (river_points(length - 1), "table-misread",
                 "That is the score of a river one token shorter: count the river's tokens "
                 "again, both ends included."),
                (river_points(length + 1), "table-misread",
                 "That is the score of a river one token longer: measure it along the "
                 "shortest way between its ends."),
                (table[-1] + (extra - 1) * (length - len(table) + 1) if length >= len(table)
                 else -1, "wrong-extra-step", f"After the sixth token each token adds "
                                              f"exactly {extra}.")]
    ends = facts["groups"][0]["ends"]
    return _number_exercise(
        "harmonies.river_points", seed, level, question, right,
        what="the water's points", rule="Measure the best river in tokens, then read its "
                                        "points from the table.",
        mistakes=mistakes,
        hints=(("First measure the best river: how many tokens lie on the shortest way "
                "between its two ends?" + (" Then read the table." if level == 1 else
                                           " Compare both rivers."),
                "First measure the best river, then read the table."),
               (f"The marked tokens at {cell_text(ends[0])} and {cell_text(ends[1])} are "
                f"the best river's two ends. Count the tokens between them, both ends "
                f"included, then use the table in the question.",
                "The marked tokens are the best river's two ends. Count the tokens between "
                "them, both ends included, then use the table in the question.")),
        hint_marks=((), ends),
        explanation=f"The best river is {length} tokens long, so the water scores {right}.",
        draw=_board_drawer(side, stacks), context={"stacks": stacks})


def _shared_board(rng: random.Random, side: str, cid: int, copies: int) -> dict:
    """The card's habitat built ``copies`` times, each new copy sharing stacks with the
    board where it can (tokens may serve several habitats)."""
    stacks: dict = {}
    for _ in range(copies):
        fits = [(sum(c in stacks for c in want), sorted(want.items()))
                for want in _placements(side, cid)
                if all(stacks.get(c, s) == s for c, s in want.items())]
        if not fits:
            break
        best = max(f[0] for f in fits)
        pool = [f[1] for f in fits if f[0] == best or rng.random() < 0.2]
        stacks.update(dict(rng.choice(pool)))
    return stacks


def _cubes_in_a_row(state, cid: int) -> int:
    """How many of the card's cubes the engine lets you place one after another."""
    placed = 0
    while True:
        moves = [a for a in state.legal_actions() if isinstance(a, PlaceCube) and a.card == cid]
        if not moves:
            return placed
        state = state.apply(moves[0])
        placed += 1


@register("harmonies.shared_habitat", game=GAME.name, notebook=NB03,
          rule="Tokens may serve several habitats: each cube needs its own space with the "
               "whole habitat around it, and a card places at most the cubes it holds.",
          title="Habitats that share tokens",
          levels=("one card, its habitat built once or twice",
                  "one card, habitats sharing stacks among other stacks"))
def shared_habitat(seed: int, level: int) -> Exercise:
    rng = _rng("shared_habitat", seed, level)
    side = "A"
    target = rng.choice((1, 2, 3) if level == 1 else (1, 2, 3, 4))
    while True:
        cid = rng.choice(animal_ids())
        stacks = _shared_board(rng, side, cid, rng.randint(1, 4))
        if level == 2:
            for cell in _random_cells(rng, side, 4, avoid=list(stacks)):
                stacks[cell] = _random_stack(rng)
        state = _state(side, stacks, players=2, cards=((cid, 0),), seed=seed,
                       took_tokens=True)
        right = _cubes_in_a_row(state, cid)
        if right == target:
            break
    c = card(cid)
    spots = habitat_cells(cid, side, stacks)
    question = (f"Your {c.name} card still holds all its {_count(c.cubes, 'cube')}. How many "
                f"of them could you place on this board now, one after another?")
    mistakes = [(c.cubes, "counted-card-cubes", "You counted the cubes on the card; each "
                                                "cube needs its own space with the whole "
                                                "habitat around it."),
                (len(spots), "more-than-the-card-holds", "A card places only the cubes it "
                                                         "holds."),
                (right - 1, "no-shared-tokens", "It looks as if you used each token for one "
                                                "habitat only; a token may serve several "
                                                "habitats, so two may share a stack."),
                (right + 1, "shared-cube-space", "Two cubes never share a space: count the "
                                                 "spaces where a cube could sit with the "
                                                 "whole habitat around it.")]
    cube_spots = sorted(cell for cell, s in stacks.items() if stack_matches(c.cube, s))
    return _number_exercise(
        "harmonies.shared_habitat", seed, level, question, right,
        what="the number of cubes", rule="Count the spaces with the whole habitat around "
                                         "them, each used once, up to the cubes the card "
                                         "holds.",
        mistakes=mistakes,
        hints=((f"The {c.name} cube goes on {_code_words(c.cube)}: look at each such stack "
                f"on the board.", f"The {c.name} cube goes on {_code_words(c.cube)}."),
               (f"The marked stacks could hold the cube; around each, is the whole habitat "
                f"built? A token may serve several habitats, and the card holds "
                f"{_count(c.cubes, 'cube')}.",
                "The marked stacks could hold the cube; around each, is the whole habitat "
                "built? A token may serve several habitats.")),
        hint_marks=((), tuple(cube_spots)),
        explanation=f"The {c.name} habitat is complete around {_cells_text(spots)}; the card "
                    f"holds {_count(c.cubes, 'cube')}, so {right} can be placed.",
        draw=_board_drawer(side, stacks, cards=[cid]),
        context={"stacks": stacks, "card": cid, "state": state})


def _play_solo(seed: int, turns: int):
    """A solo game (side A, no spirits) after ``turns`` turns, played by the engine with
    the first legal choices (tokens placed, no cards taken)."""
    state = new_game(players=1, seed=seed, side="A", spirits=False)
    rng = random.Random(f"harmonies.solo_box:{seed}")
    for _ in range(turns):
        takes = [a for a in state.legal_actions() if isinstance(a, TakeTokens)]
        state = state.apply(rng.choice(takes))
        while state.hand:
            places = [a for a in state.legal_actions() if isinstance(a, PlaceToken)]
            state = state.apply(rng.choice(places))
        state = state.apply(EndTurn())
    return state


@register("harmonies.solo_box", game=GAME.name, notebook=NB04,
          rule="Solo: at the end of each turn the six tokens you did not take go back to the "
               "box, and all three central spaces are refilled from the pouch.",
          title="Solo: tokens to the box",
          levels=("tokens gone to the box", "tokens left in the pouch"))
def solo_box(seed: int, level: int) -> Exercise:
    rng = _rng("solo_box", seed, level)
    turns = rng.randint(1, 6)     # few enough that the board never fills up
    state = _play_solo(seed, turns)
    per_turn = 3 * len(state.central)
    if level == 1:
        right = len(state.boxed_tokens)
        ask = "how many tokens have gone back to the box"
        mistakes = [(per_turn * turns, "counted-taken-tokens",
                     "You counted the three tokens you took each turn too; only the ones left "
                     "on the central board go to the box."),
                    (right - right // turns, "one-turn-short", "You are one turn short: count "
                                                               "every turn played."),
                    (right + right // turns, "one-turn-too-many", "You counted one turn too "
                                                                  "many.")]
    else:
        right = len(state.pouch)
        ask = "how many tokens are still in the pouch (it held 120 before setup)"
        mistakes = [(120 - per_turn * turns, "forgot-setup-tokens",
                     "You left out the tokens laid on the central board at setup."),
                    (120 - per_turn - 3 * turns, "counted-only-taken",
                     "You took out only the tokens you took; the six others go to the box, "
                     "and all three spaces are refilled each turn."),
                    (120 - per_turn - 6 * turns, "counted-only-boxed",
                     "You took out only the tokens that went to the box; the refill also "
                     "replaces the three you took.")]
    played = "one turn has" if turns == 1 else f"{_count(turns, 'turn')} have"
    question = (f"A solo game: {played} been played (tokens taken and placed, no card "
                f"taken), each ending as the rules say. After the last one, {ask}?")
    return _number_exercise(
        "harmonies.solo_box", seed, level, question, right,
        what="that count", rule="Follow the end of a solo turn: what goes to the box, and "
                                "how many tokens the refill takes from the pouch.",
        mistakes=mistakes,
        hints=((f"What happens to the tokens left on the central board when a solo turn "
                f"ends? It happens {'once' if turns == 1 else _count(turns, 'time')}.",
                "What happens to the tokens left on the central board when a solo turn "
                "ends?"),
               ("Each turn you take three of the nine tokens on the central board; the six "
                "others go to the box, and all three spaces are refilled from the pouch"
                + (": nine tokens at setup, nine more after each turn." if level == 2
                   else "."),
                "Each turn you take three of the tokens; the others go to the box and the "
                "spaces are refilled.")),
        explanation=f"After {_count(turns, 'turn')}: {len(state.boxed_tokens)} tokens in "
                    f"the box, {len(state.pouch)} still in the pouch.",
        draw=lambda marked: as_image(state.to_svg()),
        context={"state": state, "turns": turns})
