"""The values the engine keeps to go faster (with forests, trees, states and drawings, which
never change) agree with working everything out afresh, over many seeded positions."""

import random
from dataclasses import fields, replace
from pathlib import Path

import pytest

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.jsonio import dumps
from pangaea_lab.core.testing import seeded_positions
from pangaea_lab.core.svg import Svg
from pangaea_lab.forest_shuffle import effects, render, rules, scoring
from pangaea_lab.forest_shuffle import state as state_module
from pangaea_lab.forest_shuffle.actions import PlayDweller, PlaySapling, PlayTree
from pangaea_lab.forest_shuffle.cards import SIDES
from pangaea_lab.forest_shuffle.forest import Forest, Tree, can_join
from pangaea_lab.forest_shuffle.work import ForestCopy

CAT = fs.catalog()


POSITIONS = list(seeded_positions(fs.new_game, seeds=range(5), players=(2, 3, 4, 5), every=3))


def afresh(forest: Forest) -> Forest:
    """The same forest as new values, with nothing worked out yet."""
    return Forest(trees=tuple(Tree(t.species, t.card, t.top, t.bottom, t.left, t.right)
                              for t in forest.trees), cave=forest.cave)


def test_enough_positions():
    assert len(POSITIONS) > 500
    assert any(st.is_over for st in POSITIONS)


def test_mushrooms_match_a_walk_of_the_forest():
    for st in POSITIONS:
        for forest in st.forests:
            walked = []
            for _, _, d in forest.dwellers():
                parts = tuple(e for e in CAT.species(d.species).effect
                              if e["kind"] == "mushroom")
                if parts:
                    walked.append((d, parts))
            assert list(effects.mushrooms(forest)) == walked


def test_empty_slots_match_the_trees():
    for st in POSITIONS:
        for forest in st.forests:
            assert rules._empty_slots(forest) == {
                side: tuple(i for i, t in enumerate(forest.trees) if not t.slot(side))
                for side in SIDES}


def plays_by_the_slot_rules(st, allowed=None):
    """Every card the current player can play, each half tried at every tree with
    ``can_join`` (the engine's list, worked out the long way)."""
    p = st.current
    hand = st.hands[p]
    budget = len(hand) - 1
    trees, dwellers, saplings = [], [], []
    for c in hand:
        if allowed is not None and c not in allowed:
            continue
        card = CAT.card(c)
        if card.is_tree:
            if CAT.species(str(card.species)).cost <= budget:
                trees.append(PlayTree(c))
        else:
            for side, half in zip(card.sides(), card.halves):
                if CAT.species(half.species).cost > budget:
                    continue
                for i, tree in enumerate(st.forests[p].trees):
                    slot = tree.slot(side)
                    if not slot or can_join(slot, half.species, st.this_turn) is None:
                        dwellers.append(PlayDweller(c, side, i))
        saplings.append(PlaySapling(c))
    return trees + dwellers + saplings


def test_kept_plays_match_plays_worked_out_afresh():
    """The plays kept with a forest (worked out, or carried over from the forest before the
    last play) are those of the same forest made anew."""
    checked = 0
    for st in POSITIONS:
        for forest in st.forests:
            for card, moves in forest.__dict__.get("_moves", {}).items():
                assert moves == rules._moves_of(card, afresh(forest)), card
                checked += 1
    assert checked > 1000


def test_play_options_match_the_slot_rules():
    checked = 0
    for st in POSITIONS:
        if st.is_over or st.phase != "turn":
            continue
        step = st.step
        if step is None:
            assert rules.play_options(st) == plays_by_the_slot_rules(st)
            checked += 1
        elif step.kind == "mole":
            assert rules.play_options(st, allowed=step.cards) == plays_by_the_slot_rules(
                st, allowed=step.cards)
    assert checked > 100


def test_scores_match_a_fresh_count():
    for st in POSITIONS:
        kept = fs.score(list(st.forests))
        forests = [afresh(f) for f in st.forests]
        facts = [scoring._Facts(f) for f in forests]
        for k, result in enumerate(kept):
            fresh = scoring._score(facts[k], facts[:k] + facts[k + 1:], k)
            assert result == fresh and result.card_points == fresh.card_points
        assert [s.categories for s in st.scores()] == [s.categories for s in kept]


def test_new_states_are_plain_values():
    """A state made by a move equals the same fields put together by the constructor: the
    same save text, the same legal actions, caves counted into the forests."""
    for st in POSITIONS[::3]:
        rebuilt = type(st)(**{f.name: getattr(st, f.name) for f in fields(st)})
        assert rebuilt == st and hash(rebuilt.to_json()) == hash(st.to_json())
        assert rebuilt.legal_actions() == st.legal_actions()
        assert type(st).from_json(st.to_json()) == st
        assert all(f.cave == len(c) for f, c in zip(st.forests, st.caves))


