"""The turn engine: setup, turn rules, spirits, end triggers, solo, tie-break and saves."""

from dataclasses import replace

import pytest

from pangaea_lab import harmonies
from pangaea_lab.core.errors import IllegalAction, InvalidData, InvalidSetup
from pangaea_lab.core.exercises import plural
from pangaea_lab.harmonies import rules
from pangaea_lab.harmonies.actions import (ChooseSpirit, DiscardCard, EndTurn, PlaceCube,
                                           PlaceToken, TakeCard, TakeTokens)


def first_of(state, kind):
    return next(a for a in state.legal_actions() if isinstance(a, kind))


def play_turn(state, space=0, cells=None, card=None):
    """Take a central space, place its tokens on the first legal cells (or ``cells``)."""
    if state.areas[state.player].spirit_offer:
        state = state.apply(first_of(state, ChooseSpirit))
    state = state.apply(TakeTokens(space))
    for k in range(len(state.hand)):
        colour = state.hand[0]
        if cells:
            state = state.apply(PlaceToken(colour, cells[k]))
        else:
            state = state.apply(next(a for a in state.legal_actions()
                                     if isinstance(a, PlaceToken) and a.colour == colour))
    if card is not None:
        state = state.apply(TakeCard(card))
    return state.apply(EndTurn())


# ----- setup -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players,spaces,row", [(1, 3, 3), (2, 5, 5), (3, 5, 5), (4, 5, 5)])
def test_setup_counts(players, spaces, row):
    g = harmonies.new_game(players=players, seed=3)
    assert len(g.central) == spaces and all(len(s) == 3 for s in g.central)
    assert len(g.pouch) == 120 - 3 * spaces
    assert len(g.row) == row and len(g.deck) == 32 - row
    assert all(len(a.spirit_offer) == 2 for a in g.areas)
    assert len(g.boxed_spirits) == 10 - 2 * players
    assert g.cube_supply == 66
    g.check_invariants()


def test_pouch_holds_the_token_mix():
    assert rules.token_mix() == {"blue": 23, "gray": 23, "brown": 21, "green": 19,
                                 "yellow": 19, "red": 15}
    g = harmonies.new_game(players=2, seed=0)
    assert sum(rules.token_counts(g).values()) == 120


def test_same_seed_same_game_and_bad_setup():
    assert harmonies.new_game(players=3, seed=5).to_json() == \
        harmonies.new_game(players=3, seed=5).to_json()
    assert harmonies.new_game(players=3, seed=5).pouch != harmonies.new_game(players=3, seed=6).pouch
    with pytest.raises(InvalidSetup, match="1 to 4 players"):
        harmonies.new_game(players=5)
    with pytest.raises(InvalidSetup, match="side must be"):
        harmonies.new_game(side="C")
    with pytest.raises(InvalidSetup, match="spirits must be"):
        harmonies.new_game(spirits="yes")
    with pytest.raises(InvalidSetup, match="river_rule"):
        harmonies.new_game(river_rule="diameter")


# ----- spirits -----------------------------------------------------------------------------------

def test_first_decision_is_keeping_one_of_two_spirits():
    g = harmonies.new_game(players=2, seed=1)
    offer = g.areas[0].spirit_offer
    assert [a.spirit for a in g.legal_actions()] == list(offer)
    with pytest.raises(IllegalAction, match="first keep one of your two spirit cards"):
        g.apply(TakeTokens(0))
    g2 = g.apply(ChooseSpirit(offer[1]))
    assert g2.areas[0].cards == ((offer[1], 0),)
    assert offer[0] in g2.boxed_spirits
    assert g2.areas[0].spirit().id == offer[1]
    g2.check_invariants()


