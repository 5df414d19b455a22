"""Marshmallow schemas for what comes in at the edge: bodies and query strings.

Bodies are strict: JSON types must match exactly (``"12"`` is no tile, ``1``
is no boolean) and unknown fields are refused. What the schemas accept is
exactly what ``openapi.yaml`` describes; the rules package judges the rest.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

OPERATIONS = ("+", "-", "x", "/")
COMMAND_TYPES = (
    "place",
    "draw_extra",
    "end_turn",
    "turn",
    "exchange",
    "pass",
    "correct",
    "resign",
    "claim_timeout",
    "give_time",
    "equation",
    "discard",
)
#: DESIGN.md: ``\A[a-z0-9][a-z0-9_-]{1,31}\Z`` once case-folded. ``\Z``, not ``$``: a ``$``
#: also matches before a final newline, and ``"bob\n"`` would register beside ``bob``.
NAME_PATTERN = r"\A[A-Za-z0-9][A-Za-z0-9_-]{1,31}\Z"
INT64 = 2**63 - 1
#: Versions are stored as 32-bit integers; no game comes near.
MAX_VERSION = 2**31 - 1


class StrictInteger(fields.Integer):
    """A JSON integer, and only that: no strings, floats or booleans."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBoolean(fields.Field[bool]):
    """A JSON ``true`` or ``false``, and only that."""

    default_error_messages = {"invalid": "Not a boolean."}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


def _square() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=8))


def _tile(**kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=validate.Range(min=0, max=999), **kwargs)


class AnyTile(fields.Field):  # type: ignore[type-arg]
    """A tile of any game: a number (Mathable) or a short string (Summy: ``"7"``, ``"x"``);
    which tiles a game has is its ruleset's to say."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 999:
            return value
        if isinstance(value, str) and 1 <= len(value) <= 2:
            return value
        raise ValidationError("Not a tile: a number from 0 to 999, or a string of 1-2 characters.")


def _text_tile(**kwargs: Any) -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=2), **kwargs)


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class QuerySchema(Schema):
    class Meta:
        unknown = RAISE


# --- accounts -------------------------------------------------------------------


class RegisterSchema(StrictSchema):
    name = fields.String(required=True, validate=validate.Regexp(NAME_PATTERN))
    email = fields.Email(allow_none=True, validate=validate.Length(max=254))
    invitation = fields.String(validate=validate.Length(max=200))


class MeQuerySchema(QuerySchema):
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    #: Each game's scores and last turn too: a person's list, not a bot's poll.
    details = fields.Boolean(load_default=False)


# --- games ------------------------------------------------------------------------


#: No clock duration is longer than a year (the rules say so too: ``mathable.core.clock``).
MAX_CLOCK_SECONDS = 365 * 86400


def _seconds(minimum: int = 1, **kwargs: Any) -> StrictInteger:
    return StrictInteger(validate=validate.Range(min=minimum, max=MAX_CLOCK_SECONDS), **kwargs)


class ClockSchema(StrictSchema):
    """``per_move`` or a bank (``initial``, ``increment``, ``max``), in seconds."""

    per_move = _seconds(load_default=None)
    initial = _seconds(load_default=None)
    increment = _seconds(minimum=0, load_default=0)
    max = _seconds(load_default=None)
    weekends_off = StrictBoolean(load_default=False)
    on_timeout = fields.String(load_default="lose", validate=validate.OneOf(("lose", "claim")))
    auto_vacation = StrictBoolean(load_default=True)


class CreateGameSchema(StrictSchema):
    ruleset = fields.String(load_default="mathable", validate=validate.Length(min=1, max=32))
    players = StrictInteger(load_default=2, validate=validate.Range(min=-INT64, max=INT64))
    referee = fields.String(load_default="server", validate=validate.Length(max=32))
    seed = StrictInteger(
        load_default=None, allow_none=True, validate=validate.Range(min=-INT64, max=INT64)
    )
    tiles = fields.List(
        AnyTile(required=True),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=200),
    )
    # Invitees are player names, so they take the same form (no NUL, no stray surrogates).
    invite = fields.List(
        fields.String(validate=validate.Regexp(NAME_PATTERN)),
        load_default=list,
        validate=validate.Length(max=3),
    )
    clock = fields.Nested(ClockSchema, load_default=None, allow_none=True)


class ViewQuerySchema(QuerySchema):
    wait = fields.Float(validate=validate.Range(min=0, max=60))
    since = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION))


class EventsQuerySchema(QuerySchema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=1000))


# --- commands ---------------------------------------------------------------------


class EquationSchema(StrictSchema):
    near = _square()
    far = _square()
    op = fields.String(required=True, validate=validate.OneOf(OPERATIONS))


def _equations() -> fields.List[Any]:
    return fields.List(
        fields.Nested(EquationSchema), load_default=None, validate=validate.Length(max=4)
    )


class CommandSchema(StrictSchema):
    type = fields.String(required=True, validate=validate.OneOf(COMMAND_TYPES))
    expected_version = StrictInteger(validate=validate.Range(min=0, max=MAX_VERSION))


class PlaceSchema(CommandSchema):
    square = _square()
    tile = _tile(required=True)
    equations = _equations()


class TurnPlacementSchema(StrictSchema):
    square = _square()
    tile = _tile(required=True)
    draw_extra = StrictBoolean(load_default=False)
    equations = _equations()


class TurnSchema(CommandSchema):
    placements = fields.List(
        fields.Nested(TurnPlacementSchema), required=True, validate=validate.Length(max=64)
    )


class ExchangeSchema(CommandSchema):
    tiles = fields.List(_tile(required=True), required=True, validate=validate.Length(max=16))


class TablePlacementSchema(StrictSchema):
    """A Summy tile laid on the open table at (x, y); the rules bound x and y."""

    x = StrictInteger(required=True, validate=validate.Range(min=-INT64, max=INT64))
    y = StrictInteger(required=True, validate=validate.Range(min=-INT64, max=INT64))
    tile = _text_tile(required=True)


class EquationCommandSchema(CommandSchema):
    placements = fields.List(
        fields.Nested(TablePlacementSchema), required=True, validate=validate.Length(max=16)
    )
    direction = fields.String(
        load_default=None, allow_none=True, validate=validate.OneOf(("across", "down"))
    )


class DiscardSchema(CommandSchema):
    tiles = fields.List(_text_tile(required=True), required=True, validate=validate.Length(max=16))


class GiveTimeSchema(CommandSchema):
    seat = StrictInteger(required=True, validate=validate.Range(min=0, max=3))
    seconds = _seconds(required=True)


class VacationSchema(StrictSchema):
    days = StrictInteger(required=True, validate=validate.Range(min=1, max=366))


COMMAND_SCHEMAS: dict[str, Schema] = {
    "place": PlaceSchema(),
    "give_time": GiveTimeSchema(),
    "turn": TurnSchema(),
    "exchange": ExchangeSchema(),
    "equation": EquationCommandSchema(),
    "discard": DiscardSchema(),
    **{
        name: CommandSchema()
        for name in ("draw_extra", "end_turn", "pass", "correct", "resign", "claim_timeout")
    },
}


def load_command(data: dict[str, Any]) -> dict[str, Any]:
    """Validate a command body by its ``type``; ValidationError if it is malformed."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_SCHEMAS:
        raise ValidationError(
            {"type": [f"Must be one of: {', '.join(COMMAND_TYPES)}."]}, field_name="type"
        )
    loaded: dict[str, Any] = COMMAND_SCHEMAS[kind].load(data)
    return loaded
