"""Component data for The Dawn of Pangaea: the edition file and its validation.

Every item in an edition file carries a ``source`` label: ``rulebook`` (stated in the
rulebook), ``public source`` (found in a public preview) or ``assumption`` (a modelling choice
where nothing public gives the fact).  :func:`load_edition` checks the whole file and names
the first bad field; :meth:`Edition.sources` lists the labels for display.

>>> ed = load_edition()
>>> ed.summit_steps, ed.biomes
(30, ('Wind', 'Sun', 'Rain', 'Snow'))
>>> ed.source_of("summit_steps")
'assumption'
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

import networkx as nx

from ..core import hexgrid
from ..core.engine import plain_attributes
from ..core.errors import InvalidData
from ..core.jsonio import dumps, load_file
from ..core.memo import keep

SOURCES = ("rulebook", "public source", "assumption")
BLESSING_KINDS = ("Flying Seed", "Vigorous Seed", "Call Ancient", "Wild Weather",
                  # Wild Woods
                  "Strong Canopy", "Foresight")
ANCIENTS = ("Okuma", "Chelon", "Thorondal")
REQUIRED = ("biomes", "players", "tiles_per_player", "tile_shape", "mountain", "summit_steps",
            "trees_per_player", "seeds_per_player", "weather_tokens", "blessings",
            "favor_tokens", "most_trees", "land_rituals", "creature_rituals", "rule_gaps",
            "round_limit")
# Return of the Ancients (solo/co-op): optional; an edition without them uses the reference's
COOP_ITEMS = ("ancients_mountain", "scourge_markers", "shadow_markers", "moon_board", "moon_cards")
# The Wild Woods expansion: optional; an edition without it uses the reference's
WOODS_ITEM = "wild_woods"


@dataclass(frozen=True)
class LandCard:
    """A Land Ritual card: connect a Tree on one biome to a Tree on the other."""

    id: str
    biomes: tuple[str, str]
    solo: bool
    winds: str = "LR"

    @property
    def kind(self) -> str:
        return "land"

    @property
    def title(self) -> str:
        return f"Land Ritual {self.id} ({self.biomes[0]}–{self.biomes[1]})"


@dataclass(frozen=True)
class CreatureCard:
    """A Creature Ritual card: pay its Weather Tokens, score its fixed points."""

    id: str
    name: str
    ancient: str
    points: int
    cost: tuple[tuple[str, int], ...]
    wild: int
    solo: bool
    winds: str = "LR"

    @property
    def kind(self) -> str:
        return "creature"

    @property
    def size(self) -> int:
        return sum(n for _, n in self.cost) + self.wild

    def cost_text(self) -> str:
        parts = [f"{n} {w}" for w, n in self.cost]
        if self.wild:
            parts.append(f"{self.wild} any")
        return " + ".join(parts)

    @property
    def title(self) -> str:
        points = f"{self.points} point{'' if self.points == 1 else 's'}"
        return f"{self.name} [{self.id}] ({points}, pay {self.cost_text()})"


Card = LandCard | CreatureCard


@dataclass(frozen=True, eq=False)
class Edition:
    """A validated edition: component counts, cards, tile shape and track length."""

    raw: Mapping[str, Any] = field(repr=False)
    name: str
    label: str
    biomes: tuple[str, ...]
    max_players: int
    summit_steps: int
    trees_per_player: int
    seeds_per_player: int
    weather_tokens: tuple[int, ...]
    blessings: tuple[tuple[str, int], ...]
    land_cards: tuple[LandCard, ...]
    creature_cards: tuple[CreatureCard, ...]
    land_shape: tuple[tuple[int, int], ...]
    water_shape: tuple[tuple[int, int], ...]
    blessing_shape: tuple[tuple[int, int], ...]
    mountain_radius: int
    most_trees_minimum: int
    most_trees_bonus: int
    round_limit: int
    favor_tokens: tuple[int, ...]
    digest: str
    coop: "CoopData | None" = None
    woods: "WoodsData | None" = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Edition) and other.digest == self.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    @property
    def cards(self) -> dict[str, Card]:
        got = getattr(self, "_cards", None)     # kept with the edition (which never changes)
        if got is None:
            got = keep(self, "_cards", _card_index(self))
        return got

    def card(self, card_id: str) -> Card:
        """The card with this id; a clear error naming the id otherwise."""
        try:
            return self.cards[card_id]
        except KeyError:
            raise InvalidData(f"no Ritual card with id {card_id!r} in edition {self.name!r}") from None

    def source_of(self, item: str) -> str:
        return self.raw[item]["source"]

    def sources(self) -> list[tuple[str, str, str]]:
        """``(item, source, note)`` for every item, for showing which data are facts."""
        return [(k, self.raw[k]["source"], self.raw[k].get("note", ""))
                for k in (*REQUIRED, *COOP_ITEMS, WOODS_ITEM) if k in self.raw]

    def rule_gaps(self) -> list[dict]:
        """The situations the rulebook does not settle and the choice made for each."""
        return list(self.raw["rule_gaps"]["value"])

    def to_dict(self) -> dict:
        return copy.deepcopy(dict(self.raw))

    @property
    def canonical_json(self) -> str:
        """The edition as canonical JSON text (cached; saves embed it)."""
        return _canonical(self)


@lru_cache(maxsize=None)
def _canonical(ed: Edition) -> str:
    return dumps(ed.raw)


@lru_cache(maxsize=None)
def _card_index(ed: Edition) -> dict[str, Card]:
    return {c.id: c for c in (*ed.land_cards, *ed.creature_cards)}


def _value(data: Mapping, key: str) -> Any:
    entry = data.get(key)
    if not isinstance(entry, dict) or "value" not in entry:
        raise InvalidData(f"edition field {key!r} is missing or is not an object with a 'value'")
    source = entry.get("source")
    if source not in SOURCES:
        raise InvalidData(f"edition field {key!r}: 'source' must be one of {list(SOURCES)}, "
                          f"found {source!r}")
    return entry["value"]


#: The largest value an edition may give, by field (the first part of its name).  The shipped
#: edition is far below every one; a custom edition gets generous room, but a few hundred bytes
#: cannot ask for 2**63 Shadow Markers or a mountain of radius a million.  Checked before
#: anything is built from the value.
LIMITS = {
    "players": 6, "tiles_per_player": 12, "mountain": 6, "summit_steps": 200,
    "trees_per_player": 60, "seeds_per_player": 60, "weather_tokens": 200, "blessings": 100,
    "favor_tokens": 100, "most_trees": 100, "round_limit": 500, "ancients_mountain": 200,
    "scourge_markers": 100, "shadow_markers": 60, "moon_board": 60, "wild_woods": 100,
}
#: the longest list an edition may give, by field
LIST_LIMITS = {"biomes": 12, "land_rituals": 300, "creature_rituals": 300, "tile_shape": 40,
               "cost": 12}
#: any other whole number
DEFAULT_LIMIT = 1000


def _int(value: Any, where: str, low: int = 0) -> int:
    high = LIMITS.get(where.split(".")[0].split("[")[0], DEFAULT_LIMIT)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = repr(value) if len(repr(value)) < 30 else f"a number of {len(repr(value))} digits"
        raise InvalidData(f"edition field {where} must be a whole number from {low} to {high}, "
                          f"found {shown}")
    return value


def _list(value: Any, where: str) -> list:
    """A list no longer than its declared limit (``LIST_LIMITS``, else 1000 items)."""
    if not isinstance(value, list):
        raise InvalidData(f"edition field {where} must be a list")
    high = LIST_LIMITS.get(where.split(".")[0], DEFAULT_LIMIT)
    if len(value) > high:
        raise InvalidData(f"edition field {where} lists {len(value)} items; at most {high}")
    return value


def _cells(value: Any, where: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list) or not value:
        raise InvalidData(f"edition field {where} must be a non-empty list of [q, r] pairs")
    _list(value, where)
    out = []
    for cell in value:
        if (not isinstance(cell, list) or len(cell) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and abs(x) <= 50
                           for x in cell)):
            raise InvalidData(f"edition field {where}: {cell!r} is not a [q, r] pair of integers")
        out.append((cell[0], cell[1]))
    if len(set(out)) != len(out):
        raise InvalidData(f"edition field {where} lists a cell twice")
    return tuple(out)


def edition_from_dict(data: Any) -> Edition:
    """Validate an edition given as a dict (e.g. parsed JSON) and build an :class:`Edition`."""
    if not isinstance(data, dict):
        raise InvalidData("an edition must be a JSON object")
    return _validated(dumps(data))


@lru_cache(maxsize=32)
def _validated(text: str) -> Edition:
    """Editions are validated once per distinct content (saves repeat the same edition).
    Each part is checked in the order below; the first problem found is reported."""
    data = json.loads(text)
    for key in REQUIRED:
        _value(data, key)
    name = data.get("edition")
    label = data.get("label")
    if not isinstance(name, str) or not name:
        raise InvalidData("edition field 'edition' (its name) must be a non-empty text")
    if not isinstance(label, str):
        raise InvalidData("edition field 'label' must be a text saying what the data are")
    biomes = _biomes(data)
    pmax = _max_players(data)
    _check_tiles_per_player(data, biomes)
    land, water, blessing = _tile_shape(data)
    mountain = _value(data, "mountain")
    if not isinstance(mountain, dict):
        raise InvalidData("edition field 'mountain' must be an object with 'radius'")
    radius = _int(mountain.get("radius"), "mountain.radius", 0)
    summit = _int(_value(data, "summit_steps"), "summit_steps", 5)
    trees = _int(_value(data, "trees_per_player"), "trees_per_player", 1)
    seeds = _int(_value(data, "seeds_per_player"), "seeds_per_player", 2)
    weather_counts, bless, favor = _tokens(data, biomes)
    most = _value(data, "most_trees")
    if not isinstance(most, dict):
        raise InvalidData("edition field 'most_trees' must be an object with minimum and bonus")
    most_min = _int(most.get("minimum"), "most_trees.minimum", 1)
    most_bonus = _int(most.get("bonus"), "most_trees.bonus", 0)
    ids: set[str] = set()
    land_cards = _land_cards(data, biomes, ids)
    creature_cards = _creature_cards(data, biomes, ids)
    need = pmax + 2
    if len(land_cards) < need or len(creature_cards) < need:
        raise InvalidData(f"an edition needs at least {need} Land and {need} Creature Rituals "
                          f"for {pmax} players (hands and market)")
    gaps = _value(data, "rule_gaps")
    if not isinstance(gaps, list) or not all(isinstance(g, dict) and "id" in g and "text" in g
                                             for g in gaps):
        raise InvalidData("edition field 'rule_gaps' must be a list of {id, text} objects")
    round_limit = _int(_value(data, "round_limit"), "round_limit", 1)
    coop = _coop_data(data) if any(k in data for k in COOP_ITEMS) else None
    woods = _woods_data(data[WOODS_ITEM], biomes, coop) if WOODS_ITEM in data else None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return plain_attributes(Edition(    # read all game long (see plain_attributes)
        raw=data, name=name, label=label, biomes=biomes, max_players=pmax,
        summit_steps=summit, trees_per_player=trees, seeds_per_player=seeds,
        weather_tokens=weather_counts, blessings=bless, land_cards=land_cards,
        creature_cards=creature_cards, land_shape=land, water_shape=water,
        blessing_shape=blessing, mountain_radius=radius, most_trees_minimum=most_min,
        most_trees_bonus=most_bonus, round_limit=round_limit,
        favor_tokens=tuple(favor[a] for a in ANCIENTS), digest=digest, coop=coop,
        woods=woods))


def _biomes(data: dict) -> tuple[str, ...]:
    """The biome names: at least two, all different."""
    biomes = _value(data, "biomes")
    if (not isinstance(biomes, list) or len(_list(biomes, "biomes")) < 2
            or not all(isinstance(b, str) and b for b in biomes) or len(set(biomes)) != len(biomes)):
        raise InvalidData("edition field 'biomes' must list at least 2 different biome names")
    return tuple(biomes)


def _max_players(data: dict) -> int:
    """The most players the edition's pieces serve (``players.max``).  The fewest the box
    names (``players.min``) is checked as data, and ``max`` against it; the seats of each way
    to play are the game's own (``GAME.players_for``, :mod:`.game`)."""
    players = _value(data, "players")
    if not isinstance(players, dict):
        raise InvalidData("edition field 'players' must be an object with 'min' and 'max'")
    pmin = _int(players.get("min"), "players.min", 2)
    return _int(players.get("max"), "players.max", pmin)


