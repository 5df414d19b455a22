"""Marshmallow schemas for what comes in at the edge: bodies and query strings.

Bodies are strict: JSON types must match exactly (``"12"`` is no tile, ``1``
is no boolean) and unknown fields are refused. What the schemas accept is
exactly what ``openapi.yaml`` describes; the rules package judges the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, missing, validate

from mathable.core.lifecycle.shared import command_schemas as kernel_command_schemas
from mathable.core.plugins import DEFAULT_RULESET
from mathable.core.ruleset import Ruleset, rulesets

#: The kernel's command types (``mathable.core.lifecycle.shared``): every game takes them
#: (claim_timeout is judged by the server, the others by the game's rules).
KERNEL_COMMANDS = tuple(kernel_command_schemas())
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


class AnyTile(fields.Field):  # type: ignore[type-arg]
    """A tile of any game: a number (Mathable) or a short string (Summy: ``"7"``, ``"x"``);
    which tiles a game has is its ruleset's to say."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 999:
            return value
        if isinstance(value, str) and 1 <= len(value) <= 2:
            return value
        raise ValidationError("Not a tile: a number from 0 to 999, or a string of 1-2 characters.")


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
    #: A bot's account (it says so, for good): games are rated by default only among people.
    bot = StrictBoolean(load_default=False)


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


class ImportRecordSchema(StrictSchema):
    """``POST /v1/games/import``: a finished game's complete record (docs/records.md)."""

    record = fields.String(required=True, validate=validate.Length(min=1, max=60_000))


class ArchiveQuerySchema(QuerySchema):
    """``GET /v1/players/{name}/games``: a page of a player's finished games."""

    max = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))
    #: The last game of the page before (its id): the page goes on after it.
    before = fields.String(load_default=None, validate=validate.Regexp(r"\A[A-Za-z0-9_-]{1,32}\Z"))


class CreateGameSchema(StrictSchema):
    ruleset = fields.String(load_default=DEFAULT_RULESET, validate=validate.Length(min=1, max=32))
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
    #: Rated (ratings move, no hints): by default when neither tiles nor a seed is given.
    rated = StrictBoolean(load_default=None, allow_none=True)
    #: A computer level (``GET /v1/computers``) seated in the next free seat at once.
    computer = fields.String(
        load_default=None, allow_none=True, validate=validate.Regexp(r"\A[a-z0-9-]{1,20}\Z")
    )


class ViewQuerySchema(QuerySchema):
    wait = fields.Float(validate=validate.Range(min=0, max=60))
    since = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION))


class EventsQuerySchema(QuerySchema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=1000))


# --- commands ---------------------------------------------------------------------


class CommandSchema(StrictSchema):
    """The fields of every command body: its ``type`` (checked by ``load_command``) and the
    version it expects; each game's own command adds its fields (``Ruleset.command_schemas``)."""

    type = fields.String(required=True)
    expected_version = StrictInteger(validate=validate.Range(min=0, max=MAX_VERSION))


class VacationSchema(StrictSchema):
    days = StrictInteger(required=True, validate=validate.Range(min=1, max=366))


#: What a JSON Schema's ``type`` reads into (the subset of ``Ruleset.command_schemas``).
_SCALARS: dict[str, Callable[..., fields.Field[Any]]] = {
    "integer": StrictInteger,
    "string": fields.String,
    "boolean": StrictBoolean,
}


class _OpenSchema(Schema):
    """An object schema that keeps the fields it does not declare."""

    class Meta:
        unknown = INCLUDE


def _validators(spec: Mapping[str, Any]) -> list[validate.Validator]:
    found: list[validate.Validator] = []
    if "minimum" in spec or "maximum" in spec:
        found.append(validate.Range(min=spec.get("minimum"), max=spec.get("maximum")))
    low = spec.get("minLength", spec.get("minItems"))
    high = spec.get("maxLength", spec.get("maxItems"))
    if low is not None or high is not None:
        found.append(validate.Length(min=low, max=high))
    if "enum" in spec:
        found.append(validate.OneOf([v for v in spec["enum"] if v is not None]))
    return found


def _field(spec: Mapping[str, Any], *, required: bool = False) -> fields.Field[Any]:
    """The marshmallow field of one JSON Schema property."""
    kind = spec.get("type")
    nullable = isinstance(kind, list) and "null" in kind
    if isinstance(kind, list):
        kind = next(k for k in kind if k != "null")
    options: dict[str, Any] = {"required": required, "validate": _validators(spec)}
    if nullable:
        options["allow_none"] = True
    if "default" in spec and not required:
        options["load_default"] = spec["default"]
    if kind == "array":
        return fields.List(_field(spec.get("items") or {}), **options)
    if kind == "object":
        return fields.Nested(_schema_class(spec), **options)
    if kind in _SCALARS:
        return _SCALARS[kind](**options)
    return fields.Raw(**options)


