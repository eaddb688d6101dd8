"""Exercise generators for the turn rules of The Dawn of Pangaea that notebooks 02 and 04 teach
beyond the main actions: Moving Trees, where a Spirit may go and the Blessing it picks up, the
Vigorous Seed, Flying Seed and Call Ancient Blessings, drawing a card and refilling the Open
Market, and the final round.  See :mod:`pangaea_lab.core.exercises` for what a generator
returns.

Every position is built with the rules engine on a small hand-built board; the engine's
``legal_actions`` and ``apply`` give every answer (which Tree may move, which Water Spaces are
open, which Blessing is picked up, which cards refill the market, who plays after the end is
triggered).  Level 1 puts the rule on its own; level 2 adds the pieces, players and readings
that make it easy to get wrong.

>>> from pangaea_lab import exercises
>>> ex = exercises.generate("pangaea.move_tree", seed=3, level=2)
>>> ex.check(ex.answer).correct
True
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable, Iterable, Mapping

from ...core.errors import IllegalAction
from ...core.exercises import (Exercise, Option, Verdict, a, cells_verdict, choice_verdict,
                               choices_verdict, plural, register)
from ...core.hexgrid import Hex
from ..actions import (BlessCallAncient, BlessFlyingSeed, BlessVigorousSeed, DrawFromDeck,
                       EndTurn, FlyingSeed, MoveTree, PlayCreature, SpiritGrowth,
                       TakeMarketCard)
from ..board import custom_board
from ..edition import ANCIENTS, CreatureCard, load_edition
from ..rituals import NOBODY
from ..state import PLAYER_NAMES, GameState
from ..game import GAME
from .common import (and_list, cells_words, continent, drawer, game, named, owned_piece,
                     player_names, random_owners)

TURNS = "pangaea/02_turns.ipynb"
SCORING = "pangaea/04_scoring.ipynb"
RED, BLUE = 0, 1
#: the Blessings of the family game (Call Ancient stays in the box there)
FAMILY_BLESSINGS = ("Flying Seed", "Vigorous Seed", "Wild Weather")


# ----- positions ------------------------------------------------------------------------------


def _rng(name: str, seed: int, level: int) -> random.Random:
    return random.Random(f"pangaea turns {name} {seed} {level}")


def _spaces(rng: random.Random, cols: int, rows: int, water: int) -> tuple[dict, list, list]:
    """A small continent: (spaces for ``custom_board``, its Land Spaces, its Water Spaces),
    each list shuffled."""
    spaces, wet = continent(rng, cols, rows, water)
    land = [c for c, (terrain, _) in spaces.items() if terrain == "land"]
    rng.shuffle(land)
    return spaces, land, wet


def _game(spaces: dict, players: int = 2, family: bool = True, trees_each: int = 0,
          blessing: Iterable[Hex] = (), seed: int = 0, **arranged) -> GameState:
    """A game on the hand-built continent, Red to move, pieces placed by hand; with
    ``trees_each`` every player owns only that many Trees (a lesson edition)."""
    edition = None
    if trees_each:
        edition = load_edition().to_dict()
        edition["edition"] = f"lesson: {trees_each} Trees each"
        edition["trees_per_player"]["value"] = trees_each
    return game(custom_board(spaces, blessing=tuple(blessing)), seed, players, arranged,
                family=family, edition=edition)


def _some_seeds(rng: random.Random, cells: Iterable[Hex], players: Iterable[int],
                caps: Mapping[int, int] | None = None) -> dict:
    """Seeds of random owners on ``cells``, at most 2 a player (the Seeds each has to place
    besides the score marker), fewer where ``caps`` says; cells left over stay empty."""
    left = {p: 2 for p in players}
    left.update(caps or {})
    return random_owners(rng, cells, left)


def _lay_blessings(state: GameState, kinds: Mapping[Hex, str]) -> GameState:
    """The same position with exactly these Blessing Tokens on the continent (the others go
    back to the bag, the laid ones come out of it, so every token is still counted once)."""
    board = state.board
    laid, bag = list(state.board_blessings), list(state.blessing_bag)
    for i, kind in enumerate(laid):
        if kind:
            bag.append(kind)
            laid[i] = ""
    for cell, kind in kinds.items():
        bag.remove(kind)
        laid[board.index[cell]] = kind
    return state.edited(board_blessings=tuple(laid), blessing_bag=tuple(bag))


def _refused(state: GameState, action) -> bool:
    try:
        state.apply(action)
    except IllegalAction:
        return True
    return False


def _what(state: GameState, cell: Hex) -> str:
    """What stands on a space, in words: "Blue's Tree", "a Red Seed", "empty land", "water"."""
    return owned_piece(state, cell) or (
        "empty land" if state.board.terrain[state.board.index[cell]] == "land" else "water")


def _spirits_words(spirits: Mapping[Hex, int]) -> str:
    """Where the other players' Spirits stand: "Blue's Spirit stands on (2, 2), Orange's on
    (4, 2)"."""
    parts = [f"{PLAYER_NAMES[p]}'s on {c}" for c, p in sorted(spirits.items(), key=lambda x: x[1])]
    parts[0] = parts[0].replace("'s on", "'s Spirit stands on", 1)
    return and_list(parts)


# ----- Moving Trees ---------------------------------------------------------------------------


