"""The values the engine keeps to go faster (with an edition, with states and drawings, which
never change) agree with working everything out afresh, over many seeded positions."""

import json
import random
from dataclasses import fields, replace
from operator import attrgetter

import pytest

from pangaea_lab import inori
from pangaea_lab.core.engine import Decision
from pangaea_lab.core.errors import InvalidData
from pangaea_lab.core.jsonio import FORMAT_VERSION, dumps
from pangaea_lab.core.memo import plain_object
from pangaea_lab.core.testing import seeded_positions
from pangaea_lab.inori import render, rules
from pangaea_lab.inori import state as state_module
from pangaea_lab.inori.state import DECISIONS, decision, decision_json
from pangaea_lab.inori.actions import (BlockSpace, ChooseAltar, ChooseNewStart, EndTurn,
                                       OfferCard, OfferTree, PassRunes, RuneGain, RuneMove,
                                       RuneOffer, TakeFavor)
from pangaea_lab.inori.board import NEUTRAL, root_spaces
from pangaea_lab.inori.scoring import least_colours, majority_colours, score_card


POSITIONS = list(seeded_positions(inori.new_game, seeds=range(8), players=(2, 3, 4), every=1))


def card_offers_afresh(s, player):
    """Offerings on free card spaces, each cost checked against the player's favor."""
    ed = s.edition
    held = s.favor[player]
    out = []
    for i, (cid, spaces) in enumerate(s.slots):
        card = ed.cards[cid]
        for j, occ in enumerate(spaces):
            if occ:
                continue
            cost = card.spaces[j].cost
            if cost is None:
                pays = [None]
            elif cost == "majority":
                pays = [c for c in majority_colours(held, ed.colours)
                        if held[ed.colours.index(c)] >= 1]
            else:
                pays = [cost] if held[ed.colours.index(cost)] >= 1 else []
            out += [OfferCard(i, j, pay, note=rules._space_note(ed, cid, j)) for pay in pays]
    return out


def tree_offers_afresh(s, player):
    ed = s.edition
    out = []
    for t, space in enumerate(ed.tree):
        if s.tree_markers[t] is not None:
            continue
        altar = s.altars[t]
        if space.altar and altar is not None:
            if s.favor[player][ed.colours.index(altar)] >= ed.altar_cost:
                out.append(OfferTree(t, altar, note=rules._tree_note(ed, t, altar)))
        elif space.altar:
            out.append(OfferTree(t, None, note=rules._tree_note(ed, t, None)))
        else:
            k = root_spaces(ed).index(t)
            left = s.root_tokens[k]
            if not left and ed.emptied_root == "closed":
                continue
            what = f"take {left} set-aside {ed.names[s.root_colours[k]]}" if left else \
                "the set-aside tokens are gone: no effect"
            out.append(OfferTree(t, None, note=f"root space, {what} (free)"))
    return out


def described(actions):
    return [(a, a.describe()) for a in actions]


def test_enough_positions():
    assert len(POSITIONS) > 1000
    assert any(st.is_over for st in POSITIONS)


def test_offers_match_offers_worked_out_afresh():
    for st in POSITIONS:
        for p in range(st.players):
            assert described(rules._card_offers(st, p)) == described(card_offers_afresh(st, p))
            assert described(rules._tree_offers(st, p)) == described(tree_offers_afresh(st, p))


def test_runes_asked_of_a_working_copy_match_the_state():
    """The turn's end asks a working copy whether a rune can be played: the answer is the
    one the frozen state gives (the same actions, maybe in another order)."""
    for st in POSITIONS[::2]:
        if st.is_over:
            continue
        w = rules.InoriCopy(st)
        for p in range(st.players):
            for window in (False, True):
                on_state = sorted(map(repr, rules._rune_actions(st, p, window)))
                assert sorted(map(repr, rules._rune_actions(w, p, window))) == on_state


def test_new_states_are_plain_values():
    for st in POSITIONS[::4]:
        rebuilt = type(st)(**{f.name: getattr(st, f.name) for f in fields(st)})
        assert rebuilt == st and rebuilt.to_json() == st.to_json()
        assert described(rebuilt.legal_actions()) == described(st.legal_actions())
        assert all(list(h) == sorted(h) for h in st.rune_hands)


