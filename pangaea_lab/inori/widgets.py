"""Inori in Jupyter: the shared step-through widget, and a season-end explorer.

``play()`` opens the step-through widget with computer players in the other seats.
``season_explorer(state)`` shows, for the current season ("if it ended now") and for every
season already played, which cards are complete, who scores what, and the Great Tree
majorities.  Both have a plain-Python model so they are tested without a browser.
"""

from __future__ import annotations

from dataclasses import replace
from html import escape
from typing import Any, Mapping

from ..core.widget import step_through
from ..core.links import board_from_page
from .game import GAME, LINK
from .render import board_svg
from .scoring import season_end_preview
from .setup import new_game
from .state import GameState


def play(players: int = 2, seed: int | str = 0, computer: Mapping[int, Any] | None = None,
         link: object = True, **options: Any):
    """The step-through widget for Inori.  By default seat 1 is yours and every other seat
    is a greedy computer player; pass ``computer={}`` to play all seats by hand.  A link to
    the page (``?seed=12&players=3``) sets the board in the Voilà app; see
    :func:`pangaea_lab.core.links.board_from_page`."""
    board = board_from_page(LINK, players, seed, options, link, check=new_game)
    players, seed, options = board.players, board.seed, dict(board.options)
    if computer is None:
        computer = {seat: "greedy" for seat in range(1, GAME.max_players)}
    return step_through(new_game, players=players, seed=seed,
                        player_range=(GAME.min_players, GAME.max_players),
                        computer=computer, link_board=board, **options)


