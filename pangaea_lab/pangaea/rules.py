"""Legal actions and their effects: the turn structure of The Dawn of Pangaea.

Each ``_do_*`` function takes a :class:`Draft` (a private, mutable working copy) so one action
is applied as a whole or not at all; ``apply`` checks legality first, then freezes the draft
into a new state.  Rule sections are named as in the rulebook.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations, product
from typing import Iterator

from ..core.errors import IllegalAction, InvalidData
from . import scoring
from .actions import (MAIN, BlessFlyingSeed, BlessVigorousSeed, DrawFromDeck, EndTurn,
                      ExchangeWeather, ExpandForest, FlyingSeed, MoveTree, PangaeaAction,
                      PlayCreature, PlayLand, SpiritGrowth, TakeBackSeed, TakeMarketCard)
from .edition import BLESSING_KINDS, CreatureCard, LandCard
from .rituals import NOBODY, explain_path, land_ritual_options
from .state import MARKET_SLOTS, PLAYER_NAMES, GameState, Pending, PlayerState

FLY, VIGOR, CALL, WILD = (BLESSING_KINDS.index(k) for k in BLESSING_KINDS)


# ----------------------------------------------------------------------------------------------
# the working copy


class Draft:
    """A mutable copy of a state's changing parts, frozen back by :meth:`freeze`."""

    def __init__(self, s: GameState) -> None:
        self.s = s
        self.trees = list(s.trees)
        self.seeds = list(s.seeds)
        self.spirits = list(s.spirits)
        self.board_blessings = list(s.board_blessings)
        self.players = [dict(trees=p.trees, seeds=p.seeds, hand=list(p.hand),
                             weather=list(p.weather), blessings=list(p.blessings),
                             creature_points=p.creature_points, land_points=p.land_points,
                             played=list(p.played)) for p in s.players]
        self.land_deck = list(s.land_deck)
        self.creature_deck = list(s.creature_deck)
        self.market = list(s.market)
        self.weather_supply = list(s.weather_supply)
        self.blessing_bag = list(s.blessing_bag)
        self.blessing_discard = list(s.blessing_discard)
        self.fields: dict = {}

    def gain_weather(self, player: int, space: int) -> None:
        """Gain Weather Tokens: 1 token of the biome of a space where a new Tree stands."""
        k = self.s.edition.biomes.index(self.s.board.biome[space])
        if self.weather_supply[k] > 0:
            self.weather_supply[k] -= 1
            self.players[player]["weather"][k] += 1

    def freeze(self) -> GameState:
        s = self.s
        counts = [self.trees.count(p) for p in range(s.num_players)]
        holder = scoring.most_trees_holder(counts, s.edition.most_trees_minimum)
        players = tuple(PlayerState(trees=p["trees"], seeds=p["seeds"], hand=tuple(p["hand"]),
                                    weather=tuple(p["weather"]), blessings=tuple(p["blessings"]),
                                    creature_points=p["creature_points"],
                                    land_points=p["land_points"], played=tuple(p["played"]))
                        for p in self.players)
        return replace(s, trees=tuple(self.trees), seeds=tuple(self.seeds),
                       spirits=tuple(self.spirits), board_blessings=tuple(self.board_blessings),
                       players=players, land_deck=tuple(self.land_deck),
                       creature_deck=tuple(self.creature_deck), market=tuple(self.market),
                       weather_supply=tuple(self.weather_supply),
                       blessing_bag=tuple(self.blessing_bag),
                       blessing_discard=tuple(self.blessing_discard), most_trees=holder,
                       **self.fields)


# ----------------------------------------------------------------------------------------------
# listing legal actions


def _empty_land(s: GameState) -> list[int]:
    return [i for i in s.board.land if s.trees[i] == NOBODY and s.seeds[i] == NOBODY]


def _expand_targets(s: GameState, player: int) -> list[int]:
    b = s.board
    near = {j for i in b.land if s.trees[i] == player for j in b.neighbours[i]}
    return sorted(j for j in near if b.terrain[j] == "land"
                  and s.trees[j] == NOBODY and s.seeds[j] == NOBODY)


