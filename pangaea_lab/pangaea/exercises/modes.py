"""Exercise kinds for The Dawn of Pangaea rules that notebooks 06-08 teach beyond the first
kinds: converting Favor Tokens (notebook 06), the Dream and Devour Shadow Markers and how the
co-op game is lost (notebook 07, Return of the Ancients), and what a Land Ritual pays, lowers
and what the Player Board scores in Wild Woods (notebook 08).

Every kind builds its position with the rules engine (the helpers of
:mod:`.ancients_and_woods` lay the small boards), takes its answer from the engine (the legal
conversions, the state after the Shadow Phase or the Ritual, the final scores), and judges a
wrong answer by what is wrong in it without giving the right one away.

>>> from pangaea_lab import exercises
>>> ex = exercises.generate("pangaea.favor_convert", seed=4, level=1)
>>> ex.check(ex.answer).correct
True
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Callable

from ...core.errors import IllegalAction
from ...core.exercises import (Exercise, Option, Verdict, choice_verdict, choices_verdict,
                               number_verdict, plural, register)
from ...core.svg import Svg
from ...core.validate import InvariantError
from .. import render, woods, woods_render
from ..actions import ConvertFavor, MoveShadow, PlayLand
from ..board import custom_board
from ..coop import coop_data, shadow_targets
from ..edition import ANCIENTS, woods_data
from ..rituals import NOBODY
from ..rules import favor_types
from ..state import GameState, Pending
from ..game import GAME
from .ancients_and_woods import (BIOMES, NB06, NB07, NB08, _coop, _draw, _name, _random_chains,
                                 _scourge, _stack, _where, _woods)
from .common import and_list, first_fit, game, in_words, number_misconceptions

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


# ----------------------------------------------------------------------------------------------
# shared helpers


def _listed(items: list[str]) -> str:
    return and_list(items) or "none"


def _retry(key: str, seed: int, level: int, build: Callable) -> Exercise:
    """Positions from one stream seeded by the kind, seed and level until one fits."""
    return first_fit(random.Random(f"{key}|{seed}|{level}"), build,
                     f"{key} seed {seed} level {level}")


def _valid(s: GameState) -> bool:
    try:
        s.check_invariants()
    except InvariantError:
        return False
    return True


# ----------------------------------------------------------------------------------------------
# 06 — converting Favor Tokens


PAIRS = tuple((g, t) for g in ANCIENTS for t in ANCIENTS if g != t)


def _activate_one(s: GameState, rng: random.Random) -> GameState | None:
    """One Favor Token from the bag activated on a fitting played card of Red's (a gold dot)."""
    ps = s.players[0]
    done = {c for c, _ in ps.activated}
    spots = [(c, a) for c in ps.played if c not in done for a in favor_types(s, 0, c)
             if a in s.favor_bag]
    if not spots:
        return None
    card, ancient = rng.choice(spots)
    bag = list(s.favor_bag)
    bag.remove(ancient)
    return replace(s, favor_bag=tuple(bag), players=(replace(
        ps, activated=ps.activated + ((card, ancient),)),) + s.players[1:])


def _empty_bag_of(s: GameState, kind: str) -> GameState:
    """Every ``kind`` token left in the bag goes to Blue's supply."""
    blue = dict(zip(ANCIENTS, s.players[1].favors))
    blue[kind] += s.favor_bag.count(kind)
    return s.arranged(favors={1: blue})


def _favor_position(rng: random.Random, seed: int, level: int) -> GameState | None:
    s = game(seed=seed)
    red = {a: rng.choice([0, 1, 1, 2, 2, 3, 4]) for a in ANCIENTS}
    if level == 2:
        s = s.arranged(chains={0: _random_chains(s, rng, 2, (2, 3))})
        for _ in range(rng.randint(1, 3)):
            s = _activate_one(s, rng) or s
        s = s.arranged(favors={1: {a: rng.choice([0, 1, 2, 3]) for a in ANCIENTS}})
    s = s.arranged(favors={0: red})
    if rng.random() < (0.3 if level == 1 else 0.45):
        s = _empty_bag_of(s, rng.choice(ANCIENTS))
    return s if _valid(s) else None


ANCIENT_COLOURS = {"Okuma": "#8d5a2b", "Chelon": "#2e7d6b", "Thorondal": "#5b6fa8"}


def _tokens_svg(s: GameState, level: int) -> str:
    """Red's Favor Tokens in its supply, one disc each, and what the bag still holds; on
    level 2 also Blue's tokens and Red's Ritual Chains with the activated tokens."""
    rows = [(0, s.players[0].favors)] + ([(1, s.players[1].favors)] if level == 2 else [])
    width = max(70 + sum(max(110, 17 * n + 24) for n in counts) for _, counts in rows)
    pic = Svg(max(420, width), 36 + 34 * len(rows) + 26, background="#ffffff")
    pic.text(10, 14, "Favor Tokens in each supply (not yet activated)", size=11,
             anchor="start", fill="#222222")
    for row, (p, counts) in enumerate(rows):
        y = 42 + 34 * row
        pic.text(10, y + 4, f"{_name(p)}:", size=10, anchor="start", fill="#222222")
        x = 60.0
        for ancient, n in zip(ANCIENTS, counts):
            pic.text(x, y - 14, ancient, size=8.5, anchor="start", fill="#444444")
            for k in range(n):
                pic.circle(x + 8 + 17 * k, y, 7, fill=ANCIENT_COLOURS[ancient], stroke="#1e1e1e",
                           stroke_width=1, title=f"{ancient} Favor Token")
            x += max(110.0, 17 * n + 24)
    held = [a for a in ANCIENTS if a in s.favor_bag]
    pic.text(10, 36 + 34 * len(rows) + 12, "The bag holds tokens of: " + _listed(held), size=10,
             anchor="start", fill="#222222")
    tokens = pic.render()
    return _stack(tokens, render.chains_svg(s, 0)) if level == 2 else tokens


def _favor_words(counts) -> str:
    return _listed([plural(n, f"{a} token") for a, n in zip(ANCIENTS, counts) if n]) \
        or "no Favor Token"


def _convert_why_not(s: GameState, key: str) -> tuple[str, str]:
    give, take = key.split(">")
    k = ANCIENTS.index(give)
    have = s.players[0].favors[k]
    on_cards = sum(1 for _, a in s.players[0].activated if a == give)
    if have < 2 and have + on_cards >= 2:
        return ("counted-activated",
                f"Red's supply holds {plural(have, give + ' token')}: the {give} tokens on Red's "
                "played cards are activated already and cannot be converted.")
    if have < 2 and have + s.players[1].favors[k] >= 2:
        return ("counted-other-player",
                f"Red's supply holds {plural(have, give + ' token')}; Blue's tokens are Blue's "
                "and cannot pay for Red's conversion.")
    if have < 2:
        return ("one-token" if have == 1 else "no-token",
                f"Red's supply holds {plural(have, give + ' token')}: a conversion returns two "
                "unactivated tokens of the same type.")
    if take not in s.favor_bag:
        return ("empty-bag", f"The bag holds no {take} token: the token you take comes out of "
                             "the bag (our reading of the rules).")
    return ("unjudged-option", "That conversion is not allowed here.")  # pragma: no cover


