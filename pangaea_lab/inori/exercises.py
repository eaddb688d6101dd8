"""Exercise generators for Inori (see :mod:`pangaea_lab.core.exercises`): each registered kind
builds a small position from a seed with the rules engine, and the engine answers it.

Positions are real game states (every card, token, marker and rune is somewhere, so
``check_invariants`` holds), drawn with :func:`.render.board_svg`, where a card space is the
cell ``(slot, space)`` and a Great Tree space the cell ``(space,)``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..core.errors import IllegalAction
from ..core.exercises import Exercise, Option, Verdict, register
from .actions import OfferCard, OfferTree, RuneGain, RuneMove, RuneOffer, TakeFavor
from .board import NEUTRAL, root_spaces
from .render import board_svg
from .rules import end_season_now
from .scoring import majority_colours, score_card, score_majorities, season_end_preview
from .setup import new_game
from .state import GameState

NB1 = "inori/01_setup_and_turns.ipynb"
NB2 = "inori/02_great_tree_and_runes.ipynb"
NB3 = "inori/03_seasons_and_majorities.ipynb"

Cell = tuple


# ----- building small positions --------------------------------------------------------

def position(seed: int, players: int, cards: Sequence[str],
             markers: Mapping[tuple[int, int], Sequence[int]] = {},
             favor: Mapping[int, Mapping[str, int]] = {}, tree: Mapping[int, int] = {},
             altars: Mapping[int, str] = {}, runes: Mapping[int, Sequence[str]] = {},
             turn: int = 0, season: int = 1, hands: Mapping[int, int] = {},
             emptied_roots: Mapping[int, int] = {}) -> GameState:
    """A legal position: ``cards`` in the slots, ``markers`` on card spaces (player numbers
    or the neutral marker), ``favor`` per player and colour, markers on ``tree`` spaces,
    ``altars`` placed, ``runes`` in hands, root spaces emptied by a player
    (``emptied_roots``: root number -> player who took the tokens).  Hands hold the rest of
    the season's markers unless ``hands`` says how many; extra markers stand on free altar
    spaces of the tree, so every count adds up."""
    base = new_game(players=players, seed=seed)
    ed = base.edition
    wanted = set(cards)
    strip = lambda group: tuple(c for c in group if c not in wanted)  # noqa: E731
    dealt = [c for c, _ in base.slots if c not in wanted]
    slots = [[c, [[] for _ in ed.cards[c].spaces]] for c in cards]
    neutral = 0
    placed = [0] * players
    for (i, j), who in markers.items():
        for m in who:
            slots[i][1][j].append(m)
            if m == NEUTRAL:
                neutral += 1
            else:
                placed[m] += 1
    tree_markers: list[int | None] = [None] * len(ed.tree)
    for t, p in tree.items():
        tree_markers[t] = p
        placed[p] += 1
    per_season = base.schedule[season - 1]
    hand = [per_season - placed[p] for p in range(players)]
    for p, n in hands.items():
        extra = hand[p] - n
        free = [t for t, sp in enumerate(ed.tree) if sp.altar and tree_markers[t] is None
                and t not in altars]
        for t in free[:extra]:
            tree_markers[t] = p
        hand[p] = n
    if min(hand) < 0:
        raise ValueError("more markers placed than a player has this season")
    held = [[0] * len(ed.colours) for _ in range(players)]
    supply = list(base.supply)
    for p, tokens in favor.items():
        for colour, n in tokens.items():
            k = ed.colours.index(colour)
            held[p][k] += n
            supply[k] -= n
    root_tokens = list(base.root_tokens)
    for r, p in emptied_roots.items():
        held[p][ed.colours.index(base.root_colours[r])] += root_tokens[r]
        root_tokens[r] = 0
    hands_r = [list(runes.get(p, ())) for p in range(players)]
    used = {r for h in hands_r for r in h}
    altar_list: list[str | None] = [None] * len(ed.tree)
    for t, colour in altars.items():
        altar_list[t] = colour
    state = replace(
        base, season=season, turn=turn, first_player=0, hand=tuple(hand),
        favor=tuple(map(tuple, held)), supply=tuple(supply), root_tokens=tuple(root_tokens),
        slots=tuple((c, tuple(map(tuple, sp))) for c, sp in slots),
        piles=tuple(strip(p) for p in base.piles), new_start_deck=strip(base.new_start_deck),
        unused_start=strip(base.unused_start) + tuple(dealt),
        tree_markers=tuple(tree_markers), altars=tuple(altar_list),
        neutral_home=ed.neutral_markers - neutral,
        rune_deck=tuple(r for r in base.rune_deck if r not in used),
        rune_hands=tuple(tuple(sorted(h)) for h in hands_r))
    if season > 1:
        # the New Start cards of the seasons before are on the board or gone
        state = replace(state, new_start_deck=state.new_start_deck[
            ed.new_start_draw * (season - 1):], spent_cards=state.new_start_deck[
            :ed.new_start_draw * (season - 1)])
    state.check_invariants()
    return state


def _cost_words(state: GameState, cost: str | None) -> str:
    if cost is None:
        return "costs nothing"
    if cost == "majority":
        return "costs 1 token of your majority colour"
    return f"costs 1 {state.edition.names[cost]}"


def _holding(state: GameState, player: int) -> str:
    ed = state.edition
    parts = [f"{n} {ed.names[c]}" for c, n in zip(ed.colours, state.favor[player]) if n]
    return ", ".join(parts) or "no favor tokens"


def _why(state: GameState, action: Any) -> str:
    """The engine's reason for refusing ``action`` (empty if it is legal)."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        return str(exc).split(" (rule:")[0]
    return ""


def _drawer(state: GameState, focus: Iterable[Cell] = ()) -> Callable[[Iterable[Cell]], str]:
    focus = list(focus)

    def draw(marked: Iterable[Cell]) -> str:
        return board_svg(state, highlight=focus + [c for c in marked if c not in focus])
    return draw


