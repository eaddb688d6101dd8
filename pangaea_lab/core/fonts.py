"""The font and the page template the classroom app ships with.

Drawings name ``DejaVu Sans`` first (:data:`pangaea_lab.core.svg.FONT_FAMILY`).  The package
carries a subset of it (Latin letters and the few symbols the drawings use; free licence in
``LICENSE-DejaVu.txt``) inside a Voilà page template, ``pangaea-lab``, which serves the font
from the app itself and leaves out the links Voilà's own page makes to a CDN, so a classroom
behind a firewall never waits for the internet.  ``make app`` runs Voilà with::

    JUPYTER_PATH=$(python -m pangaea_lab.core.fonts) voila --template=pangaea-lab notebooks
"""

from __future__ import annotations

import os
from pathlib import Path

#: the folder to add to ``JUPYTER_PATH`` so Voilà finds the template
SHARE = Path(__file__).resolve().parents[1] / "share" / "jupyter"
#: the Voilà template's name (``voila --template=pangaea-lab``)
TEMPLATE = "pangaea-lab"
#: the template's folder, with the font files in ``static/``
TEMPLATE_DIR = SHARE / "voila" / "templates" / TEMPLATE
FONT_FILES = ("DejaVuSans.woff", "DejaVuSans-Bold.woff")


def jupyter_path() -> str:
    """``JUPYTER_PATH`` with the package's folder first (any folders already set kept)."""
    return os.pathsep.join([str(SHARE), *filter(None, [os.environ.get("JUPYTER_PATH")])])


if __name__ == "__main__":   # prints the JUPYTER_PATH to run Voilà with (used by the Makefile)
    print(jupyter_path())
