"""Links that set the board: ``?seed=12&players=3&side=B`` at the end of a page's address.

A teacher hands the whole class one board by sharing one link.  In the Voilà app the page's
address reaches the kernel (Voilà puts the query string in the ``QUERY_STRING`` environment
variable); in JupyterLab a kernel has no address, so the values are the ones given in the
call (``play(players=3, seed=12)``) or a query text given on purpose
(``play(link="seed=12&players=3")``).

Everything in an address is untrusted.  Each value is checked against the game's declared
options (:class:`LinkSpec`); a bad one is refused with a sentence saying why, the page's own
value is kept, and nothing is ever raised to the page::

    >>> spec = LinkSpec("demo", "Demo", (2, 4), (Flag("fast", False, "fast play"),))
    >>> board = read_board(spec, "seed=12&players=3&fast=yes", players=2, seed=0)
    >>> board.describe()
    'This board: seed 12, 3 players (fast play)'
    >>> board.query()
    'seed=12&players=3&fast=yes'
    >>> bad = read_board(spec, "seed=-1&colour=red", players=2, seed=7)
    >>> bad.seed, len(bad.problems)
    (7, 2)

:func:`board_line` is the widget that shows "This board: ..." with a copy-link button.
"""

from __future__ import annotations

import glob
from html import escape
import json
import os
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Mapping, Union
from urllib.parse import parse_qsl, quote, urlencode

from .errors import InvalidSetup, PangaeaLabError

#: the largest seed a link may carry (teachers use small numbers; the box shows them all)
SEED_MAX = 999_999_999
#: longer query strings are refused whole
MAX_QUERY = 1000
#: more settings than this are refused whole
MAX_FIELDS = 30
#: a value is shown back to the reader cut to this many characters
SHOWN = 24
#: names other parts of the page use in addresses (Voilà's template and theme, a server's
#: token); they are none of our business and are passed over in silence
FOREIGN = frozenset({"template", "theme", "token", "reset", "voila-template", "voila-theme"})

YES = ("yes", "true", "on", "1")
NO = ("no", "false", "off", "0")


