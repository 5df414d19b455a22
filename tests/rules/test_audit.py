"""Auditable draws: a game committed to a bag order at creation; every draw checks against it."""

from __future__ import annotations

import random
from dataclasses import replace

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
from mathable.core.audit import audit, revealed_log
from mathable.core.commitment import commit
from mathable.core.events import DrawsRevealed, Event, GameCreated
from mathable.games.mathable.commands import Decline
from mathable.games.mathable.events import TurnEnded
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