def _moving_position(seed: int, level: int) -> tuple[GameState, Hex, dict]:
    """A Spirit Growth that leaves Red's Seed waiting for a Tree: Red's Trees all on the
    continent (level 2: one left in supply for a second Red Seed, Thorondal on one of Red's
    Trees).  Returns (the position before, the Water Space, what stands where)."""
    rng = _rng("move-tree", seed, level)
    cols, rows, water, each = (5, 3, 4, 4) if level == 1 else (6, 4, 5, 5)
    while True:
        spaces, land, wet = _spaces(rng, cols, rows, water)
        board = custom_board(spaces)
        spot = rng.choice(wet)
        near = [c for c in land if c in board.graph[spot]]
        far = [c for c in land if c not in near]
        red_seeds = 1 if level == 1 else 2
        if len(near) < red_seeds + 1 or len(far) < each + 3:
            continue
        seeds = {c: RED for c in near[:red_seeds]}
        seeds[near[red_seeds]] = BLUE
        reds = far[:each - (level - 1)] + near[red_seeds + 1:red_seeds + 1 + rng.randint(0, 1)]
        reds = reds[:each - (level - 1)]
        blues = [c for c in far if c not in reds][:rng.randint(2, 3)]
        trees = {**{c: RED for c in reds}, **{c: BLUE for c in blues}}
        extra = {"ancients": {"Thorondal": rng.choice(reds)}} if level == 2 else {}
        state = _game(spaces, players=2 if level == 1 else 3, family=level == 1,
                      trees_each=each, trees=trees, seeds=seeds, **extra)
        return state, spot, {"reds": reds, "blues": blues}


def _move_refusal(before: GameState, after: GameState, target: Hex, grown: set,
                  guard: Hex | None) -> Callable[[Hex], str]:
    def refuse(c: Hex) -> str:
        if c == target:
            return "that is the growing Seed's own space: the Tree comes to it from elsewhere."
        if c in grown:
            return ("that Tree grew in this same Spirit Growth; only a Tree that stood on the "
                    "continent before may move (this reading of the rules is ours).")
        if c == guard:
            return ("Thorondal stands on that Tree and protects it: it stays on its space "
                    "(this reading of the rules is ours).")
        what = _what(after, c)
        if what.endswith("Tree"):
            return (f"that is {what}: only Red's own Trees move for Red's Seed.")
        if what.endswith("Seed"):
            return "it holds a Seed, not a Tree: only a Tree already standing can move."
        return f"no Tree stands there ({what})."
    return refuse


@register("pangaea.move_tree", game=GAME.name, notebook=TURNS,
          rule="Moving Trees: when a Seed grows and its owner has no Tree left in supply, the "
               "owner moves one of their Trees already on the continent onto that Seed's space",
          title="Which Tree moves onto the growing Seed?",
          levels=("one Seed of Red's grows and Red has no Tree in supply",
                  "several Seeds grow at once, with a Tree that just grew and one that "
                  "Thorondal guards"))
def move_tree(seed: int, level: int) -> Exercise:
    before, spot, _ = _moving_position(seed, level)
    after = before.apply(SpiritGrowth(spot))
    board = before.board
    target = board.cells[after.pending.targets[0]]
    right = frozenset(a.origin for a in after.legal_actions() if isinstance(a, MoveTree))
    grown = {board.cells[i] for i in after.pending.grown
             if before.trees[i] == NOBODY and after.trees[i] == RED}
    guard = board.cells[before.ancients[2]] if before.ancients[2] != NOBODY else None
    names = {c: "moved-new-tree" for c in grown}
    names.update({guard: "moved-protected-tree"} if guard else {})
    names.update({c: "moved-other-colour" for c in board.cells
                  if after.trees[board.index[c]] not in (NOBODY, RED)})
    question = (f"Red's Spirit has just moved to {spot} (marked S) and the Seeds next to it "
                f"grew. Red's Seed on {target} (marked ?) needs a Tree, but Red has none left "
                f"in its supply (in this lesson each player owns only "
                f"{before.edition.trees_per_player} Trees). Click every Tree Red may move "
                f"onto {target}.")
    if level == 2:
        question += (" A Tree that grew in this same Spirit Growth stays put, and so does the "
                     "Tree under Thorondal: this reading of the rules is ours.")
        second = (f"The Tree on {cells_words(grown)} grew just now from Red's last Tree in supply, "
                  f"and Thorondal guards the Tree on {guard} (both marked): which of Red's "
                  "other Trees may still move?")
    else:
        second = (f"Distance does not matter: a Tree of Red's may come to {target} from "
                  f"anywhere, next to it or across the continent. Blue's Trees never move for "
                  "Red.")
    return Exercise(
        kind="pangaea.move_tree", seed=seed, question=question, answer_kind="cells",
        answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=named(_move_refusal(before, after, target, grown, guard),
                                       names),
            partial=lambda given: ("only-near-trees" if all(c in board.graph[target]
                                                            for c in given) else "missed-some",
                                   "Each Tree you clicked may move, but so may another: any "
                                   "Tree of Red's may move, however far from the Seed it "
                                   "stands."),
            missed="", right_reason=f"Right: any of these {len(right)} Trees of Red's may move "
            f"onto {target}; Red chooses one."),
        draw=drawer(after, base={spot: "S", target: "?"}),
        hints=(f"Red's supply is empty, so the Seed on {target} cannot take a new Tree: one "
               "already on the continent moves there instead. Look at the Trees marked R.",
               second),
        hint_marks=((target,), tuple(sorted(grown)) + ((guard,) if guard else ())),
        explanation=(f"The engine offers to move Red's Tree from any of {cells_words(right)} onto "
                     f"{target}."),
        context={"state": before, "after": after, "target": target, "water": spot})


