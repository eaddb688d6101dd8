"""Each game's step-through widget and the Land Ritual explorer, clicked in a real browser,
in JupyterLab (after Run All from a fresh kernel) and in the Voilà app."""

from __future__ import annotations

import pytest
from browser_support import (RITUALS, STEP_THROUGH, assert_clean, check_board_click,
                             check_ritual_explorer, check_step_through, open_in_lab,
                             open_in_voila, ritual_plan, screenshot, voila_page_with)



@pytest.fixture(scope="module")
def plan() -> dict:
    return ritual_plan()


@pytest.mark.xdist_group("voila")
@pytest.mark.parametrize("game", list(STEP_THROUGH))
def test_step_through_in_voila(voila, page, game):
    where = f"Voilà, {STEP_THROUGH[game]}"
    voila_page_with(page, voila, STEP_THROUGH[game], ".pl-step-through .pl-board svg", where)
    check_step_through(page.page, where)
    screenshot(page.page, f"voila_{game}", focus=".pl-step-through")
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
@pytest.mark.parametrize("game", list(STEP_THROUGH))
def test_step_through_in_lab(lab_page, game):
    where = f"JupyterLab, {STEP_THROUGH[game]}"
    open_in_lab(lab_page, STEP_THROUGH[game])
    check_step_through(lab_page.page, where)
    screenshot(lab_page.page, f"lab_{game}", focus=".pl-step-through")
    assert_clean(lab_page, where)


@pytest.mark.xdist_group("voila")
def test_ritual_explorer_in_voila(voila, page, plan):
    where = f"Voilà, {RITUALS}"
    open_in_voila(page, voila, RITUALS)
    check_ritual_explorer(page.page, where, plan)
    screenshot(page.page, "voila_land_rituals", focus=".pl-ritual-explorer")
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
def test_ritual_explorer_in_lab(lab_page, plan):
    where = f"JupyterLab, {RITUALS}"
    open_in_lab(lab_page, RITUALS)
    check_ritual_explorer(lab_page.page, where, plan)
    screenshot(lab_page.page, "lab_land_rituals", focus=".pl-ritual-explorer")
    assert_clean(lab_page, where)


@pytest.mark.xdist_group("voila")
def test_clicking_the_board_selects_an_action_in_voila(voila, page):
    where = f"Voilà, {STEP_THROUGH['pangaea']}"
    voila_page_with(page, voila, STEP_THROUGH["pangaea"], ".pl-step-through .pl-board svg", where)
    check_board_click(page.page, where)
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
def test_clicking_the_board_selects_an_action_in_lab(lab_page):
    where = f"JupyterLab, {STEP_THROUGH['pangaea']}"
    open_in_lab(lab_page, STEP_THROUGH["pangaea"])
    check_board_click(lab_page.page, where)
    assert_clean(lab_page, where)
