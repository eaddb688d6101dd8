"""A question as a widget: choose the computer players, the number of players and of games,
press Run, watch the progress bar, see the chart and a sentence about it.

The widget answers once when it is built (so the page opens with a chart); ``widget.answer``
is the last :class:`~pangaea_lab.sim.questions.Answer`, ``widget.run`` the Run button.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .games import SimulationError
from .questions import QUESTIONS, Answer, answer

#: the most games one press of Run may ask for in the classroom app
MAX_GAMES = 2000


class QuestionWidget:
    """The controls and outputs of one question; :meth:`widget` is the root box."""

    def __init__(self, key: str, games: int | None = None, players: int | None = None,
                 bots: Any = None, run_now: bool = True) -> None:
        import ipywidgets as w  # widgets only when a question is shown
        if key not in QUESTIONS:
            raise SimulationError(f"no question {key!r}; the questions are "
                                  f"{', '.join(QUESTIONS)}")
        q = self.question = QUESTIONS[key]
        low, high = q.players
        self.players = w.BoundedIntText(value=min(max(players or q.default_players, low), high),
                                        min=low, max=high, description="Players",
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
        self.games = w.BoundedIntText(value=games or q.default_games, min=1, max=MAX_GAMES,
                                      description=per, style={"description_width": "initial"},
                                      layout=w.Layout(width="190px"))
        self.run = w.Button(description="Run", button_style="success", icon="play",
                            tooltip="Play the games and draw the chart")
        self.bar = w.Output()
        self.chart = w.Image(format="png", layout=w.Layout(max_width="760px"))
        self.words = w.HTML()
        self.answer: Answer | None = None
        self.run.on_click(lambda _: self.press())
        self.box = w.VBox([w.HTML(f"<b>{escape(q.title)}</b>"),
                           w.HBox([self.bots, self.players, self.games, self.run]),
                           self.bar, self.chart, self.words])
        self.box.add_class("pangaea-question")
        if run_now:
            self.press()

    def choices(self) -> dict[str, Any]:
        bots = list(self.bots.value) if self.question.tournament else [self.bots.value]
        return {"bots": bots, "games": self.games.value, "players": self.players.value}

    def press(self) -> None:
        """Play the chosen games (the bar shows progress) and show the chart and sentence."""
        self.run.disabled = True
        self.words.value = "<i>Playing the games…</i>"
        try:
            self.bar.clear_output()
            with self.bar:
                result = answer(self.question.key, progress=True, **self.choices())
        except SimulationError as exc:
            self.words.value = f"<b>Cannot run:</b> {escape(str(exc))}"
            return
        finally:
            self.run.disabled = False
        self.answer = result
        self.chart.value = result.png()
        self.words.value = f"<p>{escape(result.text)}</p>"

    def numbers(self, digits: int = 2) -> str:
        """The numbers behind the chart as plain text (for the notebook's checked output)."""
        if self.answer is None:
            return ""
        words = {"low": "interval from", "high": "interval to", "place": "place in turn order"}
        table = self.answer.table.round(digits)
        table = table.rename(columns=lambda c: words.get(c, c.replace("_", " ")))
        return table.to_string(index=False)


def ask(key: str, games: int | None = None, players: int | None = None, bots: Any = None,
        run_now: bool = True) -> Any:
    """The widget of a question (see :data:`~pangaea_lab.sim.questions.QUESTIONS` for keys);
    the root box, with the :class:`QuestionWidget` as ``box.question``."""
    q = QuestionWidget(key, games=games, players=players, bots=bots, run_now=run_now)
    q.box.question = q   # type: ignore[attr-defined]
    return q.box
