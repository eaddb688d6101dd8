"""The static site's build steps that need neither the network nor a browser
(app/site/build.py; the site itself is tested in a browser by ``make test-site``)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("site_build", ROOT / "app" / "site" / "build.py")
site_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_build)


def test_pages_left_out_are_those_that_need_compiled_packages():
    left = {p.relative_to(ROOT / "notebooks").as_posix(): site_build.needs_compiled(p)
            for p in sorted((ROOT / "notebooks").rglob("*.ipynb"))}
    out = {page for page, why in left.items() if why}
    assert {p for p in out if "statistics" in p} == {p for p in left if "statistics" in p}
    assert "harmonies/01_setup_and_turns.ipynb" not in out
    assert "00_start_here.ipynb" not in out and "teachers.ipynb" not in out
    # every page kept runs without the extras (tests/test_base_install.py runs their imports)
    assert all("matplotlib" not in _code(ROOT / "notebooks" / p) for p in left if p not in out)


def _code(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def _entry(name: str, depends: list[str], compiled: bool = False) -> dict:
    tag = "cp313-cp313-pyodide_2025_0_wasm32" if compiled else "py3-none-any"
    return {"name": name, "version": "1.0", "file_name": f"{name}-1.0-{tag}.whl",
            "depends": depends, "package_type": "package", "sha256": "old"}


def test_lock_closure_goes_through_pure_wheels_only():
    packages = {"networkx": _entry("networkx", ["decorator", "matplotlib", "numpy"]),
                "decorator": _entry("decorator", []),
                "matplotlib": _entry("matplotlib", ["numpy", "cycler"], compiled=True),
                "numpy": _entry("numpy", [], compiled=True),
                "cycler": _entry("cycler", []),
                "ipython": _entry("ipython", ["pure_eval"]),
                "pure-eval": _entry("pure-eval", [])}
    assert site_build._closure(packages) == ["decorator", "ipython", "networkx", "pure-eval"]


def test_each_page_gets_pyodide_from_the_site(tmp_path):
    page = tmp_path / "voici" / "render" / "harmonies" / "01.html"
    page.parent.mkdir(parents=True)
    config = {"litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": {
        "pipliteUrls": ["../../../pypi/all.json"]}}}
    page.write_text('<style>src: url("DejaVuSans.woff")</style>'
                    '<script id="jupyter-config-data" type="application/json">'
                    f'{json.dumps(config)}</script>')
    assert site_build.patch_pages(tmp_path) == 1
    text = page.read_text()
    got = json.loads(text.split('application/json">')[1].split("</script>")[0])
    kernel = got["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    # the site's own loadPyodide, beside Pyodide; the kernel installs none of its packages
    packages = [*site_build.KERNEL_NEEDS, "pangaea-lab"]
    assert kernel == {"pipliteUrls": ["../../../pypi/all.json"], "disablePyPIFallback": True,
                      "pyodideUrl": "../../../pyodide/site-start.js",
                      "loadPyodideOptions": {"packages": packages}}
    assert 'url("../../../static/pangaea-lab/DejaVuSans.woff")' in text
    # the pages left out, for the links the page's cells write in the browser
    assert got["pangaeaSite"] == {"leftOut": [], "leftOutWords": site_build.LEFT_OUT_WORDS}
    site_build.patch_pages(tmp_path, ["inori/05_statistics.ipynb"])
    text = page.read_text()
    got = json.loads(text.split('application/json">')[1].split("</script>")[0])
    assert got["pangaeaSite"]["leftOut"] == ["inori/05_statistics.ipynb"]


def test_site_pages_install_the_package_first(tmp_path):
    target = tmp_path / "contents"
    left = site_build.stage_contents(target)
    assert any("statistics" in page for page in left)
    first = json.loads((target / "harmonies" / "01_setup_and_turns.ipynb").read_text())
    assert first["cells"][0]["source"] == site_build.INSTALL_CELL
    assert "piplite.install(['pangaea_lab'])" in site_build.INSTALL_CELL
    assert not (target / "harmonies" / "06_statistics.ipynb").exists()


def _notebook(path: Path, *markdown: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cells = [{"cell_type": "markdown", "metadata": {}, "source": text} for text in markdown]
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}))


def test_links_to_pages_left_out_become_words(tmp_path):
    page = tmp_path / "harmonies" / "02.ipynb"
    _notebook(page, "See [the statistics](06_statistics.ipynb) and [turns](01.ipynb).",
              "Also [Pangaea's](../pangaea/10_statistics.ipynb#Wins), [top](#Top), "
              "[NetworkX](https://networkx.org).")
    left = {"harmonies/06_statistics.ipynb", "pangaea/10_statistics.ipynb"}
    assert site_build.unlink_left_out(page, tmp_path, left) == 2
    first, second = (c["source"] for c in json.loads(page.read_text())["cells"])
    words = site_build.LEFT_OUT_WORDS
    assert first == f"See the statistics ({words}) and [turns](01.ipynb)."
    assert second == (f"Also Pangaea's ({words}), [top](#Top), "
                      "[NetworkX](https://networkx.org).")


def test_the_site_links_no_page_it_leaves_out(tmp_path):
    """In the staged notebooks (the start page, the teachers' guide, every page), no Markdown
    link leads to a page left out; the start page names them in words."""
    target = tmp_path / "contents"
    left = site_build.stage_contents(target)
    assert "harmonies/06_statistics.ipynb" in left and "pangaea/04_scoring.ipynb" in left
    for path in target.rglob("*.ipynb"):
        folder = path.parent.relative_to(target).as_posix()
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for _, link in site_build.MARKDOWN_LINK.findall("".join(cell["source"])):
                resolved = site_build.posixpath.normpath(
                    site_build.posixpath.join(folder, link.split("#")[0]))
                assert resolved not in left, f"{path.name} links {link}, left out of the site"
    start = json.loads((target / "00_start_here.ipynb").read_text())
    text = "".join("".join(c["source"]) for c in start["cells"] if c["cell_type"] == "markdown")
    assert f"statistics ({site_build.LEFT_OUT_WORDS})" in text
    assert "[Land Rituals](pangaea/03_land_rituals.ipynb)" in text


def _page(path: Path, config: dict, body: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'<html><body data-base-url="../../voila/">{body}'
                    '<script id="jupyter-config-data" type="application/json">'
                    f'{json.dumps(config)}</script></body></html>')


def test_pages_name_files_from_themselves_not_from_the_hosts_root(tmp_path):
    """The build refuses a page that names a file from the host's root ('/voici/...'): the
    same folder must work at a host's root and under any path (https://host/some/path/)."""
    relative = {"baseUrl": "../../", "fullStaticUrl": "../build", "appUrl": "../../lab",
                "federated_extensions": [{"load": "static/remoteEntry.js"}],
                "litePluginSettings": {"kernel": {"pipliteUrls": ["../../pypi/all.json"]}},
                "notebookSrc": {"cells": [{"source": "<a href='/anything'>x</a>"}]}}
    _page(tmp_path / "voici" / "render" / "start.html", relative,
          '<script src="../../build/voici.js"></script><style>url("../x.woff")</style>')
    assert site_build.rooted_addresses(tmp_path) == []
    rooted = {**relative, "baseUrl": "/",
              "litePluginSettings": {"kernel": {"pipliteUrls": ["/pypi/all.json"]}}}
    _page(tmp_path / "voici" / "render" / "start.html", rooted,
          '<script src="/build/voici.js"></script>')
    assert site_build.rooted_addresses(tmp_path) == [
        "voici/render/start.html: baseUrl = /",
        "voici/render/start.html: pipliteUrls = /pypi/all.json",
        "voici/render/start.html: /build/voici.js"]


def _guide_part() -> str:
    cells = json.loads((ROOT / "notebooks" / "teachers.ipynb").read_text(encoding="utf-8"))
    parts = ["".join(c["source"]) for c in cells["cells"] if c["cell_type"] == "markdown"
             and "".join(c["source"]).startswith("## Without a server: the static site")]
    assert len(parts) == 1, "the teachers' guide has one part on the static site"
    return parts[0]


def test_the_guide_names_the_pages_the_site_leaves_out():
    """The teachers' guide names exactly the pages the build leaves out, with why (the site is
    built from the same notebooks), and how the site is served in a room: the same command the
    site's browser tests serve it with (tests/site/conftest.py)."""
    part = _guide_part()
    named = set(re.findall(r"`([\w/]+\.ipynb)`", part))
    left = {p.relative_to(ROOT / "notebooks").as_posix(): site_build.needs_compiled(p)
            for p in sorted((ROOT / "notebooks").rglob("*.ipynb"))}
    assert named == {page for page, why in left.items() if why}
    for words in ("pandas, pyarrow and dask", "matplotlib", "`build/site/`",
                  "python -m http.server 8000 --directory build/site",
                  "/class/site/voici/render/00_start_here.html",
                  site_build.LEFT_OUT_WORDS.removeprefix("this page ")):
        assert words in part, f"the guide's part on the static site does not say {words!r}"
    served = (ROOT / "tests" / "site" / "conftest.py").read_text(encoding="utf-8")
    assert '"http.server"' in served and '"--directory"' in served
    assert 'SUB_PATH = "class/site"' in served


def test_jupyterlites_pages_name_the_sites_icon(tmp_path):
    """A page that names no icon makes the browser ask the host's root for one, which a site
    served under a path does not have (a 404 in the console)."""
    for name in ("index.html", "notebooks/index.html", "lab/tree/index.html",
                 "voici/tree/index.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("<html>\n  <head>\n  </head></html>")
    (tmp_path / "static" / "favicons").mkdir(parents=True)
    (tmp_path / "static" / "favicons" / "favicon.ico").write_bytes(b"icon")
    site_build.copy_favicon(tmp_path)
    assert (tmp_path / "favicon.ico").read_bytes() == b"icon"
    assert '<link rel="icon" href="favicon.ico">' in (tmp_path / "index.html").read_text()
    assert '<link rel="icon" href="../favicon.ico">' in (
        tmp_path / "notebooks" / "index.html").read_text()
    assert '<link rel="icon" href="../../favicon.ico">' in (
        tmp_path / "lab" / "tree" / "index.html").read_text()
    assert "icon" not in (tmp_path / "voici" / "tree" / "index.html").read_text()


def test_bundle_holds_site_packages_as_start_js_reads_it(tmp_path):
    import gzip
    import struct
    tree = tmp_path / "site-packages"
    for name, text in {"pangaea_lab/__init__.py": "x = 1\n",
                       "pangaea_lab/__pycache__/__init__.cpython-313.pyc": "compiled",
                       "pangaea_lab-0.1.0.dist-info/METADATA": "Name: pangaea_lab\n",
                       "networkx/tests/test_graph.py": "left out\n",
                       "anywidget-0.11.0.data/data/share/x.js": "left out\n",
                       "six.py": "y = 2\n"}.items():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(text)
    target = tmp_path / "site-packages.bin"
    assert site_build.write_bundle(tree, target) == 1
    data = gzip.decompress(target.read_bytes())
    length = struct.unpack("<I", data[:4])[0]
    files = json.loads(data[4:4 + length])
    assert sorted(name for name, _ in files) == [
        "pangaea_lab-0.1.0.dist-info/METADATA", "pangaea_lab/__init__.py",
        "pangaea_lab/__pycache__/__init__.cpython-313.pyc", "six.py"]
    offset, contents = 4 + length, {}
    for name, size in files:
        contents[name] = data[offset:offset + size].decode()
        offset += size
    assert offset == len(data)
    assert contents["six.py"] == "y = 2\n" and contents["pangaea_lab/__init__.py"] == "x = 1\n"


def test_start_script_reads_the_bundle_the_build_writes():
    script = (ROOT / "app" / "site" / "start.js").read_text()
    assert site_build.BUNDLE in script and "getUint32(0, true)" in script
    assert 'DecompressionStream("gzip")' in script and "delete settings.packages" in script


def test_bytecode_held_by_the_snapshot_leaves_the_bundle(tmp_path):
    tree = tmp_path / "site-packages"
    for name, text in {"six.py": "y = 2\n", "__pycache__/six.cpython-313.pyc": "compiled six",
                       "jedi/__init__.py": "z = 3\n",
                       "jedi/__pycache__/__init__.cpython-313.pyc": "compiled jedi"}.items():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(text)
    target = tmp_path / "site-packages.bin"
    site_build.write_bundle(tree, target)
    held = {"__pycache__/six.cpython-313.pyc", "IPython/__pycache__/core.cpython-313.pyc"}
    written = [("/home/pyodide/.ipython/profile_default/log/", b""),
               ("/home/pyodide/.ipython/profile_default/startup/README", b"startup files")]
    assert site_build.rewrite_bundle(target, held, written) == 1
    files = site_build._read_bundle(target)
    assert files[-2:] == written
    files = dict(files)
    assert sorted(files)[-3:] == ["jedi/__init__.py", "jedi/__pycache__/__init__.cpython-313.pyc",
                                  "six.py"]
    assert files["six.py"] == b"y = 2\n"
    assert files["jedi/__pycache__/__init__.cpython-313.pyc"] == b"compiled jedi"


def test_the_snapshot_holds_every_game_and_the_kernel():
    from pangaea_lab.games import NAMES
    compile(site_build.SNAPSHOT_IMPORTS, "snapshot", "exec")
    imported = set(re.findall(r"[\w.]+", site_build.SNAPSHOT_IMPORTS)) - {"import"}
    assert {"piplite.piplite", "pyodide_kernel", "ipywidgets", "anywidget",
            "pangaea_lab.exercises", "pangaea_lab.catalog"} <= imported
    for game in NAMES:
        assert {f"pangaea_lab.{game}", f"pangaea_lab.{game}.widgets",
                f"pangaea_lab.{game}.exercises"} <= imported, game


def test_start_script_starts_python_from_the_snapshot_the_build_writes():
    script = (ROOT / "app" / "site" / "start.js").read_text()
    snapshot = (ROOT / "app" / "site" / "snapshot.mjs").read_text()
    assert site_build.SNAPSHOT in script and "_loadSnapshot" in script
    assert "_snapshotDeserializer" in script and "random.seed()" in script
    # the page's list of installed packages is filled (else loadPackage installs them again)
    assert "loader.loadedPackages = pyodide.loadedPackages" in script
    assert "init_loaded_packages()" in script
    assert "makeMemorySnapshot({ serializer" in snapshot
    # a name in the snapshot is [where, key or null, type]; start.js reads the same
    assert "[where, key, typeof value]" in snapshot and "name[2] === \"function\"" in script
    # what the imports wrote outside site-packages: absolute paths, which start.js writes there
    assert 'file[0].charAt(0) === "/"' in script and "written" in snapshot
