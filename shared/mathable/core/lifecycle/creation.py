"""Creating a game, joining it, declining a seat and calling a game off, opening a closed
game to anyone: the commands and the events every game is made and filled with.

>>> from mathable.games.mathable.events import replay
>>> closed(replay([]))
False
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mathable.core.commitment import commit
from mathable.core.errors import RuleError, shown
from mathable.core.events import (
    GameCancelled,
    GameCreated,
    GameOpened,
    InvitationDeclined,
    PlayerJoined,
)
from mathable.core.lifecycle.clocks import check_spec
from mathable.core.lifecycle.fold import Fold, GameRules, S, is_int
from mathable.core.lifecycle.part import Part
from mathable.core.plugins import DEFAULT_RULESET
from mathable.core.state import ClockSpec, Lifecycle, Options, Seat
from mathable.core.words import says


@dataclass(frozen=True, slots=True)
class Create:
    """Create a game; ``player`` takes seat 0."""

    player: str
    players: int = 2
    referee: str = "server"
    seed: int | None = None
    tiles: tuple[int, ...] | None = None
    invited: tuple[str, ...] = ()
    clock: ClockSpec | None = None
    #: The bag order the server chose (hidden until the end) and the salt of its commitment.
    order: tuple[int, ...] | None = None
    salt: str | None = None
    #: The game to play (``mathable.core.ruleset``): the name of an installed game.
    ruleset: str = DEFAULT_RULESET
    #: Every player in seat order, the creator among them (a rematch's seats, rotated);
    #: None: the creator takes seat 0 and the invitees the others as they join.
    seating: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Decline:
    """An invitee refuses their seat; the creator of a game not yet started calls it off."""

    player: str


@dataclass(frozen=True, slots=True)
class Open:
    """The creator of a private game an invitee declined lets anyone take its free seats."""

    player: str


@dataclass(frozen=True, slots=True)
class Join:
    """Take the first free seat."""

    player: str


def _create(fold: Fold[S], command: Create) -> None:
    rules = fold.rules
    if fold.state.status != "new":
        raise RuleError(
            "game_exists", says("this game has already been created"), {"status": fold.state.status}
        )
    if not is_int(command.players) or not 2 <= command.players <= 4:
        raise RuleError(
            "bad_players",
            says("a game has 2 to 4 players, not {players}", players=command.players),
            {"field": "players", "value": shown(command.players), "min": 2, "max": 4},
        )
    if command.referee not in rules.referees:
        raise RuleError(
            "bad_referee",
            rules.bad_referee,
            {"field": "referee", "value": shown(command.referee), "accepted": list(rules.referees)},
        )
    if command.tiles is not None and sorted(command.tiles) != list(rules.tile_set):
        raise RuleError("bad_tiles", rules.bad_tiles, _tile_count("tiles", command.tiles, rules))
    if command.seed is not None and command.tiles is not None:
        raise RuleError(
            "bad_options",
            says("give a seed or a tile order, not both"),
            {"fields": ["seed", "tiles"]},
        )
    if command.order is not None and (
        command.tiles is not None or sorted(command.order) != list(rules.tile_set)
    ):
        raise RuleError(
            "bad_tiles",
            rules.bad_order,
            {**_tile_count("order", command.order, rules), "with_tiles": command.tiles is not None},
        )
    if command.salt is not None and not _is_salt(command.salt):
        # The salt stays secret until the end: the details say what a salt is, never it.
        raise RuleError(
            "bad_salt",
            says("a salt is 32 to 64 lower-case hex digits"),
            {"field": "salt", "accepted": "32 to 64 lower-case hex digits"},
        )
    committed = command.tiles if command.tiles is not None else command.order
    commitment = None
    if command.salt is not None and committed is not None:
        commitment = commit(committed, command.salt)
    invited = tuple(command.invited)
    if len(invited) > command.players - 1 or len(set(invited)) != len(invited):
        raise RuleError(
            "bad_invite",
            says("invite at most one player per free seat, each once"),
            {
                "field": "invite",
                "invited": [shown(name) for name in invited],
                "free_seats": shown(command.players)
                if not is_int(command.players)
                else command.players - 1,
            },
        )
    if command.player in invited:
        raise RuleError(
            "bad_invite",
            says("you cannot invite yourself: the creator has seat 0"),
            {"field": "invite", "player": command.player, "seat": 0},
        )
    seating = None if command.seating is None else tuple(command.seating)
    if seating is not None and (
        len(seating) != command.players
        or len(set(seating)) != len(seating)
        or set(seating) != {command.player, *invited}
    ):
        raise RuleError(
            "bad_seating",
            says("the seats given must name the creator and every invitee, once each"),
            {"field": "seating", "players": command.players},
        )
    if command.clock is not None:
        check_spec(command.clock)
    fold.emit(
        GameCreated(
            ruleset=rules.ruleset,
            rules_version=rules.rules_version,
            players=command.players,
            referee=command.referee,
            seed=command.seed,
            tiles=command.tiles,
            invited=invited,
            creator=command.player,
            clock=command.clock,
            order=command.order,
            salt=command.salt if commitment is not None else None,
            commitment=commitment,
            seating=seating,
        )
    )


def _first_seats(event: GameCreated) -> tuple[Seat, ...]:
    """The seats of a game just created: the creator's taken (seat 0, or their given one)."""
    at = 0 if event.seating is None else event.seating.index(event.creator)
    return tuple(
        Seat(player=event.creator) if seat == at else Seat() for seat in range(event.players)
    )


def _is_salt(salt: object) -> bool:
    return (
        isinstance(salt, str)
        and 32 <= len(salt) <= 64
        and all(c in "0123456789abcdef" for c in salt)
    )