def _check_tiles_per_player(data: dict, biomes: tuple[str, ...]) -> None:
    """A count of Biome Tiles per player for every biome, at least one tile in all."""
    per_player = _value(data, "tiles_per_player")
    if not isinstance(per_player, dict) or set(per_player) != set(biomes):
        raise InvalidData("edition field 'tiles_per_player' must give a count for every biome")
    for b, n in per_player.items():
        _int(n, f"tiles_per_player.{b}", 0)
    if sum(per_player.values()) < 1:
        raise InvalidData("edition field 'tiles_per_player' must give each player at least one tile")


def _tile_shape(data: dict) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A Biome Tile's land, water and blessing hexes: one connected piece, blessings on
    water."""
    shape = _value(data, "tile_shape")
    if not isinstance(shape, dict):
        raise InvalidData("edition field 'tile_shape' must be an object with land, water, blessing")
    land = _cells(shape.get("land"), "tile_shape.land")
    water = _cells(shape.get("water"), "tile_shape.water")
    blessing = _cells(shape.get("blessing", [[*water[0]]]), "tile_shape.blessing")
    if set(land) & set(water):
        raise InvalidData("edition field tile_shape: a hex cannot be both land and water")
    if not set(blessing) <= set(water):
        raise InvalidData("edition field tile_shape.blessing must list water hexes only")
    tile_cells = set(land) | set(water)
    tile = nx.Graph()   # the tile's hexes, joined where they touch
    tile.add_nodes_from(tile_cells)
    tile.add_edges_from((h, n) for h in tile_cells for n in hexgrid.neighbours(h)
                        if n in tile_cells)
    if not nx.is_connected(tile):
        raise InvalidData("edition field tile_shape: the hexes of a tile must be connected")
    return land, water, blessing


def _tokens(data: dict, biomes: tuple[str, ...]) -> tuple[tuple[int, ...],
                                                          tuple[tuple[str, int], ...], dict]:
    """The Weather Tokens per biome, the Blessings per kind and the Favor Tokens per
    Ancient."""
    weather = _value(data, "weather_tokens")
    if not isinstance(weather, dict) or set(weather) != set(biomes):
        raise InvalidData("edition field 'weather_tokens' must give a count for every biome")
    weather_counts = tuple(_int(weather[b], f"weather_tokens.{b}") for b in biomes)
    blessings = _value(data, "blessings")
    if not isinstance(blessings, dict) or not set(blessings) <= set(BLESSING_KINDS):
        raise InvalidData(f"edition field 'blessings' must map kinds among {list(BLESSING_KINDS)} "
                          "to counts")
    bless = tuple((k, _int(blessings.get(k, 0), f"blessings.{k}")) for k in BLESSING_KINDS)
    favor = _value(data, "favor_tokens")
    if not isinstance(favor, dict) or set(favor) != set(ANCIENTS):
        raise InvalidData(f"edition field 'favor_tokens' must give a count for each of {list(ANCIENTS)}")
    for k, v in favor.items():
        _int(v, f"favor_tokens.{k}")
    return weather_counts, bless, favor


def _winds(card: dict, where: str) -> str:
    """The white winds printed on a Ritual card's top corners."""
    w = card.get("winds", "LR")
    if w not in ("LR", "L", "R", ""):
        raise InvalidData(f"edition field {where}.winds must be 'LR', 'L', 'R' or '' "
                          f"(white winds on the left/right top corner), found {w!r}")
    return w


