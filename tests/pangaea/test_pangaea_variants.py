"""Variants as objects: the family rules, Return of the Ancients and Wild Woods change the game
through the hooks of one interface (:class:`pangaea_lab.pangaea.variant.Variant`), each with its
own record on the state, never through mode flags tested across the rules."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from pangaea_lab import pangaea
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
