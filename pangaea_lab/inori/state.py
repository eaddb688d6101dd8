"""The changing state of an Inori game: an immutable value; ``apply`` returns a new one.

The rules themselves (what is legal, what an action does, the end of a season) live in
:mod:`.rules`; this module holds the data, JSON save/load, summaries and the component-count
checks.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Iterable

from ..core.errors import InvalidData
from ..core.jsonio import FORMAT_VERSION, convert, dumps, open_save
from ..core.protocol import Action, GameState, ScoreBreakdown
from .board import NEUTRAL
from ..core.validate import count, guarded_apply, kind_of, load_guarded, require
from .edition import Edition, edition_of_save

#: score categories, in display order
CATEGORIES = ("Card spaces", "Great Tree", "Season cards", "Altar majorities")

Slot = tuple[str, tuple[tuple[int, ...], ...]]


@dataclass(frozen=True, eq=True, repr=False)
class InoriState(GameState):
    """A position of an Inori game.  Build one with :func:`pangaea_lab.inori.new_game`.

    Favor counts are per player, per colour in the edition's colour order.  ``slots`` holds the
    cards on the board, each as (card id, markers on each space; -1 is a neutral marker).
    """

    game: ClassVar[str] = "inori"

    edition: Edition
    players: int
    seed: int | str
    schedule: tuple[int, ...]
    season: int
    first_player: int
    turn: int
    hand: tuple[int, ...]
    set_aside: tuple[int, ...]
    favor: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    root_colours: tuple[str, ...]
    root_tokens: tuple[int, ...]
    slots: tuple[Slot, ...]
    piles: tuple[tuple[str, ...], ...]
    new_start_deck: tuple[str, ...]
    unused_start: tuple[str, ...]
    spent_cards: tuple[str, ...]
    altars: tuple[str | None, ...]
    tree_markers: tuple[int | None, ...]
    neutral_home: int
    rune_deck: tuple[str, ...]
    rune_hands: tuple[tuple[str, ...], ...]
    runes_used: tuple[str, ...]
    points: tuple[tuple[int, ...], ...]
    offered: bool
    pending: tuple[tuple, ...]
    over: bool
    reports: tuple[Any, ...]

    # ----- protocol ------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def current_player(self) -> int | None:
        if self.over:
            return None
        if self.pending and self.pending[0][0] in ("new_start", "rune_window"):
            return self.pending[0][1]
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Action]:
        from .rules import legal_actions
        return legal_actions(self)

    def apply(self, action: Action) -> "InoriState":
        from .actions import ACTION_TYPES
        from .rules import apply_action
        return guarded_apply(self, action, ACTION_TYPES, lambda: apply_action(self, action),
                             "Inori")

    def scores(self) -> list[ScoreBreakdown]:
        return [ScoreBreakdown(player=p, categories=tuple(zip(CATEGORIES, self.points[p])))
                for p in range(self.players)]

    def winners(self) -> list[int]:
        """Most points; the labelled tie-break (most favor tokens left) settles a tie, and a
        tie that remains is a shared win."""
        if not self.over:
            return []
        totals = [sum(p) for p in self.points]
        best = [p for p in range(self.players) if totals[p] == max(totals)]
        if self.edition.tie_break == "most_favor_left" and len(best) > 1:
            left = {p: sum(self.favor[p]) for p in best}
            best = [p for p in best if left[p] == max(left.values())]
        return best

    # ----- display -------------------------------------------------------------------------

    def player_name(self, player: int) -> str:
        return f"Player {player + 1}"

    def player_summary(self, player: int) -> str:
        ed = self.edition
        held = ", ".join(f"{ed.names[c]} {n}" for c, n in zip(ed.colours, self.favor[player])
                         if n) or "no favor"
        runes = ", ".join(ed.runes[r].describe(ed.names) for r in self.rune_hands[player])
        waiting = self.schedule[-1] - self.schedule[self.season - 1]
        return (f"{sum(self.points[player])} points; favor: {held}; markers in hand "
                f"{self.hand[player]}, waiting for later seasons {waiting}; "
                f"runes: {runes or 'none'}")

    def to_svg(self, highlight: Iterable[Any] = ()) -> str:
        from .render import board_svg
        return board_svg(self, highlight=highlight)

    def evaluate(self, action: Action, player: int) -> float:
        """How good ``action`` looks for ``player`` (used by the greedy computer player)."""
        from .rules import evaluate
        return evaluate(self, action, player)

    def action_highlight(self, action: Action) -> list[tuple]:
        from .render import action_cells
        return action_cells(self, action)

    def describe_card(self, slot: int) -> str:
        from .render import card_text
        return card_text(self, slot)

    def __repr__(self) -> str:
        status = "game over" if self.over else \
            f"{self.player_name(self.current_player)} to play"  # type: ignore[arg-type]
        return (f"<Inori game: {self.players} players, seed {self.seed!r}, season "
                f"{self.season}, {status}; edition {self.edition.name!r} "
                f"[{self.edition.label}]>")

    # ----- helpers -------------------------------------------------------------------------

    def colour_index(self, colour: str) -> int:
        return self.edition.colours.index(colour)

    def markers_on_board(self, player: int) -> int:
        on_cards = sum(s.count(player) for _, spaces in self.slots for s in spaces)
        return on_cards + sum(1 for m in self.tree_markers if m == player)

    # ----- invariants ----------------------------------------------------------------------

    def check_invariants(self) -> None:
        ed = self.edition
        for k, colour in enumerate(ed.colours):
            held = sum(row[k] for row in self.favor)
            roots = sum(n for c, n in zip(self.root_colours, self.root_tokens) if c == colour)
            require(self.supply[k] >= 0 and all(row[k] >= 0 for row in self.favor))
            require(held + self.supply[k] + roots == ed.favor_per_colour,
                    f"{colour} favor tokens not conserved")
        season_markers = self.schedule[self.season - 1]
        placed = [0] * self.players
        neutral_out = 0
        for _, spaces in self.slots:
            for s in spaces:
                for m in s:
                    if m == NEUTRAL:
                        neutral_out += 1
                    else:
                        placed[m] += 1
                require(len(set(s)) == len(s), "a player twice on one space")
                require(NEUTRAL not in s or len(s) == 1, "a neutral marker shares a space")
        for m in self.tree_markers:
            if m is not None:
                placed[m] += 1
        for p in range(self.players):
            used = placed[p] + self.set_aside[p]
            if not self.over:
                require(self.hand[p] + used == season_markers, f"player {p} markers not conserved")
            else:
                require(self.hand[p] == 0 and used == 0)
        require(neutral_out + self.neutral_home == ed.neutral_markers, "neutral markers lost")
        runes = list(self.rune_deck) + list(self.runes_used)
        for h in self.rune_hands:
            runes += h
        require(sorted(runes) == sorted(ed.runes), "rune tiles not conserved")
        cards = [c for c, _ in self.slots] + list(self.new_start_deck)
        for group in (*self.piles, self.unused_start, self.spent_cards):
            cards += group
        for item in self.pending:
            if item[0] == "new_start":
                cards += item[2]
        require(sorted(cards) == sorted(ed.cards), "cards not conserved")
        require(len([a for a in self.altars if a]) == len({a for a in self.altars if a}))

    # ----- JSON ----------------------------------------------------------------------------

    def to_json(self) -> str:
        data: dict[str, Any] = {"game": self.game, "format": FORMAT_VERSION}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "edition":
                value = "reference" if value.is_reference else value.raw
            data[f.name] = value
        return dumps(data)

    @classmethod
    def from_json(cls, text: str) -> "InoriState":
        return load_guarded("Inori save file", lambda: cls._from_json(text))

    @classmethod
    def _from_json(cls, text: str) -> "InoriState":
        data = open_save(text, cls.game)
        edition = edition_of_save(data.get("edition", "reference"))
        names = [f.name for f in fields(cls)]
        missing = [n for n in names if n not in data]
        if missing:
            raise InvalidData(f"missing field {missing[0]!r} in the Inori save file")
        _check_raw(data, edition)

        def tup(x: Any) -> Any:
            return tuple(tup(v) for v in x) if isinstance(x, list) else x

        def build() -> InoriState:
            values = {n: tup(data[n]) for n in names if n not in ("edition", "reports")}
            values["reports"] = tuple(data["reports"])
            return cls(edition=edition, **values)

        state = convert("the Inori save file", build)
        convert("the Inori save file", lambda: _check_save(state))
        return state


def _check_raw(data: dict, ed: Edition) -> None:
    """Every field of a save checked for its declared type, size and range before the state is
    built; errors name the field's path, e.g. ``altars[4]: expected a colour id or null``."""
    n = count(data["players"], "players", 2, 4)
    colours, trees = len(ed.colours), len(ed.tree)
    markers = max(ed.markers_total.values())

    def seq(key: str, length: int | None = None, high: int = 400) -> list:
        v = data[key]
        if not isinstance(v, list):
            raise InvalidData(f"{key}: expected a list, got {kind_of(v)}")
        if length is not None and len(v) != length:
            raise InvalidData(f"{key}: expected {length} entries, got {len(v)}")
        if len(v) > high:
            raise InvalidData(f"{key}: expected at most {high} entries, got {len(v)}")
        return v

    def ids(value: Any, where: str, known: Any, what: str) -> None:
        if not isinstance(value, list) or len(value) > 400:
            raise InvalidData(f"{where}: expected a list of {what} ids, got {kind_of(value)}")
        for k, x in enumerate(value):
            if not isinstance(x, str) or x not in known:
                raise InvalidData(f"{where}[{k}]: expected a {what} id of this edition, got "
                                  f"{kind_of(x)} {str(x)[:30]!r}")

    def player_or(v: Any, where: str, extra: tuple = ()) -> None:
        if v in extra and not isinstance(v, bool):
            return
        count(v, where, 0, n - 1)

    if not isinstance(data["seed"], (int, str)) or isinstance(data["seed"], bool) or \
            len(str(data["seed"])) > 200:
        raise InvalidData("seed: expected a whole number or a short text")
    for k, x in enumerate(seq("schedule", ed.seasons)):
        count(x, f"schedule[{k}]", 0, markers)
    if tuple(data["schedule"]) not in [tuple(t[n]) for t in ed.schedules.values()]:
        raise InvalidData(f"schedule: {data['schedule']} is not a marker schedule of this "
                          f"edition for {n} players")
    count(data["season"], "season", 1, ed.seasons)
    player_or(data["first_player"], "first_player")
    player_or(data["turn"], "turn")
    for key in ("hand", "set_aside"):
        for k, x in enumerate(seq(key, n)):
            count(x, f"{key}[{k}]", 0, markers)
    for p, row in enumerate(seq("favor", n)):
        if not isinstance(row, list) or len(row) != colours:
            raise InvalidData(f"favor[{p}]: expected {colours} counts, one per colour")
        for k, x in enumerate(row):
            count(x, f"favor[{p}][{k}]", 0, ed.favor_per_colour)
    for k, x in enumerate(seq("supply", colours)):
        count(x, f"supply[{k}]", 0, ed.favor_per_colour)
    roots = sum(1 for t in ed.tree if not t.altar)
    ids(seq("root_colours", roots), "root_colours", ed.colours, "colour")
    for k, x in enumerate(seq("root_tokens", roots)):
        count(x, f"root_tokens[{k}]", 0, ed.favor_per_colour)
    for k, slot in enumerate(seq("slots", high=40)):
        w = f"slots[{k}]"
        if not isinstance(slot, list) or len(slot) != 2:
            raise InvalidData(f"{w}: expected [card id, spaces], got {kind_of(slot)}")
        ids([slot[0]], w, ed.cards, "card")
        spaces = slot[1]
        if not isinstance(spaces, list) or len(spaces) != len(ed.cards[slot[0]].spaces):
            raise InvalidData(f"{w}[1]: expected the markers on each of the card's "
                              f"{len(ed.cards[slot[0]].spaces)} spaces")
        for j, on in enumerate(spaces):
            if not isinstance(on, list) or len(on) > n:
                raise InvalidData(f"{w}[1][{j}]: expected a list of markers, got {kind_of(on)}")
            for m, x in enumerate(on):
                player_or(x, f"{w}[1][{j}][{m}]", (NEUTRAL,))
    for k, pile in enumerate(seq("piles", colours)):
        ids(pile, f"piles[{k}]", ed.cards, "card")
    for key in ("new_start_deck", "unused_start", "spent_cards"):
        ids(data[key], key, ed.cards, "card")
    for k, x in enumerate(seq("altars", trees)):
        if x is not None and (not isinstance(x, str) or x not in ed.altar_colours
                              or not ed.tree[k].altar):
            raise InvalidData(f"altars[{k}]: expected an altar colour id or null, got "
                              f"{kind_of(x)}")
    for k, x in enumerate(seq("tree_markers", trees)):
        if x is not None:
            player_or(x, f"tree_markers[{k}]")
    count(data["neutral_home"], "neutral_home", 0, ed.neutral_markers)
    ids(data["rune_deck"], "rune_deck", ed.runes, "rune")
    ids(data["runes_used"], "runes_used", ed.runes, "rune")
    for p, hand in enumerate(seq("rune_hands", n)):
        ids(hand, f"rune_hands[{p}]", ed.runes, "rune")
    for p, row in enumerate(seq("points", n)):
        if not isinstance(row, list) or len(row) != len(CATEGORIES):
            raise InvalidData(f"points[{p}]: expected {len(CATEGORIES)} numbers, one per "
                              "scoring category")
        for k, x in enumerate(row):
            count(x, f"points[{p}][{k}]", 0, 10_000)
    for key in ("offered", "over"):
        if not isinstance(data[key], bool):
            raise InvalidData(f"{key}: expected true/false, got {kind_of(data[key])}")
    for k, item in enumerate(seq("pending", high=20)):
        _check_pending(item, f"pending[{k}]", ed, n)
    done = data["season"] if data["over"] else data["season"] - 1   # seasons already scored
    for k, r in enumerate(seq("reports", length=done)):
        if not isinstance(r, dict):
            raise InvalidData(f"reports[{k}]: expected an object, got {kind_of(r)}")


