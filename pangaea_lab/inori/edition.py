"""An Inori edition: every card, rune, altar, Great Tree space and table of numbers, as data.

Much of the printed card data is not public, so the package ships a *reference edition*
(``data/reference_edition.json``) built from public facts plus labelled assumptions, and a user
can load their own file with :func:`load_edition`.  Every section carries a ``source`` label
(``rulebook`` / ``public source`` / ``assumption``) that the notebooks and summaries show.

>>> ed = load_edition()
>>> ed.label, len(ed.cards), len(ed.runes), len(ed.tree)
('assumption', 54, 15, 9)
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.engine import plain_attributes
from ..core.errors import InvalidData
from ..core.exercises import a as article
from ..core.jsonio import dumps, load_file, parse
from ..core.validate import kind_of
from .cards import Card, Effect, parse_card, parse_effect

DATA_DIR = Path(__file__).parent / "data"
REFERENCE_FILE = DATA_DIR / "reference_edition.json"

#: Great Tree effects (rules summary, "Offer to the Great Tree"), with their needed fields
TREE_EFFECTS: dict[str, tuple[str, ...]] = {
    "favor_any": ("count",),               # take any N favor tokens
    "points": ("count",),                  # score N points
    "rune_and_altar_favor": ("count",),    # a rune + N tokens of the altar colour
    "points_altar_colour": (),             # 1 point per token of the altar colour
    "block_and_altar_favor": ("count",),   # block card spaces + N altar-colour tokens
    "altar_favor": ("count",),             # N tokens of the altar colour
    "set_aside": (),                       # the tokens set aside at setup
}

RUNE_KINDS = ("gain_favor", "move_to_colour", "move_from_slot", "offer_occupied")
#: when a rune may be played: ``any_time`` (any moment of your own turn, and outside it when a
#: season ends, before its cards are scored), ``turn_start`` (only at the start of your own
#: turn, before your offering; ``before_offering`` is the same), ``own_turn`` (any moment of
#: your own turn only)
RUNE_TIMINGS = ("any_time", "turn_start", "own_turn", "before_offering")
#: what an emptied root space is: ``closed`` (no more offerings) or ``free_no_effect``
EMPTIED_ROOT = ("closed", "free_no_effect")
LABELS = ("rulebook", "public source", "assumption")


@dataclass(frozen=True)
class TreeSpace:
    """A Great Tree space: altar spaces take an Altar tile on first use; roots do not."""

    id: str
    name: str
    altar: bool
    effect: Effect
    first: int = 0
    second: int = 0


@dataclass(frozen=True)
class Rune:
    """A Rune tile; ``timing`` is one of :data:`RUNE_TIMINGS`."""

    id: str
    kind: str
    timing: str
    colour: str | None = None
    count: int = 0
    slot: int = 0

    def describe(self, names: dict[str, str]) -> str:
        if self.kind == "gain_favor":
            return f"gain {self.count} {names[self.colour]} favor"  # type: ignore[index]
        if self.kind == "move_to_colour":
            return f"move a marker onto {article(names[self.colour])} card"  # type: ignore[index]
        if self.kind == "move_from_slot":
            return f"move a marker off the card in slot {self.slot}"
        return "offer on a space held by another player"

    @property
    def start_of_turn(self) -> bool:
        """Only at the start of its owner's turn, before the offering."""
        return self.timing in ("turn_start", "before_offering")

    @property
    def any_time(self) -> bool:
        """Also outside its owner's turn (when a season ends, before the scoring)."""
        return self.timing == "any_time"

    def timing_words(self) -> str:
        if self.any_time:
            return "at any moment, also when a season ends, before its scoring"
        if self.start_of_turn:
            return "only at the start of your turn, before your offering"
        return "any moment of your own turn"


