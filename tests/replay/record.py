"""Record the final scores of fixed seeded games, to check later that a refactor or speed
work replays every game exactly.

    python tests/replay/record.py        # rewrites tests/replay/recorded.json

Run it only when a rules change is meant to change games (and say so in the commit); engine
reshaping and speed work must leave the file as it is.  ``test_replay_recorded.py`` replays
every game listed here and compares.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pangaea_lab import forest_shuffle, harmonies, inori, pangaea  # noqa: E402
from pangaea_lab.core.players import GreedyPlayer, RandomPlayer, play_game  # noqa: E402

OUT = Path(__file__).with_name("recorded.json")

#: (name, module, options, player counts, seeds, bot)
CASES = [
    ("pangaea", pangaea, {}, (2, 4), (0, 1, 2), "random"),
    ("pangaea", pangaea, {}, (3,), (5,), "greedy"),
    ("pangaea", pangaea, {"family": True}, (2, 3), (0, 1), "random"),
    ("pangaea", pangaea, {"mode": "coop"}, (1, 2, 4), (0, 1), "random"),
    ("pangaea", pangaea, {"wild_woods": True}, (2, 4), (0, 1), "random"),
    ("pangaea", pangaea, {"mode": "coop", "wild_woods": True}, (2, 3), (0, 90), "random"),
    ("harmonies", harmonies, {}, (1, 2, 4), (0, 1, 2), "random"),
    ("harmonies", harmonies, {"side": "B", "spirits": False}, (1, 3), (0, 1), "random"),
    ("harmonies", harmonies, {}, (2,), (3,), "greedy"),
    ("forest_shuffle", forest_shuffle, {}, (2, 4, 5), (0, 1, 2), "random"),
    ("forest_shuffle", forest_shuffle, {}, (3,), (4,), "greedy"),
    ("inori", inori, {}, (2, 3, 4), (0, 1, 2), "random"),
    ("inori", inori, {}, (2,), (6,), "greedy"),
]


def play(module, options: dict, players: int, seed: int, bot: str) -> dict:
    state = module.new_game(players=players, seed=seed, **options)
    cls = RandomPlayer if bot == "random" else GreedyPlayer
    steps = [0]

    def count(before, action, after):
        steps[0] += 1

    end = play_game(state, [cls(f"{seed}:{p}") for p in range(players)], on_step=count)
    return {"steps": steps[0],
            "scores": [[list(c) for c in s.categories] for s in end.scores()],
            "winners": end.winners()}


def games():
    for name, module, options, counts, seeds, bot in CASES:
        for players in counts:
            for seed in seeds:
                yield name, module, options, players, seed, bot


def record() -> list[dict]:
    out = []
    for name, module, options, players, seed, bot in games():
        out.append({"game": name, "options": options, "players": players, "seed": seed,
                    "bot": bot, **play(module, options, players, seed, bot)})
    return out


if __name__ == "__main__":
    OUT.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {OUT}")
