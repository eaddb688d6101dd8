"""Store the expected outputs of the notebook cells that nbval checks.

nbval compares a cell marked ``# NBVAL_CHECK_OUTPUT`` with the output saved in the notebook,
and a cell saved without output is never compared.  This script runs each notebook from a fresh
kernel (in the notebook's own folder, as nbval does), keeps the outputs of the marked cells and
clears every other output, so the notebooks stay small and the checks have teeth.

    python tests/notebook_outputs.py                  # every notebook under notebooks/
    python tests/notebook_outputs.py notebooks/pangaea/04_scoring.ipynb

``tests/test_notebook_outputs.py`` fails if a marked cell has no saved output.
"""

from __future__ import annotations

import sys
from pathlib import Path

MARK = "# NBVAL_CHECK_OUTPUT"
ROOT = Path(__file__).resolve().parent.parent


def is_checked(cell) -> bool:
    """nbval checks a cell with the marker comment on any line of it."""
    return cell.cell_type == "code" and any(line.strip() == MARK
                                            for line in cell.source.splitlines())


def refresh(path: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    nb.metadata.pop("widgets", None)      # widget state would only bloat the file
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)
        if is_checked(cell):
            for out in cell.outputs:
                if out.get("output_type") == "error":
                    raise SystemExit(f"{path}: a checked cell raised an error")
                out.pop("metadata", None) if out.get("output_type") == "stream" else None
        else:
            cell.outputs = []
            cell.execution_count = None
    nbformat.write(nb, path)
    print(f"refreshed {path.relative_to(ROOT)}")


def main(args: list[str]) -> None:
    paths = [Path(a).resolve() for a in args] or sorted((ROOT / "notebooks").rglob("*.ipynb"))
    for path in paths:
        if ".ipynb_checkpoints" not in path.parts:
            refresh(path)


if __name__ == "__main__":
    main(sys.argv[1:])
