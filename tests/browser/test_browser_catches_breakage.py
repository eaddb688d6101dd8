"""The browser checks really catch a broken widget: in a temporary copy of the package the
Apply button's callback is cut, the Voilà app is served from that copy, and the same check the
real tests use must fail, saying that Apply did nothing.  Likewise a cell whose callback
raises must fail the error-output check."""

from __future__ import annotations

import json
import shutil

import pytest
from browser_support import (REPO, STEP_THROUGH, assert_clean, check_step_through, open_in_voila,
                             voila_server)

APPLY_WIRING = "(self.apply_button, lambda: model.play()),"


@pytest.fixture(scope="module")
def broken_voila(served, workdir, logs):
    copy = workdir / "broken"
    shutil.copytree(REPO / "pangaea_lab", copy / "pangaea_lab",
                    ignore=shutil.ignore_patterns("__pycache__"))
    widget = copy / "pangaea_lab" / "core" / "widget.py"
    source = widget.read_text()
    assert APPLY_WIRING in source, "the Apply wiring moved: update this demonstration"
    widget.write_text(source.replace(APPLY_WIRING, "(self.apply_button, lambda: None),"))
    # PYTHONPATH comes before the editable install, so the kernels import the broken copy
    server = voila_server(served, workdir / "broken-home", logs / "voila-broken.log",
                          extra_env={"PYTHONPATH": str(copy)})
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.mark.xdist_group("voila")
def test_a_dead_apply_button_is_caught(broken_voila, page):
    open_in_voila(page, broken_voila, STEP_THROUGH["pangaea"])
    with pytest.raises(AssertionError, match="pressing Apply did not change the board picture"):
        check_step_through(page.page, "Voilà with a broken Apply", patience=8_000)


@pytest.mark.xdist_group("voila")
def test_an_error_in_a_notebook_is_caught(broken_voila, served, page):
    # a widget callback that raises, as a learner would trigger it by a click
    source = ("import ipywidgets\n"
              "button = ipywidgets.Button(description='Break')\n"
              "button.on_click(lambda _: 1 / 0)\n"
              "button.click()\n"
              "button")
    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": source}
    notebook = {"cells": [cell], "metadata": {"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}
    (served / "zz_breaks.ipynb").write_text(json.dumps(notebook))
    try:
        open_in_voila(page, broken_voila, "zz_breaks.ipynb")
        with pytest.raises(AssertionError, match="error output on the page"):
            assert_clean(page, "Voilà, a notebook whose cell raises")
    finally:
        (served / "zz_breaks.ipynb").unlink()
