"""The step-through model, driven as plain Python on the toy game."""

import time

import pytest

from pangaea_lab.core import GreedyPlayer, InvalidSetup, RandomPlayer
from pangaea_lab.core.players import Player
from pangaea_lab.core.widget import Move, StepThroughModel

import toy_game
from toy_game import Pass, Place


def model(**kwargs):
    kwargs.setdefault("rocks", 0)
    return StepThroughModel(toy_game.new_game, **kwargs)


def test_a_new_model_starts_a_game():
    m = model(players=3, seed=5)
    assert m.state == toy_game.new_game(players=3, seed=5, rocks=0)
    assert m.history == [m.state] and m.moves == [] and m.actions == [] and m.log == []
    assert not m.can_undo and not m.can_redo and not m.is_over
    assert list(m.legal_groups()) == ["place", "pass"]
    assert m.legal_actions() == m.state.legal_actions()
    assert m.selected_kind == "place" and m.selected == Place((0, 0))
    assert m.highlight == ((0, 0),)
    assert m.status() == "Move 1: Red to play."
    assert m.message == ""


def test_apply_records_the_move_in_plain_words():
    m = model()
    m.apply(Place((1, 0)))
    assert m.state == toy_game.new_game(rocks=0).apply(Place((1, 0)))
    assert len(m.history) == 2 and m.actions == [Place((1, 0))]
    assert m.log == ["Red: Place a stone on (1, 0)"]
    assert m.moves == [Move(0, Place((1, 0)), "human", "Red: Place a stone on (1, 0)")]
    assert m.can_undo and not m.can_redo
    m.apply(Pass())
    assert m.log[-1] == "Blue: Pass"
    assert m.status() == "Move 3: Red to play."


def test_apply_without_argument_plays_the_selection():
    m = model()
    m.select(Place((0, 1)))
    assert m.highlight == ((0, 1),)
    m.apply()
    assert m.actions == [Place((0, 1))]
    m.select(None)
    assert m.highlight == ()
    m.apply()
    assert m.message == "Choose an action first." and len(m.history) == 2


def test_illegal_action_is_explained_and_changes_nothing():
    m = model()
    m.apply(Place((0, 0)))
    state, history = m.state, m.history
    assert m.apply(Place((0, 0))) is None
    assert "cannot do this now: Place a stone on (0, 0)" in m.message
    assert "rule: Placing a stone" in m.message and "Legal choices include" in m.message
    assert m.state is state and m.history == history and len(m.log) == 1
    m.apply(Place((1, 0)))
    assert m.message == "", "a good move clears the last complaint"


def test_undo_and_redo_walk_the_history():
    m = model()
    for action in (Place((0, 0)), Place((1, 0)), Pass()):
        m.apply(action)
    states = m.history
    assert m.undo() and m.undo()
    assert m.state is states[1] and m.log == ["Red: Place a stone on (0, 0)"]
    assert m.can_redo
    assert m.redo()
    assert m.state is states[2]
    assert m.redo() and m.state is states[3] and not m.can_redo
    assert not m.redo() and m.message == "Nothing to redo."
    for _ in range(3):
        m.undo()
    assert m.state is states[0] and not m.can_undo
    assert not m.undo() and m.message == "Nothing to undo."


def test_a_new_move_after_undo_drops_the_redo_stack():
    m = model()
    m.apply(Place((0, 0)))
    m.undo()
    m.apply(Place((1, 0)))
    assert not m.can_redo and m.actions == [Place((1, 0))]


def test_selection_follows_the_kind_and_survives_a_move():
    m = model()
    m.select_kind("pass")
    assert m.selected == Pass() and m.highlight == ()
    m.apply()
    assert m.selected_kind == "pass" and m.selected == Pass()
    m.select_kind("trade")
    assert m.message.startswith("No action of the kind “trade” can be played now; the kinds offered")
    m.select(Place((0, 0)))
    m.apply()
    m.select(Place((0, 0)))
    assert m.message == "not a legal choice now: Place a stone on (0, 0)"
    assert m.selected == m.legal_groups()["place"][0] != Place((0, 0))


