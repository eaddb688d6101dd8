"""The short examples in the Harmonies docstrings run as written."""

import doctest
import importlib

import pytest

MODULES = ["game", "edition", "board", "cards", "habitats", "scoring", "rules", "setup", "state",
           "actions", "players", "render", "widgets", "__init__"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module("pangaea_lab.harmonies" + ("" if name == "__init__"
                                                                else f".{name}"))
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
