"""The step-through widget: play any game of the package one action at a time.

Two layers, so the logic is testable without a browser:

* :class:`StepThroughModel` is plain Python.  It holds the history of states and actions, a
  redo stack, a log in plain words, the selected action, and which seats the computer plays.
* :class:`StepThroughView` is a thin ipywidgets layer that shows the model and forwards clicks.

:func:`step_through` builds both and returns the root widget; the model is ``widget.model``
and the view ``widget.view``::

    from pangaea_lab import harmonies
    from pangaea_lab.core.widget import step_through
    w = step_through(harmonies.new_game, players=2, seed=7, computer={1: "greedy"})
    w                      # shows the board, the legal actions and the buttons
    w.model.state          # the current GameState
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from dataclasses import dataclass, replace
from html import escape
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Union

from .board_widget import clickable_board
from .clicks import OneAtATime
from .exercises import cell_text, listed, space_labels, whole_number
from .links import BoardLink, board_line, update_line
from .validate import require
from .errors import IllegalAction, InvalidSetup, PangaeaLabError
from .players import GreedyPlayer, Player, RandomPlayer
from .protocol import Action, GameState, ScoreBreakdown, group_by_kind

if TYPE_CHECKING:  # pragma: no cover
    import ipywidgets

#: who plays a seat: "human", "random", "greedy" or a :class:`Player`
Controller = Union[str, Player, None]
CONTROLLERS = ("human", "random", "greedy")


@dataclass(frozen=True)
class Move:
    """One step of the history: the seat that moved, the action, and who chose it
    (``"human"`` or the computer player's name)."""

    seat: int
    action: Action
    by: str
    text: str


def _notifies(method: Callable) -> Callable:
    """Run ``method``, then tell the listeners once (nested calls tell them only once)."""

    @functools.wraps(method)
    def wrapper(self: StepThroughModel, *args: Any, **kwargs: Any) -> Any:
        with self.batch():
            return method(self, *args, **kwargs)

    return wrapper


class StepThroughModel:
    """History, selection and computer seats for one game; no ipywidgets needed.

    ``new_game`` is a game's ``new_game(players=..., seed=..., **options)``.  ``computer``
    maps a seat index to ``"random"``, ``"greedy"`` or a :class:`Player`; other seats are
    human.  Every change is a new state appended to :attr:`history`, so undo and redo are
    just moves along that list::

        m = StepThroughModel(harmonies.new_game, players=2, seed=7, computer={1: "greedy"})
        m.play(m.legal_actions()[0])     # your move, then the computer replies
        m.undo(to_human=True)            # back to your decision
    """

    #: bound on computer moves in one :meth:`run_computers` or :meth:`play_to_end`
    max_steps: int = 10_000

    def __init__(self, new_game: Callable[..., GameState], players: int = 2,
                 seed: int | str = 0, player_range: tuple[int, int] = (2, 4),
                 computer: Mapping[int, Controller] | None = None, **options: Any) -> None:
        self.new_game = new_game
        self.options = dict(options)
        lo, hi = player_range
        if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
            raise InvalidSetup(f"player_range must be two whole numbers (low, high), "
                               f"not {player_range!r}")
        self.player_range = (lo, hi)
        self._controllers: dict[int, str | Player] = {}
        self._own: dict[int, Player] = {}
        for seat, controller in (computer or {}).items():
            self._set_controller(seat, controller)
        self._listeners: list[Callable[[], None]] = []
        self._depth = 0
        #: the last rejection or problem, in plain words ("" when the last step went well)
        self.message = ""
        self._picked: tuple | None = None   # (state, cell) of the last click on the board
        self.players = players
        self.seed = seed
        self.restart(players, seed)

    # ----- listening ---------------------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every change (the view uses this to redraw)."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.remove(listener)

    @contextmanager
    def batch(self) -> Iterator[StepThroughModel]:
        """Group several calls so the listeners hear about them once, at the end::

            with model.batch():
                model.apply(action)
                model.run_computers()
        """
        self._depth += 1
        try:
            yield self
        finally:
            self._depth -= 1
            if self._depth == 0:
                for listener in list(self._listeners):
                    listener()

    # ----- the game and its history ------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state."""
        return self._states[-1]

    @property
    def history(self) -> list[GameState]:
        """Every state from the start to now (``history[-1] is state``)."""
        return list(self._states)

    @property
    def moves(self) -> list[Move]:
        """The moves that led from ``history[0]`` to now, one per step."""
        return list(self._moves)

    @property
    def actions(self) -> list[Action]:
        """The actions taken so far, in order."""
        return [m.action for m in self._moves]

    @property
    def log(self) -> list[str]:
        """What happened, one line per move, e.g. ``"Player 2: Take 3 tokens"``; a last line
        gives the result once the game is over."""
        lines = [m.text for m in self._moves]
        if self.state.is_over:
            lines.append(self.result_text())
        return lines

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @_notifies
    def restart(self, players: int | None = None, seed: int | str | None = None) -> None:
        """A new game (same options); ``players`` and ``seed`` default to the current ones.
        Raises :class:`InvalidSetup` (and keeps the old game) if the game cannot start."""
        players = self.players if players is None else players
        seed = self.seed if seed is None else seed
        lo, hi = self.player_range
        if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
            raise InvalidSetup(f"this game is for {lo} to {hi} players, not {players!r}")
        state = self.new_game(players=players, seed=seed, **self.options)
        self.players, self.seed = players, seed
        self._states: list[GameState] = [state]
        self._moves: list[Move] = []
        self._redo: list[tuple[Move, GameState]] = []
        self._cache: dict[int, tuple[GameState, list[Action], dict, list]] = {}
        self._drawn: tuple[GameState, tuple, str] | None = None
        self._bots = {seat: self._make_bot(seat, c) for seat, c in self._controllers.items()}
        self._stand_in = RandomPlayer(f"{seed}/stand-in")
        self.message = ""
        self.selected_kind: str | None = None
        self.selected: Action | None = None
        self._reselect()

    # ----- computer seats ----------------------------------------------------------------

    def _set_controller(self, seat: int, controller: Controller) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise InvalidSetup(f"a seat is a number from 0, not {seat!r}")
        if controller == "own" and seat in self._own:
            controller = self._own[seat]
        if controller is None or controller == "human":
            self._controllers.pop(seat, None)
        elif isinstance(controller, Player):
            self._controllers[seat] = self._own[seat] = controller
        elif controller in CONTROLLERS:
            self._controllers[seat] = controller
        else:
            raise InvalidSetup(f"seat {seat} can be played by 'human', 'random', 'greedy' or "
                               f"a Player, not {controller!r}")

    def _make_bot(self, seat: int, controller: str | Player) -> Player:
        if isinstance(controller, Player):
            return controller
        kind = RandomPlayer if controller == "random" else GreedyPlayer
        return kind(f"{self.seed}/{seat}")

    @_notifies
    def set_seat(self, seat: int, controller: Controller) -> None:
        """Let ``"human"``, ``"random"``, ``"greedy"`` or a :class:`Player` play ``seat``
        (``"own"`` brings back the :class:`Player` this seat was given before)."""
        self._set_controller(seat, controller)
        if seat in self._controllers:
            self._bots[seat] = self._make_bot(seat, self._controllers[seat])
        else:
            self._bots.pop(seat, None)

    def seat(self, seat: int) -> str:
        """Who plays ``seat``: ``"human"``, ``"random"``, ``"greedy"`` or ``"own"`` (a
        :class:`Player` given by the user)."""
        controller = self._controllers.get(seat, "human")
        return "own" if isinstance(controller, Player) else controller

    def own_player(self, seat: int) -> Player | None:
        """The :class:`Player` the user gave for ``seat``, if any."""
        return self._own.get(seat)

    def controller_name(self, seat: int) -> str:
        """``"human"`` or the name of the computer player of ``seat``."""
        bot = self._bots.get(seat)
        return "human" if bot is None else bot.name

    def is_computer(self, seat: int | None) -> bool:
        return seat is not None and seat in self._controllers

    @property
    def has_human_seat(self) -> bool:
        return any(not self.is_computer(p) for p in range(self.state.num_players))

    @property
    def has_computer_seat(self) -> bool:
        return any(self.is_computer(p) for p in range(self.state.num_players))

    # ----- legal actions and the selection -----------------------------------------------

    def _cached(self) -> tuple[GameState, list[Action], dict, list]:
        """Legal actions, their groups and the scores of the current state, computed once
        (the last states are kept, so undo and redo redraw at once too)."""
        state = self.state
        entry = self._cache.get(id(state))
        if entry is None or entry[0] is not state:
            legal = state.legal_actions()
            entry = (state, legal, group_by_kind(legal), [])
            if len(self._cache) >= 64:
                self._cache.pop(next(iter(self._cache)))
            self._cache[id(state)] = entry
        return entry

    def legal_actions(self) -> list[Action]:
        """The current player's legal actions (computed once per state)."""
        return list(self._cached()[1])

    def legal_groups(self) -> dict[str, list[Action]]:
        """The legal actions grouped by kind, kinds in first-seen order."""
        return {kind: list(actions) for kind, actions in self._cached()[2].items()}

    def scores(self) -> list[ScoreBreakdown]:
        """The current state's scores (computed once per state)."""
        memo = self._cached()[3]
        if not memo:
            memo.extend(self.state.scores())
        return list(memo)

    def _reselect(self) -> None:
        """After a change of state: keep the chosen kind if it is still offered, and select
        the first action of that kind."""
        groups = self.legal_groups()
        if self.selected_kind not in groups:
            self.selected_kind = next(iter(groups), None)
        self.selected = groups[self.selected_kind][0] if self.selected_kind else None

    @_notifies
    def select_kind(self, kind: str) -> None:
        """Show actions of ``kind``; selects the first of them."""
        groups = self.legal_groups()
        if kind not in groups:
            self.message = (f"No action of the kind “{kind}” can be played now; the kinds "
                            f"offered are {listed(groups)}.")
            return
        self.selected_kind = kind
        self.selected = groups[kind][0]

    @_notifies
    def select(self, action: Action | None) -> None:
        """Select ``action`` (it must be legal now); ``None`` clears the selection."""
        if action is None:
            self.selected = None
            return
        if action not in self._cached()[2].get(action.kind, []):
            self.message = f"not a legal choice now: {action.describe()}"
            return
        self.selected_kind = action.kind
        self.selected = action

    @_notifies
    def pick_cell(self, cell: Any) -> None:
        """A click on the board: select a legal action on that space (one whose
        ``action_highlight`` includes it), preferring the kind shown; clicking the same space
        again moves on to its next action."""
        hook = getattr(self.state, "action_highlight", None)
        cell = tuple(cell)
        on_cell = [] if hook is None else [
            a for a in self.legal_actions() if cell in {tuple(c) for c in hook(a)}]
        if not on_cell:
            self.message = f"Nothing can be played on {self.space_words(cell)} now."
            self._picked = None
            return
        same_kind = [a for a in on_cell if a.kind == self.selected_kind]
        choices = same_kind or on_cell
        picked = self._picked
        if picked is not None and picked[0] is self.state and picked[1] == cell \
                and self.selected in choices:
            k = (choices.index(self.selected) + 1) % len(choices)
        else:
            k = 0
        self._picked = (self.state, cell)
        self.selected_kind = choices[k].kind
        self.selected = choices[k]
        self.message = (f"{choices[k].describe()}: choice {k + 1} of {len(choices)} on "
                        f"{self.space_words(cell)}; click the space again for the next."
                        if len(choices) > 1 else "")

    def space_words(self, cell: tuple[int, ...]) -> str:
        """A space named as the board shows it: the game's own name for it (Inori: "card 2,
        space 3"), else the drawing's label for it, else its coordinates."""
        name = self.state.space_name(cell)
        if name:
            return name
        label = space_labels(self.svg()).get(cell, "")
        return label.split(":")[0].strip() or cell_text(cell)

    def play_cell(self, cell: Any) -> None:
        """Enter on a space of the board (the keyboard's way to play): play the selected
        action if it was picked on that space, otherwise the first legal action on it."""
        cell = tuple(cell)
        with self.batch():
            picked = self._picked
            if picked is None or picked[0] is not self.state or picked[1] != cell \
                    or self.selected is None:
                self.pick_cell(cell)
                if self._picked is None:
                    return
            self.play()

    @property
    def highlight(self) -> tuple:
        """The board cells the selected action concerns, when the state offers
        ``action_highlight(action)``; otherwise empty."""
        hook = getattr(self.state, "action_highlight", None)
        if hook is None or self.selected is None:
            return ()
        return tuple(hook(self.selected))

    def svg(self) -> str:
        """The board with the selected action's cells highlighted (drawn once per state and
        selection, so a redraw that changes neither is free)."""
        key = (self.state, self.highlight)
        if self._drawn is None or self._drawn[0] is not key[0] or self._drawn[1] != key[1]:
            self._drawn = (key[0], key[1], self.state.to_svg(highlight=key[1]))
        return self._drawn[2]

    # ----- moving ------------------------------------------------------------------------

    def _advance(self, action: Action, by: str) -> bool:
        state = self.state
        if state.is_over:
            self.message = "The game is over: undo, or start a new game."
            return False
        seat = state.current_player
        require(seat is not None)
        try:
            after = state.apply(action)
        except IllegalAction as exc:
            self.message = str(exc)
            return False
        text = f"{state.player_name(seat)}: {action.describe()}"
        if by != "human":
            text += f" ({by})"
        self._states.append(after)
        self._moves.append(Move(seat, action, by, text))
        self._redo.clear()
        self.message = ""
        self._reselect()
        return True

    @_notifies
    def apply(self, action: Action | None = None) -> None:
        """Play ``action`` (default: the selected one) for the current player.  If the rules
        forbid it, :attr:`message` says why and nothing changes."""
        if action is None:
            action = self.selected
        if action is None:
            self.message = ("The game is over." if self.state.is_over
                            else "Choose an action first.")
            return
        self._advance(action, "human")

    @_notifies
    def play(self, action: Action | None = None) -> None:
        """:meth:`apply`, then let computer seats reply (see :meth:`autoplay`)."""
        before = len(self._moves)
        self.apply(action)
        if len(self._moves) > before:
            self.autoplay()

    @_notifies
    def computer_step(self) -> bool:
        """One move for the seat to play, chosen by its computer player (a random player
        stands in for a human seat).  Returns whether a move was made."""
        if self.state.is_over:
            self.message = "The game is over."
            return False
        seat = self.state.current_player
        bot = self._bots.get(seat, self._stand_in) if seat is not None else self._stand_in
        return self._advance(bot.choose(self.state), bot.name)

    @_notifies
    def run_computers(self, max_steps: int | None = None) -> int:
        """Computer seats play until a human seat is to decide or the game is over (at most
        ``max_steps`` moves); returns how many moves were made."""
        bound = self.max_steps if max_steps is None else max_steps
        done = 0
        while (done < bound and not self.state.is_over
               and self.is_computer(self.state.current_player)):
            if not self.computer_step():
                return done
            done += 1
        if done >= bound and not self.state.is_over and \
                self.is_computer(self.state.current_player):
            self.message = f"stopped after {bound} computer moves"
        return done

    @_notifies
    def autoplay(self) -> int:
        """Let computer seats reply when at least one seat is human (with only computer seats
        a learner steps through by hand instead); returns the number of moves made."""
        return self.run_computers() if self.has_human_seat else 0

    @_notifies
    def play_to_end(self, max_steps: int | None = None) -> int:
        """Every seat plays by computer (random for human seats) until the game is over, at
        most ``max_steps`` moves; returns how many moves were made."""
        bound = self.max_steps if max_steps is None else max_steps
        done = 0
        while done < bound and not self.state.is_over:
            if not self.computer_step():
                return done
            done += 1
        if not self.state.is_over:
            self.message = f"the game has not ended after {bound} moves"
        return done

    @_notifies
    def undo(self, to_human: bool = False) -> bool:
        """Take back the last move; with ``to_human``, keep taking back computer moves until a
        human seat is to decide.  Returns whether anything was undone."""
        if not self._moves:
            self.message = "Nothing to undo."
            return False
        self._step_back()
        while to_human and self._moves and self.is_computer(self.state.current_player):
            self._step_back()
        self.message = ""
        self._reselect()
        return True

    def _step_back(self) -> None:
        self._redo.append((self._moves.pop(), self._states.pop()))

    @_notifies
    def redo(self, to_human: bool = False) -> bool:
        """Play again the last move undone; with ``to_human``, go on until a human seat is to
        decide.  Returns whether anything was redone."""
        if not self._redo:
            self.message = "Nothing to redo."
            return False
        self._step_forward()
        while to_human and self._redo and self.is_computer(self.state.current_player):
            self._step_forward()
        self.message = ""
        self._reselect()
        return True

    def _step_forward(self) -> None:
        move, state = self._redo.pop()
        self._moves.append(move)
        self._states.append(state)

    @property
    def reachable(self) -> int:
        """How many moves :meth:`go_to` can reach: those played plus those undone."""
        return len(self._moves) + len(self._redo)

    @_notifies
    def go_to(self, move: int) -> None:
        """Step back or forward through the history to the position after ``move`` moves
        (0 is the start), keeping the rest available to redo."""
        if isinstance(move, bool) or not isinstance(move, int) or \
                not 0 <= move <= self.reachable:
            self.message = f"There is no move {move}: choose a move from 0 to {self.reachable}."
            return
        while len(self._moves) > move:
            self._step_back()
        while len(self._moves) < move:
            self._step_forward()
        self.message = ""
        self._reselect()

    # ----- results -----------------------------------------------------------------------

    def scores_table(self) -> list[list]:
        """The scores as rows: a header ``["", name, ...]``, one row per category (in the
        order first seen) and a last ``["Total", ...]`` row."""
        state = self.state
        scores = self.scores()
        categories: dict[str, None] = {}
        for s in scores:
            for name, _ in s.categories:
                categories.setdefault(name, None)
        rows: list[list] = [["", *(state.player_name(s.player) for s in scores)]]
        for name in categories:
            rows.append([name, *(dict(s.categories).get(name, 0) for s in scores)])
        rows.append(["Total", *(s.total for s in scores)])
        return rows

    def winners(self) -> list[int]:
        return self.state.winners()

    def result_text(self) -> str:
        """``"Game over: Player 1 wins with 12 points."`` (or a shared win, or a solo
        score)."""
        state = self.state
        outcome = getattr(state, "outcome", None)
        text = outcome() if callable(outcome) else ""
        if text:   # a game with its own way to say how it ended (e.g. a co-op result)
            return f"Game over: {text}"
        best = self.winners()
        if not best:
            return "Game over."
        names = " and ".join(state.player_name(p) for p in best)
        points = self.scores()[best[0]].total
        if state.num_players == 1:
            return f"Game over: {names} scores {points} points."
        verb = "wins" if len(best) == 1 else "share the win"
        return f"Game over: {names} {verb} with {points} points."

    def status(self) -> str:
        """Whose turn it is (and who plays that seat), or the result."""
        state = self.state
        if state.is_over:
            return self.result_text()
        seat = state.current_player
        require(seat is not None)
        who = "" if not self.is_computer(seat) else f" (computer: {self.controller_name(seat)})"
        return f"Move {len(self._moves) + 1}: {state.player_name(seat)}{who} to play."


class StepThroughView:
    """A thin ipywidgets view of a :class:`StepThroughModel`: it shows the model and forwards
    clicks, nothing more.  ``view.root`` is the widget to display (``display(view)`` works
    too); the parts are attributes (``apply_button``, ``action_list``...) so tests can drive
    them with ``button.click()`` and ``widget.value = ...``."""

    SEAT_OPTIONS = (("Human", "human"), ("Random", "random"), ("Greedy", "greedy"))

    def __init__(self, model: StepThroughModel, link_board: BoardLink | None = None) -> None:
        import ipywidgets as w  # the view layer only; the model needs no widgets

        self.model = model
        #: the board the page's link asked for ("This board: ..." with a copy-link button)
        self.link_board = link_board
        self.link_line = board_line(link_board) if link_board is not None else None
        self._w = w
        self._quiet = False
        self._make_parts(w)
        self._lay_out(w)
        self._connect()
        self._sync_setup()
        model.subscribe(self.refresh)
        self.refresh()

    def _make_parts(self, w: Any) -> None:
        """Every part of the view: the board, the turn and players lines, the action
        pickers and buttons, the setup controls, the move slider and the log."""
        lo, hi = self.model.player_range
        # the full width less the widget's own margins, so a narrow window never scrolls
        wide = w.Layout(width="calc(100% - 2 * var(--jp-widgets-margin, 2px))")
        self.board = clickable_board()   # clicking a space selects an action on it
        self.turn_line = w.HTML()
        self.players_html = w.HTML()
        self.kind_picker = w.Dropdown(description="Kind", options=[])
        self.action_list = w.Select(options=[], rows=8, layout=wide)
        self.apply_button = w.Button(description="Apply", button_style="success",
                                     tooltip="Play the selected action")
        self.undo_button = w.Button(description="Undo", tooltip="Take back the last move "
                                    "(back to your last decision when playing the computer)")
        self.redo_button = w.Button(description="Redo", tooltip="Play again what was undone")
        self.computer_button = w.Button(description="Computer move",
                                        tooltip="Let the computer choose one move")
        self.end_button = w.Button(description="Play to end",
                                   tooltip="The computer plays every seat to the end")
        self.message_line = w.HTML()
        self.scores_html = w.HTML()
        self.log_box = w.HTML(layout=wide)
        # a text box: a seed may be a word ("class-3b"), and what is neither that seed nor a
        # whole number is refused with a sentence (a number box would read "2.5" as 25)
        self.seed_box = w.Text(description="Seed", layout=w.Layout(width="220px"))
        self.players_picker = w.Dropdown(description="Players",
                                         options=list(range(lo, hi + 1)))
        self.new_game_button = w.Button(description="New game", button_style="info")
        self.seats_box = w.HBox(layout=w.Layout(flex_flow="row wrap", max_width="100%"))
        self.history_slider = w.IntSlider(description="Move", min=0, max=0,
                                          continuous_update=False,
                                          tooltip="Step through the moves played so far")
        self.seat_pickers: list[ipywidgets.Dropdown] = []

    def _lay_out(self, w: Any) -> None:
        """The parts in rows that wrap in a narrow window (768 px) instead of scrolling
        sideways, under ``self.root``, with the class names styles and browser tests use."""
        wrap = dict(flex_flow="row wrap", max_width="100%")
        setup = w.HBox([self.seed_box, self.players_picker, self.new_game_button],
                       layout=w.Layout(**wrap))
        buttons = w.HBox([self.apply_button, self.undo_button, self.redo_button,
                          self.computer_button, self.end_button], layout=w.Layout(**wrap))
        side = w.VBox([self.turn_line, self.players_html, self.kind_picker, self.action_list,
                       buttons, self.message_line, self.scores_html],
                      layout=w.Layout(flex="1 1 360px", min_width="360px"))
        # a wide board pushes the panel below it instead of squeezing it
        middle = w.HBox([w.VBox([self.board], layout=w.Layout(overflow="auto",
                                                               max_width="100%")), side],
                        layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))
        top = [self.link_line] if self.link_line is not None else []
        self.root = w.VBox(top + [setup, self.seats_box, middle, self.history_slider,
                                  self.log_box])
        # stable handles for styling and for the browser tests (tests/browser)
        for part, name in ((self.root, "step-through"), (self.board, "board"),
                           (self.kind_picker, "kinds"), (self.action_list, "actions"),
                           (self.apply_button, "apply"), (self.undo_button, "undo"),
                           (self.redo_button, "redo"), (self.log_box, "log"),
                           (self.new_game_button, "new-game")):
            part.add_class(f"pl-{name}")
        self.root.model = self.model
        self.root.view = self

    def _connect(self) -> None:
        """Clicks on the board, the pickers, the slider and the buttons forwarded to the
        model (the buttons one click at a time)."""
        model = self.model
        if hasattr(self.board, "on_space"):
            self.board.on_space(self._forward_cell)
            self.board.on_play(self._forward_play)
        self.kind_picker.observe(self._on_kind, names="value")
        self.action_list.observe(self._on_action, names="value")
        self.history_slider.observe(self._on_slider, names="value")
        # one click at a time: a double click on Apply plays one move (core/clicks.py)
        self.clicks = OneAtATime([self.apply_button, self.undo_button, self.redo_button,
                                  self.computer_button, self.end_button,
                                  self.new_game_button], settle=self._button_states)
        for button, call in ((self.apply_button, lambda: model.play()),
                             (self.undo_button, lambda: model.undo(to_human=self._mixed())),
                             (self.redo_button, lambda: model.redo(to_human=self._mixed())),
                             (self.computer_button, self._computer_move),
                             (self.end_button, lambda: model.play_to_end()),
                             (self.new_game_button, self._new_game)):
            button.on_click(self.clicks.wrap(self._forward(call)))

    # ----- display -----------------------------------------------------------------------

    def _ipython_display_(self) -> None:
        from IPython.display import display  # only when shown in a notebook
        display(self.root)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    def refresh(self) -> None:
        """Redraw every part from the model."""
        m = self.model
        state = m.state
        if self._shown_start is not m.history[0] or any(
                m.seat(seat) not in [value for _, value in picker.options]
                for seat, picker in enumerate(self.seat_pickers)):
            self._sync_setup()      # a new game, or an own player given through the model
        self._quiet = True
        try:
            self.board.value = m.svg()
            self.turn_line.value = f"<b>{escape(m.status())}</b>"
            self.players_html.value = self._players_html()
            groups = m.legal_groups()
            kinds = list(groups)
            if list(self.kind_picker.options) != kinds:
                self.kind_picker.options = kinds
            self.kind_picker.value = m.selected_kind
            actions = groups.get(m.selected_kind, []) if m.selected_kind else []
            options = [(a.describe(), i) for i, a in enumerate(actions)]
            if list(self.action_list.options) != options:
                self.action_list.options = options
            self.action_list.value = (actions.index(m.selected)
                                      if m.selected in actions else None)
            self._button_states()
            self.message_line.value = (f"<span style='color:#b03a2e'>"
                                       f"{escape(m.message)}</span>" if m.message else "")
            self.scores_html.value = self._scores_html()
            self.log_box.value = self._log_html()
            self.history_slider.max = m.reachable
            self.history_slider.value = len(m.moves)
            for seat, picker in enumerate(self.seat_pickers):
                picker.value = m.seat(seat)
        finally:
            self._quiet = False

    def _button_states(self) -> None:
        """Which buttons can be pressed now (Undo only with a move to take back...)."""
        m = self.model
        over = m.state.is_over
        self.apply_button.disabled = over or m.selected is None
        self.undo_button.disabled = not m.can_undo
        self.redo_button.disabled = not m.can_redo
        self.computer_button.disabled = over
        self.end_button.disabled = over

    def _players_html(self) -> str:
        m = self.model
        state = m.state
        rows = []
        for p in range(state.num_players):
            mark = "&#9654; " if p == state.current_player else ""
            who = ("" if not m.is_computer(p)
                   else f" <i>(computer: {escape(m.controller_name(p))})</i>")
            summary = escape(state.player_summary(p))
            rows.append(f"<div>{mark}<b>{escape(state.player_name(p))}</b>{who}"
                        f"{': ' + summary if summary else ''}</div>")
        return "".join(rows)

    def _log_html(self) -> str:
        """The log, newest line first, in a box that scrolls."""
        lines = "\n".join(f"{i}. {escape(line)}"
                          for i, line in reversed(list(enumerate(self.model.log, 1))))
        return (f"<div><b>Log</b> (newest first)</div>\n<pre style='max-height:12em;"
                f"overflow-y:auto;margin:0;white-space:pre-wrap'>{lines}</pre>")

    def _scores_html(self) -> str:
        m = self.model
        rows = m.scores_table()
        winners = set(m.winners())
        cell = "style='padding:1px 8px;text-align:right'"
        head = "".join(f"<th {cell}>{escape(str(x))}{' &#9733;' if i - 1 in winners else ''}"
                       f"</th>" for i, x in enumerate(rows[0]))
        body = "".join("<tr>" + "".join(
            f"<td {cell}>{'<b>' if r[0] == 'Total' else ''}{escape(str(x))}"
            f"{'</b>' if r[0] == 'Total' else ''}</td>" for x in r) + "</tr>" for r in rows[1:])
        title = "Final scores" if m.is_over else "Scores so far"
        return (f"<div><b>{title}</b></div><table style='border-collapse:collapse'>"
                f"<tr>{head}</tr>{body}</table>")

    def _sync_setup(self) -> None:
        """Set the seed box, the player count and the seat pickers from the model."""
        w, m = self._w, self.model
        self._shown_start = m.history[0]
        if self.link_board is not None and self.link_line is not None:
            same = (m.players, m.seed) == (self.link_board.players, self.link_board.seed)
            shown = replace(self.link_board, players=m.players, seed=m.seed,
                            problems=self.link_board.problems if same else ())
            update_line(self.link_line, shown)
        self._quiet = True
        try:
            self.seed_box.value = str(m.seed)
            self.players_picker.value = m.players
            for picker in self.seat_pickers:
                picker.unobserve(self._on_seat, names="value")
            self.seat_pickers = []
            for seat in range(m.state.num_players):
                options = list(self.SEAT_OPTIONS)
                own = m.own_player(seat)
                if own is not None:
                    options.append((own.name.capitalize(), "own"))
                picker = w.Dropdown(description=m.state.player_name(seat), options=options,
                                    value=m.seat(seat), layout=w.Layout(width="auto"))
                picker.observe(self._on_seat, names="value")
                self.seat_pickers.append(picker)
            self.seats_box.children = tuple(self.seat_pickers)
        finally:
            self._quiet = False

    # ----- forwarding clicks -------------------------------------------------------------

    def _mixed(self) -> bool:
        return self.model.has_human_seat and self.model.has_computer_seat

    def _forward(self, call: Callable[[], Any]) -> Callable[[], None]:
        """``call``, with a refusal shown as the message line instead of raised."""
        def forwarded() -> None:
            try:
                call()
            except PangaeaLabError as exc:
                self.model.message = str(exc)
                self.refresh()
        return forwarded

    def _forward_cell(self, cell: tuple[int, ...]) -> None:
        """A space of the board was clicked."""
        self._forward(lambda: self.model.pick_cell(cell))()

    def _forward_play(self, cell: tuple[int, ...]) -> None:
        """Enter was pressed on a space of the board."""
        self._forward(lambda: self.model.play_cell(cell))()

    def _computer_move(self) -> None:
        with self.model.batch():
            if self.model.computer_step():
                self.model.autoplay()

    def _new_game(self) -> None:
        m = self.model
        seed: int | str | None = m.seed
        if self.seed_box.value.strip() != str(m.seed):
            seed, problem = whole_number(self.seed_box.value, "The seed")
            if seed is None:
                raise InvalidSetup(problem)
        with m.batch():
            m.restart(players=self.players_picker.value, seed=seed)
            m.autoplay()

    def _on_kind(self, change: dict) -> None:
        if not self._quiet and change["new"] is not None:
            self.model.select_kind(change["new"])

    def _on_action(self, change: dict) -> None:
        if self._quiet or change["new"] is None:
            return
        actions = self.model.legal_groups().get(self.model.selected_kind or "", [])
        self.model.select(actions[change["new"]])

    def _on_slider(self, change: dict) -> None:
        if not self._quiet:
            self.model.go_to(change["new"])

    def _on_seat(self, change: dict) -> None:
        if self._quiet:
            return
        seat = self.seat_pickers.index(change["owner"])
        with self.model.batch():
            self.model.set_seat(seat, change["new"])
            self.model.autoplay()


def step_through(new_game: Callable[..., GameState], players: int = 2, seed: int | str = 0,
                 player_range: tuple[int, int] = (2, 4),
                 computer: Mapping[int, Controller] | None = None,
                 link_board: BoardLink | None = None, **options: Any) -> ipywidgets.VBox:
    """A step-through widget for a game: returns the root ``VBox``, with the
    :class:`StepThroughModel` as ``.model`` and the :class:`StepThroughView` as ``.view``.
    ``link_board`` (from :mod:`.links`) adds the line "This board: ..." with a copy-link
    button above the game."""
    model = StepThroughModel(new_game, players=players, seed=seed, player_range=player_range,
                             computer=computer, **options)
    model.autoplay()
    return StepThroughView(model, link_board=link_board).root
