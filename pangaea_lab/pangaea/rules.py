"""Legal actions and their effects: the turn structure of The Dawn of Pangaea.

:func:`legal_actions` lists what the current player may do; :func:`why` says which rule
forbids an action (the game's front door asks it before anything changes); the handlers in
:data:`HANDLERS` apply an action to a :class:`.draft.Draft` (a mutable working copy), so one
action is applied as a whole or not at all; :func:`check_invariants` checks that no piece was
lost or doubled.  Rule sections are named as in the rulebook.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import combinations, filterfalse, product
from typing import Any

from ..core.engine import Handlers, is_listed_object
from ..core.errors import IllegalAction, InvalidData
from ..core.exercises import a as article, plural
from ..core.memo import keep, kept_property, kept_table
from ..core.rng import make_rng
from ..core.validate import require
from . import scoring
from .actions import (DECISION, MAIN, ActivateFavor, BlessCallAncient, BlessFlyingSeed,
                      BlessVigorousSeed, ConvertFavor, DrawFromDeck, EndTurn, ExchangeWeather,
                      ExpandForest, FlyingSeed, MoveOkuma, MoveTree, PangaeaAction, PlaceAncient,
                      PlaceInChain, PlayCreature, PlayLand, SpiritGrowth, SummonAncient,
                      TakeBackSeed, TakeBlessing, TakeMarketCard, expand_one, per_space)
# trees_holder belongs to the working copy; still importable from here as before
from .draft import Draft, trees_holder  # noqa: F401
from .edition import ANCIENTS, BLESSING_KINDS, CreatureCard, LandCard
from .rituals import NOBODY, RitualOption, checked_option
# rank_rituals and ritual_points are scoring; still importable from here as before
from .scoring import payments, ritual_points  # noqa: F401
from .state import (PLAYER_NAMES, GameState, Pending, draw_card, has_real_cards, is_storm,
                    market_slots)
from .variant import Variant, hand_on_variants
from .variants import (DECISION_OWNER, VARIANTS, active, free_ritual, guardians,  # noqa: F401
                       rank_rituals, ritual_actions)

OKUMA, CHELON, THORONDAL = range(3)

FLY, VIGOR, CALL, WILD = (BLESSING_KINDS.index(k) for k in
                          ("Flying Seed", "Vigorous Seed", "Call Ancient", "Wild Weather"))


# ----------------------------------------------------------------------------------------------
# listing legal actions


def _empty_land(s: GameState) -> list[int]:
    """The Land Spaces with neither a Tree nor a Seed, in board order (kept with the state,
    and handed on to the next state when an action moved no Tree and no Seed)."""
    got = getattr(s, "_empty_land", None)
    if got is None:
        trees, seeds = s.trees, s.seeds
        got = keep(s, "_empty_land",
                   tuple([i for i in s.board.land if trees[i] == NOBODY and seeds[i] == NOBODY]))
    return list(got)


def _expand_targets(s: GameState, player: int) -> list[int]:
    made = _made(s.board)
    trees, seeds = s.trees, s.seeds
    land_near = made.land_near
    # the Land Spaces next to the player's Trees
    near = {j for i in made.land if trees[i] == player for j in land_near[i]}
    pairs = _second_seed_spaces(s, player)
    return sorted([j for j in near
                   if trees[j] == NOBODY and (seeds[j] == NOBODY or j in pairs)])


def _second_seed_spaces(s: GameState, player: int) -> list[int]:
    """Spaces with the player's Seed where a variant lets a second one go (Healing Scourge)."""
    out: list[int] = []
    for v in active(s):
        out += v.listing.second_seed_spaces(s, player)
    return out


def _spirit_targets(s: GameState, player: int) -> list[int]:
    taken = {i for p, i in enumerate(s.spirits) if p != player and i != NOBODY}
    for v in active(s):
        taken.update(v.listing.barred_water(s))
    return list(filterfalse(taken.__contains__, s.board.water))


#: the free actions that name no space, made once (actions are values)
_EXCHANGES: dict[tuple[str, str], ExchangeWeather] = {}
_CALLS = {a: BlessCallAncient(a) for a in ANCIENTS}
#: (the index of the Ancient given, the Ancient taken, the action), in listing order
_CONVERTS = [(gi, t, ConvertFavor(g, t)) for (gi, g), t in product(enumerate(ANCIENTS), ANCIENTS)
             if g != t]
_SUMMONS = {a: SummonAncient(a) for a in ANCIENTS}
_END_TURN = EndTurn()


def _exchanges(biomes: tuple[str, ...]) -> list[tuple[int, int, ExchangeWeather]]:
    """Every Most Trees exchange between two biomes, as ``(give, take, action)`` (biome
    indices), in listing order."""
    got = _EXCHANGES.get(biomes)
    if got is None:
        got = _EXCHANGES[biomes] = [
            (gi, ti, ExchangeWeather(g, t))
            for (gi, g), (ti, t) in product(enumerate(biomes), repeat=2) if gi != ti]
    return got


def _free_actions(s: GameState, player: int) -> list[PangaeaAction]:
    ps = s.players[player]
    made = _made(s.board)
    variants = active(s)
    out: list[PangaeaAction] | None = None
    for v in variants:
        out = v.listing.seed_free_actions(s, player)
        if out is not None:
            break
    else:
        seeds, take_back = s.seeds, made.take_back
        out = [take_back[i] for i in made.land if seeds[i] == player]
        if ps.blessings[FLY] and ps.seeds:
            flying = made.bless_flying
            out += [flying[i] for i in _empty_land(s)]
    if ps.blessings[VIGOR]:
        seeds, vigorous = s.seeds, made.vigorous
        out += [vigorous[i] for i in made.land if seeds[i] != NOBODY]
    if s.most_trees == player and not s.exchange_used:
        weather, supply = ps.weather, s.weather_supply
        out += [a for gi, ti, a in _exchanges(s.edition.biomes)
                if weather[gi] > 0 and supply[ti] > 0]
    if not guardians(s):
        return out
    if ps.blessings[CALL]:
        out += [_CALLS[a] for a in ANCIENTS if summonable(s, a, player)
                or _calls_back(s, a) is not None]
    favors = ps.favors
    if any(favors):   # a Favor Token to activate (or to convert) is held
        # the Ancients a held token could summon now (asked once each, not once per card)
        callable_now = [a for k, a in enumerate(ANCIENTS)
                        if favors[k] and summonable(s, a, player)]
        if callable_now:
            done = {c for c, _ in ps.activated}
            for card_id in ps.played:
                if card_id in done:
                    continue
                for a in favor_types(s, player, card_id):
                    if a in callable_now:
                        out.append(ActivateFavor(card_id, a))
        if max(favors) >= 2:
            bag = s.favor_bag
            out += [a for g, t, a in _CONVERTS if favors[g] >= 2 and t in bag]
    for v in variants:
        out += v.listing.free_actions(s, player)
    return out