def cell_name(state: GameState, cell: Cell) -> str:
    """A clicked cell in words: "card 2, space 3" or "Great Tree space T4"."""
    if len(cell) == 2:
        return f"card {cell[0] + 1}, space {cell[1] + 1}"
    if len(cell) == 1 and 0 <= cell[0] < len(state.edition.tree):
        return f"Great Tree space {state.edition.tree[cell[0]].id}"
    return f"the space {cell}"


class SpacesExercise(Exercise):
    """An exercise answered by clicking spaces, whose answer is said in words ("card 2,
    space 3; Great Tree space T4") rather than as numbers."""

    def cell_words(self, cell: Cell) -> str:
        state = self.context.get("state")
        return cell_name(state, cell) if state is not None else super().cell_words(cell)

    def answer_text(self) -> str:
        state = self.context.get("state")
        if state is None or self.answer_kind not in ("cells", "path"):
            return super().answer_text()
        cells = self.answer if self.answer_kind == "path" else sorted(self.answer)
        return "; ".join(cell_name(state, c) for c in cells) or "no space"


def _cells_checker(state: GameState, right: frozenset, explain: Callable[[Cell], str],
                   refuse: Callable[[Cell], str], what: str) -> Callable[[Any], Verdict]:
    """A checker for "click every space where ..." questions: a wrong space is refused with
    ``refuse(cell)`` (the engine's reason) and a missed one named with ``explain(cell)``."""
    def check(answer: frozenset) -> Verdict:
        extra = sorted(answer - right)
        missed = sorted(right - answer)
        if not extra and not missed:
            return Verdict(True, f"Right: {what}." if right else
                           "Right: there is no such space now.")
        if extra:
            return Verdict(False, f"Not {cell_name(state, extra[0])}: {refuse(extra[0])}.",
                           marks=(extra[0],))
        return Verdict(False, f"You missed {cell_name(state, missed[0])}: "
                       f"{explain(missed[0])}.", marks=(missed[0],))
    return check


class _Pool:
    """Who stands on the spaces of a made-up position: at most the season's markers per
    player and the two neutral markers."""

    def __init__(self, rng: random.Random, limits: Mapping[int, int]) -> None:
        self.rng = rng
        self.left = dict(limits)

    def take(self, *wanted: int) -> int:
        choices = [w for w in wanted if self.left.get(w, 0) > 0]
        if not choices:
            choices = [w for w, n in self.left.items() if n > 0 and w != NEUTRAL]
        who = self.rng.choice(choices)
        self.left[who] -= 1
        return who


def _pick_cards(rng: random.Random, state_ed, kinds: Sequence[str], n: int) -> list[str]:
    ids = [c.id for c in state_ed.cards.values() if c.type in kinds and len(c.spaces) >= 3
           and c.earliest_season == 1]
    return rng.sample(sorted(ids), n)


def _random_favor(rng: random.Random, colours: Sequence[str], kinds: int, top: int
                  ) -> dict[str, int]:
    return {c: rng.randint(1, top) for c in rng.sample(list(colours), kinds)}


# ----- notebook 1: offering to a card ------------------------------------------------------

@register("inori.legal_offerings", game="inori", notebook=NB1,
          rule="You may offer on a free card space whose cost you can pay",
          title="Where may Player 1 offer?")
def legal_offerings(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=2, seed=seed).edition
    for attempt in range(50):
        cards = _pick_cards(rng, ed, ("start", "journey"), 3)
        spaces = [(i, j) for i, c in enumerate(cards) for j in range(len(ed.cards[c].spaces))]
        taken = rng.sample(spaces, rng.randint(2, 4))
        pool = _Pool(rng, {1: 4, NEUTRAL: 1})
        markers = {cell: [pool.take(1, 1, NEUTRAL)] for cell in taken}
        favor = {0: _random_favor(rng, ed.colours, rng.randint(1, 3), 3),
                 1: _random_favor(rng, ed.colours, 2, 2)}
        s = position(seed, 2, cards, markers, favor)
        right = frozenset((a.slot, a.space) for a in s.legal_actions()
                          if isinstance(a, OfferCard))
        blocked_by_cost = [c for c in spaces if c not in taken and c not in right]
        if right and blocked_by_cost:
            break

    def explain(cell: Cell) -> str:
        sp = ed.cards[s.slots[cell[0]][0]].spaces[cell[1]]
        return (f"it is free and {_cost_words(s, sp.cost)}; Player 1 holds "
                f"{_holding(s, 0)}")

    def refuse(cell: Cell) -> str:
        if len(cell) != 2:
            return "that is a Great Tree space; this question is about card spaces"
        sp = ed.cards[s.slots[cell[0]][0]].spaces[cell[1]]
        pay = sp.cost if sp.cost not in (None, "majority") else (
            (majority_colours(s.favor[0], ed.colours) or [None])[0] if sp.cost else None)
        return _why(s, OfferCard(cell[0], cell[1], pay)) or "not legal now"

    return SpacesExercise(
        kind="inori.legal_offerings", seed=seed,
        question=("Player 1 (marker 1) is to play and holds the favor tokens shown on the "
                  "right. Click every card space where Player 1 may make an offering now."),
        answer_kind="cells", answer=right,
        checker=_cells_checker(s, right, explain, refuse,
                               "these are the free card spaces whose cost Player 1 can pay"),
        draw=_drawer(s),
        hint=("A space must be free (no marker on it) and you must be able to pay its cost: "
              "a coloured dot means one token of that colour, 'maj' one token of your "
              "majority colour."),
        explanation=("Free spaces with no cost are always open. A space with a cost needs one "
                     "token of that colour (or of your most-held colour for 'maj')."),
        context={"state": s})


@register("inori.majority_cost", game="inori", notebook=NB1,
          rule="A majority cost is paid with a colour you hold most of (any of them on a tie)",
          title="Paying your majority colour")
