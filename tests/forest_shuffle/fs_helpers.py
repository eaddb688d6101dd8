"""Shared helpers for the Forest Shuffle tests: arranged positions and short-hand moves."""

from pangaea_lab import forest_shuffle as fs

CAT = fs.catalog()
find = fs.find_card
play = fs.play_named


def start(hand, forest=None, clearing=None, deck_top=None, players=2, seed=0, cave=None,
          **options):
    """Player 1's turn with the given hand, forest, clearing and deck top."""
    g = fs.new_game(players=players, seed=seed, **options)
    return fs.arrange(g, player=0, hand=hand, forest=forest, clearing=clearing,
                      deck_top=deck_top, cave=cave)


def decide(st, use=True):
    step = st.step
    assert step is not None and step.kind in ("mushroom", "effect", "bonus"), step
    return st.apply(fs.Decide(step.kind, step.tag, use))


def kinds(st):
    return [s.kind for s in st.pending]


def draw_twice(st):
    st = st.apply(fs.DrawCard(None))
    if st.step is not None and st.step.kind == "draw":
        st = st.apply(fs.DrawCard(None))
    return st