def test_spirit_occupies_a_slot_until_its_cube_is_placed():
    g = harmonies.new_game(players=2, seed=1)
    g = g.apply(first_of(g, ChooseSpirit))
    # fill the other three slots
    area = g.areas[0]
    g = replace(g, areas=(replace(area, cards=area.cards + ((1, 0), (2, 0), (3, 0))),
                          g.areas[1]), deck=tuple(c for c in g.deck if c not in (1, 2, 3)),
                row=tuple(c for c in g.row if c not in (1, 2, 3)),
                cube_supply=66 - 10)
    g.check_invariants()
    assert not any(isinstance(a, TakeCard) for a in g.legal_actions())
    with pytest.raises(IllegalAction, match="all 4 of your card slots"):
        g.apply(TakeCard(g.row[0]))


def test_spirits_off_means_no_offer():
    g = harmonies.new_game(players=2, seed=1, spirits=False)
    assert g.areas[0].spirit_offer == () and len(g.boxed_spirits) == 10
    assert {type(a) for a in g.legal_actions()} >= {TakeTokens, TakeCard}


# ----- a turn ------------------------------------------------------------------------------------

def test_tokens_must_be_taken_before_placing_and_all_placed_before_ending():
    g = harmonies.new_game(players=2, seed=2, spirits=False)
    assert not any(isinstance(a, (PlaceToken, EndTurn)) for a in g.legal_actions())
    with pytest.raises(IllegalAction, match="take the tokens of one central space first"):
        g.apply(EndTurn())
    taken = g.central[2]
    g = g.apply(TakeTokens(2))
    assert g.hand == taken and g.central[2] == ()
    with pytest.raises(IllegalAction, match="already took tokens"):
        g.apply(TakeTokens(0))
    with pytest.raises(IllegalAction, match="place all the tokens"):
        g.apply(EndTurn())
    wrong = next(c for c in ("blue", "gray", "brown", "green", "yellow", "red") if c not in taken)
    with pytest.raises(IllegalAction, match=f"not a {wrong} token"):
        g.apply(PlaceToken(wrong, (0, 0)))


def test_rejected_action_leaves_state_unchanged():
    g = harmonies.new_game(players=2, seed=2, spirits=False).apply(TakeTokens(0))
    before = g.to_json()
    with pytest.raises(IllegalAction) as info:
        g.apply(PlaceToken(g.hand[0], (9, 9)))
    assert "not a space of side A" in str(info.value)
    assert g.to_json() == before


def test_stacking_rules_apply_to_placements():
    g = harmonies.new_game(players=2, seed=2, spirits=False)
    g = replace(g, central=(("gray", "red", "blue"),) + g.central[1:])
    g = replace(g, pouch=tuple(sorted(g.pouch)))  # any order keeps the mix
    g = g.apply(TakeTokens(0)).apply(PlaceToken("gray", (0, 0)))
    g2 = g.apply(PlaceToken("red", (0, 0)))
    assert g2.areas[0].stacks[0] == ("gray", "red")
    with pytest.raises(IllegalAction, match="blue cannot go on gray, red"):
        g2.apply(PlaceToken("blue", (0, 0)))
    with pytest.raises(IllegalAction, match="blue cannot go on gray"):
        g.apply(PlaceToken("blue", (0, 0)))


def test_no_token_on_a_cube_and_cubes_go_bottom_first():
    g = harmonies.new_game(players=2, seed=2, spirits=False)
    frog = harmonies.card("Frog").id
    # a Frog in the slot and a finished habitat: tree at (0, 0), water at (0, 1)
    stacks = list(g.areas[0].stacks)
    stacks[0], stacks[1] = ("green",), ("blue",)
    area = replace(g.areas[0], stacks=tuple(stacks), cards=((frog, 0),))
    pouch = list(g.pouch)
    pouch.remove("green")
    pouch.remove("blue")
    deck = tuple(c for c in g.deck if c != frog)
    row = tuple(c for c in g.row if c != frog)
    g = replace(g, areas=(area, g.areas[1]), pouch=tuple(pouch), deck=deck, row=row,
                cube_supply=66 - 5)
    g.check_invariants()
    assert PlaceCube(frog, (0, 1)) in g.legal_actions()
    with pytest.raises(IllegalAction, match="habitat of Frog is not built"):
        g.apply(PlaceCube(frog, (0, 0)))
    g = g.apply(PlaceCube(frog, (0, 1)))
    assert g.areas[0].cards == ((frog, 1),)
    assert g.scores()[0]["Animal cards"] == 2
    assert PlaceCube(frog, (0, 1)) not in g.legal_actions()  # cube space now taken
    g = g.apply(TakeTokens(0))
    assert all(a.cell != (0, 1) for a in g.legal_actions() if isinstance(a, PlaceToken))


