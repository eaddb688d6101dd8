"""The practice record kept in the browser and in a saved file (pangaea_lab.core.practice_store):
what the browser or a file sends is read like any file from outside; a broken one gives a
plain message and changes nothing."""

import json
from datetime import datetime, timezone

import pytest

from pangaea_lab.core import practice_store as ps
from pangaea_lab.core.mastery import MAX_FILE, Attempt, PracticeRecord


def saved(*seeds, kind="demo.sum"):
    """The text of a progress file with one clean right answer per seed."""
    record = PracticeRecord()
    for seed in seeds:
        record.add(Attempt(kind, seed, 1, "5", True, first=True))
    return record.to_json()


def upload_item(content: bytes, name="pangaea-lab-progress.json"):
    """What the browser's file picker sends for one file."""
    return {"name": name, "type": "application/json", "size": len(content),
            "last_modified": datetime(2026, 1, 2, tzinfo=timezone.utc), "content": memoryview(content)}


BROKEN = [
    ("not json at all", "not valid JSON"),
    ('{"kind": "a saved game", "version": 1, "attempts": []}', "kind"),
    (json.dumps({**json.loads(saved(1)), "version": 7}), "version"),
    ("[" * 500 + "]" * 500, "nests lists or objects 500 deep"),
    ("x" * (MAX_FILE + 1), "too large"),
    (saved(1).replace('"seed":1', '"seed":"one"'), "attempts[0].seed"),
]


def test_merge_text_adds_a_valid_file_and_says_how_many():
    record = PracticeRecord()
    said = ps.merge_text(record, saved(1, 2, 3), "progress file")
    assert said == "3 answers from the progress file added."
    assert record.status("demo.sum").mastered
    assert ps.merge_text(record, saved(4).encode(), "progress file") == \
        "1 answer from the progress file added."


def test_merge_text_of_the_same_file_twice_adds_nothing():
    record = PracticeRecord()
    text = saved(4, 5)
    assert ps.merge_text(record, text, "progress file").startswith("2 answers")
    assert ps.merge_text(record, text, "progress file") == ""
    assert len(record.attempts) == 2


@pytest.mark.parametrize("text, words", BROKEN)
def test_merge_text_of_a_broken_file_says_so_and_changes_nothing(text, words):
    record = PracticeRecord()
    record.add(Attempt("demo.sum", 9, 1, "5", True, first=True))
    before = record.to_json()
    said = ps.merge_text(record, text, "progress file")
    assert said.startswith("The progress file could not be read, so it was left out: ")
    assert words in said and said.endswith(".")
    assert len(said) < 400 and "Traceback" not in said
    assert record.to_json() == before


def test_controls_load_a_saved_file_through_the_upload():
    record = PracticeRecord()
    row = ps.practice_controls(record)
    assert "pl-practice-controls" in row._dom_classes
    assert "pl-practice-load" in row.upload._dom_classes
    assert "pl-practice-message" in row.message._dom_classes
    assert row.store is not None and "pl-practice-store" not in row.store._dom_classes
    heard = []
    record.subscribe(lambda: heard.append(len(record.attempts)))
    text = saved(1, 2, 3).encode()
    row.upload.value = (upload_item(text),)
    assert row.message.value == "3 answers from the progress file added."
    assert record.status("demo.sum").mastered and heard == [3]
    assert row.upload.value == ()                 # ready for the next file
    row.upload.value = (upload_item(text),)
    assert row.message.value == "That file holds nothing new."
    assert len(record.attempts) == 3


@pytest.mark.parametrize("text, words", BROKEN)
def test_controls_refuse_a_broken_file_with_a_plain_message(text, words):
    record = PracticeRecord()
    record.add(Attempt("demo.sum", 9, 1, "5", True, first=True))
    before = record.to_json()
    row = ps.practice_controls(record)
    row.upload.value = (upload_item(text.encode()),)
    assert row.message.value.startswith("The progress file could not be read")
    assert words in row.message.value
    assert record.to_json() == before and row.upload.value == ()


def test_the_store_sends_the_record_to_the_browser_and_reads_it_back():
    import ipywidgets as widgets

    record = PracticeRecord()
    note = widgets.HTML()
    store = ps.practice_store(record, note)
    assert type(store).__name__ == "PracticeStore"
    assert json.loads(store.record)["attempts"] == []
    record.add(Attempt("demo.sum", 1, 1, "5", True, first=True))
    assert len(json.loads(store.record)["attempts"]) == 1     # every change goes out
    store.stored = saved(2, 3)                                  # the page opens: kept copy
    assert len(record.attempts) == 3 and note.value == ""
    assert len(json.loads(store.record)["attempts"]) == 3
    store.stored = "{broken"
    assert note.value.startswith("The progress kept in this browser could not be read")
    assert len(record.attempts) == 3
    assert ps.STORAGE_KEY in store._esm and "localStorage" in store._esm
