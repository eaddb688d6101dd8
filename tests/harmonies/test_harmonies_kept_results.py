"""What the engine keeps between positions (board views derived from the previous board,
ready-made actions, landscape scores kept with a board) must always agree with the same
results worked out from scratch, over many positions of seeded random games."""

import copy
import pickle
import random
import sys
from dataclasses import replace

import networkx as nx
import pytest

from pangaea_lab import harmonies
from pangaea_lab.core.errors import IllegalAction
from pangaea_lab.core.protocol import GameState as BaseState
from pangaea_lab.harmonies import habitats, rules, scoring
from pangaea_lab.harmonies.actions import ChooseSpirit, DiscardCard, EndTurn, PlaceCube, \
    PlaceToken, TakeCard, TakeTokens
from pangaea_lab.harmonies.board import COLOURS, _neighbour_table, can_stack, cells, legal_stacks, \
    rules_data
from pangaea_lab.harmonies.cards import STACK_CODES, card
from pangaea_lab.harmonies.state import AREA_KEPT, STATE_FIELDS, StateCopy

ALL_CARDS = sorted(harmonies.all_cards())
GAMES = [  # (players, options, seeds)
    (1, {"side": "A", "spirits": False}, range(6)),
    (1, {"side": "B", "spirits": True}, range(4)),
    (2, {"side": "A"}, range(3)),
    (4, {"side": "B", "river_rule": "loops"}, range(2)),
    (4, {"side": "A", "spirits": False}, range(2)),
]


def positions(players, options, seed):
    """Every position of a seeded random game, in order."""
    rng = random.Random(seed)
    state = harmonies.new_game(players=players, seed=seed, **options)
    out = [state]
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out


def reference_actions(state):
    """The legal actions worked out from scratch: the plain reading of the rules, with
    ``habitat_indices`` and ``can_stack`` (the order the engine promises)."""
    if state.over:
        return []
    area = state.areas[state.player]
    if area.spirit_offer:
        return [ChooseSpirit(s) for s in area.spirit_offer]
    out = []
    if not state.took_tokens:
        out += [TakeTokens(i, t) for i, t in enumerate(state.central) if t]
    all_cells = cells(state.side)
    for colour in COLOURS:
        if colour in state.hand:
            out += [PlaceToken(colour, all_cells[i]) for i, s in enumerate(area.stacks)
                    if not area.cubes[i] and can_stack(s, colour)]
    open_cards = [(c, k) for c, k in area.cards if k < card(c).cubes]
    slots = rules_data()["central_board"]["card_slots"]
    if not state.took_card and not state.discarded and len(open_cards) < slots:
        out += [TakeCard(c) for c in state.row if card(c).cubes <= state.cube_supply]
    for c, _ in open_cards:
        out += [PlaceCube(c, all_cells[i])
                for i in habitats.habitat_indices(state.side, c, area.stacks, area.cubes)]
    if state.solo and not state.took_card and not state.discarded and state.deck:
        out += [DiscardCard(c) for c in state.row]
    if state.took_tokens and not state.hand:
        out.append(EndTurn())
    return out


def test_stack_codes_agree_with_stack_matches():
    stacks = set(legal_stacks()) | {(), ("blue", "blue"), ("green", "green"),
                                    ("yellow", "red"), ("gray", "gray", "gray", "gray")}
    for stack in stacks:
        matching = [code for code in STACK_CODES if habitats.stack_matches(code, stack)]
        assert len(matching) <= 1
        assert habitats.stack_code(stack) == (matching[0] if matching else None)
    assert habitats.stack_code(["blue"]) is None    # as stack_matches: stacks are tuples


