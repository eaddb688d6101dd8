"""Build the static site (``make site``): the app's pages as Voici pages and the notebooks with
their code in JupyterLite, both running Python in each student's browser (Pyodide), in one
folder that any static file server can serve (``build/site/``).

Everything comes from PyPI and npm, nothing from elsewhere:

* Pyodide's core (the interpreter, its standard library and its package lock) is npm's
  ``pyodide`` package, in the version the Pyodide kernel was made for (:data:`PYODIDE`);
* the wheels that the lock names and the kernel needs at start (micropip, IPython, jedi, their
  pure-Python dependencies, networkx) are the same versions from PyPI, served beside the lock
  with their sha256 rewritten; compiled dependencies that the teaching path never imports
  (numpy, matplotlib) are struck from their entries;
* pangaea_lab's wheel and its pure dependencies (ipywidgets, anywidget, comm, ...) are packed
  into the site's own package index, which the kernel installs from without asking PyPI.

Each page starts Python afresh, so what a page does before its first widget is done again on
every page: the build does as much of it as it can once (:func:`precompile`).  The kernel's
packages and pangaea_lab come unpacked in one file that the site's own loadPyodide
(``app/site/start.js``) writes into site-packages before Python starts (not the kernel
installing them one by one through micropip), and every Python file that a page imports, the
standard library's too, comes with its bytecode, compiled for Pyodide's Python by Pyodide itself
under Node.js (``app/site/precompile.mjs``), so the browser compiles none.

Pages that need compiled packages are left out (:data:`LEFT_OUT`, found by reading their
cells): the statistics pages (the simulation lab's pandas, pyarrow, dask) and the pages that draw
a chart with matplotlib (the full-game pages, Pangaea's scoring page): npm's pyodide package
holds no compiled package, and the build takes only pure-Python wheels from PyPI.

    python app/site/build.py --out build/site --pyodide build/site-work/pyodide-0.29.0.tgz
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Iterable, Iterator

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

#: npm's pyodide package that jupyterlite-pyodide-kernel 0.7.0 is made for
PYODIDE = "0.29.0"

#: the kernel's own needs from the lock (it installs these at start), and the teaching path's
LOCK_ROOTS = ("micropip", "packaging", "ipython", "jedi", "networkx", "traitlets",
              "typing-extensions")

#: the same versions as the project's tested environment; their JavaScript halves are in the
#: build environment (make site installs them there too)
INDEX_WHEELS = ("ipywidgets==8.1.9", "jupyterlab_widgets==3.0.17", "anywidget==0.11.0",
                "comm==0.2.3", "psygnal==0.16.1")

#: pages left out of the site: what in a page's cells needs a compiled package, and why
LEFT_OUT = {
    r"pangaea_lab\.(sim|simulate)\b": "the simulation lab needs pandas, pyarrow and dask",
    r"\bmatplotlib\b": "its chart needs matplotlib and numpy",
}


def needs_compiled(path: Path) -> str | None:
    """Why the notebook at ``path`` cannot run in the site, or None."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    for pattern, why in LEFT_OUT.items():
        if re.search(pattern, code):
            return why
    return None


def _pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", *args], check=True)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def unpack_pyodide(tgz: Path, dest: Path) -> dict:
    """npm's pyodide package into ``dest`` (its 14 files, source maps left out); the lock."""
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tgz) as archive:
        for member in archive.getmembers():
            name = member.name.removeprefix("package/")
            if not member.isfile() or "/" in name or name.endswith(".map"):
                continue
            (dest / name).write_bytes(archive.extractfile(member).read())
    return json.loads((dest / "pyodide-lock.json").read_text())


def _key(name: str) -> str:
    return name.lower().replace("_", "-")


def _closure(packages: dict) -> list[str]:
    """The lock's names the kernel needs, through pure wheels only (so networkx's numpy and
    matplotlib, and all they need, stay out)."""
    seen: list[str] = []
    todo = list(LOCK_ROOTS)
    while todo:
        name = _key(todo.pop())
        if name in seen or name not in packages or not _pure(packages[name]):
            continue
        seen.append(name)
        todo.extend(packages[name]["depends"])
    return sorted(seen)