def test_svg_shows_the_selected_cells():
    m = model()
    plain = m.state.to_svg()
    assert m.svg() == m.state.to_svg(highlight=[(0, 0)]) != plain
    m.select_kind("pass")
    assert m.svg() == plain


def test_computer_seats_reply_to_a_human_move():
    m = model(computer={1: "greedy"})
    assert m.seat(0) == "human" and m.seat(1) == "greedy"
    assert m.controller_name(1) == "greedy" and m.controller_name(0) == "human"
    m.play(Place((0, 0)))
    assert len(m.moves) == 2
    assert m.moves[1].by == "greedy" and m.log[1].endswith("(greedy)")
    assert m.log[1].startswith("Blue: ")
    assert m.state.current_player == 0
    assert m.status() == "Move 3: Red to play."


def test_illegal_human_move_gets_no_computer_reply():
    m = model(computer={1: "random"})
    m.play(Place((0, 0)))
    m.play(Place((0, 0)))
    assert len(m.moves) == 2 and "cannot do this now" in m.message


def test_computer_step_plays_one_move_for_any_seat():
    m = model(computer={1: "random"})
    assert m.computer_step()
    assert m.moves[0].seat == 0 and m.moves[0].by == "random", "a random player stands in"
    assert m.computer_step()
    assert m.moves[1].seat == 1 and len(m.moves) == 2


def test_run_computers_stops_at_a_human_seat():
    m = model(players=3, computer={1: "random", 2: GreedyPlayer(3)})
    assert m.run_computers() == 0, "Red (human) is to play"
    m.apply(Place((0, 0)))
    assert m.run_computers() == 2
    assert m.state.current_player == 0 or m.is_over


def test_run_computers_with_only_computers_plays_to_the_end():
    m = model(computer={0: "random", 1: "greedy"})
    made = m.run_computers()
    assert m.is_over and made == len(m.moves)
    assert m.log[-1].startswith("Game over: ")
    assert len(m.log) == len(m.moves) + 1


def test_run_computers_respects_its_bound():
    m = model(computer={0: "random", 1: "random"})
    assert m.run_computers(max_steps=3) == 3
    assert m.message == "stopped after 3 computer moves"


def test_play_to_end_and_the_result():
    m = model(seed=2)
    m.play_to_end()
    assert m.is_over and m.message == ""
    totals = [s.total for s in m.state.scores()]
    names = [m.state.player_name(p) for p in m.winners()]
    assert m.winners() == m.state.winners()
    assert m.result_text().startswith("Game over: " + " and ".join(names))
    assert f"with {max(totals)} points." in m.result_text()
    assert m.status() == m.result_text()
    m.apply(Pass())
    assert m.message.startswith("The game is over")
    m.apply()
    assert m.message == "The game is over."
    assert not m.computer_step() and m.message == "The game is over."
    assert m.selected is None and m.legal_groups() == {}


def test_play_to_end_respects_its_bound():
    m = model()
    assert m.play_to_end(max_steps=2) == 2
    assert m.message == "the game has not ended after 2 moves"


def test_shared_win_is_worded():
    m = model()
    m.apply(Pass())
    for _ in range(3):
        m.apply(Pass())
    assert m.is_over and m.winners() == [0, 1]
    assert m.result_text() == "Game over: Red and Blue share the win with 0 points."


def test_undo_to_the_last_human_decision():
    m = model(computer={1: "greedy"})
    m.play(Place((0, 0)))
    m.play(Pass())
    assert len(m.moves) == 4
    assert m.undo(to_human=True)
    assert len(m.moves) == 2 and m.state.current_player == 0
    assert m.redo(to_human=True)
    assert len(m.moves) == 4 and m.state.current_player == 0
    m.undo()
    assert len(m.moves) == 3, "a plain undo takes back one move"


