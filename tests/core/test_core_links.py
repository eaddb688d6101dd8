"""Links that set the board (``?seed=12&players=3&side=B``): the parser with good, bad and
hostile values, the page's address in Voilà and JupyterLab, and the line on the page."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import importlib

from pangaea_lab import forest_shuffle, harmonies, inori, pangaea
from pangaea_lab.catalog import GAMES, game, game_picker, link_spec, page_board
from pangaea_lab.core import InvalidSetup
from pangaea_lab.core import links
from pangaea_lab.core.links import (MAX_QUERY, SEED_MAX, BoardLink, Flag, LinkSpec, app_path,
                                    board_line, line_content, page_query, parse_query,
                                    read_board)

NEW_GAME = {"pangaea": pangaea.new_game, "harmonies": harmonies.new_game,
            "forest_shuffle": forest_shuffle.new_game, "inori": inori.new_game}


def widgets(key):
    return importlib.import_module(f"pangaea_lab.{key}.widgets")


def harmonies_play(**kwargs):
    return widgets("harmonies").play(**kwargs)


def harmonies_board(query, players=2, seed=7, **options):
    return read_board(link_spec("harmonies"), query, players, seed, options,
                      check=harmonies.new_game)


@pytest.fixture
def outside_voila(monkeypatch):
    for name in ("VOILA_BASE_URL", "VOILA_PREHEAT", "QUERY_STRING", "SCRIPT_NAME",
                 "JPY_SESSION_NAME"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def voila_page(monkeypatch):
    """The environment Voilà gives a page's kernel, with a query string to set."""
    monkeypatch.setenv("VOILA_BASE_URL", "/")
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/harmonies/01_setup_and_turns.ipynb")

    def open_with(query):
        monkeypatch.setenv("QUERY_STRING", query)
    return open_with


# ----- good values ------------------------------------------------------------------------------


def test_seed_and_players_from_a_link():
    board = harmonies_board("seed=12&players=3")
    assert (board.seed, board.players, board.problems) == (12, 3, ())
    assert board.from_link
    assert board.describe() == "This board: seed 12, 3 players"
    assert board.query() == "seed=12&players=3"


def test_a_leading_question_mark_and_any_case_are_accepted():
    board = harmonies_board("?Seed=12&PLAYERS=1&side=b&spirits=No&river_rule=LOOPS")
    assert (board.seed, board.players) == (12, 1)
    assert dict(board.options) == {"side": "B", "spirits": False, "river_rule": "loops"}
    assert board.describe() == ("This board: seed 12, 1 player (side B, no Nature's Spirits, "
                                "river rule: loops)")


def test_the_page_keeps_what_the_link_does_not_set():
    board = harmonies_board("seed=3", players=4, side="B", spirits=True)
    assert (board.seed, board.players) == (3, 4)
    assert dict(board.options) == {"side": "B", "spirits": True}
    assert board.query() == "seed=3&players=4&side=B&spirits=yes"


def test_no_link_is_the_page_board():
    for query in (None, "", "?"):
        board = harmonies_board(query, players=2, seed=7, side="A")
        assert (board.seed, board.players, board.problems, board.from_link) == (7, 2, (), False)


@pytest.mark.parametrize("key,query,options", [
    ("pangaea", "seed=5&players=3&family=yes", {"family": True}),
    ("pangaea", "seed=5&players=1&mode=coop&difficulty=cozy",
     {"mode": "ancients", "difficulty": "cozy"}),
    ("pangaea", "seed=5&players=2&wild_woods=yes&storms=no",
     {"wild_woods": True, "storms": False}),
    ("pangaea", "seed=5&players=2&mode=ancients&wild_woods=true",
     {"mode": "ancients", "wild_woods": True}),
    ("harmonies", "seed=5&players=4&side=B&tiebreak_counts_spirit=1",
     {"side": "B", "tiebreak_counts_spirit": True}),
    ("forest_shuffle", "seed=5&players=5&sapling_flips_clearing=no",
     {"sapling_flips_clearing": False}),
    ("inori", "seed=5&players=4&marker_schedule=three_at_start",
     {"marker_schedule": "three_at_start"}),
])
def test_each_games_options(key, query, options):
    board = read_board(link_spec(key), query, 2, 0, check=NEW_GAME[key])
    assert board.problems == ()
    assert dict(board.options) == options
    # the link written back reads as the same board
    again = read_board(link_spec(key), board.query(), 2, 0, check=NEW_GAME[key])
    assert again == board