@register("pangaea.favor_convert", game=GAME.name, notebook=NB06,
          rule="Converting Favor Tokens: return 2 unactivated Favor Tokens of one type to the "
               "bag and take 1 token of another type from it",
          title="Which Favor Tokens can Red convert?",
          levels=("Red's own Favor Tokens", "played cards with activated tokens, Blue's tokens "
                                            "and the bag to look past"))
def favor_convert(seed: int, level: int) -> Exercise:
    def build(rng):
        s = _favor_position(rng, seed, level)
        if s is None:
            return None
        right = frozenset(f"{a.give}>{a.take}" for a in s.legal_actions()
                          if isinstance(a, ConvertFavor))
        options = tuple(Option(f"{g}>{t}", f"give 2 {g}, take 1 {t}") for g, t in PAIRS)
        empty = [a for a in ANCIENTS if a not in s.favor_bag]
        bag_note = (f" The bag holds no {empty[0]} token any more." if empty else "")
        red = s.players[0]
        question = (f"It is Red's turn. Red's supply holds {_favor_words(red.favors)}."
                    + (f" Blue holds {_favor_words(s.players[1].favors)}. The gold dots on "
                       "Red's played cards (drawn) are tokens already activated."
                       if level == 2 else "")
                    + bag_note + " Which conversions can Red make now? Pick all that are "
                    "allowed (none, if none is).")

        def check(answer) -> Verdict:
            return choices_verdict(
                answer, right, why_not=lambda key: _convert_why_not(s, key), missed="",
                partial=lambda given: ("missed-some", f"You picked "
                                       f"{plural(len(given), 'conversion')}; Red can make more. "
                                       "Check each type Red holds twice or more in its supply, "
                                       "and each type the bag can still give."),
                right_reason="Right: " + ("those conversions return two tokens of one type "
                                          "from Red's supply and take one the bag still holds."
                                          if right else "Red has no two tokens of one type to "
                                          "return."))

        pairs = [a for a, n in zip(ANCIENTS, red.favors) if n >= 2]
        picture = _tokens_svg(s, level)
        hints = ("A conversion needs two tokens of one type in Red's own supply; the new token "
                 "comes out of the bag.",
                 f"Red's supply: {_favor_words(red.favors)}. Which types reach two?"
                 + (" Tokens on cards do not count." if level == 2 else "")
                 + (f" Remember: the bag has no {empty[0]} token." if empty else ""))
        return Exercise(
            kind="pangaea.favor_convert", seed=seed, answer_kind="choices", answer=right,
            options=options, question=question, checker=check,
            draw=lambda m: picture,
            hints=hints,
            explanation="Rulebook, Converting Favor Tokens: two unactivated tokens of one type "
                        "go back to the bag and you take one token of your choice. Here Red "
                        f"holds two or more of: {_listed(pairs)}. Tokens on played cards are "
                        "activated and other players' tokens are not Red's. That the token taken "
                        "is of another type and must still be in the bag is our reading of the "
                        "rules.",
            context={"state": s})

    return _retry("pangaea.favor_convert", seed, level, build)


# ----------------------------------------------------------------------------------------------
# 08 — Wild Woods: what a Land Ritual pays and lowers, and the Player Board


def _row_board(rng: random.Random, cols: int):
    """Two rows of Land Spaces with a row of water between: the Ritual runs along the top."""
    spaces = {(q, 0): ("land", rng.choice(BIOMES)) for q in range(cols)}
    spaces.update({(q, 1): ("water", rng.choice(BIOMES)) for q in range(cols - 1)})
    spaces.update({(q, 2): ("land", rng.choice(BIOMES)) for q in range(-1, cols - 2)})
    return custom_board(spaces)


def _tall_trees(rng: random.Random, cells: list, owners: dict, players: int) -> dict:
    """Treetops for the Trees on ``cells`` (each player has 6 to place)."""
    left = [6] * players
    tops = {}
    for c in cells:
        k = min(rng.choice([0, 0, 1, 1, 2]), left[owners[c]])
        left[owners[c]] -= k
        if k:
            tops[c] = k
    return tops


def _ritual(rng: random.Random, seed: int, level: int) -> dict | None:
    """A Wild Woods Land Ritual by Red along a row of Trees; the state before and after."""
    players = 2 if level == 1 else 3
    cols = 6 if level == 1 else 8
    s = game(_row_board(rng, cols), seed, players=players, wild_woods=True, storms=False)
    length = rng.randint(3, 5) if level == 1 else rng.randint(4, 7)
    a = rng.randrange(0, cols - length + 1)
    path = [(q, 0) for q in range(a, a + length)]
    owners = {c: (0 if c in (path[0], path[-1]) else rng.randrange(players)) for c in path}
    below = [(q, 2) for q in range(-1, cols - 2) if rng.random() < 0.35]
    owners.update({c: rng.randrange(players) for c in below})
    s = s.arranged(trees=owners, treetops=_tall_trees(rng, path + below, owners, players))
    pair = sorted(s.board.biome[_where(s, c)] for c in (path[0], path[-1]))
    held = {c for ps in s.players[1:] for c in ps.hand}
    cards = [c.id for c in s.edition.land_cards if sorted(c.biomes) == pair and c.id not in held]
    if not cards:
        return None
    s = s.arranged(hands={0: [cards[0]]})
    if level == 2 and rng.random() < 0.5:
        s = s.arranged(ancients={"Thorondal": rng.choice(path + below)})
    if level == 2 and rng.random() < 0.3:
        s = replace(s, phase="final")
    plays = [x for x in s.legal_actions() if isinstance(x, PlayLand) and x.card == cards[0]
             and set(x.path) == set(path)]
    if not plays:
        return None
    act = plays[0]
    try:
        after = s.apply(act)
    except IllegalAction:
        return None
    return {"state": s, "after": after, "path": act.path, "card": cards[0], "owners": owners}


def _guard_words(s: GameState) -> str:
    """Where Thorondal stands, if he is on the board."""
    guard = s.ancients[2]
    return "" if guard == NOBODY else \
        f" Thorondal (the disc marked Th) stands on {s.board.cells[guard]}."


def _card_words(s: GameState, card: str) -> str:
    return "card of " + " and ".join(s.card(card).biomes)


def _woods_weather_counts(r: dict, p: int, biome: str | None) -> dict:
    """What the tokens of player ``p`` would be under each typical way of counting."""
    s = r["state"]
    mine = [c for c in r["path"] if s.trees[_where(s, c)] == p
            and (biome is None or s.board.biome[_where(s, c)] == biome)]
    every = [c for c in r["path"] if s.trees[_where(s, c)] == p]
    others = [c for c in r["path"] if s.trees[_where(s, c)] != NOBODY
              and (biome is None or s.board.biome[_where(s, c)] == biome)]
    tops = s.woods.treetops
    return {"all": len(mine), "tops": sum(tops[_where(s, c)] for c in mine),
            "levels": sum(1 + tops[_where(s, c)] for c in mine),
            "everyone": sum(1 for c in others if tops[_where(s, c)]),
            "any_weather": sum(1 for c in every if tops[_where(s, c)]),
            "mine": mine}