def _decision_actions(s: GameState, pend: Pending) -> list[PangaeaAction]:
    b = s.board
    owner = DECISION_OWNER.get(pend.kind)
    if owner is not None:
        return owner.listing.decision_actions(s, pend)
    if pend.kind == "draw":
        out: list[PangaeaAction] = [TakeMarketCard(c) for c in s.market if c is not None]
        if has_real_cards(s.land_deck):
            out.append(DrawFromDeck("land"))
        if has_real_cards(s.creature_deck):
            out.append(DrawFromDeck("creature"))
        return out
    if pend.kind == "move":
        target = pend.targets[0]
        return [MoveTree(b.cells[i], b.cells[target]) for i in b.land
                if s.trees[i] == pend.player and i not in pend.grown
                and i != s.ancients[THORONDAL]]
    if pend.kind == "okuma":
        return [MoveOkuma(b.cells[i]) for i in okuma_steps(s.board, s.trees, s.ancients[OKUMA])]
    if pend.kind == "summon":
        return placements(s, pend.ancient, pend.player)
    if pend.kind == "chain":
        chains = s.players[pend.player].chains
        return [PlaceInChain(pend.card, k, side)
                for k, side in chain_options(s, chains, pend.card)]
    # "ecosystem": a Blessing of any kind in the discard pile
    return [TakeBlessing(k) for k in BLESSING_KINDS if k in s.blessing_discard]


def okuma_steps(board, trees: tuple[int, ...] | list[int], at: int) -> list[int]:
    """Okuma passive: the land spaces next to Okuma with no Tree (empty, or only a Seed)."""
    return [j for j in board.neighbours[at] if board.terrain[j] == "land" and trees[j] == NOBODY]


def placements(s: GameState, ancient: str, player: int) -> list[PangaeaAction]:
    """Every place a summoned Ancient can go, with the space of its direct effect."""
    b = s.board
    here = s.ancients[ANCIENTS.index(ancient)]
    out: list[PangaeaAction] = []
    if ancient == "Okuma":   # an empty Land Space; the player takes a Weather Token of it
        return [PlaceAncient(ancient, b.cells[i]) for i in _empty_land(s) if i != here]
    if ancient == "Chelon":  # any Water Space; then grow one Seed next to it
        for i in b.water:
            if i == here:
                continue
            seeds = [j for j in b.neighbours[i] if s.seeds[j] != NOBODY]
            out += ([PlaceAncient(ancient, b.cells[i], b.cells[j]) for j in seeds]
                    or [PlaceAncient(ancient, b.cells[i])])
        return out
    # Thorondal: on any player's Tree; then one of your Seeds next to it
    for i in b.land:
        if i == here or s.trees[i] == NOBODY:
            continue
        spots = [j for j in b.neighbours[i] if b.terrain[j] == "land"
                 and s.trees[j] == NOBODY and s.seeds[j] == NOBODY] if s.players[player].seeds else []
        out += ([PlaceAncient(ancient, b.cells[i], b.cells[j]) for j in spots]
                or [PlaceAncient(ancient, b.cells[i])])
    return out


def chain_options(s: GameState, chains, card_id: str) -> list[tuple[int, str]]:
    """Ritual Chains: the chain ends a card can join (touching top corners both show a white
    wind); ``[(-1, "right")]`` (a new chain) when it joins none."""
    new = s.card(card_id)
    out = []
    for k, chain in enumerate(chains):
        if "L" in new.winds and "R" in s.card(chain[-1]).winds:
            out.append((k, "right"))
        if "R" in new.winds and "L" in s.card(chain[0]).winds:
            out.append((k, "left"))
    return out or [(-1, "right")]


def favor_types(s: GameState, player: int, card_id: str) -> list[str]:
    """Activating Favor Tokens: the types a played card accepts.  A Creature card takes its
    own Ancient; a Land card takes the Ancient of a Creature card next to it in its chain."""
    card = s.card(card_id)
    if isinstance(card, CreatureCard):
        return [card.ancient]
    out: set[str] = set()
    for chain in s.players[player].chains:
        if card_id in chain:
            k = chain.index(card_id)
            for j in (k - 1, k + 1):
                if 0 <= j < len(chain):
                    other = s.card(chain[j])
                    if isinstance(other, CreatureCard):
                        out.add(other.ancient)
    return [a for a in ANCIENTS if a in out]


def summonable(s: GameState, ancient: str, player: int) -> bool:
    """True when the Ancient has somewhere new to go (the same test as :func:`placements`,
    without listing them); a variant may keep an Ancient away (Returned Ancients: only an
    Ancient back from exile can be summoned).  The answer does not depend on the player; it
    is kept with the state, per Ancient (asked several times while listing)."""
    kept = kept_table(s, "_summonable")
    got = kept.get(ancient)
    if got is None:
        got = kept[ancient] = summonable_afresh(s, ancient)
    return got


def summonable_afresh(s: GameState, ancient: str) -> bool:
    """:func:`summonable` worked out afresh."""
    for v in active(s):
        if not v.listing.may_summon(s, ancient):
            return False
    here = s.ancients[ANCIENTS.index(ancient)]
    b = s.board
    trees = s.trees
    if ancient == "Okuma":   # an empty Land Space other than Okuma's own
        empty = _empty_land(s)
        return len(empty) > 1 or (len(empty) == 1 and empty[0] != here)
    if ancient == "Chelon":   # a Water Space other than Chelon's own
        water = b.water
        return len(water) > 1 or (len(water) == 1 and water[0] != here)
    if trees.count(NOBODY) == len(trees):   # no Tree at all
        return False
    for i in b.land:   # a Tree other than on the Ancient's own space
        if trees[i] != NOBODY and i != here:
            return True
    return False


class _Made:
    """The growth actions of one board's spaces, in board order, listed again and again
    (actions are values: a listed action equals one made afresh, label and all; those of one
    space are made once for every board, see :func:`.actions.per_space`), and the board's
    Land Spaces as the listing reads them."""

    def __init__(self, board) -> None:
        self.board = board
        self.cells = board.cells
        self.pairs: dict[int, ExpandForest] = {}
        self.land = board.land

    @kept_property
    def flying(self) -> list[FlyingSeed]:
        return per_space(FlyingSeed, self.cells)

    @kept_property
    def expand(self) -> list[ExpandForest]:
        return per_space(expand_one, self.cells)

    @kept_property
    def spirit(self) -> list[SpiritGrowth]:
        return per_space(SpiritGrowth, self.cells)

    @kept_property
    def take_back(self) -> list[TakeBackSeed]:
        return per_space(TakeBackSeed, self.cells)

    @kept_property
    def bless_flying(self) -> list[BlessFlyingSeed]:
        return per_space(BlessFlyingSeed, self.cells)

    @kept_property
    def land_near(self) -> tuple[tuple[int, ...], ...]:
        """Each space's neighbours on land."""
        terrain = self.board.terrain
        return tuple(tuple(j for j in near if terrain[j] == "land")
                     for near in self.board.neighbours)

    @kept_property
    def vigorous(self) -> list[BlessVigorousSeed]:
        return per_space(BlessVigorousSeed, self.cells)

    def expand_pairs(self, targets: list[int]) -> list[ExpandForest]:
        """Expand Forest with two Seeds on each pair of ``targets``, in their order."""
        pairs, cells, n = self.pairs, self.cells, len(self.cells)
        out = []
        for i, j in combinations(targets, 2):
            got = pairs.get(i * n + j)
            if got is None:
                got = pairs[i * n + j] = ExpandForest((cells[i], cells[j]))
            out.append(got)
        return out


