"""``mathable.core.computer``: engines found by their entry points, an engine made of one
function per game (imported once), and ``duel``, which plays a whole game through the
JSON commands one decision at a time, as the server's computer player does."""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from mathable.core import computer, plugins
from mathable.core.computer import ComputerEngine, duel, engines
from mathable.core.ruleset import ruleset


def test_an_engine_imports_its_function_once_and_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "counting_engine.py").write_text(
        "TABLE = {'first': lambda view, seed: [{'type': 'pass', 'seed': seed}]}\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        engine = ComputerEngine("counting", {"beads": "counting_engine:TABLE.first"})
        assert engine.rulesets == ("beads",)
        assert engine.turn("beads", {}, 7) == [{"type": "pass", "seed": 7}]
        # Changed in the module after the first turn: the engine plays what it imported.
        sys.modules["counting_engine"].TABLE["first"] = lambda view, seed: []
        assert engine.turn("beads", {}, 8) == [{"type": "pass", "seed": 8}]
        assert repr(engine) == "ComputerEngine('counting')"
    finally:
        sys.modules.pop("counting_engine", None)


def _listed(monkeypatch: pytest.MonkeyPatch, *points: tuple[str, str]) -> None:
    """The engines installed are these entry points (name, value), in this order."""
    found = [plugins.Point(name, value, computer.GROUP) for name, value in points]
    monkeypatch.setattr(computer, "in_group", lambda group: found)


def test_the_first_engine_of_a_name_wins_and_the_next_names_are_still_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _listed(
        monkeypatch,
        ("casual", "mathable.core.computer:CASUAL"),
        ("casual", "mathable.core.computer:GREEDY"),
        ("greedy", "mathable.core.computer:GREEDY"),
    )
    assert engines() == {"casual": computer.CASUAL, "greedy": computer.GREEDY}


def test_an_engine_that_fails_to_load_is_left_out_with_a_warning_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _listed(
        monkeypatch,
        ("broken", "no_such_engine_module:PLAY"),
        ("greedy", "mathable.core.computer:GREEDY"),
    )
    with pytest.warns(RuntimeWarning) as caught:
        assert engines() == {"greedy": computer.GREEDY}
    assert [str(w.message) for w in caught] == [
        "the engine 'broken' (no_such_engine_module:PLAY) cannot be loaded: "
        "ModuleNotFoundError(\"No module named 'no_such_engine_module'\")"
    ]


def test_a_broken_engine_s_warning_points_at_the_line_that_asked_for_the_engines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``stacklevel``: the caller's line (deselected under mutmut, whose trampoline is one
    frame more: see bench/mutation.py)."""
    _listed(monkeypatch, ("broken", "no_such_engine_module:PLAY"))
    with pytest.warns(RuntimeWarning) as caught:
        engines()
    assert caught[0].filename == __file__


class Recording:
    """An engine that plays as ``inner`` and writes down each decision it is asked for:
    the seed, the seat to move and its version, and what it answered."""

    def __init__(self, inner: Any, extra: list[dict[str, Any]] | None = None) -> None:
        self.inner, self.extra = inner, extra or []
        self.rulesets = inner.rulesets
        self.asked: list[tuple[int, int]] = []

    def turn(self, game: str, view: Mapping[str, Any], seed: int) -> list[dict[str, Any]]:
        self.asked.append((seed, view["version"]))
        return [*_in_parts(self.inner.turn(game, view, seed), view["bag_size"]), *self.extra]


def _in_parts(commands: list[dict[str, Any]], bag: int) -> list[dict[str, Any]]:
    """A whole Mathable turn sent as its parts: a ``place`` a tile (and a ``draw_extra``
    while the bag lasts), then ``end_turn``."""
    out: list[dict[str, Any]] = []
    for command in commands:
        if command["type"] != "turn":
            out.append(command)
            continue
        for placed in command["placements"]:
            out.append({"type": "place", "square": placed["square"], "tile": placed["tile"]})
            if placed["draw_extra"] and bag > 0:
                out.append({"type": "draw_extra"})
                bag -= 1
        out.append({"type": "end_turn"})
    return out


def test_each_decision_gets_its_own_seed_and_a_turn_ends_the_engine_s_commands() -> None:
    """Decision ``d`` of a duel seeded ``s`` is played with seed ``s * 100003 + d``; every
    command of a decision is sent while the turn is the engine's (a turn in parts: each
    tile placed, then its end), and none once the turn has gone to another seat (what the
    engine adds after it, here a pass, is never sent as the next seat's)."""
    found = engines()
    tiles = list(ruleset("mathable").tile_set)
    random.Random("decisions").shuffle(tiles)
    seats = [Recording(found["greedy"], [{"type": "pass"}]), Recording(found["greedy"])]
    scores = duel("mathable", seats, tiles, seed=2)  # type: ignore[list-item]
    asked = sorted(seats[0].asked + seats[1].asked, key=lambda a: a[1])
    assert [seed for seed, _ in asked] == [2 * 100_003 + d for d in range(len(asked))]
    # A whole turn each decision: one decision a turn, each at a new version, the seats
    # taking turns.
    versions = [version for _, version in asked]
    assert versions == sorted(set(versions))
    assert [v for _, v in seats[0].asked] == versions[0::2]
    plain = duel("mathable", [found["greedy"], found["greedy"]], tiles, seed=2)
    assert scores == plain