def _weather_misconceptions(r: dict, p: int, biome: str | None, right: int) -> dict:
    who = _name(p)
    n = _woods_weather_counts(r, p, biome)
    cands = [
        (n["all"], "counted-level-one-trees",
         f"You counted every one of {who}'s Trees on the path; a level-1 Tree pays nothing, only "
         "a higher-level Tree (level 2 or 3) pays a Weather Token."),
        (n["tops"], "counted-treetops",
         "You counted Treetops: a higher-level Tree pays one Weather Token, however many "
         "Treetops it carries."),
        (n["levels"], "counted-levels",
         "You added up the Trees' levels; each higher-level Tree pays just one token."),
        (n["everyone"], "counted-everyone",
         f"You counted the higher-level Trees of every player; the question asks what {who} "
         "gains, one token per Tree of " + who + "'s."),
    ]
    if p != 0:
        cands.append((0, "only-ritual-player",
                      "Not only the player of the Ritual gains: every owner of a higher-level "
                      f"Tree on the path takes a token for it, {who} too."))
    if biome is not None:
        cands.append((n["any_weather"], "counted-every-weather",
                      f"You counted {who}'s higher-level Trees on every weather; only those on "
                      f"{biome} spaces pay {biome} tokens."))
    return number_misconceptions(right, cands)


@register("pangaea.woods_ritual_weather", game=GAME.name, notebook=NB08,
          rule="Wild Woods, Play Ritual Card: each higher-level Tree on a Land Ritual's path pays "
               "its owner 1 Weather Token of its space's weather",
          title="What does the Land Ritual pay?",
          levels=("two players, a short path", "three players, one weather asked, Thorondal "
                                                 "and Trees off the path"))
def woods_ritual_weather(seed: int, level: int) -> Exercise:
    def build(rng):
        r = _ritual(rng, seed, level)
        if r is None:
            return None
        s, after, path = r["state"], r["after"], r["path"]
        p = rng.randrange(s.num_players)
        biome = rng.choice([s.board.biome[_where(s, c)] for c in path]) if level == 2 else None
        k = s.edition.biomes.index(biome) if biome else None
        gained = [a - b for a, b in zip(after.players[p].weather, s.players[p].weather)]
        right = gained[k] if biome else sum(gained)
        if right == 0 and rng.random() < 0.55:
            return None
        who = _name(p)
        tokens = f"{biome} Weather Tokens" if biome else "Weather Tokens"
        mine = _woods_weather_counts(r, p, None)["mine"]
        rule = (f"Go along the path and look at each of {who}'s Trees: a Tree of level 2 or 3 "
                f"pays {who} one Weather Token of its own space's weather; a level-1 Tree pays "
                "nothing.")
        question = (f"Red plays the Land Ritual {_card_words(s, r['card'])} along the drawn path "
                    f"from {path[0]} to {path[-1]}. A Tree's level (1, 2 or 3) is the number in "
                    f"its disc." + _guard_words(s)
                    + (" This is Red's final Ritual." if s.phase == "final" else "")
                    + f" How many {tokens} does {who} gain from this Ritual?")
        weathers = sorted({s.board.biome[_where(s, c)] for c in mine})
        return Exercise(
            kind="pangaea.woods_ritual_weather", seed=seed, answer_kind="number", answer=right,
            question=question,
            checker=lambda given: number_verdict(
                given, right, what=f"the number of {tokens} {who} gains", rule=rule,
                misconceptions=_weather_misconceptions(r, p, biome, right)),
            draw=lambda m: _draw(s, m, path=path),
            hints=("Only the Trees on the path count, whoever owns them; look at their levels.",
                   f"{who} has {in_words(len(mine))} Trees on the path (marked)"
                   + (f", on {_listed(weathers)} spaces" if weathers else "")
                   + ". Each one taller than level 1 pays a token of its own space's weather"
                   + (f"; only {biome} spaces pay {biome} tokens." if biome else ".")),
            hint_marks=((), tuple(mine)),
            explanation="Rulebook, Wild Woods — Play Ritual Card: every player owning a "
                        "higher-level Tree on the Land Ritual's path gains one Weather Token of "
                        "that space's weather per such Tree, the Ritual's player included, "
                        "whether or not Thorondal protects the Tree. "
                        f"Here {who} gains {right}.",
            context={"state": s, "after": after, "player": p, "path": path})

    return _retry("pangaea.woods_ritual_weather", seed, level, build)


LOWER_OPTIONS = (Option("gone", "It leaves the continent: back to its owner's supply"),
                 Option("level1", "It stands at level 1"),
                 Option("level2", "It stands at level 2"),
                 Option("level3", "It stands at level 3"))


def _lower_why_not(key: str, before: int, changes: bool, cause: tuple[str, str]
                   ) -> tuple[str, str]:
    new = 0 if key == "gone" else int(key[-1])
    if new > before:
        return ("grew", "A Land Ritual never makes a Tree taller: it can only bring Trees down.")
    if not changes:
        return cause
    if new == before:
        return ("not-lowered", "Red's own Trees on the path go down a level after the Ritual: "
                               "this one cannot stay as it is.")
    if new == 0:
        return ("removed-tall-tree", f"A level-{before} Tree loses one Treetop, not the whole "
                                     "Tree: only a level-1 Tree goes back to the supply.")
    return ("lowered-twice", "A Ritual lowers each of Red's Trees by one level only.")


def _lower_cause(s: GameState, i: int, on_path: bool) -> tuple[str, str] | None:
    """Why the Ritual leaves this Tree as it is (None: it comes down)."""
    if not on_path:
        return ("lowered-off-path", "Only Trees on the Ritual's path are affected; this Tree "
                                    "is not on it.")
    if s.trees[i] != 0:
        return ("lowered-others-tree", f"This Tree is {_name(s.trees[i])}'s: only the Trees of "
                                       "the player who performs the Ritual come down.")
    if s.ancients[2] == i:
        return ("ignored-thorondal", "Thorondal stands on this Tree: it is protected and does "
                                     "not come down.")
    if s.phase == "final":
        return ("lowered-in-final", "This is a final Ritual: in the final scoring Trees and "
                                    "Treetops stay where they are.")
    return None


@register("pangaea.woods_ritual_lower", game=GAME.name, notebook=NB08,
          rule="Wild Woods, Play Ritual Card: after a Land Ritual each of your Trees on its path "
               "goes down a level (a level-1 Tree back to the supply), unless Thorondal "
               "protects it; not in the final Rituals",
          title="What becomes of this Tree?",
          levels=("one Tree on a two-player path", "three players, Thorondal, Trees off the "
                                                   "path and final Rituals"))
