"""The changing state of a Forest Shuffle game: deck, hands, clearing, forests, caves.

A state is an immutable value.  ``pending`` lists the steps still to resolve in the current
turn (payments, optional effects, free placements, ...); the front step decides what the
current player may do next.  This module holds the data, its save form (a declared schema
read by :func:`~pangaea_lab.core.jsonio.load_save`) and the invariant checks; the rules are in
:mod:`.rules`, reached through the game object (``GameState.GAME``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..core.engine import Decision
from ..core.errors import InvalidData
from ..core.game import Game
from ..core.jsonio import (FORMAT_VERSION, Check, Either, Flag, Int, Record, Row, Seq, Spec,
                           Text, dumps, load_save)
from ..core.memo import fields_of, keep
from ..core.protocol import Action
from ..core.protocol import GameState as BaseState
from ..core.validate import require
from .cards import SAPLING, SIDES
from .edition import catalog, rules_data
from .forest import Dweller, Forest, Tree, can_join, check_place
from .game import GAME

#: step kinds that wait for the player; all others resolve on their own
DECISIONS = ("draw", "pay", "mushroom", "effect", "bonus", "free", "raccoon", "mole")
STEP_KINDS = DECISIONS + ("placed",)
PHASES = ("mulligan", "turn", "over")

#: what each waiting step asks of the player (completing "you must first ..."), and the
#: rulebook section it comes from
STEP_WORDS = {
    "draw": ("draw your second card (deck or clearing)", "Draw 2 cards"),
    "pay": ("finish paying for the card you played", "Play a card: pay its cost"),
    "mushroom": ("decide on the mushroom draw", "Mushrooms (permanent effects)"),
    "effect": ("decide whether to use the card's effect", "Effects and bonuses"),
    "bonus": ("decide whether to use the card's bonus", "Effects and bonuses"),
    "free": ("finish the free placements", "Effects and bonuses: free placement"),
    "raccoon": ("finish the Raccoon (cards under your cave)", "Raccoon"),
    "mole": ("play cards with the Mole, or finish it", "Mole"),
}

HAND_SIZE: int = rules_data()["hand_size"]["value"]
HAND_LIMIT: int = rules_data()["hand_limit"]["value"]
CLEARING_LIMIT: int = rules_data()["clearing_limit"]["value"]

_ALL_IDS = frozenset(catalog().card_ids)


@dataclass(frozen=True)
class Step:
    """One thing left to do this turn.

    ``card`` is the card it belongs to; ``n`` a count (cost still to pay, cards placed for
    free, deferred steps of a Mole); ``cards`` card ids (payment so far, Raccoon's cave
    cards, the hand a Mole may play from); ``tag`` a placement, type or species name; ``via``
    is ``"mole"`` for a card played through a Mole."""

    kind: str
    card: int = 0
    n: int = 0
    cards: tuple[int, ...] = ()
    tag: str = ""
    via: str = ""


def forest_to_data(forest: Forest) -> list:
    """A game forest as JSON data: per tree [card id, sapling?, {side: [card ids]}]."""
    cached = getattr(forest, "_data", None)
    if cached is not None:
        return cached
    out = []
    for t in forest.trees:
        slots = {}
        for side, slot in (("top", t.top), ("bottom", t.bottom), ("left", t.left),
                           ("right", t.right)):
            if slot:
                slots[side] = [d.card for d in slot]
        out.append([t.card, t.species == SAPLING, slots])
    keep(forest, "_data", out)  # forests are immutable, so this never goes stale
    return out


def forest_text(forest: Forest) -> str:
    """A game forest as JSON text (of :func:`forest_to_data`), kept with the forest."""
    cached = getattr(forest, "_text", None)
    if cached is None:
        cached = dumps(forest_to_data(forest))
        keep(forest, "_text", cached)
    return cached


def dweller_of(card: int, side: str) -> Dweller:
    """The visible half of ``card`` in a ``side`` slot (dwellers are values: each is made
    once)."""
    try:
        found = _DWELLERS.get((card, side))
    except TypeError:       # not a card id: refused below in plain words
        found = None
    if found is None:
        half = catalog().card(card).half_for(side)
        if half is None:
            raise InvalidData(f"card #{card} cannot sit in a {side} slot")
        found = _DWELLERS[(card, side)] = Dweller(half.species, half.symbol, card)
    return found


_DWELLERS: dict[tuple[int, str], Dweller] = {}


def tree_of(card: int, sapling: bool) -> Tree:
    c = catalog().card(card)
    if sapling:
        return Tree(SAPLING, card)
    if not c.is_tree:
        raise InvalidData(f"card #{card} is not a tree; only a sapling may be face down")
    return Tree(str(c.species), card)


def forest_from_data(trees: tuple, cave: int, where: str) -> Forest:
    """A game forest from the (already type-checked) save form of :func:`forest_to_data`;
    a card that cannot lie where the save puts it is refused naming the tree."""
    built = []
    for i, (cid, sapling, slots) in enumerate(trees):
        try:
            tree = tree_of(cid, sapling)
            laid = []
            for side in SIDES:
                slot: tuple[Dweller, ...] = ()
                for d in slots.get(side, ()):
                    dweller = dweller_of(d, side)
                    # as Forest.place checks (into an empty slot, only the card's side counts)
                    if slot or (d, side) not in _FITTING:
                        check_place(slot, i, side, dweller)
                        if not slot:
                            _FITTING.add((d, side))
                    slot += (dweller,)
                laid.append(slot)
        except InvalidData as exc:
            raise InvalidData(f"{where}[{i}]: {exc}") from None
        # the tree with its slots made at once (the same value as placing card by card)
        built.append(Tree(tree.species, tree.card, *laid))
    forest = Forest(trees=tuple(built), cave=cave)
    # every card was checked as the invariants check a forest's slots: noted (see _check_slots)
    keep(forest, "_slots_ok", True)
    return forest


#: (card, side) of the cards found to fit an empty slot on that side
_FITTING: set[tuple[int, str]] = set()


# ----- the save file's declared shape ---------------------------------------------------------


class SaveRecord(Record):
    """The top level of a save: a missing field is reported in the words the game has
    always used ("the save file lacks field(s): ...")."""

    def read(self, value: Any, where: str) -> dict:
        if isinstance(value, dict):
            missing = [name for name in self.fields if name not in value]
            if missing:
                raise InvalidData(f"the save file lacks field(s): {', '.join(missing)}")
        return super().read(value, where)


def _card_id(value: Any, where: str) -> int:
    if type(value) is int and value in _ALL_IDS:       # a card of the game, as most are
        return value
    cid = _ID.read(value, where)
    if cid not in _ALL_IDS:
        raise InvalidData(f"{where}: there is no card with id {cid} in the base game")
    return cid


_ID = Int(0, 10_000)


def _step_card(value: Any, where: str) -> int:
    """The card a step belongs to: a card of the game, or 0 for a step without one."""
    return 0 if type(value) is int and value == 0 else _card_id(value, where)


#: options added after saves were first written, read from their own entries in the rules
#: data (``"older_saves_lack": true``): a save without one takes its default
LATER_OPTIONS = tuple(entry["option"] for entry in rules_data()["assumptions"]
                      if entry["option"] and entry.get("older_saves_lack") is True)


def save_schema(game: Game, cards: int) -> SaveRecord:
    """The declared shape of a save of ``game`` played with ``cards`` card ids."""
    card = Check(_card_id)
    ids = Seq(card, longest=cards)
    seats = game.max_players
    tree = Row(card, Flag(), Record({}, optional={side: (ids, ()) for side in SIDES}))
    step = Row(Text(choices=STEP_KINDS), Check(_step_card), Int(0, 50), Seq(card, longest=50),
               Text(), Text(choices=("", "mole")))
    return SaveRecord({
        "players": Int(game.min_players, seats),
        "seed": Either(Int(-10**30, 10**30), Text(longest=10_000),
                       wanted="a whole number or a text"),
        # an option added after saves were first written may be missing: its default
        "options": Record({name: Flag() for name in game.options if name not in LATER_OPTIONS},
                          optional={name: (Flag(), game.options[name].default)
                                    for name in LATER_OPTIONS}),
        "deck": ids, "hands": Seq(ids, longest=seats), "clearing": ids,
        "forests": Seq(Seq(tree, longest=cards), longest=seats),
        "caves": Seq(ids, longest=seats), "removed": ids, "box": ids, "winter": ids,
        "current": Int(0, seats - 1), "phase": Text(choices=PHASES),
        "mulligan_left": Seq(Int(0, seats - 1), longest=seats),
        "pending": Seq(step, longest=500), "busy": Flag(), "extra_turns": Int(0, 10_000),
        "turn": Int(0, 1_000_000), "ended_by": Text(),
    }, optional={"this_turn": (ids, ())})   # older saves lack this_turn


SCHEMA = save_schema(GAME, len(_ALL_IDS))


def counted_caves(state: "GameState") -> "GameState":
    """``state``, noted as one whose forests count the cards under their caves (as a state
    made by a move is; the rules then need not compare them)."""
    keep(state, "_caves_counted", True)
    return state


def _build(v: dict) -> "GameState":
    """A state from the values of a save, read with :data:`SCHEMA`."""
    players = v["players"]
    if not len(v["hands"]) == len(v["caves"]) == len(v["forests"]) == players:
        raise InvalidData("fields 'players', 'hands', 'caves' and 'forests' disagree")
    if v["current"] >= players:
        raise InvalidData(f"field 'current' must be a seat 0-{players - 1}")
    forests = tuple(forest_from_data(f, len(v["caves"][i]), f"forests[{i}]")
                    for i, f in enumerate(v["forests"]))
    return counted_caves(GameState(    # each forest was made with its cave's count
        players=players, seed=v["seed"], options=tuple(sorted(v["options"].items())),
        deck=v["deck"], hands=v["hands"], clearing=v["clearing"], forests=forests,
        caves=v["caves"], removed=v["removed"], box=v["box"], winter=v["winter"],
        current=v["current"], phase=v["phase"], mulligan_left=v["mulligan_left"],
        pending=tuple(Step(*s) for s in v["pending"]), busy=v["busy"],
        extra_turns=v["extra_turns"], this_turn=v["this_turn"], turn=v["turn"],
        ended_by=v["ended_by"]))


@dataclass(frozen=True)
class GameState(BaseState):
    """A Forest Shuffle position (see :func:`pangaea_lab.forest_shuffle.new_game`)."""

    players: int
    seed: int | str
    options: tuple[tuple[str, bool], ...]
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    clearing: tuple[int, ...]
    forests: tuple[Forest, ...]
    caves: tuple[tuple[int, ...], ...]
    removed: tuple[int, ...]
    box: tuple[int, ...]
    winter: tuple[int, ...]
    current: int
    phase: str
    mulligan_left: tuple[int, ...] = ()
    pending: tuple[Step, ...] = ()
    busy: bool = False
    extra_turns: int = 0
    this_turn: tuple[int, ...] = ()
    turn: int = 1
    ended_by: str = ""

    game: ClassVar[str] = "forest_shuffle"
    GAME: ClassVar[Game] = GAME

    # ----- protocol -----------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def current_player(self) -> int | None:
        return None if self.phase == "over" else self.current

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def option(self, name: str) -> bool:
        return dict(self.options)[name]

    def player_name(self, player: int) -> str:
        return f"Player {player + 1}"

    def player_summary(self, player: int) -> str:
        f = self.forests[player]
        return (f"{len(self.hands[player])} cards in hand, {len(f.trees)} trees, "
                f"{f.card_count() - len(f.trees)} cards at trees, {f.cave} under the cave")

    @property
    def step(self) -> Step | None:
        """The front pending step (what the current player is deciding), if any."""
        return self.pending[0] if self.pending else None

    @property
    def decision(self) -> Decision | None:
        """The decision the current player must take before anything else, if any."""
        step = self.step
        if step is None or step.kind not in STEP_WORDS:
            return None
        return Decision(step.kind, self.current, STEP_WORDS[step.kind][0],
                        (step.card, step.tag))

    def action_highlight(self, action: Action) -> tuple:
        """Cards and slots an action touches, for the step-through widget."""
        out: list[Any] = []
        for name in ("card", "tree"):
            value = getattr(action, name, None)
            if value is not None:
                out.append((name, value))
        side = getattr(action, "side", None)
        if side is not None:
            out.append(("slot", action.tree, side))  # type: ignore[attr-defined]
        return tuple(out)

    # ----- JSON ---------------------------------------------------------------------------

    def to_data(self) -> dict:
        data = self._data()
        data["forests"] = [forest_to_data(x) for x in self.forests]
        return data

    def _data(self) -> dict:
        """The save's fields, the forests left out."""
        data: dict[str, Any] = {"game": self.game, "format": FORMAT_VERSION}
        data.update(fields_of(self, _SAVED))
        data["pending"] = [[s.kind, s.card, s.n, list(s.cards), s.tag, s.via]
                           for s in self.pending]
        data["options"] = dict(self.options)
        return data

    def to_json(self) -> str:
        # the text of a forest is kept with it (forests never change, and a move changes one
        # forest, so the saves of a game share the others' text): the rest is written with
        # the forests as null, which the forests' text then replaces (the key comes before
        # any text the save holds, and a written text never holds an unescaped quote)
        data = self._data()
        data["forests"] = None
        forests = ",".join([forest_text(f) for f in self.forests])
        return dumps(data).replace('"forests":null', f'"forests":[{forests}]', 1)

    @classmethod
    def from_json(cls, text: str | bytes) -> "GameState":
        return load_save(text, cls.game, SCHEMA, _build, what="Forest Shuffle save file")

    # ----- invariants ---------------------------------------------------------------------

    def all_cards(self) -> list[int]:
        """Every card id in every zone (each should appear exactly once)."""
        out = list(self.deck) + list(self.clearing) + list(self.removed) + list(self.box)
        out += list(self.winter)
        for hand in self.hands:
            out += hand
        for cave in self.caves:
            out += cave
        for forest in self.forests:
            out += _forest_cards(forest)
        return out

    def check_invariants(self) -> None:
        """Raise :class:`~pangaea_lab.core.validate.InvariantError` unless every card lies in
        exactly one zone, hands and winter cards keep their limits, each slot holds what it
        may, and the pending steps can be resolved."""
        cards = self.all_cards()
        expected = catalog().card_ids
        require(len(cards) == len(expected) and set(cards) == _ALL_IDS,
                f"card total not conserved: {len(cards)} cards in play, expected {len(expected)}")
        require(len(self.winter) <= 3, "more than three winter cards revealed")
        for p, hand in enumerate(self.hands):
            require(len(hand) <= HAND_LIMIT,
                    f"player {p + 1} holds {len(hand)} cards (limit {HAND_LIMIT})")
        for p, forest in enumerate(self.forests):
            require(forest.cave == len(self.caves[p]), "cave count out of step")
            _check_slots(forest, p)
        self._check_this_turn()
        self._check_pending()

    def _check_this_turn(self) -> None:
        """Cards placed this turn lie in the current player's forest, once each, and a Hare
        or Toad placed this turn never sits on another one placed this turn."""
        placed = self.this_turn
        if not placed:
            return
        require(len(set(placed)) == len(placed), "a card is listed twice as placed this turn")
        forest = self.forests[self.current]
        require(set(placed) <= set(_forest_cards(forest)),
                "a card listed as placed this turn is not in the current player's forest")
        for i, t in enumerate(forest.trees):
            for side in SIDES:
                slot = t.slot(side)
                require(all(d.card not in placed for d in slot[:-1]),
                        f"slot {side} of tree {i + 1} stacks a card on one placed this turn")

    def _check_pending(self) -> None:
        """Each queued step names a card where it lies in the current player's forest, and
        (for effects and bonuses) its species, so the rules can resolve it."""
        forest = self.forests[self.current]
        moles = any(s.kind == "mole" for s in self.pending)
        for k, s in enumerate(self.pending):
            where = f"pending[{k}]"
            require(s.via != "mole" or moles,
                    f"{where}: 'via' must be empty, or 'mole' with a Mole step queued")
            if s.kind in ("pay", "placed"):
                if s.tag in ("tree", "sapling"):
                    here = any(t.card == s.card for t in forest.trees)
                else:
                    require(s.tag in SIDES, f"{where}: {s.tag[:30]!r} is not a placement "
                                            f"(tree, sapling or one of {list(SIDES)})")
                    here = any(d.card == s.card for t in forest.trees for d in t.slot(s.tag))
                require(here, f"{where}: card {s.card} is not in the forest as a {s.tag}")
            elif s.kind in ("mushroom", "effect", "bonus"):
                require(s.tag in _SPECIES, f"{where}: {s.tag[:30]!r} is not a species")