@pytest.mark.parametrize("players,options,seeds", GAMES)
def test_kept_results_agree_with_fresh_ones(players, options, seeds):
    pick = random.Random(7)
    for seed in seeds:
        for state in positions(players, options, seed):
            side = state.side
            assert state.legal_actions() == reference_actions(state)
            for p, area in enumerate(state.areas):
                view = habitats.board_view(side, area)
                assert view.stacks is area.stacks and view.cubes is area.cubes
                # ask in a different order each time: kept, derived or fresh, all the same
                for key in pick.sample(ALL_CARDS + list(COLOURS), 12):
                    if isinstance(key, int):
                        fresh = habitats.habitat_indices(side, key, area.stacks, area.cubes)
                        assert list(view.habitats(key)) == fresh, (seed, p, key)
                        table = rules._cube_actions(side, key)
                        assert view.habitats_in(key, table) == tuple(table[i] for i in fresh)
                    else:
                        fresh = [i for i, s in enumerate(area.stacks)
                                 if not area.cubes[i] and can_stack(s, key)]
                        assert list(view.token_spots(key)) == fresh, (seed, p, key)
                        table = rules._token_actions(side, key)
                        assert view.token_spots_in(key, table) == tuple(table[i] for i in fresh)
                assert rules.unfinished(area) == [(c, k) for c, k in area.cards
                                                  if k < card(c).cubes]
                assert state.board_score(p) == scoring.landscape_score(side, area.stacks,
                                                                       state.river_rule)


def test_a_loaded_or_replaced_state_works_everything_out_afresh():
    for state in positions(2, {"side": "B"}, 3)[::7]:
        loaded = harmonies.GameState.from_json(state.to_json())
        assert loaded == state
        assert loaded.legal_actions() == state.legal_actions()
        assert [s.total for s in loaded.scores()] == [s.total for s in state.scores()]
        n = len(state.areas[0].stacks)
        area = replace(state.areas[0], stacks=((),) * n, cubes=(0,) * n)
        assert "_view" not in area.__dict__
        assert habitats.board_view(state.side, area).token_spots("blue") == tuple(range(n))


def test_a_new_state_is_the_old_one_with_the_changes_and_an_empty_cache():
    state = harmonies.new_game(players=3, seed=4)
    state.scores()
    assert state._cache
    new = StateCopy.successor(state, {"player": 2, "hand": ("blue",)})
    assert new == replace(state, player=2, hand=("blue",)) and new._cache == {}
    assert new != state and state.player == 0 and state.hand == ()


def test_the_listed_actions_are_accepted_and_equal_ones_too():
    state = harmonies.new_game(players=1, seed=2, spirits=False).apply(TakeTokens(0))
    for action in state.legal_actions():
        rebuilt = replace(action)
        assert rebuilt is not action
        assert rules.why(state, rebuilt) is None
        assert state.apply(rebuilt) == state.apply(action)


@pytest.mark.parametrize("side", ["A", "B"])
def test_the_longest_ring_is_networkx_longest_chordless_cycle(side):
    nbrs = _neighbour_table(side)
    n = len(cells(side))
    rng = random.Random(side)
    groups = [list(range(n))] + [[i for i in range(n) if rng.random() < p]
                                 for p in [rng.random() for _ in range(400)]]
    for group in groups:
        graph = nx.Graph()
        graph.add_nodes_from(group)
        graph.add_edges_from((v, w) for v in group for w in nbrs[v] if w in group and v < w)
        expected = max((len(c) for c in nx.chordless_cycles(graph) if len(c) >= 3), default=0)
        assert scoring.longest_ring(group, nbrs) == expected, group


def test_a_copied_or_pickled_state_leaves_the_kept_results_behind():
    state = positions(2, {"side": "A"}, 5)[60]
    state.legal_actions()
    assert "_view" in state.areas[state.player].__dict__
    for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert all("_view" not in a.__dict__ for a in copied.areas)
        assert copied == state and copied.legal_actions() == state.legal_actions()
        action = state.legal_actions()[-1]
        assert copied.apply(action) == state.apply(action)


# ----- what the hot path keeps or makes its own way ----------------------------------------

def test_setup_shuffle_is_random_shuffle_draw_for_draw():
    from pangaea_lab.harmonies.setup import shuffled
    for seed in range(300):
        for n in (0, 1, 2, 3, 10, 32, 120, 255, 256, 300):
            items = list(range(n))
            mine, theirs = random.Random(seed), random.Random(seed)
            expected = list(items)
            theirs.shuffle(expected)
            assert shuffled(items, mine) == expected and items == list(range(n))
            assert mine.random() == theirs.random()     # the same draws were used up


@pytest.mark.parametrize("players,options", [(1, {"side": "A", "spirits": False}),
                                             (2, {"side": "B"}), (4, {"river_rule": "loops"})])
