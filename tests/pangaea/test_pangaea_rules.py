"""Every rule of the family game, each test naming the rulebook section it checks (the
full game's additions are in test_pangaea_ancients.py).

The strip board of conftest.py: land (0,0) Sun, (1,0) Rain, (2,0) Snow, (3,0) Wind, (4,0) Sun,
(5,0) Rain; water (0,1)..(4,1) with a blessing icon on (2,1); land (-1,2) Wind, (0,2) Snow,
(1,2) Sun, (2,2) Rain.  Red is player 0, Blue player 1.
"""

from dataclasses import replace

import pytest

from pangaea_lab.core.errors import InvalidData, InvalidSetup

from pangaea_lab import pangaea
from pangaea_lab.pangaea import (BlessFlyingSeed, BlessVigorousSeed, DrawFromDeck, EndTurn,
                                 ExchangeWeather, ExpandForest, FlyingSeed, MoveTree,
                                 PlayCreature, PlayLand, SpiritGrowth, TakeBackSeed,
                                 TakeMarketCard)

from conftest import card_with, do, end_turn, few_trees_edition, rejected, strip_board



# ----- Game Setup ------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_setup(players):
    s = pangaea.new_game(players=players, seed=9)
    ed = s.edition
    for p, ps in enumerate(s.players):
        assert ps.trees == 10 and ps.seeds == 2  # one Seed is the score marker
        assert len(ps.hand) == 2
        kinds = sorted(ed.card(c).kind for c in ps.hand)
        assert kinds == ["creature", "land"]
        assert ps.points == 0 and s.spirits[p] == -1
    assert [ed.card(c).kind for c in s.market] == ["land", "land", "creature", "creature"]
    marked = [i for i, m in enumerate(s.board.blessing_marked) if m]
    assert all(s.board_blessings[i] for i in marked)
    assert sum(1 for k in s.board_blessings if k) == len(marked) == 4 * players
    assert len(s.blessing_bag) == 24 - len(marked)
    assert s.turn_player == s.first_player
    assert not s.family and s.phase == "main" and s.round == 1   # the full game by default
    assert all(t is not None for t in s.market_favors)          # a Favor Token on each card
    assert len(s.favor_bag) == 36 - 4 and s.ancients == (-1, -1, -1)
    family = pangaea.new_game(players=players, seed=9, family=True)
    assert family.family and not family.favor_bag and family.market_favors == (None,) * 4
    s.check_invariants()


def test_starting_player_is_drawn_from_the_seed():
    firsts = {pangaea.new_game(players=4, seed=k).first_player for k in range(30)}
    assert firsts == {0, 1, 2, 3}
    assert pangaea.new_game(players=3, seed=8) == pangaea.new_game(players=3, seed=8)


def test_setup_rejects_bad_arguments():
    from pangaea_lab.core.errors import InvalidSetup
    with pytest.raises(InvalidSetup, match="2 to 4 players"):
        pangaea.new_game(players=1)
    with pytest.raises(InvalidSetup, match="seed"):
        pangaea.new_game(players=2, seed=1.5)
    with pytest.raises(InvalidSetup, match="family"):
        pangaea.new_game(players=2, family="yes")


def test_setup_steps_end_in_the_first_state():
    steps = pangaea.setup_steps(players=3, seed=4)
    assert steps[-1].state == pangaea.new_game(players=3, seed=4)
    for step in steps:
        step.state.check_invariants()
        assert step.title and step.explanation


# ----- Gameplay Overview: two actions, free actions, end of turn ------------------------------

def test_two_actions_per_turn_same_action_twice_allowed(small):
    s = do(small, FlyingSeed((0, 0)))
    s = do(s, FlyingSeed((3, 0)))
    assert s.actions_taken == 2
    rejected(s, FlyingSeed((4, 0)), "already taken your 2 actions")
    assert EndTurn() in s.legal_actions()
    s = do(s, EndTurn())
    assert s.turn_player == 1 and s.actions_taken == 0