@lru_cache(maxsize=64)
def _made(board) -> _Made:
    return _Made(board)


def legal_actions(s: GameState) -> list[PangaeaAction]:
    """Every action the current player may take now."""
    if s.phase == "over":
        return []
    b = s.board
    if s.decisions:
        return _decision_actions(s, s.decisions[0])
    p = s.turn_player
    ps = s.players[p]
    out = []
    if s.phase == "main" and s.actions_taken < 2:
        variants = active(s)
        seeds = None
        for v in variants:
            seeds = v.listing.seed_actions(s, p)
            if seeds is not None:
                break
        made = _made(b)
        if seeds is not None:
            out += seeds
        elif ps.seeds:
            flying = made.flying
            out += [flying[i] for i in _empty_land(s) + _second_seed_spaces(s, p)]
            targets = _expand_targets(s, p)
            expand = made.expand
            out += [expand[i] for i in targets]
            if ps.seeds >= 2:
                out += made.expand_pairs(targets)
        for v in variants:
            out += v.listing.main_actions(s, p)
        spirit = made.spirit
        out += [spirit[i] for i in _spirit_targets(s, p)]
        out += ritual_actions(s, p)
        if guardians(s):
            out += [_SUMMONS[a] for a in ANCIENTS if summonable(s, a, p)]
    elif s.phase == "final" and not s.final_ritual_done:
        out += ritual_actions(s, p)
    out += _free_actions(s, p)
    if s.phase == "final" or s.actions_taken == 2:
        out.append(_END_TURN)
    return out


# ----------------------------------------------------------------------------------------------
# applying actions


def _grow(d: Draft, spaces: list[int], forced: bool = False) -> None:
    """Seeds on these spaces grow into their owners' Trees (Spirit Growth, Moving Trees); if
    the Seed under Okuma grew, Okuma moves on."""
    s = d.s
    waiting: list[tuple[int, int]] = []
    grown: list[int] = []
    for i in sorted(spaces):
        owner = d.seeds[i]
        if owner == NOBODY or not all(v.seeds.may_grow(d, i, forced) for v in d.variants):
            continue
        for v in d.variants:   # e.g. Healing Scourge
            v.seeds.on_growth(d, i, owner)
        d.return_seeds(i)      # Seed Competition: every Seed returns, the majority grows
        grown.append(i)
        if d.players[owner].trees > 0:
            d.players[owner].trees -= 1
            d.trees[i] = owner
            d.gain_weather(owner, i, grow=True)
        else:
            waiting.append((owner, i))
    if waiting:
        # Moving Trees: each owner without Trees in supply moves one of theirs per Seed; the
        # decisions are taken one at a time, in board order.
        d.push(Pending("move", waiting[0][0], tuple(i for _, i in waiting),
                       tuple(o for o, _ in waiting), tuple(grown)))
    okuma = d.ancients[OKUMA]
    if okuma in grown:
        steps = okuma_steps(s.board, d.trees, okuma)
        if len(steps) == 1:
            d.ancients[OKUMA] = steps[0]
            _entered(d, "Okuma", steps[0])
        elif steps:
            d.push(Pending("okuma", s.turn_player))


def _entered(d: Draft, ancient: str, i: int) -> None:
    for v in d.variants:
        v.turn.on_ancient_entered(d, ancient, i)


def why(s: GameState, action: PangaeaAction) -> IllegalAction | None:
    """The rule that forbids ``action`` now, as an :class:`IllegalAction` (``None`` when the
    turn structure allows it): the game is not over; a waiting decision is answered first,
    and only with one of its choices; a main action needs an action left this turn (in the
    final round only one last Ritual); a Ritual is judged by its own card, payment and path
    (a Land Ritual by :func:`~.rituals.checked_option`, never by a list, since pairs of Trees
    joined by very many paths are listed one path per score).  What else an action needs
    (a free space, a Blessing held ...) its handler checks before it changes anything.
    The very action the state listed is allowed at once (the listing made it by these rules)."""
    if is_listed_object(s, action):
        return None
    if s.phase == "over":
        return IllegalAction("The game is over; no more actions can be taken.",
                             rule="End of the Game")
    pend = s.pending
    if pend is not None and action.tier != DECISION:
        return s.reject(f"A decision is waiting: {pend.words()}", rule=pend.rule)
    if pend is None and action.tier == DECISION:
        return s.reject("No decision is waiting right now.", rule="Gameplay Overview")
    if pend is not None and action not in _decision_actions(s, pend):
        return s.reject(f"That is not one of the choices: {PLAYER_NAMES[pend.player]} must "
                        f"{pend.must}.", rule=pend.rule)
    if action.tier == MAIN:
        if s.phase == "final":
            if not isinstance(action, (PlayCreature, PlayLand)):
                return s.reject("In the final round only one last Ritual Card may be played; "
                                "regular actions are not allowed.", rule="Final Scoring")
            if s.final_ritual_done:
                return s.reject("You already played your final Ritual Card.",
                                rule="Final Scoring")
        elif s.actions_taken >= 2:
            return s.reject("You have already taken your 2 actions this turn; use free actions "
                            "or end your turn.", rule="Gameplay Overview")
    if isinstance(action, (PlayCreature, PlayLand)):
        return _ritual_refusal(s, action)
    for v in active(s):
        refusal = v.listing.refusal(s, action)
        if refusal is not None:
            return refusal
    check = _CHECKS.get(type(action))
    if check is not None:
        try:
            check(s, action)
        except IllegalAction as refusal:
            return refusal
    return None


