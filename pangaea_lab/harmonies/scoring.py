"""Scoring: landscapes (rulebook "End of the game" scoring pages), animal cards, Nature's
Spirits and the solo result in suns.

Works on any board you describe, no game needed:

>>> stacks = {(1, 2): ["blue"], (2, 1): ["brown", "green"], (3, 1): ["gray", "red"]}
>>> s = score_board(side="A", stacks=stacks)
>>> (s.trees, s.mountains, s.fields, s.buildings, s.water, s.total)
(3, 0, 0, 0, 0, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, TypeVar

from ..core.errors import InvalidSetup
from ..core.protocol import ScoreBreakdown
from .board import Cell, Stack, _neighbour_table, cells, check_side, rules_data, stacks_tuple
from .cards import Card, card
from .game import GAME, RIVER_RULES
from .habitats import board_view

#: the default way to measure a river with loops (see :func:`river_length`)
DEFAULT_RIVER_RULE = GAME.options["river_rule"].default

T = TypeVar("T")


@dataclass(frozen=True)
class BoardScore:
    """Landscape points of one board, by scoresheet row."""

    trees: int
    mountains: int
    fields: int
    buildings: int
    water: int
    side: str
    #: river length on side A, number of islands on side B
    water_size: int

    @property
    def total(self) -> int:
        return self.trees + self.mountains + self.fields + self.buildings + self.water

    def rows(self) -> tuple[tuple[str, int], ...]:
        """``(row name, points)`` in scoresheet order."""
        water = "Water (river)" if self.side == "A" else "Water (islands)"
        return (("Trees", self.trees), ("Mountains", self.mountains), ("Fields", self.fields),
                ("Buildings", self.buildings), (water, self.water))

    def explain(self) -> str:
        """The breakdown in a few plain lines."""
        lines = [f"{name}: {pts}" for name, pts in self.rows()]
        what = "longest river" if self.side == "A" else "islands"
        lines[-1] += f"  ({what}: {self.water_size})"
        return "\n".join(lines + [f"Total: {self.total}"])


def _land() -> dict:
    return rules_data()["landscapes"]


def groups(side: str, board: tuple[Stack, ...], keep) -> list[list[int]]:
    """Connected groups (board indices) of the spaces whose stack satisfies ``keep``."""
    nbrs = _neighbour_table(side)
    inside = [bool(keep(s)) for s in board]
    seen = [False] * len(board)
    out = []
    for start in range(len(board)):
        if not inside[start] or seen[start]:
            continue
        seen[start] = True
        todo, group = [start], []
        while todo:
            i = todo.pop()
            group.append(i)
            for j in nbrs[i]:
                if inside[j] and not seen[j]:
                    seen[j] = True
                    todo.append(j)
        out.append(sorted(group))
    return out


def is_tree(s: Stack) -> bool:
    return bool(s) and s[-1] == "green"


def is_mountain(s: Stack) -> bool:
    return bool(s) and s[-1] == "gray"


def is_building(s: Stack) -> bool:
    return len(s) == 2 and s[-1] == "red"


def _top(s: Stack) -> str | None:
    return s[-1] if s else None


def tree_points(board: tuple[Stack, ...]) -> int:
    """Trees: green on 0, 1 or 2 brown scores 1, 3 or 7 by height."""
    pts = _land()["tree_points_by_height"]
    return sum(pts[len(s) - 1] for s in board if is_tree(s))


def mountain_points(side: str, board: tuple[Stack, ...]) -> int:
    """Mountains: 1, 3 or 7 by height, but only next to at least one other mountain."""
    pts = _land()["mountain_points_by_height"]
    return sum(pts[len(board[i]) - 1] for g in groups(side, board, is_mountain) if len(g) > 1
               for i in g)


def field_points(side: str, board: tuple[Stack, ...]) -> int:
    """Fields: 5 points per connected group of at least two yellow tokens."""
    return _land()["field_group_points"] * sum(
        1 for g in groups(side, board, lambda s: s == ("yellow",)) if len(g) > 1)


def building_points(side: str, board: tuple[Stack, ...]) -> int:
    """Buildings: 5 points each when the neighbours' top tokens show 3 or more colours."""
    nbrs = _neighbour_table(side)
    need = _land()["building_colours_needed"]
    total = 0
    for i, s in enumerate(board):
        if is_building(s):
            colours = {board[j][-1] for j in nbrs[i] if board[j]}
            if len(colours) >= need:
                total += _land()["building_points"]
    return total


def river_points(length: int) -> int:
    """Points of a river of ``length`` tokens (2, 5, 8, 11, 15, then +4 per token)."""
    table = _land()["river_points_by_length"]
    if length < len(table):
        return table[length]
    return table[-1] + _land()["river_points_per_extra_token"] * (length - len(table) + 1)


