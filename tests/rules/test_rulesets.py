"""The ruleset interface: one registry, games found by their recorded name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from mathable import Create, GameState, Join, RuleError
from mathable.core.events import Event, GameCreated
from mathable.core.ruleset import RULESETS, apply_any, check_any, register, replay_any, ruleset
from mathable.core.view import lifecycle_view
from mathable.games.summy import SummyState


def test_a_new_game_is_played_by_the_ruleset_it_was_created_with() -> None:
    for name, kind in (("mathable", GameState), ("summy", SummyState)):
        events = check_any(GameState(), Create("a", ruleset=name, seed=1))
        state = replay_any(events)
        assert isinstance(state, kind) and state.ruleset == name
        assert isinstance(events[0], GameCreated) and events[0].ruleset == name
        for event in check_any(state, Join("b")):
            state = apply_any(state, event)
        assert state.status == "playing"


def test_old_mathable_logs_without_a_ruleset_choice_replay_as_mathable() -> None:
    events = check_any(GameState(), Create("a", seed=1))
    assert isinstance(replay_any(events), GameState)


def test_an_unknown_ruleset_is_refused() -> None:
    with pytest.raises(RuleError) as err:
        check_any(GameState(), Create("a", ruleset="chess"))
    assert err.value.code == "unknown_ruleset"


def test_a_second_ruleset_with_a_taken_name_is_refused() -> None:
    with pytest.raises(ValueError, match="registered already"):
        register(RULESETS["summy"])


def test_an_event_type_taken_by_another_game_is_refused() -> None:
    with pytest.raises(TypeError, match="taken"):

        @dataclass(frozen=True)
        class OtherPassed(Event):  # a second game's "passed" must not replace Mathable's
            type: ClassVar[str] = "passed"


def test_each_game_reads_only_its_own_json_commands() -> None:
    with pytest.raises(RuleError) as err:
        ruleset("summy").command(0, {"type": "place", "square": "H7", "tile": 1})
    assert err.value.code == "wrong_game"
    with pytest.raises(RuleError) as err:
        ruleset("mathable").command(0, {"type": "equation", "placements": []})
    assert err.value.code == "wrong_game"


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_game_s_view_has_the_lifecycle_keys_every_view_has(name: str) -> None:
    """Found by a bot author: a Summy view had no your_turn. Every installed game's view
    (Mathable, Summy, the example) holds every key of the kernel's lifecycle_view, with
    its values, for a spectator and for a seat, waiting and in play."""
    rules = RULESETS[name]
    state = rules.new_state()
    for command in (Create("ann", 2, ruleset=name), Join("bob")):
        for event in rules.check(state, command):
            state = rules.apply(state, event)
            for viewer in (None, 0, 1):
                shown = rules.view(state, viewer)
                shared = lifecycle_view(state, viewer)
                assert {k: shown[k] for k in shared} == shared
    assert state.status == "playing"
    assert [rules.view(state, seat)["your_turn"] for seat in (0, 1)].count(True) == 1


def test_the_interface_is_its_sections_each_member_once_and_with_its_docstring() -> None:
    """``Ruleset`` is grouped as pytest groups its hooks: a protocol per section."""
    from mathable.core import ruleset as interface

    sections = (
        interface.Rules,
        interface.JsonCommands,
        interface.Views,
        interface.ClientHooks,
        interface.ServerHooks,
        interface.MailHooks,
        interface.Records,
        interface.Tutorials,
    )
    assert interface.Ruleset.__mro__[1 : 1 + len(sections)] == sections

    def members(section: type) -> dict[str, object]:
        return {
            name: value
            for name, value in vars(section).items()
            if not name.startswith("_") and (callable(value) or isinstance(value, property))
        }

    found = [members(section) for section in sections]
    every = {name for part in found for name in part}
    assert sum(len(part) for part in found) == len(every) == 50
    for part in found:
        for name, value in part.items():
            doc = (value.fget if isinstance(value, property) else value).__doc__
            assert doc and doc.strip(), name
    for game in ("mathable", "summy"):
        assert not [name for name in every if not hasattr(ruleset(game), name)]
