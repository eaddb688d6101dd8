"""Notebook widgets for The Dawn of Pangaea.

* :func:`play`: the shared step-through widget on a seeded game, computer players optional.
* :class:`SetupStepper` / :func:`setup_stepper`: Game Setup one step at a time.
* :class:`RitualExplorer` / :func:`ritual_explorer`: choose a Land Ritual card and two of your
  Trees, see every shortest path with its score, and test a path of your own.

Each has a plain-Python model (testable without a browser) and a thin ipywidgets view.
"""

from __future__ import annotations

import re
from html import escape
from itertools import islice
from typing import Any, Sequence

from ..core.hexgrid import Hex
from ..core.widget import step_through
from .edition import LandCard
from .players import ForesterPlayer
from .rules import favor_types
from .render import PATH_COLOURS, board_svg
from ..core.errors import IllegalAction
from .rituals import (PairSummary, RitualOption, checked_option, endpoints,
                      iter_ritual_options, land_ritual_options, ritual_pairs)
from .setup import new_game, setup_steps
from ..core.links import board_from_page, board_line
from .game import GAME, LINK
from .state import PLAYER_NAMES, GameState


def play(players: int = 2, seed: int | str = 0, computer: dict | None = None,
         link: object = True, **options: Any):
    """The step-through widget on a new game.  ``computer`` maps seats to "forester" (the
    default for every seat but Red's), "greedy", "random" or a player object; ``{}`` makes every
    seat human.  The model is ``widget.model``.  Other keywords go to :func:`new_game`:

    * ``wild_woods=True`` plays the Wild Woods expansion (2-4 players), with Elemental Storms
      unless ``storms=False``, e.g. ``play(players=2, seed=8, wild_woods=True)``;
    * ``mode="coop"`` (or ``"ancients"``) plays the cooperative Return of the Ancients (1-4
      players), e.g. ``play(players=1, mode="coop")``, also with ``wild_woods=True``.

    >>> w = play(players=1, seed=3, mode="coop", wild_woods=True, computer={})
    >>> w.model.state.coop is not None, w.model.state.woods is not None, w.model.player_range
    (True, True, (1, 4))

    A link to the page (``?seed=12&players=3&wild_woods=yes``) sets the board in the Voilà
    app; ``link`` is explained in :func:`pangaea_lab.core.links.board_from_page`.
    """
    board = board_from_page(LINK, players, seed, options, link, check=new_game)
    players, seed, options = board.players, board.seed, dict(board.options)
    if computer is None:
        computer = {seat: "forester" for seat in range(1, players)}
    seats = {seat: ForesterPlayer(seat) if who == "forester" else who
             for seat, who in computer.items()}
    # the seats of this way to play (only Return of the Ancients is played solo)
    low, high = GAME.players_for(options)
    return step_through(new_game, players=players, seed=seed,
                        player_range=(low, high),
                        computer=seats, link_board=board, **options)


# ----- setup ------------------------------------------------------------------------------------


class SetupStepper:
    """Game Setup step by step: ``step`` is the index into :func:`setup_steps`.  ``options``
    go to :func:`setup_steps` (``mode="coop"``, ``wild_woods=True``, ``storms=False``...)."""

    def __init__(self, players: int = 2, seed: int | str = 0, family: bool = False,
                 **options: Any) -> None:
        self.steps = setup_steps(players=players, seed=seed, family=family, **options)
        self.step = 0

    def next(self) -> None:
        self.step = min(self.step + 1, len(self.steps) - 1)

    def previous(self) -> None:
        self.step = max(self.step - 1, 0)

    def html(self) -> str:
        s = self.steps[self.step]
        return (f"<h4>Step {self.step + 1} of {len(self.steps)}: {escape(s.title)}</h4>"
                f"<p>{escape(s.explanation)}</p>")

    def svg(self) -> str:
        return self.steps[self.step].state.to_svg()


