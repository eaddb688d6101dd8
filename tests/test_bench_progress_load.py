"""The class record load bench's parts that decide what it sends and whether the goal was met
(bench/progress_load.py; no hub is started here and no timing is asserted)."""

from __future__ import annotations

import json

import pytest

from bench_modules import bench_module


@pytest.fixture(scope="module")
def bench():
    with bench_module("progress_load") as module:
        yield module


def test_what_a_student_sends_is_judged_as_meant(bench):
    """Right answers are right, numbers one off are wrong, shown answers are shown, for a
    mix of every game's answer shapes, by the service's own judge."""
    from pangaea_lab.classroom.record.judge import judge, read_batch
    from pangaea_lab.core.exercise_widget import given_json
    from pangaea_lab.exercises import generate
    pool = bench.exercises_to_send(range(2))
    games = {key.split(".")[0] for key, *_ in pool}
    assert len(games) == 4
    items = [dict(zip(("kind", "seed", "level", "answer", "shown"), p)) for p in pool]
    batch = []
    for k, (key, seed, level, answer, shown) in enumerate(pool):
        batch.append({"id": f"s01-{k:04d}", "kind": key, "seed": seed, "level": level,
                      "answer": answer, "hints": 0, "shown": shown, "first": True,
                      "time": 1})
    for start in range(0, len(batch), 100):
        body = json.dumps({"attempts": batch[start:start + 100]}).encode()
        for item, judged in zip(items[start:start + 100],
                                (judge(i) for i in read_batch(body))):
            engine = generate(item["kind"], item["seed"], item["level"]).answer
            right = json.loads(given_json(engine)) == item["answer"]
            assert judged.correct == (right and not item["shown"]), item


def test_the_goal_needs_a_fast_p95_and_every_attempt_once(bench, capsys):
    quick = bench.Student("s01", latencies=[10.0] * 95 + [99.0] * 5)
    assert bench.report([quick], {"start": 1, "peak": 2, "end": 1}, []) is True
    slow = bench.Student("s02", latencies=[10.0] * 90 + [150.0] * 10)
    assert bench.report([slow], {"start": 1, "peak": 2, "end": 1}, []) is False
    assert bench.report([quick], {"start": 1, "peak": 2, "end": 1},
                        ["s01: 1 attempts missing, 0 unknown"]) is False
    printed = capsys.readouterr().out
    assert "95th percentile" in printed and "load average" in printed
    assert "goal missed" in printed and "NOT every attempt stored once" in printed
    assert bench.percentile([1, 2, 3, 4, 100], 0.95) == 100
