"""Small typed codecs that turn event fields into JSON values and back, strictly."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from mathable.core.errors import RuleError
from mathable.core.words import Text, says

T = TypeVar("T")


@dataclass(frozen=True)
class Codec(Generic[T]):
    """How one field is written to JSON and read back; ``decode`` raises RuleError."""

    encode: Callable[[T], Any]
    decode: Callable[[Any], T]


def _bad(what: str, value: Any) -> RuleError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return RuleError(
        "bad_event",
        says("expected {what}, got {got}", what=_said(what), got=shown),
        {"expected": what, "got": shown},
    )


def _said(what: str) -> str:
    """What a field expects, in words a person reads: a marked text as it is, the codecs'
    own words marked here."""
    return what if isinstance(what, Text) else _EXPECTED.get(what, what)


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad("an integer", value)
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise _bad("a string", value)
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _bad("true or false", value)
    return value


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise _bad("a list", value)
    return list(value)


def _optional(inner: Codec[T]) -> Codec[T | None]:
    return Codec(
        lambda v: None if v is None else inner.encode(v),
        lambda v: None if v is None else inner.decode(v),
    )


def _tuple_of(inner: Codec[T]) -> Codec[tuple[T, ...]]:
    return Codec(
        lambda v: [inner.encode(x) for x in v],
        lambda v: tuple(inner.decode(x) for x in _list(v)),
    )


#: The words of what the codecs expect, marked to be said in the reader's language.
_EXPECTED = {
    "an integer": says("an integer"),
    "a string": says("a string"),
    "true or false": says("true or false"),
    "a list": says("a list"),
    "an object": says("an object"),
}

INT: Codec[int] = Codec(lambda v: v, _int)
STR: Codec[str] = Codec(lambda v: v, _str)
BOOL: Codec[bool] = Codec(lambda v: v, _bool)
LIST: Codec[list[Any]] = Codec(list, _list)
OPT_INT = _optional(INT)
OPT_STR = _optional(STR)
INTS = _tuple_of(INT)
INTS_LIST = _tuple_of(INTS)
STRS = _tuple_of(STR)
OPT_INTS = _optional(INTS)
OPT_STRS = _optional(STRS)
tuple_of = _tuple_of
bad = _bad


def record(cls: type[T], fields: dict[str, Codec[Any]]) -> Codec[T]:
    """A codec for a small frozen dataclass written as a JSON object."""

    def encode(value: T) -> dict[str, Any]:
        return {name: codec.encode(getattr(value, name)) for name, codec in fields.items()}

    def decode(value: Any) -> T:
        if not isinstance(value, dict):
            raise _bad("an object", value)
        missing = [n for n in fields if n not in value]
        if missing:
            raise RuleError(
                "bad_event",
                says("missing field {field}", field=repr(missing[0])),
                {"missing": missing[0]},
            )
        return cls(**{n: c.decode(value[n]) for n, c in fields.items()})

    return Codec(encode, decode)
