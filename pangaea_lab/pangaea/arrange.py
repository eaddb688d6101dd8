"""Placing pieces by hand on a game in progress (see :meth:`GameState.arranged`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping

from ..core.errors import InvalidData, InvalidSetup
from ..core.hexgrid import Hex
from ..core.validate import InvariantError, kind_of
from . import scoring
from .edition import ANCIENTS, BLESSING_KINDS, CreatureCard, Edition
from .rituals import NOBODY
from .state import MARKET_SLOTS, GameState, PlayerState, is_storm
from .variant import ArrangedRecord, active, registered

#: the piece several Seeds on one space are (see :attr:`.variant.Arranging.own_pieces`)
STACKED_SEEDS = "stacked Seeds"


def _swap(held: tuple[int, ...], want: Mapping[str, int], kinds: tuple[str, ...],
          bag: list[str], what: str,
          box: Callable[[str], list[str] | None] | None = None) -> tuple[int, ...]:
    """Give back the tokens a player holds to ``bag`` and take the wanted ones from it (the
    kinds a variant keeps out of the bag come from and go back to ``box(kind)``, the box)."""
    if set(want) - set(kinds):
        raise InvalidSetup(f"unknown {what} in {dict(want)}; use {list(kinds)}")
    for k, kind in enumerate(kinds):
        source = box(kind) if box is not None else None
        if source is None:
            source = bag
        source.extend([kind] * held[k])
        for _ in range(want.get(kind, 0)):
            if kind not in source:
                raise InvalidSetup(f"no {kind} {what} left in the "
                                   + ("bag" if source is bag else "box"))
            source.remove(kind)
    return tuple(want.get(kind, 0) for kind in kinds)


def _counts(value: object, where: str, kinds: tuple[str, ...], high: int) -> None:
    """A ``{kind: count}`` mapping of whole numbers from 0 to ``high``."""
    if not isinstance(value, Mapping):
        raise InvalidSetup(f"{where}: expected a mapping of {list(kinds)} to counts, got "
                           f"{kind_of(value)}")
    for kind, n in value.items():
        if kind not in kinds:
            raise InvalidSetup(f"{where}: unknown {kind!r}; use {list(kinds)}")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= high:
            raise InvalidSetup(f"{where}.{kind}: expected a whole number from 0 to {high}, "
                               f"got {n!r}")


def check_arguments(s: GameState, changes: Mapping[str, object]) -> None:
    """Every argument of :func:`arrange` checked for its type and range before anything is
    moved, so a bad one raises :class:`InvalidSetup` naming it (``weather[0].Sun: expected a
    whole number from 0 to 12, got 1.5``)."""
    n, ed = s.num_players, s.edition
    per_player = {"spirits", "weather", "blessings", "hands", "points", "favors", "chains"}
    for name, value in changes.items():
        if value is None:
            continue
        if not isinstance(value, Mapping):
            raise InvalidSetup(f"{name}: expected a mapping, got {kind_of(value)}")
        if name in per_player:
            for p in value:
                if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n:
                    raise InvalidSetup(f"{name}: {p!r} is not a player number 0..{n - 1}")
        else:   # keyed by space (or by Ancient)
            for key in value:
                if name == "ancients":
                    if key not in ANCIENTS:
                        raise InvalidSetup(f"{key!r} is not an Ancient; use {list(ANCIENTS)}")
                elif (not isinstance(key, tuple) or len(key) != 2
                      or not all(type(x) is int for x in key)):
                    raise InvalidSetup(f"{name}: {key!r} is not a space (q, r)")
    for p, want in (changes.get("weather") or {}).items():
        _counts(want, f"weather[{p}]", ed.biomes, max(ed.weather_tokens))
    for p, want in (changes.get("blessings") or {}).items():
        _counts(want, f"blessings[{p}]", BLESSING_KINDS, 100)
    for p, want in (changes.get("favors") or {}).items():
        _counts(want, f"favors[{p}]", ANCIENTS, max(ed.favor_tokens))
    for p, v in (changes.get("points") or {}).items():
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10 * ed.summit_steps:
            raise InvalidSetup(f"points[{p}]: expected a whole number from 0 to "
                               f"{10 * ed.summit_steps}, got {v!r}")
    for p, cards in (changes.get("hands") or {}).items():
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
            raise InvalidSetup(f"hands[{p}]: expected a list of card ids, got {kind_of(cards)}")
        cards = list(cards)
        if any(not isinstance(c, str) for c in cards) or len(set(cards)) != len(cards):
            raise InvalidSetup(f"hands[{p}]: expected distinct card ids (texts)")
    for p, rows in (changes.get("chains") or {}).items():
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable) or any(
                isinstance(r, (str, bytes)) or not isinstance(r, Iterable)
                or not all(isinstance(c, str) for c in r) for r in rows):
            raise InvalidSetup(f"chains[{p}]: expected a list of chains, each a list of card ids")
    for cell, k in (changes.get("treetops") or {}).items():
        if isinstance(k, bool) or not isinstance(k, int):
            raise InvalidSetup(f"treetops[{cell}]: expected a whole number, got {kind_of(k)}")


def arrange(s: GameState, trees: Mapping[Hex, int] | None = None,
            seeds: Mapping[Hex, int] | None = None,
            spirits: Mapping[int, Hex | None] | None = None,
            weather: Mapping[int, Mapping[str, int]] | None = None,
            blessings: Mapping[int, Mapping[str, int]] | None = None,
            hands: Mapping[int, Iterable[str]] | None = None,
            points: Mapping[int, int] | None = None,
            favors: Mapping[int, Mapping[str, int]] | None = None,
            chains: Mapping[int, Iterable[Iterable[str]]] | None = None,
            ancients: Mapping[str, Hex | None] | None = None,
            treetops: Mapping[Hex, int] | None = None) -> GameState:
    """``s`` with the given pieces placed (see :func:`arranged`): the board's pieces first,
    then what each player holds, the market's refill and the Ancients; the result must keep
    every rule of the game."""
    changes = dict(trees=trees, seeds=seeds, spirits=spirits, weather=weather,
                   blessings=blessings, hands=hands, points=points, favors=favors,
                   chains=chains, ancients=ancients, treetops=treetops)
    check_arguments(s, changes)
    missing = _missing_pieces(s)
    _check_variant_pieces(s, changes, missing)
    board, ed, n = s.board, s.edition, s.num_players
    records = [r for r in (v.arranging.start(s) for v in active(s)) if r is not None]
    t, sd, sp = list(s.trees), list(s.seeds), list(s.spirits)
    _place_trees(board, n, trees or {}, t, sd, records)
    _place_seeds(board, n, seeds or {}, t, sd, records,
                 missing.get(STACKED_SEEDS, "several Seeds on one space are not in this game"))
    _place_spirits(board, n, spirits or {}, sp)
    players = list(s.players)
    pools = _Pools(supply=list(s.weather_supply), bag=list(s.blessing_bag), records=records,
                   favors=list(s.favor_bag), land_deck=list(s.land_deck),
                   creature_deck=list(s.creature_deck), market=list(s.market))
    for r in records:
        r.place_own(t, players, changes, lambda cell: _space(board, cell))
    for p in range(n):
        ps = _with_supplies(s, p, players[p], t, sd, records)
        players[p] = _arrange_player(ed, p, ps, changes, pools)
    _refill_market(pools)
    anc = _placed_ancients(s, ancients or {})
    counts = [t.count(p) for p in range(n)]
    own: dict[str, Any] = {}
    for r in records:
        own.update(r.record())
    new = replace(s, ancients=anc, favor_bag=tuple(pools.favors), trees=tuple(t),
                  seeds=tuple(sd), spirits=tuple(sp), players=tuple(players),
                  weather_supply=tuple(pools.supply), blessing_bag=tuple(pools.bag),
                  land_deck=tuple(pools.land_deck), creature_deck=tuple(pools.creature_deck),
                  market=tuple(pools.market),
                  most_trees=scoring.most_trees_holder(counts, ed.most_trees_minimum), **own)
    try:
        new.check_invariants()
    except InvariantError as exc:
        raise InvalidSetup(f"that arrangement breaks a rule of the game: {exc}") from None
    return new


@dataclass
class _Pools:
    """Where arranged pieces come from and go back to, as lists while arranging: the Weather
    supply, the Blessing bag (and a variant's box, through its ``records``), the Favor bag,
    the decks and the market."""

    supply: list[int]
    bag: list[str]
    records: list[ArrangedRecord]
    favors: list[str]
    land_deck: list[str]
    creature_deck: list[str]
    market: list[str | None]

    def box(self, kind: str) -> list[str] | None:
        """Where a variant keeps Blessings of this kind instead of the bag (None: the bag)."""
        for r in self.records:
            place = r.blessings_from(kind)
            if place is not None:
                return place
        return None


def _missing_pieces(s: GameState) -> dict[str, str]:
    """The pieces of the variants ``s`` does not play (none that a variant it plays has),
    each with the words refusing it."""
    playing = active(s)
    have = {piece for v in playing for piece in v.arranging.own_pieces}
    return {piece: words for v in registered() if v not in playing
            for piece, words in v.arranging.own_pieces.items() if piece not in have}


def _check_variant_pieces(s: GameState, changes: Mapping[str, Any],
                          missing: Mapping[str, str]) -> None:
    """Pieces asked for that the game being played does not have: a variant's own pieces
    without the variant (``missing``), and those the variants played leave out (see
    :meth:`.variant.Arranging.check`)."""
    for piece, words in missing.items():
        if changes.get(piece):
            raise InvalidSetup(words)
    for v in active(s):
        v.arranging.check(s, changes)


def _space(board: Any, cell: Hex) -> int:
    """The board's space at ``cell``; an unknown cell raises :class:`InvalidSetup`."""
    try:
        return board.cell_of(cell)
    except InvalidData as exc:
        raise InvalidSetup(str(exc)) from None


def _player(p: int, n: int) -> int:
    """``p`` checked to be a player number of an ``n``-player game."""
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n:
        raise InvalidSetup(f"{p!r} is not a player number 0..{n - 1}")
    return p


def _place_trees(board: Any, n: int, trees: Mapping[Hex, int | None], t: list[int],
                 sd: list[int], records: list[ArrangedRecord]) -> None:
    """Trees on land spaces (``None`` clears one); a Tree takes the place of the Seeds."""
    for cell, p in trees.items():
        i = _space(board, cell)
        if board.terrain[i] != "land":
            raise InvalidSetup(f"{cell} is water; Trees stand on land")
        t[i] = NOBODY if p is None else _player(p, n)
        sd[i] = NOBODY if t[i] != NOBODY else sd[i]
        for r in records:
            r.tree(i, t[i])


def _place_seeds(board: Any, n: int, seeds: Mapping[Hex, Any], t: list[int], sd: list[int],
                 records: list[ArrangedRecord], no_stacks: str) -> None:
    """Seeds on land spaces without a Tree: one player's Seed (``None`` clears it), or, where
    a variant stacks Seeds, ``{player: Seeds}`` for a stack whose largest count shows on top
    (without one, ``no_stacks`` are the words refusing it)."""
    for cell, p in seeds.items():
        i = _space(board, cell)
        if board.terrain[i] != "land":
            raise InvalidSetup(f"{cell} is water; Seeds go on land")
        if isinstance(p, Mapping):   # {player: Seeds} on one space
            shown = _stacked(records, i, cell, p, n)
            if shown is None:
                raise InvalidSetup(no_stacks)
            sd[i] = shown
        else:
            sd[i] = NOBODY if p is None else _player(p, n)
            for r in records:
                r.seed(i, sd[i])
        if sd[i] != NOBODY and t[i] != NOBODY:
            raise InvalidSetup(f"{cell} already holds a Tree")


def _stacked(records: list[ArrangedRecord], i: int, cell: Hex, want: Mapping[Any, Any],
             n: int) -> int | None:
    """Several Seeds placed on space ``i`` by the first variant that stacks them: the player
    whose Seed shows (None: no variant played stacks Seeds)."""
    for r in records:
        shown = r.stack(i, cell, want, lambda q: _player(q, n))
        if shown is not None:
            return shown
    return None


def _place_spirits(board: Any, n: int, spirits: Mapping[int, Hex | None],
                   sp: list[int]) -> None:
    """Spirits on water spaces, one to a space (``None`` takes a Spirit off the board)."""
    for p, cell in spirits.items():
        if cell is None:
            sp[_player(p, n)] = NOBODY
            continue
        i = _space(board, cell)
        if board.terrain[i] != "water":
            raise InvalidSetup(f"{cell} is land; Spirits stand on water")
        if i in [x for q, x in enumerate(sp) if q != p]:
            raise InvalidSetup(f"another Spirit already stands on {cell}")
        sp[_player(p, n)] = i


def _with_supplies(s: GameState, p: int, ps: PlayerState, t: list[int], sd: list[int],
                   records: list[ArrangedRecord]) -> PlayerState:
    """Player ``p`` with the Trees and Seeds not on the board back in their supply (the Seeds
    counted by a variant's record when it counts them its own way)."""
    ed = s.edition
    tree_supply = ed.trees_per_player - t.count(p)
    seed_supply = ed.seeds_per_player - 1 - sd.count(p)
    for r in records:
        own = r.seed_supply(p)
        if own is not None:
            seed_supply = own
    if tree_supply < 0:
        raise InvalidSetup(f"player {p} has only {ed.trees_per_player} Trees")
    if seed_supply < 0:
        raise InvalidSetup(f"player {p} has only {ed.seeds_per_player - 1} Seeds to place")
    return replace(ps, trees=tree_supply, seeds=seed_supply)


def _arrange_player(ed: Edition, p: int, ps: PlayerState, changes: Mapping[str, Any],
                    pools: _Pools) -> PlayerState:
    """Player ``p`` holding the Weather Tokens, Blessings, hand, points, Favor Tokens and
    Ritual Chains asked for, taken from (and the old ones given back to) ``pools``."""
    weather, hands, chains = changes["weather"], changes["hands"], changes["chains"]
    blessings, points, favors = changes["blessings"], changes["points"], changes["favors"]
    if weather and p in weather:
        ps = _take_weather(ed, ps, weather[p], pools.supply)
    if blessings and p in blessings:
        ps = replace(ps, blessings=_swap(ps.blessings, blessings[p], BLESSING_KINDS,
                                         pools.bag, "Blessing", pools.box))
    if hands and p in hands:
        ps = _take_hand(ed, ps, hands[p], pools)
    if points and p in points:
        ps = replace(ps, creature_points=0, land_points=points[p])
    if favors and p in favors:
        ps = replace(ps, favors=_swap(ps.favors, favors[p], ANCIENTS, pools.favors,
                                      "Favor Token"))
    if chains and p in chains:
        ps = _take_chains(ps, chains[p], pools)
    return ps


def _take_weather(ed: Edition, ps: PlayerState, want: Mapping[str, int],
                  supply: list[int]) -> PlayerState:
    """The player's Weather Tokens exchanged with the supply for ``want``."""
    counts = [want.get(b, 0) for b in ed.biomes]
    if set(want) - set(ed.biomes):
        raise InvalidSetup(f"unknown weather in {dict(want)}; use {list(ed.biomes)}")
    for k in range(len(counts)):
        supply[k] += ps.weather[k] - counts[k]
        if supply[k] < 0:
            raise InvalidSetup(f"not enough {ed.biomes[k]} Weather Tokens in the supply")
    return replace(ps, weather=tuple(counts))


def _take_hand(ed: Edition, ps: PlayerState, cards: Iterable[str],
               pools: _Pools) -> PlayerState:
    """The player's hand given back on top of its decks, and ``cards`` taken from the decks
    or the market (an emptied market slot is refilled later)."""
    for c in ps.hand:
        (pools.creature_deck if isinstance(ed.card(c), CreatureCard)
         else pools.land_deck).insert(0, c)
    new_hand = []
    for c in cards:
        try:
            card = ed.card(c)
        except InvalidData as exc:
            raise InvalidSetup(str(exc)) from None
        if c in pools.land_deck:
            pools.land_deck.remove(c)
        elif c in pools.creature_deck:
            pools.creature_deck.remove(c)
        elif c in pools.market:
            pools.market[pools.market.index(c)] = None
        else:
            raise InvalidSetup(f"card {c} is already in a hand or played")
        new_hand.append(card.id)
    return replace(ps, hand=tuple(new_hand))


def _take_chains(ps: PlayerState, chains: Iterable[Iterable[str]],
                 pools: _Pools) -> PlayerState:
    """The player's Ritual Chains set to ``chains``, their cards taken from the decks as
    played."""
    rows = [list(row) for row in chains]
    for row in rows:
        for c in row:
            if c in pools.land_deck:
                pools.land_deck.remove(c)
            elif c in pools.creature_deck:
                pools.creature_deck.remove(c)
            else:
                raise InvalidSetup(f"card {c} is not in a deck, so it cannot be arranged "
                                   "as played")
    return replace(ps, chains=tuple(tuple(r) for r in rows),
                   played=tuple(c for r in rows for c in r), activated=())


def _refill_market(pools: _Pools) -> None:
    """Each empty market slot takes the first Ritual card of its deck (Elemental Storms
    stay in the deck)."""
    market = pools.market
    for k, slot in enumerate(MARKET_SLOTS):
        if market[k] is None:
            deck = pools.land_deck if slot == "land" else pools.creature_deck
            real = [j for j, c in enumerate(deck) if not is_storm(c)]
            market[k] = deck.pop(real[0]) if real else None


def _placed_ancients(s: GameState, ancients: Mapping[str, Hex | None]) -> tuple[int, ...]:
    """The Ancients' spaces with the asked ones moved (``None`` takes one off the board)."""
    anc = list(s.ancients)
    for name, cell in ancients.items():
        if name not in ANCIENTS:
            raise InvalidSetup(f"{name!r} is not an Ancient; use {list(ANCIENTS)}")
        anc[ANCIENTS.index(name)] = NOBODY if cell is None else _space(s.board, cell)
    return tuple(anc)


def arranged(self: GameState, **changes: object) -> GameState:
    """The same game with pieces placed by hand, for lessons and "score this" questions
    (``state.arranged(...)``: the package binds this function to the game as its part
    ``arranged``).

    Keywords (see :func:`arrange`): ``trees={cell: player}``,
    ``seeds={cell: player}``, ``spirits={player: cell}``, ``weather={player: {biome: n}}``,
    ``blessings={player: {kind: n}}``, ``hands={player: [card, ...]}``,
    ``points={player: n}``, ``favors={player: {ancient: n}}``,
    ``chains={player: [[card, ...], ...]}``, ``ancients={name: cell}``; and the pieces a
    variant adds (its hooks ``arranging``, see :class:`.variant.Arranging`): in Wild Woods
    ``treetops={cell: n}`` (0-2 on a Tree, taken from its owner's Player Board in slot
    order) and ``seeds={cell: {player: n}}`` for several Seeds on one space.

    Trees and Seeds come from (or go back to) their owners' supplies; Weather Tokens and
    Blessings from the supply and the bag; hand cards from the decks or the market
    (replaced from the decks); in the full game also Favor Tokens, Ritual Chains of played
    cards (from the decks) and the Ancients' spaces.  Anything impossible raises
    InvalidSetup naming it, e.g. more than 10 Trees for a player.

    >>> from pangaea_lab import pangaea
    >>> s = pangaea.new_game(players=2, seed=1)
    >>> cell = s.board.cells[s.board.land[0]]
    >>> s.arranged(trees={cell: 1}).players[1].trees
    9
    """
    return arrange(self, **changes)  # type: ignore[arg-type]