_SPECIES = frozenset(sp.name for sp in catalog().all_species())
#: the fields a save writes as they are (the forests, steps and options are converted)
_SAVED = tuple(f.name for f in fields(GameState)
               if f.name not in ("forests", "pending", "options"))


def _forest_cards(forest: Forest) -> list[int]:
    """Card ids lying in a forest (trees, saplings and dwellers); kept with the (immutable)
    forest value once worked out."""
    cached = getattr(forest, "_cards", None)
    if cached is None:
        cached = []
        for t in forest.trees:
            cached.append(t.card)
            for slot in (t.top, t.bottom, t.left, t.right):
                cached += [d.card for d in slot]
        keep(forest, "_cards", cached)
    return cached


def _check_slots(forest: Forest, p: int) -> None:
    """Every slot holds only what it may (checked once per forest value, which never changes)."""
    if getattr(forest, "_slots_ok", None):
        return
    for i, t in enumerate(forest.trees):
        for side in SIDES:
            slot = t.slot(side)
            for k, d in enumerate(slot):
                require(catalog().species(d.species).fits(side),
                        f"{d.species} sits in a {side} slot")
                require(can_join(slot[:k], d.species) is None,
                        f"slot {side} of tree {i + 1} of player {p + 1} holds {len(slot)} cards")
                if d.card is not None:
                    require(dweller_of(d.card, side) == d, f"card #{d.card} shows the wrong half")
    keep(forest, "_slots_ok", True)