class Edition:
    """A validated edition.  Two editions are equal when their data are equal."""

    def __init__(self, raw: dict, origin: str) -> None:
        self.raw = raw
        self.origin = origin
        self.fingerprint = hashlib.sha256(dumps(raw).encode("utf-8")).hexdigest()[:16]
        _validate_into(self, raw, origin)
        plain_attributes(self)      # read all game long (see plain_attributes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Edition) and other.fingerprint == self.fingerprint

    def __hash__(self) -> int:
        return hash(self.fingerprint)

    def __repr__(self) -> str:
        return f"<Inori edition {self.name!r} ({self.label}), {len(self.cards)} cards>"

    @property
    def is_reference(self) -> bool:
        return self.fingerprint == reference_edition().fingerprint

    def colour_name(self, colour: str | None) -> str:
        return self.names.get(colour, str(colour)) if colour else "-"

    def summary(self) -> str:
        """A few lines naming the edition, its label and each section's source label."""
        lines = [f"Edition: {self.name}  [label: {self.label}]", self.description]
        for section, label in self.sources.items():
            lines.append(f"  {section}: {label}")
        return "\n".join(line for line in lines if line)

    def assumption_table(self) -> list[tuple[str, str, str]]:
        """(topic, text, label) rows for every assumption the edition lists."""
        return [(a["topic"], a["text"], a.get("source", "assumption"))
                for a in self.assumptions]


#: the largest custom edition the loader accepts (the reference edition is far smaller);
#: checked before anything is built from a list
LIMITS = {"colours": 16, "cards": 400, "great_tree.spaces": 40, "runes": 100,
          "rune count": 20, "altars.colours": 16}


def _sized(value: Any, where: str) -> list:
    """``value`` checked to be a list no longer than ``LIMITS[where]``."""
    if not isinstance(value, list):
        raise InvalidData(f"field {where!r} must be a list, got {kind_of(value)}")
    if len(value) > LIMITS[where]:
        raise InvalidData(f"field {where!r} lists {len(value)} items; an edition has at most "
                          f"{LIMITS[where]}")
    return value


def _need(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict):
        raise InvalidData(f"{where} must be a JSON object")
    if key not in obj:
        raise InvalidData(f"missing field {where}.{key}" if where else f"missing field {key!r}")
    return obj[key]