def majority_cost(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=2, seed=seed).edition
    costly = sorted((c.id, j) for c in ed.cards.values() if c.type == "start"
                    for j, sp in enumerate(c.spaces) if sp.cost == "majority")
    cid, j = rng.choice(costly)
    others = [c for c in _pick_cards(rng, ed, ("start",), 4) if c != cid][:2]
    cards = others[:1] + [cid] + others[1:2]
    top = rng.randint(2, 4)
    colours = rng.sample(list(ed.colours), rng.randint(3, 5))
    tokens = {c: rng.randint(1, top - 1) for c in colours}
    for c in colours[:rng.choice([1, 1, 2, 3])]:
        tokens[c] = top
    s = position(seed, 2, cards, {}, {0: tokens})
    right = frozenset(a.pay for a in s.legal_actions()
                      if isinstance(a, OfferCard) and (a.slot, a.space) == (1, j))
    options = tuple(Option(c, ed.names[c]) for c in ed.colours)

    def check(answer: frozenset) -> Verdict:
        held = dict(zip(ed.colours, s.favor[0]))
        best = max(held.values())
        for c in sorted(answer - right):
            return Verdict(False, f"{ed.names[c]} is not a majority colour: Player 1 holds "
                           f"{held[c]} {ed.names[c]} but {best} of "
                           + " and ".join(ed.names[x] for x in sorted(right)) + ".")
        for c in sorted(right - answer):
            return Verdict(False, f"{ed.names[c]} may pay too: with {held[c]} tokens it ties "
                           f"for the colour Player 1 holds most of.")
        each = " of each" if len(right) > 1 else ""
        return Verdict(True, "Right: " + ", ".join(ed.names[c] for c in sorted(right))
                       + f" — Player 1 holds {best}{each}, more than of any other colour.")

    return Exercise(
        kind="inori.majority_cost", seed=seed,
        question=(f"Card 2, space {j + 1} costs 1 token of your majority colour. Player 1 "
                  f"holds the tokens shown on the right. With which colours may Player 1 pay?"),
        answer_kind="choices", answer=right, checker=check, options=options,
        draw=_drawer(s, [(1, j)]),
        hint="Your majority colour is the colour you hold most tokens of. Look for ties.",
        explanation="Every colour tied for the most tokens counts as your majority colour, so "
                    "any of them may pay.",
        context={"state": s})


_POINT_EFFECTS = ("points_distinct", "points_colour", "points_majority")


@register("inori.card_effect_points", game="inori", notebook=NB1,
          rule="Point effects count your tokens after you paid the space's cost",
          title="Points from a card space")
def card_effect_points(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=2, seed=seed).edition
    spots = sorted((c.id, j) for c in ed.cards.values() if c.type in ("start", "journey")
                   and c.earliest_season == 1 for j, sp in enumerate(c.spaces)
                   if sp.effect.type in _POINT_EFFECTS)
    for attempt in range(50):
        cid, j = rng.choice(spots)
        others = [c for c in _pick_cards(rng, ed, ("start",), 3) if c != cid][:2]
        cards = [cid] + others
        sp = ed.cards[cid].spaces[j]
        tokens = _random_favor(rng, ed.colours, rng.randint(2, 5), 4)
        if sp.cost not in (None, "majority"):
            tokens[sp.cost] = tokens.get(sp.cost, 0) + 1
        if sp.effect.type == "points_colour" and rng.random() < 0.7:
            tokens[sp.effect.colour] = tokens.get(sp.effect.colour, 0) + rng.randint(1, 3)
        s = position(seed, 2, cards, {}, {0: tokens})
        acts = [a for a in s.legal_actions() if isinstance(a, OfferCard)
                and (a.slot, a.space) == (0, j)]
        if acts:
            break
    act = acts[0]
    after = s.apply(act)
    points = sum(after.points[0]) - sum(s.points[0])
    # the same effect counted before paying: the usual slip
    unpaid = s.favor[0]
    eff = sp.effect
    def count(held: Sequence[int]) -> int:
        if eff.type == "points_distinct":
            return sum(1 for n in held if n)
        if eff.type == "points_colour":
            return held[ed.colours.index(eff.colour)]
        return max(held)
    before_pay = count(unpaid)
    paid = f", after paying 1 {ed.names[act.pay]}" if act.pay else ""

    def check(answer: int) -> Verdict:
        if answer == points:
            return Verdict(True, f"Right: {eff.describe(ed.names)}{paid} gives {points}.")
        if act.pay and answer == before_pay:
            return Verdict(False, f"{answer} counts the tokens before the cost is paid: "
                           f"Player 1 pays 1 {ed.names[act.pay]} first, then scores "
                           f"{points}.")
        return Verdict(False, f"Not {answer}: the effect is '{eff.describe(ed.names)}'; "
                       f"Player 1 holds {_holding(after, 0)}{paid}, which gives {points}.")

    pay_words = f" paying 1 {ed.names[act.pay]}" if act.pay else ""
    return Exercise(
        kind="inori.card_effect_points", seed=seed,
        question=(f"Player 1 offers on card 1, space {j + 1}{pay_words}. Its effect: "
                  f"{eff.describe(ed.names)}. How many points does Player 1 score for it?"),
        answer_kind="number", answer=points, checker=check, draw=_drawer(s, [(0, j)]),
        hint="Pay the cost first (if any), then count the tokens the effect names.",
        explanation=f"{eff.describe(ed.names).capitalize()}{paid}: {points} points.",
        context={"state": s, "action": act})


@register("inori.least_colour", game="inori", notebook=NB1,
          rule="'Your least-held colour' is any colour you hold fewest of, none counts",
          title="Your least-held colour")
