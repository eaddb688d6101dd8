"""A question as a widget: choose the computer players, the number of players and of games,
press Run, watch the progress ("120 of 200 games, about 5 s left"), see the chart, a sentence
about it, the numbers behind it and its first games (each Run redraws them all).

The widget answers once when it is built (so the page opens with a chart): with the choices a
statistics page opens with, from the answers the engine stored for them (:mod:`.openings`), so
the page starts without playing games or loading pandas and matplotlib; otherwise by playing
the games.  ``widget.answer`` is the last :class:`~pangaea_lab.sim.questions.Answer` (played
when first asked for, after a stored opening), ``widget.run`` the Run button.
"""

from __future__ import annotations

import importlib
from html import escape
from typing import Any

from ..core.exercises import whole_number
from .openings import Choices, choices_of, opening

#: the most games one press of Run may ask for in the classroom app
MAX_GAMES = 2000

#: the games the widget lists under its chart (the rest are in ``widget.answer.games``)
GAMES_SHOWN = 10


class QuestionWidget:
    """The controls and outputs of one question; :meth:`widget` is the root box."""

    def __init__(self, key: str, games: int | None = None, players: int | None = None,
                 bots: Any = None, run_now: bool = True) -> None:
        import ipywidgets as w  # widgets only when a question is shown
        q = self.question = _choices(key)
        low, high = q.players
        # text boxes: what is not a whole number in range is refused with a sentence when
        # Run is pressed (a number box would read "2.5" as 25, or quietly change 5000 to 2000)
        self.players = w.Text(value=str(min(max(players or q.default_players, low), high)),
                              description="Players",
                              layout=w.Layout(width="150px",
                                              display="none" if low == high else None))
        if q.tournament:
            self.bots = w.SelectMultiple(options=q.bots, value=tuple(bots or q.default_bots),
                                         description="Players in the tournament", rows=len(q.bots),
                                         style={"description_width": "initial"})
            per = "Games per match-up"
        else:
            self.bots = w.Dropdown(options=q.bots, value=(list(bots or q.default_bots))[0],
                                   description="Everyone plays",
                                   style={"description_width": "initial"})
            per = "Games"
        self.games = w.Text(value=str(games or q.default_games), description=per,
                            style={"description_width": "initial"},
                            layout=w.Layout(width="190px"))
        self.run = w.Button(description="Run", button_style="success", icon="play",
                            tooltip="Play the games and draw the chart")
        self.bar = w.Output()
        self.chart = w.Image(format="png", layout=w.Layout(max_width="760px"))
        self.words = w.HTML()
        # the numbers behind the chart and the first games, redrawn by every Run
        self.table = w.HTML()
        self.table.add_class("pl-question-numbers")
        self.games_box = w.HTML()
        self.more = w.Accordion(children=[self.games_box], selected_index=None,
                                titles=(f"The first {GAMES_SHOWN} games behind the chart",))
        self._answer: Any = None
        self._opened: dict[str, Any] | None = None     # the choices of a stored opening shown
        self._numbers_text = ""
        self.run.on_click(lambda _: self.press())
        self.box = w.VBox([w.HTML(f"<b>{escape(q.title)}</b>"),
                           w.HBox([self.bots, self.players, self.games, self.run]),
                           self.bar, self.chart, self.words, self.table, self.more])
        self.box.add_class("pangaea-question")
        if run_now:
            self.open()

    def open(self) -> None:
        """Show the stored answer for the chosen numbers (see :mod:`.openings`), or play the
        games when none is stored."""
        chosen = self.choices()
        stored = opening(self.question.key, **chosen)
        if stored is None:
            self.press()
            return
        self._answer, self._opened = None, chosen
        self._show(stored)

    @property
    def answer(self) -> Any:
        """The last answer (a stored opening's games are played when first asked for)."""
        if self._answer is None and self._opened is not None:
            self._answer = _engine("questions").answer(self.question.key, progress=False,
                                                       **self._opened)
        return self._answer

    def shown(self) -> dict[str, Any]:
        """What the widget shows: the chart (PNG bytes), the sentence, the numbers (as HTML and
        as text) and the first games."""
        return {"png": bytes(self.chart.value), "text": self.words.value,
                "numbers_html": self.table.value, "numbers_text": self.numbers(),
                "games_html": self.games_box.value}

    def _show(self, parts: dict[str, Any]) -> None:
        self.chart.value = parts["png"]
        self.words.value = parts["text"]
        self.table.value = parts["numbers_html"]
        self.games_box.value = parts["games_html"]
        self._numbers_text = parts["numbers_text"]

    def choices(self) -> dict[str, Any]:
        """The chosen bots and numbers (a number that is not a whole number in its range is
        refused with a sentence, as a :class:`SimulationError`)."""
        bots = list(self.bots.value) if self.question.tournament else [self.bots.value]
        low, high = self.question.players
        games, wrong_games = whole_number(self.games.value,
                                          f"The number in {self.games.description}", 1, MAX_GAMES)
        players, wrong_players = whole_number(self.players.value, "The number of players",
                                              low, high)
        if wrong_games or wrong_players:
            raise _engine("games").SimulationError(wrong_games or wrong_players)
        return {"bots": bots, "games": games, "players": players}

    def press(self, progress: bool = True) -> None:
        """Play the chosen games (the bar shows progress) and show the chart and sentence."""
        SimulationError, answer = _engine("games").SimulationError, _engine("questions").answer
        self.run.disabled = True
        self.words.value = "<i>Playing the games…</i>"
        try:
            self.bar.clear_output()
            with self.bar:
                result = answer(self.question.key, progress=progress, **self.choices())
        except SimulationError as exc:
            self.words.value = f"<b>Cannot run:</b> {escape(str(exc))}"
            return
        finally:
            self.run.disabled = False
        self._answer, self._opened = result, None
        self.chart.value = result.png()
        self.words.value = f"<p>{escape(result.text)}</p>"
        self.table.value = self.numbers_html()
        self.games_box.value = self.games_table(GAMES_SHOWN).value

    def numbers(self, digits: int = 2) -> str:
        """The numbers behind the chart as plain text (for the notebook's checked output)."""
        if self._answer is None and self._opened is not None and digits == 2:
            return self._numbers_text
        if self.answer is None:
            return ""
        table = self.answer.table.round(digits)
        return table.rename(columns=heading).to_string(index=False)

    def numbers_html(self, digits: int = 2) -> str:
        """The numbers behind the chart as an HTML table with words for headings."""
        if self._answer is None:
            return ""
        table = self.answer.table.round(digits).rename(columns=heading)
        return ("<p><b>The numbers behind the chart</b></p>"
                + table.to_html(index=False, border=0, classes="pangaea-numbers"))

    def games_table(self, rows: int = 10) -> Any:
        """The first ``rows`` games behind the chart as a table with words for headings
        (an HTML widget): seed, who started, how the game ended, each seat's player, points
        and result."""
        import ipywidgets as w  # as in __init__
        if self._answer is None and self._opened is not None and rows == GAMES_SHOWN:
            return w.HTML(self.games_box.value)
        if self.answer is None or self.answer.games.empty:
            return w.HTML("<i>No games yet.</i>")
        return w.HTML(games_html(self.answer.games.head(rows)))