def _spirit_targets(s: GameState, player: int) -> list[int]:
    taken = {i for p, i in enumerate(s.spirits) if p != player and i != NOBODY}
    return [i for i in s.board.water if i not in taken]


def payments(card: CreatureCard, have: tuple[int, ...], wild_blessings: int,
             biomes: tuple[str, ...]) -> Iterator[tuple[tuple[tuple[str, int], ...], int]]:
    """Every distinct way to pay a Creature Ritual: ``(tokens per weather, Wild Weather used)``.

    Tokens must cover the card's weather symbols, any token may fill a wild symbol, and a Wild
    Weather Blessing stands in for one token of any kind."""
    need = [dict(card.cost).get(b, 0) for b in biomes]
    size = card.size
    ranges = [range(0, min(have[k], need[k] + card.wild) + 1) for k in range(len(biomes))]
    for tokens in product(*ranges):
        extra = sum(max(0, t - n) for t, n in zip(tokens, need))
        if extra > card.wild:
            continue
        used_wild = size - sum(tokens)
        if used_wild < 0 or used_wild > wild_blessings:
            continue
        yield tuple((b, t) for b, t in zip(biomes, tokens) if t), used_wild


def _ritual_sources(s: GameState, player: int) -> list[tuple[str, bool]]:
    ps = s.players[player]
    out = [(c, False) for c in ps.hand]
    out += [(c, True) for c in s.market if c is not None]
    return out


def _ritual_actions(s: GameState, player: int) -> list[PangaeaAction]:
    ps = s.players[player]
    out: list[PangaeaAction] = []
    pos = s.position
    for card_id, from_market in _ritual_sources(s, player):
        card = s.card(card_id)
        where = "market" if from_market else "hand"
        if isinstance(card, CreatureCard):
            for pay, wild in payments(card, ps.weather, ps.blessings[WILD], s.edition.biomes):
                a = PlayCreature(card_id, from_market, pay, wild)
                out.append(replace(a, label=f"{card.title} from {where}: pay "
                                   + ", ".join([f"{n} {w}" for w, n in pay]
                                               + ([f"{wild} Wild Weather"] if wild else []))))
        else:
            for opt in land_ritual_options(pos, player, card):
                a = PlayLand(card_id, from_market, opt.path)
                out.append(replace(a, label=f"{card.title} from {where}: {opt.start}→{opt.end}, "
                                   f"{len(opt.path)} spaces, {opt.points} points"))
    return out


def _free_actions(s: GameState, player: int) -> list[PangaeaAction]:
    ps = s.players[player]
    b = s.board
    out: list[PangaeaAction] = [TakeBackSeed(b.cells[i]) for i in b.land if s.seeds[i] == player]
    if ps.blessings[FLY] and ps.seeds:
        out += [BlessFlyingSeed(b.cells[i]) for i in _empty_land(s)]
    if ps.blessings[VIGOR]:
        out += [BlessVigorousSeed(b.cells[i]) for i in b.land if s.seeds[i] != NOBODY]
    if s.most_trees == player and not s.exchange_used:
        biomes = s.edition.biomes
        out += [ExchangeWeather(g, t) for (gi, g), (ti, t) in product(enumerate(biomes), repeat=2)
                if gi != ti and ps.weather[gi] > 0 and s.weather_supply[ti] > 0]
    return out


def legal_actions(s: GameState) -> list[PangaeaAction]:
    """Every action the current player may take now."""
    if s.phase == "over":
        return []
    b = s.board
    if s.pending is not None:
        pend = s.pending
        if pend.kind == "draw":
            out: list[PangaeaAction] = [TakeMarketCard(c) for c in s.market if c is not None]
            if s.land_deck:
                out.append(DrawFromDeck("land"))
            if s.creature_deck:
                out.append(DrawFromDeck("creature"))
            return out
        target = pend.targets[0]
        return [MoveTree(b.cells[i], b.cells[target]) for i in b.land
                if s.trees[i] == pend.player and i not in pend.grown]
    p = s.turn_player
    ps = s.players[p]
    out = []
    if s.phase == "main" and s.actions_taken < 2:
        if ps.seeds:
            out += [FlyingSeed(b.cells[i]) for i in _empty_land(s)]
            targets = _expand_targets(s, p)
            out += [ExpandForest((b.cells[i],)) for i in targets]
            if ps.seeds >= 2:
                out += [ExpandForest((b.cells[i], b.cells[j])) for i, j in combinations(targets, 2)]
        out += [SpiritGrowth(b.cells[i]) for i in _spirit_targets(s, p)]
        out += _ritual_actions(s, p)
    elif s.phase == "final" and not s.final_ritual_done:
        out += _ritual_actions(s, p)
    out += _free_actions(s, p)
    if s.phase == "final" or s.actions_taken == 2:
        out.append(EndTurn())
    return out