def test_cannot_end_turn_before_two_actions(small):
    rejected(small, EndTurn(), "2 more action")


def test_take_seeds_back_any_time_as_a_free_action(small):
    s = do(small, FlyingSeed((0, 0)))
    s = do(s, TakeBackSeed((0, 0)))
    assert s.actions_taken == 1 and s.players[0].seeds == 2 and s.seeds_of(0) == []
    rejected(s, TakeBackSeed((1, 0)), "no Seed of yours")


# ----- Flying Seed ------------------------------------------------------------------------------

def test_flying_seed_on_any_empty_land_space(small):
    s = small.arranged(trees={(1, 0): 1})
    s = do(s, FlyingSeed((5, 0)))
    assert s.seeds_of(0) == [(5, 0)] and s.players[0].seeds == 1
    rejected(s, FlyingSeed((0, 1)), "Water Space")
    rejected(s, FlyingSeed((1, 0)), "already taken")
    rejected(s, FlyingSeed((5, 0)), "already taken")
    rejected(s, FlyingSeed((9, 9)), "not a space")


def test_flying_seed_needs_a_seed_in_supply(small):
    s = small.arranged(seeds={(0, 0): 0, (2, 0): 0})
    assert not any(isinstance(a, FlyingSeed) for a in s.legal_actions())
    rejected(s, FlyingSeed((4, 0)), "no Seed left")


# ----- Expand Forest ----------------------------------------------------------------------------

def test_expand_forest_places_up_to_two_seeds_next_to_your_trees(small):
    s = small.arranged(trees={(1, 0): 0, (4, 0): 1})
    s2 = do(s, ExpandForest(((0, 0), (2, 0))))
    assert sorted(s2.seeds_of(0)) == [(0, 0), (2, 0)]
    s1 = do(s, ExpandForest(((2, 0),)))
    assert s1.seeds_of(0) == [(2, 0)]
    rejected(s, ExpandForest(((3, 0),)), "not next to one of your Trees")  # next to Blue only
    rejected(s, ExpandForest(((1, 1),)), "not a Land Space")
    rejected(s, ExpandForest(((0, 0), (0, 0))), "same space")
    rejected(s, ExpandForest(((0, 0), (2, 0), (5, 0))), "1 or 2 Seeds")


def test_expand_forest_never_on_taken_spaces(small):
    s = small.arranged(trees={(1, 0): 0}, seeds={(0, 0): 1})
    rejected(s, ExpandForest(((0, 0),)), "already taken")


# ----- Spirit Growth ----------------------------------------------------------------------------

def test_spirit_growth_grows_every_adjacent_seed_of_every_player(small):
    s = small.arranged(seeds={(1, 0): 0, (1, 2): 1, (4, 0): 0})
    s = do(s, SpiritGrowth((1, 1)))
    assert s.spirit_cell(0) == (1, 1)
    assert s.trees_of(0) == [(1, 0)] and s.trees_of(1) == [(1, 2)]
    assert s.seeds_of(0) == [(4, 0)]        # not adjacent: does not grow
    assert s.players[0].seeds == 1 and s.players[1].seeds == 2   # grown Seeds return
    assert s.players[0].trees == 9 and s.players[1].trees == 9
    # Gain Weather Tokens: each owner gets the biome of their new Tree's space
    biomes = s.edition.biomes
    assert s.players[0].weather[biomes.index("Rain")] == 1
    assert s.players[1].weather[biomes.index("Sun")] == 1


def test_spirit_growth_keep_position_and_occupied_water(small):
    s = small.arranged(spirits={0: (0, 1), 1: (3, 1)}, seeds={(0, 0): 0})
    s = do(s, SpiritGrowth((0, 1)))          # stays where it is: Seeds still grow
    assert s.trees_of(0) == [(0, 0)]
    rejected(s, SpiritGrowth((3, 1)), "Another Spirit")
    rejected(s, SpiritGrowth((2, 0)), "land")


