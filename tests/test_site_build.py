"""The static site's build steps that need neither the network nor a browser
(app/site/build.py; the site itself is tested in a browser by ``make test-site``)."""

from __future__ import annotations

import importlib.util
import json
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
    assert all("matplotlib" not in (ROOT / "notebooks" / p).read_text() for p in left
               if p not in out)


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
    assert kernel == {"pipliteUrls": ["../../../pypi/all.json"], "disablePyPIFallback": True,
                      "pyodideUrl": "../../../pyodide/pyodide.js"}
    assert 'url("../../../static/pangaea-lab/DejaVuSans.woff")' in text


def test_site_pages_install_the_package_first(tmp_path):
    target = tmp_path / "contents"
    left = site_build.stage_contents(target)
    assert any("statistics" in page for page in left)
    first = json.loads((target / "harmonies" / "01_setup_and_turns.ipynb").read_text())
    assert first["cells"][0]["source"] == site_build.INSTALL_CELL
    assert "piplite.install(['pangaea_lab'])" in site_build.INSTALL_CELL
    assert not (target / "harmonies" / "06_statistics.ipynb").exists()
