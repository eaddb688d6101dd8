"""Exercise generators for Forest Shuffle (see :mod:`pangaea_lab.core.exercises`): each
registered kind builds a small position from a seed and lets the rules engine answer it.

Positions are real game states: the cards are dealt by id from a seeded two-player game, so
every forest is one the deck can lay out, and every answer comes from playing the move with
the engine (or scoring the forest with it).

>>> ex = can_play(3)
>>> ex.check(ex.answer).correct
True
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from typing import Callable, Iterable

from ..core.exercises import Exercise, Option, Verdict, register
from .actions import (Decide, DrawCard, Finish, Pay, PlaceFree, PlayDweller, PlaySapling,
                      PlayTree)
from .cards import SAPLING, SIDES
from .edition import catalog, rules_data
from .effects import bonus_earned, effect_text, part_text
from .forest import Forest, Tree, can_join
from .render import SIDE_NUMBER, position_svg
from .setup import new_game
from .scoring import explain, score
from .state import GameState, dweller_of

GAME = "forest_shuffle"
NB1 = "forest_shuffle/01_setup_and_turns.ipynb"
NB2 = "forest_shuffle/02_effects_and_bonuses.ipynb"
NB3 = "forest_shuffle/03_scoring_every_species.ipynb"
NUMBER_SIDE = {n: s for s, n in SIDE_NUMBER.items()}


# ----- building positions ------------------------------------------------------------------

def _rng(kind: str, seed: int) -> random.Random:
    return random.Random(f"forest_shuffle.{kind}.{seed}")


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


def _plant(rng: random.Random, pool: list[int], forest: Forest, species: str) -> Forest:
    if species == SAPLING:
        cid = _take(rng, pool, lambda c: catalog().card(c).is_split)
        return forest.plant(Tree(SAPLING, cid))
    return forest.plant(Tree(species, _take(rng, pool, _is_tree(species))))


def _add(rng: random.Random, pool: list[int], forest: Forest, test: Callable[[str], bool],
         trees: Iterable[int] | None = None) -> Forest:
    """Place one random card whose shown half passes ``test`` into a free slot (unchanged
    forest if none fits)."""
    options = []
    spots = list(trees) if trees is not None else range(len(forest.trees))
    for cid in pool:
        card = catalog().card(cid)
        if not card.is_split:
            continue
        for side, half in zip(card.sides(), card.halves):
            if not test(half.species):
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
           deck_top: Iterable[int] = (), winter_out: int = 0) -> GameState:
    """Player 1's turn in the base game with exactly these cards (the rest stays in the
    deck or out of the game, so every card is accounted for)."""
    base = _base()
    hand, clearing, deck_top = list(hand), list(clearing), list(deck_top)
    used = set(hand) | set(clearing) | set(deck_top) | set(_forest_cards(forest))
    deck = [c for c in base.deck if c not in used]
    winter = [c for c in catalog().winter_ids if c not in used][:winter_out]
    deck = deck_top + [c for c in deck if c not in winter]
    removed = [c for c in base.removed + base.hands[0] if c not in used]
    st = replace(base, deck=tuple(deck), removed=tuple(removed), box=(), winter=tuple(winter),
                 hands=(tuple(sorted(hand)), base.hands[1]), clearing=tuple(clearing),
                 forests=(forest, Forest()), caves=((), ()), current=0, phase="turn",
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


def _plural(n: int, word: str) -> str:
    """``n`` and the word, plural when needed ("2 Beeches", "3 deer", "2 Tree Ferns")."""
    if n == 1 or word.endswith("s") or word.lower().endswith("deer"):
        return f"{n} {word}"
    if word.endswith(("ch", "sh", "x")):
        return f"{n} {word}es"
    return f"{n} {word}s"


def _which_wrong(picked: frozenset, right: frozenset, why: Callable[[str], str],
                 what: str = "card") -> Verdict:
    """The verdict on a set of picked options: every wrong pick and every miss, with why."""
    extra = sorted(picked - right, key=str)
    missed = sorted(right - picked, key=str)
    if not extra and not missed:
        return Verdict(True, " ".join(why(k) for k in sorted(right, key=str))
                       if right else f"No {what} qualifies.")
    parts = [f"Not this one: {why(k)}" for k in extra]
    parts += [f"You missed one: {why(k)}" for k in missed]
    return Verdict(False, " ".join(parts))


# ===== notebook 1: setup and turns ===========================================================

def _play_reason(st: GameState, cid: int) -> tuple[bool, str]:
    """Can ``cid`` be played now (not as a sapling), and why, from the engine's own rules."""
    cat = catalog()
    budget = len(st.hands[0]) - 1
    card = cat.card(cid)
    forest = st.forests[0]
    if card.is_tree:
        cost = cat.species(str(card.species)).cost
        if cost <= budget:
            return True, (f"{card.species} costs {cost} and you hold {budget} other cards to "
                          f"pay with.")
        return False, (f"{card.species} costs {cost}, but you hold only {budget} other "
                       f"cards to pay with.")
    reasons, ok = [], False
    for side, half in zip(card.sides(), card.halves):
        cost = cat.species(half.species).cost
        spots = [i for i, s in forest.free_spots(half.species) if s == side]
        if cost > budget:
            reasons.append(f"{half.species} costs {cost}, but you hold only {budget} other "
                           f"cards")
        elif not spots:
            reasons.append(f"{half.species} needs a free {side} slot, and none of your trees "
                           f"has one")
        else:
            ok = True
            reasons.append(f"{half.species} costs {cost} (you can pay) and fits {side} of "
                           f"tree {spots[0] + 1}")
    return ok, f"{card.name}: " + "; ".join(reasons) + "."


@register("forest_shuffle.can_play", game=GAME, notebook=NB1,
          rule="To play a card you pay its cost with other cards from your hand, and a half "
               "needs a free slot on its side of a tree",
          title="Which cards can you play?")
