"""The values The Dawn of Pangaea keeps to go faster agree with working everything out
afresh: the continent laid with kept counts against the plain search over every spot, the
Land Ritual distances searched over the board's neighbours against networkx on a subgraph
made for the position, the kept Land Ritual listings and labelled actions against listings
made again, a state's kept (or shared) position against a new one, the kept answers and
actions of the listing (summoning, Creature Rituals, Wild Woods ranges and sowing) against
new ones."""

import collections
import gc
import random
from functools import partial

import networkx as nx
import pytest

from pangaea_lab import pangaea
from pangaea_lab.core import hexgrid
from pangaea_lab.core.rng import make_rng
from pangaea_lab.core.testing import seeded_positions
from pangaea_lab.pangaea import (actions, board as board_module, coop, rituals, rules, scoring,
                                 variants, woods)
from pangaea_lab.pangaea.variant import Scoring
from pangaea_lab.pangaea.actions import (BlessFlyingSeed, ExpandForest, FlyingSeed, PlayLand,
                                         SpiritGrowth, TakeBackSeed)
from pangaea_lab.pangaea.board import Tile, _tile_cells
from pangaea_lab.pangaea.draft import PlayerCopy
from pangaea_lab.pangaea.edition import CreatureCard, LandCard, tiles_per_player, woods_data
from pangaea_lab.pangaea.variants import free_ritual

MODES = {"full": {}, "coop": {"mode": "coop"}, "woods": {"wild_woods": True}}


def same_actions(listed, fresh) -> int:
    """Assert that two lists of Pangaea actions are equal and read the same (labels included);
    how many there are."""
    assert listed == fresh
    assert [a.label for a in listed] == [a.label for a in fresh]
    return len(listed)


def positions(mode: str, seeds=range(2), every: int = 3):
    new_game = partial(pangaea.new_game, **MODES[mode])
    players = (2,) if mode == "coop" else (3, 4)
    return seeded_positions(new_game, seeds=seeds, players=players, every=every)


# ----- the continent ------------------------------------------------------------------------


def lay_tiles_plainly(ed, biomes, rng):
    """Every tile tried at every rotation and every offset putting one of its hexes on the
    frontier, counted afresh for each tile: the snuggest spots, the first met of equal ones
    kept once, one chosen at random."""
    mountain = set(hexgrid.spiral((0, 0), ed.mountain_radius))
    taken = set()
    shape = list(ed.land_shape) + list(ed.water_shape)
    tiles = []
    for index, biome in enumerate(biomes):
        blocked = mountain | taken
        frontier = sorted({n for c in blocked for n in hexgrid.neighbours(c)} - blocked)
        seen, best, best_score = set(), [], -1
        for rotation in range(6):
            rotated = [hexgrid.rotate(c, rotation) for c in shape]
            offsets = dict.fromkeys(hexgrid.sub(a, c) for a in frontier for c in rotated)
            for offset in offsets:
                cells = frozenset(hexgrid.add(c, offset) for c in rotated)
                if cells & blocked or cells in seen:
                    continue
                seen.add(cells)
                touch_tiles = sum(1 for c in cells for n in hexgrid.neighbours(c) if n in taken)
                if tiles and touch_tiles == 0:
                    continue
                score = touch_tiles + 2 * sum(1 for c in cells for n in hexgrid.neighbours(c)
                                              if n in mountain)
                if score > best_score:
                    best, best_score = [], score
                if score == best_score:
                    best.append((rotation, offset))
        rotation, offset = rng.choice(best)
        land, water, blessing = _tile_cells(ed, rotation, offset)
        tiles.append(Tile(index, biome, tuple(land), tuple(water), tuple(blessing)))
        taken.update(land + water)
    return tiles


_EDITION = pangaea.load_edition()


