"""Auditable draws: a game committed to a bag order at creation; every draw checks against it."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from mathable import (
    OPERATION,
    Create,
    Exchange,
    GameState,
    Join,
    Pass,
    PlayTurn,
    TurnPlacement,
    apply,
    check,
    greedy_turn,
    parse_square,
)
from mathable.core.audit import Audit, audit, events_from_feed, revealed_log
from mathable.core.commitment import commit
from mathable.core.events import DrawsRevealed, Event, GameCreated
from mathable.games.mathable.audit import expected_draw
from mathable.games.mathable.commands import Decline
from mathable.games.mathable.events import ExtraTileDrawn, GameStarted, TilesExchanged, TurnEnded
from mathable.games.mathable.tiles import TILE_SET
from mathable.games.mathable.view import redact

SALT = "5a" * 16


def _play_to_end(order: tuple[int, ...], seed: int) -> list[Event]:
    """A 2-player game of greedy turns (an exchange now and then) on ``order``, to its end."""
    chooser = random.Random(seed)
    log: list[Event] = []
    state = GameState()
    commands = [Create("ann", order=order, salt=SALT), Join("bob")]
    for command in commands:
        for event in check(state, command):
            log.append(event)
            state = apply(state, event)
    while state.status == "playing":
        assert state.turn is not None
        seat = state.turn.seat
        rack = state.seats[seat].rack
        turn = greedy_turn(state.position, rack)
        if turn and chooser.random() > 0.1:
            squares = [parse_square(p.square) for p in turn]
            placements = tuple(
                TurnPlacement(square, p.tile, draw_extra=bool(OPERATION[square]))
                for square, p in zip(squares, turn, strict=True)
            )
            command: object = PlayTurn(seat, placements)
        elif len(state.bag) >= 2 and rack:
            command = Exchange(seat, rack[:2])
        else:
            command = Pass(seat)
        for event in check(state, command):  # type: ignore[arg-type]
            log.append(event)
            state = apply(state, event)
    return log


def _order(seed: int) -> tuple[int, ...]:
    tiles = list(TILE_SET)
    random.Random(seed).shuffle(tiles)
    return tuple(tiles)


def test_a_finished_game_reveals_its_order_and_every_draw_checks_out() -> None:
    order = _order(1)
    log = _play_to_end(order, 1)
    created, reveal = log[0], log[-1]
    assert isinstance(created, GameCreated) and created.commitment == commit(order, SALT)
    assert isinstance(reveal, DrawsRevealed) and reveal.order == order and reveal.salt == SALT
    # What a feed shows: game_created without the order and salt, the reveal at the end.
    shown = [replace(created, order=None, salt=None), *log[1:]]
    result = audit(revealed_log(shown))
    assert result.ok and result.draws > 10, result


def test_a_draw_that_does_not_follow_the_order_is_found() -> None:
    log = _play_to_end(_order(2), 2)
    index = next(i for i, e in enumerate(log) if isinstance(e, TurnEnded) and len(e.drawn) >= 2)
    bad = log[index]
    assert isinstance(bad, TurnEnded)
    log[index] = replace(bad, drawn=bad.drawn[::-1])
    result = audit(log)
    assert not result.ok and any(f"event {index + 1} " in p for p in result.problems)


def test_an_order_that_does_not_match_the_commitment_is_found() -> None:
    log = _play_to_end(_order(3), 3)
    reveal = log[-1]
    assert isinstance(reveal, DrawsRevealed)
    log[-1] = replace(reveal, order=_order(4))
    assert "do not match the commitment" in " ".join(audit(log).problems)


def test_the_order_and_salt_never_show_in_a_feed_before_the_reveal() -> None:
    log = _play_to_end(_order(5), 5)
    for viewer in (0, 1, None):
        shown = redact(log[0], viewer)
        assert "order" not in shown and "salt" not in shown and shown["commitment"]
    assert [e.type for e in log if "order" in redact(e, 0)] == ["draws_revealed"]


def test_an_invitee_declines_and_the_creator_cancels() -> None:
    state = GameState()
    for event in check(state, Create("ann", players=3, invited=("bob",))):
        state = apply(state, event)
    for event in check(state, Decline("bob")):
        state = apply(state, event)
    assert state.options.invited == () and state.options.declined == ("bob",)
    for event in check(state, Decline("ann")):
        state = apply(state, event)
    assert state.status == "cancelled"


# --- pinned by the mutation runs (docs/mutation.md), was test_pinned_audit.py -----------------
# The audit of a finished game's draws, word for word (``mathable.core.audit``).


def _draws(log: list[Event]) -> int:
    """The draw events of a log: the start, extra tiles, refills and exchanges."""
    return sum(
        isinstance(e, GameStarted | ExtraTileDrawn | TilesExchanged)
        or (isinstance(e, TurnEnded) and bool(e.drawn))
        for e in log
    )


@pytest.fixture(scope="module")
def finished() -> list[Event]:
    return _play_to_end(_order(7), 7)


def test_a_whole_game_audits_every_draw_once(finished: list[Event]) -> None:
    result = audit(finished)
    assert result == Audit(draws=_draws(finished), problems=())
    assert result.ok and result.draws > 10


def test_an_audit_is_ok_only_with_draws_and_no_problem() -> None:
    assert Audit(draws=1).ok
    assert not Audit(draws=0).ok
    assert not Audit(draws=3, problems=("x",)).ok


def test_an_empty_log_or_one_without_game_created_says_so(finished: list[Event]) -> None:
    assert audit([]) == Audit(draws=0, problems=("the log is empty",))
    assert audit(finished[1:]) == Audit(draws=0, problems=("no game_created",))


def test_a_game_without_commitment_or_not_yet_revealed_says_so(finished: list[Event]) -> None:
    created = finished[0]
    assert isinstance(created, GameCreated)
    uncommitted = [replace(created, commitment=None), *finished[1:]]
    assert audit(uncommitted).problems == (
        "this game was made without a commitment to its bag order",
    )
    assert audit(finished[:-1]).problems == (
        "the bag order is revealed only when the game has ended",
    )


def test_an_unknown_ruleset_is_refused_in_the_registry_s_words(finished: list[Event]) -> None:
    created = finished[0]
    assert isinstance(created, GameCreated)
    result = audit([replace(created, ruleset="chess"), *finished[1:]])
    assert result.draws == 0 and len(result.problems) == 1
    assert "chess" in result.problems[0]


def test_a_revealed_order_that_is_not_the_tile_set_says_so(finished: list[Event]) -> None:
    reveal = finished[-1]
    assert isinstance(reveal, DrawsRevealed)
    short = reveal.order[:-1]
    log = [*finished[:-1], replace(reveal, order=short)]
    assert audit(log) == Audit(
        draws=0,
        problems=(
            "the revealed order is not the 106 tiles of the game",
            "the revealed order and salt do not match the commitment made at creation",
        ),
    )
    # The right tiles, the commitment made over them: only the tile set is wrong.
    created = finished[0]
    assert isinstance(created, GameCreated)
    recommitted = [replace(created, commitment=commit(short, SALT)), *log[1:]]
    assert audit(recommitted).problems == ("the revealed order is not the 106 tiles of the game",)


def test_an_order_that_does_not_match_the_commitment_says_so(finished: list[Event]) -> None:
    reveal = finished[-1]
    assert isinstance(reveal, DrawsRevealed)
    log = [*finished[:-1], replace(reveal, salt="00" * 16)]
    assert audit(log) == Audit(
        draws=0,
        problems=("the revealed order and salt do not match the commitment made at creation",),
    )


def test_a_draw_off_the_order_is_named_by_version_and_type(finished: list[Event]) -> None:
    log = list(finished)
    index = next(i for i, e in enumerate(log) if isinstance(e, TurnEnded) and len(e.drawn) >= 2)
    bad = log[index]
    assert isinstance(bad, TurnEnded)
    log[index] = replace(bad, drawn=bad.drawn[::-1])
    result = audit(log)
    assert result.draws == _draws(finished)
    assert result.problems == (f"event {index + 1} (turn_ended) drew other tiles than the order",)


def test_a_draw_of_tiles_not_there_stops_the_audit_at_that_event(finished: list[Event]) -> None:
    log = list(finished)
    index = next(i for i, e in enumerate(log) if isinstance(e, TurnEnded) and len(e.drawn) >= 2)
    bad = log[index]
    assert isinstance(bad, TurnEnded)
    log[index] = replace(bad, drawn=(999, 998))
    result = audit(log)
    assert result.problems == (
        f"event {index + 1} (turn_ended) drew other tiles than the order",
        f"event {index + 1} (turn_ended) does not follow from the game",
    )
    before = sum(1 for e in finished[: index + 1] if _draws([e]))
    assert result.draws == before


def _feed(log: list[Event]) -> list[dict[str, Any]]:
    """The game's event feed as a spectator reads it once the game has ended."""
    return [
        {"version": v, "at": "2026-11-30T12:00:00Z", **redact(e, None, revealed=True)}
        for v, e in enumerate(log, 1)
    ]


