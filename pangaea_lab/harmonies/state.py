"""The changing state of a Harmonies game: plain tuples in frozen dataclasses.

Each player's board is a tuple of stacks (colours bottom to top) in the cell order of
:func:`pangaea_lab.harmonies.board.cells`, plus a tuple saying which card's cube sits on each
space (0 for none).  The static board graph is shared and never copied.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Iterable

from ..core import jsonio
from ..core.errors import InvalidData, PangaeaLabError
from ..core.protocol import Action, GameState, ScoreBreakdown
from ..core.svg import SvgImage, as_image
from ..core.validate import guarded_apply, load_guarded, require
from .board import Cell, Stack, cells, legal_stacks, rules_data
from .cards import Card, animal_ids, card, spirit_ids
from .scoring import RIVER_RULES, BoardScore, landscape_score, solo_suns, spirit_points


@dataclass(frozen=True)
class PlayerArea:
    """One player's board, cubes and cards."""

    stacks: tuple[Stack, ...]
    #: card number whose cube sits on each space, 0 for none
    cubes: tuple[int, ...]
    #: (card number, cubes placed) for every card taken, the kept spirit included
    cards: tuple[tuple[int, int], ...]
    #: the two spirits dealt, until one is kept
    spirit_offer: tuple[int, ...]
    turns: int

    def empty_spaces(self) -> int:
        return sum(1 for s in self.stacks if not s)

    def spirit(self) -> Card | None:
        """The kept spirit card, if any."""
        for c, _ in self.cards:
            if card(c).is_spirit:
                return card(c)
        return None