@pytest.mark.parametrize("players", range(pangaea.GAME.players_for({})[0], _EDITION.max_players + 1))
def test_continents_are_laid_as_by_the_plain_search(players):
    ed = _EDITION
    for seed in [*range(12), "lesson"]:
        biomes = [b for b, n in tiles_per_player(ed).items() for _ in range(n * players)]
        rng = make_rng(seed, "continent")
        rng.shuffle(biomes)
        again = random.Random()
        again.setstate(rng.getstate())
        assert board_module._lay_tiles(ed, list(biomes), rng) == \
            lay_tiles_plainly(ed, list(biomes), again), (players, seed)
        assert rng.getstate() == again.getstate()   # the same draws


def test_the_first_tiles_laid_once_are_left_as_a_fresh_search_lays_them():
    """The first tile's spots, and the layout after it on each, are kept with the mountain's
    layout: laying continents on copies leaves them as a fresh layout makes them."""
    ed = _EDITION
    shape = tuple(ed.land_shape) + tuple(ed.water_shape)
    for players in (1, 3, 5):
        for seed in range(6):
            board_module._build.__wrapped__(ed, players, seed)   # laid afresh, not cached
    kept = board_module._mountain_laid(ed.mountain_radius, shape)
    fresh = board_module._Layout(ed.mountain_radius, shape)
    assert kept.first_spots() == fresh.first_spots()
    assert kept._after_first, "the first tiles are kept"
    for spot, (laid, touch) in kept._after_first.items():
        rotation = kept.kept[spot & 7][0]
        land, water, _ = _tile_cells(ed, rotation, board_module._hex_of(spot >> 3))
        again = fresh.copy()
        counts = collections.Counter()
        again.settle([board_module._num(h) for h in land + water], counts)
        assert touch == counts
        for name in ("blocked", "frontier", "overlap", "reach"):
            assert getattr(laid, name) == getattr(again, name), name
        copied, copied_touch = kept.after_first(spot, [])
        assert copied.reach == laid.reach and copied.reach is not laid.reach
        assert copied_touch == touch and copied_touch is not touch


# ----- Land Rituals -------------------------------------------------------------------------


@pytest.mark.parametrize("mode", sorted(MODES))
def test_distances_searched_over_the_neighbours_are_networkx_distances_on_a_fresh_subgraph(mode):
    checked = 0
    for state in positions(mode):
        pos = state.position
        nodes = [i for i in range(len(pos.board)) if pos.connects(i)]
        fresh = pos.board.space_graph.subgraph(nodes)
        assert set(pos.ritual_graph.edges) == set(fresh.edges)
        for source in nodes[::5] + [pos.board.land[0]]:
            expected = nx.single_source_shortest_path_length(
                fresh if source in nodes else pos.board.space_graph.subgraph(nodes + [source]),
                source)
            assert pos.distances(source) == expected
            checked += 1
    assert checked > 50


def land_cards(state):
    ids = [c for p in state.players for c in p.hand] + [c for c in state.market if c]
    return [state.card(c) for c in ids if isinstance(state.card(c), LandCard)]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_kept_listings_and_actions_are_made_again_alike(mode):
    checked = 0
    for state in positions(mode, every=5):
        kept = state.position
        assert kept is state.position
        made = state._make_position()
        assert made == kept and hash(made) == hash(kept)
        for player in range(state.num_players):
            for card in land_cards(state):
                listed = rituals.listed_options(kept, player, card)
                afresh = rituals._listed.__wrapped__(
                    rituals.Position(made.board, made.trees, made.spirit_at, made.chelon,
                                     made.protected), made.board.biome, player, card)
                assert listed == list(afresh)
                for from_market in (False, True):
                    actions = scoring._land_actions(kept, kept.board.biome, player, card.id,
                                                    card, from_market)
                    again = scoring._land_actions.__wrapped__(made, made.board.biome, player,
                                                              card.id, card, from_market)
                    same_actions(actions, again)
                    assert [a.path for a in actions] == [o.path for o in listed]
                    assert all(type(a) is PlayLand for a in actions)
                checked += 1
    assert checked > 20


