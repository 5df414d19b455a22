"""The examples in the example's docstrings hold (pytest collects only ``tests`` here)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("__init__", "state", "events", "commands", "view", "notation", "strategy",
           "rulebook", "ruleset")  # fmt: skip


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples(name: str) -> None:
    module = importlib.import_module("fifteen" if name == "__init__" else f"fifteen.{name}")
    failed, _tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0