# ----- where a Spirit may go ------------------------------------------------------------------


def _spirit_position(seed: int, level: int) -> GameState:
    """Spirits of several players on the water (level 2: four players and Chelon), some
    Seeds and Trees on the land; Red to move."""
    rng = _rng("spirit", seed, level)
    cols, rows, water, players = (5, 3, 5, 2) if level == 1 else (6, 4, 8, 4)
    spaces, land, wet = _spaces(rng, cols, rows, water)
    spirits = {}
    order = list(range(players))
    rng.shuffle(order)
    for p, cell in zip(order, wet):
        if p != RED or rng.random() < 0.7:
            spirits[p] = cell
    seeds = _some_seeds(rng, land[:3], range(players))
    trees = {c: rng.randrange(players) for c in land[3:3 + rng.randint(2, 5)]}
    extra = {}
    if level == 2:
        free = [c for c in wet if c not in spirits.values()]
        extra["ancients"] = {"Chelon": rng.choice(free)}
    return _game(spaces, players=players, family=level == 1, trees=trees, seeds=seeds,
                 spirits=spirits, **extra)


@register("pangaea.spirit_destinations", game=GAME.name, notebook=TURNS,
          rule="Spirit Growth: the Spirit moves to any Water Space no other Spirit holds, or "
               "stays where it is",
          title="Where may the Spirit go?",
          levels=("two Spirits on a small continent",
                  "four players' Spirits and Chelon on the water"))
def spirit_destinations(seed: int, level: int) -> Exercise:
    state = _spirit_position(seed, level)
    board = state.board
    right = frozenset(a.cell for a in state.legal_actions() if isinstance(a, SpiritGrowth))
    own = state.spirit_cell(RED)
    others = {board.cells[i]: p for p, i in enumerate(state.spirits)
              if i != NOBODY and p != RED}
    chelon = board.cells[state.ancients[1]] if state.ancients[1] != NOBODY else None

    def refuse(c: Hex) -> str:
        if c in others:
            return (f"{PLAYER_NAMES[others[c]]}'s Spirit stands there, and two Spirits never "
                    "share a Water Space.")
        return "it is land: a Spirit moves only to a Water Space."

    def missed(given: frozenset) -> tuple[str, str]:
        if own is not None and own not in given:
            return ("forgot-staying",
                    "Every space you clicked is open, but one choice is missing: remember that "
                    "Spirit Growth may also leave the Spirit where it stands.")
        if chelon is not None and chelon not in given:
            return ("chelon-blocks",
                    "Every space you clicked is open, but not all of them: Chelon does not "
                    "block the water, a Spirit may share a space with it.")
        return ("missed-some",
                "Every space you clicked is open, but not all of them: look at each Water "
                "Space once more.")

    where = f"Red's Spirit stands on {own}" if own else "Red's Spirit is not on the continent yet"
    return Exercise(
        kind="pangaea.spirit_destinations", seed=seed,
        question=("Red takes the Spirit Growth action. Click every space where Red's Spirit may "
                  "stand after it (RS marks Red's Spirit, the other Spirits carry their "
                  "players' initials)."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=named(refuse, {c: "shared-with-spirit" for c in others}),
            partial=missed, missed="", right_reason=f"Right: {plural(len(right), 'Water Space')} "
            "without another player's Spirit."),
        draw=drawer(state),
        hints=("A Spirit lives on the water: it moves to a Water Space that no other Spirit "
               "holds, or stays where it is.",
               f"{where}; {_spirits_words(others)} (marked)"
               + (", and Chelon on the water blocks nobody." if chelon else ".")),
        hint_marks=((), tuple(sorted(others))),
        explanation="Red's Spirit may stand on " + cells_words(right) + ".",
        context={"state": state})


# ----- picking up a Blessing ------------------------------------------------------------------


def _pickup_position(seed: int, level: int) -> tuple[GameState, str]:
    """Blessing Tokens on some Water Spaces, Spirits on others; level 2 asks for one kind
    and puts Chelon on a token.  Returns (the position, the kind asked for or "")."""
    rng = _rng("pickup", seed, level)
    cols, rows, water, players = (5, 3, 6, 2) if level == 1 else (6, 4, 9, 3)
    kinds = FAMILY_BLESSINGS if level == 1 else FAMILY_BLESSINGS + ("Call Ancient",)
    while True:
        spaces, land, wet = _spaces(rng, cols, rows, water)
        tokens = wet[:rng.randint(2, 3) if level == 1 else rng.randint(3, 5)]
        laid = {c: rng.choice(kinds) for c in tokens}
        wanted = rng.choice(sorted(set(laid.values()))) if level == 2 else ""
        if wanted and list(laid.values()).count(wanted) == len(laid):
            continue
        bare = wet[len(tokens):]
        spirits = {p: c for p, c in zip(range(players), bare[:players])}
        if rng.random() < 0.3:
            del spirits[RED]
        extra = {"ancients": {"Chelon": rng.choice(tokens)}} if level == 2 else {}
        seeds = {c: rng.randrange(players) for c in land[:2]}
        state = _game(spaces, players=players, family=level == 1, blessing=tokens,
                      spirits=spirits, seeds=seeds, **extra)
        return _lay_blessings(state, laid), wanted


