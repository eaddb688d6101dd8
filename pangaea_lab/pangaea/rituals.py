"""Land Rituals: shortest paths of Trees and Spirits between two of your Trees.

The rule (Play a Ritual Card, Land Rituals): pick two of your Trees standing on the two biomes
of the card; connect them through adjacent spaces holding a Tree or a Spirit of any player
(Seeds and empty spaces never connect); among all connections the shortest must be used (any
of several equally short ones).  You score 1 per Tree or Spirit of your own on the path and
+1 per other colour on it, however many pieces that colour has there.

These functions work on a plain position (a board, who owns the Tree on each space, where the
Spirits are), so a learner can explore a hand-built position as well as a game in progress.

The graph work is networkx's: the board's graph (``board.space_graph``, built once per board)
restricted to the spaces that connect (:attr:`Position.ritual_graph`, built once for each set
of connecting spaces), shortest distances from networkx (kept with it, as each Tree is the end
of many pairs and the connecting spaces change only now and then in a game),
and the shortest paths between two Trees are the walks that go one distance layer nearer the
end at each step; they are counted, and their scores added up, layer by layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, Sequence

import networkx as nx

from ..core.hexgrid import Hex
from ..core.memo import keep, kept_property, kept_table
from .board import Board
from .edition import LandCard

NOBODY = -1


@dataclass(frozen=True)
class Position:
    """Who holds each space: ``trees[i]``/``spirit_at[i]`` are player numbers or -1;
    ``chelon`` is the space of the Ancient Chelon (a bridge worth +1) or -1."""

    board: Board
    trees: tuple[int, ...]
    spirit_at: tuple[int, ...]
    chelon: int = NOBODY
    protected: int = NOBODY          # the space under Thorondal

    @classmethod
    def build(cls, board: Board, trees: dict[Hex, int], spirits: dict[int, Hex] | None = None,
              chelon: Hex | None = None, thorondal: Hex | None = None) -> "Position":
        """A position from ``{cell: player}`` Trees, ``{player: cell}`` Spirits, Chelon's and
        Thorondal's spaces."""
        t = [NOBODY] * len(board)
        for cell, p in trees.items():
            t[board.cell_of(cell)] = p
        s = [NOBODY] * len(board)
        for p, cell in (spirits or {}).items():
            s[board.cell_of(cell)] = p
        c = NOBODY if chelon is None else board.cell_of(chelon)
        guard = NOBODY if thorondal is None else board.cell_of(thorondal)
        return cls(board, tuple(t), tuple(s), c, guard)

    def holder(self, i: int) -> int:
        """The player whose Tree or Spirit stands on space ``i`` (-1 if none)."""
        return self.trees[i] if self.trees[i] != NOBODY else self.spirit_at[i]

    def connects(self, i: int) -> bool:
        """True if a Land Ritual path may pass space ``i`` (a Tree, a Spirit or Chelon)."""
        return i == self.chelon or self.trees[i] != NOBODY or self.spirit_at[i] != NOBODY

    def __hash__(self) -> int:
        # kept: a position is a key of the listing caches, looked up several times
        got = getattr(self, "_hash", None)
        if got is None:
            got = keep(self, "_hash",
                       hash((self.board, self.trees, self.spirit_at, self.chelon, self.protected)))
        return got

    @kept_property
    def _connecting(self) -> "_RitualGraph":
        chelon, at = self.chelon, self.spirit_at
        return _ritual_graph(self.board, tuple([
            i for i, t in enumerate(self.trees) if t != NOBODY or at[i] != NOBODY or i == chelon]))

    @property
    def ritual_graph(self) -> nx.DiGraph:
        """The board's graph restricted to the spaces a Land Ritual may pass (space numbers
        as nodes, see :attr:`.board.Board.space_graph`)."""
        return self._connecting.graph

    def distances(self, source: int) -> dict[int, int]:
        """Steps from ``source`` to each space it reaches through connecting spaces
        (networkx's shortest path lengths on :attr:`ritual_graph`)."""
        return self._connecting.distances(source)


def _restricted_graph(board: Board, nodes: tuple[int, ...] | frozenset[int]) -> nx.DiGraph:
    """The board's graph (``space_graph``) without the spaces that do not connect, made
    directly from the board's neighbours: the same nodes and edges as its subgraph, and
    quicker to build and search than a copied subgraph view."""
    keep = set(nodes)
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((i, j) for i in nodes for j in board.neighbours[i] if j in keep)
    return graph