def woods_ritual_lower(seed: int, level: int) -> Exercise:
    def build(rng):
        r = _ritual(rng, seed, level)
        if r is None:
            return None
        s, after, path = r["state"], r["after"], r["path"]
        pool = list(path) + ([c for c in r["owners"] if c not in path] if level == 2 else [])
        x = rng.choice(pool)
        i = _where(s, x)
        before = woods.level(s, i)
        right = "gone" if after.trees[i] == NOBODY else f"level{woods.level(after, i)}"
        if right == f"level{before}" and rng.random() < 0.5:
            return None
        cause = _lower_cause(s, i, x in path)
        owner = _name(s.trees[i])
        guard = s.ancients[2]
        question = (f"Red plays the Land Ritual {_card_words(s, r['card'])} along the drawn path "
                    f"from {path[0]} to {path[-1]}. The Tree marked X, on {x}, is {owner}'s; its "
                    "level is the number in its disc." + _guard_words(s)
                    + (" This is Red's final Ritual of the game." if s.phase == "final" else "")
                    + " What becomes of it once the Ritual is done?")
        pointer = (f"The Tree on {x} is {owner}'s, at level {before}, "
                   + ("on the path" if x in path else "off the path")
                   + (", under Thorondal" if guard == i else "")
                   + (", in a final Ritual" if s.phase == "final" else "")
                   + ". Only Red's own Trees on the path come down, one level each.")
        return Exercise(
            kind="pangaea.woods_ritual_lower", seed=seed, answer_kind="choice", answer=right,
            options=LOWER_OPTIONS, question=question,
            checker=lambda given: choice_verdict(
                given, right,
                why_not=lambda k: _lower_why_not(k, before, cause is None, cause or ("", "")),
                right_reason="Right: " + ("Red's Trees on the path go down one level."
                                          if cause is None else
                                          "it stays as it was. " + cause[1])),
            draw=lambda m: _draw(s, m, path=path, fixed={x: "X"}),
            hints=("Ask three things: is the Tree on the path, is it Red's, and does anything "
                   "protect it?", pointer),
            explanation="Rulebook, Wild Woods — Play Ritual Card: after a Land Ritual each of "
                        "the Ritual player's Trees on the path goes down one level: a level-1 "
                        "Tree goes back to the supply, a taller one gives one Treetop back to an "
                        "empty slot of the Player Board. Thorondal's Tree is spared, other "
                        "players' Trees are not touched, and in the final Rituals nothing comes "
                        "down.",
            context={"state": s, "after": after, "tree": x, "path": path})

    return _retry("pangaea.woods_ritual_lower", seed, level, build)


def _with_board(s: GameState, p: int, empty: set[int]) -> GameState:
    """Player ``p``'s Player Board with exactly the slots ``empty`` free (Treetops returned
    to other slots during the game may have refilled the first ones)."""
    data = woods_data(s.edition)
    pb = s.woods.player_boards[p]
    slots = tuple(k not in empty for k in range(len(data.slots)))
    unlocked = tuple(pb.unlocked[n] or not any(slots[j] for j in data.slots_of_seed(n))
                     for n in range(data.extra_seeds))
    board = replace(pb, slots=slots, unlocked=unlocked,
                    blessings=tuple(b if slots[k] else "" for k, b in enumerate(pb.blessings)))
    more = unlocked.count(True) - pb.unlocked.count(True)
    boards = list(s.woods.player_boards)
    boards[p] = board
    players = list(s.players)
    players[p] = replace(players[p], seeds=players[p].seeds + more)
    return replace(s, woods=replace(s.woods, player_boards=tuple(boards)), players=tuple(players))


def _final_woods(rng: random.Random, seed: int, trees_each: list[int]) -> GameState | None:
    """A finished Wild Woods game: Trees with Treetops on a small board and Player Boards
    with random free slots (as many as the Treetops on the continent)."""
    s = _woods(rng, seed, cols=7, rows=5, water=0.25)
    land = [s.board.cells[i] for i in s.board.land]
    rng.shuffle(land)
    trees, tops, empties = {}, {}, []
    for p, n in enumerate(trees_each):
        cells = [land.pop() for _ in range(n)]
        free = {k for k in range(6) if rng.random() < 0.5}
        while len(free) > 2 * n:
            free.discard(max(free))
        empties.append(free)
        trees.update({c: p for c in cells})
        left = len(free)
        for c in cells:
            k = min(2, left)
            left -= k
            if k:
                tops[c] = k
    s = s.arranged(trees=trees, treetops=tops)
    for p, free in enumerate(empties):
        s = _with_board(s, p, free)
    s = replace(s, phase="over", end_triggered=True)
    return s if _valid(s) else None


def _board_only(s: GameState, p: int) -> str:
    """A Player Board drawn without its heading's count of points (that is the question)."""
    svg = woods_render.player_board_svg(s, p)
    return re.sub(r" · free slots worth \d+ points?", "", svg, count=1)


def _printed_points(s: GameState) -> str:
    return _listed([f"the {ORDINALS[k]} slot scores {slot.points}"
                    for k, slot in enumerate(woods_data(s.edition).slots) if slot.points])


def _board_counts(s: GameState, p: int) -> dict:
    data = woods_data(s.edition)
    pb = s.woods.player_boards[p]
    free = [k for k, full in enumerate(pb.slots) if not full]
    return {"free": free, "full_points": sum(data.slots[k].points for k in range(6)
                                             if pb.slots[k]),
            "costs": sum(data.slots[k].cost for k in free),
            "all": sum(slot.points for slot in data.slots)}


def _board_misconceptions(s: GameState, p: int, right: int, base: int) -> list:
    n = _board_counts(s, p)
    return [
        (base + n["full_points"], "counted-full-slots",
         "You added the points of slots that still hold a Treetop; a slot scores only once it "
         "is empty."),
        (base + n["costs"], "counted-costs",
         "You added the costs of the empty slots; a slot scores the points printed under it, "
         "not its cost."),
        (base + len(n["free"]), "counted-empty-slots",
         "An empty slot does not score one point each: read the points printed under each "
         "empty slot (most slots print none)."),
        (base + n["all"], "counted-every-slot",
         "You counted the points of every slot; only the empty slots score."),
    ]


@register("pangaea.board_points", game=GAME.name, notebook=NB08,
          rule="Wild Woods, Final Scoring: each empty slot of your Player Board scores the points "
               "printed on it",
          title="What does the Player Board score?",
          levels=("the Player Boards alone", "a whole final score: Rituals, Most Trees and the "
                                             "Player Board"))
def board_points(seed: int, level: int) -> Exercise:
    if level == 2:
        return _final_total(seed)

    def build(rng):
        s = _final_woods(rng, seed, [rng.randint(1, 4), rng.randint(1, 4)])
        if s is None:
            return None
        p = rng.randrange(2)
        who, other = _name(p), _name(1 - p)
        right = dict(s.scores()[p].categories)["Player Board"]
        theirs = dict(s.scores()[1 - p].categories)["Player Board"]
        cands = _board_misconceptions(s, p, right, 0) + [
            (theirs, "read-other-board", f"That is what {other}'s board scores; the question "
                                         f"asks about {who}'s.")]
        free = _board_counts(s, p)["free"]
        pic = _stack(_board_only(s, 0), _board_only(s, 1))
        return Exercise(
            kind="pangaea.board_points", seed=seed, answer_kind="number", answer=right,
            question=f"The game is over. Both Player Boards are drawn, Red's on top. How many "
                     f"points does {who}'s Player Board add in the final scoring?",
            checker=lambda given: number_verdict(
                given, right, what=f"what {who}'s Player Board scores",
                rule=f"Look at {who}'s board only: each empty slot scores the points printed "
                     "under it; a slot holding a Treetop scores nothing.",
                misconceptions=number_misconceptions(right, cands)),
            draw=lambda m: pic,
            hints=("Only the empty slots of a Player Board score, each what is printed under it.",
                   f"{who}'s board has {in_words(len(free))} empty slots"
                   + (f": the {_listed([ORDINALS[k] for k in free])}" if free else "")
                   + ". Read the points printed under each of them."),
            explanation="Rulebook, Wild Woods — Final Scoring: every free slot of your Player "
                        "Board scores the points printed on it. On this project's reference "
                        "board (our reading, since the rulebook only mentions +3 and +2) "
                        + _printed_points(s) + f" when empty. {who}'s board adds {right}.",
            context={"state": s, "player": p})

    return _retry("pangaea.board_points", seed, level, build)


