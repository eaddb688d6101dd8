"""Exercise kinds for Dawn of Pangaea rules that a rule notebook teaches and no other kind
practised (the audit of "every rule taught gets a kind").

* ``pangaea.land_trees_back`` (notebook 03): after a Land Ritual, which pieces on its chain
  leave the continent.  Only the ritual player's own Trees go back to the supply; Spirits and
  the other players' Trees stay.

Positions come from :mod:`.first_steps` (the Land Ritual lessons); the engine plays the
Ritual and the answer is read off the position after it, never typed by hand.
"""

from __future__ import annotations

import random

from ...core.exercises import Exercise, cell_text, cells_verdict, plural, register
from ..actions import PlayLand
from ..rituals import NOBODY, land_ritual_options
from ..state import PLAYER_NAMES, GameState
from .common import and_list, cells_words, drawer
from .first_steps import NB03, RED, _card_words, _ritual_position

GAME = "pangaea"


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