def test_undo_to_human_stops_at_the_start():
    m = model(computer={0: "random", 1: "random"})
    m.run_computers(max_steps=4)
    assert m.undo(to_human=True)
    assert m.moves == []


def test_scores_table():
    m = model()
    m.apply(Place((0, 0)))
    m.apply(Place((2, 0)))
    m.apply(Place((1, 0)))
    assert m.scores_table() == [
        ["", "Red", "Blue"],
        ["Stones", 2, 1],
        ["Links", 1, 0],
        ["Total", 3, 1],
    ]
    assert [s.total for s in m.scores()] == [3, 1]


def test_restart_changes_players_and_seed_and_keeps_options():
    m = model(seed=1, rocks=4)
    m.apply(Pass())
    m.restart(players=4, seed=9)
    assert m.state == toy_game.new_game(players=4, seed=9, rocks=4)
    assert (m.players, m.seed) == (4, 9)
    assert m.moves == [] and not m.can_redo and m.message == ""
    m.restart()
    assert m.state == toy_game.new_game(players=4, seed=9, rocks=4)


def test_restart_refuses_a_bad_player_count_and_keeps_the_game():
    m = model(player_range=(2, 3))
    m.apply(Pass())
    for bad in (1, 4, "2", True):
        with pytest.raises(InvalidSetup, match="for 2 to 3 players"):
            m.restart(players=bad)
    assert len(m.moves) == 1 and m.players == 2


def test_restart_refuses_what_the_game_refuses():
    m = model()
    with pytest.raises(InvalidSetup, match="seed must be"):
        m.restart(seed=1.5)
    assert m.seed == 0 and m.state == toy_game.new_game(rocks=0)


def test_same_seed_same_computer_game():
    def final_log(seed):
        m = model(seed=seed, computer={0: "random", 1: "greedy"})
        m.run_computers()
        return m.log

    assert final_log(3) == final_log(3)
    m = model(seed=3, computer={0: "random", 1: "greedy"})
    m.run_computers()
    first = m.log
    m.restart()
    m.run_computers()
    assert m.log == first, "a restart replays the same seeded computer game"


def test_seats_can_change_hands():
    m = model()
    m.set_seat(0, "random")
    assert m.is_computer(0) and m.has_human_seat and m.has_computer_seat
    m.set_seat(0, "human")
    assert not m.is_computer(0) and not m.has_computer_seat
    m.set_seat(1, None)
    assert not m.is_computer(1)
    with pytest.raises(InvalidSetup, match="'human', 'random', 'greedy' or a Player"):
        m.set_seat(0, "clever")
    with pytest.raises(InvalidSetup, match="a seat is a number"):
        m.set_seat(-1, "random")
    with pytest.raises(InvalidSetup, match="a seat is a number"):
        model(computer={"1": "random"})


def test_an_own_player_can_be_given_and_brought_back():
    class Passer(Player):
        name = "passer"

        def choose(self, state):
            return Pass()

    me = Passer()
    m = model(computer={1: me})
    assert m.seat(1) == "own" and m.own_player(1) is me and m.controller_name(1) == "passer"
    m.play(Place((0, 0)))
    assert m.log[-1] == "Blue: Pass (passer)"
    m.set_seat(1, "human")
    assert m.seat(1) == "human" and m.own_player(1) is me
    m.set_seat(1, "own")
    assert m.seat(1) == "own" and m.is_computer(1)
    m.set_seat(0, RandomPlayer(4))
    assert m.seat(0) == "own"


def test_seats_beyond_the_player_count_wait_for_a_bigger_game():
    m = model(players=2, computer={3: "greedy"})
    assert not m.has_computer_seat
    m.restart(players=4)
    assert m.has_computer_seat and m.seat(3) == "greedy"


def test_bad_player_range_is_refused():
    with pytest.raises(InvalidSetup, match="player_range"):
        model(player_range=(3, 2))