def _final_total(seed: int) -> Exercise:
    def build(rng):
        counts = [rng.randint(2, 7), rng.randint(2, 7)]
        s = _final_woods(rng, seed, counts)
        if s is None:
            return None
        p = rng.randrange(2)
        pts = rng.randint(8, 28)
        s = s.arranged(points={p: pts})
        s = replace(s, phase="over")
        cats = dict(s.scores()[p].categories)
        right = sum(cats.values())
        who = _name(p)
        bonus = s.edition.most_trees_bonus
        most = cats["Most Trees"]
        cands = [(right - cats["Player Board"], "forgot-board",
                  "You left out the Player Board: its empty slots score in the final scoring."),
                 (right - most, "forgot-most-trees",
                  f"You left out the Most Trees bonus, and {who} holds it."),
                 (right + bonus if not most else -1, "most-trees-not-held",
                  f"{who} does not hold Most Trees: that needs at least 5 Trees and more Trees "
                  "than anyone else.")]
        cands += _board_misconceptions(s, p, cats["Player Board"], pts + most)
        mine = [s.board.cells[i] for i in s.board.land if s.trees[i] == p]
        return Exercise(
            kind="pangaea.board_points", seed=seed, answer_kind="number", answer=right,
            question=f"The game is over. {who}'s Rituals brought {pts} points on the Sacred "
                     f"Mountain. The continent and {who}'s Player Board are drawn. Most Trees "
                     f"(at least 5 Trees, more than anyone else) adds {bonus}. What is {who}'s "
                     "final score?",
            checker=lambda given: number_verdict(
                given, right, what=f"{who}'s final score",
                rule="Add the Ritual points, the Most Trees bonus if held, and the points printed "
                     f"under the empty slots of {who}'s Player Board.",
                misconceptions=number_misconceptions(right, cands)),
            draw=lambda m: _stack(_draw(s, m), _board_only(s, p)),
            hints=("Three parts: the Ritual points, Most Trees, and the empty slots of the "
                   "Player Board.",
                   f"{who} has {in_words(len(mine))} Trees on the continent (marked) and "
                   f"{in_words(len(_board_counts(s, p)['free']))} empty slots on its board; "
                   "count the other colour's Trees too."),
            hint_marks=((), tuple(mine)),
            explanation="Rulebook, Wild Woods — Final Scoring: the base game's final scoring "
                        "(Ritual points and Most Trees) plus the points on the empty slots of "
                        f"the Player Board. {who}: " + ", ".join(
                            f"{k} {v}" for k, v in cats.items()) + f"; {right} in all.",
            context={"state": s, "player": p})

    return _retry("pangaea.board_points", seed, 2, build)


# ----------------------------------------------------------------------------------------------
# 07 — Return of the Ancients: the Dream and Devour markers, and how the team loses


def _on_top(s: GameState, marker: str) -> GameState | None:
    """``marker`` on top of the Shadow Bag: taken from the bag, or swapped with the bag's first
    marker from the box or a later Moon Cycle."""
    co = s.coop
    bag, box = list(co.shadow_bag), list(co.shadow_box)
    board = [list(c) for c in co.moon_board]
    if marker in bag:
        bag.remove(marker)
    else:
        source = next((x for x in [box] + board if marker in x), None)
        if source is None or not bag:
            return None
        source.remove(marker)
        source.append(bag.pop(0))
    return replace(s, coop=replace(co, shadow_bag=(marker,) + tuple(bag), shadow_box=tuple(box),
                                   moon_board=tuple(tuple(c) for c in board)))


def _shadow_turn(s: GameState, mover: int) -> GameState:
    """``mover`` has just ended the turn and now takes the Shadow Phase."""
    return replace(s, turn_player=(mover + 1) % s.num_players, actions_taken=0,
                   decisions=(Pending("shadow", mover),))


def _clear(s: GameState, cell) -> GameState:
    i = _where(s, cell)
    if s.board.terrain[i] != "land":
        return s
    return s.arranged(trees={cell: None}, seeds={cell: None})


def _scenario_target(s: GameState, rng: random.Random, scenario: str):
    """A space the Shadow may reach that fits ``scenario``, cleared for it (or None)."""
    b = s.board
    targets = [b.cells[i] for i in shadow_targets(s)]
    rng.shuffle(targets)
    want_land = scenario not in ("water", "scourged") or rng.random() < 0.6
    for c in targets:
        i = _where(s, c)
        if (b.terrain[i] == "land") != want_land or i in s.coop.scourged:
            continue
        return c
    return None


def _dress(s: GameState, scenario: str, target, owner: int) -> GameState:
    """Put on ``target`` what ``scenario`` asks for."""
    s = _clear(s, target)
    if scenario.startswith("tree"):
        return s.arranged(trees={target: owner})
    if scenario == "seed":
        return s.arranged(seeds={target: owner})
    if scenario == "scourged":
        return _scourge(s, [target])
    return s


def _distractors(s: GameState, rng: random.Random, target, count: int) -> GameState:
    """Trees and Seeds of any player on other free Land Spaces near the Shadow."""
    b = s.board
    near = [b.cells[i] for i in shadow_targets(s) if b.terrain[i] == "land"
            and b.cells[i] != target and i not in s.coop.scourged
            and s.trees[i] == NOBODY and s.seeds[i] == NOBODY]
    rng.shuffle(near)
    for c in near[:count]:
        p = rng.randrange(s.num_players)
        if rng.random() < 0.6 and s.players[p].trees:
            s = s.arranged(trees={c: p})
        elif s.players[p].seeds:
            s = s.arranged(seeds={c: p})
    return s


def _no_seeds_left(s: GameState, p: int, target) -> GameState | None:
    """Player ``p``'s Seeds in supply all placed on free Land Spaces away from ``target``."""
    b = s.board
    free = [b.cells[i] for i in b.land if s.trees[i] == NOBODY and s.seeds[i] == NOBODY
            and i not in s.coop.scourged and b.cells[i] != target]
    if len(free) < s.players[p].seeds:
        return None
    return s.arranged(seeds={c: p for c in free[-s.players[p].seeds:]}) if s.players[p].seeds else s


