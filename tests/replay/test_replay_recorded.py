"""Seeded games replay exactly: the final scores, winners and number of steps of fixed games
are compared with the values recorded before the engine was reshaped (``recorded.json``)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from . import record

RECORDED = json.loads(Path(record.__file__).with_name("recorded.json").read_text())


def test_every_case_is_recorded():
    assert len(RECORDED) == len(list(record.games()))


@pytest.mark.parametrize("case", RECORDED, ids=lambda c: (
    f"{c['game']}-{'-'.join(f'{k}={v}' for k, v in c['options'].items()) or 'base'}"
    f"-{c['players']}p-seed{c['seed']}-{c['bot']}"))
def test_game_replays_as_recorded(case):
    module = importlib.import_module(f"pangaea_lab.{case['game']}")
    got = record.play(module, case["options"], case["players"], case["seed"], case["bot"])
    assert got == {k: case[k] for k in ("steps", "scores", "winners")}
