"""What happens after a card is placed: mushroom draws, effects and bonuses (appendix).

The functions that carry an effect out work on the working copy the rules' handlers change
(``w``, a :class:`.work.ForestCopy`); each adds steps to ``w.pending`` or changes zones.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Mapping

from ..core.memo import keep
from .cards import SIDES
from .edition import catalog
from .forest import Dweller, Forest, Tree, can_join
from .state import GameState, Step, dweller_of
from .work import ForestCopy

#: effect kinds that need no decision when a card is played (passive or permanent)
PASSIVE = ("mushroom", "counts_as_tree")


def played_species(card: int, placement: str) -> str | None:
    """The species a played card shows: a tree's species, a half's species, or None."""
    c = catalog().card(card)
    if placement == "sapling":
        return None
    if placement == "tree":
        return c.species
    half = c.half_for(placement)
    return half.species if half else None


def played_symbol(card: int, placement: str) -> str | None:
    c = catalog().card(card)
    if placement == "tree":
        return c.species
    half = c.half_for(placement) if placement in SIDES else None
    return half.symbol if half else None


def bonus_earned(card: int, placement: str, paid: tuple[int, ...]) -> bool:
    """The bonus applies only if at least one card was paid and every payment card shows
    the played card's tree symbol (a split card on either half)."""
    if not paid:
        return False
    symbol = played_symbol(card, placement)
    return symbol is not None and all(symbol in _symbols(c) for c in paid)


def _symbols(card: int) -> frozenset[str]:
    """The tree symbols ``card`` shows, looked up once per card."""
    found = _SYMBOLS.get(card)
    if found is None:
        found = _SYMBOLS[card] = catalog().card(card).symbols()
    return found


_SYMBOLS: dict[int, frozenset[str]] = {}


def active(parts: Any) -> list[Mapping[str, Any]]:
    return [e for e in parts if e["kind"] not in PASSIVE]


def mushroom_steps(forest: Forest, placed_now: Collection[int], options: Mapping[str, bool],
                   card: int, placement: str, host: int | None = None) -> list[Step]:
    """One optional draw per mushroom (played on an earlier turn: not in ``placed_now``) of
    ``forest`` that the new card triggers; ``host`` is the tree number a split card was
    placed at, ``options`` the game's options."""
    found = mushrooms(forest)
    if not found:
        return []
    species = played_species(card, placement)
    types = catalog().species(species).types if species and placement in SIDES else ()
    out = []
    for d, effects in found:
        if d.card in placed_now:
            continue
        for e in effects:
            trigger = e["trigger"]
            if trigger == "tree":
                hit = placement == "tree" or (
                    placement == "sapling" and options["sapling_triggers_chanterelle"])
            elif trigger in SIDES:
                hit = placement == trigger and (
                    options["sapling_hosts_trigger_mushrooms"] or host is None
                    or not forest.trees[host].is_sapling)
            else:
                hit = trigger in types
            if hit:
                out.append(Step("mushroom", card=int(d.card or 0), tag=d.species))
    return out


def mushrooms(forest: Forest) -> tuple[tuple[Dweller, tuple[Mapping[str, Any], ...]], ...]:
    """The dwellers of a forest with mushroom effects (each with those effect parts), in
    the order of :meth:`Forest.dwellers`.  Worked out once per tree (trees never change,
    and a new forest shares all its trees but one), so a play does not walk the whole
    forest; kept with the forest too (see :func:`carry_mushrooms`)."""
    found = getattr(forest, "_mushrooms", None)
    if found is not None:
        return found
    found = ()
    for tree in forest.trees:
        mine = getattr(tree, "_mushrooms", None)
        if mine is None:
            mine = _tree_mushrooms(tree)
            keep(tree, "_mushrooms", mine)
        if mine:
            found += mine
    keep(forest, "_mushrooms", found)
    return found


def carry_mushrooms(old: Forest | Tree, new: Forest | Tree, species: str | None) -> None:
    """Note on ``new`` (``old`` with one more card: a dweller of ``species``, or a tree
    when ``species`` is None) the dwellers with mushroom effects of ``old`` when the new
    card has none (then they are the same).  Works on a tree or a forest."""
    if species not in _MUSHROOM_SPECIES:
        mine = getattr(old, "_mushrooms", None)
        if mine is not None:
            keep(new, "_mushrooms", mine)


def _tree_mushrooms(tree: Tree) -> tuple:
    cat = catalog()
    out = []
    for _, d in tree.dwellers():
        parts = tuple(e for e in cat.species(d.species).effect if e["kind"] == "mushroom")
        if parts:
            out.append((d, parts))
    return tuple(out)


def after_play_steps(forest: Forest, placed_now: Collection[int], options: Mapping[str, bool],
                     card: int, placement: str, paid: tuple[int, ...],
                     host: int | None = None) -> list[Step]:
    """Mushroom draws, then the effect, then the bonus of a card just paid for and placed
    (in ``forest``; the other arguments as for :func:`mushroom_steps`)."""
    steps = mushroom_steps(forest, placed_now, options, card, placement, host)
    parts = _PARTS.get((card, placement))
    if parts is None:
        parts = _PARTS[(card, placement)] = _parts_of(card, placement)
    name, effect, bonus, symbol = parts
    if effect:
        steps.append(Step("effect", card=card, tag=name))
    # the bonus as bonus_earned decides it
    if bonus and paid and symbol is not None and all(symbol in _symbols(c) for c in paid):
        steps.append(Step("bonus", card=card, tag=name))
    return steps