def test_any_number_of_cubes_in_one_turn():
    """Playing a turn, animal cubes (labelled entry 'cubes-per-turn'): the rules summary names
    placing a cube as an optional action without a count; the published rules summaries let a
    player place any number of cubes in a turn, and so does the engine: two Frog habitats
    built, two cubes in the same turn, before the tokens are even taken."""
    entry = next(a for a in harmonies.assumptions() if a["id"] == "cubes-per-turn")
    assert entry["source"] == "public source" and "any number" in entry["text"]
    g = harmonies.new_game(players=2, seed=2, spirits=False)
    frog = harmonies.card("Frog").id
    stacks = list(g.areas[0].stacks)
    pouch = list(g.pouch)
    for k, colour in enumerate(("green", "blue", "blue", "green")):   # cells (0,0)..(0,3)
        stacks[k] = (colour,)
        pouch.remove(colour)
    area = replace(g.areas[0], stacks=tuple(stacks), cards=((frog, 0),))
    g = replace(g, areas=(area, g.areas[1]), pouch=tuple(pouch),
                deck=tuple(c for c in g.deck if c != frog),
                row=tuple(c for c in g.row if c != frog), cube_supply=66 - 5)
    g.check_invariants()
    g = g.apply(PlaceCube(frog, (0, 1)))
    assert g.current_player == 0 and PlaceCube(frog, (0, 2)) in g.legal_actions()
    g = g.apply(PlaceCube(frog, (0, 2)))
    assert g.areas[0].cards == ((frog, 2),) and g.current_player == 0


def test_one_card_per_turn_and_the_row_refills_at_end_of_turn():
    g = harmonies.new_game(players=2, seed=4, spirits=False)
    first = g.row[0]
    g = g.apply(TakeCard(first))
    assert len(g.row) == 4 and g.cube_supply == 66 - harmonies.card(first).cubes
    with pytest.raises(IllegalAction, match="already took an animal card"):
        g.apply(TakeCard(g.row[0]))
    g = g.apply(TakeTokens(1))
    for _ in range(3):
        g = g.apply(next(a for a in g.legal_actions() if isinstance(a, PlaceToken)))
    top = g.deck[0]
    g = g.apply(EndTurn())
    assert len(g.row) == 5 and g.row[-1] == top
    assert len(g.central[1]) == 3 and len(g.pouch) == 120 - 15 - 3
    assert g.current_player == 1


def test_cube_supply_limits_taking_cards():
    g = harmonies.new_game(players=2, seed=4, spirits=False)
    g = replace(g, cube_supply=0)
    assert not any(isinstance(a, TakeCard) for a in g.legal_actions())


# ----- end of the game ---------------------------------------------------------------------------

def test_board_fill_triggers_end_and_the_round_is_finished():
    g = harmonies.new_game(players=3, seed=9, spirits=False)
    g = play_turn(g)                 # player 1
    assert g.current_player == 1
    # player 2 starts the turn with 18 single tokens on the board, 5 spaces empty
    area = g.areas[1]
    stacks = tuple((t,) for t in g.pouch[:18]) + ((),) * 5
    g = replace(g, areas=(g.areas[0], replace(area, stacks=stacks), g.areas[2]),
                pouch=g.pouch[18:])
    g.check_invariants()
    g = play_turn(g, cells=harmonies.cells("A")[18:21])   # now 2 empty spaces
    assert "Player 2 has 2 or fewer empty spaces" in g.end_reason
    assert not g.is_over and g.current_player == 2
    g = play_turn(g)                 # player 3 finishes the round
    assert g.is_over and g.current_player is None and g.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply(EndTurn())
    assert [a.turns for a in g.areas] == [1, 1, 1]


