"""What a learner reads in the notebooks: no page asks them to edit code to answer (in the
classroom app the code is hidden), no saved output is SVG source shown as text, and no saved
output of a page for students is Python's own (a repr, a name from the code, a shell command).

The outputs produced when the notebooks run are checked by the root ``conftest.py`` on every
nbval cell; this file checks the text and the outputs saved in the files.
"""

import importlib.util
import json
import re
from pathlib import Path

import pytest

from pangaea_lab.core.page_text import (is_for_teachers, is_teachers_page, markdown_cell_problems,
                                        output_problems)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts)

#: phrases that ask a learner to change or run code to answer
EDIT_CODE = [
    r"\brun (the|this|that|each|every|a) (code )?cells?\b",
    r"\bre-?run (the|this|that)\b",
    r"\bmy_answer\b",
    r"\bput your answers? (in|into)\b",
    r"\b(type|write|enter) your answers? (in|into) the (code|cell|variable)",
    r"\bedit (the|this|that) (code|cell|variable|line)\b",
    r"\bchange (the|this) (code|variable|line)\b",
    r"\bset (the )?variable\b",
    r"\bshift\s*\+\s*enter\b",
    r"\bwrite your (answer|number|total|guess)",
    r"\brun the check\b",
    r"\brun (it )?again\b",
    r"\breplace None\b",
    r"\b(fill|type) in my_",
]
EDIT_CODE_RE = re.compile("|".join(EDIT_CODE), re.IGNORECASE)