def _shadow_position(rng: random.Random, seed: int, level: int, marker: str,
                     scenario: str) -> dict | None:
    """A Shadow Phase about to move onto a target dressed for ``scenario``, ``marker`` next."""
    players = rng.choice([1, 2, 2]) if level == 1 else rng.choice([3, 4])
    s = _coop(rng, seed, players=players)
    target = _scenario_target(s, rng, scenario)
    if target is None:
        return None
    owner = rng.randrange(players)
    s = _dress(s, scenario, target, owner)
    if level == 2:
        s = _distractors(s, rng, target, rng.randint(2, 4))
    if scenario == "tree-bare":
        s = _no_seeds_left(s, owner, target)
        if s is None:
            return None
    mover = rng.randrange(players)
    waiting = _on_top(_shadow_turn(s, mover), marker)
    if waiting is None or not _valid(waiting) or _where(s, target) not in shadow_targets(waiting):
        return None
    after = waiting.apply(MoveShadow(target))
    return {"state": waiting, "after": after, "target": target, "mover": mover,
            "i": _where(s, target)}


def _space_words(s: GameState, i: int) -> str:
    """What stands on a space, in words."""
    b = s.board
    kind = f"{b.biome[i]} {'Land' if b.terrain[i] == 'land' else 'Water'} Space"
    if s.trees[i] != NOBODY:
        return f"a {kind} with {_name(s.trees[i])}'s Tree"
    if s.seeds[i] != NOBODY:
        return f"a {kind} with {_name(s.seeds[i])}'s Seed"
    if i in s.coop.scourged:
        return f"a scourged {kind}"
    return f"an empty {kind}"


def _no_tree_reason(s: GameState, i: int) -> tuple[str, str]:
    """Why no Tree stands under the Shadow when the marker is drawn."""
    if s.seeds[i] != NOBODY:
        return ("seed-for-tree", "A Seed is not a Tree: the marker finds no Tree under the "
                                 "Shadow.")
    if i in s.coop.scourged:
        return ("marker-on-scourge", "The space is scourged and holds no Tree: the marker finds "
                                     "no Tree under the Shadow.")
    if s.board.terrain[i] == "water":
        return ("marker-on-water", "A Water Space holds no Tree: the marker finds no Tree under "
                                   "the Shadow.")
    return ("marker-on-empty", "The space was empty, so the Shadow scourged it; with no Tree "
                               "there the marker finds nothing to act on.")


def _dream_options(s: GameState, biome: str, other: str) -> tuple[Option, ...]:
    out = [Option(f"{p}:{b}", f"{_name(p)} takes 1 {b} Weather Token")
           for p in range(s.num_players) for b in BIOMES if b in (biome, other)]
    return tuple(out) + (Option("none", "Nobody takes a Weather Token"),)


def _dream_why_not(s: GameState, i: int, mover: int, biome: str, key: str) -> tuple[str, str]:
    if key == "none":
        return ("missed-dream", "A Tree stands under the Shadow when the Dream is drawn: a "
                                "Dream pays that Tree's owner.")
    if s.trees[i] == NOBODY:
        return _no_tree_reason(s, i)
    p, b = key.split(":")
    p = int(p)
    if p != s.trees[i]:
        if p == mover:
            return ("mover-gains", f"{_name(p)} moved the Shadow, but the Dream pays the owner "
                                   "of the Tree under it.")
        return ("wrong-owner", f"The Tree under the Shadow is not {_name(p)}'s.")
    return ("wrong-weather", f"The token is of the weather of the Shadow's space, and that is "
                             f"not {b}: read the letters on {s.board.cells[i]} again.")


@register("pangaea.dream_effect", game=GAME.name, notebook=NB07,
          rule="Shadow Phase, Dream: if the Shadow stands on a Tree, its owner takes 1 Weather "
               "Token of that space's biome",
          title="What does the Dream give?",
          levels=("one or two players, the Shadow's space alone", "three or four players, "
                                                              "Trees and Seeds all around"))
def dream_effect(seed: int, level: int) -> Exercise:
    def build(rng):
        scenario = rng.choices(["tree", "seed", "empty", "scourged", "water"],
                               [15, 3, 3, 2, 2])[0]
        r = _shadow_position(rng, seed, level, "Dream", scenario)
        if r is None:
            return None
        s, after, i, mover, target = r["state"], r["after"], r["i"], r["mover"], r["target"]
        gains = [(p, k) for p in range(s.num_players) for k in range(4)
                 if after.players[p].weather[k] > s.players[p].weather[k]]
        right = f"{gains[0][0]}:{s.edition.biomes[gains[0][1]]}" if gains else "none"
        biome = s.board.biome[i]
        other = rng.choice([b for b in BIOMES if b != biome])
        who = _name(mover)
        return Exercise(
            kind="pangaea.dream_effect", seed=seed, answer_kind="choice", answer=right,
            options=_dream_options(s, biome, other),
            question=f"Shadow Phase: {who} has just ended the turn and moves the Spirit of "
                     f"Shadows to {target} (marked X). The Shadow Marker drawn next is a Dream. "
                     "What does the Dream do? (Dark hexes are Scourge; the letters on a space "
                     "give its weather.)",
            checker=lambda given: choice_verdict(
                given, right,
                why_not=lambda k: _dream_why_not(s, i, mover, biome, k),
                right_reason="Right: " + ("a Dream pays the owner of the Tree under the "
                                          "Shadow one token of that space's weather."
                                          if gains else "with no Tree under the Shadow, the "
                                          "Dream gives nothing.")),
            draw=lambda m: _draw(s, m, fixed={target: "X"}),
            hints=("First see what the Shadow's move leaves on its new space; a Dream only cares "
                   "about a Tree there.",
                   f"{target} is {_space_words(s, i)}. Whose Tree, if any, stands there when the "
                   "Dream is drawn, and what weather is the space?"),
            hint_marks=((), (target,)),
            explanation="Rulebook, Shadow Phase: the Shadow first acts on its new space (a Tree "
                        "or Seed stops it, an empty space is scourged, a scourged one pulls the "
                        "Ancients down); then a Dream gives the owner of a Tree under the Shadow "
                        "one Weather Token of that space's biome, whoever moved the Shadow.",
            context={"state": s, "after": after, "target": target})

    return _retry("pangaea.dream_effect", seed, level, build)


DEVOUR_OPTIONS = (Option("tree-seed", "The Tree is removed; its owner may leave a Seed there"),
                  Option("tree", "The Tree is removed, and no Seed can be left there"),
                  Option("seed", "The Seed goes back to its owner's supply"),
                  Option("nothing", "Nothing more happens"))


def _devour_result(s: GameState, after: GameState, i: int) -> str:
    """What the engine's Devour did on space ``i``."""
    if s.trees[i] != NOBODY and after.trees[i] == NOBODY:
        waiting = after.pending is not None and after.pending.kind == "devour"
        return "tree-seed" if waiting else "tree"
    if s.seeds[i] != NOBODY and after.seeds[i] == NOBODY:
        return "seed"
    return "nothing"