def test_link_options_come_from_the_games_themselves():
    assert [o.name for o in link_spec("forest_shuffle").options] == \
        list(forest_shuffle.OPTION_DEFAULTS)
    difficulty = link_spec("pangaea").option("difficulty")
    assert {value for _, value, _ in difficulty.values} == {"standard", "cozy", "midnight"}
    for info in GAMES:
        spec = link_spec(info.key)
        for variant in info.ways_to_play():
            assert spec.players[0] <= variant.players[0] <= variant.players[1] <= spec.players[1]


def test_every_link_option_is_a_keyword_of_new_game():
    import inspect
    for key, new_game in NEW_GAME.items():
        params = inspect.signature(new_game).parameters
        for opt in link_spec(key).options:
            assert opt.name in params or any(
                p.kind is p.VAR_KEYWORD for p in params.values()), (key, opt.name)


# ----- bad values -------------------------------------------------------------------------------


@pytest.mark.parametrize("query,words", [
    ("seed=abc", "seed 'abc' is refused (a seed is a whole number from 0 to 999999999)"),
    ("seed=-3", "seed '-3' is refused"),
    ("seed=1.5", "seed '1.5' is refused"),
    ("seed=1000000000", "seed '1000000000' is refused"),
    ("seed=", "seed '' is refused"),
    ("players=9", "players '9' is refused (Harmonies on this page is for 1 to 4 players)"),
    ("players=0", "players '0' is refused"),
    ("players=two", "players 'two' is refused"),
    ("side=C", "side 'C' is refused (side is one of A, B)"),
    ("spirits=maybe", "spirits 'maybe' is refused (spirits is yes or no)"),
    ("colour=red", "The link's setting 'colour' is not one of seed, players, side"),
    ("seed=1&seed=2", "The link gives 'seed' twice"),
    ("game=inori", "This page plays Harmonies; the link's game 'inori' is not used"),
])
def test_a_bad_value_is_refused_in_plain_words_and_the_page_value_kept(query, words):
    board = harmonies_board(query, players=2, seed=7, side="A")
    assert (board.seed, board.players, dict(board.options)) == (7, 2, {"side": "A"})
    assert len(board.problems) == 1
    assert words in board.problems[0]


def test_good_values_are_used_next_to_bad_ones():
    board = harmonies_board("seed=12&players=99&side=B")
    assert (board.seed, board.players, dict(board.options)) == (12, 2, {"side": "B"})
    assert "players '99' is refused" in board.problems[0]


def test_a_combination_the_game_refuses_falls_back_to_the_page_board():
    board = read_board(link_spec("pangaea"), "seed=3&players=1", 3, 2024, {"family": False},
                       check=pangaea.new_game)
    assert (board.seed, board.players, dict(board.options)) == (2024, 3, {"family": False})
    assert board.problems == ("The link's board cannot be set up: The Dawn of Pangaea is for 2 "
                              "to 4 players, not 1. This is the page's own board.",)
    coop_family = read_board(link_spec("pangaea"), "players=2&mode=coop&family=yes", 2, 1,
                             check=pangaea.new_game)
    assert coop_family.players == 2 and coop_family.options == ()
    assert "cannot be played with family=True" in coop_family.problems[0]


