"""The computer players a learner plays against play every game to its real end: the summit,
a co-op win or loss, the last round of Harmonies, the third winter card, the fourth season of
Inori; never a safety net (40 rounds or no Ritual Card left in The Dawn of Pangaea, the deck
running out in Forest Shuffle).  Every way to play in the catalogue is played by each of its
game's computer players but the random one, and by the one its widgets seat by default.
(``make soak`` measures the shares over hundreds of games; these are a few seeded ones, from
seed 1: the forester's share in the family game is about 1%, and seed 0 with 2 players is one
such game: the two players end up holding all the Weather Tokens, two kinds each, and neither
can perform a Ritual any more.)"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pangaea_lab import catalog, forest_shuffle, pangaea
from pangaea_lab.core.players import GreedyPlayer, RandomPlayer, play_game, safety_net

GAMES_EACH = 3


def _cases():
    for info in catalog.GAMES:
        ways = list(info.ways_to_play())
        if info.key == "harmonies":   # the catalogue's one way keeps the spirits in
            ways.append(catalog.Variant("Without spirits", info.players, (("spirits", False),)))
        bots = [b for b in info.module.GAME.bots if b != "random"]
        for bot in dict.fromkeys([info.computer_player, *bots]):
            for way in ways:
                yield pytest.param(info, way, bot, id=f"{info.key}-{way.name}-{bot}")


def _play(info, way, bot: str, players: int, seed: int):
    module = info.module
    state = module.new_game(players=players, seed=seed, **dict(way.options))
    make = module.GAME.bots[bot]
    return play_game(state, [make(f"{seed}/{seat}") for seat in range(players)])


@pytest.mark.parametrize("info, way, bot", list(_cases()))
def test_every_computer_player_plays_to_the_real_end(info, way, bot):
    low, high = way.players[0], min(way.players[1], 3)   # 4 seats only make games longer
    for k in range(GAMES_EACH):
        players = low + k % (high - low + 1)
        final = _play(info, way, bot, players, seed=k + 1)
        assert final.is_over
        assert safety_net(final) == "", (players, k + 1, getattr(final, "end_reason", ""))


def test_the_widgets_default_opponents_are_computer_players_of_their_games():
    for info in catalog.GAMES:
        assert info.computer_player in info.module.GAME.bots


def test_random_players_are_caught_by_the_round_limit_and_it_is_named():
    final = play_game(pangaea.new_game(players=2, seed=0), [RandomPlayer(0), RandomPlayer(1)])
    assert "40 rounds" in final.end_reason
    assert safety_net(final) == "round-limit"


def test_a_game_in_play_and_a_summit_end_have_no_safety_net():
    state = pangaea.new_game(players=2, seed=0)
    assert safety_net(state) == ""
    final = play_game(state, GreedyPlayer(0))
    assert "top of the Sacred Mountain" in final.end_reason and safety_net(final) == ""


def test_forest_shuffle_names_the_deck_running_out():
    final = play_game(forest_shuffle.new_game(players=2, seed=0), RandomPlayer(0))
    assert safety_net(final) == ""                  # the third winter card ended it
    ran_out = replace(final, ended_by=forest_shuffle.players.DECK_OUT)
    assert safety_net(ran_out) == "deck_out"


def test_the_greedy_player_is_the_same_for_a_seed_and_in_every_seat_kind():
    """The state's evaluate hook is the greedy measure, so the widgets' greedy seat (the core
    player) and a player given the measure explicitly choose alike, game after game."""
    state = pangaea.new_game(players=3, seed=4)
    one = play_game(state, [GreedyPlayer(f"4/{s}") for s in range(3)])
    two = play_game(state, [GreedyPlayer(f"4/{s}", value=pangaea.players.greedy_value)
                            for s in range(3)])
    assert one == two and one.to_json() == two.to_json()


def test_the_greedy_player_sows_where_a_spirit_can_grow_the_seed():
    """A Flying Seed next to water raises its standing more than one far from water."""
    s = pangaea.new_game(players=2, seed=1, family=True)
    b, me = s.board, s.current_player
    by_water = {}
    for a in s.legal_actions():
        if isinstance(a, pangaea.FlyingSeed):
            near = any(b.terrain[j] == "water" for j in b.neighbours[b.index[a.cell]])
            by_water.setdefault(near, set()).add(pangaea.players.greedy_value(s, a, me))
    assert min(by_water[True]) > max(by_water[False]) >= 0


def test_the_simulation_lab_says_a_forest_shuffle_game_ended_by_the_deck_running_out():
    from pangaea_lab.forest_shuffle import summary
    final = play_game(forest_shuffle.new_game(players=2, seed=0), RandomPlayer(0))
    assert summary.summary(final) == {"ended_by": "rules"}
    ran_out = replace(final, ended_by=forest_shuffle.players.DECK_OUT)
    assert summary.summary(ran_out) == {"ended_by": "deck_out"}