# ----------------------------------------------------------------------------------------------
# applying actions


def _check_space(s: GameState, cell, what: str) -> int:
    try:
        return s.board.cell_of(cell)
    except InvalidData as exc:
        raise IllegalAction(f"{what}: {exc}") from None


def _grow(d: Draft, spaces: list[int]) -> None:
    """Seeds on these spaces grow into their owners' Trees (Spirit Growth, Moving Trees)."""
    s = d.s
    waiting: list[tuple[int, int]] = []
    grown: list[int] = []
    for i in sorted(spaces):
        owner = d.seeds[i]
        if owner == NOBODY:
            continue
        d.seeds[i] = NOBODY
        d.players[owner]["seeds"] += 1
        grown.append(i)
        if d.players[owner]["trees"] > 0:
            d.players[owner]["trees"] -= 1
            d.trees[i] = owner
            d.gain_weather(owner, i)
        else:
            waiting.append((owner, i))
    if waiting:
        # Moving Trees: each owner without Trees in supply moves one of theirs per Seed; the
        # decisions are taken one at a time, in board order.
        d.fields["pending"] = Pending("move", waiting[0][0], tuple(i for _, i in waiting),
                                      tuple(o for o, _ in waiting), tuple(grown))


def _check_turn(s: GameState, action: PangaeaAction) -> None:
    if s.phase == "over":
        raise IllegalAction("The game is over; no more actions can be taken.", rule="End of the Game")
    if s.pending is not None and action.tier != "decision":
        what = ("choose your new Hand Ritual first" if s.pending.kind == "draw"
                else f"{PLAYER_NAMES[s.pending.player]} must first choose which Tree to move")
        raise s.reject(f"A decision is waiting: {what}.",
                       rule="Step 3: Draw New Card" if s.pending.kind == "draw" else "Moving Trees")
    if s.pending is None and action.tier == "decision":
        raise s.reject("There is no card to draw or Tree to move right now.",
                       rule="Play a Ritual Card")
    if action.tier == MAIN:
        if s.phase == "final":
            if not isinstance(action, (PlayCreature, PlayLand)):
                raise s.reject("In the final round only one last Ritual Card may be played; "
                               "regular actions are not allowed.", rule="Final Scoring")
            if s.final_ritual_done:
                raise s.reject("You already played your final Ritual Card.", rule="Final Scoring")
        elif s.actions_taken >= 2:
            raise s.reject("You have already taken your 2 actions this turn; use free actions "
                           "or end your turn.", rule="Gameplay Overview")


def apply(s: GameState, action: PangaeaAction) -> GameState:
    """The state after ``action``; raises :class:`IllegalAction` (state unchanged) if the rules
    forbid it."""
    if not isinstance(action, PangaeaAction):
        raise IllegalAction(f"{action!r} is not an action of The Dawn of Pangaea")
    _check_turn(s, action)
    handler = _HANDLERS[type(action)]
    d = Draft(s)
    handler(s, d, action)
    if action.tier == MAIN and s.phase == "main":
        d.fields["actions_taken"] = s.actions_taken + 1
    return _after(d.freeze())


def _after(s: GameState) -> GameState:
    """Checks that follow any action: the end trigger on the mountain."""
    if s.phase == "main" and not s.end_triggered:
        summit = s.edition.summit_steps
        for p, ps in enumerate(s.players):
            if ps.points >= summit:
                return replace(s, end_triggered=True,
                               end_reason=f"{PLAYER_NAMES[p]} reached the top of the Sacred Mountain")
        if not s.land_deck and not s.creature_deck and not any(s.market) and not any(
                ps.hand for ps in s.players):
            return replace(s, end_triggered=True,
                           end_reason="no Ritual Card is left (assumption 'cards-exhausted')")
    return s


