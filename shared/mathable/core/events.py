"""Events every game has: the base class, its registry and the lifecycle events.

A game's own events subclass ``Event`` with ``game`` set to the game's name; the
decoder finds every registered type, and loads the installed games (their entry
points, ``mathable.core.plugins``) and the module of events each ruleset names
(``events_module``, if it does not import them itself) the first time it meets a type
it does not know.
Every event is written with the schema version ``v`` so that old logs still load: the
lowest version that reads it right. An optional field that changes what an event means
(``Event.needs_version``) raises its ``v`` when it is set, and a reader refuses a ``v``
newer than it knows (``bad_event``) rather than skip the field and misread the game.

>>> e = Passed(seat=1)
>>> Event.from_dict(e.to_dict()) == e, e.to_dict()
(True, {'type': 'passed', 'v': 1, 'seat': 1})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from mathable.core import codec, plugins
from mathable.core.errors import RuleError, shown
from mathable.core.state import ClockSpec
from mathable.core.words import says

#: The newest event schema this reader knows. 2: ``game_created.seating`` (a rematch's seats).
SCHEMA_VERSION = 2

_CLOCK_FIELDS: dict[str, codec.Codec[Any]] = {
    "per_move": codec.OPT_INT,
    "initial": codec.OPT_INT,
    "increment": codec.INT,
    "max": codec.OPT_INT,
    "weekends_off": codec.BOOL,
    "on_timeout": codec.STR,
    "auto_vacation": codec.BOOL,
}


def _decode_clock(value: Any) -> ClockSpec:
    if not isinstance(value, dict):
        raise RuleError(
            "bad_event",
            says("a clock is an object"),
            {"expected": "an object", "got": shown(value)},
        )
    known = {name: c.decode(value[name]) for name, c in _CLOCK_FIELDS.items() if name in value}
    return ClockSpec(**known)


CLOCK: codec.Codec[ClockSpec | None] = codec.Codec(
    lambda spec: None if spec is None else spec.to_dict(),
    lambda value: None if value is None else _decode_clock(value),
)


#: The events every game shares (created, joined, resigned, clocks...), by ``type``.
EVENT_TYPES: dict[str, type[Event]] = {}
#: Each game's own events (``Event.game``), by ``type``: read after ``EVENT_TYPES``.
GAME_EVENT_TYPES: dict[str, dict[str, type[Event]]] = {}


class Event:
    """Base of all events. Subclasses register themselves under ``type``."""

    type: ClassVar[str]
    fields: ClassVar[dict[str, codec.Codec[Any]]]
    #: Fields added after the first events of this type were written: an event that
    #: lacks one reads as its default, and one holding the default is written without it,
    #: so the events of games played under older rules read and write as they were.
    optional: ClassVar[dict[str, Any]] = {}
    #: Optional fields an older reader must not skip (they change what the event means):
    #: field -> the schema version that brought it. An event holding one (not its default)
    #: is written with that ``v``, which older readers refuse; without, it stays ``v: 1``.
    needs_version: ClassVar[dict[str, int]] = {}
    #: The game starts with this event: clocks start running (``mathable.core.clock``).
    starts_clocks: ClassVar[bool] = False
    #: The game ends with this event (its result, then its revealed order): what it holds
    #: (every seat's deductions, the bag order) was hidden until then.
    ends_game: ClassVar[bool] = False
    #: The game whose own event this is; "" for the events every game shares.
    game: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        known = _registered_type(cls.type)
        same = known is not None and (known.__module__, known.__qualname__) == (
            cls.__module__,
            cls.__qualname__,
        )
        if known is not None and not same:
            # Two games' events under one name would decode as whichever came last.
            raise TypeError(f"event type {cls.type!r} is taken by {known.__qualname__}")
        if not cls.game:
            EVENT_TYPES[cls.type] = cls
        else:
            GAME_EVENT_TYPES.setdefault(cls.game, {})[cls.type] = cls

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON-ready dict, with its type and schema version."""
        out: dict[str, Any] = {"type": self.type, "v": self.schema_version()}
        for name, field_codec in self.fields.items():
            value = getattr(self, name)
            if name in self.optional and value == self.optional[name]:
                continue
            out[name] = field_codec.encode(value)
        return out

    def schema_version(self) -> int:
        """The lowest schema version that reads this event right (its ``v``): 1, or the
        version of the newest ``needs_version`` field it holds.

        >>> Passed(seat=0).schema_version()
        1
        """
        found = 1
        for name, version in self.needs_version.items():
            if getattr(self, name) != self.optional[name]:
                found = max(found, version)
        return found

    @staticmethod
    def from_dict(data: Any) -> Event:
        """Read an event written by ``to_dict``; RuleError ``bad_event`` if it is not one.

        >>> Event.from_dict({"type": "passed", "v": 1})
        Traceback (most recent call last):
        ...
        mathable.core.errors.RuleError: bad_event: passed: missing field 'seat'
        """
        if not isinstance(data, dict):
            raise RuleError(
                "bad_event",
                says("an event must be a JSON object"),
                {"expected": "an object", "got": shown(data)},
            )
        kind = data.get("type")
        cls = _event_type(kind) if isinstance(kind, str) else None
        if cls is None:
            raise RuleError(
                "bad_event",
                says("unknown event type {type}", type=repr(str(kind)[:40])),
                {"type": shown(kind)},
            )
        version = data.get("v", 1)
        if (
            isinstance(version, bool)
            or not isinstance(version, int)
            or not (1 <= version <= SCHEMA_VERSION)
        ):
            raise RuleError(
                "bad_event",
                says(
                    "{type}: unsupported schema version {version}",
                    type=kind,
                    version=repr(version),
                ),
                {"type": kind, "v": shown(version), "min": 1, "max": SCHEMA_VERSION},
            )
        values = {}
        for name, field_codec in cls.fields.items():
            if name not in data and name in cls.optional:
                continue
            if name not in data:
                raise RuleError(
                    "bad_event",
                    says("{type}: missing field {field}", type=kind, field=repr(name)),
                    {"type": kind, "missing": name},
                )
            try:
                values[name] = field_codec.decode(data[name])
            except RuleError as err:
                raise RuleError(
                    "bad_event",
                    says("{type}.{field}: {message}", type=kind, field=name, message=err.message),
                    {**err.details, "type": kind, "field": name},
                ) from None
        return cls(**values)


