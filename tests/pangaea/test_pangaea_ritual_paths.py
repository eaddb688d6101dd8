"""Land Rituals with very many shortest paths (issue: "Land Ritual paths are cut off at 500").

The rule (Land Rituals): any shortest connection of Trees and Spirits between two of your
Trees on the card's biomes may be used.  So a path is legal by its own properties, the best
score and the number of equally short paths are exact however many paths there are, and every
one of them can be reached.

The board is a chain of nine "diamonds": the two-way step of the rulebook's Example 1 (from
(k-1, k-1) to (k, k) through (k, k-1) or (k-1, k)), repeated, so there are 2**9 = 512 equally
short connections between (0, 0) and (9, 9).
"""

from dataclasses import replace

import networkx as nx
import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.errors import IllegalAction
from pangaea_lab.pangaea import PlayLand, Position, custom_board, scoring
from pangaea_lab.pangaea.rituals import (LIST_LIMIT, NOBODY, best_ritual, count_shortest_paths,
                                         explain_path, iter_ritual_options, land_ritual_options,
                                         listed_options, ritual_pairs, score_counts)
from pangaea_lab.pangaea.rules import rank_rituals
from pangaea_lab.pangaea.widgets import RitualExplorer

ME, RED, BLUE = 0, 1, 2


def diamonds(first: str, second: str, filler: str, n: int = 9):
    """The chain and who stands where.  Junctions: your Trees at both ends, Blue then Red
    between.  In diamonds 1-7 one middle space holds your Tree and the other a Red (or Blue)
    Tree; diamond 8 holds two Blue Trees; diamond 9 your last Tree and your Spirit (water).
    Your own middle is the one met *last* when the spaces are searched in board order, so a
    search that stops early misses the best path.  Returns (board, trees, spirits, best path)."""
    spaces = {(k, k): ("land", filler) for k in range(n + 1)}
    spaces[(0, 0)] = ("land", first)
    spaces[(n, n)] = ("land", second)
    for k in range(1, n + 1):
        spaces[(k, k - 1)] = ("land", filler)
        spaces[(k - 1, k)] = ("land", filler)
    water = (n - 1, n)
    spaces[water] = ("water", filler)
    board = custom_board(spaces)
    trees = {(0, 0): ME, (n, n): ME}
    for k in range(1, n):
        trees[(k, k)] = BLUE if k <= 4 else RED
    best = [(0, 0)]
    for k in range(1, n + 1):
        here = board.index[(k - 1, k - 1)]
        a, b = board.index[(k, k - 1)], board.index[(k - 1, k)]
        order = [j for j in board.neighbours[here] if j in (a, b)]
        early, late = (board.cells[j] for j in order)
        if k <= 7:
            trees[late] = ME
            trees[early] = RED if k <= 6 else BLUE
        elif k == 8:
            trees[early] = trees[late] = BLUE
        else:
            for c in (early, late):
                if c != water:
                    trees[c] = ME
        best += [late, (k, k)]
    spirits = {ME: water}
    return board, trees, spirits, tuple(best)


@pytest.fixture(scope="module")
def game():
    """A 3-player game moved onto the diamond board, with a Land card in Green's hand."""
    s = pangaea.new_game(players=3, seed=5)
    card = next(c for c in s.edition.land_cards if c.biomes[0] != c.biomes[1])
    s = s.arranged(hands={ME: [card.id]})
    filler = next(b for b in s.edition.biomes if b not in card.biomes)
    board, trees, spirits, best = diamonds(*card.biomes, filler)
    t = tuple(trees.get(c, NOBODY) for c in board.cells)
    sp = tuple(board.index[spirits[p]] if p in spirits else NOBODY for p in range(3))
    players = tuple(replace(ps, trees=10 - t.count(p)) for p, ps in enumerate(s.players))
    s = replace(s, board=board, trees=t, seeds=(NOBODY,) * len(board), spirits=sp,
                board_blessings=("",) * len(board), players=players, turn_player=ME,
                actions_taken=0, decisions=())
    return s, card, best


