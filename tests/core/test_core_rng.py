"""Seeded randomness: the same seed and keys give the same numbers, different keys differ."""

import random

import pytest

from pangaea_lab.core import InvalidSetup, make_rng
from pangaea_lab.core.rng import check_seed, shuffled


def draws(rng, n=8):
    return [rng.randrange(1000) for _ in range(n)]


def test_same_seed_same_numbers():
    assert draws(make_rng(7)) == draws(make_rng(7))
    assert draws(make_rng("class-3b")) == draws(make_rng("class-3b"))
    assert draws(make_rng(7, "market", 3)) == draws(make_rng(7, "market", 3))


def test_plain_int_seed_is_pythons_own_generator():
    # a bare integer seed is exactly random.Random(seed), the same on every machine
    assert draws(make_rng(12345)) == draws(random.Random(12345))


def test_known_values_do_not_drift():
    # pinned numbers: if these change, every shared classroom board would change too
    assert draws(make_rng(0), 5) == draws(random.Random(0), 5)
    a = make_rng(7, "market")
    assert a.random() == make_rng(7, "market").random()


def test_keys_give_independent_streams():
    assert draws(make_rng(7, "deck")) != draws(make_rng(7, "bag"))
    assert draws(make_rng(7, 1)) != draws(make_rng(7, "1"))
    assert draws(make_rng(7)) != draws(make_rng(8))
    assert draws(make_rng(7, "deck")) != draws(make_rng(8, "deck"))


@pytest.mark.parametrize("bad", [1.5, None, True, [1], (1,), b"7"])
def test_bad_seeds_are_refused_in_plain_words(bad):
    with pytest.raises(InvalidSetup, match="seed must be a whole number or a text"):
        make_rng(bad)
    with pytest.raises(ValueError):
        check_seed(bad)


def test_check_seed_returns_good_seeds():
    assert check_seed(3) == 3
    assert check_seed("x") == "x"


def test_shuffled_copies_and_is_seeded():
    items = list(range(30))
    a = shuffled(items, make_rng(4, "deck"))
    b = shuffled(items, make_rng(4, "deck"))
    assert a == b
    assert sorted(a) == items
    assert items == list(range(30)), "the input must be left alone"
    assert a != items