def _new_id(card: Any, where: str, ids: set[str]) -> str:
    """A Ritual card's id, not used by any card before it (``ids`` holds those)."""
    if not isinstance(card, dict):
        raise InvalidData(f"edition field {where} must be an object")
    cid = card.get("id")
    if not isinstance(cid, str) or not cid:
        raise InvalidData(f"edition field {where}.id must be a non-empty text")
    if cid in ids:
        raise InvalidData(f"edition field {where}.id: card id {cid!r} is used twice")
    ids.add(cid)
    return cid


def _land_cards(data: dict, biomes: tuple[str, ...], ids: set[str]) -> tuple[LandCard, ...]:
    """The Land Ritual cards, each joining two of the biomes."""
    land_cards = []
    raw_land = _value(data, "land_rituals")
    if not isinstance(raw_land, list):
        raise InvalidData("edition field 'land_rituals' must be a list of cards")
    _list(raw_land, "land_rituals")
    for i, card in enumerate(raw_land):
        where = f"land_rituals[{i}]"
        cid = _new_id(card, where, ids)
        pair = card.get("biomes")
        if not isinstance(pair, list) or len(pair) != 2 or not all(b in biomes for b in pair):
            raise InvalidData(f"edition field {where}.biomes must name 2 of the biomes {list(biomes)}, "
                              f"found {pair!r}")
        land_cards.append(LandCard(cid, (pair[0], pair[1]), bool(card.get("solo", False)),
                                   _winds(card, where)))
    return tuple(land_cards)


