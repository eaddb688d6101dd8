"""Final scoring of forests (rulebook: "End of the game"; appendix: each species' points).

Each species' rule is data (``scoring`` in ``data/cards.json``); this module interprets the
rule kinds.  Points are worked out card by card so a drawing can print them; species scored
once for a whole set (Horse Chestnut, Fireflies, Fire Salamander, butterflies) give each card
its share, in play order, so the shares add up to the set's total.

>>> from pangaea_lab.forest_shuffle.forest import Forest
>>> f = Forest.from_dict({"trees": [{"tree": "Oak", "left": ["European Hare"] * 3}]})
>>> s = score([f])[0]
>>> s.total, s.by_species["European Hare"]
(9, 9)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from ..core.memo import keep, kept_table
from ..core.protocol import ScoreBreakdown
from .cards import SAPLING, SIDES, TREE_TYPE
from .edition import catalog
from .forest import Dweller, Forest, Tree

#: where a card lies: (tree index, "tree" or a side, position in the slot's stack)
Spot = tuple[int, str, int]


@dataclass(frozen=True)
class ForestScore(ScoreBreakdown):
    """A forest's points by species (in card-list order) plus ``"Cave"``.

    ``card_points`` gives each card's own points, keyed by :data:`Spot`."""

    card_points: tuple[tuple[Spot, int], ...] = field(default=(), compare=False)

    @property
    def by_species(self) -> dict[str, int]:
        return {name: pts for name, pts in self.categories if name != "Cave"}

    @property
    def cave(self) -> int:
        return self["Cave"]

    def points_at(self, spot: Spot) -> int:
        return dict(self.card_points)[spot]


class _Facts:
    """Counts about one forest that many rules share, computed once."""

    def __init__(self, forest: Forest) -> None:
        self.forest = forest
        # the counts are kept with the (immutable) forest, without a link back to it
        counts = getattr(forest, "_counts", None)
        if counts is None:
            self._count()
            counts = (self.species, self.types, self.symbols, self.bees_at, self.tree_total,
                      self.all_species)
            keep(forest, "_counts", counts)
        else:
            (self.species, self.types, self.symbols, self.bees_at, self.tree_total,
             self.all_species) = counts

    def _count(self) -> None:
        cat = catalog()
        forest = self.forest
        self.species: dict[str, int] = {}
        self.types: dict[str, int] = {TREE_TYPE: len(forest.trees)}
        self.symbols: dict[str, int] = {}
        self.bees_at: dict[str, int] = {}
        bee = _bee_species()
        types_of = _types()
        for tree in forest.trees:
            if not tree.is_sapling:
                self.species[tree.species] = self.species.get(tree.species, 0) + 1
                self.symbols[tree.species] = self.symbols.get(tree.species, 0) + 1
            for d in tree.top + tree.bottom + tree.left + tree.right:     # SIDES order
                self.species[d.species] = self.species.get(d.species, 0) + 1
                for t in types_of[d.species]:
                    self.types[t] = self.types.get(t, 0) + 1
                if d.symbol:
                    self.symbols[d.symbol] = self.symbols.get(d.symbol, 0) + 1
                if d.species in bee:
                    self.bees_at[tree.species] = self.bees_at.get(tree.species, 0) + 1
        self.tree_total = len(forest.trees) + sum(self.bees_at.values())
        self.all_species = all(self.species.get(s, 0) for s in cat.tree_species())

    def with_bees(self, species: str) -> int:
        return self.species.get(species, 0) + self.bees_at.get(species, 0)


@lru_cache(maxsize=1)
def _types() -> dict[str, tuple[str, ...]]:
    """Each species' types, looked up once."""
    return {sp.name: sp.types for sp in catalog().all_species()}


@lru_cache(maxsize=1)
def _bee_species() -> frozenset[str]:
    return frozenset(sp.name for sp in catalog().all_species()
                     if any(e.get("kind") == "counts_as_tree" for e in sp.effect))


def _table(table: Sequence[int], n: int) -> int:
    """Points for a set of ``n`` from a table listing sizes 1, 2, ...; capped at the end."""
    if n <= 0:
        return 0
    return table[min(n, len(table)) - 1]


