"""The teachers' guide (notebooks/teachers.ipynb): its exercise list is the registry's (the
engine is the answer key, no hand-typed list that can go stale), its lesson plans link every
game page that exists, and it tells how to hand out a board and run the app for a class."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pangaea_lab.exercises import markdown_table

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "notebooks" / "teachers.ipynb"


def cells() -> list[dict]:
    return json.loads(GUIDE.read_text(encoding="utf-8"))["cells"]


def markdown() -> str:
    return "\n".join("".join(c["source"]) for c in cells() if c["cell_type"] == "markdown")


def test_the_saved_exercise_list_is_the_registrys():
    code = [c for c in cells() if c["cell_type"] == "code"]
    table = [c for c in code if "markdown_table(" in "".join(c["source"])]
    assert len(table) == 1, "the guide writes its exercise list with markdown_table()"
    source = "".join(table[0]["source"])
    assert "# NBVAL_CHECK_OUTPUT" in source      # make test compares it when the notebook runs
    saved = "".join(table[0]["outputs"][0]["data"]["text/markdown"])
    assert saved == markdown_table(link_prefix=""), (
        "the guide's exercise list is out of date: run "
        "python tests/notebook_outputs.py notebooks/teachers.ipynb")


def test_every_exercise_link_and_every_lesson_link_opens_a_page():
    text = markdown() + markdown_table(link_prefix="")
    links = set(re.findall(r"\]\(([^)#]+\.ipynb)\)", text))
    assert links
    missing = sorted(link for link in links if not (GUIDE.parent / link).is_file())
    assert not missing, f"links to pages that do not exist: {missing}"


def test_the_lesson_plans_cover_every_game_page():
    planned = set(re.findall(r"\]\(([^)#]+\.ipynb)\)", markdown()))
    pages = {str(p.relative_to(GUIDE.parent)) for p in GUIDE.parent.glob("*/*.ipynb")
             if ".ipynb_checkpoints" not in p.parts}
    assert pages - planned == set(), f"pages missing from the lesson plans: {pages - planned}"


def test_the_guide_says_how_to_share_a_board_and_run_a_class():
    text = markdown()
    for needle in ("?seed=N&players=P", "make app", "APP_IP=0.0.0.0", "classroom/README.md",
                   "make test-hub", "Go to seed", "min |"):
        assert needle in text, f"the guide does not mention {needle!r}"


def test_the_guide_has_no_code_for_students():
    code = [c for c in cells() if c["cell_type"] == "code"]
    assert len(code) == 1          # only the exercise list, shown as a table