def test_positions_on_a_stormy_board_keep_their_own_listing():
    """A Wild Woods Storm changes a board's biomes only; the kept listings and actions know
    the two boards apart."""
    stormy = 0
    for state in positions("woods", seeds=range(3), every=7):
        if not state.woods.storm_tiles:
            continue
        stormy += 1
        pos = state.position
        plain = rituals.Position(state.board, pos.trees, pos.spirit_at, pos.chelon,
                                 pos.protected)
        for card in land_cards(state):
            for player in range(state.num_players):
                assert rituals.listed_options(plain, player, card) == list(
                    rituals._listed.__wrapped__(plain, state.board.biome, player, card))
                assert rituals.listed_options(pos, player, card) == list(
                    rituals._listed.__wrapped__(pos, pos.board.biome, player, card))
    assert stormy > 0


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_listing_finds_the_same_paths_and_pairs_as_the_plain_functions(mode):
    checked = 0
    for state in positions(mode, every=6):
        pos = state.position
        board = pos.board
        for player in range(state.num_players):
            mine = [i for i in board.land if pos.trees[i] == player]
            for card in land_cards(state):
                first, second = card.biomes
                assert rituals.endpoints(pos, player, card) == [
                    (a, b) for a in mine for b in mine if a != b and board.biome[a] == first
                    and board.biome[b] == second and not (first == second and b < a)]
            for a in mine:
                for b in mine:
                    few = rituals._few_shortest_paths(pos, a, b)
                    count = rituals.count_shortest_paths(pos, a, b)
                    if count > rituals.LIST_LIMIT:
                        assert few is None
                    else:
                        assert sorted(few) == sorted(rituals.shortest_paths(pos, a, b))
                        assert len(few) == count
                    checked += 1
    assert checked > 100


def test_crowded_pairs_are_counted_past_the_limit():
    spaces = {(q, r): ("land", "Sun") for q in range(7) for r in range(7)}
    board = pangaea.custom_board(spaces)
    pos = rituals.Position.build(board, {c: 0 for c in spaces})
    assert rituals.count_shortest_paths(pos, board.index[(0, 0)], board.index[(6, 6)]) == 924
    assert rituals._few_shortest_paths(pos, board.index[(0, 0)], board.index[(6, 6)]) is None
    few = rituals._few_shortest_paths(pos, board.index[(0, 0)], board.index[(3, 3)])
    assert sorted(few) == sorted(rituals.shortest_paths(pos, board.index[(0, 0)],
                                                         board.index[(3, 3)]))
    assert len(few) == 20


def test_seed_competition_counts_kept_per_stack_agree_with_counting_again():
    for state in positions("woods", every=4):
        for i, stack in enumerate(state.woods.seed_stacks):
            for p in range(state.num_players):
                others = max((n for q, n in enumerate(stack) if q != p), default=0)
                assert woods.needed(stack, p) == woods.needed(list(stack), p) == \
                    max(1, others - stack[p] + 1)
                after = list(stack)
                after[p] -= 1
                fair = stack[p] > 0 and (max(after) == 0 or after.count(max(after)) == 1)
                assert woods.may_take_back(state, p, i) == fair


def test_growth_actions_made_once_per_board_equal_new_ones():
    from_rules = {"flying": FlyingSeed, "spirit": SpiritGrowth, "take_back": TakeBackSeed,
                  "bless_flying": BlessFlyingSeed}
    for state in positions("full", seeds=range(1), every=40):
        board = state.board
        made = rules._made(board)
        for name, cls in from_rules.items():
            got = getattr(made, name)
            assert got == [cls(c) for c in board.cells]
            assert all(type(a) is cls and a.label == "" for a in got)
        assert made.expand == [ExpandForest((c,)) for c in board.cells]
        targets = list(board.land[:9])
        for _ in range(2):   # made, then found again
            pairs = made.expand_pairs(targets)
            assert pairs == [ExpandForest((board.cells[i], board.cells[j]))
                             for k, i in enumerate(targets) for j in targets[k + 1:]]
            assert all(a.label == "" for a in pairs)


