"""Small exercise kinds, one per answer kind, for checking the exercise widget in a browser
without depending on any game's generators.  Importing this module registers them.

They follow the rules of the real kinds: a generator ``(seed, level)``, at least two hints that
depend on the position (a nudge, then a pointer that names this position's rows or numbers),
and reasons that say what is wrong in an answer without giving the right one.

The browser tests copy this file next to throw-away notebooks in the served folder
(:func:`write_notebook`); the notebooks import it, so the kernel knows the kinds, and the tests
import it too, so they can work out every right answer and every reason with the same
generators.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

from pangaea_lab.core.exercises import Exercise, Option, Verdict, plural, register

SIZE = 4
SPACES = [(q, r) for q in range(SIZE) for r in range(SIZE)]
NOTEBOOK_FOLDER = "exercise_check"
LEVELS = ("a few lakes on a small board", "lakes among hills that look alike")


def draw(lakes, hills=frozenset()):
    """A 4 x 4 grid; lakes show a wave letter W, hills an H; marked squares get a thick
    outline and their click number."""
    def picture(marked):
        marked = [tuple(c) for c in marked]
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" '
                 'viewBox="0 0 200 200">']
        for q, r in SPACES:
            x, y = q * 50, r * 50
            mark = (q, r) in marked
            fill = "#9cd" if (q, r) in lakes else "#cb9" if (q, r) in hills else "#eed"
            parts.append(f'<g data-cell="{q},{r}"><rect x="{x}" y="{y}" width="50" height="50" '
                         f'fill="{fill}" stroke="#222" stroke-width="{5 if mark else 1}"/>'
                         f'<title>space ({q}, {r})</title>')
            letter = "W" if (q, r) in lakes else "H" if (q, r) in hills else ""
            if letter:
                parts.append(f'<text x="{x + 6}" y="{y + 18}" font-size="14">{letter}</text>')
            if mark:
                parts.append(f'<text x="{x + 28}" y="{y + 40}" font-size="18" '
                             f'font-weight="bold">{marked.index((q, r)) + 1}</text>')
            parts.append("</g>")
        parts.append("</svg>")
        return "".join(parts)
    return picture


def board_for(seed: int, level: int = 1) -> tuple[frozenset, frozenset]:
    """The lakes (2 to 4 at level 1, 3 to 5 at level 2) and, at level 2, hills that look
    alike."""
    rng = random.Random(f"toy-board:{seed}:{level}")
    lakes = rng.randint(2, 4) + (level - 1)
    picked = rng.sample(SPACES, lakes + (3 if level > 1 else 0))
    return frozenset(picked[:lakes]), frozenset(picked[lakes:])


def rows_of(cells) -> list[int]:
    return sorted({r for _, r in cells})


def row_hint(lakes) -> tuple[str, tuple]:
    """A pointer naming the rows that hold lakes, and those rows' squares to mark."""
    rows = rows_of(lakes)
    words = " and ".join(str(r) for r in rows)
    marks = tuple((q, r) for r in rows for q in range(SIZE))
    return f"Only {plural(len(rows), 'row')} hold lakes here: row {words} (marked).", marks


@register("toy.lakes", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="Lakes are the squares marked W", title="Find the lakes", levels=LEVELS)
def lakes(seed: int, level: int = 1) -> Exercise:
    right, hills = board_for(seed, level)

    def checker(answer):
        extra = sorted(answer - right)
        if extra:
            q, r = extra[0]
            what = "an H: a hill, not a lake" if extra[0] in hills else "no W: it is dry land"
            return Verdict(False, f"({q}, {r}) has {what}.", marks=(extra[0],),
                           misconception="took-a-hill" if extra[0] in hills else "")
        if right - answer:
            return Verdict(False, "Every square you clicked is a lake, but some lake is "
                                  "missing: look along each row for a W.",
                           misconception="missed-some")
        return Verdict(True, f"These are the {len(right)} squares marked W.")

    pointer, marks = row_hint(right)
    return Exercise(kind="toy.lakes", seed=seed, question="Click every lake.",
                    answer_kind="cells", answer=right, checker=checker, draw=draw(right, hills),
                    hints=("Look for the letter W; an H is a hill.", pointer),
                    hint_marks=((), marks), explanation="Each lake shows a W.")


@register("toy.walk", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="A walk goes one square at a time, side by side", title="Walk to the corner",
          levels=LEVELS)
