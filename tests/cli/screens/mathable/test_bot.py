"""Mathable's bot (``screens/mathable/bot.py``): what it decides to play, and the line it
writes when a turn is done."""

from __future__ import annotations

import mathable
from mathable_cli.commands.bots import decide, turn_outcome


def test_bot_decides_to_exchange_the_biggest_tiles_when_nothing_fits() -> None:
    view = {"you": 0, "board": {}, "rack": [90, 81, 13, 0], "bag_size": 2, "turn": {}}
    decision = decide(view, draw_extra=True)
    assert decision.kind == "exchange" and decision.tiles == [81, 90]
    assert decide({**view, "bag_size": 0}, draw_extra=True).kind == "pass"


def test_bot_passes_to_end_a_game_whose_last_turn_holds_no_mistake() -> None:
    view = {"you": 0, "board": {}, "rack": [12, 16], "bag_size": 0, "turn": {}}
    view["pending_end"] = "blocked"
    assert decide(view, draw_extra=True).kind == "pass"
    assert decide({**view, "pending_end": None}, draw_extra=True).kind == "turn"


def test_bot_does_not_draw_extras_that_would_cost_the_bonus() -> None:
    view = {"you": 0, "board": {}, "rack": [12, 16], "bag_size": 50, "turn": {}}
    assert [p.draw_extra for p in decide(view, draw_extra=True).planned] == [False, True]
    rack = {"you": 0, "board": {}, "rack": [1, 2, 8, 12, 16, 17, 42], "bag_size": 50, "turn": {}}
    best = decide(rack, draw_extra=True)
    if mathable.best_turn({}, rack["rack"]).bonus:  # pragma: no branch
        assert not any(p.draw_extra for p in best.planned)


def test_the_last_line_shows_the_rack_deduction_apart_from_the_turn_points() -> None:
    before = {"status": "playing", "seats": [{"score": 1172}, {"score": 900}]}
    after = {
        "status": "ended",
        "seats": [{"score": 1181}, {"score": 880}],
        "result": {"deductions": [14, 20], "scores": [1181, 880], "winners": [0]},
    }
    # 23 points for the turn, then 14 taken off for the tiles left.
    assert turn_outcome(before, after, 0) == (
        "(+23, score 1195; game over: -14 for the tiles left, final 1181)"
    )
    running = {"status": "playing", "seats": [{"score": 1195}, {"score": 900}]}
    assert turn_outcome(before, running, 0) == "(+23, score 1195)"