def test_a_player_copied_field_by_field_freezes_like_a_whole_copy():
    for state in positions("full", seeds=range(1), every=25):
        for q in state.players:
            assert PlayerCopy(q).freeze() is q
            d = PlayerCopy(q)
            d.seeds += 1
            d.weather[0] += 2
            d.hand.append("x")
            whole = dict(trees=q.trees, seeds=q.seeds + 1, hand=(*q.hand, "x"),
                         weather=(q.weather[0] + 2, *q.weather[1:]), blessings=q.blessings,
                         creature_points=q.creature_points, land_points=q.land_points,
                         played=q.played, favors=q.favors, chains=q.chains,
                         activated=q.activated)
            assert set(d._opened) == {"weather", "hand"}   # the other lists were never copied
            assert d.freeze() == type(q)(**whole)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_kept_score_breakdowns_equal_new_ones(mode):
    for state in positions(mode, every=9):
        final = state.is_over
        for got, ps in zip(state.scores(), state.players):
            if state.coop is not None:
                continue   # the team's progress, not a breakdown
            board = state.woods.player_boards[got.player].free_points(
                woods_data(state.edition)) if state.woods and final else None
            assert got == scoring.breakdown.__wrapped__(
                got.player, ps.creature_points, ps.land_points,
                state.edition.most_trees_bonus if state.most_trees == got.player else 0,
                final, board)
    for args in [(0, 3, 4, 2, False, None), (1, 3, 4, 2, True, 5), (2, 0, 0, 0, True, None)]:
        assert scoring.breakdown(*args) == scoring.breakdown.__wrapped__(*args)
        assert scoring.breakdown(*args).categories == scoring.breakdown.__wrapped__(*args).categories


def test_kept_board_distances_are_networkx_distances_in_the_same_order():
    for state in positions("coop", seeds=range(2), every=10):
        board = state.board
        for start in [state.coop.shadow, *board.land[::7]]:
            got = coop.distances(board, start)
            fresh = nx.single_source_shortest_path_length(board.space_graph, start)
            assert got == fresh and list(got) == list(fresh)
            got[start] = 99   # a copy: changing it changes nothing kept
            assert coop.distances(board, start)[start] == 0


@pytest.mark.parametrize("mode", sorted(MODES))
def test_kept_summonable_answers_equal_fresh_ones(mode):
    checked = 0
    for state in positions(mode, every=4):
        for ancient in rules.ANCIENTS:
            first = rules.summonable(state, ancient, state.turn_player)
            assert first == rules.summonable_afresh(state, ancient)
            assert rules.summonable(state, ancient, 0) == first   # kept: the same answer
            checked += 1
    assert checked > 30


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_position_shared_with_the_next_state_equals_a_new_one(mode):
    shared = 0
    for before in positions(mode, every=2):
        before.position   # made, so the next state may share it
        for action in before.legal_actions()[:: 7]:
            after = before.apply(action)
            kept = after.position
            assert kept == after._make_position()
            shared += kept is before.position
            # the Land Rituals kept on a shared position are those listed afresh
            for player in range(after.num_players):
                listed = scoring.ritual_actions(after, player)
                again = []
                for card_id, from_market in ([(c, False) for c in after.players[player].hand]
                                             + [(c, True) for c in after.market if c]):
                    card = after.card(card_id)
                    if isinstance(card, LandCard):
                        again += scoring._land_actions.__wrapped__(
                            after._make_position(), kept.board.biome, player, card_id, card,
                            from_market)
                assert [a for a in listed if isinstance(a, PlayLand)] == again
                assert [a.label for a in listed if isinstance(a, PlayLand)] == [
                    a.label for a in again]
    assert shared > 20