def _root_conftest():
    spec = importlib.util.spec_from_file_location("pangaea_lab_root_conftest",
                                                  ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


svg_shown_as_text = _root_conftest().svg_shown_as_text


def cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def for_teachers(text):
    """A cell that says it is for teachers (or for those who read code) may talk code."""
    return re.search(r"\bteachers?\b|\bfor (those|anyone) who (read|edit)s? (the )?code",
                     text, re.IGNORECASE) is not None


def comments(source):
    """The comments of a code cell (what a reader of the cell sees in words)."""
    return "\n".join(line.split("#", 1)[1] for line in source.splitlines() if "#" in line)


def asks_to_edit_code(path):
    """Markdown (and code comments) asking the learner to edit or run code to answer."""
    found = []
    for k, cell in enumerate(cells(path)):
        text = "".join(cell["source"])
        if cell["cell_type"] == "code":
            text = comments(text)
        elif cell["cell_type"] != "markdown":
            continue
        if for_teachers(text):
            continue
        for match in EDIT_CODE_RE.finditer(text):
            found.append(f"cell {k}: {match.group(0)!r}")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_no_notebook_asks_the_learner_to_edit_code(path):
    found = asks_to_edit_code(path)
    assert not found, ("the text asks the learner to edit or run code, which the classroom "
                       "app hides (use an exercise widget): " + "; ".join(found))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_no_saved_output_is_svg_source_text(path):
    for k, cell in enumerate(cells(path)):
        shown = svg_shown_as_text(cell.get("outputs", []))
        assert not shown, f"cell {k} shows a drawing as SVG source text: {shown[0]!r}"


def test_the_checks_catch_what_they_should():
    assert EDIT_CODE_RE.search("Put your answer in `my_answer` and run the cell.")
    assert EDIT_CODE_RE.search("Then re-run this cell to see.")
    assert EDIT_CODE_RE.search("Write your answer as a list of four numbers and run the check.")
    assert EDIT_CODE_RE.search(comments("answer = None   # write your number here"))
    assert not EDIT_CODE_RE.search(comments("# NBVAL_CHECK_OUTPUT\nprint(run_the_cell)"))
    assert not EDIT_CODE_RE.search("Click the spaces, then press Check. The run of Trees...")
    assert for_teachers("**For teachers:** change the seed in the cell below.")
    text = {"output_type": "execute_result", "data": {"text/plain": "'<svg width=\"3\">'"}}
    shown_ok = {"output_type": "display_data",
                "data": {"image/svg+xml": "<svg></svg>", "text/plain": "<svg></svg>"}}
    printed = {"output_type": "stream", "name": "stdout", "text": ["x\n", "<svg a='1'>\n"]}
    pair = {"output_type": "execute_result", "data": {"text/plain": "('<svg>', 3)"}}
    words = {"output_type": "stream", "name": "stdout", "text": "a drawing: <drawing: SVG>"}
    assert svg_shown_as_text([text, printed, pair]) and len(svg_shown_as_text([text])) == 1
    assert len(svg_shown_as_text([printed])) == 1 and svg_shown_as_text([pair])
    assert svg_shown_as_text([shown_ok, words]) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_no_saved_output_shows_a_student_python(path):
    """The saved outputs (the cells nbval checks) of a page for students show no repr, no name
    from the code and no shell command, unless their cell is tagged for teachers; the root
    conftest.py checks every cell's outputs the same way when nbval runs the notebooks."""
    if is_teachers_page(path):
        return
    for k, cell in enumerate(cells(path)):
        if cell["cell_type"] == "code" and not is_for_teachers(cell):
            found = output_problems(cell.get("outputs", []))
            assert not found, f"cell {k} shows a student Python: {'; '.join(found)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_no_markdown_shows_a_student_code(path):
    """A Markdown cell a student reads says things in words: no code span, no fenced block
    (the app shows them as code); a cell tagged for teachers may keep them."""
    if is_teachers_page(path):
        return
    found = [f"cell {k}: {p}" for k, cell in enumerate(cells(path))
             for p in markdown_cell_problems(cell)]
    assert not found, "\n".join(found)


def sentences_left_hanging(notebook_cells):
    """Markdown a student reads that ends with a colon before a cell the app hides: in the app
    the sentence leads to nothing (a section that says it is for teachers may do so)."""
    found = []
    for k, (cell, after) in enumerate(zip(notebook_cells, notebook_cells[1:])):
        text = "".join(cell["source"]).rstrip()
        if cell["cell_type"] == "markdown" and not is_for_teachers(cell) \
                and text.endswith(":") and is_for_teachers(after) and not for_teachers(text):
            found.append(f"cell {k} ends with a colon before a cell for teachers: "
                         f"...{text[-60:]!r}")
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_no_sentence_leads_a_student_to_a_hidden_cell(path):
    if is_teachers_page(path):
        return
    found = sentences_left_hanging(cells(path))
    assert not found, "\n".join(found)


def test_the_hanging_sentence_check_catches_what_it_should():
    def md(text, teacher=False):
        return {"cell_type": "markdown", "source": [text],
                "metadata": {"tags": ["teacher"]} if teacher else {}}
    hidden = {"cell_type": "code", "source": ["print(1)"], "metadata": {"tags": ["teacher"]}}
    shown = {"cell_type": "code", "source": ["board"], "metadata": {}}
    assert sentences_left_hanging([md("Refused with the reason:"), hidden])
    assert not sentences_left_hanging([md("Refused with the reason:"), shown])
    assert not sentences_left_hanging([md("Refused, each with its reason."), hidden])
    assert not sentences_left_hanging([md("## Your edition (for teachers)\nLike this:"), hidden])


def test_the_markdown_check_catches_the_pages_old_code_spans():
    old = ["Each node is a space's `(q, r)` coordinates", "`nx.all_shortest_paths` lists",
           "`W` water, `Y` field", "add `?seed=12&players=3` to its address",
           "```bash\nmake app\n```"]
    for text in old:
        assert markdown_cell_problems({"cell_type": "markdown", "source": text}), text
        assert not markdown_cell_problems({"cell_type": "markdown", "source": text,
                                           "metadata": {"tags": ["teacher"]}}), text
    assert not markdown_cell_problems({"cell_type": "code", "source": "x = `a`"})
    assert not markdown_cell_problems({"cell_type": "markdown",
                                       "source": "Each node is a space's (q, r) coordinates."})


def test_the_raw_output_check_catches_the_pages_old_outputs():
    """What the pages used to print is caught; what they show now is not."""
    old = ["Same game again: True", "Biomes of the first tiles: ['Rain', 'Sun', 'Sun', 'Sun']",
           "Hand: ('L05',) | market: (None, 'L20', 'C13', 'C21')",
           "node (1, 1): {'terrain': 'land', 'biome': 'Wind'}", "Winner: ['Blue']",
           "Counter({'favor': 66, 'rune': 12})", "{2: (4, 5, 6, 7), 3: (5, 6)}", "True True",
           "Default (river_rule='rings')", "yellow_groups points (2, 2, 10)",
           "Player 1 (greedy): {'Trees': 8, 'Mountains': 1}", "tiles_per_player [rulebook]",
           "scourge_markers", "python -m pangaea_lab.simulate pangaea --players 2",
           "pangaea games: 100%|██████████| 200/200 [00:07<00:00, 40.92game/s]"]
    for text in old:
        printed = {"output_type": "stream", "name": "stdout", "text": text}
        assert output_problems([printed]), text
    new = ["Started a second time with seed 2024, the game is **the same**: the first tiles are "
           "Rain, Sun, Sun and Sun again, and Player 2 starts.",
           "| | Red (forester) | Blue (forester) |\n|---|---:|---:|\n| **Total** | **31** | "
           "**33** |\n\nBlue wins with 33 points.", "Blue's Trees: (2, 0). On (1, 1) Chelon can: "
           "place Chelon on (1, 1) and bridge (2, 0).", "120 of 200 games, about 5 s left"]
    for text in new:
        shown = {"output_type": "display_data", "data": {"text/markdown": text}}
        assert output_problems([shown]) == [], text
    value = {"output_type": "execute_result", "data": {"text/plain": "42"}}
    assert output_problems([value])
