"""All of Inori's scoring: the points an effect gives at once, complete cards at the end of a
season, Great Tree majorities at the end of the game, each player's breakdown and the winners.

These functions take plain values (card ids with who sits on each space, favor counts), so a
learner can score a position built by hand as well as a position from a game:

>>> from pangaea_lab.inori import load_edition
>>> ed = load_edition()
>>> favor = [[0, 0, 4, 0, 0, 0], [0, 0, 1, 0, 0, 0]]        # water is the 3rd colour
>>> card = score_card(ed, "J-water-1", [(0,), (1, 0)], favor)
>>> card["complete"], card["points"]
(True, {0: 4, 1: 1})
"""

from __future__ import annotations

from typing import Any, Sequence

from ..core.protocol import ScoreBreakdown
from .board import NEUTRAL
from .cards import Effect
from .edition import Edition

Occupancy = Sequence[Sequence[int]]

#: score categories, in display order (a state keeps one number per category and player)
CATEGORIES = ("Card spaces", "Great Tree", "Season cards", "Altar majorities")
CARD_PTS, TREE_PTS, SEASON_PTS, MAJ_PTS = range(len(CATEGORIES))

#: the effects that score points at once, when a marker is placed
POINT_EFFECTS = ("points_distinct", "points_colour", "points_majority", "points",
                 "points_altar_colour")


def majority_colours(holdings: Sequence[int], colours: Sequence[str]) -> list[str]:
    """Your majority colour(s): the colours you hold most of (empty if you hold nothing)."""
    best = max(holdings)
    return [c for c, n in zip(colours, holdings) if n == best] if best > 0 else []


def least_colours(holdings: Sequence[int], colours: Sequence[str]) -> list[str]:
    """Your least-held colour(s), counting colours you do not hold at all."""
    low = min(holdings)
    return [c for c, n in zip(colours, holdings) if n == low]


def effect_points(edition: Edition, effect: Effect, held: Sequence[int],
                  altar: str | None = None) -> int:
    """The points an effect scores at once for a player holding ``held`` favor tokens (rules
    summary, "Offer to a Card" and "Offer to the Great Tree"); 0 for an effect that scores
    nothing.

    >>> from pangaea_lab.inori import load_edition
    >>> effect_points(load_edition(), Effect("points_distinct"), [2, 0, 1, 0, 0, 3])
    3
    """
    t = effect.type
    if t == "points_distinct":
        return sum(1 for n in held if n > 0)
    if t == "points_colour":
        return held[edition.colours.index(effect.colour)]
    if t == "points_majority":
        return max(held)
    if t == "points":
        return effect.count
    if t == "points_altar_colour":
        return held[edition.colours.index(altar)]
    return 0


def is_complete(spaces: Occupancy) -> bool:
    """A card is complete when every space has a marker on it (neutral markers count)."""
    return all(len(s) > 0 for s in spaces)


def present_players(spaces: Occupancy) -> list[int]:
    """Players with at least one marker on a card (each counted once, neutral left out)."""
    return sorted({m for s in spaces for m in s if m != NEUTRAL})


def score_card(edition: Edition, card_id: str, spaces: Occupancy,
               favor: Sequence[Sequence[int]]) -> dict:
    """End-of-season result of one card (rules summary, "End of Season").

    A complete card gives each player present 1 point per favor token they hold in its
    top-right colour, once per player however many markers they have there; it is replaced
    by a card of that colour.  An incomplete card scores nothing (unless the edition gives it a
    bottom-right score) and is replaced by a card of its bottom-right colour."""
    card = edition.cards[card_id]
    complete = is_complete(spaces)
    present = present_players(spaces)
    colour = card.complete_colour if complete else card.incomplete_score
    points = {}
    if colour is not None:
        k = edition.colours.index(colour)
        points = {p: favor[p][k] for p in present}
    return {"card": card_id, "name": card.name, "complete": complete, "present": present,
            "scored_colour": colour, "points": points,
            "next_colour": card.complete_colour if complete else card.incomplete_colour}


