"""A game's result as a page shows it to a student: Markdown with a score table whose headings
are words, and the winners named in a sentence (never a dict or a list of names).

>>> from types import SimpleNamespace
>>> from pangaea_lab.core.protocol import ScoreBreakdown
>>> final = SimpleNamespace(
...     scores=lambda: [ScoreBreakdown(0, (("Trees", 8), ("Water", 5))),
...                     ScoreBreakdown(1, (("Trees", 9), ("Water", 5)))],
...     winners=lambda: [1], player_name=lambda p: ("Red", "Blue")[p], num_players=2)
>>> print(result_markdown(final, seats=["greedy", "random"]).data)
| | Red (greedy) | Blue (random) |
|---|---:|---:|
| Trees | 8 | 9 |
| Water | 5 | 5 |
| **Total** | **13** | **14** |
<BLANKLINE>
Blue wins with 14 points.
"""

from __future__ import annotations

from typing import Any, Sequence

from .exercises import listed


def _cell(value: Any) -> str:
    return str(value).replace("|", "/")


def score_rows(final: Any, seats: Sequence[str] | None = None) -> list[str]:
    """The score table's Markdown lines: one column per player, one row per category."""
    scores = final.scores()
    names = [final.player_name(s.player) + (f" ({seats[s.player]})" if seats else "")
             for s in scores]
    categories: dict[str, None] = {}
    for s in scores:
        for name, _ in s.categories:
            categories.setdefault(name, None)
    lines = ["| | " + " | ".join(_cell(n) for n in names) + " |",
             "|---|" + "---:|" * len(names)]
    for name in categories:
        points = [dict(s.categories).get(name, 0) for s in scores]
        lines.append(f"| {_cell(name)} | " + " | ".join(str(p) for p in points) + " |")
    lines.append("| **Total** | " + " | ".join(f"**{s.total}**" for s in scores) + " |")
    return lines


def winners_sentence(final: Any) -> str:
    """"Blue wins with 14 points." (or a shared win, or a solo score)."""
    best = list(final.winners())
    if not best:
        return "Nobody wins."
    names = listed(final.player_name(p) for p in best)
    points = final.scores()[best[0]].total
    if getattr(final, "num_players", 2) == 1:
        return f"{names} scores {points} points."
    verb = "wins" if len(best) == 1 else "share the win"
    return f"{names} {verb} with {points} points."


def result_markdown(final: Any, seats: Sequence[str] | None = None, before: str = "") -> Any:
    """The result of a finished game as Markdown (``IPython.display.Markdown``): ``before``
    (a sentence of the page's own), the score table (``seats``: who played each seat, shown
    next to the player's name) and the winners."""
    from IPython.display import Markdown   # only when shown in a notebook

    parts = ([before, ""] if before else []) + score_rows(final, seats) + ["",
                                                                            winners_sentence(final)]
    return Markdown("\n".join(parts))
