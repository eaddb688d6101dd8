"""The turn rules that notebooks 02 and 04 teach, practised (pangaea_lab/pangaea/exercises/
turns.py): each test states the rule by its rulebook section and checks the exercise against
it, with the engine's answer accepted, every right answer accepted and the typical wrong ones
diagnosed without naming the answer."""

import pytest

from pangaea_lab import exercises
from pangaea_lab.core.exercises import Verdict
from pangaea_lab.pangaea import MoveTree, SpiritGrowth
from pangaea_lab.pangaea.state import PLAYER_NAMES

SEEDS = range(15)
LEVELS = (1, 2)
NEW = {"pangaea/02_turns.ipynb": {"pangaea.move_tree", "pangaea.spirit_destinations",
                                  "pangaea.blessing_pickup", "pangaea.blessing_use",
                                  "pangaea.market_refill"},
       "pangaea/04_scoring.ipynb": {"pangaea.final_round"}}


def made(key, seed, level):
    return exercises.generate(key, seed, level=level)


def cells_of(state, test):
    board = state.board
    return {c for c in board.cells if test(board.index[c])}


def test_the_new_kinds_sit_in_their_notebooks_with_two_levels():
    for notebook, keys in NEW.items():
        kinds = {k.key: k for k in exercises.kinds_for(notebook)}
        assert keys <= set(kinds), notebook
        for key in keys:
            assert kinds[key].levels == (1, 2), key
            assert len(set(kinds[key].level_titles)) == 2, key


# ----- Spirit Growth: Moving Trees -----------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", SEEDS)
def test_moving_trees_any_own_tree_moves_onto_the_growing_seed(seed, level):
    """Spirit Growth, Moving Trees: a Seed grows but its owner has no Tree left in supply,
    so the owner moves one of their Trees already on the continent to that Seed's space."""
    ex = made("pangaea.move_tree", seed, level)
    before, after, target = ex.context["state"], ex.context["after"], ex.context["target"]
    assert after.players[0].trees == 0 and after.pending.kind == "move"
    reds = cells_of(after, lambda i: after.trees[i] == 0)
    grown = cells_of(after, lambda i: before.trees[i] == -1 and after.trees[i] == 0)
    guarded = cells_of(after, lambda i: i == before.ancients[2])
    assert ex.answer == reds - grown - guarded
    assert (len(grown), len(guarded)) == ((0, 0) if level == 1 else (1, 1))
    for cell in ex.answer:                       # each right Tree: the engine lets it move
        after.apply(MoveTree(cell, target))
        assert ex.check(ex.answer).correct
    blue = sorted(cells_of(after, lambda i: after.trees[i] == 1))
    verdict = ex.check(ex.answer | {blue[0]})
    assert verdict.misconception == "moved-other-colour" and "Blue's Tree" in verdict.reason
    for cell, name in [(c, "moved-new-tree") for c in grown] + \
                      [(c, "moved-protected-tree") for c in guarded]:
        verdict = ex.check(ex.answer | {cell})
        assert verdict.misconception == name and "reading of the rules is ours" in verdict.reason
    dropped = min(ex.answer)
    verdict = ex.check(ex.answer - {dropped})
    assert not verdict.correct and str(dropped) not in verdict.reason
    assert verdict.misconception in ("missed-some", "only-near-trees")


# ----- Spirit Growth: where the Spirit may go ------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_spirit_goes_to_any_water_no_other_spirit_holds_or_stays(seed, level):
    """Spirit Growth: place your Spirit on any empty Water Space (not taken by another
    Spirit) or keep it on its current position; Chelon can share a space with a Spirit."""
    ex = made("pangaea.spirit_destinations", seed, level)
    state = ex.context["state"]
    board = state.board
    others = {board.cells[i] for p, i in enumerate(state.spirits) if i != -1 and p != 0}
    water = {board.cells[i] for i in board.water}
    assert ex.answer == water - others
    for cell in sorted(others):
        verdict = ex.check(ex.answer | {cell})
        assert verdict.misconception == "shared-with-spirit" and "never share" in verdict.reason
    land = board.cells[board.land[0]]
    assert "only to a Water Space" in ex.check(ex.answer | {land}).reason
    own = state.spirit_cell(0)
    if own is not None:
        verdict = ex.check(ex.answer - {own})
        assert verdict.misconception == "forgot-staying" and str(own) not in verdict.reason
    chelon = state.ancients[1]
    if level == 2:
        assert chelon != -1 and board.cells[chelon] in ex.answer


# ----- Spirit Growth: picking up a Blessing --------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_spirit_picks_up_the_blessing_of_the_water_it_moves_to(seed, level):
    """Spirit Growth: if you move your Spirit to a Water Space with a Blessing Token, take it
    and add it to your supply (Chelon cannot be used to collect Blessings)."""
    ex = made("pangaea.blessing_pickup", seed, level)
    state, wanted = ex.context["state"], ex.context["wanted"]
    board = state.board
    tokens = {board.cells[i]: k for i, k in enumerate(state.board_blessings) if k}
    others = {board.cells[i] for p, i in enumerate(state.spirits) if i != -1 and p != 0}
    assert ex.answer == {c for c, k in tokens.items()
                         if c not in others and (not wanted or k == wanted)}
    for cell in ex.answer:
        after = state.apply(SpiritGrowth(cell))
        assert sum(after.players[0].blessings) == sum(state.players[0].blessings) + 1
        assert after.board_blessings[board.index[cell]] == ""
    for cell, kind in tokens.items():
        if wanted and kind != wanted:
            verdict = ex.check(ex.answer | {cell})
            assert verdict.misconception == "wrong-kind" and wanted in verdict.reason
    if level == 2:
        assert state.ancients[1] != -1 and board.cells[state.ancients[1]] in tokens


