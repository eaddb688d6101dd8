"""The start page's catalogue: every game, its notebooks and its launcher."""

from pathlib import Path

import pytest

from pangaea_lab.catalog import GAMES, game, game_picker

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.key)
def test_every_listed_notebook_exists_and_the_game_starts(info):
    for nb in info.notebooks:
        assert (ROOT / "notebooks" / nb).is_file(), nb
    low, high = info.players
    for n in (low, high):   # with the options of a way to play that seats n (Pangaea: solo co-op)
        way = next(v for v in info.ways_to_play() if v.players[0] <= n <= v.players[1])
        state = info.module.new_game(players=n, seed=1, **dict(way.options))
        assert state.num_players == n and state.legal_actions()


def test_every_notebook_folder_is_listed():
    listed = {nb for g in GAMES for nb in g.notebooks}
    found = {str(p.relative_to(ROOT / "notebooks")) for p in (ROOT / "notebooks").glob("*/*.ipynb")}
    assert found == listed


def test_picker_starts_each_game():
    box = game_picker(seed=3)
    for info in GAMES:
        box.pick.value = info.key
        first = info.ways_to_play()[0]     # the seats of the way to play shown first
        assert (box.seats.min, box.seats.max) == first.players
        assert info.players[0] <= first.players[0] <= first.players[1] <= info.players[1]
        box.start.click()
        assert box.area.children and hasattr(box.area.children[0], "model")


#: what a state of The Dawn of Pangaea shows of each option it was set up with (a variant's
#: record is on the state when the variant is played)
PLAYED = {"family": lambda s: s.family,
          "mode": lambda s: "ancients" if s.coop is not None else "",
          "wild_woods": lambda s: s.woods is not None}


def test_picker_offers_every_way_to_play_the_dawn_of_pangaea():
    box = game_picker(seed=5)
    box.pick.value = "pangaea"
    names = [name for name, _ in box.way.options]
    assert names == [v.name for v in game("pangaea").ways_to_play()] and len(names) == 5
    for k, variant in enumerate(game("pangaea").ways_to_play()):
        box.way.value = k
        assert (box.seats.min, box.seats.max) == variant.players
        box.seats.value = variant.players[0]
        box.start.click()
        state = box.area.children[0].model.state
        assert state.num_players == variant.players[0]
        for key, value in variant.options:
            assert PLAYED[key](state) == ("ancients" if value == "coop" else value)
    box.pick.value = "inori"
    assert [name for name, _ in box.way.options] == ["Standard game"]


def test_unknown_game_is_named():
    with pytest.raises(KeyError, match="chess"):
        game("chess")


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.key)
def test_picker_seats_the_computer_for_every_seat_but_the_first(info):
    box = game_picker(seed=4)
    box.pick.value = info.key
    assert box.others.value == "computer"
    low, high = info.players
    box.seats.value = high
    box.start.click()
    model = box.area.children[0].model
    assert model.state.num_players == high
    assert not model.is_computer(0)
    assert all(model.is_computer(seat) for seat in range(1, high))
    box.others.value = "human"
    box.start.click()
    model = box.area.children[0].model
    assert not any(model.is_computer(seat) for seat in range(high))


def test_the_dawn_of_pangaea_plays_its_own_computer_player():
    box = game_picker(seed=4)
    box.pick.value = "pangaea"
    box.seats.value = 3
    box.start.click()
    model = box.area.children[0].model
    assert [model.seat(s) for s in range(3)] == ["human", "own", "own"]
    assert game("inori").against_computer(2) == {1: "greedy"}


def test_exercise_pages_link_every_rule_notebook_with_its_exercises(monkeypatch):
    from pangaea_lab import exercises
    from pangaea_lab.catalog import exercise_pages
    from pangaea_lab.core import exercises as core_exercises
    from pangaea_lab.core.exercises import register

    monkeypatch.setattr(core_exercises, "_REGISTRY", dict(core_exercises._REGISTRY))
    monkeypatch.setattr(exercises, "registry", core_exercises.registered)
    register("harmonies.toy_stacks", game="harmonies", notebook="harmonies/02_landscapes.ipynb",
             rule="stacks", title="Which stacks <are> legal")(lambda seed: None)
    html = exercise_pages()._repr_html_()
    for g in GAMES:
        assert f"<b>{g.title}</b>" in html
        for nb in g.notebooks:
            shown = not nb.endswith(("full_game.ipynb", "statistics.ipynb"))
            assert (f'href="{nb}"' in html) == shown, nb
    # the toy kind is listed (escaped) on its notebook's line, whatever else is registered
    line = next(item for item in html.split("<li>")
                if item.startswith('<a href="harmonies/02_landscapes.ipynb">'))
    assert "Which stacks &lt;are&gt; legal" in line


def test_picker_refuses_a_seed_that_is_not_a_whole_number_with_a_sentence():
    box = game_picker(seed=4, link=False)
    box.start.click()
    shown = box.area.children
    assert shown[0].model.seed == 4
    for typed in ("2.5", "abc", "-1"):
        box.seed_box.value = typed
        box.start.click()
        assert box.area.children == shown                 # the game shown stays
        assert "The seed must be a whole number" in box.seed_problem.value
    box.seed_box.value = "25"
    box.start.click()
    assert box.area.children[0].model.seed == 25 and box.seed_problem.value == ""
