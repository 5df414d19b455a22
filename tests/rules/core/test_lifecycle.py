"""The lifecycle both games share (``mathable.core.lifecycle``): one set of commands, one fold of
the lifecycle events, the same refusals in either game with each game's own words."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from mathable.core import lifecycle
from mathable.core.errors import RuleError
from mathable.core.events import DrawsRevealed, GameCreated, GameEnded, Passed
from mathable.core.lifecycle import (
    Create,
    Decline,
    GiveTime,
    Join,
    Open,
    Pass,
    Resign,
    StartVacation,
    TimeOut,
)
from mathable.core.lifecycle import shared as kernel_parts
from mathable.core.ruleset import ruleset
from mathable.core.state import Result
from mathable.games.mathable import commands as mathable_commands
from mathable.games.mathable import events as mathable_events
from mathable.games.mathable.state import GameState
from mathable.games.summy import commands as summy_commands
from mathable.games.summy import events as summy_events
from mathable.games.summy.state import SummyState
from tests.rules.lifecycle_helpers import started

GAMES = ("mathable", "summy")


def refusal(game: str, state: Any, command: object) -> RuleError:
    with pytest.raises(RuleError) as caught:
        ruleset(game).check(state, command)
    return caught.value


def test_both_games_read_the_same_lifecycle_commands() -> None:
    for name in ("Create", "Join", "Decline", "Pass", "Resign", "TimeOut", "GiveTime"):
        assert getattr(mathable_commands, name) is getattr(lifecycle, name)
    # Summy has no copy of its own: its commands module takes them from the lifecycle.
    for name in ("_create", "_join", "_decline", "_resign", "_give_time", "_clocked_seat"):
        assert not hasattr(summy_commands, name)
        assert not hasattr(mathable_commands, name)


def test_both_games_fold_lifecycle_events_with_the_one_apply() -> None:
    mathable = started("mathable", players=3)
    summy = started("summy", players=3)
    for game, state in (("mathable", mathable), ("summy", summy)):
        rules = ruleset(game)
        turn = state.turn.seat
        for event in rules.check(state, Resign(turn)):
            state = rules.apply(state, event)
        assert state.seats[turn].resigned and not state.seats[turn].timed_out
        assert state.turn.seat == state.next_seat(turn)
        assert lifecycle.apply(state, mathable_events.Resigned(turn)) is not None
    # An event of the other game is none of the lifecycle's, and each game refuses it.
    assert lifecycle.apply(GameState(), summy_events.SummyStarted(0, ((),))) is None
    with pytest.raises(RuleError, match="a Summy game cannot apply game_started"):
        summy_events.apply(summy, mathable_events.GameStarted(((),), 0, ((),)))


@pytest.mark.parametrize("game", GAMES)
def test_a_number_of_players_that_is_no_whole_number_is_refused(game: str) -> None:
    """Mathable used to fail with a TypeError on ``players="3"``; now both refuse it."""
    empty = ruleset(game).new_state()
    err = refusal(game, empty, Create("ann", players="3", ruleset=game))  # type: ignore[arg-type]
    assert err.code == "bad_players"


@pytest.mark.parametrize("game", GAMES)
def test_vacation_days_that_are_no_whole_number_are_refused(game: str) -> None:
    """Mathable used to fail with a TypeError on ``days="2"``; now both refuse it."""
    state = started(game)
    err = refusal(game, state, StartVacation(0, "2"))  # type: ignore[arg-type]
    assert (err.code, err.message) == ("bad_days", "a vacation lasts 1 to 366 days")


@pytest.mark.parametrize("game", GAMES)
def test_not_your_turn_names_whose_turn_it_is_in_both_games(game: str) -> None:
    state = started(game)
    other = 1 - state.turn.seat
    err = refusal(game, state, Pass(other))
    assert err.code == "not_your_turn"
    assert err.details == {"seat": state.turn.seat}


def test_each_game_keeps_its_own_words_for_the_refusals_that_differ() -> None:
    m, s = GameState(), SummyState()
    assert refusal("mathable", m, Create("a", referee="x")).message == (
        "referee is 'server' or 'players'"
    )
    assert refusal("summy", s, Create("a", referee="players", ruleset="summy")).message == (
        "in Summy the server referees"
    )
    assert refusal("mathable", m, Create("a", tiles=(1, 2))).message == (
        "tiles must list all 106 tiles of the game, each exactly once"
    )
    assert refusal("summy", s, Create("a", tiles=(1, 2), ruleset="summy")).message == (
        "tiles must list the 93 tiles of the supply, each once"
    )
    assert refusal("mathable", m, Create("a", order=(1,))).message == (
        "a bag order lists all 106 tiles, and only without tiles"
    )
    assert refusal("summy", s, Create("a", order=(1,), ruleset="summy")).message == (
        "a supply order lists all 93 tiles, and only without tiles"
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_shared_refusals_are_the_same_in_both_games(game: str) -> None:
    state = started(game, players=3)
    assert refusal(game, state, Join("zed")).code == "game_full"
    assert refusal(game, state, Decline("zed")).code == "game_started"
    assert refusal(game, state, GiveTime(0, 0, 60)).code == "own_seat"
    assert refusal(game, state, GiveTime(0, 9, 60)).code == "bad_seat"
    assert refusal(game, state, GiveTime(0, 1, 0)).code == "bad_seconds"
    unclocked = started(game, clock=None)
    assert refusal(game, unclocked, TimeOut(0)).code == "no_clock"


@pytest.mark.parametrize("game", GAMES)
def test_the_last_seat_standing_after_a_timeout_wins_on_time(game: str) -> None:
    rules = ruleset(game)
    state = started(game)
    events = rules.check(state, TimeOut(state.turn.seat, claimed_by=None))
    ended = [e for e in events if isinstance(e, mathable_events.GameEnded)]
    assert ended and ended[0].reason == "timeout"
    for event in events:
        state = rules.apply(state, event)
    assert state.status == "ended" and state.turn is None


def test_a_cancelled_game_refuses_a_decline_and_a_join_as_cancelled() -> None:
    """Found by a bot author: POST /decline on a cancelled game answered game_started."""
    state = GameState()
    for command in (Create("ann", 2, invited=("bob",)), Decline("ann")):
        for event in mathable_commands.check(state, command):
            state = mathable_events.apply(state, event)
    assert state.status == "cancelled"
    for command in (Decline("bob"), Join("bob"), Join("cy")):
        with pytest.raises(RuleError) as err:
            mathable_commands.check(state, command)
        assert (err.value.code, err.value.details) == ("game_cancelled", {"status": "cancelled"})


# --- refusals of creating and joining, as data (issue 48) ---------------------------------
# Every key of ``details`` a bot reads, for both games (docs/errors.md): the rules' tests
# pinned the codes and words, the server's alone the data.


def _creation_refusal(
    game: str, command: object, state: object = None
) -> tuple[str, dict[str, Any]]:
    rules = ruleset(game)
    with pytest.raises(RuleError) as raised:
        rules.check(rules.new_state() if state is None else state, command)
    return raised.value.code, raised.value.details


@pytest.mark.parametrize("game, size, referees", [
    ("mathable", 106, ["server", "players"]),
    ("summy", 93, ["server"]),
])  # fmt: skip
def test_every_refusal_of_a_creation_as_data(game: str, size: int, referees: list[str]) -> None:
    def refused(**options: Any) -> tuple[str, dict[str, Any]]:
        return _creation_refusal(game, Create("a", ruleset=game, **options))

    assert refused(players=1) == (
        "bad_players",
        {"field": "players", "value": 1, "min": 2, "max": 4},
    )
    assert refused(players=5)[1]["value"] == 5
    assert refused(players="x")[1]["value"] == "x"
    assert refused(referee="x") == (
        "bad_referee",
        {"field": "referee", "value": "x", "accepted": referees},
    )
    assert refused(tiles=(1, 2)) == ("bad_tiles", {"field": "tiles", "count": 2, "expected": size})
    assert refused(tiles="12")[1] == {"field": "tiles", "count": None, "expected": size}
    assert refused(order=(1,)) == (
        "bad_tiles",
        {"field": "order", "count": 1, "expected": size, "with_tiles": False},
    )
    every = tuple(ruleset(game).tile_set)
    assert refused(order=every, tiles=every) == (
        "bad_tiles",
        {"field": "order", "count": size, "expected": size, "with_tiles": True},
    )
    assert refused(seed=1, tiles=every) == ("bad_options", {"fields": ["seed", "tiles"]})
    assert refused(salt="zz") == (
        "bad_salt",
        {"field": "salt", "accepted": "32 to 64 lower-case hex digits"},
    )
    assert refused(players=2, invited=("b", "c")) == (
        "bad_invite",
        {"field": "invite", "invited": ["b", "c"], "free_seats": 1},
    )
    assert refused(players=3, invited=("b", "b"))[1]["free_seats"] == 2
    assert refused(players=2, invited=("a",)) == (
        "bad_invite",
        {"field": "invite", "player": "a", "seat": 0},
    )
    for seating in (("a", "c"), ("a",), ("a", "a")):
        assert refused(players=2, invited=("b",), seating=seating) == (
            "bad_seating",
            {"field": "seating", "players": 2},
        )
    assert refused(players=3, seating=("a", "b", "c")) == (
        "bad_seating",
        {"field": "seating", "players": 3},
    )
    # Every player named, but one seat short, or one of them twice.
    for seating in (("a", "b"), ("a", "b", "b")):
        assert refused(players=3, invited=("b",), seating=seating) == (
            "bad_seating",
            {"field": "seating", "players": 3},
        )


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_every_refusal_of_joining_opening_and_declining_as_data(game: str) -> None:
    rules = ruleset(game)

    def after(*commands: object) -> object:
        state = rules.new_state()
        for command in commands:
            for event in rules.check(state, command):
                state = rules.apply(state, event)
        return state

    created = Create("a", players=3, invited=("b",), ruleset=game)
    waiting = after(created)
    assert _creation_refusal(game, created, waiting) == ("game_exists", {"status": "waiting"})
    assert _creation_refusal(game, Join("a"), waiting) == ("already_seated", {"seat": 0})
    assert _creation_refusal(game, Join("c"), after(Create("a", invited=("b",), ruleset=game))) == (
        "seat_reserved",
        {"free_seats": 1, "reserved_seats": 1},
    )
    declined = after(created, Decline("b"))
    assert _creation_refusal(game, Join("c"), declined) == ("game_closed", {"declined": 1})
    assert _creation_refusal(game, Open("c"), declined) == ("not_creator", {"player": "c"})
    assert _creation_refusal(game, Open("a"), waiting) == ("not_closed", {})
    assert _creation_refusal(game, Decline("z"), waiting) == ("not_invited", {"player": "z"})
    full = after(Create("a", ruleset=game), Join("b"))
    assert _creation_refusal(game, Join("c"), full) == ("game_full", {"status": "playing"})
    assert _creation_refusal(game, Open("a"), full) == ("game_started", {"status": "playing"})
    assert _creation_refusal(game, Decline("b"), full) == ("game_started", {"status": "playing"})
    cancelled = after(Create("a", ruleset=game), Decline("a"))
    assert _creation_refusal(game, Join("b"), cancelled) == (
        "game_cancelled",
        {"status": "cancelled"},
    )


# --- the kernel's own pass, a seat that left, the order revealed (issue 48's run) ----------


def test_the_kernel_passes_the_turn_of_a_game_without_a_pass_of_its_own() -> None:
    """Both games check a pass themselves; a third game's pass is the kernel's: the turn's
    seat passes (the game folds ``passed``), another seat is refused."""
    state = started("mathable")
    seat = state.turn.seat
    fold = lifecycle.Fold(state, lifecycle.default_policy(state), mathable_commands.MATHABLE)
    assert lifecycle.check(fold, Pass(seat))
    assert fold.events == [Passed(seat)]
    assert fold.state.turn.seat == state.next_seat(seat) and fold.state.version == state.version + 1
    other = lifecycle.Fold(state, lifecycle.default_policy(state), mathable_commands.MATHABLE)
    with pytest.raises(RuleError) as refused:
        lifecycle.check(other, Pass(1 - seat))
    assert (refused.value.code, refused.value.details) == ("not_your_turn", {"seat": seat})
    assert other.events == []


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_that_resigned_is_refused_as_having_resigned(game: str) -> None:
    rules = ruleset(game)
    state = started(game, players=3)
    for event in rules.check(state, Resign(1)):
        state = rules.apply(state, event)
    again = refusal(game, state, Resign(1))
    assert (again.code, again.details) == ("not_seated", {"seat": 1, "seats": 3, "resigned": True})
    stranger = refusal(game, state, Resign(7))
    assert stranger.details == {"seat": 7, "seats": 3, "resigned": False}


@pytest.mark.parametrize("game", GAMES)
def test_the_revealed_order_is_kept_in_the_state(game: str) -> None:
    rules = ruleset(game)
    state = started(game)
    assert state.draws_revealed is False
    after = rules.apply(state, DrawsRevealed(order=(1, 2), salt="ab"))
    assert after.draws_revealed is True


@pytest.mark.parametrize("game", GAMES)
def test_the_creator_is_seat_0_s_player_or_the_one_named_and_none_before_creation(
    game: str,
) -> None:
    rules = ruleset(game)
    assert lifecycle.creator_of(rules.new_state()) is None
    assert lifecycle.creator_of(started(game)) == "ann"
    state = rules.new_state()
    seated = Create("ann", players=2, invited=("bob",), seating=("bob", "ann"), ruleset=game)
    for event in rules.check(state, seated):
        state = rules.apply(state, event)
    assert state.seats[0].player != "ann" and lifecycle.creator_of(state) == "ann"


@pytest.mark.parametrize("game", GAMES)
def test_a_rematch_seats_each_invitee_in_the_seat_kept_for_them(game: str) -> None:
    """The seats given at creation (a rematch's, rotated): each invitee who joins takes
    their own seat, not the first free one."""
    rules = ruleset(game)
    state = rules.new_state()
    seating = ("cy", "ann", "bob")
    created = Create("ann", players=3, invited=("bob", "cy"), seating=seating, ruleset=game)
    for command in (created, Join("bob")):
        for event in rules.check(state, command):
            state = rules.apply(state, event)
    assert state.options.seating == seating
    assert [seat.player for seat in state.seats] == [None, "ann", "bob"]
    for event in rules.check(state, Join("cy")):
        state = rules.apply(state, event)
    assert state.status == "playing"
    assert tuple(seat.player for seat in state.seats) == seating


@pytest.mark.parametrize("game", GAMES)
def test_the_end_keeps_each_seat_s_final_score_and_the_result(game: str) -> None:
    rules = ruleset(game)
    state = started(game)
    ended = GameEnded(reason="resigned", deductions=(3, 4), scores=(10, -4), winners=(0,))
    after = rules.apply(state, ended)
    assert after.status == "ended" and after.turn is None
    assert [seat.score for seat in after.seats] == [10, -4]
    assert [seat.player for seat in after.seats] == [seat.player for seat in state.seats]
    assert after.result == Result("resigned", (3, 4), (10, -4), (0,))


def _after(game: str, state: Any, command: Any) -> Any:
    rules = ruleset(game)
    for event in rules.check(state, command):
        state = rules.apply(state, event)
    return state


def _waiting(game: str) -> Any:
    """A game created for two, nobody joined yet."""
    return _after(game, ruleset(game).new_state(), Create("ann", players=2, ruleset=game))


def _ended(game: str) -> Any:
    """A game of two that ended when seat 0 resigned."""
    return _after(game, started(game), Resign(0))


@pytest.mark.parametrize("game", GAMES)
def test_resigning_a_game_not_in_play_says_its_status(game: str) -> None:
    refused = refusal(game, _waiting(game), Resign(0))
    assert (refused.code, refused.details) == ("game_not_started", {"status": "waiting"})
    refused = refusal(game, _ended(game), Resign(1))
    assert (refused.code, refused.details) == ("game_over", {"status": "ended"})


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_out_of_time_leaves_the_game_as_timed_out(game: str) -> None:
    rules = ruleset(game)
    state = started(game, players=3)
    seat = state.turn.seat
    for event in rules.check(state, TimeOut(seat, claimed_by=None)):
        state = rules.apply(state, event)
    assert state.seats[seat].resigned and state.seats[seat].timed_out is True
    assert state.status == "playing" and state.turn.seat != seat


@pytest.mark.parametrize("game", GAMES)
def test_a_pass_out_of_play_or_out_of_turn_says_why_as_data(game: str) -> None:
    """Every refusal of whose turn it is (docs/errors.md), its details as a bot reads them."""
    rules = ruleset(game)
    new = rules.new_state()
    refused = refusal(game, new, Pass(0))
    assert (refused.code, refused.details) == ("game_not_started", {"status": "new"})
    assert refused.message == "the game has not started yet"
    refused = refusal(game, _waiting(game), Pass(0))
    assert (refused.code, refused.details) == ("game_not_started", {"status": "waiting"})
    refused = refusal(game, _ended(game), Pass(1))
    assert (refused.code, refused.details) == ("game_over", {"status": "ended"})
    assert refused.message == "the game is over"
    state = started(game, players=3)
    for seat in (7, -1, "x"):
        refused = refusal(game, state, Pass(seat))  # type: ignore[arg-type]
        assert (refused.code, refused.details) == ("not_seated", {"seat": seat, "seats": 3})
        assert refused.message == "you have no seat in this game"
    turn = state.turn.seat
    refused = refusal(game, state, Pass((turn + 1) % 3))
    assert (refused.code, refused.details) == ("not_your_turn", {"seat": turn})
    assert refused.message == f"it is seat {turn}'s turn, not yours"


@pytest.mark.parametrize("game", ["mathable", "summy"])
def test_only_a_game_made_from_a_record_says_imported_in_its_view(game: str) -> None:
    rules = ruleset(game)
    (created,) = rules.check(rules.new_state(), Create("ada", ruleset=game))
    assert isinstance(created, GameCreated)
    played = rules.apply(rules.new_state(), created)
    imported = rules.apply(rules.new_state(), replace(created, imported=True))
    for viewer in (0, None):
        assert "imported" not in rules.view(played, viewer)
        assert rules.view(imported, viewer)["imported"] is True


@pytest.mark.parametrize("game", GAMES)
def test_an_imported_game_keeps_who_imported_it(game: str) -> None:
    """``importer``: the only player an imported game is listed for (the server's)."""
    rules = ruleset(game)
    (created,) = rules.check(rules.new_state(), Create("ada", ruleset=game))
    assert rules.apply(rules.new_state(), created).options.importer is None
    imported = replace(created, imported=True, importer="player-7")
    assert rules.apply(rules.new_state(), imported).options.importer == "player-7"


def test_the_kernel_s_tables_of_parts_are_made_on_first_use_and_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each part's checks and folds by class: made when first asked for (the tables
    emptied here, as in a fresh process), then kept while the parts are the same."""
    monkeypatch.setattr(kernel_parts, "_tables", None)
    checks, folds = kernel_parts._by_class()
    assert checks and folds
    assert kernel_parts._tables is not None and kernel_parts._tables[0] is kernel_parts.PARTS
    again = kernel_parts._by_class()
    assert again[0] is checks and again[1] is folds