@pytest.mark.parametrize("mode", sorted(MODES))
def test_kept_creature_rituals_equal_new_ones(mode):
    checked = 0
    # co-op games hold few Creature cards: every position of more games is looked at
    for state in positions(mode, **({"seeds": range(4), "every": 1} if mode == "coop"
                                    else {"every": 4})):
        for player in range(state.num_players):
            listed = [a for a in scoring.ritual_actions(state, player, free_ritual)
                      if not isinstance(a, PlayLand)]
            ps = state.players[player]
            again = []
            for card_id, from_market in ([(c, False) for c in ps.hand]
                                         + [(c, True) for c in state.market if c]):
                card = state.card(card_id)
                if isinstance(card, CreatureCard):
                    gratis = free_ritual(state, card)
                    again += scoring._creature_actions.__wrapped__(
                        card_id, card, from_market, gratis, () if gratis else ps.weather,
                        0 if gratis else ps.blessings[scoring.WILD], state.edition.biomes)
            checked += same_actions(listed, again)
    assert checked > 10


def test_kept_ranges_of_wild_woods_trees_equal_new_ones():
    checked = 0
    for state in positions("woods", every=6):
        b = state.board
        for i in b.land[::3]:
            for reach in (1, 2, 3):
                assert woods.within(b, i, reach) == woods.within.__wrapped__(b, i, reach)
                checked += 1
    assert checked > 100


def test_seed_stacks_copied_when_read_freeze_like_a_whole_copy():
    for state in positions("woods", every=9):
        record = state.woods
        draft = woods.WoodsCopy(record)
        stacks = draft.seed_stacks
        assert [stacks[i] for i in range(len(stacks))] == [list(x) for x in record.seed_stacks]
        assert draft.freeze() is record            # read, not changed
        whole = [list(x) for x in record.seed_stacks]
        for i in (0, 5, len(whole) - 1):
            stacks[i][0] += 2
            whole[i][0] += 2
        stacks[3] = [0] * len(whole[3])
        whole[3] = [0] * len(whole[3])
        assert [list(x) for x in stacks] == whole
        frozen = draft.freeze()
        assert frozen.seed_stacks == tuple(tuple(x) for x in whole)
        assert all(type(x) is tuple for x in frozen.seed_stacks)
        assert record.seed_stacks == state.woods.seed_stacks   # the record is untouched


def test_land_two_steps_away_is_found_as_by_the_distances():
    checked = 0
    for state in positions("coop", every=40):
        b = state.board
        for i in range(len(b)):
            expected = {j for j, k in coop.distances(b, i).items()
                        if k == 2 and b.terrain[j] == "land"}
            assert coop.land_two_steps_away(b, i) == expected
            checked += 1
    assert checked > 100


def test_one_and_two_steps_away_are_found_as_by_the_distances():
    checked = 0
    for state in positions("coop", every=40):
        b = state.board
        for i in range(len(b)):
            far = nx.single_source_shortest_path_length(b.space_graph, i)
            one, two = coop.steps_away(b, i)
            assert one == {j for j, k in far.items() if k == 1}
            assert two == {j for j, k in far.items() if k == 2}
            checked += 1
    assert checked > 100


def shadow_targets_by_the_distances(s):
    """Where the Spirit of Shadows may move, from networkx's distances on the whole board:
    2 steps away, else 1, 3, 4 ... steps, never onto a Spirit or an Ancient."""
    blocked = coop._blocked(s, s.board) | {s.coop.shadow}
    far = nx.single_source_shortest_path_length(s.board.space_graph, s.coop.shadow)
    for reach in (2, 1, 3, 4, 5, 6):
        out = sorted(i for i, k in far.items() if k == reach and i not in blocked)
        if out:
            return out
    return sorted(i for i in far if i not in blocked)


def scourge_targets_on_the_board_graph(s, area):
    """Where a spreading Scourge may go, with the scourged area joined to the Shadow found
    on a view of the whole board's graph."""
    b, co = s.board, s.coop
    taken = set(co.scourged) | coop._blocked(s, b)
    free = {i for i in range(len(b)) if i not in taken}
    out = set()
    if area == "shadow":
        view = b.space_graph.subgraph({co.shadow, *co.scourged}).to_undirected(as_view=True)
        region = nx.node_connected_component(view, co.shadow)
        out = {j for i in region for j in b.neighbours[i]} & free
    if not out:
        out = {j for i in co.scourged for j in b.neighbours[i]} & free
    return sorted(out or free)