def test_spirit_takes_the_blessing_of_the_water_space_it_moves_to(small):
    kind = small.board_blessings[small.board.index[(2, 1)]]
    assert kind
    s = do(small, SpiritGrowth((2, 1)))
    assert s.players[0].blessing_count(kind) == 1
    assert not s.board_blessings[s.board.index[(2, 1)]]


def test_moving_trees_when_the_supply_is_empty():
    s = pangaea.new_game(players=2, seed=5, board=strip_board(), edition=few_trees_edition(3))
    s = replace(s, first_player=0, turn_player=0)
    s = s.arranged(trees={(3, 0): 1, (4, 0): 1, (5, 0): 1}, seeds={(1, 2): 1, (0, 2): 1})
    assert s.players[1].trees == 0
    s = do(s, SpiritGrowth((0, 1)))          # (0,1) touches (0,2) but not (1,2)
    assert s.pending is not None and s.current_player == 1 and s.turn_player == 0
    moves = s.legal_actions()
    assert moves and all(isinstance(a, MoveTree) for a in moves)
    assert {a.origin for a in moves} <= {(3, 0), (4, 0), (5, 0)}
    target = moves[0].target
    rejected(s, FlyingSeed((5, 0)), "decision is waiting")
    rejected(s, MoveTree((0, 0), target), "not one of the choices")
    s = do(s, moves[0])
    assert target in s.trees_of(1) and moves[0].origin not in s.trees_of(1)
    s.check_invariants()


def test_moving_trees_one_decision_per_seed():
    s = pangaea.new_game(players=2, seed=5, board=strip_board(), edition=few_trees_edition(3))
    s = replace(s, first_player=0, turn_player=0)
    s = s.arranged(trees={(3, 0): 1, (4, 0): 1, (5, 0): 1}, seeds={(1, 2): 1, (0, 2): 1})
    s = do(s, SpiritGrowth((1, 1)))
    grown = []
    while s.pending is not None:
        assert s.current_player == 1
        move = s.legal_actions()[0]
        grown.append(move.target)
        s = do(s, move)
    assert sorted(grown) == [(0, 2), (1, 2)]
    assert s.current_player == 0 and s.actions_taken == 1
    assert set(grown) <= set(s.trees_of(1)) and len(s.trees_of(1)) == 3


# ----- Play a Ritual Card: Creature Rituals ---------------------------------------------------

def creature(state, cid):
    return state.edition.card(cid)


def test_creature_ritual_pays_weather_and_scores(small):
    card = creature(small, "C01")   # 3 points: 2 Wind + 1 Sun
    s = small.arranged(hands={0: ["C01"]}, weather={0: {"Wind": 2, "Sun": 1, "Rain": 1}})
    pay = (("Wind", 2), ("Sun", 1))
    s2 = do(s, PlayCreature("C01", False, pay))
    assert s2.players[0].creature_points == card.points == 3
    assert s2.players[0].weather == (0, 0, 1, 0)
    assert "C01" in s2.players[0].played and "C01" not in s2.players[0].hand
    rejected(s, PlayCreature("C01", False, (("Wind", 1), ("Sun", 1), ("Rain", 1))), "does not match")
    rejected(s.arranged(weather={0: {"Wind": 1, "Sun": 1}}), PlayCreature("C01", False, pay),
             "does not match")


def test_wild_symbol_takes_any_weather(small):
    card = creature(small, "C08")   # 2 Wind + 2 Snow + 1 any
    assert card.wild == 1
    s = small.arranged(hands={0: ["C08"]}, weather={0: {"Wind": 2, "Snow": 2, "Rain": 1, "Sun": 1}})
    ways = {a.pay for a in s.legal_actions() if isinstance(a, PlayCreature) and a.card == "C08"}
    assert ways == {(("Wind", 2), ("Sun", 1), ("Snow", 2)), (("Wind", 2), ("Rain", 1), ("Snow", 2))}


