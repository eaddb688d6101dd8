"""The changing state of a Forest Shuffle game: deck, hands, clearing, forests, caves.

A state is an immutable value.  ``pending`` lists the steps still to resolve in the current
turn (payments, optional effects, free placements, ...); the front step decides what the
current player may do next.  Rules live in :mod:`.rules`; this module holds the data, the
JSON form and the invariant checks.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Iterable

from ..core.errors import InvalidData
from ..core.jsonio import FORMAT_VERSION, convert, dumps, open_save
from ..core.protocol import Action
from ..core.protocol import GameState as BaseState
from ..core.validate import guarded_apply, kind_of, load_guarded, require
from .cards import SAPLING, SIDES, catalog
from .forest import Dweller, Forest, Tree, can_join
from .scoring import ForestScore, score

#: step kinds that wait for the player; all others resolve on their own
DECISIONS = ("draw", "pay", "mushroom", "effect", "bonus", "free", "raccoon", "mole")
STEP_KINDS = DECISIONS + ("placed",)

#: fields a save may lack (an older or hand-written save), and the value they then take
SAVE_DEFAULTS: dict[str, Any] = {"this_turn": []}


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
    cached = forest.__dict__.get("_data")
    if cached is not None:
        return cached
    out = []
    for t in forest.trees:
        slots = {s: [d.card for d in t.slot(s)] for s in SIDES if t.slot(s)}
        out.append([t.card, t.is_sapling, slots])
    object.__setattr__(forest, "_data", out)  # forests are immutable, so this never goes stale
    return out


def dweller_of(card: int, side: str) -> Dweller:
    """The visible half of ``card`` in a ``side`` slot."""
    half = catalog().card(card).half_for(side)
    if half is None:
        raise InvalidData(f"card #{card} cannot sit in a {side} slot")
    return Dweller(half.species, half.symbol, card)


def tree_of(card: int, sapling: bool) -> Tree:
    c = catalog().card(card)
    if sapling:
        return Tree(SAPLING, card)
    if not c.is_tree:
        raise InvalidData(f"card #{card} is not a tree; only a sapling may be face down")
    return Tree(str(c.species), card)


def forest_from_data(data: Any, cave: int, where: str) -> Forest:
    if not isinstance(data, list) or len(data) > len(_ALL_IDS):
        raise InvalidData(f"{where}: expected a list of at most {len(_ALL_IDS)} trees")

    def build() -> Forest:
        forest = Forest(cave=cave)
        for i, (cid, sapling, slots) in enumerate(data):
            forest = forest.plant(tree_of(_whole(cid), _flag(sapling, f"{where}[{i}][1]")))
            for side in SIDES:
                for d in slots.get(side, []):
                    forest = forest.place(i, side, dweller_of(d, side))
        return forest
    return convert(where, build)


def _whole(value: Any) -> int:
    """A whole number from a save (not true/false, not a decimal, not a text)."""
    if type(value) is not int:
        raise TypeError(f"expected a whole number, got {kind_of(value)}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise TypeError(f"expected a short text, got {kind_of(value)}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidData(f"{where}: expected true/false, got {kind_of(value)}")
    return value


def _check_pending(state: "GameState") -> None:
    """Each queued step names a card where it lies in the current player's forest, and (for effects and bonuses) its species, so the rules can resolve it."""
    forest = state.forests[state.current]
    moles = [s for s in state.pending if s.kind == "mole"]
    for k, s in enumerate(state.pending):
        where = f"pending[{k}]"
        if s.via not in ("", "mole") or (s.via == "mole" and not moles):
            raise InvalidData(f"{where}: 'via' must be empty, or 'mole' with a Mole step queued")
        if s.kind in ("pay", "placed"):
            if s.tag in ("tree", "sapling"):
                here = any(t.card == s.card for t in forest.trees)
            elif s.tag in SIDES:
                here = any(d.card == s.card for t in forest.trees for d in t.slot(s.tag))
            else:
                raise InvalidData(f"{where}: {s.tag[:30]!r} is not a placement (tree, sapling "
                                  f"or one of {list(SIDES)})")
            if not here:
                raise InvalidData(f"{where}: card {s.card} is not in the forest as a {s.tag}")
        elif s.kind in ("mushroom", "effect", "bonus"):
            if s.tag not in {sp.name for sp in catalog().all_species()}:
                raise InvalidData(f"{where}: {s.tag[:30]!r} is not a species")


