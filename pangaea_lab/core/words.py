"""Words for what a learner reads: a count with its noun in the right number, a noun with its
article, items listed in a sentence.  Plain functions with no dependency, so that every layer of
a game (its state's summaries as much as its drawings and exercises) can say things in English.
"""

from __future__ import annotations

from typing import Any, Iterable


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun in the right number: ``plural(1, "space")`` -> "1 space".

    >>> plural(1, "space"), plural(3, "space"), plural(2, "Favor Token"), plural(0, "card")
    ('1 space', '3 spaces', '2 Favor Tokens', '0 cards')
    >>> plural(2, "Okuma", "Okumas"), plural(2, "leaf", "leaves")
    ('2 Okumas', '2 leaves')
    """
    if n == 1:
        return f"1 {one}"
    return f"{n} {many if many is not None else one + 's'}"


def a(word: str) -> str:
    """``word`` with its indefinite article: ``a("Tree")``, ``a("Okuma")`` -> "an Okuma".

    >>> a("Tree"), a("Okuma"), a("European Hare"), a("8-point card")
    ('a Tree', 'an Okuma', 'a European Hare', 'an 8-point card')
    """
    first = word[:1].lower()
    vowel = first in "aiou" or (first == "e" and not word.lower().startswith(("eu", "ewe")))
    vowel = vowel or first in "8" or word.startswith(("11 ", "18 "))
    return f"{'an' if vowel else 'a'} {word}"


def listed(items: Iterable[Any], empty: str = "none") -> str:
    """Items in a sentence, the last two joined by "and": ``listed(["Rain", "Sun", "Sun"])``
    -> "Rain, Sun and Sun" (``empty`` when there are none).

    >>> listed(["Rain", "Sun", "Sun"]), listed(["Blue"]), listed([])
    ('Rain, Sun and Sun', 'Blue', 'none')
    """
    words = [str(item) for item in items]
    if not words:
        return empty
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