def setup_stepper(players: int = 2, seed: int | str = 0, family: bool = False,
                  link: object = True, **options: Any):
    """A widget with Back / Next buttons walking through Game Setup (``options`` as for
    :func:`setup_steps`, e.g. ``wild_woods=True``).

    As with :func:`play`, a link to the page (``?seed=12&players=3&family=yes``) sets the
    board in the Voilà app, and the line "This board: ..." under the picture gives the link
    to this setup back (``link`` is explained in
    :func:`pangaea_lab.core.links.board_from_page`).

    >>> box = setup_stepper(players=3, seed=5, link="seed=9&players=4")
    >>> box.model.steps[-1].state.num_players, box.board.seed
    (4, 9)
    """
    import ipywidgets as w  # widgets only when a view is built

    board = board_from_page(LINK, players, seed, {"family": family, **options}, link,
                            check=new_game)
    chosen = dict(board.options)
    model = SetupStepper(board.players, board.seed, **chosen)
    text, picture = w.HTML(), w.HTML()
    back, forward = w.Button(description="◀ Back"), w.Button(description="Next ▶")

    def show() -> None:
        text.value = model.html()
        picture.value = model.svg()
        back.disabled = model.step == 0
        forward.disabled = model.step == len(model.steps) - 1

    back.on_click(lambda _: (model.previous(), show()))
    forward.on_click(lambda _: (model.next(), show()))
    show()
    box = w.VBox([w.HBox([back, forward]), text, picture, board_line(board)])
    box.model = model  # type: ignore[attr-defined]
    box.board = board  # type: ignore[attr-defined]
    return box


# ----- the Land Ritual explorer -----------------------------------------------------------------


def parse_path(text: str) -> list[Hex]:
    """Read a path typed as ``(0,0) (1,0) (1,1)`` or ``0,0; 1,0; 1,1``."""
    numbers = [int(x) for x in re.findall(r"-?\d+", text)]
    if len(numbers) % 2:
        raise ValueError("a path is a list of (q, r) pairs; an odd number of values was given")
    return [(numbers[k], numbers[k + 1]) for k in range(0, len(numbers), 2)]