def least_colour(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=2, seed=seed).edition
    spots = sorted((c.id, j) for c in ed.cards.values() if c.type == "start"
                   for j, sp in enumerate(c.spaces)
                   if sp.effect.type == "favor_least" and sp.cost is None)
    cid, j = rng.choice(spots)
    others = [c for c in _pick_cards(rng, ed, ("start",), 3) if c != cid][:2]
    cards = others[:1] + [cid] + others[1:2]
    low = rng.choice([0, 0, 1, 1, 2])
    tokens = {c: rng.randint(low + 1, low + 3) for c in ed.colours}
    for c in rng.sample(list(ed.colours), rng.randint(1, 3)):
        tokens[c] = low
    tokens = {c: n for c, n in tokens.items() if n}
    s = position(seed, 2, cards, {}, {0: tokens})
    mid = s.apply(OfferCard(1, j))
    right = frozenset(a.colour for a in mid.legal_actions() if isinstance(a, TakeFavor))
    options = tuple(Option(c, ed.names[c]) for c in ed.colours)
    held = dict(zip(ed.colours, s.favor[0]))

    def check(answer: frozenset) -> Verdict:
        for c in sorted(answer - right):
            return Verdict(False, f"Player 1 holds {held[c]} {ed.names[c]}, more than the "
                           f"fewest ({low}).")
        for c in sorted(right - answer):
            return Verdict(False, f"{ed.names[c]} fits too: Player 1 holds {held[c]}, as few "
                           f"as of any colour.")
        each = " each" if len(right) > 1 else ""
        return Verdict(True, "Right: " + ", ".join(ed.names[c] for c in sorted(right))
                       + f" — {low}{each}, the fewest Player 1 holds.")

    return Exercise(
        kind="inori.least_colour", seed=seed,
        question=(f"Player 1 offers on card 2, space {j + 1}: gain 1 favor of your least-held "
                  f"colour. Which colours may Player 1 choose?"),
        answer_kind="choices", answer=right, checker=check, options=options,
        draw=_drawer(s, [(1, j)]),
        hint="Count every colour, also the ones Player 1 holds none of.",
        explanation="Any colour tied for the fewest tokens may be chosen; a colour you hold "
                    "none of counts as 0.",
        context={"state": s})


# ----- notebook 2: the Great Tree and the runes --------------------------------------------

@register("inori.tree_offerings", game="inori", notebook=NB2,
          rule="A free tree space is free to use until its altar is placed; then it costs "
               "1 token of the altar colour; an emptied root space is closed",
          title="Where on the Great Tree?")
def tree_offerings(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=2, seed=seed).edition
    altar_spaces = [t for t, sp in enumerate(ed.tree) if sp.altar]
    roots = root_spaces(ed)
    for attempt in range(50):
        placed = rng.sample(altar_spaces, rng.randint(2, 4))
        colours = rng.sample(list(ed.altar_colours), len(placed))
        altars = dict(zip(placed, colours))
        busy = rng.sample(altar_spaces + list(roots), 2)
        tree = {t: 1 for t in busy}
        emptied = {rng.randrange(len(roots)): 1}
        tokens = {c: rng.randint(1, 2) for c in rng.sample(colours, rng.randint(1, 2))}
        s = position(seed, 2, _pick_cards(rng, ed, ("start",), 3), {}, {0: tokens},
                     tree=tree, altars=altars, emptied_roots=emptied)
        right = frozenset((a.space,) for a in s.legal_actions() if isinstance(a, OfferTree))
        costly = [t for t in placed if t not in busy and (t,) not in right]
        if right and costly:
            break

    def explain(cell: Cell) -> str:
        t = cell[0]
        altar = s.altars[t]
        if altar:
            return (f"it has the {ed.names[altar]} altar and Player 1 holds "
                    f"{s.favor[0][ed.colours.index(altar)]} {ed.names[altar]} to pay 1")
        if not ed.tree[t].altar:
            return "it is a root space that still holds its set-aside tokens"
        return "it has no altar yet, so it is free"

    def refuse(cell: Cell) -> str:
        if len(cell) != 1:
            return "that is a card space; this question is about the Great Tree"
        t = cell[0]
        return _why(s, OfferTree(t, s.altars[t])) or "not legal now"

    return SpacesExercise(
        kind="inori.tree_offerings", seed=seed,
        question=("Player 1 (marker 1) is to play. Click every Great Tree space where "
                  "Player 1 may offer now."),
        answer_kind="cells", answer=right,
        checker=_cells_checker(s, right, explain, refuse,
                               "free spaces without an altar, root spaces with tokens left, "
                               "and altar spaces whose colour Player 1 can pay"),
        draw=_drawer(s),
        hint=("A space with an altar (its colour is written in it) costs 1 token of that "
              "colour. A root space whose tokens are gone takes no more offerings."),
        explanation=("Empty altar spaces are free (you then place an altar). Once an altar is "
                     "there, pay 1 token of its colour. Root spaces are free while their "
                     "set-aside tokens last."),
        context={"state": s})


@register("inori.altar_offer_result", game="inori", notebook=NB2,
          rule="Offering on a tree space with an altar: pay 1 of its colour, then take its "
               "effect in that colour",
          title="What an altar space gives")