class _LiveGraph:
    """One restricted graph of a board that is changed, space by space, to whichever set of
    connecting spaces distances are asked for next (a Tree grown or a Spirit moved changes
    one or two spaces): the searches run on it, so a restricted graph is not built again for
    each new set.  Between two changes it has exactly the nodes and edges of
    :func:`_restricted_graph` on the set it holds."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.graph = nx.Graph()
        self.nodes: frozenset[int] = frozenset()

    def distances(self, source: int, keep: frozenset[int]) -> dict[int, int]:
        """networkx's shortest path lengths from ``source`` (connecting) over the spaces
        ``keep``, searched on the graph changed to hold them."""
        return nx.single_source_shortest_path_length(self.holding(keep), source)

    def holding(self, keep: frozenset[int]) -> nx.Graph:
        """The graph, changed to hold exactly the spaces ``keep`` (undirected: the board's
        adjacency goes both ways, so each edge is added once)."""
        if keep != self.nodes:
            graph = self.graph
            graph.remove_nodes_from(self.nodes - keep)
            near = self.board.neighbours
            for i in sorted(keep - self.nodes):
                graph.add_node(i)
                for j in near[i]:
                    if j in keep:
                        graph.add_edge(i, j)
            self.nodes = keep
        return self.graph


@lru_cache(maxsize=64)
def _live_graph(board: Board) -> _LiveGraph:
    return _LiveGraph(board)


class _RitualGraph:
    """The board's graph restricted to a set of connecting spaces, and the distances found
    on it so far.  Positions that differ only in who holds the spaces, or in Seeds, share it
    (see :func:`_ritual_graph`), so a Tree's distances are found once for many listings.
    The distances are networkx's shortest path lengths, searched on the board's live
    restricted graph (:class:`_LiveGraph`) set to these spaces."""

    def __init__(self, board: Board, nodes: tuple[int, ...]) -> None:
        self.board = board
        self.nodes = nodes
        self.keep = frozenset(nodes)
        self.found: dict[int, dict[int, int]] = {}

    @kept_property
    def graph(self) -> nx.DiGraph:
        return _restricted_graph(self.board, self.nodes)

    def distances(self, source: int) -> dict[int, int]:
        got = self.found.get(source)
        if got is None:
            if source in self.keep:
                got = _live_graph(self.board).distances(source, self.keep)
            else:   # a start that does not connect itself
                got = nx.single_source_shortest_path_length(
                    self.board.space_graph.subgraph([*self.nodes, source]), source)
            self.found[source] = got
        return got


@lru_cache(maxsize=64)      # each game's board is new: a long run would only churn a larger one
def _ritual_graph(board: Board, nodes: tuple[int, ...]) -> _RitualGraph:
    """The connecting spaces and the distances found among them (what depends only on the
    board and which spaces connect is worked out once)."""
    return _RitualGraph(board, nodes)


@dataclass(frozen=True)
class RitualOption:
    """One legal way to perform a Land Ritual, with its score explained."""

    card: str
    start: Hex
    end: Hex
    path: tuple[Hex, ...]
    own: int
    other_colours: tuple[int, ...]
    bonus: int = 0
    kept: tuple[Hex, ...] = ()       # your Trees on the path that Thorondal keeps in place

    @property
    def points(self) -> int:
        return self.own + len(self.other_colours) + self.bonus

    def explain(self, names: Sequence[str] | None = None) -> str:
        colours = [names[p] if names else f"player {p + 1}" for p in self.other_colours]
        text = f"{self.own} for your own Trees and Spirit"
        if colours:
            text += f" + {len(colours)} for other colours ({', '.join(colours)})"
        if self.bonus:
            text += f" + {self.bonus} for the Chelon bridge"
        text = f"{text} = {self.points} points"
        if self.kept:
            text += f"; Thorondal keeps your Tree on {self.kept[0]} in place"
        return text


def _layers(pos: Position, start: int, end: int) -> tuple[dict[int, int], dict[int, int], int] | None:
    """Distances from ``start`` and to ``end`` over connecting spaces and the shortest length;
    a space ``j`` lies on a shortest connection exactly when ``from_start[j] + to_end[j]``
    equals that length.  None if the two spaces are not connected."""
    from_start = pos.distances(start)
    if end not in from_start:
        return None
    return from_start, pos.distances(end), from_start[end]


def _next_steps(pos: Position, layers: tuple[dict[int, int], dict[int, int], int],
                i: int) -> list[int]:
    """The spaces after ``i`` on some shortest connection (board neighbour order)."""
    from_start, to_end, length = layers
    d = from_start[i] + 1
    return [j for j in pos.board.neighbours[i]
            if from_start.get(j) == d and to_end.get(j) == length - d]


def iter_shortest_paths(pos: Position, start: int, end: int) -> Iterator[tuple[int, ...]]:
    """Every shortest connection of Trees and Spirits from space ``start`` to ``end`` (space
    indices, both ends included), one at a time, in a fixed order; nothing if they are not
    connected.  There may be very many (they double with each two-way step), so count them
    with :func:`count_shortest_paths` rather than listing them."""
    layers = _layers(pos, start, end)
    if layers is None:
        return
    if start == end:
        yield (start,)
        return
    path = [start]
    stack = [iter(_next_steps(pos, layers, start))]
    while stack:
        j = next(stack[-1], None)
        if j is None:
            stack.pop()
            path.pop()
            continue
        path.append(j)
        if j == end:
            yield tuple(path)
            path.pop()
        else:
            stack.append(iter(_next_steps(pos, layers, j)))


def shortest_paths(pos: Position, start: int, end: int) -> list[tuple[int, ...]]:
    """All shortest connections from ``start`` to ``end`` as a list (see
    :func:`iter_shortest_paths`; nothing is left out)."""
    return list(iter_shortest_paths(pos, start, end))


def _dag_order(pos: Position, layers: tuple[dict[int, int], dict[int, int], int]) -> list[int]:
    """The spaces on some shortest connection, nearest the start first."""
    from_start, to_end, length = layers
    return sorted((j for j, d in from_start.items() if to_end.get(j) == length - d),
                  key=lambda j: (from_start[j], j))


def count_shortest_paths(pos: Position, start: int, end: int) -> int:
    """How many shortest connections join ``start`` and ``end`` (0 if none), counted layer by
    layer (each space adds up the ways of reaching the spaces one step nearer the start), so
    the count is exact however large it is."""
    layers = _layers(pos, start, end)
    if layers is None:
        return 0
    ways = {start: 1}
    for i in _dag_order(pos, layers):
        for j in _next_steps(pos, layers, i):
            ways[j] = ways.get(j, 0) + ways[i]
    return ways[end]


def _gain(pos: Position, i: int, player: int) -> tuple[int, int]:
    """What space ``i`` adds to a path: (points that simply add up: your own piece and the
    Chelon bridge, the bit of another colour standing there or 0)."""
    holder = pos.holder(i)
    add = int(holder == player) + int(i == pos.chelon)
    return add, (1 << holder) if holder not in (player, NOBODY) else 0


def _score_table(pos: Position, player: int, start: int, end: int):
    """Dynamic programming over the shortest-path layers.  For each space and each
    (colours other than yours met so far, points that add up so far) it keeps the number of
    shortest paths from ``start`` arriving that way and the first of them (its previous
    space and state), so both the exact score distribution and a path for each score come
    out without listing the paths.  None if not connected."""
    layers = _layers(pos, start, end)
    if layers is None:
        return None
    add, bit = _gain(pos, start, player)
    table: dict[int, dict[tuple[int, int], list]] = {start: {(bit, add): [1, None]}}
    for i in _dag_order(pos, layers):
        here = table.get(i, {})
        for j in _next_steps(pos, layers, i):
            add, bit = _gain(pos, j, player)
            there = table.setdefault(j, {})
            for (colours, points), (ways, _) in here.items():
                key = (colours | bit, points + add)
                if key in there:
                    there[key][0] += ways
                else:
                    there[key] = [ways, (i, (colours, points))]
    return table


def _total(key: tuple[int, int]) -> int:
    colours, points = key
    return points + bin(colours).count("1")


def score_counts(pos: Position, player: int, start: int, end: int) -> dict[int, int]:
    """``{points: number of shortest paths scoring that}`` for a Land Ritual of ``player``
    between spaces ``start`` and ``end`` (empty if not connected), exact."""
    table = _score_table(pos, player, start, end)
    out: dict[int, int] = {}
    for key, (ways, _) in (table or {}).get(end, {}).items():
        out[_total(key)] = out.get(_total(key), 0) + ways
    return dict(sorted(out.items(), reverse=True))


def paths_by_score(pos: Position, player: int, start: int, end: int) -> dict[int, tuple[int, ...]]:
    """``{points: one shortest path scoring that}``, best first: for each score a learner can
    reach between the two spaces, one path that reaches it (found by the same dynamic
    programming as :func:`score_counts`)."""
    table = _score_table(pos, player, start, end)
    if table is None:
        return {}
    out: dict[int, tuple[int, ...]] = {}
    for key in sorted(table.get(end, {}), key=lambda k: (-_total(k), k)):
        if _total(key) in out:
            continue
        path, node, state = [end], end, key
        while table[node][state][1] is not None:
            node, state = table[node][state][1]
            path.append(node)
        out[_total(key)] = tuple(reversed(path))
    return out


def score_path(pos: Position, path: Sequence[int], player: int) -> tuple[int, tuple[int, ...]]:
    """``(own pieces, other colours)`` on a path of space indices."""
    own = 0
    others: set[int] = set()
    for i in path:
        holder = pos.holder(i)
        if holder == player:
            own += 1
        elif holder != NOBODY:
            others.add(holder)
    return own, tuple(sorted(others))


def endpoints(pos: Position, player: int, card: LandCard) -> list[tuple[int, int]]:
    """Pairs (start, end) of the player's Trees on the card's two biomes, each pair once."""
    first, second = card.biomes
    mine = _trees_by_biome(pos, player)
    starts, ends = mine.get(first, ()), mine.get(second, ())
    if first == second:
        return [(a, b) for a in starts for b in ends if b > a]
    return [(a, b) for a in starts for b in ends]


def has_pairs(pos: Position, player: int, card: LandCard) -> bool:
    """Whether the player has Trees on both of the card's biomes (two on its biome if it
    asks for the same biome twice): without them :func:`endpoints` is empty and the card
    has no Land Ritual."""
    mine = _trees_by_biome(pos, player)
    first, second = card.biomes
    if first == second:
        return len(mine.get(first, ())) >= 2
    return first in mine and second in mine


def _trees_by_biome(pos: Position, player: int) -> dict[str, list[int]]:
    """The player's Trees (land spaces in board order) by biome, kept with the position."""
    kept = kept_table(pos, "_mine")
    got = kept.get(player)
    if got is None:
        got = kept[player] = {}
        biome, trees = pos.board.biome, pos.trees
        for i in pos.board.land:
            if trees[i] == player:
                got.setdefault(biome[i], []).append(i)
    return got