@dataclass(frozen=True)
class HarmoniesState(GameState):
    """A position of a Harmonies game.  Use :func:`pangaea_lab.harmonies.new_game`."""

    game: ClassVar[str] = "harmonies"

    side: str
    spirits: bool
    seed: int | str
    river_rule: str
    tiebreak_counts_spirit: bool
    #: tokens still in the pouch, in draw order
    pouch: tuple[str, ...]
    #: tokens on each central board space
    central: tuple[tuple[str, ...], ...]
    #: animal draw pile, top first
    deck: tuple[int, ...]
    #: face-up animal cards
    row: tuple[int, ...]
    #: cards discarded in solo play
    discard_pile: tuple[int, ...]
    #: tokens put back in the box (solo: the untaken ones each turn)
    boxed_tokens: tuple[str, ...]
    #: spirit cards not in play
    boxed_spirits: tuple[int, ...]
    areas: tuple[PlayerArea, ...]
    player: int
    #: tokens taken this turn and not yet placed
    hand: tuple[str, ...]
    took_tokens: bool
    took_card: bool
    discarded: bool
    #: why the end was triggered ("" until then)
    end_reason: str
    over: bool
    #: animal cubes left in the supply
    cube_supply: int
    _cache: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    # ----- protocol ----------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.areas)

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.player

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def solo(self) -> bool:
        return len(self.areas) == 1

    def legal_actions(self) -> list[Action]:
        if "legal" not in self._cache:
            from .rules import legal_actions
            self._cache["legal"] = legal_actions(self)
        return list(self._cache["legal"])

    def apply(self, action: Action) -> "HarmoniesState":
        from .actions import ACTION_TYPES
        return guarded_apply(self, action, ACTION_TYPES, lambda: self._apply(action),
                             "Harmonies")

    def _apply(self, action: Action) -> "HarmoniesState":
        from .rules import apply, why_illegal
        if self.over:
            raise self.reject("the game is over", rule="End of the game")
        if "legal_set" not in self._cache:
            self._cache["legal_set"] = frozenset(self.legal_actions())
        if action not in self._cache["legal_set"]:
            reason, rule = why_illegal(self, action)
            raise self.reject(reason, rule=rule, like=type(action))
        return apply(self, action)

    def player_name(self, player: int) -> str:
        return "Solo player" if self.solo else f"Player {player + 1}"

    # ----- scoring -----------------------------------------------------------------------

    def board_score(self, player: int) -> BoardScore:
        """Landscape points of a player's board."""
        key = ("board", player)
        if key not in self._cache:
            self._cache[key] = landscape_score(self.side, self.areas[player].stacks,
                                               self.river_rule)
        return self._cache[key]

    def card_scores(self, player: int) -> list[tuple[Card, int, int]]:
        """(card, cubes placed, points) for each card a player took."""
        area = self.areas[player]
        out = []
        for c, k in area.cards:
            cd = card(c)
            if cd.is_spirit:
                pts = spirit_points(cd, self.side, area.stacks) if k else 0
            else:
                pts = cd.value(k)
            out.append((cd, k, pts))
        return out

    def scores(self) -> list[ScoreBreakdown]:
        if "scores" not in self._cache:
            out = []
            for p in range(self.num_players):
                b = self.board_score(p)
                cs = self.card_scores(p)
                animals = sum(pts for cd, _, pts in cs if not cd.is_spirit)
                spirit = sum(pts for cd, _, pts in cs if cd.is_spirit)
                # the score pad counts a Nature's Spirit in the animal column ("Spirits")
                cats = b.rows() + (("Animal cards", animals + spirit),)
                notes = [f"landscapes: {b.total}",
                         f"animal cards: {animals} from animals"
                         + (f" + {spirit} from the spirit" if self.spirits else ""),
                         f"cubes placed: {self.cubes_placed(p)}"]
                if self.solo:
                    notes.append(f"suns: {self.suns()}")
                out.append(ScoreBreakdown(p, cats, tuple(notes)))
            self._cache["scores"] = out
        return list(self._cache["scores"])

    def cubes_placed(self, player: int, count_spirit: bool | None = None) -> int:
        """Cubes a player has put on their board (the tie-break)."""
        if count_spirit is None:
            count_spirit = self.tiebreak_counts_spirit
        return sum(1 for c in self.areas[player].cubes
                   if c and (count_spirit or not card(c).is_spirit))

    def winners(self) -> list[int]:
        """Highest total wins; a tie goes to the most cubes placed; still tied, shared."""
        if not self.over:
            return []
        key = [(s.total, self.cubes_placed(s.player)) for s in self.scores()]
        best = max(key)
        return [p for p, k in enumerate(key) if k == best]

    def suns(self) -> int:
        """Solo result in suns, modifiers for the side and the spirit included."""
        total = self.scores()[0].total if "scores" in self._cache else self._solo_total()
        spirit = self.areas[0].spirit() if self.spirits else None
        return solo_suns(total, self.side, spirit)

    def _solo_total(self) -> int:
        b = self.board_score(0)
        return b.total + sum(pts for _, _, pts in self.card_scores(0))

    def evaluate(self, action: Action, player: int) -> float:
        """Immediate gain for the greedy player: the change in score plus the change in what
        the cubes that could be placed right now would add (cube placement is free and may
        follow at once), so a greedy player builds habitats and collects cards."""
        from .actions import TakeCard
        after = self.apply(action)
        gain = after.scores()[player].total - self.scores()[player].total
        gain += after._cube_potential(player) - self._cube_potential(player)
        if isinstance(action, TakeCard) and not after._fits(player, action.card):
            gain += 0.5  # a card whose habitat is not built yet is still worth having
        return gain

    def _fits(self, player: int, card_id: int) -> bool:
        from .habitats import habitat_indices
        area = self.areas[player]
        return bool(habitat_indices(self.side, card_id, area.stacks, area.cubes))

    def _cube_potential(self, player: int) -> int:
        """Points the next cube of each unfinished card would add if placed now."""
        key = ("potential", player)
        if key not in self._cache:
            area = self.areas[player]
            total = 0
            for c, k in area.cards:
                cd = card(c)
                if k < cd.cubes and self._fits(player, c):
                    if cd.is_spirit:
                        total += spirit_points(cd, self.side, area.stacks)
                    else:
                        total += cd.value(k + 1) - cd.value(k)
            self._cache[key] = total
        return self._cache[key]

    # ----- descriptions ------------------------------------------------------------------

    def player_summary(self, player: int) -> str:
        area = self.areas[player]
        parts = []
        if area.spirit_offer:
            parts.append("spirits to choose from: "
                         + ", ".join(card(s).name for s in area.spirit_offer))
        for cd, k, pts in self.card_scores(player):
            tag = "spirit " if cd.is_spirit else ""
            parts.append(f"{tag}{cd.name} {k}/{cd.cubes} cubes ({pts} pts)")
        parts.append(f"{area.empty_spaces()} empty spaces")
        if player == self.player and self.hand:
            parts.append("holding " + ", ".join(self.hand))
        text = "; ".join(parts)
        if self.solo:
            text += f"; {self.scores()[0].total} points = {self.suns()} suns"
        return text

    def to_svg(self, highlight: Iterable[Any] = ()) -> SvgImage:
        """The whole table as a drawing (shows as a picture in a notebook)."""
        from .render import game_svg
        return as_image(game_svg(self, highlight))

    def action_highlight(self, action: Action) -> list[Cell]:
        """Cells to highlight for an action: where a token or cube would go, or every cell
        a card's habitat fits now."""
        from .actions import PlaceCube, PlaceToken, TakeCard
        from .habitats import habitat_indices
        if isinstance(action, (PlaceToken, PlaceCube)):
            return [action.cell]
        if isinstance(action, TakeCard):
            area = self.areas[self.player]
            all_cells = cells(self.side)
            return [all_cells[i] for i in habitat_indices(self.side, action.card,
                                                          area.stacks, area.cubes)]
        return []

    # ----- invariants --------------------------------------------------------------------

    def check_invariants(self) -> None:
        from .rules import token_counts
        mix = rules_data()["tokens"]["counts"]
        counts = token_counts(self)
        require(dict(counts) == {k: v for k, v in mix.items() if v},
                f"tokens not conserved: {dict(counts)}")
        legal = legal_stacks()
        for p, area in enumerate(self.areas):
            for s in area.stacks:
                require(not s or s in legal, f"player {p} holds an illegal stack {s}")
            for s, c in zip(area.stacks, area.cubes):
                require(not c or s, "a cube sits on an empty space")
        cb = rules_data()["central_board"]
        animal_cubes = self.cube_supply
        for area in self.areas:
            for c, k in area.cards:
                if not card(c).is_spirit:
                    animal_cubes += card(c).cubes - k
            animal_cubes += sum(1 for c in area.cubes if c and not card(c).is_spirit)
        require(animal_cubes == cb["animal_cubes"], f"animal cubes not conserved: {animal_cubes}")
        for area in self.areas:
            placed = Counter(c for c in area.cubes if c)
            for c, k in area.cards:
                require(placed[c] == k, f"card {c}: {k} cubes placed but {placed[c]} on board")
        seen = list(self.deck) + list(self.row) + list(self.discard_pile)
        seen += [c for a in self.areas for c, _ in a.cards if not card(c).is_spirit]
        require(sorted(seen) == sorted(animal_ids()), "animal cards not conserved")
        spirits = list(self.boxed_spirits)
        for a in self.areas:
            spirits += list(a.spirit_offer) + [c for c, _ in a.cards if card(c).is_spirit]
        require(sorted(spirits) == sorted(spirit_ids()), "spirit cards not conserved")
        require(sum(1 for a in self.areas if a.spirit()) <= cb["spirit_cubes"])

    # ----- JSON --------------------------------------------------------------------------

    def to_json(self) -> str:
        if "json" not in self._cache:
            data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "_cache"}
            data["areas"] = [{f.name: getattr(a, f.name) for f in fields(a)}
                             for a in self.areas]
            data["game"] = self.game
            data["format"] = jsonio.FORMAT_VERSION
            self._cache["json"] = jsonio.dumps(data)
        return self._cache["json"]

    @classmethod
    def from_json(cls, text: str | bytes) -> "HarmoniesState":
        return load_guarded("Harmonies save file",
                            lambda: _from_dict(cls, jsonio.open_save(text, cls.game)))


