"""The quick moves (the commonest actions building the new state straight from the old one)
give the very state the working copy gives, for every listed action of many seeded
positions: the same fields, the same save text, the same private notes."""

from pangaea_lab import inori
from pangaea_lab.core.testing import check_loaded_positions, check_quick_moves, seeded_positions
from pangaea_lab.inori import rules

POSITIONS = list(seeded_positions(inori.new_game, seeds=range(6), players=(2, 3, 4), every=1))


def notes(st):
    return {k: v for k, v in st.__dict__.items() if k in ("_runes_sorted", "_report_texts")}


def test_every_listed_action_gives_the_working_copys_state():
    quick = check_quick_moves(POSITIONS, rules.WORKING_COPY, rules.QUICK, notes)
    assert set(quick) >= {cls.__name__ for cls in rules.QUICK}
    assert min(quick.values()) > 50


def test_loaded_positions_agree_too():
    assert check_loaded_positions(POSITIONS[::15],
                                  lambda st, a: rules.WORKING_COPY[type(a)](st, a)) > 5


def test_hand_built_actions_take_the_same_way():
    for st in POSITIONS[::7]:
        for action in st.legal_actions():
            copy = type(action)(**{k: v for k, v in action.__dict__.items()})
            assert st.apply(copy) == st.apply(action)


def test_a_states_fields_copied_without_its_notes():
    for st in POSITIONS[::10]:
        st.legal_actions()
        names = [f for f in rules._FIELDS]
        assert rules._fields_of(st.__dict__) == {k: st.__dict__[k] for k in names}
        # a dictionary with a note before a field is copied field by field
        shuffled = {"_note": 1, **st.__dict__}
        assert rules._fields_of(shuffled) == {k: st.__dict__[k] for k in names}
