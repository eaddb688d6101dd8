"""The README's table "rule → notebook → exercise" is the exercise registry's."""

from pathlib import Path

import pytest

from pangaea_lab import exercises
from pangaea_lab.core import exercises as core_exercises
from pangaea_lab.core.exercises import Exercise, Verdict, register

ROOT = Path(__file__).resolve().parent.parent


def test_readme_table_matches_the_registry():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count(exercises.TABLE_START) == 1 and text.count(exercises.TABLE_END) == 1
    assert exercises.with_table(text) == text, (
        "the README's exercise table is out of date: run `PYTHONPATH=. python "
        "tests/exercise_table.py`")


def test_table_has_a_row_per_kind_in_game_order(monkeypatch):
    monkeypatch.setattr(core_exercises, "_REGISTRY", {})
    monkeypatch.setattr(exercises, "registry", core_exercises.registered)
    assert "no exercise is registered yet" in exercises.markdown_table()

    def gen(seed, level):
        return Exercise(kind="x", seed=seed, question="?", answer_kind="number", answer=1,
                        checker=lambda a: Verdict(a == 1, "one"), hints=("a", "b"))

    register("inori.b", game="inori", notebook="inori/01.ipynb", rule="Offer | pay")(gen)
    register("pangaea.a", game="pangaea", notebook="pangaea/02.ipynb", rule="Sow\nfar",
             title="Sowing")(gen)
    register("pangaea.c", game="pangaea", notebook="pangaea/01.ipynb", rule="Set up",
             levels=("one Tree", "a crowded board"))(gen)
    rows = exercises.markdown_table().splitlines()
    assert rows[0] == "| game | rule | notebook | exercise | levels |"
    default = "; ".join(f"{n}: {t}" for n, t in enumerate(core_exercises.DEFAULT_LEVELS, 1))
    assert rows[2:] == [
        "| pangaea | Set up | [`pangaea/01.ipynb`](notebooks/pangaea/01.ipynb) | Set up (`pangaea.c`) "
        "| 1: one Tree; 2: a crowded board |",
        "| pangaea | Sow far | [`pangaea/02.ipynb`](notebooks/pangaea/02.ipynb) | Sowing (`pangaea.a`) "
        f"| {default} |",
        "| inori | Offer \\| pay | [`inori/01.ipynb`](notebooks/inori/01.ipynb) | Offer \\| pay "
        f"(`inori.b`) | {default} |",
    ]
    readme = f"intro\n{exercises.TABLE_START}\nold rows\n{exercises.TABLE_END}\nrest\n"
    new = exercises.with_table(readme)
    assert new.startswith("intro\n" + exercises.TABLE_START + "\n\n| game")
    assert new.endswith("\n\n" + exercises.TABLE_END + "\nrest\n") and "old rows" not in new
    assert exercises.with_table(new) == new
    with pytest.raises(ValueError, match="no exercise table markers"):
        exercises.with_table("no table here")


def test_command_line_prints_the_table(capsys):
    assert exercises.main(["--markdown"]) == 0
    assert capsys.readouterr().out == exercises.markdown_table()