def can_play(seed: int) -> Exercise:
    rng = _rng("can_play", seed)
    while True:
        pool = _pool()
        forest = _random_forest(rng, pool, rng.randint(1, 2), rng.randint(1, 4))
        hand = []
        for _ in range(rng.randint(3, 5)):
            tree_card = rng.random() < 0.35
            seen = {_card_words(c) for c in hand}
            cid = _take(rng, pool, lambda c: (catalog().card(c).is_tree == tree_card
                                              and _card_words(c) not in seen))
            hand.append(cid)
        st = _state(forest, hand)
        verdicts = {str(c): _play_reason(st, c) for c in hand}
        right = frozenset(k for k, (ok, _) in verdicts.items() if ok)
        if 0 < len(right) < len(hand):
            break
    engine = {str(a.card) for a in st.legal_actions() if isinstance(a, (PlayTree, PlayDweller))}
    if engine != right:  # pragma: no cover - the reasons above follow the engine's rules
        raise AssertionError("can_play: the reasons disagree with the engine")
    options = tuple(Option(str(c), _card_words(c)) for c in hand)

    def checker(answer: frozenset) -> Verdict:
        return _which_wrong(answer, right, lambda k: verdicts[k][1])

    return Exercise(
        kind="forest_shuffle.can_play", seed=seed,
        question=(f"It is your turn and you hold these {len(hand)} cards. Which of them could "
                  f"you play into your forest now (not face down as a sapling)? Pick every one."),
        answer_kind="choices", answer=right, checker=checker, options=options,
        draw=lambda marked: position_svg(forest, hand=hand, title="Which cards can you play?"),
        hint=("A card costs as many other cards from your hand as its cost number; "
              "a half also needs a free slot on its own side of one of your trees."),
        explanation=" ".join(verdicts[str(c)][1] for c in hand),
        context={"state": st})


@register("forest_shuffle.where_to_place", game=GAME, notebook=NB1,
          rule="A split card goes on the side of a tree its half belongs to (top, bottom, left "
               "or right), into a free slot; only European Hares (and two Common Toads) share one",
          title="Where can this card go?")
def where_to_place(seed: int) -> Exercise:
    rng = _rng("where_to_place", seed)
    cat = catalog()
    while True:
        pool = _pool()
        forest = _random_forest(rng, pool, rng.randint(2, 3), rng.randint(2, 5))
        if rng.random() < 0.25:   # a hare or a toad, to show the cards that share a slot
            forest = _add(rng, pool, forest, lambda s: s in ("European Hare", "Common Toad"))
            cid = _take(rng, pool, _shows(lambda s: s in ("European Hare", "Common Toad")))
        else:
            cid = _take(rng, pool, lambda c: cat.card(c).is_split)
        cost = max(cat.species(h.species).cost for h in cat.card(cid).halves)
        payment = [_take(rng, pool, lambda c: cat.card(c).is_tree) for _ in range(cost)]
        st = _state(forest, [cid] + payment)
        right = frozenset((a.tree, SIDE_NUMBER[a.side]) for a in st.legal_actions()
                          if isinstance(a, PlayDweller) and a.card == cid)
        if right:
            break
    card = cat.card(cid)

    def why(cell: tuple) -> str:
        if len(cell) == 1 and 0 <= cell[0] < len(forest.trees):
            return f"That is tree {cell[0] + 1} itself; a card goes into a slot beside it."
        if len(cell) != 2 or cell[1] not in NUMBER_SIDE or not 0 <= cell[0] < len(forest.trees):
            return "That is not a slot of your forest."
        i, side = cell[0], NUMBER_SIDE[cell[1]]
        half = card.half_for(side)
        where = f"Tree {i + 1}, {side} slot"
        if half is None:
            sides = " and ".join(card.sides())
            return (f"{where}: this is a {card.kind} card, so its halves go only {sides} of a "
                    f"tree.")
        problem = can_join(forest.trees[i].slot(side), half.species)
        if problem:
            return f"{where}: {problem}."
        return f"{where}: its {half.species} half fits there."

    def checker(answer: frozenset) -> Verdict:
        bad = [c for c in answer if len(c) != 2]
        if bad:
            return Verdict(False, why(bad[0]))
        return _which_wrong(answer, right, why, "slot")

    question = (f"You want to play the {card.name} card (the first card of your hand; pay "
                f"with the others). Click every slot of your forest where one of its halves "
                f"could go.")
    return Exercise(
        kind="forest_shuffle.where_to_place", seed=seed, question=question,
        answer_kind="cells", answer=right, checker=checker,
        draw=lambda marked: position_svg(forest, hand=[cid] + payment, cells=True,
                                         marked=marked, title="Where can this card go?"),
        hint=(f"This is a {card.kind} card: each half shows on its own side of a tree. Is "
              f"that slot free?"),
        explanation=" ".join(why(c) for c in sorted(right)),
        context={"state": st, "card": cid})


@register("forest_shuffle.draw_two", game=GAME, notebook=NB1,
          rule="Drawing is one card at a time, two in a turn, but never past 10 cards in hand",
          title="Drawing two cards")
def draw_two(seed: int) -> Exercise:
    rng = _rng("draw_two", seed)
    pool = _pool()
    n = rng.choice([5, 7, 8, 9, 9, 10, 10])
    forest = _random_forest(rng, pool, 1, rng.randint(0, 2), sapling=0)
    hand = [_take(rng, pool, lambda c: True) for _ in range(n)]
    cleared = [_take(rng, pool, lambda c: True) for _ in range(rng.randint(1, 4))]
    st = _state(forest, hand, clearing=cleared)
    after = st
    if DrawCard(None) in st.legal_actions():
        after = st.apply(DrawCard(None))
        if after.step is not None and after.step.kind == "draw":
            after = after.apply(DrawCard(None))
    answer = len(after.hands[0]) - n
    if n >= 10:
        because = ("You already hold 10 cards, the hand limit: you cannot draw at all this turn "
                   "(play a card instead).")
    elif n == 9:
        because = "You hold 9 cards: the first card drawn fills your hand to 10, so you stop at 1."
    else:
        because = f"You hold {n} cards: two more make {n + 2}, within the limit of 10, so 2."

    def checker(value: int) -> Verdict:
        return Verdict(value == answer, ("" if value == answer else f"Not {value}. ") + because)

    return Exercise(
        kind="forest_shuffle.draw_two", seed=seed,
        question=(f"You hold {n} cards and choose to draw this turn (from the deck or the "
                  f"clearing). How many cards can you draw?"),
        answer_kind="number", answer=answer, checker=checker,
        draw=lambda marked: position_svg(forest, hand=hand, clearing=cleared,
                                         title="Drawing two cards"),
        hint="Count your hand: a hand holds at most 10 cards.",
        explanation=because, context={"state": st, "after": after})


