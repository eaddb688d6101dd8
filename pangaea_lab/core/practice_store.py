"""Keeping a learner's practice record in the browser, and in a file they save.

A page's kernel lives only as long as the page: a reload starts a new one.  So the record of
attempts (:class:`~pangaea_lab.core.mastery.PracticeRecord`) is kept in the browser's own
storage (``localStorage``, one entry per site, shared by every page of the app or of
JupyterLab in that browser): :class:`PracticeStore` is a small widget whose script sends the
kept record to the kernel when the page opens (``stored``) and writes the kernel's record
back, merged attempt by attempt, whenever it changes (``record``).  What the browser sends is
read like any file from outside (:func:`~pangaea_lab.core.mastery.read_attempts`): a record
that cannot be read is left out, with a plain message.  The same widget has a button that
saves the record as a small JSON file; :func:`practice_controls` adds the way to load such a
file back.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .errors import InvalidData
from .exercises import plural
from .mastery import MAX_FILE, PracticeRecord, read_attempts

#: the browser storage entry (one per site)
STORAGE_KEY = "pangaea_lab.practice.v1"

_SCRIPT = """
const KEY = "%(key)s";

function kept() {
  // the record this browser keeps, or null when there is none (or it is not a record)
  try {
    const data = JSON.parse(window.localStorage.getItem(KEY) || "null");
    return data && Array.isArray(data.attempts) ? data : null;
  } catch (error) {
    return null;
  }
}

function merged(mine) {
  // the kept record with the kernel's attempts added (by id), oldest first
  const old = kept();
  if (!old) return mine;
  const seen = new Set(old.attempts.map((a) => a.id));
  const all = old.attempts.concat(mine.attempts.filter((a) => !seen.has(a.id)));
  all.sort((x, y) => x.time - y.time);
  return Object.assign({}, mine, { attempts: all.slice(-%(most)d) });
}

function render({ model, el }) {
  el.classList.add("pl-practice-store");
  const write = () => {
    let mine = null;
    try { mine = JSON.parse(model.get("record") || "null"); } catch (error) { return; }
    if (!mine || !Array.isArray(mine.attempts)) return;
    try {
      window.localStorage.setItem(KEY, JSON.stringify(merged(mine)));
      el.dataset.kept = String(merged(mine).attempts.length);
    } catch (error) {
      el.dataset.kept = "unavailable";
    }
  };
  model.on("change:record", write);
  const save = document.createElement("button");
  save.className = "pl-practice-save jupyter-button";
  save.textContent = "Save my progress to a file";
  save.title = "Download your practice record; load it again later, or on another computer";
  save.addEventListener("click", () => {
    write();
    const text = JSON.stringify(kept() || JSON.parse(model.get("record") || "{}"));
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.download = "pangaea-lab-progress.json";
    document.body.appendChild(link);
    link.click();
    link.remove();
  });
  el.appendChild(save);
  let old = null;
  try {
    old = window.localStorage.getItem(KEY);
  } catch (error) {
    // a browser that keeps nothing for this site: the page works, nothing is kept
    el.dataset.kept = "unavailable";
  }
  if (old) {
    model.set("stored", old);
    model.save_changes();
  }
  write();
}

export default { render };
"""


@lru_cache(maxsize=1)
def _widget_class() -> Any:
    import anywidget  # the widget toolkit, loaded only when a page shows its progress
    import traitlets  # comes with the widget toolkit

    class PracticeStore(anywidget.AnyWidget):
        """The browser's copy of the practice record: ``stored`` comes from the browser when
        the page opens, ``record`` goes to it after every change."""

        _esm = _SCRIPT % {"key": STORAGE_KEY, "most": 5000}
        stored = traitlets.Unicode("").tag(sync=True)
        record = traitlets.Unicode("").tag(sync=True)

    return PracticeStore


def _attempts_in(text: str | bytes) -> list:
    """The attempts of a progress file or of the browser's copy (raises InvalidData)."""
    if len(text) > MAX_FILE:
        raise InvalidData(f"it is too large ({len(text)} characters)")
    return read_attempts(text)


def _refused(what: str, exc: InvalidData) -> str:
    return f"The {what} could not be read, so it was left out: {exc}."


def merge_text(record: PracticeRecord, text: str | bytes, what: str) -> str:
    """Merge the attempts of ``text`` (a progress file or the browser's copy) into
    ``record``; the words to show the learner."""
    try:
        new = record.merge(_attempts_in(text))
    except InvalidData as exc:
        return _refused(what, exc)
    return f"{plural(new, 'answer')} from the {what} added." if new else ""


def practice_store(record: PracticeRecord, message: Any = None) -> Any:
    """The widget that keeps ``record`` in this browser (None without anywidget).
    ``message`` (an HTML widget) shows what happened to a kept record that was refused."""
    try:
        store = _widget_class()()
    except ImportError:  # pragma: no cover - anywidget is a dependency of the project
        return None

    def from_browser(change: dict) -> None:
        # what the browser kept comes back quietly; only a refusal is worth a word
        try:
            record.merge(_attempts_in(change["new"]))
        except InvalidData as exc:
            if message is not None:
                message.value = _refused("progress kept in this browser", exc)

    def to_browser() -> None:
        store.record = record.to_json()

    store.observe(from_browser, names="stored")
    record.subscribe(to_browser)
    to_browser()
    return store


def practice_controls(record: PracticeRecord) -> Any:
    """The row under a page's progress line: save the record to a file (in the browser) and
    load a saved file back (checked field by field before anything is added)."""
    import ipywidgets as w  # the view layer only

    message = w.HTML()
    message.add_class("pl-practice-message")
    store = practice_store(record, message)
    upload = w.FileUpload(accept=".json", multiple=False, description="Load saved progress",
                          layout=w.Layout(width="auto"))
    upload.add_class("pl-practice-load")

    def loaded(change: dict) -> None:
        files = change["new"] or ()
        for item in files:
            content = item.get("content", b"") if isinstance(item, dict) else b""
            said = merge_text(record, bytes(content), "progress file")
            message.value = said or "That file holds nothing new."
        if files:
            upload.value = ()

    upload.observe(loaded, names="value")
    parts = [p for p in (store, upload, message) if p is not None]
    row = w.HBox(parts, layout=w.Layout(flex_flow="row wrap", align_items="center"))
    row.add_class("pl-practice-controls")
    row.store = store
    row.upload = upload
    row.message = message
    return row