def altar_offer_result(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=2, seed=seed).edition
    usable = [t for t, sp in enumerate(ed.tree) if sp.altar and sp.effect.type in
              ("points", "points_altar_colour", "altar_favor", "rune_and_altar_favor")]
    t = rng.choice(usable)
    colour = rng.choice(ed.altar_colours)
    tokens = _random_favor(rng, [c for c in ed.colours if c != colour], 2, 3)
    tokens[colour] = rng.randint(1, 4)
    s = position(seed, 2, _pick_cards(rng, ed, ("start",), 3), {}, {0: tokens},
                 altars={t: colour})
    act = OfferTree(t, colour)
    after = s.apply(act)
    k = ed.colours.index(colour)
    eff = ed.tree[t].effect
    asks_points = eff.type in ("points", "points_altar_colour")
    answer = sum(after.points[0]) - sum(s.points[0]) if asks_points else after.favor[0][k]
    # the slip: forgetting to pay the altar's cost first
    unpaid = (s.favor[0][k] if eff.type == "points_altar_colour" else answer) if asks_points \
        else answer + ed.altar_cost
    name = ed.names[colour]

    def check(value: int) -> Verdict:
        if value == answer:
            return Verdict(True, f"Right: pay {ed.altar_cost} {name}, then "
                           f"{eff.describe(ed.names, colour)}: {answer}.")
        if value == unpaid and unpaid != answer:
            return Verdict(False, f"{value} forgets the cost: Player 1 first pays "
                           f"{ed.altar_cost} {name} to the altar, which leaves "
                           f"{s.favor[0][k] - ed.altar_cost}; the answer is {answer}.")
        return Verdict(False, f"Not {value}: Player 1 holds {s.favor[0][k]} {name}, pays "
                       f"{ed.altar_cost}, then {eff.describe(ed.names, colour)}: {answer}.")

    what = "How many points does Player 1 score for it?" if asks_points else \
        f"How many {name} tokens does Player 1 hold afterwards?"
    return Exercise(
        kind="inori.altar_offer_result", seed=seed,
        question=(f"The {name} altar stands beside Great Tree space {ed.tree[t].id} "
                  f"({eff.describe(ed.names, colour)}). Player 1 offers there. {what}"),
        answer_kind="number", answer=answer, checker=check, draw=_drawer(s, [(t,)]),
        hint="An altar space is not free any more: pay first, then take the effect.",
        explanation=f"Player 1 pays {ed.altar_cost} {name}, then the effect "
                    f"({eff.describe(ed.names, colour)}) gives the answer {answer}.",
        context={"state": s, "action": act})


@register("inori.rune_move_targets", game="inori", notebook=NB2,
          rule="A moving rune takes your marker from another card to a free space on a card "
               "of the rune's colour",
          title="Where can the rune move your marker?")
def rune_move_targets(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=2, seed=seed).edition
    movers = sorted(r.id for r in ed.runes.values() if r.kind == "move_to_colour")
    for attempt in range(50):
        rid = rng.choice(movers)
        colour = ed.runes[rid].colour
        own = [c.id for c in ed.cards.values() if c.colour == colour
               and c.earliest_season == 1 and len(c.spaces) >= 3]
        first = rng.choice(sorted(own))
        rest = [c for c in _pick_cards(rng, ed, ("start", "journey"), 4)
                if c != first and ed.cards[c].earliest_season == 1][:2]
        cards = rest[:1] + [first] + rest[1:]
        rng.shuffle(cards)
        spaces = [(i, j) for i, c in enumerate(cards) for j in range(len(ed.cards[c].spaces))]
        away = [c for c in spaces if ed.cards[cards[c[0]]].colour != colour]
        if not away:
            continue
        mine = rng.choice(away)
        others = rng.sample([c for c in spaces if c != mine], 3)
        pool = _Pool(rng, {1: 4, NEUTRAL: 2})
        markers = {mine: [0], **{c: [pool.take(1, NEUTRAL)] for c in others}}
        s = position(seed, 2, cards, markers, {}, runes={0: [rid]})
        right = frozenset((a.to_slot, a.to_space) for a in s.legal_actions()
                          if isinstance(a, RuneMove))
        if right:
            break
    name = ed.names[colour]

    def explain(cell: Cell) -> str:
        return f"it is a free space on a {name} card"

    def refuse(cell: Cell) -> str:
        if len(cell) != 2:
            return "the rune moves a marker between cards, not onto the Great Tree"
        i, j = cell
        card = ed.cards[s.slots[i][0]]
        if s.slots[i][1][j]:
            return "that space is taken"
        if card.colour != colour:
            return f"card {i + 1} is a {ed.names[card.colour]} card, not {name}"
        return "the marker must come from another card"

    return SpacesExercise(
        kind="inori.rune_move_targets", seed=seed,
        question=(f"Player 1 plays the rune 'move a marker onto a {name} card'. Player 1 has "
                  f"one marker on the cards (marked 1). Click every space it may move to."),
        answer_kind="cells", answer=right,
        checker=_cells_checker(s, right, explain, refuse,
                               f"the free spaces of the {name} cards"),
        draw=_drawer(s),
        hint=f"Look at the colour bar on top of each card: only {name} cards, only free "
             f"spaces.",
        explanation=(f"The marker leaves its card for any free space of a {name} card. It "
                     f"pays no cost and takes no effect there (a labelled choice)."),
        context={"state": s})


@register("inori.occupied_rune_spaces", game="inori", notebook=NB2,
          rule="The occupied-space rune lets you offer on a space another player holds "
               "(not yours, not a neutral marker), paying its cost as usual",
          title="Offering on an occupied space")