@register("forest_shuffle.clearing", game=GAME, notebook=NB1,
          rule="Payments go to the clearing and a new tree turns up the top deck card there; "
               "at the end of a turn a clearing of 10 or more cards is emptied out of the game",
          title="The clearing")
def clearing(seed: int) -> Exercise:
    rng = _rng("clearing", seed)
    cat = catalog()
    pool = _pool()
    forest = _random_forest(rng, pool, 1, rng.randint(0, 2), sapling=0)
    sapling = rng.random() < 0.25
    species = rng.choice(["Linden", "Sycamore", "Horse Chestnut", "Douglas Fir", "Oak"])
    tree = _take(rng, pool, _is_tree(species))
    cost = 0 if sapling else cat.species(species).cost
    payment = [_take(rng, pool, lambda c: cat.card(c).is_split) for _ in range(cost)]
    cleared = [_take(rng, pool, lambda c: True) for _ in range(rng.choice([5, 6, 7, 8, 8, 9]))]
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
    sum_words = (f"{len(cleared)} cards + {cost} paid + {flips} turned up from the deck = "
                 f"{total}")
    if total >= 10:
        because = f"{sum_words}: 10 or more at the end of the turn, so all leave the game: 0."
    else:
        because = f"{sum_words}: fewer than 10, so they stay: {total}."

    def checker(value: int) -> Verdict:
        if value == answer:
            return Verdict(True, because)
        return Verdict(False, f"Not {value}. {because}")

    return Exercise(
        kind="forest_shuffle.clearing", seed=seed,
        question=(f"The clearing holds {len(cleared)} cards. You {play_words}. How many cards "
                  f"lie in the clearing at the end of your turn?"),
        answer_kind="number", answer=answer, checker=checker,
        draw=lambda marked: position_svg(forest, hand=[tree] + payment, clearing=cleared,
                                         deck_top=[top], title="The clearing"),
        hint=("Count what goes into the clearing this turn (payments, and the card a new tree "
              "or sapling turns up); then remember the limit of 10."),
        explanation=because, context={"state": st, "after": after})


def rules_data_option(name: str) -> bool:
    """The default of a labelled option in ``data/rules.json``."""
    return next(a["default"] for a in rules_data()["assumptions"] if a["option"] == name)


@register("forest_shuffle.winter", game=GAME, notebook=NB1,
          rule="A winter card drawn is laid out and replaced by the next card; the third "
               "winter card ends the game at once",
          title="Winter cards")
def winter(seed: int) -> Exercise:
    rng = _rng("winter", seed)
    cat = catalog()
    pool = _pool()
    out = rng.choice([1, 2, 2, 2])
    sequence: list = []
    winters_left = 3 - out
    for _ in range(3):
        if winters_left and rng.random() < 0.45:
            sequence.append("W")
            winters_left -= 1
        else:
            sequence.append(_take(rng, pool, lambda c: True))
    forest = _random_forest(rng, pool, 1, 1, sapling=0)
    hand = [_take(rng, pool, lambda c: True) for _ in range(rng.randint(2, 4))]
    spare = [c for c in cat.winter_ids]
    deck_top = []
    for item in sequence:
        deck_top.append(spare.pop() if item == "W" else item)
    st = _state(forest, hand, deck_top=deck_top, winter_out=out)
    after = st.apply(DrawCard(None))
    if not after.is_over and after.step is not None and after.step.kind == "draw":
        after = after.apply(DrawCard(None))
    got = len(after.hands[0]) - len(hand)
    key = f"{got}-{'end' if after.is_over else 'on'}"
    options = tuple(Option(f"{n}-{e}", f"you get {_plural(n, 'new card')}, and the game "
                                       f"{'ends' if e == 'end' else 'goes on'}")
                    for n in (0, 1, 2) for e in ("on", "end"))
    story, seen, drawn = [], out, 0
    for cid in deck_top:
        if cat.card(cid).kind == "winter":
            seen += 1
            story.append(f"a winter card is laid out ({seen} of 3)"
                         + (": the third ends the game at once" if seen == 3
                            else " and the next card replaces it"))
            if seen == 3:
                break
        else:
            drawn += 1
            story.append(f"{_name(cid)} goes to your hand")
            if drawn == 2:
                break
    because = "You draw from the deck: " + "; then ".join(story) + "."

    def checker(choice: str) -> Verdict:
        if choice == key:
            return Verdict(True, because)
        return Verdict(False, because)

    return Exercise(
        kind="forest_shuffle.winter", seed=seed,
        question=(f"{_plural(out, 'winter card')} of 3 {'is' if out == 1 else 'are'} already "
                  f"out. On your turn you draw two cards from the deck, whose next cards are "
                  f"shown (top first). What happens?"),
        answer_kind="choice", answer=key, checker=checker, options=options,
        draw=lambda marked: position_svg(None, hand=hand, deck_top=deck_top, winter=out,
                                         title="Winter cards"),
        hint="A winter card never goes to a hand. How many are out once it is laid out?",
        explanation=because, context={"state": st, "after": after})


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


@register("forest_shuffle.bonus_payment", game=GAME, notebook=NB2,
          rule="A bonus applies only if every card you pay with shows the played card's tree "
               "symbol (a split card on either half; a tree shows its own species)",
          title="Which payment earns the bonus?")