def _devour_why_not(s: GameState, i: int, key: str) -> tuple[str, str]:
    tree, seed = s.trees[i], s.seeds[i]
    if key in ("tree-seed", "tree") and tree == NOBODY:
        return ("devour-no-tree", "There is no Tree under the Shadow for the Devour to remove.")
    if key == "tree-seed":
        return ("seed-without-supply", f"{_name(tree)} has no Seed left in its supply, so none "
                                       "can be left behind (our reading of the rules: the Seed "
                                       "left comes from the owner's supply).")
    if key == "tree":
        return ("forgot-leave-seed", f"{_name(tree)} still has a Seed in its supply: the owner "
                                     "of a devoured Tree may leave one behind.")
    if key == "seed":
        if tree != NOBODY:
            return ("tree-for-seed", "It is a Tree under the Shadow, not a Seed: the Devour "
                                     "acts on the Tree.")
        return ("devour-no-seed", "No Seed lies under the Shadow when the Devour is drawn.")
    if tree != NOBODY:
        return ("spared-tree", "A Devour does not spare the Tree under the Shadow.")
    return ("spared-seed", "A Devour takes back a Seed under the Shadow too.")


@register("pangaea.devour_effect", game=GAME.name, notebook=NB07,
          rule="Shadow Phase, Devour: the Tree under the Shadow is removed (its owner may leave a "
               "Seed); a Seed there goes back to its owner",
          title="What does the Devour do?",
          levels=("one or two players, the Shadow's space alone", "three or four players, "
                                                              "Trees and Seeds all around"))
def devour_effect(seed: int, level: int) -> Exercise:
    def build(rng):
        scenario = rng.choices(["tree", "tree-bare", "seed", "empty", "scourged", "water"],
                               [6, 4, 5, 2, 2, 1])[0]
        r = _shadow_position(rng, seed, level, "Devour", scenario)
        if r is None:
            return None
        s, after, i, mover, target = r["state"], r["after"], r["i"], r["mover"], r["target"]
        right = _devour_result(s, after, i)
        tree = s.trees[i]
        supply = (f" {_name(tree)} has {in_words(s.players[tree].seeds)} Seeds in its supply."
                  if tree != NOBODY else "")
        return Exercise(
            kind="pangaea.devour_effect", seed=seed, answer_kind="choice", answer=right,
            options=DEVOUR_OPTIONS,
            question=f"Shadow Phase: {_name(mover)} has just ended the turn and moves the Spirit "
                     f"of Shadows to {target} (marked X). The Shadow Marker drawn next is a "
                     "Devour. What does the Devour do? (Dark hexes are Scourge.)",
            checker=lambda given: choice_verdict(
                given, right,
                why_not=lambda k: _devour_why_not(s, i, k),
                right_reason="Right: the Devour acts on what stands under the Shadow."),
            draw=lambda m: _draw(s, m, fixed={target: "X"}),
            hints=("First see what the Shadow's move leaves on its new space; then the Devour "
                   "acts on it.",
                   f"{target} is {_space_words(s, i)}.{supply}"),
            hint_marks=((), (target,)),
            explanation="Rulebook, Shadow Phase: a Devour removes the Tree under the Shadow and "
                        "its owner may leave a Seed there; a Seed under the Shadow goes back to "
                        "its owner. With nothing there (an empty space has just been scourged), "
                        "nothing more happens. Our reading of the rules: the Seed left behind "
                        "comes from the owner's supply, so an owner with none left cannot leave "
                        "one.",
            context={"state": s, "after": after, "target": target})

    return _retry("pangaea.devour_effect", seed, level, build)


LOSS_OPTIONS = (Option("on", "The game goes on"),
                Option("dance", "Lost: an Ancient Marker reaches the Dance Marker"),
                Option("scourge", "Lost: the last Scourge Marker is placed"),
                Option("cycle", "Lost: the third Moon Cycle ends"))


def _moon(s: GameState, rng: random.Random, cycle: int, bag_size: int, top: str,
          low: int) -> GameState | None:
    """The Moon Board at ``cycle`` with ``bag_size`` markers in the bag, ``top`` first; the
    markers drawn so far lie in stacks (each earlier stack ends with a Dance), and the Devour
    Markers the Ancients have passed are in play."""
    co = s.coop
    later = [list(c) for c in co.moon_board]
    pool = list(co.shadow_bag) + [m for st in co.moon_stacks for m in st]
    for c in later[:cycle - 1]:
        pool += c
    kept = tuple(x for x in co.devour_steps if x < low - 5)
    pool += ["Devour"] * (len(co.devour_steps) - len(kept))
    if top not in pool or bag_size - 1 > len(pool) - 1:
        return None
    pool.remove(top)
    rng.shuffle(pool)
    bag, drawn = [top] + pool[:bag_size - 1], pool[bag_size - 1:]
    dances = [m for m in drawn if m == "Dance"]
    others = [m for m in drawn if m != "Dance"]
    cut = rng.randint(0, min(3, len(others))) if dances else len(others)
    stacks = [tuple((others[cut:] if j == 0 else []) + [d]) for j, d in enumerate(dances)]
    if others[:cut]:
        stacks.append(tuple(others[:cut]))
    return replace(s, coop=replace(co, cycle=cycle, shadow_bag=tuple(bag),
                                   moon_stacks=tuple(stacks), devour_steps=kept,
                                   moon_board=tuple(tuple(c) for c in later[cycle - 1:])))


def _threats(rng: random.Random, level: int) -> set[str]:
    if level == 2:
        return {"dance", "scourge", "cycle"}
    return {rng.choice(["dance", "dance", "scourge", "scourge", "cycle", "none"])}


def _supply_down(s: GameState, rng: random.Random, want: int, target) -> GameState | None:
    """Scourge Markers on empty spaces far from ``target`` until the supply holds ``want``."""
    b = s.board
    blocked = {i for i in s.spirits if i != NOBODY} | {_where(s, target), s.coop.shadow}
    free = [b.cells[i] for i in range(len(b)) if i not in s.coop.scourged and i not in blocked
            and s.trees[i] == NOBODY and s.seeds[i] == NOBODY]
    rng.shuffle(free)
    extra = s.coop.scourge_supply - want
    if extra < 0 or extra > len(free):
        return None
    return _scourge(s, free[:extra]) if extra else s


def _loss_setup(rng: random.Random, seed: int, level: int) -> dict | None:
    players = rng.choice([1, 2]) if level == 1 else rng.choice([2, 3, 4])
    s = _coop(rng, seed, players=players)
    threats = _threats(rng, level)
    scenario = rng.choice(["tree", "empty", "scourged"]
                          + (["scourged"] if "dance" in threats else [])
                          + (["empty"] if "scourge" in threats else []))
    target = _scenario_target(s, rng, "tree" if scenario == "tree" else "empty")
    if target is None:
        return None
    s = _dress(s, scenario, target, rng.randrange(players))
    top = rng.choice(["Dream", "Devour", "Dance", "Dance"])
    dance = coop_data(s.edition).dance_step
    low = (dance + rng.randint(1, 2 + level) if "dance" in threats
           else rng.randint(25, 27))
    steps = [low] + [low + rng.randint(0, 3) for _ in range(2)]
    rng.shuffle(steps)
    s = replace(s, coop=replace(s.coop, ancient_steps=tuple(steps)))
    want = rng.randint(1, 1 + players) if "scourge" in threats else s.coop.scourge_supply
    s = _supply_down(s, rng, want, target)
    cycle = 3 if "cycle" in threats else rng.choice([1, 2])
    bag = rng.choice([1, 1, 2]) if "cycle" in threats else rng.randint(1, 4)
    s = s and _moon(s, rng, cycle, bag, top, low)
    if s is None:
        return None
    mover = rng.randrange(players)
    waiting = _shadow_turn(s, mover)
    if not _valid(waiting) or _where(s, target) not in shadow_targets(waiting):
        return None
    return {"state": waiting, "target": target, "top": top, "mover": mover}


