"""What Summy offers a player from a view or a state: the hint (``suggest``), which lays no
tile on a closed square, and the play page's legal commands (``legal_commands``)."""

from __future__ import annotations

from mathable.core.ruleset import ruleset
from mathable.games.summy import SummyState
from mathable.games.summy.movegen import legal_moves
from mathable_i18n import say
from tests.rules.summy_helpers import run, started
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


def test_the_legal_moves_of_a_seat_lay_no_tile_on_a_closed_square() -> None:
    def found(state: SummyState, closed: object) -> set[tuple[object, ...]]:
        rack = state.seats[state.turn.seat].rack  # type: ignore[union-attr]
        moves = legal_moves(state.table, rack, closed)  # type: ignore[arg-type]
        return {(m.direction, m.equation, m.placements) for m in moves}

    # A game in play where the closed ends of the table's equations keep some move out.
    state = next(s for s in (mid_game(seed, 20) for seed in range(60)) if s is not None
                 and s.closed and found(s, s.closed) != found(s, ()))  # fmt: skip
    seat = state.turn.seat  # type: ignore[union-attr]
    listed = {(m.direction, m.equation, m.placements) for m in SUMMY.legal_moves(state, seat)}
    assert listed == found(state, state.closed)
    assert all(not {(x, y) for x, y, _ in laid} & set(state.closed) for _, _, laid in listed)


def test_the_table_in_text_says_what_marks_the_last_play_when_there_is_one() -> None:
    state = started(FRONT)
    before = SUMMY.view(state, 0)
    assert not before.get("last_play")
    assert SUMMY.table_text(before) == SUMMY.draw(before)
    move = SUMMY.suggest(before)
    assert move is not None
    after = SUMMY.view(run(state, SUMMY.command(0, move[0])), 0)
    text = SUMMY.table_text(after)
    assert text == SUMMY.draw(after) + "\n(* marks the tiles of the last play)"
    assert "*" in SUMMY.draw(after)
    french = say(text, "fr")
    assert french.startswith(SUMMY.draw(after) + "\n(")
    assert "marks" not in french and french != text


def test_a_move_is_written_from_its_first_square_its_direction_and_its_equation() -> None:
    assert SUMMY.move_usage() == " X,Y DIRECTION EQUATION"
