"""Widgets: the shared step-through player set up for Forest Shuffle, and a forest builder
where a learner adds trees and cards and sees every species' points update.

Both have a plain-Python model (testable without a browser) and a thin ipywidgets view.

>>> m = ForestBuilderModel()
>>> m.add_tree("Oak"); m.add_card("Red Squirrel", "top", 0)
>>> m.points()["Red Squirrel"], m.total()
(5, 5)
"""

from __future__ import annotations

from dataclasses import replace
from html import escape
from typing import Any, Callable, Mapping

from ..core.errors import PangaeaLabError
from ..core.widget import step_through
from .cards import SAPLING, SIDES
from .edition import catalog
from .forest import Forest, Tree, parse_dweller
from .render import forest_svg
from ..core.links import board_from_page
from .game import GAME, LINK
from .setup import new_game
from .scoring import ForestScore, explain, score


def play(players: int = 2, seed: int | str = 0, computer: Mapping[int, Any] | None = None,
         link: object = True, **options: bool):
    """The step-through widget for a seeded game; by default the computer (greedy) plays
    every seat but the first.  The picture shows the clearing, the deck size, the winter
    cards, the current hand and every forest with each card's points.  A link to the page
    (``?seed=12&players=3``) sets the board in the Voilà app; see
    :func:`pangaea_lab.core.links.board_from_page`."""
    board = board_from_page(LINK, players, seed, options, link, check=new_game)
    players, seed, options = board.players, board.seed, dict(board.options)
    if computer is None:
        computer = {seat: "greedy" for seat in range(1, players)}
    return step_through(new_game, players=players, seed=seed,
                        player_range=(GAME.min_players, GAME.max_players), computer=computer,
                        link_board=board, **options)


def card_choices() -> list[str]:
    """Names a learner can pick for a slot: every species with each tree symbol its cards
    show (the Roe Deer counts symbols, so every card in the builder carries its own)."""
    out = []
    for sp in catalog().all_species():
        if not sp.is_tree:
            out += [f"{sp.name}/{sym}" for sym in sorted(sp.symbols())]
    return out


class ForestBuilderModel:
    """A forest being built by hand, with undo; rivals (other forests) can be given for the
    cards that compare forests (Linden, Great Spotted Woodpecker)."""

    def __init__(self, forest: Forest | None = None, rivals: tuple[Forest, ...] = ()) -> None:
        self.history: list[Forest] = [forest or Forest()]
        self.rivals = tuple(rivals)
        self.message = ""
        self._listeners: list[Callable[[], None]] = []

    @property
    def forest(self) -> Forest:
        return self.history[-1]

    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _push(self, forest: Forest) -> None:
        forest.check_copies()
        self.history.append(forest)
        self.message = ""
        self._tell()

    def _tell(self) -> None:
        for listener in self._listeners:
            listener()

    def add_tree(self, species: str) -> None:
        """Add a tree (or ``"Sapling"``) at the end of the forest."""
        if species.strip().lower() == "sapling":
            self._push(self.forest.plant(Tree(SAPLING)))
            return
        sp = catalog().species(species)
        if not sp.is_tree:
            raise PangaeaLabError(f"{sp.name} is not a tree; add it to a slot instead")
        self._push(self.forest.plant(Tree(sp.name)))

    def add_card(self, name: str, side: str, tree: int) -> None:
        """Add a card (``"Species"`` or ``"Species/Tree symbol"``) to a slot of a tree."""
        if side not in SIDES:
            raise PangaeaLabError(f"slot must be one of {', '.join(SIDES)}, not {side!r}")
        self._push(self.forest.place(tree, side, parse_dweller(name, side, f"{side} slot")))

    def set_cave(self, cards: int) -> None:
        self._push(replace(self.forest, cave=max(0, int(cards))))

    def undo(self) -> bool:
        if len(self.history) > 1:
            self.history.pop()
            self._tell()
            return True
        return False

    def reset(self) -> None:
        self.history = self.history[:1]
        self._tell()

    def result(self) -> ForestScore:
        return score([self.forest, *self.rivals])[0]

    def points(self) -> dict[str, int]:
        return self.result().by_species

    def total(self) -> int:
        return self.result().total

    def table(self) -> list[tuple[str, int, str]]:
        """(species, points, how it scores) for every species in the forest, then the cave."""
        rows = [(name, pts, explain(name)) for name, pts in self.points().items()]
        return rows + [("Cave", self.forest.cave, "1 per card under the cave")]

    def svg(self) -> str:
        return forest_svg(self.forest, self.rivals)

    def try_(self, call: Callable[[], None]) -> bool:
        """Run a change; a rejected one leaves the forest as it was and sets ``message``."""
        try:
            call()
            return True
        except PangaeaLabError as exc:
            self.message = str(exc)
            self._tell()
            return False


