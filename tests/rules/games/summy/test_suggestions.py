"""What Summy offers a player from a view or a state: the hint (``suggest``), which lays no
tile on a closed square, and the play page's legal commands (``legal_commands``)."""

from __future__ import annotations

from mathable.core.ruleset import ruleset
from tests.rules.summy_helpers import started
from tests.rules.summy_positions import mid_game

SUMMY = ruleset("summy")
FRONT = "12+3" + "4x5:" + "6789-:=0" + "1234"


def _squares(command: dict[str, object]) -> set[tuple[int, int]]:
    return {(p["x"], p["y"]) for p in command["placements"]}  # type: ignore[attr-defined]


def test_a_hint_lays_no_tile_on_a_closed_square() -> None:
    shown = SUMMY.view(started(FRONT), 0)
    first = SUMMY.suggest(shown)
    assert first is not None
    square = sorted(_squares(first[0]))[0]
    closed = {**shown, "closed": [{"x": square[0], "y": square[1]}]}
    second = SUMMY.suggest(closed)
    assert second is not None and second != first
    assert square not in _squares(second[0])
    # Every square of the first hint closed: none of them is used.
    every = {**shown, "closed": [{"x": x, "y": y} for x, y in _squares(first[0])]}
    third = SUMMY.suggest(every)
    assert third is None or not _squares(third[0]) & _squares(first[0])


def test_the_legal_commands_are_at_most_200_each_with_its_direction_and_points() -> None:
    state = next(s for s in (mid_game(seed, 30) for seed in range(40)) if s is not None
                 and sum(1 for _ in SUMMY.legal_moves(s, s.turn.seat)) > 200)  # fmt: skip
    seat = state.turn.seat
    listed = SUMMY.legal_commands(state, seat)
    assert len(listed) == 200
    assert len(SUMMY.legal_commands(state, seat, 5)) == 5
    assert all(set(c) == {"type", "placements", "direction", "points"} for c in listed)
    moves = list(SUMMY.legal_moves(state, seat))[:200]
    assert [c["direction"] for c in listed] == [m.direction for m in moves]
    assert [c["points"] for c in listed] == [m.points for m in moves]
    # Each reads back as the command it lists (its points are for the page, not the rules).
    for command in listed[:20]:
        body = {k: v for k, v in command.items() if k != "points"}
        events = SUMMY.check(state, SUMMY.command(seat, body))
        assert events[0].points == command["points"]  # type: ignore[attr-defined]
