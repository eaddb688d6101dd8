"""Setup and the turn (rulebook: "Setup", "Course of play", "Winter cards", "End of the game")."""

import pytest
from fs_helpers import CAT, decide, draw_twice, find, kinds, play, start

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.errors import IllegalAction, InvalidData, InvalidSetup


# ----- setup --------------------------------------------------------------------------------

@pytest.mark.parametrize("players,removed", [(2, 30), (3, 20), (4, 10), (5, 0)])
def test_setup_removes_cards_and_deals_six(players, removed):
    g = fs.new_game(players=players, seed=3)
    assert len(g.removed) == removed
    assert all(len(h) == 6 for h in g.hands)
    assert len(g.deck) == 158 + 3 - removed - 6 * players
    g.check_invariants()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_all_winter_cards_in_the_bottom_third(players):
    for seed in range(5):
        g = fs.new_game(players=players, seed=seed)
        deck = list(g.deck)
        winter = [i for i, c in enumerate(deck) if CAT.card(c).kind == "winter"]
        pile = (158 - len(g.removed)) // 3
        assert len(winter) == 3
        # the third winter card lies on top of the bottom pile, the other two inside it
        assert winter[0] == len(deck) - pile - 3
        assert winter[-1] < len(deck)


def _labelled(entry_id):
    return next(a for a in fs.rules_data()["assumptions"] if a["id"] == entry_id)