def _butterfly_points(counts: Mapping[str, int], table: Sequence[int]) -> int:
    """Layered sets: set k holds each species owned at least k times."""
    total, k = 0, 1
    while True:
        size = sum(1 for n in counts.values() if n >= k)
        if size == 0:
            return total
        total += _table(table, size)
        k += 1


def _opposite_has_bat(tree: Tree, side: str) -> bool:
    other = {"left": "right", "right": "left"}.get(side)
    if other is None:
        return False
    return any("bat" in catalog().species(d.species).types for d in tree.slot(other))


def _card_rule(kind: str) -> Callable[..., int] | None:
    """Rules scored card by card: f(rule, facts, tree, side, dweller, rivals) -> points."""
    return _CARD_RULES.get(kind)


def _rivals_best(rivals: Sequence[_Facts], value: Callable[[_Facts], int]) -> int:
    return max((value(r) for r in rivals), default=-1)


_CARD_RULES: dict[str, Callable[..., int]] = {
    "fixed": lambda r, f, t, s, d, o: r["points"],
    "per_type": lambda r, f, t, s, d, o: r["points"] * sum(f.types.get(x, 0) for x in r["types"]),
    "per_species": lambda r, f, t, s, d, o: r["points"] * f.species.get(r["species"], 0),
    "host": lambda r, f, t, s, d, o: r["points"] if t.species == r["species"] else 0,
    "present": lambda r, f, t, s, d, o: r["points"] if f.species.get(r["species"]) else 0,
    "all_tree_species": lambda r, f, t, s, d, o: r["points"] if f.all_species else 0,
    "own_slots": lambda r, f, t, s, d, o: r["points"] * t.card_count(),
    "threshold": lambda r, f, t, s, d, o: (
        r["points"] if f.with_bees(t.species) >= r["at_least"] else 0),
    "majority": lambda r, f, t, s, d, o: (
        r["points"] if f.with_bees(t.species) >= _rivals_best(o, lambda x: x.with_bees(t.species))
        else r["otherwise"]),
    "most_trees": lambda r, f, t, s, d, o: (
        r["points"] if f.tree_total >= _rivals_best(o, lambda x: x.tree_total) else 0),
    "min_trees": lambda r, f, t, s, d, o: r["points"] if f.tree_total >= r["at_least"] else 0,
    "bats": lambda r, f, t, s, d, o: (
        r["points"] if sum(1 for sp in catalog().all_species() if "bat" in sp.types
                           and f.species.get(sp.name)) >= r["distinct"] else 0),
    "toad_pair": lambda r, f, t, s, d, o: (
        r["points"] if sum(1 for x in t.slot(s) if x.species == d.species) >= 2 else 0),
    "bottom_cards": lambda r, f, t, s, d, o: (
        r["points"] * sum(len(x.bottom) for x in f.forest.trees)),
    "same_symbol": lambda r, f, t, s, d, o: r["points"] * f.symbols.get(d.symbol, 0) if d.symbol else 0,
    "full_trees": lambda r, f, t, s, d, o: r["points"] * sum(1 for x in f.forest.trees if x.is_full),
    "opposite_bat": lambda r, f, t, s, d, o: r["points"] if _opposite_has_bat(t, s) else 0,
}

#: rule kinds scored once for the whole group of cards
_GROUP_RULES = ("set", "butterflies")


def _cards_in_order(forest: Forest):
    """(spot, tree, side, dweller or None, species name) in play order."""
    for i, tree in enumerate(forest.trees):
        yield (i, "tree", 0), tree, "tree", None, tree.species
        for side, slot in (("top", tree.top), ("bottom", tree.bottom), ("left", tree.left),
                           ("right", tree.right)):      # SIDES order
            for k, d in enumerate(slot):
                yield (i, side, k), tree, side, d, d.species


def score_forest(forest: Forest, others: Sequence[Forest] = (), player: int = 0) -> ForestScore:
    """Score one forest; ``others`` are the rival forests (for Linden and the Woodpecker)."""
    return _score(_Facts(forest), [_Facts(f) for f in others], player)