def _gains(state: GameState, cell: Hex) -> tuple[str, ...]:
    """The Blessings Red holds more after its Spirit Growth to ``cell`` (by the engine)."""
    after = state.apply(SpiritGrowth(cell))
    before_held = state.players[RED].blessings
    return tuple(kind for kind, n, m in zip(
        ("Flying Seed", "Vigorous Seed", "Call Ancient", "Wild Weather", "Strong Canopy",
         "Foresight"), before_held, after.players[RED].blessings) for _ in range(m - n))


@register("pangaea.blessing_pickup", game=GAME.name, notebook=TURNS,
          rule="Spirit Growth: a Spirit that moves to a Water Space with a Blessing Token takes "
               "the token into its player's supply",
          title="Where does the Spirit pick up a Blessing?",
          levels=("a few Blessing Tokens on the water",
                  "one kind of Blessing wanted among several, with Chelon on a token"))
def blessing_pickup(seed: int, level: int) -> Exercise:
    state, wanted = _pickup_position(seed, level)
    board = state.board
    moves = [a.cell for a in state.legal_actions() if isinstance(a, SpiritGrowth)]
    gains = {c: _gains(state, c) for c in moves}
    right = frozenset(c for c, got in gains.items() if got and (not wanted or wanted in got))
    tokens = {board.cells[i]: k for i, k in enumerate(state.board_blessings) if k}
    others = {board.cells[i]: p for p, i in enumerate(state.spirits) if i != NOBODY and p != RED}

    def refuse(c: Hex) -> str:
        if c in others:
            return f"{PLAYER_NAMES[others[c]]}'s Spirit stands there: Red's Spirit cannot go."
        if board.terrain[board.index[c]] == "land":
            return "it is land: a Spirit moves only over the water, and tokens lie on water."
        if c not in tokens:
            return "no Blessing Token lies there: the Spirit would find nothing to pick up."
        return (f"the token there is {a(tokens[c])} Blessing, not {a(wanted)} one (the "
                "letter on the token names it).")

    def missed(given: frozenset) -> tuple[str, str]:
        chelon = board.cells[state.ancients[1]] if state.ancients[1] != NOBODY else None
        if chelon in right and chelon not in given:
            return ("chelon-takes-token",
                    "Each space you clicked is right, but not all of them: Chelon never takes a "
                    "token, and a Spirit may share a space with it.")
        return ("missed-some",
                "Each space you clicked is right, but not all of them: look at every token on "
                "the water.")

    what = f"{a(wanted)} Blessing" if wanted else "a Blessing Token"
    key = {k: k[0] for k in set(tokens.values())}
    letters = "; ".join(f"{v} is {a(k)}" for k, v in sorted(key.items()))
    return Exercise(
        kind="pangaea.blessing_pickup", seed=seed,
        question=(f"Red takes the Spirit Growth action. Click every space where Red's Spirit "
                  f"would pick up {what} (gold diamonds are Blessing Tokens: {letters})."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=named(refuse, {c: "wrong-kind" for c in tokens}),
            partial=missed, missed="", right_reason=f"Right: on each of these Red's Spirit "
            f"takes {what} into Red's supply."),
        draw=drawer(state),
        hints=("A Spirit takes the Blessing Token of the Water Space it moves onto; it may go "
               "to any Water Space that no other Spirit holds.",
               (f"{_spirits_words(others)}: the tokens elsewhere are all within reach of "
                "Red's Spirit." if others else
                "No other Spirit stands in the way here.")
               + (f" The marked tokens are of other kinds than {wanted}." if wanted else "")),
        hint_marks=(tuple(sorted(others)), tuple(sorted(c for c, k in tokens.items()
                                                        if wanted and k != wanted))),
        explanation="Red's Spirit would pick up " + what + " on " + cells_words(right) + ".",
        context={"state": state, "wanted": wanted})


# ----- the Blessings: Vigorous Seed, Flying Seed, Call Ancient -------------------------------


def _blessing_state(seed: int, level: int) -> tuple[GameState, dict, random.Random]:
    """A full game with Seeds, Trees and Spirits of Red and Blue and some Blessings in Red's
    supply (level 2: both actions already taken, and one kind of Blessing not held)."""
    rng = _rng("blessing-use", seed, level)
    spaces, land, wet = _spaces(rng, 5, 3 if level == 1 else 4, 4)
    held = {"Flying Seed": 1, "Vigorous Seed": 1, "Call Ancient": 1}
    if level == 2:
        del held[rng.choice(sorted(held))]
    seeds = _some_seeds(rng, land[:3], (RED, BLUE), {RED: 1})
    trees = {c: rng.choice((RED, BLUE)) for c in land[3:6]}
    state = _game(spaces, players=2, family=False, trees=trees, seeds=seeds,
                  spirits={BLUE: wet[0]}, blessings={RED: held})
    if level == 2:
        state = replace(state, actions_taken=2)
    return state, held, rng