def occupied_rune_spaces(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=3, seed=seed).edition
    rid = sorted(r.id for r in ed.runes.values() if r.kind == "offer_occupied")[0]
    for attempt in range(50):
        cards = _pick_cards(rng, ed, ("start", "journey"), 3)
        spaces = [(i, j) for i, c in enumerate(cards) for j in range(len(ed.cards[c].spaces))]
        taken = rng.sample(spaces, rng.randint(5, 7))
        pool = _Pool(rng, {0: 2, 1: 3, 2: 3, NEUTRAL: 2})
        markers = {cell: [pool.take(0, 1, 1, 2, 2, NEUTRAL)] for cell in taken}
        favor = {0: _random_favor(rng, ed.colours, rng.randint(1, 3), 2)}
        s = position(seed, 3, cards, markers, favor, runes={0: [rid]})
        right = frozenset((a.slot, a.space) for a in s.legal_actions()
                          if isinstance(a, RuneOffer))
        wrong = [c for c in taken if c not in right and markers[c] != [0]]
        if right and wrong:
            break

    def explain(cell: Cell) -> str:
        who = s.slots[cell[0]][1][cell[1]][0]
        sp = ed.cards[s.slots[cell[0]][0]].spaces[cell[1]]
        return f"Player {who + 1} holds it and it {_cost_words(s, sp.cost)}, which Player 1 " \
               f"can pay"

    def refuse(cell: Cell) -> str:
        if len(cell) != 2:
            return "the rune is for card spaces, not the Great Tree"
        i, j = cell
        occ = s.slots[i][1][j]
        if not occ:
            return "that space is free: offer there as usual, no rune needed"
        sp = ed.cards[s.slots[i][0]].spaces[j]
        pay = sp.cost if sp.cost not in (None, "majority") else (
            (majority_colours(s.favor[0], ed.colours) or [None])[0] if sp.cost else None)
        return _why(s, RuneOffer(rid, i, j, pay)) or "not legal now"

    return SpacesExercise(
        kind="inori.occupied_rune_spaces", seed=seed,
        question=("Player 1 (marker 1) plays the rune 'offer on a space held by another "
                  "player'. Click every card space where Player 1 may now make this turn's "
                  "offering with it."),
        answer_kind="cells", answer=right,
        checker=_cells_checker(s, right, explain, refuse,
                               "spaces held by another player whose cost Player 1 can pay"),
        draw=_drawer(s),
        hint="Look for spaces with a marker of another player (not 1, not N for neutral), "
             "then check the cost against Player 1's tokens.",
        explanation="The rune opens spaces held by other players; your own spaces and the "
                    "neutral markers' stay closed, and the cost is paid as usual (a labelled "
                    "reading of the rune).",
        context={"state": s})


@register("inori.rune_timing", game="inori", notebook=NB2,
          rule="Favor runes may be played at any moment, also when a season ends; the others "
               "only at the start of your turn",
          title="Which runes can be played now?")
def rune_timing(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=2, seed=seed).edition
    gains = sorted(r.id for r in ed.runes.values() if r.any_time)
    movers = sorted(r.id for r in ed.runes.values() if r.kind == "move_to_colour")
    occupied = sorted(r.id for r in ed.runes.values() if r.kind == "offer_occupied")
    moment = seed % 3            # 0: start of the turn, 1: after the offering, 2: season end
    held = rng.sample(gains, rng.randint(1, 2)) + rng.sample(
        [rng.choice(movers), rng.choice(occupied)], rng.randint(1, 2))
    quiet = ("favor", "points_distinct", "points_colour", "points_majority")

    def offer(state: GameState) -> OfferCard:
        """An offering whose effect asks nothing more (so the moment asked about comes)."""
        ed_ = state.edition
        return min((a for a in state.legal_actions() if isinstance(a, OfferCard) and
                    ed_.cards[state.slots[a.slot][0]].spaces[a.space].effect.type in quiet),
                   key=lambda a: (a.slot, a.space))
    quiet_cards = sorted(c.id for c in ed.cards.values() if c.type == "start"
                         and c.spaces[1].effect.type in quiet and c.spaces[1].cost is None)
    cards = rng.sample(quiet_cards, 1) + [c for c in _pick_cards(rng, ed, ("start",), 3)
                                          if c not in quiet_cards][:2]
    while len(cards) < 3:
        cards.append(next(c for c in ed.start_ids if c not in cards))
    who = 1 if moment == 2 else 0
    markers = {(0, 0): [who], (1, 0): [1 - who], (2, 0): [1 - who]}
    if moment == 2:
        s = position(seed, 2, cards, markers, {}, runes={who: held}, hands={0: 1, 1: 0})
        s = s.apply(offer(s))
        when = ("Player 1 has just placed the last marker of the season. Before the cards "
                "are scored, Player 2 is asked")
    else:
        s = position(seed, 2, cards, markers, {}, runes={who: held})
        if moment == 1:
            s = s.apply(offer(s))
            when = "Player 1 has already made this turn's offering"
        else:
            when = "It is the start of Player 1's turn"
    player = s.current_player
    right = frozenset(a.rune for a in s.legal_actions()
                      if isinstance(a, (RuneGain, RuneMove, RuneOffer)))
    runes = sorted(s.rune_hands[player])
    def label(r: str) -> str:
        words = ed.runes[r].describe(ed.names)
        return words[0].upper() + words[1:]

    options = tuple(Option(r, label(r)) for r in runes)

    def reason(r: str) -> str:
        rune = ed.runes[r]
        return f"'{rune.describe(ed.names)}' may be played {rune.timing_words()}"

    def check(answer: frozenset) -> Verdict:
        for r in sorted(answer - right):
            if moment == 0 or ed.runes[r].any_time:
                return Verdict(False, f"Not this one: {reason(r)}, but in this position it "
                               f"has nothing to act on.")
            return Verdict(False, f"Not now: {reason(r)} — that moment has passed.")
        for r in sorted(right - answer):
            return Verdict(False, f"You missed one: {reason(r)}.")
        return Verdict(True, "Right: " + ("; ".join(reason(r) for r in sorted(right))
                                          or "no rune fits this moment") + ".")

    return Exercise(
        kind="inori.rune_timing", seed=seed,
        question=(f"{when}. {s.player_name(player)} holds the runes listed below. Which of "
                  f"them may {s.player_name(player)} play now?"),
        answer_kind="choices", answer=right, checker=check, options=options,
        draw=_drawer(s),
        hint="Favor runes can be played at any moment; the others only at the start of your "
             "own turn, before your offering.",
        explanation="In the reference edition (a labelled choice) the six favor runes are "
                    "played at any moment, even just before a season is scored; moving and "
                    "occupied-space runes only at the start of your own turn.",
        context={"state": s})


# ----- notebook 3: seasons and majorities --------------------------------------------------