def test_a_working_copy_holds_the_fields_of_its_state_and_hands_on_what_it_declares():
    """A working copy starts with every field of its state (the very values); frozen
    untouched, it gives an equal state.  A state it makes keeps, of what the old state kept
    beside its fields, only the texts of the season reports; its listed actions are not
    worked out yet, and it is marked as holding its rune hands in order."""
    names = [f.name for f in fields(inori.GameState)]
    for st in POSITIONS[::9]:
        st.legal_actions()
        st.to_json()
        w = rules.InoriCopy(st)
        assert all(getattr(w, name) is getattr(st, name) for name in names)
        assert w.state is st and w.player == st.current_player
        again = w.freeze()
        assert again == st and again.to_json() == st.to_json()
        w = rules.InoriCopy(st)
        w.season += 1
        new = w.freeze()
        assert new == replace(st, season=st.season + 1)
        assert list(vars(new))[:len(names)] == names
        assert set(vars(new)) - set(names) <= {"_legal", "_runes_sorted", "_report_texts"}
        assert new._legal is None and new._runes_sorted is True
        assert getattr(new, "_report_texts", None) is getattr(st, "_report_texts", None)
        assert all(list(h) == sorted(h) for h in new.rune_hands)


def test_a_working_copy_of_a_state_whose_attributes_are_out_of_order():
    """Should a state's attributes not begin with its fields (a state made some other way),
    the state a working copy makes of it holds the fields and leaves the rest behind."""
    names = [f.name for f in fields(inori.GameState)]
    for st in POSITIONS[::50]:
        values = {"_note": 1, **{name: getattr(st, name) for name in reversed(names)}}
        odd = plain_object(inori.GameState, values)
        w = rules.InoriCopy(odd)
        w.season += 1
        new = w.freeze()
        assert not hasattr(new, "_note")
        assert new == replace(st, season=st.season + 1)


def test_every_action_changes_the_state():
    """The working copy is declared ALWAYS_NEW (frozen without first comparing every
    attribute with the old state's), which is right only if no action leaves the state as it
    was: every listed action of many positions gives a state that differs from its own."""
    done = 0
    for st in POSITIONS[::7]:
        if st.is_over:
            continue
        for action in st.legal_actions()[:6]:
            assert st.apply(action) != st
            done += 1
    assert rules.InoriCopy.ALWAYS_NEW and done > 500


def test_a_working_copy_puts_rune_hands_in_order():
    """A state made otherwise (a setup, a save) may hold its rune hands in any order: the
    first state the rules make of it holds them sorted, and says so."""
    done = 0
    for st in POSITIONS[::25]:
        hands = st.rune_hands
        if not any(len(h) > 1 for h in hands) or st.is_over:
            continue
        shuffled = tuple(tuple(reversed(h)) for h in hands)
        odd = type(st)(**{**{f.name: getattr(st, f.name) for f in fields(st)},
                          "rune_hands": shuffled})
        assert getattr(odd, "_runes_sorted", None) is None
        new = rules.InoriCopy(odd).freeze()
        assert new.rune_hands == hands and new._runes_sorted is True
        after = odd.apply(odd.legal_actions()[0])
        assert all(list(h) == sorted(h) for h in after.rune_hands)
        done += 1
    assert done > 5


def test_board_drawings_do_not_depend_on_what_was_drawn_before():
    rng = random.Random(5)
    for st in POSITIONS[::20]:
        marks = [("slot", rng.randrange(6)), (rng.randrange(6), rng.randrange(4)),
                 (rng.randrange(9),)]
        drawn = [st.to_svg(), st.to_svg(marks)]
        for cached in (render._card_svg, render._tree_svg, render._player_svg,
                       render._players_head_svg):
            cached.cache_clear()
        assert [st.to_svg(), st.to_svg(marks)] == drawn


