"""The exercise kinds of ``pangaea_lab.pangaea.exercises.modes``: converting Favor Tokens
(notebook 06), the Dream and Devour Shadow Markers and how the co-op game is lost (notebook 07),
and what a Wild Woods Land Ritual pays and lowers and what the Player Board scores (notebook 08).

Each rule sentence of the rulebook is checked against the answers (named by its section), every
right answer is accepted, and the typical wrong answers get their own diagnosis without the
right answer in it.
"""

import collections
import json
import re
from pathlib import Path

import pytest

from pangaea_lab import exercises
from pangaea_lab.pangaea import woods
from pangaea_lab.pangaea.actions import ConvertFavor
from pangaea_lab.pangaea.coop import coop_data
from pangaea_lab.pangaea.edition import ANCIENTS, woods_data
from pangaea_lab.pangaea.rituals import NOBODY

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
KEYS = {
    "pangaea.favor_convert": "pangaea/06_chains_and_favor.ipynb",
    "pangaea.dream_effect": "pangaea/07_return_of_the_ancients.ipynb",
    "pangaea.devour_effect": "pangaea/07_return_of_the_ancients.ipynb",
    "pangaea.coop_loss": "pangaea/07_return_of_the_ancients.ipynb",
    "pangaea.woods_ritual_weather": "pangaea/08_wild_woods.ipynb",
    "pangaea.woods_ritual_lower": "pangaea/08_wild_woods.ipynb",
    "pangaea.board_points": "pangaea/08_wild_woods.ipynb",
}
CASES = [(key, level) for key in KEYS for level in (1, 2)]
SEEDS = range(40)


def made(key, seed, level):
    return exercises.generate(key, seed, level=level)


def where(s, cell):
    return s.board.index[tuple(cell)]


def diagnoses(key, levels=(1, 2), seeds=range(60)):
    """misconception -> the reasons given for it, over many positions (every wrong option,
    or the typical wrong numbers the kind knows)."""
    found = collections.defaultdict(list)
    for level in levels:
        for seed in seeds:
            ex = made(key, seed, level)
            for wrong in wrong_answers(ex):
                verdict = ex.check(wrong)
                assert not verdict.correct, (key, level, seed, wrong)
                found[verdict.misconception].append((ex, wrong, verdict.reason))
    return found


def wrong_answers(ex):
    if ex.answer_kind == "number":
        return [v for v in range(0, ex.answer + 12) if v != ex.answer]
    if ex.answer_kind == "choice":
        return [o.key for o in ex.options if o.key != ex.answer]
    return [ex.answer ^ {o.key} for o in ex.options]


# ----- registered, levelled, shown in the notebooks -------------------------------------------


