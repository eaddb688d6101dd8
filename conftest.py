"""Checks on every notebook cell that nbval runs (``pytest --nbval-lax notebooks``).

A drawing must show as a drawing: a cell whose output is SVG source as text (a function that
returns an SVG string as the cell's last value, or a ``print`` of one) fails, at no extra cost,
since nbval keeps the outputs each cell produced.  Likewise a page shows a student no Python:
a cell's output that is a value's repr, a name from the code or a shell command fails, unless
the cell is tagged for teachers (``pangaea_lab.core.page_text``; the app hides such cells).
A Markdown cell shown to students has no code span or fenced block (the app shows them as
code): checked with the notebook's first code cell, since nbval runs only code cells.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

import pytest

from pangaea_lab.core.page_text import (TEACHER_TAG, is_for_teachers, is_teachers_page,
                                        markdown_cell_problems, output_problems)

#: SVG source in text a learner would see (a printed drawing or the repr of one)
SVG_TEXT = re.compile(r"""(^|[\s'"(\[,])<(svg[\s>]|\?xml)""")


def svg_shown_as_text(outputs: Iterable[Any]) -> list[str]:
    """The outputs that show SVG source as text, each as a short excerpt.

    A display output counts only when plain text is all it offers (a richer form, such as
    ``image/svg+xml`` or a widget, is what the notebook shows instead)."""
    found = []
    for out in outputs or ():
        kind = out.get("output_type")
        if kind == "stream":
            text = out.get("text", "")
        elif kind in ("display_data", "execute_result"):
            data = out.get("data", {})
            if set(data) - {"text/plain"}:
                continue
            text = data.get("text/plain", "")
        else:
            continue
        text = "".join(text) if isinstance(text, list) else str(text)
        match = SVG_TEXT.search(text)
        if match:
            start = match.start()
            found.append(text[start:start + 60].replace("\n", " "))
    return found


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    result = yield
    outputs = getattr(item, "test_outputs", None)   # an nbval cell keeps what it produced
    if outputs is not None and hasattr(item, "raise_cell_error"):
        shown = svg_shown_as_text(outputs)
        if shown:
            item.raise_cell_error(
                "a drawing is shown as SVG source text instead of a picture (end the cell "
                f"with an SvgImage or a widget, not a str): {shown[0]!r}...")
        cell = getattr(item, "cell", None)
        page = getattr(item, "path", None) or getattr(item, "fspath", "")
        raw = ([] if cell is None or is_for_teachers(cell) or is_teachers_page(page)
               else output_problems(outputs))
        if raw:
            item.raise_cell_error(
                "a student would read Python here (show Markdown built from the engine's "
                f"values, a widget or a drawing, or tag the cell '{TEACHER_TAG}' so that the "
                f"app hides it): {'; '.join(raw)}")
        notebook = getattr(getattr(item, "parent", None), "nb", None)
        if getattr(item, "cell_num", None) == 0 and notebook and not is_teachers_page(page):
            code = [f"Markdown cell {k}: {problem}" for k, cell in enumerate(notebook.cells)
                    for problem in markdown_cell_problems(cell)]
            if code:
                item.raise_cell_error(
                    "a student would read code in the page's Markdown (say it in plain words, "
                    f"or tag the cell '{TEACHER_TAG}'): {'; '.join(code)}")
    return result