def test_pieces_drawn_once_match_pieces_drawn_afresh():
    for st in POSITIONS[::40]:
        ed = st.edition
        names = render._names(st)
        for i, (cid, spaces) in enumerate(st.slots):
            marks = {("slot", i): 1, (i, 0): 2}
            fresh = render._recorded(render._draw_card, ed, names, i, cid, spaces, 8, 34,
                                     marks)
            assert render._card_svg(ed, names, i, cid, spaces, 8, 34,
                                    tuple(marks.items())) == fresh


def _has_tuple(value):
    if isinstance(value, tuple):
        return True
    if isinstance(value, dict):
        return any(_has_tuple(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_tuple(v) for v in value)
    return False


def test_season_reports_are_built_as_a_reloaded_save_reads_them():
    """A season's report is made directly in its JSON form: the same values, key order and
    types as after a round trip through JSON text."""
    seen = 0
    for st in POSITIONS:
        for report in st.reports:
            again = json.loads(dumps(report))
            assert again == report
            assert json.dumps(report) == json.dumps(again)     # the same key order
            assert not _has_tuple(report)
            seen += 1
    assert seen > 100
    for st in POSITIONS[::50]:
        if st.is_over:
            continue
        report = rules.end_season_now(st).reports[-1]
        again = json.loads(dumps(report))
        assert again == report and json.dumps(report) == json.dumps(again)
        assert not _has_tuple(report)


def test_whether_a_rune_can_be_played_matches_the_listed_runes():
    """The turn's end and the season's end only ask whether a rune can be played: the quick
    answer agrees with listing the rune actions, for every player, in and out of the
    season-end window, on states and on working copies."""
    asked = 0
    for st in POSITIONS:
        if st.is_over:
            continue
        w = rules.InoriCopy(st)
        for p in range(st.players):
            for window in (False, True):
                listed = bool(rules._rune_actions(st, p, window))
                for where in (st, w):
                    assert rules._can_play_rune(st.edition, st.offered, where.rune_hands[p],
                                                where.slots, where.favor[p], p,
                                                window) is listed
                asked += bool(st.rune_hands[p])
    assert asked > 1000


def save_text_afresh(st):
    """A save's text written in one go, every field encoded afresh."""
    data = {"game": "inori", "format": FORMAT_VERSION}
    for f in fields(st):
        value = getattr(st, f.name)
        if f.name == "edition":
            value = "reference" if value.is_reference else value.raw
        elif f.name == "pending":
            value = [decision_json(d) for d in value]
        data[f.name] = value
    return dumps(data)


def test_save_text_with_kept_report_texts_matches_text_written_afresh():
    for st in POSITIONS[::3]:
        assert st.to_json() == save_text_afresh(st)
        assert st.to_json() == save_text_afresh(st)        # (the report texts now kept)
    last = POSITIONS[-1]
    assert state_module.report_texts(last) == [dumps(r) for r in last.reports]


def test_report_texts_handed_on_to_later_states_match_texts_written_afresh():
    """Saving every position of a game: each state hands its reports' texts on to the next
    one, which uses them only for the very same reports."""
    for seed in range(3):
        rng = random.Random(seed)
        st = inori.new_game(players=3, seed=seed)
        while True:
            assert st.to_json() == save_text_afresh(st)
            if st.is_over:
                break
            st = st.apply(rng.choice(st.legal_actions()))
        assert len(st.__dict__["_report_texts"]) == len(st.reports) == 4


def test_a_seed_text_holding_the_reports_marker_is_saved_as_it_is():
    seed = "a" + state_module._REPORTS_HERE + "b"
    st = inori.new_game(players=2, seed=seed)
    rng = random.Random(0)
    while not st.reports:
        st = st.apply(rng.choice(st.legal_actions()))
    assert st.to_json() == save_text_afresh(st)
    again = type(st).from_json(st.to_json())
    assert again == st and again.seed == seed


def choices_afresh(st):
    """The answers to the first pending decision, each action built anew."""
    ed, d = st.edition, st.pending[0]
    if d.kind == "new_start":
        return [ChooseNewStart(c, note=rules._card_note(ed, c)) for c in d.data[0]]
    if d.kind == "altar":
        used = {a for a in st.altars if a}
        return [ChooseAltar(c) for c in ed.altar_colours if c not in used]
    if d.kind == "favor_any":
        return [TakeFavor(c, note=f"{d.data[0]} left to take")
                for k, c in enumerate(ed.colours) if st.supply[k] > 0]
    if d.kind == "favor_least":
        return [TakeFavor(c, note=f"gain {d.data[0]} of your least-held colour")
                for c in least_colours(st.favor[st.turn], ed.colours)]
    if d.kind == "block":
        return [BlockSpace(i, j) for i, (_, spaces) in enumerate(st.slots)
                for j, occ in enumerate(spaces) if not occ]
    return rules._rune_actions(st, d.player, window=True) + [PassRunes()]


def test_choices_made_once_match_choices_made_afresh():
    kinds = set()
    for st in POSITIONS:
        if st.pending and not st.is_over:
            kinds.add(st.pending[0].kind)
            assert described(st.legal_actions()) == described(choices_afresh(st))
        elif st.offered and st.legal_actions():
            assert described(st.legal_actions()[-1:]) == described([EndTurn()])
    assert kinds == set(DECISIONS)


def test_occupied_space_offers_made_once_match_offers_made_afresh():
    ed = POSITIONS[0].edition
    runes = [r for r in ed.runes if ed.runes[r].kind == "offer_occupied"]
    listed = 0
    for st in POSITIONS[::2]:
        for p in range(st.players):
            for rid in runes:
                afresh = [RuneOffer(rid, i, j, pay, note=rules._space_note(ed, cid, j))
                          for i, (cid, spaces) in enumerate(st.slots)
                          for j, occ in enumerate(spaces)
                          if occ and p not in occ and NEUTRAL not in occ
                          for pay in rules._pay_options(st, p, ed.cards[cid].spaces[j].cost)]
                assert described(rules._rune_offers(st, p, rid)) == described(afresh)
                listed += len(afresh)
    assert listed > 1000


def test_saves_read_in_one_pass_give_the_saved_positions():
    for st in POSITIONS[::5]:
        text = st.to_json()
        again = type(st).from_json(text)
        assert again == st and again.to_json() == text
        assert [type(x) for x in again.favor] == [tuple] * st.players
        assert all(type(spaces) is tuple and all(type(o) is tuple for o in spaces)
                   for _, spaces in again.slots)


@pytest.mark.parametrize("value", [
    [1, 2, 3], [0, 0, 9], [1, True, 2], [1, 2.0, 3], [1, 2], [-1, 2, 3], [10, 1, 1], [],
    [[1, 2, 3]], None, "abc", [1, None, 3]])
def test_a_list_read_in_one_pass_is_read_as_item_by_item(value):
    spec = state_module.Entries(state_module.Count(0, 9), length=3)
    slow = state_module.Seq.read

    def item_by_item():
        if isinstance(value, list) and len(value) != 3:
            raise InvalidData(f"here: expected 3 entries, got {len(value)}")
        return slow(spec, value, "here")
    try:
        expected = item_by_item()
    except InvalidData as exc:
        with pytest.raises(InvalidData) as got:
            spec.read(value, "here")
        assert str(got.value) == str(exc)
    else:
        assert spec.read(value, "here") == expected


def test_decisions_made_once_match_decisions_made_afresh():
    seen = 0
    for st in POSITIONS:
        for d in st.pending:
            fresh = Decision(d.kind, d.player, DECISIONS[d.kind][0], tuple(d.data))
            assert d == fresh and d.words() == fresh.words() and type(d.data) is tuple
            seen += 1
    assert seen > 500
    assert decision("block", 1, [2]) == Decision("block", 1, DECISIONS["block"][0], ([2],))


def test_season_reports_score_cards_as_score_card_does():
    """The season's end scores each card inline: the same results as score_card on the board
    the report keeps."""
    checked = 0
    for st in POSITIONS:
        if not st.is_over:
            continue
        ed = st.edition
        for report in st.reports:
            board = report["board"]
            favor = board["favor"]
            for card, (cid, spaces) in zip(report["cards"], board["slots"]):
                r = score_card(ed, cid, [tuple(o) for o in spaces], favor)
                expected = {"card": r["card"], "complete": r["complete"], "name": r["name"],
                            "next_colour": r["next_colour"], "present": r["present"],
                            "scored_colour": r["scored_colour"],
                            "points": {str(p): n for p, n in sorted(r["points"].items())}}
                assert {k: card[k] for k in expected} == expected
                checked += 1
    assert checked > 100


def test_majority_payments_kept_per_holding_match_pay_options():
    for st in POSITIONS[::3]:
        for p in range(st.players):
            kept = rules._majority_pays(st.edition, rules._memo(st.edition), st.favor[p])
            assert list(kept) == rules._pay_options(st, p, "majority")


def rune_actions_afresh(st, player, window=False):
    """The playable runes worked out plainly (one per distinct kind of tile in hand)."""
    ed = st.edition
    out, seen = [], set()
    free = [(i, j) for i, (_, spaces) in enumerate(st.slots) for j, occ in enumerate(spaces)
            if not occ]
    own = [(i, j) for i, (_, spaces) in enumerate(st.slots) for j, occ in enumerate(spaces)
           if player in occ]
    for rid in st.rune_hands[player]:
        rune = ed.runes[rid]
        sig = (rune.kind, rune.colour, rune.count, rune.slot, rune.timing)
        if sig in seen:
            continue
        seen.add(sig)
        if window and not rune.any_time or rune.start_of_turn and st.offered:
            continue
        if rune.kind == "gain_favor":
            out.append(RuneGain(rid, note=f"{rune.describe(ed.names)} ({rune.timing_words()})"))
        elif rune.kind == "offer_occupied":
            if not st.offered and not window:
                out += rules._rune_offers(st, player, rid)
        else:
            out += [RuneMove(rid, fi, fj, ti, tj) for fi, fj in own
                    if rune.kind != "move_from_slot" or fi == rune.slot - 1
                    for ti, tj in free if ti != fi
                    if rune.kind != "move_to_colour"
                    or ed.cards[st.slots[ti][0]].colour == rune.colour]
    return out


def test_rune_actions_match_rune_actions_worked_out_afresh():
    moves = 0
    for st in POSITIONS:
        for p in range(st.players):
            for window in (False, True):
                listed = rules._rune_actions(st, p, window)
                assert described(listed) == described(rune_actions_afresh(st, p, window))
                moves += sum(isinstance(a, RuneMove) for a in listed)
    assert moves > 1000


def test_board_plans_kept_by_identity_match_plans_worked_out_afresh():
    """The free card spaces and the open Great Tree spaces are kept while the very same
    fields stand (shared by the states that follow): asked again with the notes cleared,
    the offers are the same."""
    for st in POSITIONS[::3]:
        memo = rules._memo(st.edition)
        for p in range(st.players):
            kept = described(rules._card_offers(st, p)), described(rules._tree_offers(st, p))
            memo["free_plan"], memo["tree_open"] = (None, ()), (None,) * 5
            afresh = described(rules._card_offers(st, p)), described(rules._tree_offers(st, p))
            assert kept == afresh
            assert kept == (described(card_offers_afresh(st, p)),
                            described(tree_offers_afresh(st, p)))


def test_distinct_runes_kept_per_hand_match_runes_sorted_out_afresh():
    kind = attrgetter("kind", "colour", "count", "slot", "timing")
    for st in POSITIONS[::5]:
        ed = st.edition
        for hand in st.rune_hands:
            # the first rune of each kind in the hand, a rune's kind being all it does
            runes = [(rid, ed.runes[rid]) for rid in hand]
            afresh = [(rid, r) for k, (rid, r) in enumerate(runes)
                      if kind(r) not in [kind(o) for _, o in runes[:k]]]
            assert rules._distinct_runes(ed, hand) == tuple(afresh)
            assert rules._distinct_runes(ed, list(hand)) == tuple(afresh)
