"""Every argument of the simulation lab is checked before anything runs: limits stated in the
message, NumPy integers accepted, options that would change nothing refused, and a refused
run leaves no folder behind."""

from __future__ import annotations

import numpy as np
import pytest

from pangaea_lab.simulate import SimulationError, main, simulate


@pytest.mark.parametrize("kwargs, words", [
    (dict(chunk=-1), r"chunk \(games per task\) must be a whole number from 1 to 10,000, "
                     "not -1"),
    (dict(chunk=0), "chunk .* not 0"),
    (dict(chunk=2.5), "chunk .* not 2.5"),
    (dict(seeds=range(10**20)), "at most 10,000,000 games in one run, not "
                                "100,000,000,000,000,000,000"),
    (dict(seeds=[2**63]), r"every seed must be a whole number from 0 to 2\*\*63 - 1 "
                          r"\(seeds are stored as 64-bit integers\), not 9223372036854775808"),
    (dict(seeds=range(2**63 - 1, 2**63 + 1)), "every seed must be .* not 9223372036854775808"),
    (dict(seeds=range(5, 5)), "the range of seeds is empty"),
    (dict(seeds=[1.0]), "every seed must be a whole number"),
    (dict(seeds=np.array([True])), "every seed must be a whole number"),
    (dict(seeds=True), "number of games, a range or a list"),
    (dict(seeds={1: 2}), "number of games, a range or a list"),
    (dict(workers=65), "workers must be a whole number from 1 to 64"),
    (dict(workers=2, client="tcp://127.0.0.1:1"), "give one of them, not both"),
    (dict(save_every=1), "save_every sets how often the results folder is written: it needs "
                         "a results folder"),
    (dict(events="yes"), "events must be True or False"),
    (dict(progress=1), "progress must be True or False"),
    (dict(rotate_seats=None), "rotate_seats must be True or False"),
    (dict(out=42), "out must name a results folder"),
    (dict(bots=42), "bots must be a name, a list of names, or computer players"),
    (dict(players=2.0), "Inori is played by 2 to 4 players, not 2.0"),
    (dict(options=["a"]), "options must be a dictionary"),
])
def test_bad_arguments_are_refused_before_anything_runs(tmp_path, kwargs, words):
    kwargs = {"game": "inori", "players": 2, "progress": False, **kwargs}
    if "save_every" not in kwargs and not isinstance(kwargs.get("out", ""), int):
        kwargs.setdefault("out", tmp_path / "r")
    with pytest.raises(SimulationError, match=words):
        simulate(**kwargs)
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("options, words", [
    ({"difficulty": "midnight"}, "the option difficulty='midnight' of The Dawn of Pangaea only "
                                 "counts with mode='coop'; here it would change nothing"),
    ({"difficulty": "cozy", "mode": ""}, "difficulty='cozy' of The Dawn of Pangaea only counts with mode='coop'"),
    ({"storms": False}, "storms=False of The Dawn of Pangaea only counts with wild_woods=True"),
])
def test_an_option_that_changes_nothing_is_refused(tmp_path, options, words):
    with pytest.raises(SimulationError, match=words):
        simulate("pangaea", players=2, seeds=1, options=options, out=tmp_path / "r",
                 progress=False)
    assert not (tmp_path / "r").exists()


def test_options_that_count_in_their_mode_are_accepted():
    for options in ({"mode": "coop", "difficulty": "midnight"},
                    {"mode": "ancients", "difficulty": "cozy"},
                    {"wild_woods": True, "storms": False},
                    {"difficulty": "standard"}):          # the default, which changes nothing
        assert len(simulate("pangaea", players=2, seeds=[3], bots="greedy", options=options,
                            progress=False)) == 1


def test_numpy_integers_are_accepted_everywhere():
    plain = simulate("inori", players=2, seeds=3, progress=False, chunk=2)
    for seeds in (np.int64(3), np.arange(3), [np.int32(0), np.int64(1), np.uint8(2)],
                  range(np.int64(0), np.int64(3))):
        table = simulate("inori", players=np.int64(2), seeds=seeds, progress=False,
                         chunk=np.int16(2), workers=np.int64(1))
        assert table.equals(plain)
        assert table.seed.dtype == np.int64


def test_the_largest_seed_is_played_and_stored(tmp_path):
    big = 2**63 - 1
    table = simulate("inori", players=2, seeds=[big], out=tmp_path / "r", progress=False)
    assert list(table.seed) == [big]


def test_the_command_line_refuses_options_that_do_nothing(tmp_path, capsys):
    assert main(["inori", "--games", "2", "--events", "--quiet"]) == 2
    assert "--events records the event table in the results folder" in capsys.readouterr().err
    assert main(["inori", "--games", "2", "--chunk", "-1", "--quiet"]) == 2
    assert "chunk (games per task) must be" in capsys.readouterr().err
    assert main(["pangaea", "--games", "1", "--option", "difficulty=midnight", "--quiet"]) == 2
    assert "only counts with mode='coop'" in capsys.readouterr().err
    assert main(["inori", "--games", "2", "--first-seed", str(2**63 - 1), "--quiet"]) == 2
    assert "2**63 - 1" in capsys.readouterr().err
