"""Games started under an older rules version replay, and play on, as they were played.

The fixtures were recorded before issue 11 changed the rules (RULES_VERSION 1):
a players-refereed game with its corrections and a game blocked with tiles
left in the bag. Their recorded states are kept as digests of
``recorded_logs.state_summary``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from mathable import GameState, apply, check, end_reason, replay
from mathable.core.events import Event
from tests.rules.recorded_logs import command_from_json, digest, load, state_summary

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