def _remove(pouch, tokens):
    left = list(pouch)
    for t in tokens:
        left.remove(t)
    return tuple(left)


def test_pouch_that_cannot_refill_triggers_end():
    g = harmonies.new_game(players=2, seed=11, spirits=False)
    # set all but two pouch tokens aside (counted as boxed, so the mix is still complete)
    g = replace(g, pouch=g.pouch[-2:], boxed_tokens=g.pouch[:-2])
    g.check_invariants()
    g = play_turn(g)
    assert g.end_reason == "the pouch cannot refill the central board"
    assert len(g.central[0]) == 2 and g.pouch == ()
    assert not g.is_over
    g = play_turn(g, space=1)
    assert g.is_over


def test_tie_break_by_cubes_placed():
    g = harmonies.new_game(players=2, seed=3, spirits=False)
    frog = harmonies.card("Frog").id
    over = replace(g, over=True)
    assert over.winners() == [0, 1]  # both on 0 points, no cubes: shared
    assert harmonies.new_game(players=2, seed=3).winners() == []
    a0 = replace(g.areas[0], stacks=(("green",), ("blue",)) + ((),) * 21,
                 cubes=(0, frog) + (0,) * 21, cards=((frog, 1),))
    a1 = replace(g.areas[1], stacks=(("brown", "green"),) + ((),) * 22)
    p = _remove(g.pouch, ["green", "blue", "brown", "green"])
    t = replace(g, areas=(a0, a1), pouch=p, over=True, row=tuple(c for c in g.row if c != frog),
                deck=tuple(c for c in g.deck if c != frog), cube_supply=66 - 5)
    t.check_invariants()
    assert [s.total for s in t.scores()] == [1 + 2 + 0, 3]
    assert t.winners() == [0]


# ----- solo ----------------------------------------------------------------------------------------

def test_solo_discards_untaken_tokens_and_refills_three_spaces():
    g = harmonies.new_game(players=1, seed=5, spirits=False)
    rest = g.central[1] + g.central[2]
    g = play_turn(g, space=0)
    assert g.boxed_tokens == rest
    assert all(len(s) == 3 for s in g.central) and len(g.pouch) == 120 - 18
    assert g.current_player == 0 and not g.is_over
    g.check_invariants()


def test_solo_card_discard_only_without_taking_a_card():
    g = harmonies.new_game(players=1, seed=5, spirits=False)
    assert len(g.row) == 3
    victim, top = g.row[1], g.deck[0]
    g2 = g.apply(DiscardCard(victim))
    assert g2.row[1] == top and g2.discard_pile == (victim,)
    assert not any(isinstance(a, (TakeCard, DiscardCard)) for a in g2.legal_actions())
    g3 = g.apply(TakeCard(g.row[0]))
    with pytest.raises(IllegalAction, match="only if you took no card"):
        g3.apply(DiscardCard(g3.row[0]))
    multi = harmonies.new_game(players=2, seed=5, spirits=False)
    with pytest.raises(IllegalAction, match="only be discarded in solo"):
        multi.apply(DiscardCard(multi.row[0]))


def test_solo_ends_when_the_pouch_cannot_refill_and_reports_suns():
    g = harmonies.new_game(players=1, seed=5, spirits=False)
    g = replace(g, boxed_tokens=g.pouch[:-5], pouch=g.pouch[-5:])
    g = play_turn(g)
    assert g.is_over and "cannot refill the whole central board" in g.end_reason
    total = g.scores()[0].total
    assert g.suns() == harmonies.solo_suns(total, "A")
    assert "suns" in g.player_summary(0)
    g.check_invariants()


# ----- saves -----------------------------------------------------------------------------------------

def test_json_round_trip_mid_turn():
    g = harmonies.new_game(players=3, seed=8, side="B")
    g = g.apply(first_of(g, ChooseSpirit)).apply(TakeTokens(1))
    text = g.to_json()
    back = harmonies.GameState.from_json(text)
    assert back == g and back.to_json() == text