def test_a_new_game_is_the_state_the_constructor_makes(players, options):
    for seed in (0, 1, "x"):
        state = harmonies.new_game(players=players, seed=seed, **options)
        made = replace(state)       # through the dataclass constructor
        assert made == state and made.to_json() == state.to_json()
        assert list(made.__dict__) == list(state.__dict__)
        assert made.__dict__ == state.__dict__


def test_board_view_masks_agree_with_the_stacking_chart():
    for players, options, seeds in GAMES:
        for state in positions(players, options, seeds[0]):
            for area in state.areas:
                view = habitats.board_view(state.side, area)
                fresh = habitats.BoardView(state.side, area.stacks, area.cubes)
                assert view.masks == fresh.masks and view.codes == fresh.codes
                for colour in COLOURS:
                    spots = [i for i, s in enumerate(area.stacks)
                             if not area.cubes[i] and can_stack(s, colour)]
                    assert view.colour_mask(colour) == sum(1 << i for i in spots)
                    table = rules._token_actions(state.side, colour)
                    assert habitats.select(table, view.colour_mask(colour)) == \
                        tuple(table[i] for i in spots)


def test_habitats_looked_at_again_around_a_token_agree_with_fresh_ones():
    """A view derived token by token keeps every card's habitats (looked at again only
    around the changed space): they and the actions picked by them are always the fresh
    view's, for every card of the game, over whole games."""
    for players, options, seeds in GAMES:
        for seed in seeds[:2]:
            states = positions(players, options, seed)
            for p in range(players):
                view = None
                for state in states:
                    area = state.areas[p]
                    if view is None or area.cubes != view.cubes:
                        view = habitats.BoardView(state.side, area.stacks, area.cubes)
                        for c in ALL_CARDS:     # every card kept, so each one is carried on
                            view.habitats_in(c, rules._cube_actions(state.side, c))
                        continue
                    changed = [i for i, (a, b) in enumerate(zip(view.stacks, area.stacks))
                               if a != b]
                    if not changed:
                        continue
                    assert len(changed) == 1
                    view = view.with_token(changed[0], area.stacks)
                    fresh = habitats.BoardView(state.side, area.stacks, area.cubes)
                    for c in ALL_CARDS:
                        table = rules._cube_actions(state.side, c)
                        assert c in view._habitats      # carried on, never dropped
                        assert view.habitats(c) == fresh.habitats(c), (seed, p, c)
                        assert view.habitats_in(c, table) == tuple(
                            table[i] for i in fresh.habitats(c))


def test_ready_made_row_actions_agree_with_fresh_ones():
    for state in positions(1, {"side": "A", "spirits": False}, 3):
        takes, need, discards = rules._row_actions(state.row)
        assert takes == tuple(TakeCard(c) for c in state.row)
        assert discards == tuple(DiscardCard(c) for c in state.row)
        assert need == max([card(c).cubes for c in state.row], default=0)
        if state.hand:
            assert rules._hand_colours(state.hand) == tuple(c for c in COLOURS
                                                            if c in state.hand)
        for area in state.areas:
            if "_open" in area.__dict__:
                assert area.__dict__["_open"] == tuple((c, k) for c, k in area.cards
                                                       if k < card(c).cubes)


def test_states_and_areas_keep_their_attributes_in_one_plain_table():
    """Every state and area of a game keeps its attributes in a plain dict, in one order of
    names (Python then finds an attribute where it found it in the last state; a dict split
    from its names, as ``__init__`` leaves it, is looked up by name at every read).  A plain
    dict copied with ``dict()`` is the same size; a split one grows."""
    for players, options, seeds in GAMES[:3]:
        states = positions(players, options, seeds[0])
        assert states[-1].is_over
        orders = set()
        for state in states:
            values = state.__dict__
            assert sys.getsizeof(values) == sys.getsizeof(dict(values))
            orders.add(tuple(name for name in values if name[0] != "_"))
            for area in state.areas:
                kept = area.__dict__
                assert sys.getsizeof(kept) == sys.getsizeof(dict(kept))
        assert orders == {STATE_FIELDS}
    # the check itself tells the two forms apart
    area = harmonies.state.PlayerArea((), (), (), (), 0)
    assert sys.getsizeof(area.__dict__) != sys.getsizeof(dict(area.__dict__))


