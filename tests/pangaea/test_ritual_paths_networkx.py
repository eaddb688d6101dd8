"""Land Ritual options agree with networkx, on hundreds of positions from seeded playouts.

The rule (Play a Ritual Card, Land Rituals; reference notes, "Adjacency facts" and the Land
Ritual card row): two of your Trees, one on each biome of the card, are joined through
adjacent spaces holding a Tree or a Spirit of any player, or the Ancient Chelon, whose Water
Space is a bridge worth +1; a shortest such connection must be used.  The score is 1 per Tree
or Spirit of your own on it, +1 per other colour on it, +1 for the Chelon bridge.

Here that rule is written again with networkx alone, with nothing from the engine but the
position: the continent's graph (``state.board.graph``) restricted to the spaces that connect,
``nx.all_shortest_paths`` between each pair of Trees, the score counted space by space.  It
must agree with the Land Rituals the engine lists for every player's cards in hand and in the
market (``rank_rituals``, the same list the legal actions hold; the legal ones are checked to
be on it), and with the engine's options (``land_ritual_options``) for one card of every other
pair of biomes, pair of Trees by pair of Trees: the same paths with the same points where two
Trees are joined by at most 500 shortest paths; where there are more, the engine lists one
path per score, so the number of paths (``ritual_pairs``, against a count from networkx's
predecessor lists) and the scores are compared instead.  Crowded forests on a hand-built
board reach that case (924 paths between two corners).

Positions come from seeded playouts of every mode (full game, family rules, Return of the
Ancients, Wild Woods, both together), half growth moves and half the computer player's, so
forests fill the continent; a position is sampled every few moves.
"""

from __future__ import annotations

import random
from collections import defaultdict
from itertools import islice

import networkx as nx
import pytest

from pangaea_lab import pangaea
from pangaea_lab.pangaea import ForesterPlayer, PlayCreature, PlayLand

NOBODY = -1
#: two Trees joined by more shortest paths than this are offered by one path per score
LIST_LIMIT = 500
#: where a pair has more paths than this, their scores are not enumerated by networkx
ENUMERATE_LIMIT = 20_000

#: mode: (new_game options, seeded games); co-op games are short, so more of them
MODES = {
    "full": (dict(players=4), 2),
    "family": (dict(players=3, family=True), 2),
    "coop": (dict(players=2, mode="coop"), 6),
    "woods": (dict(players=3, wild_woods=True), 2),
    "coop+woods": (dict(players=2, mode="coop", wild_woods=True), 6),
}
MOVES = 260
EVERY = 6


def connecting_spaces(state) -> set:
    """The spaces a Land Ritual may pass: a Tree, a player's Spirit, or Chelon's Water Space."""
    board = state.board
    spaces = {board.cells[i] for i, owner in enumerate(state.trees) if owner != NOBODY}
    spaces |= {board.cells[i] for i in state.spirits if i != NOBODY}
    chelon = state.ancients[1]
    if chelon != NOBODY:
        spaces.add(board.cells[chelon])
    return spaces


def ritual_graph(state) -> nx.Graph:
    """The continent's graph restricted to the spaces that connect (a view, nothing copied)."""
    return state.board.graph.subgraph(connecting_spaces(state))


def holder(state, cell) -> int:
    i = state.board.index[cell]
    if state.trees[i] != NOBODY:
        return state.trees[i]
    return state.spirits.index(i) if i in state.spirits else NOBODY


def points(state, path, player) -> int:
    """The rule's score of a path, counted space by space."""
    board = state.board
    own = sum(1 for c in path if holder(state, c) == player)
    others = {holder(state, c) for c in path} - {player, NOBODY}
    chelon = state.ancients[1]
    bridge = chelon != NOBODY and board.cells[chelon] in path
    return own + len(others) + int(bridge)


def count_paths(graph: nx.Graph, a, b) -> int:
    """The number of shortest paths from ``a`` to ``b``, from networkx's predecessor lists."""
    pred, dist = nx.predecessor(graph, a, return_seen=True)
    ways = {a: 1}
    for node in sorted(dist, key=dist.get)[1:]:
        ways[node] = sum(ways[p] for p in pred[node])
    return ways.get(b, 0)


def canonical(path) -> tuple:
    path = tuple(tuple(c) for c in path)
    return min(path, path[::-1])


def tree_pairs(state, player, card, biome_of) -> list[tuple]:
    """Unordered pairs of the player's Trees on the card's two biomes."""
    board = state.board
    mine = [board.cells[i] for i in board.land if state.trees[i] == player]
    first, second = card.biomes
    pairs = set()
    for a in mine:
        for b in mine:
            if a != b and {(biome_of(a), biome_of(b))} & {(first, second), (second, first)}:
                pairs.add(frozenset((a, b)))
    return sorted(pairs, key=sorted)


def land_cards(state, player):
    ids = list(state.players[player].hand) + [c for c in state.market if c is not None]
    return [c for c in ids if hasattr(state.card(c), "biomes")]