class SeasonExplorerModel:
    """The seasons of one state: index 0 is "the current season, if it ended now"; index
    k >= 1 is season k as it was scored (from the state's record)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.index = 0 if not state.is_over else 1

    @property
    def choices(self) -> list[tuple[str, int]]:
        out = [] if self.state.is_over else \
            [(f"Season {self.state.season} now (if it ended now)", 0)]
        out += [(f"Season {r['season']} (scored)", k + 1)
                for k, r in enumerate(self.state.reports)]
        return out

    def report(self) -> dict:
        """The chosen season's cards and majorities, with player keys as numbers."""
        if self.index == 0:
            return season_end_preview(self.state)
        raw = self.state.reports[self.index - 1]
        cards = [dict(c, points={int(p): n for p, n in c["points"].items()})
                 for c in raw["cards"]]
        majorities = [dict(m, points={int(p): n for p, n in m["points"].items()},
                           counts={int(p): n for p, n in m["counts"].items()})
                      for m in raw.get("majorities", [])]
        return {"season": raw["season"], "cards": cards, "majorities": majorities,
                "lowest": raw.get("lowest")}

    def highlight(self) -> list[tuple]:
        """The complete cards of the chosen season, to mark on the board."""
        return [("slot", c["slot"]) for c in self.report()["cards"] if c["complete"]]

    def board_state(self) -> GameState:
        """The board of the chosen season: now, or as it was when that season was scored
        (cards, markers, favor tokens and altars from the season's record)."""
        if self.index == 0:
            return self.state
        board = self.state.reports[self.index - 1].get("board")
        if not board:        # a record saved without its board: the board as it is now
            return self.state

        def tup(x: Any) -> Any:
            return tuple(tup(v) for v in x) if isinstance(x, list) else x
        return replace(self.state, slots=tup(board["slots"]), favor=tup(board["favor"]),
                       tree_markers=tup(board["tree_markers"]), altars=tup(board["altars"]),
                       points=tup(board.get("points", self.state.points)),
                       hand=(0,) * self.state.num_players, pending=(), over=False,
                       season=self.state.reports[self.index - 1]["season"])

    def svg(self) -> str:
        """The chosen season's board with its complete cards outlined and numbered."""
        st = self.board_state()
        if self.index == 0:
            title = f"Season {st.season} now; the outlined cards are complete"
        else:
            title = f"Season {st.season} as it was scored; the outlined cards were complete"
        return board_svg(st, highlight=self.highlight(), title=title)

    def card_points(self) -> list[int]:
        """Points each player gets from the chosen season's cards."""
        totals = [0] * self.state.num_players
        for c in self.report()["cards"]:
            for p, n in c["points"].items():
                totals[p] += n
        return totals

    def html(self) -> str:
        """Two tables: cards (complete?, present, points) and altar majorities."""
        st, ed = self.state, self.state.edition
        rep = self.report()
        name = st.player_name
        td = "style='padding:2px 8px;border-bottom:1px solid #ddd'"
        rows = []
        for c in rep["cards"]:
            pts = ", ".join(f"{name(p)} +{n}" for p, n in c["points"].items()) or "-"
            present = ", ".join(name(p) for p in c["present"]) or "nobody"
            scored = ed.colour_name(c["scored_colour"]) if c["scored_colour"] else "nothing"
            rows.append(f"<tr><td {td}>{c['slot'] + 1}. {escape(c['name'])}</td>"
                        f"<td {td}>{'complete' if c['complete'] else 'incomplete'}</td>"
                        f"<td {td}>{escape(present)}</td><td {td}>{escape(scored)}</td>"
                        f"<td {td}>{escape(pts)}</td>"
                        f"<td {td}>{escape(ed.colour_name(c['next_colour']))}</td></tr>")
        head = "".join(f"<th {td}>{h}</th>" for h in ("Card", "Status", "Present",
                                                      "Scores tokens of", "Points",
                                                      "Next card colour"))
        parts = [f"<h4>Season {rep['season']}: cards</h4><table><tr>{head}</tr>"
                 f"{''.join(rows)}</table>"]
        totals = self.card_points()
        parts.append("<p>Card points this season: " + ", ".join(
            f"{escape(name(p))} {n}" for p, n in enumerate(totals)) + "</p>")
        if rep.get("lowest") is not None:
            parts.append(f"<p>Fewest points after scoring: {escape(name(rep['lowest']))} "
                         f"(chooses a New Start card and plays first)</p>")
        mrows = []
        for m in rep["majorities"]:
            counts = ", ".join(f"{escape(name(p))}: {n}" for p, n in m["counts"].items())
            first = ", ".join(name(p) for p in m["first"]) or "nobody"
            second = ", ".join(name(p) for p in m["second"]) or "nobody"
            mrows.append(f"<tr><td {td}>{m['space_id']}</td>"
                         f"<td {td}>{escape(ed.colour_name(m['colour']))}</td>"
                         f"<td {td}>{counts}</td><td {td}>{escape(first)} "
                         f"({m['values'][0]})</td><td {td}>{escape(second)} "
                         f"({m['values'][1]})</td></tr>")
        title = "Great Tree majorities" + ("" if st.is_over and self.index == len(st.reports)
                                           else " (standing now; scored after the last season)")
        mhead = "".join(f"<th {td}>{h}</th>" for h in ("Space", "Altar", "Tokens", "1st",
                                                       "2nd"))
        if self.index == 0 or rep["majorities"]:
            body = "".join(mrows) or f"<tr><td {td} colspan='5'>no altar placed yet</td></tr>"
            parts.append(f"<h4>{title}</h4><table><tr>{mhead}</tr>{body}</table>")
        parts.append(f"<p style='color:#666'>Edition: {escape(ed.name)} "
                     f"[label: {escape(ed.label)}]</p>")
        return "".join(parts)


def season_explorer(state: GameState):
    """A widget: pick a season (or "now") and see the season-end results above that
    season's board, where the complete cards are outlined."""
    import ipywidgets as w  # widgets only when a view is built

    model = SeasonExplorerModel(state)
    picker = w.Dropdown(options=model.choices, value=model.index, description="Season")
    tables = w.HTML(model.html())
    board = w.HTML(model.svg())

    def on_change(change: dict) -> None:
        model.index = change["new"]
        tables.value = model.html()
        board.value = model.svg()

    picker.observe(on_change, names="value")
    root = w.VBox([picker, tables, board])
    root.model = model
    root.picker = picker
    root.tables = tables
    root.board = board
    return root