def _ritual_refusal(s: GameState, a: PlayCreature | PlayLand) -> IllegalAction | None:
    """Why a Ritual cannot be performed: the card (of the right kind, in the hand or the
    market), then the payment of a Creature Ritual or the path of a Land Ritual."""
    p = s.turn_player
    try:
        card = _ritual_card(s, a.card, CreatureCard if isinstance(a, PlayCreature) else LandCard)
    except IllegalAction as refusal:
        return refusal
    if isinstance(a, PlayLand):
        option = checked_option(s.position, p, card, a.path)
        if not isinstance(option, RitualOption):
            return s.reject(option, rule="Land Rituals", like=PlayLand)
        return _source_refusal(s, a)
    ps = s.players[p]
    biomes = s.edition.biomes
    pay = dict(a.pay)
    if (not set(pay) <= set(biomes) or len(pay) != len(a.pay)
            or any(not isinstance(n, int) or n < 0 for n in pay.values())):
        return IllegalAction(f"PlayCreature.pay: a payment names each kind of Weather Token of "
                             f"{list(biomes)} once, with a count.", rule="Creature Rituals")
    tokens = tuple(pay.get(b, 0) for b in biomes)
    options = ({((), 0)} if free_ritual(s, card)   # a returned Ancient's card is free
               else set(payments(card, ps.weather, ps.blessings[WILD], biomes)))
    if (tuple((b, t) for b, t in zip(biomes, tokens) if t), a.wild_blessings) not in options:
        return s.reject(f"That payment does not match {card.title} with what you hold "
                        f"(you have {dict(zip(biomes, ps.weather))} and "
                        f"{ps.blessings[WILD]} Wild Weather).", rule="Creature Rituals",
                        like=PlayCreature)
    return _source_refusal(s, a)


def _source_refusal(s: GameState, a: PlayCreature | PlayLand) -> IllegalAction | None:
    """A Ritual card is played from the player's hand or from the Open Market."""
    if a.from_market and a.card not in s.market:
        return s.reject(f"{a.card} is not in the Open Market.", rule="Play a Ritual Card")
    if not a.from_market and a.card not in s.players[s.turn_player].hand:
        return s.reject(f"{a.card} is not in your hand.", rule="Play a Ritual Card")
    return None


#: the function that applies each type of action (``GAME.apply`` asks :func:`why` first)
HANDLERS = Handlers("The Dawn of Pangaea")


def _handler(*types: type) -> Any:
    """Register ``do(state, draft, action)`` as the handler of ``types``: the draft is made
    from the state, the decision the action answers is taken off it, ``do`` changes it, and
    the new state is frozen (then the end trigger is checked)."""
    def register(do: Any) -> Any:
        def handle(s: GameState, action: PangaeaAction) -> GameState:
            d = Draft(s, active(s))
            if action.tier == DECISION:
                d.decisions.pop(0)   # the decision this action answers
            do(s, d, action)
            if action.tier == MAIN and s.phase == "main":   # Flying Seeds together use both
                d.fields["actions_taken"] = s.actions_taken + getattr(action, "actions", 1)
            new = d.freeze()
            hand_on_variants(s, new)     # the same variants (see variant.active)
            return _share_position(s, _after(new))
        HANDLERS.on(*types)(handle)
        return do
    return register


def _share_position(s: GameState, new: GameState) -> GameState:
    """The new state takes over the old one's position (:attr:`GameState.position`, with
    the Land Rituals kept on it) when the action moved nothing a position holds (see
    :meth:`GameState.share_position`)."""
    new.share_position(s)
    return new


def _after(s: GameState) -> GameState:
    """Checks that follow any action: the end trigger on the mountain."""
    if s.phase != "main" or s.end_triggered:
        return s
    for v in active(s):
        if not v.summit_ends:
            return s
    summit = s.edition.summit_steps
    for p, ps in enumerate(s.players):
        if ps.creature_points + ps.land_points >= summit:   # the player's points
            return replace(s, end_triggered=True,
                           end_reason=f"{PLAYER_NAMES[p]} reached the top of the Sacred Mountain")
    if (not any(s.market) and not any(ps.hand for ps in s.players)
            and not has_real_cards(s.land_deck) and not has_real_cards(s.creature_deck)):
        return replace(s, end_triggered=True,
                       end_reason="no Ritual Card is left (assumption 'cards-exhausted')")
    return s


# ----- main actions ------------------------------------------------------------------------------


def _check_flying_seed(s: GameState, a: FlyingSeed | BlessFlyingSeed) -> None:
    i = s.board.action_space(a.cell, "Flying Seed")
    p = s.turn_player
    rule = "Flying Seed"
    if isinstance(a, BlessFlyingSeed):
        rule = "Blessing Tokens: Flying Seed"
        if not s.players[p].blessings[FLY]:
            raise s.reject("You hold no Flying Seed Blessing.", rule="Blessing Tokens")
    if s.players[p].seeds == 0:
        raise s.reject("You have no Seed left in your supply (take one back first).", rule=rule)
    if s.board.terrain[i] != "land":
        raise s.reject(f"{s.board.cells[i]} is a Water Space; Seeds go on Land Spaces only.",
                       rule=rule, like=type(a))
    if any(v.listing.check_flying_seed(s, a, i, p, rule) for v in active(s)):
        return
    if getattr(a, "blessings", 0) or getattr(a, "actions", 1) != 1 or getattr(a, "count", 1) != 1:
        raise s.reject("Several Flying Seeds land together only in Wild Woods (Seed "
                       "Competition); in the base game each places 1 Seed.", rule=rule,
                       like=type(a))
    pair = i in _second_seed_spaces(s, p)
    if (s.trees[i] != NOBODY or s.seeds[i] != NOBODY) and not pair:
        raise s.reject(f"{s.board.cells[i]} is already taken by a Tree or a Seed.", rule=rule,
                       like=type(a))


def _do_flying_seed(s: GameState, d: Draft, a: FlyingSeed | BlessFlyingSeed) -> None:
    i = s.board.cell_of(a.cell)
    p = s.turn_player
    if any(v.seeds.flying_seed(d, a, i, p) for v in d.variants):
        return
    second = s.seeds[i] == p
    if isinstance(a, BlessFlyingSeed):
        d.players[p].blessings[FLY] -= 1
        d.blessing_discard.append("Flying Seed")
    d.seeds[i] = p
    d.players[p].seeds -= 1
    if second:   # e.g. Healing Scourge: a second Seed on a scourged Land Space
        for v in d.variants:
            v.seeds.second_seed(d, i)


def _check_expand(s: GameState, a: ExpandForest) -> None:
    p = s.turn_player
    rule = "Expand Forest"
    if not isinstance(a.cells, tuple) or not 1 <= len(a.cells) <= 2:
        raise s.reject("Expand Forest places 1 or 2 Seeds.", rule=rule, like=ExpandForest)
    idx = [s.board.action_space(c, rule) for c in a.cells]
    if len(set(idx)) != len(idx):
        raise s.reject("Both Seeds cannot go on the same space.", rule=rule, like=ExpandForest)
    if s.players[p].seeds < len(idx):
        raise s.reject(f"You have only {plural(s.players[p].seeds, 'Seed')} in your supply.",
                       rule=rule, like=ExpandForest)
    targets = set(_expand_targets(s, p))
    for i in idx:
        if i not in targets:
            why = ("is not a Land Space" if s.board.terrain[i] != "land" else
                   "is already taken" if s.trees[i] != NOBODY or s.seeds[i] != NOBODY else
                   "is not next to one of your Trees")
            raise s.reject(f"{s.board.cells[i]} {why}.", rule=rule, like=ExpandForest)