def test_wild_weather_blessing_stands_in_for_one_token(small):
    s = small.arranged(hands={0: ["C01"]}, weather={0: {"Wind": 2}}, blessings={0: {"Wild Weather": 1}})
    action = PlayCreature("C01", False, (("Wind", 2),), wild_blessings=1)
    s2 = do(s, action)
    assert s2.players[0].blessing_count("Wild Weather") == 0
    assert "Wild Weather" in s2.blessing_discard


# ----- Play a Ritual Card: Land Rituals ---------------------------------------------------------

def test_land_ritual_scores_and_returns_own_trees(small):
    cid = card_with(small, ["Sun", "Snow"])
    s = small.arranged(trees={(0, 0): 0, (1, 0): 1, (2, 0): 0}, hands={0: [cid]})
    s2 = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    assert s2.players[0].land_points == 2 + 1   # 2 own Trees, +1 for Blue
    assert s2.trees_of(0) == [] and s2.players[0].trees == 10
    assert s2.trees_of(1) == [(1, 0)]           # other players' Trees stay


def test_land_ritual_trees_must_stand_on_the_cards_biomes(small):
    cid = card_with(small, ["Sun", "Rain"])
    s = small.arranged(trees={(0, 0): 0, (1, 0): 1, (2, 0): 0}, hands={0: [cid]})
    rejected(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))), "asks for Trees on")
    rejected(s, PlayLand(cid, False, ((0, 0), (1, 0))), "must hold one of your own Trees")


def test_seeds_never_connect_a_land_ritual(small):
    cid = card_with(small, ["Sun", "Snow"])
    s = small.arranged(trees={(0, 0): 0, (2, 0): 0}, seeds={(1, 0): 1}, hands={0: [cid]})
    rejected(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))), "only Trees and Spirits connect")
    assert not any(isinstance(a, PlayLand) for a in s.legal_actions())


def test_spirits_connect_across_water(small):
    cid = card_with(small, ["Sun", "Snow"])
    # (0,0) Sun and (0,2) Snow are joined through Blue's Spirit on (0,1)
    s = small.arranged(trees={(0, 0): 0, (0, 2): 0}, spirits={1: (0, 1)}, hands={0: [cid]})
    s2 = do(s, PlayLand(cid, False, ((0, 0), (0, 1), (0, 2))))
    assert s2.players[0].land_points == 3
    assert s2.spirit_cell(1) == (0, 1)          # Spirits stay on the continent


# ----- Step 3: Draw New Card, End of Turn ------------------------------------------------------

def test_after_a_hand_ritual_take_a_market_card_or_draw(small):
    s = small.arranged(hands={0: ["C01"]}, weather={0: {"Wind": 2, "Sun": 1}})
    s = do(s, PlayCreature("C01", False, (("Wind", 2), ("Sun", 1))))
    assert s.pending is not None and s.pending.kind == "draw"
    choices = s.legal_actions()
    assert {type(a) for a in choices} == {TakeMarketCard, DrawFromDeck}
    market_card = s.market[0]
    taken = do(s, TakeMarketCard(market_card))
    assert market_card in taken.players[0].hand and taken.market[0] is None
    assert len(taken.players[0].hand) == 1 + 0 + 1 - 1 or len(taken.players[0].hand) >= 1
    top = s.land_deck[0]
    drawn = do(s, DrawFromDeck("land"))
    assert drawn.players[0].hand[-1] == top
    # The market is refilled only at the end of the turn
    t = do(taken, SpiritGrowth((0, 1)))
    assert t.market[0] is None
    t = do(t, EndTurn())
    assert t.market[0] is not None


def test_market_ritual_does_not_draw_a_new_card(small):
    market_creature = small.market[2]
    s = small.arranged(weather={0: {b: 3 for b in small.edition.biomes}})
    plays = [a for a in s.legal_actions() if isinstance(a, PlayCreature) and a.from_market
             and a.card == market_creature]
    s2 = do(s, plays[0])
    assert s2.pending is None and s2.market[2] is None
    assert len(s2.players[0].hand) == 2


