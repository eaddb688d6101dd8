"""Exercises answered by clicking in a real browser, in JupyterLab and in the Voilà app.

For one exercise per game (the first ``practice(...)`` call found in that game's rule
notebooks), and for small toy exercises of every answer kind on a throw-away page, the test
works out in this process, with the same generator, what a wrong and a right answer are and
what the widget must say about them (the engine is the answer key); then it clicks the wrong
answer on the page and presses Check ("Not quite" and the engine's reason), clears it, clicks
the right one ("Right"), asks for the hint and the answer, and presses Another one (the seed
moves on and the position changes).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from browser_support import (CLICK, NOTEBOOKS, SCREENSHOTS, WIDGET, assert_clean,
                             open_in_lab, open_in_voila)

import toy_exercises
from pangaea_lab import exercises
from pangaea_lab.core.exercise_widget import ExerciseModel

GAMES = exercises.GAMES
TOY_NOTEBOOK = "exercise_check/toy_exercises.ipynb"
PRACTICE = re.compile(r"""practice\(\s*["']([\w.]+)["']\s*(?:,\s*(?:seed\s*=\s*)?(\d+))?""")


def rule_notebooks(game: str) -> list[str]:
    return sorted(str(p.relative_to(NOTEBOOKS)) for p in (NOTEBOOKS / game).glob("*.ipynb")
                  if not p.stem.endswith("full_game"))


def first_practice(game: str) -> tuple[str, str, int] | None:
    """(notebook, kind, seed) of the first exercise shown in the game's rule notebooks."""
    for notebook in rule_notebooks(game):
        cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            found = PRACTICE.search("".join(cell["source"]))
            if found:
                return notebook, found.group(1), int(found.group(2) or 0)
    return None


def wrong_answer(ex: Any) -> Any:
    """An answer the engine refuses, as clicks (the same recipe as the registry test)."""
    kind, answer = ex.answer_kind, ex.answer
    if kind == "number":
        return answer + 1
    if kind == "choice":
        return next(o.key for o in ex.options if not ex.check(o.key).correct)
    if kind == "choices":
        return answer ^ {ex.options[0].key}
    if kind == "cells":
        if answer:
            return answer - {min(answer)}
        drawn = re.findall(r'data-cell="(-?\d+(?:,-?\d+)*)"', ex.svg(()))
        return frozenset({tuple(int(x) for x in drawn[0].split(","))})
    drop = len(answer) // 2 if len(answer) >= 3 else len(answer) - 1
    return answer[:drop] + answer[drop + 1:]


def squash(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


class OnPage:
    """One exercise widget on the page, and a twin model in this process that says what the
    widget must show after each click."""

    def __init__(self, page: Any, key: str, seed: int, where: str) -> None:
        self.page, self.key, self.where = page, key, where
        self.twin = ExerciseModel(key, seed)
        page.wait_for_selector(".pl-exercise .pl-exercise-seed [data-kind]", timeout=WIDGET)
        index = page.evaluate(
            """([key, seed]) => [...document.querySelectorAll('.pl-exercise')].findIndex(e => {
                 const s = e.querySelector('.pl-exercise-seed [data-kind]');
                 return s && s.dataset.kind === key && s.dataset.seed === String(seed); })""",
            [key, seed])
        assert index >= 0, f"{where}: no exercise widget for {key} seed {seed} on the page"
        self.root = page.locator(".pl-exercise").nth(index)
        self.root.scroll_into_view_if_needed(timeout=CLICK)

    def part(self, name: str) -> Any:
        return self.root.locator(f".pl-exercise-{name}").first

    def text(self, name: str) -> str:
        part = self.part(name)
        if part.count() == 0:
            raise AssertionError(f"{self.where}, {self.key}: the widget has no part {name!r}")
        return squash(part.inner_text(timeout=CLICK))

    def wait(self, what: str, test: Any) -> None:
        deadline = time.monotonic() + CLICK / 1000
        while time.monotonic() < deadline:
            if test():
                return
            self.page.wait_for_timeout(200)
        raise AssertionError(f"{self.where}, {self.key}: {what}")

    def expect_selection(self) -> None:
        if self.twin.answer_kind == "number":
            return
        want = squash("Your answer: " + self.twin.answer_text())
        self.wait(f"the widget should say {want!r}, it says {self.text('selection')!r}",
                  lambda: self.text("selection") == want)

    def click_cell(self, cell: tuple) -> None:
        space = self.root.locator(
            f'.pl-exercise-board [data-cell="{",".join(map(str, cell))}"]').first
        space.scroll_into_view_if_needed(timeout=CLICK)
        space.click(timeout=CLICK, force=True)
        self.twin.click(cell)
        self.expect_selection()

    def click_option(self, key: str) -> None:
        label = squash(self.twin.exercise.option_label(key))
        buttons = self.root.locator(".pl-exercise-option")
        texts = [squash(t)[2:] for t in buttons.all_inner_texts()]
        assert label in texts, f"{self.where}: no button {label!r} among {texts}"
        buttons.nth(texts.index(label)).click(timeout=CLICK)
        self.twin.choose(key)
        self.expect_selection()

    def give(self, answer: Any) -> None:
        """Click (or type) ``answer`` from an empty answer."""
        kind = self.twin.answer_kind
        if kind == "number":
            self.part("number").locator("input").fill(str(answer), timeout=CLICK)
            self.twin.set_number(answer)
        elif kind == "cells":
            for cell in sorted(answer):
                self.click_cell(cell)
        elif kind == "path":
            for cell in answer:
                self.click_cell(cell)
        elif kind == "choice":
            self.click_option(answer)
        else:
            for option in self.twin.exercise.options:
                if option.key in answer:
                    self.click_option(option.key)

    def press(self, name: str) -> None:
        self.part(name).click(timeout=CLICK)

    def check(self, right: bool) -> None:
        self.press("check")
        verdict = self.twin.check()
        assert verdict.correct == right, f"{self.key}: the twin model disagrees"
        word = "Right" if right else "Not quite"
        want = squash(self.twin.feedback_text())
        self.wait(f"after Check the widget should say {want!r}, it says "
                  f"{self.text('feedback')!r}", lambda: self.text("feedback") == want)
        assert word in self.text("feedback")

    def clear(self) -> None:
        self.press("clear")
        self.twin.clear()
        self.wait("Clear did not empty the answer",
                  lambda: self.text("feedback") == "" and (
                      self.twin.answer_kind == "number" or self.text("selection") ==
                      squash("Your answer: " + self.twin.answer_text())))

    def seed_shown(self) -> str:
        return self.part("seed").locator("[data-seed]").get_attribute("data-seed",
                                                                      timeout=CLICK)

    def position(self) -> str:
        parts = ("board", "picture", "question", "options")
        return "".join(self.part(p).inner_html(timeout=CLICK) for p in parts)


def run_exercise(page: Any, key: str, seed: int, where: str, shot: str | None = None) -> None:
    ex = exercises.generate(key, seed)
    on = OnPage(page, key, seed, where)
    assert on.text("feedback") == "", f"{where}: {key} shows feedback before any Check"
    assert squash(ex.question) in on.text("question"), f"{where}: {key} asks another question"
    assert on.text("seed") == f"Exercise seed {seed}"
    if ex.answer_kind in ("cells", "path"):
        assert on.root.locator(".pl-exercise-board svg [data-cell]").count() > 0, \
            f"{where}: {key} has no clickable board"

    on.give(wrong_answer(ex))
    on.check(right=False)
    on.clear()
    on.give(ex.answer)
    on.check(right=True)
    if shot:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        on.root.screenshot(path=str(SCREENSHOTS / f"{shot}.png"), timeout=CLICK)

    on.press("hint")
    on.wait("Hint showed nothing", lambda: on.text("hint-text").startswith("Hint:"))
    on.press("show-answer")
    want = squash(f"Answer: {ex.answer_text()}")
    on.wait(f"Show answer should say {want!r}", lambda: on.text("answer").startswith(want))

    before = on.position()
    on.press("another")
    on.wait(f"Another one did not move on to seed {seed + 1}",
            lambda: on.seed_shown() == str(seed + 1))
    on.twin.another()
    after = exercises.generate(key, seed + 1)
    if after.svg(()) != ex.svg(()) or after.question != ex.question or \
            after.options != ex.options:
        on.wait("Another one did not change the board or the question",
                lambda: on.position() != before)
    on.wait("Another one kept the old feedback, hint or answer",
            lambda: on.text("feedback") == "" and on.text("hint-text") == "")


# ----- one exercise per game -----------------------------------------------------------------


def game_exercise(game: str) -> tuple[str, str, int]:
    found = first_practice(game)
    if found is None:
        pytest.fail(f"no notebook of {game} shows an exercise yet (no practice(...) call in "
                    f"{', '.join(rule_notebooks(game))})", pytrace=False)
    return found


@pytest.mark.xdist_group("voila")
@pytest.mark.parametrize("game", GAMES)
def test_game_exercise_in_voila(voila, page, game):
    notebook, key, seed = game_exercise(game)
    where = f"Voilà, {notebook}"
    open_in_voila(page, voila, notebook)
    run_exercise(page.page, key, seed, where, shot=f"voila_exercise_{game}")
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
@pytest.mark.parametrize("game", GAMES)
def test_game_exercise_in_lab(lab_page, game):
    notebook, key, seed = game_exercise(game)
    where = f"JupyterLab, {notebook}"
    open_in_lab(lab_page, notebook)
    run_exercise(lab_page.page, key, seed, where, shot=f"lab_exercise_{game}")
    assert_clean(lab_page, where)


# ----- every answer kind, on a throw-away page -----------------------------------------------


@pytest.fixture(scope="module")
def toy_page(served: Path) -> str:
    """A notebook in the served copy (never in the repository) showing one toy exercise of
    each answer kind; the kinds come from ``toy_exercises``, copied next to it."""
    import nbformat

    folder = served / Path(TOY_NOTEBOOK).parent
    folder.mkdir(exist_ok=True)
    shutil.copy(Path(toy_exercises.__file__), folder / "toy_exercises.py")
    nb = nbformat.v4.new_notebook()
    # a kernel named in the file, so JupyterLab starts it without asking
    nb.metadata = json.loads((NOTEBOOKS / "00_start_here.ipynb").read_text())["metadata"]
    nb.cells = [nbformat.v4.new_markdown_cell("# Practice on toy exercises"),
                nbformat.v4.new_code_cell("import toy_exercises  # registers the toy kinds\n"
                                          "from pangaea_lab.exercises import practice, "
                                          "progress\nprogress()")]
    for k, key in enumerate(toy_exercises.KINDS):
        nb.cells.append(nbformat.v4.new_code_cell(f'practice("{key}", seed={k + 3})'))
    nbformat.write(nb, served / TOY_NOTEBOOK)
    return TOY_NOTEBOOK


def run_toys(page: Any, where: str, shot: str) -> None:
    progress = page.locator(".pl-exercise-progress").first
    total = len(toy_exercises.KINDS)
    assert squash(progress.inner_text(timeout=CLICK)).endswith(f"0 of {total} right")
    for k, key in enumerate(toy_exercises.KINDS):
        run_exercise(page, key, k + 3, where, shot=f"{shot}_{key.split('.')[1]}")
        # the latest Check of every exercise so far was right
        want = f"{k + 1} of {total} right"
        deadline = time.monotonic() + CLICK / 1000
        while not squash(progress.inner_text()).endswith(want) and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        assert squash(progress.inner_text()).endswith(want), \
            f"{where}: the progress line should say {want!r}"


@pytest.mark.xdist_group("voila")
def test_every_answer_kind_in_voila(voila, page, toy_page):
    where = f"Voilà, {toy_page}"
    open_in_voila(page, voila, toy_page)
    run_toys(page.page, where, "voila_exercise")
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
def test_every_answer_kind_in_lab(lab_page, toy_page):
    where = f"JupyterLab, {toy_page}"
    open_in_lab(lab_page, toy_page)
    run_toys(lab_page.page, where, "lab_exercise")
    assert_clean(lab_page, where)


def test_the_first_exercise_of_a_notebook_is_found(tmp_path):
    source = 'progress()\nw = practice("pangaea.flying_seed_range", seed=12)\n'
    found = PRACTICE.search(source)
    assert found.groups() == ("pangaea.flying_seed_range", "12")
    assert PRACTICE.search("practice('inori.altars', 3)").groups() == ("inori.altars", "3")
    assert PRACTICE.search('practice("harmonies.stacks")').groups() == ("harmonies.stacks",
                                                                         None)


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