def test_a_new_state_holds_no_cache_until_asked():
    state = harmonies.new_game(players=1, seed=2, side="A", spirits=False)
    later = state.apply(state.legal_actions()[0])
    for s in (state, later):
        assert "_cache" not in s.__dict__
        assert s._cache == {} and s._cache is s.__dict__["_cache"]
    later._cache["x"] = 1
    assert later.apply(later.legal_actions()[0])._cache == {}
    assert getattr(state, "no_such_thing", 5) == 5


def test_the_state_methods_agree_with_the_game_s_apply():
    """``state.apply`` sends a listed action straight to its handler: the same new state as
    the front door's full path (a copy of the action, on a state loaded afresh)."""
    for players, options, seeds in GAMES[:3]:
        for state in positions(players, options, seeds[0])[:-1]:
            fresh = harmonies.GameState.from_json(state.to_json())
            assert state.legal_actions() == BaseState.legal_actions(fresh)
            listed = state.legal_actions()
            for action in listed[:3] + listed[-2:]:
                assert state.apply(action) == harmonies.GAME.apply(fresh, replace(action))
            with pytest.raises(IllegalAction):
                state.apply(TakeTokens(99))
            if not state.took_tokens and state.central[0]:
                other = replace(TakeTokens(0, state.central[0]))
                assert _outcome(state.apply, other) == _outcome(fresh.apply, other)


def _outcome(apply, action):
    """The state after ``action``, or the message of its refusal."""
    try:
        return apply(action)
    except IllegalAction as exc:
        return str(exc)


def test_a_save_text_is_kept_and_is_the_text_made_afresh():
    for state in positions(1, {"side": "A", "spirits": False}, 2)[::5]:
        text = state.to_json()
        assert state.to_json() is text
        assert harmonies.GameState.from_json(text).to_json() == text
        copied = replace(state)
        assert "_json" not in copied.__dict__ and copied.to_json() == text


def test_an_area_keeps_nothing_but_its_view_and_open_cards():
    for players, options, seeds in GAMES:
        for state in positions(players, options, seeds[0]):
            state.legal_actions()
            for area in state.areas:
                assert {k for k in area.__dict__ if k[0] == "_"} <= AREA_KEPT
            kept = {"_cache", "_legal", "_legal_ids", "_json"}
            assert {k for k in state.__dict__ if k[0] == "_"} <= kept


def test_a_picker_gives_the_items_at_the_set_bits_of_any_mask():
    table = tuple(f"item {i}" for i in range(32))
    pick = habitats.Picker(table)
    draw = random.Random(5)
    for _ in range(3000):
        mask = draw.getrandbits(draw.choice([1, 8, 9, 12, 17, 18, 23, 25, 32]))
        expected = tuple(table[i] for i in range(32) if mask >> i & 1)
        assert pick(mask) == expected
        assert pick(mask) == expected       # kept pieces give the same
    assert habitats.select(table, 0) == ()


def test_a_finished_game_keeps_nothing_made_for_listing():
    """A final position lists no action: its areas keep no board view and no open cards
    (a simulation may hold thousands of them), and it scores, saves and draws as the same
    position loaded afresh."""
    for players, options, seeds in GAMES:
        final = positions(players, options, seeds[0])[-1]
        assert final.is_over and final.legal_actions() == []
        for area in final.areas:
            assert not {k for k in area.__dict__ if k[0] == "_"}
        fresh = harmonies.GameState.from_json(final.to_json())
        assert final == fresh and final.scores() == fresh.scores()
        assert final.to_svg() == fresh.to_svg()


def test_a_new_state_keeps_nothing_of_the_old_one_whatever_it_kept():
    """Whatever the old state kept (listed actions, their ids, its save text, scores), the
    new one starts with nothing listed, an empty cache, and works its own results out."""
    for state in positions(1, {"side": "A", "spirits": False}, 3)[:12]:
        for ask in ([], ["legal"], ["json"], ["legal", "json"], ["json", "legal", "apply"]):
            old = harmonies.GameState.from_json(state.to_json())
            if "legal" in ask:
                old.legal_actions()
            if "json" in ask:
                old.to_json()
            if "apply" in ask and old.legal_actions():
                old.apply(old.legal_actions()[-1])
            old.scores()
            new = StateCopy.successor(old, {"hand": old.hand})
            assert new == old and new._cache == {}
            assert new.__dict__.get("_legal") is None and "_json" not in new.__dict__
            assert new.legal_actions() == old.legal_actions()
            assert new.to_json() == old.to_json()
