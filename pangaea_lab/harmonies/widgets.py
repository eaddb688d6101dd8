"""Notebook widgets: play a game step by step, and edit a board to explore scoring.

* :func:`play` opens the shared step-through widget on Harmonies (1 to 4 seats, computer
  players on any seat; in solo the player line shows the result in suns).
* :func:`board_editor` lets a learner click a space, choose a stack, and watch the landscape
  score and the habitats of chosen cards update.  Its logic lives in
  :class:`BoardEditorModel`, which works without ipywidgets (and is what the tests drive).
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable, Mapping

from ..core.errors import IllegalAction
from ..core.widget import step_through
from .board import COLUMN_HEIGHTS, Cell, check_cell, check_side, describe_stack, \
    legal_stacks
from .cards import all_cards, card
from .habitats import habitat_cells
from .render import board_svg
from ..core.links import board_from_page
from .game import GAME, LINK
from .scoring import BoardScore, check_river_rule, score_board
from .setup import new_game

#: stacks offered by the editor, simplest first; ``()`` clears a space
STACK_CHOICES: tuple[tuple[str, ...], ...] = ((),) + tuple(
    sorted(legal_stacks(), key=lambda s: (len(s), s)))


def play(players: int = 2, seed: int | str = 0, computer: Mapping[int, Any] | None = None,
         link: object = True, **options: Any):
    """The step-through widget on Harmonies; ``options`` go to :func:`new_game` (``side``,
    ``spirits``, ``river_rule``).  Use ``players=1`` for solo.

    You play the first seat; by default the greedy computer player takes every other seat
    (``computer={}`` seats humans everywhere, ``computer={1: "random"}`` chooses).  A link to
    the page (``?seed=12&players=3&side=B``) sets the board in the Voilà app; see
    :func:`pangaea_lab.core.links.board_from_page`."""
    board = board_from_page(LINK, players, seed, options, link, check=new_game)
    players, seed, options = board.players, board.seed, dict(board.options)
    if computer is None:
        computer = {seat: "greedy" for seat in range(1, players)} \
            if isinstance(players, int) and not isinstance(players, bool) else {}
    return step_through(new_game, players=players, seed=seed,
                        player_range=(GAME.min_players, GAME.max_players),
                        computer=computer, link_board=board, **options)


class BoardEditorModel:
    """A board being built by hand: stacks per cell, the selected cell, chosen cards."""

    def __init__(self, side: str = "A", stacks: Mapping[Cell, Iterable[str]] | None = None,
                 cards: Iterable[int | str] = (), river_rule: str = "rings") -> None:
        self.side = check_side(side)
        self.river_rule = check_river_rule(river_rule)
        self.stacks: dict[Cell, tuple[str, ...]] = {}
        for cell, stack in (stacks or {}).items():
            self.set_stack(stack, cell)
        self.cards = [card(c).id for c in cards]
        self.selected: Cell | None = None
        self.message = ""

    def select(self, cell: Cell) -> None:
        self.selected = check_cell(self.side, cell)

    def stack_at(self, cell: Cell) -> tuple[str, ...]:
        return self.stacks.get(tuple(cell), ())

    def set_stack(self, stack: Iterable[str], cell: Cell | None = None) -> None:
        """Put ``stack`` (colours bottom to top) on ``cell`` (default: the selected cell).
        A stack the chart forbids is refused with the reason in :attr:`message`."""
        target = self.selected if cell is None else check_cell(self.side, cell)
        if target is None:
            self.message = "Click a space first."
            return
        stack = tuple(stack)
        try:
            score_board(self.side, {target: list(stack)})  # validates colours and chart
        except IllegalAction as exc:
            self.message = str(exc)
            return
        if stack:
            self.stacks[target] = stack
        else:
            self.stacks.pop(target, None)
        self.message = f"{target}: {describe_stack(stack)}"

    def set_cards(self, cards: Iterable[int | str]) -> None:
        self.cards = [card(c).id for c in cards]

    def score(self) -> BoardScore:
        return score_board(self.side, self.stacks, self.river_rule)

    def habitats(self) -> dict[str, list[Cell]]:
        """For each chosen card: the cells where its cube fits now."""
        return {card(c).name: habitat_cells(c, self.side, self.stacks) for c in self.cards}

    def svg(self) -> str:
        marked = {c for cs in self.habitats().values() for c in cs}
        if self.selected is not None:
            marked.add(self.selected)
        return board_svg(self.side, self.stacks, highlight=sorted(marked)).render()

    def summary_html(self) -> str:
        s = self.score()
        rows = "".join(f"<tr><td>{escape(n)}</td><td style='text-align:right'>{p}</td></tr>"
                       for n, p in s.rows())
        rows += f"<tr><td><b>Total</b></td><td style='text-align:right'><b>{s.total}</b></td></tr>"
        fits = "".join(f"<li>{escape(name)}: {', '.join(map(str, where)) or 'nowhere yet'}</li>"
                       for name, where in self.habitats().items())
        return (f"<table>{rows}</table>"
                + (f"<div>Habitats (outlined on the board):<ul>{fits}</ul></div>" if fits else ""))


SHORT = {"blue": "W", "gray": "M", "brown": "t", "green": "T", "yellow": "F", "red": "B"}


def _stack_label(stack: tuple[str, ...]) -> str:
    return describe_stack(stack) if stack else "empty (clear the space)"


class BoardEditorView:
    """ipywidgets around a :class:`BoardEditorModel`: a button per space laid out like the
    board, a stack picker, a card picker, the drawn board and the scores."""

    def __init__(self, model: BoardEditorModel) -> None:
        import ipywidgets as w  # widgets only when a view is built
        self.model = model
        self._quiet = False
        self.cell_buttons: dict[Cell, Any] = {}
        columns = []
        for col, height in enumerate(COLUMN_HEIGHTS[model.side]):
            buttons = []
            for row in range(height):
                b = w.Button(description=f"{col},{row}", layout=w.Layout(width="64px"))
                b.on_click(lambda _b, c=(col, row): self._on_cell(c))
                self.cell_buttons[(col, row)] = b
                buttons.append(b)
            pad = w.Layout(margin="16px 0 0 0" if col % 2 else "0")
            columns.append(w.VBox(buttons, layout=pad))
        self.stack_picker = w.Dropdown(description="Stack",
                                       options=[(_stack_label(s), s) for s in STACK_CHOICES],
                                       value=())
        names = [(f"{c.name} (#{c.id})", c.id) for c in all_cards().values()]
        self.card_picker = w.SelectMultiple(description="Cards", options=names, rows=6,
                                            value=tuple(model.cards))
        self.board = w.HTML()
        self.scores = w.HTML()
        self.message = w.HTML()
        self.stack_picker.observe(self._on_stack, names="value")
        self.card_picker.observe(self._on_cards, names="value")
        controls = w.VBox([w.HBox(columns), self.stack_picker, self.card_picker, self.message])
        self.root = w.HBox([controls, w.VBox([self.board, self.scores])])
        self.root.model = model
        self.root.view = self
        self.refresh()

    def _on_cell(self, cell: Cell) -> None:
        self.model.select(cell)
        self._quiet = True
        try:
            self.stack_picker.value = self.model.stack_at(cell)
        finally:
            self._quiet = False
        self.refresh()

    def _on_stack(self, change: dict) -> None:
        if self._quiet:
            return
        self.model.set_stack(change["new"])
        self.refresh()

    def _on_cards(self, change: dict) -> None:
        self.model.set_cards(change["new"])
        self.refresh()

    def refresh(self) -> None:
        m = self.model
        for cell, b in self.cell_buttons.items():
            stack = m.stack_at(cell)
            b.button_style = "warning" if cell == m.selected else ""
            b.tooltip = describe_stack(stack)
            b.description = f"{cell[0]},{cell[1]}" + (f" {SHORT[stack[-1]]}{len(stack)}"
                                                     if stack else "")
        self.board.value = m.svg()
        self.scores.value = m.summary_html()
        self.message.value = escape(m.message)


def board_editor(side: str = "A", stacks: Mapping[Cell, Iterable[str]] | None = None,
                 cards: Iterable[int | str] = (), river_rule: str = "rings"):
    """The board editor widget; ``.model`` is its :class:`BoardEditorModel`."""
    return BoardEditorView(BoardEditorModel(side, stacks, cards, river_rule)).root


__all__ = ["BoardEditorModel", "BoardEditorView", "board_editor", "play"]
