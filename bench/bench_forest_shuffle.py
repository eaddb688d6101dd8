"""Forest Shuffle benchmarks (a plain script that prints figures; not part of the tests).

    python bench/bench_forest_shuffle.py
"""

from __future__ import annotations

import time

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.players import GreedyPlayer, RandomPlayer, play_game


def timed(fn, repeat: int) -> float:
    """Mean seconds per call over ``repeat`` calls."""
    start = time.perf_counter()
    for k in range(repeat):
        fn(k)
    return (time.perf_counter() - start) / repeat


def random_game(seed: int) -> fs.GameState:
    return play_game(fs.new_game(players=4, seed=seed), RandomPlayer(seed))


def greedy_game(seed: int) -> fs.GameState:
    return play_game(fs.new_game(players=4, seed=seed), [GreedyPlayer(seed + k) for k in range(4)])


def large_forest() -> fs.Forest:
    """A big forest: every tree species, full slots, stacks of hares and toads."""
    trees = []
    tops = ["Goshawk", "Tawny Owl", "Eurasian Jay", "Bullfinch", "Chaffinch",
            "Great Spotted Woodpecker", "Peacock Butterfly", "Purple Emperor",
            "Camberwell Beauty", "Large Tortoiseshell", "Silver-washed Fritillary", "Red Squirrel"]
    bottoms = ["Blackberries", "Moss", "Tree Ferns", "Wild Strawberries", "Fireflies",
               "Fire Salamander", "Pond Turtle", "Tree Frog", "Wood Ant", "Hedgehog",
               "Stag Beetle", "Chanterelle"]
    lefts = ["Barbastelle Bat", "Bechstein's Bat", "Brown Long-eared Bat", "Fallow Deer",
             "Red Deer", "Fallow Deer", "Wild Boar", "Beech Marten", "Lynx", "Red Fox",
             "Wolf", "Gnat"]
    rights = ["Greater Horseshoe Bat", "Squeaker", "European Badger", "European Fat Dormouse",
              "Violet Carpenter Bee", "Raccoon", "Brown Bear", "European Hare",
              "Red Deer", "Gnat", "Violet Carpenter Bee", "Squeaker"]
    species = ["Beech", "Birch", "Douglas Fir", "Horse Chestnut", "Linden", "Oak",
               "Silver Fir", "Sycamore", "Beech", "Linden", "Oak", "Birch"]
    for k, tree in enumerate(species):
        trees.append({"tree": tree, "top": [tops[k]], "bottom": [bottoms[k]],
                      "left": [lefts[k]], "right": [rights[k]]})
    trees.append({"tree": "Sapling", "left": ["European Hare"] * 6,
                  "bottom": ["Common Toad", "Common Toad"]})
    return fs.Forest.from_dict({"cave": 12, "trees": trees})


def main() -> None:
    n = 10
    per_game = timed(random_game, n)
    steps = []
    play_game(fs.new_game(players=4, seed=0), RandomPlayer(0),
              on_step=lambda before, action, after: steps.append(action))
    print(f"full random 4-player game: {per_game * 1000:.0f} ms per game "
          f"({len(steps)} actions in seed 0, {per_game / max(len(steps), 1) * 1e6:.0f} us per action)")
    print(f"full greedy 4-player game: {timed(greedy_game, 3) * 1000:.0f} ms per game")
    forest = large_forest()
    rivals = [large_forest(), fs.Forest.from_dict({"trees": ["Linden"] * 3})]
    cards = forest.card_count()
    per_score = timed(lambda k: fs.score([forest, *rivals]), 200)
    print(f"scoring a large forest ({len(forest.trees)} trees, {cards} cards) with 2 rivals: "
          f"{per_score * 1e6:.0f} us, total {fs.score([forest, *rivals])[0].total} points")
    state = random_game(1)
    print(f"to_json + from_json of a finished game: "
          f"{timed(lambda k: fs.GameState.from_json(state.to_json()), 50) * 1000:.2f} ms")
    print(f"drawing a finished game as SVG: {timed(lambda k: state.to_svg(), 20) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