def _check_pending(item: Any, where: str, ed: Edition, n: int) -> None:
    """One queued decision: ``[kind, ...]`` with the fields that kind needs."""
    if not isinstance(item, list) or not item or not isinstance(item[0], str):
        raise InvalidData(f"{where}: expected [kind, ...], got {kind_of(item)}")
    kind, rest = item[0], item[1:]
    if kind == "new_start":
        if len(rest) != 2:
            raise InvalidData(f"{where}: expected ['new_start', player, [card ids]]")
        count(rest[0], f"{where}[1]", 0, n - 1)
        if not isinstance(rest[1], list) or not rest[1] or len(rest[1]) > len(ed.cards) or \
                not all(isinstance(c, str) and c in ed.new_start_ids for c in rest[1]):
            raise InvalidData(f"{where}[2]: expected a non-empty list of New Start card ids")
    elif kind == "altar":
        if len(rest) != 1:
            raise InvalidData(f"{where}: expected ['altar', tree space]")
        count(rest[0], f"{where}[1]", 0, len(ed.tree) - 1)
        if not ed.tree[rest[0]].altar:
            raise InvalidData(f"{where}[1]: tree space {rest[0]} holds no altar")
    elif kind == "rune_window":
        if len(rest) != 1:
            raise InvalidData(f"{where}: expected ['rune_window', player]")
        count(rest[0], f"{where}[1]", 0, n - 1)
    elif kind in ("favor_any", "favor_least", "block"):
        if len(rest) != 1:
            raise InvalidData(f"{where}: expected [{kind!r}, count]")
        count(rest[0], f"{where}[1]", 1, 50)
    else:
        raise InvalidData(f"{where}[0]: unknown decision {kind[:30]!r}")