def bonus_payment(seed: int) -> Exercise:
    rng = _rng("bonus_payment", seed)
    cat = catalog()
    while True:
        pool = _pool()
        species = rng.choice(_BONUS_SPECIES)
        cid, placement = _card_with(rng, pool, species)
        symbol = _symbol_of(cid, placement)
        others = []
        for _ in range(rng.randint(4, 5)):
            match = rng.random() < 0.45
            seen = {_card_words(c) for c in others}
            others.append(_take(rng, pool, lambda c: (symbol in cat.card(c).symbols()
                                                      or not match)
                                and _card_words(c) not in seen))
        right = frozenset(str(c) for c in others if bonus_earned(cid, placement, (c,)))
        if 0 < len(right) < len(others):
            break
    played = (f"the {species} (a tree, cost {cat.species(species).cost})" if placement == "tree"
              else f"the {species} half ({placement}, {symbol} symbol, cost "
                   f"{cat.species(species).cost})")
    _, bonus = effect_text(species)

    def why(key: str) -> str:
        c = int(key)
        ok = symbol in cat.card(c).symbols()
        return (f"{_name(c)} shows {_symbols_words(c)}: "
                + (f"the {symbol} symbol is there." if ok else f"no {symbol} symbol."))

    return Exercise(
        kind="forest_shuffle.bonus_payment", seed=seed,
        question=(f"You want to play {played}, the first card of your hand. Its bonus: "
                  f"{bonus}. Which of your other cards could you pay with and still earn the "
                  f"bonus? Pick every one."),
        answer_kind="choices", answer=right,
        checker=lambda answer: _which_wrong(answer, right, why),
        options=tuple(Option(str(c), _card_words(c)) for c in others),
        draw=lambda marked: position_svg(None, hand=[cid] + others,
                                         title="Which payment earns the bonus?"),
        hint=f"Look for the {symbol} symbol on each card (on either half of a split card).",
        explanation=" ".join(why(str(c)) for c in others), context={"card": cid})


@register("forest_shuffle.effect_or_bonus", game=GAME, notebook=NB2,
          rule="After paying, a card's effect always applies; its bonus only if every payment "
               "card shows its tree symbol",
          title="Effect, bonus, or both?")
def effect_or_bonus(seed: int) -> Exercise:
    rng = _rng("effect_or_bonus", seed)
    cat = catalog()
    pool = _pool()
    species = rng.choice(_ACTIVE_SPECIES)
    cid, placement = _card_with(rng, pool, species)
    symbol = _symbol_of(cid, placement)
    forest = _random_forest(rng, pool, 2, 0, sapling=0)
    cost = cat.species(species).cost
    all_match = rng.random() < 0.5
    payment = []
    for k in range(cost):
        match = all_match or (k > 0 and rng.random() < 0.5)
        payment.append(_take(rng, pool, (lambda c: symbol in cat.card(c).symbols()) if match
                             else (lambda c: symbol not in cat.card(c).symbols())))
    st = _state(forest, [cid] + payment)
    play = PlayTree(cid) if placement == "tree" else PlayDweller(cid, placement, 0)
    after = _pay_all(st.apply(play), payment)
    steps = {s.kind for s in after.pending} & {"effect", "bonus"}
    key = {frozenset({"effect", "bonus"}): "both", frozenset({"effect"}): "effect",
           frozenset({"bonus"}): "bonus", frozenset(): "none"}[frozenset(steps)]
    effect, bonus = (text if text != "-" else "none" for text in effect_text(species))
    options = (Option("both", "its effect, then its bonus"), Option("effect", "only its effect"),
               Option("bonus", "only its bonus"), Option("none", "neither"))
    parts = []
    parts.append(f"Its effect ({effect}) always applies." if effect != "none"
                 else f"The {species} has no effect to use.")
    if bonus == "none":
        parts.append(f"The {species} has no bonus.")
    else:
        bad = [c for c in payment if symbol not in cat.card(c).symbols()]
        parts.append(f"Its bonus ({bonus}) needs every payment card to show {symbol}: "
                     + (f"{', '.join(_name(c) for c in bad)} does not, so no bonus."
                        if bad else "they all do, so you get it."))
    because = " ".join(parts)

    def checker(choice: str) -> Verdict:
        return Verdict(choice == key, because)

    where = "as a tree" if placement == "tree" else f"{placement} of tree 1"
    return Exercise(
        kind="forest_shuffle.effect_or_bonus", seed=seed,
        question=(f"You play the {species} ({symbol} symbol, cost {cost}) {where}, paying with "
                  + ("the other card" if cost == 1 else f"the other {cost} cards")
                  + f" of your hand. Effect: {effect}; bonus: {bonus}. What may you use?"),
        answer_kind="choice", answer=key, checker=checker, options=options,
        draw=lambda marked: position_svg(forest, hand=[cid] + payment,
                                         title="Effect, bonus, or both?"),
        hint="Check the tree symbol on every card you pay with.",
        explanation=because, context={"state": st, "after": after})


_EXTRA = {sp.name: part for sp in catalog().all_species()
          for part in ("effect", "bonus") for e in getattr(sp, part) if e["kind"] == "extra_turn"}


@register("forest_shuffle.extra_turn", game=GAME, notebook=NB2,
          rule="The Eurasian Jay's effect, and the Oak's, Douglas Fir's, Wolf's and Brown Bear's "
               "bonus, give you another turn once this one is over",
          title="Who plays next?")
def extra_turn(seed: int) -> Exercise:
    rng = _rng("extra_turn", seed)
    cat = catalog()
    while True:
        pool = _pool()
        names = sorted(_EXTRA)
        species = names[seed % len(names)] if seed < len(names) else rng.choice(names)
        forest = _random_forest(rng, pool, 1, rng.randint(0, 2), sapling=0)
        forest = _plant(rng, pool, forest, "Birch")
        cid, placement = _card_with(rng, pool, species)
        symbol = _symbol_of(cid, placement)
        cost = cat.species(species).cost
        match = rng.random() < 0.5
        # with ``match`` every payment shows the symbol; otherwise the first one does not
        payment = [_take(rng, pool, lambda c, k=k: match == (symbol in cat.card(c).symbols())
                         or (k > 0 and not match)) for k in range(cost)]
        if None in payment:
            continue
        st = _state(forest, [cid] + payment)
        play = (PlayTree(cid) if placement == "tree"
                else PlayDweller(cid, placement, len(forest.trees) - 1))
        if play not in st.legal_actions():
            continue
        after = _pay_all(st.apply(play), payment)
        turn = after.turn
        while not after.is_over and after.turn == turn and after.step is not None:
            step = after.step
            if step.kind in ("mushroom", "effect", "bonus"):
                after = after.apply(Decide(step.kind, step.tag, step.kind != "mushroom"))
            else:
                after = after.apply(Finish(step.kind))
        if not after.is_over:
            break
    key = "you" if after.current == 0 else "next"
    part = _EXTRA[species]
    effect, bonus = (text if text != "-" else "none" for text in effect_text(species))
    bad = [c for c in payment if symbol not in cat.card(c).symbols()]
    if part == "effect":
        because = (f"The {species}'s effect gives you another turn, whatever you paid with: "
                   f"you play again.")
    elif bad:
        because = (f"The {species}'s other turn is its bonus, and it needs every payment card to "
                   f"show {symbol}: {', '.join(_name(c) for c in bad)} does not, so Player 2 "
                   f"plays next.")
    else:
        because = (f"The {species}'s other turn is its bonus; every payment card shows {symbol}, "
                   f"so you play again.")
    options = (Option("you", "you play another turn"), Option("next", "Player 2 plays next"))

    def checker(choice: str) -> Verdict:
        return Verdict(choice == key, because)

    where = "as a tree" if placement == "tree" else f"{placement} of your last tree"
    return Exercise(
        kind="forest_shuffle.extra_turn", seed=seed,
        question=(f"In a two-player game you play the {species} ({symbol} symbol, cost {cost}) "
                  f"{where}, paying with the other cards of your hand, and use everything it "
                  f"gives you (effect: {effect}; bonus: {bonus}). Who plays next?"),
        answer_kind="choice", answer=key, checker=checker, options=options,
        draw=lambda marked: position_svg(forest, hand=[cid] + payment, title="Who plays next?"),
        hint="Is the other turn an effect (always) or a bonus (only with the right payment)?",
        explanation=because, context={"state": st, "after": after})


