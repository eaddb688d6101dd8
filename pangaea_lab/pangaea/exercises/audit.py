"""Exercise kinds for Dawn of Pangaea rules that a rule notebook teaches and no other kind
practised (the audit of "every rule taught gets a kind").

* ``pangaea.land_trees_back`` (notebook 03): after a Land Ritual, which pieces on its chain
  leave the continent.  Only the ritual player's own Trees go back to the supply; Spirits and
  the other players' Trees stay.
* ``pangaea.chelon_bridge_score`` (notebook 05): what a Land Ritual scores when Chelon stands
  on a Water Space: a chain that crosses Chelon's space scores one more (the bridge), a chain
  that does not cross it scores nothing extra.
* ``pangaea.okuma_weather`` (notebook 05): summoned Okuma gives the player who summons him one
  Weather Token of the biome of the space he lands on (not of the space he left).
* ``pangaea.okuma_seed_grows`` (notebook 05): a Spirit Growth grows the Seeds touching its
  water and also the Seed under Okuma, however far away; then Okuma walks on.
* ``pangaea.summon_again`` (notebook 05): summoning an Ancient already on the board moves it
  to another space where it may stand (never its own), and its direct effect happens again.
* ``pangaea.graph_components`` (notebook 09): land masses and bodies of water are the
  connected components (networkx) of the graphs of the Land and of the Water Spaces.

Positions come from :mod:`.first_steps` (the Land Ritual lessons) and the small boards of
:mod:`.ancients_and_woods`; the engine plays the Ritual, the summon or the Spirit Growth and
the answer is read off the position after it (the legal placements, the Weather Tokens
gained, the Trees grown) or off the board's graph, never typed by hand.
"""

from __future__ import annotations

import random
from dataclasses import replace

import networkx as nx

from ...core.errors import IllegalAction, InvalidSetup
from ...core.exercises import (Exercise, Option, cell_text, cells_verdict, choice_verdict,
                               number_verdict, plural, register)
from ..actions import PlayLand, SpiritGrowth, SummonAncient
from ..edition import ANCIENTS, load_edition
from ..graph_lab import terrain_graph, with_chelon
from ..rituals import NOBODY, RitualOption, land_ritual_options
from ..state import PLAYER_NAMES, GameState
from ..game import GAME
from .ancients_and_woods import _board, _draw, _is_water, _near
from .common import (and_list, cells_words, drawer, first_fit, game, in_words,
                     number_misconceptions, owned_piece, player_names)
from .first_steps import NB03, RED, _card_words, _chain_score_wrongs, _ritual_position
from .graphs import _level_position

NB05 = "pangaea/05_ancients.ipynb"
NB09 = "pangaea/09_graphs_behind_the_board.ipynb"


def _mixed(state: GameState, chain: tuple) -> bool:
    """Whether a chain holds something other than Red's Trees (a Spirit, another colour)."""
    return any(_holder(state, c) != RED for c in chain)


def _played(seed: int, level: int):
    """A Land Ritual lesson and one of its shortest chains, played by the engine:
    (state before, state after, card, chain).  Chains with a piece that stays (a Spirit,
    another colour) are preferred: at level 2 always when one turns up, at level 1 in most
    seeds, so that "the whole chain" is seldom the answer."""
    rng = random.Random(f"pangaea.land_trees_back/{seed}/{level}")
    want_mixed = level == 2 or rng.random() < 0.8
    for attempt in range(30):
        state, card, start, end = _ritual_position(seed * 100 + attempt, level,
                                                   "land_trees_back")
        options = land_ritual_options(state.position, RED, card, start, end)
        mixed = [o.path for o in options if _mixed(state, o.path)]
        held = [p for p, pl in enumerate(state.players) if card.id in pl.hand]
        if held in ([], [RED]) and (mixed or not want_mixed):
            break
    chain = rng.choice(mixed if want_mixed and mixed else [o.path for o in options])
    if RED not in held:
        state = state.arranged(hands={RED: [card.id]})
    after = state.apply(PlayLand(card.id, False, chain))
    return state, after, card, chain


