"""Every notebook cell that nbval checks has a saved output to compare with (otherwise nbval
would silently compare nothing), and no notebook is saved with an error in it."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_checked_cells_have_saved_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for k, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        outputs = cell.get("outputs", [])
        assert not any(o.get("output_type") == "error" for o in outputs), f"cell {k} saved with an error"
        if any(line.strip() == "# NBVAL_CHECK_OUTPUT" for line in source.splitlines()):
            assert outputs, (f"cell {k} is checked by nbval but has no saved output: "
                             "run python tests/notebook_outputs.py")


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 20