@pytest.mark.parametrize("key", sorted(KEYS))
def test_kind_has_two_levels_and_is_practised_in_its_notebook(key):
    kind = exercises.get(key)
    assert kind.notebook == KEYS[key] and kind.levels == (1, 2)
    assert all(title.strip() for title in kind.level_titles)
    nb = json.loads((NOTEBOOKS / kind.notebook).read_text(encoding="utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"
            and f'practice("{key}"' in "".join(c["source"])]
    assert code and all(not c["outputs"] for c in code), f"{key} is not practised in its notebook"


@pytest.mark.parametrize("key,level", CASES)
def test_right_answer_accepted_and_positions_repeat_by_seed(key, level):
    for seed in SEEDS:
        ex = made(key, seed, level)
        verdict = ex.check(ex.answer)
        assert verdict.correct and verdict.reason, (seed, verdict)
        assert ex.level == level and len(set(ex.hints)) >= 2
        again = made(key, seed, level)
        assert (again.question, again.answer, again.svg(())) == (ex.question, ex.answer, ex.svg(()))
        ex.context["state"].check_invariants()


@pytest.mark.parametrize("key,level", CASES)
def test_wrong_answers_never_name_the_right_one(key, level):
    for seed in range(25):
        ex = made(key, seed, level)
        right_label = ex.answer_text()
        for wrong in wrong_answers(ex)[:8]:
            reason = ex.check(wrong).reason
            assert reason and len(reason) <= 300
            if ex.answer_kind == "number":
                assert str(ex.answer) not in re.findall(r"(?<![\w.])-?\d+(?![\w.])", reason) \
                    or str(ex.answer) in ex.question, (seed, wrong, reason)
            elif ex.answer_kind == "choice":
                assert right_label not in reason, (seed, wrong, reason)


# ----- Converting Favor Tokens ----------------------------------------------------------------


@pytest.mark.parametrize("level", (1, 2))
def test_converting_favor_tokens_two_of_one_type_from_the_supply_for_one_from_the_bag(level):
    """Rulebook, Converting Favor Tokens: "You may return 2 unactivated Favor Tokens of the same
    type from your supply to the bag to gain 1 Favor Token of your choice." (The token taken is
    of another type and must be in the bag: our reading.)"""
    for seed in SEEDS:
        ex = made("pangaea.favor_convert", seed, level)
        s = ex.context["state"]
        supply = dict(zip(ANCIENTS, s.players[0].favors))
        expected = {f"{g}>{t}" for g in ANCIENTS for t in ANCIENTS
                    if g != t and supply[g] >= 2 and t in s.favor_bag}
        assert ex.answer == expected, seed
        engine = {f"{a.give}>{a.take}" for a in s.legal_actions() if isinstance(a, ConvertFavor)}
        assert ex.answer == engine
        assert "our reading" in ex.explanation.lower()


def test_every_conversion_must_be_picked_and_a_missing_one_is_not_named():
    for seed in SEEDS:
        ex = made("pangaea.favor_convert", seed, 1)
        for key in ex.answer:
            verdict = ex.check(ex.answer - {key})
            label = ex.option_label(key)
            assert not verdict.correct and verdict.misconception == "missed-some"
            assert label not in verdict.reason


def test_favor_conversion_mistakes_are_diagnosed():
    found = diagnoses("pangaea.favor_convert")
    for name in ("counted-activated", "counted-other-player", "empty-bag", "one-token",
                 "no-token", "missed-some"):
        assert found[name], f"no diagnosis {name}"
    for ex, wrong, reason in found["counted-activated"]:
        assert "activated" in reason and ex.level == 2
    for ex, wrong, reason in found["empty-bag"]:
        take = sorted(wrong - ex.answer)[0].split(">")[1]
        assert take not in ex.context["state"].favor_bag and take in reason


# ----- Wild Woods: Play Ritual Card (Updated) -------------------------------------------------


def _tall(s, path, p, biome=None):
    return sum(1 for c in path if s.trees[where(s, c)] == p and s.woods.treetops[where(s, c)] > 0
               and (biome is None or s.board.biome[where(s, c)] == biome))


@pytest.mark.parametrize("level", (1, 2))
def test_a_land_ritual_pays_one_token_per_higher_level_tree_on_its_path(level):
    """Rulebook, Wild Woods — Play Ritual Card (Updated): "all players who own a higher-level
    Tree in the Ritual path gain 1 Weather Token of the corresponding type for each of their
    involved higher-level Trees"."""
    for seed in SEEDS:
        ex = made("pangaea.woods_ritual_weather", seed, level)
        s, p, path = ex.context["state"], ex.context["player"], ex.context["path"]
        biome = next((b for b in s.edition.biomes if f"many {b} Weather" in ex.question), None)
        assert (biome is not None) == (level == 2)
        assert ex.answer == _tall(s, path, p, biome), seed


def test_ritual_payout_mistakes_are_diagnosed():
    found = diagnoses("pangaea.woods_ritual_weather")
    for name in ("counted-level-one-trees", "counted-treetops", "counted-everyone",
                 "only-ritual-player", "counted-every-weather"):
        assert found[name], f"no diagnosis {name}"
    for ex, wrong, reason in found["only-ritual-player"]:
        assert wrong == 0 and "Red" not in reason.split(":")[0]


@pytest.mark.parametrize("level", (1, 2))
def test_after_a_land_ritual_your_trees_on_its_path_go_down_a_level(level):
    """Rulebook, Wild Woods — Play Ritual Card (Updated): "all your Trees involved in the Ritual
    path decrease by one level (unless the Tree is protected by the Ancient Thorondal)"; Final
    Scoring: "Treetops, like Trees, are not removed if they are part of the final Rituals"."""
    for seed in SEEDS:
        ex = made("pangaea.woods_ritual_lower", seed, level)
        s, x = ex.context["state"], ex.context["tree"]
        i = where(s, x)
        before = woods.level(s, i)
        on_path = ex.context["path"]
        comes_down = (x in on_path and s.trees[i] == 0 and s.ancients[2] != i
                      and s.phase != "final")
        expected = before - 1 if comes_down else before
        assert ex.answer == ("gone" if expected == 0 else f"level{expected}"), seed


def test_tree_lowering_mistakes_are_diagnosed():
    found = diagnoses("pangaea.woods_ritual_lower")
    for name in ("lowered-others-tree", "ignored-thorondal", "lowered-in-final",
                 "lowered-off-path", "removed-tall-tree", "not-lowered", "grew"):
        assert found[name], f"no diagnosis {name}"
    for ex, wrong, reason in found["ignored-thorondal"]:
        s = ex.context["state"]
        assert s.ancients[2] == where(s, ex.context["tree"])


# ----- Wild Woods: Final Scoring --------------------------------------------------------------


def test_empty_player_board_slots_score_their_printed_points():
    """Rulebook, Wild Woods — Final Scoring: "For every free slot you gain additional victory
    points as indicated on the Board"."""
    for seed in SEEDS:
        ex = made("pangaea.board_points", seed, 1)
        s, p = ex.context["state"], ex.context["player"]
        data = woods_data(s.edition)
        slots = s.woods.player_boards[p].slots
        assert ex.answer == sum(slot.points for slot, full in zip(data.slots, slots) if not full)
        assert "free slots" not in ex.svg(()) and "our reading" in ex.explanation.lower()


def test_the_final_score_adds_rituals_most_trees_and_the_player_board():
    for seed in SEEDS:
        ex = made("pangaea.board_points", seed, 2)
        s, p = ex.context["state"], ex.context["player"]
        cats = dict(s.scores()[p].categories)
        assert ex.answer == sum(cats.values()) and s.is_over
        assert cats["Land Rituals"] == int(re.search(r"brought (\d+) points", ex.question)[1])
        counts = [s.trees.count(q) for q in range(s.num_players)]
        holds = counts[p] >= 5 and counts[p] > max(c for q, c in enumerate(counts) if q != p)
        assert cats["Most Trees"] == (s.edition.most_trees_bonus if holds else 0)


def test_player_board_mistakes_are_diagnosed():
    found = diagnoses("pangaea.board_points")
    for name in ("counted-full-slots", "counted-costs", "counted-empty-slots",
                 "read-other-board", "forgot-board", "most-trees-not-held"):
        assert found[name], f"no diagnosis {name}"


# ----- Return of the Ancients: Shadow Phase, Dream and Devour ---------------------------------


@pytest.mark.parametrize("level", (1, 2))
def test_a_dream_pays_the_owner_of_the_tree_under_the_shadow(level):
    """Rulebook, Shadow Phase: "Dream: If the Shadow is on a Space with a Tree, the owner
    receives 1 Weather Token matching the Biome." """
    for seed in SEEDS:
        ex = made("pangaea.dream_effect", seed, level)
        s = ex.context["state"]
        i = where(s, ex.context["target"])
        owner = s.trees[i]
        assert ex.answer == ("none" if owner == NOBODY else f"{owner}:{s.board.biome[i]}"), seed


def test_dream_mistakes_are_diagnosed():
    found = diagnoses("pangaea.dream_effect")
    for name in ("mover-gains", "wrong-owner", "wrong-weather", "missed-dream", "seed-for-tree",
                 "marker-on-empty", "marker-on-scourge", "marker-on-water"):
        assert found[name], f"no diagnosis {name}"
    for ex, wrong, reason in found["wrong-weather"]:
        s = ex.context["state"]
        assert s.board.biome[where(s, ex.context["target"])] not in reason


@pytest.mark.parametrize("level", (1, 2))
def test_a_devour_removes_the_tree_or_takes_back_the_seed(level):
    """Rulebook, Shadow Phase: "Devour: If the Shadow is on a Space with a Tree, the owner must
    remove the Tree and may leave a Seed behind. If the Shadow is placed on a Seed, take the
    Seed back." (A Seed is left only from the owner's supply: our reading.)"""
    for seed in SEEDS:
        ex = made("pangaea.devour_effect", seed, level)
        s = ex.context["state"]
        i = where(s, ex.context["target"])
        if s.trees[i] != NOBODY:
            expected = "tree-seed" if s.players[s.trees[i]].seeds else "tree"
        else:
            expected = "seed" if s.seeds[i] != NOBODY else "nothing"
        assert ex.answer == expected, seed
        assert "our reading" in ex.explanation.lower()


def test_devour_mistakes_are_diagnosed():
    found = diagnoses("pangaea.devour_effect")
    for name in ("seed-without-supply", "forgot-leave-seed", "tree-for-seed", "spared-tree",
                 "spared-seed", "devour-no-tree", "devour-no-seed"):
        assert found[name], f"no diagnosis {name}"
    for ex, wrong, reason in found["seed-without-supply"]:
        assert "our reading" in reason.lower()


# ----- Return of the Ancients: End of the Game ------------------------------------------------


@pytest.mark.parametrize("level", (1, 2))
def test_the_team_loses_at_the_first_limit_reached(level):
    """Rulebook, End of the Game (Solo/Co-op): "If you reach the end of the third Cycle before
    all Ancients have returned, or one of the Ancient Markers reaches the Dance Marker placed on
    the Mountain, or if the last Scourge Token is placed, the game ends and you lose." """
    seen = collections.Counter()
    for seed in SEEDS:
        ex = made("pangaea.coop_loss", seed, level)
        after = ex.context["after"]
        seen[ex.answer] += 1
        if ex.answer == "on":
            assert not after.is_over
            continue
        co = after.coop
        assert co.result == "lost"
        if ex.answer == "dance":
            assert min(co.ancient_steps) <= coop_data(after.edition).dance_step
        elif ex.answer == "scourge":
            assert co.scourge_supply == 0
        else:
            assert ex.context["state"].coop.cycle == 3 and not co.shadow_bag
    assert len(seen) == 4


def test_coop_loss_mistakes_are_diagnosed():
    found = diagnoses("pangaea.coop_loss")
    for name in ("missed-loss", "order", "cycle-too-early", "cycle-bag-left", "dance-miscounted",
                 "scourge-miscounted"):
        assert found[name], f"no diagnosis {name}"
    for ex, wrong, reason in found["order"]:
        assert ex.answer != "on" and "earlier" in reason