def test_listeners_hear_once_per_call():
    m = model(computer={1: "random"})
    heard = []
    m.subscribe(lambda: heard.append(len(m.moves)))
    m.play(Place((0, 0)))
    assert heard == [2], "one redraw for the move and the computer's reply"
    m.play_to_end()
    assert len(heard) == 2
    m.apply(Place((9, 9)))
    assert len(heard) == 3, "a rejected move is news too (the message changed)"


def test_listener_can_be_removed():
    m = model()
    heard = []

    def listener():
        heard.append(1)

    m.subscribe(listener)
    m.apply(Pass())
    m.unsubscribe(listener)
    m.apply(Pass())
    assert heard == [1]


def test_games_without_highlight_hook():
    class Plain(toy_game.MossState):
        action_highlight = None

    m = StepThroughModel(lambda players, seed: Plain(players, seed, ()))
    assert m.highlight == ()
    assert m.svg() == m.state.to_svg()


def test_apply_and_redraw_are_quick():
    m = model(players=4)
    start = time.perf_counter()
    for _ in range(15):
        m.apply(m.legal_actions()[0])
        m.svg()
        m.scores_table()
        m.legal_groups()
    assert (time.perf_counter() - start) / 15 < 0.05


def test_batch_tells_listeners_once():
    m = model()
    heard = []
    m.subscribe(lambda: heard.append(len(m.moves)))
    with m.batch() as same:
        assert same is m
        m.apply(Pass())
        m.apply(Pass())
        assert heard == []
    assert heard == [2]


def test_a_redraw_without_change_reuses_the_picture():
    m = model()
    first = m.svg()
    assert m.svg() is first
    m.select(Place((1, 0)))
    assert m.svg() is not first
    m.select(Place((0, 0)))
    assert m.svg() == first


def test_solo_result_is_a_score_not_a_win():
    m = model(player_range=(1, 4))
    solo = toy_game.MossState(1, 0, ())
    m.new_game = lambda players, seed, **options: solo
    m.restart(players=1)
    m.play_to_end()
    assert m.result_text() == f"Game over: Red scores {m.scores()[0].total} points."


def test_go_to_any_point_of_the_history():
    m = model()
    m.play_to_end()
    states = m.history
    total = len(m.moves)
    m.go_to(2)
    assert m.state is states[2] and m.reachable == total and m.can_redo
    m.go_to(total)
    assert m.state is states[-1] and not m.can_redo
    m.go_to(0)
    assert m.state is states[0] and m.log == []
    m.go_to(total + 1)
    assert m.message == f"There is no move {total + 1}: choose a move from 0 to {total}."
    assert m.state is states[0]


def test_clicking_a_space_selects_the_action_on_it():
    m = model(players=2, seed=5)
    m.pick_cell((1, 0))
    assert m.selected == Place((1, 0)) and m.selected_kind == "place" and m.message == ""
    assert m.highlight == ((1, 0),)
    m.pick_cell([1, 0])                      # again: still the only action there
    assert m.selected == Place((1, 0))


def test_clicking_a_space_without_an_action_says_so_and_keeps_the_choice():
    m = model(players=2, seed=5)
    m.play(Place((0, 0)))
    chosen = m.selected
    m.pick_cell((0, 0))                      # a stone already lies there
    assert m.message == "Nothing can be played on (0, 0) now."
    assert m.selected == chosen


def test_a_space_without_an_action_is_named_as_the_board_shows_it():
    from pangaea_lab import inori
    from pangaea_lab.core.exercises import space_labels
    m = StepThroughModel(inori.new_game, players=2, seed=1)
    hook = m.state.action_highlight
    used = {tuple(c) for a in m.legal_actions() for c in hook(a)}
    idle = next(c for c in space_labels(m.svg()) if len(c) == 2 and c not in used)
    m.pick_cell(idle)
    assert m.message == f"Nothing can be played on card {idle[0] + 1}, space {idle[1] + 1} now."
    assert "(" not in m.message
