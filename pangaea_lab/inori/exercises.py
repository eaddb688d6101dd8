"""Exercise generators for Inori (see :mod:`pangaea_lab.core.exercises`): each registered kind
builds a position from a seed and a level with the rules engine, and the engine answers it.

Positions are real game states (every card, token, marker and rune is somewhere, so
``check_invariants`` holds), drawn with :func:`.render.board_svg`, where a card space is the
cell ``(slot, space)`` and a Great Tree space the cell ``(space,)``.  Level 1 puts the rule on
its own in a small position; level 2 adds what a game has around it (more players, neutral
markers, ties, costs).  A wrong answer is told what is wrong in it (the space the rules refuse
and why, the card scored twice, the option that breaks a rule), never the right answer; the
hints go from where to look to the rule applied to this position.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..core.errors import IllegalAction
from ..core.exercises import (Exercise, Option, Verdict, a as article, cells_verdict,
                               choice_verdict, choices_verdict, number_verdict, plural,
                               register)
from .actions import (BlockSpace, OfferCard, OfferTree, RuneGain, RuneMove, RuneOffer,
                      TakeFavor)
from .board import NEUTRAL, root_spaces
from .edition import load_edition
from .render import board_svg
from .rules import end_season_now
from .scoring import (is_complete, majority_colours, score_majorities, season_end_preview,
                      winners)
from .setup import deal_start_cards, new_game
from .state import GameState
from .game import GAME

NB1 = "inori/01_setup_and_turns.ipynb"
NB2 = "inori/02_great_tree_and_runes.ipynb"
NB3 = "inori/03_seasons_and_majorities.ipynb"

Cell = tuple
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


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
        free = [t for t in _altar_spaces(ed) if tree_markers[t] is None and t not in altars]
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


def _rng(key: str, seed: int, level: int) -> random.Random:
    """The random numbers of one exercise: the same (kind, seed, level), the same position."""
    return random.Random(f"inori.{key}/{seed}/{level}")


def _holding(state: GameState, player: int) -> str:
    ed = state.edition
    parts = [f"{n} {ed.names[c]}" for c, n in zip(ed.colours, state.favor[player]) if n]
    return ", ".join(parts) or "no favor tokens"


def _why(state: GameState, action: Any) -> str:
    """The engine's reason for refusing ``action``, as a sentence for a wrong click."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        return str(exc).split(" (rule:")[0] + "."
    return "not legal now."


def _pay_for(state: GameState, cost: str | None, player: int = 0) -> str | None:
    """What a player would pay for a space of this cost (a majority colour when one is held)."""
    if cost != "majority":
        return cost
    return (majority_colours(state.favor[player], state.edition.colours) or [None])[0]


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
    return "a space that is not on this board"


def card_words(state: GameState, slot: int) -> str:
    """A card in words without digits (so a number answer is never read in them): "the
    second card (Water)"."""
    colour = state.edition.cards[state.slots[slot][0]].colour
    return f"the {ORDINALS[slot]} card ({state.edition.names[colour]})"