def _blessing_options(state: GameState, rng: random.Random) -> list[tuple[object, str, str]]:
    """Candidate actions (action, label, what is wrong with it if refused), Vigorous Seed,
    Flying Seed and Call Ancient each on a right and on a wrong target."""
    board = state.board
    land = [board.cells[i] for i in board.land]
    seeded = [c for c in land if state.seeds[board.index[c]] != NOBODY]
    empty = [c for c in land if _what(state, c) == "empty land"]
    taken = [c for c in land if c not in empty]
    water = [board.cells[i] for i in board.water]
    out = []
    for cell in rng.sample(seeded + [c for c in taken if c not in seeded], 2):
        out.append((BlessVigorousSeed(cell), f"Grow {_what(state, cell)} on {cell} with the "
                    "Vigorous Seed Blessing" if cell in seeded else
                    f"Use the Vigorous Seed Blessing on {cell} ({_what(state, cell)})",
                    f"Vigorous Seed grows a Seed that lies on the continent; {cell} holds "
                    f"{_what(state, cell)}, not a Seed."))
    for cell in rng.sample(empty + taken + water, 2):
        out.append((BlessFlyingSeed(cell), f"Put a Seed on {cell} ({_what(state, cell)}) with "
                    "the Flying Seed Blessing",
                    f"the Flying Seed Blessing puts a Seed where a Flying Seed could go: on "
                    f"empty land, and {cell} is {_what(state, cell)}."))
    ancient = rng.choice(ANCIENTS)
    out.append((BlessCallAncient(ancient), f"Summon {ancient} with the Call Ancient Blessing",
                f"{ancient} has nowhere to go right now."))
    if state.actions_taken == 2:
        cell = rng.choice(empty)
        out.append((FlyingSeed(cell), f"Put a Seed on {cell} with the Flying Seed action",
                    "Red has already taken both of its actions this turn; only free actions, "
                    "such as Blessings, are left."))
    return out


@register("pangaea.blessing_use", game=GAME.name, notebook=TURNS,
          rule="Blessings are free actions used once, at any time of your turn: Vigorous Seed "
               "grows any Seed on the continent, Flying Seed places a Seed as the action does, "
               "Call Ancient summons an Ancient",
          title="What may the Blessings do?",
          levels=("one Blessing of each kind, early in the turn",
                  "after both actions, with one kind of Blessing missing"))
def blessing_use(seed: int, level: int) -> Exercise:
    state, held, rng = _blessing_state(seed, level)
    while True:
        candidates = _blessing_options(state, rng)
        rng.shuffle(candidates)
        right = frozenset(f"o{k}" for k, (act, _, _) in enumerate(candidates)
                          if not _refused(state, act))
        if 0 < len(right) < len(candidates):
            break
    options = tuple(Option(f"o{k}", label) for k, (_, label, _) in enumerate(candidates))
    kinds = {"Flying Seed": (BlessFlyingSeed, FlyingSeed), "Vigorous Seed": (BlessVigorousSeed,),
             "Call Ancient": (BlessCallAncient,)}

    def why_not(key: str) -> tuple[str, str]:
        act, _, wrong = candidates[int(key[1:])]
        missing = [kind for kind, types in kinds.items()
                   if type(act) is types[0] and kind not in held]
        if isinstance(act, FlyingSeed):
            name = "main-action-after-two"
        else:
            name = "not-held" if missing else "wrong-target"
        if missing:
            return name, f"Red holds no {missing[0]} Blessing, so it cannot use one."
        return name, wrong[:1].upper() + wrong[1:]

    def check(given: frozenset) -> Verdict:
        return choices_verdict(
            given, right, why_not=why_not,
            missed="Each pick is allowed, but so is another: a Blessing is a free action, "
                   "usable at any time of the turn, and Vigorous Seed grows a Seed of any colour.",
            right_reason="Right: each of these the engine allows now.")

    held_words = and_list([f"{a(k)} Blessing" for k in held])
    board = state.board
    seeded = [board.cells[i] for i in board.land if state.seeds[i] != NOBODY]
    when = ("Red has already taken both of its actions this turn." if level == 2 else
            "It is the start of Red's turn.")
    return Exercise(
        kind="pangaea.blessing_use", seed=seed,
        question=(f"{when} Red holds {held_words}. Which of these may Red do right now? Pick "
                  "every one that is allowed."),
        answer_kind="choices", answer=right, options=options, checker=check,
        draw=drawer(state),
        hints=("A Blessing is a free action: it may be used at any time of Red's own turn, "
               "even after both actions. Check what each one needs on the board.",
               f"Red holds {held_words}. Vigorous Seed needs a Seed of any colour: here Seeds "
               f"lie on {cells_words(seeded)}. The Flying Seed Blessing needs empty land, as the "
               "action does; Call Ancient needs an Ancient with somewhere to go"
               + (". Both actions are used up." if level == 2 else ".")),
        hint_marks=((), tuple(sorted({c.cell for c, _, _ in candidates
                                      if hasattr(c, "cell")}))),
        explanation="Allowed: " + "; ".join(label for (_, label, _), o in
                                             zip(candidates, options) if o.key in right) + ".",
        context={"state": state})


# ----- drawing a card and refilling the Open Market -------------------------------------------


def _card_words(state: GameState, card_id: str) -> str:
    """A Ritual card in words, without its code: "the Okuma Ritual 6 (a Creature Ritual)"."""
    card = state.card(card_id)
    if isinstance(card, CreatureCard):
        return f"the Creature Ritual “{card.name}”"
    return f"the {card.biomes[0]}–{card.biomes[1]} Land Ritual"