def _value(raw: dict, key: str, low: int, high: int) -> int:
    item = _need(raw, key, "edition")
    value = _need(item, "value", key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidData(f"field {key}.value must be a whole number from {low} to {high}, "
                          f"found {value!r}")
    return value


def _label(item: Any, where: str) -> str:
    label = item.get("source", "assumption") if isinstance(item, dict) else "assumption"
    if not isinstance(label, str) or not label:
        raise InvalidData(f"{where}.source must be a text label such as "
                          f"{', '.join(repr(x) for x in LABELS)}")
    return label


def _validate_into(ed: Edition, raw: Any, origin: str) -> None:
    """Check ``raw`` field by field and fill ``ed``; errors name the file and the field."""
    try:
        _fill(ed, raw)
    except InvalidData as exc:
        raise InvalidData(f"Inori edition {origin}: {exc}") from None
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        raise InvalidData(f"Inori edition {origin}: a field has the wrong shape "
                          f"({type(exc).__name__}: {exc})") from None


def _fill(ed: Edition, raw: Any) -> None:
    """Fill ``ed`` section by section, in the order the checks report a problem."""
    if not isinstance(raw, dict):
        raise InvalidData("the edition must be a JSON object at the top level")
    if raw.get("format") != 1:
        raise InvalidData(f"field 'format' must be 1, found {raw.get('format')!r}")
    ed.name = _need(raw, "name", "")
    ed.label = _need(raw, "label", "")
    if not isinstance(ed.name, str) or not isinstance(ed.label, str):
        raise InvalidData("fields 'name' and 'label' must be texts")
    ed.description = raw.get("description", "")
    sources: dict[str, str] = {}
    _fill_colours(ed, raw, sources)
    _fill_numbers(ed, raw, sources)
    _fill_markers(ed, raw, sources)
    _fill_cards(ed, raw, sources)
    _fill_tree(ed, raw, sources)
    _fill_altars(ed, raw, sources)
    _fill_runes(ed, raw, sources)
    tb = _need(raw, "tie_break", "")
    if _need(tb, "rule", "tie_break") not in ("most_favor_left", "shared"):
        raise InvalidData("tie_break.rule must be 'most_favor_left' or 'shared'")
    ed.tie_break = tb["rule"]
    sources["tie-break"] = _label(tb, "tie_break")
    ed.assumptions = tuple(a for a in raw.get("assumptions", []) if isinstance(a, dict)
                           and "topic" in a and "text" in a)
    ed.sources = sources


def _fill_colours(ed: Edition, raw: dict, sources: dict[str, str]) -> None:
    """The spirits' colours, in opposed pairs: ids, names, drawing colours, opposites."""
    cols = _sized(_need(raw, "colours", ""), "colours")
    if not isinstance(cols, list) or len(cols) < 2 or len(cols) % 2:
        raise InvalidData("field 'colours' must be a list with an even number of colours "
                          "(spirits come in opposed pairs)")
    ed.colours = tuple(_need(c, "id", f"colours[{i}]") for i, c in enumerate(cols))
    if len(set(ed.colours)) != len(ed.colours) or not all(isinstance(c, str) for c in ed.colours):
        raise InvalidData("field 'colours': colour ids must be distinct texts")
    known = set(ed.colours)
    ed.names = {c["id"]: str(c.get("name", c["id"])) for c in cols}
    ed.draw = {c["id"]: str(c.get("draw", "#999999")) for c in cols}
    ed.opposite = {}
    for i, c in enumerate(cols):
        opp = _need(c, "opposite", f"colours[{i}]")
        if not isinstance(opp, str) or opp not in known or opp == c["id"]:
            raise InvalidData(f"colours[{i}].opposite: {opp!r} is not another known colour")
        ed.opposite[c["id"]] = opp
    for c, o in ed.opposite.items():
        if ed.opposite[o] != c:
            raise InvalidData(f"colours: {c!r} is opposed to {o!r} but {o!r} is opposed to "
                              f"{ed.opposite[o]!r}; opposition must go both ways")
    sources["colours"] = raw.get("colours_source", "assumption")


def _fill_numbers(ed: Edition, raw: dict, sources: dict[str, str]) -> None:
    """The single numbers: favor tokens per colour, seasons, neutral markers, start cards."""
    ed.favor_per_colour = _value(raw, "favor_tokens_per_colour", 1, 99)
    sources["favor tokens"] = _label(raw["favor_tokens_per_colour"], "favor_tokens_per_colour")
    ed.seasons = _value(raw, "seasons", 1, 10)
    sources["seasons"] = _label(raw["seasons"], "seasons")
    ed.neutral_markers = _value(raw, "neutral_markers", 0, 10)
    sources["neutral markers"] = _label(raw["neutral_markers"], "neutral_markers")
    ed.start_cards_dealt = _value(raw, "start_cards_dealt", 1, 12)
    sources["start cards dealt"] = _label(raw["start_cards_dealt"], "start_cards_dealt")
    ed.new_start_draw = _value(raw, "new_start_draw", 1, 6)
    sources["new start draw"] = _label(raw["new_start_draw"], "new_start_draw")


def _fill_markers(ed: Edition, raw: dict, sources: dict[str, str]) -> None:
    """Markers per player count, and each variant's schedule of markers per season."""
    pm = _need(raw, "player_markers", "")
    total = _need(pm, "total", "player_markers")
    ed.markers_total = {}
    for n in (2, 3, 4):
        v = _need(total, str(n), "player_markers.total")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 20:
            raise InvalidData(f"field player_markers.total.{n} must be a whole number 1-20")
        ed.markers_total[n] = v
    sources["player markers"] = _label(pm, "player_markers")
    ms = _need(raw, "marker_schedule", "")
    ed.schedules = {}
    for variant, table in ms.items():
        if variant == "source":
            continue
        where = f"marker_schedule.{variant}"
        if not isinstance(table, dict):
            raise InvalidData(f"{where} must map player counts to lists")
        ed.schedules[variant] = {n: _schedule_row(ed, table, n, where) for n in (2, 3, 4)}
    if "default" not in ed.schedules:
        raise InvalidData("marker_schedule must have a 'default' table")
    sources["marker schedule"] = _label(ms, "marker_schedule")


def _schedule_row(ed: Edition, table: dict, n: int, where: str) -> tuple[int, ...]:
    """The markers each of ``n`` players holds season by season: one whole number per
    season, never going down, within the player's markers."""
    row = _need(table, str(n), where)
    if (not isinstance(row, list) or len(row) != ed.seasons
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in row)):
        raise InvalidData(f"{where}.{n} must list {ed.seasons} whole numbers, "
                          f"one per season")
    if row[0] < 1 or any(b < a for a, b in zip(row, row[1:])):
        raise InvalidData(f"{where}.{n}: markers per season must start at 1 or more "
                          f"and never go down, found {row}")
    if row[-1] > ed.markers_total[n]:
        raise InvalidData(f"{where}.{n}: season {ed.seasons} needs {row[-1]} markers "
                          f"but player_markers.total.{n} is {ed.markers_total[n]}")
    return tuple(row)