# ----- Blessing Tokens: Vigorous Seed, Flying Seed, Call Ancient ----------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", SEEDS)
def test_blessings_are_free_actions_each_with_its_own_target(seed, level):
    """Blessing Tokens: 1 additional free action, played at any time during your turn;
    Vigorous Seed grows any one Seed on the continent (also other players'), Flying Seed plays
    Flying Seed as a free action, Call Ancient plays Summon the Ancients as a free action."""
    ex = made("pangaea.blessing_use", seed, level)
    state = ex.context["state"]
    assert state.actions_taken == (0 if level == 1 else 2)
    legal = {a.describe() for a in state.legal_actions()}
    assert legal
    assert ex.check(sorted(ex.answer)).correct
    for option in ex.options:
        if option.key in ex.answer:
            continue
        verdict = ex.check(ex.answer | {option.key})
        assert not verdict.correct
        assert verdict.misconception in ("main-action-after-two", "not-held", "wrong-target")
        for right in ex.answer:
            assert ex.option_label(right) not in verdict.reason
        if "Flying Seed action" in option.label:
            assert verdict.misconception == "main-action-after-two"


def test_vigorous_seed_grows_other_players_seeds_too():
    """Blessing Tokens, Vigorous Seed: also Seeds of other players."""
    seen = 0
    for seed in range(40):
        ex = made("pangaea.blessing_use", seed, 1)
        for option in ex.options:
            if option.label.startswith("Grow Blue's Seed"):
                assert option.key in ex.answer
                seen += 1
    assert seen >= 3


# ----- Step 3: Draw New Card, End of Turn: refilling the Open Market -------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_market_is_refilled_where_cards_left_it(seed, level):
    """Step 3: Draw New Card (after a card from your hand take a market card or draw from a
    deck; after a market card take none) and End of Turn (replace the missing market cards
    up to 2 Land and 2 Creature Rituals)."""
    ex = made("pangaea.market_refill", seed, level)
    moves = ex.context["moves"]
    land = sum(1 for m in moves if m == ("take", "land"))
    creature = sum(1 for m in moves if m in (("take", "creature"), ("play", "market")))
    assert ex.answer == f"r{land}{creature}"
    state, after = ex.context["state"], ex.context["after"]
    assert all(after.market) and after.turn_player == 1
    assert len(state.players[0].hand) == 2
    for option in ex.options:
        if option.key != ex.answer:
            verdict = ex.check(option.key)
            assert not verdict.correct and ex.option_label(ex.answer) not in verdict.reason


def test_typical_market_misreadings_are_diagnosed():
    names = set()
    for seed in range(40):
        ex = made("pangaea.market_refill", seed, 2)
        for option in ex.options:
            if option.key != ex.answer:
                names.add(ex.check(option.key).misconception)
    assert {"hand-card-leaves-gap", "deck-draw-leaves-gap", "taken-card-forgotten"} <= names


# ----- End of the Game and Final Scoring: the final round ------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_the_round_is_finished_before_the_final_round(seed):
    """End of the Game: reaching the top triggers the end; continue the current round until
    all players have had the same number of turns. Final Scoring: begin with the starting
    player, each player one last Ritual, no regular actions."""
    ex = made("pangaea.final_round", seed, 1)
    state, regular = ex.context["state"], ex.context["regular"]
    n, first, top = state.num_players, state.first_player, state.turn_player
    expected = []
    p = (top + 1) % n
    while p != first:
        expected.append(p)
        p = (p + 1) % n
    assert regular == expected
    assert ex.context["final"] == [(first + k) % n for k in range(n)]
    assert ex.answer == (f"turn{expected[0]}" if expected else f"final{first}")
    for option in ex.options:
        if option.key != ex.answer:
            verdict = ex.check(option.key)
            assert not verdict.correct and ex.option_label(ex.answer) not in verdict.reason


@pytest.mark.parametrize("seed", range(30))
def test_the_final_round_statements(seed):
    ex = made("pangaea.final_round", seed, 2)
    state, regular, final = ex.context["state"], ex.context["regular"], ex.context["final"]
    assert final[0] == state.first_player and sorted(final) == list(range(state.num_players))
    assert ex.check(sorted(ex.answer)).correct
    for option in ex.options:
        if option.key == "action":
            assert option.key not in ex.answer
            assert ex.check(ex.answer | {"action"}).misconception == "actions-in-final"
        if option.key.startswith("turn"):
            assert (option.key in ex.answer) == (int(option.key[-1]) in regular)
            name = PLAYER_NAMES[int(option.key[-1])]
            assert name in option.label


@pytest.mark.parametrize("key", sorted(set().union(*NEW.values())))
def test_hints_depend_on_the_position_and_hostile_answers_get_a_verdict(key):
    for level in LEVELS:
        hints = set()
        for seed in range(12):
            ex = made(key, seed, level)
            assert len(ex.hints) == 2 and ex.hints[0] != ex.hints[1]
            hints.add(ex.hints)
            if ex.answer_kind == "cells":
                for marks in ex.hint_marks:
                    assert not marks or not set(ex.answer) <= set(marks)
            for value in ("", 1.5, 10**30, [(99, 99)], ["x"], list(range(500))):
                verdict = ex.check(value)
                assert isinstance(verdict, Verdict) and not verdict.correct
                assert verdict.misconception != "unjudged"
        assert len(hints) >= 5, (key, level)
