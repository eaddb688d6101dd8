"""Exercises answered by clicking in a real browser, in JupyterLab and in the Voilà app.

For one exercise per game (the first ``practice(...)`` call found in that game's rule
notebooks), and for small toy exercises of every answer kind on a throw-away page, the test
works out in this process, with the same generator, what a wrong and a right answer are and
what the widget must say about them (the engine is the answer key); then it clicks the wrong
answer on the page and presses Check ("Not quite" and the engine's reason), clears it, clicks
the right one ("Right"), asks for the first hint and the answer, and presses Another one (the
seed moves on, the level stays and the position changes).  What a learner does over several
exercises (hints opened by wrong answers, mastery, the record kept over a reload and in a
file, the Review page) is in test_browser_practice.py.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from browser_support import CLICK, NOTEBOOKS, SCREENSHOTS, WIDGET, assert_clean, open_in_lab, \
    open_in_voila
from exercise_pages import (OnPage, expect_progress, forget_progress, open_fresh_in_voila,
                            squash, wrong_answer)

import toy_exercises
from pangaea_lab import exercises

GAMES = exercises.GAMES
TOY_NOTEBOOK = "exercise_check/toy_exercises.ipynb"
PRACTICE = re.compile(r"""practice\(\s*["']([\w.]+)["']\s*(?:,\s*(?:seed\s*=\s*)?(\d+))?"""
                      r"""(?:\s*,\s*(?:level\s*=\s*)?(\d+))?""")


def rule_notebooks(game: str) -> list[str]:
    return sorted(str(p.relative_to(NOTEBOOKS)) for p in (NOTEBOOKS / game).glob("*.ipynb")
                  if not p.stem.endswith(("full_game", "review")))


def first_practice(game: str) -> tuple[str, str, int, int] | None:
    """(notebook, kind, seed, level) of the first exercise shown in the game's rule
    notebooks."""
    for notebook in rule_notebooks(game):
        cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            found = PRACTICE.search("".join(cell["source"]))
            if found:
                return notebook, found.group(1), int(found.group(2) or 0), \
                    int(found.group(3) or 1)
    return None


def run_exercise(page: Any, key: str, seed: int, where: str, shot: str | None = None,
                 level: int = 1) -> None:
    ex = exercises.generate(key, seed, level)
    on = OnPage(page, key, seed, where, level=level)
    assert on.text("feedback") == "", f"{where}: {key} shows feedback before any Check"
    assert squash(ex.question) in on.text("question"), f"{where}: {key} asks another question"
    assert on.text("seed") == f"Exercise seed {seed}, level {level}"
    if ex.answer_kind in ("cells", "path"):
        assert on.root.locator(".pl-exercise-board svg [data-cell]").count() > 0, \
            f"{where}: {key} has no clickable board"

    on.give(wrong_answer(ex))
    on.check(right=False)
    assert on.hints_shown() == [], f"{where}: {key} opened a hint after one wrong answer"
    on.clear()
    on.give(ex.answer)
    on.check(right=True)
    if shot:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        on.root.screenshot(path=str(SCREENSHOTS / f"{shot}.png"), timeout=CLICK)

    on.press("hint")
    on.twin.show_hint()
    on.expect_hints(1)
    on.press("show-answer")
    on.twin.show_answer()
    want = squash(f"Answer: {ex.answer_text()}")
    on.wait(f"Show answer should say {want!r}", lambda: on.text("answer").startswith(want))

    before = on.position()
    on.another()
    after = exercises.generate(key, seed + 1, level)
    if after.svg(()) != ex.svg(()) or after.question != ex.question or \
            after.options != ex.options:
        on.wait("Another one did not change the board or the question",
                lambda: on.position() != before)
    assert on.text("seed") == f"Exercise seed {seed + 1}, level {level}", \
        f"{where}: Another one changed the level"


# ----- one exercise per game -----------------------------------------------------------------


def game_exercise(game: str) -> tuple[str, str, int, int]:
    found = first_practice(game)
    if found is None:
        pytest.fail(f"no notebook of {game} shows an exercise yet (no practice(...) call in "
                    f"{', '.join(rule_notebooks(game))})", pytrace=False)
    return found


@pytest.mark.xdist_group("voila")
@pytest.mark.parametrize("game", GAMES)
def test_game_exercise_in_voila(voila, page, game):
    notebook, key, seed, level = game_exercise(game)
    where = f"Voilà, {notebook}"
    open_in_voila(page, voila, notebook)
    run_exercise(page.page, key, seed, where, shot=f"voila_exercise_{game}", level=level)
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
@pytest.mark.parametrize("game", GAMES)
def test_game_exercise_in_lab(lab_page, game):
    notebook, key, seed, level = game_exercise(game)
    where = f"JupyterLab, {notebook}"
    open_in_lab(lab_page, notebook)
    run_exercise(lab_page.page, key, seed, where, shot=f"lab_exercise_{game}", level=level)
    assert_clean(lab_page, where)


# ----- every answer kind, on a throw-away page -----------------------------------------------


@pytest.fixture(scope="module")
def toy_page(served: Path) -> str:
    """A notebook in the served copy (never in the repository) showing one toy exercise of
    each answer kind; the kinds come from ``toy_exercises``, copied next to it."""
    cells = ["from pangaea_lab.exercises import practice, progress\nprogress()"]
    cells += [f'practice("{key}", seed={k + 3})' for k, key in enumerate(toy_exercises.KINDS)]
    return toy_exercises.write_notebook(served, Path(TOY_NOTEBOOK).name, cells,
                                        "Practice on toy exercises")


def run_toys(page: Any, where: str, shot: str) -> None:
    total = len(toy_exercises.KINDS)
    expect_progress(page, where, practised=0, mastered=0, kinds=total)
    assert squash(page.locator(".pl-exercise-progress").first.inner_text(timeout=CLICK)) \
        .startswith(f"Exercises on this page: practised 0 of {total} kinds · mastered 0")
    for k, key in enumerate(toy_exercises.KINDS):
        run_exercise(page, key, k + 3, where, shot=f"{shot}_{key.split('.')[1]}")
        # every kind so far was answered (and none mastered: one clean answer each)
        expect_progress(page, where, practised=k + 1, mastered=0)


@pytest.mark.xdist_group("voila")
def test_every_answer_kind_in_voila(voila, page, toy_page):
    where = f"Voilà, {toy_page}"
    open_fresh_in_voila(page, voila, toy_page)
    run_toys(page.page, where, "voila_exercise")
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
def test_every_answer_kind_in_lab(lab_page, toy_page):
    where = f"JupyterLab, {toy_page}"
    forget_progress(lab_page.page)
    open_in_lab(lab_page, toy_page)
    run_toys(lab_page.page, where, "lab_exercise")
    assert_clean(lab_page, where)


def test_the_first_exercise_of_a_notebook_is_found(tmp_path):
    source = 'progress()\nw = practice("pangaea.flying_seed_range", seed=12)\n'
    found = PRACTICE.search(source)
    assert found.groups() == ("pangaea.flying_seed_range", "12", None)
    assert PRACTICE.search("practice('inori.altars', 3)").groups() == ("inori.altars", "3",
                                                                       None)
    assert PRACTICE.search('practice("harmonies.stacks")').groups() == ("harmonies.stacks",
                                                                         None, None)
    assert PRACTICE.search('practice("inori.altars", seed=4, level=2)').groups() == (
        "inori.altars", "4", "2")


# ----- the start page ------------------------------------------------------------------------


@pytest.mark.xdist_group("voila")
def test_start_page_lists_the_exercise_pages_and_seats_the_computer_in_voila(voila, page):
    from pangaea_lab.catalog import GAMES as CATALOG

    where = "Voilà, 00_start_here.ipynb"
    open_in_voila(page, voila, "00_start_here.ipynb")
    p = page.page
    links = p.locator(".pl-exercise-pages a").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")
    assert links == [nb for g in CATALOG for nb in g.notebooks
                     if not nb.endswith(("full_game.ipynb", "statistics.ipynb"))], \
        f"{where}: the list of pages"
    picker = p.locator(".pl-game-picker").first
    picker.scroll_into_view_if_needed(timeout=CLICK)
    picker.locator("select").first.select_option(label="Harmonies", timeout=CLICK)
    picker.locator("button", has_text="Start").first.click(timeout=CLICK)
    p.wait_for_selector(".pl-game-picker .pl-step-through", state="visible", timeout=WIDGET)

    def chosen() -> list[str]:
        return picker.locator(".pl-step-through select").evaluate_all(
            "all => all.map(s => s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].text)")

    deadline = time.monotonic() + CLICK / 1000
    while time.monotonic() < deadline and chosen().count("Greedy") != 1:
        p.wait_for_timeout(200)
    seats = chosen()
    assert seats.count("Human") == 1 and seats.count("Greedy") == 1, (
        f"{where}: a two-player Harmonies game from the picker should seat you and the "
        f"computer; the seat choices read {seats}")
    assert_clean(page, where)