#: Red's Rituals at level 1, one plan per seed in turn: where the card comes from and, after
#: one from the hand, where the new card comes from
PLANS = (("market", ""), ("hand", "land"), ("hand", "creature"), ("hand", "deck"))


def _card_turn(seed: int, level: int) -> tuple[GameState, list[str], list[tuple[str, str]]]:
    """Red's turn with Ritual cards, played by the engine: Creature Rituals from the hand or
    the market and, after one from the hand, a new card from the market or a deck (level 2:
    two Rituals).  Returns (the state before End turn, the turn in words, the moves as
    (what, where) pairs: ("play", "hand"), ("take", "land"), ("draw", "creature") ...)."""
    rng = _rng("market", seed, level)
    spaces, _, _ = _spaces(rng, 5, 3, 3)
    state = _game(spaces, players=2, family=level == 1, seed=seed * 2 + level,
                  weather={RED: {b: 6 for b in load_edition().biomes}})
    plans = [PLANS[seed % len(PLANS)]] if level == 1 else [rng.choice(PLANS) for _ in "ab"]
    words, moves = [], []
    while state.actions_taken < 2:
        plays = [x for x in state.legal_actions() if isinstance(x, PlayCreature)]
        if plans and plays:
            source, new = plans.pop(0)
            act = rng.choice([x for x in plays if x.from_market == (source == "market")]
                             or plays)
            where = "market" if act.from_market else "hand"
            words.append(f"Red plays {_card_words(state, act.card)} from "
                         f"{'the Open Market' if act.from_market else 'its hand'}")
            moves.append(("play", where))
            state = state.apply(act)
            while state.pending is not None:
                state = _decide(state, rng, new, words, moves)
        else:
            act = rng.choice([x for x in state.legal_actions() if isinstance(x, SpiritGrowth)])
            words.append(f"Red moves its Spirit to {act.cell}")
            state = state.apply(act)
            while state.pending is not None:
                state = state.apply(state.legal_actions()[0])
    return state, words, moves


def _decide(state: GameState, rng: random.Random, new: str, words: list,
            moves: list) -> GameState:
    """One waiting decision of Red's turn: the new card from where the plan says (``"land"``
    or ``"creature"`` from the market, ``"deck"``), else at random; told in words."""
    choices = state.legal_actions()

    def fits(act) -> bool:
        if isinstance(act, DrawFromDeck):
            return new == "deck"
        if isinstance(act, TakeMarketCard):
            return new == ("creature" if isinstance(state.card(act.card), CreatureCard)
                           else "land")
        return False

    act = rng.choice([x for x in choices if fits(x)] or choices)
    if isinstance(act, TakeMarketCard):
        kind = "land" if not isinstance(state.card(act.card), CreatureCard) else "creature"
        words.append(f"then takes {_card_words(state, act.card)} from the Open Market into "
                     "its hand")
        moves.append(("take", kind))
    elif isinstance(act, DrawFromDeck):
        words.append(f"then draws the top card of the {act.deck.title()} Ritual deck")
        moves.append(("draw", act.deck))
    return state.apply(act)


def _refill_words(land: int, creature: int) -> str:
    parts = [plural(n, f"{kind} Ritual") for n, kind in ((land, "Land"), (creature, "Creature"))
             if n]
    return " and ".join(parts) if parts else "No card: the market is full"


def _refill_readings(moves: list[tuple[str, str]]) -> dict[tuple[int, int], tuple[str, str]]:
    """The refills that typical misreadings of the turn give, with their diagnosis."""
    def count(pick: Callable[[str, str], str]) -> tuple[int, int]:
        got = [pick(what, where) for what, where in moves]
        return got.count("land"), got.count("creature")

    return {
        count(lambda w, x: "creature" if w == "play" else x if w == "take" else ""):
            ("hand-card-leaves-gap", "That counts the card played from the hand as a gap in "
             "the market: a card from the hand never leaves one."),
        count(lambda w, x: "creature" if (w, x) == ("play", "market") else x if w in
              ("take", "draw") else ""):
            ("deck-draw-leaves-gap", "That counts a card drawn from a deck as a gap in the "
             "market: a deck draw leaves the market untouched."),
        count(lambda w, x: "creature" if (w, x) == ("play", "market") else ""):
            ("taken-card-forgotten", "That leaves out the card taken from the market into the "
             "hand: it leaves a gap too, refilled at the end of the turn."),
    }


@register("pangaea.market_refill", game=GAME.name, notebook=TURNS,
          rule="After a Ritual from the hand you take a new card, from the Open Market or the "
               "top of a deck; at the end of the turn the market is refilled to 2 Land and 2 "
               "Creature Rituals",
          title="Which cards refill the Open Market?",
          levels=("one Ritual card played in the turn", "two Ritual cards played in the turn"))
