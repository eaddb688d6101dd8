"""Small exercise kinds, one per answer kind, for checking the exercise widget in a browser
without depending on any game's generators.  Importing this module registers them.

The browser test copies this file next to a throw-away notebook in the served folder; the
notebook imports it, so the kernel knows the kinds, and the test imports it too, so it can
work out every right answer and every reason with the same generators.
"""

from __future__ import annotations

import random

from pangaea_lab.core.exercises import Exercise, Option, Verdict, register

SIZE = 4
SPACES = [(q, r) for q in range(SIZE) for r in range(SIZE)]


def draw(lakes):
    """A 4 x 4 grid; lakes show a wave letter W; marked squares get a thick outline and their
    click number."""
    def picture(marked):
        marked = [tuple(c) for c in marked]
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" '
                 'viewBox="0 0 200 200">']
        for q, r in SPACES:
            x, y = q * 50, r * 50
            mark = (q, r) in marked
            parts.append(f'<g data-cell="{q},{r}"><rect x="{x}" y="{y}" width="50" height="50" '
                         f'fill="{"#9cd" if (q, r) in lakes else "#eed"}" stroke="#222" '
                         f'stroke-width="{5 if mark else 1}"/>'
                         f'<title>space ({q}, {r})</title>')
            if (q, r) in lakes:
                parts.append(f'<text x="{x + 6}" y="{y + 18}" font-size="14">W</text>')
            if mark:
                parts.append(f'<text x="{x + 28}" y="{y + 40}" font-size="18" '
                             f'font-weight="bold">{marked.index((q, r)) + 1}</text>')
            parts.append("</g>")
        parts.append("</svg>")
        return "".join(parts)
    return picture


def lakes_for(seed):
    rng = random.Random(seed)
    return frozenset(rng.sample(SPACES, 3))


@register("toy.lakes", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="Lakes are the squares marked W", title="Find the lakes")
def lakes(seed: int) -> Exercise:
    right = lakes_for(seed)

    def checker(answer):
        extra = sorted(answer - right)
        missing = sorted(right - answer)
        if extra:
            return Verdict(False, f"({extra[0][0]}, {extra[0][1]}) has no W: it is dry land.")
        if missing:
            return Verdict(False, f"({missing[0][0]}, {missing[0][1]}) is a lake too.")
        return Verdict(True, "These are the three squares marked W.")

    return Exercise(kind="toy.lakes", seed=seed, question="Click every lake.",
                    answer_kind="cells", answer=right, checker=checker, draw=draw(right),
                    hint="Look for the letter W.", explanation="Each lake shows a W.")


@register("toy.walk", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="A walk goes one square at a time, side by side", title="Walk to the corner")
def walk(seed: int) -> Exercise:
    start = (0, seed % SIZE)
    goal = (2, seed % SIZE)
    right = (start, (1, start[1]), goal)

    def checker(answer):
        if not answer or answer[0] != start:
            return Verdict(False, f"The walk starts on ({start[0]}, {start[1]}).")
        for a, b in zip(answer, answer[1:]):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                return Verdict(False, f"({b[0]}, {b[1]}) is not next to ({a[0]}, {a[1]}).")
        if answer[-1] != goal:
            return Verdict(False, f"The walk must end on ({goal[0]}, {goal[1]}).")
        if len(answer) != 3:
            return Verdict(False, f"{len(answer) - 1} steps: the shortest walk has 2.")
        return Verdict(True, "Two steps, each to a neighbouring square.")

    return Exercise(kind="toy.walk", seed=seed,
                    question=f"Walk from ({start[0]}, {start[1]}) to ({goal[0]}, {goal[1]}) in "
                             "as few steps as possible.",
                    answer_kind="path", answer=right, checker=checker, draw=draw(frozenset()),
                    explanation="Straight along the row.")


@register("toy.biggest", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="The biggest stack wins", title="The biggest stack")
def biggest(seed: int) -> Exercise:
    rng = random.Random(seed)
    heights = rng.sample(range(1, 9), 3)
    options = tuple(Option(k, f"The stack of {h} tokens") for k, h in zip("abc", heights))
    right = "abc"[heights.index(max(heights))]

    def checker(answer):
        if answer == right:
            return Verdict(True, f"{max(heights)} is the most.")
        return Verdict(False, f"{heights['abc'.index(answer)]} is less than {max(heights)}.")

    return Exercise(kind="toy.biggest", seed=seed, question="Which stack is the biggest?",
                    answer_kind="choice", answer=right, options=options, checker=checker,
                    draw=draw(lakes_for(seed)))


@register("toy.even", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="Even numbers split in two", title="Even stacks")
def even(seed: int) -> Exercise:
    rng = random.Random(seed)
    heights = rng.sample(range(1, 10), 4)
    options = tuple(Option(str(k), f"Stack {k + 1}: {h} tokens") for k, h in enumerate(heights))
    right = frozenset(str(k) for k, h in enumerate(heights) if h % 2 == 0)

    def checker(answer):
        for k in sorted(answer ^ right):
            h = heights[int(k)]
            return Verdict(False, f"Stack {int(k) + 1} has {h} tokens, an "
                                  f"{'even' if h % 2 == 0 else 'odd'} number.")
        return Verdict(True, "Exactly the even stacks.")

    return Exercise(kind="toy.even", seed=seed, question="Which stacks are even?",
                    answer_kind="choices", answer=right, options=options, checker=checker)


@register("toy.count", game="toy", notebook="exercise_check/toy_exercises.ipynb",
          rule="Each lake scores 2", title="Score the lakes")
def count(seed: int) -> Exercise:
    right = 2 * len(lakes_for(seed))

    def checker(answer):
        if answer == right:
            return Verdict(True, f"3 lakes, 2 points each: {right}.")
        return Verdict(False, f"{answer} is not {right}: count 2 points for each W.")

    return Exercise(kind="toy.count", seed=seed, question="How many points do the lakes "
                    "score?", answer_kind="number", answer=right, checker=checker,
                    draw=draw(lakes_for(seed)), hint="Two points a lake.")


KINDS = ("toy.lakes", "toy.walk", "toy.biggest", "toy.even", "toy.count")