def _schema_class(spec: Mapping[str, Any], base: type[Schema] | None = None) -> type[Schema]:
    """A JSON Schema object as a marshmallow schema class (strict when it allows no other
    properties)."""
    needed = set(spec.get("required") or ())
    declared: dict[str, fields.Field[Any] | type] = {}
    if base is not None:
        declared.update(base._declared_fields)  # type, expected_version first
    for name, prop in (spec.get("properties") or {}).items():
        declared[name] = _field(prop, required=name in needed)
    strict = base is not None or spec.get("additionalProperties") is False
    parent = StrictSchema if strict else _OpenSchema
    return parent.from_dict(declared)  # type: ignore[arg-type]


#: The body of each kernel command, as the kernel gives it.
_KERNEL_SCHEMAS: dict[str, type[Schema]] = {
    kind: _schema_class(spec, CommandSchema) for kind, spec in kernel_command_schemas().items()
}


def _listed(rules: Ruleset, own: Sequence[str]) -> list[str]:
    """The command types a game takes, in the order it lists them (``command_types``), its
    own ones in the order of its ``command_schemas``."""
    rest = iter(own)
    listed = [next(rest) if kind in own else kind for kind in rules.command_types]
    return listed + [kind for kind in rest if kind not in listed]


def _merged(orders: Sequence[Sequence[str]]) -> list[str]:
    """Every type once, each order kept: a type new to the list goes right after the type
    before it in its own order, or at the end."""
    merged: list[str] = []
    for order in orders:
        before: str | None = None
        for kind in order:
            if kind not in merged:
                merged.insert(merged.index(before) + 1 if before is not None else len(merged), kind)
            before = kind
    return merged


class CommandSchemas:
    """Each command type's body schema: the kernel's and every installed game's own
    (``Ruleset.command_schemas``), built when first asked and again when the installed
    games change."""

    def __init__(self) -> None:
        self._games: tuple[str, ...] | None = None
        self._schemas: dict[str, Schema] = {}
        self._types: tuple[str, ...] = ()
        self._quick: dict[str, QuickLoad] = {}

    def _build(self) -> None:
        games = rulesets()
        names = tuple(sorted(games))
        if names == self._games:
            return
        default = [DEFAULT_RULESET] if DEFAULT_RULESET in games else []
        order = default + [name for name in names if name != DEFAULT_RULESET]
        schemas: dict[str, Schema] = {kind: schema() for kind, schema in _KERNEL_SCHEMAS.items()}
        specs: dict[str, list[dict[str, Any]]] = {kind: [] for kind in schemas}
        orders: list[Sequence[str]] = []
        for index, name in enumerate(order):
            rules = games[name]
            own = rules.command_schemas()
            for kind, spec in own.items():
                made = _schema_class(spec, CommandSchema)()
                if kind not in schemas:
                    schemas[kind] = made
                    specs[kind] = [spec]
                elif spec not in specs[kind]:  # two games, one type, two forms: either
                    specs[kind].append(spec)
                    schemas[kind] = _EitherSchema((*_forms(schemas[kind]), made))
            orders.append(_listed(rules, list(own)))
            if index == 0:
                orders.append(KERNEL_COMMANDS)
        if not order:
            orders.append(KERNEL_COMMANDS)
        self._schemas, self._types, self._games = schemas, tuple(_merged(orders)), names

    @property
    def types(self) -> tuple[str, ...]:
        """Every command type, in the order the API lists them."""
        self._build()
        return self._types

    def get(self, kind: str) -> Schema | None:
        self._build()
        return self._schemas.get(kind) if kind in self._types else None

    def quick(self, kind: str) -> QuickLoad | None:
        """The type's schema with its ``QuickLoad`` (``.schema``), or None for no such type."""
        schema = self.get(kind)
        if schema is None:
            return None
        found = self._quick.get(kind)
        if found is None or found.schema is not schema:
            found = self._quick[kind] = QuickLoad(schema)
        return found


#: Every command type's body schema, as the installed games and the kernel give them.
COMMAND_SCHEMAS = CommandSchemas()


class _EitherSchema(Schema):
    """A command type two installed games both have, each with its own body: a body of
    either form passes (the game's own rules read it, and refuse what is not theirs);
    one of neither is refused with the first game's reasons."""

    def __init__(self, forms: Sequence[Schema]) -> None:
        super().__init__()
        self.forms = tuple(forms)

    def load(self, data: Any, **kwargs: Any) -> Any:
        first: ValidationError | None = None
        for form in self.forms:
            try:
                return form.load(data, **kwargs)
            except ValidationError as err:
                first = first or err
        assert first is not None
        raise first