def market_refill(seed: int, level: int) -> Exercise:
    state, words, moves = _card_turn(seed, level)
    after = state.apply(EndTurn())
    gaps = [k for k, card in enumerate(state.market) if card is None]
    slots = ("land", "land", "creature", "creature")
    land = sum(1 for k in gaps if slots[k] == "land" and after.market[k] is not None)
    creature = sum(1 for k in gaps if slots[k] == "creature" and after.market[k] is not None)
    rng = _rng("market-options", seed, level)
    readings = {pair: why for pair, why in _refill_readings(moves).items()
                if pair != (land, creature)}
    pairs = [(x, y) for x in range(3) for y in range(3) if (x, y) != (land, creature)]
    wrong = list(readings)[:2]
    wrong += rng.sample([p for p in pairs if p not in readings], 3 - len(wrong))
    shown = [(land, creature)] + wrong
    rng.shuffle(shown)
    options = tuple(Option(f"r{x}{y}", _refill_words(x, y)) for x, y in shown)
    right = f"r{land}{creature}"

    def why_not(key: str) -> str:
        pair = (int(key[1]), int(key[2]))
        if pair in readings:
            return readings[pair][1]
        return ("That does not match the gaps Red's turn left: the market gets a new card "
                "only where a card left it, and only at the end of the turn.")

    names = {f"r{x}{y}": why[0] for (x, y), why in readings.items()}
    refilled = ("Right: no card left the market this turn, so none is turned up." if not gaps
                else f"Right: {_refill_words(land, creature)}, one for each card that left "
                     "the market this turn.")
    cards = [w.split(" from ")[0].replace("Red plays ", "").replace("then takes ", "")
             for w in words if " from " in w]
    turn = "; ".join(words)
    return Exercise(
        kind="pangaea.market_refill", seed=seed,
        question=(f"Red's turn: {turn}. Red then ends its turn. Which cards are turned face "
                  "up to refill the Open Market?"),
        answer_kind="choice", answer=right, options=options,
        checker=lambda given: choice_verdict(
            given, right, why_not=why_not, names=names,
            right_reason=refilled),
        hints=("The market gets new cards only at the end of the turn, and only where a card "
               "left it: follow each card of Red's turn and ask where it came from.",
               "A card played from the hand or drawn from a deck leaves no gap in the market; "
               "a card played from the market, or taken from it as the new hand card, does. "
               f"Ask it of each card in Red's turn: {and_list(cards)}."),
        explanation=refilled[len("Right: "):],
        context={"state": state, "after": after, "moves": moves})


# ----- the final round ------------------------------------------------------------------------


def _finish(state: GameState) -> tuple[list[int], list[int], bool]:
    """Play the game on with the engine to its end, each player moving their Spirit in a
    regular turn and passing in the final round.  Returns (who took a regular turn after the
    end was triggered, who played in the final round in order, whether a regular action was
    ever offered in the final round)."""
    regular, final, offered = [], [], False
    while state.phase != "over":
        if state.phase == "final":
            final.append(state.turn_player)
            offered = offered or any(isinstance(x, (FlyingSeed, SpiritGrowth))
                                     for x in state.legal_actions())
            state = state.apply(EndTurn())
            continue
        if state.actions_taken == 0 and state.end_triggered:
            regular.append(state.turn_player)
        while state.actions_taken < 2:
            act = next(x for x in state.legal_actions() if isinstance(x, SpiritGrowth))
            state = state.apply(act)
            while state.pending is not None:
                state = state.apply(state.legal_actions()[0])
        state = state.apply(EndTurn())
    return regular, final, offered


def _ending(seed: int, level: int) -> tuple[GameState, int, list[int], list[int], bool, int]:
    """A game where player ``top`` reaches the summit on their turn: (the state at that turn,
    top, regular turns after it, the final round's players, regular actions offered in the
    final round, the round)."""
    rng = _rng("final", seed, level)
    players = rng.randint(2, 4) if level == 1 else rng.randint(3, 4)
    spaces, land, wet = _spaces(rng, 5, 3, 5)
    first, top = rng.randrange(players), rng.randrange(players)
    state = _game(spaces, players=players, family=True)
    summit = state.edition.summit_steps
    state = replace(state, first_player=first, turn_player=top, round=rng.randint(6, 12))
    state = state.arranged(points={top: summit})
    regular, final, offered = _finish(state)
    return state, top, regular, final, offered, state.round


def _seats(state: GameState) -> str:
    return player_names(range(state.num_players))


def _final_question(state: GameState, top: int) -> str:
    first = PLAYER_NAMES[state.first_player]
    return (f"{state.num_players} players sit clockwise: {_seats(state)}; {first} started the "
            f"game. In round {state.round}, during {PLAYER_NAMES[top]}'s turn, "
            f"{PLAYER_NAMES[top]} reaches the top of the Sacred Mountain.")