# ----- main actions ------------------------------------------------------------------------------


def _do_flying_seed(s: GameState, d: Draft, a: FlyingSeed | BlessFlyingSeed) -> None:
    i = _check_space(s, a.cell, "Flying Seed")
    p = s.turn_player
    rule = "Flying Seed"
    if isinstance(a, BlessFlyingSeed):
        if not s.players[p].blessings[FLY]:
            raise s.reject("You hold no Flying Seed Blessing.", rule="Blessing Tokens")
        d.players[p]["blessings"][FLY] -= 1
        d.blessing_discard.append("Flying Seed")
        rule = "Blessing Tokens: Flying Seed"
    if s.players[p].seeds == 0:
        raise s.reject("You have no Seed left in your supply (take one back first).", rule=rule)
    if s.board.terrain[i] != "land":
        raise s.reject(f"{s.board.cells[i]} is a Water Space; Seeds go on Land Spaces only.",
                       rule=rule, like=type(a))
    if s.trees[i] != NOBODY or s.seeds[i] != NOBODY:
        raise s.reject(f"{s.board.cells[i]} is already taken by a Tree or a Seed.", rule=rule,
                       like=type(a))
    d.seeds[i] = p
    d.players[p]["seeds"] -= 1


def _do_expand(s: GameState, d: Draft, a: ExpandForest) -> None:
    p = s.turn_player
    rule = "Expand Forest"
    if not isinstance(a.cells, tuple) or not 1 <= len(a.cells) <= 2:
        raise s.reject("Expand Forest places 1 or 2 Seeds.", rule=rule, like=ExpandForest)
    idx = [_check_space(s, c, rule) for c in a.cells]
    if len(set(idx)) != len(idx):
        raise s.reject("Both Seeds cannot go on the same space.", rule=rule, like=ExpandForest)
    if s.players[p].seeds < len(idx):
        raise s.reject(f"You have only {s.players[p].seeds} Seed(s) in your supply.", rule=rule,
                       like=ExpandForest)
    targets = set(_expand_targets(s, p))
    for i in idx:
        if i not in targets:
            why = ("is not a Land Space" if s.board.terrain[i] != "land" else
                   "is already taken" if s.trees[i] != NOBODY or s.seeds[i] != NOBODY else
                   "is not next to one of your Trees")
            raise s.reject(f"{s.board.cells[i]} {why}.", rule=rule, like=ExpandForest)
        d.seeds[i] = p
    d.players[p]["seeds"] -= len(idx)


def _do_spirit_growth(s: GameState, d: Draft, a: SpiritGrowth) -> None:
    p = s.turn_player
    i = _check_space(s, a.cell, "Spirit Growth")
    rule = "Spirit Growth"
    if s.board.terrain[i] != "water":
        raise s.reject(f"{s.board.cells[i]} is land; a Spirit moves to a Water Space.", rule=rule,
                       like=SpiritGrowth)
    if i in s.spirits and s.spirits.index(i) != p:
        raise s.reject(f"Another Spirit already stands on {s.board.cells[i]}.", rule=rule,
                       like=SpiritGrowth)
    if s.spirits[p] != i:
        d.spirits[p] = i
        kind = d.board_blessings[i]
        if kind:  # a Blessing Token on the Water Space is taken
            d.board_blessings[i] = ""
            d.players[p]["blessings"][BLESSING_KINDS.index(kind)] += 1
    _grow(d, [j for j in s.board.neighbours[i] if s.seeds[j] != NOBODY])


def _do_vigorous(s: GameState, d: Draft, a: BlessVigorousSeed) -> None:
    p = s.turn_player
    i = _check_space(s, a.cell, "Vigorous Seed")
    if not s.players[p].blessings[VIGOR]:
        raise s.reject("You hold no Vigorous Seed Blessing.", rule="Blessing Tokens")
    if s.seeds[i] == NOBODY:
        raise s.reject(f"There is no Seed on {s.board.cells[i]} to grow.",
                       rule="Blessing Tokens: Vigorous Seed", like=BlessVigorousSeed)
    d.players[p]["blessings"][VIGOR] -= 1
    d.blessing_discard.append("Vigorous Seed")
    _grow(d, [i])


