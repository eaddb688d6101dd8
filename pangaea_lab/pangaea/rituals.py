"""Land Rituals: shortest paths of Trees and Spirits between two of your Trees.

The rule (Play a Ritual Card, Land Rituals): pick two of your Trees standing on the two biomes
of the card; connect them through adjacent spaces holding a Tree or a Spirit of any player
(Seeds and empty spaces never connect); among all connections the shortest must be used (any
of several equally short ones).  You score 1 per Tree or Spirit of your own on the path and
+1 per other colour on it, however many pieces that colour has there.

These functions work on a plain position (a board, who owns the Tree on each space, where the
Spirits are), so a learner can explore a hand-built position as well as a game in progress.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Sequence

from ..core.hexgrid import Hex
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


def _bfs(pos: Position, source: int) -> dict[int, int]:
    board = pos.board
    dist = {source: 0}
    queue = deque([source])
    while queue:
        i = queue.popleft()
        for j in board.neighbours[i]:
            if j not in dist and pos.connects(j):
                dist[j] = dist[i] + 1
                queue.append(j)
    return dist


def shortest_paths(pos: Position, start: int, end: int, limit: int = 500) -> list[tuple[int, ...]]:
    """Every shortest connection of Trees and Spirits from space ``start`` to ``end``
    (space indices, both ends included); empty if they are not connected."""
    from_start = _bfs(pos, start)
    if end not in from_start:
        return []
    to_end = _bfs(pos, end)
    length = from_start[end]
    out: list[tuple[int, ...]] = []

    def extend(path: list[int]) -> None:
        if len(out) >= limit:
            return
        i = path[-1]
        if i == end:
            out.append(tuple(path))
            return
        for j in pos.board.neighbours[i]:
            if from_start.get(j) == from_start[i] + 1 and to_end.get(j) == length - from_start[j]:
                path.append(j)
                extend(path)
                path.pop()

    extend([start])
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
    board = pos.board
    first, second = card.biomes
    mine = [i for i in board.land if pos.trees[i] == player]
    pairs = []
    for a in mine:
        if board.biome[a] != first:
            continue
        for b in mine:
            if b == a or board.biome[b] != second:
                continue
            if first == second and b < a:
                continue
            pairs.append((a, b))
    return pairs


def land_ritual_options(pos: Position, player: int, card: LandCard) -> list[RitualOption]:
    """Every legal (start, end, path) for this card and player, best score first."""
    board = pos.board
    options = []
    for a, b in endpoints(pos, player, card):
        for path in shortest_paths(pos, a, b):
            own, others = score_path(pos, path, player)
            bonus = 1 if pos.chelon in path else 0   # Chelon as a bridge: +1
            kept = tuple(board.cells[i] for i in path
                         if i == pos.protected and pos.trees[i] == player)
            options.append(RitualOption(card.id, board.cells[a], board.cells[b],
                                        tuple(board.cells[i] for i in path), own, others, bonus,
                                        kept))
    options.sort(key=lambda o: (-o.points, o.start, o.end, o.path))
    return options


def explain_path(pos: Position, player: int, card: LandCard, path: Sequence[Hex]) -> str:
    """Why a proposed path is not a legal Land Ritual, in plain words ("" if it is legal)."""
    board = pos.board
    cells = [tuple(c) for c in path]
    if len(cells) < 2:
        return "A Land Ritual joins two different Trees, so the path needs at least 2 spaces."
    for c in cells:
        if c not in board.index:
            return f"{c} is not a space of this continent."
    idx = [board.index[c] for c in cells]
    if len(set(idx)) != len(idx):
        return "The path visits a space twice; a path never loops back."
    start, end = idx[0], idx[-1]
    for name, i in (("start", start), ("end", end)):
        if pos.trees[i] != player:
            return f"The {name} space {board.cells[i]} must hold one of your own Trees."
    biomes = (board.biome[start], board.biome[end])
    if sorted(biomes) != sorted(card.biomes):
        return (f"The card asks for Trees on {card.biomes[0]} and {card.biomes[1]}, but this path "
                f"joins {biomes[0]} and {biomes[1]}.")
    for i, j in zip(idx, idx[1:]):
        if j not in board.neighbours[i]:
            return f"{board.cells[i]} and {board.cells[j]} are not adjacent."
    for i in idx[1:-1]:
        if not pos.connects(i):
            return (f"{board.cells[i]} holds no Tree or Spirit; only Trees and Spirits connect "
                    "(and Chelon; a Seed or an empty space breaks the path).")
    best = _bfs(pos, start).get(end)
    if best is not None and len(idx) - 1 > best:
        return (f"This path takes {len(idx) - 1} steps but a shorter connection of "
                f"{best} steps exists; a Land Ritual must use a shortest path, so this is a detour.")
    return ""