class RitualExplorer:
    """Which Land Rituals can a player perform, and what do they score?

    Choose ``card`` (any Land Ritual of the edition), then ``start`` and ``end`` among the
    player's Trees on the card's biomes (both optional: leaving them out shows every pair).
    ``options()`` lists the legal shortest paths, best first, a page of :attr:`PAGE` at a time
    (``page``, :meth:`pages`, :meth:`page_options`), so every path can be reached however many
    there are; :meth:`total` and :meth:`best` are counted exactly without listing;
    ``check(path)`` explains why a path of your own is or is not allowed.  The explorer opens
    on the card with the best legal Ritual (cards in hand and in the market first).
    """

    PAGE = 12
    #: more paths than this are paged in board order instead of being sorted by score first
    SORT_LIMIT = 5000

    def __init__(self, state: GameState, player: int | None = None) -> None:
        self.state = state
        self.player = state.current_player if player is None else player
        if self.player is None:
            self.player = 0
        self.start: Hex | None = None
        self.end: Hex | None = None
        self.page = 0
        self._listed: dict = {}
        cards = list(self.cards())
        self.card: str = cards[0] if cards else ""
        best = {cid: self._best_of(cid) for cid in cards}
        if best and max(best.values()) > 0:
            self.card = max(cards, key=lambda cid: (best[cid], -cards.index(cid)))

    def cards(self) -> dict[str, str]:
        """Card id -> title, cards the player can play now first (hand, market), then the rest."""
        s, p = self.state, self.player
        order = list(s.players[p].hand) + [c for c in s.market if c]
        order += [c.id for c in s.edition.land_cards]
        out: dict[str, str] = {}
        for cid in order:
            card = s.card(cid)
            if isinstance(card, LandCard) and cid not in out:
                where = (" (in hand)" if cid in s.players[p].hand else
                         " (in the market)" if cid in s.market else "")
                out[cid] = card.title + where
        return out

    @property
    def land_card(self) -> LandCard:
        card = self.state.card(self.card)
        if not isinstance(card, LandCard):
            raise IllegalAction(f"{self.card} is not a Land Ritual card")
        return card

    def _best_of(self, card_id: str) -> int:
        card = self.state.card(card_id)
        pairs = ritual_pairs(self.state.position, self.player, card)   # type: ignore[arg-type]
        return max((pair.best for pair in pairs), default=0)

    def trees(self) -> tuple[list[Hex], list[Hex]]:
        """The player's Trees that may start / end a ritual with the chosen card."""
        pos, board = self.state.position, self.state.board
        pairs = endpoints(pos, self.player, self.land_card)
        starts = sorted({board.cells[a] for a, _ in pairs})
        ends = sorted({board.cells[b] for a, b in pairs
                       if self.start is None or board.cells[a] == self.start})
        return starts, ends

    def pairs(self) -> list[PairSummary]:
        """The chosen Trees' connections, counted and scored exactly."""
        return ritual_pairs(self.state.position, self.player, self.land_card, self.start, self.end)

    def options(self) -> list[RitualOption]:
        """Every legal path for the chosen card and Trees, best first."""
        key = (self.card, self.start, self.end)
        if key not in self._listed:
            self._listed = {key: land_ritual_options(self.state.position, self.player,
                                                     self.land_card, self.start, self.end)}
        return self._listed[key]

    def total(self) -> int:
        return sum(pair.paths for pair in self.pairs())

    def best(self) -> int:
        return max((pair.best for pair in self.pairs()), default=0)

    def pages(self) -> int:
        return max(1, -(-self.total() // self.PAGE))

    def sorted_by_score(self) -> bool:
        """Whether the pages list the paths best first (else in board order: too many)."""
        return self.total() <= self.SORT_LIMIT

    def page_options(self) -> list[RitualOption]:
        """The paths of the current page: best first, or in board order when there are more
        than :attr:`SORT_LIMIT` (every path is still on some page)."""
        self.page = min(max(self.page, 0), self.pages() - 1)
        lo, hi = self.page * self.PAGE, (self.page + 1) * self.PAGE
        if self.sorted_by_score():
            return self.options()[lo:hi]
        return list(islice(iter_ritual_options(self.state.position, self.player, self.land_card,
                                               self.start, self.end), lo, hi))

    def summary_html(self) -> str:
        pairs = self.pairs()
        if not pairs:
            return ("<p>No legal Land Ritual with this card: the player needs two Trees on the "
                    "card's biomes joined by Trees and Spirits.</p>")
        best = self.best()
        tied = sum(pair.scores.get(best, 0) for pair in pairs)
        total = self.total()
        return (f"<p>{total} shortest path{'s' if total != 1 else ''}. Best: {best} points "
                f"({tied} path{'s' if tied != 1 else ''} score{'' if tied != 1 else 's'} that)."
                + (f" Page {self.page + 1} of {self.pages()}." if self.pages() > 1 else "")
                + ("" if self.sorted_by_score() else " The pages list the paths in board "
                   "order, not best first: there are too many to sort.")
                + "</p>")

    def check(self, path: Sequence[Hex] | str) -> str:
        """"Legal: N points" or the reason the path is refused."""
        if isinstance(path, str):
            try:
                path = parse_path(path)
            except ValueError as exc:
                return f"Not understood: {exc}."
        option = checked_option(self.state.position, self.player, self.land_card, path)
        if not isinstance(option, RitualOption):
            return "Not allowed: " + option
        return f"Legal: this path scores {option.points} points ({option.explain(PLAYER_NAMES)})."

    def svg(self):
        """The board with the paths of the current page (up to six, numbered as in the table)."""
        opts = self.page_options()[:len(PATH_COLOURS)]
        chosen = [c for c in (self.start, self.end) if c is not None]
        first = self.page * self.PAGE + 1
        return board_svg(self.state, highlight=chosen, paths=[o.path for o in opts],
                         path_labels=[str(first + k) for k in range(len(opts))])

    def table_html(self) -> str:
        opts = self.page_options()
        if not opts:
            return ""
        first = self.page * self.PAGE
        rows = "".join(
            f"<tr><td><b>{first + k + 1}</b>"
            + (f" <span style='color:{PATH_COLOURS[k]}'>■</span>" if k < len(PATH_COLOURS) else "")
            + f"</td><td>{o.start} → {o.end}</td><td>{' '.join(map(str, o.path))}</td>"
            f"<td>{o.points}</td><td>{escape(o.explain(PLAYER_NAMES))}</td></tr>"
            for k, o in enumerate(opts))
        return ("<table><tr><th>#</th><th>trees</th><th>shortest path</th><th>points</th>"
                f"<th>why</th></tr>{rows}</table>")


def ritual_explorer(state: GameState, player: int | None = None):
    """The Land Ritual explorer as a widget (the model is ``widget.model``)."""
    import ipywidgets as w  # widgets only when a view is built

    model = RitualExplorer(state, player)
    card_pick = w.Dropdown(description="Card", options=[(t, c) for c, t in model.cards().items()],
                           value=model.card or None, layout=w.Layout(width="420px"))
    start_pick = w.Dropdown(description="Start Tree")
    end_pick = w.Dropdown(description="End Tree")
    picture, table, verdict, summary = w.HTML(), w.HTML(), w.HTML(), w.HTML()
    earlier, later = w.Button(description="◀ Earlier paths"), w.Button(description="More paths ▶")
    typed = w.Text(description="Your path", placeholder="(0,0) (1,0) (1,1)",
                   layout=w.Layout(width="420px"))
    check = w.Button(description="Check my path")
    busy = [False]

    def choices(cells: list[Hex]) -> list:
        return [("any", None)] + [(str(c), c) for c in cells]

    def refresh() -> None:
        busy[0] = True
        starts, ends = model.trees()
        start_pick.options = choices(starts)
        start_pick.value = model.start if model.start in starts else None
        model.start = start_pick.value
        starts, ends = model.trees()
        end_pick.options = choices(ends)
        end_pick.value = model.end if model.end in ends else None
        model.end = end_pick.value
        busy[0] = False
        show()

    def show() -> None:
        picture.value = model.svg()
        summary.value = model.summary_html()
        table.value = model.table_html()
        earlier.disabled = model.page == 0
        later.disabled = model.page >= model.pages() - 1

    def turn(by: int) -> None:
        model.page += by
        show()

    def on_card(change: dict) -> None:
        if not busy[0] and change["new"]:
            model.card, model.start, model.end, model.page = change["new"], None, None, 0
            refresh()

    def on_start(change: dict) -> None:
        if not busy[0]:
            model.start, model.end, model.page = change["new"], None, 0
            refresh()

    def on_end(change: dict) -> None:
        if not busy[0]:
            model.end, model.page = change["new"], 0
            refresh()

    card_pick.observe(on_card, names="value")
    start_pick.observe(on_start, names="value")
    end_pick.observe(on_end, names="value")
    check.on_click(lambda _: setattr(verdict, "value", escape(model.check(typed.value))))
    earlier.on_click(lambda _: turn(-1))
    later.on_click(lambda _: turn(1))
    refresh()
    box = w.VBox([w.HTML(f"<b>Land Rituals for {PLAYER_NAMES[model.player]}</b>"), card_pick,
                  w.HBox([start_pick, end_pick]), picture, summary, w.HBox([earlier, later]),
                  table, w.HBox([typed, check]), verdict])
    # stable handles for styling and for the browser tests (tests/browser)
    for part, name in ((box, "ritual-explorer"), (card_pick, "ritual-card"),
                       (start_pick, "ritual-start"), (end_pick, "ritual-end"),
                       (picture, "ritual-board"), (table, "ritual-table")):
        part.add_class(f"pl-{name}")
    box.model = model  # type: ignore[attr-defined]
    box.card_pick, box.start_pick, box.end_pick = card_pick, start_pick, end_pick  # type: ignore
    box.picture, box.table, box.typed, box.check, box.verdict = (  # type: ignore[attr-defined]
        picture, table, typed, check, verdict)
    box.summary, box.earlier, box.later = summary, earlier, later  # type: ignore[attr-defined]
    return box


def check_answer(state: GameState, player: int, card_id: str, answer: int) -> str:
    """Exercise helper: is ``answer`` the best score this card can give the player now?"""
    card = state.card(card_id)
    if not isinstance(card, LandCard):
        return f"{card_id} is not a Land Ritual card."
    pairs = ritual_pairs(state.position, player, card)
    best = max((pair.best for pair in pairs), default=0)
    if answer == best:
        return f"Right: the best Land Ritual with {card_id} scores {best} points."
    hint = ("Count 1 per own Tree or Spirit on the path, then +1 for each other colour."
            if pairs else "Look again: is there any legal path at all?")
    return f"Not quite: {answer} is not the best score. {hint}"


def check_favor_answer(state: GameState, player: int, card_id: str, answer: Sequence[str]) -> str:
    """Exercise helper: which Favor Token types does this played card accept right now?"""
    if card_id not in state.players[player].played:
        return f"{card_id} is not one of {PLAYER_NAMES[player]}'s played cards."
    right = set(favor_types(state, player, card_id))
    given = set(answer)
    if given == right:
        return f"Right: {card_id} accepts {', '.join(sorted(right)) or 'no token'}."
    hint = ("A Creature card takes its own Ancient's token; a Land card takes the type of a "
            "Creature card right next to it in its chain.")
    return f"Not quite. {hint}"