# ----- Blessing Tokens --------------------------------------------------------------------------

def test_flying_seed_blessing_is_free(small):
    s = small.arranged(blessings={0: {"Flying Seed": 1}})
    s = do(s, BlessFlyingSeed((5, 0)))
    assert s.actions_taken == 0 and s.seeds_of(0) == [(5, 0)]
    assert s.players[0].blessing_count("Flying Seed") == 0 and "Flying Seed" in s.blessing_discard


def test_vigorous_seed_grows_any_seed(small):
    s = small.arranged(seeds={(4, 0): 1}, blessings={0: {"Vigorous Seed": 1}})
    s = do(s, BlessVigorousSeed((4, 0)))
    assert s.trees_of(1) == [(4, 0)] and s.actions_taken == 0
    assert s.players[1].weather[s.edition.biomes.index("Sun")] == 1
    rejected(s, BlessVigorousSeed((4, 0)), "no Vigorous Seed")


def test_call_ancient_is_not_part_of_the_family_game(small):
    """Family rules leave the Ancients out, and with them the Call Ancient Blessings
    (assumption 'family-no-call-ancient')."""
    with pytest.raises(InvalidSetup, match="no Call Ancient Blessings"):
        small.arranged(blessings={0: {"Call Ancient": 1}})
    assert not any("Call Ancient" in a.describe() for a in small.legal_actions())


# ----- Achievement: Most Trees --------------------------------------------------------------------

def test_most_trees_needs_five_and_a_strict_majority(small):
    five = {(q, 0): 0 for q in range(5)}
    assert small.arranged(trees=five).most_trees == 0
    assert small.arranged(trees={**{(q, 0): 0 for q in range(4)}}).most_trees == -1
    tie = {**five, (5, 0): 1, (-1, 2): 1, (0, 2): 1, (1, 2): 1, (2, 2): 1}
    assert small.arranged(trees=tie).most_trees == -1


def test_most_trees_marker_follows_trees_during_play(small):
    cid = card_with(small, ["Sun", "Snow"])
    s = small.arranged(trees={(q, 0): 0 for q in range(5)}, hands={0: [cid]})
    assert s.most_trees == 0
    s = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    assert s.most_trees == -1     # Trees went back to supply: the marker leaves play


def test_most_trees_exchange_once_per_turn(small):
    s = small.arranged(trees={(q, 0): 0 for q in range(5)}, weather={0: {"Sun": 2}})
    s = do(s, ExchangeWeather("Sun", "Snow"))
    assert s.players[0].weather == (0, 1, 0, 1)
    rejected(s, ExchangeWeather("Sun", "Rain"), "once per turn")
    other = small.arranged(weather={0: {"Sun": 1}})
    rejected(other, ExchangeWeather("Sun", "Snow"), "Only the holder")


# ----- End of the Game and Final Scoring ------------------------------------------------------

def to_final(s):
    while s.phase == "main":
        s = end_turn(s)
    return s


def test_reaching_the_summit_triggers_the_end_and_the_round_is_finished(small):
    s = small.arranged(points={0: 29}, hands={0: ["C01"]}, weather={0: {"Wind": 2, "Sun": 1}})
    s = do(s, PlayCreature("C01", False, (("Wind", 2), ("Sun", 1))))
    s = do(s, s.legal_actions()[0])           # Step 3
    assert s.end_triggered and "Red" in s.end_reason
    assert s.mountain(0) == (2, 1)            # passed the summit: a Summit Marker, then 2
    s = end_turn(s)
    assert s.phase == "main" and s.turn_player == 1   # Blue still has their turn
    s = end_turn(s)
    assert s.phase == "final" and s.turn_player == s.first_player == 0