def _holder(state: GameState, cell) -> int:
    """Who holds a Tree on ``cell`` (NOBODY if no Tree stands there)."""
    return state.trees[state.board.index[cell]]


def _spirit_of(state: GameState, cell) -> int:
    """Whose Spirit stands on ``cell`` (NOBODY if none)."""
    i = state.board.index[cell]
    return next((p for p, at in enumerate(state.spirits) if at == i), NOBODY)


def _piece_words(state: GameState, cell) -> str:
    """What stands on a space, in words: "Blue's Tree", "Red's Spirit" or "nothing"."""
    tree, spirit = _holder(state, cell), _spirit_of(state, cell)
    if tree != NOBODY:
        return f"{PLAYER_NAMES[tree]}'s Tree"
    if spirit != NOBODY:
        return f"{PLAYER_NAMES[spirit]}'s Spirit"
    return "nothing"


def _trees_back_reason(state: GameState, chain: tuple):
    """Why a clicked space does not go back to a supply: (misconception, reason)."""
    def refuse(cell) -> tuple[str, str]:
        what = _piece_words(state, cell)
        if cell not in chain:
            return "off-chain", (f"it holds {what}, and it is not on the numbered chain: only "
                                 "pieces on the chain can go back.")
        if _spirit_of(state, cell) != NOBODY and _holder(state, cell) == NOBODY:
            return "spirit-goes-back", (f"it holds {what}. Spirits stay on the continent "
                                        "after a Land Ritual; only Trees go back.")
        return "other-colour-goes-back", (f"it holds {what}. Only the player who performs the "
                                          "Ritual takes Trees back; other colours stay.")
    return refuse


@register("pangaea.land_trees_back", game=GAME.name, notebook=NB03,
          rule="After a Land Ritual your own Trees on its chain go back to your supply; "
               "Spirits and the other players' Trees stay",
          title="Which pieces leave the continent?",
          levels=("a short chain with Red and Blue pieces",
                  "a longer chain with pieces of three colours"))
def land_trees_back(seed: int, level: int) -> Exercise:
    state, after, card, chain = _played(seed, level)
    right = frozenset(c for c in chain if _holder(state, c) != NOBODY
                      and _holder(after, c) == NOBODY)
    ends = frozenset((chain[0], chain[-1]))
    stay = [c for c in chain if c not in right]

    def partial(given: frozenset):
        if given == ends and right != ends:
            return ("only-end-trees", "You took back the two end Trees only: every Red Tree "
                    "on the chain goes back, those between the ends too.")
        return None

    labels = {c: str(k + 1) for k, c in enumerate(chain)}
    return Exercise(
        kind="pangaea.land_trees_back", seed=seed, level=level,
        question=(f"{_card_words(card)}: Red performs the Land Ritual along the numbered chain "
                  f"(1 to {len(chain)}). Click every piece that then leaves the continent "
                  "and goes back to its owner's supply."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=_trees_back_reason(state, chain),
            missed="Some pieces are missing: look again at every Tree of Red's on the "
                   "numbered chain, from 1 to the end.",
            partial=partial,
            right_reason="Right: Red's own Trees on the chain go back to Red's supply; Spirits "
                         "and the other colours' Trees stay where they are."),
        draw=drawer(state, "cells", base=labels, paths=[chain]),
        hints=(f"Only pieces on the chain from {cell_text(chain[0])} to "
               f"{cell_text(chain[-1])} can leave, and only one kind of piece of one colour.",
               ("The marked pieces on the chain stay: "
                + and_list(f"{_piece_words(state, c)} on {cell_text(c)}" for c in stay)
                + ". Which pieces of the chain are left?")
               if stay else
               f"Every one of the {plural(len(chain), 'piece')} on this chain is a Tree of "
               "Red's: think about what happens to Red's own Trees."),
        hint_marks=((chain[0], chain[-1]), tuple(stay)),
        explanation=(f"Red's Trees on {cells_words(sorted(right))} go back to Red's supply. "
                     "The Land Ritual takes back only the performing player's Trees on the "
                     "chain; Spirits and other players' Trees stay on the continent."),
        context={"state": state, "after": after, "chain": chain})