def _pure(entry: dict) -> bool:
    return entry.get("package_type") == "package" and entry["file_name"].endswith("-none-any.whl")


def serve_lock_wheels(lock: dict, dest: Path, work: Path) -> list[str]:
    """The pure wheels the kernel needs, from PyPI in the lock's versions, beside the lock;
    compiled dependencies struck from the entries served (the caller writes the lock, with
    :func:`write_lock`).  Returns their names."""
    packages = lock["packages"]
    names = _closure(packages)
    wanted = [f"{packages[n]['name']}=={packages[n]['version']}" for n in names]
    work.mkdir(parents=True, exist_ok=True)
    _pip("download", "--quiet", "--no-deps", "--only-binary=:all:", "--platform", "any",
         "--python-version", "3.13", "--implementation", "py", "-d", str(work), *wanted)
    for name in names:
        entry = packages[name]
        wheel = work / entry["file_name"]
        if not wheel.exists():
            raise SystemExit(f"PyPI has no {entry['file_name']} (the lock's {name})")
        shutil.copy2(wheel, dest / wheel.name)
        entry["depends"] = [d for d in entry["depends"] if _key(d) in names]
    return names


#: what the Pyodide kernel (0.7.0) installs as it starts, one package after the other through
#: micropip, unless the page's settings name it among the packages that loadPyodide is given
#: (``loadPyodideOptions.packages``).  The site names them all: its own loadPyodide
#: (``app/site/start.js``) puts the packages in place at once from :data:`BUNDLE` instead.
#: ``sqlite3`` is not in npm's package (the kernel's asking for it ended in a 404): a page has
#: none, as before.
KERNEL_NEEDS = ("micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi",
                "ipython")

#: the modules that the bundle must hold for the kernel and the pages to start
BUNDLE_MODULES = ("micropip", "piplite", "ipykernel", "comm", "pyodide_kernel", "jedi",
                  "IPython", "ipywidgets", "anywidget", "networkx", "pangaea_lab")

#: the file (beside Pyodide) that holds site-packages, unpacked, for every page (start.js)
BUNDLE = "site-packages.bin"

#: the site's loadPyodide (beside Pyodide), which the kernel's pyodideUrl names
START_SCRIPT = "site-start.js"

#: the file (beside Pyodide) that holds Python's memory after :data:`SNAPSHOT_IMPORTS`, which
#: every page starts from (app/site/snapshot.mjs makes it, start.js loads it)
SNAPSHOT = "snapshot.bin"

#: what every page imports before its first widget, done once by the build: what the kernel
#: imports as it starts (piplite, then the kernel itself, which imports IPython), then the
#: pages' own (the exercises, the start page's catalogue, each game with its widgets and
#: exercises, and ipywidgets and anywidget, which the package's widgets import only when the
#: first is built)
SNAPSHOT_IMPORTS = ("import piplite.piplite\n"
                    "import pyodide_kernel\n"
                    "import ipywidgets, anywidget\n"
                    "import pangaea_lab.exercises, pangaea_lab.catalog, pangaea_lab.core.page_text\n"
                    "import pangaea_lab.core.graph_plot, pangaea_lab.pangaea.graph_lab\n"
                    + "".join(f"import pangaea_lab.{game}, pangaea_lab.{game}.widgets, "
                              f"pangaea_lab.{game}.exercises\n"
                              for game in ("pangaea", "harmonies", "forest_shuffle", "inori")))


def kernel_wheels(out: Path) -> list[Path]:
    """The kernel's own wheels (piplite, the ipykernel it stands for, pyodide_kernel,
    widgetsnbextension), which the kernel's add-on serves in its package index: the newest
    version of each."""
    from packaging.utils import parse_wheel_filename
    folder = out / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    newest: dict[str, tuple] = {}
    for wheel in folder.glob("*.whl"):
        name, version, _, _ = parse_wheel_filename(wheel.name)
        if name not in newest or version > newest[name][0]:
            newest[name] = (version, wheel)
    return sorted(wheel for _, wheel in newest.values())


