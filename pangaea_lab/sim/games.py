"""What the simulation lab reads from each game: its options, its computer players, how a turn
is recognised, the columns of a game's row and the rows of its event table.

Everything is read from states and actions through the common protocol and the games' public
state fields; the rules engines know nothing about the lab.  One :class:`GameReader` per game:

>>> reader("harmonies").title, sorted(reader("pangaea").bots)
('Harmonies', ['forester', 'greedy', 'random'])
"""

from __future__ import annotations

import functools
import importlib
import re
from typing import Any, Callable

from ..core.errors import PangaeaLabError
from ..core.players import GreedyPlayer, Player, RandomPlayer
from ..core.protocol import Action, GameState
from ..core.game import Game
from ..games import FOREST_SHUFFLE, GAMES, HARMONIES, INORI, PANGAEA
from ..pangaea.game import MODES as PANGAEA_MODES


#: an end reason that names the labelled assumption which ended the game
_ASSUMPTION = re.compile(r"assumption '([a-z0-9-]+)'")
#: the modes of The Dawn of Pangaea played as one team (Return of the Ancients)
PANGAEA_COOP_MODES = tuple(m for m in PANGAEA_MODES if m)


class SimulationError(PangaeaLabError):
    """Arguments or a results file that cannot make (or continue) a simulation run."""