# ----- 05: Chelon's bridge scores one more -----------------------------------------------------


def _cards_for(state: GameState, a, b) -> list:
    """The Land Ritual cards showing the biomes of the spaces ``a`` and ``b``."""
    board = state.board
    want = sorted((board.biome[board.index[a]], board.biome[board.index[b]]))
    return [c for c in load_edition().land_cards if sorted(c.biomes) == want]


def _bridge_try(rng: random.Random, level: int):
    """One try at a full-game position with Chelon on a Water Space and a Land Ritual of Red's
    whose shortest chains cross Chelon's space: (state, card, chosen chain) or None.  At level
    2 the chosen chain may be one of the equally short ones that does not cross Chelon."""
    state = _level_position(rng, level)
    reds = [state.board.cells[i] for i, p in enumerate(state.trees) if p == RED]
    water = [state.board.cells[i] for i in state.board.water]
    if len(reds) < 2 or not water:
        return None
    try:
        state = with_chelon(state, rng.choice(water))
    except InvalidSetup:
        return None
    a, b = rng.sample(reds, 2)
    cards = _cards_for(state, a, b)
    if not cards:
        return None
    card = rng.choice(cards)
    options = land_ritual_options(state.position, RED, card, a, b)
    over = [o for o in options if o.bonus]
    plain = [o for o in options if not o.bonus]
    if not over or len(over[0].path) > 3 + 2 * level:
        return None
    pick = plain if level == 2 and plain and rng.random() < 0.35 else over
    return state, card, rng.choice(pick)


def _bridge_wrongs(option: RitualOption, others: int) -> list[tuple[int, str, str]]:
    """The typical wrong scores of a chain with Chelon on the board."""
    if option.bonus:
        first = [(option.points - option.bonus, "forgot-bridge",
                  "Your count leaves out Chelon's bridge: this chain crosses his Water "
                  "Space, and a Land Ritual over his bridge earns a point for it.")]
    else:
        first = [(option.points + 1, "bridge-off-chain",
                  "Chelon's bridge adds a point only to a chain that crosses his space, "
                  "and this chain does not.")]
    general = [(value - option.bonus, name, reason)
               for value, name, reason in _chain_score_wrongs(option, others)]
    return first + [(v + option.bonus, n, r) for v, n, r in general]


@register("pangaea.chelon_bridge_score", game=GAME.name, notebook=NB05,
          rule="A Land Ritual whose chain crosses Chelon's Water Space scores one more point "
               "for the bridge",
          title="What does a chain over Chelon score?",
          levels=("a small board, a chain over Chelon",
                  "a crowded board, the chain over Chelon or beside him"))
def chelon_bridge_score(seed: int, level: int) -> Exercise:
    rng = random.Random(f"pangaea.chelon_bridge_score/{seed}/{level}")
    state, card, option = first_fit(rng, lambda r: _bridge_try(r, level),
                                    f"pangaea.chelon_bridge_score seed {seed}")
    pos, chain = state.position, option.path
    turtle = state.board.cells[pos.chelon]
    others = [c for c in chain if pos.holder(state.board.index[c]) not in (RED, NOBODY)]
    labels = {c: str(k + 1) for k, c in enumerate(chain)}
    crosses = turtle in chain
    return Exercise(
        kind="pangaea.chelon_bridge_score", seed=seed, level=level,
        question=(f"{_card_words(card)}: Chelon the turtle stands on the Water Space "
                  f"{cell_text(turtle)}. Red performs the Land Ritual along the numbered chain "
                  f"(1 to {len(chain)}). How many points does it score?"),
        answer_kind="number", answer=option.points,
        checker=lambda given: number_verdict(
            given, option.points, what="what this chain scores",
            rule="Count again: one per Tree or Spirit of Red's on the chain, one per other "
                 "colour on it, and one for Chelon's bridge if the chain crosses his space.",
            misconceptions=number_misconceptions(option.points,
                                                 _bridge_wrongs(option, len(others)))),
        draw=drawer(state, "cells", base=labels, paths=[chain]),
        hints=(f"Score the chain as usual, then ask: does it pass Chelon's space "
               f"{cell_text(turtle)}?",
               f"Chelon's space {cell_text(turtle)} is "
               + ("one of the numbered spaces" if crosses else "not on the numbered chain")
               + ". The marked pieces are the other colours on the chain: "
               + (player_names(sorted({pos.holder(state.board.index[c]) for c in others}))
                  if others else "none here") + "; each colour counts once."),
        hint_marks=((turtle,), tuple(others) + (turtle,)),
        explanation=option.explain(PLAYER_NAMES) + ".",
        context={"state": state, "chain": chain, "bonus": option.bonus})


