"""Every action is applied by its one handler, through the working copy; what a state, a
forest or a tree keeps to go faster (carried to the next forest by a play) changes nothing:
a position loaded from its save, which keeps nothing yet, gives the very same states and the
same next choices."""

import random
from dataclasses import replace

from fs_helpers import start

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.testing import check_loaded_positions, seeded_positions
from pangaea_lab.forest_shuffle import actions, rules

POSITIONS = list(seeded_positions(fs.new_game, seeds=range(3), players=(2, 3, 4, 5), every=2))


def test_each_action_type_has_one_handler():
    types = [tp for tp in vars(actions).values()
             if isinstance(tp, type) and tp.__module__ == actions.__name__ and "kind" in vars(tp)]
    assert len(types) == 11
    assert set(rules.HANDLERS.table) == set(types)


def test_loaded_positions_agree():
    assert check_loaded_positions(POSITIONS[::10], rules.HANDLERS) > 10


def loaded(st):
    return type(st).from_json(st.to_json())


def agreeing_successors(st, again):
    """The states every action listed on ``st`` leads to, each checked to be, from ``again``
    (the same position reached another way), the same state with the same save and the same
    choices next (also once reloaded)."""
    for action in st.legal_actions():
        got, fresh = st.apply(action), again.apply(action)
        assert got == fresh and got.to_json() == fresh.to_json()
        assert got.legal_actions() == loaded(got).legal_actions() == fresh.legal_actions()
        yield got


def test_every_listed_action_gives_the_same_state_and_choices_on_a_loaded_position():
    for st in POSITIONS[::4]:
        if st.is_over:
            continue
        assert len(list(agreeing_successors(st, loaded(st)))) == len(st.legal_actions())


ARRANGED = [
    dict(hand=["Red Fox", "Beech", "Beech"] + ["Oak"] * 7,
         forest={"trees": [{"tree": "Birch", "left": ["European Hare"] * 5}, "Birch"]}),
    dict(hand=["Common Toad", "European Hare", "Beech", "Birch", "Oak"], cave=2,
         forest={"trees": [{"tree": "Birch", "bottom": ["Common Toad"]}, "Sapling"], "cave": 2}),
    dict(hand=["Wolf/Silver Fir", "Silver Fir", "Silver Fir", "Silver Fir"],
         forest={"trees": [{"tree": "Birch", "left": ["Roe Deer/Linden"],
                            "right": ["Fallow Deer"]}, "Silver Fir"]}),
]


def test_arranged_positions_agree_along_random_walks():
    for k, setup in enumerate(ARRANGED):
        st = start(**setup)
        rng = random.Random(k)
        for _ in range(40):
            if st.is_over:
                break
            for got in agreeing_successors(st, loaded(st)):
                assert all(f.cave == len(c) for f, c in zip(got.forests, got.caves))
            st = st.apply(rng.choice(st.legal_actions()))


def kept(st):
    """What a state keeps beside its fields, worked out (a None entry is not worked out)."""
    return {k: v for k, v in vars(st).items() if k[0] == "_" and v is not None}


def test_nothing_a_state_kept_passes_to_the_next():
    """A state asked about an action built by hand keeps the set of its legal actions too;
    the next state starts with nothing worked out but its counted caves."""
    for st in POSITIONS[::25] + [start(["Oak", "Birch", "Birch"])]:
        if st.is_over:
            continue
        listed = st.legal_actions()[-1]
        twin = replace(listed)
        assert twin is not listed and fs.GAME.why(st, twin) is None
        assert "_legal_set" in kept(st)
        new = st.apply(twin)
        assert kept(new) == {"_caves_counted": True}
        assert new.legal_actions() == loaded(new).legal_actions()
        assert new.apply(new.legal_actions()[0]) == loaded(new).apply(new.legal_actions()[0])
