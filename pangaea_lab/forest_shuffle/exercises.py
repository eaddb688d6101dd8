"""Exercise kinds for Forest Shuffle (see :mod:`pangaea_lab.core.exercises`): each builds a
position from a seed and a level and lets the rules engine answer it.

Positions are real game states: the cards are dealt by id from a seeded two-player game, so
every forest is one the deck can lay out, and every answer comes from playing the move with
the engine (or scoring the forest with it).  A wrong answer gets a reason about *that* answer
(the rule it breaks, the typical mistake it shows, named as a misconception), never the
right one; hints go from a nudge to a pointer on this very position.  Level 1 asks about a
small position, level 2 about a fuller one with more to look past.

>>> ex = can_play(3, 1)
>>> ex.check(ex.answer).correct
True
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from functools import lru_cache
from typing import Callable, Iterable, Mapping

from ..core.exercises import (Exercise, Option, a, cells_verdict, choice_verdict,
                              choices_verdict, number_verdict, plural, register, short)
from .actions import (Decide, DrawCard, Finish, Mulligan, Pay, PlaceFree, PlayDweller,
                      PlaySapling, PlayTree, ToCave)
from .cards import SAPLING, SIDES
from .edition import catalog, rules_data
from .effects import bonus_earned, effect_text, part_text
from .forest import Forest, Tree, can_join
from .render import SIDE_NUMBER, position_svg
from .setup import new_game
from .scoring import explain, score
from .state import GameState, dweller_of
from .game import GAME

NB1 = "forest_shuffle/01_setup_and_turns.ipynb"
NB2 = "forest_shuffle/02_effects_and_bonuses.ipynb"
NB3 = "forest_shuffle/03_scoring_every_species.ipynb"
NUMBER_SIDE = {n: s for s, n in SIDE_NUMBER.items()}
#: what a learner reads when the engine's own reading of a rule is one of ours
OURS = "This reading of the rules is ours, as in the online version: "
MINE = "This reading of the rules is ours: "


# ----- building positions ------------------------------------------------------------------

def _rng(kind: str, seed: int, level: int = 1) -> random.Random:
    return random.Random(f"forest_shuffle.{kind}.{seed}.{level}")


@lru_cache(maxsize=1)
def _base() -> GameState:
    """The seeded game every position starts from (player 2's hand stays untouched)."""
    return new_game(players=2, seed=0)


def _pool() -> list[int]:
    """Card ids a position may use (every playable card but player 2's hand)."""
    taken = set(_base().hands[1])
    return [c for c in catalog().playable_ids if c not in taken]


def _take(rng: random.Random, pool: list[int], ok: Callable[[int], bool]) -> int | None:
    """A random card of ``pool`` that passes ``ok``, removed from the pool (None if none)."""
    fits = [c for c in pool if ok(c)]
    if not fits:
        return None
    cid = rng.choice(fits)
    pool.remove(cid)
    return cid


def _is_tree(species: str) -> Callable[[int], bool]:
    return lambda c: catalog().card(c).species == species


def _shows(test: Callable[[str], bool]) -> Callable[[int], bool]:
    """Split cards with a half whose species passes ``test``."""
    return lambda c: catalog().card(c).is_split and any(test(h.species)
                                                        for h in catalog().card(c).halves)


def _types(species: str) -> tuple[str, ...]:
    return ("tree",) if species == SAPLING else catalog().species(species).types


def _plant(rng: random.Random, pool: list[int], forest: Forest, species: str) -> Forest:
    if species == SAPLING:
        cid = _take(rng, pool, lambda c: catalog().card(c).is_split)
        return forest.plant(Tree(SAPLING, cid))
    return forest.plant(Tree(species, _take(rng, pool, _is_tree(species))))


def _add(rng: random.Random, pool: list[int], forest: Forest, test: Callable[[str], bool],
         trees: Iterable[int] | None = None, sides: Iterable[str] = SIDES) -> Forest:
    """Place one random card whose shown half passes ``test`` into a free slot (unchanged
    forest if none fits)."""
    options = []
    spots = list(trees) if trees is not None else range(len(forest.trees))
    sides = tuple(sides)
    for cid in pool:
        card = catalog().card(cid)
        if not card.is_split:
            continue
        for side, half in zip(card.sides(), card.halves):
            if side not in sides or not test(half.species):
                continue
            for i in spots:
                if can_join(forest.trees[i].slot(side), half.species) is None:
                    options.append((cid, side, i))
    if not options:
        return forest
    cid, side, i = rng.choice(options)
    pool.remove(cid)
    return forest.place(i, side, dweller_of(cid, side))


def _random_forest(rng: random.Random, pool: list[int], trees: int, dwellers: int,
                   sapling: float = 0.2, test: Callable[[str], bool] = lambda s: True) -> Forest:
    forest = Forest()
    names = catalog().tree_species()
    for _ in range(trees):
        forest = _plant(rng, pool, forest, SAPLING if rng.random() < sapling
                        else rng.choice(names))
    for _ in range(dwellers):
        forest = _add(rng, pool, forest, test)
    return forest


def _forest_cards(forest: Forest) -> list[int]:
    out = []
    for t in forest.trees:
        out.append(t.card)
        out += [d.card for _, d in t.dwellers()]
    return out


def _state(forest: Forest, hand: Iterable[int], clearing: Iterable[int] = (),
           deck_top: Iterable[int] = (), winter_out: int = 0,
           rival: Forest | None = None) -> GameState:
    """Player 1's turn in the base game with exactly these cards (the rest stays in the
    deck or out of the game, so every card is accounted for)."""
    base = _base()
    hand, clearing, deck_top = list(hand), list(clearing), list(deck_top)
    rival = rival or Forest()
    used = (set(hand) | set(clearing) | set(deck_top) | set(_forest_cards(forest))
            | set(_forest_cards(rival)))
    deck = [c for c in base.deck if c not in used]
    winter = [c for c in catalog().winter_ids if c not in used][:winter_out]
    deck = deck_top + [c for c in deck if c not in winter]
    removed = [c for c in base.removed + base.hands[0] if c not in used]
    st = replace(base, deck=tuple(deck), removed=tuple(removed), box=(), winter=tuple(winter),
                 hands=(tuple(sorted(hand)), base.hands[1]), clearing=tuple(clearing),
                 forests=(forest, rival), caves=((), ()), current=0, phase="turn",
                 mulligan_left=(), pending=(), busy=False, extra_turns=0, this_turn=(), turn=1)
    st.check_invariants()
    return st


def _skip_choices(st: GameState) -> GameState:
    """Finish the turn declining every optional part (effects, bonuses, draws)."""
    turn = st.turn
    while not st.is_over and st.turn == turn and st.step is not None:
        step = st.step
        if step.kind in ("mushroom", "effect", "bonus"):
            st = st.apply(Decide(step.kind, step.tag, False))
        elif step.kind in ("free", "raccoon", "mole"):
            st = st.apply(Finish(step.kind))
        else:
            break
    return st


def _pay_all(st: GameState, payment: Iterable[int]) -> GameState:
    for c in payment:
        if st.step is None or st.step.kind != "pay":
            break
        st = st.apply(Pay(c))
    return st


def _play_last_tree(st: GameState, cid: int, side: str, payment: Iterable[int]) -> GameState:
    """Play the dweller ``cid`` on ``side`` of the last tree of your forest and pay for it,
    declining any mushroom draw, up to the card's own effect."""
    last = len(st.forests[0].trees) - 1
    after = _pay_all(st.apply(PlayDweller(cid, side, last)), payment)
    while after.step is not None and after.step.kind == "mushroom":  # pragma: no cover
        after = after.apply(Decide("mushroom", after.step.tag, False))
    return after


def rules_data_option(name: str) -> bool:
    """The default of a labelled option in ``data/rules.json``."""
    return next(x["default"] for x in rules_data()["assumptions"] if x["option"] == name)


# ----- words --------------------------------------------------------------------------------

def _name(cid: int) -> str:
    return catalog().card(cid).name


def _half_words(cid: int, side: str) -> str:
    half = catalog().card(cid).half_for(side)
    return f"{half.species} ({side} half, {half.symbol} symbol, cost " \
           f"{catalog().species(half.species).cost})"


def _card_words(cid: int) -> str:
    """A card in plain words, with what a learner needs: costs and symbols."""
    card = catalog().card(cid)
    if card.is_tree:
        return f"{card.species} (tree, cost {catalog().species(str(card.species)).cost})"
    return " / ".join(_half_words(cid, s) for s in card.sides())


def _symbols_words(cid: int) -> str:
    card = catalog().card(cid)
    if card.is_tree:
        return f"{card.species} (a tree shows its own symbol)"
    return " and ".join(f"{h.species}: {h.symbol}" for h in card.halves)


def _slot_words(i: int, side: str) -> str:
    return f"tree {i + 1}, {side} slot"


def _tree_name(tree: Tree) -> str:
    return "sapling" if tree.is_sapling else tree.species


def _plural(n: int, word: str) -> str:
    """Core's :func:`plural`, knowing the game's nouns: a species name that already ends in
    "s" or names deer stays as it is, one in "ch", "sh" or "x" takes "es" ("2 Beeches",
    "3 deer", "2 Tree Ferns")."""
    if word.endswith("s") or word.lower().endswith("deer"):
        return plural(n, word, word)
    return plural(n, word, word + "es" if word.endswith(("ch", "sh", "x")) else None)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _list(words: Iterable[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# ----- feedback that diagnoses, never telling the answer --------------------------------------

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?![\w.])")


def _leaks(text: str, answer: int, question: str) -> bool:
    """Does ``text`` show the number ``answer`` (one the question does not show already)?"""
    shown = str(answer)
    return shown in _NUMBER.findall(text) and shown not in _NUMBER.findall(question)


def _number(kind: str, seed: int, *, question: str, answer: int, what: str, rule: str,
            hints: Iterable[str], draw: Callable, explanation: str, context: dict,
            mistakes: Iterable[tuple[int, str, str]] = (), hint_marks: tuple = (),
            safe_hints: tuple[str, str] = ("Read the rule in the question again, then go "
                                           "through the position card by card.",
                                           "Count again slowly, writing down each part "
                                           "before you add them up.")) -> Exercise:
    """A typed-number exercise whose wrong answers are diagnosed: ``mistakes`` lists
    (value, misconception, reason) for the typical wrong values of this position; any
    reason (or hint) that would show the answer is left out."""
    table: dict[int, tuple[str, str]] = {}
    for value, name, reason in mistakes:
        if value != answer and value not in table and not _leaks(reason, answer, question):
            table[value] = (name, reason)
    if _leaks(rule, answer, question):
        rule = "Go through the rule again, card by card, for this position."
    shown = [h for h in hints if h and not _leaks(h, answer, question)]
    for extra in safe_hints:
        if len(shown) >= 2:
            break
        if extra not in shown:
            shown.append(extra)
    marks = hint_marks if len(shown) == len(tuple(hints)) else ()
    return Exercise(
        kind=kind, seed=seed, question=question, answer_kind="number", answer=answer,
        checker=lambda value: number_verdict(value, answer, what=what, rule=rule,
                                             misconceptions=table,
                                             right_reason=f"Right. {explanation}"),
        hints=tuple(shown), hint_marks=marks, draw=draw, explanation=explanation,
        context=context)


def _cell_place(forest: Forest, cell: tuple) -> str:
    """A clickable cell of a forest drawing in words: "tree 2" or "tree 2, left slot"."""
    if len(cell) == 1:
        return f"tree {cell[0] + 1}"
    if len(cell) == 2 and cell[1] in NUMBER_SIDE:
        return _slot_words(cell[0], NUMBER_SIDE[cell[1]])
    return "that place"


# ===== notebook 1: setup and turns ===========================================================

def _play_reason(st: GameState, cid: int) -> tuple[bool, str, str]:
    """Can ``cid`` be played now (not as a sapling), why, and the typical mistake behind
    picking it when it cannot, from the engine's own rules."""
    cat = catalog()
    budget = len(st.hands[0]) - 1
    card = cat.card(cid)
    forest = st.forests[0]
    if card.is_tree:
        cost = cat.species(str(card.species)).cost
        if cost <= budget:
            return True, f"{card.species} costs {cost} and you can pay with other cards.", ""
        return False, (f"{card.species} costs {cost}, but you hold only {budget} other "
                       f"cards to pay with (a card never pays for itself)."), \
            "paid-with-itself" if cost == budget + 1 else "too-expensive"
    reasons, ok, name = [], False, ""
    for side, half in zip(card.sides(), card.halves):
        cost = cat.species(half.species).cost
        spots = [i for i, s in forest.free_spots(half.species) if s == side]
        if cost > budget:
            reasons.append(f"{half.species} costs {cost}, but you hold only {budget} other "
                           f"cards")
            name = name or ("paid-with-itself" if cost == budget + 1 else "too-expensive")
        elif not spots:
            reasons.append(f"{half.species} needs a free {side} slot, and none of your trees "
                           f"has one")
            name = "no-free-slot"
        else:
            ok = True
            reasons.append(f"{half.species} costs {cost} (you can pay) and fits {side} of "
                           f"tree {spots[0] + 1}")
    return ok, f"{card.name}: " + "; ".join(reasons) + ".", name


def _free_slots_words(forest: Forest) -> str:
    parts = []
    for i, t in enumerate(forest.trees):
        free = [s for s in SIDES if not t.slot(s)]
        parts.append(f"tree {i + 1}: " + (", ".join(free) if free else "no free slot"))
    return "; ".join(parts)


@register("forest_shuffle.can_play", game=GAME.name, notebook=NB1,
          rule="To play a card you pay its cost with other cards from your hand, and a half "
               "needs a free slot on its side of a tree",
          title="Which cards can you play?",
          levels=("three cards and one tree", "five cards and a fuller forest"))
def can_play(seed: int, level: int = 1) -> Exercise:
    rng = _rng("can_play", seed, level)
    size, trees, dwellers = (3, (1, 1), (0, 2)) if level == 1 else (5, (2, 3), (2, 5))
    while True:
        pool = _pool()
        forest = _random_forest(rng, pool, rng.randint(*trees), rng.randint(*dwellers))
        hand: list[int] = []
        for _ in range(size):
            tree_card = rng.random() < 0.35
            seen = {_card_words(c) for c in hand}
            hand.append(_take(rng, pool, lambda c: (catalog().card(c).is_tree == tree_card
                                                    and _card_words(c) not in seen)))
        st = _state(forest, hand)
        verdicts = {str(c): _play_reason(st, c) for c in hand}
        right = frozenset(k for k, (ok, _, _) in verdicts.items() if ok)
        engine = {str(x.card) for x in st.legal_actions() if isinstance(x, (PlayTree,
                                                                               PlayDweller))}
        if engine == right and 0 < len(right) < len(hand):
            break
    budget = len(hand) - 1
    return Exercise(
        kind="forest_shuffle.can_play", seed=seed,
        question=(f"It is your turn and you hold these {len(hand)} cards. Which of them could "
                  f"you play into your forest now (not face down as a sapling)? Pick every one."),
        answer_kind="choices", answer=right, options=tuple(Option(str(c), _card_words(c))
                                                           for c in hand),
        checker=lambda given: choices_verdict(
            given, right, why_not=lambda k: (verdicts[k][2], verdicts[k][1]),
            missed="A card you left out can be played too: check each card's cost against the "
                   "other cards you hold, and look for a free slot on its own side of a tree.",
            right_reason="Right: " + " ".join(verdicts[k][1] for k in sorted(right))),
        draw=lambda marked: position_svg(forest, hand=hand, title="Which cards can you play?"),
        hints=(f"You hold {len(hand)} cards, so at most {budget} other cards can pay: compare "
               f"that with each card's cost. A card never pays for itself.",
               f"Free slots in your forest: {_free_slots_words(forest)}. A split card's half "
               f"needs a free slot on its own side (top, bottom, left or right)."),
        explanation=" ".join(verdicts[str(c)][1] for c in hand),
        context={"state": st})


def _placement_why(forest: Forest, card, cell: tuple) -> tuple[str, str]:
    """The mistake behind clicking a cell for a card, and why the card cannot go there (the
    name is empty, and the reason says why it fits, where it can)."""
    if len(cell) == 1:
        return "clicked-tree", "that is the tree itself; a card goes into a slot beside it."
    i, side = cell[0], NUMBER_SIDE[cell[1]]
    half = card.half_for(side)
    if half is None:
        sides = " and ".join(card.sides())
        return "wrong-side", (f"this is a {card.kind.replace('-', '/')} card, so its halves "
                              f"go only {sides} of a tree.")
    problem = can_join(forest.trees[i].slot(side), half.species)
    if problem:
        return "slot-taken", f"{problem}."
    return "", f"its {half.species} half fits there."


@register("forest_shuffle.where_to_place", game=GAME.name, notebook=NB1,
          rule="A split card goes on the side of a tree its half belongs to (top, bottom, left "
               "or right), into a free slot; only European Hares (and two Common Toads) share one",
          title="Where can this card go?",
          levels=("two trees with a few cards", "three trees, stacks of Hares or Toads"))
def where_to_place(seed: int, level: int = 1) -> Exercise:
    rng = _rng("where_to_place", seed, level)
    cat = catalog()
    trees, dwellers, share = ((2, 2), (1, 3), 0.1) if level == 1 else ((3, 3), (3, 6), 0.35)
    while True:
        pool = _pool()
        forest = _random_forest(rng, pool, rng.randint(*trees), rng.randint(*dwellers))
        if rng.random() < share:   # a hare or a toad, to show the cards that share a slot
            forest = _add(rng, pool, forest, lambda s: s in ("European Hare", "Common Toad"))
            cid = _take(rng, pool, _shows(lambda s: s in ("European Hare", "Common Toad")))
        else:
            cid = _take(rng, pool, lambda c: cat.card(c).is_split)
        cost = max(cat.species(h.species).cost for h in cat.card(cid).halves)
        payment = [_take(rng, pool, lambda c: cat.card(c).is_tree) for _ in range(cost)]
        st = _state(forest, [cid] + payment)
        right = frozenset((x.tree, SIDE_NUMBER[x.side]) for x in st.legal_actions()
                          if isinstance(x, PlayDweller) and x.card == cid)
        if right:
            break
    card = cat.card(cid)
    sides = card.sides()
    halves = "; ".join(f"its {h.species} half goes {s}" for s, h in zip(sides, card.halves))
    look = tuple((i, SIDE_NUMBER[s]) for i in range(len(forest.trees)) for s in sides)
    marks = (tuple((i,) for i in range(len(forest.trees))),
             look if frozenset(look) != right else ())
    return Exercise(
        kind="forest_shuffle.where_to_place", seed=seed,
        question=(f"You want to play the {card.name} card (the first card of your hand; pay "
                  f"with the others). Click every slot of your forest where one of its halves "
                  f"could go."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=lambda c: _placement_why(forest, card, c),
            missed=(f"Every slot you clicked fits, but the card fits elsewhere too: look again "
                    f"at the {sides[0]} and {sides[1]} slots of every tree."),
            words=lambda c: _cell_place(forest, c),
            right_reason="Right: " + " ".join(
                f"{_cap(_cell_place(forest, c))}: {_placement_why(forest, card, c)[1]}"
                for c in sorted(right))),
        draw=lambda marked: position_svg(forest, hand=[cid] + payment, cells=True,
                                         marked=marked, title="Where can this card go?"),
        hints=(f"The {card.name} is a {card.kind.replace('-', '/')} card: each half shows on "
               f"its own side of a tree. Which sides are those?",
               f"{_cap(halves)}. A slot must be empty, unless Hares join Hares (or a second "
               f"Toad joins a Toad). Check those slots on each of your "
               f"{_plural(len(forest.trees), 'tree')}."),
        hint_marks=marks,
        explanation=" ".join(f"{_cap(_cell_place(forest, c))}: "
                             f"{_placement_why(forest, card, c)[1]}" for c in sorted(right)),
        context={"state": st, "card": cid})


def _draw_turn(st: GameState) -> GameState:
    """Draw from the deck for the whole turn (two cards, or fewer at the hand limit)."""
    if DrawCard(None) not in st.legal_actions():
        return st
    after = st.apply(DrawCard(None))
    if not after.is_over and after.step is not None and after.step.kind == "draw":
        after = after.apply(DrawCard(None))
    return after


@register("forest_shuffle.draw_two", game=GAME.name, notebook=NB1,
          rule="Drawing is one card at a time, two in a turn, but never past 10 cards in hand; "
               "a winter card drawn is laid out and replaced",
          title="Drawing two cards",
          levels=("how many cards you may draw", "your hand after drawing, with winter cards"))
def draw_two(seed: int, level: int = 1) -> Exercise:
    rng = _rng("draw_two", seed, level)
    cat = catalog()
    pool = _pool()
    n = rng.choice([5, 6, 7, 8, 9, 9, 10, 10] if level == 1 else [4, 5, 6, 7, 8, 9, 9, 10])
    forest = _random_forest(rng, pool, 1, rng.randint(0, 2), sapling=0)
    hand = [_take(rng, pool, lambda c: True) for _ in range(n)]
    cleared = [_take(rng, pool, lambda c: True) for _ in range(rng.randint(1, 4))]
    top = [_take(rng, pool, lambda c: True) for _ in range(3)]
    winters = 0
    if level == 2 and rng.random() < 0.6:
        top.insert(rng.randint(0, 1), cat.winter_ids[-1])
        winters = 1
    st = _state(forest, hand, clearing=cleared, deck_top=top if level == 2 else (),
                winter_out=rng.randint(0, 1) if level == 2 else 0)
    after = _draw_turn(st)
    drawn = len(after.hands[0]) - n
    limit = ("A hand holds at most 10 cards: drawing stops as soon as your hand is full.")
    mistakes = [(2, "ignored-hand-limit", limit), (1, "ignored-hand-limit", limit),
                (n + 2, "ignored-hand-limit", limit), (n + 1, "ignored-hand-limit", limit)]
    if n < 9:
        mistakes.insert(0, (1 if level == 1 else n + 1, "one-card-only",
                            "A turn of drawing takes two cards, one after the other, as long "
                            "as your hand has room."))
    if winters:
        mistakes.insert(0, (n + 3, "winter-in-hand", "A winter card never goes into a hand: "
                            "it is laid out beside the clearing and the next card replaces it."))
        mistakes.insert(1, (n + 1, "winter-not-replaced", "A winter card drawn is replaced at "
                            "once by the next card of the deck, so it does not cost you a draw."))
    if level == 1:
        question = (f"You hold {n} cards and choose to draw this turn (from the deck or the "
                    f"clearing). How many cards can you draw?")
        answer, what = drawn, "the number of cards you can draw"
        mistakes = [m for m in mistakes if m[0] <= 2]
    else:
        question = (f"You hold {n} cards and draw this turn from the deck, whose next cards are "
                    f"shown (top first). A hand holds at most 10 cards. How many cards do you hold at "
                    f"the end of your turn?")
        answer, what = len(after.hands[0]), "the size of your hand after the turn"
        mistakes = [m for m in mistakes if m[0] > 2]
    because = (f"You hold {n} cards; you draw two cards one at a time, stopping when the hand "
               f"is full (10 cards)"
               + ("; the winter card is laid out and replaced" if winters else "")
               + f": {_plural(drawn, 'card')} drawn.")
    return _number(
        "forest_shuffle.draw_two", seed, question=question, answer=answer, what=what,
        rule="Draw one card at a time, two in all; a hand never holds more than 10 cards"
             + (", and a winter card never goes into a hand." if level == 2 else "."),
        hints=(f"Count your hand: {n} cards. How much room is left below the limit?",
               f"Draw the cards one by one: after each, is your hand full yet?"
               + (" The winter card shown on the deck is laid out, not kept." if winters
                  else "")),
        draw=lambda marked: position_svg(forest, hand=hand, clearing=cleared,
                                         deck_top=top if level == 2 else (),
                                         title="Drawing two cards"),
        explanation=because, context={"state": st, "after": after}, mistakes=mistakes)


@register("forest_shuffle.clearing", game=GAME.name, notebook=NB1,
          rule="Payments go to the clearing and a new tree turns up the top deck card there; "
               "at the end of a turn a clearing of 10 or more cards is emptied out of the game",
          title="The clearing",
          levels=("a tree paid for, a few cards in the clearing",
                  "trees or saplings, a clearing close to its limit"))
def clearing(seed: int, level: int = 1) -> Exercise:
    rng = _rng("clearing", seed, level)
    cat = catalog()
    pool = _pool()
    forest = _random_forest(rng, pool, 1, rng.randint(0, 2), sapling=0)
    sapling = level == 2 and rng.random() < 0.35
    species = rng.choice(["Linden", "Sycamore", "Horse Chestnut", "Douglas Fir", "Oak",
                          "Beech", "Silver Fir"])
    tree = _take(rng, pool, _is_tree(species))
    cost = 0 if sapling else cat.species(species).cost
    payment = [_take(rng, pool, lambda c: cat.card(c).is_split) for _ in range(cost)]
    cleared = [_take(rng, pool, lambda c: True)
               for _ in range(rng.randint(2, 8) if level == 1 else rng.randint(5, 9))]
    top = _take(rng, pool, lambda c: cat.card(c).is_split)
    st = _state(forest, [tree] + payment, clearing=cleared, deck_top=[top])
    after = st.apply(PlaySapling(tree) if sapling else PlayTree(tree))
    after = _skip_choices(_pay_all(after, payment))
    answer = len(after.clearing)
    flips = 1 if not sapling or rules_data_option("sapling_flips_clearing") else 0
    total = len(cleared) + cost + flips
    play_words = (f"play the {species} face down as a sapling (it costs nothing)" if sapling
                  else f"play the {species} (cost {cost}), paying with "
                       + ("the other card of your hand" if cost == 1
                          else f"the other {cost} cards of your hand"))
    label = (OURS + "a sapling turns up a card into the clearing, as a tree does.") \
        if sapling else ""
    because = (f"{len(cleared)} cards + {cost} paid + {flips} turned up from the deck = "
               f"{total}: " + ("10 or more at the end of the turn, so all leave the game."
                               if total >= 10 else "fewer than 10, so they stay.")
               + (" " + label if label else ""))
    mistakes = [
        (total, "kept-full-clearing", "At the end of a turn a clearing holding 10 cards or "
                                      "more is emptied out of the game."),
        (0, "emptied-too-early", "The clearing is emptied only when it holds 10 or more cards "
                                 "at the end of the turn: count again what lies there."),
        (total - flips, "forgot-turned-up-card",
         "Playing a tree (or a sapling) turns up the top card of the deck into the clearing: "
         "did you count it?" + (" " + label if label else "")),
        (len(cleared) + flips, "forgot-payment", "The cards you pay with go into the clearing "
                                                 "too."),
        (len(cleared), "nothing-added", "This turn adds cards to the clearing: your payments, "
                                        "and a card turned up from the deck.")]
    return _number(
        "forest_shuffle.clearing", seed,
        question=(f"The clearing holds {len(cleared)} cards. You {play_words}. How many cards "
                  f"lie in the clearing at the end of your turn?"),
        answer=answer, what="the number of cards in the clearing after the turn",
        rule="Add what goes into the clearing this turn, then check the limit at the end of "
             "the turn.",
        hints=("Count what goes into the clearing this turn: the cards you pay with, and the "
               "card a new tree (or sapling) turns up from the deck.",
               f"Start from the {len(cleared)} cards there, add "
               + ("nothing paid (a sapling is free)" if sapling
                  else f"your {_plural(cost, 'payment')}")
               + ", add the card turned up; then, at the end of the turn, is the clearing at "
               "its limit of 10?"),
        draw=lambda marked: position_svg(forest, hand=[tree] + payment, clearing=cleared,
                                         deck_top=[top], title="The clearing"),
        explanation=because, context={"state": st, "after": after}, mistakes=mistakes)


def _winter_story(deck_top: list[int], out: int, room: int) -> tuple[str, int]:
    """What drawing from this deck does, step by step, and how many winter cards show."""
    cat = catalog()
    story, seen, drawn, shown = [], out, 0, 0
    for cid in deck_top:
        if drawn >= min(2, room):
            break
        if cat.card(cid).kind == "winter":
            seen += 1
            shown += 1
            story.append(f"a winter card is laid out ({seen} of 3)"
                         + (": the third ends the game at once" if seen == 3
                            else " and the next card replaces it"))
            if seen == 3:
                break
        else:
            drawn += 1
            story.append(f"{_name(cid)} goes to your hand")
    return "You draw from the deck: " + "; then ".join(story) + ".", shown


def _winter_why(option: str, got: int, ends: bool, shown: int) -> tuple[str, str]:
    """The mistake behind a wrong outcome picked in the winter exercise, and why it is
    wrong."""
    n, end = int(option[0]), option.endswith("end")
    if end and not ends:
        return "ends-too-early", ("The game ends only when the third winter card comes out: "
                                  "count the winter cards already out and those you turn up "
                                  "while drawing.")
    if ends and not end:
        return "missed-third-winter", ("Count the winter cards: those already out, and each "
                                       "one you turn up while drawing. What happens the "
                                       "moment the third one comes out?")
    if n > got and ends:
        return "kept-drawing-after-end", ("The third winter card ends the game at once, even "
                                          "in the middle of drawing, and a winter card never "
                                          "goes into a hand.")
    if n > got:
        return "ignored-hand-limit", ("A hand holds at most 10 cards: drawing stops when it "
                                      "is full.")
    if shown:
        return "winter-not-replaced", ("A winter card drawn is replaced at once by the next "
                                       "card of the deck: it does not use up one of your two "
                                       "draws.")
    return "one-card-only", "A turn of drawing takes two cards, one after the other."


@register("forest_shuffle.winter", game=GAME.name, notebook=NB1,
          rule="A winter card drawn is laid out and replaced by the next card; the third "
               "winter card ends the game at once",
          title="Winter cards",
          levels=("the next three cards of the deck", "a fuller hand, four cards of the deck"))
def winter(seed: int, level: int = 1) -> Exercise:
    rng = _rng("winter", seed, level)
    cat = catalog()
    pool = _pool()
    out = rng.choice([1, 2, 2, 2] if level == 1 else [0, 1, 2, 2])
    sequence: list = []
    winters_left = 3 - out
    for _ in range(3 if level == 1 else 4):
        if winters_left and rng.random() < 0.45:
            sequence.append("W")
            winters_left -= 1
        else:
            sequence.append(_take(rng, pool, lambda c: True))
    forest = _random_forest(rng, pool, 1, 1, sapling=0)
    size = rng.randint(2, 4) if level == 1 else rng.choice([5, 7, 9, 9])
    hand = [_take(rng, pool, lambda c: True) for _ in range(size)]
    spare = list(cat.winter_ids)
    deck_top = [spare.pop() if item == "W" else item for item in sequence]
    st = _state(forest, hand, deck_top=deck_top, winter_out=out)
    after = _draw_turn(st)
    got = len(after.hands[0]) - len(hand)
    key = f"{got}-{'end' if after.is_over else 'on'}"
    options = tuple(Option(f"{n}-{e}", f"you get {_plural(n, 'new card')}, and the game "
                                       f"{'ends' if e == 'end' else 'goes on'}")
                    for n in (0, 1, 2) for e in ("on", "end"))
    room = 10 - size
    because, shown = _winter_story(deck_top, out, room)
    first = next((k + 1 for k, c in enumerate(deck_top) if cat.card(c).kind == "winter"), 0)
    where = (f"The first winter card is card {first} of those shown." if first
             else "No winter card is among the cards shown.")
    return Exercise(
        kind="forest_shuffle.winter", seed=seed,
        question=(f"{_plural(out, 'winter card')} of 3 {'is' if out == 1 else 'are'} already "
                  f"out. You hold {_plural(size, 'card')} and draw this turn from the deck, "
                  f"whose next cards are shown (top first). What happens?"),
        answer_kind="choice", answer=key, options=options,
        checker=lambda choice: choice_verdict(
            choice, key, why_not=lambda o: _winter_why(o, got, after.is_over, shown),
            right_reason="Right. " + because),
        draw=lambda marked: position_svg(None, hand=hand, deck_top=deck_top, winter=out,
                                         title="Winter cards"),
        hints=(f"{_plural(out, 'winter card')} {'is' if out == 1 else 'are'} out already. Go "
               f"through the cards of the deck one at a time, top first.",
               f"{where} A winter card is laid out, never kept, and the next card replaces it; "
               f"the third one ends the game at once. Your hand stops at 10 cards."),
        explanation=because, context={"state": st, "after": after})


# ----- setup --------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def _swap_seeds(players: int) -> tuple[int, ...]:
    """Seeds (of the first 400) whose game for ``players`` deals someone a hand without
    trees, as the engine's setup finds it."""
    return tuple(s for s in range(400) if new_game(players=players, seed=s).mulligan_left)


def _setup_game(rng: random.Random, players: int, swap: bool) -> GameState:
    seeds = _swap_seeds(players) if swap else range(400, 800)
    return new_game(players=players, seed=rng.choice(list(seeds)))


def _after_swaps(game: GameState) -> GameState:
    """The game once every player allowed to swap a hand without trees has done so."""
    while game.phase == "mulligan":
        game = game.apply(Mulligan())
    return game


def _setup_mistakes(game: GameState, after: GameState, answer: int) -> list:
    """Typical wrong deck counts after the setup, each with its own reason."""
    data = rules_data()["removed_per_players"]
    removed = data[str(game.players)]
    swaps = (len(after.box) // 6) if after is not game else 0
    out = [(answer - len(catalog().winter_ids), "forgot-winter-cards",
            "The three winter cards go into the deck as well (all of them in its bottom "
            "third)."),
           (answer + removed, "forgot-removed-cards",
            "With fewer than five players, some cards go back to the box unseen before the "
            "deck is built."),
           (answer + 6 * game.players, "forgot-starting-hands",
            "Each player's six starting cards come off the deck.")]
    if swaps:
        out.append((answer + 6 * swaps, "forgot-swapped-hand",
                    "A swapped hand goes to the box, and its six new cards come off the deck."))
    for n, other in data.items():
        if n.isdigit() and int(n) != game.players:
            out.append((answer + removed - other, "wrong-player-count",
                        "That count removes as many cards as a game for another number of "
                        "players: the fewer the players, the more cards are removed."))
    return [m for m in out if m[1]]


@register("forest_shuffle.setup_counts", game=GAME.name, notebook=NB1,
          rule="For 2, 3 or 4 players 30, 20 or 10 cards go back to the box unseen; the three "
               "winter cards join the deck; everyone draws six cards",
          title="Setting up the deck",
          levels=("the cards removed, or the deck after dealing",
                  "the deck after dealing, when tree-less hands are swapped"))
def setup_counts(seed: int, level: int = 1) -> Exercise:
    rng = _rng("setup_counts", seed, level)
    players = rng.choice([2, 3, 4, 5])
    game = _setup_game(rng, players, swap=level == 2 and rng.random() < 0.75)
    after = _after_swaps(game) if level == 2 else game
    total = len(catalog().playable_ids)
    ask_removed = level == 1 and rng.random() < 0.4
    swapped = [game.player_name(p) for p in game.mulligan_left] if level == 2 else []
    table = rules_data()["removed_per_players"]
    if ask_removed:
        answer = len(game.removed)
        question = (f"You set up a game for {players} players. How many cards go back to the "
                    f"box unseen before the deck is built?")
        what = "the number of cards removed for this many players"
        mistakes = [(table[n], "wrong-player-count",
                     "That is how many go back for another number of players: the fewer the "
                     "players, the more cards stay in the box.")
                    for n in ("2", "3", "4", "5") if int(n) != players]
        hints = ("The fewer the players, the more cards stay in the box unseen.",
                 f"Five players use every card; each player fewer than five leaves ten more "
                 f"cards in the box. You are {players}.")
    else:
        answer = len(after.deck)
        who = (f" {_list(swapped)} found no tree in the six cards dealt and "
               f"{'swaps them' if len(swapped) == 1 else 'swap them'} for six new ones."
               if swapped else (" Every player keeps the hand dealt." if level == 2 else ""))
        question = (f"You set up a game for {players} players, as the rulebook says, and "
                    f"everyone draws a hand.{who} How many cards are left in the deck (winter "
                    f"cards included)?")
        what = "the number of cards left in the deck"
        mistakes = _setup_mistakes(game, after, answer)
        hints = (f"Start from the {total} playable cards: some leave before the deck is built, "
                 f"some join it, and the hands are dealt from it.",
                 f"For {players} players: take out the cards that go back to the box, add the "
                 f"3 winter cards, then deal {players} hands of 6"
                 + (" (and 6 more for each swapped hand)." if swapped else "."))
    because = (f"{total} playable cards, {len(game.removed)} back to the box unseen for "
               f"{players} players, the 3 winter cards added, {players} hands of 6 dealt"
               + (f", {_plural(len(swapped), 'hand')} swapped for 6 new cards" if swapped
                  else "") + f": {len(after.deck)} cards left in the deck.")
    return _number(
        "forest_shuffle.setup_counts", seed, question=question, answer=answer, what=what,
        rule="Follow the setup step by step: cards out by the number of players, winter cards "
             "in, six cards to each player.",
        hints=hints, mistakes=mistakes, explanation=because,
        draw=lambda marked: position_svg(None, hand=game.hands[0],
                                         title=f"Your starting hand ({players} players)"),
        context={"state": game, "after": after})


@register("forest_shuffle.starting_hand", game=GAME.name, notebook=NB1,
          rule="A player whose six starting cards hold no tree may, once, return them to the "
               "box and draw six new ones",
          title="Who may swap a starting hand?",
          levels=("two or three players", "four or five players"))
def starting_hand(seed: int, level: int = 1) -> Exercise:
    rng = _rng("starting_hand", seed, level)
    cat = catalog()
    players = rng.choice([2, 3] if level == 1 else [4, 5])
    game = _setup_game(rng, players, swap=rng.random() < 0.75)
    right = frozenset(str(p) for p in game.mulligan_left)
    trees = {str(p): [c for c in game.hands[p] if cat.card(c).is_tree]
             for p in range(players)}
    options = tuple(Option(str(p), f"{game.player_name(p)}: "
                           + ", ".join(_name(c) for c in game.hands[p]))
                    for p in range(players))
    example = next(_name(cs[0]) for cs in trees.values() if cs)

    def why(key: str) -> str:
        found = trees[key]
        return (f"{game.player_name(int(key))}'s hand holds "
                f"{_plural(len(found), 'tree')} ({_list(_name(c) for c in found)}): only a "
                f"hand without a single tree may be swapped.")

    return Exercise(
        kind="forest_shuffle.starting_hand", seed=seed,
        question=(f"A game for {players} players has just been dealt; each hand is listed. "
                  f"Which players may swap their six cards for six new ones? Pick every one "
                  f"(or none)."),
        answer_kind="choices", answer=right, options=options,
        checker=lambda given: choices_verdict(
            given, right, why_not=lambda k: ("swapped-hand-with-trees", why(k)),
            missed="A hand you left out may be swapped too: look for a hand with no tree card "
                   "at all.",
            right_reason=("Right: " + (f"{_list(game.player_name(int(k)) for k in sorted(right))} "
                                       f"{'holds' if len(right) == 1 else 'hold'} no tree." if right
                                       else "every hand holds at least one tree."))),
        draw=lambda marked: position_svg(None, hand=game.hands[0],
                                         title=f"Your starting hand ({players} players)"),
        hints=("Only a hand with no tree card in it may be swapped, and only once.",
               f"A tree card is a single species with no halves, like {a(example)}; look "
               f"through each of the {players} hands for one."),
        explanation=" ".join(why(str(p)) if trees[str(p)] else
                             f"{game.player_name(p)}'s hand holds no tree: it may be swapped."
                             for p in range(players)),
        context={"state": game})


# ===== notebook 2: effects and bonuses ======================================================

_BONUS_SPECIES = [sp.name for sp in catalog().all_species()
                  if any(e["kind"] not in ("mushroom", "counts_as_tree") for e in sp.bonus)]
_ACTIVE_SPECIES = [sp.name for sp in catalog().all_species() if sp.cost >= 1 and any(
    e["kind"] not in ("mushroom", "counts_as_tree") for e in sp.effect + sp.bonus)]


def _card_with(rng: random.Random, pool: list[int], species: str) -> tuple[int, str]:
    """A card showing ``species`` and the placement ("tree" or the half's side)."""
    cat = catalog()
    if cat.species(species).is_tree:
        return _take(rng, pool, _is_tree(species)), "tree"
    cid = _take(rng, pool, _shows(lambda s: s == species))
    side = next(s for s, h in zip(cat.card(cid).sides(), cat.card(cid).halves)
                if h.species == species)
    return cid, side


def _symbol_of(cid: int, placement: str) -> str:
    card = catalog().card(cid)
    return str(card.species) if placement == "tree" else card.half_for(placement).symbol


def _symbol_why(cid: int, symbol: str) -> tuple[str, str]:
    """The mistake behind paying with a card for a bonus that needs ``symbol``, and why the
    card cannot earn it."""
    card = catalog().card(cid)
    if card.is_tree:
        return "tree-shows-own-species", (f"{card.name} is a tree card: a tree shows only its "
                                          f"own species as its symbol, not {symbol}.")
    return "other-symbol", (f"{card.name} shows {_symbols_words(cid)}: neither half shows the "
                            f"{symbol} symbol.")


@register("forest_shuffle.bonus_payment", game=GAME.name, notebook=NB2,
          rule="A bonus applies only if every card you pay with shows the played card's tree "
               "symbol (a split card on either half; a tree shows its own species)",
          title="Which payment earns the bonus?",
          levels=("three cards to pay with", "five cards, trees among them"))
def bonus_payment(seed: int, level: int = 1) -> Exercise:
    rng = _rng("bonus_payment", seed, level)
    cat = catalog()
    while True:
        pool = _pool()
        species = rng.choice(_BONUS_SPECIES)
        cid, placement = _card_with(rng, pool, species)
        symbol = _symbol_of(cid, placement)
        others: list[int] = []
        for _ in range(3 if level == 1 else 5):
            match = rng.random() < 0.45
            seen = {_card_words(c) for c in others}
            others.append(_take(rng, pool, lambda c: (symbol in cat.card(c).symbols()
                                                      or not match)
                                and _card_words(c) not in seen))
        right = frozenset(str(c) for c in others if bonus_earned(cid, placement, (c,)))
        if None not in others and 0 < len(right) < len(others):
            break
    played = (f"the {species} (a tree, cost {cat.species(species).cost})" if placement == "tree"
              else f"the {species} half ({placement}, {symbol} symbol, cost "
                   f"{cat.species(species).cost})")
    _, bonus = effect_text(species)
    trees = [_name(c) for c in others if cat.card(c).is_tree]
    return Exercise(
        kind="forest_shuffle.bonus_payment", seed=seed,
        question=(f"You want to play {played}, the first card of your hand. Its bonus: "
                  f"{bonus}. Which of your other cards could you pay with and still earn the "
                  f"bonus? Pick every one."),
        answer_kind="choices", answer=right,
        checker=lambda given: choices_verdict(
            given, right, why_not=lambda k: _symbol_why(int(k), symbol),
            missed=f"Another card of your hand shows the {symbol} symbol too: look at both "
                   f"halves of each split card.",
            right_reason=f"Right: each of those shows the {symbol} symbol."),
        options=tuple(Option(str(c), _card_words(c)) for c in others),
        draw=lambda marked: position_svg(None, hand=[cid] + others,
                                         title="Which payment earns the bonus?"),
        hints=(f"The {species} shows the {symbol} symbol: every card you pay with must show "
               f"it too.",
               f"Look at the symbol at the bottom of each half: a split card counts if either "
               f"half shows {symbol}"
               + (f"; a tree card ({_list(trees)}) shows only its own species." if trees
                  else "; a tree card shows only its own species.")),
        explanation=" ".join(f"{_name(c)}: the {symbol} symbol is there." if str(c) in right
                             else _symbol_why(c, symbol)[1] for c in others),
        context={"card": cid})


def _effect_words(species: str) -> tuple[str, str]:
    """The species' effect and bonus in words ("none" where it has none)."""
    return tuple(text if text != "-" else "none" for text in effect_text(species))


def _not_showing(payment: Iterable[int], symbol: str) -> list[int]:
    """The payment cards that do not show ``symbol`` (each one costs the bonus)."""
    return [c for c in payment if symbol not in catalog().card(c).symbols()]


def _effect_bonus_why(option: str, species: str, symbol: str, has_effect: bool,
                      has_bonus: bool, bonus_ok: bool, matched: int) -> tuple[str, str]:
    """The mistake behind a wrong pick of "effect, bonus, both or neither", and why it is
    wrong."""
    wants_effect, wants_bonus = option in ("both", "effect"), option in ("both", "bonus")
    if wants_effect != has_effect:
        if has_effect:
            return "effect-needs-payment", ("An effect always applies once the card is paid "
                                            "for, whatever you paid with (you may still skip "
                                            "it).")
        return "no-effect-there", f"Read the {species}'s card again: it has no effect."
    if wants_bonus and not has_bonus:
        return "no-bonus-there", f"Read the {species}'s card again: it has no bonus."
    if wants_bonus:
        return ("one-match-enough" if matched else "bonus-for-free",
                f"A bonus needs every payment card to show the {symbol} symbol: look at each "
                f"card you paid with.")
    return "missed-bonus", (f"Look again at the cards you paid with: what does each show at "
                            f"the bottom? The bonus asks for {symbol}.")


@register("forest_shuffle.effect_or_bonus", game=GAME.name, notebook=NB2,
          rule="After paying, a card's effect always applies; its bonus only if every payment "
               "card shows its tree symbol",
          title="Effect, bonus, or both?",
          levels=("a card of cost 1 or 2", "any card, payments that half match"))
def effect_or_bonus(seed: int, level: int = 1) -> Exercise:
    rng = _rng("effect_or_bonus", seed, level)
    cat = catalog()
    pool = _pool()
    names = [n for n in _ACTIVE_SPECIES if level == 2 or cat.species(n).cost <= 2]
    species = rng.choice(names)
    cid, placement = _card_with(rng, pool, species)
    symbol = _symbol_of(cid, placement)
    forest = _random_forest(rng, pool, 2 if level == 1 else 3, 0 if level == 1 else 3,
                            sapling=0)
    if level == 2:
        forest = _plant(rng, pool, forest, "Birch")     # a tree with every slot free
    cost = cat.species(species).cost
    all_match = rng.random() < 0.5
    payment = []
    for k in range(cost):
        match = all_match or (level == 2 and k > 0 and rng.random() < 0.6)
        payment.append(_take(rng, pool, (lambda c: symbol in cat.card(c).symbols()) if match
                             else (lambda c: symbol not in cat.card(c).symbols())))
    st = _state(forest, [cid] + payment)
    free = next(i for i, t in enumerate(forest.trees) if placement == "tree"
                or not t.slot(placement))
    play = PlayTree(cid) if placement == "tree" else PlayDweller(cid, placement, free)
    after = _pay_all(st.apply(play), payment)
    steps = {s.kind for s in after.pending} & {"effect", "bonus"}
    key = {frozenset({"effect", "bonus"}): "both", frozenset({"effect"}): "effect",
           frozenset({"bonus"}): "bonus", frozenset(): "none"}[frozenset(steps)]
    effect, bonus = _effect_words(species)
    options = (Option("both", "its effect, then its bonus"), Option("effect", "only its effect"),
               Option("bonus", "only its bonus"), Option("none", "neither"))
    bad = _not_showing(payment, symbol)
    facts = (species, symbol, effect != "none", bonus != "none", not bad,
             len(payment) - len(bad))
    parts = [f"Its effect ({effect}) always applies." if effect != "none"
             else f"The {species} has no effect to use."]
    if bonus == "none":
        parts.append(f"The {species} has no bonus.")
    else:
        parts.append(f"Its bonus ({bonus}) needs every payment card to show {symbol}: "
                     + (f"{_list(_name(c) for c in bad)} does not, so no bonus."
                        if bad else "they all do, so you get it."))
    because = " ".join(parts)
    where = "as a tree" if placement == "tree" else f"{placement} of tree {free + 1}"
    return Exercise(
        kind="forest_shuffle.effect_or_bonus", seed=seed,
        question=(f"You play the {species} ({symbol} symbol, cost {cost}) {where}, paying with "
                  + ("the other card" if cost == 1 else f"the other {cost} cards")
                  + f" of your hand. Effect: {effect}; bonus: {bonus}. What may you use?"),
        answer_kind="choice", answer=key, options=options,
        checker=lambda choice: choice_verdict(
            choice, key, why_not=lambda o: _effect_bonus_why(o, *facts),
            right_reason="Right. " + because),
        draw=lambda marked: position_svg(forest, hand=[cid] + payment,
                                         title="Effect, bonus, or both?"),
        hints=(f"Take the two parts in turn: does the {species} have an effect, and does it "
               f"have a bonus?",
               f"An effect always applies. The bonus needs the {symbol} symbol on every card "
               f"you pay with: check {_list(_name(c) for c in payment)}."),
        explanation=because, context={"state": st, "after": after})


_EXTRA = {sp.name: part for sp in catalog().all_species()
          for part in ("effect", "bonus") for e in getattr(sp, part) if e["kind"] == "extra_turn"}


def _play_through(after: GameState) -> GameState:
    """Use everything the turn offers (effects, bonuses; no mushroom draws) to its end."""
    turn = after.turn
    while not after.is_over and after.turn == turn and after.step is not None:
        step = after.step
        if step.kind in ("mushroom", "effect", "bonus"):
            after = after.apply(Decide(step.kind, step.tag, step.kind != "mushroom"))
        else:
            after = after.apply(Finish(step.kind))
    return after


def _extra_payment(rng: random.Random, pool: list[int], symbol: str, cost: int,
                   match: bool, level: int) -> list:
    """Payment cards: all showing ``symbol`` (``match``), or not: at level 1 none of them,
    at level 2 only the first one misses it."""
    cat = catalog()
    out = []
    for k in range(cost):
        shows = match or (level == 2 and k > 0)
        out.append(_take(rng, pool, lambda c, s=shows: s == (symbol in cat.card(c).symbols())))
    return out


@register("forest_shuffle.extra_turn", game=GAME.name, notebook=NB2,
          rule="The Eurasian Jay's effect, and the Oak's, Douglas Fir's, Wolf's and Brown Bear's "
               "bonus, give you another turn once this one is over",
          title="Who plays next?",
          levels=("payments that all match or none", "one payment card out of line"))
def extra_turn(seed: int, level: int = 1) -> Exercise:
    rng = _rng("extra_turn", seed, level)
    cat = catalog()
    names = sorted(_EXTRA)
    while True:
        pool = _pool()
        species = rng.choice(names)
        forest = _random_forest(rng, pool, 1, rng.randint(0, 2 if level == 1 else 4), sapling=0)
        forest = _plant(rng, pool, forest, "Birch")
        cid, placement = _card_with(rng, pool, species)
        symbol = _symbol_of(cid, placement)
        cost = cat.species(species).cost
        payment = _extra_payment(rng, pool, symbol, cost, rng.random() < 0.4, level)
        if None in payment:
            continue
        st = _state(forest, [cid] + payment)
        play = (PlayTree(cid) if placement == "tree"
                else PlayDweller(cid, placement, len(forest.trees) - 1))
        if play not in st.legal_actions():
            continue
        after = _play_through(_pay_all(st.apply(play), payment))
        if not after.is_over:
            break
    key = "you" if after.current == 0 else "next"
    part = _EXTRA[species]
    effect, bonus = _effect_words(species)
    bad = _not_showing(payment, symbol)
    if part == "effect":
        because = (f"The {species}'s effect gives you another turn, whatever you paid with: "
                   f"you play again.")
    elif bad:
        because = (f"The {species}'s other turn is its bonus, and it needs every payment card to "
                   f"show {symbol}: {_list(_name(c) for c in bad)} does not, so Player 2 "
                   f"plays next.")
    else:
        because = (f"The {species}'s other turn is its bonus; every payment card shows {symbol}, "
                   f"so you play again.")
    options = (Option("you", "you play another turn"), Option("next", "Player 2 plays next"))
    if key == "next":
        why = (f"The {species}'s other turn is its bonus, and a bonus needs every payment card "
               f"to show the {symbol} symbol: look at each card you pay with.")
        name = "one-match-enough" if len(bad) < len(payment) else "bonus-for-free"
    elif part == "effect":
        why = f"The {species} gives its other turn as an effect, and an effect needs no symbol."
        name = "effect-needs-payment"
    else:
        why = f"Look again at the symbol on each card you pay with: the bonus asks for {symbol}."
        name = "missed-bonus"
    where = "as a tree" if placement == "tree" else f"{placement} of your last tree"
    return Exercise(
        kind="forest_shuffle.extra_turn", seed=seed,
        question=(f"In a two-player game you play the {species} ({symbol} symbol, cost {cost}) "
                  f"{where}, paying with the other cards of your hand, and use everything it "
                  f"gives you (effect: {effect}; bonus: {bonus}). Who plays next?"),
        answer_kind="choice", answer=key, options=options,
        checker=lambda choice: choice_verdict(choice, key, why_not=lambda _: (name, why),
                                              right_reason="Right. " + because),
        draw=lambda marked: position_svg(forest, hand=[cid] + payment, title="Who plays next?"),
        hints=(f"Is the {species}'s other turn its effect (always) or its bonus (only with the "
               f"right payment)?",
               f"The {species} shows the {symbol} symbol; you pay with "
               f"{_list(_name(c) for c in payment)}. Which of them show {symbol}?"),
        explanation=because, context={"state": st, "after": after})


_FREE = {sp.name: part for sp in catalog().all_species()
         for part in ("effect", "bonus") for e in getattr(sp, part) if e["kind"] == "free_place"}


def _free_type(species: str) -> str:
    sp = catalog().species(species)
    return next(e["type"] for e in sp.effect + sp.bonus if e["kind"] == "free_place")


def _free_why(forest: Forest, cid: int, kind: str) -> tuple[str, str]:
    """Can ``cid`` be placed for free (a ``kind`` half with a free slot)?  The mistake
    behind picking it when it cannot (empty when it can), and why."""
    cat = catalog()
    card = cat.card(cid)
    fitting = [(side, h) for side, h in zip(card.sides(), card.halves)
               if kind in cat.species(h.species).types]
    if not fitting:
        return "wrong-kind", (f"{card.name}: no half is {a(kind)} card ("
                              + "; ".join(f"{h.species}: {', '.join(cat.species(h.species).types)}"
                                          for h in card.halves) + ").")
    for side, h in fitting:
        free = [i for i, t in enumerate(forest.trees) if can_join(t.slot(side), h.species) is None]
        if free:
            return "", (f"{card.name}: {h.species} is {a(kind)} card and tree {free[0] + 1} "
                        f"has a free {side} slot.")
    side, h = fitting[0]
    return "no-free-slot", (f"{card.name}: {h.species} is {a(kind)} card, but no tree has a "
                            f"free {side} slot.")


def _free_position(rng: random.Random, species: str, level: int):
    """A position where playing ``species`` starts a free placement, or None."""
    cat = catalog()
    pool = _pool()
    kind = _free_type(species)
    forest = _random_forest(rng, pool, 2 if level == 1 else 3, rng.randint(1, 2) if level == 1
                            else rng.randint(3, 5), sapling=0.2)
    cid, placement = _card_with(rng, pool, species)
    symbol = _symbol_of(cid, placement)
    payment = [_take(rng, pool, lambda c: symbol in cat.card(c).symbols())
               for _ in range(cat.species(species).cost)]
    others: list = []
    for _ in range(3 if level == 1 else 4):
        seen = {_card_words(c) for c in others if c is not None}
        want = rng.random() < 0.6
        others.append(_take(rng, pool, lambda c: cat.card(c).is_split
                            and _card_words(c) not in seen
                            and (not want or any(kind in cat.species(h.species).types
                                                 for h in cat.card(c).halves))))
    if None in payment or None in others:
        return None
    st = _state(forest, [cid] + payment + others)
    spots = [i for i, t in enumerate(forest.trees) if placement == "tree" or not t.slot(placement)]
    if not spots:
        return None
    play = PlayTree(cid) if placement == "tree" else PlayDweller(cid, placement, spots[0])
    after = _pay_all(st.apply(play), payment)
    while after.step is not None and after.step.kind in ("mushroom", "effect", "bonus"):
        use = after.step.kind == _FREE[species] and after.step.tag == species
        after = after.apply(Decide(after.step.kind, after.step.tag, use))
        if use:
            break
    if after.step is None or after.step.kind != "free":
        return None
    return st, after, play, payment, others, symbol


@register("forest_shuffle.free_placement", game=GAME.name, notebook=NB2,
          rule="A free placement puts a hand card of the named kind into a free slot at no cost, "
               "without its own effect or bonus",
          title="Which card can you place for free?",
          levels=("two trees, three cards in hand", "three fuller trees, four cards in hand"))
def free_placement(seed: int, level: int = 1) -> Exercise:
    rng = _rng("free_placement", seed, level)
    cat = catalog()
    names = sorted(_FREE)
    while True:
        species = rng.choice(names)
        found = _free_position(rng, species, level)
        if found is None:
            continue
        st, after, play, payment, others, symbol = found
        right = frozenset(str(x.card) for x in after.legal_actions() if isinstance(x, PlaceFree))
        if 0 < len(right) < len(others):
            break
    kind = _free_type(species)
    forest_now = after.forests[0]
    where = "as a tree" if isinstance(play, PlayTree) else f"{play.side} of tree {play.tree + 1}"
    part = _FREE[species]
    how = (f"paying with {_plural(len(payment), 'card')} that "
           f"{'shows' if len(payment) == 1 else 'show'} its {symbol} symbol, so its bonus "
           f"applies" if part == "bonus" else "and use its effect")
    text = part_text(next(e for e in getattr(cat.species(species), part)
                          if e["kind"] == "free_place"))
    return Exercise(
        kind="forest_shuffle.free_placement", seed=seed,
        question=(f"You play the {species} {where}, {how}: {text}. Which of your other hand "
                  f"cards could you place now? Pick every one."),
        answer_kind="choices", answer=right,
        checker=lambda given: choices_verdict(
            given, right, why_not=lambda k: _free_why(forest_now, int(k), kind),
            missed=f"Another card could be placed too: look for {a(kind)} on either half, and a "
                   f"free slot on that half's side.",
            right_reason="Right: " + " ".join(_free_why(forest_now, int(k), kind)[1]
                                              for k in sorted(right))),
        options=tuple(Option(str(c), _card_words(c)) for c in others),
        draw=lambda marked: position_svg(forest_now, hand=others,
                                         title="Which card can you place for free?"),
        hints=(f"The free placement takes {a(kind)} card: which of your cards has {a(kind)} "
               f"half?",
               f"Free slots now: {_free_slots_words(forest_now)}. Each half goes on its own "
               f"side of a tree."),
        explanation=" ".join(_free_why(forest_now, c, kind)[1] for c in others),
        context={"state": st, "after": after})


def _with_cave(st: GameState, n: int) -> GameState:
    """``st`` with ``n`` cards (taken from those out of the game) under Player 1's cave."""
    if not n:
        return st
    extra = list(st.removed)[:n]
    st = replace(st, removed=tuple(c for c in st.removed if c not in extra),
                 caves=(tuple(extra), ()),
                 forests=(replace(st.forests[0], cave=len(extra)), st.forests[1]))
    st.check_invariants()
    return st


@register("forest_shuffle.brown_bear", game=GAME.name, notebook=NB2,
          rule="The Brown Bear's effect puts every card of the clearing under your cave (the "
               "cards you paid with included); each scores 1 point",
          title="The Brown Bear and the cave",
          levels=("an empty cave", "a cave that already holds cards"))
def brown_bear(seed: int, level: int = 1) -> Exercise:
    rng = _rng("brown_bear", seed, level)
    cat = catalog()
    pool = _pool()
    forest = _random_forest(rng, pool, rng.randint(1, 2), rng.randint(0, 2 if level == 1 else 4),
                            sapling=0)
    forest = _plant(rng, pool, forest, "Birch")       # a tree with free slots for the Bear
    cid, side = _card_with(rng, pool, "Brown Bear")
    payment = [_take(rng, pool, lambda c: True) for _ in range(cat.species("Brown Bear").cost)]
    cleared = [_take(rng, pool, lambda c: True) for _ in range(rng.randint(0, 8))]
    cave_before = 0 if level == 1 else rng.randint(1, 4)
    st = _with_cave(_state(forest, [cid] + payment, clearing=cleared), cave_before)
    after = _play_last_tree(st, cid, side, payment)
    used = after.apply(Decide("effect", "Brown Bear", True))
    answer = len(used.caves[0])
    paid = len(payment)
    because = (f"The clearing held {len(cleared)} cards and your {paid} payments joined "
               f"them: all {len(cleared) + paid} go under your cave, which already held "
               f"{cave_before}, so {answer} (the clearing is emptied before the end of the turn "
               f"could clear it).")
    mistakes = [(answer - paid, "forgot-payments", "Your payment cards go into the clearing "
                                                    "first, so the Bear takes them too."),
                (answer - cave_before, "forgot-old-cave", "The cards already under your cave "
                                                          "stay there: the Bear adds to them."),
                (cave_before + paid, "forgot-clearing", "The Bear takes every card of the "
                                                        "clearing, not only your payments."),
                (answer + 1, "counted-the-bear", "The Brown Bear itself goes into your forest, "
                                                 "not under the cave.")]
    return _number(
        "forest_shuffle.brown_bear", seed,
        question=(f"Your cave holds {cave_before} cards and the clearing {len(cleared)}. You play "
                  f"the Brown Bear (cost {paid}), paying with the other cards of your hand, and "
                  f"use its effect. How many cards lie under your cave then?"),
        answer=answer, what="the number of cards under your cave",
        rule="Follow the turn in order: pay, then the effect moves the clearing under the cave.",
        hints=("Payments go to the clearing first; then the effect takes the whole clearing.",
               f"Your cave keeps its {cave_before} cards; the clearing's {len(cleared)} cards "
               f"and your {paid} payments join them."),
        draw=lambda marked: position_svg(st.forests[0], hand=[cid] + payment, clearing=cleared,
                                         title="The Brown Bear and the cave"),
        explanation=because, context={"state": st, "after": used}, mistakes=mistakes)


_MUSHROOMS = [sp.name for sp in catalog().all_species()
              if any(e["kind"] == "mushroom" for e in sp.effect)]


def _mushroom_words(species: str) -> str:
    """What a mushroom waits for, from its effect's words ("a card below a tree")."""
    part = next(e for e in catalog().species(species).effect if e["kind"] == "mushroom")
    return part_text(part).split("whenever you play ", 1)[1]


def _mushroom_play(rng: random.Random, pool: list[int], forest: Forest):
    """A card to play now: a tree, a sapling or a half into a free slot (None if none)."""
    cat = catalog()
    how = rng.choice(["tree", "sapling", "top", "bottom", "side", "pawed"])
    if how in ("tree", "sapling"):
        cid = _take(rng, pool, lambda c: cat.card(c).is_tree)
        return cid, PlaySapling(cid) if how == "sapling" else PlayTree(cid)
    free = [(i, s) for i, t in enumerate(forest.trees) for s in SIDES
            if not t.slot(s) and (s == how or how in ("side", "pawed") and s in ("left", "right")
                                  or how == "pawed" and s == "top")]
    if not free:
        return None
    i, side = rng.choice(free)
    cid = _take(rng, pool, lambda c: cat.card(c).half_for(side) is not None
                and not cat.species(cat.card(c).half_for(side).species).effect
                and (how != "pawed" or "pawed animal" in _types(
                    cat.card(c).half_for(side).species)))
    return (cid, PlayDweller(cid, side, i)) if cid is not None else None


def _mushroom_position(rng: random.Random, level: int):
    """A forest with mushrooms placed on earlier turns and a card to play, or None."""
    cat = catalog()
    pool = _pool()
    forest = _random_forest(rng, pool, 3 if level == 1 else 4, 0, sapling=0.35)
    kinds = rng.sample(_MUSHROOMS, 1 if level == 1 else rng.randint(2, 3))
    for _ in range(rng.randint(1, 3) if level == 1 else rng.randint(2, 4)):
        forest = _add(rng, pool, forest, lambda s: s == rng.choice(kinds))
    for _ in range(1 if level == 1 else 3):
        forest = _add(rng, pool, forest, lambda s: s not in _MUSHROOMS)
    found = _mushroom_play(rng, pool, forest)
    if found is None:
        return None
    cid, play = found
    cost = (0 if isinstance(play, PlaySapling) else
            cat.species(str(cat.card(cid).species)).cost if isinstance(play, PlayTree)
            else cat.species(cat.card(cid).half_for(play.side).species).cost)
    payment = [_take(rng, pool, lambda c: cat.card(c).is_split) for _ in range(cost)]
    st = _state(forest, [cid] + payment)
    if play not in st.legal_actions():
        return None
    after = _pay_all(st.apply(play), payment)
    return forest, cid, play, payment, st, after


def _play_words(forest: Forest, cid: int, play) -> str:
    cat = catalog()
    if isinstance(play, PlayTree):
        return f"plant the {cat.card(cid).species} (a tree)"
    if isinstance(play, PlaySapling):
        return "plant a card face down as a sapling"
    half = cat.card(cid).half_for(play.side)
    host = forest.trees[play.tree]
    return (f"play {a(half.species)} ({', '.join(_types(half.species))}) {play.side} of tree "
            f"{play.tree + 1} ({a(_tree_name(host))})")


@register("forest_shuffle.mushrooms", game=GAME.name, notebook=NB2,
          rule="Each mushroom placed on an earlier turn may draw a card when you play what it "
               "waits for: a tree (Chanterelle), a pawed animal (Fly Agaric), a card below a "
               "tree (Parasol Mushroom) or atop one (Penny Bun)",
          title="Mushroom draws",
          levels=("one kind of mushroom", "several kinds of mushroom, several copies"))
def mushrooms(seed: int, level: int = 1) -> Exercise:
    rng = _rng("mushrooms", seed, level)
    while True:
        found = _mushroom_position(rng, level)
        if found is None:
            continue
        forest, cid, play, payment, st, after = found
        draws = [s.tag for s in after.pending if s.kind == "mushroom"]
        if draws or rng.random() < (0.15 if level == 1 else 0.3):   # fewer with no draw
            break
    answer = len(draws)
    on_sapling = isinstance(play, PlaySapling) or (isinstance(play, PlayDweller)
                                                  and forest.trees[play.tree].is_sapling)
    label = (" " + OURS + "a sapling counts as a tree for the mushrooms.") if on_sapling else ""
    present = sorted({d.species for _, _, d in forest.dwellers() if d.species in _MUSHROOMS})
    copies = {n: sum(1 for _, _, d in forest.dwellers() if d.species == n) for n in present}
    lines = [f"{n}{' (x' + str(copies[n]) + ')' if copies[n] > 1 else ''}: waits for "
             f"{_mushroom_words(n)} - {'yes' if n in draws else 'not this time'}"
             for n in present]
    because = "; ".join(lines) + f". So {_plural(answer, 'draw')}." + label
    words = _play_words(forest, cid, play)
    legend = "; ".join(f"{n} draws when you play {_mushroom_words(n)}" for n in present)
    strict = {"Chanterelle"} if isinstance(play, PlaySapling) else (
        {"Parasol Mushroom", "Penny Bun"} if on_sapling else set())
    mistakes = [
        (sum(copies.values()), "counted-every-mushroom",
         "Not every mushroom draws: each one waits for its own kind of card. Check what you "
         "play against each of them."),
        (len(set(draws)), "one-per-species", "Each mushroom card draws on its own: two of the "
                                             "same kind both draw."),
        (sum(1 for t in draws if t not in strict), "sapling-not-a-tree",
         "Here a sapling counts as a tree for the mushrooms." + label),
    ]
    return _number(
        "forest_shuffle.mushrooms", seed,
        question=(f"Your mushrooms were placed on earlier turns ({legend}). Now you {words}. "
                  f"How many mushroom draws may you take?"),
        answer=answer, what="the number of mushroom draws",
        rule="Take each mushroom card in turn: does the card you play match what it waits for?",
        hints=(f"You {words}. For each mushroom card in your forest: is that what it waits for?",
               "Your mushrooms: " + ", ".join(_plural(copies[n], n) for n in present)
               + ". Each card draws on its own; a card you play is below a tree in a bottom "
                 "slot and atop it in a top slot." + label),
        draw=lambda marked: position_svg(forest, hand=[cid] + payment, title="Mushroom draws"),
        explanation=because, context={"state": st, "after": after},
        mistakes=[m for m in mistakes if m[1]],
        safe_hints=(f"You {words}. For each mushroom card in your forest: is that what it waits "
                    f"for?", "Each mushroom card draws on its own; what you play is below a "
                             "tree in a bottom slot and atop it in a top slot." + label))


def _count_in(forest: Forest, test: Callable[[str], bool]) -> int:
    return sum(1 for _, _, d in forest.dwellers() if test(d.species))


def _draw_effect_forests(rng: random.Random, pool: list[int], test: Callable[[str], bool],
                         species: str, level: int) -> tuple[Forest, Forest | None]:
    """Your forest (with some counted cards, and a Birch last) and, at level 2, a rival's."""
    forest = _random_forest(rng, pool, rng.randint(2, 3), 0, sapling=0.2)
    if rng.random() < 0.85:
        forest = _add(rng, pool, forest, test)
    for _ in range(rng.randint(0, 3)):
        forest = _add(rng, pool, forest, test if rng.random() < 0.7 else lambda s: True)
    if level == 2 and species == "Wolf":     # cloven-hoofed animals that are not deer
        forest = _add(rng, pool, forest, lambda s: s in ("Wild Boar", "Squeaker"))
    forest = forest.plant(Tree(species="Birch", card=_take(rng, pool, _is_tree("Birch"))))
    rival = None
    if level == 2:
        rival = _random_forest(rng, pool, 2, 0, sapling=0)
        for _ in range(rng.randint(1, 3)):
            rival = _add(rng, pool, rival, test)
    return forest, rival


@register("forest_shuffle.draw_effect", game=GAME.name, notebook=NB2,
          rule="The Red Fox draws a card per European Hare in your forest, the Wolf one per "
               "deer; no draw goes past the hand limit of 10",
          title="How many cards does the effect draw?",
          levels=("your forest only", "a rival forest and look-alike cards"))
def draw_effect(seed: int, level: int = 1) -> Exercise:
    rng = _rng("draw_effect", seed, level)
    cat = catalog()
    pool = _pool()
    species = rng.choice(["Red Fox", "Wolf"])
    what = "European Hare" if species == "Red Fox" else "deer"
    test = (lambda s: s == "European Hare") if species == "Red Fox" else (
        lambda s: "deer" in cat.species(s).types)
    forest, rival = _draw_effect_forests(rng, pool, test, species, level)
    cid, side = _card_with(rng, pool, species)
    cost = cat.species(species).cost
    payment = [_take(rng, pool, lambda c: cat.card(c).is_tree) for _ in range(cost)]
    keep = [_take(rng, pool, lambda c: True)
            for _ in range(min(9 - cost, rng.choice([0, 1, 3, 5, 6, 6, 7])))]
    st = _state(forest, [cid] + payment + keep, rival=rival)
    after = _play_last_tree(st, cid, side, payment)
    before = len(after.hands[0])
    used = after.apply(Decide("effect", species, True))
    answer = len(used.hands[0]) - before
    n = _count_in(used.forests[0], test)
    room = 10 - before
    because = (f"Your forest holds {_plural(n, what)}, so the effect draws up to {n}; after "
               f"paying you hold {before} cards and a hand stops at 10, so you draw {answer}.")
    others = _count_in(rival, test) if rival else 0
    lookalike = _count_in(forest, lambda s: s in ("Wild Boar", "Squeaker"))
    mistakes = [
        (n, "ignored-hand-limit", "Your hand stops at 10 cards: count how many you hold after "
                                  "paying."),
        (min(n + others, room), "counted-rival-forest",
         f"You counted the {what} cards in every forest; the effect counts only those in your "
         f"own forest."),
        (min(n + lookalike, room), "boar-as-deer", "A Wild Boar or a Squeaker is cloven-hoofed, "
                                                   "but not a deer."),
        (min(n, room + cost), "counted-before-paying",
         "Your payment cards leave your hand before the effect draws: count your hand after "
         "paying.")]
    return _number(
        "forest_shuffle.draw_effect", seed,
        question=(f"You play the {species} (cost {cost}) beside your last tree, paying with "
                  f"{_plural(cost, 'tree card')} of your hand, and use its effect: "
                  f"{effect_text(species)[0]}. How many cards do you draw?"),
        answer=answer, what="the number of cards the effect draws",
        rule=f"Count the {what} cards in your own forest, then stop where your hand is full.",
        hints=(f"Count the {what} cards in your forest (not in a rival's), then mind the hand "
               f"limit of 10.",
               f"After paying you hold {before} cards, so your hand has room for {room} more; "
               f"the {what} cards are written at the top of each card"
               + (" (a Wild Boar or a Squeaker is not a deer)." if species == "Wolf" else ".")),
        draw=lambda marked: position_svg(forest, hand=[cid] + payment + keep,
                                         others=(rival,) if rival else (),
                                         title="How many cards does the effect draw?"),
        explanation=because, context={"state": st}, mistakes=mistakes)


# ===== notebook 3: scoring ===================================================================

_BEES = frozenset(sp.name for sp in catalog().all_species()
                  if any(e.get("kind") == "counts_as_tree" for e in sp.effect))


def _without(forest: Forest, test: Callable[[str], bool]) -> Forest:
    """The forest with every card passing ``test`` taken out of the slots (trees stay)."""
    trees = tuple(replace(t, **{s: tuple(d for d in t.slot(s) if not test(d.species))
                                for s in SIDES}) for t in forest.trees)
    return replace(forest, trees=trees)


def _merged(forest: Forest, other: Forest) -> Forest:
    """One forest holding the trees of both (a learner who counts both forests as one)."""
    return replace(forest, trees=forest.trees + other.trees)


def _points_of(species: str, forests: list[Forest]) -> int:
    return score(forests)[0].by_species.get(species, 0)


def _points_without_bees(species: str, forests: Iterable[Forest]) -> int:
    """What ``species`` scores in the first forest when no Carpenter Bee counts anywhere (a
    learner who forgot that a bee counts as one more tree)."""
    return _points_of(species, [_without(f, lambda s: s in _BEES) for f in forests])


def _set_value(table: list, size: int) -> int:
    """What a set of ``size`` cards scores by a rule's ``table`` (one value for sizes 1, 2,
    ..., the last for every bigger set; an empty set scores nothing)."""
    return table[min(size, len(table)) - 1] if size > 0 else 0


def _spots_of(forest: Forest, species: str) -> tuple:
    """The drawing's cells holding ``species`` (a tree, or a slot)."""
    out = [(i,) for i, t in enumerate(forest.trees) if t.species == species]
    out += [(i, SIDE_NUMBER[s]) for i, s, d in forest.dwellers() if d.species == species]
    return tuple(dict.fromkeys(out))


def _counted_words(species: str) -> str:
    """What a species' rule looks at, in a few plain words."""
    r = catalog().species(species).scoring
    k = r["kind"]
    return {
        "per_type": lambda: " or ".join(r["types"]) + " cards (the kind is written at the top "
                                                       "of each card; trees count as trees)",
        "per_species": lambda: f"{r.get('species')} cards",
        "same_symbol": lambda: "cards showing its own tree symbol (at the bottom of a card; "
                               "a tree shows its own species)",
        "bottom_cards": lambda: "cards below any tree (in bottom slots)",
        "full_trees": lambda: "trees with all four slots taken",
        "present": lambda: f"whether your forest holds {a(str(r.get('species')))}",
        "opposite_bat": lambda: "the slot on the other side of its own tree",
        "host": lambda: "the tree it sits on",
        "majority": lambda: "how many of them grow in each forest (a Carpenter Bee at one "
                            "counts as one more)",
        "threshold": lambda: "how many of them grow in your forest (a Carpenter Bee at one "
                             "counts as one more)",
        "set": lambda: "how many of them your forest holds, scored once as one set",
        "all_tree_species": lambda: "which of the 8 tree species grow in your forest",
        "own_slots": lambda: "the cards in its own four slots",
        "most_trees": lambda: "the number of trees in each forest (saplings and Carpenter "
                              "Bees count)",
        "min_trees": lambda: "the number of trees in your forest (saplings and Carpenter Bees "
                             "count)",
        "toad_pair": lambda: "whether another toad shares its slot",
        "bats": lambda: "how many different bat species your forest holds",
    }.get(k, lambda: "what its rule names")()


def _self_counts(species: str) -> bool:
    """Does a card of ``species`` count itself by its own rule?"""
    r = catalog().species(species).scoring
    return (r["kind"] == "per_type" and bool(set(r["types"]) & set(_types(species)))) or (
        r["kind"] == "per_species" and r["species"] == species) or r["kind"] == "same_symbol"


def _species_mistakes(forest: Forest, rival: Forest | None, species: str,
                      answer: int) -> list:
    """Typical wrong totals for one species, worked out by the engine on altered forests."""
    out = []
    n = forest.count_species(species)
    if rival is not None:
        out.append((_points_of(species, [_merged(forest, rival)]), "counted-rival-forest",
                    f"You counted cards of the rival forest too; the {species} counts only "
                    f"those in its own forest."))
    per_card = [p for (i, s, k), p in score([forest])[0].card_points
                if (s == "tree" and forest.trees[i].species == species)
                or (s != "tree" and forest.trees[i].slot(s)[k].species == species)]
    if n > 1 and per_card:
        out.append((per_card[0], "scored-one-card",
                    f"You scored one {species}; each of them scores by the rule: add them up."))
    r = catalog().species(species).scoring
    if _self_counts(species) and "points" in r:
        out.append((answer - n * r["points"], "forgot-itself",
                    f"The {species} is one of the cards its rule counts, so it counts itself "
                    f"too."))
    return out


def _points_exercise(kind: str, seed: int, forest: Forest, species: str,
                     others: tuple = (), title: str = "", mistakes: Iterable = (),
                     note: str = "") -> Exercise:
    """How many points one species scores in ``forest`` (rivals drawn below it)."""
    answer = _points_of(species, [forest, *others])
    counts = what_counts(forest, species, others)
    rule = explain(species)
    n = forest.count_species(species)
    plural_ = n > 1 or (species.endswith("s") and not species.endswith("ss"))
    subject = f"the {_plural(n, species)} together" if n > 1 else f"the {species}"
    spots = _spots_of(forest, species)
    places = _list(_cell_place(forest, c) for c in spots)
    rival_words = " Cards in a rival forest do not count for it." if others else ""
    return _number(
        kind, seed,
        question=(f"How many points {'do' if plural_ else 'does'} {subject} score in this "
                  f"forest? (Rule: {species} score{'' if plural_ and n == 1 else 's'} "
                  f"{rule}.)"),
        answer=answer, what=f"what {subject} score{'' if plural_ else 's'}",
        rule=f"Rule: {rule}. Find every card it counts in its own forest.",
        hints=(f"Rule: {rule}. Which cards of your forest does that look at?",
               (f"Your {species} is at {places}; it looks at " if len(spots) == 1 else
                f"Your {_plural(2, species)[2:]} are at {places}; each looks at ")
               + f"{_counted_words(species)}.{rival_words}"),
        hint_marks=(spots, ()),
        draw=lambda marked: position_svg(forest, others=others, title=title, marked=marked),
        explanation=f"{_cap(subject)} score{'' if plural_ else 's'} {answer}: {counts}." + note,
        context={"forest": forest, "others": others, "species": species},
        mistakes=mistakes)


def _where_cards(forest: Forest, test: Callable[[int, str, object], bool]) -> list[str]:
    """Names and places of the visible cards passing ``test(tree index, side, card)``."""
    out = []
    for i, t in enumerate(forest.trees):
        if test(i, "tree", t):
            out.append(f"{'Sapling' if t.is_sapling else t.species} (tree {i + 1})")
        for side in SIDES:
            for d in t.slot(side):
                if test(i, side, d):
                    out.append(f"{d.species} ({_slot_words(i, side)})")
    return out


def _tree_count_words(forest: Forest, species: str, majority: bool,
                      others: Iterable[Forest]) -> str:
    """How many trees of ``species`` a forest has for its rule (Carpenter Bees count), and
    the best rival's count for a majority."""
    count = lambda f: _majority_counts((f,), "Linden")[0] if species == "Linden" else (
        sum(1 for t in f.trees if t.species == species)
        + sum(1 for t in f.trees if t.species == species
              for _, d in t.dwellers() if d.species in _BEES))
    n = sum(1 for t in forest.trees if t.species == species)
    bees = count(forest) - n
    own = f"you have {_plural(n, species)}" + (
        f" and {_plural(bees, 'Violet Carpenter Bee')} at them (each counts as one more)"
        if bees else "")
    others = list(others)
    if majority and not others:
        own += "; no other forest is compared here"
    elif majority:
        own += f"; the rival forest has {max(count(f) for f in others)}"
    return own


def what_counts(forest: Forest, species: str, others: Iterable[Forest] = ()) -> str:
    """What a species' rule counts in this forest, in plain words (from the rule data)."""
    cat = catalog()
    r = cat.species(species).scoring
    k = r["kind"]
    types = lambda name: cat.species(name).types if name != SAPLING else ("tree",)

    def listed(test, what) -> str:
        found = _where_cards(forest, test)
        return f"{_plural(len(found), what)}" + (f": {', '.join(found)}" if found else "")

    if k == "per_type":
        kinds = r["types"]
        return "it counts " + listed(
            lambda i, s, c: (s == "tree") if "tree" in kinds else (
                s != "tree" and any(x in types(c.species) for x in kinds)),
            " or ".join(kinds) + " card")
    if k == "per_species":
        return "it counts " + listed(lambda i, s, c: s != "tree" and c.species == r["species"],
                                     f"{r['species']} card")
    if k == "same_symbol":
        parts = []
        for _, _, d in forest.dwellers():
            if d.species == species:
                parts.append(f"a {species} with the {d.symbol} symbol counts " + listed(
                    lambda i, s, c, sym=d.symbol: (c.species == sym) if s == "tree"
                    else getattr(c, "symbol", None) == sym, "card"))
        return "; ".join(parts)
    if k == "bottom_cards":
        return "it counts " + listed(lambda i, s, c: s == "bottom", "card below a tree")
    if k == "full_trees":
        full = [i + 1 for i, t in enumerate(forest.trees) if t.is_full]
        return (f"it counts {_plural(len(full), 'tree')} with all four slots taken"
                + (f" (tree {', '.join(map(str, full))})" if full else ""))
    if k == "own_slots":
        return "; ".join(f"the Silver Fir at tree {i + 1} holds {_plural(t.card_count(), 'card')}"
                         for i, t in enumerate(forest.trees) if t.species == species)
    if k == "host":
        return "; ".join(f"one sits on tree {i + 1}, {a(_tree_name(forest.trees[i]))}"
                         for i, _, d in forest.dwellers() if d.species == species)
    if k == "present":
        n = forest.count_species(r["species"])
        return f"the forest has {_plural(n, r['species'])}"
    if k == "opposite_bat":
        return "; ".join(
            f"the one {s} of tree {i + 1} has "
            + ("a bat" if any("bat" in cat.species(x.species).types
                             for x in forest.trees[i].slot("right" if s == "left" else "left"))
               else "no bat") + " opposite"
            for i, s, d in forest.dwellers() if d.species == species)
    if k in ("threshold", "majority", "set"):
        return _tree_count_words(forest, species, k == "majority", others)
    if k == "bats":
        bats = sorted({d.species for _, _, d in forest.dwellers()
                       if "bat" in cat.species(d.species).types})
        return (f"the forest has {_plural(len(bats), 'different bat species')}"
                + (f" ({', '.join(bats)})" if bats else "") + f"; {r['distinct']} are needed")
    if k == "all_tree_species":
        have = {t.species for t in forest.trees}
        missing = [s for s in cat.tree_species() if s not in have]
        return ("all 8 tree species are there" if not missing
                else f"missing: {', '.join(missing)}")
    if k == "butterflies":
        return _butterfly_words(forest)
    return f"{species} scores {explain(species)}"


def _butterfly_words(forest: Forest) -> str:
    cat = catalog()
    table = next(sp.scoring["table"] for sp in cat.all_species()
                 if sp.scoring["kind"] == "butterflies")
    counts: dict[str, int] = {}
    for _, _, d in forest.dwellers():
        if cat.species(d.species).scoring["kind"] == "butterflies":
            counts[d.species] = counts.get(d.species, 0) + 1
    sets, k = [], 1
    while True:
        members = [n for n, c in counts.items() if c >= k]
        if not members:
            break
        value = _set_value(table, len(members))
        sets.append(f"set {k}: {len(members)} different ({', '.join(sorted(members))}) = {value}")
        k += 1
    return "; ".join(sets) if sets else "no butterflies"




_COUNTING = {  # species scored by what else lies in the forest, and what to add more of
    "Bullfinch": lambda s: "insect" in catalog().species(s).types,
    "Goshawk": lambda s: "bird" in catalog().species(s).types,
    "Chaffinch": None, "Red Squirrel": None,
    "Fallow Deer": lambda s: "cloven-hoofed animal" in catalog().species(s).types,
    "Red Deer": lambda s: "plant" in catalog().species(s).types,
    "Roe Deer": lambda s: True,
    "Wolf": lambda s: "deer" in catalog().species(s).types,
    "Red Fox": lambda s: s == "European Hare",
    "European Hare": lambda s: s == "European Hare",
    "Stag Beetle": lambda s: "pawed animal" in catalog().species(s).types,
    "Hedgehog": lambda s: "butterfly" in catalog().species(s).types,
    "Blackberries": lambda s: "plant" in catalog().species(s).types,
    "Tree Ferns": lambda s: "amphibian" in catalog().species(s).types,
    "Tree Frog": lambda s: s == "Gnat",
    "Gnat": lambda s: "bat" in catalog().species(s).types,
    "Wood Ant": lambda s: catalog().species(s).slot == "bottom",
    "Beech Marten": lambda s: True,
    "Wild Boar": lambda s: s == "Squeaker",
    "Lynx": lambda s: s == "Roe Deer",
    "European Fat Dormouse": lambda s: "bat" in catalog().species(s).types,
    "Barbastelle Bat": lambda s: "bat" in catalog().species(s).types,
}



def _species_forest(rng: random.Random, species: str, level: int) -> tuple[Forest, Forest | None]:
    """A forest with ``species`` (twice at times, at level 2) among cards its rule counts,
    and at level 2 a rival forest holding such cards too."""
    pool = _pool()
    forest = _random_forest(rng, pool, rng.randint(2, 3) if level == 1 else rng.randint(3, 4),
                            0, sapling=0.2)
    forest = _add(rng, pool, forest, lambda s: s == species)
    if level == 2 and rng.random() < 0.35:
        forest = _add(rng, pool, forest, lambda s: s == species)
    more = _COUNTING[species]
    if species == "Beech Marten":      # fill a tree or two, so that full trees occur
        for i in rng.sample(range(len(forest.trees)), rng.randint(1, 2)):
            for _ in range(4):
                forest = _add(rng, pool, forest, lambda s: True, trees=[i])
    for _ in range(rng.randint(2, 4) if level == 1 else rng.randint(4, 7)):
        forest = _add(rng, pool, forest, more if more and rng.random() < 0.6 else lambda s: True)
    rival = None
    if level == 2:
        rival = _random_forest(rng, pool, 2, 0, sapling=0)
        for _ in range(rng.randint(1, 3)):
            rival = _add(rng, pool, rival, more or (lambda s: True))
    return forest, rival


@register("forest_shuffle.species_points", game=GAME.name, notebook=NB3,
          rule="Each animal or plant scores by its own rule, often by counting other cards of "
               "the forest (a type, a species, a tree symbol, the cards below trees ...)",
          title="One species' points",
          levels=("one card in a small forest", "a fuller forest beside a rival's"))
def species_points(seed: int, level: int = 1) -> Exercise:
    rng = _rng("species_points", seed, level)
    names = sorted(_COUNTING)
    species = names[seed % len(names)] if seed < len(names) else rng.choice(names)
    forest, rival = _species_forest(rng, species, level)
    others = (rival,) if rival else ()
    answer = _points_of(species, [forest, *others])
    return _points_exercise("forest_shuffle.species_points", seed, forest, species, others,
                            title="One species' points",
                            mistakes=_species_mistakes(forest, rival, species, answer))


_TREE_RULES = ["Linden", "Beech", "Horse Chestnut", "Sycamore", "Oak", "Silver Fir"]


def _tree_forest(rng: random.Random, pool: list[int], species: str, level: int) -> Forest:
    forest = Forest()
    all_trees = catalog().tree_species()
    plan = [species] * (rng.randint(1, 3) if level == 1 else rng.randint(2, 5))
    if species == "Oak":
        plan = ["Oak"] + rng.sample([t for t in all_trees if t != "Oak"], rng.choice([6, 7, 7]))
    plan += [rng.choice(all_trees + [SAPLING]) for _ in range(rng.randint(1, 3))]
    rng.shuffle(plan)
    for name in plan:
        forest = _plant(rng, pool, forest, name)
    at = [i for i, t in enumerate(forest.trees) if t.species == species]
    if level == 2 and species in ("Beech", "Horse Chestnut", "Linden") and rng.random() < 0.6:
        forest = _add(rng, pool, forest, lambda s: s in _BEES, trees=at)
    for _ in range(rng.randint(1, 3) if level == 1 else rng.randint(3, 6)):
        forest = _add(rng, pool, forest, lambda s: True,
                      trees=at if species == "Silver Fir" and rng.random() < 0.7 else None)
    return forest


def _tree_mistakes(forest: Forest, others: tuple, species: str, answer: int) -> list:
    """Typical wrong totals for a tree species (the engine scores altered forests)."""
    cat = catalog()
    n = sum(1 for t in forest.trees if t.species == species)
    rule = cat.species(species).scoring
    no_bees = _points_without_bees(species, (forest, *others))
    out = [(no_bees, "forgot-carpenter-bee",
            f"A Violet Carpenter Bee at a {species} counts as one more {species}.")]
    if rule["kind"] == "threshold":
        out.append((n * rule["points"], "threshold-not-reached",
                    f"Beeches score only once your forest has at least {rule['at_least']} of "
                    f"them (a Carpenter Bee at a Beech counts as one more)."))
    if rule["kind"] == "set":
        out.append((n * _set_value(rule["table"], n), "scored-set-per-card",
                    "The Horse Chestnuts score once, as one set: the set's value is not given "
                    "to each of them."))
    if rule["kind"] == "majority":
        out.append((n * rule["points"], "ignored-rival",
                    "Compare with the rival forest: a Linden scores its higher value only if "
                    "no forest has more Lindens."))
        out.append((n * rule["otherwise"], "tie-read-as-loss",
                    "A tie is not a loss: Lindens score their higher value when no forest has "
                    "more. " + MINE + "every forest tied for the most scores the higher value."))
    if rule["kind"] == "per_type":
        saplings = sum(1 for t in forest.trees if t.is_sapling)
        out.append((answer - n * saplings, "forgot-saplings",
                    "A sapling is a tree too: the Sycamore counts it."))
    if rule["kind"] == "all_tree_species":
        out.append((n * rule["points"], "missing-tree-species",
                    "Check every one of the 8 tree species: an Oak scores only if each of them "
                    "grows in your forest (saplings are no species)."))
    if rule["kind"] == "own_slots":
        out.append((rule["points"] * sum(t.card_count() for t in forest.trees), "counted-whole-forest",
                    "A Silver Fir counts only the cards in its own four slots."))
    return out


@register("forest_shuffle.tree_points", game=GAME.name, notebook=NB3,
          rule="Trees score too: Linden by majority, Beech from 4 on, Horse Chestnut as a set, "
               "Sycamore per tree, Oak with all 8 species, Silver Fir per card on it",
          title="A tree species' points",
          levels=("a few trees", "more trees, Carpenter Bees and saplings"))
def tree_points(seed: int, level: int = 1) -> Exercise:
    rng = _rng("tree_points", seed, level)
    species = _TREE_RULES[seed % len(_TREE_RULES)]
    pool = _pool()
    forest = _tree_forest(rng, pool, species, level)
    others: tuple = ()
    if species == "Linden":
        rival = Forest()
        own = sum(1 for t in forest.trees if t.species == "Linden")
        for name in ["Linden"] * rng.choice([max(own - 1, 0), own, own, own + 1]) + ["Birch"]:
            rival = _plant(rng, pool, rival, name)
        others = (rival,)
    answer = _points_of(species, [forest, *others])
    note = (" " + MINE + "every forest tied for the most Lindens scores the higher value."
            if species == "Linden" else "")
    return _points_exercise("forest_shuffle.tree_points", seed, forest, species, others,
                            title="A tree species' points", note=note,
                            mistakes=_tree_mistakes(forest, others, species, answer))


_BUTTERFLIES = [sp.name for sp in catalog().all_species()
                if sp.scoring["kind"] == "butterflies"]


def _butterfly_mistakes(counts: dict[str, int], table: list) -> list:
    """Typical wrong butterfly totals: a butterfly used in two sets, one species twice in a
    set, a single set made."""
    kinds = len(counts)
    cards = sum(counts.values())
    return [(max(counts.values()) * _set_value(table, kinds), "butterfly-in-two-sets",
             "Your sets use a butterfly more than once: each butterfly belongs to one set only. "
             "After the first set, only the butterflies left over make the next."),
            (_set_value(table, cards), "same-species-in-one-set",
             "A set holds different butterflies: two of one species cannot share a set."),
            (_set_value(table, kinds), "one-set-only",
             "The butterflies left over after the first set make a second set, and so on.")]


@register("forest_shuffle.butterflies", game=GAME.name, notebook=NB3,
          rule="Butterflies score in sets of different species (0 / 3 / 6 / 12 / 20 for 1-5); "
               "every butterfly belongs to one set",
          title="Butterfly sets",
          levels=("a few butterflies of two or three kinds",
                  "many butterflies among other top cards"))
def butterflies(seed: int, level: int = 1) -> Exercise:
    rng = _rng("butterflies", seed, level)
    pool = _pool()
    n = rng.randint(3, 4) if level == 1 else rng.randint(5, 7)
    forest = _random_forest(rng, pool, n, 0, sapling=0.2)
    kinds = rng.sample(_BUTTERFLIES, rng.randint(2, 3) if level == 1 else rng.randint(3, 5))
    for _ in range(n if level == 1 else n - 1):
        forest = _add(rng, pool, forest, lambda s: s in kinds)
    for _ in range(rng.randint(0, 1) if level == 1 else rng.randint(2, 3)):
        forest = _add(rng, pool, forest, lambda s: s not in _BUTTERFLIES)
    result = score([forest])[0]
    answer = sum(p for name, p in result.by_species.items() if name in _BUTTERFLIES)
    sets = _butterfly_words(forest)
    counts = {b: forest.count_species(b) for b in _BUTTERFLIES if forest.count_species(b)}
    table = next(sp.scoring["table"] for sp in catalog().all_species()
                 if sp.scoring["kind"] == "butterflies")
    layered = MINE + "set 1 takes one butterfly of each species you have, set 2 one of each " \
                     "species left, and so on."
    return _number(
        "forest_shuffle.butterflies", seed,
        question=("How many points do the butterflies of this forest score together? (Sets of "
                  "different butterflies: 0 / 3 / 6 / 12 / 20 points for 1, 2, 3, 4 or 5 "
                  "species; each butterfly is in one set.)"),
        answer=answer, what="what the butterflies score together",
        rule="Make the sets: one butterfly of each species in the first, then again with those "
             "left.",
        hints=("Sort the butterflies by species first (the kind is written at the top of each "
               "card).",
               "Your butterflies: " + ", ".join(f"{b} x{c}" for b, c in counts.items())
               + ". Make a first set with one of each species, then a second from those left, "
                 "and so on."),
        safe_hints=("Sort the butterflies by species first (the kind is written at the top of "
                    "each card).",
                    "Your butterflies are " + _list(counts) + ". Make a first set with one of "
                    "each species, then a second from those left, and so on."),
        draw=lambda marked: position_svg(forest, title="Butterfly sets"),
        explanation=f"{_cap(sets)}; {answer} in all. {layered}",
        context={"forest": forest}, mistakes=_butterfly_mistakes(counts, table))


@register("forest_shuffle.top_species", game=GAME.name, notebook=NB3,
          rule="At the end every visible card scores by its own rule; compare the species",
          title="Which species scores most?",
          levels=("a small forest", "a full forest"))
def top_species(seed: int, level: int = 1) -> Exercise:
    rng = _rng("top_species", seed, level)
    size = ((2, 3), (3, 5)) if level == 1 else ((3, 4), (6, 9))
    while True:
        pool = _pool()
        forest = _random_forest(rng, pool, rng.randint(*size[0]), rng.randint(*size[1]),
                                sapling=0.15)
        points = dict(score([forest])[0].by_species)
        dwellers = sorted({d.species for _, _, d in forest.dwellers()})
        if len(dwellers) < 2:
            continue
        names = sorted(points, key=lambda x: (-points[x], x))
        if points[names[0]] > max(points[names[1]], 0):
            break
    best = names[0]
    cards = {x: forest.count_species(x) + sum(1 for t in forest.trees if t.species == x)
             for x in points}
    most = max(cards.values())
    options = tuple(Option(x, f"{x} ({explain(x)})") for x in sorted(points))

    def why(choice: str) -> tuple[str, str]:
        crowd = (" It has many cards here, but points come from each card's rule, not from "
                 "the number of cards." if cards[choice] == most else "")
        return "most-cards" if crowd else "", short(
            f"{choice} scores {points[choice]} here ({what_counts(forest, choice)}); another "
            f"species scores more.{crowd}")

    counters = [x for x in points if catalog().species(x).scoring["kind"] in
                ("per_type", "per_species", "same_symbol", "bottom_cards", "full_trees")]
    return Exercise(
        kind="forest_shuffle.top_species", seed=seed,
        question="Which species scores the most points in this forest (all its cards together)?",
        answer_kind="choice", answer=best, options=options,
        checker=lambda choice: choice_verdict(
            choice, best, why_not=why,
            right_reason=f"Right: {best} scores {points[best]}; next comes {names[1]} with "
                         f"{points[names[1]]}."),
        draw=lambda marked: position_svg(forest, title="Which species scores most?"),
        hints=("Work out each species' points with its own rule: cards that count other cards "
               "can add up quickly.",
               ("Start with the species that count other cards: " + _list(counters) + "."
                if counters else "No species here counts other cards: compare the fixed "
                                 "points and the tree rules.")
               + f" Your forest has {_plural(len(forest.trees), 'tree')}."),
        explanation=", ".join(f"{x}: {points[x]}" for x in names),
        context={"forest": forest, "points": points})


# ----- more of notebook 3: the cave, majorities, what a rule counts, where a card scores ----

_FIXED = [sp.name for sp in catalog().all_species()
          if sp.scoring["kind"] == "fixed" and sp.scoring["points"] > 0 and not sp.is_tree]


@register("forest_shuffle.cave_total", game=GAME.name, notebook=NB3,
          rule="A forest's total is every card's points by its own rule plus 1 point per card "
               "under the cave",
          title="A forest's total, cave included",
          levels=("a small forest of fixed points", "a fuller forest"))
def cave_total(seed: int, level: int = 1) -> Exercise:
    rng = _rng("cave_total", seed, level)
    pool = _pool()
    if level == 1:
        forest = Forest()
        for name in rng.sample(["Birch", "Douglas Fir", "Birch", "Douglas Fir", SAPLING], 2):
            forest = _plant(rng, pool, forest, name)
        for _ in range(rng.randint(1, 3)):
            forest = _add(rng, pool, forest, lambda s: s in _FIXED)
    else:
        forest = _random_forest(rng, pool, rng.randint(3, 4), rng.randint(4, 6), sapling=0.15)
    cave = rng.randint(1, 6) if level == 1 else rng.randint(2, 9)
    forest = replace(forest, cave=cave)
    result = score([forest])[0]
    answer = result.total
    species = list(result.by_species)
    mistakes = [(answer - cave, "forgot-cave", "The cave scores too: every card under it is "
                                               "worth 1 point."),
                (answer - cave + 1, "cave-as-one-point", "The cave is not worth 1 point as a "
                                                         "whole: each card under it is.")]
    return _number(
        "forest_shuffle.cave_total", seed,
        question=(f"What is this forest's total score at the end of the game? Its cave holds "
                  f"{_plural(cave, 'card')}."),
        answer=answer, what="the forest's total",
        rule="Score every card by its own rule (a sapling scores nothing), then add the cave.",
        hints=("Add up every card's points by its own rule, then the cave.",
               f"Score each species in turn: {_list(species)}; then add one point for each of "
               f"the {cave} cards under the cave."),
        draw=lambda marked: position_svg(forest, title="A forest's total"),
        explanation=(", ".join(f"{n} {p}" for n, p in result.by_species.items())
                     + f", cave {result.cave}: {answer} in all."),
        context={"forest": forest}, mistakes=mistakes)


def _majority_forests(rng: random.Random, species: str, level: int) -> tuple[Forest, tuple]:
    """Your forest and one (level 1) or two (level 2) rivals with counts close to yours."""
    pool = _pool()
    names = catalog().tree_species()
    forest = Forest()
    if species == "Linden":
        plan = ["Linden"] * rng.randint(1, 3) + [rng.choice(names) for _ in range(rng.randint(1, 2))]
    else:
        plan = [rng.choice(names + [SAPLING] * (level == 2)) for _ in range(rng.randint(3, 5))]
    rng.shuffle(plan)
    for name in plan:
        forest = _plant(rng, pool, forest, name)
    if species != "Linden":
        forest = _add(rng, pool, forest, lambda s: s == species)
    at = [i for i, t in enumerate(forest.trees) if t.species == "Linden" or species != "Linden"]
    if level == 2 and rng.random() < 0.5:
        forest = _add(rng, pool, forest, lambda s: s in _BEES, trees=at)
    own = (sum(1 for t in forest.trees if t.species == "Linden") if species == "Linden"
           else len(forest.trees))
    rivals = []
    for _ in range(1 if level == 1 else 2):
        k = max(0, own + rng.choice([-1, 0, 0, 1]))
        rival = Forest()
        extra = ["Linden"] * k + ["Birch"] if species == "Linden" else \
            [rng.choice(names + [SAPLING]) for _ in range(max(k, 1))]
        for name in extra:
            rival = _plant(rng, pool, rival, name)
        rivals.append(rival)
    return forest, tuple(rivals)


def _majority_counts(forests: Iterable[Forest], species: str) -> list[int]:
    """What the majority rule compares in each forest: Lindens, or trees, with the Carpenter
    Bees that count as one more."""
    out = []
    for f in forests:
        hosts = [t for t in f.trees if species != "Linden" or t.species == "Linden"]
        bees = sum(1 for t in hosts for _, d in t.dwellers() if d.species in _BEES)
        out.append(len(hosts) + bees)
    return out


def _majority_mistakes(forest: Forest, rivals: tuple, species: str) -> list:
    r = catalog().species(species).scoring
    n = forest.count_species(species)
    win, lose = n * r["points"], n * r.get("otherwise", 0)
    what = "Lindens" if species == "Linden" else "trees"
    counts = _majority_counts((forest, *rivals), species)
    out = []
    if counts[0] == max(counts[1:]):
        out.append((lose, "tie-read-as-loss",
                    f"A tie is not a loss: the rule asks only that no forest has more {what}. "
                    + MINE + "every forest tied for the most scores the higher value."))
    out.append((win, "ignored-rival", f"Compare with every rival forest: the higher value needs "
                                      f"that no forest has more {what} than yours."))
    no_bees = _points_without_bees(species, (forest, *rivals))
    out.append((no_bees, "forgot-carpenter-bee",
                "A Violet Carpenter Bee counts as one more tree here (for the Linden, one more "
                "Linden)."))
    if species != "Linden":
        bare = [len(f.trees) - sum(1 for t in f.trees if t.is_sapling) for f in (forest, *rivals)]
        out.append((win if bare[0] >= max(bare[1:]) else lose, "forgot-saplings",
                    "A sapling is a tree too when the trees of a forest are counted."))
    return out


@register("forest_shuffle.majority", game=GAME.name, notebook=NB3,
          rule="Linden scores 3 each, and the Great Spotted Woodpecker 10, only if no other "
               "forest has more Lindens (or trees); a tie keeps the higher value",
          title="Most Lindens, most trees",
          levels=("your forest and one rival", "two rivals, saplings and Carpenter Bees"))
def majority(seed: int, level: int = 1) -> Exercise:
    rng = _rng("majority", seed, level)
    species = rng.choice(["Linden", "Great Spotted Woodpecker"])
    forest, rivals = _majority_forests(rng, species, level)
    answer = _points_of(species, [forest, *rivals])
    counts = _majority_counts((forest, *rivals), species)
    n = forest.count_species(species)
    subject = f"your {_plural(n, species)} together" if n > 1 else f"your {species}"
    what = ("Lindens (a Violet Carpenter Bee at a Linden counts as one more)"
            if species == "Linden" else
            "trees (saplings count, and each Violet Carpenter Bee counts as one more)")
    return _number(
        "forest_shuffle.majority", seed,
        question=(f"How many points {'do' if n > 1 else 'does'} {subject} score? (Rule: "
                  f"{species} scores {explain(species)}.) The rival "
                  f"{'forest is' if len(rivals) == 1 else 'forests are'} drawn below yours."),
        answer=answer, what=f"what {subject} score{'' if n > 1 else 's'}",
        rule=f"Count the {what} in every forest and compare.",
        hints=(f"Compare your forest with {'the rival forest' if len(rivals) == 1 else 'each rival forest'}: "
               f"which has the most {what.split(' ')[0]}?",
               f"Your forest grows {_list(_tree_name(t) for t in forest.trees)}. Count the "
               f"{what} there, then in each rival forest: does any have more than yours?"),
        draw=lambda marked: position_svg(forest, others=rivals, title="Most Lindens, most trees"),
        explanation=(f"{_cap(subject)} score{'' if n > 1 else 's'} {answer}: counting "
                     f"{what.split(' ')[0]}, your forest has {counts[0]}, the rival "
                     f"{'forest' if len(rivals) == 1 else 'forests'} "
                     f"{_list(str(c) for c in counts[1:])}. " + MINE
                     + "every forest tied for the most scores the higher value."),
        context={"forest": forest, "others": rivals, "species": species},
        mistakes=_majority_mistakes(forest, rivals, species))


#: scorers whose rule counts cards of the forest, by level, with cards worth adding
_COUNTERS = {
    1: ["Goshawk", "Tree Ferns", "Gnat", "Red Fox", "Tree Frog", "Stag Beetle", "Blackberries",
        "Hedgehog"],
    2: ["Bullfinch", "Fallow Deer", "Wolf", "Red Deer", "Roe Deer", "Wood Ant"],
}
#: cards that look as if they count, but do not (or do, though they look as if not)
_LOOKALIKES = {"Wolf": ("Wild Boar", "Squeaker"), "Fallow Deer": ("Wild Boar", "Red Deer"),
               "Bullfinch": tuple(_BUTTERFLIES), "Red Deer": ("Moss", "Tree Ferns"),
               "Wood Ant": ("Wood Ant",)}


def _counts_card(rule: Mapping, symbol: str | None, side: str, species: str,
                 card_symbol: str | None) -> bool:
    """Does a card (a tree when ``side`` is "tree") count for a rule that counts cards?"""
    k = rule["kind"]
    if k == "per_type":
        return bool(set(rule["types"]) & set(_types(species)))
    if k == "per_species":
        return side != "tree" and species == rule["species"]
    if k == "same_symbol":
        return (species if side == "tree" else card_symbol) == symbol
    return k == "bottom_cards" and side == "bottom"


def _counted_cells(forest: Forest, scorer: str) -> tuple[frozenset, int]:
    """The drawing's cells holding a card the scorer's rule counts, and how many cards."""
    rule = catalog().species(scorer).scoring
    symbol = next((d.symbol for _, _, d in forest.dwellers() if d.species == scorer), None)
    cells, cards = set(), 0
    for i, t in enumerate(forest.trees):
        if _counts_card(rule, symbol, "tree", t.species, None):
            cells.add((i,))
            cards += 1
        for side in SIDES:
            hits = [d for d in t.slot(side) if _counts_card(rule, symbol, side, d.species,
                                                             d.symbol)]
            if hits:
                cells.add((i, SIDE_NUMBER[side]))
                cards += len(hits)
    return frozenset(cells), cards


def _counted_forest(rng: random.Random, scorer: str, level: int) -> Forest:
    pool = _pool()
    forest = _random_forest(rng, pool, rng.randint(2, 3) if level == 1 else rng.randint(3, 4), 0,
                            sapling=0.1 if level == 1 else 0.25)
    forest = _add(rng, pool, forest, lambda s: s == scorer)
    more = _COUNTING.get(scorer) or (lambda s: True)
    for _ in range(rng.randint(2, 3) if level == 1 else rng.randint(3, 5)):
        forest = _add(rng, pool, forest, more)
    for _ in range(rng.randint(1, 2) if level == 1 else rng.randint(2, 4)):
        forest = _add(rng, pool, forest, lambda s: s != scorer)
    for name in _LOOKALIKES.get(scorer, ())[:1] if level == 2 else ():
        forest = _add(rng, pool, forest, lambda s, n=name: s == n and s != scorer)
    return forest


def _not_counted(forest: Forest, scorer: str, cell: tuple) -> tuple[str, str]:
    """The mistake behind clicking a cell that does not count for the scorer, and why it
    does not."""
    rule = catalog().species(scorer).scoring
    if len(cell) == 1:
        tree = forest.trees[cell[0]]
        if rule["kind"] == "same_symbol":
            return "other-symbol", (f"that tree is {a(_tree_name(tree))}, so it shows "
                                    + ("no symbol." if tree.is_sapling
                                       else f"the {tree.species} symbol."))
        return "clicked-tree", f"that is a tree, and the {scorer} does not count trees."
    i, side = cell[0], NUMBER_SIDE[cell[1]]
    stack = forest.trees[i].slot(side)
    if not stack:
        return "clicked-empty-slot", "that slot is empty."
    d = stack[-1]
    if rule["kind"] == "per_type":
        boar = "deer" in rule["types"] and d.species in ("Wild Boar", "Squeaker")
        return "boar-as-deer" if boar else "wrong-type", (
            f"the {d.species} there is {_list(_types(d.species))}, not "
            f"{' or '.join(rule['types'])}.")
    if rule["kind"] == "per_species":
        return "wrong-species", f"that is {a(d.species)}, not {a(rule['species'])}."
    if rule["kind"] == "same_symbol":
        return "other-symbol", f"the {d.species} there shows the {d.symbol} symbol."
    return "not-below", f"the {d.species} there sits {side} of its tree, not below it."


def _counted_missed(forest: Forest, scorer: str, missing: frozenset) -> tuple[str, str]:
    """The mistake behind leaving out some counted cards, and what to re-check (never which
    cards)."""
    cat = catalog()
    base = f"Some cards the {scorer} counts are not clicked yet: look again for all the " \
           f"{_counted_words(scorer).split(' (')[0]}."
    kinds = set()
    for cell in missing:
        if len(cell) == 1:
            kinds.add("tree")
            continue
        d = forest.trees[cell[0]].slot(NUMBER_SIDE[cell[1]])[-1]
        kinds.add("self" if d.species == scorer else
                  "butterfly" if "butterfly" in cat.species(d.species).types else
                  "deer" if "deer" in cat.species(d.species).types else "card")
    if "self" in kinds:
        return "left-out-itself", base + " A card can count itself."
    if "butterfly" in kinds and scorer == "Bullfinch":
        return "butterfly-not-insect", base + " Butterflies are insects too."
    if "deer" in kinds and scorer == "Fallow Deer":
        return "deer-not-cloven", base + " Deer are cloven-hoofed animals too."
    if "tree" in kinds:
        return "left-out-trees", base + (" Trees count too (saplings as trees, and a tree "
                                         "shows its own species as its symbol).")
    return "missed-some", base


@register("forest_shuffle.counted_cards", game=GAME.name, notebook=NB3,
          rule="A card that scores per card counts every card of its kind in its own forest: a "
               "type (deer, insects, bats ...), a species, a tree symbol, or the cards below trees",
          title="Which cards does it count?",
          levels=("birds, bats, amphibians and the like", "insects, deer, symbols and cards "
                                                          "below trees"))
def counted_cards(seed: int, level: int = 1) -> Exercise:
    rng = _rng("counted_cards", seed, level)
    names = _COUNTERS[level]
    while True:
        scorer = names[seed % len(names)] if seed < 2 * len(names) else rng.choice(names)
        forest = _counted_forest(rng, scorer, level)
        if forest.count_species(scorer) != 1:
            continue
        right, cards = _counted_cells(forest, scorer)
        where = _spots_of(forest, scorer)
        spot = next((i, s, k) for i, s, d in forest.dwellers() for k in [0]
                    if d.species == scorer)
        r = catalog().species(scorer).scoring
        points = score([forest])[0].points_at((spot[0], spot[1], 0))
        if right and points == r["points"] * cards:
            break
    mark = () if where[0] in right else where
    return Exercise(
        kind="forest_shuffle.counted_cards", seed=seed,
        question=(f"Your {scorer} scores {explain(scorer)}. Click every card of your forest that "
                  f"its rule counts (a slot of stacked cards is one click; the {scorer} itself "
                  f"too, if its rule counts it)."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=lambda c: _not_counted(forest, scorer, c),
            missed=f"Some cards the {scorer} counts are not clicked yet.",
            partial=lambda g: _counted_missed(forest, scorer, right - g),
            words=lambda c: _cell_place(forest, c),
            right_reason="Right: those are the cards its rule counts."),
        draw=lambda marked: position_svg(forest, cells=True, marked=marked,
                                         title="Which cards does it count?"),
        hints=(f"The {scorer} looks at {_counted_words(scorer)}.",
               f"Your {scorer} sits at {_cell_place(forest, where[0])}. Go through all "
               f"{_plural(len(forest.trees), 'tree')} and their slots: the kind is written at "
               f"the top of each card, the tree symbol at its bottom."),
        hint_marks=(mark, ()),
        explanation=f"It counts {_plural(cards, 'card')}: " + _list(
            _cell_place(forest, c) for c in sorted(right)) + ".",
        context={"forest": forest, "species": scorer})


#: cards whose points depend on where they lie, with the side they go on
_PLACED = {"Red Squirrel": "top", "Chaffinch": "top", "European Fat Dormouse": "side",
           "Common Toad": "bottom"}


def _placed_forest(rng: random.Random, asked: list[str], level: int) -> Forest:
    """A forest where some cards of ``asked`` score and some do not."""
    pool = _pool()
    names = ["Oak", "Beech"] * 2 + catalog().tree_species() + [SAPLING]
    forest = Forest()
    for _ in range(rng.randint(3, 4) if level == 1 else rng.randint(4, 5)):
        forest = _plant(rng, pool, forest, rng.choice(names))
    for _ in range(rng.randint(3, 4)):
        name = rng.choice(asked)
        forest = _add(rng, pool, forest, lambda s, n=name: s == n)
    if "European Fat Dormouse" in asked:
        for _ in range(rng.randint(1, 3)):
            forest = _add(rng, pool, forest, lambda s: "bat" in _types(s))
    toads = [i for i, t in enumerate(forest.trees)
             if any(d.species == "Common Toad" for d in t.bottom)]
    if toads and rng.random() < 0.7:
        forest = _add(rng, pool, forest, lambda s: s == "Common Toad", trees=toads[:1])
    for _ in range(0 if level == 1 else rng.randint(2, 3)):
        forest = _add(rng, pool, forest, lambda s: s not in _PLACED)
    return forest


def _placed_why(forest: Forest, asked: list[str], cell: tuple) -> tuple[str, str]:
    """The mistake behind clicking a cell that holds no scoring card of those asked about,
    and why it does not."""
    if len(cell) == 1:
        return "clicked-tree", "that is a tree, not one of the cards asked about."
    i, side = cell[0], NUMBER_SIDE[cell[1]]
    tree = forest.trees[i]
    stack = tree.slot(side)
    if not stack:
        return "clicked-empty-slot", "that slot is empty."
    d = stack[-1]
    if d.species not in asked:
        return "not-asked", f"that is {a(d.species)}, not one of the cards asked about."
    rule = catalog().species(d.species).scoring
    if rule["kind"] == "host":
        if tree.is_sapling:
            return "sapling-as-host", (f"that {d.species} sits atop a sapling. " + MINE
                                       + f"a sapling is never {a(rule['species'])}.")
        return "wrong-host", (f"that {d.species} sits atop {a(tree.species)}; it scores only "
                              f"atop {a(rule['species'])}.")
    if rule["kind"] == "opposite_bat":
        elsewhere = any("bat" in _types(x.species) for s in SIDES for x in tree.slot(s))
        return ("bat-not-opposite" if elsewhere else "no-bat-there",
                "no bat sits in the slot on the other side of its tree.")
    return "single-toad", "that toad is alone in its slot."


def _placed_words(species: str) -> tuple[str, str]:
    """What to check for a card that scores where it lies: a short pointer, and the rule."""
    rule = catalog().species(species).scoring
    if rule["kind"] == "host":
        return (f"the tree under each {species}",
                f"{a(species)} needs {a(rule['species'])} under it (a sapling is no tree "
                f"species)")
    if rule["kind"] == "opposite_bat":
        return ("the slot across the tree from each Dormouse",
                "a Dormouse needs a bat in the slot on the other side of the same tree")
    return "which toads share a slot", "a toad needs a second toad in its own slot"


@register("forest_shuffle.scoring_spots", game=GAME.name, notebook=NB3,
          rule="Some cards score only where they lie: a Red Squirrel atop an Oak, a Chaffinch "
               "atop a Beech, a Dormouse with a bat opposite, two Common Toads in one slot",
          title="Which cards score where they lie?",
          levels=("one kind of card", "several kinds among other cards"))
def scoring_spots(seed: int, level: int = 1) -> Exercise:
    rng = _rng("scoring_spots", seed, level)
    kinds = sorted(_PLACED)
    while True:
        asked = [rng.choice(kinds)] if level == 1 else rng.sample(kinds, rng.randint(2, 3))
        forest = _placed_forest(rng, asked, level)
        points = dict(score([forest])[0].card_points)
        cands = {(i, SIDE_NUMBER[s]) for i, s, d in forest.dwellers() if d.species in asked}
        right = frozenset((i, SIDE_NUMBER[s]) for (i, s, k), p in points.items()
                          if s != "tree" and p > 0 and forest.trees[i].slot(s)[k].species
                          in asked)
        if right and cands - right:
            break
    rules = "; ".join(f"{n} {explain(n)}" for n in asked)
    missed = ("Some of those cards that score are not clicked yet: check "
              + "; ".join(_placed_words(n)[0] for n in asked) + ".")
    return Exercise(
        kind="forest_shuffle.scoring_spots", seed=seed,
        question=(f"Click every {_list(asked)} card of your forest that scores its points where "
                  f"it lies. (Rules: {rules}.)"),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=lambda c: _placed_why(forest, asked, c), missed=missed,
            words=lambda c: _cell_place(forest, c),
            right_reason="Right: each of those lies where its rule wants it."),
        draw=lambda marked: position_svg(forest, cells=True, marked=marked,
                                         title="Which cards score where they lie?"),
        hints=(f"Find each {_list(asked)} card first, then check what its rule needs around it.",
               f"There {'is' if len(cands) == 1 else 'are'} {_plural(len(cands), 'such card')}: "
               + "; ".join(_placed_words(n)[1] for n in asked) + "."),
        hint_marks=(tuple(sorted(cands)), ()),
        explanation=" ".join(f"{_cap(_cell_place(forest, c))}: "
                             + ("scores." if c in right else _placed_why(forest, asked, c)[1])
                             for c in sorted(cands)),
        context={"forest": forest, "asked": asked})


# ----- bats, and the species scored once for a set ------------------------------------------

_BATS = [sp.name for sp in catalog().all_species() if sp.scoring["kind"] == "bats"]
_BAT_FRIENDS = ("Gnat", "European Fat Dormouse")


def _bat_forest(rng: random.Random, level: int) -> Forest:
    pool = _pool()
    forest = _random_forest(rng, pool, 3 if level == 1 else 4, 0, sapling=0.2)
    kinds = rng.sample(_BATS, rng.choice([1, 2, 2, 3, 3, 4, 4]))
    extra = [rng.choice(kinds) for _ in range(rng.randint(0, 1) if level == 1
                                              else rng.randint(1, 2))]
    for name in kinds + extra:      # one bat of each species, then a few copies
        forest = _add(rng, pool, forest, lambda s, n=name: s == n)
    for _ in range(0 if level == 1 else rng.randint(1, 2)):
        forest = _add(rng, pool, forest, lambda s: s in _BAT_FRIENDS)
    for _ in range(rng.randint(0, 2)):
        forest = _add(rng, pool, forest, lambda s: s not in _BATS and s not in _BAT_FRIENDS)
    return forest


def _bat_mistakes(forest: Forest, answer: int) -> list:
    rule = catalog().species(_BATS[0]).scoring
    counts = {b: forest.count_species(b) for b in _BATS if forest.count_species(b)}
    cards, kinds = sum(counts.values()), len(counts)
    friends = sum(forest.count_species(f) for f in _BAT_FRIENDS)
    each = rule["points"]
    out = []
    if kinds < rule["distinct"]:
        out.append((each * cards, "copies-as-species" if cards >= rule["distinct"] else
                    "no-threshold",
                    "Bats score only once your forest holds 3 different bat species; two bats "
                    "of one species are one species."))
    else:
        out.append((each * kinds, "one-per-species", "Once 3 different species are there, "
                                                     "every bat card scores, copies too."))
        out.append((0, "missed-threshold", "Count the different bat species again: the name "
                                           "of each bat is on its card."))
    if friends:
        with_friends = each * (cards + friends) if kinds + min(friends, 2) >= rule["distinct"] \
            else 0
        out.append((with_friends, "counted-non-bat", "The Gnat is an insect and the European "
                                                      "Fat Dormouse a pawed animal: neither is "
                                                      "a bat."))
    return out


@register("forest_shuffle.bat_points", game=GAME.name, notebook=NB3,
          rule="Each bat scores 5 once the forest holds at least 3 different bat species",
          title="Bats together",
          levels=("a few bats", "bats among the Gnat and the Dormouse"))
def bat_points(seed: int, level: int = 1) -> Exercise:
    rng = _rng("bat_points", seed, level)
    while True:
        forest = _bat_forest(rng, level)
        counts = {b: forest.count_species(b) for b in _BATS if forest.count_species(b)}
        if counts:
            break
    points = score([forest])[0].by_species
    answer = sum(points.get(b, 0) for b in _BATS)
    friends = [f for f in _BAT_FRIENDS if forest.count_species(f)]
    return _number(
        "forest_shuffle.bat_points", seed,
        question=("How many points do the bats of this forest score together? (Rule: bats "
                  f"score {explain(_BATS[0])}.)"),
        answer=answer, what="what the bats score together",
        rule="Count the different bat species first, then the bat cards.",
        hints=("First count the different bat species in your forest, then the bat cards. A bat "
               "is written as bat at the top of its card.",
               "Your bats: " + ", ".join(f"{b} x{c}" for b, c in counts.items())
               + (f". The {_list(friends)} {'is' if len(friends) == 1 else 'are'} not "
                  f"{'a bat' if len(friends) == 1 else 'bats'}." if friends else ".")),
        safe_hints=("First count the different bat species in your forest, then the bat "
                    "cards. A bat is written as bat at the top of its card.",
                    "Your bats are " + _list(counts) + "; every bat card scores once enough "
                    "species are there."),
        draw=lambda marked: position_svg(forest, title="Bats together"),
        explanation=(f"{_plural(len(counts), 'bat species')} ({_list(counts)}), "
                     f"{_plural(sum(counts.values()), 'bat card')}: {answer} points."),
        context={"forest": forest}, mistakes=_bat_mistakes(forest, answer))


_SETS = ["Horse Chestnut", "Fire Salamander", "Fireflies"]


def _set_forest(rng: random.Random, species: str, level: int) -> Forest:
    pool = _pool()
    names = catalog().tree_species()
    forest = Forest()
    plan = [rng.choice(names + [SAPLING]) for _ in range(rng.randint(2, 4))]
    if species == "Horse Chestnut":
        plan += [species] * (rng.randint(1, 3) if level == 1 else rng.randint(2, 5))
        rng.shuffle(plan)
    for name in plan:
        forest = _plant(rng, pool, forest, name)
    if species != "Horse Chestnut":
        for _ in range(rng.randint(1, 3) if level == 1 else rng.randint(2, 4)):
            forest = _add(rng, pool, forest, lambda s: s == species)
    at = [i for i, t in enumerate(forest.trees) if t.species == "Horse Chestnut"]
    if level == 2 and at and rng.random() < 0.6:
        forest = _add(rng, pool, forest, lambda s: s in _BEES, trees=at)
    for _ in range(0 if level == 1 else rng.randint(2, 4)):
        forest = _add(rng, pool, forest, lambda s: s != species)
    return forest


@register("forest_shuffle.set_points", game=GAME.name, notebook=NB3,
          rule="Horse Chestnuts, Fire Salamanders and Fireflies score once for the whole set, "
               "by its size (a Carpenter Bee at a Horse Chestnut adds one to its set)",
          title="Scored once, as a set",
          levels=("a small set", "a bigger set among other cards"))
def set_points(seed: int, level: int = 1) -> Exercise:
    rng = _rng("set_points", seed, level)
    species = _SETS[seed % len(_SETS)]
    forest = _set_forest(rng, species, level)
    answer = _points_of(species, [forest])
    n = forest.count_species(species)
    table = catalog().species(species).scoring["table"]
    mistakes = [(n * _set_value(table, n), "scored-set-per-card", "The set scores once, by its "
                                                                  "size: its value is not "
                                                                  "given to each card."),
                (_points_without_bees(species, [forest]),
                 "forgot-carpenter-bee", "A Violet Carpenter Bee at a Horse Chestnut adds one "
                                         "more to the set.")]
    return _number(
        "forest_shuffle.set_points", seed,
        question=(f"How many points do your {_plural(2, species)[2:]} score together? (Rule: "
                  f"{species} scores {explain(species)}.)"),
        answer=answer, what=f"what the {species} set scores",
        rule=f"Count the {species} cards of your forest, then read the set's value once.",
        hints=(f"Count the {species} cards in your forest: that is the size of the set.",
               f"Your forest has {_plural(len(forest.trees), 'tree')}; look at "
               + ("the trees themselves, and at any Violet Carpenter Bee beside a Horse "
                  "Chestnut." if species == "Horse Chestnut" else
                  "the bottom slots, where these cards lie.")
               + " Then read the value for that size once, for the whole set."),
        draw=lambda marked: position_svg(forest, title="Scored once, as a set"),
        explanation=f"{_plural(n, species)} in the set: {answer} points for the whole set.",
        context={"forest": forest, "species": species},
        mistakes=mistakes)


# ----- added by the audit "every rule taught gets a kind" (notebook 02) ----------------------

def _mole_side(cid: int) -> str:
    """The side of a split card that shows the Mole."""
    card = catalog().card(cid)
    return next(s for s, h in zip(card.sides(), card.halves) if h.species == "Mole")


def _dearest(cid: int) -> int:
    """The highest cost among a card's halves (a tree's own cost)."""
    card = catalog().card(cid)
    names = [str(card.species)] if card.is_tree else [h.species for h in card.halves]
    return max(catalog().species(n).cost for n in names)


def _through_mole(st: GameState, mole: int, payment: Iterable[int]) -> GameState | None:
    """The position once the Mole is played, paid for and its effect taken (any mushroom
    draw before it declined): the moment it lets you play more cards; None if it cannot."""
    side = _mole_side(mole)
    plays = [x for x in st.legal_actions() if isinstance(x, PlayDweller) and x.card == mole
             and x.side == side]
    if not plays:
        return None
    after = _pay_all(st.apply(plays[0]), payment)
    while after.step is not None and after.step.kind in ("mushroom", "effect"):
        take = after.step.kind == "effect" and after.step.tag == "Mole"
        after = after.apply(Decide(after.step.kind, after.step.tag, take))
    return after if after.step is not None and after.step.kind == "mole" else None


def _mole_position(rng: random.Random, level: int):
    """A forest, a hand with the Mole and the cards it is paid with, and the position where
    the Mole lets you play more: (state after, the Mole, its payment, the hand left, the cards
    the engine lets you play) or None."""
    trees, dwellers, sizes = ((1, 2), (0, 2), (3,)) if level == 1 else ((2, 3), (2, 5), (2, 3, 4))
    size = rng.choice(sizes)
    pool = _pool()
    forest = _random_forest(rng, pool, rng.randint(*trees), rng.randint(*dwellers))
    mole = _take(rng, pool, _shows(lambda s: s == "Mole"))
    if mole is None:
        return None
    payment = [_take(rng, pool, lambda c: True) for _ in range(catalog().species("Mole").cost)]
    hand: list[int] = []
    trap = _take(rng, pool, lambda c: _dearest(c) >= size) if rng.random() < 0.7 else None
    if trap is not None:        # a card dearer than the hand left can pay: the Mole's trap
        hand.append(trap)
    while len(hand) < size:
        tree_card = rng.random() < 0.4
        seen = {_card_words(c) for c in hand}
        hand.append(_take(rng, pool, lambda c: (catalog().card(c).is_tree == tree_card
                                                and _card_words(c) not in seen)))
    after = _through_mole(_state(forest, [mole] + payment + hand), mole, payment)
    if after is None:
        return None
    right = frozenset(str(x.card) for x in after.legal_actions()
                      if isinstance(x, (PlayTree, PlayDweller)))
    mine = frozenset(str(c) for c in hand if _play_reason(after, c)[0])
    if right != mine or not 0 < len(right) < len(hand):
        return None
    return after, mole, payment, hand, right


def _mole_why_not(after: GameState, cid: int) -> tuple[str, str]:
    """Why a card cannot be played through the Mole: (mistake, reason)."""
    ok, reason, name = _play_reason(after, cid)
    reason = reason.replace("only 1 other cards", "only 1 other card")
    if _dearest(cid) >= len(after.hands[0]):
        return "mole-plays-free", (f"{reason} The Mole lets you play more cards, but each "
                                   "one still costs its price, paid from your hand.")
    return name or "cannot-play", reason


@register("forest_shuffle.mole_plays", game=GAME.name, notebook=NB2,
          rule="The Mole lets you play more cards from your hand this turn, each paid for as "
               "usual; their effects and bonuses come once you stop",
          title="What can the Mole play?",
          levels=("one or two trees, three cards left",
                  "a fuller forest, two to four cards left"))
def mole_plays(seed: int, level: int = 1) -> Exercise:
    rng = _rng("mole_plays", seed, level)
    made = None
    while made is None:
        made = _mole_position(rng, level)
    after, mole, payment, hand, right = made
    forest = after.forests[0]
    budget = len(hand) - 1
    return Exercise(
        kind="forest_shuffle.mole_plays", seed=seed, level=level,
        question=(f"You played the {_name(mole)} card's Mole, paid with "
                  f"{_list(_card_words(c) for c in payment)}, and took its effect. These "
                  f"{_plural(len(hand), 'card')} are left in your hand. Which of them could you "
                  "play next through the Mole (face up, not as a sapling)? Pick every one."),
        answer_kind="choices", answer=right,
        options=tuple(Option(str(c), _card_words(c)) for c in hand),
        checker=lambda given: choices_verdict(
            given, right, why_not=lambda k: _mole_why_not(after, int(k)),
            missed="A card you left out can be played through the Mole too: compare each "
                   "card's cost with the other cards left in your hand, and look for a free "
                   "slot on its side of a tree.",
            right_reason="Right: through the Mole each card is paid for as usual, from the "
                         "cards still in your hand."),
        draw=lambda marked: position_svg(forest, hand=hand, title="What can the Mole play?"),
        hints=(f"The Mole's own cost is paid already: {_plural(len(payment), 'card')} left "
               f"your hand. Each card the Mole plays is paid from the other cards left, "
               "never with itself.",
               f"Free slots in your forest: {_free_slots_words(forest)}. Check each card's "
               f"cost against {_plural(budget, 'card')} to pay with, and its side."),
        explanation=(" ".join(_play_reason(after, c)[1] for c in hand) + " Once you stop, the "
                     "effects and bonuses of the cards played through the Mole come, in the "
                     "order you played them."),
        context={"state": after, "mole": mole})


# ----- the Raccoon: cards from the hand under the cave, as many drawn back -------------------

def _raccoon_position(rng: random.Random, level: int):
    """Player 1 plays the Raccoon (paying with one card) and puts some hand cards under the
    cave; level 2 has a cave that already holds cards and a fuller forest.  Returns the
    position, the Raccoon, its payment, the cards put under the cave, the cave before and
    the state once the effect is over (the engine plays it all)."""
    cat = catalog()
    pool = _pool()
    forest = _random_forest(rng, pool, rng.randint(1, 2), rng.randint(0, 1 if level == 1 else 4),
                            sapling=0)
    forest = _plant(rng, pool, forest, "Birch")       # a tree with free slots for the Raccoon
    cid, side = _card_with(rng, pool, "Raccoon")
    payment = [_take(rng, pool, lambda c: True) for _ in range(cat.species("Raccoon").cost)]
    kept = [_take(rng, pool, lambda c: True) for _ in range(rng.randint(2, 7))]
    cave_before = 0 if level == 1 else rng.randint(1, 5)
    st = _with_cave(_state(forest, [cid] + payment + kept), cave_before)
    tucked = rng.sample(kept, rng.randint(1, len(kept) - 1))
    after = _play_last_tree(st, cid, side, payment)
    if after.step is not None and after.step.kind == "effect":
        after = after.apply(Decide("effect", "Raccoon", True))
    for card in tucked:
        after = after.apply(ToCave(card))
    if after.step is not None and after.step.kind == "raccoon":
        after = after.apply(Finish("raccoon"))
    return st, cid, payment, tucked, cave_before, after


def _raccoon_draw(st: GameState, tucked: list) -> Callable:
    """Player 1's forest and hand before the Raccoon is played."""
    hand = sorted(st.hands[0])
    return lambda marked: position_svg(st.forests[0], hand=hand,
                                       title=f"The Raccoon: {len(tucked)} cards to the cave")


@register("forest_shuffle.raccoon", game=GAME.name, notebook=NB2,
          rule="The Raccoon lets you put any number of hand cards under your cave, then draw "
               "as many from the deck; each cave card scores 1 point, the Raccoon itself none",
          title="The Raccoon and the cave",
          levels=("how many cards you hold after the Raccoon",
                  "what the cave scores after the Raccoon, with cards already in it"))
def raccoon(seed: int, level: int = 1) -> Exercise:
    rng = _rng("raccoon", seed, level)
    st, cid, payment, tucked, cave_before, after = _raccoon_position(rng, level)
    held, k, paid = len(st.hands[0]), len(tucked), len(payment)
    names = _list(_name(c) for c in tucked)
    story = (f"You hold {_plural(held, 'card')}, the Raccoon among them. You play it, paying "
             f"with {_plural(paid, 'card')} ({_list(_name(c) for c in payment)}), and put "
             f"{_plural(k, 'card')} from your hand under your cave: {names}.")
    if level == 1:
        answer = len(after.hands[0])
        mistakes = [(answer - k, "forgot-draw-back", "The Raccoon gives the cards back: after "
                     "putting cards under the cave you draw as many from the deck."),
                    (answer + 1, "kept-raccoon-or-payment", "Two cards left your hand before "
                     "the cave: the Raccoon, now in your forest, and the payment, now in the "
                     "clearing."),
                    (answer + 1 + paid, "kept-raccoon-and-payment", "Playing the Raccoon takes "
                     "it out of your hand, and paying for it takes the payment out too."),
                    (answer + k, "drew-without-giving", "The cards you draw only replace the "
                     "ones under the cave: those left your hand.")]
        return _number(
            "forest_shuffle.raccoon", seed, question=story + " How many cards do you hold "
            "once the Raccoon's effect is over?", answer=answer,
            what="the number of cards in your hand then",
            rule="Follow the turn in order: the Raccoon and its payment leave your hand, then "
                 "cards go under the cave and as many are drawn.",
            hints=("Follow your hand step by step: playing, paying, the cave, drawing.",
                   f"Out of your hand go the Raccoon and {_plural(paid, 'payment card')}; then "
                   f"{_plural(k, 'card')} under the cave, and the draw that follows."),
            draw=_raccoon_draw(st, tucked),
            explanation=(f"The Raccoon and the payment leave your hand; the {k} cards under "
                         f"the cave are replaced by {k} drawn, so you hold {answer}."),
            context={"state": st, "after": after}, mistakes=mistakes)
    answer = after.scores()[0].cave
    mistakes = [(answer - cave_before, "forgot-old-cave", "The cards already under your cave "
                 "stay there and score too."),
                (cave_before, "forgot-tucked-cards", "The cards the Raccoon put under your "
                 "cave are cave cards now: they score like the others."),
                (answer + 1, "counted-raccoon-or-payment", "The Raccoon goes into your "
                 "forest and scores nothing itself, and the payment goes to the clearing: "
                 "neither lies under your cave."),
                (answer + k, "counted-drawn-cards", "The cards you drew back are in your hand, "
                 "not under the cave.")]
    return _number(
        "forest_shuffle.raccoon", seed,
        question=(f"Your cave holds {_plural(cave_before, 'card')}. " + story + " How many "
                  "points does your cave score at the end, if nothing else joins it?"),
        answer=answer, what="the points of your cave",
        rule="Count the cards under your cave once the Raccoon is done: each scores 1 point.",
        hints=("Which cards end up under your cave, and which go elsewhere?",
               f"The cave kept its {_plural(cave_before, 'card')} and took {names}; the "
               f"payment went to the clearing and the Raccoon to your forest."),
        draw=_raccoon_draw(st, tucked),
        explanation=(f"Each card under the cave scores 1: the {cave_before} there before and "
                     f"the {k} the Raccoon put there. The Raccoon itself scores nothing."),
        context={"state": st, "after": after}, mistakes=mistakes)