def _distances_max(group: list[int], nbrs) -> int:
    members = set(group)
    best = 0
    for start in group:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for i in frontier:
                for j in nbrs[i]:
                    if j in members and j not in dist:
                        dist[j] = dist[i] + 1
                        nxt.append(j)
            frontier = nxt
        best = max(best, max(dist.values()))
    return best + 1


#: work limit of the longest-loop search (steps of a depth-first search); see below
LOOP_SEARCH_BUDGET = 50_000


def longest_loop(group: Iterable[int], nbrs, budget: int = LOOP_SEARCH_BUDGET) -> int:
    """Number of tokens in the longest closed loop inside a group (0 if it has none).

    A depth-first search over simple cycles, pruned by how many spaces are still reachable
    and trying the most hemmed-in neighbour first so long loops turn up early.  It is exact
    unless it runs out of ``budget`` steps, which only happens for very large water areas
    (about 18 or more connected blue tokens); it then returns the longest loop found so far,
    the same on every machine."""
    order = sorted(group)
    pos = {v: k for k, v in enumerate(order)}
    adj = [0] * len(order)
    for v in order:
        for w in nbrs[v]:
            if w in pos:
                adj[pos[v]] |= 1 << pos[w]
    n = len(order)
    best = 0
    popcount = int.bit_count

    def reach(frm: int, allowed: int) -> int:
        return (1 << frm) | _reach(adj, frm, allowed)   # ``frm`` and what it reaches

    work = 0
    for s in range(n):
        if n - s <= best:
            break
        higher = ((1 << n) - 1) & ~((1 << (s + 1)) - 1)
        stack = [(s, 1 << s, 1)]
        while stack:
            work += 1
            if work > budget:
                return best
            v, used, length = stack.pop()
            if length >= 3 and adj[v] >> s & 1 and length > best:
                best = length
                if best == n - s:
                    return best
            free = higher & ~used
            if length + popcount(reach(v, free) & free) <= best:
                continue
            bits = adj[v] & free
            options = []
            while bits:
                low = bits & -bits
                w = low.bit_length() - 1
                options.append((popcount(adj[w] & free), w, low))
                bits ^= low
            for _, w, low in sorted(options, reverse=True):
                stack.append((w, used | low, length + 1))
    return best


def longest_ring(group: Iterable[int], nbrs) -> int:
    """Number of tokens in the longest *loop without shortcuts* inside a group (0 if none).

    Such a loop is a closed chain of water tokens in which no two tokens that are not next
    to each other along the chain are neighbours on the board: a ring of six around another
    space, or a triangle of three.  A loop that some token of it cuts short does not count
    at its full length; the shorter loops it splits into are counted instead.

    >>> from pangaea_lab.harmonies.board import _neighbour_table, cells
    >>> index = {c: i for i, c in enumerate(cells("A"))}
    >>> ring = [index[c] for c in [(1, 0), (1, 1), (2, 0), (2, 2), (3, 0), (3, 1)]]
    >>> longest_ring(ring, _neighbour_table("A"))
    6
    """
    # The same answer as ``max(len(c) for c in nx.chordless_cycles(graph))`` over the group's
    # graph (``graph_lab`` and the tests compare them), found by a search over bit sets:
    # from each token s, grow chains through higher tokens where each new token touches
    # the chain's last token and no other token of the chain but, to close it, s itself.
    order = sorted(set(group))
    pos = {v: k for k, v in enumerate(order)}
    n = len(order)
    adj = [0] * n
    for v in order:
        for w in nbrs[v]:
            if w in pos:
                adj[pos[v]] |= 1 << pos[w]
    best = 0
    popcount = int.bit_count
    for s in range(n):
        if n - s <= best:
            break           # too few tokens left above s for a longer loop
        start = 1 << s
        higher = ((1 << n) - 1) & ~((start << 1) - 1)
        # (last token, tokens used, tokens touching the chain inside, chain length)
        chains = []
        first = adj[s] & higher
        while first:
            low = first & -first
            chains.append((low.bit_length() - 1, start | low, 0, 2))
            first ^= low
        while chains:
            v, used, inside, length = chains.pop()
            free = higher & ~used & ~inside
            if length + popcount(_reach(adj, v, free)) <= best:
                continue    # even every token still reachable would not beat the best
            after = inside | adj[v]
            nxt = adj[v] & free
            while nxt:
                low = nxt & -nxt
                nxt ^= low
                w = low.bit_length() - 1
                if adj[w] & start:
                    if length + 1 > best:
                        best = length + 1       # the chain closes back to s: a ring
                else:
                    chains.append((w, used | low, after, length + 1))
    return best