def _shown(text: str) -> str:
    """A value from the address as it is quoted back in a message (short, printable)."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in text)
    return repr(clean if len(clean) <= SHOWN else clean[:SHOWN] + "...")


@dataclass(frozen=True)
class Flag:
    """An on/off option, written ``yes`` or ``no`` in a link.  ``on`` and ``off`` are how the
    board line names each value ("" leaves it out); ``needs`` names another option's value
    without which this one means nothing (e.g. Elemental Storms need Wild Woods)."""

    name: str
    default: bool
    on: str = ""
    off: str = ""
    needs: tuple[str, Any] | None = None

    def parse(self, text: str) -> bool:
        low = text.strip().lower()
        if low in YES:
            return True
        if low in NO:
            return False
        raise ValueError(f"{self.name} is yes or no")

    def write(self, value: Any) -> str:
        return "yes" if value else "no"

    def label(self, value: Any) -> str:
        return self.on if value else self.off

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise ValueError(f"{self.name} is True or False, not {value!r}")
        return value


@dataclass(frozen=True)
class Choice:
    """An option with a few allowed values.  ``values`` lists ``(text in a link, value for
    new_game, label on the board line)``; ``aliases`` maps other spellings to a link text."""

    name: str
    default: Any
    values: tuple[tuple[str, Any, str], ...]
    aliases: tuple[tuple[str, str], ...] = ()
    needs: tuple[str, Any] | None = None

    def parse(self, text: str) -> Any:
        low = text.strip().lower()
        low = dict(self.aliases).get(low, low)
        for link_text, value, _ in self.values:
            if low == link_text.lower():
                return value
        allowed = ", ".join(t for t, _, _ in self.values)
        raise ValueError(f"{self.name} is one of {allowed}")

    def write(self, value: Any) -> str:
        for link_text, known, _ in self.values:
            if known == value:
                return link_text
        return str(value)

    def label(self, value: Any) -> str:
        for _, known, label in self.values:
            if known == value:
                return label
        return f"{self.name} {value}"

    def check(self, value: Any) -> Any:
        """A value given in Python (the page's own call): the same spellings are accepted."""
        for _, known, _ in self.values:
            if known == value:
                return value
        if isinstance(value, str):
            return self.parse(value)
        raise ValueError(f"{self.name} is one of {[v for _, v, _ in self.values]}, "
                         f"not {value!r}")


Option = Union[Flag, Choice]


@dataclass(frozen=True)
class LinkSpec:
    """What a link may set for one game: the widest seat range and the options of its
    ``new_game`` that a link may carry (never a file: loading one is an explicit call)."""

    game: str
    title: str
    players: tuple[int, int]
    options: tuple[Option, ...] = ()

    def option(self, name: str) -> Option | None:
        for opt in self.options:
            if opt.name == name:
                return opt
        return None

    @property
    def names(self) -> tuple[str, ...]:
        return ("seed", "players") + tuple(o.name for o in self.options)


@dataclass(frozen=True)
class BoardLink:
    """The board a widget starts: players, seed and the options given to ``new_game``, with
    the link's refused values as plain sentences in ``problems``."""

    spec: LinkSpec
    players: int
    seed: int | str
    options: tuple[tuple[str, Any], ...] = ()
    problems: tuple[str, ...] = ()
    #: True when the page's address set at least one value
    from_link: bool = False
    #: the link names the game too (the start page's picker serves every game)
    with_game: bool = False

    @property
    def kwargs(self) -> dict[str, Any]:
        """Keywords for the game's ``new_game`` / ``play``."""
        return {"players": self.players, "seed": self.seed, **dict(self.options)}

    def not_carried(self) -> list[str]:
        """The settings of this board that a link cannot carry: a seed that is not a whole
        number from 0 to :data:`SEED_MAX`, options a link does not take (a file, a board)."""
        out = [] if (isinstance(self.seed, int) and not isinstance(self.seed, bool)
                     and 0 <= self.seed <= SEED_MAX) else ["seed"]
        return out + [name for name, _ in self.options if self.spec.option(name) is None]

    def linkable(self) -> bool:
        """Whether a link can give this board back."""
        return not self.not_carried()

    def query(self) -> str:
        """The query string that gives this board back (without the leading ``?``); ""
        when the seed cannot go in a link."""
        if not self.linkable():
            return ""
        pairs = [("game", self.spec.game)] if self.with_game else []
        pairs += [("seed", str(self.seed)), ("players", str(self.players))]
        chosen = dict(self.options)
        for opt in self.spec.options:
            if opt.name in chosen:
                pairs.append((opt.name, opt.write(chosen[opt.name])))
        return urlencode(pairs)

    def describe(self) -> str:
        """"This board: seed 12, 3 players (side B, Nature's Spirits)"."""
        seed = self.seed if isinstance(self.seed, int) else repr(self.seed)
        who = f"{self.players} player" + ("" if self.players == 1 else "s")
        chosen = dict(self.options)
        labels = [opt.label(chosen[opt.name]) for opt in self.spec.options
                  if opt.name in chosen and _applies(opt, chosen)]
        labels = [label for label in labels if label]
        game = f"{self.spec.title}, " if self.with_game else ""
        extra = f" ({', '.join(labels)})" if labels else ""
        return f"This board: {game}seed {seed}, {who}{extra}"


def _applies(opt: Option, chosen: Mapping[str, Any]) -> bool:
    """Whether ``opt`` means something next to the other chosen options."""
    if opt.needs is None:
        return True
    name, value = opt.needs
    return chosen.get(name) == value


def parse_query(text: object) -> tuple[dict[str, str], list[str]]:
    """The settings in a query string (``"seed=12&players=3"``, a leading ``?`` is allowed)
    and the problems found; never raises.  Names are compared in lower case; a name given
    twice is refused."""
    if text is None or text == "":
        return {}, []
    if not isinstance(text, str):
        return {}, [f"The link settings must be text, not {type(text).__name__}."]
    text = text.lstrip("?")
    if len(text) > MAX_QUERY:
        return {}, [f"The link's settings are too long ({len(text)} characters, at most "
                    f"{MAX_QUERY}): they are not used."]
    try:
        pairs = parse_qsl(text, keep_blank_values=True, max_num_fields=MAX_FIELDS,
                          errors="replace")
    except ValueError:
        return {}, [f"The link has too many settings (at most {MAX_FIELDS}): they are not "
                    "used."]
    found: dict[str, str] = {}
    twice: list[str] = []
    for name, value in pairs:
        name = name.strip().lower()
        if not name or name in FOREIGN:
            continue
        if name in found and name not in twice:
            twice.append(name)
        found[name] = value
    problems = [f"The link gives {_shown(name)} twice: it is not used." for name in twice]
    for name in twice:
        del found[name]
    return found, problems


def normal_options(spec: LinkSpec, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The page's own options with each known one in the spelling a link gives back
    (``mode="coop"`` and ``mode="ancients"`` are one choice); others are left to the game."""
    out = {}
    for name, value in (options or {}).items():
        opt = spec.option(name)
        try:
            out[name] = value if opt is None else opt.check(value)
        except ValueError:
            out[name] = value       # the game itself says what is wrong with it
    return out


def _seed(text: str) -> int:
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > len(str(SEED_MAX)) \
            or int(digits) > SEED_MAX:
        raise ValueError(f"a seed is a whole number from 0 to {SEED_MAX}")
    return int(digits)


def page_players(spec: LinkSpec, check: Callable[..., Any] | None = None,
                 options: Mapping[str, Any] | None = None, seed: int | str = 0
                 ) -> tuple[int, int]:
    """The player counts this page's game takes: the game's range, narrowed to the counts
    ``check`` (the game's ``new_game``) accepts with the page's ``options`` (The Dawn of
    Pangaea takes 1 player only in its solo/co-op mode)."""
    lo, hi = spec.players
    if check is None:
        return lo, hi
    taken = []
    for n in range(lo, hi + 1):
        try:
            check(players=n, seed=seed, **dict(options or {}))
        except (PangaeaLabError, ValueError, TypeError):
            continue
        taken.append(n)
    return (min(taken), max(taken)) if taken else (lo, hi)


def _players_taken(text: str, spec: LinkSpec) -> bool:
    """A link's player count is a whole number in the game's range (the page may take
    fewer: :func:`page_players`, and the game's own check follows)."""
    lo, hi = spec.players
    digits = text.strip()
    return digits.isascii() and digits.isdigit() and len(digits) <= 3 and lo <= int(digits) <= hi


def read_board(spec: LinkSpec, query: object, players: int, seed: int | str,
               options: Mapping[str, Any] | None = None,
               check: Callable[..., Any] | None = None, with_game: bool = False) -> BoardLink:
    """The board for a page: the call's ``players``, ``seed`` and ``options``, with the values
    the link ``query`` sets instead.  A value the link gets wrong is refused with a sentence
    in :attr:`BoardLink.problems` and the page's own value is kept.  ``check`` (the game's
    ``new_game``) tries the whole combination; if the game refuses it, the page's own board
    is used and the game's reason is given."""
    page = BoardLink(spec, players, seed, tuple(normal_options(spec, options).items()),
                 with_game=with_game)
    found, problems = parse_query(query)
    if not found:
        return replace(page, problems=tuple(problems))
    chosen = dict(page.options)
    new_players, new_seed = players, seed
    refused_players: str | None = None
    used = False
    for name, text in found.items():
        try:
            if name == "game":
                if text.strip().lower() != spec.game:
                    problems.append(f"This page plays {spec.title}; the link's game "
                                    f"{_shown(text)} is not used.")
                continue
            if name == "seed":
                new_seed = _seed(text)
            elif name == "players":
                if not _players_taken(text, spec):
                    refused_players = text     # told below, once the page's options are known
                    continue
                new_players = int(text.strip())
            elif spec.option(name) is not None:
                chosen[name] = spec.option(name).parse(text)  # type: ignore[union-attr]
            else:
                problems.append(f"The link's setting {_shown(name)} is not one of "
                                f"{', '.join(spec.names)}: it is not used.")
                continue
            used = True
        except ValueError as exc:
            problems.append(f"The link's {name} {_shown(text)} is refused ({exc}): the page's "
                            "own value is used.")
    if refused_players is not None:
        lo, hi = page_players(spec, check, chosen, new_seed)
        problems.insert(0, f"The link's players {_shown(refused_players)} is refused "
                           f"({spec.title} on this page is for {lo} to {hi} players): the "
                           "page's own value is used.")
    for opt in spec.options:
        if opt.name in chosen and opt.name in found and not _applies(opt, chosen):
            need, value = opt.needs  # type: ignore[misc]
            written = spec.option(need).write(value)  # type: ignore[union-attr]
            problems.append(f"The link's {opt.name} only counts with {need}={written}: it is "
                            "not used.")
            chosen.pop(opt.name)
            if opt.name in dict(page.options):
                chosen[opt.name] = dict(page.options)[opt.name]
    board = BoardLink(spec, new_players, new_seed, tuple(chosen.items()), tuple(problems),
                  from_link=used, with_game=with_game)
    if used and check is not None:
        try:
            check(**board.kwargs)
        except PangaeaLabError as exc:
            return BoardLink(spec, players, seed, page.options,
                         tuple(problems) + (f"The link's board cannot be set up: "
                                            f"{str(exc).rstrip('.')}. This is the page's own "
                                            "board.",), with_game=with_game)
    return board


# ----- the page's address ----------------------------------------------------------------------

_heard: dict[str, str] = {}


def in_voila() -> bool:
    """Whether this kernel serves a Voilà page (Voilà marks its kernels' environment)."""
    return "VOILA_BASE_URL" in os.environ or "VOILA_PREHEAT" in os.environ


def page_query() -> str | None:
    """The query string of the Voilà page this kernel serves; ``None`` outside Voilà (in
    JupyterLab a kernel has no address).  A pre-heated Voilà kernel first waits for the page
    request that takes it over, once."""
    if not in_voila():
        return None
    if os.environ.get("VOILA_PREHEAT") == "True" and "done" not in _heard:
        _heard["done"] = "yes"
        try:
            from voila.utils import wait_for_request  # only inside a Voilà kernel
            wait_for_request()
        except Exception:  # no request info: the page's own values are used
            return None
    return os.environ.get("QUERY_STRING", "")


def _server_for(path: str) -> dict | None:
    """The running Jupyter server (from its runtime file) whose folder holds ``path``."""
    try:
        from jupyter_core.paths import jupyter_runtime_dir  # only for finding the server
        folder = jupyter_runtime_dir()
    except Exception:
        return None
    best: dict | None = None
    for name in glob.glob(os.path.join(folder, "jpserver-*.json")):
        try:
            with open(name, encoding="utf-8") as handle:
                info = json.load(handle)
            root = os.path.realpath(str(info["root_dir"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if path.startswith(root.rstrip(os.sep) + os.sep) and (
                best is None or len(root) > len(best["root"])):
            best = {"root": root, "base_url": str(info.get("base_url", "/"))}
    return best


def app_path() -> str:
    """The path of the app page that shows this notebook (the part of the address after the
    host): the page itself in Voilà; in JupyterLab the same server's Voilà page for the open
    notebook.  "" when it cannot be told."""
    if in_voila():
        return shareable(os.environ.get("SCRIPT_NAME", ""))
    notebook = os.environ.get("JPY_SESSION_NAME", "")
    if not notebook or not os.path.isabs(notebook):
        return ""
    notebook = os.path.realpath(notebook)
    server = _server_for(notebook)
    if server is None:
        return ""
    relative = os.path.relpath(notebook, server["root"]).replace(os.sep, "/")
    base = server["base_url"] if server["base_url"].endswith("/") else server["base_url"] + "/"
    return shareable(f"{base}voila/render/{quote(relative)}")


def shareable(path: str) -> str:
    """On a JupyterHub, a page's path names its owner's server (``/user/ada/voila/...``), which
    a classmate may not open; the hub's ``/hub/user-redirect/voila/...`` opens the same page on
    the server of whoever follows it.  Elsewhere the path is kept.

    >>> os.environ["JUPYTERHUB_SERVICE_PREFIX"] = "/user/ada/"
    >>> shareable("/user/ada/voila/render/harmonies/02.ipynb")
    '/hub/user-redirect/voila/render/harmonies/02.ipynb'
    >>> del os.environ["JUPYTERHUB_SERVICE_PREFIX"]
    >>> shareable("/voila/render/harmonies/02.ipynb")
    '/voila/render/harmonies/02.ipynb'
    """
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "")
    if prefix.startswith("/user/") and path.startswith(prefix):
        hub = os.environ.get("JUPYTERHUB_BASE_URL", "/")
        hub = hub if hub.endswith("/") else hub + "/"
        return f"{hub}hub/user-redirect/{path[len(prefix):]}"
    return path


def board_from_page(spec: LinkSpec, players: int, seed: int | str,
                    options: Mapping[str, Any] | None, link: object = True,
                    check: Callable[..., Any] | None = None) -> BoardLink:
    """The board a game's ``play`` starts: ``link=True`` reads the page's address (the Voilà
    app), ``link="seed=12&players=3"`` reads that text, ``link=False`` uses the call's values
    only, and a :class:`BoardLink` (the start page's picker reads the address itself) is used as
    it is."""
    if isinstance(link, BoardLink):
        return link
    if link is True:
        query: object = page_query()
    elif link is False or link is None:
        query = None
    elif isinstance(link, str):
        query = link
    else:
        raise InvalidSetup(f"link must be True (read the page's address), False, a query text "
                           f"such as 'seed=12&players=3' or a BoardLink, not {link!r}")
    return read_board(spec, query, players, seed, options, check=check)


# ----- the line on the page --------------------------------------------------------------------

_SCRIPT = """
function address(model) {
  const query = model.get("query");
  if (!query) return "";
  const path = model.get("path");
  if (!path) return "?" + query;
  try { return new URL(path + "?" + query, window.location.href).href; }
  catch (e) { return "?" + query; }
}

async function copy(text, field) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (e) { /* fall back to selecting the text */ }
  field.focus();
  field.select();
  try { return document.execCommand("copy"); } catch (e) { return false; }
}

function render({ model, el }) {
  el.classList.add("pl-board-link");
  const line = document.createElement("div");
  const text = document.createElement("span");
  text.className = "pl-board-text";
  const field = document.createElement("input");
  field.type = "text";
  field.readOnly = true;
  field.className = "pl-board-url";
  field.setAttribute("aria-label", "Link to this board");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "pl-copy-link jupyter-button";
  button.textContent = "Copy link";
  button.title = "Copy a link that opens this board (same seed, players and options)";
  const status = document.createElement("span");
  status.className = "pl-copy-status";
  status.setAttribute("role", "status");
  const problems = document.createElement("div");
  problems.className = "pl-link-problems";
  problems.setAttribute("role", "alert");
  line.append(text, " ", button, " ", status);
  el.append(line, field, problems);

  const draw = () => {
    text.textContent = model.get("text");
    const link = address(model);
    field.value = link;
    field.style.display = link ? "" : "none";
    button.style.display = link ? "" : "none";
    status.textContent = model.get("note");
    problems.replaceChildren(...model.get("problems").map((p) => {
      const item = document.createElement("div");
      item.textContent = "\u26a0 " + p;
      return item;
    }));
  };
  draw();
  model.on("change", draw);
  button.addEventListener("click", async () => {
    const done = await copy(field.value, field);
    status.textContent = done ? "Link copied." : "Select the link above and copy it.";
  });
}

export default { render };
"""

_STYLE = """
.pl-board-link { margin: 2px 0 6px 0; }
.pl-board-link .pl-board-text { font-weight: bold; }
.pl-board-link .pl-board-url { width: 100%; max-width: 48em; box-sizing: border-box;
  font-family: monospace; margin-top: 2px; }
.pl-board-link .pl-link-problems { color: #7a1f12; }
"""


@lru_cache(maxsize=1)
def _widget_class() -> Any:
    import anywidget  # the copy button runs in the browser
    import traitlets  # comes with the widget toolkit

    class BoardLine(anywidget.AnyWidget):
        """"This board: seed 12, 3 players" with the link that gives it back and a Copy
        button; ``problems`` lists the link's refused values in plain words."""

        _esm = _SCRIPT
        _css = _STYLE
        text = traitlets.Unicode("").tag(sync=True)
        query = traitlets.Unicode("").tag(sync=True)
        path = traitlets.Unicode("").tag(sync=True)
        note = traitlets.Unicode("").tag(sync=True)
        problems = traitlets.List(traitlets.Unicode()).tag(sync=True)

    return BoardLine


@dataclass
class BoardLineContent:
    """What the line shows, worked out in Python (so tests need no browser)."""

    text: str
    query: str
    path: str
    note: str
    problems: list[str] = field(default_factory=list)


def line_content(board: BoardLink, path: str | None = None) -> BoardLineContent:
    """The text, link parts and notes for ``board``; ``path`` defaults to :func:`app_path`."""
    path = app_path() if path is None else path
    query = board.query()
    missing = board.not_carried()
    if missing == ["seed"]:
        note = f"(a link carries whole-number seeds from 0 to {SEED_MAX} only)"
    elif missing:
        note = f"(a link cannot carry this board's {', '.join(missing)})"
    elif not path:
        note = "Add this to the app page's address."
    else:
        note = ""
    return BoardLineContent(board.describe(), query, path, note, list(board.problems))


def board_line(board: BoardLink, path: str | None = None) -> Any:
    """The widget: "This board: ..." with a copy-link button and the link's problems.  Without
    anywidget it is a plain ``ipywidgets.HTML`` showing the same words and the link's
    settings."""
    content = line_content(board, path)
    try:
        widget = _widget_class()()
    except ImportError:  # pragma: no cover - anywidget is a dependency of the project
        import ipywidgets  # a plain stand-in when the widget toolkit is missing
        widget = ipywidgets.HTML()
    update_line(widget, board, content)
    widget.add_class("pl-board-line")
    return widget


def update_line(widget: Any, board: BoardLink, content: BoardLineContent | None = None) -> None:
    """Show ``board`` on a widget made by :func:`board_line` (the path is kept)."""
    if content is None:
        content = line_content(board, getattr(widget, "path", None))
    if hasattr(widget, "query"):
        with widget.hold_sync():
            widget.text, widget.query, widget.path = content.text, content.query, content.path
            widget.note, widget.problems = content.note, content.problems
        return
    parts = [f"<b>{escape(content.text)}</b>"]
    if content.query:
        parts.append(f" <code>?{escape(content.query)}</code>")
    parts += [f"<div>&#9888; {escape(p)}</div>" for p in content.problems]
    widget.value = "".join(parts)