def precompile(pyodide_dir: Path, wheels: Iterable[Path], work: Path) -> int:
    """The standard library (Pyodide's python_stdlib.zip) with the bytecode of each of its
    Python files beside it, and :data:`BUNDLE` beside Pyodide: ``wheels`` unpacked, their
    Python files with their bytecode, as Pyodide would install them.  Both compiled by the
    site's Pyodide under Node.js (app/site/precompile.mjs), so that the browser compiles none of
    them on each page.  Returns the number of .pyc files."""
    import zipfile
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise SystemExit("Node.js is missing (apt-get install nodejs): the build compiles the "
                         "site's Python files with Pyodide under Node.js")
    stage = work / "precompile"
    if stage.exists():
        shutil.rmtree(stage)
    stdlib, packages = stage / "stdlib", stage / "site-packages"
    with zipfile.ZipFile(pyodide_dir / "python_stdlib.zip") as archive:
        archive.extractall(stdlib)
    for wheel in sorted(wheels):
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(packages)
        for dist_info in packages.glob("*.dist-info"):
            # what Pyodide writes when it installs a wheel itself: loadPackage then knows the
            # package is there and does not install it again
            (dist_info / "INSTALLER").write_text("pyodide\n")
            (dist_info / "PYODIDE_SOURCE").write_text("pyodide\n")
    missing = [m for m in BUNDLE_MODULES
               if not (packages / m).is_dir() and not (packages / f"{m}.py").is_file()]
    if missing:
        raise SystemExit(f"The site's packages lack {', '.join(missing)}: no page could start")
    # compiled by Pyodide's own standard library, left as it was until both are done
    subprocess.run([node, str(HERE / "precompile.mjs"), str(pyodide_dir),
                    f"{stdlib}=/lib/python313.zip=beside",
                    f"{packages}=/lib/python3.13/site-packages=cache"], check=True)
    count = _rezip(pyodide_dir / "python_stdlib.zip", stdlib)
    count += write_bundle(packages, pyodide_dir / BUNDLE)
    shutil.rmtree(stage)
    return count


