"""Return of the Ancients: the solo / co-op mode of The Dawn of Pangaea.

The players work together to bring the three Ancient Markers from step 23 up to the summit of
the Sacred Mountain before the third Moon Cycle ends, while the Spirit of Shadows spreads
Scourge over the continent.  This module holds what is new in the mode: its Game Setup, the
Shadow Phase, Scourge and healing, the Moon Board and End of Cycle, and the end of the game.
The mode is a :class:`~.variant.Variant` (:data:`VARIANT`) with its own record on the state
(``state.coop``, a :class:`~.state.CoopRecord`); the turn structure in :mod:`.rules` calls
its hooks.

>>> from pangaea_lab import pangaea
>>> s = pangaea.new_game(players=1, seed=3, mode="ancients")
>>> s.coop.ancient_steps, s.coop.devour_steps, len(s.coop.scourged), s.coop.scourge_supply, s.coop.cycle
((23, 23, 23), (19, 16), 1, 4, 1)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

import networkx as nx

from ..core import hexgrid
from ..core.working import Thaw, WorkingCopy, remake
from ..core.errors import IllegalAction, InvalidSetup
from ..core.exercises import plural
from ..core.protocol import ScoreBreakdown
from ..core.validate import require
from ..core.rng import make_rng
from .actions import (AscendAncient, BlessCallAncient, LeaveSeed, MoveShadow, PangaeaAction,
                      PlaceScourge, PlaceSeed, ShareWeather, SpiritGrowth)
from .board import _build
from .draft import Draft
from .edition import (ANCIENTS, BLESSING_KINDS, DIFFICULTIES, CoopData, Edition,
                      load_edition, woods_data)
from .game import GAME
from .rituals import NOBODY
from .state import (COOP, COOP_MARKET_SLOTS, PLAYER_NAMES, CoopRecord, GameState, Pending,
                    SetupStep, blank_state, lay_blessings)
from .variant import (Heuristics, Listing, Pieces, Scoring, Seeds, Turn, Variant,
                      register)

MODE = COOP
#: the values of the game's ``mode`` option that choose Return of the Ancients
NAMES = ("coop", COOP)


def coop_data(ed: Edition) -> CoopData:
    """The edition's Return of the Ancients data, or the reference set's if it has none."""
    data = ed.coop or load_edition().coop
    require(data is not None)
    return data


def moon_plan(ed: Edition, difficulty: str, wild_woods: bool) -> tuple:
    """``(markers, effects)`` of each Moon Cycle: the base side of the Moon Board and its Moon
    Cards, or with Wild Woods the Wild Woods side and its two Moon Cards."""
    if wild_woods:
        return woods_data(ed).cycle_plan(difficulty)
    return coop_data(ed).cycle_plan(difficulty)


def is_returned(steps, k: int, summit: int) -> bool:
    """An Ancient has returned from exile once its marker reached the summit."""
    return steps[k] >= summit


def returned(s: GameState, ancient: str) -> bool:
    return is_returned(s.coop.ancient_steps, ANCIENTS.index(ancient), s.edition.summit_steps)


def free_ritual(s: GameState, card: Any) -> bool:
    """The Creature Rituals of an Ancient back from exile (its marker on the summit) cost no
    Weather Tokens."""
    return card.kind == "creature" and s.coop.returned(card.ancient, s.edition.summit_steps)


#: the category of each Ancient Marker's step in the team's score
_STEP_NAMES = tuple(f"{a} Marker step" for a in ANCIENTS)


def team_scores(s: GameState) -> list[ScoreBreakdown]:
    """Nobody scores points: every player shows the team's progress, the step of each
    Ancient Marker (a returned Ancient stands on the summit)."""
    players, steps = s.num_players, s.coop.ancient_steps
    # the same steps give the same breakdowns (frozen values, shared by every state at them)
    found = _TEAM_SCORES.get((players, steps))
    if found is None:
        if len(_TEAM_SCORES) >= 4096:
            _TEAM_SCORES.clear()
        team = tuple(zip(_STEP_NAMES, steps))
        found = _TEAM_SCORES[players, steps] = tuple(
            ScoreBreakdown(player=p, categories=team) for p in range(players))
    return list(found)


#: (players, the Ancient Markers' steps) -> the team's score breakdowns
_TEAM_SCORES: dict[tuple[int, tuple[int, ...]], tuple[ScoreBreakdown, ...]] = {}


def distances(board, start: int) -> dict[int, int]:
    """Steps from ``start`` to every space, moving between neighbouring spaces (networkx's
    shortest path lengths on the board's graph, nearest first)."""
    return dict(_distances(board, start))


@lru_cache(maxsize=1024)
def _distances(board, start: int) -> dict[int, int]:
    # a board never changes: the distances from a space are searched once (each caller
    # gets a copy)
    return nx.single_source_shortest_path_length(board.space_graph, start)


# ----------------------------------------------------------------------------------------------
# Game Setup (steps 1-9)


def _with(value: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` for the frozen states and records of Game Setup, made without
    running their constructors (see :func:`~pangaea_lab.core.working.remake`)."""
    return remake(value, changes)


def setup_steps(players: int, seed: int | str, difficulty: str, ed: Edition, board,
                wild_woods: bool = False) -> list:
    """Game Setup of Return of the Ancients, step by step (see :func:`.setup.setup_steps`):
    each step starts from the state the one before left, and the random draws come from one
    generator, in step order."""
    co = coop_data(ed)
    _check_setup(players, difficulty, ed, co)
    if board is None:
        board = _build(ed, players, seed)   # one player brings 4 tiles, like any other
    rng = make_rng(seed, "setup", MODE)
    steps = [_take_pieces(ed, board, players, seed, difficulty, co)]
    for step in (_ancients_on_mountain, _build_continent, _solo_decks, _open_market,
                 _scourge_supply, _spirit_of_shadows, _first_trees):
        steps.append(step(steps[-1].state, rng, co))
    steps.append(_moon_board(steps[-1].state, rng, wild_woods))
    return steps


def _check_setup(players: int, difficulty: str, ed: Edition, co: CoopData) -> None:
    """The player count, the difficulty and the edition's pieces fit the mode."""
    low = GAME.players_for({"mode": MODE})[0]   # the mode's seats, as many as the edition serves
    if isinstance(players, bool) or not isinstance(players, int) \
            or not low <= players <= ed.max_players:
        raise InvalidSetup(f"Return of the Ancients is for {low} to {ed.max_players} players, "
                           f"not {players!r}")
    if difficulty not in DIFFICULTIES:
        raise InvalidSetup(f"difficulty must be one of {list(DIFFICULTIES)}, not {difficulty!r} "
                           "(Game Setup step 9)")
    if co.scourge_per_player * players > co.scourge_total:
        raise InvalidSetup(f"{players} players need {co.scourge_per_player * players} Scourge Markers; "
                           f"the edition has {co.scourge_total}")
    if co.ancient_start >= ed.summit_steps:
        raise InvalidSetup(f"the Ancient Markers start on step {co.ancient_start}, which must lie "
                           f"below the summit (step {ed.summit_steps})")


def _take_pieces(ed: Edition, board, players: int, seed: int | str, difficulty: str,
                 co: CoopData) -> SetupStep:
    """Step 1: everything in the box, every Shadow Marker in the mode's record."""
    mix = [k for k, n in co.shadow_mix for _ in range(n)]
    state = blank_state(ed, board, players, seed, coop=CoopRecord(
        difficulty=difficulty, ancient_steps=(0, 0, 0), shadow_box=tuple(mix), cycle=0))
    return SetupStep(
        "1. Players take their pieces",
        f"Each player takes {ed.trees_per_player} Trees, {ed.seeds_per_player} Seeds and a Spirit. "
        "As in the base game one Seed stays beside the mountain, so "
        f"{ed.seeds_per_player - 1} are in the supply.", state)


def _ancients_on_mountain(state: GameState, rng: Any, co: CoopData) -> SetupStep:
    """Step 2: a Favor Token of each Ancient marks its step; the Devour and Dance Markers
    leave the box for the mountain."""
    favors = list(state.favor_bag)
    for a in ANCIENTS:
        favors.remove(a)
    rng.shuffle(favors)
    box = list(state.coop.shadow_box)
    for kind in ["Devour"] * len(co.devour_steps) + ["Dance"]:
        box.remove(kind)
    state = _with(state, favor_bag=tuple(favors), coop=_with(
        state.coop, ancient_steps=(co.ancient_start,) * 3, devour_steps=co.devour_steps,
        shadow_box=tuple(box)))
    return SetupStep(
        "2. Ancient Markers, Devour and Dance on the mountain",
        f"One Favor Token of each Ancient marks where that Ancient waits: step {co.ancient_start}. "
        f"Devour Markers lie on steps {' and '.join(map(str, co.devour_steps))} and the Dance "
        f"Marker on step {co.dance_step}: an Ancient falling to the Dance Marker loses the game.",
        state)


def _build_continent(state: GameState, rng: Any, co: CoopData) -> SetupStep:
    """Step 3: the continent (already built) and the Blessings on its marked spaces."""
    state = lay_blessings(state, rng)
    return SetupStep(
        "3. Build the continent",
        f"{len(set(state.board.tile_of))} Biome Tiles (4 per player) form the continent around the mountain, "
        "and a Blessing lies on each marked Water Space.", state)


def _solo_decks(state: GameState, rng: Any, co: CoopData) -> SetupStep:
    """Step 4: the Ritual decks hold only the cards marked for solo/co-op play."""
    ed = state.edition
    land = [c.id for c in ed.land_cards if c.solo]
    creature = [c.id for c in ed.creature_cards if c.solo]
    solo = {*land, *creature}
    out = tuple(c for c in ed.cards if c not in solo)
    rng.shuffle(land)
    rng.shuffle(creature)
    state = _with(state, land_deck=tuple(land), creature_deck=tuple(creature),
                  coop=_with(state.coop, box_cards=out))
    return SetupStep(
        "4. Only the solo-marked Ritual Cards",
        f"The cards marked for solo/co-op play are kept ({len(creature)} Creature and {len(land)} "
        f"Land Rituals) and shuffled into two decks; the other {len(out)} go back to the box.",
        state)


def _open_market(state: GameState, rng: Any, co: CoopData) -> SetupStep:
    """Step 5: one Land Ritual and a Creature Ritual of each Ancient face up."""
    land, creature = list(state.land_deck), list(state.creature_deck)
    market: list[str | None] = [land.pop(0) if land else None]
    seen: set[str] = set()
    tries = 0
    while len(market) < 4 and creature and tries < 100:
        card = creature.pop(0)
        ancient = state.edition.card(card).ancient
        if ancient in seen and tries < 99:   # a type already shown: shuffle it back, reveal again
            creature.insert(rng.randrange(len(creature) + 1), card)
            tries += 1
            continue
        seen.add(ancient)
        market.append(card)
    market += [None] * (4 - len(market))
    state = _with(state, market=tuple(market), land_deck=tuple(land), creature_deck=tuple(creature))
    return SetupStep(
        "5. The Open Market",
        "One Land Ritual and three Creature Rituals, one for each Ancient, are turned face up "
        "(a Creature of a type already shown is shuffled back and another revealed). Nobody "
        "holds Hand Rituals in this mode.", state)


def _scourge_supply(state: GameState, rng: Any, co: CoopData) -> SetupStep:
    """Step 6: the common supply of Scourge Markers."""
    state = _with(state, coop=_with(state.coop,
                                    scourge_supply=co.scourge_per_player * state.num_players))
    return SetupStep(
        "6. The Scourge supply",
        f"{co.scourge_per_player} Scourge Markers per player ({state.coop.scourge_supply}) form the "
        "common supply. Placing the last one loses the game.", state)


def _spirit_of_shadows(state: GameState, rng: Any, co: CoopData) -> SetupStep:
    """Step 7: the Spirit of Shadows and a first Scourge Marker on a Water Space nearest the
    mountain with room for every player's first Tree 2 steps away."""
    board = state.board
    centre = distances_to_mountain(board)
    options = []
    for i in board.water:
        far = land_two_steps_away(board, i)
        if len(far) >= state.num_players:
            options.append((centre[i], i))
    if not options:
        raise InvalidSetup("no Water Space has enough Land Spaces 2 steps away for the starting Trees")
    best = min(d for d, _ in options)
    shadow = rng.choice([i for d, i in options if d == best])
    state = _with(state, coop=_with(state.coop, shadow=shadow, scourged=(shadow,),
                                    scourge_supply=state.coop.scourge_supply - 1))
    return SetupStep(
        "7. The Spirit of Shadows",
        f"The Spirit of Shadows and one Scourge Marker go on a Water Space near the middle "
        f"of the continent, {board.cells[shadow]} (assumption 'coop-setup-shadow').", state)


def _first_trees(state: GameState, rng: Any, co: CoopData) -> SetupStep:
    """Step 8: each player's first Tree on a Land Space 2 steps from the Shadow."""
    trees = list(state.trees)
    ring = sorted(land_two_steps_away(state.board, state.coop.shadow))
    base = list(state.players)
    for p in range(state.num_players):
        i = ring.pop(rng.randrange(len(ring)))
        trees[i] = p
        base[p] = _with(base[p], trees=base[p].trees - 1)
    state = _with(state, trees=tuple(trees), players=tuple(base))
    return SetupStep(
        "8. The first Trees",
        "Each player plants one Tree two spaces away from the Shadow.", state)


def _moon_board(state: GameState, rng: Any, wild_woods: bool) -> SetupStep:
    """Step 9: the Moon Cycles' Shadow Markers on the Moon Board (its Wild Woods side with
    the expansion), the first cycle's in the Shadow Bag, and the starting player."""
    difficulty = state.coop.difficulty
    plan = moon_plan(state.edition, difficulty, wild_woods)
    box = list(state.coop.shadow_box)
    for markers, _ in plan:
        for m in markers:
            box.remove(m)
    first = list(plan[0][0])
    rng.shuffle(first)
    player = rng.randrange(state.num_players)
    state = _with(state, coop=_with(state.coop, shadow_bag=tuple(first),
                                    moon_board=tuple(m for m, _ in plan[1:]),
                                    shadow_box=tuple(box), cycle=1),
                  first_player=player, turn_player=player)
    card = "" if difficulty == "standard" else f" The {DIFFICULTIES[difficulty]} Moon Card replaces Cycles II and III."
    if wild_woods:
        card = " The Wild Woods side of the Moon Board is used" + (
            "." if difficulty == "standard" else
            f", and the Wild Woods {DIFFICULTIES[difficulty]} Moon Card replaces Cycles II and III "
            "(each player gives up a starting Seed when it begins).")
    return SetupStep(
        "9. The Moon Board",
        f"Each Moon Cycle's Shadow Markers lie on the Moon Board ({difficulty} difficulty).{card} "
        f"Cycle I begins: its {len(first)} markers go into the Shadow Bag. "
        f"{PLAYER_NAMES[player]} starts.", state)


def land_two_steps_away(board, i: int) -> set[int]:
    """The Land Spaces exactly 2 steps from space ``i`` (those at distance 2 in
    :func:`distances`): next to a neighbour of ``i``, and neither ``i`` nor next to it."""
    terrain = board.terrain
    return {k for k in steps_away(board, i)[1] if terrain[k] == "land"}


def steps_away(board, i: int) -> tuple[set[int], set[int]]:
    """The spaces 1 step and exactly 2 steps from space ``i`` (those at distance 1 and 2
    in :func:`distances`): its neighbours, and the neighbours of those that are neither
    ``i`` nor next to it.  Read off the board's neighbours, without a search."""
    near = board.neighbours
    one = set(near[i])
    two = {k for j in one for k in near[j]}
    two.difference_update(one)
    two.discard(i)
    return one, two


def distances_to_mountain(board) -> dict[int, int]:
    """Hex distance from each space to the nearest mountain hex (for "near the centre")."""
    mountain = board.mountain or (board.cells[0],)
    # a hex's distance to a mountain never changes: each is worked out once per mountain
    known = _mountain_distances(mountain)
    out = {}
    for i, cell in enumerate(board.cells):
        d = known.get(cell)
        if d is None:
            d = known[cell] = min([hexgrid.distance(cell, m) for m in mountain])
        out[i] = d
    return out


@lru_cache(maxsize=8)
def _mountain_distances(mountain: tuple) -> dict:
    """The distances to ``mountain`` of the hexes met so far (filled by
    :func:`distances_to_mountain`; a board's hexes lie within its coordinate limits)."""
    return {}


# ----------------------------------------------------------------------------------------------
# the working copy of the co-op parts


def _sorted_tuple(values) -> tuple:
    return tuple(sorted(values))


class CoopCopy(WorkingCopy):
    """The co-op record while an action changes it (see :mod:`pangaea_lab.core.working`),
    frozen back with the rest of a :class:`Draft`: the Ancient and Devour Markers' steps, the
    Shadow Bag, the Moon Board and the box become lists, the scourged spaces and the spaces
    holding a second Seed sets, each when the action first reads it; the other parts are
    replaced, never changed in place."""

    RECORD = CoopRecord
    THAW = {"ancient_steps": 1, "devour_steps": 1, "shadow_bag": 1, "moon_stacks": 2,
            "moon_board": 1, "shadow_box": 1, "scourged": Thaw(set, _sorted_tuple),
            "paired": Thaw(set, _sorted_tuple)}


def finish(d: Draft, result: str, reason: str) -> None:
    """End of the Game (Solo/Co-op): the game ends at once, won or lost."""
    if d.coop.result:
        return
    d.coop.result = result
    d.over = True
    d.fields.update(phase="over", end_triggered=True, end_reason=reason)
    waiting = d.new_decisions + d.decisions
    settle_chains(d, waiting)
    for v in d.variants:   # e.g. Treetops still on their way find a place
        v.turn.on_game_over(d, waiting)
    d.decisions.clear()
    d.new_decisions.clear()


def settle_chains(d: Draft, waiting: list[Pending]) -> None:
    """The game ended at once while a played card still waited for its Ritual Chain
    (assumption 'coop-end-chain'): the card stays in front of its player as a chain of its own,
    the place the Ritual Chains rule gives a card that joins no chain; with the game over, the
    placing brings no step, Favor Token or Ecosystem."""
    for x in waiting:
        chains = d.players[x.player].chains
        if x.kind == "chain" and not any(x.card in row for row in chains):
            chains.append([x.card])


def over(d: Draft) -> bool:
    return bool(d.coop.result)


# ----- the mountain ---------------------------------------------------------------------------


def ascend(d: Draft, k: int, steps: int, player: int) -> None:
    """Move Ancient Marker ``k`` up; at the summit the Ancient returns from exile and is placed
    on the continent at once (Returned Ancients).  The last one to return wins the game."""
    co = d.coop
    summit = d.s.edition.summit_steps
    if over(d) or steps <= 0 or is_returned(co.ancient_steps, k, summit):
        return
    co.ancient_steps[k] = min(summit, co.ancient_steps[k] + steps)
    if not is_returned(co.ancient_steps, k, summit):
        return
    if all(is_returned(co.ancient_steps, j, summit) for j in range(3)):
        finish(d, "won", "all three Ancients returned to the summit: Pangaea is saved")
        return
    if _can_place(d, ANCIENTS[k]):
        d.push(Pending("summon", player, ancient=ANCIENTS[k]))


def _can_place(d: Draft, ancient: str) -> bool:
    b = d.s.board
    if ancient == "Okuma":
        return any(d.trees[i] == NOBODY and d.seeds[i] == NOBODY for i in b.land)
    if ancient == "Thorondal":
        return any(d.trees[i] != NOBODY for i in b.land)
    return True


def descend(d: Draft, steps: int) -> None:
    """Ancient Markers still on the mountain go down; a Devour Marker reached (or passed) by an
    Ancient joins the Shadow Bag; an Ancient reaching the Dance Marker loses the game."""
    co = d.coop
    s = d.s
    summit = s.edition.summit_steps
    waiting = [k for k in range(3) if not is_returned(co.ancient_steps, k, summit)]
    if over(d) or steps <= 0 or not waiting:
        return
    for k in waiting:
        co.ancient_steps[k] = max(0, co.ancient_steps[k] - steps)
    low = min(co.ancient_steps[k] for k in waiting)
    for step in list(co.devour_steps):
        if low <= step:
            co.devour_steps.remove(step)
            rng = make_rng(s.seed, "devour-into-bag", co.cycle, step, len(co.shadow_bag))
            co.shadow_bag.insert(rng.randrange(len(co.shadow_bag) + 1), "Devour")
    dance = coop_data(s.edition).dance_step
    if low <= dance:
        k = min(waiting, key=lambda j: co.ancient_steps[j])
        finish(d, "lost", f"the {ANCIENTS[k]} Marker fell to the Dance Marker on step {dance}")


# ----- Scourge --------------------------------------------------------------------------------


def scourge(d: Draft, i: int) -> None:
    """Scourge a space: any Tree or Seed on it goes back to its owner, a Scourge Marker goes on
    it; placing the last Scourge from the supply loses the game."""
    co = d.coop
    if over(d) or i in co.scourged or co.scourge_supply == 0:
        return
    if d.trees[i] != NOBODY:
        d.remove_tree(i)
    _seed_back(d, i)
    co.scourged.add(i)
    co.scourge_supply -= 1
    if co.scourge_supply == 0:
        finish(d, "lost", "the last Scourge Marker was placed")


def _seed_back(d: Draft, i: int) -> None:
    d.return_seeds(i)   # both Seeds of a paired space (see CoopVariant.return_seeds)


def heal(d: Draft, i: int) -> None:
    """Healing Scourge: the marker goes back to the supply."""
    if i in d.coop.scourged:
        d.coop.scourged.discard(i)
        d.coop.scourge_supply += 1


def _blocked(s_or_d, board) -> set[int]:
    return ({i for i in s_or_d.spirits if i != NOBODY} | {i for i in s_or_d.ancients if i != NOBODY})


def scourge_targets(s: GameState, area: str) -> list[int]:
    """Where a spreading Scourge may go: next to the scourged area around the Shadow ("shadow")
    or next to any scourged area ("any"); never on a Spirit or an Ancient (assumption
    'coop-scourge-spaces')."""
    b = s.board
    co = s.coop
    taken = set(co.scourged) | _blocked(s, b)
    free = [i for i in range(len(b)) if i not in taken]
    out: set[int] = set()
    if area == "shadow" and co.shadow != NOBODY:
        # the scourged area joined to the Shadow: its connected component
        # (the board's graph restricted to the Shadow and the scourged spaces, made from
        # the board's neighbours: the same nodes and edges as its subgraph, and quicker to
        # make and search than a view of the whole board's graph)
        area = {co.shadow, *co.scourged}
        near = b.neighbours
        area_graph = nx.Graph()
        area_graph.add_nodes_from(area)
        area_graph.add_edges_from((i, j) for i in area for j in near[i] if j in area)
        region = nx.node_connected_component(area_graph, co.shadow)
        out = {j for i in region for j in b.neighbours[i]} & set(free)
    if not out:
        out = {j for i in co.scourged for j in b.neighbours[i]} & set(free)
    return sorted(out or free)


# ----- the Shadow Phase -----------------------------------------------------------------------


def shadow_targets(s: GameState) -> list[int]:
    """Spaces the Spirit of Shadows may move to: 2 steps away, no Spirit or Ancient on them
    (assumption 'coop-shadow-distance' when none is free at 2)."""
    blocked = _blocked(s, s.board) | {s.coop.shadow}
    # 2 steps, else 1 step: read off the neighbours (nearly every move); farther rings
    # from the distances of the whole board
    one, two = steps_away(s.board, s.coop.shadow)
    for ring in (two, one):
        out = sorted(ring.difference(blocked))
        if out:
            return out
    far = distances(s.board, s.coop.shadow)
    for reach in (3, 4, 5, 6):
        out = sorted(i for i, k in far.items() if k == reach and i not in blocked)
        if out:
            return out
    return sorted(i for i in far if i not in blocked)


def end_turn(s: GameState, d: Draft) -> None:
    """End of Turn: refill the market to 3 Creature and 1 Land Ritual, pass the turn, and the
    player who ended it takes the Shadow Phase (a decision, taken before the next turn)."""
    if s.actions_taken < 2:
        raise s.reject(f"Take {plural(2 - s.actions_taken, 'more action')} first: every turn has "
                       "2 actions.", rule="Gameplay Overview")
    d.refill_market(COOP_MARKET_SLOTS, favors=False)   # assumption 'coop-no-market-favors'
    n = s.num_players
    nxt = (s.turn_player + 1) % n
    d.fields.update(turn_player=nxt, actions_taken=0, exchange_used=False,
                    round=s.round + (1 if nxt == s.first_player else 0))
    d.coop.weather_shared = False
    for v in d.variants:
        v.turn.on_end_turn(d)
    tall = d.ended_tall
    if tall != NOBODY and d.trees[tall] != NOBODY:
        # Wild Woods: a Tree reached level 3 this turn (and still stands); the Shadow
        # moves onto it and the Shadow Phase is skipped
        d.coop.shadow = tall
        return
    d.push(Pending("shadow", s.turn_player))


def do_move_shadow(s: GameState, d: Draft, a: MoveShadow) -> None:
    """Shadow Phase: move the Shadow, act on the space it reaches, draw a Shadow Marker."""
    i = s.board.action_space(a.cell, "Shadow Phase")
    if i not in shadow_targets(s):
        raise s.reject(f"The Shadow moves 2 spaces away and never onto a Spirit or an Ancient; "
                       f"{s.board.cells[i]} is not such a space.", rule="Shadow Phase",
                       like=MoveShadow)
    co = d.coop
    co.shadow = i
    if d.trees[i] != NOBODY or d.seeds[i] != NOBODY:
        pass                                  # a Tree or a Seed: the Shadow does nothing
    elif i in co.scourged:
        descend(d, 1)                         # on a Scourge: every Ancient Marker down a step
    else:
        scourge(d, i)                         # an empty space is scourged
    if not over(d):
        draw_marker(s, d, s.pending.player)


def draw_marker(s: GameState, d: Draft, player: int) -> None:
    """Draw a Shadow Marker onto the Moon Board's current stack and apply it (Dream, Devour,
    Dance); an empty bag ends the Moon Cycle."""
    co = d.coop
    data = coop_data(s.edition)
    marker = co.shadow_bag.pop(0)
    if not co.moon_stacks or co.moon_stacks[-1][-1] == "Dance":
        co.moon_stacks.append([])
    co.moon_stacks[-1].append(marker)
    i = co.shadow
    if marker == "Dream":
        if d.trees[i] != NOBODY:
            d.gain_weather(d.trees[i], i)
    elif marker == "Devour":
        if d.trees[i] != NOBODY:
            owner = d.remove_tree(i)
            if d.players[owner].seeds and i not in co.scourged:
                d.push(Pending("devour", owner, targets=(i,)))
        else:
            _seed_back(d, i)
    else:   # Dance
        count = s.num_players
        if i not in co.scourged:
            scourge(d, i)
            count -= 1
        for _ in range(count):
            d.push(Pending("scourge", player, area="shadow"))
        descend(d, sum(1 for m in co.moon_stacks[-1] if m in data.black))
    if not over(d) and not co.shadow_bag:
        end_of_cycle(s, d)


def end_of_cycle(s: GameState, d: Draft) -> None:
    """End of Cycle: after the third the game is lost; otherwise every drawn marker goes back
    into the bag with the next cycle's markers, and a Moon Card's effects apply."""
    co = d.coop
    if co.cycle >= 3:
        finish(d, "lost", "the third Moon Cycle ended before all Ancients returned")
        return
    co.cycle += 1
    markers = [m for stack in co.moon_stacks for m in stack] + list(co.moon_board.pop(0))
    co.moon_stacks = ()
    effects = moon_plan(s.edition, co.difficulty, s.woods is not None)[co.cycle - 1][1]
    if "remove_dream" in effects and "Dream" in markers:
        markers.remove("Dream")
        co.shadow_box.append("Dream")
    make_rng(s.seed, "shadow-bag", co.cycle).shuffle(markers)
    co.shadow_bag = tuple(markers)
    for q in range(s.num_players):
        if "blessing_each" in effects and d.blessing_bag:
            kind = d.blessing_bag.pop(0)
            d.players[q].blessings[BLESSING_KINDS.index(kind)] += 1
        if "scourge_each" in effects:
            d.push(Pending("scourge", q, area="any"))
        if "give_up_seed" in effects:   # (the Wild Woods Moon Cards)
            for v in d.variants:
                v.seeds.give_up_seed(d, q)


def do_place_scourge(s: GameState, d: Draft, a: PlaceScourge) -> None:
    i = s.board.action_space(a.cell, "Scourge")
    if i not in scourge_targets(s, s.pending.area):
        raise s.reject(f"A Scourge spreads next to the scourged area, never onto a Spirit or an "
                       f"Ancient; {s.board.cells[i]} is not allowed.", rule="Scourge",
                       like=PlaceScourge)
    scourge(d, i)


def do_ascend(s: GameState, d: Draft, a: AscendAncient) -> None:
    if a.ancient not in ANCIENTS or returned(s, a.ancient):
        raise s.reject("A Land Ritual moves up an Ancient Marker still on the mountain.",
                       rule="Changes in the Player Phase: Playing Ritual Cards", like=AscendAncient)
    ascend(d, ANCIENTS.index(a.ancient), s.pending.amount, s.pending.player)


def do_leave_seed(s: GameState, d: Draft, a: LeaveSeed) -> None:
    pend = s.pending
    if a.leave:
        d.put_seed(pend.targets[0], pend.player)


def do_place_seed(s: GameState, d: Draft, a: PlaceSeed) -> None:
    i = s.board.action_space(a.cell, "Scourge: Thorondal")
    p = s.pending.player
    d.put_seed(i, p)


def check_share_weather(s: GameState, a: ShareWeather) -> None:
    """Weather Token Sharing: once per turn, a token held, to a player whose Trees are next to
    yours."""
    rule = "Changes in the Player Phase: Weather Token Sharing"
    p = s.turn_player
    if s.coop is None:
        raise IllegalAction("Weather Tokens are shared only in Return of the Ancients.", rule=rule)
    if s.coop.weather_shared:
        raise s.reject("You may give only one Weather Token per turn.", rule=rule)
    if not isinstance(a.to, int) or not 0 <= a.to < s.num_players or a.to == p:
        raise s.reject("Give the token to another player.", rule=rule, like=ShareWeather)
    if a.to not in neighbours_of(s, p):
        raise s.reject(f"{PLAYER_NAMES[a.to]}'s Trees are not next to yours.", rule=rule,
                       like=ShareWeather)
    biomes = s.edition.biomes
    if a.weather not in biomes or not s.players[p].weather[biomes.index(a.weather)]:
        raise s.reject(f"You hold no {a.weather} token to give.", rule=rule, like=ShareWeather)


def do_share_weather(s: GameState, d: Draft, a: ShareWeather) -> None:
    p = s.turn_player
    k = s.edition.biomes.index(a.weather)
    d.players[p].weather[k] -= 1
    d.players[a.to].weather[k] += 1
    d.coop.weather_shared = True


def neighbours_of(s: GameState, p: int) -> set[int]:
    """Players with a Tree next to one of ``p``'s Trees."""
    b = s.board
    trees, near = s.trees, b.neighbours
    return {trees[j] for i in b.land if trees[i] == p for j in near[i]
            if trees[j] != NOBODY and trees[j] != p}


# ----- hooks used by the turn structure in rules.py ---------------------------------------------


def gain_favor(d: Draft, p: int, ancient: str) -> None:
    if ancient in d.favor_bag:
        d.favor_bag.remove(ancient)
        d.players[p].favors[ANCIENTS.index(ancient)] += 1


def creature_played(s: GameState, d: Draft, p: int, card) -> None:
    """A Creature Ritual moves its own Ancient up by its points, or, once that Ancient has
    returned, gives a Favor Token of its type instead."""
    if free_ritual(s, card):
        gain_favor(d, p, card.ancient)
    else:
        ascend(d, ANCIENTS.index(card.ancient), card.points, p)


def land_played(s: GameState, d: Draft, p: int, points: int) -> None:
    """A Land Ritual moves an Ancient Marker of the player's choice (a decision)."""
    if points > 0 and not over(d):
        d.push(Pending("ascend", p, amount=points))


def chain_bonus(s: GameState, d: Draft, p: int, card_id: str, neighbour: str | None) -> None:
    """+1 for a Creature card placed next to a Creature of the same Ancient: a step up, or a
    second Favor Token for a returned Ancient's card."""
    if neighbour is None:
        return
    card, other = s.card(card_id), s.card(neighbour)
    if card.kind != "creature" or other.kind != "creature" or card.ancient != other.ancient:
        return
    free = d.free_card == card_id or (s.pending is not None and s.pending.kind == "chain"
                                         and s.pending.amount == 1)
    if free:
        gain_favor(d, p, card.ancient)
    else:
        ascend(d, ANCIENTS.index(card.ancient), 1, p)


def call_step(s: GameState, d: Draft, ancient: str) -> None:
    """Call Ancient before an Ancient has returned: its marker goes up one step."""
    ascend(d, ANCIENTS.index(ancient), 1, s.turn_player)


def ancient_entered(d: Draft, ancient: str, i: int) -> None:
    """Returned Chelon and Okuma heal a scourged space they enter; Thorondal sows a second
    Seed next to it (a decision) when one is free."""
    if ancient in ("Okuma", "Chelon"):
        heal(d, i)


def thorondal_second_seed(d: Draft, p: int, at: int) -> None:
    if d.players[p].seeds and _second_seed_spots(d.s.board, d.trees, d.seeds, at):
        d.push(Pending("seed", p, targets=(at,)))


def _second_seed_spots(board, trees, seeds, at: int) -> list[int]:
    return [j for j in board.neighbours[at] if board.terrain[j] == "land"
            and trees[j] == NOBODY and seeds[j] == NOBODY]


def may_grow(d: Draft, i: int, forced: bool) -> bool:
    """Healing Scourge: a single Seed on a scourged Land Space does not grow; two Seeds (or a
    Vigorous Seed) do."""
    return i not in d.coop.scourged or forced or i in d.coop.paired or d.seeds_on(i) >= 2


def grow_here(d: Draft, i: int, owner: int) -> None:
    """A Tree grows on a scourged space: the second Seed goes back too and the space heals."""
    if i in d.coop.paired:
        d.coop.paired.discard(i)
        d.players[owner].seeds += 1
    heal(d, i)


def pair_targets(s: GameState, p: int) -> list[int]:
    """Scourged Land Spaces where ``p`` may add a second Seed to their own single Seed (in
    Wild Woods Seed Competition already allows it, and its own Seed actions replace these)."""
    co = s.coop
    return [i for i in co.scourged if s.board.terrain[i] == "land" and s.seeds[i] == p
            and i not in co.paired and s.trees[i] == NOBODY]


def decision_actions(s: GameState, pend: Pending) -> list[PangaeaAction]:
    b = s.board
    if pend.kind == "shadow":
        return [MoveShadow(b.cells[i]) for i in shadow_targets(s)]
    if pend.kind == "scourge":
        return [PlaceScourge(b.cells[i]) for i in scourge_targets(s, pend.area)]
    if pend.kind == "ascend":
        return [AscendAncient(a) for a in ANCIENTS if not returned(s, a)]
    if pend.kind == "devour":
        i = pend.targets[0]
        ok = s.players[pend.player].seeds and s.seeds[i] == NOBODY and s.trees[i] == NOBODY
        return ([LeaveSeed(True)] if ok else []) + [LeaveSeed(False)]
    # "seed": Thorondal's second Seed
    spots = _second_seed_spots(b, s.trees, s.seeds, pend.targets[0])
    return [PlaceSeed(b.cells[j]) for j in spots] if s.players[pend.player].seeds else []


def free_actions(s: GameState, p: int) -> list[PangaeaAction]:
    if s.coop.weather_shared or s.num_players == 1:
        return []
    weather = s.players[p].weather
    held = [w for k, w in enumerate(s.edition.biomes) if weather[k]]
    if not held:        # nothing to give: the neighbours need not be looked for
        return []
    return [ShareWeather(q, w) for q in sorted(neighbours_of(s, p)) for w in held]




def progress(s: GameState) -> int:
    """A rough measure of how the team is doing: Ancient steps (with a Land Ritual's steps
    still to be assigned) and Favor Tokens held; used by the computer players."""
    waiting = sum(d.amount for d in s.decisions if d.kind == "ascend")
    return sum(s.coop.ancient_steps) + waiting + sum(sum(ps.favors) for ps in s.players)


# ----------------------------------------------------------------------------------------------
# invariants


def check_invariants(s: GameState) -> None:
    co = s.coop
    data = coop_data(s.edition)
    n = s.num_players
    b = s.board
    require(co.scourge_supply >= 0 and len(set(co.scourged)) == len(co.scourged))
    require(co.scourge_supply + len(co.scourged) == data.scourge_per_player * n,
            "Scourge Markers: supply + continent must equal 5 per player")
    require(not any(i in co.scourged for i in s.spirits if i != NOBODY),
            "a Spirit stands on a scourged Water Space")
    held = (list(co.shadow_bag) + [m for st in co.moon_stacks for m in st]
            + [m for c in co.moon_board for m in c] + ["Devour"] * len(co.devour_steps) + ["Dance"]
            + list(co.shadow_box))
    for kind, total in data.shadow_mix:
        require(held.count(kind) == total, f"{kind} Shadow Markers: {held.count(kind)} in play, {total} in the box")
    for i in co.paired:
        require(i in co.scourged and b.terrain[i] == "land" and s.seeds[i] != NOBODY,
                "a second Seed lies only on a scourged Land Space with a Seed")
    require(co.shadow != NOBODY and 0 <= co.shadow < len(b), "the Shadow stands on the continent")
    require(all(0 <= x <= s.edition.summit_steps for x in co.ancient_steps))
    require(all(not ps.hand for ps in s.players), "Return of the Ancients has no Hand Rituals")
    require((s.phase == "over") == bool(co.result), "a co-op game ends won or lost")
    require(co.result in ("", "won", "lost"))


# ----------------------------------------------------------------------------------------------
# the variant


class CoopListing(Listing):
    """Return of the Ancients in the listing: Spirits kept off scourged water and the Shadow's
    space, the second Seed of Healing Scourge, Returned Ancients, Weather Token Sharing."""

    def second_seed_spaces(self, s: GameState, p: int) -> list[int]:
        return pair_targets(s, p)

    def barred_water(self, s: GameState) -> tuple[int, ...]:
        # Spirits never enter scourged water, nor the Spirit of Shadows' space, as the Shadow
        # counts as a Spirit (assumption 'coop-shadow-spirit')
        shadow = s.coop.shadow
        if shadow == NOBODY or shadow in s.coop.scourged:
            return s.coop.scourged
        return (*s.coop.scourged, shadow)

    def refusal(self, s: GameState, action: Any) -> IllegalAction | None:
        shadow = s.coop.shadow
        if (isinstance(action, SpiritGrowth) and shadow != NOBODY
                and shadow not in s.coop.scourged and action.cell == s.board.cells[shadow]):
            return s.reject(f"The Spirit of Shadows stands on {s.board.cells[shadow]}. In this "
                            "project's reading of the rules it counts as a Spirit, so no other "
                            "Spirit may go to its space.", rule="Spirit Growth", like=SpiritGrowth)
        return None

    def may_summon(self, s: GameState, ancient: str) -> bool:
        return returned(s, ancient)   # Returned Ancients: only one back from exile

    def calls_back(self, s: GameState, ancient: str) -> bool:
        return not returned(s, ancient)

    def decision_actions(self, s: GameState, pend: Pending) -> list:
        return decision_actions(s, pend)

    def free_actions(self, s: GameState, p: int) -> list:
        return free_actions(s, p)


class CoopSeeds(Seeds):
    """Return of the Ancients on the continent: the paired Seeds of Healing Scourge, and Seeds
    that grow (or not) on scourged spaces."""

    def second_seed(self, d: Draft, i: int) -> None:
        d.coop.paired.add(i)   # Healing Scourge: a second Seed on a scourged Land Space

    def return_seeds(self, d: Draft, i: int) -> bool:
        if i not in d.coop.paired:
            return False
        d.players[d.seeds[i]].seeds += 2
        d.seeds[i] = NOBODY
        d.coop.paired.discard(i)
        return True

    def take_back(self, d: Draft, i: int, p: int) -> bool:
        if i not in d.coop.paired:
            return False
        d.coop.paired.discard(i)   # the second Seed comes back, the first stays
        return True

    def may_grow(self, d: Draft, i: int, forced: bool) -> bool:
        return may_grow(d, i, forced)

    def on_growth(self, d: Draft, i: int, owner: int) -> None:
        grow_here(d, i, owner)


class CoopTurn(Turn):
    """Return of the Ancients in the turn: the record's working copy, Ancients on scourged
    spaces, Rituals that lift the Ancient Markers, and the Shadow Phase at the End of Turn."""

    copy = CoopCopy

    def call_ancient(self, s: GameState, d: Draft, ancient: str) -> None:
        call_step(s, d, ancient)

    def on_ancient_entered(self, d: Draft, ancient: str, i: int) -> None:
        ancient_entered(d, ancient, i)

    def on_thorondal(self, d: Draft, p: int, i: int) -> None:
        thorondal_second_seed(d, p, i)

    def on_chain(self, s: GameState, d: Draft, p: int, card: str,
                 neighbour: str | None) -> None:
        chain_bonus(s, d, p, card, neighbour)

    def creature_ritual(self, s: GameState, d: Draft, p: int, card: Any) -> bool:
        creature_played(s, d, p, card)
        return True

    def land_reward(self, s: GameState, d: Draft, p: int, points: int) -> bool:
        land_played(s, d, p, points)
        return True

    def end_turn(self, s: GameState, d: Draft) -> bool:
        end_turn(s, d)
        return True


class CoopScoring(Scoring):
    """Return of the Ancients' scoring: the team's progress, everyone wins or no one."""

    def team_scores(self, s: GameState) -> list[ScoreBreakdown]:
        return team_scores(s)

    def winners(self, s: GameState) -> list[int]:
        """Everyone wins or everyone loses."""
        return list(range(s.num_players)) if s.coop.result == "won" else []

    def free_ritual(self, s: GameState, card: Any) -> bool:
        return free_ritual(s, card)


class CoopPieces(Pieces):
    """What the Return of the Ancients record holds: paired Seeds, boxed cards, the Ancient
    Markers' Favor Tokens."""

    def seeds_held(self, s: GameState, p: int) -> int:
        return sum(1 for i in s.coop.paired if s.seeds[i] == p)

    def cards_held(self, s: GameState) -> tuple[str, ...]:
        return s.coop.box_cards

    def favors_held(self, s: GameState, ancient: str) -> int:
        return 1   # the Ancient Marker on the mountain

    def check_invariants(self, s: GameState) -> None:
        check_invariants(s)


class CoopHeuristics(Heuristics):
    """What the computer players weigh in Return of the Ancients: the team's progress in
    place of points, and the team's interest in the variant's own actions."""

    def points(self, s: GameState, p: int) -> int:
        return progress(s)

    def value(self, s: GameState, a: Any, p: int, spot: Callable[[GameState, int, int], float]
              ) -> float | None:
        """The team's interest. The Shadow goes where it does least
        harm, Scourge spreads onto empty spaces, Land Rituals lift the Ancient nearest the
        summit when it would return, otherwise the one nearest the Dance Marker."""
        b = s.board
        if isinstance(a, MoveShadow):
            i = b.index[a.cell]
            if s.trees[i] != NOBODY:
                return 3.0
            if s.seeds[i] != NOBODY:
                return 2.0
            return -3.0 if i in s.coop.scourged else -1.0 - 0.2 * sum(
                1 for j in b.neighbours[i] if s.trees[j] != NOBODY)
        if isinstance(a, PlaceScourge):
            i = b.index[a.cell]
            return (-2.0 if s.trees[i] != NOBODY else -1.0 if s.seeds[i] != NOBODY else 0.0) \
                + (0.5 if b.terrain[i] == "water" else 0.0)
        if isinstance(a, AscendAncient):
            k = ANCIENTS.index(a.ancient)
            summit = s.edition.summit_steps
            amount = s.pending.amount if s.pending else 0
            step = s.coop.ancient_steps[k]
            return 100.0 + step if step + amount >= summit else 50.0 - step
        if isinstance(a, (LeaveSeed, PlaceSeed)):
            return 1.0 if not isinstance(a, LeaveSeed) or a.leave else 0.0
        if isinstance(a, ShareWeather):
            return -0.1
        if isinstance(a, BlessCallAncient) and not returned(s, a.ancient):
            return 2.0 + s.coop.ancient_steps[ANCIENTS.index(a.ancient)] / 100
        return None


class CoopVariant(Variant):
    """Return of the Ancients as a variant: its record is ``state.coop``; it replaces the
    competitive setup, the points of Rituals (Ancients climb instead), the End of Turn (the
    Shadow Phase) and the end of the game, and adds Scourge, the second Seed of Healing
    Scourge and Weather Token Sharing."""

    name = "Return of the Ancients"
    order = 1
    record = "coop"
    section = "ancients_mode"
    decisions = {
        "shadow": ("move the Spirit of Shadows", "Shadow Phase"),
        "scourge": ("place a spreading Scourge Marker", "Scourge"),
        "ascend": ("choose the Ancient Marker the Land Ritual moves up",
                   "Changes in the Player Phase: Playing Ritual Cards"),
        "devour": ("decide whether to leave a Seed where the Tree was devoured",
                   "Shadow Phase: Devour"),
        "seed": ("place Thorondal's second Seed", "Scourge: Healing Scourge"),
    }
    checks = {ShareWeather: check_share_weather}
    handlers = {MoveShadow: do_move_shadow, PlaceScourge: do_place_scourge,
                AscendAncient: do_ascend, LeaveSeed: do_leave_seed, PlaceSeed: do_place_seed,
                ShareWeather: do_share_weather}
    market_favors = False     # assumption 'coop-no-market-favors'
    summit_ends = False
    hand_rituals = False
    own_setup = True
    hooks = (CoopListing, CoopSeeds, CoopTurn, CoopScoring, CoopPieces, CoopHeuristics)

    def chosen(self, options: dict[str, Any]) -> bool:
        return options.get("mode") in NAMES

    def check_setup(self, options: dict[str, Any]) -> None:
        if options.get("family"):
            raise InvalidSetup("Return of the Ancients uses the Ancients and Favor Tokens; it "
                               "cannot be played with family=True")
        ed = options["edition"]
        _check_setup(options["players"], options["difficulty"], ed, coop_data(ed))

    def setup_steps(self, steps: list[SetupStep], seed: int | str,
                    options: dict[str, Any]) -> list[SetupStep]:
        """The 9 steps of Return of the Ancients, in place of the competitive setup."""
        return setup_steps(options["players"], seed, options["difficulty"], options["edition"],
                           options["board"], options["wild_woods"])


VARIANT = register(CoopVariant())