def _winter_positions(g):
    return [i for i, c in enumerate(g.deck) if CAT.card(c).kind == "winter"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_winter_cards_spread_over_the_piles_with_the_summary_reading(players):
    """Setup, the rules summary's wording (option ``winter_spread_over_piles``, entry
    'winter_piles'): two winter cards are shuffled into two different piles and the third is
    laid on top of the remaining pile.  The piles are stacked in the order made, so one winter
    card lies in each upper pile (or was dealt, laid beside the clearing and replaced) and the
    third is the first card of the bottom third."""
    for seed in range(5):
        g = fs.new_game(players=players, seed=seed, winter_spread_over_piles=True)
        g.check_invariants()
        assert g.option("winter_spread_over_piles") is True
        rest = 158 - len(g.removed)
        pile = rest // 3
        half = (rest - pile) // 2                  # the first pile, before its winter card
        dealt = 6 * players + len(g.winter)
        w1, w2, w3 = CAT.winter_ids
        at = {c: g.deck.index(c) + dealt for c in (w1, w2, w3) if c in g.deck}
        assert len(at) + len(g.winter) == 3 and set(g.winter) <= {w1, w2}
        assert at[w3] == rest + 2 - pile          # third winter card on top of the bottom pile
        assert at.get(w1, 0) <= half               # one winter card in the first pile
        assert half < at.get(w2, half + 1) <= rest - pile + 1   # one in the second
        assert all(len(h) == 6 for h in g.hands) and not any(
            CAT.card(c).kind == "winter" for h in g.hands for c in h)
        assert fs.GameState.from_json(g.to_json()) == g


def test_the_game_ends_much_earlier_under_the_summary_reading():
    """End of the game (third winter card), both setup readings on the same seeds: with the
    published rule the game ends somewhere in the last third, with the summary's reading
    exactly where the last third begins, so the whole bottom third is left undrawn."""
    from pangaea_lab.core.players import RandomPlayer, play_game
    published, summary = [], []
    for seed in range(4):
        for spread, out in ((False, published), (True, summary)):
            g = fs.new_game(players=2, seed=seed, winter_spread_over_piles=spread)
            pile = (158 - len(g.removed)) // 3
            end = play_game(g, [RandomPlayer(f"{seed}:{p}") for p in range(2)])
            assert end.is_over and len(end.winter) == 3
            out.append(len(end.deck) / pile)
    assert all(left == 1 for left in summary)
    assert all(left < 1 for left in published)
    assert sum(summary) - sum(published) > 0.3 * len(published)


def test_the_winter_setup_labels_say_which_reading_is_played():
    entry = _labelled("winter_piles")
    assert entry["option"] == "winter_spread_over_piles" and entry["default"] is False
    assert entry["source"] == "rulebook" and "summary" in entry["text"]
    assert fs.OPTION_DEFAULTS["winter_spread_over_piles"] is False
    assert "summary" in fs.rules_data()["winter_setup"]["value"]
    # a save written before the option existed reads as the published rule
    import json
    old = json.loads(fs.new_game(players=2, seed=1).to_json())
    del old["options"]["winter_spread_over_piles"]
    assert fs.GameState.from_json(json.dumps(old)) == fs.new_game(players=2, seed=1)


def test_options_later_than_the_first_saves_are_read_from_the_options_own_data():
    """Which options an older save may lack is said once, in each option's own entry of the
    rules data (``older_saves_lack``), not in a second list: such a save reads as the
    option's default; a save lacking any other option is refused naming it."""
    import json
    from pangaea_lab.forest_shuffle.state import LATER_OPTIONS
    flagged = [a["option"] for a in fs.rules_data()["assumptions"] if a.get("older_saves_lack")]
    assert list(LATER_OPTIONS) == flagged == ["winter_spread_over_piles"]
    assert set(LATER_OPTIONS) <= set(fs.GAME.options)
    save = json.loads(fs.new_game(players=3, seed=4).to_json())
    for name in fs.GAME.options:
        old = json.loads(json.dumps(save))
        del old["options"][name]
        if name in LATER_OPTIONS:
            back = fs.GameState.from_json(json.dumps(old))
            assert back.option(name) is fs.GAME.options[name].default
            assert back == fs.new_game(players=3, seed=4)
        else:
            with pytest.raises(InvalidData, match=f"options.*{name}"):
                fs.GameState.from_json(json.dumps(old))


def test_same_seed_same_game_and_bad_setup():
    assert fs.new_game(players=3, seed=9) == fs.new_game(players=3, seed=9)
    assert fs.new_game(players=3, seed=9) != fs.new_game(players=3, seed=10)
    for bad in (1, 6, "2", True):
        with pytest.raises(InvalidSetup, match="2 to 5 players"):
            fs.new_game(players=bad)
    with pytest.raises(InvalidSetup, match="unknown option"):
        fs.new_game(players=2, colour="red")
    with pytest.raises(InvalidSetup, match="True or False"):
        fs.new_game(players=2, sapling_flips_clearing=1)


def _no_tree_seed():
    for seed in range(200):
        g = fs.new_game(players=2, seed=seed)
        if g.phase == "mulligan":
            return g
    raise AssertionError("no seed with a tree-less starting hand")


def test_mulligan_only_for_a_hand_without_trees_and_only_once():
    g = _no_tree_seed()
    p = g.current
    assert not any(CAT.card(c).is_tree for c in g.hands[p])
    assert g.legal_actions() == [fs.KeepHand(), fs.Mulligan()]
    with pytest.raises(IllegalAction, match="starting hand"):
        g.apply(fs.DrawCard(None))
    old = g.hands[p]
    h = g.apply(fs.Mulligan())
    assert len(h.hands[p]) == 6 and set(old) <= set(h.box)
    assert p not in h.mulligan_left
    h.check_invariants()
    k = g.apply(fs.KeepHand())
    assert k.hands[p] == old


def test_a_replaced_starting_hand_goes_to_the_box_not_the_clearing():
    """Setup (entry 'mulligan_to_box'): the rules summary says the tree-less hand is
    discarded, and paying a cost puts discarded cards into the clearing; the published
    rulebook sends the replaced hand back to the box, and so does the engine."""
    entry = _labelled("mulligan_to_box")
    assert entry["source"] == "rulebook" and "box" in entry["text"] and "clearing" in entry["text"]
    g = _no_tree_seed()
    old = g.hands[g.current]
    h = g.apply(fs.Mulligan())
    assert h.clearing == () and set(old) <= set(h.box)
    assert not set(old) & set(h.deck)


# ----- drawing ------------------------------------------------------------------------------

def test_draw_two_cards_one_at_a_time_from_deck_or_clearing():
    """Course of play, drawing (entry 'draw_from_clearing'): the summary only says two cards
    are drawn; the published rule lets each come from the deck or the clearing."""
    entry = _labelled("draw_from_clearing")
    assert entry["source"] == "rulebook" and "summary" in entry["text"]
    st = start(["Oak"], clearing=["Birch", "Beech"])
    assert any(isinstance(a, fs.DrawCard) and a.card is not None for a in st.legal_actions())
    clearing_card = st.clearing[0]
    st = st.apply(fs.DrawCard(clearing_card))
    assert st.step.kind == "draw" and st.current == 0
    assert clearing_card in st.hands[0]
    top = st.deck[0]
    st = st.apply(fs.DrawCard(None))
    assert top in st.hands[0] and st.current == 1 and len(st.hands[0]) == 3


def test_hand_limit_nine_draws_one_ten_cannot_draw():
    nine = ["Birch"] * 9
    st = start(nine)
    st = st.apply(fs.DrawCard(None))
    assert st.current == 1 and len(st.hands[0]) == 10
    ten = start(["Birch"] * 10)
    assert not any(isinstance(a, fs.DrawCard) for a in ten.legal_actions())
    with pytest.raises(IllegalAction, match="hand limit"):
        ten.apply(fs.DrawCard(None))


def test_winter_card_is_laid_out_and_replaced():
    st = start(["Oak"], deck_top=["Winter", "Birch"])
    birch = st.deck[1]
    st = st.apply(fs.DrawCard(None))
    assert len(st.winter) == 1 and birch in st.hands[0]


def test_third_winter_card_ends_the_game_at_once():
    st = start(["Oak"], deck_top=["Winter", "Winter", "Winter", "Birch"])
    end = st.apply(fs.DrawCard(None))
    assert end.is_over and end.current_player is None and end.legal_actions() == []
    assert len(end.winter) == 3 and "third winter" in end.ended_by
    end.check_invariants()
    with pytest.raises(IllegalAction, match="game is over"):
        end.apply(fs.DrawCard(None))


def test_tie_is_shared():
    st = start(["Oak"], deck_top=["Winter", "Winter", "Winter"])
    end = st.apply(fs.DrawCard(None))
    assert [s.total for s in end.scores()] == [0, 0]
    assert end.winners() == [0, 1]


# ----- playing ------------------------------------------------------------------------------

def test_tree_cost_goes_to_the_clearing_and_a_card_is_flipped():
    st = start(["Oak", "Birch", "Beech"], deck_top=["Linden"])
    linden = st.deck[0]
    st = play(st, "Oak", pay=["Birch"])
    assert st.step.kind == "pay" if st.step else True
    st = st.apply(fs.Pay(find(st, "Beech")))
    assert [CAT.card(c).name for c in st.clearing][:2] == ["Birch", "Beech"]
    assert linden in st.clearing
    assert st.forests[0].trees[0].species == "Oak"


def test_bonus_only_when_every_payment_shows_the_symbol():
    # Oak bonus: another turn; pay with two Oak-symbol cards
    st = start(["Oak", "Oak", "Red Squirrel/Oak"])
    st = play(st, "Oak", pay=["Oak", "Red Squirrel"])
    assert kinds(st) == ["bonus"]
    st = decide(st)
    assert st.current == 0 and st.turn == 2
    # one payment card without the Oak symbol: no bonus, next player
    st = start(["Oak", "Oak", "Birch"])
    st = play(st, "Oak", pay=["Oak", "Birch"])
    assert st.current == 1


def test_zero_cost_card_never_gets_a_bonus():
    st = start(["Birch", "Birch"])
    st = play(st, "Birch")
    assert kinds(st) == ["effect"]  # Birch: draw a card (its effect), no bonus
    st = decide(st)
    assert st.current == 1 and len(st.hands[0]) == 2


def test_cost_too_high_is_refused_with_the_rule():
    st = start(["Brown Bear", "Birch"], forest={"trees": ["Beech"]})
    bear = find(st, "Brown Bear")
    side = "left" if CAT.card(bear).halves[0].species == "Brown Bear" else "right"
    with pytest.raises(IllegalAction, match="costs 3 but you hold only 1") as err:
        st.apply(fs.PlayDweller(bear, side, 0))
    assert "pay its cost" in str(err.value)


def test_slot_rules_are_refused_and_state_unchanged():
    st = start(["Red Squirrel", "Red Squirrel"], forest={"trees": [{"tree": "Oak", "top": ["Chaffinch"]}]})
    before = st.to_json()
    card = find(st, "Red Squirrel")
    with pytest.raises(IllegalAction, match="only one card fits"):
        st.apply(fs.PlayDweller(card, "top", 0))
    with pytest.raises(IllegalAction, match="no tree number 5"):
        st.apply(fs.PlayDweller(card, "top", 4))
    with pytest.raises(IllegalAction, match="no half for a left slot"):
        st.apply(fs.PlayDweller(card, "left", 0))
    assert st.to_json() == before


def test_card_not_in_hand_and_wrong_moment():
    st = start(["Oak", "Birch", "Birch"])
    with pytest.raises(IllegalAction, match="not in your hand"):
        st.apply(fs.PlayTree(st.deck[-1] if CAT.card(st.deck[-1]).is_tree else 1))
    st2 = st.apply(fs.PlayTree(find(st, "Oak")))
    with pytest.raises(IllegalAction, match="finish paying"):
        st2.apply(fs.DrawCard(None))
    with pytest.raises(IllegalAction, match="not an action of Forest Shuffle"):
        st.apply("draw")


def test_sapling_any_card_face_down_cost_zero():
    st = start(["Brown Bear"], deck_top=["Birch"])
    st = play(st, "Brown Bear", sapling=True)
    tree = st.forests[0].trees[0]
    assert tree.is_sapling and st.current == 1
    assert len(st.clearing) == 1  # assumption: a sapling flips a card too
    st = start(["Brown Bear"], sapling_flips_clearing=False)
    st = play(st, "Brown Bear", sapling=True)
    assert st.clearing == ()


def test_split_card_needs_a_matching_free_slot():
    st = start(["Red Squirrel"])
    assert all(not isinstance(a, fs.PlayDweller) for a in st.legal_actions())
    st = start(["Red Squirrel"], forest={"trees": ["Sapling"]})
    assert any(isinstance(a, fs.PlayDweller) for a in st.legal_actions())


def test_clearing_is_emptied_at_ten_cards_at_turn_end():
    st = start(["Oak", "Birch", "Birch"], clearing=["Linden"] * 7, deck_top=["Beech"])
    st = play(st, "Oak", pay=["Birch", "Birch"])
    assert st.current == 1
    assert st.clearing == () and len(st.box) >= 10
    st.check_invariants()
    st = start(["Oak", "Birch", "Birch"], clearing=["Linden"] * 6, deck_top=["Beech"])
    st = play(st, "Oak", pay=["Birch", "Birch"])
    assert len(st.clearing) == 9


def test_hares_stack_toads_two_high():
    st = start(["European Hare"], forest={"trees": [{"tree": "Birch", "left": ["European Hare"] * 2,
                                                     "right": ["European Hare"]}]})
    acts = {(a.side, a.tree) for a in st.legal_actions() if isinstance(a, fs.PlayDweller)
            and CAT.card(a.card).half_for(a.side).species == "European Hare"}
    assert acts in ({("left", 0)}, {("right", 0)})
    st = start(["Common Toad"], forest={"trees": [{"tree": "Birch", "bottom": ["Common Toad"]},
                                                  {"tree": "Beech", "bottom": ["Common Toad"] * 2}]})
    acts = [(a.side, a.tree) for a in st.legal_actions() if isinstance(a, fs.PlayDweller)
            and CAT.card(a.card).half_for(a.side).species == "Common Toad"]
    assert acts == [("bottom", 0)]


# ----- save files ---------------------------------------------------------------------------

def test_json_round_trip_mid_turn():
    st = start(["Oak", "Oak", "Red Squirrel/Oak"])
    st = play(st, "Oak", pay=["Oak"])
    again = fs.GameState.from_json(st.to_json())
    assert again == st and again.to_json() == st.to_json()


@pytest.mark.parametrize("mangle,words", [
    (lambda d: d.pop("deck"), "lacks field"),
    (lambda d: d.update(game="harmonies"), "save of 'harmonies'"),
    (lambda d: d.update(deck=d["deck"][1:]), "not conserved"),
    (lambda d: d.update(phase="lunch"), "phase"),
    (lambda d: d.update(options={}), "options"),
    (lambda d: d.update(hands="x"), "hands"),
    (lambda d: d.update(forests=[[[999, False, {}]], []]), "no card with id 999"),
    (lambda d: d.update(forests=[["x"], []]), "forests"),
    (lambda d: d.update(caves=[[], [], []], forests=[[], [], []]), "disagree"),
    (lambda d: d.update(seed={"a": 1}), "seed"),
    (lambda d: d.update(pending=[["pay", 1]]), "pending"),
])
def test_bad_save_files_name_the_field(mangle, words):
    import json
    data = json.loads(fs.new_game(players=2, seed=1).to_json())
    mangle(data)
    with pytest.raises(InvalidData, match=words):
        fs.GameState.from_json(json.dumps(data))


def test_not_json_at_all():
    with pytest.raises(InvalidData, match="not valid JSON"):
        fs.GameState.from_json("{oops")


def test_draw_twice_helper_passes_turn():
    st = draw_twice(start(["Oak"]))
    assert st.current == 1


def test_deck_running_out_ends_the_game():
    from dataclasses import replace
    st = start(["Oak", "Birch", "Birch"], clearing=["Linden"])
    st = replace(st, deck=(), removed=st.removed + st.deck)
    assert fs.DrawCard(None) not in st.legal_actions()
    st.check_invariants()
    end = play(st, "Oak", pay=["Birch", "Birch"])
    assert end.is_over and end.ended_by == "the deck ran out"
    quiet = start(["Birch"], sapling_flips_clearing=False)
    quiet = replace(quiet, deck=(), removed=quiet.removed + quiet.deck)
    end2 = play(quiet, "Birch", sapling=True)
    assert end2.is_over and end2.ended_by == "the deck ran out"


def test_garbage_actions_are_refused_as_illegal_actions():
    from pangaea_lab.core.players import RandomPlayer
    st = fs.new_game(players=3, seed=5)
    bot = RandomPlayer(5)
    junk = [fs.PlayTree(None), fs.PlayTree(999), fs.PlaySapling("x"), fs.Pay(-1),
            fs.PlayDweller(None, "middle", -1), fs.PlaceFree(70, "top", 9), fs.ToCave(2.5),
            fs.DrawCard(999), fs.Decide("x", "Oak", True), fs.Finish("x"), fs.KeepHand()]
    for _ in range(120):
        if st.is_over:
            break
        before = st.to_json()
        for action in junk:
            if action in st.legal_actions():
                continue
            with pytest.raises(IllegalAction):
                st.apply(action)
        assert st.to_json() == before
        st = st.apply(bot.choose(st))