def _take_card(s: GameState, d: Draft, card_id: str, from_market: bool) -> None:
    p = s.turn_player
    if from_market:
        if card_id not in s.market:
            raise s.reject(f"{card_id} is not in the Open Market.", rule="Play a Ritual Card")
        d.market[d.market.index(card_id)] = None
    else:
        if card_id not in s.players[p].hand:
            raise s.reject(f"{card_id} is not in your hand.", rule="Play a Ritual Card")
        d.players[p]["hand"].remove(card_id)
    d.players[p]["played"].append(card_id)
    if s.phase == "final":
        d.fields["final_ritual_done"] = True
    elif not from_market and (any(c is not None for c in d.market) or s.land_deck
                              or s.creature_deck):
        d.fields["pending"] = Pending("draw", p)


def _do_creature(s: GameState, d: Draft, a: PlayCreature) -> None:
    p = s.turn_player
    try:
        card = s.card(a.card)
    except InvalidData as exc:
        raise IllegalAction(str(exc), rule="Play a Ritual Card") from None
    if not isinstance(card, CreatureCard):
        raise IllegalAction(f"{a.card} is a Land Ritual; play it with a path of Trees.",
                            rule="Land Rituals")
    ps = s.players[p]
    biomes = s.edition.biomes
    pay = dict(a.pay)
    if not set(pay) <= set(biomes) or any(not isinstance(n, int) or n < 0 for n in pay.values()):
        raise IllegalAction(f"A payment names Weather Tokens of {list(biomes)} with counts.",
                            rule="Creature Rituals")
    tokens = tuple(pay.get(b, 0) for b in biomes)
    options = set(payments(card, ps.weather, ps.blessings[WILD], biomes))
    if (tuple((b, t) for b, t in zip(biomes, tokens) if t), a.wild_blessings) not in options:
        raise s.reject(f"That payment does not match {card.title} with what you hold "
                       f"(you have {dict(zip(biomes, ps.weather))} and "
                       f"{ps.blessings[WILD]} Wild Weather).", rule="Creature Rituals",
                       like=PlayCreature)
    _take_card(s, d, a.card, a.from_market)
    for k, n in enumerate(tokens):
        d.players[p]["weather"][k] -= n
        d.weather_supply[k] += n
    d.players[p]["blessings"][WILD] -= a.wild_blessings
    d.blessing_discard.extend(["Wild Weather"] * a.wild_blessings)
    d.players[p]["creature_points"] += card.points


def _do_land(s: GameState, d: Draft, a: PlayLand) -> None:
    p = s.turn_player
    try:
        card = s.card(a.card)
    except InvalidData as exc:
        raise IllegalAction(str(exc), rule="Play a Ritual Card") from None
    if not isinstance(card, LandCard):
        raise IllegalAction(f"{a.card} is a Creature Ritual; it is paid with Weather Tokens.",
                            rule="Creature Rituals")
    why = explain_path(s.position, p, card, a.path)
    if why:
        raise s.reject(why, rule="Land Rituals", like=PlayLand)
    options = {o.path: o for o in land_ritual_options(s.position, p, card)}
    path = tuple(tuple(c) for c in a.path)
    option = options.get(path) or options.get(path[::-1])
    if option is None:  # pragma: no cover - explain_path covers every failure
        raise s.reject("That path is not a legal Land Ritual.", rule="Land Rituals", like=PlayLand)
    _take_card(s, d, a.card, a.from_market)
    d.players[p]["land_points"] += option.points
    if s.phase != "final":  # the final round keeps Trees on the continent
        for c in path:
            i = s.board.index[c]
            if d.trees[i] == p:
                d.trees[i] = NOBODY
                d.players[p]["trees"] += 1


# ----- decisions ----------------------------------------------------------------------------------