def test_shadow_and_scourge_targets_are_those_of_searches_on_the_whole_board(monkeypatch):
    checked = 0
    states = list(positions("coop", seeds=range(3), every=2))
    for s in states:
        assert coop.shadow_targets(s) == shadow_targets_by_the_distances(s)
        for area in ("shadow", "any"):
            assert coop.scourge_targets(s, area) == scourge_targets_on_the_board_graph(s, area)
        checked += 1
    assert checked > 100
    # every space 1 and 2 steps from the Shadow taken by a Spirit: the farther rings
    # (searched on the whole board) are used as before
    farther = 0
    for s in states[::7]:
        one, two = coop.steps_away(s.board, s.coop.shadow)
        near = one | two
        monkeypatch.setattr(coop, "_blocked", lambda s_or_d, board, near=near: set(near))
        got = coop.shadow_targets(s)
        assert got == shadow_targets_by_the_distances(s) and not set(got) & near
        farther += bool(got)
        monkeypatch.undo()
    assert farther > 5


def test_kept_team_scores_equal_new_ones():
    from pangaea_lab.core.protocol import ScoreBreakdown
    checked = 0
    for s in positions("coop", seeds=range(2), every=6):
        got = coop.team_scores(s)
        steps = s.coop.ancient_steps
        assert got == [ScoreBreakdown(p, tuple(zip(coop._STEP_NAMES, steps)))
                       for p in range(s.num_players)]
        assert [b.total for b in got] == [sum(steps)] * s.num_players
        got.clear()     # a new list each time: the kept breakdowns are untouched
        assert len(coop.team_scores(s)) == s.num_players
        checked += 1
    assert checked > 20


def test_a_board_is_contiguous_as_its_cell_graph_says():
    for state in positions("full", every=200):
        b = state.board
        assert b.is_contiguous() == nx.is_connected(b.graph) is True
        cut = board_module.Board([s for s in b.spaces if s.cell != b.cells[0]][::2], b.mountain)
        assert cut.is_contiguous() == nx.is_connected(cut.graph)


def plain_seed_actions(s, p):
    """Wild Woods Flying Seed and the first Expand Forest step, listed plainly."""
    b, ps = s.board, s.players[p]
    if not ps.seeds:
        return []
    out = []
    for i in b.land:
        if s.trees[i] != -1:
            continue
        need = woods.flying_need(s, p, i)
        if need == 1:
            out.append(FlyingSeed(b.cells[i]))
        elif need <= ps.seeds:
            for actions in range(1, min(2 - s.actions_taken, need) + 1):
                if need - actions <= ps.blessings[rules.FLY]:
                    out.append(FlyingSeed(b.cells[i], need - actions, actions))
    out += [woods.SowSeeds(b.cells[i], k) for i, k in woods.sow_options(s, p, ps.seeds)]
    return out


def test_wild_woods_seed_actions_made_once_equal_new_ones():
    checked = 0
    for state in positions("woods", every=3):
        for p in range(state.num_players):
            checked += same_actions(woods.seed_actions(state, p), plain_seed_actions(state, p))
    assert checked > 1000


# ----- kept between positions: distances, the whole Ritual listing --------------------------


@pytest.mark.parametrize("mode", sorted(MODES))
def test_distances_given_again_for_unchanged_reach_are_networkx_distances(mode):
    """Each Tree's distances, asked position after position of a game (so those of a Tree
    whose reach did not change are given again), equal networkx's on a fresh subgraph."""
    checked = 0
    for state in positions(mode, every=1):
        pos = state.position
        nodes = [i for i in range(len(pos.board)) if pos.connects(i)]
        fresh = pos.board.space_graph.subgraph(nodes)
        for source in [i for i in nodes if pos.trees[i] != rituals.NOBODY][:6]:
            assert pos.distances(source) == nx.single_source_shortest_path_length(fresh, source)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_card_without_trees_on_its_biomes_has_no_pairs(mode):
    checked = 0
    for state in positions(mode, every=4):
        for player in range(state.num_players):
            for card in land_cards(state):
                assert rituals.has_pairs(state.position, player, card) == bool(
                    rituals.endpoints(state.position, player, card))
                checked += 1
    assert checked > 40


