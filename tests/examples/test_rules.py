"""Fifteen's rules alone, in this process: won, drawn, each refusal, the notation."""

from __future__ import annotations

from typing import Any

import pytest
from fifteen.commands import Claim, check, legal_moves
from fifteen.events import DigitClaimed, replay
from fifteen.ruleset import RULES
from fifteen.state import FifteenState

from mathable.core.errors import RuleError
from mathable.core.events import Event, GameCreated
from mathable.core.lifecycle import Create, Join, Pass, Resign
from mathable.core.ruleset import RulesetBase
from mathable.core.state import Lifecycle


def play(state: Lifecycle, command: Any) -> tuple[Lifecycle, list[Event]]:
    events = check(state, command)  # type: ignore[arg-type]
    for event in events:
        state = RULES.apply(state, event)
    return state, events


def started() -> Lifecycle:
    state: Lifecycle = FifteenState()
    state, _ = play(state, Create("ann", ruleset="fifteen"))
    state, _ = play(state, Join("ben"))
    return state


def claims(state: Lifecycle, *digits: int) -> Lifecycle:
    for digit in digits:
        assert state.turn is not None
        state, _ = play(state, Claim(state.turn.seat, digit))
    return state


def refusal(state: Lifecycle, command: Any) -> RuleError:
    with pytest.raises(RuleError) as raised:
        check(state, command)  # type: ignore[arg-type]
    return raised.value


def test_a_game_starts_when_the_second_player_joins_seat_0_first() -> None:
    state = started()
    assert state.status == "playing" and state.turn is not None and state.turn.seat == 0
    assert [m.digit for m in legal_moves(state, 0)] == list(range(1, 10))  # type: ignore[arg-type]
    assert list(legal_moves(state, 1)) == []  # type: ignore[arg-type]


def test_three_digits_summing_to_15_win() -> None:
    # ann: 8, 6, 1 (8+6+1 = 15); ben: 5, 2
    state = claims(started(), 8, 5, 6, 2)
    state, events = play(state, Claim(0, 1))
    assert [e.type for e in events] == ["digit_claimed", "game_ended"]
    assert state.status == "ended" and state.result is not None
    assert (state.result.reason, state.result.winners, state.result.scores) == (
        "fifteen",
        (0,),
        (1, 0),
    )
    view = RULES.view(state, None)
    assert view["seats"][0]["line"] == [1, 6, 8] and view["result"]["winners"] == [0]
    assert refusal(state, Claim(1, 3)).code == "game_over"


def test_all_nine_claimed_without_15_is_a_draw() -> None:
    # ann 5 2 3 6 9, ben 1 4 7 8: nobody ever holds three summing to 15
    state = claims(started(), 5, 1, 2, 4, 3, 7, 6, 8)
    assert state.status == "playing"
    state, events = play(state, Claim(0, 9))
    assert state.result is not None
    assert (state.result.reason, state.result.winners) == ("all_claimed", (0, 1))
    assert RULES.end_words("all_claimed") == "all nine digits claimed: a draw"


def test_a_resignation_ends_it_for_the_other_seat() -> None:
    state, events = play(started(), Resign(0))
    assert state.result is not None and state.result.winners == (1,)
    assert state.result.reason == "resigned"


def test_two_rounds_of_passes_end_it_as_a_draw() -> None:
    state = started()
    for seat in (0, 1, 0):
        state, _ = play(state, Pass(seat))
    assert state.status == "playing"
    state, _ = play(state, Pass(1))
    assert state.result is not None and state.result.reason == "idle"


@pytest.mark.parametrize(
    ("command", "code", "details"),
    [
        (Claim(1, 5), "not_your_turn", {"seat": 0}),
        (Claim(0, 0), "bad_digit", {"digit": 0}),
        (Claim(0, 10), "bad_digit", {"digit": 10}),
        (Claim(0, True), "bad_digit", {"digit": True}),
        (Claim(0, 5), "digit_taken", {"digit": 5, "seat": 1}),
        (Claim(7, 3), "not_seated", {}),
        (Pass(1), "not_your_turn", {"seat": 0}),
    ],
)
def test_each_refusal_has_its_code_and_details(
    command: Any, code: str, details: dict[str, Any]
) -> None:
    state = claims(started(), 8, 5)
    err = refusal(state, command)
    assert err.code == code
    assert {k: err.details.get(k) for k in details} == details


def test_creating_refuses_other_than_two_players_and_a_players_referee() -> None:
    err = refusal(FifteenState(), Create("ann", players=3, ruleset="fifteen"))
    assert (err.code, err.details) == ("bad_players", {"players": 3, "allowed": [2]})
    err = refusal(FifteenState(), Create("ann", referee="players", ruleset="fifteen"))
    assert err.code == "bad_referee"
    assert refusal(FifteenState(), Claim(0, 5)).code == "game_not_started"
    assert refusal(started(), object()).code == "bad_command"


