"""The games of pangaea_lab, their notebooks, and a picker widget for the start page.

>>> [g.title for g in GAMES]
['The Dawn of Pangaea', 'Harmonies', 'Forest Shuffle', 'Inori']
>>> game("harmonies").players
(1, 4)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from html import escape
from typing import Any

from .core.errors import InvalidSetup
from .core.exercises import whole_number
from .core.links import (SEED_MAX, BoardLink, LinkSpec, board_from_page, normal_options,
                         page_query, parse_query, read_board)
from .exercises import kinds_for
from .games import FOREST_SHUFFLE, GAMES as GAME_OBJECTS, HARMONIES, INORI, PANGAEA

_unset = object()

#: what a link may set, game by game (each game binds its ``link``)
LINKS = {game.name: game.part("link") for game in GAME_OBJECTS}


@dataclass(frozen=True)
class Variant:
    """A way to play a game: its name, its seat range and the options for ``new_game``.
    Left out, the seat range is the game's for those options (see
    :meth:`~pangaea_lab.core.game.Game.players_for`), filled in by
    :meth:`GameInfo.ways_to_play`."""

    name: str
    players: tuple[int, int] = ()  # type: ignore[assignment]
    options: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """One game: its package, seat range, a line about it, its notebooks and its variants
    (the first is the standard game)."""

    key: str
    title: str
    players: tuple[int, int]
    blurb: str
    notebooks: tuple[str, ...]
    variants: tuple[Variant, ...] = ()
    #: who plays the other seats when you play against the computer (the game's best player)
    computer_player: str = "greedy"

    def ways_to_play(self) -> tuple[Variant, ...]:
        """The ways to play, each with its seats (asked of the game's ``GAME`` where the way
        leaves them out)."""
        if not self.variants:
            return (Variant("Standard game", self.players),)
        game = self.module.GAME
        return tuple(way if way.players else
                     replace(way, players=game.players_for(dict(way.options)))
                     for way in self.variants)

    @property
    def module(self) -> Any:
        return importlib.import_module(f"pangaea_lab.{self.key}")

    def against_computer(self, players: int) -> dict[int, str]:
        """The computer seats of a game against the computer: every seat but the first."""
        return {seat: self.computer_player for seat in range(1, players)}

    def play(self, players: int, seed: int | str = 0, computer: dict | None = None,
             variant: int = 0, link: object = False, **options: Any) -> Any:
        """The game's step-through widget, for one of its :meth:`ways_to_play`;
        ``computer`` maps seats to computer players (``None``: every seat but the first,
        see :meth:`against_computer`; ``{}``: every seat played by people).  ``options`` add
        to the variant's; ``link`` is passed on to the game's ``play`` (the start page gives
        the :class:`~.core.links.BoardLink` it read from its address)."""
        if computer is None:
            computer = self.against_computer(players)
        widgets = importlib.import_module(f"pangaea_lab.{self.key}.widgets")
        return widgets.play(players=players, seed=seed, computer=computer, link=link,
                            **{**dict(self.ways_to_play()[variant].options), **options})

    def variant_for(self, options: dict[str, Any]) -> int:
        """The way to play whose options agree with ``options`` best (0 if none does)."""
        best, score = 0, -1
        for k, v in enumerate(self.ways_to_play()):
            wanted = normal_options(link_spec(self.key), dict(v.options))
            if all(options.get(name, _unset) == value for name, value in wanted.items()) \
                    and len(wanted) > score:
                best, score = k, len(wanted)
        return best


def _ways(game: Any) -> tuple[Variant, ...]:
    """The ways to play a game declares (its ``ways`` part: a name and the options that make
    it, each), with their seats left to :meth:`GameInfo.ways_to_play`; none when it declares
    no ways (the standard game alone)."""
    if "ways" not in game.own_parts:
        return ()
    return tuple(Variant(name, options=tuple(options)) for name, options in game.part("ways"))


GAMES = (
    GameInfo(PANGAEA.name, PANGAEA.title, (PANGAEA.min_players, PANGAEA.max_players),
             "Plant Seeds, let Spirits grow forests, and perform Rituals to climb the Sacred "
             "Mountain, with the Ancient Guardians (or the family rules), the solo/co-op "
             "Return of the Ancients and the Wild Woods expansion.",
             ("pangaea/01_setup.ipynb", "pangaea/02_turns.ipynb",
              "pangaea/03_land_rituals.ipynb", "pangaea/04_scoring.ipynb",
              "pangaea/05_ancients.ipynb", "pangaea/06_chains_and_favor.ipynb",
              "pangaea/07_return_of_the_ancients.ipynb", "pangaea/08_wild_woods.ipynb",
              "pangaea/09_graphs_behind_the_board.ipynb", "pangaea/10_statistics.ipynb",
              "pangaea/11_review.ipynb"),
             _ways(PANGAEA), computer_player="forester"),
    GameInfo(HARMONIES.name, HARMONIES.title, (HARMONIES.min_players, HARMONIES.max_players),
             "Stack coloured tokens into landscapes and give animals the habitats they need "
             "(with Nature's Spirits and solo).",
             ("harmonies/01_setup_and_turns.ipynb", "harmonies/02_landscapes.ipynb",
              "harmonies/03_habitats.ipynb", "harmonies/04_spirits_and_solo.ipynb",
              "harmonies/05_full_game.ipynb", "harmonies/06_statistics.ipynb",
              "harmonies/07_review.ipynb")),
    GameInfo(FOREST_SHUFFLE.name, FOREST_SHUFFLE.title,
             (FOREST_SHUFFLE.min_players, FOREST_SHUFFLE.max_players),
             "Play trees and the animals, plants and mushrooms that live around them; every "
             "species scores its own way.",
             ("forest_shuffle/01_setup_and_turns.ipynb",
              "forest_shuffle/02_effects_and_bonuses.ipynb",
              "forest_shuffle/03_scoring_every_species.ipynb", "forest_shuffle/04_full_game.ipynb",
              "forest_shuffle/05_statistics.ipynb", "forest_shuffle/06_review.ipynb")),
    GameInfo(INORI.name, INORI.title, (INORI.min_players, INORI.max_players),
             "Make offerings to spirit cards and the Great Tree over four seasons and win the "
             "altar majorities.",
             ("inori/01_setup_and_turns.ipynb", "inori/02_great_tree_and_runes.ipynb",
              "inori/03_seasons_and_majorities.ipynb", "inori/04_full_game.ipynb",
              "inori/05_statistics.ipynb", "inori/06_review.ipynb")),
)


def link_spec(key: str) -> LinkSpec:
    """What a link (``?seed=12&players=3&...``) may set for a game: its seats and the options
    of its ``new_game``, declared next to the game's ``Game`` object.

    >>> link_spec("harmonies").names
    ('seed', 'players', 'side', 'spirits', 'river_rule', 'tiebreak_counts_spirit')
    """
    game(key)   # an unknown game is refused with the list of games
    return LINKS[key]


def page_board(key: str, players: int, seed: int | str, options: dict[str, Any],
               link: object = True, check: Any = None) -> BoardLink:
    """The board a game's ``play(...)`` starts (see :func:`.core.links.board_from_page`):
    the call's values, or the ones the page's link sets."""
    return board_from_page(link_spec(key), players, seed, options, link, check=check)


def game(key: str) -> GameInfo:
    """The :class:`GameInfo` for a package name such as ``"inori"``."""
    for g in GAMES:
        if g.key == key:
            return g
    raise KeyError(f"no game {key!r}; the games are {[g.key for g in GAMES]}")


def _page_name(notebook: str) -> str:
    """"harmonies/02_landscapes.ipynb" -> "Landscapes"."""
    stem = notebook.rsplit("/", 1)[-1].removesuffix(".ipynb")
    words = stem.split("_", 1)[-1].replace("_", " ")
    return words[:1].upper() + words[1:]


def exercise_pages() -> Any:
    """The pages with exercises, game by game, each with a link and the exercises it asks
    (read from the exercise registry, so the list is always current)."""
    from IPython.display import HTML  # only for showing the list in a notebook

    parts = []
    for g in GAMES:
        items = []
        for notebook in g.notebooks:
            if notebook.endswith(("full_game.ipynb", "statistics.ipynb")):
                continue
            titles = [kind.title for kind in kinds_for(notebook)]
            line = f'<a href="{escape(notebook, quote=True)}">{escape(_page_name(notebook))}</a>'
            if titles:
                line += ": " + " · ".join(escape(t) for t in titles)
            elif notebook.endswith("review.ipynb"):
                line += (": every exercise of this game mixed, what you have not mastered "
                         "first")
            items.append(f"<li>{line}</li>")
        parts.append(f"<p><b>{escape(g.title)}</b></p><ul>{''.join(items)}</ul>")
    return HTML('<div class="pl-exercise-pages">' + "".join(parts) + "</div>")


def game_picker(seed: int = 2024, link: object = True) -> Any:
    """A small launcher: choose a game, a way to play it, the number of players and a seed,
    press Start; the game's step-through widget appears below.  The first seat is yours; the
    others are the computer's unless "Other seats" says they are played by people too.

    A link to the page that names a game (``?game=harmonies&seed=12&players=3&side=B``)
    fills in the choices and starts that board at once (``link=True`` reads the page's
    address in the Voilà app; a query text can be given instead, e.g. in JupyterLab)."""
    import ipywidgets as w  # widgets only when the launcher is shown

    p = _Picker(w, seed)
    box = w.VBox([w.HBox([p.pick, p.way, p.seats, p.others, p.seed_box, p.start],
                         layout=w.Layout(flex_flow="row wrap")), p.about, p.message,
                  p.seed_problem, p.area])
    box.add_class("pl-game-picker")
    box.pick, box.way, box.seats, box.seed_box, box.start, box.area = (  # type: ignore[attr-defined]
        p.pick, p.way, p.seats, p.seed_box, p.start, p.area)
    box.others, box.message, box.seed_problem = (  # type: ignore[attr-defined]
        p.others, p.message, p.seed_problem)
    p.follow(page_query() if link is True else (link if isinstance(link, str) else None), seed)
    return box


class _Picker:
    """The launcher's controls and what each one does (:func:`game_picker` lays them out):
    the game, its way to play (which sets the seat range), the seats, the seed, who plays
    the other seats, and Start."""

    def __init__(self, w: Any, seed: int) -> None:
        self.pick = w.Dropdown(description="Game", options=[(g.title, g.key) for g in GAMES])
        self.way = w.Dropdown(description="Variant")
        self.seats = w.BoundedIntText(description="Players", value=2, min=1, max=5)
        # a text box: what is not a whole number is refused with a sentence (a number box would
        # read "2.5" as 25)
        self.seed_box = w.Text(description="Seed", value=str(seed),
                               layout=w.Layout(width="200px"))
        self.others = w.Dropdown(description="Other seats", value="computer",
                                 options=[("the computer", "computer"),
                                          ("people here", "human")],
                                 style={"description_width": "initial"})
        self.start = w.Button(description="Start", button_style="success")
        self.about = w.HTML()
        self.message = w.HTML()
        self.message.add_class("pl-picker-message")
        self.seed_problem = w.HTML()
        self.seed_problem.add_class("pl-picker-message")
        self.area = w.VBox()
        self.linked: dict[str, Any] = {}     # the board the link asked for, while it is chosen
        self.pick.observe(self.on_pick, names="value")
        self.way.observe(self.on_way, names="value")
        self.start.on_click(self.on_start)
        self.on_pick()

    def on_way(self, _: Any = None) -> None:
        """The seat range and the line about the game follow the way to play."""
        g = game(self.pick.value)
        low, high = g.ways_to_play()[self.way.value or 0].players
        seats = self.seats
        seats.max = max(seats.max, high)   # widen first: min may never pass max
        seats.min, seats.max = low, high
        seats.value = min(max(seats.value, low), high)
        self.about.value = f"<i>{g.blurb}</i> ({low}–{high} players)"

    def on_pick(self, _: Any = None) -> None:
        """The ways to play follow the game (the choice hidden when there is only one)."""
        g = game(self.pick.value)
        self.way.options = [(v.name, k) for k, v in enumerate(g.ways_to_play())]
        self.way.value = 0
        self.way.layout.display = None if len(g.ways_to_play()) > 1 else "none"
        self.on_way()

    def chosen_board(self) -> BoardLink:
        """The board chosen: the way to play's options, and the link's other options while
        the link's game and way to play are still chosen."""
        g = game(self.pick.value)
        options = dict(g.ways_to_play()[self.way.value or 0].options)
        board = self.linked.get("board")
        if board is not None and board.spec.game == g.key and \
                g.variant_for(dict(board.options)) == (self.way.value or 0):
            options = {**dict(board.options), **options}   # the link's other options
        return BoardLink(link_spec(g.key), self.seats.value, self.chosen_seed(),
                         tuple(normal_options(link_spec(g.key), options).items()),
                         with_game=True)

    def chosen_seed(self) -> int:
        """The seed typed, as a whole number (a sentence as :class:`InvalidSetup` if not)."""
        number, problem = whole_number(self.seed_box.value, "The seed", 0, SEED_MAX)
        if number is None:
            raise InvalidSetup(problem)
        return number

    def on_start(self, _: Any) -> None:
        """The chosen game shown below, or a sentence about a seed that is refused."""
        g = game(self.pick.value)
        try:
            self.chosen_seed()
        except InvalidSetup as exc:       # the game shown (if any) stays
            self.seed_problem.value = f"<div>&#9888; {escape(str(exc))}</div>"
            return
        self.seed_problem.value = ""
        computer = g.against_computer(self.seats.value) if self.others.value == "computer" else {}
        board = self.chosen_board()
        problems = self.linked.pop("problems", ())
        if problems:
            board = replace(board, problems=tuple(problems))
        self.area.children = (g.play(players=self.seats.value, seed=board.seed,
                                     computer=computer, link=board, **dict(board.options)),)

    def follow(self, query: str | None, seed: int) -> None:
        """A link's query that names a game fills in the choices and starts its board; one
        that names no game of this page is refused with a sentence."""
        found, problems = parse_query(query)
        key = found.get("game", "").strip().lower()
        if found and key not in [g.key for g in GAMES]:
            named = "does not name a game" if not key else "names no game of this page"
            problems.append(f"The link {named} (game= followed by "
                            f"{', '.join(g.key for g in GAMES[:-1])} or {GAMES[-1].key}): its "
                            "settings are not used.")
            self.message.value = "".join(f"<div>&#9888; {escape(p)}</div>" for p in problems)
        elif found:
            g = game(key)
            board = read_board(link_spec(key), query, players=self.seats.value, seed=seed,
                               check=g.module.new_game, with_game=True)
            self.pick.value = key
            self.way.value = g.variant_for(dict(board.options))
            self.seats.value = board.players
            self.seed_box.value = str(board.seed if isinstance(board.seed, int) else seed)
            self.linked["board"] = board
            self.linked["problems"] = board.problems
            self.on_start(None)
