"""Games started under an older rules version replay, and play on, as they were played.

The version 1 fixtures were recorded before issue 11 changed the rules: a
players-refereed game with its corrections and a game blocked with tiles left in
the bag. The version 2 fixtures were recorded before issue 26 (rules version 3):
a Mathable correction of a turn with a later extra tile, and six Summy games
ending each way version 2 ends them (``tests/rules/record_old_logs.py``). Their
recorded states are kept as digests of ``recorded_logs.state_summary`` (Summy's:
``summy_logs.summy_summary``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from mathable import GameState, RuleError, apply, check, end_reason, replay
from mathable.core.events import Event
from mathable.games.summy import SummyState
from mathable.games.summy import apply as summy_apply
from mathable.games.summy import check as summy_check
from tests.rules.recorded_logs import command_from_json, digest, load, state_summary
from tests.rules.summy_logs import summy_command_from_json, summy_summary

FIXTURES = ["rules_v1_players_corrections.json", "rules_v1_blocked_with_bag.json"]


def events_of(data: dict[str, Any]) -> list[Event]:
    return [Event.from_dict(e) for step in data["steps"] for e in step["events"]]


@pytest.mark.parametrize("name", FIXTURES)
def test_a_rules_version_1_log_replays_to_the_states_it_was_played_through(name: str) -> None:
    data = load(name)
    state = GameState()
    for number, (event, recorded) in enumerate(
        zip(events_of(data), data["digests"], strict=True), 1
    ):
        state = apply(state, event)
        summary = state_summary(state)
        assert digest(summary) == recorded, f"version {number} differs: {summary}"
    assert state.rules_version == 1
    assert state_summary(state) == data["final"]


@pytest.mark.parametrize("name", FIXTURES)
def test_the_commands_of_a_rules_version_1_game_still_make_the_same_events(name: str) -> None:
    data = load(name)
    created, *steps = data["steps"]
    state = replay(Event.from_dict(e) for e in created["events"])
    assert state.rules_version == 1
    for number, step in enumerate(steps, 2):
        events = check(state, command_from_json(step["command"]))
        assert [e.to_dict() for e in events] == step["events"], f"command {number}"
        for event in events:
            state = apply(state, event)
    assert state.status == "ended"


def test_the_old_game_blocked_with_tiles_in_the_bag_would_end_there_under_rules_version_2() -> None:
    data = load("rules_v1_blocked_with_bag.json")
    state = replay(events_of(data)[: data["blocked_at"]])
    assert state.rules_version == 1 and state.bag and end_reason(state) is None
    assert end_reason(replace(state, rules_version=2)) == "blocked"


# --- rules version 2 (recorded at ff8f8f7 by tests/rules/record_old_logs.py) -----------

MATHABLE_V2 = "rules_v2_mathable_correction_extra.json"
SUMMY_V2 = [f"rules_v2_summy_{seed}.json" for seed in (2, 5, 12, 53, 24, 29)]


def test_a_rules_version_2_mathable_log_replays_and_its_commands_make_the_same_events() -> None:
    data = load(MATHABLE_V2)
    state = GameState()
    for number, (event, recorded) in enumerate(
        zip(events_of(data), data["digests"], strict=True), 1
    ):
        state = apply(state, event)
        assert digest(state_summary(state)) == recorded, f"version {number} differs"
    assert state.rules_version == 2 and state_summary(state) == data["final"]
    created, *steps = data["steps"]
    state = replay(Event.from_dict(e) for e in created["events"])
    for number, step in enumerate(steps, 2):
        events = check(state, command_from_json(step["command"]))
        assert [e.to_dict() for e in events] == step["events"], f"command {number}"
        for event in events:
            state = apply(state, event)
    # Version 2 left the later placement's extra tile on the rack: 9 tiles (issue 26).
    assert len(state.seats[0].rack) == 9


@pytest.mark.parametrize("name", SUMMY_V2)
def test_a_rules_version_2_summy_log_replays_to_the_states_it_was_played_through(
    name: str,
) -> None:
    data = load(name)
    state = SummyState()
    events = [Event.from_dict(e) for step in data["steps"] for e in step.get("events", [])]
    for number, (event, recorded) in enumerate(zip(events, data["digests"], strict=True), 1):
        state = summy_apply(state, event)
        assert digest(summy_summary(state)) == recorded, f"version {number} differs"
    assert state.rules_version == 2 and summy_summary(state) == data["final"]


@pytest.mark.parametrize("name", SUMMY_V2)
def test_the_commands_of_a_rules_version_2_summy_game_make_the_same_events_and_refusals(
    name: str,
) -> None:
    data = load(name)
    created, *steps = data["steps"]
    state = SummyState()
    for event in created["events"]:
        state = summy_apply(state, Event.from_dict(event))
    for number, step in enumerate(steps, 2):
        command = summy_command_from_json(step["command"])
        if "refused" in step:
            with pytest.raises(RuleError) as err:
                summy_check(state, command)
            assert err.value.code == step["refused"], f"command {number}"
            continue
        events = summy_check(state, command)
        assert [e.to_dict() for e in events] == step["events"], f"command {number}"
        for event in events:
            state = summy_apply(state, event)
    assert state.rules_version == 2 and state.status == "ended"
