"""The parts of ``make site-load`` (bench/site_load.py) that need no browser: the site's size
and the server that counts what it sends."""

from __future__ import annotations

import gzip
import importlib.util
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("site_load", ROOT / "bench" / "site_load.py")
site_load = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_load)


def test_site_size_counts_every_file_raw_and_gzipped(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "page.html").write_text("<p>hello</p>" * 200)
    (tmp_path / "core.wasm").write_bytes(bytes(range(256)) * 4)
    files, raw, packed = site_load.site_size(tmp_path)
    assert (files, raw) == (2, 12 * 200 + 1024)
    assert packed == len(gzip.compress(b"<p>hello</p>" * 200, compresslevel=6)) + len(
        gzip.compress(bytes(range(256)) * 4, compresslevel=6))


def test_server_counts_the_bytes_it_sends(tmp_path):
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "lock.json").write_text("{}" * 1000)
    counter = site_load.Counter()
    server = site_load.serve(tmp_path, counter)
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/pyodide/lock.json?v=1"
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert len(answer.read()) == 2000
    finally:
        server.shutdown()
        server.server_close()
    assert counter.take() == [(2000, "/pyodide/lock.json")]
    assert counter.take() == []


def test_report_judges_later_pages_by_their_median(tmp_path, capsys):
    (tmp_path / "index.html").write_text("<p>site</p>")
    first = ("00_start_here", 12.0, [(28_000_000, "/pyodide/pyodide.asm.wasm")])
    later = [("harmonies/01_setup_and_turns", seconds, [(300_000, "/voici/render/h.html")])
             for seconds in (4.0, 9.0, 3.0)]
    assert site_load.report(tmp_path, [first, *later], []) is True
    out = capsys.readouterr().out
    assert "later pages: median 4.0 s over 3 visits, 3.0 to 9.0 s (goal < 5 s: met)" in out
    assert "first visit (start page): 28.0 MB" in out
    slow = [(name, seconds + 2, files) for name, seconds, files in later]
    assert site_load.report(tmp_path, [first, *slow], []) is False
    assert site_load.report(tmp_path, [first, *later], ["https://cdn.example/x.js"]) is False
