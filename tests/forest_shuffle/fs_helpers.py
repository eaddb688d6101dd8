"""Shared helpers for the Forest Shuffle tests: arranged positions and short-hand moves."""

from pangaea_lab import forest_shuffle as fs

CAT = fs.catalog()


def start(hand, forest=None, clearing=None, deck_top=None, players=2, seed=0, cave=None,
          **options):
    """Player 1's turn with the given hand, forest, clearing and deck top."""
    g = fs.new_game(players=players, seed=seed, **options)
    return fs.arrange(g, player=0, hand=hand, forest=forest, clearing=clearing,
                      deck_top=deck_top, cave=cave)


def shows(card_id, name):
    c = CAT.card(card_id)
    if c.is_tree:
        return c.species == name
    return any(h.species == name for h in c.halves)


def find(st, name, exclude=()):
    """A card of the current player's hand showing ``name`` (tree or either half)."""
    for c in st.hands[st.current]:
        if c not in exclude and shows(c, name):
            return c
    raise AssertionError(f"{name} not in hand")


def play(st, name, tree=0, side=None, pay=(), sapling=False):
    """Play ``name`` (tree, or a half on ``tree``), paying with the named cards."""
    card = find(st, name)
    if sapling:
        action = fs.PlaySapling(card)
    elif CAT.card(card).is_tree:
        action = fs.PlayTree(card)
    else:
        sides = [s for s, h in zip(CAT.card(card).sides(), CAT.card(card).halves)
                 if h.species == name and (side is None or s == side)]
        action = fs.PlayDweller(card, sides[0], tree)
    st = st.apply(action)
    used = [card]
    for p in pay:
        c = find(st, p, exclude=used)
        used.append(c)
        st = st.apply(fs.Pay(c))
    return st


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
