"""The continent: Biome Tiles laid around the Sacred Mountain, as a networkx graph.

A board is built once per (edition, player count, seed) and cached; game states refer to it
and keep only what changes (trees, seeds, spirits, tokens).  Spaces are hexes in axial
coordinates; two spaces are adjacent when they share an edge, across tile borders too
(the hex grid and tile shape are labelled assumptions of the reference edition).

>>> from pangaea_lab.pangaea.edition import load_edition
>>> board = build_continent(load_edition(), players=2, seed=1)
>>> len(board.tiles), len(board.land), len(board.water)
(8, 24, 16)
>>> board.is_contiguous()
True
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, filterfalse, repeat
from operator import add, attrgetter
from typing import Iterable, Mapping

import networkx as nx

from ..core import hexgrid, jsonio
from ..core.engine import plain_attributes
from ..core.errors import IllegalAction, InvalidData, InvalidSetup
from ..core.hexgrid import Hex
from ..core.memo import kept_property
from ..core.validate import show
from ..core.rng import make_rng
from .edition import Edition, tiles_per_player
from .game import GAME

LAND, WATER = "land", "water"


@dataclass(frozen=True)
class Tile:
    """One Biome Tile as laid: its biome and the hexes it covers."""

    index: int
    biome: str
    land: tuple[Hex, ...]
    water: tuple[Hex, ...]
    blessing: tuple[Hex, ...]

    @property
    def cells(self) -> tuple[Hex, ...]:
        return self.land + self.water


@dataclass(frozen=True)
class Space:
    """What a space is made of (never changes during a game)."""

    cell: Hex
    terrain: str
    biome: str
    tile: int
    blessing: bool


_cell_of = attrgetter("cell")


class Board:
    """The static topology of one continent.

    ``cells`` are sorted; ``index[cell]`` gives a space's number, used by game states to keep
    per-space data in tuples.  ``graph`` is the networkx adjacency graph of all spaces with
    node attributes ``terrain``, ``biome``, ``tile`` and ``blessing``.  ``key`` holds each
    space as a plain (cell, terrain, biome, tile, blessing) row; ``spaces``, the same as
    :class:`Space` records, are made from it when first asked for (a board kept for a long
    run holds no record per space).
    """

    def __init__(self, spaces: Iterable[Space], mountain: Iterable[Hex] = ()) -> None:
        spaces = sorted(spaces, key=_cell_of)
        self.cells: tuple[Hex, ...] = tuple(s.cell for s in spaces)
        if len(set(self.cells)) != len(self.cells):
            raise InvalidData("a board lists the same space twice")
        self.index: dict[Hex, int] = {c: i for i, c in enumerate(self.cells)}
        self.mountain: tuple[Hex, ...] = tuple(sorted(mountain))
        if set(self.mountain) & set(self.cells):
            raise InvalidData("a board space cannot lie on the Sacred Mountain")
        self.terrain = tuple(s.terrain for s in spaces)
        self.biome = tuple(s.biome for s in spaces)
        self.tile_of = tuple(s.tile for s in spaces)
        self.blessing_marked = tuple(s.blessing for s in spaces)
        get, directions = self.index.get, hexgrid.DIRECTIONS   # neighbours in direction order
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple([j for j in [get((q + dq, r + dr)) for dq, dr in directions] if j is not None])
            for q, r in self.cells)
        self.land = tuple(i for i, t in enumerate(self.terrain) if t == LAND)
        self.water = tuple(i for i, t in enumerate(self.terrain) if t == WATER)
        self.key = tuple((s.cell, s.terrain, s.biome, s.tile, s.blessing) for s in spaces)
        self._hash = hash((self.key, self.mountain))   # a board is a key of many caches
        plain_attributes(self)      # read all game long (its kept properties kept in it)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.key == self.key and other.mountain == self.mountain

    def __hash__(self) -> int:
        return self._hash

    def __len__(self) -> int:
        return len(self.cells)

    @kept_property
    def spaces(self) -> tuple[Space, ...]:
        """The spaces as :class:`Space` records, in board order."""
        return tuple([Space(*row) for row in self.key])

    @kept_property
    def graph(self) -> nx.Graph:
        g = nx.Graph()
        g.add_nodes_from((s.cell, dict(terrain=s.terrain, biome=s.biome, tile=s.tile,
                                       blessing=s.blessing)) for s in self.spaces)
        cells = self.cells
        g.add_edges_from((c, cells[j]) for i, c in enumerate(cells)
                         for j in self.neighbours[i] if i < j)
        return g

    @kept_property
    def space_graph(self) -> nx.DiGraph:
        """The same adjacency on space numbers (``index[cell]``), for the rules' graph work:
        each edge is kept both ways so that every space lists its neighbours in the board's
        own order (``neighbours[i]``), which keeps every search in a fixed order.  Built once
        per board."""
        g = nx.DiGraph()
        g.add_nodes_from(range(len(self.cells)))
        g.add_edges_from((i, j) for i, near in enumerate(self.neighbours) for j in near)
        return g

    @kept_property
    def tiles(self) -> tuple[Tile, ...]:
        groups: dict[int, list[Space]] = {}
        for s in self.spaces:
            groups.setdefault(s.tile, []).append(s)
        return tuple(Tile(t, ss[0].biome,
                          tuple(s.cell for s in ss if s.terrain == LAND),
                          tuple(s.cell for s in ss if s.terrain == WATER),
                          tuple(s.cell for s in ss if s.blessing))
                     for t, ss in sorted(groups.items()))

    def is_contiguous(self) -> bool:
        """True when every space can be reached from every other through adjacent spaces."""
        return len(self.cells) > 0 and nx.is_weakly_connected(self.space_graph)

    def cell_of(self, cell: Hex | Iterable[int]) -> int:
        """The index of a space given as a (q, r) pair; a clear error if it is not one."""
        try:
            key = (int(cell[0]), int(cell[1]))  # type: ignore[index]
        except (TypeError, ValueError, IndexError):
            raise InvalidData(f"{cell!r} is not a (q, r) pair") from None
        if key not in self.index:
            raise InvalidData(f"{key} is not a space of this continent")
        return self.index[key]

    def action_space(self, cell: Hex | Iterable[int], what: str) -> int:
        """The index of the space an action names; :class:`IllegalAction` naming the rule
        (``what``) if it is not a space of this continent."""
        try:
            return self.cell_of(cell)
        except InvalidData as exc:
            raise IllegalAction(f"{what}: {exc}") from None

    def describe(self, i: int) -> str:
        """A space in words, e.g. "(2, -1) Sun land"."""
        return f"{self.cells[i]} {self.biome[i]} {self.terrain[i]}"

    def to_list(self) -> list:
        """The board as JSON-ready data: one [q, r, terrain, biome, tile, blessing] per space."""
        return [[cell[0], cell[1], terrain, biome, tile, blessing]
                for cell, terrain, biome, tile, blessing in self.key]

    @kept_property
    def rows_json(self) -> str:
        """:meth:`to_list` as canonical JSON text, made once (every save of a game writes
        the same board)."""
        return jsonio.dumps(self.to_list())


#: limits of a saved board, far above any real one (4 players' tiles and the mountain are
#: under 200 spaces): checked before the board is built
MAX_SPACES = 2000
MAX_COORD = 100


def board_from_list(rows: object, mountain: object, biomes: Iterable[str]) -> Board:
    """Rebuild a board saved by :meth:`Board.to_list`, checking every row."""
    if not isinstance(rows, list) or not rows:
        raise InvalidData("field 'board' must be a non-empty list of spaces")
    if len(rows) > MAX_SPACES:
        raise InvalidData(f"field 'board' lists {len(rows)} spaces; a board has at most "
                          f"{MAX_SPACES}")
    biomes = set(biomes)
    spaces = []
    for k, row in enumerate(rows):
        if (not isinstance(row, list) or len(row) != 6
                or not all(type(x) is int and abs(x) <= MAX_COORD for x in row[:2])
                or row[2] not in (LAND, WATER) or not isinstance(row[3], str) or row[3] not in biomes
                or type(row[4]) is not int or not 0 <= row[4] <= MAX_SPACES
                or not isinstance(row[5], bool)):
            raise InvalidData(f"field board[{k}] must be [q, r, 'land'|'water', biome, tile, "
                              f"blessing], found {repr(row)[:80]}")
        if row[5] and row[2] != WATER:
            raise InvalidData(f"field board[{k}]: only a Water Space can carry a blessing icon")
        spaces.append(((row[0], row[1]), row[2], row[3], row[4], row[5]))
    if not isinstance(mountain, list) or len(mountain) > MAX_SPACES or not all(
            isinstance(h, list) and len(h) == 2
            and all(type(x) is int and abs(x) <= MAX_COORD for x in h) for h in mountain):
        raise InvalidData("field 'mountain' must be a list of [q, r] pairs")
    return _cached_board(tuple(spaces), tuple((h[0], h[1]) for h in mountain))


@lru_cache(maxsize=256)
def _cached_board(rows: tuple[tuple, ...], mountain: tuple[Hex, ...]) -> Board:
    """The board of these spaces, each given as a (cell, terrain, biome, tile, blessing) row
    (see :attr:`Board.key`), made once: the same spaces give the same board object."""
    return Board([Space(*row) for row in rows], mountain)


#: limits of a hand-built board: far more spaces than any continent of the game has (5
#: players lay 20 tiles of 7 spaces), coordinates that fit a drawing
MAX_CUSTOM_SPACES = 1000
MAX_COORDINATE = 60


def _custom_cell(cell: object, where: str) -> Hex:
    """A space of a hand-built board: two whole numbers of moderate size."""
    if (not isinstance(cell, (tuple, list)) or len(cell) != 2
            or any(isinstance(c, bool) or not isinstance(c, int) for c in cell)):
        raise InvalidData(f"{where}: expected a space (q, r) of two whole numbers, got "
                          f"{show(cell)}")
    if any(abs(c) > MAX_COORDINATE for c in cell):
        raise InvalidData(f"{where}: a space's coordinates run from -{MAX_COORDINATE} to "
                          f"{MAX_COORDINATE}, got {show(cell)}")
    return (cell[0], cell[1])


def _custom_cells(cells: object, where: str) -> list[Hex]:
    if isinstance(cells, (str, bytes)) or not isinstance(cells, Iterable):
        raise InvalidData(f"{where}: expected a list of spaces, got {show(cells)}")
    out = []
    for k, cell in enumerate(cells):
        if k >= MAX_CUSTOM_SPACES:
            raise InvalidData(f"{where}: at most {MAX_CUSTOM_SPACES} spaces")
        out.append(_custom_cell(cell, f"{where}[{k}]"))
    return out


def custom_board(spaces: Mapping[Hex, tuple[str, str]], blessing: Iterable[Hex] = (),
                 mountain: Iterable[Hex] = ()) -> Board:
    """A hand-built board, e.g. for a lesson: ``{(0, 0): ("land", "Sun"), ...}``.

    Each space is its own tile (there are no tile borders to draw).  Everything is checked
    before the board is built: a space is two whole numbers, each terrain ``land`` or
    ``water``, each biome a name, Blessing spaces and the Sacred Mountain's hexes given as
    spaces, the mountain apart from the spaces; anything else is refused with
    :class:`InvalidData` naming the entry.

    >>> custom_board({(0, 0): ("land", "Sun"), (1, 0): ("water", "Rain")}).land
    (0,)
    >>> custom_board({(0, 0): ("hill", "Sun")})
    Traceback (most recent call last):
    ...
    pangaea_lab.core.errors.InvalidData: spaces[(0, 0)]: terrain must be 'land' or 'water', not 'hill'
    """
    if not isinstance(spaces, Mapping):
        raise InvalidData(f"spaces: expected a mapping of space -> (terrain, biome), got "
                          f"{type(spaces).__name__}")
    if len(spaces) > MAX_CUSTOM_SPACES:
        raise InvalidData(f"spaces: at most {MAX_CUSTOM_SPACES} spaces, got {len(spaces)}")
    if not spaces:
        raise InvalidData("spaces: a board needs at least one space")
    checked: dict[Hex, tuple[str, str]] = {}
    for cell, value in spaces.items():
        where = f"spaces[{show(cell)}]"
        key = _custom_cell(cell, where)
        if key in checked:
            raise InvalidData(f"{where}: the space is given twice")
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise InvalidData(f"{where}: expected (terrain, biome), got {show(value)}")
        terrain, biome = value
        if terrain not in (LAND, WATER):
            raise InvalidData(f"{where}: terrain must be 'land' or 'water', not {show(terrain)}")
        if not isinstance(biome, str) or not 0 < len(biome) <= 40:
            raise InvalidData(f"{where}: expected a biome name, got {show(biome)}")
        checked[key] = (terrain, biome)
    marked = set(_custom_cells(blessing, "blessing"))
    for cell in sorted(marked):
        if cell not in checked:
            raise InvalidData(f"blessing: {cell} is not one of the spaces")
    peak = _custom_cells(mountain, "mountain")
    for cell in peak:
        if cell in checked:
            raise InvalidData(f"mountain: {cell} is also given as a space")
    rows = [(cell, terrain, biome, k, cell in marked)
            for k, (cell, (terrain, biome)) in enumerate(sorted(checked.items()))]
    return _cached_board(tuple(rows), tuple(sorted(set(peak))))


def _tile_cells(ed: Edition, rotation: int, offset: Hex) -> tuple[list[Hex], list[Hex], list[Hex]]:
    def place(cells):
        return [hexgrid.add(hexgrid.rotate(c, rotation), offset) for c in cells]
    return place(ed.land_shape), place(ed.water_shape), place(ed.blessing_shape)


#: a continent's hexes as whole numbers while tiles are laid (coordinates stay far below this)
_ROW = 1 << 16


def _num(h: Hex) -> int:
    return h[0] * _ROW + h[1]


def _hex_of(k: int) -> Hex:
    """The hex counted as ``k`` (see :func:`_num`)."""
    q = (k + _ROW // 2) // _ROW
    return (q, k - q * _ROW)


class _Layout:
    """What is known while tiles are laid (see :func:`_lay_tiles`): the tile's rotations
    that give different hexes (``kept``: rotation, its hexes in the shape's order), the hexes
    taken (``blocked``), the free hexes next to them (``frontier``), the spots covering a
    taken hex (``overlap``), the others reaching the frontier (``reach``), and how many
    mountain hexes lie next to a spot's hexes (``near_mountain``, counted once: the mountain
    never changes; ``doubled`` holds them twice, as they score).

    A spot, the tile's ``k``-th kept rotation moved by an offset ``o``, is counted as the
    whole number ``o * 8 + k`` (``o >> 3`` and ``o & 7`` give them back), so that the spots of
    every rotation are kept in one set and worked out in one go; ``tags`` holds
    ``c * 8 - k`` for each hex ``c`` of each kept rotation ``k`` (a spot putting hex ``c``
    of rotation ``k`` on hex ``n`` is ``n * 8 - (c * 8 - k)``)."""

    def __init__(self, radius: int, shape: tuple[Hex, ...]) -> None:
        # hexes are counted as whole numbers (q * _ROW + r: moving a hex by (dq, dr) adds
        # dq * _ROW + dr, and the numbers sort as the hexes do)
        mountain = [_num(h) for h in hexgrid.spiral((0, 0), radius)]
        self.directions = [_num(d) for d in hexgrid.DIRECTIONS]
        self.kept: list[tuple[int, list[int]]] = []
        forms: set[frozenset[int]] = set()
        for rotation in range(6):
            cells = [_num(hexgrid.rotate(c, rotation)) for c in shape]
            low = min(cells)
            form = frozenset(k - low for k in cells)
            if form not in forms:               # not the same hexes as an earlier rotation
                forms.add(form)
                self.kept.append((rotation, cells))
        self.tags = [c * 8 - k for k, (_, cells) in enumerate(self.kept) for c in cells]
        #: ``x`` -> the spots ``x - t`` for each tag ``t``, in the order of the tags (``x`` a
        #: hex's number times 8), made when first asked for and shared by the copies
        self.spots = _Spots(self.tags)
        self.blocked: set[int] = set()
        self.frontier: set[int] = set()
        self.overlap: set[int] = set()
        self.reach: set[int] = set()
        self.near_mountain: Counter[int] = Counter()
        self.settle(mountain, self.near_mountain)
        self.doubled = {spot: 2 * n for spot, n in self.near_mountain.items()}
        #: the first tile's spots, and the layout after each (see :meth:`first_spots`,
        #: :meth:`after_first`), made when first asked for (not passed on to copies)
        self._first: list[int] | None = None
        self._after_first: dict[int, tuple[_Layout, Counter[int]]] = {}

    def copy(self) -> "_Layout":
        """A copy to lay tiles on (the sets copied; the rotations and the mountain's counts
        shared, as they never change; what is kept of the first tile stays here)."""
        new = object.__new__(_Layout)
        vars(new).update({name: value for name, value in vars(self).items()
                          if name[0] != "_"})
        new.blocked, new.frontier = set(self.blocked), set(self.frontier)
        new.overlap, new.reach = set(self.overlap), set(self.reach)
        return new

    def first_spots(self) -> list[int]:
        """The spots the first tile may take (see :func:`_lay_tiles`): those nearest the
        mountain, in the order they are first met.  The same for every continent laid on
        this layout (only the mountain is there), so worked out once and kept."""
        found = self._first
        if found is None:
            spots = list(self.reach)
            scores = [self.doubled.get(spot, 0) for spot in spots]
            best = max(scores)
            found = [spot for spot, score in zip(spots, scores) if score == best]
            found.sort(key=self.first_met)
            self._first = found
        return found

    def first_met(self, spot: int) -> tuple[int, int, int]:
        """The order spots are taken in: rotation by rotation; in a rotation, by the first
        frontier hex the spot covers, then which of the tile's hexes lies there (no two
        spots share it)."""
        o, k = spot >> 3, spot & 7
        frontier = self.frontier
        return (k, *min((o + c, i) for i, c in enumerate(self.kept[k][1]) if o + c in frontier))

    def after_first(self, spot: int, hexes: list[int]) -> tuple["_Layout", Counter[int]]:
        """A copy of this layout (only the mountain laid) with the first tile laid on
        ``spot`` (its ``hexes``), and the counts of tile hexes next to each spot's hexes:
        each of the few first spots is settled once, and its layout copied for every
        continent that begins there."""
        kept = self._after_first.get(spot)
        if kept is None:
            laid = self.copy()
            touch: Counter[int] = Counter()
            laid.settle(hexes, touch)
            kept = self._after_first[spot] = (laid, touch)
        laid, touch = kept
        return laid.copy(), Counter(touch)

    def settle(self, hexes: list[int], counted: Counter) -> None:
        """Hexes taken: the spots covering one of them overlap from now on; the free hexes
        next to them join the frontier, and the spots reaching those (and overlapping
        nothing) can be chosen; the spots putting one of the tile's hexes on a free hex
        next to them count each taken hex it touches in ``counted``.

        Only free hexes are counted: a spot putting a hex on a taken one overlaps and is
        never scored again, so its count does not matter (the counts of the spots that can
        still be chosen come out as if every neighbour were counted).  Each step is taken
        for all the hexes and rotations at once (the sets and counts come out the same as
        hex by hex)."""
        blocked, frontier, overlap, reach = self.blocked, self.frontier, self.overlap, self.reach
        spots = self.spots.__getitem__
        blocked.update(hexes)
        frontier.difference_update(hexes)
        # the free hexes next to the new ones, each once for every new hex it touches
        near = [m * 8 for n in hexes for d in self.directions if (m := n + d) not in blocked]
        opened = {m >> 3 for m in near}
        opened.difference_update(frontier)
        frontier.update(opened)
        # (each hex's spots in the order of the tags, hex after hex: the sets and counts
        # are filled in the same order as spot by spot)
        gone = list(chain.from_iterable(map(spots, [h * 8 for h in hexes])))
        overlap.update(gone)
        reach.difference_update(gone)
        counted.update(chain.from_iterable(map(spots, near)))
        reach.update(filterfalse(overlap.__contains__,
                                 chain.from_iterable(map(spots, [m * 8 for m in opened]))))


class _Spots(dict):
    """``x`` -> ``tuple(x - t for t in tags)``, each made the first time ``x`` is asked for
    (see :meth:`_Layout.settle`; a continent's hexes are few, the same in every game)."""

    def __init__(self, tags: list[int]) -> None:
        super().__init__()
        self.tags = tuple(tags)

    def __missing__(self, x: int) -> tuple[int, ...]:
        found = self[x] = tuple([x - t for t in self.tags])
        return found


@lru_cache(maxsize=16)
def _mountain_laid(radius: int, shape: tuple[Hex, ...]) -> _Layout:
    """The layout with only the mountain (the same for every continent of an edition)."""
    return _Layout(radius, shape)


def _lay_tiles(ed: Edition, biomes: list[str], rng: random.Random) -> list[Tile]:
    """Attach tiles one at a time: each touches the mountain or earlier tiles, never overlaps,
    and prefers the snuggest spots (most shared edges), chosen at random among equals.

    The spots are taken rotation by rotation, each rotation's offsets in the order they are
    first met going through the frontier (the free hexes next to the mountain or a tile, in
    order) and the tile's hexes; a rotation that only moves the tile's hexes as a whole
    (a symmetric tile) adds no new spot.  What is known of each spot is kept up to date as
    tiles are laid, rather than found again for each tile: whether it overlaps the
    continent, whether it reaches the frontier, how many tile and mountain hexes its hexes
    touch (see :class:`_Layout`).  The first tile sees only the mountain, the same in every
    game: its few spots, and the layout after each, are worked out once and copied."""
    mountain = _mountain_laid(ed.mountain_radius, tuple(ed.land_shape) + tuple(ed.water_shape))
    kept = mountain.kept
    layout: _Layout | None = None       # the continent so far, once the first tile is laid
    touch: Counter[int] = Counter()     # tile hexes next to a spot's hexes
    tiles: list[Tile] = []
    for index, biome in enumerate(biomes):
        if layout is None:
            # the first tile's spots are those of every continent (see _Layout.first_spots)
            tops = mountain.first_spots()
        else:
            # after the first tile a tile must join the continent, not float beside the
            # mountain: only the spots touching a tile are scored
            spots = list(touch.keys() & layout.reach)
            scores = list(map(add, map(touch.__getitem__, spots),
                              map(layout.doubled.get, spots, repeat(0))))
            best_score = max(scores)
            tops = [spot for spot, score in zip(spots, scores) if score == best_score]
            tops.sort(key=layout.first_met)
        spot = rng.choice(tops)
        rotation = kept[spot & 7][0]
        land, water, blessing = _tile_cells(ed, rotation, _hex_of(spot >> 3))
        tiles.append(Tile(index, biome, tuple(land), tuple(water), tuple(blessing)))
        hexes = [_num(h) for h in land + water]
        if layout is None:
            # the mountain and the first tile, laid once for each first spot (and copied)
            layout, touch = mountain.after_first(spot, hexes)
        else:
            layout.settle(hexes, touch)
    return tiles


def build_continent(edition: Edition, players: int, seed: int | str) -> Board:
    """The continent for this player count and seed (Game Setup: 4 Biome Tiles per player,
    shuffled and attached to the Sacred Mountain as one contiguous continent)."""
    check_seats(edition, players)
    return _build(edition, players, seed)


def check_seats(edition: Edition, players: int) -> None:
    """Raise :class:`InvalidSetup` unless the competitive game's seats
    (``GAME.players_for``), as many as the edition serves, take ``players``."""
    low = GAME.players_for({})[0]
    if not low <= players <= edition.max_players:
        raise InvalidSetup(f"The Dawn of Pangaea is for {low} to {edition.max_players} players, "
                           f"not {players}")


@lru_cache(maxsize=128)
def _build(edition: Edition, players: int, seed: int | str) -> Board:
    rng = make_rng(seed, "continent")
    biomes = [b for b, n in tiles_per_player(edition).items() for _ in range(n * players)]
    rng.shuffle(biomes)
    tiles = _lay_tiles(edition, biomes, rng)
    rows = []
    for t in tiles:
        rows += [(c, LAND, t.biome, t.index, False) for c in t.land]
        rows += [(c, WATER, t.biome, t.index, c in t.blessing) for c in t.water]
    board = _cached_board(tuple(sorted(rows)),   # by cell: no two rows share one
                          tuple(sorted(hexgrid.spiral((0, 0), edition.mountain_radius))))
    if not tile_is_joined(edition) and not board.is_contiguous():  # pragma: no cover
        raise InvalidSetup("the tiles did not form one contiguous continent")
    return board


def tile_is_joined(edition: Edition) -> bool:
    """True when a Biome Tile's hexes hang together.  Then every laid continent is
    contiguous without searching it: the first tile is whole, and every later tile touches
    an earlier one (:func:`_lay_tiles` only lays it where it does)."""
    return _shape_joined(tuple(edition.land_shape) + tuple(edition.water_shape))


@lru_cache(maxsize=16)
def _shape_joined(shape: tuple[Hex, ...]) -> bool:
    cells = set(shape)
    g = nx.Graph()
    g.add_nodes_from(cells)
    g.add_edges_from((c, n) for c in cells for n in hexgrid.neighbours(c) if n in cells)
    return len(cells) > 0 and nx.is_connected(g)


@lru_cache(maxsize=256)
def stormy_board(board: Board, storm_tiles: tuple[tuple[int, str, int], ...]) -> Board:
    """The board as Land Rituals see it in Wild Woods: each tile covered by an Elemental
    Storm's tokens (``(tile, weather, tokens)``) counts as the Storm's weather."""
    if not storm_tiles:
        return board
    out = copy.copy(board)
    weather = {t: w for t, w, _ in storm_tiles}
    out.biome = tuple(weather.get(t, b) for t, b in zip(board.tile_of, board.biome))
    return out