def _reach(adj: list[int], frm: int, allowed: int) -> int:
    """The tokens of ``allowed`` reachable from token ``frm`` through ``allowed`` ones."""
    seen = 0
    todo = adj[frm] & allowed
    while todo:
        seen |= todo
        nxt = 0
        bits = todo
        while bits:
            low = bits & -bits
            nxt |= adj[low.bit_length() - 1]
            bits ^= low
        todo = nxt & allowed & ~seen
    return seen


def river_length(side: str, board: tuple[Stack, ...],
                 river_rule: str = DEFAULT_RIVER_RULE) -> int:
    """Tokens in the best river.

    Every rule starts from the longest shortest path between two tokens of a water group
    (the rulebook's "shortest path between its two ends").  A river with loops is at least
    as long as, with ``river_rule="rings"`` (the default), its longest loop without
    shortcuts (:func:`longest_ring`); with ``"loops"``, its longest loop of any shape
    (:func:`longest_loop`); ``"shortest"`` uses the path alone."""
    nbrs = _neighbour_table(side)
    best = 0
    for g in groups(side, board, lambda s: s == ("blue",)):
        length = _distances_max(g, nbrs)
        if len(g) >= 3:
            if river_rule == "rings":
                length = max(length, longest_ring(g, nbrs))
            elif river_rule == "loops":
                length = max(length, longest_loop(g, nbrs))
        best = max(best, length)
    return best


def island_count(side: str, board: tuple[Stack, ...]) -> int:
    """Islands: groups of spaces (empty ones included) not covered by water."""
    return len(groups(side, board, lambda s: s != ("blue",)))


def check_river_rule(rule: object) -> str:
    if rule not in RIVER_RULES:
        raise InvalidSetup(f"river_rule must be 'rings' (loops without shortcuts, the "
                           f"default), 'loops' (loops of any shape) or 'shortest' (shortest "
                           f"path only), not {rule!r}")
    return rule  # type: ignore[return-value]


def landscape_score(side: str, board: tuple[Stack, ...],
                    river_rule: str = DEFAULT_RIVER_RULE) -> BoardScore:
    """Landscape points of a board tuple (the fast form the game uses)."""
    if side == "A":
        size = river_length(side, board, river_rule)
        water = river_points(size)
    else:
        size = island_count(side, board)
        water = _land()["island_points"] * size
    return BoardScore(tree_points(board), mountain_points(side, board),
                      field_points(side, board), building_points(side, board), water, side,
                      size)


def score_board(side: str = "A", stacks: Mapping[Cell, Iterable[str]] | None = None,
                river_rule: str = DEFAULT_RIVER_RULE) -> BoardScore:
    """Landscape points of a board given as ``{(col, row): [colours bottom to top]}``.

    Unknown colours, stacks the chart forbids and cells off the board raise a ``ValueError``
    naming the problem."""
    side = check_side(side)
    return landscape_score(side, stacks_tuple(side, stacks), check_river_rule(river_rule))


# ----- cards -----------------------------------------------------------------------------

def card_points(card_key: int | str | Card, placed: int, side: str = "A",
                stacks: Mapping[Cell, Iterable[str]] | None = None) -> int:
    """Points of a card with ``placed`` cubes on the board: the highest uncovered value of
    an animal card; for a spirit, its count on the board (only once its cube is placed)."""
    c = card(card_key)
    if isinstance(placed, bool) or not isinstance(placed, int):
        raise InvalidSetup(f"placed: expected a whole number of cubes, got {placed!r}")
    if c.is_spirit:
        if placed < 1:
            return 0
        side = check_side(side)
        return spirit_points(c, side, stacks_tuple(side, stacks))
    if not 0 <= placed <= c.cubes:
        raise InvalidSetup(f"{c.name} holds {c.cubes} cubes, so 0-{c.cubes} can be placed, "
                           f"not {placed}")
    return c.value(placed)


def _by_size(points: tuple[int, ...], size: int) -> int:
    return points[min(size, len(points)) - 1]


def spirit_points(spirit: Card, side: str, board: tuple[Stack, ...]) -> int:
    """What a Nature's Spirit scores on this board (its cube assumed placed)."""
    pts = spirit.count_points
    kind = spirit.count
    if kind in ("yellow_groups", "water_groups", "building_groups"):
        keep = {"yellow_groups": lambda s: _top(s) == "yellow",
                "water_groups": lambda s: _top(s) == "blue",
                "building_groups": is_building}[kind]
        return sum(_by_size(pts, len(g)) for g in groups(side, board, keep))
    if kind == "trees":
        return sum(_by_size(pts, len(s)) for s in board if is_tree(s))
    if kind == "mountains":
        return sum(_by_size(pts, len(s)) for s in board if is_mountain(s))
    if kind == "blue_tokens":
        return pts[0] * sum(s.count("blue") for s in board)
    raise ValueError(f"unknown spirit count {kind!r}")