def check_position(state, where: str) -> int:
    """Compare the Land Rituals of every player's cards (hand and market); returns the number
    of connected pairs of Trees compared."""
    legal = [a for a in state.legal_actions() if isinstance(a, PlayLand)]
    seen = 0
    for player in range(state.num_players):
        ranked = pangaea.rank_rituals(state, player)
        listed = {a: pts for pts, a in ranked if isinstance(a, PlayLand)}
        if player == state.turn_player:
            assert set(legal) <= set(listed), f"{where}: a legal Land Ritual is not ranked"
        seen += check_player(state, player, listed, f"{where} player {player}")
    return seen


def check_player(state, player: int, listed: dict, where: str) -> int:
    """Compare the engine's Land Rituals for ``player`` with networkx's: for the cards held
    (hand and market) the ranked list ``listed``; for one card of every other pair of biomes
    the engine's options between each pair of Trees (``land_ritual_options``)."""
    graph = ritual_graph(state)
    pos = state.position
    rboard = pos.board            # the board as Rituals see it (Storms change biomes)

    def biome_of(cell):
        return rboard.biome[rboard.index[cell]]

    by_pair = defaultdict(dict)
    for a, pts in listed.items():
        by_pair[(a.card, frozenset((a.start, a.end)))][canonical(a.path)] = pts
    held = list(dict.fromkeys(land_cards(state, player)))
    kinds = {tuple(sorted(state.card(c).biomes)) for c in held}
    for card in state.edition.land_cards:
        if tuple(sorted(card.biomes)) not in kinds:
            kinds.add(tuple(sorted(card.biomes)))
            held.append(card.id)
    seen = 0
    for card_id in held:
        card = state.card(card_id)
        in_hand = card_id in land_cards(state, player)
        pairs = tree_pairs(state, player, card, biome_of)
        engine_pairs = {p for (c, p) in by_pair if c == card_id}
        assert engine_pairs <= set(pairs), f"{where} {card_id}: the engine joins other Trees"
        summaries = {frozenset((s.start, s.end)): s
                     for s in pangaea.ritual_pairs(pos, player, card)}
        for pair in pairs:
            a, b = sorted(pair)
            here = f"{where} {card_id} {a}-{b}"
            if not nx.has_path(graph, a, b):
                assert pair not in summaries and not by_pair.get((card_id, pair)), \
                    f"{here}: not connected, yet the engine offers a Land Ritual"
                continue
            seen += 1
            n = count_paths(graph, a, b)
            assert summaries[pair].paths == n, f"{here}: {summaries[pair].paths} paths, nx {n}"
            steps = nx.shortest_path_length(graph, a, b)
            assert summaries[pair].steps == steps, here
            if in_hand:
                engine = by_pair.get((card_id, pair), {})
            elif n <= LIST_LIMIT:
                engine = {canonical(o.path): o.points
                          for o in pangaea.land_ritual_options(pos, player, card, a, b)
                          + pangaea.land_ritual_options(pos, player, card, b, a)}
            else:
                continue
            if n <= LIST_LIMIT:
                nx_paths = {canonical(p): points(state, p, player)
                            for p in nx.all_shortest_paths(graph, a, b)}
                assert len(nx_paths) == n, here
                assert engine == nx_paths, f"{here}: the engine's paths or points differ"
                continue
            # many paths: one listed path per score, each a shortest path of the graph
            assert len(set(engine.values())) == len(engine), f"{here}: a score listed twice"
            for path, pts in engine.items():
                assert len(path) == steps + 1 and nx.is_path(graph, path), here
                assert pts == points(state, path, player), here
            scores = set(summaries[pair].scores)
            assert set(engine.values()) == scores, f"{here}: listed scores differ"
            if n <= ENUMERATE_LIMIT:
                nx_scores = {points(state, p, player)
                             for p in islice(nx.all_shortest_paths(graph, a, b), n)}
                assert nx_scores == scores, f"{here}: scores differ from networkx's"
    return seen


def positions(mode: str, seed: int):
    """Every few moves of a seeded playout: half growth moves, half the computer player's."""
    state = pangaea.new_game(seed=seed, **MODES[mode][0])
    rng = random.Random(f"{mode}-{seed}")
    bots = [ForesterPlayer(seed * 10 + k) for k in range(state.num_players)]
    for move in range(MOVES):
        if state.is_over:
            return
        if move % EVERY == EVERY - 1:
            yield move, state
        actions = state.legal_actions()
        growth = [a for a in actions if not isinstance(a, (PlayLand, PlayCreature))]
        if growth and rng.random() < 0.5:
            action = rng.choice(growth)
        else:
            action = bots[state.current_player].choose(state)
        state = state.apply(action)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_land_ritual_options_agree_with_networkx(mode):
    sampled = pairs = 0
    for seed in range(MODES[mode][1]):
        for move, state in positions(mode, seed):
            sampled += 1
            pairs += check_position(state, f"{mode} seed {seed} move {move}")
    assert sampled >= 20, f"{mode}: only {sampled} positions were sampled"
    assert pairs >= 20, f"{mode}: only {pairs} connected pairs of Trees were compared"


