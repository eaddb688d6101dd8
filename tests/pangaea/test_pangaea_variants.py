"""Variants as objects: the family rules, Return of the Ancients and Wild Woods change the game
through the hooks of one interface (:class:`pangaea_lab.pangaea.variant.Variant`), each with its
own record on the state, never through mode flags tested across the rules."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from pangaea_lab import pangaea
from pangaea_lab.pangaea import scoring, variants
from pangaea_lab.pangaea import state as state_module
from pangaea_lab.pangaea.state import CoopRecord, GameState, WoodsRecord
from pangaea_lab.pangaea.variant import Variant, active
from pangaea_lab.pangaea.variants import VARIANTS

PACKAGE = Path(pangaea.__file__).parent

#: the modules allowed to ask which options a game was set up with: the variants' dispatch
#: (which variants a state plays), the Game object with its options, and Game Setup
ALLOWED = {"variant.py", "variants.py", "game.py", "setup.py"}

#: a mode flag tested: ``s.wild_woods``, ``s.mode == ...``, ``s.family`` (in a condition)
FLAG = re.compile(r"\.wild_woods\b|\bmode\s*[!=]=|\b(if|elif|and|or|not|else)\b[^#\n]*\.family\b")


def rule_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name not in ALLOWED)


def test_no_rule_module_tests_a_mode_flag():
    found = []
    for path in rule_modules():
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if FLAG.search(code):
                found.append(f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}")
    assert not found, "mode flags tested outside the variant dispatch:\n" + "\n".join(found)


def test_the_grep_finds_a_flag():
    assert FLAG.search("if s.wild_woods:") and FLAG.search("s.mode == COOP")
    assert FLAG.search("    if not s.family:") and not FLAG.search('"family": self.family,')


#: a variant's record read or tested (``s.coop``, ``state.woods``, ``woods is not None``);
#: a relative import (``from .coop import``) is no read
RECORD = re.compile(r"\w\.(coop|woods)\b|\b(coop|woods)\s+is\s+(not\s+)?None\b")

#: the modules allowed to read the variants' records, each with its reason
RECORD_ALLOWED = {
    "variant.py": "the dispatch: which variants a state plays",
    "variants.py": "the dispatch, asking the active variants",
    "coop.py": "Return of the Ancients, keeper of its record",
    "woods.py": "Wild Woods, keeper of its record",
    "game.py": "the Game object and its options",
    "setup.py": "Game Setup makes the records",
    "state.py": "the state holds the records, checks and saves them",
    "edition.py": "the edition's own Wild Woods data (``ed.woods``), not the record",
    "coop_render.py": "Return of the Ancients' drawing shows what its record holds",
    "woods_render.py": "Wild Woods' drawing shows what its record holds",
    "widgets.py": "a doctest shows which records a game holds",
    "arrange.py": "hand-made lesson positions fill in the records",
    "exercises/ancients_and_woods.py": "exercises about the variants ask about their records",
    "exercises/modes.py": "exercises on co-op and Wild Woods rules build and read their records",
}


def test_no_rule_module_reads_a_variant_record():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if str(path.relative_to(PACKAGE)) in RECORD_ALLOWED:
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if RECORD.search(code):
                found.append(f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}")
    assert not found, "variant records read outside the variants:\n" + "\n".join(found)


@pytest.mark.parametrize("name", ["scoring.py", "rules.py"])
def test_scoring_and_rules_never_mention_a_record(name):
    assert name not in RECORD_ALLOWED
    text = (PACKAGE / name).read_text()
    assert not re.search(r"\w\.(coop|woods)\b", text), name


def test_the_grep_finds_a_record():
    assert RECORD.search("if s.coop is not None:") and RECORD.search("    return s.woods.boards")
    assert RECORD.search("woods = state.woods") and RECORD.search("if woods is None:")
    assert not RECORD.search("from .coop import VARIANT") and not RECORD.search("coop_data(ed)")
    assert all((PACKAGE / name).exists() for name in RECORD_ALLOWED)


@pytest.mark.parametrize("options", [
    dict(players=2), dict(players=1, mode="coop"), dict(players=2, wild_woods=True),
    dict(players=2, mode="coop", wild_woods=True)])
def test_scores_and_winners_come_from_the_variants(options):
    s = pangaea.new_game(seed=6, **options)
    assert pangaea.GAME.scores(s) == variants.scores(s) == s.scores()
    assert s.winners() == variants.winners(s) == []
    coop = "mode" in options
    names = [c for c, _ in s.scores()[0].categories]
    assert (names[0] == "Okuma Marker step") == coop
    if not coop:
        assert s.scores() == scoring.scores(s)   # the Player Board counts only at the end


def test_the_state_holds_the_base_fields_and_one_record_per_variant():
    names = [f.name for f in dataclasses.fields(GameState)]
    assert len(names) == 29 + 2 and names[-2:] == ["coop", "woods"]
    assert "wild_woods" not in names and "mode" not in names and "family" in names


@pytest.mark.parametrize("options,coop,woods,names", [
    (dict(players=2), False, False, []),
    (dict(players=2, family=True), False, False, ["family rules"]),
    (dict(players=1, mode="coop"), True, False, ["Return of the Ancients"]),
    (dict(players=2, wild_woods=True), False, True, ["Wild Woods"]),
    (dict(players=2, mode="coop", wild_woods=True), True, True,
     ["Return of the Ancients", "Wild Woods"]),
])
def test_records_and_active_variants(options, coop, woods, names):
    s = pangaea.new_game(seed=4, **options)
    assert isinstance(s.coop, CoopRecord) if coop else s.coop is None
    assert isinstance(s.woods, WoodsRecord) if woods else s.woods is None
    assert [v.name for v in active(s)] == names
    again = GameState.from_json(s.to_json())
    assert again == s and again.to_json() == s.to_json()


def test_every_variant_declares_its_hooks_on_the_interface():
    hooks = {name for name in vars(Variant) if not name.startswith("_")}
    for v in VARIANTS:
        extra = {name for name in vars(type(v)) if not name.startswith("_")} - hooks
        assert not extra, f"{v.name} defines {sorted(extra)} outside the interface"
    kinds = [k for v in VARIANTS for k in v.decisions]
    assert len(kinds) == len(set(kinds))
    assert set(kinds) <= set(state_module.decision_kinds())


def test_edited_puts_each_field_in_its_record():
    s = pangaea.new_game(players=1, seed=3, mode="coop")
    t = s.edited(cycle=2, round=4)
    assert (t.coop.cycle, t.round, s.coop.cycle) == (2, 4, 1)
    with pytest.raises(ValueError):
        s.edited(treetops=())   # no Wild Woods in this game
    with pytest.raises(ValueError):
        s.edited(no_such_field=1)


def test_a_variants_hooks_take_the_place_of_the_groups_they_extend():
    """A variant names its groups of hooks in ``hooks``; each is put where the group it
    extends is held, the others stay the base's; a class extending no group is refused."""
    from pangaea_lab.pangaea import variant

    class Quiet(variant.Pieces):
        pass

    class Tried(variant.Variant):
        hooks = (Quiet,)

    assert type(Tried.pieces) is Quiet and type(Tried.listing) is variant.Listing
    with pytest.raises(TypeError, match="extend no group"):
        type("Wrong", (variant.Variant,), {"hooks": (object,)})