def test_final_round_one_ritual_no_tree_removal_no_refill(small):
    cid = card_with(small, ["Sun", "Snow"])
    s = small.arranged(points={0: 30}, trees={(0, 0): 0, (1, 0): 0, (2, 0): 0}, hands={0: [cid]})
    s = to_final(s)
    rejected(s, FlyingSeed((5, 0)), "final round")
    s = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    assert s.trees_of(0) == [(0, 0), (1, 0), (2, 0)]   # Trees stay in the final round
    assert s.pending is None                            # no new card is drawn
    assert not any(isinstance(a, (PlayLand, PlayCreature)) for a in s.legal_actions())
    s = do(s, EndTurn())
    market = s.market
    plays = [a for a in s.legal_actions() if isinstance(a, PlayCreature) and a.from_market]
    assert s.turn_player == 1
    if plays:
        s = do(s, plays[0])
        assert None in s.market and s.market != market
    s = do(s, EndTurn())
    assert s.is_over and s.current_player is None and s.legal_actions() == []


def test_most_trees_bonus_and_winner(small):
    s = small.arranged(points={0: 30, 1: 31}, trees={(q, 0): 0 for q in range(5)})
    s = to_final(s)
    s = do(do(s, EndTurn()), EndTurn())
    scores = s.scores()
    assert scores[0]["Most Trees"] == 2 and scores[0].total == 32
    assert scores[1].total == 31 and s.winners() == [0]


def test_ties_go_to_most_weather_then_are_shared(small):
    s = small.arranged(points={0: 30, 1: 30}, weather={1: {"Sun": 1}})
    s = to_final(s)
    s = do(do(s, EndTurn()), EndTurn())
    assert s.winners() == [1]
    s2 = small.arranged(points={0: 30, 1: 30})
    s2 = to_final(s2)
    s2 = do(do(s2, EndTurn()), EndTurn())
    assert s2.winners() == [0, 1]


def test_no_action_after_the_end(small):
    s = to_final(small.arranged(points={0: 30}))
    s = do(do(s, EndTurn()), EndTurn())
    rejected(s, EndTurn(), "game is over")


# ----- family rules: no Ancients, so no Call Ancient Blessings -------------------------------------


@pytest.mark.parametrize("players,wild_woods", [(2, False), (3, False), (4, False), (2, True)])
def test_family_rules_leave_the_call_ancient_blessings_in_the_box(players, wild_woods):
    """Game Setup (family rules): the Ancient Guardians are left out, so a Call Ancient Blessing
    could never be used; they stay in the box (assumption 'family-no-call-ancient')."""
    s = pangaea.new_game(players=players, seed=11, family=True, wild_woods=wild_woods)
    assert "Call Ancient" not in s.blessing_bag and "Call Ancient" not in s.board_blessings
    assert all(pb.blessings.count("Call Ancient") == 0
               for pb in (s.woods.player_boards if s.woods is not None else ()))
    other = [k for k, n in s.edition.blessings if n and k != "Call Ancient"]
    assert sorted(set(s.blessing_bag) | {b for b in s.board_blessings if b}) == sorted(other)
    assert any(g["id"] == "family-no-call-ancient" for g in s.edition.rule_gaps())
    assert "Call Ancient Blessings stay in the box" in pangaea.setup_steps(
        players=players, seed=11, family=True)[2].explanation
    full = pangaea.new_game(players=players, seed=11)
    assert (full.blessing_bag + full.board_blessings).count("Call Ancient") == dict(
        full.edition.blessings)["Call Ancient"]


def test_a_family_save_holding_a_call_ancient_blessing_is_refused():
    """The family game has no Call Ancient Blessing anywhere; a save that shows one is not a
    family game that can exist."""
    s = pangaea.new_game(players=2, seed=11, family=True)
    full = dict(s.edition.blessings)["Call Ancient"]   # as many as the full game has
    broken = replace(s, blessing_bag=s.blessing_bag + ("Call Ancient",) * full)
    with pytest.raises(InvalidData, match="Blessings"):
        pangaea.GameState.from_json(broken.to_json())