def _strs(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidData(f"field {where} must be a list of colour names")
    return tuple(value)


def _ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                              for v in value):
        raise InvalidData(f"field {where} must be a list of whole numbers")
    return tuple(value)


def _from_dict(cls: type[HarmoniesState], d: dict) -> HarmoniesState:
    f = jsonio.field
    side = f(d, "side", str, "save")
    if side not in ("A", "B"):
        raise InvalidData("field save.side must be 'A' or 'B'")
    n = len(cells(side))
    areas = []
    for p, a in enumerate(f(d, "areas", list, "save")):
        where = f"save.areas[{p}]"
        stacks = tuple(_strs(s, f"{where}.stacks") for s in f(a, "stacks", list, where))
        cubes = _ints(f(a, "cubes", list, where), f"{where}.cubes")
        if len(stacks) != n or len(cubes) != n:
            raise InvalidData(f"field {where}: side {side} boards have {n} spaces")
        for s in stacks:
            if s and s not in legal_stacks():
                raise InvalidData(f"field {where}.stacks holds {list(s)}, which the stacking "
                                  f"chart forbids")
        cards_ = []
        for j, item in enumerate(f(a, "cards", list, where)):
            pair = _ints(item, f"{where}.cards[{j}]")
            if len(pair) != 2:
                raise InvalidData(f"field {where}.cards[{j}] must be [card, cubes placed]")
            c, k = pair
            card(c)
            cards_.append((c, k))
        areas.append(PlayerArea(stacks, cubes, tuple(cards_),
                                _ints(f(a, "spirit_offer", list, where), f"{where}.spirit_offer"),
                                f(a, "turns", int, where)))
    if not 1 <= len(areas) <= 4:
        raise InvalidData("field save.areas must hold 1 to 4 players")
    state = cls(
        side=side, spirits=f(d, "spirits", bool, "save"), seed=f(d, "seed", (int, str), "save"),
        river_rule=f(d, "river_rule", str, "save"),
        tiebreak_counts_spirit=f(d, "tiebreak_counts_spirit", bool, "save"),
        pouch=_strs(f(d, "pouch", list, "save"), "save.pouch"),
        central=tuple(_strs(s, "save.central") for s in f(d, "central", list, "save")),
        deck=_ints(f(d, "deck", list, "save"), "save.deck"),
        row=_ints(f(d, "row", list, "save"), "save.row"),
        discard_pile=_ints(f(d, "discard_pile", list, "save"), "save.discard_pile"),
        boxed_tokens=_strs(f(d, "boxed_tokens", list, "save"), "save.boxed_tokens"),
        boxed_spirits=_ints(f(d, "boxed_spirits", list, "save"), "save.boxed_spirits"),
        areas=tuple(areas), player=f(d, "player", int, "save"),
        hand=_strs(f(d, "hand", list, "save"), "save.hand"),
        took_tokens=f(d, "took_tokens", bool, "save"), took_card=f(d, "took_card", bool, "save"),
        discarded=f(d, "discarded", bool, "save"), end_reason=f(d, "end_reason", str, "save"),
        over=f(d, "over", bool, "save"), cube_supply=f(d, "cube_supply", int, "save"))
    if not 0 <= state.player < len(areas):
        raise InvalidData("field save.player names a seat that does not exist")
    if len(state.hand) > 3 or (state.hand and not state.took_tokens):
        raise InvalidData("field save.hand: tokens in hand come from taking tokens this turn "
                          "(took_tokens), three at most")
    if state.river_rule not in RIVER_RULES:
        raise InvalidData("field save.river_rule must be one of " + ", ".join(RIVER_RULES))
    try:
        state.check_invariants()
    except AssertionError as exc:
        raise InvalidData(f"the save file is inconsistent: {exc}") from None
    except PangaeaLabError:
        raise
    return state