_FREE = {sp.name: part for sp in catalog().all_species()
         for part in ("effect", "bonus") for e in getattr(sp, part) if e["kind"] == "free_place"}


def _free_type(species: str) -> str:
    sp = catalog().species(species)
    return next(e["type"] for e in sp.effect + sp.bonus if e["kind"] == "free_place")


@register("forest_shuffle.free_placement", game=GAME, notebook=NB2,
          rule="A free placement puts a hand card of the named kind into a free slot at no cost, "
               "without its own effect or bonus",
          title="Which card can you place for free?")
def free_placement(seed: int) -> Exercise:
    rng = _rng("free_placement", seed)
    cat = catalog()
    while True:
        pool = _pool()
        names = sorted(_FREE)
        species = names[seed % len(names)] if seed < len(names) else rng.choice(names)
        kind = _free_type(species)
        forest = _random_forest(rng, pool, rng.randint(2, 3), rng.randint(1, 4), sapling=0.2)
        cid, placement = _card_with(rng, pool, species)
        symbol = _symbol_of(cid, placement)
        payment = [_take(rng, pool, lambda c: symbol in cat.card(c).symbols())
                   for _ in range(cat.species(species).cost)]
        others = []
        for _ in range(rng.randint(3, 4)):
            seen = {_card_words(c) for c in others}
            want = rng.random() < 0.6
            others.append(_take(rng, pool, lambda c: cat.card(c).is_split
                                and _card_words(c) not in seen
                                and (not want or any(kind in cat.species(h.species).types
                                                     for h in cat.card(c).halves))))
        if None in payment or None in others:
            continue
        st = _state(forest, [cid] + payment + others)
        if placement == "tree":
            play = PlayTree(cid)
        else:
            spots = [i for i, t in enumerate(forest.trees) if not t.slot(placement)]
            if not spots:
                continue
            play = PlayDweller(cid, placement, spots[0])
        after = _pay_all(st.apply(play), payment)
        while after.step is not None and after.step.kind in ("mushroom", "effect", "bonus"):
            use = after.step.kind == _FREE[species] and after.step.tag == species
            after = after.apply(Decide(after.step.kind, after.step.tag, use))
            if use:
                break
        if after.step is None or after.step.kind != "free":
            continue
        right = frozenset(str(a.card) for a in after.legal_actions() if isinstance(a, PlaceFree))
        if 0 < len(right) < len(others):
            break
    forest_now = after.forests[0]

    def why(key: str) -> str:
        c = int(key)
        card = cat.card(c)
        fitting = [(side, h) for side, h in zip(card.sides(), card.halves)
                   if kind in cat.species(h.species).types]
        if not fitting:
            return (f"{card.name}: no half is a {kind} card ("
                    + "; ".join(f"{h.species}: {', '.join(cat.species(h.species).types)}"
                                for h in card.halves) + ").")
        for side, h in fitting:
            free = [i for i, t in enumerate(forest_now.trees)
                    if can_join(t.slot(side), h.species) is None]
            if free:
                return (f"{card.name}: {h.species} is a {kind} card and tree {free[0] + 1} "
                        f"has a free {side} slot.")
        side, h = fitting[0]
        return f"{card.name}: {h.species} is a {kind} card, but no tree has a free {side} slot."

    where = "as a tree" if placement == "tree" else f"{placement} of tree {play.tree + 1}"
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
        checker=lambda answer: _which_wrong(answer, right, why),
        options=tuple(Option(str(c), _card_words(c)) for c in others),
        draw=lambda marked: position_svg(forest_now, hand=others,
                                         title="Which card can you place for free?"),
        hint=f"Is a half of the card a {kind} card, and is a slot free on that half's side?",
        explanation=" ".join(why(str(c)) for c in others), context={"state": st, "after": after})


@register("forest_shuffle.brown_bear", game=GAME, notebook=NB2,
          rule="The Brown Bear's effect puts every card of the clearing under your cave (the "
               "cards you paid with included); each scores 1 point",
          title="The Brown Bear and the cave")