def test_the_allowed_players_a_refusal_gives_are_the_pages_own():
    """players=9 and players=1 on a page of the competitive game give the same range (2 to
    4), not the game's widest (1 to 4, for solo/co-op); a co-op page gives 1 to 4."""
    spec = link_spec("pangaea")
    nine = read_board(spec, "players=9", 3, 2024, {"family": False}, check=pangaea.new_game)
    assert nine.problems == ("The link's players '9' is refused (The Dawn of Pangaea on this "
                             "page is for 2 to 4 players): the page's own value is used.",)
    one = read_board(spec, "players=1", 3, 2024, {"family": False}, check=pangaea.new_game)
    assert "2 to 4 players, not 1" in one.problems[0]
    coop = read_board(spec, "players=9", 1, 3, {"mode": "coop"}, check=pangaea.new_game)
    assert "on this page is for 1 to 4 players" in coop.problems[0]


def test_an_option_that_means_nothing_without_another_is_dropped():
    board = read_board(link_spec("pangaea"), "difficulty=cozy&storms=no", 2, 1,
                       check=pangaea.new_game)
    assert board.options == ()
    assert [p.split(" only")[0] for p in board.problems] == [
        "The link's difficulty", "The link's storms"]
    assert "mode=coop" in board.problems[0] and "wild_woods=yes" in board.problems[1]


# ----- hostile values ---------------------------------------------------------------------------


def test_a_very_long_link_is_refused_whole():
    board = harmonies_board("seed=1&" + "x" * MAX_QUERY)
    assert board.seed == 7 and "too long" in board.problems[0]


def test_too_many_settings_are_refused_whole():
    board = harmonies_board("&".join(f"a{i}=1" for i in range(100)))
    assert board.seed == 7 and "too many settings" in board.problems[0]


def test_markup_and_control_characters_are_quoted_back_harmlessly():
    board = harmonies_board("side=%3Cscript%3Ealert(1)%3C/script%3E&seed=%00%0a1")
    assert board.seed == 7 and board.options == ()
    text = " ".join(board.problems)
    assert "\x00" not in text and "\n" not in text
    # the widget shows text, never markup: the HTML fallback escapes it
    import ipywidgets
    fallback = ipywidgets.HTML()
    links.update_line(fallback, board, line_content(board, ""))
    assert "<script>" not in fallback.value and "&lt;script&gt;" in fallback.value


def test_long_values_are_cut_when_quoted_back():
    board = harmonies_board("seed=" + "9" * 200)
    assert len(board.problems[0]) < 200 and "..." in board.problems[0]


def test_digits_of_other_scripts_and_huge_numbers_are_refused():
    for text in ("%D9%A3", "%EF%BC%93", "1e3", "0x10", "1_0", "9" * 30):
        board = harmonies_board(f"seed={text}&players={text}")
        assert board.seed == 7 and board.players == 2 and len(board.problems) == 2, text
    # spaces around a value are forgiven ("+" is a space in an address)
    assert harmonies_board("seed=+5&players=%203%20").kwargs == {"players": 3, "seed": 5}


def test_not_a_text_is_refused():
    assert parse_query(b"seed=1")[0] == {}
    assert "must be text" in parse_query(b"seed=1")[1][0]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_a_board_within_the_limits(text):
    board = harmonies_board(text)
    assert 1 <= board.players <= 4
    assert isinstance(board.seed, int) and 0 <= board.seed <= SEED_MAX
    assert all(isinstance(p, str) for p in board.problems)
    harmonies.new_game(**board.kwargs)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["seed", "players", "family", "mode", "difficulty",
                                        "wild_woods", "storms", "game", "x"]),
                       st.sampled_from(["", "0", "1", "2", "5", "yes", "no", "coop", "cozy",
                                        "midnight", "standard", "pangaea", "-1", "%"]),
                       max_size=7))
def test_any_pangaea_settings_give_a_board_the_game_accepts(values):
    from urllib.parse import urlencode
    board = read_board(link_spec("pangaea"), urlencode(values), 3, 11, check=pangaea.new_game)
    pangaea.new_game(**board.kwargs)


