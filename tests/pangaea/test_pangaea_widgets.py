"""The notebook widgets and drawings of The Dawn of Pangaea, driven in plain pytest."""

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.players import play_game
from pangaea_lab.pangaea import ForesterPlayer, PlayLand
from pangaea_lab.pangaea.render import draw_board, plot_climb
from pangaea_lab.pangaea.widgets import (RitualExplorer, check_answer, parse_path, play,
                                         ritual_explorer, setup_stepper)

from conftest import forester_game


def busy_state(seed=77, steps=60):
    return forester_game(seed, steps)


def test_svg_is_deterministic_and_shows_pieces():
    s = busy_state()
    svg = s.to_svg()
    assert svg == busy_state().to_svg()
    assert svg.startswith("<svg") and "Sacred Mountain" in svg
    assert svg.count("Tree on") == sum(1 for t in s.trees if t != -1)
    highlighted = s.to_svg(highlight=[s.board.cells[0]])
    assert highlighted != svg


def test_svg_draws_a_highlighted_path():
    s = busy_state()
    opts = [a for a in s.legal_actions() if isinstance(a, PlayLand)]
    if opts:
        svg = s.to_svg(highlight=s.action_highlight(opts[0]))
        assert "<polyline" in svg


def test_matplotlib_drawings():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    s = busy_state()
    ax = draw_board(s, highlight=[s.board.cells[0]])
    assert len(ax.patches) >= len(s.board)
    history = [pangaea.new_game(players=2, seed=4)]
    bots = [ForesterPlayer(0), ForesterPlayer(1)]
    while not history[-1].is_over:
        history.append(history[-1].apply(bots[history[-1].current_player].choose(history[-1])))
    ax2 = plot_climb(history)
    assert len(ax2.lines) >= 2
    plt.close("all")


def test_ritual_explorer_model_lists_and_checks_paths():
    s = busy_state()
    model = RitualExplorer(s, player=0)
    found = False
    for cid in model.cards():
        model.card = cid
        opts = model.options()
        if opts:
            found = True
            best = opts[0]
            assert model.best() == best.points
            assert model.check(list(best.path)).startswith("Legal")
            model.start, model.end = best.start, best.end
            assert all(o.start == best.start and o.end == best.end for o in model.options())
            assert "<polyline" in model.svg()
            break
    assert found, "seed 77 should give Red at least one Land Ritual"
    assert model.check("(0,0) (1").startswith("Not understood")
    assert model.check([(999, 0), (0, 0)]).startswith("Not allowed")


def test_ritual_explorer_widget_reacts_to_choices():
    s = busy_state()
    box = ritual_explorer(s, player=0)
    options = [value for _, value in box.card_pick.options]
    before = box.picture.value
    for cid in options:
        box.card_pick.value = cid
        if box.model.options():
            break
    assert box.model.card == box.card_pick.value
    starts = [v for _, v in box.start_pick.options if v is not None]
    if starts:
        box.start_pick.value = starts[0]
        assert box.model.start == starts[0]
    box.typed.value = "(0,0)"
    box.check.click()
    assert "Not allowed" in box.verdict.value
    assert box.picture.value != before or len(options) == 1


def test_setup_stepper_buttons():
    box = setup_stepper(players=2, seed=3)
    back, forward = box.children[0].children
    assert back.disabled and box.model.step == 0
    for _ in range(10):
        forward.click()
    assert box.model.step == len(box.model.steps) - 1 and forward.disabled
    back.click()
    assert box.model.step == len(box.model.steps) - 2


def test_check_answer_exercise():
    s = busy_state()
    model = RitualExplorer(s, player=0)
    model.card = "L06"
    best = model.best()
    assert check_answer(s, 0, "L06", best).startswith("Right")
    assert check_answer(s, 0, "L06", best + 1).startswith("Not quite")
    assert "not a Land Ritual" in check_answer(s, 0, "C01", 3)


def test_parse_path():
    assert parse_path("(0,0) (1,-1) (2,-1)") == [(0, 0), (1, -1), (2, -1)]
    with pytest.raises(ValueError):
        parse_path("1 2 3")