def rituals_afresh(state, player, free):
    """Every Ritual of ``player`` made from the plain functions on a new position."""
    made = state._make_position()
    pos = rituals.Position(made.board, made.trees, made.spirit_at, made.chelon, made.protected)
    ps = state.players[player]
    out = []
    for card_id, from_market in ([(c, False) for c in ps.hand]
                                 + [(c, True) for c in state.market if c]):
        card = state.card(card_id)
        if isinstance(card, LandCard):
            out += scoring._land_actions.__wrapped__(pos, pos.board.biome, player, card_id, card,
                                                     from_market)
        else:
            gratis = free(state, card)
            out += scoring._creature_actions.__wrapped__(
                card_id, card, from_market, gratis, () if gratis else ps.weather,
                0 if gratis else ps.blessings[scoring.WILD], state.edition.biomes)
    return out


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_kept_ritual_listing_equals_one_made_afresh(mode):
    """The list of Rituals (asked through the variants, which pass no free-Ritual question
    when none of them makes a Ritual free) equals a list made afresh, labels and order
    included, also when asked again (found kept)."""
    checked = 0
    for state in positions(mode, every=2):
        for player in range(state.num_players):
            expected = rituals_afresh(state, player, free_ritual)
            for _ in range(2):
                same_actions(variants.ritual_actions(state, player), expected)
            if not any(v.free_ritual is not Scoring.free_ritual for v in
                       (type(v.scoring) for v in variants.active(state))):
                assert scoring.ritual_actions(state, player) == expected
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("mode", sorted(MODES))
def test_kept_board_questions_equal_plain_answers(mode):
    """The empty land (kept for the Trees and Seeds it was found for), the Expand Forest
    spaces and the summoning answers equal plain answers, position after position."""
    checked = 0
    for state in positions(mode, every=1):
        b = state.board
        plain = [i for i in b.land if state.trees[i] == rituals.NOBODY
                 and state.seeds[i] == rituals.NOBODY]
        assert rules._empty_land(state) == plain
        assert rules._empty_land(state) == plain   # found kept
        for player in range(state.num_players):
            near = {j for i in b.land if state.trees[i] == player for j in b.neighbours[i]}
            pairs = set(rules._second_seed_spaces(state, player))
            assert rules._expand_targets(state, player) == sorted(
                j for j in near if b.terrain[j] == "land" and state.trees[j] == rituals.NOBODY
                and (state.seeds[j] == rituals.NOBODY or j in pairs))
        for ancient in rules.ANCIENTS:
            here = state.ancients[rules.ANCIENTS.index(ancient)]
            may = all(v.listing.may_summon(state, ancient) for v in variants.active(state))
            if ancient == "Okuma":
                expected = any(i != here and state.trees[i] == rituals.NOBODY
                               and state.seeds[i] == rituals.NOBODY for i in b.land)
            elif ancient == "Chelon":
                expected = any(i != here for i in b.water)
            else:
                expected = any(state.trees[i] != rituals.NOBODY and i != here for i in b.land)
            assert rules.summonable_afresh(state, ancient) == (may and expected)
        checked += 1
    assert checked > 100