def _creature_cards(data: dict, biomes: tuple[str, ...],
                    ids: set[str]) -> tuple[CreatureCard, ...]:
    """The Creature Ritual cards."""
    raw_creature = _value(data, "creature_rituals")
    if not isinstance(raw_creature, list):
        raise InvalidData("edition field 'creature_rituals' must be a list of cards")
    _list(raw_creature, "creature_rituals")
    return tuple(_creature_card(card, f"creature_rituals[{i}]", biomes, ids)
                 for i, card in enumerate(raw_creature))


def _creature_card(card: Any, where: str, biomes: tuple[str, ...],
                   ids: set[str]) -> CreatureCard:
    """One Creature Ritual card: its Ancient, points and a cost in Weather Tokens."""
    cid = _new_id(card, where, ids)
    ancient = card.get("ancient")
    if ancient not in ANCIENTS:
        raise InvalidData(f"edition field {where}.ancient must be one of {list(ANCIENTS)}, "
                          f"found {ancient!r}")
    points = _int(card.get("points"), f"{where}.points", 1)
    cost = card.get("cost")
    if not isinstance(cost, dict) or not set(cost) <= set(biomes):
        raise InvalidData(f"edition field {where}.cost must map weather names {list(biomes)} "
                          f"to counts, found {cost!r}")
    cost_items = tuple((b, _int(cost[b], f"{where}.cost.{b}", 1)) for b in biomes if b in cost)
    wild = _int(card.get("wild", 0), f"{where}.wild")
    if not cost_items and not wild:
        raise InvalidData(f"edition field {where}: a Creature Ritual must cost something")
    cname = card.get("name", cid)
    if not isinstance(cname, str):
        raise InvalidData(f"edition field {where}.name must be a text")
    return CreatureCard(cid, cname, ancient, points, cost_items, wild,
                        bool(card.get("solo", False)), _winds(card, where))