@lru_cache(maxsize=None)
def _rule_of(species: str) -> tuple[Mapping[str, Any], bool, Callable[..., int] | None]:
    """A species' scoring rule, whether it scores as a group, and its function per card
    (looked up once per species)."""
    rule = catalog().species(species).scoring
    return rule, rule["kind"] in _GROUP_RULES, _card_rule(rule["kind"])


def _score(facts: _Facts, rivals: list[_Facts], player: int) -> ForestScore:
    cat = catalog()
    per_card: list[tuple[Spot, int]] = []
    by_species: dict[str, int] = {}
    groups: dict[str, list[Spot]] = {}
    for spot, tree, side, d, name in _cards_in_order(facts.forest):
        if name == SAPLING:
            per_card.append((spot, 0))
            continue
        rule, grouped, fn = _rule_of(name)
        by_species.setdefault(name, 0)
        if grouped:
            groups.setdefault(name, []).append(spot)
            per_card.append((spot, 0))
            continue
        if fn is None:
            raise ValueError(f"unknown scoring rule {rule['kind']!r} for {name}")
        pts = fn(rule, facts, tree, side, d if d is not None else Dweller(name), rivals)
        per_card.append((spot, pts))
        by_species[name] += pts
    shares = _group_shares(facts, groups)
    per_card = [(spot, shares.get(spot, pts)) for spot, pts in per_card]
    for name, spots in groups.items():
        by_species[name] = sum(shares[s] for s in spots)
    order = _species_order()
    categories = tuple(sorted(by_species.items(), key=lambda kv: order[kv[0]]))
    cave = facts.forest.cave * cat.cave_points
    return ForestScore(player=player, categories=categories + (("Cave", cave),),
                       card_points=tuple(per_card))


@lru_cache(maxsize=1)
def _species_order() -> dict[str, int]:
    """Each species' place in the card data (the order of a score's categories)."""
    return {sp.name: k for k, sp in enumerate(catalog().all_species())}


def _group_shares(facts: _Facts, groups: dict[str, list[Spot]]) -> dict[Spot, int]:
    """Each set-scored card's share: what adding it (in play order) added to the set."""
    cat = catalog()
    shares: dict[Spot, int] = {}
    butterflies: list[tuple[Spot, str]] = []
    table: Sequence[int] = ()
    for name, spots in groups.items():
        rule = cat.species(name).scoring
        if rule["kind"] == "butterflies":
            butterflies.extend((s, name) for s in spots)
            table = rule["table"]
            continue
        extra = facts.bees_at.get(name, 0) if rule.get("bees") else 0
        before = 0
        for k, spot in enumerate(spots, start=1):
            now = _table(rule["table"], k + extra)
            shares[spot] = now - before
            before = now
    counts: dict[str, int] = {}
    before = 0
    for spot, name in sorted(butterflies):
        counts[name] = counts.get(name, 0) + 1
        now = _butterfly_points(counts, table)
        shares[spot] = now - before
        before = now
    return shares


def score(forests: Sequence[Forest]) -> list[ForestScore]:
    """One :class:`ForestScore` per forest, in order; Linden and the Great Spotted
    Woodpecker compare each forest with all the others passed in."""
    if isinstance(forests, Forest):
        forests = [forests]
    forests = [f if isinstance(f, Forest) else Forest.from_dict(f) for f in forests]
    views = [_rival_view(f) for f in forests]
    out = []
    for k, forest in enumerate(forests):
        rivals = views[:k] + views[k + 1:]
        # a forest's points depend on its rivals only through the best of these counts
        key = (k, tuple(map(max, zip(*rivals))) if rivals else None)
        kept = kept_table(forest, "_scored")
        result = kept.get(key)
        if result is None:
            if len(kept) >= 16:
                kept.clear()
            others = [_Facts(f) for j, f in enumerate(forests) if j != k]
            result = kept[key] = _score(_Facts(forest), others, k)
        out.append(result)
    return out