def test_a_finished_game_audits_from_its_public_feed(finished: list[Event]) -> None:
    events = events_from_feed(_feed(finished))
    created = events[0]
    assert isinstance(created, GameCreated)
    reveal = finished[-1]
    assert isinstance(reveal, DrawsRevealed)
    assert (created.seed, created.tiles) == (None, None)
    assert (created.order, created.salt) == (reveal.order, reveal.salt)
    assert events[1:] == finished[1:]
    assert audit(events) == audit(finished)


def test_a_game_made_with_given_tiles_reads_them_back_from_the_reveal() -> None:
    order = _order(8)
    log = _play_to_end(order, 8)
    created = log[0]
    assert isinstance(created, GameCreated)
    # A game created with `tiles`: the feed says it was ordered, and the order is those tiles.
    given = [replace(created, tiles=order, order=None, salt=None), *log[1:]]
    feed = _feed(given)
    assert feed[0]["ordered"] is True and "tiles" not in feed[0]
    events = events_from_feed(feed)
    first = events[0]
    assert isinstance(first, GameCreated)
    assert (first.tiles, first.order, first.seed) == (order, None, None)
    assert revealed_log(events) == events
    assert events[1:] == log[1:]


def test_a_feed_entry_that_is_not_an_event_is_refused() -> None:
    from mathable.core.errors import RuleError

    with pytest.raises(RuleError) as raised:
        events_from_feed([{"version": 1, "type": "no_such_event"}])
    assert raised.value.code == "bad_event"