def _engine(name: str) -> Any:
    """This package's module ``name`` (``questions``, ``games``), loaded when first needed: a
    page that opens with stored answers loads neither the games nor pandas and matplotlib (the
    package loads its heavy parts on demand the same way, see ``pangaea_lab/__init__.py``)."""
    return importlib.import_module(f".{name}", __package__)


def _choices(key: str) -> Choices:
    """A question's choices: stored with the openings, else from the questions themselves."""
    stored = choices_of(key)
    if stored is not None:
        return stored
    QUESTIONS = _engine("questions").QUESTIONS
    if key not in QUESTIONS:
        raise _engine("games").SimulationError(f"no question {key!r}; the questions are "
                                                f"{', '.join(QUESTIONS)}")
    q = QUESTIONS[key]
    return Choices(key=key, title=q.title, players=q.players, bots=q.bots,
                   default_bots=q.default_bots, default_players=q.default_players,
                   default_games=q.default_games, tournament=q.tournament)


#: words for the columns of the numbers behind a chart
HEADINGS = {"low": "interval from", "high": "interval to", "place": "place in turn order"}


def heading(column: str) -> str:
    """A column of a question's table in words: ``rating_low`` -> ``rating interval from``."""
    if column in HEADINGS:
        return HEADINGS[column]
    for end, words in (("_low", " interval from"), ("_high", " interval to")):
        if column.endswith(end):
            return column[:-len(end)].replace("_", " ") + words
    return column.replace("_", " ")


def games_html(games: Any) -> str:
    """Games-table rows as an HTML table with words for headings."""
    players = int(games["players"].iloc[0])
    head = ["Game (seed)", "Seat that started", "Ended by"]
    for seat in range(players):
        head += [f"Seat {seat + 1}: player", f"Seat {seat + 1}: points",
                 f"Seat {seat + 1}: won"]
    body = []
    for row in games.to_dict("records"):
        ended = "the rules" if row.get("ended_by", "rules") == "rules" else \
            f"safety net ({row['ended_by']})"
        cells = [row["seed"], int(row["first_player"]) + 1, ended]
        for seat in range(players):
            cells += [row[f"p{seat}_bot"], row[f"p{seat}_total"],
                      "yes" if row[f"p{seat}_won"] else "no"]
        body.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in cells) + "</tr>")
    return ("<table class='pangaea-games'><thead><tr>"
            + "".join(f"<th>{escape(h)}</th>" for h in head)
            + "</tr></thead><tbody>" + "".join(body) + "</tbody></table>")


def ask(key: str, games: int | None = None, players: int | None = None, bots: Any = None,
        run_now: bool = True) -> Any:
    """The widget of a question (see :data:`~pangaea_lab.sim.questions.QUESTIONS` for keys);
    the root box, with the :class:`QuestionWidget` as ``box.question``."""
    q = QuestionWidget(key, games=games, players=players, bots=bots, run_now=run_now)
    q.box.question = q   # type: ignore[attr-defined]
    return q.box