def make_snapshot(pyodide_dir: Path, work: Path) -> int:
    """:data:`SNAPSHOT` beside Pyodide: Python's memory once it has started as a page's does
    (:data:`BUNDLE` in site-packages) and done :data:`SNAPSHOT_IMPORTS`, made by the site's
    Pyodide under Node.js (app/site/snapshot.mjs).  The bytecode of the modules that the
    snapshot holds then leaves :data:`BUNDLE`: a page starting from the snapshot never reads
    it (their sources stay, for tracebacks); and what the imports wrote outside site-packages
    (the kernel's IPython profile folder) joins it, so that a page has the files a start from
    nothing would have written.  Returns the number of files left out."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise SystemExit("Node.js is missing (apt-get install nodejs): the build makes the "
                         "pages' starting point with Pyodide under Node.js")
    work.mkdir(parents=True, exist_ok=True)
    listing = work / "snapshot-modules.json"
    subprocess.run([node, str(HERE / "snapshot.mjs"), str(pyodide_dir),
                    str(pyodide_dir / BUNDLE), str(pyodide_dir / SNAPSHOT), SNAPSHOT_IMPORTS,
                    str(listing)], check=True)
    import base64
    found = json.loads(listing.read_text())
    written = [(path, base64.b64decode(data)) for path, data in found["written"]]
    return rewrite_bundle(pyodide_dir / BUNDLE, set(found["held"]), written)


def _read_bundle(path: Path) -> list[tuple[str, bytes]]:
    """The files of :data:`BUNDLE` at ``path``: (path under site-packages, bytes) each."""
    import gzip
    import struct
    data = gzip.decompress(path.read_bytes())
    length = struct.unpack_from("<I", data)[0]
    offset, files = 4 + length, []
    for name, size in json.loads(data[4:4 + length]):
        files.append((name, data[offset:offset + size]))
        offset += size
    return files


def _write_bundle_files(files: list[tuple[str, bytes]], target: Path) -> None:
    import gzip
    import struct
    listing = json.dumps([[name, len(data)] for name, data in files]).encode("utf-8")
    with gzip.open(target, "wb", compresslevel=9) as out:
        out.write(struct.pack("<I", len(listing)))
        out.write(listing)
        for _, data in files:
            out.write(data)


def rewrite_bundle(path: Path, names: set[str], added: list[tuple[str, bytes]] = ()) -> int:
    """:data:`BUNDLE` at ``path`` again without the files ``names`` (paths under
    site-packages), with ``added`` after its files: (absolute path, bytes) each, a folder's
    path ending in "/" (start.js writes those where they name).  Returns how many it left
    out."""
    files = _read_bundle(path)
    kept = [(name, data) for name, data in files if name not in names]
    _write_bundle_files(kept + list(added), path)
    return len(files) - len(kept)


def _rezip(archive: Path, tree: Path) -> int:
    """``archive`` again, its files as they were and the .pyc files compiled in ``tree`` after
    them.  Returns the number of .pyc files."""
    import zipfile
    with zipfile.ZipFile(archive) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    known = {info.filename for info, _ in entries}
    compiled = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*.pyc"))
    compiled = [name for name in compiled if name not in known]
    temporary = archive.with_suffix(".tmp")
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in entries:
            target.writestr(info, data)
        for name in compiled:
            target.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)),
                            (tree / name).read_bytes(), zipfile.ZIP_DEFLATED)
    temporary.replace(archive)
    return len(compiled)


def _bundled(path: str) -> bool:
    """Whether a file of site-packages goes into :data:`BUNDLE`: not the packages' tests (no
    page imports them) nor a wheel's .data folder (JupyterLab's files, which the site serves
    from its own extensions folder)."""
    parts = path.split("/")
    return "tests" not in parts[:-1] and not parts[0].endswith(".data")


def write_bundle(tree: Path, target: Path) -> int:
    """``tree`` (site-packages) as :data:`BUNDLE`, in the layout that start.js reads.
    Returns the number of .pyc files in it."""
    files = sorted(p for p in tree.rglob("*") if p.is_file())
    names = [p.relative_to(tree).as_posix() for p in files]
    kept = [(n, p) for n, p in zip(names, files) if _bundled(n)]
    _write_bundle_files([(n, p.read_bytes()) for n, p in kept], target)
    return sum(1 for n, _ in kept if n.endswith(".pyc"))


def write_lock(lock: dict, dest: Path) -> None:
    """The lock beside the wheels it names, with the sha256 of each wheel served there."""
    for entry in lock["packages"].values():
        wheel = dest / entry["file_name"]
        if wheel.is_file():
            entry["sha256"] = _sha256(wheel)
    (dest / "pyodide-lock.json").write_text(json.dumps(lock))


def index_wheels(work: Path) -> list[Path]:
    """pangaea_lab's wheel (built from this checkout, without the extras) and its pure
    dependencies that the lock does not have, for the site's own package index."""
    work.mkdir(parents=True, exist_ok=True)
    for old in work.glob("pangaea_lab-*.whl"):
        old.unlink()
    _pip("wheel", "--quiet", "--no-deps", "-w", str(work), str(ROOT))
    _pip("download", "--quiet", "--no-deps", "--only-binary=:all:", "--platform", "any",
         "--python-version", "3.13", "--implementation", "py", "-d", str(work), *INDEX_WHEELS)
    keep = [re.split("==", w)[0].replace("-", "_").lower() for w in INDEX_WHEELS]
    wheels = [w for w in sorted(work.glob("*.whl"))
              if w.name.split("-")[0].lower() in keep + ["pangaea_lab"]]
    return wheels