def _seed(value: Any) -> int | str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InvalidData("field 'seed' must be a whole number or a text")
    return value


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

    game = "forest_shuffle"

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

    def legal_actions(self) -> list[Action]:
        cached = self.__dict__.get("_legal")
        if cached is None:
            from .rules import legal_actions
            cached = legal_actions(self)
            object.__setattr__(self, "_legal", cached)  # the state never changes
        return list(cached)

    def apply(self, action: Action) -> "GameState":
        from .actions import ACTION_TYPES
        from .rules import apply
        return guarded_apply(self, action, ACTION_TYPES, lambda: apply(self, action),
                             "Forest Shuffle")

    def scores(self) -> list[ForestScore]:
        return score(list(self.forests))

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

    def to_svg(self, highlight: Iterable[Any] = ()) -> str:
        from .render import state_svg
        return state_svg(self, highlight=highlight)

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

    def evaluate(self, action: Action, player: int) -> float:
        """Quick gain estimate for the greedy player (see :mod:`.players`)."""
        from .players import estimate_gain
        return estimate_gain(self, action, player)

    # ----- JSON ---------------------------------------------------------------------------

    def to_data(self) -> dict:
        data: dict[str, Any] = {"game": self.game, "format": FORMAT_VERSION}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "forests":
                value = [forest_to_data(x) for x in value]
            elif f.name == "pending":
                value = [[s.kind, s.card, s.n, list(s.cards), s.tag, s.via] for s in value]
            elif f.name == "options":
                value = dict(value)
            data[f.name] = value
        return data

    def to_json(self) -> str:
        return dumps(self.to_data())

    @classmethod
    def from_json(cls, text: str | bytes) -> "GameState":
        return load_guarded("Forest Shuffle save file",
                            lambda: cls.from_data(open_save(text, cls.game)))

    @classmethod
    def from_data(cls, data: dict) -> "GameState":
        names = [f.name for f in fields(cls)]
        data = {**SAVE_DEFAULTS, **data}
        missing = [n for n in names if n not in data]
        if missing:
            raise InvalidData(f"the save file lacks field(s): {', '.join(missing)}")
        ids = lambda key: convert(f"field {key!r}", lambda: tuple(_whole(x) for x in data[key]))
        caves = convert("field 'caves'", lambda: tuple(tuple(_whole(x) for x in c)
                                                       for c in data["caves"]))
        forests_raw = data["forests"]
        if not isinstance(forests_raw, list) or len(forests_raw) != len(caves):
            raise InvalidData("field 'forests' must list one forest per player (as 'caves')")
        from .rules import OPTION_DEFAULTS
        options = data["options"]
        if not isinstance(options, dict) or set(options) != set(OPTION_DEFAULTS):
            raise InvalidData(f"field 'options' must set exactly {sorted(OPTION_DEFAULTS)}")
        pending = convert("field 'pending'", lambda: tuple(
            Step(_text(k), _whole(c), _whole(n), tuple(_whole(x) for x in cs), _text(t), _text(v))
            for k, c, n, cs, t, v in data["pending"]))
        for k, s in enumerate(pending):
            if s.kind not in STEP_KINDS:
                raise InvalidData(f"field 'pending' has an unknown step {s.kind!r}")
            if (s.card != 0 and s.card not in _ALL_IDS or not 0 <= s.n <= 50
                    or len(s.cards) > 50 or not set(s.cards) <= _ALL_IDS):
                raise InvalidData(f"pending[{k}]: expected a card of the game, a count from 0 "
                                  "to 50 and card ids")
        state = cls(
            players=convert("field 'players'", lambda: _whole(data["players"])),
            seed=_seed(data["seed"]),
            options=tuple(sorted((k, _flag(v, f"options.{k}")) for k, v in options.items())),
            deck=ids("deck"),
            hands=convert("field 'hands'", lambda: tuple(tuple(_whole(x) for x in h)
                                                         for h in data["hands"])),
            clearing=ids("clearing"),
            forests=tuple(forest_from_data(f, len(caves[i]), f"field 'forests'[{i}]")
                          for i, f in enumerate(forests_raw)),
            caves=caves, removed=ids("removed"), box=ids("box"), winter=ids("winter"),
            current=convert("field 'current'", lambda: _whole(data["current"])),
            phase=convert("field 'phase'", lambda: _text(data["phase"])),
            mulligan_left=ids("mulligan_left"),
            pending=pending,
            busy=_flag(data["busy"], "busy"),
            extra_turns=convert("field 'extra_turns'", lambda: _whole(data["extra_turns"])),
            this_turn=ids("this_turn"),
            turn=convert("field 'turn'", lambda: _whole(data["turn"])),
            ended_by=convert("field 'ended_by'", lambda: _text(data["ended_by"])),
        )
        if state.phase not in ("mulligan", "turn", "over"):
            raise InvalidData(f"field 'phase' must be mulligan, turn or over, "
                              f"found {state.phase!r}")
        if not 2 <= state.players <= 5 or not (
                len(state.hands) == len(state.caves) == state.players):
            raise InvalidData("fields 'players', 'hands', 'caves' and 'forests' disagree, "
                              "or the player count is not 2-5")
        if not 0 <= state.current < state.players:
            raise InvalidData(f"field 'current' must be a seat 0-{state.players - 1}")
        try:
            state.check_invariants()
        except AssertionError as exc:
            raise InvalidData(f"the save file is inconsistent: {exc}") from None
        _check_pending(state)
        return state

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
        cards = self.all_cards()
        expected = catalog().card_ids
        require(len(cards) == len(expected) and set(cards) == _ALL_IDS,
                f"card total not conserved: {len(cards)} cards in play, expected {len(expected)}")
        require(len(self.winter) <= 3, "more than three winter cards revealed")
        for p, hand in enumerate(self.hands):
            require(len(hand) <= 10, f"player {p + 1} holds {len(hand)} cards (limit 10)")
        for p, forest in enumerate(self.forests):
            require(forest.cave == len(self.caves[p]), "cave count out of step")
            _check_slots(forest, p)
        self._check_this_turn()

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


_ALL_IDS = frozenset(catalog().card_ids)


def _forest_cards(forest: Forest) -> list[int]:
    """Card ids lying in a forest (trees, saplings and dwellers); kept with the (immutable)
    forest value once worked out."""
    cached = forest.__dict__.get("_cards")
    if cached is None:
        cached = []
        for t in forest.trees:
            cached.append(t.card)
            for side in SIDES:
                cached += [d.card for d in t.slot(side)]
        object.__setattr__(forest, "_cards", cached)
    return cached


def _check_slots(forest: Forest, p: int) -> None:
    """Every slot holds only what it may (checked once per forest value, which never changes)."""
    if forest.__dict__.get("_slots_ok"):
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
    object.__setattr__(forest, "_slots_ok", True)