def test_events_are_the_games_own_and_round_trip() -> None:
    state = started()
    _, events = play(state, Claim(0, 5))
    (claimed,) = events
    assert claimed.game == "fifteen" and isinstance(claimed, DigitClaimed)
    assert Event.from_dict(claimed.to_dict()) == claimed
    log = [*_log(), claimed]
    assert replay(log) == RULES.apply(state, claimed)


def _log() -> list[Event]:
    state: Lifecycle = FifteenState()
    out: list[Event] = []
    for command in (Create("ann", ruleset="fifteen"), Join("ben")):
        events = check(state, command)  # type: ignore[arg-type]
        for event in events:
            state = RULES.apply(state, event)
        out += events
    return out


def test_the_shared_redaction_hides_the_order_of_game_created() -> None:
    created = GameCreated("fifteen", 1, 2, "server", 7, None, (), "ann", order=(1,) * 9)
    shown = RULES.redact(created, None)
    assert "seed" not in shown and "order" not in shown and shown["seeded"] is True


def test_the_notation_the_reply_and_the_hint() -> None:
    view = RULES.view(claims(started(), 8, 5), 0)
    assert RULES.read_move("6", view) == {"type": "claim", "digit": 6}
    assert RULES.read_move("C1", view) == {"type": "claim", "digit": 6}
    assert RULES.read_move(" claim 2 ", view) == {"type": "claim", "digit": 2}
    for bad in ("0", "d4", "12", "claim", ""):
        with pytest.raises(RuleError) as raised:
            RULES.read_move(bad, view)
        assert raised.value.code == "bad_notation"
    assert RULES.read_reply("Pass", view) == {"type": "pass"}
    assert RULES.read_reply("resign", view) == {"type": "resign"}
    assert RULES.read_reply("b3", view) == {"type": "claim", "digit": 3}
    assert "b2" in RULES.reply_help() and "pass" in RULES.reply_help()
    assert RULES.tiles_line(view) == "Your digits: 8; free: 1 2 3 4 6 7 9"
    assert RULES.suggest(view) is not None
    # ben holds 5; ann 8 and 6 would make 15 with 1: she takes it.
    view = RULES.view(claims(started(), 8, 5, 6, 2), 0)
    assert RULES.suggest(view) == ({"type": "claim", "digit": 1}, "1 (c2)")
    # ben (5) cannot win yet; ann (8, 6) would with 1: he blocks it.
    view = RULES.view(claims(started(), 8, 5, 6), 1)
    assert RULES.suggest(view) == ({"type": "claim", "digit": 1}, "1 (c2)")


def test_the_board_as_text_and_svg() -> None:
    view = RULES.view(claims(started(), 8, 5), None)
    view["seats"][0]["name"], view["seats"][1]["name"] = "ann", "ben"
    assert RULES.draw(view).splitlines() == [
        "      a    b    c",
        " 1    2    7    6",
        " 2    9   O5    1",
        " 3    4    3   X8",
        "X: ann   O: ben",
    ]
    svg = RULES.svg(view)
    assert svg.startswith("<svg") and svg.count("<rect") == 10 and "<title>b2</title>" in svg


def test_the_hooks_and_the_schema() -> None:
    assert isinstance(RULES, RulesetBase)
    assert RULES.held({"digits": [2, 5]}) == 2 and RULES.move_usage() == " DIGIT"
    # A game that names itself no other way is called by its name (mail subjects, pages).
    assert (RULES.display_name, RULES.drawing_name) == ("Fifteen", "board")
    assert RULES.pool({}) is None  # the free digits are in the tiles line
    assert RULES.turn_changes == {"fifteen_started", "digit_claimed"}
    assert RULES.own_acts == {"digit_claimed"}
    schema = RULES.command_schemas()["claim"]
    assert schema["properties"]["digit"] == {"type": "integer", "minimum": 1, "maximum": 9}
    assert schema["additionalProperties"] is False
    assert set(RULES.command_schemas()) <= set(RULES.command_types)
    assert RULES.turn_told({"type": "digit_claimed", "seat": 1, "digit": 5}).words == (  # type: ignore[union-attr]
        "claimed 5 (b2)"
    )
    assert "## Fifteen" in RULES.rulebook() and RULES.data()["target"] == 15


def test_fifteen_has_no_record_notation_and_says_so() -> None:
    """Records (docs/records.md) need a game's notation; the example writes none, and
    ``RulesetBase``'s default refuses with a clear code rather than writing nonsense."""
    state = claims(started(), 5)
    for attempt in (
        lambda: RULES.record_turns(state, [], None, True),
        lambda: RULES.record_commands(state, 0, "5"),
    ):
        with pytest.raises(RuleError) as raised:
            attempt()
        assert raised.value.code == "no_record_notation"
        assert raised.value.message.startswith("Fifteen has no record notation")
    assert RULES.tutorial() is None and RULES.best_turn_for(state, 1) is None