def score_majorities(edition: Edition, altars: Sequence[str | None],
                     favor: Sequence[Sequence[int]]) -> list[dict]:
    """1st and 2nd place on every tree space with an Altar tile (rules summary, "End of Game").

    Players tied for 1st all score the 1st value and nobody scores 2nd; players tied for 2nd
    all score the 2nd value.  A player needs at least one token of the colour to place."""
    results = []
    for i, colour in enumerate(altars):
        if colour is None:
            continue
        space = edition.tree[i]
        k = edition.colours.index(colour)
        counts = {p: row[k] for p, row in enumerate(favor)}
        ranked = sorted({n for n in counts.values() if n > 0}, reverse=True)
        first = [p for p, n in counts.items() if ranked and n == ranked[0]]
        second: list[int] = []
        if len(first) == 1 and len(ranked) > 1:
            second = [p for p, n in counts.items() if n == ranked[1]]
        points = {p: space.first for p in first}
        points.update({p: space.second for p in second})
        results.append({"space": i, "space_id": space.id, "colour": colour,
                        "counts": counts, "first": first, "second": second,
                        "values": (space.first, space.second), "points": points})
    return results


def scores(state: Any) -> list[ScoreBreakdown]:
    """Each player's points by category (the state keeps them as they are scored)."""
    return [_breakdown(p, state.points[p]) for p in range(state.players)]


def _breakdown(player: int, points: tuple[int, ...]) -> ScoreBreakdown:
    """A player's points as a breakdown: immutable, so each one is made once and reused
    (points change a few times a turn, and scores are asked for far more often)."""
    key = (player, points)
    try:
        made = _BREAKDOWNS.get(key)
    except TypeError:                       # a hand-made position with a list of points
        return ScoreBreakdown(player=player, categories=tuple(zip(CATEGORIES, points)))
    if made is None:
        if len(_BREAKDOWNS) >= 20_000:      # a bound on memory: start the table again
            _BREAKDOWNS.clear()
        made = _BREAKDOWNS[key] = ScoreBreakdown(player=player,
                                                 categories=tuple(zip(CATEGORIES, points)))
    return made


_BREAKDOWNS: dict[tuple, ScoreBreakdown] = {}


def winners(state: Any) -> list[int]:
    """Most points; the edition's tie-break (most favor tokens left) settles a tie, and a tie
    that remains is a shared win.  Empty until the game is over."""
    if not state.over:
        return []
    totals = [sum(p) for p in state.points]
    best = [p for p in range(state.players) if totals[p] == max(totals)]
    if state.edition.tie_break == "most_favor_left" and len(best) > 1:
        left = {p: sum(state.favor[p]) for p in best}
        best = [p for p in best if left[p] == max(left.values())]
    return best


def season_end_preview(state) -> dict:
    """What would happen if the season ended now: each card's result and, for the final
    season, the majorities.  Used by the season-end explorer."""
    ed = state.edition
    cards = [dict(score_card(ed, cid, spaces, state.favor), slot=i)
             for i, (cid, spaces) in enumerate(state.slots)]
    totals = [0] * state.num_players
    for c in cards:
        for p, n in c["points"].items():
            totals[p] += n
    majorities = score_majorities(ed, state.altars, state.favor)
    return {"season": state.season, "cards": cards, "card_points": totals,
            "majorities": majorities}


def describe_preview(state, preview: dict | None = None) -> str:
    """The season-end preview in plain lines."""
    ed = state.edition
    pv = preview or season_end_preview(state)
    lines = [f"Season {pv['season']} end, if it happened now:"]
    for c in pv["cards"]:
        who = ", ".join(state.player_name(p) for p in c["present"]) or "nobody"
        status = "complete" if c["complete"] else "incomplete"
        pts = ", ".join(f"{state.player_name(p)} +{n}" for p, n in c["points"].items())
        scored = f" scores {ed.colour_name(c['scored_colour'])}: {pts or 'nobody present'}" \
            if c["scored_colour"] else " scores nothing"
        lines.append(f"  card {c['slot'] + 1} {c['name']}: {status}, present: {who};{scored}; "
                     f"next card colour: {ed.colour_name(c['next_colour'])}")
    lines.append("Great Tree majorities (scored after the last season):")
    if not pv["majorities"]:
        lines.append("  no altar placed yet")
    for m in pv["majorities"]:
        counts = ", ".join(f"{state.player_name(p)}: {n}" for p, n in m["counts"].items())
        first = ", ".join(state.player_name(p) for p in m["first"]) or "nobody"
        second = ", ".join(state.player_name(p) for p in m["second"]) or "nobody"
        lines.append(f"  {m['space_id']} ({ed.colour_name(m['colour'])}, "
                     f"{m['values'][0]}/{m['values'][1]}): {counts}; 1st {first}; 2nd {second}")
    return "\n".join(lines)