def _final_l1(seed: int, state: GameState, top: int, regular: list, final: list) -> Exercise:
    """Level 1: what comes right after the turn in which the end was triggered."""
    rng = _rng("final-options", seed, 1)
    n, first = state.num_players, state.first_player
    right = f"turn{regular[0]}" if regular else f"final{final[0]}"
    keys = [f"turn{p}" for p in range(n) if p != top] + [f"final{p}" for p in range(n)]
    others = [k for k in keys if k != right]
    shown = [right] + rng.sample(others, min(3, len(others)))
    rng.shuffle(shown)

    def label(key: str) -> str:
        p = PLAYER_NAMES[int(key[-1])]
        if key.startswith("turn"):
            return f"{p} takes a regular turn, with two actions"
        return f"The final round begins: {p} plays one last Ritual Card"

    def why_not(key: str) -> str:
        p = int(key[-1])
        if key.startswith("turn") and not regular:
            return ("The round is complete after this turn: every player has had as many "
                    "turns as the others, so no regular turn is left.")
        if key.startswith("turn"):
            return (f"Turns go clockwise, and {PLAYER_NAMES[p]} does not sit right after "
                    f"{PLAYER_NAMES[top]}.")
        if regular:
            return ("The end is triggered, but the round is not finished: the players after "
                    f"{PLAYER_NAMES[top]} in this round still have their turns first.")
        return ("The final round begins with the player who started the game, and "
                f"{PLAYER_NAMES[p]} did not.")

    names = {k: ("round-cut-short" if k.startswith("final") and regular else
                 "final-starts-with-trigger" if k == f"final{top}" else
                 "round-goes-on" if k.startswith("turn") and not regular else "")
             for k in keys}
    return Exercise(
        kind="pangaea.final_round", seed=seed,
        question=_final_question(state, top) + f" What happens right after {PLAYER_NAMES[top]}'s "
                 "turn?",
        answer_kind="choice", answer=right, options=tuple(Option(k, label(k)) for k in shown),
        checker=lambda given: choice_verdict(
            given, right, why_not=why_not, names=names,
            right_reason=f"Right: {label(right)}."),
        hints=("Reaching the top does not end the game at once: the round is played to its "
               "end, so that everyone has had the same number of turns; then comes a last "
               "round.",
               f"{PLAYER_NAMES[first]} started the game, so a round ends with the player just "
               f"before {PLAYER_NAMES[first]}. Go clockwise from {PLAYER_NAMES[top]}."),
        explanation=(("Regular turns still to come: " + player_names(regular) + "; then")
                     if regular else "The round is complete; then")
                    + f" the final round: {player_names(final)}, one last Ritual each.",
        context={"state": state, "regular": regular, "final": final})


def _final_l2(seed: int, state: GameState, top: int, regular: list, final: list,
              offered: bool) -> Exercise:
    """Level 2: true and false statements about the rest of the game."""
    rng = _rng("final-statements", seed, 2)
    n, first = state.num_players, state.first_player
    name = PLAYER_NAMES
    facts = [(f"turn{p}", f"{name[p]} takes another regular turn, with two actions",
              p in regular) for p in range(n)]
    facts += [(f"final{p}", f"{name[p]} may play one last Ritual Card in the final round",
               p in final) for p in rng.sample(range(n), 1)]
    facts += [("first-top", f"The final round begins with {name[top]}", final[0] == top)]
    p = rng.randrange(n)
    facts += [("action", f"In the final round {name[p]} may still move its Spirit or place a "
                         "Flying Seed", offered)]
    facts = [f for f in facts if f[0] != "first-top" or top != first] if rng.random() < 0.5 \
        else facts
    rng.shuffle(facts)
    facts = facts[:5]
    if not any(f[2] for f in facts) or all(f[2] for f in facts):
        facts = facts[:4] + [(f"final{top}", f"{name[top]} may play one last Ritual Card in the "
                              "final round", True)]
    right = frozenset(k for k, _, true in facts if true)

    def why_not(key: str) -> str:
        if key == "action":
            return ("In the final round nobody takes regular actions: only one last Ritual "
                    "Card, and any tokens still held.")
        if key == "first-top":
            return ("The final round does not begin with the player who reached the top: it "
                    "begins with the player who started the game.")
        p = int(key[-1])
        if p == top:
            return (f"{name[top]} has just had its turn; the round goes on with the players "
                    f"after {name[top]}, not with {name[top]} again.")
        return (f"{name[p]} has already had its turn in this round, and the round only runs "
                "until everyone has had the same number of turns.")

    mistakes = {"action": "actions-in-final", "first-top": "final-starts-with-trigger"}

    def check(given: frozenset) -> Verdict:
        return choices_verdict(
            given, right, why_not=named(why_not, lambda key: mistakes.get(key, "round-goes-on")),
            missed="Each pick is true, but another statement is true as well: go through who "
                   "still plays in this round and who plays in the final round.",
            right_reason="Right: exactly these are true.")

    return Exercise(
        kind="pangaea.final_round", seed=seed,
        question=_final_question(state, top) + " Which of these are true from now until the "
                 "end of the game? Pick every true one.",
        answer_kind="choices", answer=right,
        options=tuple(Option(k, label) for k, label, _ in facts), checker=check,
        hints=("Reaching the top triggers the end, but the round is played out first; then "
               "everyone plays one last round with Ritual Cards only.",
               f"{name[first]} started the game, so the round ends with the player just before "
               f"{name[first]}; the final round then starts with {name[first]}. Go clockwise "
               f"from {name[top]}."),
        explanation=(("Regular turns still to come: " + player_names(regular) + ". ")
                     if regular else "No regular turn is left. ")
                    + f"Final round: {player_names(final)}, one last Ritual each, no regular "
                    "actions.",
        context={"state": state, "regular": regular, "final": final})


@register("pangaea.final_round", game=GAME.name, notebook=SCORING,
          rule="The end of the game: reaching the top of the Sacred Mountain triggers it; the "
               "round is finished, then everyone, from the starting player, plays one last "
               "Ritual and no regular action",
          title="Who still plays when the end is triggered?",
          levels=("what happens right after the turn that triggers the end",
                  "true or false: who still plays, and what the final round allows"))
def final_round(seed: int, level: int) -> Exercise:
    state, top, regular, final, offered, _ = _ending(seed, level)
    if level == 1:
        return _final_l1(seed, state, top, regular, final)
    return _final_l2(seed, state, top, regular, final, offered)