def _event_type(kind: str) -> type[Event] | None:
    """The class of the events of type ``kind``, whichever game's they are."""
    found = _registered_type(kind)
    if found is None:
        # A game's events register when imported: with its ruleset, or with the module
        # its ruleset names (``events_module``), imported now; the games found so far
        # first (a program that plays one game imports no other), then every installed one.
        for every in (False, True):
            plugins.import_events(every=every)
            found = _registered_type(kind)
            if found is not None:
                break
    return found


def _registered_type(kind: str) -> type[Event] | None:
    """The class registered for ``kind`` so far, whichever game's it is."""
    found = EVENT_TYPES.get(kind)
    if found is None:
        for types in GAME_EVENT_TYPES.values():
            found = types.get(kind)
            if found is not None:
                break
    return found


@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    type: ClassVar[str] = "game_created"
    ruleset: str
    rules_version: int
    players: int
    referee: str
    seed: int | None
    tiles: tuple[int, ...] | None
    invited: tuple[str, ...]
    creator: str
    #: None: no clock (every game before clocks existed).
    clock: ClockSpec | None = None
    #: The hidden bag order, its salt and the public commitment to them (``mathable.core.audit``).
    order: tuple[int, ...] | None = None
    salt: str | None = None
    commitment: str | None = None
    #: The game was made from a record (``POST /v1/games/import``), not played here:
    #: ratings and statistics leave it out.
    imported: bool = False
    #: Every player in seat order, the creator among them (a rematch's seats, rotated);
    #: None: the creator in seat 0 and the others in the order they join.
    seating: tuple[str, ...] | None = None
    #: Who imported it (a player id): the game is listed as a game of that player only.
    importer: str | None = None
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "ruleset": codec.STR,
        "rules_version": codec.INT,
        "players": codec.INT,
        "referee": codec.STR,
        "seed": codec.OPT_INT,
        "tiles": codec.OPT_INTS,
        "invited": codec.STRS,
        "creator": codec.STR,
        "clock": CLOCK,
        "order": codec.OPT_INTS,
        "salt": codec.OPT_STR,
        "commitment": codec.OPT_STR,
        "imported": codec.BOOL,
        "seating": codec.OPT_STRS,
        "importer": codec.OPT_STR,
    }
    optional: ClassVar[dict[str, Any]] = {
        "clock": None,
        "order": None,
        "salt": None,
        "commitment": None,
        "imported": False,
        "seating": None,
        "importer": None,
    }
    #: A reader that skipped ``seating`` would seat the creator in 0 and the others as
    #: they join: a rematch's seats read wrong. It must refuse the event instead.
    needs_version: ClassVar[dict[str, int]] = {"seating": 2}

    def __post_init__(self) -> None:
        """Seats given name the creator, each player once, one a seat: else the event is
        no game's (``bad_event``, read or made), not a game that fails later."""
        seating = self.seating
        if seating is not None and (
            len(seating) != self.players
            or len(set(seating)) != len(seating)
            or self.creator not in seating
        ):
            raise RuleError(
                "bad_event",
                says(
                    "game_created.seating: the seats given must name the creator and each "
                    "player once, one a seat"
                ),
                {"type": self.type, "field": "seating"},
            )


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    type: ClassVar[str] = "player_joined"
    seat: int
    player: str
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT, "player": codec.STR}


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}