def test_actions_kept_per_space_serve_every_board_and_equal_new_ones(monkeypatch):
    """The growth actions of a space are made once and shared by every board on which the
    space lies; they equal new ones; a table grown past its limit is emptied and refilled
    with equal values."""
    boards = [pangaea.new_game(players=2, seed=seed, mode="coop").board for seed in range(3)]
    shared = set(boards[0].cells) & set(boards[1].cells)
    assert shared
    kinds = [(FlyingSeed, FlyingSeed), (actions.expand_one, lambda c: ExpandForest((c,))),
             (woods._sow_row, lambda c: (None, *[woods.SowSeeds(c, k) for k in range(1, 8)]))]
    for make, fresh in kinds:
        made = [actions.per_space(make, b.cells) for b in boards]
        for b, got in zip(boards, made):
            assert got == [fresh(c) for c in b.cells]
        for c in shared:
            assert made[0][boards[0].index[c]] is made[1][boards[1].index[c]]
    monkeypatch.setattr(actions, "PER_SPACE_LIMIT", 10)
    for b in boards:
        got = actions.per_space(TakeBackSeed, b.cells)
        assert got == [TakeBackSeed(c) for c in b.cells]
        assert all(a.label == "" for a in got)
    assert len(actions._per_space[TakeBackSeed]) == len(boards[-1].cells)   # emptied first


def test_holdings_counted_up_to_what_a_card_can_use_give_the_same_payments():
    """Every Creature card's ways to pay are the same for any holdings of tokens and Wild
    Weather Blessings as for those holdings counted only up to the card's payment caps."""
    ed = pangaea.new_game(players=2, seed=0).edition
    biomes = ed.biomes
    rng = random.Random(9)
    checked = 0
    for card in ed.cards.values():
        if not isinstance(card, CreatureCard):
            continue
        caps, most_wild = scoring.payment_caps(card, biomes)
        for _ in range(40):
            have = tuple(rng.randrange(7) for _ in biomes)
            wild = rng.randrange(4)
            clipped = tuple(map(min, have, caps))
            assert list(scoring.payments(card, have, wild, biomes)) == list(
                scoring.payments(card, clipped, min(wild, most_wild), biomes))
            checked += 1
    assert checked > 500


def test_a_boards_space_records_made_when_asked_equal_those_it_was_built_from():
    """A board keeps its spaces as plain rows and makes the :class:`Space` records when
    asked: they equal the records of its laid tiles, a board built from them equals it and
    saves alike, and a saved board loads as an equal board, kept for its spaces (loaded
    again, the very same board)."""
    for state in positions("full", seeds=range(2), every=400):
        b = state.board
        laid = sorted([board_module.Space(c, "land", t.biome, t.index, False) for t in b.tiles
                       for c in t.land] + [board_module.Space(c, "water", t.biome, t.index,
                                                              c in t.blessing)
                                           for t in b.tiles for c in t.water],
                      key=lambda s: s.cell)
        assert list(b.spaces) == laid
        again = board_module.Board(laid, b.mountain)
        assert again == b and again.to_list() == b.to_list() and again.key == b.key
        assert b.to_list() == [[s.cell[0], s.cell[1], s.terrain, s.biome, s.tile, s.blessing]
                               for s in laid]
        load = partial(board_module.board_from_list, b.to_list(), [list(h) for h in b.mountain],
                       state.edition.biomes)
        loaded = load()
        assert loaded == b and loaded.key == b.key and list(loaded.spaces) == laid
        assert load() is loaded


def test_finding_the_shortest_paths_leaves_no_reference_cycles():
    """Listing the shortest connections between Trees leaves nothing for the garbage
    collector: every object it makes is freed as soon as it is dropped (objects left in
    reference cycles pile up until a collection finds them, and the collector then runs
    far more often)."""
    states = [s for s in positions("full", every=40) if any(t != -1 for t in s.trees)]
    found = 0
    gc.collect()
    gc.disable()
    try:
        for state in states:
            pos = state.position
            trees = [i for i in pos.board.land if pos.trees[i] != rituals.NOBODY]
            for a in trees:
                for b in trees:
                    found += len(rituals._few_shortest_paths(pos, a, b) or ())
        left = gc.collect()
    finally:
        gc.enable()
    assert found > 100
    assert left == 0