def brown_bear(seed: int) -> Exercise:
    rng = _rng("brown_bear", seed)
    cat = catalog()
    pool = _pool()
    forest = _random_forest(rng, pool, rng.randint(1, 2), rng.randint(0, 2), sapling=0)
    forest = _plant(rng, pool, forest, "Birch")       # a tree with free slots for the Bear
    cid, side = _card_with(rng, pool, "Brown Bear")
    payment = [_take(rng, pool, lambda c: True) for _ in range(cat.species("Brown Bear").cost)]
    cleared = [_take(rng, pool, lambda c: True) for _ in range(rng.randint(0, 8))]
    cave_before = rng.randint(0, 3)
    st = _state(forest, [cid] + payment, clearing=cleared)
    if cave_before:
        extra = [c for c in st.removed][:cave_before]
        st = replace(st, removed=tuple(c for c in st.removed if c not in extra),
                     caves=(tuple(extra), ()),
                     forests=(replace(st.forests[0], cave=len(extra)), st.forests[1]))
        st.check_invariants()
    after = _pay_all(st.apply(PlayDweller(cid, side, len(forest.trees) - 1)), payment)
    while after.step is not None and after.step.kind == "mushroom":  # pragma: no cover
        after = after.apply(Decide("mushroom", after.step.tag, False))
    used = after.apply(Decide("effect", "Brown Bear", True))
    answer = len(used.caves[0])
    because = (f"The clearing held {len(cleared)} cards and your {len(payment)} payments joined "
               f"them: all {len(cleared) + len(payment)} go under your cave, which already held "
               f"{cave_before}, so {answer} (the clearing is emptied before the end of the turn "
               f"could clear it).")

    def checker(value: int) -> Verdict:
        return Verdict(value == answer, ("" if value == answer else f"Not {value}. ") + because)

    return Exercise(
        kind="forest_shuffle.brown_bear", seed=seed,
        question=(f"Your cave holds {cave_before} cards and the clearing {len(cleared)}. You play "
                  f"the Brown Bear (cost {len(payment)}), paying with the other cards of your "
                  f"hand, and use its effect. How many cards lie under your cave then?"),
        answer_kind="number", answer=answer, checker=checker,
        draw=lambda marked: position_svg(st.forests[0], hand=[cid] + payment, clearing=cleared,
                                         title="The Brown Bear and the cave"),
        hint="Payments go to the clearing first; then the effect takes the whole clearing.",
        explanation=because, context={"state": st, "after": used})


_MUSHROOMS = [sp.name for sp in catalog().all_species()
              if any(e["kind"] == "mushroom" for e in sp.effect)]


def _mushroom_words(species: str) -> str:
    """What a mushroom waits for, from its effect's words ("a card below a tree")."""
    part = next(e for e in catalog().species(species).effect if e["kind"] == "mushroom")
    return part_text(part).split("whenever you play ", 1)[1]


@register("forest_shuffle.mushrooms", game=GAME, notebook=NB2,
          rule="Each mushroom placed on an earlier turn may draw a card when you play what it "
               "waits for: a tree (Chanterelle), a pawed animal (Fly Agaric), a card below a "
               "tree (Parasol Mushroom) or atop one (Penny Bun)",
          title="Mushroom draws")
def mushrooms(seed: int) -> Exercise:
    rng = _rng("mushrooms", seed)
    cat = catalog()
    while True:
        pool = _pool()
        forest = _random_forest(rng, pool, 3, 0, sapling=0.35)
        kinds = rng.sample(_MUSHROOMS, rng.randint(1, 3))
        for name in kinds:
            forest = _add(rng, pool, forest, lambda s, n=name: s == n)
        forest = _add(rng, pool, forest, lambda s: cat.species(s).slot == "side")
        how = rng.choice(["tree", "sapling", "top", "bottom", "side"])
        if how in ("tree", "sapling"):
            cid = _take(rng, pool, lambda c: cat.card(c).is_tree)
            play = PlaySapling(cid) if how == "sapling" else PlayTree(cid)
        else:
            free = [(i, s) for i, t in enumerate(forest.trees) for s in SIDES
                    if not t.slot(s) and (s == how or (how == "side" and s in ("left", "right")))]
            if not free:
                continue
            i, side = rng.choice(free)
            cid = _take(rng, pool, lambda c: cat.card(c).half_for(side) is not None
                        and not cat.species(cat.card(c).half_for(side).species).effect)
            if cid is None:
                continue
            play = PlayDweller(cid, side, i)
        cost = (0 if isinstance(play, PlaySapling) else
                cat.species(str(cat.card(cid).species)).cost if isinstance(play, PlayTree)
                else cat.species(cat.card(cid).half_for(play.side).species).cost)
        payment = [_take(rng, pool, lambda c: cat.card(c).is_split) for _ in range(cost)]
        st = _state(forest, [cid] + payment)
        if play not in st.legal_actions():
            continue
        after = _pay_all(st.apply(play), payment)
        draws = [s.tag for s in after.pending if s.kind == "mushroom"]
        break
    answer = len(draws)
    present = sorted({d.species for _, _, d in forest.dwellers() if d.species in _MUSHROOMS})
    if isinstance(play, PlayTree):
        words = f"plant the {cat.card(cid).species} (a tree)"
    elif isinstance(play, PlaySapling):
        words = "plant a card face down as a sapling"
    else:
        half = cat.card(cid).half_for(play.side)
        host = forest.trees[play.tree]
        words = (f"play a {half.species} ({', '.join(cat.species(half.species).types)}) "
                 f"{play.side} of tree {play.tree + 1}"
                 + (" (a sapling)" if host.is_sapling else f" (a {host.species})"))
    label = ""
    if isinstance(play, PlaySapling) or (isinstance(play, PlayDweller)
                                         and forest.trees[play.tree].is_sapling):
        label = (" (Modelling choice, labelled in the game data: as in the online version, a "
                 "sapling counts as a tree for the mushrooms.)")
    lines = []
    for name in present:
        n = sum(1 for _, _, d in forest.dwellers() if d.species == name)
        got = draws.count(name)
        rule = part_text(next(e for e in cat.species(name).effect if e["kind"] == "mushroom"))
        lines.append(f"{name}{' (x' + str(n) + ')' if n > 1 else ''}: {rule.split(', ', 1)[1]}"
                     f" - {'yes' if got else 'not this time'}")
    because = "; ".join(lines) + f". So {_plural(answer, 'draw')}." + label

    def checker(value: int) -> Verdict:
        return Verdict(value == answer,
                       ("" if value == answer else f"Not {value}. ") + because)

    legend = "; ".join(f"{n} draws when you play {_mushroom_words(n)}" for n in present)
    return Exercise(
        kind="forest_shuffle.mushrooms", seed=seed,
        question=(f"Your mushrooms were placed on earlier turns ({legend}). Now you {words}. "
                  f"How many mushroom draws may you take?"),
        answer_kind="number", answer=answer, checker=checker,
        draw=lambda marked: position_svg(forest, hand=[cid] + payment, title="Mushroom draws"),
        hint="Take each mushroom in turn: is what you play the thing it waits for?",
        explanation=because, context={"state": st, "after": after})