def _option(pos: Position, player: int, card: LandCard, path: Sequence[int]) -> RitualOption:
    """The scored option for a legal path of space indices."""
    board = pos.board
    own, others = score_path(pos, path, player)
    bonus = 1 if pos.chelon in path else 0   # Chelon as a bridge: +1
    kept = tuple(board.cells[i] for i in path if i == pos.protected and pos.trees[i] == player)
    return RitualOption(card.id, board.cells[path[0]], board.cells[path[-1]],
                        tuple(board.cells[i] for i in path), own, others, bonus, kept)


def _order(option: RitualOption) -> tuple:
    return (-option.points, option.start, option.end, option.path)


def _pairs(pos: Position, player: int, card: LandCard, start: Hex | None,
           end: Hex | None) -> list[tuple[int, int]]:
    cells = pos.board.cells
    return [(a, b) for a, b in endpoints(pos, player, card)
            if (start is None or cells[a] == tuple(start)) and (end is None or cells[b] == tuple(end))]


def iter_ritual_options(pos: Position, player: int, card: LandCard, start: Hex | None = None,
                        end: Hex | None = None) -> Iterator[RitualOption]:
    """Every legal Land Ritual for this card and player (optionally only between the Trees on
    ``start`` and ``end``), one at a time, pair by pair: nothing is left out, however many."""
    for a, b in _pairs(pos, player, card, start, end):
        for path in iter_shortest_paths(pos, a, b):
            yield _option(pos, player, card, path)


