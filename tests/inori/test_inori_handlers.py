"""Every action is applied by the one handler of its type, whichever way it comes in: the
very object taken from the list, the same action built by hand (through ``why``), the
handler table called directly, on fresh and on reloaded positions: the same fields, the
same save text, the same notes kept with the new state."""

from collections import Counter
from dataclasses import fields, replace

from pangaea_lab import inori
from pangaea_lab.core.testing import check_loaded_positions, seeded_positions
from pangaea_lab.inori import rules

POSITIONS = list(seeded_positions(inori.new_game, seeds=range(6), players=(2, 3, 4), every=1))


def notes(st):
    return {k: v for k, v in vars(st).items() if k in ("_runes_sorted", "_report_texts")}


def test_every_way_in_gives_the_same_state():
    taken = Counter()
    for st in POSITIONS:
        for action in st.legal_actions():
            got = st.apply(action)
            for other in (st.apply(replace(action)), rules.HANDLERS(st, action)):
                assert other == got and other is not got
                assert other.to_json() == got.to_json() and notes(other) == notes(got)
            taken[type(action).__name__] += 1
    assert min(taken.values()) > 5 and len(taken) >= 10, taken


def test_loaded_positions_agree_too():
    assert check_loaded_positions(POSITIONS[::15], rules.HANDLERS) > 5


def _lists_in(value):
    if isinstance(value, list):
        return True
    return isinstance(value, tuple) and any(map(_lists_in, value))


def test_new_states_hold_tuples_and_keep_their_rune_hands_in_order():
    """The working copy changes a field by making a new tuple: no list ever reaches a state
    (the season reports, written as a reloaded save reads them, aside)."""
    names = [f.name for f in fields(inori.GameState) if f.name != "reports"]
    for st in POSITIONS[1:]:
        assert not any(_lists_in(getattr(st, name)) for name in names)
        if vars(st).get("_runes_sorted"):
            assert all(list(h) == sorted(h) for h in st.rune_hands)