# ----- the page's address -----------------------------------------------------------------------


def test_outside_voila_there_is_no_address(outside_voila, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "seed=99")   # not Voilà's: not read
    assert page_query() is None
    w = harmonies_play(players=2, seed=7)
    assert (w.model.seed, w.model.players) == (7, 2)


def test_in_voila_the_address_sets_the_board(voila_page):
    voila_page("seed=12&players=3&side=B")
    assert page_query() == "seed=12&players=3&side=B"
    w = harmonies_play(players=2, seed=7, side="A", spirits=True)
    assert (w.model.seed, w.model.players) == (12, 3)
    assert w.model.options == {"side": "B", "spirits": True}
    # the same board as JupyterLab gets from the same values
    assert w.model.history[0] == harmonies.new_game(players=3, seed=12, side="B", spirits=True)
    # every seat but the first is the computer's, for the link's player count too
    assert [w.model.seat(s) for s in range(3)] == ["human", "greedy", "greedy"]
    line = w.view.link_line
    assert line.text == "This board: seed 12, 3 players (side B, Nature's Spirits)"
    assert line.query == "seed=12&players=3&side=B&spirits=yes"
    assert line.path == "/voila/render/harmonies/01_setup_and_turns.ipynb"
    assert list(line.problems) == []


@pytest.mark.parametrize("key", [g.key for g in GAMES])
def test_the_same_link_gives_the_same_board_as_the_same_call(voila_page, key):
    voila_page("seed=12&players=3")
    widget = widgets(key).play(players=2, seed=0)
    assert widget.model.history[0] == NEW_GAME[key](players=3, seed=12)
    explicit = widgets(key).play(players=3, seed=12, link=False)
    assert explicit.model.svg() == widget.model.svg()


def test_in_voila_a_bad_address_is_said_on_the_page_and_the_page_board_shown(voila_page):
    voila_page("seed=%3Cb%3E&players=7")
    w = harmonies_play(players=2, seed=7)
    assert (w.model.seed, w.model.players) == (7, 2)
    assert len(w.view.link_line.problems) == 2
    # a new game from the widget clears the link's complaints and updates the line
    w.view.seed_box.value = "31"
    w.view.new_game_button.click()
    assert w.view.link_line.text == "This board: seed 31, 2 players"
    assert w.view.link_line.query == "seed=31&players=2"
    assert list(w.view.link_line.problems) == []


def test_link_false_and_explicit_text(voila_page):
    voila_page("seed=12")
    assert harmonies_play(seed=7, link=False).model.seed == 7
    assert harmonies_play(seed=7, link="seed=40").model.seed == 40
    with pytest.raises(InvalidSetup, match="link must be"):
        harmonies_play(seed=7, link=3)


def test_a_preheated_kernel_waits_for_its_request_once(monkeypatch):
    import voila.utils
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.setattr(links, "_heard", {})
    calls = []

    def arrives(url=None):
        calls.append(url)
        monkeypatch.setenv("QUERY_STRING", "seed=5")
    monkeypatch.setattr(voila.utils, "wait_for_request", arrives)
    assert page_query() == "seed=5"
    assert page_query() == "seed=5"
    assert len(calls) == 1


def test_in_jupyterlab_the_app_link_is_the_same_servers_voila_page(outside_voila, monkeypatch,
                                                                   tmp_path):
    root = tmp_path / "class"
    (root / "harmonies").mkdir(parents=True)
    notebook = root / "harmonies" / "05 full game.ipynb"
    notebook.write_text("{}")
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    (runtime / "jpserver-1.json").write_text(json.dumps(
        {"root_dir": str(root), "base_url": "/user/ada/", "url": "http://x/user/ada/"}))
    (runtime / "jpserver-2.json").write_text("not json")
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("JPY_SESSION_NAME", str(notebook))
    assert app_path() == "/user/ada/voila/render/harmonies/05%20full%20game.ipynb"
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "elsewhere.ipynb"))
    assert app_path() == ""