def land_ritual_options(pos: Position, player: int, card: LandCard, start: Hex | None = None,
                        end: Hex | None = None) -> list[RitualOption]:
    """Every legal (start, end, path) for this card and player, best score first (optionally
    only between the Trees on ``start`` and ``end``).  The list is complete; where two Trees
    are joined by a great many shortest paths, :func:`ritual_pairs` counts and scores them
    without listing them, and :func:`iter_ritual_options` goes through them one at a time."""
    return sorted(iter_ritual_options(pos, player, card, start, end), key=_order)


#: Two Trees joined by more shortest paths than this are offered in the list of legal actions
#: by one path per score (every other path is just as legal; see :func:`listed_options`).
LIST_LIMIT = 500


@dataclass(frozen=True)
class PairSummary:
    """The Land Rituals between two of a player's Trees, counted and scored exactly."""

    start: Hex
    end: Hex
    steps: int                      # length of the shortest connection
    paths: int                      # how many shortest connections there are
    scores: dict                    # {points: number of paths scoring that}, best first
    examples: tuple[RitualOption, ...]   # one option for each score, best first

    @property
    def best(self) -> int:
        return next(iter(self.scores))

    @property
    def best_option(self) -> RitualOption:
        return self.examples[0]


def ritual_pairs(pos: Position, player: int, card: LandCard, start: Hex | None = None,
                 end: Hex | None = None) -> list[PairSummary]:
    """For each pair of the player's Trees that a Land Ritual with this card may join (and
    that are connected): the number of shortest paths, how many score each number of points
    and an example path for each score, by dynamic programming (no path is listed)."""
    out = []
    for a, b in _pairs(pos, player, card, start, end):
        counts = score_counts(pos, player, a, b)
        if not counts:
            continue
        examples = tuple(_option(pos, player, card, path)
                         for path in paths_by_score(pos, player, a, b).values())
        out.append(PairSummary(pos.board.cells[a], pos.board.cells[b],
                               len(examples[0].path) - 1, sum(counts.values()), counts, examples))
    return out


