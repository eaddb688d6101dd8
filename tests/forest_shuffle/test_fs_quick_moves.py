"""The quick moves (the commonest actions building the new state straight from the old one)
give the very state the working copy gives, for every listed action of many seeded
positions: the same fields, the same save text, the same private notes."""

import random

from fs_helpers import start

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.testing import check_loaded_positions, check_quick_moves, seeded_positions
from pangaea_lab.forest_shuffle import rules

POSITIONS = list(seeded_positions(fs.new_game, seeds=range(3), players=(2, 3, 4, 5), every=2))


def notes(st):
    return {k: v for k, v in st.__dict__.items() if k == "_caves_counted"}


def test_every_listed_action_gives_the_working_copys_state():
    quick = check_quick_moves(POSITIONS, rules.WORKING_COPY, rules.QUICK, notes)
    assert {"DrawCard", "Pay", "PlayDweller", "PlayTree", "PlaySapling", "Decide"} <= set(quick)


def test_loaded_positions_agree_too():
    assert check_loaded_positions(POSITIONS[::20],
                                  lambda st, a: rules.WORKING_COPY[type(a)](st, a)) > 5


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
            for action in st.legal_actions():
                got = st.apply(action)
                assert got == rules.WORKING_COPY[type(action)](st, action)
                assert got.to_json() == rules.WORKING_COPY[type(action)](st, action).to_json()
            st = st.apply(rng.choice(st.legal_actions()))
