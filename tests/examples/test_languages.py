"""Fifteen's refusals in the players' languages, from a catalog of its own.

The example marks its refusals as the built-in games do (``mathable.core.words.says``)
and ships its catalogs (``fifteen/locales/<lang>/LC_MESSAGES/fifteen.po``); its
distribution declares the domain in the entry-point group ``mathable.translations``, and
``mathable_i18n`` reads it with the project's own. In this process the example is not
installed (the rest of the suite pins the games this distribution ships), so one test
gives ``mathable_i18n`` the entry point the distribution declares; another asks a
process that has the example installed, as a server has it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint, EntryPoints
from typing import Any

import pytest
from fifteen.commands import Claim, check
from fifteen.ruleset import RULES
from fifteen.state import FifteenState

import mathable_i18n
from mathable.core import plugins
from mathable.core.errors import RuleError
from mathable.core.lifecycle import Create, Join
from mathable.core.words import Text
from mathable_i18n import say
from tests.examples.conftest import install_example, python_path


def _started() -> Any:
    state: Any = FifteenState()
    for command in (Create("ann", ruleset="fifteen"), Join("ben"), Claim(0, 5)):
        for event in check(state, command):
            state = RULES.apply(state, event)
    return state


def _refusals() -> list[RuleError]:
    """One of each of Fifteen's own refusals."""
    found = []
    for state, command in (
        (_started(), Claim(1, 5)),
        (_started(), Claim(1, 10)),
        (FifteenState(), Create("ann", players=3, ruleset="fifteen")),
        (FifteenState(), Create("ann", referee="players", ruleset="fifteen")),
        (FifteenState(), Create("ann", tiles=(1, 2), ruleset="fifteen")),
        (_started(), object()),
    ):
        with pytest.raises(RuleError) as raised:
            check(state, command)
        found.append(raised.value)
    for attempt in (
        lambda: RULES.command(0, {"type": "castle"}),
        lambda: RULES.read_move("d4", {}),
        lambda: RULES.parse_tile(12),
    ):
        with pytest.raises(RuleError) as raised:
            attempt()
        found.append(raised.value)
    return found


@pytest.fixture
def declared(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``mathable_i18n`` sees the entry point examples/fifteen/pyproject.toml declares."""
    group = mathable_i18n.GROUP
    point = EntryPoint("fifteen", "fifteen", group)
    every = plugins.in_group

    def in_group(name: str) -> EntryPoints:
        return EntryPoints((point,)) if name == group else every(name)

    monkeypatch.setattr(plugins, "in_group", in_group)
    mathable_i18n.catalog.cache_clear()
    yield
    monkeypatch.undo()
    mathable_i18n.catalog.cache_clear()


def test_every_refusal_of_the_example_is_a_marked_text() -> None:
    refusals = _refusals()
    assert len({err.code for err in refusals}) >= 6
    for err in refusals:
        assert isinstance(err.message, Text), err


def test_the_example_s_refusals_are_said_in_french_from_its_own_catalog(declared: None) -> None:
    assert ("fifteen", "fifteen") in mathable_i18n.domains()
    taken, *_ = _refusals()
    assert taken.code == "digit_taken"
    assert say(taken.message, "fr") == "5 est déjà à la place 0"
    assert say(taken.message, "it") == "5 è già del posto 0"
    assert say(taken.message, "en") == "5 is held by seat 0 already"
    for err in _refusals():
        for lang in ("fr", "nb", "it"):
            assert say(err.message, lang) != str(err.message), (lang, err)


def test_without_its_entry_point_the_example_speaks_english() -> None:
    mathable_i18n.catalog.cache_clear()
    assert "fifteen" not in dict(mathable_i18n.domains())
    taken, *_ = _refusals()
    assert say(taken.message, "fr") == "5 is held by seat 0 already"


PROBE = """
import json
from mathable.core.lifecycle import Create
from mathable.core.errors import RuleError
from mathable.core.ruleset import ruleset
from mathable_i18n import domains, say
rules = ruleset("fifteen")
try:
    rules.check(rules.new_state(), Create("ann", players=3, ruleset="fifteen"))
except RuleError as err:
    print(json.dumps({"domains": domains(), "fr": say(err.message, "fr"),
                      "nb": say(err.message, "nb")}))
"""


def test_the_installed_example_declares_its_domain_and_ships_its_catalogs() -> None:
    install_example()
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": python_path("shared"), "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=True,
    )
    found = json.loads(done.stdout)
    assert ["fifteen", "fifteen"] in found["domains"]
    assert found["fr"] == "Fifteen se joue à deux, pas à 3"
    assert found["nb"] == "Fifteen spilles av to, ikke 3"
