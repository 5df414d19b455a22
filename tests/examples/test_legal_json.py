"""A seat's legal moves as JSON commands for a game that lists none (issue 43): Fifteen's
claims, each read back by the game as the very move, are what its generic board offers."""

from __future__ import annotations

from fifteen.ruleset import RULES

from mathable.core.lifecycle import Create, Join
from mathable_server.games.legal_json import command_words, legal_json


def test_legal_moves_as_json_commands_for_a_game_that_lists_none() -> None:
    rules = RULES
    state = rules.new_state()
    for command in (Create("ann", ruleset="fifteen"), Join("bob")):
        for event in rules.check(state, command):
            state = rules.apply(state, event)
    moves = legal_json(rules, state, 0)
    assert {"type": "claim", "digit": 5} in moves and len(moves) == 9
    assert command_words({"type": "claim", "digit": 5}) == "claim 5"
    assert legal_json(rules, state, 1) == []  # not its turn
