"""The quick moves (the commonest actions building the new state straight from the old one)
give the very state the working copy gives, for every listed action of many seeded
positions: the same fields, the same save text, the same private notes."""

from collections import Counter

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.testing import seeded_positions
from pangaea_lab.forest_shuffle import rules

POSITIONS = list(seeded_positions(fs.new_game, seeds=range(3), players=(2, 3, 4, 5), every=2))


def notes(st):
    return {k: v for k, v in st.__dict__.items() if k == "_caves_counted"}


def test_every_listed_action_gives_the_working_copys_state():
    quick = Counter()
    for st in POSITIONS:
        for action in st.legal_actions():
            got = st.apply(action)
            slow = rules.WORKING_COPY[type(action)](st, action)
            assert got == slow, (action, st.to_json())
            assert got.to_json() == slow.to_json()
            assert notes(got) == notes(slow)
            assert got.legal_actions() == slow.legal_actions()
            if got.is_over:
                assert got.scores() == slow.scores()
            quick[type(action).__name__] += 1
    assert {"DrawCard", "Pay", "PlayDweller", "PlayTree", "Decide"} <= set(quick)


def test_loaded_and_arranged_positions_agree_too():
    for st in POSITIONS[::20]:
        if st.is_over:
            continue
        loaded = type(st).from_json(st.to_json())
        for action in loaded.legal_actions():
            assert loaded.apply(action) == rules.WORKING_COPY[type(action)](loaded, action)
            assert loaded.apply(action) == st.apply(action)