def test_malformed_saves_are_explained():
    g = harmonies.new_game(players=2, seed=8)
    with pytest.raises(InvalidData, match="not valid JSON"):
        harmonies.GameState.from_json("{")
    with pytest.raises(InvalidData, match="field 'game'"):
        harmonies.GameState.from_json('{"game": "inori", "format": 1}')
    text = g.to_json().replace('"side":"A"', '"side":"Z"')
    with pytest.raises(InvalidData, match="save.side"):
        harmonies.GameState.from_json(text)
    import json
    data = json.loads(g.to_json())
    data["areas"][0]["stacks"][0] = ["blue", "blue"]
    with pytest.raises(InvalidData, match="stacking chart forbids"):
        harmonies.GameState.from_json(json.dumps(data))
    data = json.loads(g.to_json())
    data["pouch"] = data["pouch"][1:]
    with pytest.raises(InvalidData, match="tokens not conserved"):
        harmonies.GameState.from_json(json.dumps(data))
    data = json.loads(g.to_json())
    del data["cube_supply"]
    with pytest.raises(InvalidData, match="cube_supply"):
        harmonies.GameState.from_json(json.dumps(data))


def test_descriptions_are_plain_words():
    g = harmonies.new_game(players=2, seed=8)
    texts = [a.describe() for a in g.legal_actions()]
    assert all(t.startswith("Keep the ") for t in texts)
    g = g.apply(g.legal_actions()[0])
    kinds = {a.kind for a in g.legal_actions()}
    assert kinds == {"Take tokens", "Take an animal card"}
    assert "spirit" in g.player_summary(0)


def test_greedy_evaluation_counts_the_cube_a_placement_unlocks():
    g = harmonies.new_game(players=2, seed=2, spirits=False)
    frog = harmonies.card("Frog").id
    stacks = list(g.areas[0].stacks)
    stacks[0] = ("green",)
    area = replace(g.areas[0], stacks=tuple(stacks), cards=((frog, 0),))
    g = replace(g, areas=(area, g.areas[1]), pouch=_remove(g.pouch, ["green", "blue"]),
                central=(("blue",),) + g.central[1:], boxed_tokens=g.central[0],
                deck=tuple(c for c in g.deck if c != frog),
                row=tuple(c for c in g.row if c != frog), cube_supply=66 - 5)
    g.check_invariants()
    g = g.apply(TakeTokens(0))
    next_to_tree = g.evaluate(PlaceToken("blue", (0, 1)), 0)
    far_away = g.evaluate(PlaceToken("blue", (4, 4)), 0)
    assert next_to_tree == far_away + 2   # the Frog's first cube is worth 2


def test_empty_deck_leaves_the_row_short_and_stops_solo_discards():
    g = harmonies.new_game(players=1, seed=6, spirits=False)
    g = replace(g, deck=(), discard_pile=g.deck)
    assert not any(isinstance(a, DiscardCard) for a in g.legal_actions())
    taken = g.row[0]
    g = g.apply(TakeCard(taken))
    g = play_turn(g)
    assert len(g.row) == 2 and taken not in g.row
    g.check_invariants()


def test_spirit_points_count_in_the_animal_column_like_the_score_pad():
    from pangaea_lab.core.players import GreedyPlayer, play_game
    g = play_game(harmonies.new_game(players=1, seed=5, side="A", spirits=True), GreedyPlayer(0))
    cards = g.card_scores(0)
    spirit = sum(pts for cd, _, pts in cards if cd.is_spirit)
    animals = sum(pts for cd, _, pts in cards if not cd.is_spirit)
    assert spirit > 0 and animals > 0            # both parts matter in this game
    score = g.scores()[0]
    names = [name for name, _ in score.categories]
    assert "Spirit" not in names                 # no separate row: the pad has none
    assert score["Animal cards"] == animals + spirit
    assert score.total == g.board_score(0).total + animals + spirit
    # the detail is kept beside the total
    assert f"animal cards: {animals} from animals + {spirit} from the spirit" in score.notes
    assert f"({plural(spirit, 'point')})" in g.player_summary(0)
    assert " pts" not in g.player_summary(0)