def _do_expand(s: GameState, d: Draft, a: ExpandForest) -> None:
    p = s.turn_player
    idx = [s.board.cell_of(c) for c in a.cells]
    for i in idx:
        if s.seeds[i] == p:   # e.g. Healing Scourge: a second Seed on a scourged Land Space
            for v in d.variants:
                v.seeds.second_seed(d, i)
        d.seeds[i] = p
    d.players[p].seeds -= len(idx)


def _check_spirit_growth(s: GameState, a: SpiritGrowth) -> None:
    p = s.turn_player
    i = s.board.action_space(a.cell, "Spirit Growth")
    rule = "Spirit Growth"
    if s.board.terrain[i] != "water":
        raise s.reject(f"{s.board.cells[i]} is land; a Spirit moves to a Water Space.", rule=rule,
                       like=SpiritGrowth)
    for v in active(s):
        if i in v.listing.barred_water(s) and s.spirits[p] != i:
            raise s.reject(f"{s.board.cells[i]} is scourged; Spirits cannot enter scourged "
                           "water.", rule="Scourge", like=SpiritGrowth)
    if i in s.spirits and s.spirits.index(i) != p:
        raise s.reject(f"Another Spirit already stands on {s.board.cells[i]}.", rule=rule,
                       like=SpiritGrowth)


def _do_spirit_growth(s: GameState, d: Draft, a: SpiritGrowth) -> None:
    p = s.turn_player
    i = s.board.cell_of(a.cell)
    if s.spirits[p] != i:
        d.spirits[p] = i
        kind = d.board_blessings[i]
        if kind:  # a Blessing Token on the Water Space is taken
            d.board_blessings[i] = ""
            d.players[p].blessings[BLESSING_KINDS.index(kind)] += 1
    growing = [j for j in s.board.neighbours[i] if s.seeds[j] != NOBODY]
    okuma = s.ancients[OKUMA]
    if okuma != NOBODY and s.seeds[okuma] != NOBODY and okuma not in growing:
        growing.append(okuma)   # Okuma passive: the Seed on Okuma's space grows too
    _grow(d, growing)


def _check_vigorous(s: GameState, a: BlessVigorousSeed) -> None:
    p = s.turn_player
    i = s.board.action_space(a.cell, "Vigorous Seed")
    if not s.players[p].blessings[VIGOR]:
        raise s.reject("You hold no Vigorous Seed Blessing.", rule="Blessing Tokens")
    if s.seeds[i] == NOBODY:
        raise s.reject(f"There is no Seed on {s.board.cells[i]} to grow.",
                       rule="Blessing Tokens: Vigorous Seed", like=BlessVigorousSeed)


def _do_vigorous(s: GameState, d: Draft, a: BlessVigorousSeed) -> None:
    p = s.turn_player
    i = s.board.cell_of(a.cell)
    d.players[p].blessings[VIGOR] -= 1
    d.blessing_discard.append("Vigorous Seed")
    _grow(d, [i], forced=True)   # also heals a scourged space (Healing Scourge)


def _take_card(s: GameState, d: Draft, card_id: str, from_market: bool) -> None:
    p = s.turn_player
    if from_market:
        if card_id not in s.market:
            raise s.reject(f"{card_id} is not in the Open Market.", rule="Play a Ritual Card")
        slot = d.market.index(card_id)
        d.market[slot] = None
        d.collect_favor(p, slot)   # Step 3, option 2: the card's Favor Token
    else:
        if card_id not in s.players[p].hand:
            raise s.reject(f"{card_id} is not in your hand.", rule="Play a Ritual Card")
        d.players[p].hand.remove(card_id)
    d.players[p].played.append(card_id)
    if guardians(s):   # Step 2: Ritual Chains
        options = chain_options(s, s.players[p].chains, card_id)
        if len(options) == 1:
            _place_in_chain(s, d, p, card_id, *options[0])
        else:
            d.push(Pending("chain", p, card=card_id, amount=int(d.free_card == card_id)))
    if s.phase == "final":
        d.fields["final_ritual_done"] = True
    elif not from_market and (any(c is not None for c in d.market)
                              or has_real_cards(s.land_deck) or has_real_cards(s.creature_deck)):
        d.push(Pending("draw", p))


def _place_in_chain(s: GameState, d: Draft, p: int, card_id: str, chain: int, side: str) -> None:
    """Put a played card in a Ritual Chain; a Land card closing Creature cards between itself
    and another Land card creates an Ecosystem (a Blessing from the discard pile or the bag)."""
    chains = d.players[p].chains
    if chain < 0:
        chains.append([card_id])
        return
    row = chains[chain]
    if side == "left":
        row.insert(0, card_id)
        inward = row[1:]
    else:
        row.append(card_id)
        inward = row[-2::-1]
    for v in d.variants:   # e.g. +1 for a Creature next to one of the same Ancient
        v.turn.on_chain(s, d, p, card_id, inward[0] if inward else None)
    if not isinstance(s.card(card_id), LandCard):
        return
    creatures = 0
    for other in inward:
        if isinstance(s.card(other), LandCard):
            if creatures:
                _ecosystem(s, d, p)
            return
        creatures += 1


def _ecosystem(s: GameState, d: Draft, p: int) -> None:
    kinds = sorted({k for k in d.blessing_discard}, key=BLESSING_KINDS.index)
    if len(kinds) > 1:
        d.push(Pending("ecosystem", p))
    elif kinds:
        d.blessing_discard.remove(kinds[0])
        d.players[p].blessings[BLESSING_KINDS.index(kinds[0])] += 1
    elif d.blessing_bag:
        kind = d.blessing_bag.pop(0)
        d.players[p].blessings[BLESSING_KINDS.index(kind)] += 1


def _ritual_card(s: GameState, card_id: str, kind: type) -> Any:
    """The card an action names, checked to be of the right kind of Ritual."""
    try:
        card = s.card(card_id)
    except InvalidData as exc:
        raise IllegalAction(str(exc), rule="Play a Ritual Card") from None
    if not isinstance(card, kind):
        if kind is CreatureCard:
            raise IllegalAction(f"{card_id} is a Land Ritual; play it with a path of Trees.",
                                rule="Land Rituals")
        raise IllegalAction(f"{card_id} is a Creature Ritual; it is paid with Weather Tokens.",
                            rule="Creature Rituals")
    return card


def _do_creature(s: GameState, d: Draft, a: PlayCreature) -> None:
    """A Creature Ritual (its card and payment were checked by :func:`why`)."""
    p = s.turn_player
    card = s.card(a.card)
    pay = dict(a.pay)
    tokens = tuple(pay.get(b, 0) for b in s.edition.biomes)
    if free_ritual(s, card):   # a returned Ancient's Ritual costs nothing
        d.free_card = a.card
    _take_card(s, d, a.card, a.from_market)
    for k, n in enumerate(tokens):
        d.players[p].weather[k] -= n
        d.weather_supply[k] += n
    d.players[p].blessings[WILD] -= a.wild_blessings
    d.blessing_discard.extend(["Wild Weather"] * a.wild_blessings)
    if not any(v.turn.creature_ritual(s, d, p, card) for v in d.variants):
        d.players[p].creature_points += card.points   # (co-op: the Ancient climbs instead)


