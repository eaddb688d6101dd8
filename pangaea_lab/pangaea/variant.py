"""The shape of a variant of The Dawn of Pangaea: one object with named hook points, grouped
by concern in small objects (see :class:`Variant`).

The base game's turn structure lives in :mod:`.rules`.  Each variant changes it in a few named
places and keeps what it adds in its own record on the state: the family rules
(:data:`FAMILY`, here), Return of the Ancients (:mod:`.coop`, ``state.coop``) and Wild Woods
(:mod:`.woods`, ``state.woods``).  The rules ask the active variants, in order (see
:mod:`.variants`), at each hook; a hook left as it is here changes nothing.  Hooks that may
take over the base game's way of doing something return True when they did.  Hooks called
while an action is applied change its working copy, a :class:`.draft.Draft`, defined below
this module: the interface imports nothing of the rules that call it.

>>> from pangaea_lab import pangaea
>>> from pangaea_lab.pangaea.variants import active
>>> [v.name for v in active(pangaea.new_game(players=2, seed=1, family=True))]
['family rules']
>>> [v.name for v in active(pangaea.new_game(players=1, seed=1, mode="coop", wild_woods=True))]
['Return of the Ancients', 'Wild Woods']
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..core.errors import IllegalAction, InvalidSetup
from ..core.memo import keep
from ..core.protocol import ScoreBreakdown
from ..core.validate import require
from .draft import Draft
from .rituals import NOBODY
from .state import FAMILY_BOXED_BLESSINGS, GameState, Pending, SetupStep


class Listing:
    """What a variant changes in the listing of actions and in their checks (asked with the
    state; hooks returning None or False leave the base game's way)."""

    def seed_actions(self, s: GameState, p: int) -> list | None:
        """Main actions placing Seeds, when the variant replaces Flying Seed and Expand
        Forest (None: the base game's)."""
        return None

    def main_actions(self, s: GameState, p: int) -> list:
        """Further main actions, listed after the Seeds."""
        return []

    def seed_free_actions(self, s: GameState, p: int) -> list | None:
        """Free actions with Seeds (take back, Flying Seed Blessing) when the variant changes
        them (None: the base game's)."""
        return None

    def free_actions(self, s: GameState, p: int) -> list:
        """Further free actions."""
        return []

    def second_seed_spaces(self, s: GameState, p: int) -> list[int]:
        """Spaces holding ``p``'s Seed where a second one may still go."""
        return []

    def barred_water(self, s: GameState) -> set[int] | tuple:
        """Water Spaces no Spirit may enter."""
        return ()

    def may_summon(self, s: GameState, ancient: str) -> bool:
        return True

    def calls_back(self, s: GameState, ancient: str) -> bool:
        """Whether Call Ancient does something else with this Ancient (see ``call_ancient``)."""
        return False

    def decision_actions(self, s: GameState, pend: Pending) -> list:
        """The choices of one of the variant's own decisions."""
        return []

    def refusal(self, s: GameState, action: Any) -> IllegalAction | None:
        """The variant's rule against an action of the base game (None: no objection)."""
        return None

    def check_flying_seed(self, s: GameState, a: Any, i: int, p: int, rule: str) -> bool:
        return False

    def check_take_back(self, s: GameState, i: int, p: int) -> bool:
        return False


class Seeds:
    """What a variant does with the pieces on the continent while an action is applied (on
    the working copy, a :class:`.draft.Draft`): Seeds put, taken back and grown, Trees removed
    and moved, Weather gained.  Hooks returning True did it the variant's way."""

    def flying_seed(self, d: Draft, a: Any, i: int, p: int) -> bool:
        return False

    def second_seed(self, d: Draft, i: int) -> None:
        """A second Seed went onto a space holding the player's Seed."""

    def put_seed(self, d: Draft, i: int, p: int, n: int) -> bool:
        return False

    def return_seeds(self, d: Draft, i: int) -> bool:
        return False

    def take_back(self, d: Draft, i: int, p: int) -> bool:
        return False

    def seeds_on(self, d: Draft, i: int) -> int | None:
        """Seeds the majority holder has on space ``i``, when the variant stacks them."""
        return None

    def give_up_seed(self, d: Draft, p: int) -> None:
        """A Moon Card takes one of ``p``'s starting Seeds out of the game."""

    def gain_weather(self, d: Draft, player: int, i: int, grow: bool) -> bool:
        return False

    def may_grow(self, d: Draft, i: int, forced: bool) -> bool:
        """Whether the Seed on space ``i`` grows now (on growth)."""
        return True

    def on_growth(self, d: Draft, i: int, owner: int) -> None:
        """A Seed grows on space ``i`` (before the Seeds go back)."""

    def on_tree_removed(self, d: Draft, i: int) -> None:
        """The Tree on space ``i`` is about to leave the continent."""

    def on_tree_moved(self, d: Draft, origin: int, target: int) -> None:
        """A Tree moved (Moving Trees)."""


class Turn:
    """The variant in the flow of a turn: its record on the working copy (``copy``,
    ``before_freeze``), the Ancients, the Rituals' rewards, the market, the End of Turn and
    the end of the game.  Hooks returning True took the step over."""

    #: the working copy class of the variant's record (a :class:`~pangaea_lab.core.working.
    #: WorkingCopy`), which the :class:`.draft.Draft` declares for the record's field; None
    #: for a variant without a record
    copy: type | None = None

    def before_freeze(self, d: Draft) -> None:
        """Anything left to settle at the end of an action."""

    def on_ancient_entered(self, d: Draft, ancient: str, i: int) -> None:
        """An Ancient Guardian moved onto space ``i``."""

    def on_thorondal(self, d: Draft, p: int, i: int) -> None:
        """Thorondal was placed on space ``i`` and sowed a Seed next to it."""

    def on_chain(self, s: GameState, d: Draft, p: int, card: str,
                 neighbour: str | None) -> None:
        """A card joined a Ritual Chain next to ``neighbour``."""

    def creature_ritual(self, s: GameState, d: Draft, p: int, card: Any) -> bool:
        """A Creature Ritual's reward, when the variant gives another one than points."""
        return False

    def land_reward(self, s: GameState, d: Draft, p: int, points: int) -> bool:
        """A Land Ritual's reward, when the variant gives another one than points."""
        return False

    def on_land_ritual(self, s: GameState, d: Draft, p: int, path: list[int]) -> bool:
        """What a Land Ritual does to the Trees on its path, when the variant changes it."""
        return False

    def on_market_refill(self, d: Draft, deck: list[str]) -> None:
        """Before a card is turned up from ``deck`` into the Open Market."""

    def call_ancient(self, s: GameState, d: Draft, ancient: str) -> None:
        """Call Ancient, when ``calls_back`` says the variant handles it."""

    def end_turn(self, s: GameState, d: Draft) -> bool:
        """End of Turn, when the variant takes it over."""
        return False

    def on_end_turn(self, d: Draft) -> None:
        """At the end of each turn."""

    def on_game_over(self, d: Draft, waiting: list[Pending]) -> None:
        """The game ended at once, with these decisions still waiting."""


class Scoring:
    """What a variant changes in the scoring (None or False: the base game's, see
    :mod:`.scoring`)."""

    def team_scores(self, s: GameState) -> list[ScoreBreakdown] | None:
        """Each player's breakdown, when the variant replaces the points race (None: the
        base game's, see :func:`.scoring.scores`)."""
        return None

    def winners(self, s: GameState) -> list[int] | None:
        """Who wins a finished game, when the variant decides it (None: the best total)."""
        return None

    def free_ritual(self, s: GameState, card: Any) -> bool:
        """Whether this card's Creature Ritual costs no Weather Tokens."""
        return False

    def board_points(self, s: GameState, p: int) -> int | None:
        """``p``'s Player Board points in the final scoring (None: no Player Board)."""
        return None


class Pieces:
    """The variant's share of the invariants: the pieces its record holds, so that every piece
    of the game is accounted for, and its own checks."""

    def seeds_check(self, s: GameState, p: int) -> bool:
        """Check ``p``'s Seeds are conserved, when the variant counts them its own way."""
        return False

    def seeds_held(self, s: GameState, p: int) -> int:
        """Seeds of ``p`` the record holds beyond one per space (base count)."""
        return 0

    def weather_held(self, s: GameState, biome: str) -> int:
        return 0

    def blessings_held(self, s: GameState, kind: str) -> int:
        return 0

    def blessings_added(self, s: GameState, kind: str) -> int:
        """Blessings the variant brings into the game."""
        return 0

    def blessings_boxed(self, s: GameState, kind: str) -> bool:
        """Blessings of this kind left in the box."""
        return False

    def cards_held(self, s: GameState) -> tuple[str, ...]:
        return ()

    def favors_held(self, s: GameState, ancient: str) -> int:
        return 0

    def check_invariants(self, s: GameState) -> None:
        """Raise (``require``) if the record is out of order."""


class Heuristics:
    """What the computer players (:mod:`.players`) weigh differently in a variant."""

    #: whether a Seed put on the continent can be valued without playing the action out
    #: (False when the variant changes what sowing does)
    plain_sowing = True

    def points(self, s: GameState, p: int) -> int | None:
        """The points ``p``'s standing counts, when not its own on the mountain (None)."""
        return None

    def more_points(self, s: GameState, p: int) -> int:
        """Points the variant's pieces would give ``p`` (counted in the standing)."""
        return 0

    def treetops(self, s: GameState, p: int) -> int:
        """Treetops on ``p``'s own Trees (counted in the standing)."""
        return 0

    def value(self, s: GameState, a: Any, p: int, spot: Callable[[GameState, int, int], float]
              ) -> float | None:
        """How much the forester likes the variant's own action ``a`` (None: not one of
        them); ``spot(s, i, p)`` is how good space ``i`` is for a Seed of ``p``."""
        return None


class ArrangedRecord:
    """A variant's record while a position is placed by hand (see :mod:`.arrange`), made by
    :meth:`Arranging.start`: told of each Tree and Seed placed, it keeps its own pieces in
    step with them, and gives its record back at the end."""

    def tree(self, i: int, owner: int) -> None:
        """A Tree of ``owner`` (``NOBODY``: none) was placed on space ``i``."""

    def seed(self, i: int, owner: int) -> None:
        """One Seed of ``owner`` (``NOBODY``: none) was placed on space ``i``."""

    def stack(self, i: int, cell: Any, want: Mapping[Any, Any],
              player: Callable[[Any], int]) -> int | None:
        """Several Seeds on space ``i`` at ``cell``, ``{player: Seeds}``, checked (raise
        :class:`~pangaea_lab.core.errors.InvalidSetup`; ``player(q)`` checks a player
        number) and placed: the player whose Seed shows (``NOBODY``: none); None when the
        variant does not stack Seeds."""
        return None

    def blessings_from(self, kind: str) -> list[str] | None:
        """Where Blessings of this kind come from and go back to instead of the bag (the
        box, a list changed in place; None: the bag)."""
        return None

    def place_own(self, trees: list[int], players: list, changes: Mapping[str, Any],
                  space: Callable[[Any], int]) -> None:
        """The variant's own pieces asked for in ``changes``, placed once the Trees and
        Seeds stand (``players``, the players' states, may change; ``space(cell)`` is the
        space at a cell)."""

    def seed_supply(self, p: int) -> int | None:
        """The Seeds in ``p``'s supply, when the variant counts them its own way (None: the
        base game's)."""
        return None

    def record(self) -> dict[str, Any]:
        """The record with the pieces placed (``{field: record}``)."""
        return {}


class Arranging:
    """What a variant adds to a position placed by hand (:mod:`.arrange`): the pieces only it
    has, its checks of the pieces asked for, and its record kept in step with them."""

    #: the pieces only this variant has (an argument of ``arranged``, or ``"stacked Seeds"``:
    #: several Seeds on one space), each with the words refusing them in a game without it
    own_pieces: dict[str, str] = {}

    def check(self, s: GameState, changes: Mapping[str, Any]) -> None:
        """Raise :class:`~pangaea_lab.core.errors.InvalidSetup` for pieces asked for that the
        variant leaves out of the game."""

    def start(self, s: GameState) -> ArrangedRecord | None:
        """The variant's record while pieces are placed on ``s`` (None: it keeps none)."""
        return None


#: each group of hooks, by the name a variant holds it under
GROUPS: dict[type, str] = {Listing: "listing", Seeds: "seeds", Turn: "turn", Scoring: "scoring",
                           Pieces: "pieces", Heuristics: "players", Arranging: "arranging"}


class Variant:
    """A variant: what it is called, how a game chooses it, its record, and its hooks.

    Its own methods are about choosing it and setting it up (``chosen``, ``check_setup``,
    ``setup_steps``), whether a state plays it (``is_on``) and its words in a player's summary
    (``summary``).  The hooks where it changes the game are grouped in small objects, one per
    concern, each a class of this module whose methods change nothing until a variant gives
    its own (a subclass, named in its ``hooks``):

    * ``listing`` (:class:`Listing`): the actions listed and checked;
    * ``seeds`` (:class:`Seeds`): Seeds, Trees and Weather on the working copy;
    * ``turn`` (:class:`Turn`): the record's working copy, the Ancients, the Rituals' rewards,
      the market, the End of Turn and the end of the game;
    * ``scoring`` (:class:`Scoring`): team scores, winners, free Rituals, Player Board points;
    * ``pieces`` (:class:`Pieces`): its share of the invariants;
    * ``players`` (:class:`Heuristics`): what the computer players weigh in it;
    * ``arranging`` (:class:`Arranging`): what it adds to a position placed by hand.

    Its drawing is kept above the rules, in its own drawing module, which registers a
    :class:`~.render.Drawing` with :mod:`.render` (the rules draw nothing).

    Class attributes declare what it adds or takes away: ``decisions`` (kind: (words
    completing "... must first", rule)), ``checks`` and ``handlers`` of its own actions,
    ``guardians`` (False when the Ancient Guardians, Favor Tokens and Ritual Chains are left
    out), ``market_favors`` (False when new market cards get no Favor Token), ``summit_ends``
    (False when reaching the summit or running out of cards does not end the game) and
    ``hand_rituals`` (False when nobody holds Hand Rituals)."""

    name = ""
    #: where it comes in the order the rules ask the variants
    order = 0
    #: the field of the state that holds the variant's record ("" for none)
    record = ""
    #: the section of a save that holds the record: the record writes itself (``to_save``)
    #: and the save schema in :mod:`.state` reads it back, as the state imports nothing
    #: above it
    section = ""
    #: whether its setup replaces the base game's (its steps are made from none)
    own_setup = False
    decisions: dict[str, tuple[str, str]] = {}
    checks: dict[type, Callable[[GameState, Any], None]] = {}
    handlers: dict[type, Callable[[GameState, Draft, Any], None]] = {}
    guardians = True
    market_favors = True
    summit_ends = True
    hand_rituals = True
    listing = Listing()
    seeds = Seeds()
    turn = Turn()
    scoring = Scoring()
    pieces = Pieces()
    players = Heuristics()
    arranging = Arranging()
    #: the groups of hooks a variant fills in: classes of its own, each extending one of the
    #: groups above, which it takes the place of (the others stay the base's, changing nothing)
    hooks: tuple[type, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for group in cls.hooks:
            name = next((GROUPS[base] for base in group.__mro__ if base in GROUPS), None)
            if name is None:
                raise TypeError(f"{cls.__name__}'s hooks {group.__name__} extend no group "
                                f"of hooks ({', '.join(k.__name__ for k in GROUPS)})")
            setattr(cls, name, group())

    def is_on(self, s: GameState) -> bool:
        """Whether the variant is played in this game (its record is on the state)."""
        return getattr(s, self.record, None) is not None

    # ----- setup -----------------------------------------------------------------------------

    def chosen(self, options: dict[str, Any]) -> bool:
        """Whether the options of ``new_game`` choose the variant."""
        return False

    def check_setup(self, options: dict[str, Any]) -> None:
        """Raise :class:`~pangaea_lab.core.errors.InvalidSetup` when the options of
        ``new_game`` (with ``players`` and the loaded ``edition``) do not fit the variant."""

    def setup_steps(self, steps: list[SetupStep], seed: int | str,
                    options: dict[str, Any]) -> list[SetupStep]:
        """Game Setup with the variant: ``steps`` (those so far) with the variant's own after
        them, or in their place (``options`` are those of ``new_game``)."""
        return steps

    # ----- words ---------------------------------------------------------------------------------

    def summary(self, s: GameState, p: int) -> str:
        """More about a player, for the widget's player line."""
        return ""


_REGISTERED: list[Variant] = []
_ACTIVE: dict[tuple[bool, ...], tuple[Variant, ...]] = {}
#: the fields of the state that hold the registered variants' records
_RECORDS: list[str] = []


def register(variant: Variant) -> Variant:
    """Make a variant known to the rules (each variant's module does it once)."""
    _REGISTERED.append(variant)
    _REGISTERED.sort(key=lambda v: v.order)
    _ACTIVE.clear()
    _RECORDS[:] = [v.record for v in _REGISTERED if v.record]
    return variant


def registered() -> tuple[Variant, ...]:
    return tuple(_REGISTERED)


def active(s: GameState) -> tuple[Variant, ...]:
    """The variants ``s`` plays, in order: the one place that asks whether a variant is on.
    Asked many times per position, the answer is kept with the state (variants register
    when the package is imported, before any state is made)."""
    got = getattr(s, "_active", None)
    if got is None:
        key = (s.family, *[getattr(s, name) is not None for name in _RECORDS])
        got = _ACTIVE.get(key)
        if got is None:
            got = _ACTIVE[key] = tuple(v for v in _REGISTERED if v.is_on(s))
        keep(s, "_active", got)
    return got


def hand_on_variants(before: GameState, after: GameState) -> None:
    """``after`` (made from ``before`` by an action) keeps ``before``'s answer of
    :func:`active` when it plays the same variants (the same rules, records on and off
    alike)."""
    got = getattr(before, "_active", None)
    if got is None or after.family != before.family:
        return
    for name in _RECORDS:
        if (getattr(after, name) is None) is not (getattr(before, name) is None):
            return
    keep(after, "_active", got)


def guardians(s: GameState) -> bool:
    """The Ancient Guardians, Favor Tokens and Ritual Chains are in the game."""
    for v in active(s):
        if not v.guardians:
            return False
    return True


def hand_rituals(s: GameState) -> bool:
    """Players hold Hand Rituals (not in Return of the Ancients)."""
    for v in active(s):
        if not v.hand_rituals:
            return False
    return True


class FamilyPieces(Pieces):
    """The family game's pieces: the Call Ancient Blessings boxed, no Ancients on the
    continent, no Favor Tokens."""

    def blessings_boxed(self, s: GameState, kind: str) -> bool:
        return kind in FAMILY_BOXED_BLESSINGS

    def check_invariants(self, s: GameState) -> None:
        require(s.ancients == (NOBODY,) * 3 and not s.favor_bag and not any(
            sum(ps.favors) for ps in s.players) and set(s.market_favors) == {None},
                "the family game has no Ancients and no Favor Tokens")


class FamilyArranging(Arranging):
    """No Favor Tokens, Ritual Chains, Ancients or Call Ancient Blessings placed by hand in
    the family game."""

    def check(self, s: GameState, changes: Mapping[str, Any]) -> None:
        if changes["favors"] or changes["chains"] or changes["ancients"]:
            raise InvalidSetup("the family game has no Favor Tokens, Ritual Chains or Ancients")
        if any(want.get("Call Ancient") for want in (changes["blessings"] or {}).values()
               if isinstance(want, Mapping)):
            raise InvalidSetup("the family game has no Call Ancient Blessings: they stay in the "
                               "box (assumption 'family-no-call-ancient')")


class FamilyRules(Variant):
    """The family rules: no Ancient Guardians, Favor Tokens or Ritual Chains, and the Call
    Ancient Blessings stay in the box (assumption 'family-no-call-ancient').  The state's
    ``family`` field is its whole record; the base game's setup reads it."""

    name = "family rules"
    guardians = False
    market_favors = False
    hooks = (FamilyPieces, FamilyArranging)

    def is_on(self, s: GameState) -> bool:
        return s.family

    def chosen(self, options: dict[str, Any]) -> bool:
        return bool(options.get("family"))


FAMILY = register(FamilyRules())