def _fill_cards(ed: Edition, raw: dict, sources: dict[str, str]) -> None:
    """The cards, and the decks made from them: start, New Start and a journey pile per
    colour, each large enough for a whole game."""
    cards_raw = _sized(_need(raw, "cards", ""), "cards")
    if not isinstance(cards_raw, list):
        raise InvalidData("field 'cards' must be a list")
    known = set(ed.colours)
    cards: dict[str, Card] = {}
    for i, c in enumerate(cards_raw):
        card = parse_card(c, f"cards[{i}]", known)
        if card.id in cards:
            raise InvalidData(f"cards[{i}].id: the id {card.id!r} is used twice")
        cards[card.id] = card
    ed.cards = cards
    ed.start_ids = tuple(c.id for c in cards.values() if c.type == "start")
    ed.new_start_ids = tuple(c.id for c in cards.values() if c.type == "new_start")
    ed.piles = {col: tuple(c.id for c in cards.values() if c.type == "journey" and c.colour == col)
                for col in ed.colours}
    for col, pile in ed.piles.items():
        if not pile:
            raise InvalidData(f"cards: there is no journey card of colour {col!r}; each colour "
                              f"needs a pile for replacements")
    need_new = ed.new_start_draw * (ed.seasons - 1)
    if len(ed.new_start_ids) < need_new:
        raise InvalidData(f"cards: {len(ed.new_start_ids)} new_start cards, but "
                          f"{ed.seasons - 1} season ends x {ed.new_start_draw} drawn need "
                          f"{need_new}")
    if not _can_deal_start(ed):
        raise InvalidData(f"cards: the start cards cannot give {ed.start_cards_dealt} cards "
                          f"with no two opposed spirits")
    late = [c.id for c in cards.values() if c.earliest_season > ed.seasons]
    if late:
        raise InvalidData(f"cards: {late[0]!r} has an earliest_season after the last "
                          f"season ({ed.seasons})")
    sources["cards"] = raw.get("cards_source", "assumption")


def _fill_tree(ed: Edition, raw: dict, sources: dict[str, str]) -> None:
    """The Great Tree: its spaces (a root space per start card), the altar cost, the
    tokens set aside on each root and what an emptied root becomes."""
    gt = _need(raw, "great_tree", "")
    spaces_raw = _sized(_need(gt, "spaces", "great_tree"), "great_tree.spaces")
    if not isinstance(spaces_raw, list) or not spaces_raw:
        raise InvalidData("great_tree.spaces must be a non-empty list")
    known = set(ed.colours)
    tree = [_tree_space(s, f"great_tree.spaces[{i}]", known) for i, s in enumerate(spaces_raw)]
    ed.tree = tuple(tree)
    if len({t.id for t in tree}) != len(tree):
        raise InvalidData("great_tree.spaces: space ids must be distinct")
    roots = [t for t in tree if not t.altar]
    if len(roots) != ed.start_cards_dealt:
        raise InvalidData(f"great_tree.spaces: {len(roots)} root spaces, but each of the "
                          f"{ed.start_cards_dealt} start cards needs one for its set-aside tokens")
    ed.altar_cost = gt.get("altar_cost", 1)
    ed.set_aside_per_root = gt.get("set_aside_per_root", 2)
    for name in ("altar_cost", "set_aside_per_root"):
        v = getattr(ed, name)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10:
            raise InvalidData(f"great_tree.{name} must be a whole number from 0 to 10")
    ed.emptied_root = gt.get("emptied_root", "closed")
    if ed.emptied_root not in EMPTIED_ROOT:
        raise InvalidData(f"great_tree.emptied_root must be one of {', '.join(EMPTIED_ROOT)}, "
                          f"found {ed.emptied_root!r}")
    sources["great tree"] = _label(gt, "great_tree")