def _season_position(rng: random.Random, seed: int, players: int, season: int = 1
                     ) -> GameState:
    """Three cards, some complete, some not, and a few tokens per player."""
    ed = new_game(players=players, seed=seed).edition
    kinds = [c.id for c in ed.cards.values() if c.type in ("start", "journey")
             and 2 <= len(c.spaces) <= 3 and c.earliest_season <= season]
    cards = rng.sample(sorted(kinds), 3)
    markers: dict[tuple[int, int], list[int]] = {}
    complete = rng.sample(range(3), rng.choice([1, 2, 2]))
    per_season = new_game(players=players, seed=seed).schedule[season - 1]
    pool = _Pool(rng, {**{p: per_season for p in range(players)}, NEUTRAL: 2})
    for i, cid in enumerate(cards):
        n = len(ed.cards[cid].spaces)
        filled = range(n) if i in complete else rng.sample(range(n), rng.randint(1, n - 1))
        for j in filled:
            markers[(i, j)] = [pool.take(*range(players), *([NEUTRAL] * (i % 2)))]
    if not any(0 in m for m in markers.values()):
        first = next(c for c in sorted(markers) if markers[c] != [NEUTRAL])
        markers[first] = [0]
    favor = {p: _random_favor(rng, [ed.cards[c].colour for c in cards] + ["fire"], 2, 3)
             for p in range(players)}
    return position(seed, players, cards, markers, favor, season=season)


@register("inori.season_score", game="inori", notebook=NB3,
          rule="At a season's end a complete card gives each player on it 1 point per token "
               "of its colour, once; an incomplete card gives nothing",
          title="Season-end points")
def season_score(seed: int) -> Exercise:
    rng = random.Random(seed)
    s = _season_position(rng, seed, 2)
    ed = s.edition
    pv = season_end_preview(s)
    total = pv["card_points"][0]
    parts = []
    for c in pv["cards"]:
        card = ed.cards[c["card"]]
        k = ed.colours.index(card.colour)
        held = s.favor[0][k]
        if 0 not in c["present"]:
            parts.append((c, 0, f"card {c['slot'] + 1} has no marker of Player 1"))
        elif c["complete"]:
            parts.append((c, held, f"card {c['slot'] + 1} ({ed.names[card.colour]}) is "
                          f"complete: {held} {ed.names[card.colour]} = {held}"))
        else:
            parts.append((c, c["points"].get(0, 0), f"card {c['slot'] + 1} is incomplete: it "
                          f"scores nothing"))

    def check(answer: int) -> Verdict:
        detail = "; ".join(p[2] for p in parts)
        if answer == total:
            return Verdict(True, f"Right: {detail}. In all {total}.")
        for c, pts, words in parts:
            if pts and answer == total - pts:
                return Verdict(False, f"You missed a card: {words}.")
        for c, pts, words in parts:
            if not c["complete"] and 0 in c["present"]:
                would = s.favor[0][ed.colours.index(ed.cards[c["card"]].colour)]
                if would and answer == total + would:
                    return Verdict(False, f"Too many: {words}.")
        return Verdict(False, f"Not {answer}: {detail}. In all {total}.")

    return Exercise(
        kind="inori.season_score", seed=seed,
        question=("The season ends now, with the markers as drawn. How many points does "
                  "Player 1 (marker 1) score from the cards?"),
        answer_kind="number", answer=total, checker=check, draw=_drawer(s),
        hint="Only complete cards score (every space holds a marker, neutral ones too). On "
             "such a card, count your tokens of the card's colour, once.",
        explanation="; ".join(p[2] for p in parts) + f". In all {total}.",
        context={"state": s})


@register("inori.next_card_colour", game="inori", notebook=NB3,
          rule="A complete card is replaced by one of its top-right colour, an incomplete "
               "one by one of its bottom-right colour",
          title="The card that comes next")
def next_card_colour(seed: int) -> Exercise:
    rng = random.Random(seed)
    s = _season_position(rng, seed, 2)
    ed = s.edition
    slot = rng.randrange(3)
    cid, spaces = s.slots[slot]
    card = ed.cards[cid]
    result = score_card(ed, cid, spaces, s.favor)
    right = result["next_colour"]
    options = tuple(Option(c, ed.names[c]) for c in ed.colours)
    status = "complete" if result["complete"] else "incomplete"
    corner = "top-right" if result["complete"] else "bottom-right"

    def check(answer: str) -> Verdict:
        if answer == right:
            return Verdict(True, f"Right: card {slot + 1} is {status}, so it is replaced by a "
                           f"card of its {corner} colour, {ed.names[right]}.")
        other = card.incomplete_colour if result["complete"] else card.complete_colour
        if answer == other:
            return Verdict(False, f"{ed.names[answer]} is the other corner: card {slot + 1} "
                           f"is {status}, so its {corner} colour counts.")
        return Verdict(False, f"Card {slot + 1} is {status}: the new card has its {corner} "
                       f"colour, not {ed.names[answer]}.")

    return Exercise(
        kind="inori.next_card_colour", seed=seed,
        question=(f"The season ends now. What colour is the card that replaces card "
                  f"{slot + 1}?"),
        answer_kind="choice", answer=right, checker=check, options=options,
        draw=_drawer(s, [("slot", slot)]),
        hint="Is every space of the card taken? Then look at the top-right square; if not, "
             "the bottom-right one.",
        explanation=f"Card {slot + 1} is {status}; its {corner} square shows "
                    f"{ed.names[right]}.",
        context={"state": s})


@register("inori.majority_points", game="inori", notebook=NB3,
          rule="After the last season each altar pays its 1st and 2nd place; all tied for 1st "
               "score 1st and nobody 2nd, all tied for 2nd score 2nd",
          title="Altar majorities")
