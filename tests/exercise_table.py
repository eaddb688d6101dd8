"""Write the README's exercise table ("rule → notebook → exercise") from the registry.

    PYTHONPATH=. python tests/exercise_table.py

Only the part of README.md between the two marker comments changes; the test
``tests/test_exercise_table.py`` fails while the README's table differs from the registry.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pangaea_lab.exercises import with_table  # noqa: E402  (after the path is set)


def main() -> int:
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    new = with_table(text)
    if new != text:
        readme.write_text(new, encoding="utf-8")
        print("README.md: exercise table updated")
    else:
        print("README.md: exercise table already up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