def _join(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


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


def _spaces_checker(state: GameState, right: frozenset,
                    refuse: Callable[[Cell], tuple[str, str]], missed: str,
                    what: str) -> Callable[[frozenset], Verdict]:
    """:func:`cells_verdict` for "click every space where ..." with the spaces said in words
    ("card 2, space 3", "Great Tree space T4"): ``refuse(cell)`` gives (misconception name,
    the engine's reason as a sentence) for a wrong space; ``missed`` names no space."""
    return lambda answer: cells_verdict(answer, right, refuse=refuse, missed=missed,
                                        words=lambda cell: cell_name(state, cell),
                                        right_reason=f"Right: {what}.")


class _Pool:
    """Who stands on the spaces of a made-up position: at most the season's markers per
    player and the neutral markers."""

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


def _pick_cards(rng: random.Random, ed, kinds: Sequence[str], n: int,
                spaces: tuple[int, int] = (3, 4)) -> list[str]:
    ids = [c.id for c in ed.cards.values() if c.type in kinds
           and spaces[0] <= len(c.spaces) <= spaces[1] and c.earliest_season == 1]
    return rng.sample(sorted(ids), n)


def _starts_besides(rng: random.Random, ed, avoid: Iterable[str]) -> list[str]:
    """Up to two start cards to go with the one an exercise is about (none of ``avoid``)."""
    avoid = set(avoid)
    return [c for c in _pick_cards(rng, ed, ("start",), 3) if c not in avoid][:2]


def _card_spaces(ed, cards: Sequence[str]) -> list[Cell]:
    """Every space of the cards in the slots, as cells (slot, space)."""
    return [(i, j) for i, c in enumerate(cards) for j in range(len(ed.cards[c].spaces))]


def _altar_spaces(ed) -> list[int]:
    """The Great Tree spaces that take an altar (the others are root spaces)."""
    return [t for t, sp in enumerate(ed.tree) if sp.altar]


def _random_favor(rng: random.Random, colours: Sequence[str], kinds: int, top: int,
                  low: int = 1) -> dict[str, int]:
    pool = list(dict.fromkeys(colours))
    return {c: rng.randint(low, top) for c in rng.sample(pool, min(kinds, len(pool)))}


# ----- notebook 1: setup and offering to a card --------------------------------------------

def _offer_position(rng: random.Random, seed: int, level: int) -> tuple[GameState, frozenset]:
    """Three cards with some spaces taken and Player 1 holding a few tokens; some free spaces
    Player 1 can pay for and some not."""
    ed = load_edition()
    players = 2 if level == 1 else rng.choice([2, 3])
    for _ in range(80):
        kinds = ("start",) if level == 1 else ("start", "journey")
        cards = _pick_cards(rng, ed, kinds, 3)
        spaces = _card_spaces(ed, cards)
        taken = rng.sample(spaces, rng.randint(1, 2) if level == 1 else rng.randint(3, 5))
        others = list(range(1, players)) + ([] if level == 1 else [NEUTRAL])
        pool = _Pool(rng, {**{p: 3 for p in range(1, players)}, NEUTRAL: 2})
        markers = {cell: [pool.take(*others)] for cell in taken}
        favor = {0: _random_favor(rng, ed.colours, rng.randint(1, 2 if level == 1 else 3),
                                  2 if level == 1 else 3)}
        s = position(seed, players, cards, markers, favor)
        right = frozenset((x.slot, x.space) for x in s.legal_actions()
                          if isinstance(x, OfferCard))
        if right and any(c not in taken and c not in right for c in spaces):
            return s, right
    raise ValueError("no offering position found")


@register("inori.legal_offerings", game=GAME.name, notebook=NB1,
          rule="You may offer on a free card space whose cost you can pay",
          title="Where may Player 1 offer?",
          levels=("start cards, one or two spaces taken, a few tokens",
                  "journey cards too, neutral markers and more players"))
def legal_offerings(seed: int, level: int = 1) -> Exercise:
    s, right = _offer_position(_rng("legal_offerings", seed, level), seed, level)
    ed = s.edition
    costly = [(i, j) for i, (cid, occ) in enumerate(s.slots) for j, sp in
              enumerate(ed.cards[cid].spaces) if sp.cost and not occ[j]]

    def refuse(cell: Cell) -> tuple[str, str]:
        if len(cell) != 2:
            return "tree-not-card", "this question asks about the cards, not the Great Tree."
        sp = ed.cards[s.slots[cell[0]][0]].spaces[cell[1]]
        why = _why(s, OfferCard(cell[0], cell[1], _pay_for(s, sp.cost)))
        return "taken-space" if s.slots[cell[0]][1][cell[1]] else "cost-not-paid", why

    def cost_of(cell: Cell) -> str:
        cost = ed.cards[s.slots[cell[0]][0]].spaces[cell[1]].cost
        return ed.names.get(cost, "majority colour")

    listed = _join([f"{cell_name(s, c)} ({cost_of(c)})" for c in costly])
    return SpacesExercise(
        kind="inori.legal_offerings", seed=seed,
        question=("Player 1 (marker 1) is to play and holds the favor tokens shown on the "
                  "right. Click every card space where Player 1 may make an offering now."),
        answer_kind="cells", answer=right,
        checker=_spaces_checker(s, right, refuse, "A card space Player 1 may use is not "
                                "clicked yet: every free space whose cost Player 1 can pay "
                                "counts, also the spaces with no cost.",
                                "these are the free card spaces whose cost Player 1 can pay"),
        draw=_drawer(s),
        hints=(f"Two things decide: the space must be free (no marker on it), and Player 1 "
               f"must be able to pay its cost. Player 1 holds {_holding(s, 0)}.",
               f"The free spaces with a cost are marked: {listed}. Compare each cost with "
               f"Player 1's tokens ('maj' is the colour Player 1 holds most of); a free space "
               f"with no cost is always open."),
        hint_marks=((), tuple(costly)),
        explanation=("A free space with no cost is always open. A space with a cost needs one "
                     "token of that colour, or of your most-held colour for 'maj'; a space "
                     "with a marker on it is taken."),
        context={"state": s})


def _colour_counts(rng: random.Random, ed, level: int, extreme: str) -> dict[str, int]:
    """Tokens for Player 1 with the most (``extreme="most"``) or the fewest held colour
    shared by one or more colours, and near misses one token away."""
    ties = rng.choice([1, 1, 2]) if level == 1 else rng.choice([1, 2, 2, 3])
    if extreme == "most":
        colours = rng.sample(list(ed.colours), rng.randint(2, 3) if level == 1 else
                             rng.randint(4, 6))
        top = rng.randint(2, 4) if level == 1 else rng.randint(3, 5)
        tokens = {c: rng.randint(1, top - 1) for c in colours}
    else:
        top = rng.randint(1, 2) if level == 1 else rng.choice([0, 0, 1])
        tokens = {c: rng.randint(top + 1, top + 3) for c in ed.colours}
    for c in rng.sample(list(tokens), min(ties, len(tokens))):
        tokens[c] = top
    return {c: n for c, n in tokens.items() if n}


def _colour_why_not(s: GameState, extreme: str) -> Callable[[str], tuple[str, str]]:
    """Why a picked colour is not a majority (or least-held) colour of Player 1: the
    misconception it shows and the reason."""
    ed = s.edition
    held = dict(zip(ed.colours, s.favor[0]))
    have = [n for n in held.values() if n]

    def why_not(c: str) -> tuple[str, str]:
        name = ed.names[c]
        if extreme == "most":
            if not held[c]:
                return ("paid-unheld-colour", f"Player 1 holds no {name} tokens, so {name} "
                        f"cannot pay anything.")
            return ("not-the-most", f"Player 1 holds {plural(held[c], name + ' token')}, and "
                    f"another colour is held more: a majority cost is paid with a colour held "
                    f"most of.")
        if held[c] == min(have) and min(held.values()) == 0:
            return ("ignored-zero-colours", f"{name} is the fewest among the colours Player 1 "
                    f"has, but a colour Player 1 holds none of counts too, as 0.")
        return ("not-the-least", f"Player 1 holds {plural(held[c], name + ' token')}, and "
                f"another colour is held fewer times: the least-held colour is one held "
                f"fewest of.")
    return why_not


def _colour_card(rng: random.Random, ed, test: Callable[[Any], bool]) -> tuple[list, int]:
    """Three start cards, the middle one with a space that passes ``test``; and that space."""
    spots = sorted((c.id, j) for c in ed.cards.values() if c.type == "start"
                   for j, sp in enumerate(c.spaces) if test(sp))
    cid, j = rng.choice(spots)
    others = _starts_besides(rng, ed, [cid])
    return others[:1] + [cid] + others[1:2], j


@register("inori.majority_cost", game=GAME.name, notebook=NB1,
          rule="A majority cost is paid with a colour you hold most of (any of them on a tie)",
          title="Paying your majority colour",
          levels=("two or three colours held", "many colours held, ties and near ties"))
def majority_cost(seed: int, level: int = 1) -> Exercise:
    rng = _rng("majority_cost", seed, level)
    ed = load_edition()
    cards, j = _colour_card(rng, ed, lambda sp: sp.cost == "majority")
    s = position(seed, 2, cards, {}, {0: _colour_counts(rng, ed, level, "most")})
    right = frozenset(x.pay for x in s.legal_actions()
                      if isinstance(x, OfferCard) and (x.slot, x.space) == (1, j))
    held = [ed.names[c] for c, n in zip(ed.colours, s.favor[0]) if n]
    return Exercise(
        kind="inori.majority_cost", seed=seed,
        question=(f"Card 2, space {j + 1} costs 1 token of your majority colour. Player 1 "
                  f"holds the tokens shown on the right. Pick every colour Player 1 may pay "
                  f"with."),
        answer_kind="choices", answer=right,
        options=tuple(Option(c, ed.names[c]) for c in ed.colours),
        checker=lambda picked: choices_verdict(
            picked, right, why_not=_colour_why_not(s, "most"),
            missed="A colour that may pay is not picked: when colours tie for the most tokens, "
                   "each of them is a majority colour.",
            right_reason="Right: each colour Player 1 holds most of may pay."),
        draw=_drawer(s, [(1, j)]),
        hints=(f"Your majority colour is the colour you hold most tokens of. Player 1 holds "
               f"{_join(held)}.",
               f"Player 1 holds {_holding(s, 0)}. Find the largest count; every colour that "
               f"reaches it may pay, and a colour Player 1 holds none of never can."),
        explanation="Every colour tied for the most tokens counts as your majority colour, so "
                    "any of them may pay (this reading of ties is ours: you choose).",
        context={"state": s})


@register("inori.least_colour", game=GAME.name, notebook=NB1,
          rule="'Your least-held colour' is any colour you hold fewest of, none counts",
          title="Your least-held colour",
          levels=("every colour held at least once", "some colours held not at all"))
def least_colour(seed: int, level: int = 1) -> Exercise:
    rng = _rng("least_colour", seed, level)
    ed = load_edition()
    cards, j = _colour_card(rng, ed, lambda sp: sp.effect.type == "favor_least"
                            and sp.cost is None)
    s = position(seed, 2, cards, {}, {0: _colour_counts(rng, ed, level, "least")})
    mid = s.apply(OfferCard(1, j))
    right = frozenset(x.colour for x in mid.legal_actions() if isinstance(x, TakeFavor))
    none = [ed.names[c] for c, n in zip(ed.colours, s.favor[0]) if not n]
    return Exercise(
        kind="inori.least_colour", seed=seed,
        question=(f"Player 1 offers on card 2, space {j + 1}: gain 1 favor of your least-held "
                  f"colour. Pick every colour Player 1 may choose."),
        answer_kind="choices", answer=right,
        options=tuple(Option(c, ed.names[c]) for c in ed.colours),
        checker=lambda picked: choices_verdict(
            picked, right, why_not=_colour_why_not(s, "least"),
            missed="A colour Player 1 may choose is not picked: every colour tied for the "
                   "fewest tokens may be chosen, also a colour held none of.",
            right_reason="Right: each colour Player 1 holds fewest of may be chosen."),
        draw=_drawer(s, [(1, j)]),
        hints=(f"Count every one of the six colours on Player 1's line, also a colour "
               f"Player 1 holds none of. Player 1 holds tokens of "
               f"{plural(6 - len(none), 'colour')}.",
               f"Player 1 holds {_holding(s, 0)}; a colour not in that list counts as 0. "
               f"Every colour with the smallest count may be chosen."),
        explanation="Any colour tied for the fewest tokens may be chosen; a colour you hold "
                    "none of counts as 0 (this reading of ties is ours: you choose).",
        context={"state": s})


_POINT_EFFECTS = ("points_distinct", "points_colour", "points_majority")


def _effect_offer(rng: random.Random, seed: int, level: int) -> tuple[GameState, OfferCard]:
    """Card 1 with a point effect on the space asked about: free of cost at level 1, with a
    cost (paid before the effect counts) at level 2."""
    ed = load_edition()
    spots = sorted((c.id, j) for c in ed.cards.values() if c.type in ("start", "journey")
                   and c.earliest_season == 1 for j, sp in enumerate(c.spaces)
                   if sp.effect.type in _POINT_EFFECTS and (sp.cost is None) == (level == 1))
    for _ in range(80):
        cid, j = rng.choice(spots)
        others = _starts_besides(rng, ed, [cid])
        sp = ed.cards[cid].spaces[j]
        tokens = _random_favor(rng, ed.colours, rng.randint(1, 5), 4)
        if sp.cost not in (None, "majority"):
            tokens[sp.cost] = tokens.get(sp.cost, 0) + 1
        if sp.effect.type == "points_colour" and rng.random() < 0.7:
            tokens[sp.effect.colour] = tokens.get(sp.effect.colour, 0) + rng.randint(1, 3)
        s = position(seed, 2, [cid] + others, {}, {0: tokens})
        acts = [x for x in s.legal_actions() if isinstance(x, OfferCard)
                and (x.slot, x.space) == (0, j)]
        if acts:
            return s, acts[rng.randrange(len(acts))]
    raise ValueError("no point effect position found")


def _effect_count(ed, eff, held: Sequence[int]) -> int:
    if eff.type == "points_distinct":
        return sum(1 for n in held if n)
    if eff.type == "points_colour":
        return held[ed.colours.index(eff.colour)]
    return max(held)


def _effect_slips(s: GameState, act: OfferCard, points: int) -> dict[int, tuple[str, str]]:
    """The typical wrong counts of a point effect and what each shows."""
    ed = s.edition
    eff = ed.cards[s.slots[0][0]].spaces[act.space].effect
    held = s.favor[0]
    slips: dict[int, tuple[str, str]] = {}
    if eff.type == "points_majority":
        slips[sum(held)] = ("counted-all-tokens", "You added up all of Player 1's tokens; "
                            "the effect counts only the tokens of the colour Player 1 holds "
                            "most of.")
    if eff.type == "points_distinct":
        slips[len(ed.colours)] = ("counted-every-colour", "You counted every colour; the "
                                  "effect counts only the colours Player 1 holds at least one "
                                  "token of.")
        slips[sum(held)] = ("counted-tokens-not-colours", "You counted tokens; the effect "
                            "counts colours: each colour Player 1 holds scores once, however "
                            "many tokens of it.")
    if act.pay:
        slips[_effect_count(ed, eff, held)] = (
            "counted-before-paying", "You counted Player 1's tokens before paying the space's "
            "cost: the cost is paid first, then the effect counts what is left (one "
            f"{ed.names[act.pay]} token fewer).")
    slips.pop(points, None)
    return slips


_COUNT_WHAT = {"points_distinct": "Then count each colour Player 1 holds once, however many "
                                  "tokens of it.",
               "points_colour": "Then count only the tokens of the colour the effect names.",
               "points_majority": "Then find the colour Player 1 holds most of and count its "
                                  "tokens only."}


@register("inori.card_effect_points", game=GAME.name, notebook=NB1,
          rule="Point effects count your tokens after you paid the space's cost",
          title="Points from a card space",
          levels=("a space with no cost", "a space with a cost, paid before counting"))
def card_effect_points(seed: int, level: int = 1) -> Exercise:
    s, act = _effect_offer(_rng("card_effect_points", seed, level), seed, level)
    ed = s.edition
    eff = ed.cards[s.slots[0][0]].spaces[act.space].effect
    points = sum(s.apply(act).points[0]) - sum(s.points[0])
    slips = _effect_slips(s, act, points)
    held = [ed.names[c] for c, n in zip(ed.colours, s.favor[0]) if n]
    pay_words = f", paying 1 {ed.names[act.pay]}" if act.pay else ""
    look = {"points_distinct": "how many different colours Player 1 holds",
            "points_colour": f"Player 1's {ed.names.get(eff.colour, '')} tokens",
            "points_majority": "the colour Player 1 holds most of"}[eff.type]
    rule = (("Pay the cost first, then count " if act.pay else "Count ") + look
            + " on Player 1's line, as the effect says.")
    return Exercise(
        kind="inori.card_effect_points", seed=seed,
        question=(f"Player 1 offers on card 1, space {act.space + 1}{pay_words}, whose "
                  f"effect is '{eff.describe(ed.names)}'. How many points does Player 1 score "
                  f"for it?"),
        answer_kind="number", answer=points,
        checker=lambda v: number_verdict(v, points, what="what this space scores", rule=rule,
                                         misconceptions=slips,
                                         right_reason=f"Right: {eff.describe(ed.names)}"
                                                      f"{pay_words}."),
        draw=_drawer(s, [(0, act.space)]),
        hints=(f"Read the effect of card 1, space {act.space + 1}, then look at {look} on "
               f"Player 1's line: Player 1 holds tokens of {_join(held)}.",
               (f"First Player 1 pays 1 {ed.names[act.pay]}: take it off Player 1's line. "
                if act.pay else "This space costs nothing, so nothing is paid first. ")
               + _COUNT_WHAT[eff.type]),
        explanation=f"{eff.describe(ed.names).capitalize()}{pay_words}: the effect counts "
                    f"Player 1's tokens after the cost is paid. This reading of the rules is "
                    f"ours: the rules summary does not say when the tokens are counted"
                    + (", so the majority colour is the one held most once the cost is paid."
                       if eff.type == "points_majority" else "."),
        context={"state": s, "action": act})


# ----- setup: the start cards ---------------------------------------------------------------

def _turned_up(rng: random.Random, level: int) -> tuple[list[str], list[str]]:
    """Start cards turned up in order, enough of them for three to be dealt, with clashes
    (a colour twice, opposed spirits) among them."""
    ed = load_edition()
    n = 5 if level == 1 else 7
    for _ in range(200):
        order = rng.sample(sorted(ed.start_ids), n)
        dealt, _ = deal_start_cards(ed, order)
        last = order.index(dealt[-1]) if len(dealt) == 3 else n
        if len(dealt) == 3 and last >= 3 and (level == 1 or last < n - 1):
            return order, dealt
    raise ValueError("no start card order found")


def _clash_words(ed, order: Sequence[str]) -> str:
    """The pairs of the list that cannot both be dealt, in words."""
    pairs = []
    for i, first in enumerate(order):
        for later in order[i + 1:]:
            ca, cb = ed.cards[first].colour, ed.cards[later].colour
            if ca == cb:
                pairs.append(f"{ed.cards[first].name} and {ed.cards[later].name} share a "
                             f"colour")
            elif ed.opposite[ca] == cb:
                pairs.append(f"{ed.cards[first].name} and {ed.cards[later].name} are opposed")
    return "; ".join(pairs[:3]) if pairs else "no two cards here clash"


@register("inori.start_cards", game=GAME.name, notebook=NB1,
          rule="Setup deals three start cards in the order they are turned up, skipping a "
               "card whose colour or opposed colour is already dealt",
          title="Which start cards are dealt?",
          levels=("five cards turned up", "seven cards turned up, more clashes"))
def start_cards(seed: int, level: int = 1) -> Exercise:
    rng = _rng("start_cards", seed, level)
    ed = load_edition()
    order, dealt = _turned_up(rng, level)
    right = frozenset(dealt)
    place = {cid: k for k, cid in enumerate(order)}

    def why_not(cid: str) -> tuple[str, str]:
        card = ed.cards[cid]
        before = [c for c in dealt if place[c] < place[cid]]
        name, colour = card.name, ed.names[card.colour]
        if len(before) == 3:
            return ("dealt-more-than-three", f"{name} is turned up after three cards are "
                    f"already dealt: setup deals only three.")
        if any(ed.cards[c].colour == card.colour for c in before):
            return ("same-colour-twice", f"{name} is turned up after another {colour} card "
                    f"that is dealt: no colour is dealt twice.")
        return ("opposed-spirits", f"{name} is {colour}, and a card of the opposed spirit, "
                f"{ed.names[ed.opposite[card.colour]]}, is dealt before it: opposed spirits "
                f"are never dealt together.")

    return Exercise(
        kind="inori.start_cards", seed=seed,
        question=("Setting up: the start cards are turned up one by one, in the order listed "
                  "below (first at the top). Pick the three start cards that are dealt."),
        answer_kind="choices", answer=right,
        options=tuple(Option(cid, f"{ORDINALS[k].capitalize()}: {ed.cards[cid].name}")
                      for k, cid in enumerate(order)),
        checker=lambda picked: choices_verdict(
            picked, right, why_not=why_not,
            missed="A card that is dealt is not picked: walk the list from the top and keep "
                   "every card that clashes with none kept before it, until three are kept.",
            right_reason="Right: these three come first without a colour twice or opposed "
                         "spirits."),
        hints=(f"Walk down the list from {ed.cards[order[0]].name}: keep a card unless its "
               f"colour, or the spirit opposed to it, is already kept; stop at three.",
               f"Opposed spirits: Light and Darkness, Water and Fire, Wind and Earth. In this "
               f"list: {_clash_words(ed, order)}. Of two cards that clash, the later one is "
               f"skipped when the earlier one is kept."),
        explanation="Each card is kept unless a card of its colour or of the opposed spirit "
                    "is already kept; the first three kept are dealt (this reading is ours: "
                    "player-count icons on the cards are left out).",
        context={"order": order})


@register("inori.root_tokens", game=GAME.name, notebook=NB1,
          rule="Setup sets aside favor tokens at the Great Tree's roots in the bottom-right "
               "colour of each start card dealt",
          title="Which tokens wait at the roots?",
          levels=("the three start cards dealt are named",
                  "the start cards turned up: deal first, then read their corners"))
def root_tokens(seed: int, level: int = 1) -> Exercise:
    rng = _rng("root_tokens", seed, level)
    ed = load_edition()
    order, dealt = _turned_up(rng, 2)
    shown = rng.sample(dealt, 3) if level == 1 else order
    right = frozenset(ed.cards[c].incomplete_colour for c in dealt)
    corner = {ed.cards[c].incomplete_colour: c for c in order if c not in dealt}

    def why_not(colour: str) -> tuple[str, str]:
        name = ed.names[colour]
        if any(ed.cards[c].colour == colour for c in dealt):
            return ("own-colour-not-corner", f"{name} is the own colour of a dealt card; the "
                    f"tokens set aside are those of each dealt card's bottom-right corner.")
        if colour in corner:
            return ("skipped-card-counted", f"{name} is the corner colour of "
                    f"{ed.cards[corner[colour]].name}, which is not dealt: it clashes with a "
                    f"card kept before it.")
        return ("not-a-corner", f"{name} is in the bottom-right corner of none of the cards "
                f"dealt.")

    listed = _join([ed.cards[c].name for c in shown])
    return Exercise(
        kind="inori.root_tokens", seed=seed,
        question=((f"Setting up: the start cards dealt are {listed}. " if level == 1 else
                   "Setting up: the start cards are turned up in this order: "
                   f"{listed}. ") + "Which colours of favor tokens are set aside at the "
                  "roots of the Great Tree? (This reading of the rules is ours: a start "
                  "card's bottom-right colour is the spirit opposed to its own.)"),
        answer_kind="choices", answer=right,
        options=tuple(Option(c, ed.names[c]) for c in ed.colours),
        checker=lambda picked: choices_verdict(
            picked, right, why_not=why_not,
            missed="A colour set aside is not picked: each of the three dealt cards sets aside "
                   "the tokens of its bottom-right colour.",
            right_reason="Right: the bottom-right colours of the three start cards."),
        hints=((f"Each of {listed} has its own colour and, in its bottom-right corner, "
                f"another one: the corner decides." if level == 1 else
                f"First find the three cards dealt: walk from {ed.cards[order[0]].name}, "
                f"skipping a card whose colour or opposed spirit is already kept."),
               "Opposed spirits: Light and Darkness, Water and Fire, Wind and Earth. A start "
               "card's bottom-right colour is the spirit opposed to its own"
               + (f"; {_clash_words(ed, order)}." if level == 2 else ".")),
        explanation="Two tokens of each dealt start card's bottom-right colour wait on a root "
                    "space; with no opposed spirits dealt, these are the three spirits "
                    "missing from the board.",
        context={"order": order, "dealt": dealt})


# ----- notebook 2: the Great Tree and the runes --------------------------------------------

def _tree_position(rng: random.Random, seed: int, level: int) -> tuple[GameState, frozenset]:
    """Altars on some tree spaces, a few spaces taken, at level 2 an emptied root space; some
    altar spaces Player 1 can pay for and some not."""
    ed = load_edition()
    altar_spaces = _altar_spaces(ed)
    roots = root_spaces(ed)
    for _ in range(80):
        placed = rng.sample(altar_spaces, rng.randint(1, 2) if level == 1 else
                            rng.randint(2, 4))
        colours = rng.sample(list(ed.altar_colours), len(placed))
        busy = rng.sample(altar_spaces + list(roots), 1 if level == 1 else 2)
        emptied = {} if level == 1 else {rng.randrange(len(roots)): 1}
        tokens = {c: rng.randint(1, 2) for c in rng.sample(colours, rng.randint(
            0 if level == 1 else 1, min(2, len(colours))))}
        if level == 2:
            tokens.update(_random_favor(rng, ed.colours, 1, 2))
        s = position(seed, 2, _pick_cards(rng, ed, ("start",), 3), {}, {0: tokens},
                     tree={t: 1 for t in busy}, altars=dict(zip(placed, colours)),
                     emptied_roots=emptied)
        right = frozenset((x.space,) for x in s.legal_actions() if isinstance(x, OfferTree))
        if right and any(t not in busy and (t,) not in right for t in placed):
            return s, right
    raise ValueError("no Great Tree position found")


@register("inori.tree_offerings", game=GAME.name, notebook=NB2,
          rule="A free tree space is free to use until its altar is placed; then it costs "
               "1 token of the altar colour; an emptied root space is closed",
          title="Where on the Great Tree?",
          levels=("one or two altars placed", "more altars, a taken root and an emptied one"))
def tree_offerings(seed: int, level: int = 1) -> Exercise:
    s, right = _tree_position(_rng("tree_offerings", seed, level), seed, level)
    ed = s.edition
    with_altar = [(t,) for t, c in enumerate(s.altars) if c]

    def refuse(cell: Cell) -> tuple[str, str]:
        if len(cell) != 1:
            return "card-not-tree", "this question asks about the Great Tree, not the cards."
        t = cell[0]
        why = _why(s, OfferTree(t, s.altars[t]))
        if s.tree_markers[t] is not None:
            return "taken-space", why
        return "altar-cost-unpaid" if s.altars[t] else "emptied-root", why

    altars = _join([f"{ed.tree[t].id} ({ed.names[s.altars[t]]})" for (t,) in with_altar])
    return SpacesExercise(
        kind="inori.tree_offerings", seed=seed,
        question=("Player 1 (marker 1) is to play. Click every Great Tree space where "
                  "Player 1 may offer now."),
        answer_kind="cells", answer=right,
        checker=_spaces_checker(s, right, refuse, "A Great Tree space Player 1 may use is "
                                "not clicked yet: an altar space with no altar costs nothing, "
                                "a root space is free while it holds tokens, and an altar "
                                "space needs one token of its altar's colour.",
                                "free spaces without an altar, root spaces with tokens left, "
                                "and altar spaces whose colour Player 1 can pay"),
        draw=_drawer(s),
        hints=(f"Check each of the nine Great Tree spaces: is it free, and what does it cost? "
               f"Player 1 holds {_holding(s, 0)}.",
               f"The altars placed are marked: {altars}. Each of them costs 1 token of its "
               f"colour; an altar space with no altar yet is free, and a root space is open "
               f"only while it still holds tokens."),
        hint_marks=((), tuple(with_altar)),
        explanation=("An altar space with no altar is free (you then place an altar). Once an "
                     "altar is there, pay 1 token of its colour. A root space is free while "
                     "its set-aside tokens last; this reading of the rules is ours: an emptied "
                     "root space takes no more offerings."),
        context={"state": s})


def _altar_slips(ed, eff, name: str, held: int, answer: int) -> dict[int, tuple[str, str]]:
    """Wrong results of an offering on an altar space and what each shows."""
    slips = {answer + ed.altar_cost: ("forgot-altar-cost", f"You left out the cost: Player 1 "
                                      f"first pays one {name} token to the altar, then takes "
                                      f"the effect.")}
    if eff.type in ("altar_favor", "rune_and_altar_favor"):
        slips[answer - eff.count] = ("forgot-effect", f"You paid the cost but left out the "
                                     f"effect: it adds {name} tokens too.")
    if eff.type == "points":
        slips[held - ed.altar_cost + eff.count] = (
            "points-as-tokens", f"The points of this space go to Player 1's score, not to "
                                f"the {name} tokens.")
    slips.pop(answer, None)
    return slips


@register("inori.altar_offer_result", game=GAME.name, notebook=NB2,
          rule="Offering on a tree space with an altar: pay 1 of its colour, then take its "
               "effect in that colour",
          title="What an altar space gives",
          levels=("tokens left after paying and taking",
                  "points or tokens, with the cost in the way"))
def altar_offer_result(seed: int, level: int = 1) -> Exercise:
    rng = _rng("altar_offer_result", seed, level)
    ed = load_edition()
    kinds = ("points", "altar_favor") if level == 1 else \
        ("points_altar_colour", "rune_and_altar_favor", "altar_favor")
    t = rng.choice([t for t, sp in enumerate(ed.tree) if sp.altar and sp.effect.type in kinds])
    colour = rng.choice(ed.altar_colours)
    tokens = _random_favor(rng, [c for c in ed.colours if c != colour], rng.randint(1, 3), 3)
    tokens[colour] = rng.randint(1, 4 if level == 1 else 6)
    s = position(seed, 2, _pick_cards(rng, ed, ("start",), 3), {}, {0: tokens},
                 altars={t: colour})
    after = s.apply(OfferTree(t, colour))
    k = ed.colours.index(colour)
    eff = ed.tree[t].effect
    name, said = ed.names[colour], eff.describe(ed.names, colour)
    asks_points = eff.type == "points_altar_colour"
    answer = sum(after.points[0]) - sum(s.points[0]) if asks_points else after.favor[0][k]
    slips = _altar_slips(ed, eff, name, s.favor[0][k], answer)
    what = "How many points does Player 1 score for it?" if asks_points else \
        f"How many {name} tokens does Player 1 hold afterwards?"
    return Exercise(
        kind="inori.altar_offer_result", seed=seed,
        question=(f"The {name} altar stands beside Great Tree space {ed.tree[t].id} ({said}). "
                  f"Player 1 offers there. {what}"),
        answer_kind="number", answer=answer,
        checker=lambda v: number_verdict(
            v, answer, what="the result", misconceptions=slips,
            rule=f"Start from Player 1's {name} tokens on the right, pay the altar's cost, "
                 f"then apply the effect.", right_reason=f"Right: pay one {name}, then {said}."),
        draw=_drawer(s, [(t,)]),
        hints=(f"An altar space is not free any more: what does offering at {ed.tree[t].id} "
               f"cost Player 1?",
               f"First Player 1 pays one {name} token to the {name} altar; only then comes "
               f"the effect ({said}), counted from the {name} tokens left."),
        explanation=f"Player 1 pays one {name} token first, then the effect ({said}) is "
                    f"taken in the altar's colour (this reading of the rules is ours: an "
                    f"altar space costs one token of its colour).",
        context={"state": s, "action": OfferTree(t, colour)})


def _move_position(rng: random.Random, seed: int, level: int
                   ) -> tuple[GameState, str, frozenset]:
    """Player 1's marker on one card and a moving rune in hand; at level 2 a second card of
    the rune's colour, the marker maybe on a card of that colour, more spaces taken."""
    ed = load_edition()
    movers = sorted(r.id for r in ed.runes.values() if r.kind == "move_to_colour")
    for _ in range(80):
        rid = rng.choice(movers)
        colour = ed.runes[rid].colour
        own = sorted(c.id for c in ed.cards.values() if c.colour == colour
                     and c.earliest_season == 1 and len(c.spaces) >= 3)
        rest = [c for c in _pick_cards(rng, ed, ("start", "journey"), 5)
                if ed.cards[c].colour != colour]
        cards = rng.sample(own, 1 if level == 1 else 2) + rest[:2 if level == 1 else 1]
        if len(cards) < 3:
            continue
        rng.shuffle(cards)
        spaces = _card_spaces(ed, cards)
        start = [c for c in spaces if level == 2 or ed.cards[cards[c[0]]].colour != colour]
        mine = rng.choice(start)
        others = rng.sample([c for c in spaces if c != mine], 2 if level == 1 else 4)
        pool = _Pool(rng, {1: 4, NEUTRAL: 2 if level == 2 else 0})
        markers = {mine: [0], **{c: [pool.take(1, NEUTRAL)] for c in others}}
        s = position(seed, 2, cards, markers, {}, runes={0: [rid]})
        right = frozenset((x.to_slot, x.to_space) for x in s.legal_actions()
                          if isinstance(x, RuneMove))
        if right:
            return s, rid, right
    raise ValueError("no rune move position found")


@register("inori.rune_move_targets", game=GAME.name, notebook=NB2,
          rule="A moving rune takes your marker from another card to a free space on a card "
               "of the rune's colour",
          title="Where can the rune move your marker?",
          levels=("one card of the rune's colour", "two such cards, the marker maybe on one"))
def rune_move_targets(seed: int, level: int = 1) -> Exercise:
    s, rid, right = _move_position(_rng("rune_move_targets", seed, level), seed, level)
    ed = s.edition
    colour = ed.runes[rid].colour
    name = ed.names[colour]
    home = next(i for i, (_, sp) in enumerate(s.slots) if any(0 in o for o in sp))
    coloured = [i for i, (cid, _) in enumerate(s.slots) if ed.cards[cid].colour == colour]

    def refuse(cell: Cell) -> tuple[str, str]:
        if len(cell) != 2:
            return "tree-not-card", ("the rune moves a marker between cards, not onto the "
                                     "Great Tree.")
        i, j = cell
        card = ed.cards[s.slots[i][0]]
        if s.slots[i][1][j]:
            return "taken-space", "that space is taken."
        if card.colour != colour:
            return "wrong-colour-card", (f"card {i + 1} is {article(ed.names[card.colour])} "
                                         f"card, not {article(name)} card.")
        return "same-card", "the marker must leave its card for another one."

    return SpacesExercise(
        kind="inori.rune_move_targets", seed=seed,
        question=(f"Player 1 plays the rune 'move a marker onto {article(name)} card'. Player "
                  f"1 has one marker on the cards (marked 1). Click every space it may move "
                  f"to."),
        answer_kind="cells", answer=right,
        checker=_spaces_checker(s, right, refuse, f"A space the marker may reach is not "
                                f"clicked yet: check every {name} card for free spaces.",
                                f"the free spaces of the {name} cards"),
        draw=_drawer(s),
        hints=(f"Only {name} cards take the marker: read the colour under each card's name. "
               f"Player 1's marker is on card {home + 1}.",
               f"The {name} cards are marked: "
               + _join([f"card {i + 1}" for i in coloured])
               + ". Which of their spaces are free, on a card other than the one the marker "
                 "leaves?"),
        hint_marks=((("slot", home),), tuple(("slot", i) for i in coloured)),
        explanation=(f"The marker leaves its card for any free space of another {name} card. "
                     f"This reading of the rules is ours: it pays no cost and takes no effect "
                     f"there."),
        context={"state": s})


def _occupied_position(rng: random.Random, seed: int, level: int
                       ) -> tuple[GameState, str, frozenset]:
    """Spaces held by Player 1, other players and (level 2) neutral markers, and an
    occupied-space rune in Player 1's hand; some held spaces open to it and some not."""
    ed = load_edition()
    players = 2 if level == 1 else 3
    rid = sorted(r.id for r in ed.runes.values() if r.kind == "offer_occupied")[0]
    for _ in range(80):
        cards = _pick_cards(rng, ed, ("start", "journey"), 3)
        spaces = _card_spaces(ed, cards)
        taken = rng.sample(spaces, rng.randint(3, 4) if level == 1 else rng.randint(5, 7))
        pool = _Pool(rng, {0: 2, 1: 3, 2: 3 if players == 3 else 0,
                           NEUTRAL: 0 if level == 1 else 2})
        markers = {cell: [pool.take(0, 1, 1, 2, 2, NEUTRAL)] for cell in taken}
        favor = {0: _random_favor(rng, ed.colours, rng.randint(1, 3), 2)}
        s = position(seed, players, cards, markers, favor, runes={0: [rid]})
        right = frozenset((x.slot, x.space) for x in s.legal_actions()
                          if isinstance(x, RuneOffer))
        if right and any(c not in right for c in taken):
            return s, rid, right
    raise ValueError("no occupied-space position found")


@register("inori.occupied_rune_spaces", game=GAME.name, notebook=NB2,
          rule="The occupied-space rune lets you offer on a space another player holds "
               "(not yours, not a neutral marker), paying its cost as usual",
          title="Offering on an occupied space",
          levels=("two players", "three players and neutral markers"))
def occupied_rune_spaces(seed: int, level: int = 1) -> Exercise:
    s, rid, right = _occupied_position(_rng("occupied_rune_spaces", seed, level), seed, level)
    ed = s.edition
    taken = tuple((i, j) for i, (_, sp) in enumerate(s.slots) for j, o in enumerate(sp) if o)

    def refuse(cell: Cell) -> tuple[str, str]:
        if len(cell) != 2:
            return "tree-not-card", "the rune is for card spaces, not the Great Tree."
        i, j = cell
        occ = s.slots[i][1][j]
        if not occ:
            return "free-space", "that space is free: an offering there needs no rune."
        if 0 in occ:
            return "own-space", "Player 1 already holds that space."
        if NEUTRAL in occ:
            return "neutral-space", ("a neutral marker blocks that space, and the rune opens "
                                     "only spaces of other players (this reading of the "
                                     "rules is ours).")
        sp = ed.cards[s.slots[i][0]].spaces[j]
        return "cost-not-paid", _why(s, RuneOffer(rid, i, j, _pay_for(s, sp.cost)))

    return SpacesExercise(
        kind="inori.occupied_rune_spaces", seed=seed,
        question=("Player 1 (marker 1) plays the rune 'offer on a space held by another "
                  "player'. Click every card space where Player 1 may now make this turn's "
                  "offering with it."),
        answer_kind="cells", answer=right,
        checker=_spaces_checker(s, right, refuse, "A space the rune opens is not clicked "
                                "yet: check every space held by another player, and whether "
                                "Player 1 can pay its cost.",
                                "spaces held by another player whose cost Player 1 can pay"),
        draw=_drawer(s),
        hints=(f"Look for spaces with a marker of another player: not 1, not N for neutral. "
               f"Player 1 holds {_holding(s, 0)}.",
               f"The {plural(len(taken), 'taken space')} are marked. For each: who holds it "
               f"(another player, Player 1 or a neutral marker), and can Player 1 pay its "
               f"cost?"),
        hint_marks=((), taken),
        explanation="The rune opens spaces held by other players; your own spaces and the "
                    "neutral markers' stay closed, and the cost is paid as usual. This reading "
                    "of the rules is ours: the rune's words rule out only your own space, but "
                    "neutral markers are there to block card spaces, so they keep blocking.",
        context={"state": s})


_QUIET = ("favor", "points_distinct", "points_colour", "points_majority")
_MOMENTS = ("It is the start of Player 1's turn",
            "Player 1 has already made this turn's offering",
            "Player 1 has just placed the last marker of the season. Before the cards are "
            "scored, Player 2 is asked")


def _quiet_offer(state: GameState) -> OfferCard:
    """An offering whose effect asks nothing more (so the moment asked about comes)."""
    ed = state.edition
    return min((x for x in state.legal_actions() if isinstance(x, OfferCard) and
                ed.cards[state.slots[x.slot][0]].spaces[x.space].effect.type in _QUIET),
               key=lambda x: (x.slot, x.space))


def _timing_position(rng: random.Random, seed: int, level: int, moment: int
                     ) -> tuple[GameState, frozenset]:
    """Runes in hand at one of three moments, some playable now and some not."""
    ed = load_edition()
    gains = sorted(r.id for r in ed.runes.values() if r.any_time)
    others = sorted(r.id for r in ed.runes.values() if not r.any_time)
    quiet = sorted(c.id for c in ed.cards.values() if c.type == "start"
                   and c.spaces[1].effect.type in _QUIET and c.spaces[1].cost is None)
    who = 1 if moment == 2 else 0
    for _ in range(80):
        n = 2 if level == 1 else rng.randint(3, 4)
        held = rng.sample(gains, rng.randint(1, n - 1)) if moment else \
            rng.sample(gains, rng.randint(0, n - 2))
        held += rng.sample(others, n - len(held))
        cards = rng.sample(quiet, 1) + _starts_besides(rng, ed, quiet)
        while len(cards) < 3:
            cards.append(next(c for c in ed.start_ids if c not in cards))
        markers = {(0, 0): [who], (1, 0): [1 - who], (2, 0): [1 - who]}
        hands = {0: 1, 1: 0} if moment == 2 else {}
        s = position(seed, 2, cards, markers, {}, runes={who: held}, hands=hands)
        if moment:
            s = s.apply(_quiet_offer(s))
        right = frozenset(x.rune for x in s.legal_actions()
                          if isinstance(x, (RuneGain, RuneMove, RuneOffer)))
        if right and right != set(held) and s.current_player == who:
            return s, right
    raise ValueError("no rune timing position found")


def _nothing_to_act_on(s: GameState, rid: str) -> str:
    """Why a rune whose timing fits has nothing to act on in this position."""
    ed = s.edition
    rune = ed.runes[rid]
    if rune.kind == "move_from_slot":
        return f"Player 1 has no marker on card {rune.slot} to move"
    if rune.kind == "move_to_colour":
        return (f"no marker of Player 1 can reach a free space of another "
                f"{ed.names[rune.colour]} card")
    return "no space held by Player 2 has a cost Player 1 can pay"


@register("inori.rune_timing", game=GAME.name, notebook=NB2,
          rule="Favor runes may be played at any moment, also when a season ends; the others "
               "only at the start of your turn, and only with something to act on",
          title="Which runes can be played now?",
          levels=("two runes in hand", "three or four runes in hand"))
def rune_timing(seed: int, level: int = 1) -> Exercise:
    moment = seed % 3            # 0: start of the turn, 1: after the offering, 2: season end
    s, right = _timing_position(_rng("rune_timing", seed, level), seed, level, moment)
    ed = s.edition
    player = s.current_player
    runes = sorted(s.rune_hands[player])
    said = {r: ed.runes[r].describe(ed.names).replace("the card in slot", "card")
            for r in runes}
    who = s.player_name(player)

    def why_not(r: str) -> tuple[str, str]:
        rune = ed.runes[r]
        if moment == 0:
            return ("nothing-to-act-on", f"'{said[r]}' fits the start of a turn, but here "
                    f"{_nothing_to_act_on(s, r)}.")
        if moment == 1:
            return ("start-of-turn-rune-late", f"'{said[r]}' may be played only at the start "
                    f"of your turn, before your offering; Player 1 has already offered.")
        if rune.any_time:
            return "", f"'{said[r]}' cannot be played now."
        return ("start-of-turn-rune-outside-turn", f"'{said[r]}' may be played only at the "
                f"start of its owner's turn; the season is ending in Player 1's turn, not "
                f"{who}'s.")

    kinds = _join([f"'{said[r]}'" for r in runes])
    return Exercise(
        kind="inori.rune_timing", seed=seed,
        question=(f"{_MOMENTS[moment]}. {who} holds the runes listed below. Pick every rune "
                  f"{who} may play now."),
        answer_kind="choices", answer=right,
        options=tuple(Option(r, said[r][0].upper() + said[r][1:]) for r in runes),
        checker=lambda picked: choices_verdict(
            picked, right, why_not=why_not,
            missed="A rune that may be played now is not picked: check each rune's timing "
                   "against this moment, and whether it has something to act on.",
            right_reason="Right: these runes fit this moment and have something to act on."),
        draw=_drawer(s),
        hints=(f"{who} holds {kinds}. For each, is it played at any moment, or only at the "
               f"start of its owner's turn?",
               ("At the start of the turn every rune's timing fits; check that each has "
                "something to act on: Player 1's marker is on card 1." if moment == 0 else
                "Player 1 has already offered this turn: a rune played only at the start of "
                "a turn is too late now." if moment == 1 else
                "It is not Player 2's turn: only runes played at any moment may be played "
                "while the season ends.")),
        explanation="In the reference edition (this reading of the rules is ours) the six "
                    "favor runes are played at any moment, even just before a season is "
                    "scored; moving and occupied-space runes only at the start of your own "
                    "turn, and only when they have something to act on.",
        context={"state": s, "moment": moment})


# ----- notebook 3: seasons, majorities and the end of the game -----------------------------

def _season_board(rng: random.Random, seed: int, players: int, level: int,
                  complete: Mapping[int, bool] | None = None, season: int = 1,
                  altars: Mapping[int, str] = {}) -> GameState:
    """Three cards, some complete and some not, and a few tokens per player.  Level 2 adds
    neutral markers, cards of four spaces and a card where Player 1 has two markers.  Cards
    are those of the first two seasons (none scores when incomplete)."""
    ed = load_edition()
    most = 3 if level == 1 else 4
    kinds = sorted(c.id for c in ed.cards.values() if c.type in ("start", "journey")
                   and 2 <= len(c.spaces) <= most and c.earliest_season <= min(season, 2))
    cards = rng.sample(kinds, 3)
    per = new_game(players=players, seed=seed).schedule[season - 1]
    pool = _Pool(rng, {**{p: per for p in range(players)}, NEUTRAL: 0 if level == 1 else 2})
    double = rng.randrange(3) if level == 2 else -1
    chosen = dict(complete or {})
    markers: dict[tuple[int, int], list[int]] = {}
    for i, cid in enumerate(cards):
        n = len(ed.cards[cid].spaces)
        full = chosen.get(i, rng.random() < 0.55)
        filled = range(n) if full else sorted(rng.sample(range(n), rng.randint(1, n - 1)))
        for k, j in enumerate(filled):
            wanted = (0,) if i == double and k < 2 else (*range(players), NEUTRAL)
            markers[(i, j)] = [pool.take(*wanted)]
    if not any(0 in m for m in markers.values()):
        first = next(c for c in sorted(markers) if markers[c] != [NEUTRAL])
        markers[first] = [0]
    colours = [ed.cards[c].colour for c in cards]
    favor = {p: _random_favor(rng, colours + [rng.choice(ed.colours)], rng.randint(2, 3),
                              3 if level == 1 or players > 3 else 4) for p in range(players)}
    return position(seed, players, cards, markers, favor, season=season, altars=altars)


def _season_slips(s: GameState, total: int) -> dict[int, tuple[str, str]]:
    """The typical wrong season scores of Player 1 and what each shows."""
    ed = s.edition
    slips: dict[int, tuple[str, str]] = {}
    for i, (cid, spaces) in enumerate(s.slots):
        held = s.favor[0][ed.colours.index(ed.cards[cid].colour)]
        mine = sum(o.count(0) for o in spaces)
        where = card_words(s, i)
        if not held:
            continue
        if all(spaces) and mine >= 2:
            slips.setdefault(total + (mine - 1) * held, (
                "scored-per-marker", "You scored a complete card once for each of your "
                "markers on it; a card scores once for you, however many of your markers are "
                "there."))
        if all(spaces) and mine:
            neutral = any(NEUTRAL in o for o in spaces)
            slips.setdefault(total - held, (
                "neutral-not-filling" if neutral else "missed-complete-card",
                f"You left out {where}: a neutral marker fills a space too, so that card is "
                f"complete." if neutral else "You left out a complete card where Player 1 "
                "has a marker: check every card."))
        if all(spaces) and not mine:
            slips.setdefault(total + held, (
                "scored-absent-card", f"You scored {where}, where Player 1 has no marker: "
                f"only the players with a marker on a complete card score it."))
        if not all(spaces) and mine:
            slips.setdefault(total + held, (
                "scored-incomplete-card", f"You scored {where}, which is incomplete: a card "
                f"scores only when every space holds a marker."))
    slips.pop(total, None)
    return slips


@register("inori.season_score", game=GAME.name, notebook=NB3,
          rule="At a season's end a complete card gives each player on it 1 point per token "
               "of its colour, once; an incomplete card gives nothing",
          title="Season-end points",
          levels=("two players, one marker each per card",
                  "three players, neutral markers, two markers of Player 1 on a card"))
def season_score(seed: int, level: int = 1) -> Exercise:
    rng = _rng("season_score", seed, level)
    s = _season_board(rng, seed, 2 if level == 1 else 3, level, season=1 if level == 1 else 2)
    ed = s.edition
    total = season_end_preview(s)["card_points"][0]
    slips = _season_slips(s, total)
    mine = [i for i, (_, sp) in enumerate(s.slots) if any(0 in o for o in sp)]
    cards = _join([card_words(s, i) for i in mine])
    detail = "; ".join(
        f"{card_words(s, i)} is {'complete' if all(sp) else 'incomplete'}"
        for i, (_, sp) in enumerate(s.slots) if i in mine)
    return Exercise(
        kind="inori.season_score", seed=seed,
        question=("The season ends now, with the markers as drawn. How many points does "
                  "Player 1 (marker 1) score from the cards?"),
        answer_kind="number", answer=total,
        checker=lambda v: number_verdict(
            v, total, what="Player 1's points from the cards", misconceptions=slips,
            rule="For each complete card with a marker of Player 1, count Player 1's tokens "
                 "of that card's colour, once."),
        draw=_drawer(s),
        hints=(f"Find the complete cards first: every space holds a marker, neutral ones too. "
               f"Player 1 has markers on {cards}.",
               (f"Is {cards} complete? If so, " if len(mine) == 1 else
                f"Which of {cards} are complete? For each complete one, ")
               + "Player 1 scores the tokens of its colour once, however many markers "
                 "Player 1 has there; an incomplete card scores nothing."),
        hint_marks=((), tuple(("slot", i) for i in mine)),
        explanation=f"{detail[0].upper() + detail[1:]}. Each complete card gives Player 1 one "
                    f"point per token of its colour, once.",
        context={"state": s})


@register("inori.next_card_colour", game=GAME.name, notebook=NB3,
          rule="A complete card is replaced by one of its top-right colour, an incomplete "
               "one by one of its bottom-right colour",
          title="The card that comes next",
          levels=("two players, the card alone", "neutral markers and more players"))
def next_card_colour(seed: int, level: int = 1) -> Exercise:
    rng = _rng("next_card_colour", seed, level)
    slot = rng.randrange(3)
    s = _season_board(rng, seed, 2 if level == 1 else 3, level,
                      complete={slot: rng.random() < 0.5}, season=level)
    ed = s.edition
    cid, spaces = s.slots[slot]
    card = ed.cards[cid]
    full = all(spaces)
    right = card.complete_colour if full else card.incomplete_colour

    def why_not(c: str) -> tuple[str, str]:
        name = ed.names[c]
        if c == card.complete_colour:
            return ("wrong-corner", f"{name} is the top-right colour: the next card's colour "
                    f"when this card is complete. Check whether every space of card "
                    f"{slot + 1} holds a marker.")
        if c == card.incomplete_colour:
            return ("wrong-corner", f"{name} is the bottom-right colour: the next card's "
                    f"colour when this card is left incomplete. Check whether every space of "
                    f"card {slot + 1} holds a marker, neutral ones too.")
        return ("not-a-corner", f"{name} is on neither corner of card {slot + 1}: the new "
                f"card's colour is read from the card's two corners.")

    free = sum(1 for o in spaces if not o)
    return Exercise(
        kind="inori.next_card_colour", seed=seed,
        question=(f"The season ends now. What colour is the card that replaces card "
                  f"{slot + 1}?"),
        answer_kind="choice", answer=right,
        options=tuple(Option(c, ed.names[c]) for c in ed.colours),
        checker=lambda picked: choice_verdict(
            picked, right, why_not=why_not,
            right_reason=f"Right: card {slot + 1} is {'complete' if full else 'incomplete'}, "
                         f"so its {'top' if full else 'bottom'}-right colour counts."),
        draw=_drawer(s, [("slot", slot)]),
        hints=(f"Card {slot + 1} has {plural(len(spaces), 'space')}: is every one of them "
               f"taken? That decides which corner counts.",
               f"Count the markers on card {slot + 1}, neutral ones too: a complete card is "
               f"replaced by its top-right colour, an incomplete one by its bottom-right "
               f"colour." + (" A neutral marker fills a space." if any(
                   NEUTRAL in o for o in spaces) else "")),
        explanation=f"Card {slot + 1} is {'complete' if full else 'incomplete'} "
                    f"({plural(free, 'free space') if free else 'no free space'}); its "
                    f"{'top' if full else 'bottom'}-right square gives the new card's colour.",
        context={"state": s})


def _majority_slips(ed, results: list[dict], who: int, total: int
                    ) -> dict[int, tuple[str, str]]:
    """The typical wrong majority totals of one player and what each shows."""
    slips: dict[int, tuple[str, str]] = {}
    for m in results:
        first, second = m["values"]
        pts = m["points"].get(who, 0)
        mine = m["counts"][who]
        ranked = sorted({n for n in m["counts"].values() if n > 0}, reverse=True)
        if pts:
            slips.setdefault(total - pts, (
                "missed-altar", f"You left out the {ed.names[m['colour']]} altar on "
                f"{m['space_id']}: every tree space with an Altar tile pays its places."))
        if who in m["first"] and len(m["first"]) > 1:
            slips.setdefault(total - first + second, (
                "tie-for-first-as-second", "You gave 2nd place to a player tied for 1st: "
                "players tied for 1st all score the 1st-place points."))
        if who in m["second"] and len(m["second"]) > 1:
            slips.setdefault(total - second, (
                "tied-second-lost", "You gave no place to a player tied for 2nd: players "
                "tied for 2nd all score the 2nd-place points."))
        if len(m["first"]) > 1 and mine and len(ranked) > 1 and mine == ranked[1]:
            slips.setdefault(total + second, (
                "second-after-tied-first", "You gave 2nd place after a tie for 1st: when "
                "players tie for 1st, nobody scores 2nd."))
        if not mine and len(ranked) == 1 and len(m["first"]) == 1:
            slips.setdefault(total + second, (
                "no-tokens-placed", "You gave a place for a colour the player holds none of: "
                "a player needs at least one token of the colour to place."))
    slips.pop(total, None)
    return slips


def _count_words(ed, favor: Sequence[int], colours: Sequence[str]) -> str:
    return _join([f"{favor[ed.colours.index(c)] or 'no'} {ed.names[c]}" for c in colours])


@register("inori.majority_points", game=GAME.name, notebook=NB3,
          rule="After the last season each altar pays its 1st and 2nd place; all tied for 1st "
               "score 1st and nobody 2nd, all tied for 2nd score 2nd",
          title="Altar majorities",
          levels=("two altars, three players", "three altars, more players, more ties"))
def majority_points(seed: int, level: int = 1) -> Exercise:
    rng = _rng("majority_points", seed, level)
    ed = load_edition()
    players = 3 if level == 1 else rng.choice([3, 4])
    spaces = rng.sample(_altar_spaces(ed), 2 if level == 1 else 3)
    colours = rng.sample(list(ed.altar_colours), len(spaces))
    counts = [0, 1, 2, 2, 3, 3] if level == 1 else [0, 1, 1, 2, 2, 3, 4]
    favor = {p: {c: rng.choice(counts) for c in colours} for p in range(players)}
    who = rng.randrange(players)
    s = position(seed, players, _pick_cards(rng, ed, ("start",), 3), {}, favor,
                 altars=dict(zip(spaces, colours)), season=4)
    results = score_majorities(ed, s.altars, s.favor)
    total = sum(m["points"].get(who, 0) for m in results)
    slips = _majority_slips(ed, results, who, total)
    player = s.player_name(who)
    first, second = ed.tree[spaces[0]].first, ed.tree[spaces[0]].second
    where = _join([f"{ed.names[c]} on {ed.tree[t].id}" for t, c in zip(spaces, colours)])
    return Exercise(
        kind="inori.majority_points", seed=seed,
        question=(f"The game is ending. Each altar on the Great Tree pays {first} points for "
                  f"1st place and {second} for 2nd in its colour. How many majority points "
                  f"does {player} (marker {who + 1}) score?"),
        answer_kind="number", answer=total,
        checker=lambda v: number_verdict(
            v, total, what=f"{player}'s majority points", misconceptions=slips,
            rule="Do each altar on its own: most tokens of its colour is 1st, the next count "
                 "is 2nd; a tie for 1st leaves nobody 2nd."),
        draw=_drawer(s, [(t,) for t in spaces]),
        hints=(f"Do each altar on its own (the altars: {where}): compare every player's "
               f"tokens of its colour.",
               f"{player} holds {_count_words(ed, s.favor[who], colours)}. On each altar: "
               f"most tokens is 1st, the next count 2nd; players tied for 1st all score 1st "
               f"and nobody 2nd; holding none never places."),
        explanation="Each altar is scored on its own: 1st and 2nd place by the tokens of its "
                    "colour; a tie for 1st shares 1st and leaves nobody 2nd, a tie for 2nd "
                    "shares 2nd (the 6 and 3 points are this edition's reading: no source "
                    "gives the printed values).",
        context={"state": s, "player": who})


def _complete_words(s: GameState) -> str:
    done = [card_words(s, i) for i, (_, sp) in enumerate(s.slots) if all(sp)]
    return (f"The complete cards: {_join(done)}; each player with a marker on one scores "
            f"their tokens of its colour, once." if done else
            "No card is complete, so no card scores.")


def _with_points(rng: random.Random, s: GameState, low: int, high: int, tie: bool
                 ) -> GameState:
    """``s`` with each player's points so far (two of them equal when ``tie``)."""
    pts = [rng.randint(low, high) for _ in range(s.players)]
    if tie:
        x, y = rng.sample(range(s.players), 2)
        pts[x] = pts[y]
    return replace(s, points=tuple((p, 0, 0, 0) for p in pts), first_player=0, turn=0)


@register("inori.new_start_chooser", game=GAME.name, notebook=NB3,
          rule="After a season's scoring the player with the fewest points keeps a New Start "
               "card and plays first",
          title="Who plays first next season?",
          levels=("three players", "four players, ties for the fewest"))
def new_start_chooser(seed: int, level: int = 1) -> Exercise:
    rng = _rng("new_start_chooser", seed, level)
    players = 3 if level == 1 else 4
    s = _with_points(rng, _season_board(rng, seed, players, level), 2, 9,
                     level == 2 and rng.random() < 0.6)
    end = end_season_now(s)
    chooser = end.reports[-1]["lowest"]
    before = [sum(p) for p in s.points]
    totals = [sum(p) for p in end.points]
    tied = [p for p in range(players) if totals[p] == min(totals)]

    def why_not(key: str) -> tuple[str, str]:
        p = int(key)
        name = s.player_name(p)
        if p in tied:
            return ("tie-order", f"{name} ties for the fewest points, but on a tie the player "
                    f"latest in this season's turn order chooses (this reading of the rules "
                    f"is ours).")
        if before[p] == min(before):
            return ("forgot-season-scoring", f"{name} has the fewest points before the cards "
                    f"are scored; the cards are scored first, then the fewest points choose.")
        if totals[p] == max(totals):
            return ("most-points", f"{name} has the most points after the scoring; the New "
                    f"Start card goes to the player with the fewest.")
        return "", (f"{name} ends the scoring with {plural(totals[p], 'point')}, and another "
                    f"player has fewer.")

    return Exercise(
        kind="inori.new_start_chooser", seed=seed,
        question=("The season ends now: the cards are scored and then added to the points "
                  "shown on the right. Who keeps a New Start card and plays first next season? "
                  "(If several players tie for the fewest points, the one latest in this "
                  "season's turn order chooses; the season was played from Player 1 onwards. "
                  "This reading of the rules is ours.)"),
        answer_kind="choice", answer=str(chooser),
        options=tuple(Option(str(p), s.player_name(p)) for p in range(players)),
        checker=lambda picked: choice_verdict(
            picked, str(chooser), why_not=why_not,
            right_reason="Right: the fewest points after the scoring choose."),
        draw=_drawer(s),
        hints=(f"Score the complete cards first, then add what each of the {players} players "
               f"scores to their points on the right; then look for the fewest.",
               _complete_words(s) + " On a tie for the fewest, the player latest in the "
               "season's turn order chooses (the season was played from Player 1 onwards)."),
        hint_marks=((), tuple(("slot", i) for i, (_, sp) in enumerate(s.slots) if all(sp))),
        explanation="After the scoring the totals are "
                    + ", ".join(f"{s.player_name(p)} {n}" for p, n in enumerate(totals))
                    + f"; {s.player_name(chooser)} chooses.",
        context={"state": s, "end": end})


def _markers_slips(schedule: Sequence[int], players: int, season: int, placed: int,
                   whole_game: bool) -> dict[int, tuple[str, str]]:
    """Wrong marker counts: a new marker at the first 4-player season end, no new markers
    at all, the count of the season before or after."""
    def asked(row: Sequence[int]) -> int:
        return sum(row[:season - 1]) + placed if whole_game else row[season - 1] - placed
    start = schedule[0]
    slips = {}
    naive = [start + k for k in range(len(schedule))]
    if players == 4:
        slips[asked(naive)] = ("four-player-first-end", "With four players the first season "
                               "end brings no new marker; each later one brings one.")
    slips.setdefault(asked([start] * len(schedule)), (
        "no-new-markers", "You left out the new markers: every player takes one more marker "
        "at a season end."))
    if not whole_game:
        for near in (season - 2, season):
            if 0 <= near < len(schedule):
                slips.setdefault(schedule[near] - placed, (
                    "off-by-a-season", "You counted the markers of another season: count "
                    "the season ends before this season only."))
    else:
        slips.setdefault(sum(schedule[:season]) + placed, (
            "counted-this-season-whole", "You counted this season's markers in full; only "
            "the ones already placed this season count."))
    slips.pop(asked(schedule), None)
    return slips


@register("inori.markers_per_season", game=GAME.name, notebook=NB3,
          rule="Each player gains one marker at each season end (none at the first end with "
               "4 players)",
          title="Markers per season",
          levels=("markers left in hand this season", "markers placed in the whole game"))
def markers_per_season(seed: int, level: int = 1) -> Exercise:
    rng = _rng("markers_per_season", seed, level)
    players = rng.choice([2, 3, 4])
    season = rng.randint(2, 4)
    schedule = new_game(players=players, seed=seed).schedule
    placed = rng.randrange(schedule[season - 1])
    who = f"Player {rng.randint(1, players)}"
    whole = level == 2
    answer = sum(schedule[:season - 1]) + placed if whole else schedule[season - 1] - placed
    slips = _markers_slips(schedule, players, season, placed, whole)
    ours = (" (this reading of the rules is ours: with two players, four markers in the first "
            "season)"
            if players == 2 else "")
    asked = (f"How many markers has {who} placed in the whole game so far, this season's "
             f"included?" if whole else f"How many markers does {who} still hold this "
                                           f"season?")
    return Exercise(
        kind="inori.markers_per_season", seed=seed,
        question=(f"In a {players}-player game each player places {schedule[0]} markers in "
                  f"the first season{ours}. It is season {season}, and {who} has placed "
                  f"{plural(placed, 'marker')} so far this season. {asked}"),
        answer_kind="number", answer=answer,
        checker=lambda v: number_verdict(
            v, answer, what="the number of markers asked for", misconceptions=slips,
            rule="Each season end gives every player one new marker (with four players the "
                 "first one gives none)."),
        hints=(f"Start from the first season and go season by season up to season {season}: "
               f"each season end brings every player one more marker.",
               (f"With {players} players the first season end gives no marker; every later "
                f"one gives one. " if players == 4 else
                f"With {players} players every season end gives one marker. ")
               + ("Add up the markers of the seasons before this one, then the ones placed "
                  "this season." if whole else
                  "Find this season's markers, then take away those already placed.")),
        explanation=f"With {players} players the markers per season are "
                    + ", ".join(map(str, schedule)) + " in seasons 1 to 4.",
        context={"schedule": schedule, "players": players, "season": season})


def _final_position(rng: random.Random, seed: int, level: int) -> GameState:
    """The last season, about to end: at level 1 nothing is left to score (the points are
    final); at level 2 cards and altars still score."""
    ed = load_edition()
    players = rng.choice([2, 3]) if level == 1 else 3
    if level == 1:
        favor = {p: _random_favor(rng, ed.colours, rng.randint(2, 4), 4) for p in
                 range(players)}
        s = position(seed, players, _pick_cards(rng, ed, ("start",), 3), {}, favor, season=4)
        low, high = 20, 32
    else:
        spaces = rng.sample(_altar_spaces(ed), 2)
        colours = rng.sample(list(ed.altar_colours), 2)
        s = _season_board(rng, seed, players, 2, season=4, altars=dict(zip(spaces, colours)))
        low, high = 24, 36
    tie = rng.random() < 0.5
    s = _with_points(rng, s, low, high, tie)
    if tie and rng.random() < 0.5:
        # the same favor tokens in all for the players tied on points: a shared win
        best = max(sum(p) for p in s.points)
        top = [p for p in range(players) if sum(s.points[p]) == best]
        if level == 1 and len(top) > 1:
            row = list(s.favor[top[1]])
            row[0] += sum(s.favor[top[0]]) - sum(row)
            if row[0] >= 0:
                favor = list(map(tuple, s.favor))
                favor[top[1]] = tuple(row)
                supply = list(s.supply)
                supply[0] -= sum(r[0] for r in favor) - sum(r[0] for r in s.favor)
                s = replace(s, favor=tuple(favor), supply=tuple(supply))
    s.check_invariants()
    return s


@register("inori.game_winner", game=GAME.name, notebook=NB3,
          rule="The game ends after season 4; the most points win, a tie goes to the most "
               "favor tokens left, and a tie that remains is a shared win",
          title="Who wins?",
          levels=("the final points are shown", "the last season and the altars still to "
                                                 "score"))
def game_winner(seed: int, level: int = 1) -> Exercise:
    rng = _rng("game_winner", seed, level)
    s = _final_position(rng, seed, level)
    end = end_season_now(s)
    right = frozenset(str(p) for p in winners(end))
    before = [sum(p) for p in s.points]
    totals = [sum(p) for p in end.points]
    left = [sum(row) for row in end.favor]
    best = max(totals)

    def why_not(key: str) -> tuple[str, str]:
        p = int(key)
        name = s.player_name(p)
        if totals[p] == best:
            return ("tie-break-ignored", f"{name} ties on points but holds fewer favor tokens "
                    f"at the end; this reading of the rules is ours: a tie on points goes to "
                    f"the most favor tokens left.")
        if level == 2 and before[p] == max(before):
            return ("forgot-final-scoring", f"{name} leads before the last scoring, but the "
                    f"season's cards and the altars are scored before the game is decided.")
        after = " once the last season and the altars are scored" if level == 2 else ""
        return "not-most-points", f"{name} ends with fewer points than another player{after}."

    if level == 1:
        hints = ("Find the most points on the players' lines; only a tie on points needs the "
                 "tie-break.",
                 "Tie-break (this reading of the rules is ours): among players tied on "
                 "points, the most favor tokens left wins, and a tie that remains is shared. "
                 "Favor tokens in all: " + ", ".join(
                     f"{s.player_name(p)} {n}" for p, n in enumerate(left)) + ".")
        asked = "The game is over: the final points and each player's favor tokens are shown."
    else:
        altars = _join([f"{s.edition.names[c]} on {s.edition.tree[t].id}"
                        for t, c in enumerate(s.altars) if c])
        hints = ("First score the last season: the complete cards, then each altar's 1st and "
                 "2nd place; add them to the points on the right.",
                 _complete_words(s) + f" The altars: {altars}. Then compare the totals; a tie "
                 "on points goes to the most favor tokens left (our reading).")
        asked = ("Season 4 ends now, with the board as drawn: the cards are scored, then each "
                 "altar pays 6 points for 1st place and 3 for 2nd in its colour, and the game "
                 "ends.")
    return Exercise(
        kind="inori.game_winner", seed=seed,
        question=f"{asked} Pick every player who wins.",
        answer_kind="choices", answer=right,
        options=tuple(Option(str(p), s.player_name(p)) for p in range(s.players)),
        checker=lambda picked: choices_verdict(
            picked, right, why_not=why_not,
            missed="Your picks leave out a winner: the most points win, and players still tied "
                   "after the favor tokens left share the win.",
            right_reason="Right: the winners after the tie-break."),
        draw=_drawer(end if level == 1 else s),
        hints=hints,
        explanation="Final points: " + ", ".join(
            f"{s.player_name(p)} {n} with {plural(left[p], 'favor token')}"
            for p, n in enumerate(totals)) + ". Most points win; a tie goes to the most favor "
            "tokens left, and a tie that remains is shared (this reading is ours).",
        context={"state": s, "end": end})


# ----- added by the audit "every rule taught gets a kind" (notebook 02) ----------------------

def _slot_rune_markers(rng: random.Random, cards: Sequence[str], slot: int, level: int
                       ) -> dict[Cell, list[int]]:
    """Markers for the slot rune: one or two of Player 1's on the rune's card, more of Player
    1's on other cards, and (to look past) other players' and, at level 2, neutral markers on
    the rune's card too."""
    ed = load_edition()
    spaces = _card_spaces(ed, cards)
    on_card = [c for c in spaces if c[0] == slot]
    elsewhere = [c for c in spaces if c[0] != slot]
    rng.shuffle(on_card)
    rng.shuffle(elsewhere)
    mine = rng.randint(1, 2 if level == 1 else min(3, len(on_card) - 1))
    markers: dict[Cell, list[int]] = {c: [0] for c in on_card[:mine]}
    markers.update({c: [0] for c in elsewhere[:rng.randint(1, 2)]})
    rivals = [1] if level == 1 else [1, 2, NEUTRAL]
    for c in on_card[mine:mine + rng.randint(1, 2)]:
        markers[c] = [rng.choice(rivals)]
    for c in elsewhere[2:2 + (1 if level == 1 else 3)]:
        markers[c] = [rng.choice(rivals)]
    return markers


def _slot_rune_position(rng: random.Random, seed: int, level: int
                        ) -> tuple[GameState, str, frozenset]:
    """A slot rune in Player 1's hand and markers on its card and others: (state, rune, the
    spaces whose marker the engine lets the rune move)."""
    ed = load_edition()
    runes = sorted(r.id for r in ed.runes.values() if r.kind == "move_from_slot")
    for _ in range(80):
        rid = rng.choice(runes)
        slot = ed.runes[rid].slot - 1
        cards = _pick_cards(rng, ed, ("start", "journey"), 3 if level == 1 else 4)
        if slot >= len(cards):
            continue
        markers = _slot_rune_markers(rng, cards, slot, level)
        try:
            s = position(seed, 2 if level == 1 else 3, cards, markers, {}, runes={0: [rid]})
        except ValueError:
            continue
        right = frozenset((x.from_slot, x.from_space) for x in s.legal_actions()
                          if isinstance(x, RuneMove) and x.rune == rid)
        if right:
            return s, rid, right
    raise ValueError("no slot rune position found")


def _slot_rune_refuse(s: GameState, slot: int) -> Callable[[Cell], tuple[str, str]]:
    """Why the slot rune cannot move what stands on a clicked space: (mistake, reason)."""
    def refuse(cell: Cell) -> tuple[str, str]:
        if len(cell) != 2:
            return "tree-not-card", ("the rune moves a marker off a card; markers on the Great "
                                     "Tree stay.")
        i, j = cell
        held = s.slots[i][1][j]
        if not held:
            return "empty-space", "no marker stands there, so there is nothing to move."
        if i != slot:
            return "wrong-card", (f"that marker is on card {i + 1}, and this rune moves a "
                                  f"marker only off card {slot + 1}.")
        if NEUTRAL in held:
            return "neutral-marker", "that is a neutral marker; the rune moves only your own."
        if 0 not in held:
            return "other-players-marker", ("that marker belongs to another player; the rune "
                                            "moves only Player 1's.")
        return "no-free-space", "no other card has a free space for it."
    return refuse


@register("inori.rune_slot_move", game=GAME.name, notebook=NB2,
          rule="A rune that names a card moves one of your markers off that card to a free "
               "space on any other card",
          title="Which marker can the rune move off its card?",
          levels=("three cards, two players", "four cards, three players and neutral markers"))
def rune_slot_move(seed: int, level: int = 1) -> Exercise:
    s, rid, right = _slot_rune_position(_rng("rune_slot_move", seed, level), seed, level)
    slot = s.edition.runes[rid].slot - 1
    mine_elsewhere = tuple((i, j) for i, (_, sp) in enumerate(s.slots) for j, o in enumerate(sp)
                           if 0 in o and i != slot)
    others_here = [o[0] for o in s.slots[slot][1] if o and 0 not in o]
    whose = _join(sorted({"a neutral marker" if m == NEUTRAL else
                          f"a marker of {s.player_name(m)}" for m in others_here}))
    besides = f"it also holds {whose}" if whose else "no one else stands on it"
    return SpacesExercise(
        kind="inori.rune_slot_move", seed=seed, level=level,
        question=(f"Player 1 (marker 1) plays the rune 'move a marker off card {slot + 1}' at "
                  "the start of the turn (the cards are counted from the first in the row). "
                  "Click every space whose marker the rune may move."),
        answer_kind="cells", answer=right,
        checker=_spaces_checker(s, right, _slot_rune_refuse(s, slot),
                                f"A marker the rune may move is not clicked yet: look again at "
                                f"every space of card {slot + 1}.",
                                f"Player 1's markers on card {slot + 1}"),
        draw=_drawer(s),
        hints=(f"The rune names one card, card {slot + 1}, and moves only markers of the "
               "player who plays it.",
               f"Card {slot + 1} is marked: {besides}. Player 1's markers on other cards "
               f"({plural(len(mine_elsewhere), 'space')}) stay put."),
        hint_marks=((("slot", slot),), (("slot", slot),) + mine_elsewhere),
        explanation=(f"The rune takes one of Player 1's markers off card {slot + 1} to a free "
                     "space on any other card. This reading of the rules is ours: the moved "
                     "marker pays no cost and takes no effect there."),
        context={"state": s})


# ----- notebook 2: the Great Tree space that blocks two card spaces -------------------------

_BLOCK_TREE = 4   # the Great Tree space whose effect is "block two spaces" (T5)


def _block_tree_space(ed) -> int:
    """The Great Tree space whose effect blocks card spaces (T5 in the reference edition)."""
    found = [t for t, sp in enumerate(ed.tree) if sp.effect.block]
    return found[0] if found else _BLOCK_TREE


def _block_position(rng: random.Random, seed: int, level: int) -> GameState:
    """Player 1 has just offered on the blocking Great Tree space (its altar in place) and
    must now choose the spaces: a few cards with some spaces taken, and on level 2 more
    players, fuller cards and maybe a neutral marker already on a card."""
    ed = load_edition()
    t = _block_tree_space(ed)
    players = 2 if level == 1 else rng.choice([2, 3])
    for _ in range(120):
        cards = _pick_cards(rng, ed, ("start", "journey"), 3, (2, 4) if level == 2 else (3, 4))
        spaces = _card_spaces(ed, cards)
        n = rng.randint(2, 4) if level == 1 else rng.randint(4, len(spaces) - 2)
        neutral = 1 if level == 2 and rng.random() < 0.4 else 0
        limits = {**{p: 3 for p in range(players)}, NEUTRAL: neutral}
        taken = rng.sample(spaces, min(n, len(spaces) - 2, sum(limits.values())))
        pool = _Pool(rng, limits)
        markers = {cell: [pool.take(*range(players), NEUTRAL)] for cell in taken}
        colour = rng.choice(list(ed.altar_colours))
        s = position(seed, players, cards, markers, {0: {colour: rng.randint(1, 2)}},
                     altars={t: colour})
        after = s.apply(OfferTree(space=t, pay=colour))
        if not after.pending or after.pending[0].kind != "block":
            continue
        if level == 1 or 0 < len(_completable(after)) < len(cards):
            return after
    raise ValueError("no blocking position found")


def _blockable(s: GameState) -> frozenset:
    """The card spaces the engine lets Player 1 block now."""
    return frozenset((x.slot, x.space) for x in s.legal_actions()
                     if isinstance(x, BlockSpace))


def _completable(s: GameState) -> frozenset:
    """The cards (slots) that some legal choice of spaces to block makes complete, a
    blocked space counting as filled (the engine plays every choice out)."""
    done: set[int] = set()
    frontier = [s]
    while frontier:
        state = frontier.pop()
        for i, (_, sp) in enumerate(state.slots):
            if is_complete(sp) and not is_complete(s.slots[i][1]):
                done.add(i)
        if state.pending and state.pending[0].kind == "block":
            frontier += [state.apply(x) for x in state.legal_actions()
                         if isinstance(x, BlockSpace)]
    return frozenset(done)


def _taken_words(s: GameState) -> str:
    """How many spaces of each card are taken, in words (no space named)."""
    return "; on ".join(f"{card_words(s, i)}: {len(sp)} spaces, {sum(1 for o in sp if o)} taken"
                     for i, (_, sp) in enumerate(s.slots))


def _block_refuse(s: GameState) -> Callable[[Cell], tuple[str, str]]:
    def refuse(cell: Cell) -> tuple[str, str]:
        if len(cell) != 2:
            return "blocked-tree-space", ("that is a Great Tree space: the neutral markers go "
                                          "on card spaces only.")
        occ = s.slots[cell[0]][1][cell[1]]
        if NEUTRAL in occ:
            return "blocked-twice", "a neutral marker already blocks that space."
        if 0 in occ:
            return "blocked-own-space", ("Player 1's own marker is on that space: only an "
                                         "empty space can be blocked.")
        return "blocked-taken-space", ("another player's marker is on that space: only an "
                                       "empty space can be blocked.")
    return refuse


_BLOCK_OURS = ("This reading of the rules is ours: the neutral markers go only on empty card "
               "spaces, and a blocked space counts as filled when a card is checked for being "
               "complete.")


def _block_cells(s: GameState, seed: int) -> Exercise:
    """Level 1: click every space the neutral markers may block."""
    right = _blockable(s)
    taken = tuple((i, j) for i, (_, sp) in enumerate(s.slots) for j, o in enumerate(sp) if o)
    return SpacesExercise(
        kind="inori.block_spaces", seed=seed,
        question=(f"Player 1 (marker 1) has just offered on Great Tree space "
                  f"{s.edition.tree[_block_tree_space(s.edition)].id}, 'Block two spaces'. "
                  "Click every card space where Player 1 may put a neutral marker now."),
        answer_kind="cells", answer=right,
        checker=_spaces_checker(s, right, _block_refuse(s), "A space that may be blocked is "
                                "not clicked yet: look again at every card, space by space.",
                                "every empty card space may be blocked"),
        draw=_drawer(s),
        hints=("The neutral markers go on card spaces. Which of them hold nothing yet?",
               f"Count on each card: on {_taken_words(s)}. The taken ones are marked; any "
               f"marker on a space, whoever it belongs to, closes it."),
        hint_marks=((), taken),
        explanation="Any empty card space may be blocked, on any card; spaces with a marker "
                    "of any player, or a neutral marker, may not. " + _BLOCK_OURS,
        context={"state": s})


def _block_choices(s: GameState, seed: int) -> Exercise:
    """Level 2: which cards can the neutral markers make complete?"""
    right = frozenset(str(i) for i in _completable(s))
    ed = s.edition
    left = s.neutral_home
    free = {i: sum(1 for o in sp if not o) for i, (_, sp) in enumerate(s.slots)}
    options = tuple(Option(str(i), "The" + card_words(s, i)[3:])
                    for i in range(len(s.slots)))

    def why_not(key: str) -> tuple[str, str]:
        n = free[int(key)]
        if n == 0:
            return "complete-already", ("that card is complete already: blocking cannot make "
                                        "it complete now.")
        if n > 2:
            return "too-many-free", (f"that card has {plural(n, 'empty space')}, more than "
                                     "the two neutral markers can fill.")
        return "neutral-on-board", ("count the neutral markers still off the board: only "
                                    "those can be put down now.")

    return Exercise(
        kind="inori.block_spaces", seed=seed,
        question=(f"Player 1 has just offered on Great Tree space "
                  f"{ed.tree[_block_tree_space(ed)].id}, 'Block two spaces', and now puts the "
                  "neutral markers that are off the board on empty card spaces. Which cards "
                  "can Player 1 make complete this way? Pick every one."),
        answer_kind="choices", answer=right, options=options,
        checker=lambda given: choices_verdict(
            given, right, why_not=why_not,
            missed="A card that can be made complete is not picked yet: count the empty "
                   "spaces on each card and the neutral markers still to place.",
            right_reason="Right: a blocked space counts as filled, so those cards become "
                         "complete."),
        draw=_drawer(s),
        hints=("A blocked space counts as filled. Count the empty spaces on each card.",
               f"On {_taken_words(s)}. Neutral markers still off the board: {left} (any on a "
               f"card stay where they are)."),
        explanation="A card becomes complete when its last empty spaces are blocked, and only "
                    "the neutral markers still off the board can be placed. " + _BLOCK_OURS,
        context={"state": s})


@register("inori.block_spaces", game=GAME.name, notebook=NB2,
          rule="'Block two spaces' puts the neutral markers on empty card spaces; a blocked "
               "space counts as filled (our reading)",
          title="Blocking card spaces with the neutral markers",
          levels=("which spaces may be blocked", "which cards blocking can make complete"))
def block_spaces(seed: int, level: int = 1) -> Exercise:
    s = _block_position(_rng("block_spaces", seed, level), seed, level)
    return _block_cells(s, seed) if level == 1 else _block_choices(s, seed)