def best_ritual(pos: Position, player: int, card: LandCard) -> RitualOption | None:
    """A best-scoring legal Land Ritual for this card and player (None if there is none)."""
    best = [pair.best_option for pair in ritual_pairs(pos, player, card)]
    return min(best, key=_order) if best else None


def listed_options(pos: Position, player: int, card: LandCard) -> list[RitualOption]:
    """The Land Rituals offered in the list of legal actions, best first: every path between
    two Trees joined by at most :data:`LIST_LIMIT` shortest paths; for two Trees joined by
    more, one path for each score they can give (the best among them), so the list stays
    short while every score, the best included, is on it.  Any other shortest path between
    them is still legal to play."""
    return list(listed_tuple(pos, player, card))


def listed_tuple(pos: Position, player: int, card: LandCard) -> tuple[RitualOption, ...]:
    """:func:`listed_options` as the tuple kept for this position, player and card (shared:
    not to be changed)."""
    return _listed(pos, pos.board.biome, player, card)


@lru_cache(maxsize=32)      # small: it holds positions (see scoring._land_actions)
def _listed(pos: Position, biomes: tuple[str, ...], player: int,
            card: LandCard) -> tuple[RitualOption, ...]:
    # the options depend only on the position (who holds each space), the spaces' biomes
    # (a board under a Wild Woods Storm equals the plain board but for its biomes, so they
    # are part of the key), the player and the card: most actions (taking a card, a token,
    # a decision) leave all of them as they were, and the next state's listing is then
    # found here instead of worked out again
    options: list[RitualOption] = []
    for a, b in endpoints(pos, player, card):
        paths = _few_shortest_paths(pos, a, b)
        if paths is not None:
            options += [_option(pos, player, card, path) for path in paths]
        else:
            options += [_option(pos, player, card, path)
                        for path in paths_by_score(pos, player, a, b).values()]
    return tuple(sorted(options, key=_order))


