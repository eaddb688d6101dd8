"""Driving exercise widgets on a page as a learner does, with a twin model in the test process
that says what the widget must show after each click (the engine is the answer key), and
reading the page's progress line and the record the browser keeps.

Shared by the browser tests of exercises (test_browser_exercises.py, test_browser_practice.py).
"""

from __future__ import annotations

import re
from typing import Any

from browser_support import CLICK, PAGE_LOAD, WIDGET, _wait_until, open_in_voila

from pangaea_lab.core.exercise_widget import ExerciseModel
from pangaea_lab.core.mastery import PracticeRecord
from pangaea_lab.core.practice_store import STORAGE_KEY


def squash(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


def wait_until(page: Any, what: str, test: Any, timeout: int = CLICK) -> None:
    """Wait until ``test()`` holds, else fail saying ``what`` (the pages' one waiting loop)."""
    _wait_until(page, what, test, timeout)


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


def other_wrong_answer(ex: Any, first: Any) -> Any:
    """A second wrong answer, different from ``first`` where the exercise allows one."""
    kind, answer = ex.answer_kind, ex.answer
    if kind == "number":
        return answer - 1
    if kind == "cells":
        dry = [tuple(int(x) for x in c.split(","))
               for c in re.findall(r'data-cell="(-?\d+(?:,-?\d+)*)"', ex.svg(()))]
        extra = next((c for c in dry if c not in answer), None)
        if extra is not None:
            return frozenset(answer) | {extra}
    return first


# ----- the progress line and the browser's record ---------------------------------------------


def progress_counts(page: Any) -> dict[str, int]:
    """practised, mastered and kinds, as the page's progress line states them."""
    line = page.locator(".pl-exercise-progress [data-practised]").first
    line.wait_for(state="attached", timeout=WIDGET)
    return {name: int(line.get_attribute(f"data-{name}", timeout=CLICK))
            for name in ("practised", "mastered", "kinds")}


def progress_text(page: Any) -> str:
    return squash(page.locator(".pl-exercise-progress").first.inner_text(timeout=CLICK))


def expect_progress(page: Any, where: str, **want: int) -> None:
    """Wait until the progress line shows the counts ``want`` (practised=, mastered=, kinds=)."""
    def shown() -> dict:
        counts = progress_counts(page)
        return {k: counts[k] for k in want}
    try:
        wait_until(page, "", lambda: shown() == want)
    except AssertionError:
        raise AssertionError(f"{where}: the progress line should count {want}, it counts "
                             f"{shown()} ({progress_text(page)!r})") from None


def kept_in_browser(page: Any) -> int:
    """How many attempts this browser keeps (-1 when it keeps none)."""
    return page.evaluate(
        """key => { const d = JSON.parse(window.localStorage.getItem(key) || "null");
                    return d && Array.isArray(d.attempts) ? d.attempts.length : -1; }""",
        STORAGE_KEY)


def forget_progress(page: Any) -> None:
    """Empty the record this browser keeps for the page's site (a learner on a new browser)."""
    page.evaluate("key => window.localStorage.removeItem(key)", STORAGE_KEY)


def open_fresh_in_voila(watched: Any, server: Any, notebook: str) -> None:
    """Open ``notebook`` in Voilà with nothing kept in this browser (earlier tests answered
    on the same site): the storage is emptied first, on a plain page of the same site (its
    "not found" is no error of the page under test)."""
    watched.page.goto(f"{server.url}/pangaea-lab-forget-progress", wait_until="load",
                      timeout=PAGE_LOAD)
    forget_progress(watched.page)
    watched.errors.clear()
    open_in_voila(watched, server, notebook)


def wait_kept(page: Any, where: str, count: int) -> None:
    """Wait until the browser keeps ``count`` attempts (the store has written them)."""
    try:
        wait_until(page, "", lambda: kept_in_browser(page) == count)
    except AssertionError:
        raise AssertionError(f"{where}: the browser should keep {count} answers, it keeps "
                             f"{kept_in_browser(page)}") from None


# ----- one exercise widget ---------------------------------------------------------------------


class OnPage:
    """One exercise widget on the page, and a twin model in this process that says what the
    widget must show after each click."""

    def __init__(self, page: Any, key: str, seed: int, where: str, level: int = 1,
                 index: int | None = None) -> None:
        self.page, self.key, self.where = page, key, where
        self.twin = ExerciseModel(key, seed, level=level, record=PracticeRecord())
        page.wait_for_selector(".pl-exercise .pl-exercise-seed [data-kind]", timeout=WIDGET)
        if index is None:
            index = page.evaluate(
                """([key, seed]) => [...document.querySelectorAll('.pl-exercise')].findIndex(
                     e => { const s = e.querySelector('.pl-exercise-seed [data-kind]');
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
        wait_until(self.page, f"{self.where}, {self.key}: {what}", test)

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

    def answer(self, right: bool = True) -> None:
        """Give the right (or a wrong) answer from an empty one and Check it."""
        ex = self.twin.exercise
        self.give(ex.answer if right else wrong_answer(ex))
        self.check(right=right)

    def seed_shown(self) -> str:
        return self.part("seed").locator("[data-seed]").get_attribute("data-seed",
                                                                      timeout=CLICK)

    def kind_shown(self) -> str:
        return self.part("seed").locator("[data-kind]").get_attribute("data-kind",
                                                                      timeout=CLICK)

    def another(self) -> None:
        """Another one: the next seed (the twin follows)."""
        seed = self.twin.seed + 1
        self.press("another")
        self.wait(f"Another one did not move on to seed {seed}",
                  lambda: self.seed_shown() == str(seed))
        self.twin.another()
        self.wait("Another one kept the old feedback, hint or answer",
                  lambda: self.text("feedback") == "" and self.text("hint-text") == "")

    def position(self) -> str:
        parts = ("board", "picture", "question", "options")
        return "".join(self.part(p).inner_html(timeout=CLICK) for p in parts)

    def hints_shown(self) -> list[str]:
        return [squash(t) for t in self.root.locator(".pl-hint").all_inner_texts()]

    def expect_hints(self, count: int) -> list[str]:
        """Wait until ``count`` hints are open, as the twin says they should be."""
        total = len(self.twin.exercise.hints)
        want = [squash(f"Hint {n} of {total}: {text}")
                for n, text in enumerate(self.twin.hints, start=1)]
        assert len(want) == count, f"{self.key}: the twin has {len(want)} hints open"
        self.wait(f"the widget should show the hints {want}, it shows {self.hints_shown()}",
                  lambda: self.hints_shown() == want)
        return want

    def status(self) -> dict[str, str]:
        """The exercise's status line: data-mastered, data-run and its words."""
        line = self.part("status").locator("[data-mastered]").first
        return {"mastered": line.get_attribute("data-mastered", timeout=CLICK),
                "run": line.get_attribute("data-run", timeout=CLICK),
                "text": squash(line.inner_text(timeout=CLICK))}

    def expect_status(self, mastered: bool, run: int) -> dict[str, str]:
        want = {"mastered": str(mastered).lower(), "run": str(run)}
        self.wait(f"the status line should read {want}, it reads {self.status()}",
                  lambda: {k: self.status()[k] for k in want} == want)
        return self.status()

    def answer_visible(self) -> bool:
        return self.part("answer").is_visible()