def _do_land(s: GameState, d: Draft, a: PlayLand) -> None:
    p = s.turn_player
    # legal by its own properties (ends, connection, shortest), checked by why()
    option = checked_option(s.position, p, s.card(a.card), a.path)
    require(isinstance(option, RitualOption), "a Land Ritual reached its handler unchecked")
    path = option.path
    _take_card(s, d, a.card, a.from_market)
    if not any(v.turn.land_reward(s, d, p, option.points) for v in d.variants):
        d.players[p].land_points += option.points   # (co-op: an Ancient climbs instead)
    spaces = [s.board.index[c] for c in path]
    if any(v.turn.on_land_ritual(s, d, p, spaces) for v in d.variants):
        return   # e.g. Wild Woods: Trees go down a level
    if s.phase != "final":  # the final round keeps Trees on the continent
        for c in path:
            i = s.board.index[c]
            if d.trees[i] == p and i != s.ancients[THORONDAL]:   # Thorondal protects
                d.remove_tree(i)


# ----- decisions ----------------------------------------------------------------------------------


def _do_take_market(s: GameState, d: Draft, a: TakeMarketCard) -> None:
    require(s.pending is not None)
    if a.card not in s.market:
        raise s.reject(f"{a.card} is not in the Open Market.", rule="Step 3: Draw New Card",
                       like=TakeMarketCard)
    slot = d.market.index(a.card)
    d.market[slot] = None
    d.players[s.pending.player].hand.append(a.card)
    d.collect_favor(s.pending.player, slot)


def _do_draw(s: GameState, d: Draft, a: DrawFromDeck) -> None:
    require(s.pending is not None)
    deck = {"land": d.land_deck, "creature": d.creature_deck}.get(a.deck)
    if deck is None:
        raise s.reject("Draw from the 'land' or the 'creature' deck.", rule="Step 3: Draw New Card")
    if not has_real_cards(deck):
        raise s.reject(f"The {a.deck} deck is empty.", rule="Step 3: Draw New Card",
                       like=DrawFromDeck)
    d.players[s.pending.player].hand.append(draw_card(deck))   # never a Storm
    if guardians(s):   # ... and a Favor Token from the bag
        token = d.draw_favor()
        if token is not None:
            d.players[s.pending.player].favors[ANCIENTS.index(token)] += 1


def _do_move_tree(s: GameState, d: Draft, a: MoveTree) -> None:
    pend = s.pending
    require(pend is not None)
    if pend.kind != "move":
        raise s.reject("No Tree needs moving now.", rule="Moving Trees")
    target = pend.targets[0]
    if s.board.action_space(a.target, "Moving Trees") != target:
        raise s.reject(f"The Tree must move to the growing Seed's space {s.board.cells[target]}.",
                       rule="Moving Trees", like=MoveTree)
    i = s.board.action_space(a.origin, "Moving Trees")
    if s.trees[i] != pend.player or i in pend.grown or i == s.ancients[THORONDAL]:
        raise s.reject(f"{s.board.cells[i]} does not hold a Tree of "
                       f"{PLAYER_NAMES[pend.player]} that may move.", rule="Moving Trees",
                       like=MoveTree)
    d.trees[i] = NOBODY
    d.trees[target] = pend.player
    for v in d.variants:   # e.g. the Tree keeps its Treetops
        v.seeds.on_tree_moved(d, i, target)
    d.gain_weather(pend.player, target, grow=True)  # assumption 'moved-tree-weather'
    if len(pend.targets) > 1:
        d.push(Pending("move", pend.owners[1], pend.targets[1:], pend.owners[1:], pend.grown))


# ----- free actions --------------------------------------------------------------------------------


def _check_take_back(s: GameState, a: TakeBackSeed) -> None:
    p = s.turn_player
    i = s.board.action_space(a.cell, "Take back a Seed")
    if any(v.listing.check_take_back(s, i, p) for v in active(s)):
        return
    if s.seeds[i] != p:
        raise s.reject(f"There is no Seed of yours on {s.board.cells[i]}.",
                       rule="Expand Forest (note on Seeds)", like=TakeBackSeed)


def _do_take_back(s: GameState, d: Draft, a: TakeBackSeed) -> None:
    p = s.turn_player
    i = s.board.cell_of(a.cell)
    if not any(v.seeds.take_back(d, i, p) for v in d.variants):
        d.seeds[i] = NOBODY
    d.players[p].seeds += 1


def _check_exchange(s: GameState, a: ExchangeWeather) -> None:
    p = s.turn_player
    rule = "Achievement: Most Trees"
    if s.most_trees != p:
        raise s.reject("Only the holder of the Most Trees marker may exchange a Weather Token.",
                       rule=rule)
    if s.exchange_used:
        raise s.reject("The Most Trees exchange is allowed once per turn.", rule=rule)
    biomes = s.edition.biomes
    if a.give not in biomes or a.take not in biomes or a.give == a.take:
        raise s.reject(f"Exchange one weather of {list(biomes)} for a different one.", rule=rule,
                       like=ExchangeWeather)
    g, t = biomes.index(a.give), biomes.index(a.take)
    if s.players[p].weather[g] == 0:
        raise s.reject(f"You hold no {a.give} token to give.", rule=rule, like=ExchangeWeather)
    if s.weather_supply[t] == 0:
        raise s.reject(f"The supply has no {a.take} token left.", rule=rule, like=ExchangeWeather)


def _do_exchange(s: GameState, d: Draft, a: ExchangeWeather) -> None:
    p = s.turn_player
    g, t = s.edition.biomes.index(a.give), s.edition.biomes.index(a.take)
    d.players[p].weather[g] -= 1
    d.weather_supply[g] += 1
    d.weather_supply[t] -= 1
    d.players[p].weather[t] += 1
    d.fields["exchange_used"] = True


def _check_end_turn(s: GameState, a: EndTurn) -> None:
    if s.phase == "main" and s.actions_taken < 2:
        raise s.reject(f"Take {plural(2 - s.actions_taken, 'more action')} first: every turn has "
                       "2 actions.", rule="Gameplay Overview")


def _do_end_turn(s: GameState, d: Draft, a: EndTurn) -> None:
    if any(v.turn.end_turn(s, d) for v in d.variants):
        return
    n = s.num_players
    if s.phase == "main":
        # 2 Land and 2 Creature Rituals, each new card with a Favor Token (full game)
        d.refill_market(market_slots(s), favors=all(v.market_favors for v in d.variants))
        for v in d.variants:
            v.turn.on_end_turn(d)
        nxt = (s.turn_player + 1) % n
        rnd = s.round + (1 if nxt == s.first_player else 0)
        d.fields.update(turn_player=nxt, actions_taken=0, exchange_used=False, round=rnd)
        if nxt == s.first_player:
            end = s.end_triggered
            reason = s.end_reason
            if not end and rnd > s.edition.round_limit:
                end, reason = True, f"{s.edition.round_limit} rounds were played (assumption 'round-limit')"
            if end:  # the round is complete: Final Scoring begins with the starting player
                d.fields.update(phase="final", end_triggered=True, end_reason=reason,
                                final_ritual_done=False)
    else:
        nxt = (s.turn_player + 1) % n
        d.fields.update(turn_player=nxt, final_ritual_done=False, exchange_used=False)
        if nxt == s.first_player:
            d.fields.update(phase="over")