def _play_out(s: GameState, target) -> GameState:
    """The Shadow Phase to its end: the move, the marker, and the Scourge it spreads."""
    after = s.apply(MoveShadow(target))
    while not after.is_over and after.pending is not None and after.pending.kind in (
            "scourge", "devour"):
        after = after.apply(after.legal_actions()[0])
    return after


def _loss_facts(s: GameState, target, top: str) -> dict:
    """What this Shadow Phase would do to each of the three counters, taken alone."""
    co = s.coop
    i = _where(s, target)
    empty = s.trees[i] == NOBODY and s.seeds[i] == NOBODY
    stack = list(co.moon_stacks[-1]) if co.moon_stacks and co.moon_stacks[-1][-1] != "Dance" \
        else []
    black = coop_data(s.edition).black
    fall = (1 if empty and i in co.scourged else 0) + (
        sum(1 for m in stack + [top] if m in black) if top == "Dance" else 0)
    placed = (1 if empty and i not in co.scourged else 0) + (
        s.num_players if top == "Dance" else 0)
    low = min(co.ancient_steps)
    dance = coop_data(s.edition).dance_step
    return {"fall": fall, "placed": placed, "low": low, "dance": dance, "stack": stack,
            "dance_would": low - fall <= dance, "scourge_would": placed >= co.scourge_supply,
            "cycle_would": co.cycle == 3 and len(co.shadow_bag) == 1}


def _loss_result(after: GameState) -> str:
    if after.coop.result != "lost":
        return "on"
    reason = after.end_reason
    return "dance" if "Dance" in reason else "scourge" if "Scourge" in reason else "cycle"


def _loss_why_not(f: dict, s: GameState, key: str) -> tuple[str, str]:
    earlier = ("order", "That would come too, but the game is already lost earlier in this "
                        "Shadow Phase: follow it in order, the move first, then the marker.")
    co = s.coop
    if key == "on":
        return ("missed-loss", "Something reaches its limit in this Shadow Phase: check the "
                               "Ancient Markers against the Dance Marker, the Scourge supply "
                               "and the Moon Cycle.")
    if key == "dance":
        if f["dance_would"]:
            return earlier
        return ("dance-miscounted", f"The lowest Ancient Marker stands on step {f['low']} and "
                                    f"the Dance Marker on step {f['dance']}: this Shadow Phase "
                                    "does not bring it down that far.")
    if key == "scourge":
        if f["scourge_would"]:
            return earlier
        held = plural(co.scourge_supply, "Scourge Marker")
        return ("scourge-miscounted", f"The supply holds {held}: this Shadow Phase places "
                                      "fewer than that.")
    if f["cycle_would"]:
        return earlier
    if co.cycle < 3:
        return ("cycle-too-early", f"This is Moon Cycle {co.cycle}: only the end of the third "
                                   "Moon Cycle loses the game.")
    return ("cycle-bag-left", "The bag still holds markers after this draw: a Moon Cycle ends "
                              "only when its bag is empty.")


def _loss_question(s: GameState, target, top: str, mover: int) -> str:
    co = s.coop
    f = _loss_facts(s, target, top)
    return (f"Shadow Phase: {_name(mover)} has just ended the turn and moves the Spirit of "
            f"Shadows to {target} (marked X); the next Shadow Marker in the bag is a {top}. "
            f"Ancient Markers on steps {_listed([str(x) for x in co.ancient_steps])}, the "
            f"Dance Marker on step {f['dance']}; {plural(co.scourge_supply, 'Scourge Marker')} "
            f"in the supply; Moon Cycle {co.cycle} of 3 with "
            f"{plural(len(co.shadow_bag), 'marker')} in the bag; the current stack on the Moon "
            f"Board: {', '.join(f['stack']) or 'empty'}. What happens?")


def _loss_pointer(s: GameState, target, top: str) -> str:
    i = _where(s, target)
    effect = {"Dream": "touches none of the three limits",
              "Devour": "touches none of the three limits",
              "Dance": f"places {plural(s.num_players, 'Scourge Marker')} and lowers every "
                       "Ancient Marker by the black markers of its stack (Devour and Dance, "
                       "the Dance included)"}
    if s.trees[i] != NOBODY or s.seeds[i] != NOBODY:
        move = "which stops it"
    elif i in s.coop.scourged:
        move = "which pulls every Ancient Marker down one step"
    else:
        move = "which it scourges with a marker from the supply"
    return (f"The Shadow lands on {_space_words(s, i)}, {move}; then the {top} {effect[top]}. "
            "Compare with the Dance Marker, the supply and the bag.")


@register("pangaea.coop_loss", game=GAME.name, notebook=NB07,
          rule="End of the Game (Solo/Co-op): the team loses when the third Moon Cycle ends, an "
               "Ancient Marker reaches the Dance Marker, or the last Scourge Marker is placed",
          title="Is the co-op game lost?",
          levels=("one danger close at a time", "every danger close at once, with several "
                                                "players"))
def coop_loss(seed: int, level: int) -> Exercise:
    def build(rng):
        r = _loss_setup(rng, seed, level)
        if r is None:
            return None
        s, target, top = r["state"], r["target"], r["top"]
        after = _play_out(s, target)
        right = _loss_result(after)
        f = _loss_facts(s, target, top)
        would = {k for k in ("dance", "scourge", "cycle") if f[k + "_would"]}
        if (right == "on") != (not would) or (right != "on" and right not in would):
            return None     # the counters read off the position disagree: not a fair question
        if right == "on" and rng.random() < 0.5:
            return None
        return Exercise(
            kind="pangaea.coop_loss", seed=seed, answer_kind="choice", answer=right,
            options=LOSS_OPTIONS, question=_loss_question(s, target, top, r["mover"]),
            checker=lambda given: choice_verdict(
                given, right,
                why_not=lambda k: _loss_why_not(f, s, k),
                right_reason="Right: " + ("none of the three limits is reached."
                                          if right == "on" else
                                          "that is the first limit this Shadow Phase "
                                          "reaches, and the game ends at once.")),
            draw=lambda m: _draw(s, m, fixed={target: "X"}, status=True),
            hints=("Follow the Shadow Phase in order: what the Shadow does on its new space, then "
                   "the marker drawn, then whether the bag is empty.",
                   _loss_pointer(s, target, top)),
            hint_marks=((), (target,)),
            explanation="Rulebook, End of the Game (Solo/Co-op): the team loses when the third "
                        "Moon Cycle ends before all Ancients have returned, when an Ancient "
                        "Marker reaches the Dance Marker, or when the last Scourge Marker is "
                        "placed; the game ends at the first of these. That Devour and Dance "
                        "are the black markers a Dance counts is our reading of the rules. "
                        f"Here: {after.end_reason or 'the game goes on'}.",
            context={"state": s, "after": after, "target": target})

    return _retry("pangaea.coop_loss", seed, level, build)