def test_a_working_copy_freezes_into_the_state_it_copies():
    """Every field goes through the working copy; a forest whose cave count disagrees with
    its cave (a position put together by hand) is counted again."""
    for st in POSITIONS[::7]:
        w = ForestCopy(st)
        same = w.freeze()
        assert same == st and same.to_json() == st.to_json()
        # a new state: its actions not listed yet, its forests noted as counting their caves
        assert same is not st and same._legal is None and same._caves_counted is True
        assert [getattr(same, f.name) for f in fields(st)] == [getattr(st, f.name)
                                                               for f in fields(st)]
        if st.forests[0].cave == 0:
            uncounted = replace(st, forests=(replace(st.forests[0], cave=3),) + st.forests[1:])
            assert ForestCopy(uncounted).freeze() == st


def test_cards_drawn_once_match_cards_drawn_afresh():
    rng = random.Random(3)
    for cid in rng.sample(list(CAT.card_ids), 40):
        for highlight in (False, True):
            x, y = rng.choice([0, 8.5, 70]), rng.choice([24, 130.25])
            kept, fresh = Svg(10, 10), Svg(10, 10)
            if CAT.card(cid).is_split:
                render.draw_split_card(kept, x, y, cid, highlight)
                render._draw_split_card(fresh, x, y, cid, highlight, False)
            else:
                name, colour = render._card_label(cid)
                render.draw_card(kept, x, y, name, colour, 3, 2, highlight, "note", "1", "2")
                render._draw_card(fresh, x, y, name, colour, 3, 2, highlight, "note", "1", "2")
            assert kept.render() == fresh.render()
            assert kept.smallest_text == fresh.smallest_text


def test_board_drawings_do_not_depend_on_what_was_drawn_before():
    for st in POSITIONS[::25]:
        mark = st.action_highlight(st.legal_actions()[0]) if not st.is_over else ()
        drawn = st.to_svg(mark)
        render._card_svg.cache_clear()
        render._split_card_svg.cache_clear()
        assert st.to_svg(mark) == drawn


def test_save_text_is_the_save_data_written_afresh():
    """The save text (the forests' text kept with each forest) is the save's data written
    in one go, also with an end text that looks like the forests' key."""
    for st in POSITIONS[::2]:
        assert st.to_json() == dumps(st.to_data())
        fresh = replace(st, forests=tuple(afresh(f) for f in st.forests))
        assert st.to_json() == fresh.to_json() == dumps(fresh.to_data())
    odd = replace(POSITIONS[-1], ended_by='"forests":null, "forests":null')
    assert odd.to_json() == dumps(odd.to_data())
    assert type(odd).from_json(odd.to_json()) == odd


def test_loaded_forests_noted_as_checked_pass_the_slot_check_afresh():
    for st in POSITIONS[::5]:
        loaded = type(st).from_json(st.to_json())
        for p, forest in enumerate(loaded.forests):
            assert forest.__dict__.get("_slots_ok")
            fresh = afresh(forest)
            state_module._check_slots(fresh, p)        # raises if a slot is wrong
            assert fresh.__dict__.get("_slots_ok")


def test_effect_and_bonus_steps_kept_per_card_match_the_card_data():
    """The effect and bonus steps after a play (each card's parts looked up once) are those
    the card data and bonus_earned give."""
    rng = random.Random(5)
    playable = list(CAT.playable_ids)
    options = dict(fs.new_game(players=2, seed=0).options)
    bonuses = 0
    for cid in playable:
        card = CAT.card(cid)
        places = ["tree"] if card.is_tree else list(card.sides())
        for placement in places + ["sapling"]:
            for paid in ((), tuple(rng.sample(playable, 1)), tuple(rng.sample(playable, 2))):
                got = effects.after_play_steps(Forest(), (), options, cid, placement, paid)
                species = effects.played_species(cid, placement)
                want = []
                if species is not None:
                    sp = CAT.species(species)
                    if effects.active(sp.effect):
                        want.append(("effect", sp.name))
                    if effects.active(sp.bonus) and effects.bonus_earned(cid, placement, paid):
                        want.append(("bonus", sp.name))
                assert [(s.kind, s.tag) for s in got] == want
                bonuses += ("bonus", species) in want
    assert bonuses >= 5


def test_the_package_writes_no_attribute_table_itself():
    """States are plain data: what the package keeps with a state, a forest or a tree goes
    through ``core.memo`` (``keep``, ``kept_table``, read back with ``getattr``), and new
    values are made with ``core.memo.plain_object``."""
    package = Path(fs.__file__).parent
    found = [f"{path.name}:{n}" for path in sorted(package.glob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "__dict__" in line or "object.__setattr__" in line]
    assert found == []