# ----- the full game: Ancient Guardians, Favor Tokens, Ritual Chains --------------------------


def _full_game_only(s: GameState, what: str) -> None:
    if not guardians(s):
        raise IllegalAction(f"{what} is not part of the family game (no Ancient Guardians and no "
                            "Favor Tokens).", rule="Game Setup (family rules)")


def _check_ancient(s: GameState, ancient: str, rule: str) -> None:
    if ancient not in ANCIENTS:
        raise IllegalAction(f"{ancient!r} is not an Ancient Guardian; choose one of "
                            f"{list(ANCIENTS)}.", rule=rule)
    if not summonable(s, ancient, s.turn_player):
        raise s.reject(f"{ancient} has nowhere to go right now"
                       + (" (Thorondal needs a Tree to stand on)." if ancient == "Thorondal" else "."),
                       rule=rule)


def _check_summon(s: GameState, a: SummonAncient) -> None:
    _full_game_only(s, "Summon the Ancients")
    _check_ancient(s, a.ancient, "Summon the Ancients")


def _do_summon(s: GameState, d: Draft, a: SummonAncient) -> None:
    d.push(Pending("summon", s.turn_player, ancient=a.ancient))


def _calls_back(s: GameState, ancient: str) -> Variant | None:
    """The variant for which Call Ancient does something else with this Ancient (Return of
    the Ancients: an Ancient still in exile moves a step up), or None."""
    if ancient not in ANCIENTS:
        return None
    return next((v for v in active(s) if v.listing.calls_back(s, ancient)), None)


def _check_call_ancient(s: GameState, a: BlessCallAncient) -> None:
    _full_game_only(s, "The Call Ancient Blessing")
    if not s.players[s.turn_player].blessings[CALL]:
        raise s.reject("You hold no Call Ancient Blessing.", rule="Blessing Tokens: Call Ancient")
    if _calls_back(s, a.ancient) is None:
        _check_ancient(s, a.ancient, "Blessing Tokens: Call Ancient")


def _do_call_ancient(s: GameState, d: Draft, a: BlessCallAncient) -> None:
    p = s.turn_player
    d.players[p].blessings[CALL] -= 1
    d.blessing_discard.append("Call Ancient")
    variant = _calls_back(s, a.ancient)
    if variant is not None:
        variant.turn.call_ancient(s, d, a.ancient)   # Returned Ancients: one step up the mountain
    else:
        d.push(Pending("summon", p, ancient=a.ancient))


def _check_activate(s: GameState, a: ActivateFavor) -> None:
    _full_game_only(s, "Activating Favor Tokens")
    p = s.turn_player
    rule = "Activating Favor Tokens"
    ps = s.players[p]
    if a.card not in ps.played:
        raise s.reject(f"{a.card} is not one of your played Ritual cards.", rule=rule,
                       like=ActivateFavor)
    if a.card in {c for c, _ in ps.activated}:
        raise s.reject(f"{a.card} already holds a Favor Token; each card takes one per game.",
                       rule=rule, like=ActivateFavor)
    if a.ancient not in favor_types(s, p, a.card):
        raise s.reject(f"{a.card} does not match {article(a.ancient)} Favor Token (a Land card takes "
                       "the type of a Creature card next to it in its chain).", rule=rule,
                       like=ActivateFavor)
    if not ps.favors[ANCIENTS.index(a.ancient)]:
        raise s.reject(f"You hold no unactivated {a.ancient} Favor Token.", rule=rule,
                       like=ActivateFavor)
    _check_ancient(s, a.ancient, rule)


def _do_activate(s: GameState, d: Draft, a: ActivateFavor) -> None:
    p = s.turn_player
    d.players[p].favors[ANCIENTS.index(a.ancient)] -= 1
    d.players[p].activated.append((a.card, a.ancient))
    d.push(Pending("summon", p, ancient=a.ancient))


def _check_convert(s: GameState, a: ConvertFavor) -> None:
    _full_game_only(s, "Converting Favor Tokens")
    rule = "Converting Favor Tokens"
    if a.give not in ANCIENTS or a.take not in ANCIENTS or a.give == a.take:
        raise s.reject("Convert 2 tokens of one Ancient into 1 token of another.", rule=rule,
                       like=ConvertFavor)
    if s.players[s.turn_player].favors[ANCIENTS.index(a.give)] < 2:
        raise s.reject(f"You need 2 unactivated {a.give} Favor Tokens.", rule=rule,
                       like=ConvertFavor)
    if a.take not in s.favor_bag:
        raise s.reject(f"The bag holds no {a.take} Favor Token.", rule=rule, like=ConvertFavor)


def _do_convert(s: GameState, d: Draft, a: ConvertFavor) -> None:
    p = s.turn_player
    g = ANCIENTS.index(a.give)
    d.players[p].favors[g] -= 2
    d.favor_bag.remove(a.take)
    d.players[p].favors[ANCIENTS.index(a.take)] += 1
    rng = make_rng(s.seed, "favor-bag", s.round, p, len(s.favor_bag), tuple(s.favor_bag[:3]))
    for _ in range(2):   # assumption 'favor-bag-order': mixed back in by the seed
        d.favor_bag.insert(rng.randrange(len(d.favor_bag) + 1), a.give)


def _do_place_ancient(s: GameState, d: Draft, a: PlaceAncient) -> None:
    """Each Ancient's direct effect (Summon the Ancients)."""
    p = s.pending.player
    b = s.board
    i = b.index[a.cell]
    d.ancients[ANCIENTS.index(a.ancient)] = i
    _entered(d, a.ancient, i)   # e.g. returned Okuma and Chelon heal the space they enter
    if a.ancient == "Okuma":      # a Weather Token of the space's biome
        d.gain_weather(p, i)
    elif a.ancient == "Chelon" and a.second is not None:   # grow one adjacent Seed
        _grow(d, [b.index[a.second]])
    elif a.ancient == "Thorondal" and a.second is not None:  # one of your Seeds next to it
        d.put_seed(b.index[a.second], p)
        for v in d.variants:   # e.g. a returned Thorondal places 2 Seeds
            v.turn.on_thorondal(d, p, i)


def _do_move_okuma(s: GameState, d: Draft, a: MoveOkuma) -> None:
    d.ancients[OKUMA] = s.board.index[a.cell]
    _entered(d, "Okuma", d.ancients[OKUMA])


def _do_place_in_chain(s: GameState, d: Draft, a: PlaceInChain) -> None:
    _place_in_chain(s, d, s.pending.player, a.card, a.chain, a.side)