@register("forest_shuffle.draw_effect", game=GAME, notebook=NB2,
          rule="The Red Fox draws a card per European Hare in your forest, the Wolf one per "
               "deer; no draw goes past the hand limit of 10",
          title="How many cards does the effect draw?")
def draw_effect(seed: int) -> Exercise:
    rng = _rng("draw_effect", seed)
    cat = catalog()
    pool = _pool()
    species = rng.choice(["Red Fox", "Wolf"])
    counted = "European Hare" if species == "Red Fox" else None
    test = (lambda s: s == "European Hare") if counted else (
        lambda s: "deer" in cat.species(s).types)
    forest = _random_forest(rng, pool, rng.randint(2, 3), 0, sapling=0.2)
    if rng.random() < 0.85:
        forest = _add(rng, pool, forest, test)
    for _ in range(rng.randint(0, 3)):
        forest = _add(rng, pool, forest, test if rng.random() < 0.7 else lambda s: True)
    forest = forest.plant(Tree(species="Birch", card=_take(rng, pool, _is_tree("Birch"))))
    cid = _take(rng, pool, _shows(lambda s: s == species))
    side = next(s for s, h in zip(cat.card(cid).sides(), cat.card(cid).halves)
                if h.species == species)
    cost = cat.species(species).cost
    payment = [_take(rng, pool, lambda c: cat.card(c).is_tree) for _ in range(cost)]
    keep = [_take(rng, pool, lambda c: True) for _ in range(rng.choice([0, 1, 3, 5, 6, 6]))]
    st = _state(forest, [cid] + payment + keep)
    after = _pay_all(st.apply(PlayDweller(cid, side, len(forest.trees) - 1)), payment)
    while after.step is not None and after.step.kind == "mushroom":  # pragma: no cover
        after = after.apply(Decide("mushroom", after.step.tag, False))
    before = len(after.hands[0])
    used = after.apply(Decide("effect", species, True))
    answer = len(used.hands[0]) - before
    what = "European Hare" if counted else "deer"
    n = sum(1 for _, _, d in used.forests[0].dwellers()
            if (d.species == counted if counted else "deer" in cat.species(d.species).types))
    because = (f"Your forest holds {_plural(n, what)}, so the effect draws up to {n}; after "
               f"paying you hold {before} cards and a hand stops at 10, so you draw {answer}.")

    def checker(value: int) -> Verdict:
        return Verdict(value == answer,
                       ("" if value == answer else f"Not {value}. ") + because)

    return Exercise(
        kind="forest_shuffle.draw_effect", seed=seed,
        question=(f"You play the {species} (cost {cost}) beside your last tree, paying with "
                  f"{_plural(cost, 'tree card')} of your hand, and use its effect: "
                  f"{effect_text(species)[0]}. How many cards do you draw?"),
        answer_kind="number", answer=answer, checker=checker,
        draw=lambda marked: position_svg(forest, hand=[cid] + payment + keep,
                                         title="How many cards does the effect draw?"),
        hint=f"Count the {what} cards in your forest, then mind the hand limit of 10.",
        explanation=because, context={"state": st})