def test_play_widget_full_game_against_computers():
    widget = play(players=3, seed=5)
    model = widget.model
    assert model.controller_name(1) == "forester" and not model.is_computer(0)
    # the learner (Red) always takes the first listed action; the foresters answer
    for _ in range(400):
        if model.is_over:
            break
        model.play(model.legal_actions()[0])
    model.play_to_end()
    assert model.is_over and model.winners()
    assert model.log[-1].startswith("Game over")
    assert model.can_undo


def test_forester_games_reach_the_summit():
    for seed in range(3):
        final = play_game(pangaea.new_game(players=2 + seed, seed=seed),
                          [ForesterPlayer(k) for k in range(2 + seed)])
        assert "Sacred Mountain" in final.end_reason
        assert max(s.total for s in final.scores()) >= final.edition.summit_steps


# ----- Wild Woods and Return of the Ancients in the step-through widget -------------------------


def learner_moves(widget, learner, limit=1500, prefer=("Add Treetop", "Place the Treetop")):
    """Play the human seats through the view (kind picker, action list, Apply), preferring the
    kinds in ``prefer`` and otherwise what ``learner`` chooses; returns the kinds seen."""
    m, v = widget.model, widget.view
    seen = set()
    for _ in range(limit):
        if m.is_over:
            break
        groups = m.legal_groups()
        seen |= set(groups)
        kind = next((k for k in prefer if k in groups), None)
        if kind is not None:
            v.kind_picker.value = kind
        else:
            action = learner.choose(m.state)
            v.kind_picker.value = action.kind
            v.action_list.value = groups[action.kind].index(action)
        before = len(m.moves)
        v.apply_button.click()
        assert len(m.moves) > before, m.message
    return seen


def test_play_widget_wild_woods_to_the_end():
    from pangaea_lab.core.players import RandomPlayer
    widget = play(players=2, seed=8, wild_woods=True, computer={1: "greedy"})
    m, v = widget.model, widget.view
    assert (m.state.woods is not None) and m.state.woods.storms and list(v.players_picker.options) == [2, 3, 4]
    assert "Player Board" in v.board.value and "Player Board" in v.players_html.value
    seen = learner_moves(widget, RandomPlayer("learner"))
    assert m.is_over, "the game should end within the move bound"
    assert "Add Treetop" in seen and "Expand Forest" in seen
    assert any(line.startswith("Red: Add Treetop") for line in m.log)
    table = dict((row[0], row[1:]) for row in m.scores_table())
    assert "Player Board" in table and table["Total"] == [s.total for s in m.state.scores()]
    assert m.log[-1].startswith("Game over")
    # undo walks back through the whole game, redo forward again
    end = m.state
    m.go_to(0)
    assert sum(m.state.woods.treetops) == 0 and m.state == m.history[0]
    m.go_to(m.reachable)
    assert m.state == end


@pytest.mark.parametrize("options", [dict(players=2, wild_woods=True),
                                     dict(players=1, mode="coop", wild_woods=True)],
                         ids=["wild woods", "coop wild woods"])
def test_play_widget_default_seats_play_to_the_end(options):
    widget = play(seed=4, **options)
    m = widget.model
    assert [m.controller_name(p) for p in range(m.state.num_players)] == \
        ["human"] + ["forester"] * (options["players"] - 1)
    m.play(m.legal_actions()[0])
    m.play_to_end()
    assert m.is_over and m.log[-1].startswith("Game over")


def test_play_widget_wild_woods_computers_only():
    widget = play(players=3, seed=2, wild_woods=True, storms=False,
                  computer={0: "greedy", 1: "random", 2: "greedy"})
    m = widget.model
    assert not m.has_human_seat and not m.moves      # nobody moves until asked
    m.play_to_end()
    assert m.is_over and not m.state.woods.storms
    assert [row[0] for row in m.scores_table()][-2:] == ["Player Board", "Total"]
    assert "Game over" in widget.view.turn_line.value


