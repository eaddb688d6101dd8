"""What a page of the classroom app must not show a student: Python's own output.

Every output a student sees is a widget, a drawing, Markdown or a table with words for
headings.  A value's repr (a tuple, list, dict, ``Counter``, ``True``), an option's name
(``tiles_per_player``), a shell command or a progress bar's ``[00:07<00:00, 40.92game/s]`` is
code, not a page.  Such output belongs in a cell marked for teachers: a cell with the tag
:data:`TEACHER_TAG` is hidden by the app's page template (its outputs are not drawn), and still
runs and shows in JupyterLab.

The Markdown a student reads is words too: a ``code span`` or a fenced block shows as code in
the app (:func:`markdown_code_problems`); a cell for teachers may keep it.

The checks here are used by the tests: on every cell nbval runs (``conftest.py``) and on the
text of every page the app draws in Chromium (``tests/browser``).

>>> raw_text_problems("Same game again: True")
["Python's True or False or None: 'Same game again: True'"]
>>> raw_text_problems("The winner is Blue, with 31 points.")
[]
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

#: the cell tag of a cell only for teachers (and readers of code): hidden in the app
TEACHER_TAG = "teacher"

#: the pages written for teachers as a whole (the teachers' guide may name the code)
TEACHERS_PAGES = ("teachers.ipynb",)

#: text that is Python's, not a page's, with what it is
RAW_PATTERNS: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"\b(?:Counter|defaultdict|OrderedDict|frozenset|dict_keys|dict_values|"
                r"dict_items|namedtuple|array)\(|<[\w.]+ object at "), "a Python object's repr"),
    (re.compile(r"\{\s*(?:'|\"|-?\d+\s*:)"), "a dict's repr"),
    (re.compile(r"[\[(]\s*(?:'[^'\n]*'\s*[,\]]|\"[^\"\n]*\"\s*[,\]]|[\[(]\s*[-\d'\"(\[]|"
                r"None\b|True\b|False\b)"), "a list's or tuple's repr"),
    (re.compile(r"\(-?\d+(?:\.\d+)?(?:,\s*-?\d+(?:\.\d+)?){2,},?\)|\[-?\d+(?:\.\d+)?(?:,\s*"
                r"-?\d+(?:\.\d+)?)*\]"), "a list or tuple of numbers"),
    (re.compile(r"(?<![\w'\"-])(?:True|False|None)(?![\w'\"-])"),
     "Python's True or False or None"),
    (re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"), "a name from the code"),
    (re.compile(r"\b\w+=(?:['\"\w])"), "a keyword argument"),
    (re.compile(r"\bpython3? -m \w|\bpip install\b|\bmake (?:app|lab|test)|\b(?:voila|jupyter) "
                r"[a-z]|(?:^|\s)--[a-z][\w-]*|(?:^|\n)\$ "), "a shell command"),
    (re.compile(r"\d+(?:\.\d+)?\s*(?:it|game|games)/s\b|<\d\d:\d\d"), "a progress bar's numbers"),
)

#: a drawing or a widget: what a student is meant to see (their text is checked in the browser)
_RICH = ("image/svg+xml", "image/png", "image/jpeg", "application/vnd.jupyter.widget-view+json")


def raw_text_problems(text: str) -> list[str]:
    """Each kind of Python output found in ``text``, with a short excerpt around it.

    >>> raw_text_problems("Thorondal the eagle ('Th') stands on Red's Tree at (2, 0).")
    []
    >>> [p.split(":")[0] for p in raw_text_problems("Hand: ('L05',) and [(1, 2), (2, 1)]")]
    ["a list's or tuple's repr"]
    """
    text = text.replace("\u2007", " ").replace("\xa0", " ")   # a page's fixed-width spaces
    found = []
    for pattern, what in RAW_PATTERNS:
        match = pattern.search(text)
        if match:
            start, end = max(0, match.start() - 25), min(len(text), match.end() + 25)
            found.append(f"{what}: {' '.join(text[start:end].split())!r}")
    return found


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _words_of_html(html: str) -> str:
    """The text a reader sees in HTML (tags and style sheets left out)."""
    html = re.sub(r"(?is)<(style|script)\b.*?</\1>", " ", html)
    text = re.sub(r"<[^>]+>", " ", html)
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&#x27;", "'").replace("&#39;", "'").replace("&amp;", "&"))


def output_problems(outputs: Iterable[Mapping[str, Any]]) -> list[str]:
    """What in a cell's outputs (nbformat dicts) is Python's rather than a page's.

    >>> output_problems([{"output_type": "stream", "name": "stdout", "text": "Hand: [5, 6]"}])
    ["a list or tuple of numbers: 'Hand: [5, 6]'"]
    >>> output_problems([{"output_type": "display_data",
    ...                   "data": {"text/markdown": "The winner is **Blue**.", "text/plain": ""}}])
    []
    """
    found = []
    for out in outputs or ():
        kind = out.get("output_type")
        if kind == "stream":
            found += raw_text_problems(_text(out.get("text", "")))
        elif kind in ("display_data", "execute_result"):
            data = out.get("data", {})
            if any(mime in data for mime in _RICH):
                continue
            if "text/markdown" in data:
                found += raw_text_problems(_text(data["text/markdown"]))
            elif "text/html" in data:
                found += raw_text_problems(_words_of_html(_text(data["text/html"])))
            elif _text(data.get("text/plain", "")).strip():
                found.append("a Python value shown as it is (show Markdown or a widget "
                             f"instead): {_text(data['text/plain'])[:60]!r}")
        elif kind == "error":
            found.append("an error")
    return found


def is_for_teachers(cell: Mapping[str, Any]) -> bool:
    """A cell marked for teachers (its outputs are not shown in the app)."""
    return TEACHER_TAG in (cell.get("metadata", {}).get("tags") or ())


def is_teachers_page(path: Any) -> bool:
    """A page written for teachers as a whole (:data:`TEACHERS_PAGES`)."""
    return str(path).replace("\\", "/").rsplit("/", 1)[-1] in TEACHERS_PAGES


#: a fenced block (to its end, or the cell's) or a code span (matching runs of backticks)
_CODE_IN_MARKDOWN = re.compile(r"(?ms)^ {0,3}(```|~~~).*?(?:^ {0,3}\1|\Z)|(`+)(?!`)(.+?)(?<!`)\2(?!`)")


def markdown_code_problems(source: str) -> list[str]:
    """Each code span or fenced block in Markdown a student would read (the app shows it as
    code: say it in words, or mark the cell for teachers).

    >>> markdown_code_problems("Each node is a space's `(q, r)` coordinates.")
    ["code in Markdown: '`(q, r)`'"]
    >>> markdown_code_problems("Each node is a space's (q, r) coordinates; **W** is water.")
    []
    """
    return [f"code in Markdown: {' '.join(m.group(0).split())[:60]!r}"
            for m in _CODE_IN_MARKDOWN.finditer(source)]


def rendered_code_problems(html: str) -> list[str]:
    """The same on Markdown as a page draws it: each ``<code>`` or ``<pre>`` element.

    >>> rendered_code_problems("<p>Each node is <code>(q, r)</code>.</p>")
    ["code in Markdown: '(q, r)'"]
    """
    return [f"code in Markdown: {' '.join(_words_of_html(m.group(2)).split())[:60]!r}"
            for m in re.finditer(r"(?is)<(code|pre)\b[^>]*>(.*?)</\1>", html)]


def markdown_cell_problems(cell: Mapping[str, Any]) -> list[str]:
    """What in a Markdown cell (an nbformat dict) a student would read as code; nothing for a
    cell marked for teachers or a cell that is not Markdown."""
    if cell.get("cell_type") != "markdown" or is_for_teachers(cell):
        return []
    return markdown_code_problems(_text(cell.get("source", "")))


#: ``name=value`` as written in code (an option set to a value)
_SETTING = re.compile(r"""\b([a-z][a-z0-9_.]*)=(?:'([^']*)'|"([^"]*)"|(\w+))""")
#: a name from the code: words joined by underscores (and dots, for a field of a field)
_NAME = re.compile(r"'?(\b[a-z][a-z0-9]*(?:[_.][a-z0-9]+)*_[a-z0-9]+(?:\.[a-z0-9_]+)*\b)'?")