@functools.lru_cache(maxsize=4096)
def slug(name: str) -> str:
    """A category name as a column name: ``"Water (river)"`` -> ``"water_river"`` (kept:
    every game's row asks for the same few names)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


class GameReader:
    """The lab's view of one game; subclasses fill in the game's own details (and name the
    game they read, ``GAME``)."""

    GAME: Game | None = None
    key = ""
    title = ""
    players = (2, 4)
    #: option name -> default (the values ``new_game`` takes as keywords)
    options: dict[str, Any] = {}
    #: extra computer players of the game: short name -> "module:Class"
    game_bots: dict[str, str] = {}

    @property
    def module(self) -> Any:
        return importlib.import_module(f"pangaea_lab.{self.key}")

    @property
    def bots(self) -> dict[str, type[Player]]:
        """Every computer player by its short name (``random``, ``greedy`` and the game's)."""
        out: dict[str, type[Player]] = {"random": RandomPlayer, "greedy": GreedyPlayer}
        for name, where in self.game_bots.items():
            mod, cls = where.split(":")
            out[name] = getattr(importlib.import_module(mod), cls)
        return out

    def new_game(self, players: int, seed: int, options: dict[str, Any]) -> GameState:
        return self.module.new_game(players=players, seed=seed, **options)

    def turn_marker(self, state: GameState) -> Any:
        """A value that changes exactly when a new turn begins (turns are counted with it)."""
        return state.current_player

    #: ``count_turns(first, final)``: the number of turns from the first and final states,
    #: for a game that keeps count (``None``: turns are counted with :meth:`turn_marker`)
    count_turns: Callable[[GameState, GameState], int] | None = None

    #: ``on_step(before, action, after, events)`` appends event rows, or ``None`` for no hook
    on_step: Callable[[GameState, Action, GameState, list], None] | None = None

    def extra_columns(self, final: GameState) -> dict[str, Any]:
        """Game-wide columns besides seed, turns, steps and winners."""
        return {}

    def ended_by(self, final: GameState) -> str:
        """How the game ended: ``"rules"`` when by the game's own rules, else the label of
        the modelling assumption that stopped it (a safety net such as ``"round-limit"``)."""
        return "rules"

    def cooperative(self, options: dict[str, Any]) -> bool:
        """Whether these options make the players one team that wins or loses together."""
        return False

    def seat_columns(self, final: GameState, seat: int) -> dict[str, int]:
        """A seat's score categories (column name -> points), the total excluded."""
        return {slug(name): int(points) for name, points in final.scores()[seat].categories}

    def final_events(self, final: GameState) -> list[dict[str, Any]]:
        """Event rows read from the final state (after any collected during play)."""
        return []


class PangaeaReader(GameReader):
    GAME = PANGAEA
    key, title = PANGAEA.name, PANGAEA.title
    players = (PANGAEA.min_players, PANGAEA.max_players)
    options = PANGAEA.defaults()
    game_bots = {"forester": "pangaea_lab.pangaea.players:ForesterPlayer"}

    def turn_marker(self, state: Any) -> Any:
        return state.round, state.turn_player

    @staticmethod
    def _rituals(before: Any, action: Action, after: Any, events: list) -> None:
        """Each Ritual Card played: the card, its path (Land Rituals), the points it brought."""
        name = type(action).__name__
        if name not in ("PlayLand", "PlayCreature"):
            return
        seat = before.current_player
        card = before.edition.card(action.card)   # type: ignore[attr-defined]
        land = name == "PlayLand"
        events.append({
            "seat": seat, "round": before.round,
            "kind": "Land Ritual" if land else "Creature Ritual",
            "card": card.id,
            "label": "/".join(card.biomes) if land else card.name,
            "path_length": len(action.path) if land else 0,   # type: ignore[attr-defined]
            "from_market": bool(action.from_market),            # type: ignore[attr-defined]
            "points": after.players[seat].points - before.players[seat].points,
        })

    on_step = _rituals

    def extra_columns(self, final: Any) -> dict[str, Any]:
        return {"rounds": final.round, "end": final.end_reason}

    def ended_by(self, final: Any) -> str:
        """``"round-limit"`` (or another assumption's label) when a labelled assumption ended
        the game, as its end reason says; ``"rules"`` otherwise."""
        found = _ASSUMPTION.search(final.end_reason or "")
        return found.group(1) if found else "rules"

    def cooperative(self, options: dict[str, Any]) -> bool:
        return options.get("mode", "") in PANGAEA_COOP_MODES


class HarmoniesReader(GameReader):
    GAME = HARMONIES
    key, title = HARMONIES.name, HARMONIES.title

    @property
    def players(self) -> tuple[int, int]:  # type: ignore[override]
        return self.module.GAME.min_players, self.module.GAME.max_players

    @property
    def options(self) -> dict[str, Any]:  # type: ignore[override]
        return self.module.GAME.defaults()   # the game's own options and their defaults

    def turn_marker(self, state: Any) -> Any:
        return sum(area.turns for area in state.areas)

    @staticmethod
    def _turns(first: Any, final: Any) -> int:
        """Each area counts the turns its player ended: the game's turns are their sum."""
        return sum(a.turns for a in final.areas) - sum(a.turns for a in first.areas)

    count_turns = _turns

    def extra_columns(self, final: Any) -> dict[str, Any]:
        return {"end": final.end_reason}

    def seat_columns(self, final: Any, seat: int) -> dict[str, int]:
        out = super().seat_columns(final, seat)
        out["cubes_placed"] = final.cubes_placed(seat)
        return out

    def final_events(self, final: Any) -> list[dict[str, Any]]:
        """Every animal card (and kept spirit) a player took: cubes placed, points earned."""
        rows = []
        for seat in range(final.num_players):
            for card, cubes, points in final.card_scores(seat):
                rows.append({"seat": seat, "kind": "Spirit" if card.is_spirit else "Animal card",
                             "card": card.id, "label": card.name, "cubes": cubes,
                             "cubes_needed": len(card.points),
                             "completed": cubes >= len(card.points), "points": points})
        return rows


class ForestShuffleReader(GameReader):
    GAME = FOREST_SHUFFLE
    key, title = FOREST_SHUFFLE.name, FOREST_SHUFFLE.title

    @property
    def players(self) -> tuple[int, int]:  # type: ignore[override]
        """The seat range the game declares."""
        return self.module.GAME.min_players, self.module.GAME.max_players

    @property
    def options(self) -> dict[str, Any]:  # type: ignore[override]
        """The game's own options with their defaults, as its Game object declares them."""
        return self.module.GAME.defaults()

    def turn_marker(self, state: Any) -> Any:
        return state.turn

    def seat_columns(self, final: Any, seat: int) -> dict[str, int]:
        score = final.scores()[seat]
        return {"species": sum(score.by_species.values()), "cave": score.cave,
                "tree_cards": len(final.forests[seat].trees)}

    def final_events(self, final: Any) -> list[dict[str, Any]]:
        """Each species in each forest and the points it scored."""
        return [{"seat": seat, "kind": "Species", "label": species, "points": points}
                for seat, score in enumerate(final.scores())
                for species, points in score.by_species.items()]


class InoriReader(GameReader):
    GAME = INORI
    key, title = INORI.name, INORI.title
    players = (INORI.min_players, INORI.max_players)
    options = INORI.defaults()

    def turn_marker(self, state: Any) -> Any:
        return state.season, state.turn

    def extra_columns(self, final: Any) -> dict[str, Any]:
        return {"seasons": final.season}

    def final_events(self, final: Any) -> list[dict[str, Any]]:
        """Each card scored at the end of a season and the points each player took from it."""
        rows = []
        for report in final.reports:
            for card in report.get("cards", ()):
                for seat, points in sorted(card.get("points", {}).items()):
                    rows.append({"seat": int(seat), "season": report.get("season", 0),
                                 "kind": "Season card", "card": card.get("card", ""),
                                 "label": card.get("name", ""), "points": int(points)})
        return rows


#: every game's reader, in the order of :data:`pangaea_lab.games.GAMES` (each reader class
#: names the game it reads)
READERS: dict[str, GameReader] = {
    game.name: next(cls for cls in GameReader.__subclasses__() if cls.GAME is game)()
    for game in GAMES}


def reader(game: str) -> GameReader:
    """The reader of a game by its package name, or a plain-words error listing the games."""
    if not isinstance(game, str) or game not in READERS:
        raise SimulationError(f"there is no game called {game!r}; the games are "
                              f"{', '.join(READERS)}")
    return READERS[game]
