"""The course as the students receive it: the project's notebooks (without the teachers'
pages) published into a git repository on the hub's machine, which every student's server
pulls with nbgitpuller when it starts.  nbgitpuller merges: a student's edits are kept, a
notebook the teacher added or fixed arrives, a notebook the student deleted comes back.

``publish(notebooks, course)`` is run by the hub at each start (and by ``make hub-course``
while it runs); it commits only when something changed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

#: pages for teachers only: copied into teachers' homes, never into the students' course
TEACHER_PAGES = ("teachers.ipynb",)
BRANCH = "main"
_GIT = ["git", "-c", "user.name=pangaea_lab course", "-c", "user.email=course@localhost",
        "-c", "init.defaultBranch=" + BRANCH, "-c", "core.fileMode=false"]


def _git(course: Path, *args: str) -> str:
    done = subprocess.run(_GIT + list(args), cwd=course, capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise RuntimeError(f"git {' '.join(args)} failed in {course}: {done.stderr.strip()}")
    return done.stdout


def course_files(notebooks: Path) -> dict[str, Path]:
    """Every file of the students' course, by its path inside the course."""
    files = {}
    for source in sorted(notebooks.rglob("*")):
        relative = source.relative_to(notebooks)
        if (source.is_file() and ".ipynb_checkpoints" not in relative.parts
                and "__pycache__" not in relative.parts
                and relative.as_posix() not in TEACHER_PAGES):
            files[relative.as_posix()] = source
    return files


_KERNEL = """
import json
from ipykernel.ipkernel import IPythonKernel
from ipykernel.kernelspec import KERNEL_NAME, get_kernel_dict
spec = get_kernel_dict()
print(json.dumps({"kernelspec": {"display_name": spec["display_name"],
                                 "language": spec["language"], "name": KERNEL_NAME},
                  "language_info": IPythonKernel.language_info}))
"""


def kernel_metadata(python: str) -> dict:
    """The notebook metadata the students' kernel reports (its name and Python version).
    A notebook saved with other values is marked modified by JupyterLab the moment its
    kernel starts, and a reload then asks "Leave site?"; the course carries these instead."""
    done = subprocess.run([python, "-c", _KERNEL], capture_output=True, text=True,
                          check=False, timeout=120)
    if done.returncode:
        raise RuntimeError(f"the students' Python ({python}) has no ipykernel: "
                           f"{done.stderr.strip()[-300:]}")
    return json.loads(done.stdout)


def _content(source: Path, metadata: dict | None) -> bytes:
    if metadata is None or source.suffix != ".ipynb":
        return source.read_bytes()
    notebook = json.loads(source.read_text(encoding="utf-8"))
    notebook.setdefault("metadata", {}).update(metadata)
    return (json.dumps(notebook, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def publish(notebooks: Path, course: Path, teachers: Path | None = None,
            metadata: dict | None = None) -> bool:
    """Bring ``course`` (a git repository, made if missing) up to date with ``notebooks``;
    True when a new version was committed.  Teachers' pages go to ``teachers``; notebooks
    get ``metadata`` (see ``kernel_metadata``) when it is given."""
    course.mkdir(parents=True, exist_ok=True)
    if not (course / ".git").is_dir():
        _git(course, "init", "--quiet")
    wanted = course_files(notebooks)
    for name, source in wanted.items():
        target, content = course / name, _content(source, metadata)
        if not target.exists() or target.read_bytes() != content:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    for target in course.rglob("*"):
        relative = target.relative_to(course)
        if relative.parts[0] != ".git" and target.is_file() and \
                relative.as_posix() not in wanted:
            target.unlink()
    for folder in course.rglob("*"):
        folder.chmod(0o755 if folder.is_dir() else 0o644)
    course.chmod(0o755)
    _git(course, "add", "--all")
    changed = bool(_git(course, "status", "--porcelain").strip())
    if changed:
        _git(course, "commit", "--quiet", "-m", "Course update")
    if teachers is not None:
        teachers.mkdir(parents=True, exist_ok=True, mode=0o700)
        for page in TEACHER_PAGES:
            if (notebooks / page).is_file():
                shutil.copyfile(notebooks / page, teachers / page)
    return changed


if __name__ == "__main__":
    # make hub-course (publish now, while the hub runs), or the students' image for
    # Kubernetes (classroom/Dockerfile: --into /srv/pangaea_lab)
    if sys.argv[1:2] == ["--into"] and len(sys.argv) == 3:
        root = Path(sys.argv[2])
    else:
        root = Path(os.environ.get("PANGAEA_HUB_ROOT", "/srv/pangaea-lab"))
    here = Path(__file__).resolve().parents[1] / "notebooks"
    python = root / "env" / "bin" / "python"
    new = publish(here, root / "course", root / "teachers",
                  kernel_metadata(str(python) if python.exists() else sys.executable))
    print("The course was updated: students receive it when they next open their start "
          "link or log in." if new else "The course was already up to date.")
    sys.exit(0)