def _parts_of(card: int, placement: str) -> tuple[str, bool, bool, str | None]:
    """(species, has an effect to decide on?, has a bonus?, tree symbol) of a card played
    as ``placement`` (a sapling has neither)."""
    species = played_species(card, placement)
    if species is None:
        return "", False, False, None
    sp = catalog().species(species)
    return (sp.name, bool(active(sp.effect)), bool(active(sp.bonus)),
            played_symbol(card, placement))


#: the species with a mushroom effect
_MUSHROOM_SPECIES = frozenset(sp.name for sp in catalog().all_species()
                              if any(e["kind"] == "mushroom" for e in sp.effect))

#: :func:`_parts_of` per card and placement, worked out once (the cards never change)
_PARTS: dict[tuple[int, str], tuple[str, bool, bool, str | None]] = {}


def count_type(w: ForestCopy, kind: str) -> int:
    forest = w.forest
    n = len(forest.trees) if kind == "tree" else 0
    return n + sum(1 for _, _, d in forest.dwellers() if kind in catalog().species(d.species).types)


def free_options(w: ForestCopy | GameState, kind: str) -> list[tuple[int, str, int]]:
    """(card, side, tree) for each hand card half of type ``kind`` that has a free slot
    (a Hare or Toad joins only cards placed on an earlier turn), in a state or a working
    copy."""
    out = []
    forest = w.forests[w.current]
    for c in sorted(w.hands[w.current]):
        card = catalog().card(c)
        if not card.is_split:
            continue
        for side, half in zip(card.sides(), card.halves):
            if kind not in catalog().species(half.species).types:
                continue
            for i, tree in enumerate(forest.trees):
                if can_join(tree.slot(side), half.species, w.this_turn) is None:
                    out.append((c, side, i))
    return out


def resolve(w: ForestCopy, what: str, step: Step) -> None:
    """Carry out a used effect, bonus or mushroom draw."""
    if what == "mushroom":
        w.draw_to_hand(1)
        return
    sp = catalog().species(step.tag)
    parts = active(sp.effect if what == "effect" else sp.bonus)
    for e in parts:
        _apply_part(w, e, step.card)
        if w.over:
            return


def _apply_part(w: ForestCopy, e: Mapping[str, Any], card: int) -> None:
    p = w.current
    kind = e["kind"]
    if kind == "draw":
        w.draw_to_hand(int(e["n"]))
    elif kind == "extra_turn":
        w.extra_turns += 1
    elif kind == "free_place":
        if free_options(w, e["type"]):
            w.push(Step("free", card=card, n=0 if e["many"] else 1, tag=e["type"]))
    elif kind == "mole":
        if w.hand:
            w.push(Step("mole", card=card, cards=tuple(sorted(w.hand))))
    elif kind == "bear_cave":
        w.to_cave(w.clearing)
        w.clearing = ()
    elif kind == "raccoon":
        if w.hand:
            w.push(Step("raccoon", card=card))
    elif kind == "draw_per_species":
        w.draw_to_hand(w.forests[p].count_species(e["species"]))
    elif kind == "draw_per_type":
        w.draw_to_hand(count_type(w, e["type"]))
    else:  # pragma: no cover - data validation lists the kinds
        raise ValueError(f"unknown effect kind {kind!r}")


def place_free(w: ForestCopy, card: int, side: str, tree: int) -> None:
    """Place a hand card for free (no cost, effect or bonus); mushrooms may still draw."""
    step = w.pending[0]
    w.take_from_hand(card)
    w.set_forest(w.forest.place(tree, side, dweller_of(card, side), w.this_turn))
    w.this_turn += (card,)
    if step.n == 1 or not free_options(w, step.tag):
        w.pending = w.pending[1:]
    if w.option("free_place_triggers_mushrooms"):
        w.push(*mushroom_steps(w.forest, w.this_turn, w.options_map(), card, side, tree))


def part_text(part: Mapping[str, Any]) -> str:
    """One effect or bonus part in plain words (built from the card data)."""
    kind = part["kind"]
    return {
        "draw": lambda: f"draw {part.get('n')} card{'s' if part.get('n', 1) > 1 else ''}",
        "extra_turn": lambda: "take another turn",
        "free_place": lambda: (f"place {'any number of' if part.get('many') else 'a'} "
                               f"{part.get('type')} card{'s' if part.get('many') else ''} "
                               f"from your hand for free"),
        "mole": lambda: "play any number of hand cards, paying their costs",
        "bear_cave": lambda: "put every card of the clearing under your cave",
        "raccoon": lambda: "put hand cards under your cave, then draw as many",
        "draw_per_species": lambda: f"draw a card per {part.get('species')} in your forest",
        "draw_per_type": lambda: f"draw a card per {part.get('type')} in your forest",
        "mushroom": lambda: ("from your next turn on, draw a card whenever you play "
                             + {"tree": "a tree", "top": "a card atop a tree",
                                "bottom": "a card below a tree"}.get(
                                 part.get("trigger", ""), f"a {part.get('trigger')}")),
        "counts_as_tree": lambda: "counts as one more tree of its host's species",
    }[kind]()


def effect_text(species: str) -> tuple[str, str]:
    """(effect, bonus) of a species in plain words; "-" where it has none."""
    sp = catalog().species(species)
    words = lambda parts: " and ".join(part_text(p) for p in parts) or "-"
    return words(sp.effect), words(sp.bonus)


EFFECT_KINDS = ("draw", "extra_turn", "free_place", "mole", "bear_cave", "raccoon",
                "draw_per_species", "draw_per_type") + PASSIVE
