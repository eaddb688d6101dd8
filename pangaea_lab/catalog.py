"""The games of pangaea_lab, their notebooks, and a picker widget for the start page.

>>> [g.title for g in GAMES]
['The Dawn of Pangaea', 'Harmonies', 'Forest Shuffle', 'Inori']
>>> game("harmonies").players
(1, 4)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameInfo:
    """One game: its package, seat range, a line about it, and its notebooks."""

    key: str
    title: str
    players: tuple[int, int]
    blurb: str
    notebooks: tuple[str, ...]

    @property
    def module(self) -> Any:
        return importlib.import_module(f"pangaea_lab.{self.key}")

    def play(self, players: int, seed: int | str = 0, computer: dict | None = None) -> Any:
        """The game's step-through widget."""
        widgets = importlib.import_module(f"pangaea_lab.{self.key}.widgets")
        return widgets.play(players=players, seed=seed, computer=computer)


GAMES = (
    GameInfo("pangaea", "The Dawn of Pangaea", (2, 4),
             "Plant Seeds, let Spirits grow forests, and perform Rituals to climb the Sacred "
             "Mountain, with the Ancient Guardians (or the family rules), the solo/co-op "
             "Return of the Ancients and the Wild Woods expansion.",
             ("pangaea/01_setup.ipynb", "pangaea/02_turns.ipynb",
              "pangaea/03_land_rituals.ipynb", "pangaea/04_scoring.ipynb",
              "pangaea/05_ancients.ipynb", "pangaea/06_chains_and_favor.ipynb",
              "pangaea/07_return_of_the_ancients.ipynb", "pangaea/08_wild_woods.ipynb")),
    GameInfo("harmonies", "Harmonies", (1, 4),
             "Stack coloured tokens into landscapes and give animals the habitats they need "
             "(with Nature's Spirits and solo).",
             ("harmonies/01_setup_and_turns.ipynb", "harmonies/02_landscapes.ipynb",
              "harmonies/03_habitats.ipynb", "harmonies/04_spirits_and_solo.ipynb",
              "harmonies/05_full_game.ipynb")),
    GameInfo("forest_shuffle", "Forest Shuffle", (2, 5),
             "Play trees and the animals, plants and mushrooms that live around them; every "
             "species scores its own way.",
             ("forest_shuffle/01_setup_and_turns.ipynb",
              "forest_shuffle/02_effects_and_bonuses.ipynb",
              "forest_shuffle/03_scoring_every_species.ipynb", "forest_shuffle/04_full_game.ipynb")),
    GameInfo("inori", "Inori", (2, 4),
             "Make offerings to spirit cards and the Great Tree over four seasons and win the "
             "altar majorities.",
             ("inori/01_setup_and_turns.ipynb", "inori/02_great_tree_and_runes.ipynb",
              "inori/03_seasons_and_majorities.ipynb", "inori/04_full_game.ipynb")),
)


def game(key: str) -> GameInfo:
    """The :class:`GameInfo` for a package name such as ``"inori"``."""
    for g in GAMES:
        if g.key == key:
            return g
    raise KeyError(f"no game {key!r}; the games are {[g.key for g in GAMES]}")


def game_picker(seed: int = 2024) -> Any:
    """A small launcher: choose a game, the number of players and a seed, press Start; the
    game's step-through widget appears below (the first seat is yours, the others the
    computer's)."""
    import ipywidgets as w

    pick = w.Dropdown(description="Game", options=[(g.title, g.key) for g in GAMES])
    seats = w.BoundedIntText(description="Players", value=2, min=1, max=5)
    seed_box = w.IntText(description="Seed", value=seed)
    start = w.Button(description="Start", button_style="success")
    about = w.HTML()
    area = w.VBox()

    def on_pick(_: Any = None) -> None:
        g = game(pick.value)
        seats.min, seats.max = g.players
        seats.value = min(max(seats.value, g.players[0]), g.players[1])
        about.value = f"<i>{g.blurb}</i> ({g.players[0]}–{g.players[1]} players)"

    def on_start(_: Any) -> None:
        g = game(pick.value)
        area.children = (g.play(players=seats.value, seed=seed_box.value),)

    pick.observe(on_pick, names="value")
    start.on_click(on_start)
    on_pick()
    box = w.VBox([w.HBox([pick, seats, seed_box, start]), about, area])
    box.pick, box.seats, box.seed_box, box.start, box.area = pick, seats, seed_box, start, area  # type: ignore[attr-defined]
    return box
