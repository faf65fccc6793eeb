"""The ``>>>`` examples in the engine's docstrings run, and the public entry points of every game carry some."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = sorted(info.name for info in pkgutil.walk_packages(engine.__path__, "engine."))

# Where a reader starts: each game's state and its actions' JSON form, and the house way a casino may swap.
ENTRY_POINTS = [
    "engine.baibuu.round",
    "engine.baibuu.actions",
    "engine.baibuu.house_way",
    "engine.samloc.hand",
    "engine.samloc.actions",
    "engine.schmier.state",
    "engine.schmier.actions",
]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_a_module_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) of {name} gave another answer (run: python -m doctest -v)"


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_every_entry_point_carries_examples(name: str) -> None:
    finder = doctest.DocTestFinder()
    examples = sum(len(test.examples) for test in finder.find(importlib.import_module(name)))
    assert examples >= 2, f"{name} has no >>> examples a reader can run"