def _tile_count(field: str, tiles: Any, rules: GameRules[Any]) -> dict[str, Any]:
    """A refused tile list as data: how many tiles it has and how many the game has (never
    the tiles: a bag order the server chose is hidden)."""
    count = len(tiles) if isinstance(tiles, list | tuple) else None
    return {"field": field, "count": count, "expected": len(rules.tile_set)}


def _not_cancelled(state: Lifecycle) -> None:
    """RuleError ``game_cancelled`` for a game its creator called off."""
    if state.status == "cancelled":
        raise RuleError(
            "game_cancelled",
            says("this game was called off by its creator"),
            {"status": state.status},
        )


def _decline(fold: Fold[S], command: Decline) -> None:
    state = fold.state
    _not_cancelled(state)
    if state.status != "waiting":
        raise RuleError(
            "game_started",
            says("only a game still waiting for players can be declined"),
            {"status": state.status},
        )
    if command.player in state.options.invited and state.seat_of(command.player) is None:
        fold.emit(InvitationDeclined(player=command.player))
    elif creator_of(state) == command.player:
        fold.emit(GameCancelled(player=command.player))
    else:
        raise RuleError(
            "not_invited", says("you have no invitation to this game"), {"player": command.player}
        )


def _open(fold: Fold[S], command: Open) -> None:
    state = fold.state
    _not_cancelled(state)
    if state.status != "waiting":
        raise RuleError(
            "game_started", says("only a game still waiting for players can be opened"),
            {"status": state.status},
        )  # fmt: skip
    if creator_of(state) != command.player:
        raise RuleError(
            "not_creator",
            says("only the creator of this game can open it"),
            {"player": command.player},
        )
    if not closed(state):
        raise RuleError("not_closed", says("this game is not closed: nothing to open"), {})
    fold.emit(GameOpened(player=command.player))


def creator_of(state: Lifecycle) -> str | None:
    """Who created the game: the player in seat 0, unless the seats were given."""
    if state.options.creator is not None:
        return state.options.creator
    return state.seats[0].player if state.seats else None


def closed(state: Lifecycle) -> bool:
    """An invitee declined this game and its creator has not opened it: its free seats
    are for the invitees left, nobody else."""
    return bool(state.options.declined) and not state.options.opened


def _join(fold: Fold[S], command: Join) -> None:
    state = fold.state
    _not_cancelled(state)
    if state.status != "waiting":
        raise RuleError(
            "game_full", says("this game is not waiting for players"), {"status": state.status}
        )
    if state.seat_of(command.player) is not None:
        raise RuleError(
            "already_seated",
            says("you already have a seat in this game"),
            {"seat": state.seat_of(command.player)},
        )
    free = [i for i, seat in enumerate(state.seats) if seat.player is None]
    seated = {seat.player for seat in state.seats}
    reserved = [name for name in state.options.invited if name not in seated]
    if command.player not in state.options.invited and closed(state):
        raise RuleError(
            "game_closed",
            says("an invitee declined this game: only its creator can open it to others"),
            {"declined": len(state.options.declined)},
        )
    if command.player not in state.options.invited and len(free) <= len(reserved):
        raise RuleError(
            "seat_reserved",
            says("the free seats of this game are reserved for invitees"),
            {"free_seats": len(free), "reserved_seats": len(reserved)},
        )
    seat = free[0]
    seating = state.options.seating
    if seating is not None and command.player in seating and seating.index(command.player) in free:
        seat = seating.index(command.player)  # a rematch: the seat kept for this invitee
    fold.emit(PlayerJoined(seat=seat, player=command.player))
    if len(free) == 1:
        fold.emit(fold.rules.deal(fold.state, fold.bag))


# --- the events ---------------------------------------------------------------------------


def _created(state: S, event: GameCreated) -> S:
    # The tiles to draw, in the given or committed order (else the full set).
    pool: dict[str, Any] = {state.POOL: event.tiles or event.order or state.pool}
    return replace(
        state,
        status="waiting",
        ruleset=event.ruleset,
        rules_version=event.rules_version,
        options=Options(
            players=event.players,
            referee="players" if event.referee == "players" else "server",
            seed=event.seed,
            tiles=event.tiles,
            invited=event.invited,
            clock=event.clock,
            order=event.order,
            salt=event.salt,
            commitment=event.commitment,
            imported=event.imported,
            seating=event.seating,
            creator=None if event.seating is None else event.creator,
            importer=event.importer,
        ),
        seats=_first_seats(event),
        **pool,
    )


def _joined(state: S, event: PlayerJoined) -> S:
    return replace(state, seats=state.with_seat(event.seat, player=event.player))


def _declined(state: S, event: InvitationDeclined) -> S:
    options = replace(
        state.options,
        invited=tuple(p for p in state.options.invited if p != event.player),
        declined=state.options.declined + (event.player,),
    )
    return replace(state, options=options)


def _opened(state: S, event: GameOpened) -> S:
    return replace(state, options=replace(state.options, opened=True))


def _cancelled(state: S, event: GameCancelled) -> S:
    return replace(state, status="cancelled", turn=None)


#: Creating and filling a game, as a part of the lifecycle.
PART = Part(
    checks={Create: _create, Join: _join, Decline: _decline, Open: _open},
    folds={
        GameCreated: _created,
        PlayerJoined: _joined,
        InvitationDeclined: _declined,
        GameOpened: _opened,
        GameCancelled: _cancelled,
    },
)


__all__ = ["PART", "Create", "Decline", "Join", "Open", "closed", "creator_of"]