def test_revealed_log_puts_the_order_back_only_where_it_was_hidden(finished: list[Event]) -> None:
    created = finished[0]
    reveal = finished[-1]
    assert isinstance(created, GameCreated) and isinstance(reveal, DrawsRevealed)
    hidden = [replace(created, order=None, salt=None), *finished[1:]]
    assert revealed_log(hidden) == finished
    assert revealed_log(finished[:-1]) == finished[:-1]  # nothing revealed yet
    assert revealed_log([]) == []
    assert revealed_log(finished[1:]) == finished[1:]  # no game_created first
    with_tiles = [replace(created, tiles=(1, 2), order=None, salt=None), *finished[1:]]
    assert revealed_log(with_tiles) == with_tiles


def test_the_expected_draw_of_each_kind_comes_off_the_front_of_the_bag(
    finished: list[Event],
) -> None:
    from mathable.games.mathable.events import apply
    from mathable.games.mathable.state import GameState

    state = GameState()
    seen = set()
    for event in finished:
        expected = expected_draw(state, event)
        if _draws([event]):
            assert expected == event, event
            seen.add(type(event))
        else:
            assert expected is None, event
        state = apply(state, event)
    assert {GameStarted, TurnEnded} <= seen
    # An extra tile drawn from an empty bag: nothing to expect.
    empty = replace(state, bag=())
    assert expected_draw(empty, ExtraTileDrawn(seat=0, tile=5)) is None
    full = replace(state, bag=(7, 8, 9))
    assert expected_draw(full, ExtraTileDrawn(seat=0, tile=5)) == ExtraTileDrawn(seat=0, tile=7)
    assert expected_draw(full, TilesExchanged(seat=1, returned=(1, 2), drawn=(3, 4))) == (
        TilesExchanged(seat=1, returned=(1, 2), drawn=(7, 8))
    )


def test_a_feed_whose_game_created_does_not_say_ordered_or_seeded_reads_as_neither(
    finished: list[Event],
) -> None:
    feed = _feed(finished)
    del feed[0]["ordered"], feed[0]["seeded"]
    events = events_from_feed(feed)
    created = events[0]
    assert isinstance(created, GameCreated)
    assert (created.tiles, created.seed) == (None, None)
    assert created.order == finished[-1].order  # type: ignore[attr-defined]
    assert audit(events).ok


def test_a_feed_whose_order_is_withheld_is_refused_as_such(finished: list[Event]) -> None:
    """While another game of the same order is unfinished the server withholds the order
    (its ``draws_revealed`` says ``withheld``): the verifier says so, it does not audit."""
    from mathable.core.errors import RuleError

    feed = _feed(finished)
    feed[-1] = {"version": feed[-1]["version"], "type": "draws_revealed", "withheld": True}
    with pytest.raises(RuleError) as raised:
        events_from_feed(feed)
    assert raised.value.code == "bad_event"
    assert raised.value.message == (
        "the server withholds this game's bag order while another game of the same order "
        "is unfinished"
    )
    assert raised.value.details == {"type": "draws_revealed", "field": "order", "withheld": True}
    feed[-1]["withheld"] = False  # not withheld, but no order: an entry that is no event
    with pytest.raises(RuleError) as other:
        events_from_feed(feed)
    assert other.value.details != raised.value.details