def test_the_chain_has_512_equally_short_paths_counted_exactly(game):
    s, card, best = game
    pos, board = s.position, s.board
    a, b = board.index[(0, 0)], board.index[(9, 9)]
    assert count_shortest_paths(pos, a, b) == 512
    occupied = [c for c in board.cells if pos.connects(board.index[c])]
    assert len(list(nx.all_shortest_paths(board.graph.subgraph(occupied), (0, 0), (9, 9)))) == 512
    options = land_ritual_options(pos, ME, card)
    assert len(options) == 512 == len(set(o.path for o in options))
    assert sum(1 for _ in iter_ritual_options(pos, ME, card)) == 512


def test_the_best_score_and_how_many_paths_reach_it_are_exact(game):
    s, card, best = game
    pos = s.position
    # 2 end Trees + 1 per own middle in diamonds 1-7 + 1 in diamond 9, + Red and Blue
    counts = score_counts(pos, ME, pos.board.index[(0, 0)], pos.board.index[(9, 9)])
    listed = {}
    for o in land_ritual_options(pos, ME, card):
        listed[o.points] = listed.get(o.points, 0) + 1
    assert counts == listed
    assert max(counts) == 12 and counts[12] == 4        # diamonds 8 and 9 are free choices
    (pair,) = ritual_pairs(pos, ME, card)
    assert (pair.paths, pair.best, pair.steps) == (512, 12, 18)
    assert best_ritual(pos, ME, card).points == 12
    option = land_ritual_options(pos, ME, card)[0]
    assert option.points == 12 and option.own == 10 and option.other_colours == (RED, BLUE)


def test_rank_rituals_and_the_legal_actions_offer_the_best_path(game):
    s, card, best = game
    ranked = rank_rituals(s)
    assert ranked[0][0] == 12
    lands = [a for a in s.legal_actions() if isinstance(a, PlayLand)]
    # too many paths to list: one per score, every score from the best down is offered
    assert len(lands) < LIST_LIMIT
    scores = sorted({p for p, a in ranked if isinstance(a, PlayLand)}, reverse=True)
    assert scores == sorted(score_counts(s.position, ME, s.board.index[(0, 0)],
                                         s.board.index[(9, 9)]), reverse=True)
    assert [o.path for o in listed_options(s.position, ME, card)] == [a.path for a in lands]


def test_playing_the_12_point_path_scores_12(game):
    s, card, best = game
    assert explain_path(s.position, ME, card, best) == ""
    after = s.apply(PlayLand(card.id, False, best))
    assert after.players[ME].land_points == 12
    # and its reverse, from the other end
    back = s.apply(PlayLand(card.id, False, best[::-1]))
    assert back.players[ME].land_points == 12


def test_every_one_of_the_512_paths_is_playable_with_its_score(game):
    s, card, _ = game
    for option in land_ritual_options(s.position, ME, card)[::37]:
        assert scoring.evaluate(s, PlayLand(card.id, False, option.path), ME) == option.points
        after = s.apply(PlayLand(card.id, False, option.path))
        assert after.players[ME].land_points == option.points


def test_a_detour_or_a_gap_on_the_chain_is_still_refused(game):
    s, card, best = game
    gap = best[:3] + best[4:]
    with pytest.raises(IllegalAction, match="not adjacent"):
        s.apply(PlayLand(card.id, False, gap))
    with pytest.raises(IllegalAction, match="card asks for Trees"):
        s.apply(PlayLand(card.id, False, best[1:]))
    assert scoring.evaluate(s, PlayLand(card.id, False, gap), ME) == 0


def test_the_explorer_reaches_every_path_and_opens_on_the_best(game):
    s, card, best = game
    model = RitualExplorer(s, ME)
    assert model.card == card.id
    assert model.best() == 12
    assert model.total() == 512
    seen = set()
    for page in range(model.pages()):
        model.page = page
        seen |= {o.path for o in model.page_options()}
    assert len(seen) == 512
    assert model.check(best).startswith("Legal: this path scores 12 points")
    assert "Best: 12 points" in model.summary_html()


def test_ordinary_boards_list_every_path_as_before():
    """A played position: every pair has few paths, so the list holds every path."""
    s = pangaea.new_game(players=3, seed=2)
    p = s.turn_player
    cid = s.players[p].hand[0]
    card = s.card(cid)
    land = [s.board.cells[i] for i in s.board.land]
    s = s.arranged(trees={c: (p if k % 3 else (p + 1) % 3) for k, c in enumerate(land[:14])})
    listed = listed_options(s.position, p, card)
    assert listed == land_ritual_options(s.position, p, card)