# ----- 05: the Ancients summoned and Okuma's passive -------------------------------------------


def _summoned(state: GameState, ancient: str, player: int = RED) -> GameState:
    """The position with ``player`` to act, after the Summon the Ancients action: the engine
    now waits for where ``ancient`` goes (its legal placements are the legal actions)."""
    return replace(state, turn_player=player).apply(SummonAncient(ancient))


def _biome_of(state: GameState, cell) -> str:
    return state.board.biome[state.board.index[tuple(cell)]]


def _gained(before: GameState, after: GameState) -> list[tuple[int, str]]:
    """The Weather Tokens each player gained between two positions: (player, biome) pairs."""
    biomes = before.edition.biomes
    return [(p, biomes[k]) for p in range(before.num_players)
            for k in range(len(biomes))
            for _ in range(after.players[p].weather[k] - before.players[p].weather[k])]


def _weather_try(rng: random.Random, level: int):
    """A board with a few Trees, Okuma placed (level 2: already standing somewhere, and the
    summoner may be Blue) and the engine's answer: (state, player, target, old, gained)."""
    state = game(_board(rng, cols=4 + level, rows=3 + level // 2, water=0.3), rng.randrange(99))
    land = [state.board.cells[i] for i in state.board.land]
    if len(land) < 7:
        return None
    rng.shuffle(land)
    trees = {c: rng.randrange(2) for c in land[:level + 1]}
    old = land[level + 1] if level == 2 else None
    state = state.arranged(trees=trees, ancients={"Okuma": old})
    player = rng.randrange(2) if level == 2 else RED
    waiting = _summoned(state, "Okuma", player)
    target = rng.choice(waiting.legal_actions())
    gained = _gained(state, waiting.apply(target))
    if len(gained) != 1 or (old is not None and _biome_of(state, old) == _biome_of(
            state, target.cell) and rng.random() < 0.7):
        return None
    return state, player, target.cell, old, gained[0]


def _weather_why_not(state: GameState, target, old, right: tuple[int, str]):
    """Why a picked (player, biome) option is wrong: the rule it breaks."""
    near = {_biome_of(state, c) for c in _near(state, target) if not _is_water(state, c)}

    def why(key: str):
        if key == "nobody":
            return ("no-token", "Okuma's direct effect always earns a Weather Token where he "
                    "lands.")
        who, biome = key.split("-")
        if int(who) != right[0]:
            return ("token-to-other-player", "The token goes to the player who summons Okuma: "
                    "read again who summons him in this question.")
        if old is not None and biome == _biome_of(state, old):
            return ("old-space-biome", "That is the biome of the space Okuma left: the token "
                    "comes from the space he lands on.")
        if biome in near:
            return ("neighbour-biome", "That biome belongs to a space next to where Okuma "
                    "lands: only the landing space itself counts.")
        return ("wrong-biome", "No space Okuma stands on in this question has that biome: "
                "look again at the landing space's colour.")
    return why


@register("pangaea.okuma_weather", game=GAME.name, notebook=NB05,
          rule="Summoned Okuma gives the player who summons him a Weather Token of the biome "
               "of the Land Space he lands on",
          title="Which Weather Token does Okuma give?",
          levels=("Red summons Okuma onto a small board",
                  "Okuma moves from one space to another; Red or Blue summons him"))
def okuma_weather(seed: int, level: int) -> Exercise:
    rng = random.Random(f"pangaea.okuma_weather/{seed}/{level}")
    state, player, target, old, right = first_fit(
        rng, lambda r: _weather_try(r, level), f"pangaea.okuma_weather seed {seed}")
    biomes = state.edition.biomes
    options = [Option(f"{p}-{b}", f"{PLAYER_NAMES[p]} takes a {b} token")
               for p in (RED, 1) for b in biomes] + [Option("nobody", "Nobody takes a token")]
    key = f"{right[0]}-{right[1]}"
    fixed = {target: "L"} | ({old: "O"} if old is not None else {})
    moved = (f"Okuma stands at {cell_text(old)} (marked O). " if old is not None else "")
    return Exercise(
        kind="pangaea.okuma_weather", seed=seed, level=level,
        question=(f"{moved}{PLAYER_NAMES[player]} summons Okuma the bear and puts him on "
                  f"{cell_text(target)} (marked L). Who takes which Weather Token?"),
        answer_kind="choice", answer=key, options=tuple(options),
        checker=lambda given: choice_verdict(
            given, key, why_not=_weather_why_not(state, target, old, right),
            right_reason="Right: whoever summons Okuma takes one Weather Token of the biome "
                         "of the space where he lands."),
        draw=lambda m: _draw(state, m, fixed=fixed),
        hints=("Okuma's direct effect gives one token to one player. Which player acts, and "
               "which single space decides the biome?",
               f"{PLAYER_NAMES[player]} does the summoning. Read the biome of the landing "
               f"space {cell_text(target)} only"
               + (f", not that of {cell_text(old)} where he stood" if old is not None else "")
               + ", and not those of the spaces around it."),
        hint_marks=((target,), (target,)),
        explanation=(f"{PLAYER_NAMES[player]} summons Okuma onto {cell_text(target)}, a "
                     f"{right[1]} space, so {PLAYER_NAMES[right[0]]} takes a {right[1]} "
                     "Weather Token."),
        context={"state": state, "target": target, "old": old, "player": player})


def _seed_grows_try(rng: random.Random, level: int):
    """Okuma on a Seed far from a Water Space where Red performs Spirit Growth, Seeds next to
    that water (and at level 2 far Seeds too): (state, water, okuma, after) or None."""
    state = game(_board(rng, cols=5 + level, rows=4, water=0.3), rng.randrange(99))
    board = state.board
    if not board.water:
        return None
    water = board.cells[rng.choice(board.water)]
    near = [c for c in _near(state, water) if not _is_water(state, c)]
    far = [board.cells[i] for i in board.land if board.cells[i] not in near
           and board.index[tuple(water)] not in board.neighbours[i]]
    rng.shuffle(near)
    rng.shuffle(far)
    if not near or len(far) < 1 + 2 * level:
        return None
    okuma = far[0]
    seeds = {okuma: rng.randrange(2)}
    seeds |= {c: rng.randrange(2) for c in near[:rng.randint(1, min(2, len(near)))]}
    if level == 2:
        seeds |= {c: rng.randrange(2) for c in far[1:rng.randint(2, 3)]}
        seeds = dict(list(seeds.items())[:4])
    try:
        state = state.arranged(seeds=seeds, ancients={"Okuma": okuma})
        after = state.apply(SpiritGrowth(water))
    except (IllegalAction, InvalidSetup):
        return None
    return state, water, okuma, after


def _seed_grows_refuse(state: GameState, water, okuma):
    def refuse(cell):
        if owned_piece(state, cell) == "":
            return ("empty-space-grows", "there is no Seed on it, so nothing can grow there.")
        if cell in _near(state, water):
            return ("", "its Seed does not grow here.")
        return ("far-seed-grows", f"its Seed does not touch {cell_text(water)}, and Okuma "
                "does not stand on it.")
    return refuse


@register("pangaea.okuma_seed_grows", game=GAME.name, notebook=NB05,
          rule="The Seed under Okuma grows whenever anyone performs Spirit Growth, however "
               "far away; then Okuma walks on",
          title="Which Seeds grow, and Okuma's too?",
          levels=("Okuma on a Seed, a few Seeds by the water",
                  "Seeds of both colours near and far, Okuma among them"))
def okuma_seed_grows(seed: int, level: int) -> Exercise:
    rng = random.Random(f"pangaea.okuma_seed_grows/{seed}/{level}")
    state, water, okuma, after = first_fit(rng, lambda r: _seed_grows_try(r, level),
                                           f"pangaea.okuma_seed_grows seed {seed}")
    seeds = [state.board.cells[i] for i in state.board.land if state.seeds[i] != NOBODY]
    right = frozenset(c for c in seeds if after.trees[state.board.index[c]] != NOBODY)
    others = tuple(c for c in seeds if c not in right)

    def partial(given: frozenset):
        if okuma not in given and given == right - {okuma}:
            return ("okuma-seed-forgotten", f"Every Seed you clicked touches "
                    f"{cell_text(water)}. One more Seed grows with every Spirit Growth, "
                    "wherever it is: think of Okuma's passive.")
        return None

    return Exercise(
        kind="pangaea.okuma_seed_grows", seed=seed, level=level,
        question=(f"Okuma the bear (the disc 'Ok') stands on a Seed. Red performs Spirit "
                  f"Growth on the Water Space {cell_text(water)} (marked W). Click every Seed "
                  "that grows into a Tree."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=_seed_grows_refuse(state, water, okuma),
            missed=f"Some Seeds are missing: check every Seed touching {cell_text(water)}, "
                   "and Okuma's passive.", partial=partial,
            right_reason="Right: the Seeds touching the water grow, and so does the Seed "
                         "under Okuma, however far away; then Okuma walks on."),
        draw=lambda m: _draw(state, m, fixed={water: "W"}),
        hints=(f"A Spirit Growth on {cell_text(water)} grows the Seeds touching it, and one "
               "Ancient adds a Seed of his own.",
               f"The Spirit's water is {cell_text(water)}; Okuma stands at {cell_text(okuma)}. "
               + (f"The marked Seeds at {cells_words(others)} touch neither."
                  if others else "Look at each Seed: by the water, or under Okuma?")),
        hint_marks=((water,), others or (water,)),
        explanation=(f"The Seeds at {cells_words(sorted(right))} grow: those touching "
                     f"{cell_text(water)} by Spirit Growth, and the one under Okuma at "
                     f"{cell_text(okuma)} by his passive. Then Okuma walks one step to a "
                     "Land Space without a Tree."),
        context={"state": state, "after": after, "water": water, "okuma": okuma})


#: where each Ancient may go when summoned, in words (Summon the Ancients)
_GOES = {"Okuma": "an empty Land Space (no Tree, no Seed)", "Chelon": "a Water Space",
         "Thorondal": "a space with a Tree of any player"}


def _again_try(rng: random.Random, level: int):
    """An Ancient already on the board and the spaces the engine lets a new summon put it on:
    (state, ancient, here, right) or None."""
    state = game(_board(rng, cols=3 + level, rows=3 + level // 2, water=0.35),
                 rng.randrange(99))
    board = state.board
    land = [board.cells[i] for i in board.land]
    rng.shuffle(land)
    k = rng.randint(2, 3) if level == 1 else rng.randint(4, 6)
    state = state.arranged(trees={c: rng.randrange(2) for c in land[:k]},
                           seeds={c: rng.randrange(2) for c in land[k:k + level]})
    ancient = rng.choice(ANCIENTS)
    spots = {"Okuma": land[k + level:], "Chelon": [board.cells[i] for i in board.water],
             "Thorondal": land[:k]}[ancient]
    if not spots:
        return None
    here = rng.choice(spots)
    state = state.arranged(ancients={ancient: here})
    try:
        right = frozenset(a.cell for a in _summoned(state, ancient).legal_actions())
    except IllegalAction:   # nowhere else to go: not a question to ask
        return None
    if not 2 <= len(right) <= 4 + 3 * level:
        return None
    return state, ancient, here, right


def _again_refuse(state: GameState, ancient: str, here):
    def refuse(cell):
        if cell == here:
            return ("summon-stays", f"{ancient} stands there already: a new summon moves "
                    "him to another space.")
        piece = owned_piece(state, cell) or "nothing"
        if ancient == "Chelon":
            return ("wrong-terrain", "it is land, and Chelon goes on a Water Space.")
        if _is_water(state, cell):
            return ("wrong-terrain", f"it is a Water Space, and {ancient} goes on land.")
        if ancient == "Okuma":
            return ("occupied-space", f"it holds {piece}, and Okuma needs an empty space.")
        return ("no-tree-there", f"it holds {piece}, and Thorondal stands on a Tree.")
    return refuse


@register("pangaea.summon_again", game=GAME.name, notebook=NB05,
          rule="Summoning an Ancient that is already on the board moves it to a new space, "
               "and its direct effect happens again",
          title="Where does an Ancient summoned again go?",
          levels=("one Ancient on a small board", "one Ancient on a fuller board"))
def summon_again(seed: int, level: int) -> Exercise:
    rng = random.Random(f"pangaea.summon_again/{seed}/{level}")
    state, ancient, here, right = first_fit(rng, lambda r: _again_try(r, level),
                                            f"pangaea.summon_again seed {seed}")
    return Exercise(
        kind="pangaea.summon_again", seed=seed, level=level,
        question=(f"{ancient} already stands at {cell_text(here)} (marked A). Red summons "
                  f"{ancient} again. Click every space where he may go."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=_again_refuse(state, ancient, here),
            missed=f"Some spaces are missing: {ancient} may go on {_GOES[ancient]}; check "
                   "every such space on the board.",
            right_reason=f"Right: a summon moves {ancient} to any other space he may stand "
                         "on, and his direct effect happens again there."),
        draw=lambda m: _draw(state, m, fixed={here: "A"}),
        hints=(f"{ancient} is on the board already: summoning him moves him. Where may "
               f"{ancient} stand at all?",
               f"{ancient} goes on {_GOES[ancient]}, but not on {cell_text(here)} where he "
               "stands now: a summon always moves him."),
        hint_marks=((here,), (here,)),
        explanation=(f"{ancient} may go on {_GOES[ancient]} other than {cell_text(here)}: "
                     f"{cells_words(right)}. There is only one {ancient}: he leaves his old "
                     "space, and his direct effect happens where he lands."),
        context={"state": state, "ancient": ancient, "here": here})


# ----- 09: land masses and bodies of water, as connected components -------------------------


def _masses_try(rng: random.Random, level: int, want: int):
    """A board whose land falls into ``want`` pieces (level 1), or with two or more bodies
    of water and a chosen Water Space in one of at least two spaces (level 2)."""
    state = game(_board(rng, cols=4 + level, rows=3 + level // 2,
                        water=rng.uniform(0.3, 0.5)), rng.randrange(99))
    land, water = terrain_graph(state, "land"), terrain_graph(state, "water")
    if level == 1:
        return state if nx.number_connected_components(land) == want else None
    bodies = [b for b in nx.connected_components(water) if len(b) >= 2]
    if nx.number_connected_components(water) < 2 or not bodies:
        return None
    start = rng.choice(sorted(rng.choice(bodies)))
    return state, start


def _land_masses(seed: int) -> Exercise:
    rng = random.Random(f"pangaea.graph_components/{seed}/1")
    want = rng.choice((1, 2, 2, 3, 3, 4))
    state = first_fit(rng, lambda r: _masses_try(r, 1, want),
                      f"pangaea.graph_components seed {seed}")
    land, water = terrain_graph(state, "land"), terrain_graph(state, "water")
    right = nx.number_connected_components(land)
    wrongs = [(nx.number_connected_components(water), "counted-water-bodies",
               "That is how many bodies of water the board has: the question asks about "
               "the land."),
              (land.number_of_nodes(), "counted-spaces", "That counts Land Spaces one by "
               "one: touching Land Spaces belong to one land mass.")]
    first = sorted(land.nodes)[0]
    return Exercise(
        kind="pangaea.graph_components", seed=seed, level=1,
        question=("Two Land Spaces are in the same land mass when you can walk from one to "
                  "the other over touching Land Spaces. How many separate land masses does "
                  "this board have?"),
        answer_kind="number", answer=right,
        checker=lambda given: number_verdict(
            given, right, what="the number of land masses",
            rule="Start at any Land Space, mark every Land Space you reach over touching "
                 "land, then start again at one not yet marked; count the starts.",
            misconceptions=number_misconceptions(right, wrongs)),
        draw=lambda m: _draw(state, m),
        hints=(f"The board has {_count_words(land.number_of_nodes())} Land Spaces; water "
               "cuts them apart. Only touching Land Spaces join.",
               "Start at the marked Land Space and mark everything you reach over land: that "
               f"is one mass. The {_count_words(water.number_of_nodes())} Water Spaces are "
               "the gaps between masses."),
        hint_marks=((), (first,)),
        explanation=("In the graph of the Land Spaces (a line joins two touching spaces), "
                     "each connected component is one land mass: this board's land graph has "
                     f"{right} of them."),
        context={"state": state})


def _count_words(n: int) -> str:
    """A count in words for a hint that must not show digits ("more than twelve" beyond)."""
    return in_words(n) if n <= 12 else "more than twelve"


def _water_body(seed: int) -> Exercise:
    rng = random.Random(f"pangaea.graph_components/{seed}/2")
    state, start = first_fit(rng, lambda r: _masses_try(r, 2, 0),
                             f"pangaea.graph_components seed {seed}")
    water = terrain_graph(state, "water")
    right = frozenset(nx.node_connected_component(water, start))

    def refuse(cell):
        if not _is_water(state, cell):
            return ("land-in-water-body", "it is land: a body of water holds Water Spaces "
                    "only.")
        return ("separate-water-joined", f"it is water, but land cuts it off from "
                f"{cell_text(start)}: no line of touching Water Spaces joins them.")

    return Exercise(
        kind="pangaea.graph_components", seed=seed, level=2,
        question=(f"Click the Water Space {cell_text(start)} (marked S) and every Water Space "
                  "in the same body of water: joined to it by a line of touching Water "
                  "Spaces."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=refuse,
            missed=f"Some Water Spaces are missing: follow the water out from "
                   f"{cell_text(start)}, from each space you have to the water touching it.",
            right_reason="Right: these Water Spaces form one connected component of the "
                         "water graph."),
        draw=lambda m: _draw(state, m, fixed={start: "S"}),
        hints=(f"Start at {cell_text(start)} and step only from water to touching water.",
               f"The board's water falls into "
               f"{_count_words(nx.number_connected_components(water))} separate bodies; the "
               f"one of {cell_text(start)} stops wherever land surrounds it."),
        hint_marks=((start,), (start,)),
        explanation=(f"In the graph of the Water Spaces, the connected component of "
                     f"{cell_text(start)} holds {cells_words(sorted(right))}: each can be "
                     "reached from it over touching water, and no other Water Space can."),
        context={"state": state, "start": start})


@register("pangaea.graph_components", game=GAME.name, notebook=NB09,
          rule="Land masses and bodies of water are the connected components of the graph of "
               "the Land Spaces and of the Water Spaces",
          title="Which spaces hang together?",
          levels=("count the land masses of a small board",
                  "find a body of water on a larger board"))
def graph_components(seed: int, level: int) -> Exercise:
    return _land_masses(seed) if level == 1 else _water_body(seed)