def _do_take_blessing(s: GameState, d: Draft, a: TakeBlessing) -> None:
    d.blessing_discard.remove(a.blessing)
    d.players[s.pending.player].blessings[BLESSING_KINDS.index(a.blessing)] += 1


#: the rule checks of the main and free actions of the turn, asked by :func:`why` (a decision
#: is checked against its listed choices)
_CHECKS = {
    FlyingSeed: _check_flying_seed, BlessFlyingSeed: _check_flying_seed,
    ExpandForest: _check_expand, SpiritGrowth: _check_spirit_growth,
    BlessVigorousSeed: _check_vigorous, TakeBackSeed: _check_take_back,
    ExchangeWeather: _check_exchange, EndTurn: _check_end_turn, SummonAncient: _check_summon,
    BlessCallAncient: _check_call_ancient, ActivateFavor: _check_activate,
    ConvertFavor: _check_convert,
}
for _v in VARIANTS:   # the variants' own actions
    _CHECKS.update(_v.checks)

for _types, _do in (
        ((FlyingSeed, BlessFlyingSeed), _do_flying_seed), ((ExpandForest,), _do_expand),
        ((SpiritGrowth,), _do_spirit_growth), ((BlessVigorousSeed,), _do_vigorous),
        ((PlayCreature,), _do_creature), ((PlayLand,), _do_land),
        ((TakeMarketCard,), _do_take_market), ((DrawFromDeck,), _do_draw),
        ((MoveTree,), _do_move_tree), ((TakeBackSeed,), _do_take_back),
        ((ExchangeWeather,), _do_exchange), ((EndTurn,), _do_end_turn),
        ((SummonAncient,), _do_summon), ((BlessCallAncient,), _do_call_ancient),
        ((ActivateFavor,), _do_activate), ((ConvertFavor,), _do_convert),
        ((PlaceAncient,), _do_place_ancient), ((MoveOkuma,), _do_move_okuma),
        ((PlaceInChain,), _do_place_in_chain), ((TakeBlessing,), _do_take_blessing),
        *(((tp,), do) for _v in VARIANTS for tp, do in _v.handlers.items())):
    _handler(*_types)(_do)


# ----------------------------------------------------------------------------------------------
# invariants


def check_invariants(s: GameState) -> None:
    """Component counts are conserved and pieces stand where they may; raises
    :class:`~pangaea_lab.core.validate.InvariantError` naming what is off (bound to the state
    class as ``GameState.check_invariants``)."""
    ed = s.edition
    n = s.num_players
    variants = active(s)
    for p, ps in enumerate(s.players):
        require(ps.trees + s.trees.count(p) == ed.trees_per_player,
                f"{PLAYER_NAMES[p]} should own {ed.trees_per_player} Trees (supply + continent)")
        if not any(v.pieces.seeds_check(s, p) for v in variants):
            more = sum(v.pieces.seeds_held(s, p) for v in variants)
            require(ps.seeds + s.seeds.count(p) + more + 1 == ed.seeds_per_player,
                    f"{PLAYER_NAMES[p]} should own {ed.seeds_per_player} Seeds (supply + "
                    "continent + score marker)")
        require(ps.trees >= 0 and ps.seeds >= 0 and min(ps.weather) >= 0
                and min(ps.blessings) >= 0)
    for k, total in enumerate(ed.weather_tokens):
        held = (s.weather_supply[k] + sum(ps.weather[k] for ps in s.players)
                + sum(v.pieces.weather_held(s, ed.biomes[k]) for v in variants))
        require(held == total, f"{ed.biomes[k]} Weather Tokens: {held} in play, {total} in the box")
    for k, kind in enumerate(BLESSING_KINDS):
        count = (sum(ps.blessings[k] for ps in s.players) + s.board_blessings.count(kind)
                 + s.blessing_bag.count(kind) + s.blessing_discard.count(kind)
                 + sum(v.pieces.blessings_held(s, kind) for v in variants))
        boxed = any(v.pieces.blessings_boxed(s, kind) for v in variants)
        require(count == (0 if boxed else dict(ed.blessings)[kind])
                + sum(v.pieces.blessings_added(s, kind) for v in variants),
                f"{kind} Blessings are not conserved")
    cards = (list(s.land_deck) + list(s.creature_deck) + [c for c in s.market if c]
             + [c for ps in s.players for c in ps.hand] + [c for ps in s.players for c in ps.played]
             + [c for v in variants for c in v.pieces.cards_held(s)])
    cards = [c for c in cards if not is_storm(c)]
    require(sorted(cards) == sorted(ed.cards), "every Ritual card must be in exactly one place")
    for i in range(len(s.board)):
        if s.trees[i] != NOBODY or s.seeds[i] != NOBODY:
            require(s.board.terrain[i] == "land", "Trees and Seeds stand on land only")
        require(not (s.trees[i] != NOBODY and s.seeds[i] != NOBODY),
                f"{s.board.cells[i]} holds a Tree and a Seed")
    spirits = [i for i in s.spirits if i != NOBODY]
    require(len(set(spirits)) == len(spirits), "two Spirits share a Water Space")
    require(all(s.board.terrain[i] == "water" for i in spirits), "Spirits stand on water")
    counts = [s.trees.count(p) for p in range(n)]
    require(s.most_trees == scoring.most_trees_holder(counts, ed.most_trees_minimum),
            "the Most Trees marker is with the wrong player")
    full = guardians(s)
    for k, ancient in enumerate(ANCIENTS if full else ()):
        held = (s.favor_bag.count(ancient) + s.market_favors.count(ancient)
                + sum(ps.favors[k] for ps in s.players)
                + sum(1 for ps in s.players for _, a in ps.activated if a == ancient)
                + sum(v.pieces.favors_held(s, ancient) for v in variants))
        require(held == ed.favor_tokens[k],
                f"{ancient} Favor Tokens: {held} in play, {ed.favor_tokens[k]} in the box")
    for p, ps in enumerate(s.players):
        cards_on = [c for c, _ in ps.activated]
        require(len(set(cards_on)) == len(cards_on), "a card holds more than one Favor Token")
        require(set(cards_on) <= set(ps.played), "a Favor Token sits on a card not played")
        if full:
            chained = [c for chain in ps.chains for c in chain]
            require(sorted(chained) == sorted(ps.played) or (
                s.pending is not None and s.pending.kind == "chain"
                and sorted(chained + [s.pending.card]) == sorted(ps.played)),
                    "every played card belongs to exactly one Ritual Chain")
    okuma, chelon, thorondal = s.ancients
    require(okuma == NOBODY or s.board.terrain[okuma] == "land", "Okuma stands on land")
    require(chelon == NOBODY or s.board.terrain[chelon] == "water", "Chelon stands on water")
    require(thorondal == NOBODY or s.trees[thorondal] != NOBODY, "Thorondal stands on a Tree")
    for v in variants:
        v.pieces.check_invariants(s)