def test_the_explorer_widget_pages_through_the_paths(game):
    pytest.importorskip("ipywidgets")
    from pangaea_lab.pangaea.widgets import ritual_explorer
    s, card, best = game
    box = ritual_explorer(s, ME)
    assert box.card_pick.value == card.id
    assert "512 shortest paths" in box.summary.value and box.earlier.disabled
    first = box.table.value
    box.later.click()
    assert box.model.page == 1 and box.table.value != first and not box.earlier.disabled
    for _ in range(box.model.pages()):
        box.later.click()
    assert box.later.disabled and box.model.page == box.model.pages() - 1
    box.typed.value = " ".join(f"({q},{r})" for q, r in best)
    box.check.click()
    assert "12 points" in box.verdict.value


def test_the_explorer_opens_on_a_card_with_a_legal_ritual():
    """Issue 13: the explorer of notebook 3 opened on a card with no legal Ritual."""
    from pangaea_lab.pangaea import ForesterPlayer
    state = pangaea.new_game(players=3, seed=77)
    bots = [ForesterPlayer(k) for k in range(3)]
    for _ in range(60):
        state = state.apply(bots[state.current_player].choose(state))
    model = RitualExplorer(state, 0)
    best = {}
    for cid in model.cards():
        probe = RitualExplorer(state, 0)
        probe.card = cid
        best[cid] = probe.best()
    assert best[model.card] == max(best.values()) > 0
    assert model.options() and "No legal Land Ritual" not in model.summary_html()


def test_beyond_the_sort_limit_the_pages_still_reach_every_path(game):
    s, card, best = game
    model = RitualExplorer(s, ME)
    model.SORT_LIMIT = 100          # as if the 512 paths were too many to sort
    assert not model.sorted_by_score()
    seen = []
    for page in range(model.pages()):
        model.page = page
        seen += [o.path for o in model.page_options()]
    assert len(seen) == len(set(seen)) == 512
    assert "board order" in model.summary_html() and "Best: 12 points" in model.summary_html()


@pytest.mark.parametrize("seed", range(12))
def test_counting_and_scoring_agree_with_listing_every_path(seed):
    """On random crowded continents: the layer-by-layer count equals networkx's list of
    shortest paths, the score distribution equals scoring each listed path, and the example
    path given for each score is legal and scores it."""
    import random
    from collections import Counter
    from pangaea_lab.pangaea.rituals import paths_by_score, score_path
    rng = random.Random(seed)
    state = pangaea.new_game(players=4, seed=seed)
    board = state.board
    trees = {board.cells[i]: rng.randrange(4) for i in board.land if rng.random() < 0.75}
    spirits = dict(enumerate(rng.sample([board.cells[i] for i in board.water], 4)))
    chelon = rng.choice([board.cells[i] for i in board.water if board.cells[i] not in spirits.values()])
    pos = Position.build(board, trees, spirits, chelon=chelon)
    graph = board.graph.subgraph([c for c in board.cells if pos.connects(board.index[c])])
    mine = sorted(c for c, p in trees.items() if p == ME)[:6]
    for a in mine:
        for b in mine:
            if a >= b:
                continue
            i, j = board.index[a], board.index[b]
            try:
                listed = [tuple(p) for p in nx.all_shortest_paths(graph, a, b)]
            except nx.NetworkXNoPath:
                listed = []
            assert count_shortest_paths(pos, i, j) == len(listed)
            scores = Counter()
            for p in listed:
                idx = [board.index[c] for c in p]
                own, others = score_path(pos, idx, ME)
                scores[own + len(others) + (pos.chelon in idx)] += 1
            assert score_counts(pos, ME, i, j) == dict(scores)
            for points, path in paths_by_score(pos, ME, i, j).items():
                cells = tuple(board.cells[k] for k in path)
                assert cells in listed
                own, others = score_path(pos, path, ME)
                assert own + len(others) + (pos.chelon in path) == points