class ForestBuilderView:
    """ipywidgets controls around a :class:`ForestBuilderModel`."""

    def __init__(self, model: ForestBuilderModel) -> None:
        import ipywidgets as w  # widgets only when a view is built
        self.model = model
        trees = catalog().tree_species() + [SAPLING]
        self.tree_pick = w.Dropdown(options=trees, value=trees[0], description="Tree")
        self.add_tree_button = w.Button(description="Add tree")
        self.card_pick = w.Dropdown(options=card_choices(), description="Card")
        self.side_pick = w.Dropdown(options=list(SIDES), value="top", description="Slot")
        self.tree_index = w.BoundedIntText(value=1, min=1, max=99, description="Tree no.")
        self.add_card_button = w.Button(description="Add card")
        self.cave = w.BoundedIntText(value=model.forest.cave, min=0, max=200,
                                     description="Cave cards")
        self.undo_button = w.Button(description="Undo")
        self.picture = w.HTML()
        self.scores = w.HTML()
        self.message = w.HTML()
        self.add_tree_button.on_click(lambda _: model.try_(
            lambda: model.add_tree(self.tree_pick.value)))
        self.add_card_button.on_click(lambda _: model.try_(
            lambda: model.add_card(self.card_pick.value, self.side_pick.value,
                                   int(self.tree_index.value) - 1)))
        self.undo_button.on_click(lambda _: model.undo())
        self.cave.observe(lambda change: model.try_(lambda: model.set_cave(change["new"])),
                          names="value")
        self.root = w.VBox([
            w.HBox([self.tree_pick, self.add_tree_button]),
            w.HBox([self.card_pick, self.side_pick, self.tree_index, self.add_card_button]),
            w.HBox([self.cave, self.undo_button]),
            self.message, self.picture, self.scores])
        self.root.model = model  # type: ignore[attr-defined]
        self.root.view = self  # type: ignore[attr-defined]
        model.subscribe(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        m = self.model
        self.picture.value = m.svg()
        rows = "".join(f"<tr><td>{escape(n)}</td><td style='text-align:right'>{p}</td>"
                       f"<td>{escape(how)}</td></tr>" for n, p, how in m.table())
        self.scores.value = (f"<table><tr><th>Species</th><th>Points</th><th>How it scores</th>"
                             f"</tr>{rows}<tr><td><b>Total</b></td><td style='text-align:right'>"
                             f"<b>{m.total()}</b></td><td></td></tr></table>")
        self.message.value = (f"<span style='color:#a00'>{escape(m.message)}</span>"
                              if m.message else "")


def forest_builder(forest: Forest | dict | None = None, rivals: tuple = ()):
    """A forest builder widget (returns the root ``VBox``; ``.model`` is the model)."""
    if isinstance(forest, dict):
        forest = Forest.from_dict(forest)
    rival_forests = tuple(r if isinstance(r, Forest) else Forest.from_dict(r) for r in rivals)
    return ForestBuilderView(ForestBuilderModel(forest, rival_forests)).root