def crowded_forest(side: int, seed: int):
    """A family game on a ``side`` x ``side`` parallelogram of land full of Trees of three
    players (an edition with enough Trees), so that opposite corners are joined by
    C(2(side-1), side-1) shortest paths: 924 for side 7, above the listing limit."""
    rng = random.Random(seed)
    data = pangaea.load_edition().to_dict()
    data["edition"] = "reference with 30 trees"
    data["trees_per_player"]["value"] = 30
    biomes = ["Sun", "Rain", "Snow", "Wind"]
    cells = [(q, r) for q in range(side) for r in range(side)]
    spaces = {c: ("land", rng.choice(biomes)) for c in cells}
    spaces[(0, 0)], spaces[(side - 1, side - 1)] = ("land", "Sun"), ("land", "Snow")
    spaces.update({(q, -1): ("water", "Rain") for q in range(side)})
    state = pangaea.new_game(players=3, seed=seed, edition=data, board=pangaea.custom_board(spaces),
                             family=True)
    trees = {c: rng.choice((0, 0, 1, 2)) for c in cells}
    trees[(0, 0)] = trees[(side - 1, side - 1)] = state.turn_player
    return state.arranged(trees=trees, spirits={p: (p, -1) for p in range(3)})


@pytest.mark.parametrize("seed", range(2))
def test_many_paths_are_grouped_by_score_and_counted_like_networkx(seed):
    state = crowded_forest(7, seed)
    graph = ritual_graph(state)
    assert count_paths(graph, (0, 0), (6, 6)) == 924 > LIST_LIMIT
    player = state.turn_player
    cards = [c.id for c in state.edition.land_cards if set(c.biomes) == {"Sun", "Snow"}]
    if not set(cards) & set(state.players[player].hand):
        taken = {c for p in state.players for c in p.hand}
        state = state.arranged(hands={player: [next(c for c in cards if c not in taken)]})
    assert check_position(state, f"crowded seed {seed}") > 0
    corners = frozenset(((0, 0), (6, 6)))
    listed = [a for _, a in pangaea.rank_rituals(state, player)
              if isinstance(a, PlayLand) and frozenset((a.start, a.end)) == corners]
    legal = [a for a in state.legal_actions()
             if isinstance(a, PlayLand) and frozenset((a.start, a.end)) == corners]
    assert legal and set(legal) == set(listed)
    scores = {points(state, p, player) for p in nx.all_shortest_paths(graph, (0, 0), (6, 6))}
    assert len(listed) == len(scores) < LIST_LIMIT


def test_chelon_is_a_bridge_in_the_graph():
    """Chelon's Water Space joins the graph: two Trees across the water become connected, and
    the path over the bridge scores +1, in the engine as in the rule written here."""
    spaces = {(0, 0): ("land", "Sun"), (1, 0): ("water", "Rain"), (2, 0): ("land", "Snow")}
    board = pangaea.custom_board(spaces)
    state = pangaea.new_game(players=2, seed=0, board=board).arranged(
        trees={(0, 0): 0, (2, 0): 0})
    card = next(c for c in state.edition.land_cards if set(c.biomes) == {"Sun", "Snow"})
    assert not nx.has_path(ritual_graph(state), (0, 0), (2, 0))
    assert pangaea.ritual_pairs(state.position, 0, card) == []
    bridged = state.arranged(ancients={"Chelon": (1, 0)})
    graph = ritual_graph(bridged)
    assert list(nx.all_shortest_paths(graph, (0, 0), (2, 0))) == [[(0, 0), (1, 0), (2, 0)]]
    (pair,) = pangaea.ritual_pairs(bridged.position, 0, card)
    assert pair.best == points(bridged, [(0, 0), (1, 0), (2, 0)], 0) == 3


def test_counting_by_predecessors_matches_enumeration():
    grid = nx.grid_2d_graph(4, 4)
    listed = list(nx.all_shortest_paths(grid, (0, 0), (3, 3)))
    assert count_paths(grid, (0, 0), (3, 3)) == len(listed) == 20
    assert count_paths(grid, (0, 0), (0, 0)) == 1


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_rules_ritual_graph_is_the_board_graphs_subgraph(mode):
    """The graph the rules search is networkx's subgraph of the board's graph on the spaces
    that connect (the same nodes and edges), and the distances the rules read from it are
    networkx's shortest path lengths on that subgraph."""
    for _, state in islice(positions(mode, 7), 0, None, 3):
        pos = state.position
        nodes = [i for i in range(len(state.board)) if pos.connects(i)]
        expected = state.board.space_graph.subgraph(nodes)
        got = pos.ritual_graph
        assert set(got.nodes) == set(expected.nodes)
        assert set(got.edges) == set(expected.edges)
        for source in nodes[:4]:
            assert pos.distances(source) == nx.single_source_shortest_path_length(expected,
                                                                                   source)
