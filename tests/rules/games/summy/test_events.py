"""What each event does to a Summy game (``mathable.games.summy.events``), and how Summy's events
are written and read back, refusal by refusal (RULES.md, Summy; DESIGN.md, events).

Folded from ``test_pinned_summy_events.py``: tests written to kill the survivors of the
mutation runs (docs/mutation.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from mathable.core.errors import RuleError
from mathable.core.events import (
    DrawsRevealed,
    Event,
    GameCancelled,
    GameCreated,
    GameEnded,
    InvitationDeclined,
    Passed,
    PlayerJoined,
    Resigned,
    TimedOut,
    TimeGiven,
    VacationDayUsed,
    VacationEnded,
    VacationStarted,
)
from mathable.core.state import Options, Result, Seat, Turn
from mathable.games.summy import SUPPLY_SET, SummyState, apply, parse_tiles, replay
from mathable.games.summy.events import SUMMY_EVENTS, EquationPlayed, SummyStarted, TilesDiscarded
from mathable.games.summy.state import Play
from tests.rules.summy_helpers import supply

ORDER = supply("12+3" + "4x5:" + "6789-:=0" + "1234" + "56")
HAND_0 = tuple(parse_tiles("12+34x5:"))
HAND_1 = tuple(parse_tiles("6789-:=0"))
HAND_2 = tuple(parse_tiles("123456=="))


def _created(players: int = 2, **fields: Any) -> GameCreated:
    base: dict[str, Any] = {
        "ruleset": "summy",
        "rules_version": 1,
        "players": players,
        "referee": "server",
        "seed": None,
        "tiles": ORDER,
        "invited": (),
        "creator": "p0",
    }
    return GameCreated(**{**base, **fields})


def _dealt() -> SummyState:
    return replay(
        [_created(), PlayerJoined(seat=1, player="p1"), SummyStarted(0, (HAND_0, HAND_1))]
    )


def test_game_created_seats_the_creator_and_fills_the_supply_from_the_order() -> None:
    state = apply(SummyState(), _created(3, invited=("p2",), seed=9, commitment="c0"))
    assert state.version == 1 and state.status == "waiting"
    assert (state.ruleset, state.rules_version) == ("summy", 1)
    assert state.options == Options(
        players=3, referee="server", seed=9, tiles=ORDER, invited=("p2",), commitment="c0"
    )
    assert state.seats == (Seat(player="p0"), Seat(), Seat())
    assert state.supply == ORDER
    # A game made with a hidden order draws from that order; without either, the set.
    hidden = apply(SummyState(), _created(tiles=None, order=ORDER[::-1], salt="ab"))
    assert hidden.supply == ORDER[::-1] and hidden.options.order == ORDER[::-1]
    assert hidden.options.salt == "ab"
    assert apply(SummyState(), _created(tiles=None)).supply == SUPPLY_SET


def test_the_deal_takes_each_hand_off_the_supply_and_starts_the_first_seat_s_turn() -> None:
    state = _dealt()
    assert state.version == 3 and state.status == "playing"
    assert (state.seats[0].rack, state.seats[1].rack) == (HAND_0, HAND_1)
    assert state.seats[1].player == "p1"
    assert state.supply == ORDER[16:]
    assert state.turn == Turn(seat=0, started_with=8)
    later = replay(
        [_created(), PlayerJoined(seat=1, player="p1"), SummyStarted(1, (HAND_0, HAND_1[:5]))]
    )
    assert later.turn == Turn(seat=1, started_with=5)


def test_an_equation_lays_its_tiles_scores_draws_and_passes_the_turn() -> None:
    state = _dealt()
    placements = ((-3, 0, 1), (-2, 0, 10), (-1, 0, 2), (1, 0, 3))
    event = EquationPlayed(0, placements, "across", "1+2=3", 6, tuple(parse_tiles("1234")))
    after = apply(replace(state, idle_turns=3, dry_turns=2), event)
    assert dict(after.table) == {(0, 0): 14, (-3, 0): 1, (-2, 0): 10, (-1, 0): 2, (1, 0): 3}
    assert after.seats[0].rack == tuple(parse_tiles("4x5:1234"))
    assert after.seats[0].score == 6 and after.seats[1] == state.seats[1]
    assert after.supply == ORDER[20:]
    assert after.last_play == Play(0, placements, "across", "1+2=3", 6)
    assert after.last_turn == Turn(seat=0, started_with=8, ended_by="played")
    assert after.turn == Turn(seat=1, started_with=8)
    assert (after.idle_turns, after.dry_turns, after.turns_played) == (0, 0, 1)
    assert dict(state.table) == {(0, 0): 14}  # the state before is unchanged


def test_a_discard_puts_tiles_out_draws_as_many_and_counts_an_idle_turn() -> None:
    state = _dealt()
    event = TilesDiscarded(0, tuple(parse_tiles("x:")), tuple(parse_tiles("12")))
    after = apply(state, event)
    assert after.seats[0].rack == tuple(parse_tiles("12+345")) + tuple(parse_tiles("12"))
    assert after.supply == ORDER[18:]
    assert after.last_turn == Turn(seat=0, started_with=8, ended_by="discarded", exchanged=2)
    assert (after.idle_turns, after.dry_turns, after.turns_played) == (1, 0, 1)
    assert after.turn == Turn(seat=1, started_with=8)
    assert after.seats[0].score == 0 and after.last_play is None


def test_a_pass_counts_an_idle_turn_and_a_dry_one_once_the_supply_is_empty() -> None:
    state = _dealt()
    after = apply(state, Passed(seat=0))
    assert after.last_turn == Turn(seat=0, started_with=8, ended_by="passed")
    assert (after.idle_turns, after.dry_turns, after.turns_played) == (1, 0, 1)
    assert after.turn == Turn(seat=1, started_with=8)
    dry = apply(replace(state, supply=(), idle_turns=2, dry_turns=1), Passed(seat=0))
    assert (dry.idle_turns, dry.dry_turns) == (3, 2)
    # With no turn in play (never made by check) the turn is counted as begun with none.
    odd = apply(replace(state, turn=None), Passed(seat=1))
    assert odd.last_turn == Turn(seat=1, started_with=0, ended_by="passed")
    assert odd.turn == Turn(seat=0, started_with=8)


def test_a_seat_resigning_or_timing_out_on_its_turn_passes_the_turn_on() -> None:
    state = replay(
        [
            _created(3),
            PlayerJoined(seat=1, player="p1"),
            PlayerJoined(seat=2, player="p2"),
            SummyStarted(0, (HAND_0, HAND_1, HAND_2)),
        ]
    )
    resigned = apply(state, Resigned(seat=0))
    assert resigned.seats[0].resigned and not resigned.seats[0].timed_out
    assert resigned.turn == Turn(seat=1, started_with=8)
    assert resigned.turns_played == 0 and resigned.last_turn is None
    timed = apply(resigned, TimedOut(seat=2))
    assert timed.seats[2].resigned and timed.seats[2].timed_out
    assert timed.turn == Turn(seat=1, started_with=8)  # not its turn: the turn stays
    assert apply(timed, Passed(seat=1)).turn == Turn(seat=1, started_with=8)


def test_clock_events_change_nothing_but_the_version() -> None:
    state = _dealt()
    for event in (
        TimeGiven(seat=0, to=1, seconds=60),
        VacationStarted(seat=0, days=2),
        VacationEnded(seat=0),
        VacationDayUsed(seat=1),
    ):
        assert apply(state, event) == replace(state, version=state.version + 1)


def test_the_end_records_the_result_and_final_scores_and_the_reveal_is_noted() -> None:
    state = _dealt()
    ended = apply(state, GameEnded("resigned", (3, 4), (10, -4), (0,)))
    assert ended.status == "ended" and ended.turn is None
    assert ended.result == Result("resigned", (3, 4), (10, -4), (0,))
    assert [s.score for s in ended.seats] == [10, -4]
    assert ended.seats[0].rack == HAND_0
    revealed = apply(ended, DrawsRevealed(order=ORDER, salt="ab"))
    assert revealed.draws_revealed and revealed.version == ended.version + 1


def test_an_invitee_declining_leaves_the_invitations_and_the_creator_cancels() -> None:
    state = apply(SummyState(), _created(3, invited=("p1", "p2", "p3")))
    after = apply(state, InvitationDeclined(player="p2"))
    assert after.options.invited == ("p1", "p3")
    assert after.options.declined == ("p2",)
    again = apply(after, InvitationDeclined(player="p3"))
    assert again.options.invited == ("p1",) and again.options.declined == ("p2", "p3")
    cancelled = apply(replace(again, turn=Turn(0, 0)), GameCancelled(player="p0"))
    assert cancelled.status == "cancelled" and cancelled.turn is None


def test_a_mathable_only_event_is_refused_by_a_summy_game() -> None:
    from mathable.games.mathable.events import TilesExchanged

    with pytest.raises(RuleError) as raised:
        apply(_dealt(), TilesExchanged(seat=0, returned=(1,), drawn=(2,)))
    assert raised.value.code == "bad_event"
    assert raised.value.message == "a Summy game cannot apply tiles_exchanged"
    assert raised.value.details == {"type": "tiles_exchanged"}  # what a bot reads


def test_summy_s_events_write_tiles_as_strings_and_read_back() -> None:
    events: list[Event] = [
        SummyStarted(1, ((1,), (12, 14))),
        EquationPlayed(0, ((1, 0, 1), (-2, 3, 13)), "down", "1:1=1", 3, (2, 11)),
        TilesDiscarded(1, (10,), ()),
    ]
    assert [e.to_dict() for e in events] == [
        {"type": "summy_started", "v": 1, "first_seat": 1, "hands": [["1"], ["x", "="]]},
        {
            "type": "equation_played",
            "v": 1,
            "seat": 0,
            "placements": [{"x": 1, "y": 0, "tile": "1"}, {"x": -2, "y": 3, "tile": ":"}],
            "direction": "down",
            "equation": "1:1=1",
            "points": 3,
            "drawn": ["2", "-"],
        },
        {"type": "tiles_discarded", "v": 1, "seat": 1, "discarded": ["+"], "drawn": []},
    ]
    assert [Event.from_dict(e.to_dict()) for e in events] == events
    assert {e.game for e in events} == {"summy"}
    assert SUMMY_EVENTS == {SummyStarted, EquationPlayed, TilesDiscarded}
    assert SummyStarted.starts_clocks


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"type": "tiles_discarded", "v": 1, "seat": 0, "discarded": ["y"], "drawn": []},
            "tiles_discarded.discarded: expected a tile, got 'y'",
        ),
        (
            {"type": "tiles_discarded", "v": 1, "seat": 0, "discarded": [12], "drawn": []},
            "tiles_discarded.discarded: expected a tile, got '12'",
        ),
        (
            {"type": "tiles_discarded", "v": 1, "seat": 0, "discarded": [], "drawn": ["x" * 30]},
            f"tiles_discarded.drawn: expected a tile, got {'x' * 20!r}",
        ),
        (
            {"type": "equation_played", "v": 1, "seat": 0, "placements": [{"x": 1, "y": 0}],
             "direction": "across", "equation": "1", "points": 1, "drawn": []},
            "equation_played.placements: a placement is {x, y, tile}",
        ),
        (
            {"type": "equation_played", "v": 1, "seat": 0, "placements": [[1, 0, "1"]],
             "direction": "across", "equation": "1", "points": 1, "drawn": []},
            "equation_played.placements: a placement is {x, y, tile}",
        ),
        (
            {"type": "equation_played", "v": 1, "seat": 0,
             "placements": [{"x": 1, "y": 0, "tile": "1", "z": 2}],
             "direction": "across", "equation": "1", "points": 1, "drawn": []},
            "equation_played.placements: a placement is {x, y, tile}",
        ),
        (
            {"type": "equation_played", "v": 1, "seat": 0,
             "placements": [{"x": 1, "y": 0, "tile": "?"}],
             "direction": "across", "equation": "1", "points": 1, "drawn": []},
            "equation_played.placements: expected a tile, got '?'",
        ),
    ],
)  # fmt: skip
def test_a_summy_event_that_is_not_well_formed_is_refused_as_bad_event(
    data: dict[str, Any], message: str
) -> None:
    with pytest.raises(RuleError) as raised:
        Event.from_dict(data)
    assert (raised.value.code, raised.value.message) == ("bad_event", message)


def test_a_seat_resigning_out_of_turn_leaves_the_turn_where_it_is() -> None:
    state = replay(
        [
            _created(3),
            PlayerJoined(seat=1, player="p1"),
            PlayerJoined(seat=2, player="p2"),
            SummyStarted(0, (HAND_0, HAND_1, HAND_2)),
        ]
    )
    after = apply(state, Resigned(seat=1))
    assert after.seats[1].resigned and after.turn == Turn(seat=0, started_with=8)
    assert apply(after, Passed(seat=0)).turn == Turn(seat=2, started_with=8)


_PLAYED = {"type": "equation_played", "v": 1, "seat": 0, "direction": "across",
           "equation": "1", "points": 1, "drawn": []}  # fmt: skip


@pytest.mark.parametrize(
    ("data", "details"),
    [
        (
            {"type": "tiles_discarded", "v": 1, "seat": 0, "discarded": [], "drawn": ["x" * 30]},
            {"field": "drawn", "expected": "a tile", "got": "x" * 20},
        ),
        (
            {"type": "tiles_discarded", "v": 1, "seat": 0, "discarded": [12], "drawn": []},
            {"field": "discarded", "expected": "a tile", "got": 12},
        ),
        (
            {**_PLAYED, "placements": [{"x": 1, "y": 0, "z": "w" * 80}]},
            {"field": "placements", "expected": "{x, y, tile}",
             "got": repr({"x": 1, "y": 0, "z": "w" * 80})[:60]},
        ),
        (
            {**_PLAYED, "placements": [[1, 0, "1"]]},
            {"field": "placements", "expected": "{x, y, tile}", "got": "[1, 0, '1']"},
        ),
    ],
)  # fmt: skip
def test_a_summy_event_refused_names_its_field_what_it_expected_and_what_it_got(
    data: dict[str, Any], details: dict[str, Any]
) -> None:
    """docs/errors.md, ``bad_event``: ``expected`` and ``got`` (cut: a tile's to 20
    characters, a placement's to 60), with the event's ``type`` and ``field``."""
    with pytest.raises(RuleError) as raised:
        Event.from_dict(data)
    assert raised.value.details == {"type": data["type"], **details}
