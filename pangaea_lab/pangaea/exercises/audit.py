"""Exercise kinds for Dawn of Pangaea rules that a rule notebook teaches and no other kind
practised (the audit of "every rule taught gets a kind").

* ``pangaea.land_trees_back`` (notebook 03): after a Land Ritual, which pieces on its chain
  leave the continent.  Only the ritual player's own Trees go back to the supply; Spirits and
  the other players' Trees stay.
* ``pangaea.chelon_bridge_score`` (notebook 05): what a Land Ritual scores when Chelon stands
  on a Water Space: a chain that crosses Chelon's space scores one more (the bridge), a chain
  that does not cross it scores nothing extra.

Positions come from :mod:`.first_steps` (the Land Ritual lessons); the engine plays the
Ritual and the answer is read off the position after it, never typed by hand.
"""

from __future__ import annotations

import random

from ...core.errors import InvalidSetup
from ...core.exercises import (Exercise, cell_text, cells_verdict, number_verdict, plural,
                               register)
from ..actions import PlayLand
from ..edition import load_edition
from ..graph_lab import with_chelon
from ..rituals import NOBODY, RitualOption, land_ritual_options
from ..state import PLAYER_NAMES, GameState
from .common import (and_list, cells_words, drawer, first_fit, number_misconceptions,
                     player_names)
from .first_steps import NB03, RED, _card_words, _chain_score_wrongs, _ritual_position
from .graphs import _level_position

GAME = "pangaea"
NB05 = "pangaea/05_ancients.ipynb"


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


@register("pangaea.land_trees_back", game=GAME, notebook=NB03,
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


@register("pangaea.chelon_bridge_score", game=GAME, notebook=NB05,
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