def _do_take_market(s: GameState, d: Draft, a: TakeMarketCard) -> None:
    assert s.pending is not None
    if a.card not in s.market:
        raise s.reject(f"{a.card} is not in the Open Market.", rule="Step 3: Draw New Card",
                       like=TakeMarketCard)
    d.market[d.market.index(a.card)] = None
    d.players[s.pending.player]["hand"].append(a.card)
    d.fields["pending"] = None


def _do_draw(s: GameState, d: Draft, a: DrawFromDeck) -> None:
    assert s.pending is not None
    deck = {"land": d.land_deck, "creature": d.creature_deck}.get(a.deck)
    if deck is None:
        raise s.reject("Draw from the 'land' or the 'creature' deck.", rule="Step 3: Draw New Card")
    if not deck:
        raise s.reject(f"The {a.deck} deck is empty.", rule="Step 3: Draw New Card",
                       like=DrawFromDeck)
    d.players[s.pending.player]["hand"].append(deck.pop(0))
    d.fields["pending"] = None


def _do_move_tree(s: GameState, d: Draft, a: MoveTree) -> None:
    pend = s.pending
    assert pend is not None
    if pend.kind != "move":
        raise s.reject("No Tree needs moving now.", rule="Moving Trees")
    target = pend.targets[0]
    if _check_space(s, a.target, "Moving Trees") != target:
        raise s.reject(f"The Tree must move to the growing Seed's space {s.board.cells[target]}.",
                       rule="Moving Trees", like=MoveTree)
    i = _check_space(s, a.origin, "Moving Trees")
    if s.trees[i] != pend.player or i in pend.grown:
        raise s.reject(f"{s.board.cells[i]} does not hold a Tree of "
                       f"{PLAYER_NAMES[pend.player]} that may move.", rule="Moving Trees",
                       like=MoveTree)
    d.trees[i] = NOBODY
    d.trees[target] = pend.player
    d.gain_weather(pend.player, target)  # assumption 'moved-tree-weather'
    if len(pend.targets) > 1:
        d.fields["pending"] = Pending("move", pend.owners[1], pend.targets[1:], pend.owners[1:],
                                      pend.grown)
    else:
        d.fields["pending"] = None


# ----- free actions --------------------------------------------------------------------------------


def _do_take_back(s: GameState, d: Draft, a: TakeBackSeed) -> None:
    p = s.turn_player
    i = _check_space(s, a.cell, "Take back a Seed")
    if s.seeds[i] != p:
        raise s.reject(f"There is no Seed of yours on {s.board.cells[i]}.",
                       rule="Expand Forest (note on Seeds)", like=TakeBackSeed)
    d.seeds[i] = NOBODY
    d.players[p]["seeds"] += 1


def _do_exchange(s: GameState, d: Draft, a: ExchangeWeather) -> None:
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
    d.players[p]["weather"][g] -= 1
    d.weather_supply[g] += 1
    d.weather_supply[t] -= 1
    d.players[p]["weather"][t] += 1
    d.fields["exchange_used"] = True


def _refill_market(d: Draft) -> None:
    """End of Turn: fill empty market slots, 2 Land and 2 Creature Rituals."""
    for k, slot in enumerate(MARKET_SLOTS):
        if d.market[k] is None:
            deck = d.land_deck if slot == "land" else d.creature_deck
            if deck:
                d.market[k] = deck.pop(0)


def _do_end_turn(s: GameState, d: Draft, a: EndTurn) -> None:
    n = s.num_players
    if s.phase == "main":
        if s.actions_taken < 2:
            raise s.reject(f"Take {2 - s.actions_taken} more action(s) first: every turn has "
                           "2 actions.", rule="Gameplay Overview")
        _refill_market(d)
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


_HANDLERS = {
    FlyingSeed: _do_flying_seed, BlessFlyingSeed: _do_flying_seed, ExpandForest: _do_expand,
    SpiritGrowth: _do_spirit_growth, BlessVigorousSeed: _do_vigorous,
    PlayCreature: _do_creature, PlayLand: _do_land, TakeMarketCard: _do_take_market,
    DrawFromDeck: _do_draw, MoveTree: _do_move_tree, TakeBackSeed: _do_take_back,
    ExchangeWeather: _do_exchange, EndTurn: _do_end_turn,
}