def _few_shortest_paths(pos: Position, start: int, end: int) -> list[tuple[int, ...]] | None:
    """Every shortest connection from ``start`` to ``end`` (as :func:`shortest_paths`, in
    another order) when there are at most :data:`LIST_LIMIT` of them, else None.  Only the
    distances from the start are needed: the spaces one step nearer the start than a space
    on a shortest connection, next to it, are the ones before it on some shortest
    connection, so going back from the end finds them all; the connections are counted
    layer by layer first (as :func:`count_shortest_paths`) and listed only when they are
    few."""
    from_start = pos.distances(start)
    length = from_start.get(end)
    if length is None:
        return []
    if start == end:
        return [(start,)]
    near = pos.board.neighbours
    before: dict[int, list[int]] = {}
    layers = [[end]]
    for d in range(length - 1, -1, -1):
        layer: list[int] = []
        for j in layers[-1]:
            steps = before[j] = [i for i in near[j] if from_start.get(i) == d]
            layer += [i for i in steps if i not in before and i not in layer]
        layers.append(layer)
    ways = {start: 1}
    for layer in reversed(layers[:-1]):
        for j in layer:
            ways[j] = sum(ways[i] for i in before[j])
    if ways[end] > LIST_LIMIT:
        return None
    out: list[tuple[int, ...]] = []
    _walk_back(before, start, end, [end], out)
    return out


def _walk_back(before: dict[int, list[int]], start: int, j: int, path: list[int],
               out: list[tuple[int, ...]]) -> None:
    """Each way back from ``j`` (the last space of ``path``, which runs from the end
    backwards) to ``start`` through the spaces ``before`` each one, in their order, added to
    ``out`` as a path from the start.  A plain function rather than one nested in the
    caller: a nested function that calls itself is a reference cycle, left behind for the
    garbage collector to find after every call."""
    for i in before[j]:
        path.append(i)
        if i == start:
            out.append(tuple(reversed(path)))
        else:
            _walk_back(before, start, i, path, out)
        path.pop()


def checked_option(pos: Position, player: int, card: LandCard,
                   path: Sequence[Hex]) -> RitualOption | str:
    """The scored option for ``path`` if it is a legal Land Ritual, judged by the path's own
    properties (your Trees at both ends on the card's biomes, adjacent connecting spaces, a
    shortest connection), else the reason it is not, in plain words."""
    try:
        why = explain_path(pos, player, card, path)
    except (TypeError, ValueError):
        return "A path is a list of spaces, each given as (q, r)."
    if why:
        return why
    board = pos.board
    return _option(pos, player, card, [board.index[tuple(c)] for c in path])


def explain_path(pos: Position, player: int, card: LandCard, path: Sequence[Hex]) -> str:
    """Why a proposed path is not a legal Land Ritual, in plain words ("" if it is legal)."""
    return path_fault(pos, player, card, path)[1]


#: the kinds of fault :func:`path_fault` names, in the order they are checked
FAULTS = ("short", "off-board", "loop", "ends", "biomes", "adjacent", "gap", "detour")


def path_fault(pos: Position, player: int, card: LandCard,
               path: Sequence[Hex]) -> tuple[str, str]:
    """``(kind, reason)`` of the first rule a proposed path breaks (see :data:`FAULTS`), or
    ``("", "")`` if it is a legal Land Ritual."""
    board = pos.board
    cells = [tuple(c) for c in path]
    if len(cells) < 2:
        return "short", "A Land Ritual joins two different Trees, so the path needs at least 2 spaces."
    for c in cells:
        if c not in board.index:
            return "off-board", f"{c} is not a space of this continent."
    idx = [board.index[c] for c in cells]
    if len(set(idx)) != len(idx):
        return "loop", "The path visits a space twice; a path never loops back."
    start, end = idx[0], idx[-1]
    for name, i in (("start", start), ("end", end)):
        if pos.trees[i] != player:
            return "ends", f"The {name} space {board.cells[i]} must hold one of your own Trees."
    biomes = (board.biome[start], board.biome[end])
    if sorted(biomes) != sorted(card.biomes):
        return "biomes", (f"The card asks for Trees on {card.biomes[0]} and {card.biomes[1]}, but "
                          f"this path joins {biomes[0]} and {biomes[1]}.")
    for i, j in zip(idx, idx[1:]):
        if j not in board.neighbours[i]:
            return "adjacent", f"{board.cells[i]} and {board.cells[j]} are not adjacent."
    for i in idx[1:-1]:
        if not pos.connects(i):
            return "gap", (f"{board.cells[i]} holds no Tree or Spirit; only Trees and Spirits "
                           "connect (and Chelon; a Seed or an empty space breaks the path).")
    best = pos.distances(start).get(end)
    if best is not None and len(idx) - 1 > best:
        return "detour", (f"This path takes {len(idx) - 1} steps but a shorter connection of "
                          f"{best} steps exists; a Land Ritual must use a shortest path, so this "
                          "is a detour.")
    return "", ""