def stage_contents(dest: Path) -> dict[str, str]:
    """The notebooks the site serves (all but those :data:`LEFT_OUT`), with their pictures;
    their links to a page left out become plain words (:func:`unlink_left_out`).  Returns the
    pages left out (their paths under notebooks/), each with why."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(ROOT / "notebooks", dest,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    left = {}
    for path in sorted(dest.rglob("*.ipynb")):
        why = needs_compiled(path)
        if why:
            left[path.relative_to(dest).as_posix()] = why
            path.unlink()
    for path in sorted(dest.rglob("*.ipynb")):
        unlink_left_out(path, dest, set(left))
        _add_install_cell(path)
    return left


#: what a link to a page left out of the site becomes, after the link's own words
LEFT_OUT_WORDS = "this page needs the app on a server or JupyterLab"

MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")


def unlink_left_out(path: Path, root: Path, left: set[str]) -> int:
    """In the Markdown cells of the notebook at ``path`` (under ``root``), each link to a page
    in ``left`` (paths under ``root``) becomes its words and :data:`LEFT_OUT_WORDS` in
    brackets: the site has no such page to open.  Returns the number of links changed."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    folder = path.parent.relative_to(root).as_posix()
    changed = 0

    def words(match: re.Match) -> str:
        nonlocal changed
        target = re.split(r"[#?]", match.group(2), maxsplit=1)[0]
        if posixpath.normpath(posixpath.join(folder, target)) not in left:
            return match.group(0)
        changed += 1
        return f"{match.group(1)} ({LEFT_OUT_WORDS})"

    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = MARKDOWN_LINK.sub(words, "".join(cell["source"]))
    if changed:
        path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    return changed


#: the first cell of every page in the site: the package is in place as Python starts
#: (:data:`BUNDLE`); a kernel started without it installs it from the site's own index
INSTALL_CELL = ("# In the browser (the static site), the package comes from the site itself\n"
                "import importlib.util\n"
                "if importlib.util.find_spec('pangaea_lab') is None:\n"
                "    import piplite\n"
                "    await piplite.install(['pangaea_lab'])")


def _add_install_cell(path: Path) -> None:
    notebook = json.loads(path.read_text())
    if not any(cell["cell_type"] == "code" for cell in notebook["cells"]):
        return
    cell = {"cell_type": "code", "execution_count": None, "id": "site-install",
            "metadata": {"tags": ["site-install"]}, "outputs": [], "source": INSTALL_CELL}
    notebook["cells"].insert(0, cell)
    path.write_text(json.dumps(notebook, indent=1))


def stage_template(dest: Path) -> Path:
    """The site's page template: Voilà's lab page with the package's font and style and no
    request to a CDN; returns the folder to put on JUPYTER_PATH."""
    share = dest / "share"
    target = share / "jupyter" / "voila" / "templates" / "pangaea-lab-site"
    if target.exists():
        shutil.rmtree(target)
    package = ROOT / "pangaea_lab" / "share" / "jupyter" / "voila" / "templates" / "pangaea-lab"
    shutil.copytree(package / "static", target / "static")
    for name in ("conf.json", "index.html.j2"):
        shutil.copy2(HERE / "template" / name, target / name)
    return share / "jupyter"


#: the kernel's settings on every page: no PyPI, and the packages that the kernel then does not
#: install itself (:data:`KERNEL_NEEDS`, with pangaea_lab): the site's loadPyodide puts them
#: in place (its pyodideUrl is :data:`START_SCRIPT`)
KERNEL_SETTINGS = {"disablePyPIFallback": True,
                   "loadPyodideOptions": {"packages": [*KERNEL_NEEDS, "pangaea-lab"]}}


def lite_config(pyodide_dir: str) -> dict:
    """The site's settings: the kernel loads Pyodide from the site and installs only from the
    site's own package index (never from PyPI)."""
    kernel = {"pyodideUrl": f"./{pyodide_dir}/{START_SCRIPT}", **KERNEL_SETTINGS}
    return {"jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": "pangaea_lab",
                                    "litePluginSettings": {
                                        "@jupyterlite/pyodide-kernel-extension:kernel": kernel}}}