def _check_save(state: InoriState) -> None:
    """Reject a save whose fields do not fit together, naming the field."""
    ed = state.edition
    if not 2 <= state.players <= 4:
        raise InvalidData(f"field 'players' must be 2, 3 or 4, found {state.players!r}")
    for name in ("hand", "set_aside", "favor", "rune_hands", "points"):
        if len(getattr(state, name)) != state.players:
            raise InvalidData(f"field {name!r} must have one entry per player")
    def whole(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and x >= 0

    for name in ("hand", "set_aside", "supply", "root_tokens"):
        if not all(whole(x) for x in getattr(state, name)):
            raise InvalidData(f"field {name!r} must hold whole numbers of 0 or more")
    for name in ("favor", "points"):
        if not all(isinstance(row, tuple) and all(whole(x) for x in row)
                   for row in getattr(state, name)):
            raise InvalidData(f"field {name!r} must hold one list of whole numbers per player")
    for cid, _ in state.slots:
        if cid not in ed.cards:
            raise InvalidData(f"field 'slots': unknown card id {cid!r} for this edition")
    for r in state.rune_deck:
        if r not in ed.runes:
            raise InvalidData(f"field 'rune_deck': unknown rune id {r!r}")
    if len(state.altars) != len(ed.tree) or len(state.tree_markers) != len(ed.tree):
        raise InvalidData("fields 'altars' and 'tree_markers' need one entry per tree space")
    if not 1 <= state.season <= ed.seasons:
        raise InvalidData(f"field 'season' must be 1 to {ed.seasons}")
    try:
        state.check_invariants()
    except (AssertionError, KeyError, IndexError, TypeError, ValueError) as exc:
        raise InvalidData(f"the Inori save file breaks a component count: {exc}") from None