SHADOW_KINDS = ("Dream", "Devour", "Dance")
MOON_EFFECTS = ("blessing_each", "remove_dream", "scourge_each",
                "give_up_seed")   # the last only on the Wild Woods Moon Cards
DIFFICULTIES = {"standard": "", "cozy": "Cozy Afternoon", "midnight": "Midnight Hour"}


@dataclass(frozen=True)
class CoopData:
    """Return of the Ancients components: the mountain set-up, Scourge supply, Shadow Marker
    mix, the Moon Board's cycles and the two Moon Cards (see the edition's source labels)."""

    ancient_start: int
    devour_steps: tuple[int, ...]
    dance_step: int
    scourge_total: int
    scourge_per_player: int
    shadow_mix: tuple[tuple[str, int], ...]
    black: frozenset[str]
    cycles: tuple[tuple[str, ...], ...]                 # markers per Moon Cycle I, II, III
    moon_cards: tuple[tuple[str, str, tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]], ...]
    # (key, name, ((markers, effects) for Cycle II, for Cycle III))

    def cycle_plan(self, difficulty: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
        """``(markers, effects)`` for each of the three cycles at a difficulty."""
        return _cycle_plan(self.cycles, self.moon_cards, difficulty, "")


def _cycle_plan(cycles: tuple, moon_cards: tuple, difficulty: str, side: str) -> tuple:
    """Cycle I from the Moon Board, Cycles II and III from the board (standard) or from the
    Moon Card chosen by the difficulty."""
    first = ((cycles[0], ()),)
    if difficulty == "standard":
        return first + tuple((c, ()) for c in cycles[1:])
    for key, _, later in moon_cards:
        if key == difficulty:
            return first + later
    raise InvalidData(f"no {side}Moon Card for difficulty {difficulty!r}")


def _markers(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, dict) or not set(value) <= set(SHADOW_KINDS):
        raise InvalidData(f"edition field {where} must map Shadow Marker kinds {list(SHADOW_KINDS)} to counts")
    return tuple(k for k in SHADOW_KINDS for _ in range(_int(value.get(k, 0), f"{where}.{k}")))


def _coop_data(data: Mapping) -> CoopData:
    """Validate the Return of the Ancients items (each missing one comes from the reference)."""
    ref = None

    def item(key: str) -> Any:
        nonlocal ref
        if key in data:
            return _value(data, key)
        if ref is None:
            ref = json.loads(resources.files(__package__).joinpath("data/edition.json").read_text("utf-8"))
        return _value(ref, key)

    mountain = item("ancients_mountain")
    if not isinstance(mountain, dict):
        raise InvalidData("edition field 'ancients_mountain' must be an object")
    start = _int(mountain.get("ancient_start"), "ancients_mountain.ancient_start", 1)
    devour = mountain.get("devour")
    if not isinstance(devour, list):
        raise InvalidData("edition field ancients_mountain.devour must list steps")
    devour_steps = tuple(_int(v, "ancients_mountain.devour", 1) for v in devour)
    dance = _int(mountain.get("dance"), "ancients_mountain.dance", 0)
    if not (dance < min(devour_steps, default=start) and max(devour_steps, default=0) < start):
        raise InvalidData("edition field 'ancients_mountain': the Dance Marker must lie below the "
                          "Devour Markers, and they below the Ancients' start")
    scourge = item("scourge_markers")
    if not isinstance(scourge, dict):
        raise InvalidData("edition field 'scourge_markers' must be an object")
    total = _int(scourge.get("total"), "scourge_markers.total", 1)
    per = _int(scourge.get("per_player"), "scourge_markers.per_player", 1)
    shadow = item("shadow_markers")
    if not isinstance(shadow, dict):
        raise InvalidData("edition field 'shadow_markers' must be an object with mix and black")
    mix = _markers(shadow.get("mix"), "shadow_markers.mix")
    black = shadow.get("black")
    if not isinstance(black, list) or not all(
            isinstance(kind, str) and kind in SHADOW_KINDS for kind in black):
        raise InvalidData(f"edition field shadow_markers.black must list kinds of {list(SHADOW_KINDS)}")
    board = item("moon_board")
    if not isinstance(board, list) or len(board) != 3:
        raise InvalidData("edition field 'moon_board' must list the markers of 3 Moon Cycles")
    cycles = tuple(_markers(c, f"moon_board[{k}]") for k, c in enumerate(board))
    moon = _moon_cards(item("moon_cards"), "moon_cards")
    _check_plans(cycles, moon, devour_steps, mix, "shadow_markers")
    return CoopData(start, devour_steps, dance, total, per,
                    tuple((k, mix.count(k)) for k in SHADOW_KINDS), frozenset(black), cycles,
                    tuple(moon))


def _moon_cards(cards: Any, field: str) -> tuple:
    """The two Moon Cards (Cozy Afternoon, Midnight Hour), each replacing Cycles II and III."""
    if not isinstance(cards, dict) or set(cards) != {"cozy", "midnight"}:
        raise InvalidData(f"edition field '{field}' must describe the 'cozy' and 'midnight' cards")
    moon = []
    for key in ("cozy", "midnight"):
        card = cards[key]
        where = f"{field}.{key}"
        if not isinstance(card, dict) or not isinstance(card.get("cycles"), list) or len(card["cycles"]) != 2:
            raise InvalidData(f"edition field {where} must give a name and 2 cycles (II and III)")
        later = []
        for k, c in enumerate(card["cycles"]):
            effects = c.get("effects", []) if isinstance(c, dict) else None
            if not isinstance(effects, list) or not all(
                    isinstance(effect, str) and effect in MOON_EFFECTS for effect in effects):
                raise InvalidData(f"edition field {where}.cycles[{k}].effects must list some of {list(MOON_EFFECTS)}")
            later.append((_markers(c.get("markers"), f"{where}.cycles[{k}].markers"), tuple(effects)))
        moon.append((key, str(card.get("name", key)), tuple(later)))
    return tuple(moon)


def _check_plans(cycles: tuple, moon: tuple, devour_steps: tuple, mix: tuple, field: str) -> None:
    """Every Moon Cycle plan must fit in the Shadow Marker mix (with those on the mountain)."""
    on_mountain = ["Devour"] * len(devour_steps) + ["Dance"]
    for plan in ([cycles[0], cycles[1], cycles[2]],
                 *([cycles[0], *(m for m, _ in later)] for _, _, later in moon)):
        used = on_mountain + [m for c in plan for m in c]
        for kind in SHADOW_KINDS:
            if used.count(kind) > mix.count(kind):
                raise InvalidData(f"edition field {field}: the mountain and the Moon Cycles need "
                                  f"{used.count(kind)} {kind} Shadow Markers but the mix has "
                                  f"{mix.count(kind)}")


@dataclass(frozen=True)
class WoodsSlot:
    """One Treetop slot of a Wild Woods Player Board."""

    cost: int            # Weather Tokens of different types to take its Treetop
    blessing: bool       # a Blessing Token lies on it at the start
    seed: int            # the extra Seed it holds back (0, 1, 2)
    points: int          # points it scores when empty at the end


@dataclass(frozen=True)
class WoodsData:
    """The Wild Woods components: the Player Board layout, its Blessing mix, the Elemental
    Storm cards and the Wild Woods side of the Moon Board with its two Moon Cards."""

    slots: tuple[WoodsSlot, ...]
    extra_seeds: int
    max_level: int
    blessings: tuple[tuple[str, int], ...]
    storms: tuple[str, ...]          # the weather on each Elemental Storm card
    storms_per_deck: int
    cycles: tuple[tuple[str, ...], ...]
    moon_cards: tuple

    def cycle_plan(self, difficulty: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
        """``(markers, effects)`` of each Moon Cycle on the Wild Woods side of the Moon Board."""
        return _cycle_plan(self.cycles, self.moon_cards, difficulty, "Wild Woods ")

    def slots_of_seed(self, seed: int) -> tuple[int, ...]:
        return tuple(k for k, s in enumerate(self.slots) if s.seed == seed)


def _woods_data(raw: Any, biomes: tuple[str, ...], coop: "CoopData | None") -> WoodsData:
    """Validate the Wild Woods item of an edition file."""
    if not isinstance(raw, dict) or "value" not in raw or raw.get("source") not in SOURCES:
        raise InvalidData(f"edition field '{WOODS_ITEM}' must be an object with 'value' and a "
                          f"'source' among {list(SOURCES)}")
    v = raw["value"]
    if not isinstance(v, dict):
        raise InvalidData(f"edition field {WOODS_ITEM}.value must be an object")
    where = f"{WOODS_ITEM}.value"
    extra = _int(v.get("extra_seeds"), f"{where}.extra_seeds", 0)
    level = _int(v.get("max_level"), f"{where}.max_level", 1)
    raw_slots = v.get("slots")
    if not isinstance(raw_slots, list) or not raw_slots:
        raise InvalidData(f"edition field {where}.slots must list the Treetop slots")
    _list(raw_slots, f"{where}.slots")
    slots = []
    for k, s in enumerate(raw_slots):
        w = f"{where}.slots[{k}]"
        if not isinstance(s, dict) or not isinstance(s.get("blessing"), bool):
            raise InvalidData(f"edition field {w} must give cost, blessing (true/false), seed and points")
        cost = _int(s.get("cost"), f"{w}.cost")
        if cost > len(biomes):
            raise InvalidData(f"edition field {w}.cost: a cost of {cost} cannot be paid in "
                              f"different weather types (there are {len(biomes)})")
        seed = s.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < extra):
            raise InvalidData(f"edition field {w}.seed must be an extra Seed number 0..{extra - 1} or null")
        slots.append(WoodsSlot(cost, s["blessing"], -1 if seed is None else seed,
                               _int(s.get("points", 0), f"{w}.points")))
    for n in range(extra):
        if not any(s.seed == n for s in slots):
            raise InvalidData(f"edition field {where}: extra Seed {n} is tied to no slot")
    bless = v.get("blessings")
    if not isinstance(bless, dict) or not set(bless) <= set(BLESSING_KINDS):
        raise InvalidData(f"edition field {where}.blessings must map kinds among {list(BLESSING_KINDS)} to counts")
    blessings = tuple((k, _int(bless.get(k, 0), f"{where}.blessings.{k}")) for k in BLESSING_KINDS)
    need = 4 * sum(s.blessing for s in slots)
    if sum(n for _, n in blessings) < need:
        raise InvalidData(f"edition field {where}.blessings: 4 Player Boards need {need} Blessings")
    storms = v.get("storms")
    if not isinstance(storms, list) or not all(s in biomes for s in _list(storms, where)):
        raise InvalidData(f"edition field {where}.storms must list a weather of {list(biomes)} per card")
    per_deck = _int(v.get("storms_per_deck"), f"{where}.storms_per_deck")
    if 2 * per_deck > len(storms):
        raise InvalidData(f"edition field {where}: {per_deck} Storms per deck need {2 * per_deck} cards")
    board = v.get("moon_board")
    if not isinstance(board, list) or len(board) != 3:
        raise InvalidData(f"edition field {where}.moon_board must list the markers of 3 Moon Cycles")
    cycles = tuple(_markers(c, f"{where}.moon_board[{k}]") for k, c in enumerate(board))
    moon = _moon_cards(v.get("moon_cards"), f"{where}.moon_cards")
    if coop is not None:
        mix = tuple(k for k, n in coop.shadow_mix for _ in range(n))
        _check_plans(cycles, moon, coop.devour_steps, mix, where)
    return WoodsData(tuple(slots), extra, level, blessings, tuple(storms), per_deck, cycles, moon)


def tiles_per_player(ed: Edition) -> dict[str, int]:
    return dict(ed.raw["tiles_per_player"]["value"])


@lru_cache(maxsize=1)
def _reference() -> Edition:
    text = resources.files(__package__).joinpath("data/edition.json").read_text("utf-8")
    return edition_from_dict(json.loads(text))


#: the name a save gives the edition shipped with the package (any other edition is embedded)
SHIPPED_NAME = "reference"


def shipped_name(ed: Edition) -> str | None:
    """``"reference"`` if ``ed`` is the edition shipped with the package, else ``None``."""
    ref = _reference()
    return SHIPPED_NAME if ed is ref or ed.canonical_json == ref.canonical_json else None


def load_edition(source: str | Path | Mapping | Edition | None = None) -> Edition:
    """The reference edition (no argument), or a user's edition from a path or a dict."""
    if source is None:
        return _reference()
    if isinstance(source, Edition):
        return source
    if isinstance(source, Mapping):
        return edition_from_dict(dict(source))
    if not isinstance(source, (str, Path)):
        raise InvalidData(f"an edition is a file path, a dict or an Edition, not "
                          f"{type(source).__name__}")
    return edition_from_dict(load_file(source, what="edition file"))


def woods_data(ed: Edition) -> WoodsData:
    """The edition's Wild Woods data, or the reference set's if it has none."""
    data = ed.woods or load_edition().woods
    if data is None:
        raise InvalidData("the reference edition has no Wild Woods data")
    return data