def run_voici(contents: Path, out: Path, lite_dir: Path, wheels: list[Path],
              jupyter_path: Path) -> None:
    """Voici's build of the pages (code hidden) and JupyterLite's apps (code shown)."""
    bin_dir = Path(sys.executable).parent
    command = [str(bin_dir / "voici"), "build", "--contents", str(contents),
               "--output-dir", str(out), "--lite-dir", str(lite_dir), "--no-sourcemaps",
               "--template", "pangaea-lab-site"]
    for app in APPS:
        command += ["--apps", app]
    for wheel in wheels:
        command += ["--piplite-wheels", str(wheel)]
    env = {**os.environ, "JUPYTER_PATH": str(jupyter_path)}
    subprocess.run(command, check=True, cwd=lite_dir, env=env)


#: Voici's pages, and JupyterLite's for the notebooks with their code (lab/, notebooks/, tree/)
APPS = ("voici", "lab", "notebooks", "tree")

CONFIG = re.compile(r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)',
                    re.S)


def patch_pages(out: Path, left_out: Iterable[str] = ()) -> int:
    """Voici writes each page's settings with the package index only: give every page the
    kernel's Pyodide from the site (a path relative to the page, as the index's are) and no
    PyPI, and the pages left out of the site (``left_out``, paths under notebooks/) with the
    words a link to one of them becomes (the page template reads them for the links that the
    page's cells write in the browser).  Returns the number of pages."""
    pages = sorted((out / "voici").rglob("*.html"))
    site = {"leftOut": sorted(left_out), "leftOutWords": LEFT_OUT_WORDS}
    for page in pages:
        up = "../" * (len(page.relative_to(out).parts) - 1)

        def patched(match: re.Match) -> str:
            config = json.loads(match.group(2))
            kernel = config.setdefault("litePluginSettings", {}).setdefault(
                "@jupyterlite/pyodide-kernel-extension:kernel", {})
            kernel.update({"pyodideUrl": f"{up}pyodide/{START_SCRIPT}", **KERNEL_SETTINGS})
            config["pangaeaSite"] = site
            return match.group(1) + json.dumps(config) + match.group(3)

        text = CONFIG.sub(patched, page.read_text(), count=1)
        for font in FONTS:
            text = text.replace(f'url("{font}")', f'url("{up}static/pangaea-lab/{font}")')
        page.write_text(text)
    return len(pages)


#: the package's font, which the page's style names beside itself: served once for the site
FONTS = ("DejaVuSans.woff", "DejaVuSans-Bold.woff")


def patch_root_config(out: Path) -> None:
    """JupyterLite's apps (lab/, notebooks/) read the site's jupyter-lite.json, whose paths are
    taken from the site's root: the same kernel settings there."""
    path = out / "jupyter-lite.json"
    config = json.loads(path.read_text())
    kernel = config["jupyter-config-data"].setdefault("litePluginSettings", {}).setdefault(
        "@jupyterlite/pyodide-kernel-extension:kernel", {})
    kernel.update({"pyodideUrl": f"./pyodide/{START_SCRIPT}", **KERNEL_SETTINGS})
    path.write_text(json.dumps(config, indent=2))


def copy_favicon(out: Path) -> None:
    """A page that names no icon makes the browser ask for /favicon.ico at the host's root,
    which a site served under a path does not hold: JupyterLite's icon goes to the site's own
    root, and each of JupyterLite's pages names it (relative to the page)."""
    icon = out / "static" / "favicons" / "favicon.ico"
    if icon.is_file():
        shutil.copy2(icon, out / "favicon.ico")
    for page in sorted(out.rglob("index.html")):
        parts = page.relative_to(out).parts
        text = page.read_text(encoding="utf-8")
        if parts[0] == "voici" or 'rel="icon"' in text or "<head>" not in text:
            continue
        link = f'<link rel="icon" href="{"../" * (len(parts) - 1)}favicon.ico">'
        page.write_text(text.replace("<head>", f"<head>\n    {link}", 1), encoding="utf-8")