def majority_points(seed: int) -> Exercise:
    rng = random.Random(seed)
    ed = new_game(players=3, seed=seed).edition
    altar_spaces = [t for t, sp in enumerate(ed.tree) if sp.altar]
    for attempt in range(50):
        spaces = rng.sample(altar_spaces, rng.randint(2, 3))
        colours = rng.sample(list(ed.altar_colours), len(spaces))
        favor = {p: {c: rng.choice([0, 1, 2, 2, 3, 3]) for c in colours} for p in range(3)}
        who = rng.randrange(3)
        s = position(seed, 3, _pick_cards(rng, ed, ("start",), 3), {}, favor,
                     altars=dict(zip(spaces, colours)), season=4)
        results = score_majorities(ed, s.altars, s.favor)
        total = sum(m["points"].get(who, 0) for m in results)
        if total or attempt > 10:
            break
    parts = []
    for m in results:
        name = ed.names[m["colour"]]
        mine = m["counts"][who]
        place = "1st" + (" (tied)" if len(m["first"]) > 1 else "") if who in m["first"] else \
            "2nd" + (" (tied)" if len(m["second"]) > 1 else "") if who in m["second"] else \
            "no place"
        pts = m["points"].get(who, 0)
        parts.append((pts, f"{ed.tree[m['space']].id} ({name}): {mine} tokens, {place}, "
                           f"{pts} points"))
    player = f"Player {who + 1}"

    def check(answer: int) -> Verdict:
        detail = "; ".join(p[1] for p in parts)
        if answer == total:
            return Verdict(True, f"Right: {detail}.")
        for pts, words in parts:
            if pts and answer == total - pts:
                return Verdict(False, f"You missed an altar: {words}.")
        return Verdict(False, f"Not {answer}: {detail}. In all {total}.")

    return Exercise(
        kind="inori.majority_points", seed=seed,
        question=(f"The game is ending. Each altar on the Great Tree pays 6 points for 1st "
                  f"place and 3 for 2nd in its colour. How many majority points does "
                  f"{player} (marker {who + 1}) score?"),
        answer_kind="number", answer=total, checker=check,
        draw=_drawer(s, [(m["space"],) for m in results]),
        hint="Do each altar on its own: who holds most of its colour? A tie for 1st leaves "
             "nobody 2nd. Holding none of a colour never places.",
        explanation="; ".join(p[1] for p in parts) + f". In all {total}.",
        context={"state": s, "player": who})


@register("inori.new_start_chooser", game="inori", notebook=NB3,
          rule="After a season's scoring the player with the fewest points keeps a New Start "
               "card and plays first",
          title="Who plays first next season?")
def new_start_chooser(seed: int) -> Exercise:
    rng = random.Random(seed)
    players = rng.choice([3, 4])
    s = _season_position(rng, seed, players)
    ed = s.edition
    pts = [rng.randint(2, 9) for _ in range(players)]
    if rng.random() < 0.4:
        a, b = rng.sample(range(players), 2)
        pts[a] = pts[b] = min(pts)
    s = replace(s, points=tuple((p, 0, 0, 0) for p in pts), first_player=0, turn=0)
    # the engine's own season end on the position as drawn
    end = end_season_now(s)
    chooser = end.reports[-1]["lowest"]
    totals = [sum(p) for p in end.points]
    options = tuple(Option(str(p), f"Player {p + 1}") for p in range(players))
    low = min(totals)
    tied = [p for p in range(players) if totals[p] == low]

    def check(answer: str) -> Verdict:
        p = int(answer)
        if p == chooser:
            tie = (" Players " + " and ".join(str(q + 1) for q in tied) + " tie, and the one "
                   "latest in the season's turn order chooses (a labelled choice).") \
                if len(tied) > 1 else ""
            return Verdict(True, f"Right: Player {p + 1} has the fewest points after the "
                           f"scoring ({low}).{tie}")
        if p in tied:
            return Verdict(False, f"Player {p + 1} ties for the fewest points, but on a tie "
                           f"the player latest in the season's turn order chooses: Player "
                           f"{chooser + 1}.")
        return Verdict(False, f"Player {p + 1} ends the scoring with {totals[p]} points; "
                       f"Player {chooser + 1} has fewer ({low}).")

    return Exercise(
        kind="inori.new_start_chooser", seed=seed,
        question=("The season ends now: the cards are scored and then added to the points "
                  "shown on the right. Who keeps a New Start card and plays first next season?"),
        answer_kind="choice", answer=str(chooser), checker=check, options=options,
        draw=_drawer(s),
        hint="Score the complete cards first, then compare the totals. Season 1 was played "
             "from Player 1 onwards.",
        explanation=f"After the scoring the totals are "
                    + ", ".join(f"Player {p + 1} {n}" for p, n in enumerate(totals))
                    + f"; Player {chooser + 1} chooses.",
        context={"state": s, "end": end})


@register("inori.markers_per_season", game="inori", notebook=NB3,
          rule="Each player gains one marker at each season end (none at the first end with "
               "4 players)",
          title="Markers per season")
def markers_per_season(seed: int) -> Exercise:
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4])
    season = rng.randint(2, 4)
    state = new_game(players=players, seed=seed)
    answer = state.schedule[season - 1]
    first = state.schedule[0]
    gains = [b - a for a, b in zip(state.schedule, state.schedule[1:])][:season - 1]

    def check(value: int) -> Verdict:
        steps = " + ".join(str(g) for g in gains)
        why = (f"{first} in season 1, then {steps} at the season ends so far "
               f"= {answer}")
        if value == answer:
            return Verdict(True, f"Right: {why}.")
        if players == 4 and value == answer + 1:
            return Verdict(False, f"With 4 players the first season end gives no new marker: "
                           f"{why}.")
        return Verdict(False, f"Not {value}: {why}.")

    return Exercise(
        kind="inori.markers_per_season", seed=seed,
        question=(f"In a {players}-player game each player starts season 1 with {first} "
                  f"markers. How many markers does each player place in season {season}?"),
        answer_kind="number", answer=answer, checker=check, draw=None,
        hint="One new marker at each season end; with 4 players, none at the first one.",
        explanation=f"The schedule for {players} players is "
                    + "/".join(map(str, state.schedule)) + " markers in seasons 1 to 4.",
        context={"state": state})
