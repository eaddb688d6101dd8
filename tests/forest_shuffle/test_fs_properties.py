"""Properties of scoring on forests built at random from legal placements."""

from hypothesis import given, settings
from hypothesis import strategies as st

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.errors import InvalidData
from pangaea_lab.forest_shuffle.forest import Dweller, Tree

CAT = fs.catalog()
TREES = CAT.tree_species() + ["Sapling"]
DWELLERS = [(sp.name, side, sym) for sp in CAT.all_species() if not sp.is_tree
            for side in ("top", "bottom", "left", "right") if sp.fits(side)
            for sym in sorted(sp.symbols(side))]


@st.composite
def forests(draw):
    forest = fs.Forest(cave=draw(st.integers(0, 20)))
    for name in draw(st.lists(st.sampled_from(TREES), min_size=1, max_size=6)):
        forest = forest.plant(Tree(name))
    for name, side, sym in draw(st.lists(st.sampled_from(DWELLERS), max_size=25)):
        index = draw(st.integers(0, len(forest.trees) - 1))
        try:
            bigger = forest.place(index, side, Dweller(name, sym))
            bigger.check_copies()
        except InvalidData:
            continue
        forest = bigger
    return forest


@settings(max_examples=30, deadline=None)
@given(forests(), forests())
def test_card_points_add_up_and_dicts_round_trip(a, b):
    for s, f in zip(fs.score([a, b]), (a, b)):
        assert sum(p for _, p in s.card_points) + f.cave == s.total
        assert sum(s.by_species.values()) + s.cave == s.total
        assert all(p >= 0 for _, p in s.card_points)
    assert fs.Forest.from_dict(a.to_dict()) == a
    assert fs.score([fs.Forest.from_dict(a.to_dict()), b])[0] == fs.score([a, b])[0]


@settings(max_examples=20, deadline=None)
@given(forests())
def test_adding_a_rival_never_raises_my_score(a):
    alone = fs.score([a])[0].total
    rival = fs.Forest.from_dict({"trees": ["Linden"] * 5 + ["Sapling"] * 10})
    assert fs.score([a, rival])[0].total <= alone
