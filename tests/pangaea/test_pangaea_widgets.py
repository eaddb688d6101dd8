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
