"""Every other notebook opens from a fresh kernel without errors, in JupyterLab (Run All) and
in the Voilà app: no error output, every widget rendered, no console errors.  The step-through
and Land Ritual notebooks are opened by test_browser_widgets.py."""

from __future__ import annotations

import pytest
from browser_support import (NOTEBOOKS, RITUALS, STEP_THROUGH, assert_clean, open_in_lab,
                             open_in_voila, screenshot)

OTHERS = sorted(str(p.relative_to(NOTEBOOKS)) for p in NOTEBOOKS.rglob("*.ipynb")
                if ".ipynb_checkpoints" not in p.parts
                and str(p.relative_to(NOTEBOOKS)) not in {*STEP_THROUGH.values(), RITUALS})


def test_the_list_covers_the_start_page_and_every_game():
    assert "00_start_here.ipynb" in OTHERS
    games = {path.split("/")[0] for path in [*OTHERS, *STEP_THROUGH.values()] if "/" in path}
    assert games == set(STEP_THROUGH)


@pytest.mark.xdist_group("voila")
@pytest.mark.parametrize("notebook", OTHERS)
def test_opens_in_voila(voila, page, notebook):
    open_in_voila(page, voila, notebook)
    if notebook == "00_start_here.ipynb":
        screenshot(page.page, "voila_start_here")
    assert_clean(page, f"Voilà, {notebook}")


@pytest.mark.xdist_group("lab")
@pytest.mark.parametrize("notebook", OTHERS)
def test_opens_in_lab(lab_page, notebook):
    open_in_lab(lab_page, notebook)
    assert_clean(lab_page, f"JupyterLab, {notebook}")
