"""What a learner does over several exercises, in a real browser, in JupyterLab and in the Voilà
app: wrong answers open the hints one by one and never the answer; Show answer draws it and
the answer counts as seen, not learned; three right answers in a row on different positions
master a kind; the record is kept by the browser, so the progress line reads the same after a
reload; it is saved to a file with the button and loaded back, in another browser, with the
file picker; a Review page mixes the kinds.

The exercises are the small toy kinds of ``toy_exercises`` on throw-away pages of the served
copy (a game's own kinds change under their authors); one real Review page per game is opened
in Voilà too.  A twin model in this process says what each click must show.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import (CLICK, NOTEBOOKS, SCREENSHOTS, WIDGET, Watched, assert_clean,
                             close_in_lab, open_in_lab, open_in_voila, screenshot)
from exercise_pages import (OnPage, expect_progress, forget_progress, kept_in_browser,
                            open_fresh_in_voila, other_wrong_answer, squash, wait_kept,
                            wait_until, wrong_answer)

import toy_exercises
from pangaea_lab import exercises
from pangaea_lab.core.exercise_widget import SEEN_NOT_LEARNED
from pangaea_lab.core.mastery import PracticeRecord

#: the exercises of the practice page: (kind, seed)
LAKES, COUNT, BIGGEST = ("toy.lakes", 20), ("toy.count", 30), ("toy.biggest", 40)


@pytest.fixture(scope="module")
def practice_page(served: Path) -> str:
    cells = ["from pangaea_lab.exercises import practice, progress\nprogress()"]
    cells += [f'practice("{key}", seed={seed})' for key, seed in (LAKES, COUNT, BIGGEST)]
    return toy_exercises.write_notebook(served, "practice_page.ipynb", cells,
                                        "Practice that teaches")


@pytest.fixture(scope="module")
def review_page(served: Path) -> str:
    cells = ["from pangaea_lab.core.exercise_widget import PROGRESS, review_widget\n"
             "from pangaea_lab.exercises import progress\nprogress()",
             f"review_widget({list(toy_exercises.KINDS)!r}, seed=5, progress=PROGRESS)"]
    return toy_exercises.write_notebook(served, "toy_review.ipynb", cells, "Review")


def shot(on: OnPage, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    on.root.screenshot(path=str(SCREENSHOTS / f"{name}.png"), timeout=CLICK)


# ----- hints and Show answer -------------------------------------------------------------------


def struggle_then_show(page: Any, where: str, name: str) -> None:
    """Two wrong answers open the first hint, Hint the second; no answer is shown until Show
    answer, which draws it; a right Check after it is seen, not learned."""
    expect_progress(page, where, practised=0, mastered=0, kinds=3)
    on = OnPage(page, *LAKES, where)
    ex = on.twin.exercise
    first = wrong_answer(ex)
    on.give(first)
    on.check(right=False)
    assert on.hints_shown() == [], f"{where}: one wrong answer opened a hint"
    on.clear()
    on.give(other_wrong_answer(ex, first))
    on.check(right=False)
    nudge = on.expect_hints(1)                 # the second wrong answer opens the first hint
    assert squash(on.part("hint").inner_text()) == "Another hint"
    on.press("hint")
    on.twin.show_hint()
    both = on.expect_hints(2)
    assert both[0] == nudge[0] and both[1] != both[0], f"{where}: the two hints are the same"
    # the hint's words, its picture and the Hint button's state reach the page as separate
    # updates (the button is enabled again a moment after each click, then disabled for good)
    on.wait("Hint is still offered after the last one",
            lambda: on.part("hint").is_disabled()
            and squash(on.part("hint").inner_text()) == "No more hints")
    on.wait("the second hint marks nothing on the board",
            lambda: on.root.locator(".pl-exercise-hint-picture svg").count() == 1)
    assert not on.answer_visible() and on.text("answer") == "", \
        f"{where}: the answer shows before Show answer"
    assert squash(ex.answer_text()) not in on.text("feedback") + " ".join(on.hints_shown())
    expect_progress(page, where, practised=1, mastered=0)
    assert on.expect_status(mastered=False, run=0)["text"].endswith("Take it slowly: read the "
                                                                      "rule again, then try Hint.")
    shot(on, f"{name}_hints")

    on.press("show-answer")
    on.twin.show_answer()
    want = squash(f"Answer: {ex.answer_text()}")
    on.wait(f"Show answer should say {want!r}", lambda: on.text("answer").startswith(want))
    marks = on.root.locator('.pl-exercise-answer svg [stroke-width="5"]')
    on.wait(f"Show answer did not draw the answer's {len(ex.answer)} spaces",
            lambda: marks.count() == len(ex.answer))       # (the picture: a second update)
    on.clear()
    on.give(ex.answer)
    on.check(right=True)
    assert on.text("feedback").endswith(squash(SEEN_NOT_LEARNED))
    expect_progress(page, where, practised=1, mastered=0)     # seen, never counted as right
    on.expect_status(mastered=False, run=0)
    shot(on, f"{name}_answer_shown")


@pytest.mark.xdist_group("voila")
def test_hints_then_show_answer_in_voila(voila, page, practice_page):
    where = f"Voilà, {practice_page}"
    open_fresh_in_voila(page, voila, practice_page)
    struggle_then_show(page.page, where, "voila_practice")
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
def test_hints_then_show_answer_in_lab(lab_page, practice_page):
    where = f"JupyterLab, {practice_page}"
    forget_progress(lab_page.page)
    open_in_lab(lab_page, practice_page)
    struggle_then_show(lab_page.page, where, "lab_practice")
    assert_clean(lab_page, where)


# ----- mastery, kept over a reload ------------------------------------------------------------


def master_count(page: Any, where: str, name: str) -> None:
    """Three right answers on three positions (Another one in between) master Score the lakes;
    one right answer on The biggest stack is practised, not mastered."""
    on = OnPage(page, *COUNT, where)
    for run in (1, 2, 3):
        on.answer(right=True)
        on.expect_status(mastered=run == 3, run=run)
        if run < 3:
            on.another()
    assert on.status()["text"] == "Mastered at level 1. Try level 2."
    expect_progress(page, where, practised=1, mastered=1)
    OnPage(page, *BIGGEST, where).answer(right=True)
    expect_progress(page, where, practised=2, mastered=1)
    shot(on, f"{name}_mastered")
    wait_kept(page, where, 4)


def expect_the_record_back(page: Any, where: str) -> None:
    expect_progress(page, where, practised=2, mastered=1, kinds=3)
    on = OnPage(page, *COUNT, where)
    on.expect_status(mastered=True, run=3)
    assert "next: The biggest stack" in squash(
        page.locator(".pl-exercise-progress").first.inner_text())


@pytest.mark.xdist_group("voila")
def test_mastery_is_kept_over_a_reload_in_voila(voila, page, practice_page):
    where = f"Voilà, {practice_page}"
    open_fresh_in_voila(page, voila, practice_page)
    master_count(page.page, where, "voila_practice")
    assert_clean(page, where)
    page.page.reload(wait_until="load")           # a new kernel: the record is the browser's
    page.page.wait_for_selector(".pl-exercise-progress [data-practised]", timeout=WIDGET)
    expect_the_record_back(page.page, f"{where}, after a reload")
    assert kept_in_browser(page.page) == 4
    # the page left behind asks Voilà to shut its kernel down, which Voilà refuses (403):
    # the app's way of leaving a page, not the exercises' (its idle timer ends that kernel)
    page.errors[:] = [e for e in page.errors if "/voila/api/shutdown/" not in e]
    assert_clean(page, f"{where}, after a reload")


@pytest.mark.xdist_group("lab")
def test_mastery_is_kept_over_a_new_kernel_in_lab(lab_page, practice_page):
    where = f"JupyterLab, {practice_page}"
    forget_progress(lab_page.page)
    open_in_lab(lab_page, practice_page)
    master_count(lab_page.page, where, "lab_practice")
    close_in_lab(lab_page)                        # its kernel shut down, then a new one
    open_in_lab(lab_page, practice_page)
    expect_the_record_back(lab_page.page, f"{where}, opened again")
    assert_clean(lab_page, where)


# ----- the progress file -----------------------------------------------------------------------


def save_progress(page: Any, where: str, folder: Path) -> Path:
    """Press "Save my progress to a file"; the downloaded file, checked like any other."""
    button = page.locator(".pl-practice-save").first
    button.scroll_into_view_if_needed(timeout=CLICK)
    with page.expect_download(timeout=CLICK) as download:
        button.click(timeout=CLICK)
    path = folder / download.value.suggested_filename
    download.value.save_as(str(path))
    assert path.name == "pangaea-lab-progress.json", f"{where}: the file is named {path.name}"
    record = PracticeRecord.from_json(path.read_text(encoding="utf-8"))
    assert len(record.attempts) == 4 and record.status(COUNT[0]).mastered, \
        f"{where}: the saved file does not hold the four answers given"
    return path


def load_progress(page: Any, where: str, path: Path, said: str) -> None:
    """Press "Load saved progress" and choose ``path``; wait for the message."""
    button = page.locator(".pl-practice-load").first
    button.scroll_into_view_if_needed(timeout=CLICK)
    with page.expect_file_chooser(timeout=CLICK) as chooser:
        button.click(timeout=CLICK)
    chooser.value.set_files(str(path), timeout=CLICK)
    message = page.locator(".pl-practice-message").first
    wait_until(page, f"{where}: after loading {path.name} the page should say {said!r}, it "
                     f"says {message.inner_text()!r}",
               lambda: said in squash(message.inner_text()))


def load_a_broken_file(page: Any, where: str, folder: Path) -> None:
    broken = folder / "broken-progress.json"
    broken.write_text('{"kind": "pangaea_lab practice record", "version": 1, "attempts": '
                      '[{"kind": "toy.count"}]}', encoding="utf-8")
    load_progress(page, where, broken, "The progress file could not be read, so it was left "
                                       "out: attempts[0].seed: missing.")


@pytest.mark.xdist_group("voila")
def test_progress_saved_to_a_file_loads_in_another_browser_in_voila(
        voila, page, fresh_browser, practice_page, tmp_path):
    where = f"Voilà, {practice_page}"
    open_fresh_in_voila(page, voila, practice_page)
    master_count(page.page, where, "voila_practice_saved")
    path = save_progress(page.page, where, tmp_path)

    other = Watched(fresh_browser.new_page())
    elsewhere = f"{where}, in another browser"
    open_in_voila(other, voila, practice_page)
    expect_progress(other.page, elsewhere, practised=0, mastered=0, kinds=3)
    load_a_broken_file(other.page, elsewhere, tmp_path)
    expect_progress(other.page, elsewhere, practised=0, mastered=0)
    load_progress(other.page, elsewhere, path, "4 answers from the progress file added.")
    expect_the_record_back(other.page, elsewhere)
    wait_kept(other.page, elsewhere, 4)           # and this browser keeps it from now on
    screenshot(other.page, "voila_practice_loaded", focus=".pl-exercise-progress")
    load_progress(other.page, elsewhere, path, "That file holds nothing new.")
    assert_clean(other, elsewhere)


@pytest.mark.xdist_group("lab")
def test_progress_saved_to_a_file_loads_back_in_lab(lab_page, practice_page, tmp_path):
    where = f"JupyterLab, {practice_page}"
    forget_progress(lab_page.page)
    open_in_lab(lab_page, practice_page)
    master_count(lab_page.page, where, "lab_practice_saved")
    path = save_progress(lab_page.page, where, tmp_path)
    close_in_lab(lab_page)
    forget_progress(lab_page.page)                # as on a computer that never saw it
    open_in_lab(lab_page, practice_page)
    expect_progress(lab_page.page, where, practised=0, mastered=0, kinds=3)
    load_a_broken_file(lab_page.page, where, tmp_path)
    load_progress(lab_page.page, where, path, "4 answers from the progress file added.")
    expect_the_record_back(lab_page.page, where)
    assert_clean(lab_page, where)


# ----- Review ----------------------------------------------------------------------------------


def review_mix(page: Any, where: str, turns: int = 5) -> None:
    """Another one on the Review page moves to other kinds, never the same twice in a row;
    every kind of the review counts on the progress line; an answer there counts."""
    total = len(toy_exercises.KINDS)
    expect_progress(page, where, practised=0, mastered=0, kinds=total)
    root = page.locator(".pl-exercise-review").first
    root.wait_for(state="visible", timeout=WIDGET)
    label = root.locator(".pl-exercise-seed [data-kind]").first

    def now() -> tuple[str, str]:
        return label.get_attribute("data-kind"), label.get_attribute("data-seed")

    shown = [now()]
    assert shown[0][1] == "5", f"{where}: the review does not start at its seed"
    for turn in range(1, turns + 1):
        # a person, not a double click: two clicks on one button within 0.15 s are one
        # (core/clicks.py)
        page.wait_for_timeout(400)
        root.locator(".pl-exercise-another").first.click(timeout=CLICK)
        wait_until(page, f"{where}: Another one did not move the review on",
                   lambda: now()[1] == str(5 + turn))
        shown.append(now())
        assert squash(root.locator(".pl-exercise-question").first.inner_text()), \
            f"{where}: the review shows no question for {shown[-1][0]}"
    kinds = [kind for kind, _ in shown]
    assert len(set(kinds)) >= 2, f"{where}: the review served only {kinds[0]}"
    assert all(a != b for a, b in zip(kinds, kinds[1:])), \
        f"{where}: the review asked the same kind twice in a row: {kinds}"
    assert set(kinds) <= set(toy_exercises.KINDS)
    key, seed = shown[-1]
    OnPage(page, key, int(seed), where).answer(right=True)
    expect_progress(page, where, practised=1, mastered=0, kinds=total)


@pytest.mark.xdist_group("voila")
def test_review_mixes_kinds_in_voila(voila, page, review_page):
    where = f"Voilà, {review_page}"
    open_fresh_in_voila(page, voila, review_page)
    review_mix(page.page, where)
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
def test_review_mixes_kinds_in_lab(lab_page, review_page):
    where = f"JupyterLab, {review_page}"
    forget_progress(lab_page.page)
    open_in_lab(lab_page, review_page)
    review_mix(lab_page.page, where)
    assert_clean(lab_page, where)


def review_notebook(game: str) -> str:
    found = sorted((NOTEBOOKS / game).glob("*_review.ipynb"))
    assert found, f"{game} has no Review page (notebooks/{game}/NN_review.ipynb)"
    return str(found[0].relative_to(NOTEBOOKS))


@pytest.mark.xdist_group("voila")
@pytest.mark.parametrize("game", exercises.GAMES)
def test_a_games_review_page_serves_an_exercise_in_voila(voila, page, game):
    notebook = review_notebook(game)
    where = f"Voilà, {notebook}"
    open_fresh_in_voila(page, voila, notebook)
    p = page.page
    root = p.locator(".pl-exercise-review").first
    root.wait_for(state="visible", timeout=WIDGET)
    label = root.locator(".pl-exercise-seed [data-kind]").first
    kind = label.get_attribute("data-kind", timeout=CLICK)
    assert kind.startswith(f"{game}."), f"{where}: the review shows {kind}"
    assert squash(root.locator(".pl-exercise-question").first.inner_text(timeout=CLICK)), \
        f"{where}: the review's exercise asks nothing"
    assert root.locator(".pl-exercise-check").first.is_visible()
    counts = p.locator(".pl-exercise-progress [data-kinds]").first
    assert int(counts.get_attribute("data-kinds", timeout=CLICK)) >= 2, \
        f"{where}: the progress line does not count the game's kinds"
    seed = label.get_attribute("data-seed")
    p.wait_for_timeout(400)          # not the second half of a double click
    root.locator(".pl-exercise-another").first.click(timeout=CLICK)
    wait_until(p, f"{where}: Another one did not move the review on",
               lambda: label.get_attribute("data-seed") != seed)
    assert label.get_attribute("data-kind") != kind, f"{where}: the same kind twice in a row"
    screenshot(p, f"voila_review_{game}", focus=".pl-exercise-review")
    assert_clean(page, where)