def test_the_line_says_what_to_do_when_no_link_can_be_made():
    spec = LinkSpec("demo", "Demo", (2, 4), (Flag("fast", False, "fast play"),))
    text_seed = line_content(BoardLink(spec, 2, "autumn"), "/voila/render/x.ipynb")
    assert text_seed.query == "" and "whole-number seeds" in text_seed.note
    assert text_seed.text == "This board: seed 'autumn', 2 players"
    unknown_page = line_content(BoardLink(spec, 2, 4), "")
    assert unknown_page.query == "seed=4&players=2" and "Add this" in unknown_page.note
    from_a_file = line_content(BoardLink(spec, 2, 4, (("edition", "my_cards.json"),)), "/p")
    assert from_a_file.query == "" and "cannot carry this board's edition" in from_a_file.note
    widget = board_line(BoardLink(spec, 3, 8, (("fast", True),)), "/p.ipynb")
    assert (widget.text, widget.query, widget.path) == (
        "This board: seed 8, 3 players (fast play)", "seed=8&players=3&fast=yes", "/p.ipynb")


# ----- the start page's picker ------------------------------------------------------------------


def test_the_picker_starts_the_linked_board(outside_voila):
    box = game_picker(link="game=harmonies&seed=12&players=3&side=B")
    assert (box.pick.value, box.seats.value, box.seed_box.value) == ("harmonies", 3, "12")
    started = box.area.children[0]
    assert started.model.history[0] == harmonies.new_game(players=3, seed=12, side="B")
    assert started.view.link_line.query == "game=harmonies&seed=12&players=3&side=B"
    assert started.view.link_line.text == "This board: Harmonies, seed 12, 3 players (side B)"


def test_the_picker_chooses_the_variant_of_the_link(outside_voila):
    box = game_picker(link="game=pangaea&seed=4&players=1&mode=coop&wild_woods=yes"
                           "&difficulty=midnight")
    chosen = game("pangaea").ways_to_play()[box.way.value]
    assert chosen.name == "Return of the Ancients with Wild Woods"
    state = box.area.children[0].model.history[0]
    assert state == pangaea.new_game(players=1, seed=4, mode="coop", wild_woods=True,
                                     difficulty="midnight")
    # Start again by hand: the same variant keeps the link's difficulty
    box.start.click()
    assert box.area.children[0].model.history[0] == state


def test_the_picker_without_a_game_says_so_and_starts_nothing(outside_voila):
    box = game_picker(link="seed=12&players=3")
    assert box.area.children == ()
    assert "does not name a game" in box.message.value
    box = game_picker(link="game=%3Cchess%3E")
    assert "names no game" in box.message.value and "<chess>" not in box.message.value
    assert game_picker(link=False).message.value == ""


def test_the_picker_shows_a_bad_value_under_the_started_game(outside_voila):
    box = game_picker(link="game=inori&seed=5&players=9")
    started = box.area.children[0]
    assert (started.model.seed, started.model.players) == (5, 2)
    assert "players '9' is refused" in started.view.link_line.problems[0]


def test_a_started_game_from_the_picker_links_back_to_the_start_page(outside_voila):
    box = game_picker(link=False)
    box.pick.value = "forest_shuffle"
    box.seats.value, box.seed_box.value = 3, "77"
    box.start.click()
    line = box.area.children[0].view.link_line
    assert line.query == "game=forest_shuffle&seed=77&players=3"
    again = game_picker(link=line.query)
    assert again.area.children[0].model.history[0] == \
        box.area.children[0].model.history[0]


def test_page_board_reads_the_call_values_in_jupyterlab(outside_voila):
    board = page_board("inori", 3, 12, {})
    assert (board.players, board.seed, board.problems) == (3, 12, ())