def _spoken(name: str) -> str:
    return name.replace("_", " ").replace(".", ", ")


def in_words(text: str) -> str:
    """Data text written for readers of code (an option's name, ``name=value``) as a student
    reads it: the name's words with spaces, quoted; a setting as the name and its value,
    True and False as on and off.

    >>> in_words("Default (river_rule='rings'): a river is as long as its longest loop.")
    'Default (“river rule” set to “rings”): a river is as long as its longest loop.'
    >>> in_words("The option tiebreak_counts_spirit=True counts it; see great_tree.emptied_root.")
    'The option “tiebreak counts spirit” on counts it; see “great tree, emptied root”.'
    >>> in_words("It is available by setting great_tree.emptied_root to 'free_no_effect'.")
    'It is available by setting “great tree, emptied root” to “free no effect”.'
    >>> raw_text_problems(in_words("The game option storm_spares_thorondal takes it."))
    []
    """
    def setting(match: re.Match) -> str:
        value = next(v for v in match.groups()[1:] if v is not None)
        value = {"True": "on", "False": "off"}.get(value, f"set to “{_spoken(value)}”")
        return f"“{_spoken(match.group(1))}” {value}"

    text = _SETTING.sub(setting, text)
    return _NAME.sub(lambda m: f"“{_spoken(m.group(1))}”", text)