@lru_cache(maxsize=None)
def _solo() -> dict:
    return rules_data()["solo"]


def suns_for_score(score: int) -> int:
    """Suns earned by a solo score before modifiers (40, 70, 90 ... 160 points)."""
    return sum(1 for t in _solo()["sun_thresholds"] if score >= t)


def solo_suns(score: int, side: str, spirit: int | str | Card | None = None) -> int:
    """The solo result: suns for the score, +1 on side A, +2 without a spirit, +1 with a
    "groups" spirit, +0 with a "number of landscapes" spirit.

    >>> solo_suns(130, "A", "Lion")
    7
    """
    if isinstance(score, bool) or not isinstance(score, int):
        raise InvalidSetup(f"score: expected a whole number of points, got {score!r}")
    side = check_side(side)
    suns = suns_for_score(score) + _solo()["side_bonus"][side]
    if spirit is None:
        return suns + _solo()["no_spirit_bonus"]
    return suns + _solo()["spirit_family_bonus"][card(spirit).family]


def board_cells_text(side: str, board: tuple[Stack, ...]) -> dict[Cell, list[str]]:
    """A board tuple back as ``{cell: [colours]}`` (non-empty cells only)."""
    return {c: list(s) for c, s in zip(cells(side), board) if s}


# ----- a game's scores ---------------------------------------------------------------------
# Functions of a game state (``pangaea_lab.harmonies.GameState``); the state's methods of the
# same names call them.  Results are kept on the state, which never changes.

def _memo(state: Any, key: Any, compute: Callable[[], T]) -> T:
    cache = state._cache
    if key not in cache:
        cache[key] = compute()
    return cache[key]


def board_score(state: Any, player: int) -> BoardScore:
    """Landscape points of a player's board (kept with the board, which states that leave
    it as it is share)."""
    area = state.areas[player]
    memo = board_view(state.side, area).stacks_memo
    key = ("landscape", state.river_rule)
    found = memo.get(key)
    if found is None:
        found = memo[key] = landscape_score(state.side, area.stacks, state.river_rule)
    return found


def card_scores(state: Any, player: int) -> list[tuple[Card, int, int]]:
    """(card, cubes placed, points) for each card a player took."""
    area = state.areas[player]
    out = []
    for c, k in area.cards:
        cd = card(c)
        if cd.is_spirit:
            pts = spirit_points(cd, state.side, area.stacks) if k else 0
        else:
            pts = cd.value(k)
        out.append((cd, k, pts))
    return out


def cubes_placed(state: Any, player: int, count_spirit: bool | None = None) -> int:
    """Cubes a player has put on their board (the tie-break); a spirit's cube counts when
    ``count_spirit`` (by default the game's ``tiebreak_counts_spirit`` option)."""
    if count_spirit is None:
        count_spirit = state.tiebreak_counts_spirit
    return sum(1 for c in state.areas[player].cubes
               if c and (count_spirit or not card(c).is_spirit))


def _scores(state: Any) -> list[ScoreBreakdown]:
    out = []
    for p in range(state.num_players):
        b = board_score(state, p)
        cs = card_scores(state, p)
        animals = sum(pts for cd, _, pts in cs if not cd.is_spirit)
        spirit = sum(pts for cd, _, pts in cs if cd.is_spirit)
        # the score pad counts a Nature's Spirit in the animal column ("Spirits")
        cats = b.rows() + (("Animal cards", animals + spirit),)
        notes = [f"landscapes: {b.total}",
                 f"animal cards: {animals} from animals"
                 + (f" + {spirit} from the spirit" if state.spirits else ""),
                 f"cubes placed: {cubes_placed(state, p)}"]
        if state.solo:
            notes.append(f"suns: {suns(state)}")
        out.append(ScoreBreakdown(p, cats, tuple(notes)))
    return out


def scores(state: Any) -> list[ScoreBreakdown]:
    """Each player's points by scoresheet row: the five landscapes, then the animal cards
    (a kept spirit counts there, as on the score pad)."""
    return list(_memo(state, "scores", lambda: _scores(state)))


def winners(state: Any) -> list[int]:
    """Highest total wins; a tie goes to the most cubes placed; still tied, shared."""
    if not state.over:
        return []
    key = [(s.total, cubes_placed(state, s.player)) for s in scores(state)]
    best = max(key)
    return [p for p, k in enumerate(key) if k == best]


def suns(state: Any) -> int:
    """Solo result in suns, modifiers for the side and the spirit included."""
    if "scores" in state._cache:
        total = state._cache["scores"][0].total
    else:
        total = board_score(state, 0).total + sum(pts for _, _, pts in card_scores(state, 0))
    spirit = state.areas[0].spirit() if state.spirits else None
    return solo_suns(total, state.side, spirit)
