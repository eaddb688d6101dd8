"""Helpers for the Inori tests: build a position by hand while keeping component counts."""

from __future__ import annotations

from dataclasses import replace

from pangaea_lab import inori
from pangaea_lab.inori.board import NEUTRAL


def game(players: int = 2, seed: int = 0, **options) -> inori.GameState:
    return inori.new_game(players=players, seed=seed, **options)


def give(state, player: int, **tokens: int):
    """Move favor tokens of the named colours from the supply to ``player``."""
    ed = state.edition
    favor = [list(r) for r in state.favor]
    supply = list(state.supply)
    for colour, n in tokens.items():
        k = ed.colours.index(colour)
        favor[player][k] += n
        supply[k] -= n
        assert supply[k] >= 0
    return replace(state, favor=tuple(map(tuple, favor)), supply=tuple(supply))


def with_cards(state, *card_ids: str):
    """Put the given cards (empty) in the slots; the cards they replace go to the unused
    start cards, so every card is still somewhere."""
    wanted = set(card_ids)

    def strip(group):
        return tuple(c for c in group if c not in wanted)

    old = [c for c, _ in state.slots if c not in wanted]
    ed = state.edition
    return replace(
        state,
        slots=tuple((c, ((),) * len(ed.cards[c].spaces)) for c in card_ids),
        piles=tuple(strip(p) for p in state.piles),
        new_start_deck=strip(state.new_start_deck),
        unused_start=strip(state.unused_start) + tuple(old),
        spent_cards=strip(state.spent_cards))


def occupy(state, slot: int, space: int, *markers: int):
    """Put markers (player numbers, or NEUTRAL) on a card space, taken from hands/the tree."""
    slots = [[c, [list(o) for o in sp]] for c, sp in state.slots]
    hand = list(state.hand)
    home = state.neutral_home
    for m in markers:
        slots[slot][1][space].append(m)
        if m == NEUTRAL:
            home -= 1
        else:
            hand[m] -= 1
    return replace(state, slots=tuple((c, tuple(map(tuple, sp))) for c, sp in slots),
                   hand=tuple(hand), neutral_home=home)


def with_runes(state, player: int, *rune_ids: str):
    """Move the named runes from the deck into ``player``'s hand."""
    deck = tuple(r for r in state.rune_deck if r not in rune_ids)
    hands = [list(h) for h in state.rune_hands]
    hands[player] += rune_ids
    return replace(state, rune_deck=deck, rune_hands=tuple(tuple(sorted(h)) for h in hands))


def favor_of(state, player: int, colour: str) -> int:
    return state.favor[player][state.edition.colours.index(colour)]


def play_all(state, actions):
    for a in actions:
        state = state.apply(a)
    return state