@dataclass(frozen=True, slots=True)
class Resigned(Event):
    type: ClassVar[str] = "resigned"
    seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat`` ran out of time: it can no longer move or win. ``claimed_by`` the opponent
    who claimed it (clocks with ``on_timeout: claim``), else None (the server found it)."""

    type: ClassVar[str] = "timed_out"
    seat: int
    claimed_by: int | None = None
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "claimed_by": codec.OPT_INT,
    }
    optional: ClassVar[dict[str, Any]] = {"claimed_by": None}


@dataclass(frozen=True, slots=True)
class TimeGiven(Event):
    """``seat`` gave ``seconds`` to seat ``to``'s clock."""

    type: ClassVar[str] = "time_given"
    seat: int
    to: int
    seconds: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "seat": codec.INT,
        "to": codec.INT,
        "seconds": codec.INT,
    }


@dataclass(frozen=True, slots=True)
class VacationStarted(Event):
    """The player of ``seat`` went on vacation for ``days`` days from the event's time."""

    type: ClassVar[str] = "vacation_started"
    seat: int
    days: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT, "days": codec.INT}


@dataclass(frozen=True, slots=True)
class VacationEnded(Event):
    """The player of ``seat`` came back from vacation early."""

    type: ClassVar[str] = "vacation_ended"
    seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}


@dataclass(frozen=True, slots=True)
class VacationDayUsed(Event):
    """``seat``'s clock reached zero and spent a vacation day instead: 24 hours more."""

    type: ClassVar[str] = "auto_vacation"
    seat: int
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"seat": codec.INT}


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    ends_game: ClassVar[bool] = True
    reason: str
    deductions: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {
        "reason": codec.STR,
        "deductions": codec.INTS,
        "scores": codec.INTS,
        "winners": codec.INTS,
    }


@dataclass(frozen=True, slots=True)
class DrawsRevealed(Event):
    """At the end: the bag order committed to at creation and its salt, for anyone to check."""

    type: ClassVar[str] = "draws_revealed"
    ends_game: ClassVar[bool] = True
    order: tuple[int, ...]
    salt: str
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"order": codec.INTS, "salt": codec.STR}


@dataclass(frozen=True, slots=True)
class InvitationDeclined(Event):
    """An invitee refused their seat: it is free again, for the invitees left (and for
    anyone once the creator opens the game, ``game_opened``)."""

    type: ClassVar[str] = "invitation_declined"
    player: str
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"player": codec.STR}


@dataclass(frozen=True, slots=True)
class GameOpened(Event):
    """The creator of a private game an invitee declined opened its free seats to anyone
    (until then nobody else may take them)."""

    type: ClassVar[str] = "game_opened"
    player: str
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"player": codec.STR}


@dataclass(frozen=True, slots=True)
class GameCancelled(Event):
    """The creator called off a game that had not started."""

    type: ClassVar[str] = "game_cancelled"
    player: str
    fields: ClassVar[dict[str, codec.Codec[Any]]] = {"player": codec.STR}


__all__ = [
    "SCHEMA_VERSION",
    "DrawsRevealed",
    "Event",
    "GameCancelled",
    "GameCreated",
    "GameEnded",
    "GameOpened",
    "InvitationDeclined",
    "Passed",
    "PlayerJoined",
    "Resigned",
    "TimeGiven",
    "TimedOut",
    "VacationDayUsed",
    "VacationEnded",
    "VacationStarted",
]