def _rival_view(forest: Forest) -> tuple[int, ...]:
    """What a rival's forest shows to the rules that compare forests ("majority" and
    "most_trees"): its tree total, and per tree species (and saplings) the trees of that
    species with the Carpenter Bees at them.  Worked out once per forest (forests never
    change); the scores of a forest, kept with it, are keyed by the best of these among
    its rivals."""
    cached = getattr(forest, "_rival_view", None)
    if cached is None:
        facts = _Facts(forest)
        cached = (facts.tree_total,) + tuple(facts.with_bees(name) for name in _hosts())
        keep(forest, "_rival_view", cached)
    return cached


@lru_cache(maxsize=1)
def _hosts() -> tuple[str, ...]:
    return tuple(catalog().tree_species()) + (SAPLING,)


def game_scores(state: Any) -> list[ForestScore]:
    """The scores of a game in progress or over: each player's forest against the others
    (the game's ``scores`` part: ``state.scores()`` comes here)."""
    return score(list(state.forests))


def explain(species: str) -> str:
    """How a species scores, in one line of plain words (built from its rule data)."""
    sp = catalog().species(species)
    r: Mapping[str, Any] = sp.scoring
    k = r["kind"]
    words = {
        "fixed": lambda: f"{r['points']} point{'' if r['points'] == 1 else 's'}",
        "per_type": lambda: f"{r['points']} per {' or '.join(r['types'])} in the forest",
        "per_species": lambda: f"{r['points']} per {r['species']} in the forest",
        "host": lambda: (f"{r['points']} if it sits on "
                         f"{'an' if r['species'][0] in 'AEIOU' else 'a'} {r['species']}"),
        "present": lambda: f"{r['points']} if the forest has at least one {r['species']}",
        "all_tree_species": lambda: f"{r['points']} if the forest has all 8 tree species",
        "own_slots": lambda: f"{r['points']} per card in its own slots",
        "threshold": lambda: (f"{r['points']} each once the forest has at least "
                              f"{r['at_least']} (Carpenter Bees count)"),
        "majority": lambda: (f"{r['points']} each if no forest has more (Carpenter Bees "
                             f"count), else {r['otherwise']}"),
        "most_trees": lambda: f"{r['points']} if no forest has more trees (saplings, bees count)",
        "min_trees": lambda: f"{r['points']} with at least {r['at_least']} trees (saplings, bees count)",
        "bats": lambda: f"{r['points']} each with at least {r['distinct']} different bat species",
        "toad_pair": lambda: f"{r['points']} if two toads share its slot",
        "bottom_cards": lambda: f"{r['points']} per card below any tree",
        "same_symbol": lambda: f"{r['points']} per card with its own tree symbol",
        "full_trees": lambda: f"{r['points']} per fully occupied tree",
        "opposite_bat": lambda: f"{r['points']} if a bat sits in the opposite slot",
        "set": lambda: f"once for the set: {' / '.join(map(str, r['table']))} for 1, 2, ... cards",
        "butterflies": lambda: (f"sets of different butterflies: "
                                f"{' / '.join(map(str, r['table']))} for sets of 1-5"),
    }
    return words[k]()


def check_answer(answer: int | None, forests: Sequence[Forest] | Forest,
                 species: str | None = None) -> str:
    """A learner's guess for the first forest's points (of one ``species``, or in total),
    checked without giving the answer away.

    >>> from pangaea_lab.forest_shuffle.forest import Forest
    >>> f = Forest.from_dict({"trees": ["Douglas Fir", "Douglas Fir"]})
    >>> check_answer(10, f, "Douglas Fir")
    'Correct: Douglas Fir scores 10 here.'
    """
    result = score(forests)[0]
    what = species or "this forest"
    truth = result.by_species.get(catalog().species(species).name, 0) if species else result.total
    if answer is None:
        return f"Your turn: how many points does {what} score? Put your number in `answer`."
    if answer == truth:
        return f"Correct: {what} scores {truth} here."
    hint = f" Rule: {explain(species)}." if species else " Add up every species, then the cave."
    return f"Not quite: {what} does not score {answer} here.{hint}"