ADDRESS = re.compile(r"""(?:\b(?:src|href)\s*=\s*["']|\burl\(\s*["']?)(/[^"')\s]*)""")


def rooted_addresses(out: Path) -> list[str]:
    """What in the site's Voici pages names a file from the host's root ('/...') rather than
    from the page itself: the folder must work the same at a host's root and under any path
    (https://host/some/path/), so the answer should be empty.  Looks at every address in each
    page's settings (the notebook itself left aside) and at the page's src, href and url()."""
    found = []
    for page in sorted((out / "voici").rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(out).as_posix()
        match = CONFIG.search(text)
        if match:
            config = json.loads(match.group(2))
            config.pop("notebookSrc", None)
            found += [f"{name}: {key} = {value}" for key, value in _addresses(config)
                      if value.startswith("/")]
            text = text[:match.start()] + text[match.end():]
        found += [f"{name}: {value}" for value in ADDRESS.findall(text)]
    return found


def _addresses(config: object, key: str = "") -> Iterator[tuple[str, str]]:
    """(key, value) of every address in a page's settings: the strings under a key that ends
    in Url or Urls, or that is an extension's file to load."""
    if isinstance(config, dict):
        for name, value in config.items():
            yield from _addresses(value, name)
    elif isinstance(config, list):
        for value in config:
            yield from _addresses(value, key)
    elif isinstance(config, str) and re.search(r"(Url|Urls|^load)$", key):
        yield key, config


def copy_fonts(out: Path) -> None:
    static = ROOT / "pangaea_lab" / "share" / "jupyter" / "voila" / "templates" / "pangaea-lab"
    (out / "static" / "pangaea-lab").mkdir(parents=True, exist_ok=True)
    for name in FONTS + ("LICENSE-DejaVu.txt",):
        shutil.copy2(static / "static" / name, out / "static" / "pangaea-lab" / name)


def build(out: Path, tgz: Path, work: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    lite_dir = work / "lite"
    lite_dir.mkdir(parents=True, exist_ok=True)
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(lite_config("pyodide"), indent=1))
    left = stage_contents(work / "contents")
    jupyter_path = stage_template(work)
    wheels = index_wheels(work / "index-wheels")
    run_voici(work / "contents", out, lite_dir, wheels, jupyter_path)
    patch_pages(out, left)
    patch_root_config(out)
    copy_fonts(out)
    copy_favicon(out)
    rooted = rooted_addresses(out)
    if rooted:
        raise SystemExit("Pages name files from the host's root, so the site would work only "
                         "there:\n  " + "\n  ".join(rooted))
    lock = unpack_pyodide(tgz, out / "pyodide")
    served = serve_lock_wheels(lock, out / "pyodide", work / "lock-wheels")
    write_lock(lock, out / "pyodide")
    bundled = [out / "pyodide" / lock["packages"][n]["file_name"] for n in served]
    bundled += wheels + kernel_wheels(out)
    compiled = precompile(out / "pyodide", bundled, work)
    held = make_snapshot(out / "pyodide", work)
    shutil.copy2(HERE / "start.js", out / "pyodide" / START_SCRIPT)
    print(f"Site in {out}: Pyodide {PYODIDE} from npm, {len(served)} wheels beside its lock, "
          f"{len(wheels)} in the site's index, {len(bundled)} unpacked in {BUNDLE} for every "
          f"page, {compiled} Python files compiled for Pyodide, {held} of them held by {SNAPSHOT} "
          f"(left out of {BUNDLE})")
    for page, why in left.items():
        print(f"Left out: {page} ({why})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the static site (make site).")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "site")
    parser.add_argument("--pyodide", type=Path, required=True,
                        help=f"npm's pyodide-{PYODIDE}.tgz (npm pack pyodide@{PYODIDE})")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "site-work")
    args = parser.parse_args(argv)
    build(args.out.resolve(), args.pyodide.resolve(), args.work.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