# ===== notebook 3: scoring ===================================================================

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
        return "; ".join(f"one sits on tree {i + 1}, a "
                         f"{'sapling' if forest.trees[i].is_sapling else forest.trees[i].species}"
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
        bees = sum(1 for i, _, d in forest.dwellers()
                   if forest.trees[i].species == species
                   and any(e.get("kind") == "counts_as_tree"
                           for e in cat.species(d.species).effect))
        n = sum(1 for t in forest.trees if t.species == species)
        own = f"you have {_plural(n, species)}" + (
            f" and {_plural(bees, 'Violet Carpenter Bee')} at them (each counts as one more)"
            if bees else "")
        if k == "majority":
            rivals = [sum(1 for t in f.trees if t.species == species) + sum(
                1 for i, _, d in f.dwellers() if f.trees[i].species == species and any(
                    e.get("kind") == "counts_as_tree" for e in cat.species(d.species).effect))
                for f in others]
            own += f"; the rival forest has {max(rivals, default=0)}"
        return own
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
        value = table[min(len(members), len(table)) - 1]
        sets.append(f"set {k}: {len(members)} different ({', '.join(sorted(members))}) = {value}")
        k += 1
    return "; ".join(sets) if sets else "no butterflies"


def _points_exercise(kind: str, seed: int, forest: Forest, species: str,
                     others: tuple = (), title: str = "") -> Exercise:
    result = score([forest, *others])[0]
    answer = result.by_species.get(species, 0)
    counts = what_counts(forest, species, others)
    rule = explain(species)
    n = forest.count_species(species)
    plural = n > 1 or (species.endswith("s") and not species.endswith("ss"))
    subject = f"the {_plural(n, species)} together" if n > 1 else f"the {species}"
    verb = "do" if plural else "does"

    def checker(value: int) -> Verdict:
        if value == answer:
            return Verdict(True, f"{subject[0].upper() + subject[1:]} "
                                 f"score{'' if plural else 's'} {answer}. "
                                 f"Rule: {rule}; {counts}.")
        return Verdict(False, f"Not {value}. Rule: {rule}. In this forest {counts}.")

    return Exercise(
        kind=kind, seed=seed,
        question=(f"How many points {verb} {subject} score in this forest? "
                  f"(Rule: {species} score{'' if plural and n == 1 else 's'} {rule}.)"),
        answer_kind="number", answer=answer, checker=checker,
        draw=lambda marked: position_svg(forest, others=others, title=title),
        hint=f"Rule: {rule}. Find every card it counts.",
        explanation=f"{subject[0].upper() + subject[1:]} score{'' if plural else 's'} "
                    f"{answer}: {counts}.",
        context={"forest": forest, "others": others, "species": species})


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


@register("forest_shuffle.species_points", game=GAME, notebook=NB3,
          rule="Each animal or plant scores by its own rule, often by counting other cards of "
               "the forest (a type, a species, a tree symbol, the cards below trees ...)",
          title="One species' points")
def species_points(seed: int) -> Exercise:
    rng = _rng("species_points", seed)
    names = sorted(_COUNTING)
    species = names[seed % len(names)] if seed < len(names) else rng.choice(names)
    pool = _pool()
    forest = _random_forest(rng, pool, rng.randint(3, 4), 0, sapling=0.2)
    forest = _add(rng, pool, forest, lambda s: s == species)
    if rng.random() < 0.3:
        forest = _add(rng, pool, forest, lambda s: s == species)
    more = _COUNTING[species]
    if species == "Beech Marten":      # fill a tree or two, so that full trees occur
        for i in rng.sample(range(len(forest.trees)), rng.randint(1, 2)):
            for _ in range(4):
                forest = _add(rng, pool, forest, lambda s: True, trees=[i])
    for _ in range(rng.randint(3, 6)):
        forest = _add(rng, pool, forest, more if more and rng.random() < 0.6 else lambda s: True)
    return _points_exercise("forest_shuffle.species_points", seed, forest, species,
                            title="One species' points")


_TREE_RULES = ["Linden", "Beech", "Horse Chestnut", "Sycamore", "Oak", "Silver Fir"]


@register("forest_shuffle.tree_points", game=GAME, notebook=NB3,
          rule="Trees score too: Linden by majority, Beech from 4 on, Horse Chestnut as a set, "
               "Sycamore per tree, Oak with all 8 species, Silver Fir per card on it",
          title="A tree species' points")
def tree_points(seed: int) -> Exercise:
    rng = _rng("tree_points", seed)
    species = _TREE_RULES[seed % len(_TREE_RULES)]
    pool = _pool()
    forest = Forest()
    all_trees = catalog().tree_species()
    plan = [species] * rng.randint(1, 4)
    if species == "Oak":
        plan = ["Oak"] + rng.sample([t for t in all_trees if t != "Oak"], rng.choice([6, 7, 7]))
    plan += [rng.choice(all_trees + [SAPLING]) for _ in range(rng.randint(1, 3))]
    rng.shuffle(plan)
    for name in plan:
        forest = _plant(rng, pool, forest, name)
    bee_at = [i for i, t in enumerate(forest.trees) if t.species == species]
    if species in ("Beech", "Horse Chestnut", "Linden") and rng.random() < 0.5:
        forest = _add(rng, pool, forest, lambda s: s == "Violet Carpenter Bee", trees=bee_at)
    for _ in range(rng.randint(1, 4)):
        forest = _add(rng, pool, forest, lambda s: True,
                      trees=bee_at if species == "Silver Fir" and rng.random() < 0.7 else None)
    others: tuple = ()
    if species == "Linden":
        rival = Forest()
        for name in ["Linden"] * rng.randint(0, 3) + ["Birch"]:
            rival = _plant(rng, pool, rival, name)
        others = (rival,)
    return _points_exercise("forest_shuffle.tree_points", seed, forest, species, others,
                            title="A tree species' points")


_BUTTERFLIES = [sp.name for sp in catalog().all_species()
                if sp.scoring["kind"] == "butterflies"]


@register("forest_shuffle.butterflies", game=GAME, notebook=NB3,
          rule="Butterflies score in sets of different species (0 / 3 / 6 / 12 / 20 for 1-5); "
               "every butterfly belongs to one set",
          title="Butterfly sets")
def butterflies(seed: int) -> Exercise:
    rng = _rng("butterflies", seed)
    pool = _pool()
    n = rng.randint(3, 6)
    forest = _random_forest(rng, pool, n, 0, sapling=0.2)
    kinds = rng.sample(_BUTTERFLIES, rng.randint(2, 5))
    for _ in range(n):
        forest = _add(rng, pool, forest, lambda s: s in kinds)
    for _ in range(rng.randint(0, 2)):
        forest = _add(rng, pool, forest, lambda s: catalog().species(s).slot != "top")
    result = score([forest])[0]
    answer = sum(p for name, p in result.by_species.items() if name in _BUTTERFLIES)
    sets = _butterfly_words(forest)

    def checker(value: int) -> Verdict:
        if value == answer:
            return Verdict(True, f"{sets[0].upper() + sets[1:]}; {answer} in all.")
        return Verdict(False, f"Not {value}. Make the sets: {sets}.")

    return Exercise(
        kind="forest_shuffle.butterflies", seed=seed,
        question=("How many points do the butterflies of this forest score together? (Sets of "
                  "different butterflies: 0 / 3 / 6 / 12 / 20 points for 1, 2, 3, 4 or 5 "
                  "species; each butterfly is in one set.)"),
        answer_kind="number", answer=answer, checker=checker,
        draw=lambda marked: position_svg(forest, title="Butterfly sets"),
        hint="Make a first set with one butterfly of each species, then a second from those "
             "left, and so on.",
        explanation=f"{sets}; {answer} in all.", context={"forest": forest})


@register("forest_shuffle.top_species", game=GAME, notebook=NB3,
          rule="At the end every visible card scores by its own rule; compare the species",
          title="Which species scores most?")
def top_species(seed: int) -> Exercise:
    rng = _rng("top_species", seed)
    while True:
        pool = _pool()
        forest = _random_forest(rng, pool, rng.randint(3, 4), rng.randint(5, 8), sapling=0.15)
        points = {n: p for n, p in score([forest])[0].by_species.items()}
        dwellers = sorted({d.species for _, _, d in forest.dwellers()})
        if len(dwellers) < 3:
            continue
        names = sorted(points, key=lambda n: (-points[n], n))
        if points[names[0]] > max(points[names[1]], 0):
            break
    best = names[0]
    options = tuple(Option(n, f"{n} ({explain(n)})") for n in sorted(points))

    def checker(choice: str) -> Verdict:
        if choice == best:
            return Verdict(True, f"{best} scores {points[best]}; next comes "
                                 f"{names[1]} with {points[names[1]]}.")
        return Verdict(False, f"{choice} scores {points[choice]} here "
                              f"({what_counts(forest, choice)}); another species scores more.")

    return Exercise(
        kind="forest_shuffle.top_species", seed=seed,
        question="Which species scores the most points in this forest (all its cards together)?",
        answer_kind="choice", answer=best, checker=checker, options=options,
        draw=lambda marked: position_svg(forest, title="Which species scores most?"),
        hint="Work out the big ones first: cards that count other cards can add up quickly.",
        explanation=", ".join(f"{n}: {points[n]}" for n in names),
        context={"forest": forest, "points": points})