def _forms(schema: Schema) -> tuple[Schema, ...]:
    return schema.forms if isinstance(schema, _EitherSchema) else (schema,)


class QuickLoad:
    """A strict schema's ``load`` for the bodies it surely accepts, without marshmallow's
    machinery: what ``schema.load`` returns, or None when the body has a field that is
    not a plain JSON value of its field's type, or may be refused (then ``schema.load``
    judges it, and words the refusal).

    Only for schemas of plain fields (``StrictInteger``, ``fields.String``,
    ``StrictBoolean``; a field of another kind only while absent) with no hooks and no
    other names for their fields. The types are checked exactly (a JSON value has no
    subclass) and the fields' own validators run on the value, as ``load`` runs them.
    A command's body is loaded on every move: this is about 40 microseconds less of a
    move's CPU (issue 47). ``tests/server/http/test_quick_load.py`` holds it to
    ``schema.load`` on random bodies of every command type.
    """

    _PLAIN: dict[type[fields.Field[Any]], type] = {
        StrictInteger: int,
        fields.String: str,
        StrictBoolean: bool,
    }

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        #: name -> (its JSON type, None: not plain; required; allows null; validators; default)
        self.fields: dict[str, tuple[type | None, bool, bool, list[Any], Any]] = {}
        self.usable = (
            type(schema) is not _EitherSchema
            and schema.unknown == RAISE
            and not any(schema._hooks.values())
            and all(f.data_key is None and f.attribute is None for f in schema.fields.values())
            # marshmallow 4's own processors of a field, and a field that is never loaded
            and not any(f.pre_load or f.post_load for f in schema.fields.values())
            and schema.load_fields.keys() == schema.fields.keys()
        )
        for name, field in schema.fields.items():
            plain = self._PLAIN.get(type(field))
            self.fields[name] = (
                plain, bool(field.required), bool(field.allow_none), list(field.validators),
                field.load_default,
            )  # fmt: skip

    def load(self, data: dict[str, Any]) -> dict[str, Any] | None:
        if not self.usable or not data.keys() <= self.fields.keys():
            return None
        out: dict[str, Any] = {}
        for name, (plain, required, nullable, validators, default) in self.fields.items():
            if name not in data:
                if required:
                    return None
                if default is not missing:
                    out[name] = default() if callable(default) else default
                continue
            value = data[name]
            if value is None:
                if not nullable:
                    return None
                out[name] = None
                continue
            if plain is None or type(value) is not plain:
                return None
            try:
                for check in validators:
                    check(value)
            except ValidationError:
                return None
            out[name] = value
        return out


def load_command(data: dict[str, Any]) -> dict[str, Any]:
    """Validate a command body by its ``type``; ValidationError if it is malformed."""
    kind = data.get("type")
    quick = COMMAND_SCHEMAS.quick(kind) if isinstance(kind, str) else None
    if quick is None:
        raise ValidationError(
            {"type": [f"Must be one of: {', '.join(COMMAND_SCHEMAS.types)}."]}, field_name="type"
        )
    loaded = quick.load(data)
    if loaded is None:
        loaded = quick.schema.load(data)
    return loaded


# --- between players ----------------------------------------------------------------


class MeSettingsSchema(StrictSchema):
    #: An IANA name, checked against the tz database (``games.timesource.known_time_zone``);
    #: null: UTC.
    time_zone = fields.String(allow_none=True, validate=validate.Length(min=1, max=64))
    #: One of ``mathable_i18n.LANGUAGES`` (or a tag of one: ``fr-CA``), checked by the route;
    #: null: the request's ``Accept-Language``.
    language = fields.String(allow_none=True, validate=validate.Length(min=1, max=16))
    #: The account is a bot's, for good: only ``true`` (a bot does not become a person).
    bot = StrictBoolean(validate=validate.Equal(True, error="an account that is a bot stays one"))


class MessageSchema(StrictSchema):
    #: Trimmed, checked and measured by ``games.messages.message_text`` (stable codes: a
    #: text too long is 422 ``message_too_long``, whatever its length; the body's own
    #: limit bounds it).
    text = fields.String(required=True)


class MessagesQuerySchema(QuerySchema):
    since = fields.Integer(load_default=0, validate=validate.Range(min=0, max=INT64))
    limit = fields.Integer(load_default=500, validate=validate.Range(min=1, max=500))