def _tree_space(s: Any, where: str, known: set[str]) -> TreeSpace:
    """One Great Tree space: set_aside effects on root spaces, every other on altar spaces."""
    sid = _need(s, "id", where)
    altar = _need(s, "altar", where)
    if not isinstance(altar, bool):
        raise InvalidData(f"{where}.altar must be true or false")
    eff = parse_effect(_need(s, "effect", where), f"{where}.effect", known, TREE_EFFECTS)
    if altar == (eff.type == "set_aside"):
        raise InvalidData(f"{where}: set_aside effects belong on root spaces "
                          f"(altar false) and every other effect on altar spaces")
    first, second = s.get("first", 0), s.get("second", 0)
    for name, v in (("first", first), ("second", second)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 50:
            raise InvalidData(f"{where}.{name} must be a whole number from 0 to 50")
    return TreeSpace(id=str(sid), name=str(s.get("name", sid)), altar=altar, effect=eff,
                     first=first, second=second)


def _fill_altars(ed: Edition, raw: dict, sources: dict[str, str]) -> None:
    """The Altar tiles' colours: distinct known colours, enough for every altar space."""
    altars = _need(raw, "altars", "")
    ed.altar_colours = tuple(_sized(_need(altars, "colours", "altars"), "altars.colours"))
    if set(ed.altar_colours) - set(ed.colours) \
            or len(set(ed.altar_colours)) != len(ed.altar_colours):
        raise InvalidData("altars.colours must list distinct known colour ids")
    if len(ed.altar_colours) < sum(t.altar for t in ed.tree):
        raise InvalidData(f"altars.colours: {len(ed.altar_colours)} altar tiles for "
                          f"{sum(t.altar for t in ed.tree)} altar spaces")
    sources["altars"] = _label(altars, "altars")


def _fill_runes(ed: Edition, raw: dict, sources: dict[str, str]) -> None:
    """The Rune tiles, each id used once."""
    runes_raw = _sized(_need(raw, "runes", ""), "runes")
    if not isinstance(runes_raw, list):
        raise InvalidData("field 'runes' must be a list")
    known = set(ed.colours)
    runes = {}
    for i, r in enumerate(runes_raw):
        where = f"runes[{i}]"
        rune = _rune(ed, r, where, known)
        if rune.id in runes:
            raise InvalidData(f"{where}.id: the id {rune.id!r} is used twice")
        runes[rune.id] = rune
    ed.runes = runes
    sources["runes"] = raw.get("runes_source", "assumption")


def _rune(ed: Edition, r: Any, where: str, known: set[str]) -> Rune:
    """One Rune tile: its kind and timing, and the colour, count or slot its kind needs."""
    rid = _need(r, "id", where)
    if not isinstance(rid, str) or not rid:
        raise InvalidData(f"{where}.id must be a non-empty text")
    kind = _need(r, "kind", where)
    if kind not in RUNE_KINDS:
        raise InvalidData(f"{where}.kind: unknown rune kind {kind!r} "
                          f"(known: {', '.join(RUNE_KINDS)})")
    timing = r.get("timing", "own_turn")
    if timing not in RUNE_TIMINGS:
        raise InvalidData(f"{where}.timing must be one of {', '.join(RUNE_TIMINGS)}")
    colour = r.get("colour")
    if colour is not None and not isinstance(colour, str):
        raise InvalidData(f"{where}.colour must be a colour id")
    if kind in ("gain_favor", "move_to_colour") and colour not in known:
        raise InvalidData(f"{where}.colour: rune kind {kind!r} needs a known colour, "
                          f"found {colour!r}")
    count, slot = r.get("count", 0), r.get("slot", 0)
    if kind == "gain_favor" and (isinstance(count, bool) or not isinstance(count, int)
                                 or not 1 <= count <= LIMITS["rune count"]):
        raise InvalidData(f"{where}.count must be a whole number from 1 to "
                          f"{LIMITS['rune count']}")
    if kind == "move_from_slot" and (isinstance(slot, bool) or not isinstance(slot, int) or
                                     not 1 <= slot <= ed.start_cards_dealt):
        raise InvalidData(f"{where}.slot must name a card slot from 1 to "
                          f"{ed.start_cards_dealt} (slots that always hold a card)")
    return Rune(id=rid, kind=kind, timing=timing, colour=colour, count=count, slot=slot)


def _can_deal_start(ed: Edition) -> bool:
    """Whether some choice of start cards has no two opposed colours (small search)."""
    colours = {ed.cards[i].colour for i in ed.start_ids}
    chosen: set[str] = set()
    for c in sorted(colours):
        if ed.opposite[c] not in chosen:
            chosen.add(c)
    return len(chosen) >= ed.start_cards_dealt


@lru_cache(maxsize=1)
def reference_edition() -> Edition:
    """The bundled reference edition (cached)."""
    return Edition(load_file(REFERENCE_FILE, what="reference edition"), "reference")


_CACHE: dict[str, Edition] = {}


def load_edition(source: str | Path | dict | Edition | None = None) -> Edition:
    """Load and validate an edition.

    ``source`` may be None (the reference edition), a path to a JSON file, JSON text, a dict
    (e.g. the reference data changed in a few places) or an :class:`Edition`.  A malformed
    file raises :class:`InvalidData` naming the field, e.g.
    ``cards[3] (S-fire-2).spaces[1].cost must be null, "majority" or a colour id``.
    """
    if source is None:
        return reference_edition()
    if isinstance(source, Edition):
        return source
    if isinstance(source, dict):
        raw, origin = copy.deepcopy(source), "(given as a dict)"
    elif isinstance(source, Path) or (isinstance(source, str) and
                                      not source.lstrip().startswith("{")):
        raw, origin = load_file(source, what="edition file"), repr(str(source))
    elif isinstance(source, str):
        raw, origin = parse(source, what="edition text"), "(given as text)"
    else:
        raise InvalidData(f"an edition must be a file path, JSON text or a dict, "
                          f"not {type(source).__name__}")
    key = dumps(raw)
    if key not in _CACHE:
        _CACHE[key] = Edition(raw, origin)
    return _CACHE[key]


#: the editions shipped with the package, by the name a save may give
SHIPPED = {"reference": reference_edition}


def edition_of_save(value: Any) -> Edition:
    """The edition a save refers to: the name of a shipped edition, or the edition's data
    embedded in the save.  Never a file: loading an edition from a file is the explicit call
    ``load_edition(path)``, so a save cannot make the program open a path."""
    if isinstance(value, str):
        if value in SHIPPED:
            return SHIPPED[value]()
        raise InvalidData(f"field 'edition': {value[:40]!r} is not an edition shipped with the "
                          f"package ({', '.join(sorted(SHIPPED))}); a save names a shipped "
                          "edition or embeds the edition's data")
    if isinstance(value, dict):
        return load_edition(value)
    raise InvalidData("field 'edition': expected the name of a shipped edition or the "
                      f"edition's data, got {kind_of(value)}")


def reference_data() -> dict:
    """A fresh copy of the reference edition's data, to edit and load as your own."""
    return copy.deepcopy(reference_edition().raw)