def walk(seed: int, level: int = 1) -> Exercise:
    row, turn = seed % SIZE, (seed // SIZE) % 2
    if level == 1:
        start, goal = (turn, row), (turn + 2, row)
    else:
        start, goal = ((3, row), (0, row)) if turn else ((0, row), (3, row))
    step = 1 if goal[0] > start[0] else -1
    right = tuple((q, row) for q in range(start[0], goal[0] + step, step))

    def checker(answer):
        if answer[0] != start:
            return Verdict(False, f"Your walk starts on ({answer[0][0]}, {answer[0][1]}); the "
                                  "question says where it starts.")
        for a, b in zip(answer, answer[1:]):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                return Verdict(False, f"({b[0]}, {b[1]}) does not share a side with "
                                      f"({a[0]}, {a[1]}).")
        if answer[-1] != goal:
            return Verdict(False, "Your walk stops before the square the question names.")
        if len(answer) != len(right):
            return Verdict(False, f"Your walk takes {plural(len(answer) - 1, 'step')}: a "
                                  "shorter one reaches the same square.")
        return Verdict(True, "Each step goes to a square that shares a side.")

    return Exercise(kind="toy.walk", seed=seed,
                    question=f"Walk from ({start[0]}, {start[1]}) to ({goal[0]}, {goal[1]}) in "
                             "as few steps as possible.",
                    answer_kind="path", answer=right, checker=checker, draw=draw(frozenset()),
                    hints=("Each step goes to a square that shares a side.",
                           f"Both squares are in row {row}: from column {start[0]}, stay in "
                           "that row."),
                    explanation="Straight along the row.")


@register("toy.biggest", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="The biggest stack wins", title="The biggest stack", levels=LEVELS)
def biggest(seed: int, level: int = 1) -> Exercise:
    rng = random.Random(f"toy-biggest:{seed}:{level}")
    heights = rng.sample(range(1, 9 + 3 * level), 2 + level)
    keys = "abcd"[:len(heights)]
    options = tuple(Option(k, f"The stack of {h} tokens") for k, h in zip(keys, heights))
    right = keys[heights.index(max(heights))]

    def checker(answer):
        if answer == right:
            return Verdict(True, "No other stack here has as many tokens.")
        h = heights[keys.index(answer)]
        return Verdict(False, f"The stack of {h} tokens is not the biggest: another stack "
                              "has more.")

    return Exercise(kind="toy.biggest", seed=seed, question="Which stack is the biggest?",
                    answer_kind="choice", answer=right, options=options, checker=checker,
                    draw=draw(*board_for(seed, level)),
                    hints=("Compare the numbers of tokens.",
                           f"The {len(heights)} stacks hold {', '.join(map(str, heights))} "
                           "tokens: which number is the largest?"))


@register("toy.even", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="Even numbers split in two", title="Even stacks", levels=LEVELS)
def even(seed: int, level: int = 1) -> Exercise:
    rng = random.Random(f"toy-even:{seed}:{level}")
    heights = rng.sample(range(1, 10 + 5 * level), 3 + level)
    options = tuple(Option(str(k), f"Stack {k + 1}: {h} tokens") for k, h in enumerate(heights))
    right = frozenset(str(k) for k, h in enumerate(heights) if h % 2 == 0)

    def checker(answer):
        for k in sorted(answer - right):
            return Verdict(False, f"Stack {int(k) + 1} has {heights[int(k)]} tokens, an odd "
                                  "number: it cannot be split in two.")
        if answer != right:
            return Verdict(False, "Each stack you picked is even, but not every even stack "
                                  "is picked: check each number again.")
        return Verdict(True, "Exactly the even stacks.")

    return Exercise(kind="toy.even", seed=seed, question="Which stacks are even?",
                    answer_kind="choices", answer=right, options=options, checker=checker,
                    hints=("A number is even when it splits into two equal halves.",
                           f"Look at the last digit of each: {len(heights)} stacks, "
                           f"from {min(heights)} to {max(heights)} tokens."))


@register("toy.count", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="Each lake scores 2", title="Score the lakes", levels=LEVELS)
def count(seed: int, level: int = 1) -> Exercise:
    lakes, hills = board_for(seed, level)
    right = 2 * len(lakes)

    def checker(answer):
        if answer == right:
            return Verdict(True, f"{plural(len(lakes), 'lake')}, 2 points each.")
        if hills and answer == 2 * (len(lakes) + len(hills)):
            return Verdict(False, "You scored the hills too: only a W is a lake.",
                           misconception="counted-hills")
        return Verdict(False, f"You said {answer}, which is not the score: count 2 points "
                              "for each W.")

    pointer, marks = row_hint(lakes)
    return Exercise(kind="toy.count", seed=seed, question="How many points do the lakes "
                    "score?", answer_kind="number", answer=right, checker=checker,
                    draw=draw(lakes, hills), hint_marks=((), marks),
                    hints=("Two points a lake.", pointer))


KINDS = ("toy.lakes", "toy.walk", "toy.biggest", "toy.even", "toy.count")


def write_notebook(served: Path, name: str, cells: list[str], title: str) -> str:
    """A notebook in the served copy (never in the repository) running ``cells`` after
    ``import toy_exercises``, with this module copied next to it; its path under the served
    folder."""
    import nbformat

    folder = served / NOTEBOOK_FOLDER
    folder.mkdir(exist_ok=True)
    shutil.copy(Path(__file__), folder / "toy_exercises.py")
    nb = nbformat.v4.new_notebook()
    # a kernel named in the file, so JupyterLab starts it without asking
    nb.metadata = json.loads((served / "00_start_here.ipynb").read_text())["metadata"]
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {title}"),
                nbformat.v4.new_code_cell("import toy_exercises  # registers the toy kinds")]
    nb.cells += [nbformat.v4.new_code_cell(source) for source in cells]
    nbformat.write(nb, folder / name)
    return f"{NOTEBOOK_FOLDER}/{name}"