@pytest.mark.parametrize("players", [1, 2])
def test_play_widget_coop_with_wild_woods_to_the_end(players):
    from pangaea_lab.core.players import RandomPlayer
    computer = {} if players == 1 else {1: "greedy"}
    widget = play(players=players, seed=3, mode="coop", wild_woods=True, computer=computer)
    m, v = widget.model, widget.view
    assert m.state.coop is not None and (m.state.woods is not None)
    assert list(v.players_picker.options) == [1, 2, 3, 4]
    assert "Ancient Markers" in v.board.value and "Player Board" in v.board.value
    learner_moves(widget, RandomPlayer(f"learner {players}"), limit=3000)
    assert m.is_over and m.state.coop.result in ("won", "lost")
    assert m.log[-1].startswith("Game over")
    assert m.winners() == (list(range(players)) if m.state.coop.result == "won" else [])


def test_play_coop_alias_and_new_game_button():
    widget = play(players=1, seed=5, mode="coop", computer={})
    m, v = widget.model, widget.view
    assert m.state.coop is not None and not (m.state.woods is not None)
    v.players_picker.value = 2
    v.seed_box.value = "6"
    v.new_game_button.click()
    assert m.state.num_players == 2 and m.seed == 6 and m.state.coop is not None


def test_setup_stepper_with_wild_woods():
    box = setup_stepper(players=2, seed=3, wild_woods=True)
    titles = [step.title for step in box.model.steps]
    assert titles[-2:] == ["Wild Woods Player Boards", "Elemental Storms"]
    forward = box.children[0].children[1]
    while not forward.disabled:
        forward.click()
    assert "Elemental Storms" in box.children[1].value
    assert "Player Board" in box.children[2].value


def test_the_widget_says_how_a_co_op_game_ended():
    from pangaea_lab.pangaea.widgets import play
    w = play(players=1, seed=1, mode="coop", computer={0: "forester"})
    model = w.model
    model.play_to_end()
    state = model.state
    assert state.is_over and state.coop.result in ("won", "lost")
    assert model.result_text() == f"Game over: you {state.coop.result} ({state.end_reason})."
    assert pangaea.new_game(players=2, seed=1).outcome() == ""


def test_clicking_a_space_of_the_board_picks_its_actions_one_after_another():
    w = play(players=2, seed=3, computer={})
    view, m = w.view, w.model
    assert 'data-cell="' in view.board.value
    land = next(c for c in (m.state.board.cells[i] for i in m.state.board.land))
    view.board.clicked = f"{land[0]},{land[1]}#1"
    assert m.selected.kind == "Flying Seed" and m.selected.cell == land
    assert view.action_list.value is not None and view.kind_picker.value == "Flying Seed"
    # a space with several actions of the kind shown: each click moves on to the next one
    from pangaea_lab.core.widget import StepThroughModel
    start = pangaea.new_game(players=2, seed=3, wild_woods=True)
    tree = start.board.cells[start.board.land[0]]
    start = start.arranged(trees={tree: start.turn_player})
    sow = StepThroughModel(lambda players, seed: start, players=2, seed=3)
    spot = next(a.cell for a in sow.legal_actions() if a.kind == "Expand Forest")
    sow.select_kind("Expand Forest")
    counts = []
    for _ in range(3):
        sow.pick_cell(spot)
        assert sow.selected.kind == "Expand Forest" and sow.selected.cell == spot
        counts.append(sow.selected.count)
    assert counts == [1, 2, 1] and "click the space again" in sow.message


def test_setup_stepper_follows_a_link_and_offers_it_back():
    box = setup_stepper(players=2, seed=3, link="seed=9&players=4&family=yes")
    last = box.model.steps[-1].state
    assert (last.num_players, box.board.seed, dict(box.board.options).get("family")) == \
        (4, 9, True)
    assert last.board == pangaea.new_game(players=4, seed=9, family=True).board
    assert box.board.query() == "seed=9&players=4&family=yes"
    plain = setup_stepper(players=3, seed=5, link=False)
    assert plain.model.steps[-1].state.num_players == 3 and plain.board.seed == 5
